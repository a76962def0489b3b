//! Where cells lie in Godot space: the node's `offset`, `cell_size` and cell shape, as a value
//! the node and the flow fields and movement ranges it hands out share, so that all of them
//! place anchors and footprints alike.
//!
//! **The footprint centre**, the one rule every position follows: the centre of the footprint
//! of a unit of size k at an anchor is the mean of the centres of its k x k cells. On square
//! cells and diamond-laid diamonds (where positions are an affine image of the cell
//! coordinates) that is the middle of the parallelogram the footprint covers, the midpoint of
//! its corner cells' centres; on staggered layouts (half-offset squares, stacked isometric,
//! hexagons) it is the same mean, which leans half a tile towards the pushed rows by the
//! share of pushed rows in the footprint. A cell's centre is the footprint centre of size 1,
//! where `TileMapLayer.map_to_local()` puts the tile.
#![forbid(unsafe_code)]

mod shape;
#[cfg(test)]
mod tests;

pub use shape::{CellShape, OffsetAxis, TileLayout, TileShape};

use clearance_core::{Cell, Region};
use godot::prelude::*;

/// Cell `(0, 0)`'s tile has the top-left corner of its bounding box at `offset` (as a
/// TileMapLayer's tile `(0, 0)` has at the layer's origin), each tile is `cell_size` wide and
/// high, and tiles are laid out by `shape`, all in the node's local space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridFrame {
    pub offset: Vector2,
    pub cell_size: Vector2,
    pub shape: CellShape,
}

/// Whether `cell_size` can size a tile: both components finite and above 0.
pub fn is_tile_size(cell_size: Vector2) -> bool {
    cell_size.is_finite() && cell_size.x > 0.0 && cell_size.y > 0.0
}

/// How far round its first guess [`GridFrame::anchor_nearest`] looks. The guess inverts the
/// layout with the stagger averaged, so it is off by less than a tile's reach through the
/// inverse layout step, which stretches at most twofold: two cells either way suffice.
const SEARCH_REACH: i32 = 2;

/// The largest footprint side whose cells [`GridFrame::footprint_polygons`] outlines one by one
/// on staggered layouts: a debug overlay of 64 outlines per footprint stays cheap.
pub const MAX_OUTLINED_SIZE: u8 = 8;

impl GridFrame {
    /// The cell whose tile contains `local_position` (finite). On a tile's edge, of the tiles
    /// sharing it, the one further down, then further right (as with square cells, which
    /// contain their top and left edges).
    pub fn cell_containing(&self, local_position: Vector2) -> Cell {
        self.anchor_nearest(local_position, 1)
    }

    /// The centre of the footprint of a unit of `size` at `anchor` (see the module's rule).
    /// Computed in f64 so that anchors far from the origin do not lose the half cell.
    pub fn footprint_center(&self, anchor: Cell, size: u8) -> Vector2 {
        let (x, y) = self.centre_in_tiles(anchor, size);
        self.local_at_tiles(x, y)
    }

    /// The anchor whose footprint centre, for a unit of `size`, is nearest to
    /// `local_position` (finite), measured by the tile's own shape: the point lies in the
    /// tile-shaped area round that centre. For a unit of size 1 that is the cell containing
    /// the point; a footprint centre's nearest anchor is its own.
    pub fn anchor_nearest(&self, local_position: Vector2, size: u8) -> Cell {
        if self.shape == CellShape::SQUARE {
            // The footprint centre sits (size - 1) / 2 cells right of and below the anchor's
            // centre; undo that, then take the cell containing the point.
            let shift = (f32::from(size) - 1.0) / 2.0;
            let relative = (local_position - self.cell_size * shift - self.offset) / self.cell_size;
            // `as` saturates: distant positions land on the edge of the 32-bit range.
            return Cell::new(relative.x.floor() as i32, relative.y.floor() as i32);
        }
        let point = self.in_tiles(local_position);
        let guess = self.anchor_guess(point, size);
        let mut nearest = (f64::INFINITY, guess);
        for dy in -SEARCH_REACH..=SEARCH_REACH {
            for dx in -SEARCH_REACH..=SEARCH_REACH {
                let anchor = Cell::new(guess.x.saturating_add(dx), guess.y.saturating_add(dy));
                let (x, y) = self.centre_in_tiles(anchor, size);
                let distance = self.shape.gauge(point.0 - x, point.1 - y);
                // `<=`: of equally near anchors the last, further down and right, as on edges.
                if distance <= nearest.0 {
                    nearest = (distance, anchor);
                }
            }
        }
        nearest.1
    }

    /// The rectangle `region`'s cells cover, for square cells.
    pub fn rect_of(&self, region: Region) -> Rect2 {
        Rect2::new(
            self.offset + Vector2::new(region.x as f32, region.y as f32) * self.cell_size,
            Vector2::new(region.width as f32, region.height as f32) * self.cell_size,
        )
    }

