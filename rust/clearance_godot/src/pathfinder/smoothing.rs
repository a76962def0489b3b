//! Smoothing a path the caller holds: `smooth_path()` gives the waypoints a query with
//! `smoothing` set to `SMOOTHING_TAUT` would carry for it, and `is_straight_move_clear()` tests
//! the rule each segment between two waypoints keeps. Every rule and check is the core's.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::modes::not_counted;
use super::ClearancePathfinder;
use crate::convert::cell_of;
use crate::marshal::{anchor_array, anchors_of};
use clearance_core::SmoothingError;
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Whether a unit of `agent_size` with the profile called `profile` may move in a straight
    /// line from anchor `from` to anchor `to`, its whole square sweeping only cells the
    /// profile may enter and, with `other_units` set to `OTHER_UNITS_BLOCK`, no cell under
    /// another registered unit (cells of its footprint at `from` excepted: it walks out of
    /// them). This is the rule a segment between two smoothed waypoints keeps, without their
    /// cost bound: a unit pushed off its waypoints can ask it before heading straight for the
    /// next one. `moving_unit` and `exempt_units` do not count, as in `find_path()`.
    ///
    /// Returns false, and prints an error, for an agent size outside 1 to 255, an unknown
    /// profile or unit, an anchor off the map, or an anchor where the unit does not fit.
    #[func]
    pub fn is_straight_move_clear(
        &mut self,
        from: Vector2i,
        to: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> bool {
        self.ensure_ready();
        let uncounted = not_counted(moving_unit, exempt_units.as_slice());
        let name = profile.to_string();
        let answer = self.map.straight_move_blocker(
            cell_of(from),
            cell_of(to),
            agent_size,
            &name,
            self.other_units_rule(),
            &uncounted,
        );
        match answer {
            Ok(in_the_way) => in_the_way.is_none(),
            Err(error) => {
                let argument = |index: usize| if index == 0 { "from" } else { "to" };
                match error {
                    SmoothingError::AnchorOutOfBounds { index, anchor } => pathfinder_error!(
                        "is_straight_move_clear",
                        "{} {anchor} lies outside the map region {}",
                        argument(index),
                        self.region
                    ),
                    SmoothingError::AnchorNotLegal { index, anchor } => pathfinder_error!(
                        "is_straight_move_clear",
                        "a unit of size {agent_size} does not fit at {} {anchor}",
                        argument(index)
                    ),
                    other => pathfinder_error!("is_straight_move_clear", "{other}"),
                }
                false
            }
        }
    }

    /// The taut waypoints of `path`, an array of anchors each one legal step from the next for
    /// a unit of `agent_size` with the profile called `profile` (as `get_id_path()` returns
    /// one with `smoothing` off, or what is left of one after the unit walked part of it):
    /// the anchors, first and last kept, that `find_path()` with `smoothing` set to
    /// `SMOOTHING_TAUT` would give as `waypoints` for that path on the map as it is now.
    /// Other units count by `other_units` as in `find_path()`, all but `moving_unit` and
    /// `exempt_units`: under `OTHER_UNITS_BLOCK` no step of the path may enter another unit's
    /// cells (the first anchor excepted), and no segment between waypoints sweeps one.
    ///
    /// Returns an empty array, and prints an error naming the first problem, for an empty
    /// path, an entry that is not a Vector2i, an anchor off the map or where the unit does not
    /// fit, two consecutive anchors that are not one legal step apart, a step onto a blocking
    /// unit, an agent size outside 1 to 255, or an unknown profile or unit. Nothing changes.
    #[func]
    pub fn smooth_path(
        &mut self,
        path: AnyArray,
        agent_size: i64,
        profile: StringName,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> Array<Vector2i> {
        let anchors = match anchors_of(&path) {
            Ok(anchors) => anchors,
            Err(problem) => {
                pathfinder_error!("smooth_path", "path{problem}");
                return Array::new();
            }
        };
        self.ensure_ready();
        let uncounted = not_counted(moving_unit, exempt_units.as_slice());
        let name = profile.to_string();
        let rule = self.other_units_rule();
        match (self.map).smooth_path(&anchors, agent_size, &name, rule, &uncounted) {
            Ok(waypoints) => anchor_array(&waypoints),
            Err(error) => {
                pathfinder_error!("smooth_path", "{error}");
                Array::new()
            }
        }
    }
}
