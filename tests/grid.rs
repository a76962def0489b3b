//! The terrain grid: regions, storage order and edits.

use clearance_core::{Cell, Region, TerrainEdit, TerrainGrid};
use clearance_tests::generate::{random_cell, Rng};

#[test]
fn cells_are_stored_row_by_row_from_the_top_left() {
    let grid = TerrainGrid::from_bytes(Region::new(-1, 5, 3, 2), &[0, 1, 2, 3, 4, 5]).unwrap();
    assert_eq!(grid.terrain(Cell::new(-1, 5)), Some(0));
    assert_eq!(grid.terrain(Cell::new(1, 5)), Some(2));
    assert_eq!(grid.terrain(Cell::new(-1, 6)), Some(3));
    assert_eq!(grid.terrain(Cell::new(1, 6)), Some(5));
    for index in 0..6 {
        assert_eq!(grid.index_of(grid.cell_at(index)), Some(index));
    }
}

#[test]
fn fill_rect_touches_exactly_its_cells() {
    let mut rng = Rng::new(0x6121_D000);
    for _ in 0..200 {
        let region = Region::new(rng.range(-5, 5) as i32, rng.range(-5, 5) as i32, 9, 7);
        let mut grid = TerrainGrid::new(region, 0).unwrap();
        let corner = random_cell(&mut rng, region);
        let width = rng.range(1, i64::from(region.x + region.width - corner.x) + 1) as i32;
        let height = rng.range(1, i64::from(region.y + region.height - corner.y) + 1) as i32;
        let rect = Region::new(corner.x, corner.y, width, height);
        grid.fill_rect(rect, 9).unwrap();
        for index in 0..grid.as_bytes().len() {
            let cell = grid.cell_at(index);
            let expected = if rect.contains(cell) { 9 } else { 0 };
            assert_eq!(grid.terrain(cell), Some(expected), "{rect:?} at {cell:?}");
        }
    }
}

#[test]
fn batch_edits_apply_in_order() {
    let mut grid = TerrainGrid::new(Region::new(0, 0, 4, 1), 0).unwrap();
    grid.apply_edits(&[
        TerrainEdit::Rect {
            rect: Region::new(0, 0, 4, 1),
            terrain: 5,
        },
        TerrainEdit::Cell {
            cell: Cell::new(2, 0),
            terrain: 6,
        },
        TerrainEdit::Rect {
            rect: Region::new(3, 0, 1, 1),
            terrain: 7,
        },
    ])
    .unwrap();
    assert_eq!(grid.as_bytes(), &[5, 5, 6, 7]);
}

#[test]
fn region_containment_handles_extreme_coordinates() {
    let region = Region::new(i32::MAX - 10, i32::MIN, 10, 10);
    assert!(region.contains(Cell::new(i32::MAX - 1, i32::MIN)));
    assert!(!region.contains(Cell::new(i32::MAX, i32::MIN)));
    assert!(!region.contains(Cell::new(i32::MIN, i32::MIN)));
    assert!(region.encloses(&Region::new(i32::MAX - 10, i32::MIN, 10, 10)));
    assert!(!region.encloses(&Region::new(i32::MAX - 10, i32::MIN, 11, 10)));
}

#[test]
fn cells_and_regions_print_like_godot_values() {
    assert_eq!(Cell::new(-3, 4).to_string(), "(-3, 4)");
    assert_eq!(
        Region::new(0, -1, 5, 6).to_string(),
        "[P: (0, -1), S: (5, 6)]"
    );
    let error = TerrainGrid::new(Region::new(0, 0, 0, 5), 0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "region [P: (0, 0), S: (0, 5)] must be between 1 and 32768 cells on each side"
    );
}
