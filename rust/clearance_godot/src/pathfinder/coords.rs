//! Coordinates: cells and local positions, footprints, and clearance.
#![forbid(unsafe_code)]

use super::errors::{agent_size_or_error, pathfinder_error};
use super::ClearancePathfinder;
use crate::convert::{cell_of, cell_outside, inverse_of, vector_of};
use crate::frame::GridFrame;
use crate::marshal::anchor_array;
use crate::tilemap::layer_frame;
use clearance_core::{footprint, Cell, Region};
use godot::classes::TileMapLayer;
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// The cells a unit of `agent_size` covers at `anchor`, row by row from the anchor (the
    /// top-left cell). Pure geometry: cells off the map are included. An agent size outside 1
    /// to 255 prints an error and returns an empty array.
    #[func]
    pub fn get_footprint_cells(&self, anchor: Vector2i, agent_size: i64) -> Array<Vector2i> {
        let Some(size) = agent_size_or_error("get_footprint_cells", agent_size) else {
            return Array::new();
        };
        let Some(square) = footprint(cell_of(anchor), size) else {
            pathfinder_error!(
                "get_footprint_cells",
                "a footprint of size {size} at {anchor} reaches beyond the 32-bit coordinate range"
            );
            return Array::new();
        };
        anchor_array(&square_cells(square))
    }

    /// The clearance of `cell` for the profile called `profile`: the side of the largest
    /// square with top-left cell `cell` that the profile may enter entirely (0 if it may not
    /// enter the cell, at most 255). A unit of size k fits at an anchor iff its clearance is at
    /// least k. Returns -1 and prints an error for an unknown profile or a cell off the map.
    #[func]
    pub fn get_clearance(&mut self, cell: Vector2i, profile: StringName) -> i64 {
        self.ensure_ready();
        let name = profile.to_string();
        if self.map.profile(&name).is_none() {
            pathfinder_error!("get_clearance", "no profile called '{name}'");
            return -1;
        }
        match self.map.clearance(cell_of(cell), &name) {
            Some(clearance) => i64::from(clearance),
            None if self.map.grid().index_of(cell_of(cell)).is_some() => {
                pathfinder_error!(
                    "get_clearance",
                    "the clearance layer would exceed cache_memory_limit_mb ({})",
                    self.cache_memory_limit_mb
                );
                -1
            }
            None => {
                pathfinder_error!(
                    "get_clearance",
                    "cell {cell} lies outside the map region {}",
                    self.region
                );
                -1
            }
        }
    }

    /// The cell whose tile contains `local_position` (in the node's local space), by
    /// `cell_shape`: on a tile's edge, the tile further down, then further right. A NaN or
    /// infinite position prints an error and returns `Vector2i(0, 0)`; very distant positions
    /// clamp to the 32-bit range.
    #[func]
    pub fn local_to_cell(&self, local_position: Vector2) -> Vector2i {
        if !local_position.is_finite() {
            pathfinder_error!("local_to_cell", "position {local_position} is not finite");
            return Vector2i::ZERO;
        }
        vector_of(self.frame().cell_containing(local_position))
    }

    /// The local position of the centre of `cell`'s tile; after `match_tile_map_layer(layer)`,
    /// where `layer.map_to_local(cell)` puts it (in this node's space).
    #[func]
    pub fn cell_to_local(&self, cell: Vector2i) -> Vector2 {
        self.frame().footprint_center(cell_of(cell), 1)
    }

    /// The local position of the centre of the footprint of a unit of `agent_size` at `anchor`:
    /// where its sprite belongs. It is the mean of the centres of the footprint's cells: on
    /// square and isometric cells the middle of the square or diamond the footprint covers.
    /// An agent size outside 1 to 255 prints an error and returns `Vector2(0, 0)`.
    #[func]
    pub fn footprint_center(&self, anchor: Vector2i, agent_size: i64) -> Vector2 {
        match agent_size_or_error("footprint_center", agent_size) {
            Some(size) => self.frame().footprint_center(cell_of(anchor), size),
            None => Vector2::ZERO,
        }
    }

    /// Places cells where `layer` draws its tiles: `cell_size` becomes the TileSet's
    /// `tile_size` (times the layer's scale relative to this node), `offset` the layer's
    /// origin in this node's space, and the layout the TileSet's `tile_shape`, `tile_layout`
    /// and `tile_offset_axis` (square, isometric, half-offset or hexagonal, any layout), so
    /// that `cell_to_local(c)` is `to_local(layer.to_global(layer.map_to_local(c)))` and
    /// `local_to_cell()` undoes it. `cell_shape` reads the AStarGrid2D name of the layout, or
    /// `CELL_SHAPE_TILE_SET`. Terrain is not touched (see `import_tile_map_layer()`); call it
    /// again when the layer or its TileSet changes. Returns `false` and prints an error,
    /// changing nothing, if the layer is null, has no TileSet or a tile size below 1, or is
    /// rotated, skewed or mirrored relative to this node.
    #[func]
    pub fn match_tile_map_layer(&mut self, layer: Option<Gd<TileMapLayer>>) -> bool {
        let Some(layer) = layer else {
            pathfinder_error!("match_tile_map_layer", "the layer is null");
            return false;
        };
        let node = self.to_gd().upcast::<Node2D>();
        match layer_frame(&node, &layer) {
            Ok(frame) => {
                self.cell_size = frame.cell_size;
                self.offset = frame.offset;
                self.apply_cell_layout(frame.shape);
                true
            }
            Err(problem) => {
                pathfinder_error!("match_tile_map_layer", "{problem}; nothing changed");
                false
            }
        }
    }
}

