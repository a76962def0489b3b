//! The frame on every cell shape: positions against TileSet's and AStarGrid2D's, round trips,
//! containment by the tiles' outlines, and footprint centres as means of their cells.
use super::shape::{OffsetAxis::*, TileLayout::*, TileShape::*};
use super::*;

fn square_frame() -> GridFrame {
    GridFrame {
        offset: Vector2::new(8.0, -4.0),
        cell_size: Vector2::new(16.0, 8.0),
        shape: CellShape::SQUARE,
    }
}

/// Frames of every shape, with tiles as wide as high, twice as wide, and narrower.
fn frames() -> Vec<GridFrame> {
    let mut frames = Vec::new();
    for shape in CellShape::all() {
        for (offset, cell_size) in [
            (Vector2::ZERO, Vector2::new(32.0, 32.0)),
            (Vector2::new(8.0, -4.0), Vector2::new(64.0, 32.0)),
            (Vector2::new(-100.5, 37.25), Vector2::new(30.0, 52.0)),
        ] {
            frames.push(GridFrame {
                offset,
                cell_size,
                shape,
            });
        }
    }
    frames
}

/// Cells round the origin, negative ones included, and some far out.
fn cells() -> Vec<Cell> {
    let mut cells: Vec<Cell> = (-9..=9)
        .flat_map(|y| (-9..=9).map(move |x| Cell::new(x, y)))
        .collect();
    cells.extend([
        Cell::new(-4001, 2999),
        Cell::new(12345, -6789),
        Cell::new(-20000, -20001),
    ]);
    cells
}

/// A fixed-seed stream of numbers in [0, 1) (a 64-bit LCG), for sampled points.
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> f64 {
        self.0 = (self.0.wrapping_mul(6364136223846793005)).wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Whether `point` lies inside the convex `polygon` (clockwise on screen, y down), or within
/// `slack` of its edges.
fn inside(corners: &[Vector2], point: Vector2, slack: f32) -> bool {
    (0..corners.len()).all(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % corners.len()]);
        let edge = b - a;
        edge.cross(point - a) >= -slack * edge.length()
    })
}

fn near(a: Vector2, b: Vector2) -> bool {
    (a - b).length() <= 1e-3 * (1.0 + b.length() * 1e-3)
}

#[test]
fn a_footprint_centre_lies_in_the_middle_of_its_square() {
    assert_eq!(
        square_frame().footprint_center(Cell::new(0, 0), 1),
        Vector2::new(16.0, 0.0)
    );
    assert_eq!(
        square_frame().footprint_center(Cell::new(-1, 2), 3),
        Vector2::new(8.0 - 16.0 + 24.0, -4.0 + 16.0 + 12.0)
    );
}

#[test]
fn cells_contain_their_corners_and_not_the_next() {
    assert_eq!(
        square_frame().cell_containing(Vector2::new(8.0, -4.0)),
        Cell::new(0, 0)
    );
    assert_eq!(
        square_frame().cell_containing(Vector2::new(7.99, -4.01)),
        Cell::new(-1, -1)
    );
}

#[test]
fn the_nearest_anchor_of_a_footprint_centre_is_its_anchor() {
    for size in 1..=4 {
        for anchor in [Cell::new(0, 0), Cell::new(-3, 7), Cell::new(100, -50)] {
            let centre = square_frame().footprint_center(anchor, size);
            assert_eq!(square_frame().anchor_nearest(centre, size), anchor);
            let nudged = centre + Vector2::new(7.9, -3.9);
            assert_eq!(square_frame().anchor_nearest(nudged, size), anchor);
        }
    }
}

