//! What a path query asks for.

use crate::grid::Cell;
use crate::occupancy::{OtherUnits, UnitId};
use crate::smoothing::Smoothing;

/// A path query with its options: see [`PathMap::query`](crate::PathMap::query).
///
/// ```
/// use clearance_core::{Cell, PathQuery};
///
/// use clearance_core::OtherUnits;
///
/// let query = PathQuery::new(Cell::new(0, 0), Cell::new(9, 4), 2, "truck")
///     .allow_partial_path(true)
///     .max_expansions(10_000)
///     .other_units(OtherUnits::Block)
///     .moving_unit(7);
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
    /// When the goal cannot be reached (`NO_PATH`, `GOAL_CLEARANCE_INSUFFICIENT`, or
    /// `GOAL_OCCUPIED` under [`OtherUnits::Block`]), return an optimal path to the reachable
    /// anchor closest to the goal instead, with
    /// [`PathCode::PartialPath`](crate::PathCode::PartialPath). Off by default.
    pub allow_partial_path: bool,
    /// Expand at most this many anchors; a search that needs more stops with
    /// [`PathCode::SearchLimitReached`](crate::PathCode::SearchLimitReached). `None` (the
    /// default): no limit. Each mode counts its own expansions (A* the anchors it takes off
    /// its open list, the goal included; jump-point search its jump points; `auto`'s direct
    /// walk its steps; see [`PathResult::expanded`](crate::PathResult::expanded)), so a limit
    /// close to what a query needs can stop one mode and not another.
    pub max_expansions: Option<u64>,
    /// Which exact search answers the query; [`SearchMode::Auto`] by default. Every mode
    /// returns a path of the same, optimal cost.
    pub search: SearchMode,
    /// How the units registered on the map count ([`OtherUnits::Ignore`] by default: as if
    /// the moving unit were alone).
    pub other_units: OtherUnits,
    /// The unit that moves, if it is registered: it never counts against itself.
    pub moving_unit: Option<UnitId>,
    /// Further units that do not count (the moving unit's own group, say).
    pub exempt_units: &'a [UnitId],
    /// Whether the result carries waypoints ([`PathResult::waypoints`](crate::PathResult)):
    /// [`Smoothing::Off`] by default. The path and its cost do not change.
    pub smoothing: Smoothing,
}

/// Which exact search algorithm answers a query. All of them return optimal paths; they differ
/// in speed, in how many anchors they expand, and in which of several equally cheap paths they
/// return.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum SearchMode {
    /// First the direct path: a straight walk at the goal (diagonals first, or straight
    /// steps first if that is blocked), taken when every step is legal and pays the
    /// profile's smallest multiplier, which proves it optimal; its steps count as expansions.
    /// Otherwise whichever of the others is expected to be faster: jump-point search, which
    /// reads the rays the graph stores (none is scanned), on uniform and weighted terrain
    /// alike. Where the stored rays do not serve the query (other units counted by a cost,
    /// or blocking on weighted terrain): plain A* for blocking units where the profile's
    /// costs change at more than one anchor in ten; elsewhere, for a goal under 64 straight
    /// steps away as the crow flies (`d`), plain A* with a budget of `4 d + 32` expansions,
    /// which answers short trips without scanning rays across open ground, then jump-point
    /// search if the budget did not suffice; jump-point search for longer trips. Expansions of both count towards the limit and the
    /// result.
    #[default]
    Auto,
    /// Jump-point search, 4-way or 8-way: expands only the
    /// anchors where an optimal path may turn.
    Jump,
    /// Plain A*: expands every anchor that may lie on an optimal path.
    Plain,
}

impl SearchMode {
    /// Every mode.
    pub const ALL: [SearchMode; 3] = [SearchMode::Auto, SearchMode::Jump, SearchMode::Plain];

    /// The mode's stable name: `"auto"`, `"jump"` or `"plain"`.
    pub fn as_str(self) -> &'static str {
        match self {
            SearchMode::Auto => "auto",
            SearchMode::Jump => "jump",
            SearchMode::Plain => "plain",
        }
    }

    /// The mode called `name` (see [`as_str`](Self::as_str)).
    pub fn from_name(name: &str) -> Option<SearchMode> {
        SearchMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == name)
    }
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
            search: SearchMode::Auto,
            other_units: OtherUnits::Ignore,
            moving_unit: None,
            exempt_units: &[],
            smoothing: Smoothing::Off,
        }
    }

    /// Builder form of the `smoothing` field.
    pub fn smoothing(mut self, smoothing: Smoothing) -> Self {
        self.smoothing = smoothing;
        self
    }

    /// Builder form of the `other_units` field.
    pub fn other_units(mut self, rule: OtherUnits) -> Self {
        self.other_units = rule;
        self
    }

    /// Builder form of the `moving_unit` field.
    pub fn moving_unit(mut self, id: UnitId) -> Self {
        self.moving_unit = Some(id);
        self
    }

    /// Builder form of the `exempt_units` field.
    pub fn exempt_units(mut self, ids: &'a [UnitId]) -> Self {
        self.exempt_units = ids;
        self
    }

    /// Builder form of the `allow_partial_path` field.
    pub fn allow_partial_path(mut self, allow: bool) -> Self {
        self.allow_partial_path = allow;
        self
    }

    /// Builder form of the `search` field.
    pub fn search(mut self, mode: SearchMode) -> Self {
        self.search = mode;
        self
    }

    /// Builder form of the `max_expansions` field.
    pub fn max_expansions(mut self, limit: u64) -> Self {
        self.max_expansions = Some(limit);
        self
    }
}
