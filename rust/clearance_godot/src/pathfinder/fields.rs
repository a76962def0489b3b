//! Flow fields and group orders: `get_flow_field()`, `request_flow_field()` with its
//! delivery, and `find_paths_to()`.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::queries::AnswerStyle;
use super::ClearancePathfinder;
use crate::convert::cell_of;
use crate::field::{ClearanceFlowField, FieldContext};
use crate::marshal::anchors_of;
use crate::waypoints::{add_waypoints, PathSmoother};
use crate::workers::{FieldOrder, Work};
use clearance_core::{Cell, FlowField, FlowFieldOptions, PathCode, PathMap, COST_SCALE};
use godot::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// A flow field: every anchor's optimal cost to the nearest of `goals` (an Array of
    /// Vector2i anchors) for a unit of `agent_size` moving by the rules of `profile`, and
    /// the next anchor on the way, from one search outwards from the goals. Many units sent
    /// to one place follow one field instead of searching a path each; see
    /// `ClearanceFlowField`. `max_cost` (`INF`, the default: no bound) stops the search
    /// beyond that cost, for a field that need not cover the whole map (see also
    /// `get_flow_field_reaching()`).
    ///
    /// The field answers `get_path_from()` with the node's `smoothing` of now. Registered
    /// units count as `other_units` says, as they stand now, but those in
    /// `exempt_units` (the group that follows the field): no anchor of a field is a moving
    /// unit's, so under `OTHER_UNITS_BLOCK` a unit that is not exempt cannot start from where it
    /// stands, and a goal under such a unit gives `GOAL_OCCUPIED`.
    ///
    /// Goals off the map or too narrow for the unit, an unknown profile, an invalid agent size
    /// and an unknown exempt id give a field that reports the code (`is_ok()` false; the last
    /// three also print an error, as in `find_path()`). Malformed arguments (an entry of
    /// `goals` that is not a Vector2i, a negative or NaN `max_cost`) print an error and return
    /// `null`.
    #[func]
    pub fn get_flow_field(
        &mut self,
        goals: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = f64::INFINITY)] max_cost: f64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> Option<Gd<ClearanceFlowField>> {
        self.ensure_ready();
        let bound = Bound::MaxCost(max_cost);
        let exempt = exempt_units.as_slice();
        let order = self.field_order(
            "get_flow_field",
            &goals,
            agent_size,
            &profile,
            bound,
            exempt,
        )?;
        let field = order.build(&self.map);
        Some(self.field_object(field, order, &self.map, self.answer_style()))
    }

    /// `get_flow_field()` bounded to what a group order needs: the search stops once every
    /// anchor of `starts` (an Array of Vector2i anchors, the units' positions) that can reach
    /// a goal has its final cost, so a field for units near their goal is cheap whatever the
    /// map's size (under `OTHER_UNITS_COST` it first copies the map's entry costs with the
    /// units' added, a pass over the map). Anchors cheaper than the costliest start are
    /// reached too. Units count as
    /// in `get_flow_field()`: exempt the group's own ids. An entry of `goals` or `starts` that
    /// is not a Vector2i prints an error and returns `null`.
    #[func]
    pub fn get_flow_field_reaching(
        &mut self,
        goals: AnyArray,
        starts: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> Option<Gd<ClearanceFlowField>> {
        self.ensure_ready();
        let method = "get_flow_field_reaching";
        let starts = anchors_or_error(method, "starts", &starts)?;
        let bound = Bound::Settle(starts);
        let exempt = exempt_units.as_slice();
        let order = self.field_order(method, &goals, agent_size, &profile, bound, exempt)?;
        let field = order.build(&self.map);
        Some(self.field_object(field, order, &self.map, self.answer_style()))
    }

    /// Starts `get_flow_field()` on a worker thread and returns its request id at once;
    /// `flow_field_ready(id, field)` follows on the main thread, in a later frame, with the
    /// field for the map as it is now (edits made and units moved meanwhile do not affect
    /// it). Malformed arguments print an error and return -1, and nothing is started.
    #[func]
    pub fn request_flow_field(
        &mut self,
        goals: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = f64::INFINITY)] max_cost: f64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> i64 {
        self.ensure_ready();
        let method = "request_flow_field";
        let bound = Bound::MaxCost(max_cost);
        let exempt = exempt_units.as_slice();
        match self.field_order(method, &goals, agent_size, &profile, bound, exempt) {
            Some(order) => self.submit(Work::Field(order)),
            None => -1,
        }
    }

    /// `get_flow_field_reaching()` on a worker thread: returns its request id at once, and
    /// `flow_field_ready(id, field)` follows as for `request_flow_field()`. Malformed
    /// arguments print an error and return -1, and nothing is started.
    #[func]
    pub fn request_flow_field_reaching(
        &mut self,
        goals: AnyArray,
        starts: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> i64 {
        self.ensure_ready();
        let method = "request_flow_field_reaching";
        let Some(starts) = anchors_or_error(method, "starts", &starts) else {
            return -1;
        };
        let bound = Bound::Settle(starts);
        let exempt = exempt_units.as_slice();
        match self.field_order(method, &goals, agent_size, &profile, bound, exempt) {
            Some(order) => self.submit(Work::Field(order)),
            None => -1,
        }
    }

    /// A group order: the path from each of `starts` (an Array of Vector2i anchors) to
    /// `goal` for a unit of `agent_size` and `profile`, one result Dictionary per start, in
    /// order, each what `find_path()` would return for it (the same codes in the same order,
    /// an optimal path of the same cost; paths of equal cost may differ, and `expanded` is 0).
    /// They come from one search outwards from the goal however many units are sent: where
    /// every terrain the profile enters costs the same (and no units count by a cost), a
    /// jump-point search that stops at each start; otherwise a flow field bounded to reach
    /// every start. Units count as
    /// `other_units` says, but those in `exempt_units` (the group's own ids: under
    /// `OTHER_UNITS_BLOCK` a start on a unit that is not exempt gets `NO_PATH`, where
    /// `find_path()` lets a unit walk out of another, unless the start is the goal: it has
    /// arrived); `smoothing` adds waypoints, as to a
    /// query's; `search_expansion_limit` does not apply (one search serves every start). An entry of
    /// `starts` that is not a Vector2i prints an error and returns an empty array.
    #[func]
    pub fn find_paths_to(
        &mut self,
        goal: Vector2i,
        starts: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> Array<VarDictionary> {
        self.ensure_ready();
        let method = "find_paths_to";
        let Some(starts) = anchors_or_error(method, "starts", &starts) else {
            return Array::new();
        };
        let name = profile.to_string();
        let exempt = exempt_units.as_slice();
        self.report_query_mistakes(method, agent_size, &name, None, exempt);
        let rule = self.other_units_rule();
        let mut results = (self.map).find_paths_to_counting(
            cell_of(goal),
            &starts,
            agent_size,
            &name,
            rule,
            exempt,
        );
        for result in &mut results {
            let rules = (&name[..], rule, exempt);
            add_waypoints(&self.map, result, self.smoothing(), agent_size, rules);
        }
        let writer = self.result_writer();
        let dictionaries: Vec<VarDictionary> = results
            .iter()
            .map(|result| writer.dictionary(result, agent_size))
            .collect();
        Array::from(dictionaries.as_slice())
    }
}

/// How far a field from GDScript searches.
enum Bound {
    /// Up to this cost (`INF`: no bound); not yet checked.
    MaxCost(f64),
    /// Until these anchors are settled.
    Settle(Vec<Cell>),
}

/// The anchors in `array`, or `None` after an error naming `method` and `argument`.
fn anchors_or_error(method: &str, argument: &str, array: &AnyArray) -> Option<Vec<Cell>> {
    anchors_of(array)
        .map_err(|problem| pathfinder_error!(method, "{argument}{problem}; nothing was done"))
        .ok()
}

impl ClearancePathfinder {
    /// The field a flow-field method asks for, with the node's `other_units` rule and the
    /// `exempt` ids, or `None` after an error naming `method` if an argument is malformed. A
    /// bad size, unknown profile or unknown exempt id is not malformed (the field reports its
    /// code) but prints an error too, as `find_path()` does.
    fn field_order(
        &self,
        method: &str,
        goals: &AnyArray,
        agent_size: i64,
        profile: &StringName,
        bound: Bound,
        exempt: &[i64],
    ) -> Option<FieldOrder> {
        let goals = anchors_or_error(method, "goals", goals)?;
        let options = match bound {
            Bound::Settle(starts) => FlowFieldOptions::new().settle(&starts),
            Bound::MaxCost(max_cost) if max_cost.is_nan() || max_cost < 0.0 => {
                pathfinder_error!(
                    method,
                    "max_cost must be 0 or more (INF for no bound), got {max_cost}; nothing \
                     was done"
                );
                return None;
            }
            // Costs beyond the fixed-point range are as good as no bound.
            Bound::MaxCost(max_cost) if max_cost * COST_SCALE as f64 >= u64::MAX as f64 => {
                FlowFieldOptions::new()
            }
            Bound::MaxCost(max_cost) => {
                FlowFieldOptions::new().max_cost((max_cost * COST_SCALE as f64).floor() as u64)
            }
        };
        let name = profile.to_string();
        self.report_query_mistakes(method, agent_size, &name, None, exempt);
        Some(FieldOrder {
            goals,
            agent_size,
            profile: name,
            options: options.other_units(self.other_units_rule(), exempt),
            smoothing: self.smoothing(),
        })
    }

    /// The GDScript object for a field built (or refused) for `order` on `map`, written in
    /// `style` (the node's as it is now, or as it was when a request asked). A field with smoothing keeps `map` (the snapshot it
    /// was built on) to smooth its paths by the same terrain and units.
    pub(super) fn field_object(
        &self,
        field: Result<FlowField, PathCode>,
        order: FieldOrder,
        map: &Arc<PathMap>,
        style: AnswerStyle,
    ) -> Gd<ClearanceFlowField> {
        let context = FieldContext {
            smoother: PathSmoother::new(
                map,
                (order.smoothing, order.agent_size),
                &order.profile,
                order.options.other_units,
                order.options.exempt_units.clone(),
            ),
            keys: Rc::clone(&self.result_keys),
            format: style.format,
            frame: style.frame,
            global_transform: style.global_transform,
        };
        ClearanceFlowField::create(field, order, context)
    }
}
