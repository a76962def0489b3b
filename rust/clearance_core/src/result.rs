//! What a path query returns.

use crate::cost::MULTIPLIER_SCALE;
use crate::grid::Cell;
use crate::occupancy::UnitId;
use crate::smoothing::Smoothing;
use std::fmt;

/// The outcome of a path query. Every failure has its own code; only [`PathCode::Ok`] comes
/// with a path.
///
/// Codes are checked in the order they are listed here: a query with an invalid agent size and
/// an unknown profile reports `InvalidAgentSize`. One code is reported at two moments:
/// `MemoryLimitReached` stands where the clearance layer is built, but the search graph is
/// built only after the clearance and unit checks (and not for a start equal to its goal,
/// which is `Ok`), so a graph past the limit is reported after those and before
/// `GoalOccupied`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathCode {
    /// A path was found; it is optimal.
    Ok,
    /// The agent size is below 1 or above 255.
    InvalidAgentSize,
    /// No profile of that name is registered on the map.
    UnknownProfile,
    /// The start anchor lies outside the map.
    StartOutOfBounds,
    /// The goal anchor lies outside the map.
    GoalOutOfBounds,
    /// Building the clearance layer or search graph the query needs would take the map's
    /// cached data past its memory limit (see
    /// [`PathMap::set_cache_memory_limit`](crate::PathMap::set_cache_memory_limit)).
    MemoryLimitReached,
    /// The agent's footprint does not fit at the start anchor (clearance below the agent size).
    StartClearanceInsufficient,
    /// The agent's footprint does not fit at the goal anchor (clearance below the agent size).
    GoalClearanceInsufficient,
    /// The moving unit or an exempt unit the query names is not registered on the map.
    UnknownUnit,
    /// Other units block (the query's [`OtherUnits::Block`](crate::OtherUnits::Block)) and
    /// the goal's footprint overlaps one of them; `occupied_by` names one.
    GoalOccupied,
    /// Start and goal are valid, but no sequence of legal steps joins them.
    NoPath,
    /// The search reached the query's expansion limit before the goal.
    SearchLimitReached,
    /// The goal cannot be reached (for `NoPath`, `GoalClearanceInsufficient` with its
    /// shortfall kept, or `GoalOccupied` with `occupied_by` kept), and the query allowed a
    /// partial path: the path leads to the reachable anchor closest to the goal (under
    /// [`OtherUnits::Block`](crate::OtherUnits::Block), the closest one no counted unit
    /// blocks).
    PartialPath,
}

impl PathCode {
    /// Every code, in checking order.
    pub const ALL: [PathCode; 13] = [
        PathCode::Ok,
        PathCode::InvalidAgentSize,
        PathCode::UnknownProfile,
        PathCode::StartOutOfBounds,
        PathCode::GoalOutOfBounds,
        PathCode::MemoryLimitReached,
        PathCode::StartClearanceInsufficient,
        PathCode::GoalClearanceInsufficient,
        PathCode::UnknownUnit,
        PathCode::GoalOccupied,
        PathCode::NoPath,
        PathCode::SearchLimitReached,
        PathCode::PartialPath,
    ];

    /// The code's stable name, as used by the Godot node and the CLI (`"OK"`, `"NO_PATH"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            PathCode::Ok => "OK",
            PathCode::InvalidAgentSize => "INVALID_AGENT_SIZE",
            PathCode::UnknownProfile => "UNKNOWN_PROFILE",
            PathCode::StartOutOfBounds => "START_OUT_OF_BOUNDS",
            PathCode::GoalOutOfBounds => "GOAL_OUT_OF_BOUNDS",
            PathCode::StartClearanceInsufficient => "START_CLEARANCE_INSUFFICIENT",
            PathCode::GoalClearanceInsufficient => "GOAL_CLEARANCE_INSUFFICIENT",
            PathCode::UnknownUnit => "UNKNOWN_UNIT",
            PathCode::GoalOccupied => "GOAL_OCCUPIED",
            PathCode::NoPath => "NO_PATH",
            PathCode::MemoryLimitReached => "MEMORY_LIMIT_REACHED",
            PathCode::SearchLimitReached => "SEARCH_LIMIT_REACHED",
            PathCode::PartialPath => "PARTIAL_PATH",
        }
    }
}

