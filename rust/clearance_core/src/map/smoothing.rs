//! Taut waypoints of a path: for query results that ask for them, and for any path of legal
//! steps a caller holds (a flow field's, say).

use super::PathMap;
use crate::clearance::ClearanceLayer;
use crate::error::SmoothingError;
use crate::footprint::checked_agent_size;
use crate::grid::Cell;
use crate::movement::DIRECTIONS;
use crate::occupancy::{OtherUnits, UnitId};
use crate::profile::AgentProfile;
use crate::search::Counted;
use crate::smoothing::{taut_waypoints, CellRules, CellUnits, PathAnchors, SmoothingMemory};

impl PathMap {
    /// The taut waypoints of `path`, a chain of legal steps for an agent of `agent_size` with
    /// the profile called `profile`, with the units on the map counted by `other_units` (all
    /// but `exempt_units`): the anchors a query with [`Smoothing::Taut`](crate::Smoothing)
    /// would return for that path (see the crate's `smoothing` module docs for the rule each
    /// segment keeps and the proof that none of the waypoints can be dropped).
    ///
    /// The path is checked before anything is computed: every anchor on the map and legal for
    /// the agent, consecutive anchors one legal step apart under the map's movement, and under
    /// [`OtherUnits::Block`] no step into or diagonally past an anchor a counted unit blocks
    /// (the first anchor is never blocked).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, OtherUnits, PathMap, Region, SmoothingError, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 6, 6), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let stairs: Vec<Cell> = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2)]
    ///     .into_iter()
    ///     .map(Cell::from)
    ///     .collect();
    /// let waypoints = map.smooth_path(&stairs, 1, "unit", OtherUnits::Ignore, &[])?;
    /// assert_eq!(waypoints, [Cell::new(0, 0), Cell::new(3, 2)]);
    /// // A jump of two cells is no step.
    /// let jump = [Cell::new(0, 0), Cell::new(2, 0)];
    /// assert!(matches!(
    ///     map.smooth_path(&jump, 1, "unit", OtherUnits::Ignore, &[]),
    ///     Err(SmoothingError::NotAStep { index: 0, .. })
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn smooth_path(
        &self,
        path: &[Cell],
        agent_size: i64,
        profile: &str,
        other_units: OtherUnits,
        exempt_units: &[UnitId],
    ) -> Result<Vec<Cell>, SmoothingError> {
        let size = checked_agent_size(agent_size)
            .ok_or(SmoothingError::InvalidAgentSize { size: agent_size })?;
        let found = self
            .profiles
            .get(profile)
            .ok_or_else(|| SmoothingError::UnknownProfile {
                profile: profile.to_owned(),
            })?;
        if let Some(&id) = exempt_units
            .iter()
            .find(|&&id| !self.occupancy.contains(id))
        {
            return Err(SmoothingError::UnknownUnit { id });
        }
        let indices = self.checked_steps(path, found, profile, size)?;
        let exempt = Counted::AllBut {
            moving: None,
            listed: exempt_units,
        };
        let mut memory = SmoothingMemory::default();
        let view = &mut memory.unit_cells;
        if other_units == OtherUnits::Block && self.count_units(view, size, indices[0], exempt) {
            let width = self.grid.width();
            if let Some(index) =
                (0..indices.len() - 1).find(|&i| !view.clear_along(&indices[i..i + 2], width))
            {
                return Err(SmoothingError::Occupied {
                    index,
                    from: path[index],
                    to: path[index + 1],
                });
            }
        }
        let path = (path, &indices[..]);
        let clearance = self.clearance_layer_for(&found.capability());
        let rules = (&**found, clearance.as_deref());
        Ok(self.waypoints_along(&mut memory, rules, size, path, other_units, exempt))
    }

    /// The storage indices of `path`, checked to be a chain of legal steps for an agent of
    /// `size` with `profile` (registered as `name`).
    fn checked_steps(
        &self,
        path: &[Cell],
        profile: &AgentProfile,
        name: &str,
        size: u8,
    ) -> Result<Vec<usize>, SmoothingError> {
        if path.is_empty() {
            return Err(SmoothingError::EmptyPath);
        }
        let indices = (path.iter().enumerate())
            .map(|(index, &anchor)| {
                (self.grid.index_of(anchor))
                    .ok_or(SmoothingError::AnchorOutOfBounds { index, anchor })
            })
            .collect::<Result<Vec<usize>, _>>()?;
        let graph =
            (self.graph_for(name, profile, size)).ok_or(SmoothingError::MemoryLimitReached)?;
        if let Some(index) = (0..path.len()).find(|&i| !graph.regions.is_labelled(indices[i])) {
            return Err(SmoothingError::AnchorNotLegal {
                index,
                anchor: path[index],
            });
        }
        for (index, pair) in path.windows(2).enumerate() {
            let (dx, dy) = (
                i64::from(pair[1].x) - i64::from(pair[0].x),
                i64::from(pair[1].y) - i64::from(pair[0].y),
            );
            let direction = DIRECTIONS
                .iter()
                .position(|d| i64::from(d.dx) == dx && i64::from(d.dy) == dy);
            let legal = direction
                .is_some_and(|direction| graph.moves[indices[index]] >> direction & 1 != 0);
            if !legal {
                return Err(SmoothingError::NotAStep {
                    index,
                    from: pair[0],
                    to: pair[1],
                });
            }
        }
        Ok(indices)
    }

    /// The taut waypoints of `path` (its cells and their storage indices: a chain of legal
    /// steps for an agent of `size` with `profile`, entering no anchor the counted units block
    /// under `Block`), with the units that `exempt` does not name counted by `rule`, in
    /// `memory`. `clearance` is the profile's clearance layer; without it (the map's memory
    /// limit left it unbuilt) swept cells are read one by one instead of as bits.
    pub(super) fn waypoints_along(
        &self,
        memory: &mut SmoothingMemory,
        (profile, clearance): (&AgentProfile, Option<&ClearanceLayer>),
        size: u8,
        (path, indices): (&[Cell], &[usize]),
        rule: OtherUnits,
        exempt: Counted<'_>,
    ) -> Vec<Cell> {
        if path.is_empty() {
            return Vec::new();
        }
        let width = self.grid.width();
        let region = self.grid.region();
        let anchors = PathAnchors {
            cells: path,
            indices,
            origin: Cell::new(region.x, region.y),
            width,
        };
        let SmoothingMemory {
            unit_cells,
            waypoints,
        } = memory;
        // Size 1 and no start: the view's blocked anchors are the cells under counted units.
        let counted = rule != OtherUnits::Ignore
            && !self.occupancy.is_empty()
            && self.count_units(unit_cells, 1, usize::MAX, exempt);
        let units = counted.then_some(CellUnits {
            cells: unit_cells,
            rule,
        });
        let rules = CellRules::new(
            (self.grid.as_bytes(), width),
            clearance.map(ClearanceLayer::blocked_cells),
            profile,
            size,
            anchors.anchor(0),
            units,
        );
        taut_waypoints(&anchors, &rules, waypoints)
            .map(|at| path[at])
            .collect()
    }
}
