//! `ClearanceFlowField`: a flow field as GDScript holds it. The node builds it
//! (`get_flow_field()`, `request_flow_field()`); this object only answers from it, so every
//! cost, step and path comes from the core's `FlowField`.
#![forbid(unsafe_code)]

use crate::convert::{cell_of, inverse_of, vector_of};
use crate::frame::GridFrame;
use crate::marshal::{anchor_array, PathFormat, ResultKeys, ResultWriter};
use crate::pathfinder::smoothing_value;
use crate::waypoints::PathSmoother;
use crate::workers::FieldOrder;
use clearance_core::{Cell, FlowField, PathCode, PathResult};
use godot::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The way from every anchor to the nearest of one or more goals, for one agent size and
/// profile: what many units sent to one place follow instead of searching a path each.
/// Made by `ClearancePathfinder.get_flow_field()` or `request_flow_field()`, never with
/// `new()`.
///
/// ```gdscript
/// var field := pathfinder.get_flow_field([depot], 2, &"truck")
/// if field.is_ok():
///     var result := field.get_path_from(truck_anchor)   # as find_path() returns it
///     velocity = field.get_direction_world(truck.global_position) * speed
/// ```
///
/// A field is a snapshot: it answers for the map as it was when it was made
/// (`get_map_version()`), with the units as they stood then (where the node's `other_units`
/// counted them), with the node's `smoothing`, `result_format`, `offset`, `cell_size`, cell shape and
/// global transform of that moment (for a requested field, the moment of the request), and
/// later edits do not change it. To follow a changing map,
/// make a new field when the node emits `map_changed` (or when
/// `pathfinder.get_map_version()` differs).
///
/// Costs follow the node's entry-cost convention, and every answer is exact: following
/// `get_next_anchor()` from an anchor walks a path of cost `get_cost()`, the cost
/// `find_path()` from that anchor to the nearest goal would report. Of several equally cheap
/// steps the field takes a fixed one, so units follow it deterministically.
///
/// A field whose goals were refused (`is_ok()` false: a goal off the map or too narrow for the
/// unit, an unknown profile...) reaches nothing, and `get_path_from()` answers every anchor
/// with its code.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct ClearanceFlowField {
    /// The field, or the code that refused it.
    field: Result<FlowField, PathCode>,
    order: FieldOrder,
    keys: Rc<ResultKeys>,
    format: PathFormat,
    frame: GridFrame,
    /// The node's global transform when the field was made.
    global_transform: Transform2D,
    /// Its inverse, worked out once, or `None` where it has none (a scale of 0).
    global_to_local: Option<Transform2D>,
    /// The map and rules to smooth the field's paths by, kept only with smoothing.
    smoother: Option<PathSmoother>,
    /// With smoothing, the first waypoint after each anchor a unit has steered from: the
    /// field never changes, so each is worked out once.
    steering_targets: RefCell<HashMap<Cell, Cell>>,
}

/// What a field needs from its node, besides the field itself.
pub struct FieldContext {
    pub keys: Rc<ResultKeys>,
    pub format: PathFormat,
    pub frame: GridFrame,
    pub global_transform: Transform2D,
    /// The map the field is built on and its order's rules, if its paths are to be smoothed.
    pub smoother: Option<PathSmoother>,
}

#[godot_api]
impl ClearanceFlowField {
    /// Whether the field was built: its goals, agent size and profile were accepted.
    #[func]
    pub fn is_ok(&self) -> bool {
        self.field.is_ok()
    }

    /// `OK`, or the code that refused the field, as `find_path()` names codes:
    /// `INVALID_AGENT_SIZE`, `UNKNOWN_PROFILE`, `GOAL_OUT_OF_BOUNDS`, `MEMORY_LIMIT_REACHED`,
    /// `GOAL_CLEARANCE_INSUFFICIENT`, `UNKNOWN_UNIT` or `GOAL_OCCUPIED`.
    #[func]
    pub fn get_code(&self) -> GString {
        let code = self.field.as_ref().err().copied().unwrap_or(PathCode::Ok);
        GString::from(code.as_str())
    }

    /// The goals, as given.
    #[func]
    pub fn get_goals(&self) -> Array<Vector2i> {
        anchor_array(&self.order.goals)
    }

    /// The agent size the field is for, as given.
    #[func]
    pub fn get_agent_size(&self) -> i64 {
        self.order.agent_size
    }

