//! The property setters' work: each `set_*()` of the primary `#[godot_api]` block in
//! `mod.rs` (which must stay beside the struct, as gdext's macros require) hands its value to
//! the `apply_*()` here, which checks it, prints an error and keeps the old value if it is bad,
//! and otherwise applies it.
#![forbid(unsafe_code)]

use super::errors::{pathfinder_error, terrain_or_error};
use super::modes::{
    cell_shape_of, cell_shape_value, movement_of, other_units_of, path_format_of, search_mode_of,
    smoothing_of, CELL_SHAPE_ISOMETRIC_DOWN, CELL_SHAPE_ISOMETRIC_RIGHT, CELL_SHAPE_SQUARE,
    CELL_SHAPE_TILE_SET, DIAGONAL_MODE_NEVER, DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES,
    OTHER_UNITS_BLOCK, OTHER_UNITS_COST, OTHER_UNITS_IGNORE, RESULT_FORMAT_ANCHORS,
    RESULT_FORMAT_PACKED_ANCHORS, RESULT_FORMAT_POINTS, SEARCH_MODE_AUTO, SEARCH_MODE_JUMP,
    SEARCH_MODE_PLAIN, SMOOTHING_OFF, SMOOTHING_TAUT,
};
use super::profiles::Announce;
use super::ClearancePathfinder;
use crate::convert::region_of;
use crate::field::ClearanceFlowField;
use crate::frame::{is_tile_size, CellShape};
use crate::profile::AgentProfile;
use clearance_core::{LandmarkPlacement, OtherUnits, MAX_LANDMARKS};
use godot::prelude::*;

impl ClearancePathfinder {
    /// What `set_region()` does: validates, then applies.
    pub(super) fn apply_region(&mut self, region: Rect2i) {
        if let Err(error) = region_of(region).validate_as_map() {
            pathfinder_error!("region", "{error}; the region is unchanged");
            return;
        }
        let what = region.to_string();
        if !self.within_max_map_cells("region", &what, region, "the region is unchanged") {
            return;
        }
        if region == self.region {
            return;
        }
        self.region = region;
        self.map_stale = true;
        self.last_path.clear();
        self.last_waypoints.clear();
        self.base_mut().update_configuration_warnings();
        self.after_terrain_change(region);
    }

    /// What `set_cell_size()` does: validates, then applies.
    pub(super) fn apply_cell_size(&mut self, cell_size: Vector2) {
        if !is_tile_size(cell_size) {
            pathfinder_error!(
                "cell_size",
                "both components must be finite and above 0, got {cell_size}; unchanged"
            );
            return;
        }
        self.cell_size = cell_size;
        self.base_mut().queue_redraw();
    }

    /// What `set_offset()` does: validates, then applies.
    pub(super) fn apply_offset(&mut self, offset: Vector2) {
        if !offset.is_finite() {
            pathfinder_error!("offset", "{offset} is not finite; unchanged");
            return;
        }
        self.offset = offset;
        self.base_mut().queue_redraw();
    }

    /// What `set_cell_shape()` does: validates, then applies. `CELL_SHAPE_TILE_SET` is only
    /// accepted as it stands, or ignored before the node is ready: a scene saved after
    /// `match_tile_map_layer()` stores it, but the layout it stood for is the layer's, which
    /// the next `match_tile_map_layer()` reads again.
    pub(super) fn apply_cell_shape(&mut self, value: i64) {
        if value == CELL_SHAPE_TILE_SET
            && (self.cell_shape == value || !self.base().is_node_ready())
        {
            return;
        }
        let Some(shape) = cell_shape_of(value) else {
            pathfinder_error!(
                "cell_shape",
                "{value} is not CELL_SHAPE_SQUARE ({CELL_SHAPE_SQUARE}), CELL_SHAPE_ISOMETRIC_RIGHT \
                 ({CELL_SHAPE_ISOMETRIC_RIGHT}) or CELL_SHAPE_ISOMETRIC_DOWN \
                 ({CELL_SHAPE_ISOMETRIC_DOWN}) (match_tile_map_layer() sets \
                 CELL_SHAPE_TILE_SET); unchanged"
            );
            return;
        };
        self.apply_cell_layout(shape);
    }

    /// Lays cells out by `shape`, and names it in `cell_shape`.
    pub(super) fn apply_cell_layout(&mut self, shape: CellShape) {
        self.cell_layout = shape;
        self.cell_shape = cell_shape_value(shape);
        self.base_mut().queue_redraw();
    }

