//! Taut waypoints of a path: for query results that ask for them, and for any path of legal
//! steps a caller holds (a flow field's, say).

use super::queries::with_thread_scratch;
use super::PathMap;
use crate::clearance::ClearanceLayer;
use crate::error::SmoothingError;
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::Cell;
use crate::movement::DIRECTIONS;
use crate::occupancy::{OtherUnits, UnitId};
use crate::profile::AgentProfile;
use crate::result::PathResult;
use crate::search::{Counted, UnitsView};
use crate::smoothing::{
    taut_waypoints, CellRules, CellUnits, PathAnchors, Smoothing, SmoothingMemory, WaypointMemory,
    FORBIDDEN,
};
use std::sync::Arc;

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
        let (size, found) = self.checked_agent(agent_size, profile, exempt_units)?;
        let indices = self.checked_steps(path, found, profile, size)?;
        let exempt = Counted::AllBut {
            moving: None,
            listed: exempt_units,
        };
        // The thread's scratch keeps the units' view between calls (a map-sized set of bits
        // caught up when units moved), as queries keep theirs.
        with_thread_scratch(|scratch| {
            let path = (path, &indices[..]);
            let mut view = scratch.units.take(size);
            let smoothed = self.smooth_checked(
                (&mut view, &mut scratch.smoothing),
                (found, size),
                path,
                other_units,
                exempt,
            );
            scratch.units.put_back(view);
            smoothed
        })
    }

    /// [`smooth_path`](Self::smooth_path) once its arguments passed their checks: `path` with
    /// the storage indices of its anchors. The steps are checked against a view of the units
    /// for the agent's size (`view`, as a query's), the segments against the cells under them
    /// (`memory`, a view for size 1): two views, so that neither is rebuilt for the other.
    fn smooth_checked(
        &self,
        (view, memory): (&mut UnitsView, &mut SmoothingMemory),
        (found, size): (&AgentProfile, u8),
        (path, indices): (&[Cell], &[usize]),
        other_units: OtherUnits,
        exempt: Counted<'_>,
    ) -> Result<Vec<Cell>, SmoothingError> {
        self.check_unblocked(view, size, (path, indices), 0, (other_units, exempt))?;
        let path = (path, indices);
        let clearance = self.clearance_layer_for(&found.capability());
        let rules = (found, clearance.as_deref());
        Ok(self.waypoints_along(memory, rules, size, path, other_units, exempt))
    }

    /// Gives `result`, a path found on this map for an agent of `agent_size` with the profile
    /// called `profile` (by a query, a flow field or a movement range), the waypoints a query
    /// with [`Smoothing::Taut`](crate::Smoothing) carries: [`smooth_path`](Self::smooth_path)
    /// of its path by the same rules, none if it has no path. On an error `result` is left as
    /// it was.
    ///
    /// ```
    /// use clearance_core::{
    ///     AgentProfile, Cell, FlowFieldOptions, OtherUnits, PathMap, Region, TerrainGrid,
    /// };
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 6, 6), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let goal = [Cell::new(5, 3)];
    /// let field = map.flow_field(&goal, 1, "unit", FlowFieldOptions::new()).expect("a field");
    /// let mut result = field.path_from(Cell::new(0, 0));
    /// assert!(result.waypoints.is_empty());
    /// // An unknown profile is refused, and the result keeps what it had.
    /// let before = result.clone();
    /// assert!(map.add_waypoints(&mut result, 1, "boat", OtherUnits::Ignore, &[]).is_err());
    /// assert_eq!(result, before);
    /// map.add_waypoints(&mut result, 1, "unit", OtherUnits::Ignore, &[])?;
    /// assert_eq!(result.waypoints, [Cell::new(0, 0), Cell::new(5, 3)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_waypoints(
        &self,
        result: &mut PathResult,
        agent_size: i64,
        profile: &str,
        other_units: OtherUnits,
        exempt_units: &[UnitId],
    ) -> Result<(), SmoothingError> {
        let waypoints = if result.path.is_empty() {
            Vec::new()
        } else {
            self.smooth_path(&result.path, agent_size, profile, other_units, exempt_units)?
        };
        result.smoothing = Smoothing::Taut;
        result.waypoints = waypoints;
        Ok(())
    }

    /// Whether a unit of `agent_size` with the profile called `profile` may move in a straight
    /// line from anchor `from` to anchor `to`: `None` if it may, or a cell that stops it.
    ///
    /// The move is held to the rule a segment between taut waypoints keeps (see the crate's
    /// `smoothing` module docs for the swept region and the proof of its test), without the
    /// multiplier bound, which only a path between the two anchors would give: every cell the
    /// unit's square sweeps must be terrain the profile may enter, and under
    /// [`OtherUnits::Block`] none may lie under a counted unit (all but `exempt_units`), except
    /// cells of `from`'s footprint, which a unit standing there walks out of. Under
    /// [`OtherUnits::Cost`] units never stop a move. The cell named is one the move sweeps and
    /// the rule refuses.
    ///
    /// Both anchors must lie on the map and be legal for the agent; the checks and their
    /// errors are those of [`smooth_path`](Self::smooth_path) for a path of the two anchors.
    /// A unit that strays from its waypoints (pushed aside by another, say) can ask this
    /// before walking straight to the next one again.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, OtherUnits, PathMap, Region, TerrainGrid};
    /// // An open field with a wall at x = 5 from y = 0 to y = 5.
    /// let mut grid = TerrainGrid::new(Region::new(0, 0, 10, 10), 0)?;
    /// grid.fill_rect(Region::new(5, 0, 1, 6), 1)?;
    /// let mut map = PathMap::new(grid);
    /// map.set_profile(AgentProfile::new("tank").with_terrain(0, 1.0)?)?;
    /// let blocker = |from: (i32, i32), to: (i32, i32)| {
    ///     map.straight_move_blocker(from.into(), to.into(), 2, "tank", OtherUnits::Ignore, &[])
    /// };
    /// // Below the wall's end the 2x2 tank drives straight across.
    /// assert_eq!(blocker((0, 6), (8, 8))?, None);
    /// // Higher up, the wall stops it; the cell named is a wall cell.
    /// let stopped_at = blocker((0, 2), (8, 5))?.expect("the wall is in the way");
    /// assert_eq!(stopped_at.x, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn straight_move_blocker(
        &self,
        from: Cell,
        to: Cell,
        agent_size: i64,
        profile: &str,
        other_units: OtherUnits,
        exempt_units: &[UnitId],
    ) -> Result<Option<Cell>, SmoothingError> {
        let (size, found) = self.checked_agent(agent_size, profile, exempt_units)?;
        self.checked_anchors(&[from, to], found, profile, size)?;
        let exempt = Counted::AllBut {
            moving: None,
            listed: exempt_units,
        };
        let clearance = self.clearance_layer_for(&found.capability());
        // The thread's scratch keeps the units' view between calls, as in `smooth_path`.
        let refused = with_thread_scratch(|scratch| {
            let rules = self.cell_rules(
                &mut scratch.smoothing.unit_cells,
                (found, clearance.as_deref()),
                size,
                from,
                (other_units, exempt),
            );
            rules.first_refused(self.local(from), self.local(to), FORBIDDEN - 1)
        });
        let region = self.grid.region();
        Ok(refused.map(|(x, y)| Cell::new(region.x + x as i32, region.y + y as i32)))
    }

    /// `cell` in map-local coordinates, as the smoothing rules take it.
    fn local(&self, cell: Cell) -> (i64, i64) {
        let region = self.grid.region();
        (
            i64::from(cell.x) - i64::from(region.x),
            i64::from(cell.y) - i64::from(region.y),
        )
    }

    /// The agent size, checked, and the profile called `profile`, for a smoothing call that
    /// exempts `exempt_units` (each must be registered).
    pub(super) fn checked_agent(
        &self,
        agent_size: i64,
        profile: &str,
        exempt_units: &[UnitId],
    ) -> Result<(u8, &AgentProfile), SmoothingError> {
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
        Ok((size, found))
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
        let (indices, graph) = self.checked_anchors(path, profile, name, size)?;
        check_steps(&graph, path, &indices, 0)?;
        Ok(indices)
    }

    /// The storage indices of `path`'s anchors, checked to be on the map and legal for an
    /// agent of `size` with `profile` (registered as `name`), and the graph that said so.
    pub(super) fn checked_anchors(
        &self,
        path: &[Cell],
        profile: &AgentProfile,
        name: &str,
        size: u8,
    ) -> Result<(Vec<usize>, Arc<AnchorGraph>), SmoothingError> {
        if path.is_empty() {
            return Err(SmoothingError::EmptyPath);
        }
        let mut indices = Vec::with_capacity(path.len());
        self.extend_indices(path, &mut indices)?;
        let graph =
            (self.graph_for(name, profile, size)).ok_or(SmoothingError::MemoryLimitReached)?;
        check_legal(&graph, path, &indices, 0)?;
        Ok((indices, graph))
    }

    /// Adds to `indices` the storage indices of the anchors of `path` it does not hold yet
    /// (it holds those of the first `indices.len()`), checked to be on the map.
    pub(super) fn extend_indices(
        &self,
        path: &[Cell],
        indices: &mut Vec<usize>,
    ) -> Result<(), SmoothingError> {
        for (index, &anchor) in path.iter().enumerate().skip(indices.len()) {
            let stored = (self.grid.index_of(anchor))
                .ok_or(SmoothingError::AnchorOutOfBounds { index, anchor })?;
            indices.push(stored);
        }
        Ok(())
    }

    /// Under [`OtherUnits::Block`], checks that no step of `path` (storage indices `indices`)
    /// from anchor `from` on enters or passes diagonally an anchor a unit counted for an agent
    /// of `size` (all but `exempt`) blocks; the units' view is read into `view`.
    pub(super) fn check_unblocked(
        &self,
        view: &mut UnitsView,
        size: u8,
        (path, indices): (&[Cell], &[usize]),
        from: usize,
        (other_units, exempt): (OtherUnits, Counted<'_>),
    ) -> Result<(), SmoothingError> {
        if other_units != OtherUnits::Block || !self.count_units(view, size, indices[0], exempt) {
            return Ok(());
        }
        let width = self.grid.width();
        match (from..indices.len().saturating_sub(1))
            .find(|&i| !view.clear_along(&indices[i..i + 2], width))
        {
            Some(index) => Err(SmoothingError::Occupied {
                index,
                from: path[index],
                to: path[index + 1],
            }),
            None => Ok(()),
        }
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
        let rules = (profile, clearance);
        self.with_segments(
            memory,
            rules,
            size,
            (path, indices),
            (rule, exempt),
            |(anchors, rules, waypoints)| {
                taut_waypoints(anchors, rules, waypoints)
                    .map(|at| path[at])
                    .collect()
            },
        )
    }

    /// Calls `choose` with `path` (not empty; as for [`waypoints_along`](Self::waypoints_along))
    /// read as anchors, the rules its segments keep, and the waypoint memory of `memory`.
    pub(super) fn with_segments<R>(
        &self,
        memory: &mut SmoothingMemory,
        (profile, clearance): (&AgentProfile, Option<&ClearanceLayer>),
        size: u8,
        (path, indices): (&[Cell], &[usize]),
        (rule, exempt): (OtherUnits, Counted<'_>),
        choose: impl FnOnce((&PathAnchors<'_>, &CellRules<'_>, &mut WaypointMemory)) -> R,
    ) -> R {
        let region = self.grid.region();
        let anchors = PathAnchors {
            cells: path,
            indices,
            origin: Cell::new(region.x, region.y),
            width: self.grid.width(),
        };
        let SmoothingMemory {
            unit_cells,
            waypoints,
        } = memory;
        let rules = self.cell_rules(
            unit_cells,
            (profile, clearance),
            size,
            path[0],
            (rule, exempt),
        );
        choose((&anchors, &rules, waypoints))
    }

    /// The rules swept cells are held to for an agent of `size` with `profile` (and its
    /// clearance layer, if built) starting at anchor `start`, with the units that `exempt`
    /// does not name counted by `rule`: their cells are read into `unit_cells`.
    fn cell_rules<'a>(
        &'a self,
        unit_cells: &'a mut UnitsView,
        (profile, clearance): (&'a AgentProfile, Option<&'a ClearanceLayer>),
        size: u8,
        start: Cell,
        (rule, exempt): (OtherUnits, Counted<'_>),
    ) -> CellRules<'a> {
        // Size 1 and no start: the view's blocked anchors are the cells under counted units.
        let counted = rule != OtherUnits::Ignore
            && !self.occupancy.is_empty()
            && self.count_units(unit_cells, 1, usize::MAX, exempt);
        let units = counted.then_some(CellUnits {
            cells: &*unit_cells,
            rule,
        });
        CellRules::new(
            (self.grid.as_bytes(), self.grid.width()),
            clearance.map(ClearanceLayer::blocked_cells),
            profile,
            size,
            self.local(start),
            units,
        )
    }
}

