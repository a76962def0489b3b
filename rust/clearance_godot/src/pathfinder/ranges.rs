//! Movement ranges: `get_movement_range()`, `request_movement_range()` and the delivery of
//! its result. The checks of the arguments are here; the range is the core's.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::modes::moving_unit_of;
use super::ClearancePathfinder;
use crate::convert::cell_of;
use crate::marshal::ResultWriter;
use crate::range::{ClearanceMovementRange, RangeContext};
use crate::waypoints::PathSmoother;
use crate::workers::{RangeOrder, Work};
use clearance_core::{
    MovementRange, PathCode, PathMap, RangeError, RangeOptions, UnitId, MAX_BUDGET, MAX_TURNS,
};
use godot::prelude::*;
use std::rc::Rc;
use std::sync::Arc;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Where a unit of `agent_size` moving by the rules of `profile` can go from the anchor
    /// `start` with `budget` movement points (1.0 buys one straight step at multiplier 1, a
    /// diagonal costs sqrt 2 times as much), and what each destination costs: a
    /// `ClearanceMovementRange`, from one search outwards from `start`. An anchor is in range
    /// when `find_path()` to it would cost at most `budget` (exactly `budget` included).
    ///
    /// `turns` (1 by default, up to 1000) labels anchors further out with the turns they
    /// need, spending at most `budget` each turn (see `ClearanceMovementRange.get_turns()`).
    /// `moving_unit` is the unit that moves (`NO_UNIT`, -1, the default: none): its own
    /// footprint never counts against it. `allies` lists units it may pass through but not
    /// stop on. Every other registered unit is an enemy and counts as `other_units` says
    /// (with `OTHER_UNITS_BLOCK`, enemies block).
    ///
    /// Returns `null` and prints an error for a NaN, infinite or negative budget (or one
    /// above 1e9), `turns` outside 1 to 1000, an invalid agent size, an unknown profile, a
    /// start off the map or where the unit does not fit, an unregistered `moving_unit` or
    /// ally, and a cache memory limit the search would break. `debug_draw_last_range` draws
    /// the last range made here.
    #[func]
    // GDScript's signature: the optional arguments trail.
    #[allow(clippy::too_many_arguments)]
    pub fn get_movement_range(
        &mut self,
        start: Vector2i,
        agent_size: i64,
        profile: StringName,
        budget: f64,
        #[opt(default = 1)] turns: i64,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] allies: PackedInt64Array,
    ) -> Option<Gd<ClearanceMovementRange>> {
        self.ensure_ready();
        let method = "get_movement_range";
        let asked = RangeAsked {
            start,
            agent_size,
            profile: &profile,
            budget,
            turns,
            moving_unit,
            allies: allies.as_slice(),
        };
        let order = self.range_order(method, asked)?;
        let range = order.build(&self.map);
        let range = self.range_object(method, range, order, &self.map, &self.result_writer())?;
        // Kept only for the overlay: a range over a large map holds much memory, and would
        // outlive the script's last reference to it.
        if self.debug_draw_last_range {
            self.last_range = Some(range.clone());
            self.base_mut().queue_redraw();
        }
        Some(range)
    }

    /// Starts `get_movement_range()` on a worker thread and returns its request id at once;
    /// `movement_range_ready(id, range)` follows on the main thread, in a later frame, with
    /// the range for the map and the units as they are now (edits made and units moved
    /// meanwhile do not affect it), by the `other_units` of this moment. Arguments
    /// `get_movement_range()` refuses print an error and return -1, and nothing is started;
    /// but a start where the unit does not fit and the cache memory limit are found by the
    /// worker, as for `request_flow_field()`: the signal then brings `null`, after an error.
    #[func]
    // GDScript's signature: the optional arguments trail.
    #[allow(clippy::too_many_arguments)]
    pub fn request_movement_range(
        &mut self,
        start: Vector2i,
        agent_size: i64,
        profile: StringName,
        budget: f64,
        #[opt(default = 1)] turns: i64,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] allies: PackedInt64Array,
    ) -> i64 {
        self.ensure_ready();
        let asked = RangeAsked {
            start,
            agent_size,
            profile: &profile,
            budget,
            turns,
            moving_unit,
            allies: allies.as_slice(),
        };
        match self.range_order("request_movement_range", asked) {
            Some(order) => self.submit(Work::Range(order)),
            None => -1,
        }
    }
}