    /// The outline of `cell`'s tile: a rectangle, a diamond or a hexagon, clockwise. (Plain
    /// vectors: packed arrays need the engine, and the frame is tested without one.)
    pub fn cell_polygon(&self, cell: Cell) -> Vec<Vector2> {
        let centre = self.footprint_center(cell, 1);
        (self.shape.corners().iter())
            .map(|&(x, y)| centre + Vector2::new(x as f32, y as f32) * self.cell_size)
            .collect()
    }

    /// The outlines that cover the footprint of a unit of `size` at `anchor`: one
    /// parallelogram where cells tile affinely (squares, diamond-laid diamonds), otherwise
    /// each cell's tile (up to [`MAX_OUTLINED_SIZE`]; larger footprints get the parallelogram
    /// [`GridFrame::region_outline`] draws).
    pub fn footprint_polygons(&self, anchor: Cell, size: u8) -> Vec<Vec<Vector2>> {
        if self.shape.is_affine_tiling() || size > MAX_OUTLINED_SIZE {
            return vec![self.parallelogram(anchor, i32::from(size), i32::from(size))];
        }
        let cells = Region::new(anchor.x, anchor.y, i32::from(size), i32::from(size));
        cells.cells().map(|cell| self.cell_polygon(cell)).collect()
    }

    /// The outline of `region`: exact where cells tile affinely, and on staggered layouts the
    /// parallelogram the layout step maps the region's square to (within half a tile of the
    /// tiles' ragged edge).
    pub fn region_outline(&self, region: Region) -> Vec<Vector2> {
        self.parallelogram(Cell::new(region.x, region.y), region.width, region.height)
    }

    /// The image, without stagger, of the `width` x `height` cells from `corner`: the corners
    /// of their square in cell coordinates (cell centres at whole numbers), laid out.
    fn parallelogram(&self, corner: Cell, width: i32, height: i32) -> Vec<Vector2> {
        let (left, top) = (f64::from(corner.x) - 0.5, f64::from(corner.y) - 0.5);
        let (right, bottom) = (left + f64::from(width), top + f64::from(height));
        [(left, top), (right, top), (right, bottom), (left, bottom)]
            .into_iter()
            .map(|(x, y)| {
                let (u, v) = self.shape.layout_step(x, y);
                let (squeeze_x, squeeze_y) = self.shape.overlap();
                self.local_at_tiles(u * squeeze_x + 0.5, v * squeeze_y + 0.5)
            })
            .collect()
    }

    /// The footprint centre in tiles from `offset`: the layout step of the footprint's mean
    /// cell, the mean stagger of its rows (or columns), the squeeze, and half a tile.
    fn centre_in_tiles(&self, anchor: Cell, size: u8) -> (f64, f64) {
        let half = (f64::from(size) - 1.0) / 2.0;
        let (mut u, mut v) = self
            .shape
            .layout_step(f64::from(anchor.x) + half, f64::from(anchor.y) + half);
        if let Some((parity, (push_x, push_y))) = self.shape.stagger() {
            let first = if self.shape.staggers_rows() {
                anchor.y
            } else {
                anchor.x
            };
            let share = pushed_share(i64::from(first), i64::from(size), parity);
            u += push_x * share;
            v += push_y * share;
        }
        let (squeeze_x, squeeze_y) = self.shape.overlap();
        (u * squeeze_x + 0.5, v * squeeze_y + 0.5)
    }

    /// An anchor near the nearest one to `point` (in tiles from `offset`): the layout undone
    /// with the stagger taken at its mean, rounded, clamped to the 32-bit range.
    fn anchor_guess(&self, point: (f64, f64), size: u8) -> Cell {
        let (squeeze_x, squeeze_y) = self.shape.overlap();
        let (mut u, mut v) = ((point.0 - 0.5) / squeeze_x, (point.1 - 0.5) / squeeze_y);
        if let Some((_, (push_x, push_y))) = self.shape.stagger() {
            u -= push_x / 2.0;
            v -= push_y / 2.0;
        }
        let (x, y) = self.shape.layout_step_inverse(u, v);
        let half = (f64::from(size) - 1.0) / 2.0;
        // `as` saturates: distant positions land on the edge of the 32-bit range.
        Cell::new((x - half).round() as i32, (y - half).round() as i32)
    }

    /// `local_position` in tiles from `offset`.
    fn in_tiles(&self, local_position: Vector2) -> (f64, f64) {
        (
            (f64::from(local_position.x) - f64::from(self.offset.x)) / f64::from(self.cell_size.x),
            (f64::from(local_position.y) - f64::from(self.offset.y)) / f64::from(self.cell_size.y),
        )
    }

    /// The local position `(x, y)` tiles from `offset`.
    fn local_at_tiles(&self, x: f64, y: f64) -> Vector2 {
        Vector2::new(
            self.offset.x + (x * f64::from(self.cell_size.x)) as f32,
            self.offset.y + (y * f64::from(self.cell_size.y)) as f32,
        )
    }
}

/// The share of the `count` lines from `first` on whose parity is `parity`.
fn pushed_share(first: i64, count: i64, parity: i64) -> f64 {
    let pushed = if count % 2 == 0 || first.rem_euclid(2) != parity {
        count / 2
    } else {
        count / 2 + 1
    };
    pushed as f64 / count as f64
}
