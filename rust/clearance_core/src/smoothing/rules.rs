//! What a swept cell may be: its multiplier for the profile, with the counted units.

use super::rows::first_blocked_swept;
use super::sweep::all_swept;
use crate::blocked_cells::BlockedCells;
use crate::occupancy::OtherUnits;
use crate::paged::PagedVec;
use crate::profile::AgentProfile;
use crate::search::UnitsView;

/// The multiplier of a cell no segment may sweep: terrain the profile may not enter, or a cell
/// under a unit that blocks. Above every real multiplier.
pub(crate) const FORBIDDEN: u32 = u32::MAX;

/// The counted units, cell by cell: a view built for agent size 1, whose blocked anchors are
/// exactly the cells under a counted unit (with no start exempt).
#[derive(Clone, Copy)]
pub(crate) struct CellUnits<'a> {
    /// The cells under counted units.
    pub cells: &'a UnitsView,
    /// How they count: `Block` or `Cost(M)`.
    pub rule: OtherUnits,
}

/// The rules one smoothing call holds swept cells to (see the parent module's "The rule a
/// segment keeps"), on map-local coordinates.
pub(crate) struct CellRules<'a> {
    terrain: &'a PagedVec<u8>,
    width: usize,
    /// The profile: its fixed-point multiplier per terrain id, none where it may not enter.
    profile: &'a AgentProfile,
    units: Option<CellUnits<'a>>,
    /// The start anchor (map-local): under `Block`, cells of its footprint are never refused
    /// for a unit.
    start: (i64, i64),
    size: i64,
    /// Every cell the profile may enter has one multiplier, and no unit raises it: the bound
    /// of the rule holds for every cell that is not forbidden.
    uniform: bool,
    /// The highest multiplier of a terrain the profile may enter.
    highest: u32,
    /// The cells the profile may not enter, unless units count by cost: then a segment whose
    /// bound is at least `highest` only needs its cells free of these and of blocking units
    /// (see `rows.rs`).
    blocked: Option<&'a BlockedCells>,
}

/// What refuses a segment whose bound no terrain the profile enters exceeds: the terrain it
/// may not enter, and the cells under blocking units outside the start's footprint.
#[derive(Clone, Copy)]
pub(crate) struct Obstacles<'a> {
    /// The cells the profile may not enter.
    pub terrain: &'a BlockedCells,
    /// The cells under blocking units (a view for agent size 1), if a unit blocks.
    pub units: Option<&'a UnitsView>,
    /// The start anchor and the agent size: cells of the start's footprint are never
    /// refused for a unit.
    pub start: (i64, i64),
    pub size: i64,
}

impl<'a> CellRules<'a> {
    /// The rules for an agent of `size` with `profile` on `terrain` (row by row, `width`
    /// wide), starting at map-local `start`, with `units` counted (`None` if none counts).
    ///
    /// `blocked` holds the cells of the profile's capability it may not enter, if the caller
    /// has them.
    pub(crate) fn new(
        (terrain, width): (&'a PagedVec<u8>, usize),
        blocked: Option<&'a BlockedCells>,
        profile: &'a AgentProfile,
        size: u8,
        start: (i64, i64),
        units: Option<CellUnits<'a>>,
    ) -> Self {
        let units_cost = matches!(
            units,
            Some(CellUnits {
                rule: OtherUnits::Cost(_),
                ..
            })
        );
        let uniform =
            !units_cost && profile.min_fixed_multiplier() == profile.max_fixed_multiplier();
        let units = units.filter(|units| units.rule != OtherUnits::Ignore);
        CellRules {
            terrain,
            width,
            highest: profile.max_fixed_multiplier().unwrap_or(0),
            blocked: blocked.filter(|_| !units_cost),
            profile,
            units,
            start,
            size: i64::from(size),
            uniform,
        }
    }

    /// The agent size.
    pub(crate) fn size(&self) -> i64 {
        self.size
    }

    /// Whether every cell that is not forbidden meets every bound (see the field).
    pub(crate) fn uniform(&self) -> bool {
        self.uniform
    }

    /// What decides a segment whose multiplier bound is `bound`, if only obstacles do: no
    /// unit counts by cost and no terrain the profile enters costs more than `bound`.
    #[inline]
    pub(crate) fn obstacles(&self, bound: u32) -> Option<Obstacles<'a>> {
        let terrain = self.blocked.filter(|_| bound >= self.highest)?;
        Some(Obstacles {
            terrain,
            units: self.units.map(|units| units.cells),
            start: self.start,
            size: self.size,
        })
    }

    /// The multiplier of the cell at map-local `(x, y)` under these rules, [`FORBIDDEN`] if no
    /// segment may sweep it. The cell must lie on the map.
    #[inline]
    pub(crate) fn multiplier(&self, x: i64, y: i64) -> u32 {
        let index = y as usize * self.width + x as usize;
        let terrain = (self.profile)
            .fixed_multiplier(self.terrain[index])
            .unwrap_or(FORBIDDEN);
        let Some(units) = self.units else {
            return terrain;
        };
        if terrain == FORBIDDEN || !units.cells.is_blocked(index) {
            return terrain;
        }
        match units.rule {
            OtherUnits::Cost(multiplier) => terrain.max(multiplier),
            _ if self.in_start_footprint(x, y) => terrain,
            _ => FORBIDDEN,
        }
    }

    /// A cell that the agent's square sweeps moving in a straight line from map-local anchor
    /// `from` to anchor `to` (both footprints on the map) and whose multiplier under these
    /// rules is above `bound`, or `None` if there is none. With `bound` below [`FORBIDDEN`],
    /// forbidden cells always refuse.
    ///
    /// Where only obstacles decide (see [`obstacles`](Self::obstacles)), the sweep is tested
    /// on the bits, a line at a time, and the cell named is on the first line from `from` that
    /// holds one; otherwise cell by cell.
    #[inline]
    pub(crate) fn first_refused(
        &self,
        from: (i64, i64),
        to: (i64, i64),
        bound: u32,
    ) -> Option<(i64, i64)> {
        if let Some(obstacles) = self.obstacles(bound) {
            return first_blocked_swept(from, to, &obstacles);
        }
        let mut refused = None;
        all_swept(from, to, self.size, |x, y| {
            let keeps = self.multiplier(x, y) <= bound;
            if !keeps {
                refused = Some((x, y));
            }
            keeps
        });
        refused
    }

    /// Whether map-local `(x, y)` lies in the start anchor's footprint.
    fn in_start_footprint(&self, x: i64, y: i64) -> bool {
        let (sx, sy) = self.start;
        (sx..sx + self.size).contains(&x) && (sy..sy + self.size).contains(&y)
    }
}