impl ClearancePathfinder {
    /// Where cells lie in the node's local space.
    pub(crate) fn frame(&self) -> GridFrame {
        GridFrame {
            offset: self.offset,
            cell_size: self.cell_size,
            shape: self.cell_layout,
        }
    }

    /// The global positions of the footprint centres of a unit of `size` along `path`.
    pub(super) fn global_footprint_centers(&self, path: &[Cell], size: u8) -> PackedVector2Array {
        let (frame, local_to_global) = (self.frame(), self.global_transform());
        path.iter()
            .map(|&anchor| local_to_global * frame.footprint_center(anchor, size))
            .collect()
    }

    /// The anchor whose footprint centre is nearest to `global_position`. A NaN or infinite
    /// position, or a node whose global transform cannot be undone (scaled to 0, or not
    /// finite), prints an error naming `method` and `argument` and gives a cell off the map,
    /// so that the query reports it as out of bounds rather than answering for a wrong cell.
    pub(super) fn anchor_at_global(
        &self,
        method: &str,
        argument: &str,
        global_position: Vector2,
        size: u8,
    ) -> Cell {
        if !global_position.is_finite() {
            pathfinder_error!(method, "{argument} {global_position} is not finite");
            return cell_outside(self.map.region());
        }
        let Some(global_to_local) = inverse_of(self.global_transform()) else {
            pathfinder_error!(
                method,
                "the node's global transform scales to 0 or is not finite, so {argument} \
                 {global_position} cannot be placed on the map"
            );
            return cell_outside(self.map.region());
        };
        let local = global_to_local * global_position;
        if !local.is_finite() {
            pathfinder_error!(
                method,
                "{argument} {global_position} lies too far away to be placed on the map"
            );
            return cell_outside(self.map.region());
        }
        self.frame().anchor_nearest(local, size)
    }
}

/// The cells of a footprint square from [`footprint`], row by row from its anchor.
///
/// `Region::cells()` would serve, but it stops one short of `i32::MAX` (its ranges end at
/// `x + width`, saturated), and a footprint [`footprint`] accepts may reach that column or row:
/// `get_footprint_cells(Vector2i(2147483647, 0), 1)` lists the anchor. Walk the square with
/// inclusive bounds until the core's `cells()` lists its last column and row.
fn square_cells(square: Region) -> Vec<Cell> {
    let (right, bottom) = (
        square.x + (square.width - 1),
        square.y + (square.height - 1),
    );
    (square.y..=bottom)
        .flat_map(|y| (square.x..=right).map(move |x| Cell::new(x, y)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn footprint_cells_run_row_by_row_from_the_anchor() {
        let square = footprint(Cell::new(-1, 4), 2).unwrap();
        assert_eq!(
            square_cells(square),
            [
                Cell::new(-1, 4),
                Cell::new(0, 4),
                Cell::new(-1, 5),
                Cell::new(0, 5)
            ]
        );
    }

    #[test]
    fn footprint_cells_reach_the_edge_of_the_32_bit_range() {
        let square = footprint(Cell::new(i32::MAX, i32::MAX - 1), 1).unwrap();
        assert_eq!(square_cells(square), [Cell::new(i32::MAX, i32::MAX - 1)]);
        let square = footprint(Cell::new(i32::MAX - 1, i32::MAX - 1), 2).unwrap();
        assert_eq!(square_cells(square).len(), 4);
        assert_eq!(square_cells(square)[3], Cell::new(i32::MAX, i32::MAX));
    }
}
