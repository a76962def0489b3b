//! AStarGrid2D's way of asking: `get_id_path()` and `get_point_path()` return the path alone,
//! the cheapest result to hand to GDScript, and the rest of the answer waits in
//! `get_last_code()`, `get_last_total_cost()` and `get_last_result()` for those who want it.
#![forbid(unsafe_code)]

use super::queries::Asked;
use super::ClearancePathfinder;
use crate::convert::cell_of;
use crate::marshal::{anchor_array, anchors_to_follow, footprint_centers};
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// `find_path()`'s path alone, as AStarGrid2D's `get_id_path()` returns it: the anchors
    /// from `start` to `goal`, both included, or an empty array when there is no path (with
    /// `allow_partial_path`, the path to the reachable anchor nearest the goal). Unlike
    /// AStarGrid2D, the reason is kept: `get_last_code()` says why a path is empty, and
    /// `get_last_result()` gives the whole Dictionary. Cheaper than `find_path()` for scripts
    /// that ask often. Registered units count as in `find_path()`, with the same `moving_unit`
    /// and `exempt_units`. Always the grid path: with `smoothing`, the waypoints are in
    /// `get_last_result()` (and `get_point_path()` follows them).
    #[func]
    // GDScript's signature: the optional arguments trail, as in AStarGrid2D.
    #[allow(clippy::too_many_arguments)]
    pub fn get_id_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> Array<Vector2i> {
        let query = Asked {
            start: cell_of(start),
            goal: cell_of(goal),
            agent_size,
            allow_partial_path,
            moving_unit,
            exempt_units: exempt_units.as_slice(),
        };
        self.answer("get_id_path", query, &profile, |_, result| {
            anchor_array(&result.path)
        })
    }

    /// `get_id_path()` as positions, as AStarGrid2D's `get_point_path()` returns them: the
    /// footprint centres of the path's anchors in this node's local coordinates (what
    /// `footprint_center()` gives), ready for a `Line2D`, a `Curve2D` or a tween; empty when
    /// there is no path (see `get_last_code()`). With `smoothing` set to `SMOOTHING_TAUT`, the
    /// footprint centres of the path's waypoints instead: the straight lines a unit may walk
    /// (the whole grid path stays in `get_last_result()`). Units count as in `get_id_path()`.
    #[func]
    // GDScript's signature: the optional arguments trail, as in AStarGrid2D.
    #[allow(clippy::too_many_arguments)]
    pub fn get_point_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> PackedVector2Array {
        let query = Asked {
            start: cell_of(start),
            goal: cell_of(goal),
            agent_size,
            allow_partial_path,
            moving_unit,
            exempt_units: exempt_units.as_slice(),
        };
        self.answer("get_point_path", query, &profile, |node, result| {
            footprint_centers(&node.frame(), anchors_to_follow(result), agent_size)
        })
    }

    /// The code of the last query answered on the main thread (`find_path()`,
    /// `find_path_world()`, `get_id_path()` or `get_point_path()`): `&"OK"`, `&"NO_PATH"`...
    /// as `find_path()` names them; an empty StringName before the first.
    #[func]
    pub fn get_last_code(&self) -> StringName {
        self.last_result
            .as_ref()
            .map(|(result, _)| self.result_keys.code_name(result.code))
            .unwrap_or_default()
    }

    /// The `total_cost` of the last query answered on the main thread (0.0 without a path).
    #[func]
    pub fn get_last_total_cost(&self) -> f64 {
        self.last_result
            .as_ref()
            .map_or(0.0, |(result, _)| result.total_cost())
    }

    /// The whole result of the last query answered on the main thread, as `find_path()`
    /// would have returned it (in the current `result_format`); an empty Dictionary before
    /// the first.
    #[func]
    pub fn get_last_result(&self) -> VarDictionary {
        self.last_result
            .as_ref()
            .map(|(result, agent_size)| self.result_dictionary(result, *agent_size))
            .unwrap_or_default()
    }
}
