//! What a swept cell may be: its multiplier for the profile, with the counted units.

use super::rows::{first_blocked_swept, first_refused_by_cells};
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
    /// The cells the profile may not enter: a segment whose bound is at least `highest` only
    /// needs its cells free of these and of the units that refuse a cell whatever its terrain
    /// (see [`obstacles`](Self::obstacles)).
    blocked: Option<&'a BlockedCells>,
}

/// What refuses a segment whose bound no terrain the profile enters exceeds: the terrain it
/// may not enter, and the cells under counted units that refuse a cell whatever its terrain
/// (blocking ones outside the start's footprint, or ones whose cost is above the bound).
#[derive(Clone, Copy)]
pub(crate) struct Obstacles<'a> {
    /// The cells the profile may not enter.
    pub terrain: &'a BlockedCells,
    /// The cells under the units that refuse (a view for agent size 1), if any do, with the
    /// anchor whose footprint's cells they never refuse (the start, where units block).
    pub units: Option<(&'a UnitsView, Option<(i64, i64)>)>,
    /// The agent size.
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
            blocked,
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
    /// terrain the profile enters costs more than `bound`. A cell under a unit counted by cost
    /// `M` then costs `max(terrain, M)`, above the bound exactly when `M` is.
    #[inline]
    pub(crate) fn obstacles(&self, bound: u32) -> Option<Obstacles<'a>> {
        let terrain = self.blocked.filter(|_| bound >= self.highest)?;
        Some(Obstacles {
            terrain,
            units: self.refusing_units(bound),
            size: self.size,
        })
    }

    /// The counted units whose cells a segment with bound `bound` may not sweep whatever
    /// their terrain, with the anchor whose footprint is left out: blocking units but in the
    /// start's footprint, or units counted by a cost above the bound.
    fn refusing_units(&self, bound: u32) -> Option<(&'a UnitsView, Option<(i64, i64)>)> {
        let units = self.units?;
        match units.rule {
            OtherUnits::Cost(cost) => (cost.fixed() > bound).then_some((units.cells, None)),
            _ => Some((units.cells, Some(self.start))),
        }
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
            OtherUnits::Cost(cost) => terrain.max(cost.fixed()),
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
    /// on the bits, a line at a time; otherwise row by row, the terrain cell by cell and the
    /// units' cells on their bits. Either way the cell named is on the first line from `from`
    /// that holds one.
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
        let units =
            (self.refusing_units(bound)).map(|(cells, start)| (cells.blocked_lines(false), start));
        let (terrain, profile) = (self.terrain, self.profile);
        let refused = |row: usize, x: i64| {
            let multiplier = profile.fixed_multiplier(terrain[row + x as usize]);
            multiplier.is_none_or(|multiplier| multiplier > bound)
        };
        first_refused_by_cells(from, to, self.size, refused, units, self.width)
    }

    /// Whether map-local `(x, y)` lies in the start anchor's footprint.
    fn in_start_footprint(&self, x: i64, y: i64) -> bool {
        let (sx, sy) = self.start;
        (sx..sx + self.size).contains(&x) && (sy..sy + self.size).contains(&y)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sweep::{all_swept, sweeps_cell};
    use super::*;
    use crate::occupancy::UnitCost;
    use crate::test_rng::TestRng;

    #[test]
    fn the_rows_by_multipliers_agree_with_the_cell_by_cell_rule() {
        let (width, height) = (37usize, 26usize);
        let profile = AgentProfile::new("unit")
            .with_terrain(0, 1.0)
            .and_then(|profile| profile.with_terrain(2, 2.5))
            .and_then(|profile| profile.with_terrain(3, 0.5))
            .expect("valid multipliers");
        // The profile's own multipliers, so that a cell's can equal the bound.
        let levels = [3, 0, 2].map(|id| profile.fixed_multiplier(id).expect("enterable"));
        let mut rng = TestRng(29);
        let (mut accepted, mut by_terrain, mut by_units) = (0, 0, 0);
        for round in 0..36u64 {
            // Walls (id 1) are rare, so that the multipliers decide most segments.
            let terrain: Vec<u8> = (0..width * height)
                .map(|_| match rng.below(40) {
                    0 => 1,
                    1..=6 => 2,
                    7..=10 => 3,
                    _ => 0,
                })
                .collect();
            let paged = PagedVec::from(terrain.clone());
            // Every other pair of rounds with the walls as bits, which decide the segments
            // whose bound is the highest multiplier.
            let walls = BlockedCells::new(width, height, |x, y| terrain[y * width + x] == 1);
            let walls = (round % 8 >= 4).then_some(&walls);
            let (_, view) = super::super::random_unit_cells(&mut rng, (width, height), 6);
            let rule = match round % 4 {
                0 => OtherUnits::Ignore,
                1 => OtherUnits::Block,
                2 => OtherUnits::Cost(UnitCost::from_fixed(levels[1]).unwrap()),
                _ => OtherUnits::Cost(UnitCost::from_fixed(levels[2] + 1).unwrap()),
            };
            for _ in 0..300 {
                let size = 1 + rng.below(3);
                let mut anchor = || {
                    (
                        rng.below(width as i64 - size + 1),
                        rng.below(height as i64 - size + 1),
                    )
                };
                let (from, to) = (anchor(), anchor());
                let rules = CellRules::new(
                    (&paged, width),
                    walls,
                    &profile,
                    size as u8,
                    from,
                    Some(CellUnits { cells: &view, rule }),
                );
                let bound = levels[rng.below(3) as usize];
                let found = rules.first_refused(from, to, bound);
                let by_cells = all_swept(from, to, size, |x, y| rules.multiplier(x, y) <= bound);
                assert_eq!(
                    found.is_none(),
                    by_cells,
                    "round {round}, size {size}, bound {bound}, {from:?} to {to:?}"
                );
                match found {
                    None => accepted += 1,
                    Some((x, y)) => {
                        assert!(sweeps_cell(from, to, size, (x, y)));
                        assert!(rules.multiplier(x, y) > bound);
                        let terrain_multiplier = profile
                            .fixed_multiplier(terrain[y as usize * width + x as usize])
                            .unwrap_or(FORBIDDEN);
                        if terrain_multiplier > bound {
                            by_terrain += 1;
                        } else {
                            by_units += 1;
                        }
                    }
                }
            }
        }
        assert!(
            accepted > 500 && by_terrain > 500 && by_units > 200,
            "{accepted} accepted, {by_terrain} refused by terrain, {by_units} by units"
        );
    }
}