    /// The name of the profile the field is for.
    #[func]
    pub fn get_profile(&self) -> StringName {
        StringName::from(self.order.profile.as_str())
    }

    /// The node's `get_map_version()` when the field was made (-1 if it was refused).
    #[func]
    pub fn get_map_version(&self) -> i64 {
        self.built().map_or(-1, |field| {
            i64::try_from(field.version()).unwrap_or(i64::MAX)
        })
    }

    /// The node's `get_units_version()` when the field was made, if it counted other units
    /// (the node's `other_units` was not `OTHER_UNITS_IGNORE` and some unit counted); -1
    /// otherwise. While both versions are equal, the field still holds.
    #[func]
    pub fn get_units_version(&self) -> i64 {
        (self.built())
            .and_then(|field| field.units_version())
            .map_or(-1, |version| i64::try_from(version).unwrap_or(i64::MAX))
    }

    /// Whether the field surely reached every anchor that has a path to a goal (no `max_cost`
    /// or `starts` bound cut it short): then an anchor it did not reach has no path at all.
    /// `false` errs on the safe side: a bound met exactly may still have cut nothing.
    #[func]
    pub fn is_complete(&self) -> bool {
        self.built().is_some_and(FlowField::is_complete)
    }

    /// How many anchors the field reached, goals included.
    #[func]
    pub fn get_reached_count(&self) -> i64 {
        self.built().map_or(0, |field| field.reached_count() as i64)
    }

    /// The largest cost among the anchors reached (0.0 if only goals were), for scaling a
    /// heat map.
    #[func]
    pub fn get_max_cost(&self) -> f64 {
        self.built().map_or(0.0, FlowField::max_cost)
    }

    /// Bytes the field holds: a cost and a direction per map cell (a field bounded by
    /// `max_cost` or by its starts whose search stayed within a small share of a larger map:
    /// per anchor of the pages of 128 anchors it touched), and its goals (and, on a smoothed
    /// field, the waypoints `get_direction_world()` has steered towards).
    #[func]
    pub fn get_memory_bytes(&self) -> i64 {
        // An entry and the table's control byte for each slot.
        let slot = size_of::<(Cell, Cell)>() + 1;
        let targets = self.steering_targets.borrow().capacity() * slot;
        self.built()
            .map_or(0, |field| (field.memory_bytes() + targets) as i64)
    }

    /// Whether the field reached `anchor`: the unit fits there and a path leads to a goal
    /// (within the field's bounds).
    #[func]
    pub fn is_reached(&self, anchor: Vector2i) -> bool {
        self.built()
            .is_some_and(|field| field.cost(cell_of(anchor)).is_some())
    }

    /// The cost from `anchor` to the nearest goal, as `find_path()` reports `total_cost`
    /// (0.0 at a goal); `INF` where the field did not reach. Walks the path, so it takes time
    /// in proportion to its length.
    #[func]
    pub fn get_cost(&self, anchor: Vector2i) -> f64 {
        self.built()
            .and_then(|field| field.total_cost(cell_of(anchor)))
            .unwrap_or(f64::INFINITY)
    }

    /// The next anchor on the way from `anchor` to the nearest goal. At a goal, and where
    /// the field did not reach (check `is_reached()`), `anchor` itself: a unit there stays.
    #[func]
    pub fn get_next_anchor(&self, anchor: Vector2i) -> Vector2i {
        self.built()
            .and_then(|field| field.next_anchor(cell_of(anchor)))
            .map_or(anchor, vector_of)
    }

    /// The path from `anchor` to the nearest goal, as the Dictionary `find_path()` returns
    /// (`path` in the node's `result_format`; `expanded` 0): `OK` with every anchor, `NO_PATH`
    /// where the field did not reach, `START_CLEARANCE_INSUFFICIENT` where the unit does not
    /// fit, `START_OUT_OF_BOUNDS` off the map; a refused field answers with its own code.
    /// A field made while the node's `smoothing` was `SMOOTHING_TAUT` also gives `waypoints`
    /// and `waypoint_length`, as `find_path()` does, by the terrain and units of the field's
    /// snapshot (such a field keeps that snapshot, so while it lives the node's next edit
    /// copies the pages it changes).
    #[func]
    pub fn get_path_from(&self, anchor: Vector2i) -> VarDictionary {
        let mut result = match &self.field {
            Ok(field) => field.path_from(cell_of(anchor)),
            Err(code) => PathResult::failure(*code),
        };
        if let Some(smoother) = &self.smoother {
            smoother.add_waypoints(&mut result);
        }
        self.writer().dictionary(&result, self.order.agent_size)
    }