impl fmt::Display for PathCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A code is also an error, so that a refusal such as
/// [`PathMap::flow_field`](crate::PathMap::flow_field)'s passes through `?`.
impl std::error::Error for PathCode {}

/// Why an anchor was refused: the clearance found there and the agent size that needed more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClearanceShortfall {
    /// Clearance at the anchor.
    pub found: u8,
    /// Agent size, the clearance needed.
    pub needed: u8,
}

/// The result of [`PathMap::find_path`](crate::PathMap::find_path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathResult {
    /// What happened.
    pub code: PathCode,
    /// With [`PathCode::Ok`]: the anchors (top-left cells of the footprint) from start to goal,
    /// both included; one anchor when start equals goal. With [`PathCode::PartialPath`]: from
    /// start to the reachable anchor closest to the goal. Empty otherwise.
    pub path: Vec<Cell>,
    /// The fixed-point cost of `path` (see [`COST_SCALE`](crate::COST_SCALE)); the start
    /// anchor is never charged. 0 without a path.
    pub cost: u64,
    /// The entry multipliers paid along `path`, summed separately over straight and diagonal
    /// steps: what [`total_cost`](Self::total_cost) is computed from.
    pub step_weights: StepWeights,
    /// How many anchors the search expanded (0 when it failed validation): every anchor A*
    /// took off its open list, or every jump point jump-point search did; for a path found
    /// by `auto`'s direct walk, its steps.
    pub expanded: u64,
    /// With the two clearance codes, and with a partial path for a goal whose clearance is
    /// too small: the clearance found and the size needed.
    pub shortfall: Option<ClearanceShortfall>,
    /// With [`PathCode::GoalOccupied`], and with a partial path for a goal another unit
    /// stands on: the id of one unit in the way.
    pub occupied_by: Option<UnitId>,
    /// The smoothing the query asked for ([`Smoothing::Off`] unless it asked).
    pub smoothing: Smoothing,
    /// With [`Smoothing::Taut`] and a path (to the goal, or a partial one): the path's taut
    /// waypoints, a subsequence of `path` from its first anchor to its last (see the
    /// `smoothing` module docs of the crate). Empty otherwise.
    pub waypoints: Vec<Cell>,
}

impl PathResult {
    /// Whether a path to the goal was found (a partial path does not count).
    pub fn is_ok(&self) -> bool {
        self.code == PathCode::Ok
    }