/// Cell centres worked by hand from the steps `TileSet.map_to_local()` takes (layout step,
/// squeeze, half a tile, tile size), for an offset of zero.
#[test]
fn cell_centres_are_where_tile_sets_put_tiles() {
    let cases = [
        // Isometric, stacked, 64 x 32: odd rows pushed half a tile right, rows half a tile apart.
        (
            Isometric,
            Stacked,
            Horizontal,
            (64.0, 32.0),
            (1, 1),
            (128.0, 32.0),
        ),
        (
            Isometric,
            Stacked,
            Horizontal,
            (64.0, 32.0),
            (0, 1),
            (64.0, 32.0),
        ),
        (
            Isometric,
            Stacked,
            Horizontal,
            (64.0, 32.0),
            (2, 0),
            (160.0, 16.0),
        ),
        (
            Isometric,
            Stacked,
            Horizontal,
            (64.0, 32.0),
            (-1, -1),
            (0.0, 0.0),
        ),
        // Isometric, stairs down: (2, 1) steps to (1, 4), squeezed to (1, 2).
        (
            Isometric,
            StairsDown,
            Horizontal,
            (64.0, 32.0),
            (2, 1),
            (96.0, 80.0),
        ),
        // Half-offset squares, columns: odd columns pushed half a tile down.
        (
            HalfOffsetSquare,
            Stacked,
            Vertical,
            (32.0, 32.0),
            (1, 0),
            (48.0, 32.0),
        ),
        (
            HalfOffsetSquare,
            Stacked,
            Vertical,
            (32.0, 32.0),
            (0, 0),
            (16.0, 16.0),
        ),
        (
            HalfOffsetSquare,
            Stacked,
            Vertical,
            (32.0, 32.0),
            (-1, 2),
            (-16.0, 96.0),
        ),
        // Hexagons, stacked offset: even rows pushed, rows three quarters of a tile apart.
        (
            Hexagon,
            StackedOffset,
            Horizontal,
            (32.0, 28.0),
            (0, 0),
            (32.0, 14.0),
        ),
        (
            Hexagon,
            StackedOffset,
            Horizontal,
            (32.0, 28.0),
            (0, 1),
            (16.0, 35.0),
        ),
        // Square tiles ignore layout and axis.
        (
            Square,
            DiamondDown,
            Vertical,
            (10.0, 20.0),
            (2, 3),
            (25.0, 70.0),
        ),
    ];
    for (tile_shape, layout, axis, (width, height), (x, y), (cx, cy)) in cases {
        let frame = GridFrame {
            offset: Vector2::ZERO,
            cell_size: Vector2::new(width, height),
            shape: CellShape::new(tile_shape, layout, axis),
        };
        let centre = frame.footprint_center(Cell::new(x, y), 1);
        assert_eq!(
            centre,
            Vector2::new(cx, cy),
            "{tile_shape:?} {layout:?} {axis:?} ({x}, {y})"
        );
    }
}

/// AStarGrid2D places an isometric point at `offset + cell_size / 2 + (x + y, y - x) *
/// cell_size / 2` (right) or `(x - y, x + y)` (down); so do these shapes, on either axis.
#[test]
fn isometric_shapes_put_centres_where_astar_grid_2d_does() {
    let offset = Vector2::new(3.0, -7.0);
    let size = Vector2::new(64.0, 32.0);
    let half = size / 2.0;
    for axis in [Horizontal, Vertical] {
        let right = CellShape::new(Isometric, DiamondRight, axis);
        let down = CellShape::new(Isometric, DiamondDown, axis);
        assert_eq!(
            (right, down),
            (CellShape::ISOMETRIC_RIGHT, CellShape::ISOMETRIC_DOWN)
        );
    }
    for cell in cells().into_iter().take(361) {
        let (x, y) = (cell.x as f32, cell.y as f32);
        let frame = |shape| GridFrame {
            offset,
            cell_size: size,
            shape,
        };
        let right = offset + half + Vector2::new(x + y, y - x) * half;
        let down = offset + half + Vector2::new(x - y, x + y) * half;
        assert_eq!(
            frame(CellShape::ISOMETRIC_RIGHT).footprint_center(cell, 1),
            right
        );
        assert_eq!(
            frame(CellShape::ISOMETRIC_DOWN).footprint_center(cell, 1),
            down
        );
    }
}

#[test]
fn every_cell_contains_its_centre_on_every_shape() {
    for frame in frames() {
        for cell in cells() {
            let centre = frame.footprint_center(cell, 1);
            assert_eq!(frame.cell_containing(centre), cell, "{frame:?} {cell:?}");
        }
    }
}

/// Points well inside a tile's outline (towards each corner and each edge's middle) lie in
/// that tile's cell.
#[test]
fn every_cell_contains_its_tile_on_every_shape() {
    for frame in frames() {
        for cell in cells().into_iter().take(361) {
            let centre = frame.footprint_center(cell, 1);
            let corners = frame.cell_polygon(cell);
            for (i, &corner) in corners.iter().enumerate() {
                let middle = (corner + corners[(i + 1) % corners.len()]) / 2.0;
                for towards in [corner, middle] {
                    let point = centre + (towards - centre) * 0.95;
                    assert_eq!(
                        frame.cell_containing(point),
                        cell,
                        "{frame:?} {cell:?} {point}"
                    );
                }
            }
        }
    }
}

/// Anywhere on the plane, the cell found has a tile whose outline holds the point: the
/// search round the first guess reaches far enough on every shape.
#[test]
fn the_cell_found_holds_the_point_on_every_shape() {
    let mut numbers = Numbers(21);
    for frame in frames() {
        for _ in 0..2000 {
            let point = Vector2::new(
                (numbers.next() * 1200.0 - 600.0) as f32,
                (numbers.next() * 1200.0 - 600.0) as f32,
            );
            let cell = frame.cell_containing(point);
            assert!(
                inside(&frame.cell_polygon(cell), point, 1e-3),
                "{frame:?}: {point} is not in the tile of {cell:?}"
            );
        }
    }
}

