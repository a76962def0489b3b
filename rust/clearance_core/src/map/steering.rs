//! Steering one waypoint at a time: the first waypoint of a path, read only as far as it needs.

use super::queries::with_thread_scratch;
use super::smoothing::{check_legal, check_steps};
use super::PathMap;
use crate::error::SmoothingError;
use crate::grid::Cell;
use crate::occupancy::{OtherUnits, UnitId};
use crate::search::Counted;
use crate::smoothing::first_greedy_waypoint;

/// How many anchors [`PathMap::first_waypoint`] reads first; it doubles the count each time
/// the greedy walk needs anchors past those read.
const FIRST_READ: usize = 32;

impl PathMap {
    /// Where a unit of `agent_size` with the profile called `profile`, standing on the first
    /// anchor of `path`, may head in a straight line: the first waypoint after it that the
    /// greedy walk of the crate's `smoothing` module picks, an anchor of `path` that the
    /// segment from the first keeps the rules of [`smooth_path`](Self::smooth_path) to (the
    /// units on the map counted by `other_units`, all but `exempt_units`) while the segment to
    /// the anchor after it does not, or else the path's last anchor; the first anchor itself
    /// for a path of one.
    ///
    /// `path` is read lazily: 32 anchors first, then as many again each time the walk needs
    /// anchors past those read (each probe it makes is of a place where the path turns, and
    /// where the part read ends is none), until it does not or the path ends; the answer is
    /// the one the whole path gives. A call costs about in proportion to the anchors read (a
    /// part read again redoes the walk over it): up to the turn the walk's last probe lands
    /// on (it probes the turn 1, 3, 7, 15, ... turns past the first until one is refused),
    /// rounded up to the next part; on winding paths a few times as far as the waypoint, not
    /// the whole path, so steering many units along long paths (a flow field's, through
    /// [`FlowField::anchors_from`](crate::FlowField::anchors_from)) pays for the legs ahead.
    /// Where every probe up to the path's last anchor is accepted (a path with few turns and a
    /// long last leg, say), the path is read to its end. `path` must end, unless the walk
    /// finds its waypoint before. Each anchor read is checked as
    /// [`smooth_path`](Self::smooth_path) checks a path (on the map, legal for the agent, one
    /// legal step from the one before, under [`OtherUnits::Block`] not blocked) before any
    /// segment to it is tested, a part read at a time (so where a path has faults in two
    /// parts, the error names the first part's); anchors not read are not checked.
    ///
    /// [`smooth_path`](Self::smooth_path) of the whole path gives this waypoint or a farther
    /// one second (its stack pass drops a waypoint when the one before sees the one after),
    /// never a nearer one; both are moves the unit may make.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, OtherUnits, PathMap, Region, TerrainGrid};
    /// // An open field with a wall at x = 4 from y = 0 to y = 4.
    /// let mut grid = TerrainGrid::new(Region::new(0, 0, 9, 9), 0)?;
    /// grid.fill_rect(Region::new(4, 0, 1, 5), 1)?;
    /// let mut map = PathMap::new(grid);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// // Down the left side, round the wall's end, up the right side.
    /// let path: Vec<Cell> = [(1, 1), (1, 2), (1, 3), (2, 4), (3, 5), (4, 5), (5, 5), (6, 4), (7, 3)]
    ///     .into_iter()
    ///     .map(Cell::from)
    ///     .collect();
    /// let next = map.first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Ignore, &[])?;
    /// // The unit heads straight for the last anchor before the wall's end gets in the way.
    /// assert_eq!(next, Cell::new(3, 5));
    /// let blocker = |to: Cell| map.straight_move_blocker(path[0], to, 1, "unit", OtherUnits::Ignore, &[]);
    /// assert_eq!(blocker(next)?, None);
    /// assert!(blocker(path[5])?.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_waypoint(
        &self,
        path: impl IntoIterator<Item = Cell>,
        agent_size: i64,
        profile: &str,
        other_units: OtherUnits,
        exempt_units: &[UnitId],
    ) -> Result<Cell, SmoothingError> {
        let (size, found) = self.checked_agent(agent_size, profile, exempt_units)?;
        let exempt = Counted::AllBut {
            moving: None,
            listed: exempt_units,
        };
        let mut path = path.into_iter().peekable();
        let mut cells: Vec<Cell> = path.by_ref().take(FIRST_READ).collect();
        let (mut indices, graph) = self.checked_anchors(&cells, found, profile, size)?;
        let clearance = self.clearance_layer_for(&found.capability());
        let rules = (found, clearance.as_deref());
        let units = (other_units, exempt);
        with_thread_scratch(|scratch| {
            // Anchors before `checked` had their steps checked in an earlier part.
            let mut checked: usize = 0;
            loop {
                // The step into the first anchor not checked starts at the one before it.
                let steps_from = checked.saturating_sub(1);
                check_steps(&graph, &cells, &indices, steps_from)?;
                let read = (&cells[..], &indices[..]);
                let mut view = scratch.units.take(size);
                let unblocked = self.check_unblocked(&mut view, size, read, steps_from, units);
                scratch.units.put_back(view);
                unblocked?;
                let memory = &mut scratch.smoothing;
                let read_all = path.peek().is_none();
                let found = self.with_segments(
                    memory,
                    rules,
                    size,
                    read,
                    units,
                    |(anchors, rules, waypoints)| {
                        first_greedy_waypoint(anchors, rules, waypoints, read_all)
                    },
                );
                if let Some(at) = found {
                    return Ok(cells[at]);
                }
                checked = cells.len();
                cells.extend(path.by_ref().take(checked));
                self.extend_indices(&cells, &mut indices)?;
                check_legal(&graph, &cells, &indices, checked)?;
            }
        })
    }
}