    /// What `set_diagonal_mode()` does: validates, then applies.
    pub(super) fn apply_diagonal_mode(&mut self, mode: i64) {
        let Some(movement) = movement_of(mode) else {
            pathfinder_error!(
                "diagonal_mode",
                "{mode} is not supported; use DIAGONAL_MODE_NEVER ({DIAGONAL_MODE_NEVER}) or \
                 DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES ({DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES}); \
                 unchanged"
            );
            return;
        };
        self.diagonal_mode = mode;
        let version_before = self.map.version();
        self.map_mut().set_movement(movement);
        self.after_rule_change(version_before, Announce::Now);
    }

    /// What `set_result_format()` does: validates, then applies.
    pub(super) fn apply_result_format(&mut self, format: i64) {
        if path_format_of(format).is_none() {
            pathfinder_error!(
                "result_format",
                "{format} is not RESULT_FORMAT_ANCHORS ({RESULT_FORMAT_ANCHORS}), \
                 RESULT_FORMAT_PACKED_ANCHORS ({RESULT_FORMAT_PACKED_ANCHORS}) or \
                 RESULT_FORMAT_POINTS ({RESULT_FORMAT_POINTS}); unchanged"
            );
            return;
        }
        self.result_format = format;
    }

    /// What `set_search_mode()` does: validates, then applies.
    pub(super) fn apply_search_mode(&mut self, mode: i64) {
        if search_mode_of(mode).is_none() {
            pathfinder_error!(
                "search_mode",
                "{mode} is not SEARCH_MODE_AUTO ({SEARCH_MODE_AUTO}), SEARCH_MODE_JUMP \
                 ({SEARCH_MODE_JUMP}) or SEARCH_MODE_PLAIN ({SEARCH_MODE_PLAIN}); unchanged"
            );
            return;
        }
        self.search_mode = mode;
    }

    /// What `set_smoothing()` does: validates, then applies. Flow fields already made keep
    /// the smoothing they were made with.
    pub(super) fn apply_smoothing(&mut self, smoothing: i64) {
        if smoothing_of(smoothing).is_none() {
            pathfinder_error!(
                "smoothing",
                "{smoothing} is not SMOOTHING_OFF ({SMOOTHING_OFF}) or SMOOTHING_TAUT \
                 ({SMOOTHING_TAUT}); unchanged"
            );
            return;
        }
        self.smoothing = smoothing;
    }

    /// What `set_other_units()` does: validates, then applies.
    pub(super) fn apply_other_units(&mut self, rule: i64) {
        // The cost was validated by its own setter; only the rule is checked here.
        if other_units_of(rule, self.other_units_cost).is_none() {
            pathfinder_error!(
                "other_units",
                "{rule} is not OTHER_UNITS_IGNORE ({OTHER_UNITS_IGNORE}), OTHER_UNITS_BLOCK \
                 ({OTHER_UNITS_BLOCK}) or OTHER_UNITS_COST ({OTHER_UNITS_COST}); unchanged"
            );
            return;
        }
        self.other_units = rule;
    }

    /// What `set_other_units_cost()` does: validates (as the core does), then applies.
    pub(super) fn apply_other_units_cost(&mut self, multiplier: f64) {
        if let Err(error) = OtherUnits::cost(multiplier) {
            pathfinder_error!("other_units_cost", "{error}; unchanged");
            return;
        }
        self.other_units_cost = multiplier;
    }

    /// What `set_default_terrain()` does: validates, then applies.
    pub(super) fn apply_default_terrain(&mut self, terrain: i64) {
        if terrain_or_error("default_terrain", "the value", terrain).is_none() {
            return;
        }
        if terrain == self.default_terrain {
            return;
        }
        self.default_terrain = terrain;
        self.map_stale = true;
        let region = self.region;
        self.after_terrain_change(region);
    }

    /// What `set_empty_cell_terrain()` does: validates, then applies.
    pub(super) fn apply_empty_cell_terrain(&mut self, terrain: i64) {
        if terrain_or_error("empty_cell_terrain", "the value", terrain).is_some() {
            self.empty_cell_terrain = terrain;
        }
    }

    /// What `set_landmark_count()` does: validates, then applies.
    pub(super) fn apply_landmark_count(&mut self, count: i64) {
        let placement = match usize::try_from(count) {
            Ok(0) => LandmarkPlacement::None,
            Ok(count) => LandmarkPlacement::Farthest(count),
            Err(_) => {
                pathfinder_error!("landmark_count", "{count} is not from 0 to {MAX_LANDMARKS}");
                return;
            }
        };
        // The table's memory is checked against the map of the current `region`, not one a
        // new region will replace.
        self.ensure_map();
        match self.map_mut().set_landmarks(placement) {
            Ok(()) => self.landmark_count = count,
            Err(error) => pathfinder_error!("landmark_count", "{error}"),
        }
    }