#[test]
fn a_footprint_centre_is_the_mean_of_its_cells_centres() {
    for frame in frames() {
        for anchor in [
            Cell::new(0, 0),
            Cell::new(-3, 4),
            Cell::new(5, -2),
            Cell::new(-1, -1),
        ] {
            for size in 1..=5u8 {
                let cells = Region::new(anchor.x, anchor.y, i32::from(size), i32::from(size));
                let sum = cells
                    .cells()
                    .map(|cell| frame.footprint_center(cell, 1))
                    .fold(Vector2::ZERO, |sum, centre| sum + centre);
                let mean = sum / f32::from(size * size);
                let centre = frame.footprint_center(anchor, size);
                assert!(
                    near(centre, mean),
                    "{frame:?} {anchor:?} {size}: {centre} vs {mean}"
                );
            }
        }
    }
}

#[test]
fn the_nearest_anchor_of_a_footprint_centre_is_its_anchor_on_every_shape() {
    for frame in frames() {
        for size in 1..=5u8 {
            for anchor in cells().into_iter().step_by(7) {
                let centre = frame.footprint_center(anchor, size);
                assert_eq!(
                    frame.anchor_nearest(centre, size),
                    anchor,
                    "{frame:?} {size}"
                );
            }
        }
    }
}

/// The anchor nearest to a point is at least as near, by the tile's measure, as every anchor
/// round it: the search finds the nearest, not merely a near one.
#[test]
fn the_nearest_anchor_is_nearest_among_its_neighbours() {
    let mut numbers = Numbers(2026);
    for frame in frames() {
        for _ in 0..300 {
            let size = 1 + (numbers.next() * 4.0) as u8;
            let point = Vector2::new(
                (numbers.next() * 800.0 - 400.0) as f32,
                (numbers.next() * 800.0 - 400.0) as f32,
            );
            let found = frame.anchor_nearest(point, size);
            let tiles = frame.in_tiles(point);
            let measure = |anchor: Cell| {
                let (x, y) = frame.centre_in_tiles(anchor, size);
                frame.shape.gauge(tiles.0 - x, tiles.1 - y)
            };
            for dy in -6..=6 {
                for dx in -6..=6 {
                    let other = Cell::new(found.x + dx, found.y + dy);
                    assert!(
                        measure(found) <= measure(other) + 1e-9,
                        "{frame:?} size {size} at {point}: {found:?} but {other:?} is nearer"
                    );
                }
            }
        }
    }
}

#[test]
fn far_positions_clamp_on_every_shape() {
    for frame in frames() {
        for point in [Vector2::new(1e30, -1e30), Vector2::new(-3e38, 3e38)] {
            let cell = frame.cell_containing(point);
            assert!(
                cell.x.unsigned_abs() > 1 << 30 || cell.y.unsigned_abs() > 1 << 30,
                "{frame:?}: {point} gave {cell:?}"
            );
        }
    }
}

#[test]
fn affine_footprints_are_one_parallelogram_with_the_cells_outer_corners() {
    let frame = GridFrame {
        offset: Vector2::ZERO,
        cell_size: Vector2::new(64.0, 32.0),
        shape: CellShape::ISOMETRIC_DOWN,
    };
    let polygons = frame.footprint_polygons(Cell::new(0, 0), 2);
    assert_eq!(polygons.len(), 1);
    // The top of cell (0, 0), the right of (1, 0), the bottom of (1, 1), the left of (0, 1).
    let tops: Vec<Vector2> = [(0, 0, 0), (1, 0, 1), (1, 1, 2), (0, 1, 3)]
        .into_iter()
        .map(|(x, y, corner)| frame.cell_polygon(Cell::new(x, y))[corner])
        .collect();
    assert_eq!(polygons[0], tops);
    let staggered = GridFrame {
        shape: CellShape::new(Isometric, Stacked, Horizontal),
        ..frame
    };
    assert_eq!(staggered.footprint_polygons(Cell::new(0, 0), 3).len(), 9);
}

#[test]
fn the_pushed_share_counts_lines_of_the_parity() {
    assert_eq!(pushed_share(0, 1, 1), 0.0);
    assert_eq!(pushed_share(-1, 1, 1), 1.0);
    assert_eq!(pushed_share(-3, 3, 1), 2.0 / 3.0);
    assert_eq!(pushed_share(4, 3, 1), 1.0 / 3.0);
    assert_eq!(pushed_share(7, 4, 0), 0.5);
}
