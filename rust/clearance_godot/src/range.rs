//! `ClearanceMovementRange`: a movement range as GDScript holds it. The node builds it
//! (`get_movement_range()`, `request_movement_range()`); this object only answers from it, so
//! every cell, cost and path comes from the core's `MovementRange`.
#![forbid(unsafe_code)]

use crate::convert::{cell_of, vector_of};
use crate::frame::GridFrame;
use crate::marshal::{anchor_array, PathFormat, ResultKeys, ResultWriter};
use crate::waypoints::PathSmoother;
use crate::workers::RangeOrder;
use clearance_core::{cost_to_f64, MovementRange};
use godot::prelude::*;
use std::rc::Rc;

/// Where one unit can go this turn with its movement points, what each destination costs,
/// and the way there: what a tactics game shows when a unit is selected. Made by
/// `ClearancePathfinder.get_movement_range()` or `request_movement_range()`, never with
/// `new()`.
///
/// ```gdscript
/// var range := pathfinder.get_movement_range(unit.anchor, unit.size, &"soldier", unit.moves)
/// for anchor in range.get_cells():
///     highlight(anchor, range.get_cost(anchor))
/// if range.is_in_range(clicked):
///     walk(range.get_path_to(clicked).path)   # as find_path() returns it
/// ```
///
/// The contract is `find_path()`'s: an anchor is in range when `find_path()` from the start
/// to it (with the same `other_units` rule, moving unit and allies) finds a path of
/// `total_cost` at most the budget, and `get_path_to()` returns such a path. A budget of
/// `1 + sqrt(2)` includes the anchor one straight and one diagonal step away: costs equal to
/// the budget are in range.
///
/// Enemies (every registered unit but the moving unit and the allies) count as the node's
/// `other_units` says. Allies may be passed through but not stopped on: anchors where the
/// unit would overlap an ally are never in range.
///
/// A range is a snapshot: it answers for the map and the units as they were when it was made
/// (`get_map_version()`, `get_units_version()`), with the node's `result_format`, `smoothing`,
/// `offset`, `cell_size` and cell shape of that moment (for a requested range, the moment of
/// the request); later edits and moves do not change it.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct ClearanceMovementRange {
    range: MovementRange,
    order: RangeOrder,
    keys: Rc<ResultKeys>,
    format: PathFormat,
    frame: GridFrame,
    /// The map and rules to smooth the range's paths by, kept only with smoothing.
    smoother: Option<PathSmoother>,
}

/// What a range needs from its node, besides the range itself.
pub struct RangeContext {
    /// The map the range is built on and its order's rules, if its paths are to be smoothed.
    pub smoother: Option<PathSmoother>,
    pub keys: Rc<ResultKeys>,
    pub format: PathFormat,
    pub frame: GridFrame,
}

#[godot_api]
impl ClearanceMovementRange {
    /// The anchors in range, the start included, in a fixed order: by row (`y`), then by
    /// column (`x`). Anchors where an ally stands are left out.
    #[func]
    pub fn get_cells(&self) -> Array<Vector2i> {
        anchor_array(&self.range.cells())
    }

    /// Whether the unit can stop at `anchor` this turn.
    #[func]
    pub fn is_in_range(&self, anchor: Vector2i) -> bool {
        self.range.is_in_range(cell_of(anchor))
    }

    /// The cost of reaching `anchor` (1.0 per straight step at multiplier 1, 0.0 at the
    /// start), or `INF` if it is not in range (test with `is_in_range()` or `is_inf()`). It
    /// is the cost `find_path()` reports as `total_cost` to within a relative 1e-7 (the
    /// range sums costs in fixed point, as the search does).
    #[func]
    pub fn get_cost(&self, anchor: Vector2i) -> f64 {
        self.range
            .cost(cell_of(anchor))
            .map_or(f64::INFINITY, cost_to_f64)
    }