/// Checks that the anchors of `path` from `from` on (storage indices `indices`) are legal for
/// the agent whose graph is `graph`.
pub(super) fn check_legal(
    graph: &AnchorGraph,
    path: &[Cell],
    indices: &[usize],
    from: usize,
) -> Result<(), SmoothingError> {
    match (from..path.len()).find(|&i| !graph.regions.is_labelled(indices[i])) {
        Some(index) => Err(SmoothingError::AnchorNotLegal {
            index,
            anchor: path[index],
        }),
        None => Ok(()),
    }
}

/// Checks that each step of `path` (storage indices `indices`) from anchor `from` on is one
/// legal move in `graph`: to a neighbour, without cutting a corner.
pub(super) fn check_steps(
    graph: &AnchorGraph,
    path: &[Cell],
    indices: &[usize],
    from: usize,
) -> Result<(), SmoothingError> {
    for index in from..path.len().saturating_sub(1) {
        let (here, there) = (path[index], path[index + 1]);
        let (dx, dy) = (
            i64::from(there.x) - i64::from(here.x),
            i64::from(there.y) - i64::from(here.y),
        );
        let direction = DIRECTIONS
            .iter()
            .position(|d| i64::from(d.dx) == dx && i64::from(d.dy) == dy);
        let legal =
            direction.is_some_and(|direction| graph.moves[indices[index]] >> direction & 1 != 0);
        if !legal {
            return Err(SmoothingError::NotAStep {
                index,
                from: here,
                to: there,
            });
        }
    }
    Ok(())
}
