//! Terrain: cell, rectangle and batch edits, whole-map loads and reads, and the TileMapLayer
//! import.
#![forbid(unsafe_code)]

use super::errors::{pathfinder_error, terrain_or_error};
use super::profiles::Announce;
use super::ClearancePathfinder;
use crate::convert::{bounding_rect, cell_of, rect_of, region_of, terrain_id};
use crate::tilemap::terrain_from_layer;
use clearance_core::{GridError, PathMap, TerrainEdit, TerrainGrid};
use godot::classes::{Engine, TileMapLayer};
use godot::prelude::*;
use std::sync::Arc;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Sets the terrain of one cell. Returns `false` and prints an error (changing nothing) if
    /// the cell is off the map or `terrain` is not from 0 to 255.
    #[func]
    pub fn set_cell_terrain(&mut self, cell: Vector2i, terrain: i64) -> bool {
        let Some(id) = terrain_or_error("set_cell_terrain", "terrain", terrain) else {
            return false;
        };
        self.ensure_map();
        let outcome = self.map_mut().set_cell(cell_of(cell), id);
        self.report_edit(
            "set_cell_terrain",
            outcome,
            Rect2i::new(cell, Vector2i::ONE),
        )
    }

    /// Sets the terrain of every cell of `rect`, which must be non-empty and lie inside the
    /// map. Returns `false` and prints an error (changing nothing) otherwise, or if `terrain`
    /// is not from 0 to 255.
    #[func]
    pub fn fill_rect_terrain(&mut self, rect: Rect2i, terrain: i64) -> bool {
        let Some(id) = terrain_or_error("fill_rect_terrain", "terrain", terrain) else {
            return false;
        };
        self.ensure_map();
        let outcome = self.map_mut().fill_rect(region_of(rect), id);
        self.report_edit("fill_rect_terrain", outcome, rect)
    }

    /// Replaces the terrain of the whole map: one byte per cell, row by row from the top-left
    /// cell of `region`, so `data.size()` must equal `region.get_area()`. Returns `false` and
    /// prints an error (changing nothing) otherwise. `get_terrain_data()` is the inverse.
    #[func]
    pub fn load_terrain(&mut self, data: PackedByteArray) -> bool {
        self.ensure_map();
        let outcome = self.map_mut().load_terrain(data.as_slice());
        let whole = rect_of(self.map.region());
        self.report_edit("load_terrain", outcome, whole)
    }

    /// A number that grows with every change to the map's terrain, profiles or
    /// `diagonal_mode` (each also emits `map_changed`): a flow field (or anything a game
    /// derived from the map) made at another version may be stale. Units moving leave it.
    #[func]
    pub fn get_map_version(&mut self) -> i64 {
        self.ensure_map();
        i64::try_from(self.map.version()).unwrap_or(i64::MAX)
    }

    /// The terrain of the whole map, one byte per cell, row by row from the top-left cell of
    /// `region` (what `load_terrain()` takes).
    #[func]
    pub fn get_terrain_data(&mut self) -> PackedByteArray {
        self.ensure_map();
        // Page by page into the array, without a copy in between.
        let bytes = self.map.grid().as_bytes();
        let mut data = PackedByteArray::new();
        data.resize(bytes.len());
        let target = data.as_mut_slice();
        let mut written = 0;
        for page in bytes.pages() {
            target[written..written + page.len()].copy_from_slice(page);
            written += page.len();
        }
        data
    }

    /// Sets `cells[i]` to `terrains[i]` for every i, all or nothing: every entry is checked
    /// (equal lengths, terrains from 0 to 255, cells on the map) before the first write. On a
    /// bad entry returns `false`, prints an error naming it, and changes nothing. An empty
    /// batch is valid and changes nothing.
    #[func]
    pub fn apply_terrain_batch(
        &mut self,
        cells: Array<Vector2i>,
        terrains: PackedInt32Array,
    ) -> bool {
        let (edits, changed) = match batch_edits(&cells, &terrains) {
            Ok(batch) => batch,
            Err(problem) => {
                pathfinder_error!("apply_terrain_batch", "{problem}; nothing changed");
                return false;
            }
        };
        self.ensure_map();
        match self.map_mut().apply_edits(&edits) {
            Ok(()) => {
                if let Some(rect) = changed {
                    self.after_terrain_change(rect);
                }
                true
            }
            Err(error) => {
                pathfinder_error!("apply_terrain_batch", "{error}");
                false
            }
        }
    }

    /// The terrain id of `cell`, or -1 (with an error) if it lies off the map.
    #[func]
    pub fn get_cell_terrain(&mut self, cell: Vector2i) -> i64 {
        self.ensure_map();
        match self.map.grid().terrain(cell_of(cell)) {
            Some(terrain) => i64::from(terrain),
            None => {
                pathfinder_error!(
                    "get_cell_terrain",
                    "cell {cell} lies outside the map region {}",
                    self.region
                );
                -1
            }
        }
    }

    /// Replaces region and terrain with those of a TileMapLayer: `region` becomes
    /// `layer.get_used_rect()`, and each cell takes the int stored in its tile's custom data
    /// layer named `terrain_layer_name` (0 to 255); cells without a tile get
    /// `empty_cell_terrain`. Returns `false` and prints an error, changing nothing, if the
    /// layer is null or empty, has no TileSet, the TileSet has no int custom data layer of that
    /// name, or a tile's value is out of range. Profiles are kept; `cell_size`, `offset` and
    /// `cell_shape` are not changed (`match_tile_map_layer()` sets them from the layer).
    /// The layer's cells are read in one call and each kind of tile is looked up once, so a
    /// large layer imports in a small part of the time a script reading each cell's tile data
    /// would take.
    #[func]
    pub fn import_tile_map_layer(
        &mut self,
        layer: Option<Gd<TileMapLayer>>,
        terrain_layer_name: GString,
    ) -> bool {
        let Some(layer) = layer else {
            pathfinder_error!("import_tile_map_layer", "the layer is null");
            return false;
        };
        let used = layer.get_used_rect();
        let what = format!("the layer's used rectangle {used}");
        if !self.within_max_map_cells("import_tile_map_layer", &what, used, "nothing changed") {
            return false;
        }
        let grid = match terrain_from_layer(&layer, &terrain_layer_name, self.empty_cell_terrain) {
            Ok(grid) => grid,
            Err(problem) => {
                pathfinder_error!("import_tile_map_layer", "{problem}; nothing changed");
                return false;
            }
        };
        let region = grid.region();
        self.replace_grid(grid);
        self.region = rect_of(region);
        self.after_terrain_change(rect_of(region));
        true
    }
}