    /// The path's cost as a float: the sum over its steps of the step's length (1, or the
    /// square root of 2 for a diagonal) times the multiplier of the anchor it enters. Computed
    /// from [`step_weights`](Self::step_weights) with the exact square root of 2, so it is the
    /// path's true cost to within a rounding of the last bit, not the fixed-point `cost` (whose
    /// diagonal is 3363/2378).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, Region, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 4, 4), 0)?);
    /// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.5)?)?;
    /// let result = map.find_path(Cell::new(0, 0), Cell::new(3, 2), 1, "walker");
    /// // Two diagonals and one straight step, each at 1.5.
    /// assert_eq!(result.total_cost(), 1.5 * (1.0 + 2.0 * std::f64::consts::SQRT_2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total_cost(&self) -> f64 {
        self.step_weights.total_cost()
    }

    /// The Euclidean length of `path`, in cells: 1 per straight step, the square root of 2
    /// per diagonal one; 0 without a path.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, PathQuery, Region, Smoothing, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 4), 0)?);
    /// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.0)?)?;
    /// let query = PathQuery::new(Cell::new(0, 0), Cell::new(7, 2), 1, "walker");
    /// let result = map.query(&query.smoothing(Smoothing::Taut));
    /// assert_eq!(result.path_length(), 5.0 + 2.0 * std::f64::consts::SQRT_2);
    /// // Open ground: one straight line from start to goal.
    /// assert_eq!(result.waypoints, [Cell::new(0, 0), Cell::new(7, 2)]);
    /// assert_eq!(result.waypoint_length(), 53f64.sqrt());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn path_length(&self) -> f64 {
        polyline_length(&self.path)
    }

    /// The Euclidean length of `waypoints` in cells, the sum of the straight segments between
    /// them: never more than [`path_length`](Self::path_length) (each segment is no longer
    /// than the steps it replaces); 0 without waypoints.
    pub fn waypoint_length(&self) -> f64 {
        polyline_length(&self.waypoints)
    }

    /// The result's public fields, as every front end shows them: the Godot node's result
    /// dictionary and the CLI's JSON are both written from this list, so a field is added or
    /// renamed here once. `clearance_found` and `clearance_needed` appear only with a
    /// shortfall, `occupied_by` only with a unit in the way, `waypoints` (after `path`) and
    /// `waypoint_length` (after `total_cost`) only when the query asked for smoothing.
    ///
    /// ```
    /// use clearance_core::{Cell, FieldValue, PathMap, Region, ResultField, TerrainGrid};
    /// let map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 3, 1), 0)?);
    /// let result = map.find_path(Cell::new(0, 0), Cell::new(2, 0), 1, "none");
    /// let names: Vec<&str> = result.fields().map(|(field, _)| field.name()).collect();
    /// assert_eq!(names, ["ok", "code", "path", "total_cost", "expanded"]);
    /// assert!(result.fields().any(|field| field == (ResultField::Code, FieldValue::Text("UNKNOWN_PROFILE"))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fields(&self) -> impl Iterator<Item = (ResultField, FieldValue<'_>)> {
        let shortfall = self.shortfall.map(|shortfall| {
            [
                (
                    ResultField::ClearanceFound,
                    FieldValue::Count(u64::from(shortfall.found)),
                ),
                (
                    ResultField::ClearanceNeeded,
                    FieldValue::Count(u64::from(shortfall.needed)),
                ),
            ]
        });
        let smoothed = self.smoothing != Smoothing::Off;
        let waypoints =
            smoothed.then_some((ResultField::Waypoints, FieldValue::Anchors(&self.waypoints)));
        let waypoint_length = smoothed.then(|| {
            (
                ResultField::WaypointLength,
                FieldValue::Number(self.waypoint_length()),
            )
        });
        [
            (ResultField::Ok, FieldValue::Flag(self.is_ok())),
            (ResultField::Code, FieldValue::Text(self.code.as_str())),
            (ResultField::Path, FieldValue::Anchors(&self.path)),
        ]
        .into_iter()
        .chain(waypoints)
        .chain([(
            ResultField::TotalCost,
            FieldValue::Number(self.total_cost()),
        )])
        .chain(waypoint_length)
        .chain([(ResultField::Expanded, FieldValue::Count(self.expanded))])
        .chain(shortfall.into_iter().flatten())
        .chain(
            self.occupied_by
                .map(|id| (ResultField::OccupiedBy, FieldValue::Id(id))),
        )
    }

    /// A result with `code`, no path, no cost and nothing expanded, as a query that stops
    /// before searching returns it.
    ///
    /// ```
    /// use clearance_core::{PathCode, PathResult};
    ///
    /// let refused = PathResult::failure(PathCode::GoalOutOfBounds);
    /// assert!(refused.path.is_empty() && refused.expanded == 0);
    /// ```
    pub fn failure(code: PathCode) -> Self {
        PathResult {
            code,
            path: Vec::new(),
            cost: 0,
            step_weights: StepWeights::default(),
            expanded: 0,
            shortfall: None,
            occupied_by: None,
            smoothing: Smoothing::Off,
            waypoints: Vec::new(),
        }
    }
}