    /// What `set_profiles()` does: validates, then applies.
    pub(super) fn apply_profiles(&mut self, profiles: Array<Option<Gd<AgentProfile>>>) {
        let listener = Callable::from_object_method(&self.to_gd(), "_on_profile_changed");
        for profile in self.profiles.iter_shared().flatten() {
            let mut resource = profile.upcast::<Resource>();
            if resource.is_connected("changed", &listener) {
                resource.disconnect("changed", &listener);
            }
        }
        for profile in profiles.iter_shared().flatten() {
            let mut resource = profile.upcast::<Resource>();
            if !resource.is_connected("changed", &listener) {
                resource.connect("changed", &listener);
            }
        }
        self.profiles = profiles;
        self._on_profile_changed();
    }

    /// What `set_worker_thread_count()` does: validates, then applies.
    pub(super) fn apply_worker_thread_count(&mut self, count: i64) {
        if !(0..=64).contains(&count) {
            pathfinder_error!(
                "worker_thread_count",
                "{count} is not from 0 to 64; unchanged"
            );
            return;
        }
        self.worker_thread_count = count;
    }

    /// What `set_search_expansion_limit()` does: validates, then applies.
    pub(super) fn apply_search_expansion_limit(&mut self, limit: i64) {
        if limit < 0 {
            pathfinder_error!(
                "search_expansion_limit",
                "{limit} is negative (0 means no limit); unchanged"
            );
            return;
        }
        self.search_expansion_limit = limit;
    }

    /// What `set_cache_memory_limit_mb()` does: validates, then applies.
    pub(super) fn apply_cache_memory_limit_mb(&mut self, megabytes: i64) {
        let Some(bytes) = u32::try_from(megabytes)
            .ok()
            .filter(|&mb| (1..=1 << 20).contains(&mb))
            .and_then(|mb| usize::try_from(u64::from(mb) << 20).ok())
        else {
            pathfinder_error!(
                "cache_memory_limit_mb",
                "{megabytes} is not from 1 to 1048576; unchanged"
            );
            return;
        };
        self.cache_memory_limit_mb = megabytes;
        self.map_mut().set_cache_memory_limit(bytes);
    }

    /// Whether `rect` (what `method` would make the map) has at most `max_map_cells` cells;
    /// if not, prints for `method` that `what` has too many, and `consequence`.
    pub(super) fn within_max_map_cells(
        &self,
        method: &str,
        what: &str,
        rect: Rect2i,
        consequence: &str,
    ) -> bool {
        let cells = region_of(rect).area();
        let within = cells <= self.max_map_cells as u64;
        if !within {
            pathfinder_error!(
                method,
                "{what} has {cells} cells, more than max_map_cells ({}); {consequence}",
                self.max_map_cells
            );
        }
        within
    }

    /// What `set_max_map_cells()` does: validates, then applies.
    pub(super) fn apply_max_map_cells(&mut self, cells: i64) {
        if !(1..=clearance_core::MAX_CELLS as i64).contains(&cells) {
            pathfinder_error!(
                "max_map_cells",
                "{cells} is not from 1 to {}; unchanged",
                clearance_core::MAX_CELLS
            );
            return;
        }
        self.max_map_cells = cells;
    }

    /// What `set_debug_draw_clearance()` does: validates, then applies.
    pub(super) fn apply_debug_draw_clearance(&mut self, enabled: bool) {
        self.debug_draw_clearance = enabled;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }

    /// What `set_debug_profile()` does: validates, then applies.
    pub(super) fn apply_debug_profile(&mut self, profile: StringName) {
        self.debug_profile = profile;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }

    /// What `set_debug_draw_last_path()` does: validates, then applies.
    pub(super) fn apply_debug_draw_last_path(&mut self, enabled: bool) {
        self.debug_draw_last_path = enabled;
        self.base_mut().queue_redraw();
    }

    /// What `set_debug_draw_units()` does: validates, then applies.
    pub(super) fn apply_debug_draw_units(&mut self, enabled: bool) {
        self.debug_draw_units = enabled;
        self.base_mut().queue_redraw();
    }

    /// What `set_debug_draw_last_range()` does: validates, then applies.
    pub(super) fn apply_debug_draw_last_range(&mut self, enabled: bool) {
        self.debug_draw_last_range = enabled;
        if !enabled {
            self.last_range = None;
        }
        self.base_mut().queue_redraw();
    }

    /// What `set_debug_flow_field()` does: validates, then applies.
    pub(super) fn apply_debug_flow_field(&mut self, field: Option<Gd<ClearanceFlowField>>) {
        self.debug_flow_field = field;
        self.base_mut().queue_redraw();
    }
}
