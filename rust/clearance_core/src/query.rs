//! What a path query asks for.

use crate::grid::Cell;

/// A path query with its options: see [`PathMap::query`](crate::PathMap::query).
///
/// ```
/// use clearance_core::{Cell, PathQuery};
///
/// let query = PathQuery::new(Cell::new(0, 0), Cell::new(9, 4), 2, "truck")
///     .allow_partial_path(true)
///     .max_expansions(10_000);
/// assert_eq!(query.agent_size, 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PathQuery<'a> {
    /// Start anchor (top-left cell of the footprint).
    pub start: Cell,
    /// Goal anchor.
    pub goal: Cell,
    /// Side of the agent's square footprint, 1 to 255.
    pub agent_size: i64,
    /// Name of a registered profile.
    pub profile: &'a str,
    /// When the goal cannot be reached (`NO_PATH`, or `GOAL_CLEARANCE_INSUFFICIENT`), return
    /// an optimal path to the reachable anchor closest to the goal instead, with
    /// [`PathCode::PartialPath`](crate::PathCode::PartialPath). Off by default.
    pub allow_partial_path: bool,
    /// Expand at most this many anchors; a search that needs more stops with
    /// [`PathCode::SearchLimitReached`](crate::PathCode::SearchLimitReached). `None` (the
    /// default): no limit.
    pub max_expansions: Option<u64>,
}

impl<'a> PathQuery<'a> {
    /// A query from `start` to `goal` for an agent of `agent_size` moving by the rules of the
    /// profile called `profile`, without options.
    pub fn new(start: Cell, goal: Cell, agent_size: i64, profile: &'a str) -> Self {
        PathQuery {
            start,
            goal,
            agent_size,
            profile,
            allow_partial_path: false,
            max_expansions: None,
        }
    }

    /// Builder form of the `allow_partial_path` field.
    pub fn allow_partial_path(mut self, allow: bool) -> Self {
        self.allow_partial_path = allow;
        self
    }

    /// Builder form of the `max_expansions` field.
    pub fn max_expansions(mut self, limit: u64) -> Self {
        self.max_expansions = Some(limit);
        self
    }
}
