//! Where cells lie in Godot space: the node's `offset` and `cell_size`, as a value the node and
//! the flow fields it hands out share, so that both place anchors and footprints alike.
#![forbid(unsafe_code)]

use clearance_core::{Cell, Region};
use godot::prelude::*;

/// Cell `(0, 0)` has its top-left corner at `offset` and each cell is `cell_size` wide, in
/// the node's local space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridFrame {
    pub offset: Vector2,
    pub cell_size: Vector2,
}

impl GridFrame {
    /// The cell containing `local_position` (finite).
    pub fn cell_containing(&self, local_position: Vector2) -> Cell {
        let relative = (local_position - self.offset) / self.cell_size;
        // `as` saturates: distant positions land on the edge of the 32-bit range.
        Cell::new(relative.x.floor() as i32, relative.y.floor() as i32)
    }

    /// The centre of the footprint of a unit of `size` at `anchor`. Computed in f64 so that
    /// anchors far from the origin do not lose the half cell.
    pub fn footprint_center(&self, anchor: Cell, size: u8) -> Vector2 {
        let half = f64::from(size) / 2.0;
        Vector2::new(
            self.offset.x + ((f64::from(anchor.x) + half) * f64::from(self.cell_size.x)) as f32,
            self.offset.y + ((f64::from(anchor.y) + half) * f64::from(self.cell_size.y)) as f32,
        )
    }

    /// The anchor whose footprint centre, for a unit of `size`, is nearest to `local_position`
    /// (finite).
    pub fn anchor_nearest(&self, local_position: Vector2, size: u8) -> Cell {
        // The footprint centre sits (size - 1) / 2 cells right of and below the anchor's
        // centre; undo that, then take the cell containing the point.
        let shift = (f32::from(size) - 1.0) / 2.0;
        self.cell_containing(local_position - self.cell_size * shift)
    }

    /// The rectangle `region`'s cells cover.
    pub fn rect_of(&self, region: Region) -> Rect2 {
        Rect2::new(
            self.offset + Vector2::new(region.x as f32, region.y as f32) * self.cell_size,
            Vector2::new(region.width as f32, region.height as f32) * self.cell_size,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame() -> GridFrame {
        GridFrame {
            offset: Vector2::new(8.0, -4.0),
            cell_size: Vector2::new(16.0, 8.0),
        }
    }

    #[test]
    fn a_footprint_centre_lies_in_the_middle_of_its_square() {
        assert_eq!(
            frame().footprint_center(Cell::new(0, 0), 1),
            Vector2::new(16.0, 0.0)
        );
        assert_eq!(
            frame().footprint_center(Cell::new(-1, 2), 3),
            Vector2::new(8.0 - 16.0 + 24.0, -4.0 + 16.0 + 12.0)
        );
    }

    #[test]
    fn the_nearest_anchor_of_a_footprint_centre_is_its_anchor() {
        for size in 1..=4 {
            for anchor in [Cell::new(0, 0), Cell::new(-3, 7), Cell::new(100, -50)] {
                let centre = frame().footprint_center(anchor, size);
                assert_eq!(frame().anchor_nearest(centre, size), anchor);
                let nudged = centre + Vector2::new(7.9, -3.9);
                assert_eq!(frame().anchor_nearest(nudged, size), anchor);
            }
        }
    }

    #[test]
    fn cells_contain_their_corners_and_not_the_next() {
        assert_eq!(
            frame().cell_containing(Vector2::new(8.0, -4.0)),
            Cell::new(0, 0)
        );
        assert_eq!(
            frame().cell_containing(Vector2::new(7.99, -4.01)),
            Cell::new(-1, -1)
        );
    }
}