/// A movement range as a GDScript method asked for it.
struct RangeAsked<'a> {
    start: Vector2i,
    agent_size: i64,
    profile: &'a StringName,
    budget: f64,
    turns: i64,
    moving_unit: i64,
    allies: &'a [UnitId],
}

impl ClearancePathfinder {
    /// The range a range method asks for, with the node's `other_units` rule, or `None` after
    /// an error naming `method` if an argument is refused. The map is checked as it is now,
    /// so a request refused later on its snapshot can only be refused for memory.
    fn range_order(&self, method: &str, asked: RangeAsked<'_>) -> Option<RangeOrder> {
        let budget = asked.budget;
        if !(budget.is_finite() && (0.0..=MAX_BUDGET).contains(&budget)) {
            pathfinder_error!(
                method,
                "budget must be a number from 0 to {MAX_BUDGET:e}, got {budget}; no range"
            );
            return None;
        }
        let Some(turns) = u32::try_from(asked.turns)
            .ok()
            .filter(|turns| (1..=MAX_TURNS).contains(turns))
        else {
            pathfinder_error!(
                method,
                "turns must be from 1 to {MAX_TURNS}, got {}; no range",
                asked.turns
            );
            return None;
        };
        let name = asked.profile.to_string();
        if !self.report_bad_size_or_profile(method, asked.agent_size, &name) {
            return None;
        }
        let start = cell_of(asked.start);
        if !self.map.region().contains(start) {
            pathfinder_error!(
                method,
                "start {} is off the map (region {}); no range",
                asked.start,
                self.region
            );
            return None;
        }
        let moving_unit = moving_unit_of(asked.moving_unit);
        let named = [
            ("moving_unit", moving_unit.as_slice()),
            ("allies", asked.allies),
        ];
        if let Some(problem) = self.first_unregistered(&named) {
            pathfinder_error!(method, "{problem}; no range");
            return None;
        }
        let mut options = RangeOptions::new()
            .turns(turns)
            .other_units(self.other_units_rule())
            .allies(asked.allies);
        options.moving_unit = moving_unit;
        Some(RangeOrder {
            start,
            agent_size: asked.agent_size,
            profile: name,
            budget,
            options,
            smoothing: self.smoothing(),
        })
    }

    /// The GDScript object for a range built for `order` on `map`, writing paths as `writer`
    /// does (the node's way now, or the way it was when a request asked); or `None` after an
    /// error naming `method` if the core refused it. A
    /// range with smoothing keeps `map` (the snapshot it was built on) to smooth its paths by
    /// the same terrain and units.
    pub(super) fn range_object(
        &self,
        method: &str,
        range: Result<MovementRange, RangeError>,
        order: RangeOrder,
        map: &Arc<PathMap>,
        writer: &ResultWriter,
    ) -> Option<Gd<ClearanceMovementRange>> {
        match range {
            Ok(range) => {
                let context = RangeContext {
                    smoother: PathSmoother::new(
                        map,
                        (order.smoothing, order.agent_size),
                        &order.profile,
                        order.options.other_units,
                        order.options.uncounted_units(),
                    ),
                    keys: Rc::clone(&self.result_keys),
                    format: writer.format,
                    frame: writer.frame,
                };
                Some(ClearanceMovementRange::create(range, order, context))
            }
            Err(error) => {
                let hint = match error {
                    RangeError::Refused {
                        code: PathCode::StartClearanceInsufficient,
                    } => " (the unit does not fit at the start)",
                    RangeError::Refused {
                        code: PathCode::MemoryLimitReached,
                    } => " (raise cache_memory_limit_mb)",
                    _ => "",
                };
                pathfinder_error!(
                    method,
                    "from {} for size {} and profile '{}': {error}{hint}; no range",
                    order.start,
                    order.agent_size,
                    order.profile
                );
                None
            }
        }
    }
}