impl ClearancePathfinder {
    /// Puts `grid` in place of the map's terrain, keeping the movement rule, profiles and
    /// landmark settings.
    pub(super) fn replace_grid(&mut self, grid: TerrainGrid) {
        self.map_mut().replace_grid(grid);
        self.map_stale = false;
        self.last_path.clear();
        self.last_waypoints.clear();
    }

    /// Redraws and emits `map_changed(rect)`: after every terrain change that may have touched
    /// the cells of `rect`.
    pub(super) fn after_terrain_change(&mut self, rect: Rect2i) {
        self.base_mut().queue_redraw();
        self.signals().map_changed().emit(rect);
    }

    /// Announces `rect` after an edit the core accepted and returns `true`; or prints, for
    /// `method`, why the core refused it (it then changed nothing) and returns `false`.
    fn report_edit(&mut self, method: &str, outcome: Result<(), GridError>, rect: Rect2i) -> bool {
        match outcome {
            Ok(()) => {
                self.after_terrain_change(rect);
                true
            }
            Err(error) => {
                pathfinder_error!(method, "{error}; nothing changed");
                false
            }
        }
    }
}

/// The edits `apply_terrain_batch(cells, terrains)` asks for, with the smallest rectangle
/// holding their cells (none for an empty batch), or what is wrong with the arrays. Cells off
/// the map are the core's to refuse.
fn batch_edits(
    cells: &Array<Vector2i>,
    terrains: &PackedInt32Array,
) -> Result<(Vec<TerrainEdit>, Option<Rect2i>), String> {
    if cells.len() != terrains.len() {
        return Err(format!(
            "{} cells but {} terrains; the arrays are parallel and need the same length",
            cells.len(),
            terrains.len()
        ));
    }
    let mut edits = Vec::with_capacity(cells.len());
    let mut changed = Vec::with_capacity(cells.len());
    for (index, (cell, &terrain)) in cells.iter_shared().zip(terrains.as_slice()).enumerate() {
        let Some(id) = terrain_id(i64::from(terrain)) else {
            return Err(format!(
                "terrains[{index}] is {terrain}, not a terrain id from 0 to 255"
            ));
        };
        let cell = cell_of(cell);
        edits.push(TerrainEdit::Cell { cell, terrain: id });
        changed.push(cell);
    }
    Ok((edits, bounding_rect(&changed)))
}

impl ClearancePathfinder {
    /// The map, for an edit: copied first if a pending request still reads this version.
    pub(super) fn map_mut(&mut self) -> &mut PathMap {
        Arc::make_mut(&mut self.map)
    }

    /// Rebuilds the map if `region` or `default_terrain` changed, and registers the resource
    /// profiles if `profiles` changed.
    pub(super) fn ensure_ready(&mut self) {
        self.ensure_map();
        if self.profiles_stale {
            // In the editor, configuration warnings report bad profiles; errors would repeat
            // them.
            let report = !Engine::singleton().is_editor_hint();
            self.register_profile_resources(report, Announce::Deferred);
        }
    }

    /// Rebuilds the map, filled with `default_terrain`, if `region` or `default_terrain`
    /// changed since it was built.
    pub(super) fn ensure_map(&mut self) {
        if !self.map_stale {
            return;
        }
        self.map_stale = false;
        let fill = terrain_id(self.default_terrain).unwrap_or(0);
        match TerrainGrid::new(region_of(self.region), fill) {
            Ok(grid) => self.replace_grid(grid),
            // The setter validated the region; keep the old map rather than trust that here.
            Err(error) => pathfinder_error!(node, "cannot build the map: {error}"),
        }
    }
}
