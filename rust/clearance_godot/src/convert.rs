//! Conversions between Godot's vector types and the core's cells and regions.
#![forbid(unsafe_code)]

use clearance_core::{Cell, Region, TerrainId};
use godot::prelude::*;

pub fn cell_of(vector: Vector2i) -> Cell {
    Cell::new(vector.x, vector.y)
}

pub fn vector_of(cell: Cell) -> Vector2i {
    Vector2i::new(cell.x, cell.y)
}

pub fn region_of(rect: Rect2i) -> Region {
    Region::new(rect.position.x, rect.position.y, rect.size.x, rect.size.y)
}

pub fn rect_of(region: Region) -> Rect2i {
    Rect2i::from_components(region.x, region.y, region.width, region.height)
}

/// The inverse of `transform`, if it has one: `None` for a finite transform that squashes the
/// plane onto a line or a point (a scale of 0, say) or for one that is not finite. Godot's
/// `affine_inverse()` asserts the former in debug builds.
pub fn inverse_of(transform: Transform2D) -> Option<Transform2D> {
    let determinant = transform.determinant();
    (transform.is_finite() && determinant.is_finite() && determinant != 0.0)
        .then(|| transform.affine_inverse())
}

/// A terrain id from a GDScript int, if it is one (0 to 255).
pub fn terrain_id(value: i64) -> Option<TerrainId> {
    TerrainId::try_from(value).ok()
}

/// The smallest rectangle holding every cell, or `None` for no cells.
pub fn bounding_rect(cells: &[Cell]) -> Option<Rect2i> {
    let first = cells.first()?;
    let (mut left, mut top, mut right, mut bottom) = (first.x, first.y, first.x, first.y);
    for cell in cells {
        left = left.min(cell.x);
        top = top.min(cell.y);
        right = right.max(cell.x);
        bottom = bottom.max(cell.y);
    }
    // Cells of a map fit its region, whose far corner fits i32, so the sizes cannot overflow;
    // saturate anyway rather than trust that from here.
    Some(Rect2i::from_components(
        left,
        top,
        right.saturating_sub(left).saturating_add(1),
        bottom.saturating_sub(top).saturating_add(1),
    ))
}

/// A cell that lies outside `region`, used to hand the core a position that cannot be on the
/// map (a NaN world position) so that it reports the out-of-bounds code in its usual order.
pub fn cell_outside(region: Region) -> Cell {
    if region.x > i32::MIN {
        Cell::new(region.x - 1, region.y)
    } else {
        // A map region's far edge fits in i32, so the column just past it exists.
        Cell::new(region.x.saturating_add(region.width), region.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_ids_are_bytes() {
        assert_eq!(terrain_id(0), Some(0));
        assert_eq!(terrain_id(255), Some(255));
        assert_eq!(terrain_id(256), None);
        assert_eq!(terrain_id(-1), None);
    }

    #[test]
    fn bounding_rect_covers_every_cell() {
        let cells = [Cell::new(3, -1), Cell::new(-2, 4), Cell::new(0, 0)];
        assert_eq!(
            bounding_rect(&cells),
            Some(Rect2i::from_components(-2, -1, 6, 6))
        );
        assert_eq!(bounding_rect(&[]), None);
    }

    #[test]
    fn the_outside_cell_is_outside() {
        for region in [
            Region::new(0, 0, 4, 4),
            Region::new(i32::MIN, 0, 4, 4),
            Region::new(-5, -5, 1, 1),
        ] {
            assert!(!region.contains(cell_outside(region)));
        }
    }
}