/// The summed Euclidean lengths of the segments between consecutive anchors, in cells.
fn polyline_length(anchors: &[Cell]) -> f64 {
    anchors
        .windows(2)
        .map(|pair| {
            let dx = f64::from(pair[1].x) - f64::from(pair[0].x);
            let dy = f64::from(pair[1].y) - f64::from(pair[0].y);
            // Both differences are integers within a map's side (below 2^15), so the sum of
            // squares is exact and its square root correctly rounded, with no need for the
            // scaling `hypot` pays for.
            (dx * dx + dy * dy).sqrt()
        })
        // From +0.0: an empty sum of floats is -0.0.
        .fold(0.0, |total, length| total + length)
}

/// The entry multipliers a path pays, in fixed-point units of
/// [`MULTIPLIER_SCALE`], summed over its straight steps and over its
/// diagonal steps. Integers, so results stay comparable bit for bit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct StepWeights {
    /// Sum of the multipliers of the anchors entered by straight steps.
    pub straight: u64,
    /// Sum of the multipliers of the anchors entered by diagonal steps.
    pub diagonal: u64,
}

impl StepWeights {
    /// Adds a step entering an anchor of fixed-point `multiplier`, straight or diagonal.
    #[inline]
    pub(crate) fn add(&mut self, straight: bool, multiplier: u64) {
        if straight {
            self.straight += multiplier;
        } else {
            self.diagonal += multiplier;
        }
    }

    /// `(straight + diagonal * sqrt 2) / MULTIPLIER_SCALE`, in `f64`.
    pub fn total_cost(self) -> f64 {
        (self.straight as f64 + self.diagonal as f64 * std::f64::consts::SQRT_2)
            / f64::from(MULTIPLIER_SCALE)
    }
}

/// A field of a [`PathResult`] as the front ends show it (see [`PathResult::fields`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResultField {
    /// `ok`: whether a path to the goal was found.
    Ok,
    /// `code`: the [`PathCode`]'s name.
    Code,
    /// `path`: the anchors from start to goal (or to the partial path's end).
    Path,
    /// `waypoints`: the path's waypoints (with smoothing only).
    Waypoints,
    /// `total_cost`: the path's cost as a float.
    TotalCost,
    /// `waypoint_length`: the waypoints' Euclidean length in cells (with smoothing only).
    WaypointLength,
    /// `expanded`: how many anchors the search expanded.
    Expanded,
    /// `clearance_found`: the clearance at the refused anchor (with a shortfall only).
    ClearanceFound,
    /// `clearance_needed`: the agent size that needed more (with a shortfall only).
    ClearanceNeeded,
    /// `occupied_by`: the id of a unit on the goal (with a unit in the way only).
    OccupiedBy,
}

impl ResultField {
    /// Every field, in the order [`PathResult::fields`] lists them.
    pub const ALL: [ResultField; 10] = [
        ResultField::Ok,
        ResultField::Code,
        ResultField::Path,
        ResultField::Waypoints,
        ResultField::TotalCost,
        ResultField::WaypointLength,
        ResultField::Expanded,
        ResultField::ClearanceFound,
        ResultField::ClearanceNeeded,
        ResultField::OccupiedBy,
    ];

    /// The field's key in the Godot dictionary and the CLI's JSON.
    pub fn name(self) -> &'static str {
        match self {
            ResultField::Ok => "ok",
            ResultField::Code => "code",
            ResultField::Path => "path",
            ResultField::Waypoints => "waypoints",
            ResultField::TotalCost => "total_cost",
            ResultField::WaypointLength => "waypoint_length",
            ResultField::Expanded => "expanded",
            ResultField::ClearanceFound => "clearance_found",
            ResultField::ClearanceNeeded => "clearance_needed",
            ResultField::OccupiedBy => "occupied_by",
        }
    }
}

/// The value of one [`ResultField`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FieldValue<'a> {
    /// A yes or no.
    Flag(bool),
    /// A stable name.
    Text(&'static str),
    /// Anchors, in path order.
    Anchors(&'a [Cell]),
    /// A float.
    Number(f64),
    /// A count.
    Count(u64),
    /// A unit's id.
    Id(UnitId),
}