    /// How many turns the unit needs to reach `anchor` (1: this turn), counting up to the
    /// `turns` the range was asked for; 0 beyond them, off the map, and where an ally stands.
    #[func]
    pub fn get_turns(&self, anchor: Vector2i) -> i64 {
        self.range.turns(cell_of(anchor)).map_or(0, i64::from)
    }

    /// The way to `anchor`, as the Dictionary `find_path()` returns (`path` in the node's
    /// `result_format` when the range was made; `expanded` 0): `OK` with every anchor from
    /// the start and its `total_cost` if `anchor` is reached within the range's turns,
    /// `GOAL_OUT_OF_BOUNDS` off the map, `GOAL_CLEARANCE_INSUFFICIENT` (with
    /// `clearance_found` and `clearance_needed`) where the unit does not fit, `GOAL_OCCUPIED`
    /// (with `occupied_by`) where an ally stands or, with `OTHER_UNITS_BLOCK`, another unit,
    /// `NO_PATH` otherwise. A range made while the node's `smoothing` was `SMOOTHING_TAUT`
    /// also gives
    /// `waypoints` and `waypoint_length`, as `find_path()` does, by the terrain and units of
    /// the range's snapshot, the moving unit and the allies not counted (such a range keeps
    /// that snapshot, so while it lives the node's next edit copies the pages it changes).
    /// Every range keeps the profile's clearance layer to answer where the unit does not fit
    /// (its pages shared with the map, about 1.25 bytes a cell, the same while it lives).
    #[func]
    pub fn get_path_to(&self, anchor: Vector2i) -> VarDictionary {
        let mut result = self.range.path_to(cell_of(anchor));
        if let Some(smoother) = &self.smoother {
            smoother.add_waypoints(&mut result);
        }
        self.writer().dictionary(&result, self.order.agent_size)
    }

    /// The anchors in range with a neighbour (by the node's `diagonal_mode`) that is not: the
    /// outline of the range, in the order of `get_cells()`.
    #[func]
    pub fn get_border_cells(&self) -> Array<Vector2i> {
        anchor_array(&self.range.border_cells())
    }

    /// The start anchor.
    #[func]
    pub fn get_start(&self) -> Vector2i {
        vector_of(self.range.start())
    }

    /// The agent size the range is for.
    #[func]
    pub fn get_agent_size(&self) -> i64 {
        i64::from(self.range.agent_size())
    }

    /// The name of the profile the range is for.
    #[func]
    pub fn get_profile(&self) -> StringName {
        StringName::from(self.order.profile.as_str())
    }

    /// The movement points per turn, as given.
    #[func]
    pub fn get_budget(&self) -> f64 {
        self.order.budget
    }

    /// How many turns the range counts (1 unless asked for more).
    #[func]
    pub fn get_turn_count(&self) -> i64 {
        i64::from(self.range.turn_count())
    }

    /// The node's `get_map_version()` when the range was made.
    #[func]
    pub fn get_map_version(&self) -> i64 {
        i64::try_from(self.range.version()).unwrap_or(i64::MAX)
    }

    /// The node's `get_units_version()` when the range was made: if it differs now, units
    /// have moved since, and the range may be out of date.
    #[func]
    pub fn get_units_version(&self) -> i64 {
        i64::try_from(self.range.units_version()).unwrap_or(i64::MAX)
    }
}

impl ClearanceMovementRange {
    /// A range object for `range`, built for `order`.
    pub fn create(range: MovementRange, order: RangeOrder, context: RangeContext) -> Gd<Self> {
        Gd::from_object(ClearanceMovementRange {
            range,
            order,
            keys: context.keys,
            format: context.format,
            frame: context.frame,
            smoother: context.smoother,
        })
    }

    /// The core's range.
    pub fn built(&self) -> &MovementRange {
        &self.range
    }

    /// Where the node placed cells when the range was made.
    pub fn frame(&self) -> GridFrame {
        self.frame
    }

    fn writer(&self) -> ResultWriter<'_> {
        ResultWriter {
            keys: &self.keys,
            format: self.format,
            frame: self.frame,
        }
    }
}