    /// The node's `smoothing` when the field was made: `SMOOTHING_OFF` (0) or
    /// `SMOOTHING_TAUT` (1).
    #[func]
    pub fn get_smoothing(&self) -> i64 {
        smoothing_value(self.order.smoothing)
    }

    /// Which way a unit whose footprint centre is at the **global** `position` should go: the
    /// unit vector from `position` towards the footprint centre of the next anchor after the
    /// anchor nearest to it (towards the goal's centre once there). `Vector2(0, 0)` where the
    /// field did not reach and within a hundredth of a cell of the goal's centre. A NaN or
    /// infinite position prints an error and returns `Vector2(0, 0)`.
    ///
    /// On a field made with `SMOOTHING_TAUT` the unit is steered instead towards a waypoint
    /// of the field's path from that anchor, the first the smoothing's greedy walk picks: an
    /// anchor the unit's footprint may reach in a straight line while the move one anchor
    /// farther breaks the smoothing rules (or the goal), so units steered by a smoothed field
    /// walk straight across open ground instead of in 45-degree steps. On most paths it is
    /// the first of the waypoints `get_path_from()` gives there; on others that call, which
    /// looks at the whole path, drops it for a farther one. Each anchor's waypoint is worked
    /// out once, the first time a unit is steered from it, and kept with the field; that first
    /// time reads the path only as far as the walk's probes reach (the turn 1, 3, 7, ... turns
    /// past the first, until one is refused; to the goal where all are accepted), so on long,
    /// winding paths it costs far less than `get_path_from()` with smoothing.
    #[func]
    pub fn get_direction_world(&self, position: Vector2) -> Vector2 {
        if !position.is_finite() {
            godot_error!(
                "ClearanceFlowField.get_direction_world: position {position} is not finite"
            );
            return Vector2::ZERO;
        }
        let Some(field) = self.built() else {
            return Vector2::ZERO;
        };
        let size = field.agent_size();
        let Some(to_local) = self.global_to_local else {
            godot_error!(
                "ClearanceFlowField.get_direction_world: the node's global transform when the \
                 field was made scales to 0 or is not finite, so positions cannot be placed on it"
            );
            return Vector2::ZERO;
        };
        let local = to_local * position;
        let here = self.frame.anchor_nearest(local, size);
        if field.cost(here).is_none() {
            return Vector2::ZERO;
        }
        let target = self.steering_target(field, here);
        let global_target = self.global_transform * self.frame.footprint_center(target, size);
        let way = global_target - position;
        let cell = self.global_transform.basis_xform(self.frame.cell_size);
        if way.length() <= cell.length() * 0.01 {
            return Vector2::ZERO;
        }
        // A NaN cell size would let a zero `way` through the test above.
        way.normalized_or_zero()
    }
}

impl ClearanceFlowField {
    /// A field object for `field` (or the code that refused it), built for `order`.
    pub fn create(
        field: Result<FlowField, PathCode>,
        order: FieldOrder,
        context: FieldContext,
    ) -> Gd<Self> {
        Gd::from_object(ClearanceFlowField {
            field,
            order,
            keys: context.keys,
            format: context.format,
            frame: context.frame,
            global_transform: context.global_transform,
            global_to_local: inverse_of(context.global_transform),
            smoother: context.smoother,
            steering_targets: RefCell::default(),
        })
    }

    /// Where `get_direction_world()` steers a unit whose nearest anchor is `here`, reached by
    /// `field`: the next anchor, or with smoothing the first waypoint after `here`, read as
    /// far as the walk needs.
    fn steering_target(&self, field: &FlowField, here: Cell) -> Cell {
        let Some(smoother) = &self.smoother else {
            return field.next_anchor(here).unwrap_or(here);
        };
        if let Some(&target) = self.steering_targets.borrow().get(&here) {
            return target;
        }
        let target = smoother.first_waypoint(field, here);
        self.steering_targets.borrow_mut().insert(here, target);
        target
    }

    /// The core's field, if it was built.
    pub fn built(&self) -> Option<&FlowField> {
        self.field.as_ref().ok()
    }

    /// Where the node placed cells when the field was made.
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
