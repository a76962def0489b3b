//! Cell shapes: how a TileSet lays its tiles out, as pure data, so that the node, its flow
//! fields and movement ranges place cells exactly where a `TileMapLayer` with that TileSet
//! draws its tiles, without calling the engine.
//!
//! The facts followed are those of Godot's `TileSet.map_to_local()`: a cell's coordinates go
//! through a layout step (a linear map, plus half a tile of stagger on every other row or
//! column for the stacked layouts), then the axis across the offset axis is squeezed by the
//! tile shape's overlap (1 for half-offset squares, 3/4 for hexagons, 1/2 for isometric
//! diamonds), and the result, plus half a tile, is scaled by the tile size. Square tiles skip
//! the layout step. AStarGrid2D's `CELL_SHAPE_ISOMETRIC_RIGHT` and `CELL_SHAPE_ISOMETRIC_DOWN`
//! place cell centres where isometric tiles in the `DIAMOND_RIGHT` and `DIAMOND_DOWN` layouts
//! have theirs ([`CellShape::ISOMETRIC_RIGHT`], [`CellShape::ISOMETRIC_DOWN`]).
#![forbid(unsafe_code)]

/// The outline of a tile (TileSet's `tile_shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileShape {
    /// Rectangles in rows and columns.
    Square,
    /// Diamonds touching at their edges.
    Isometric,
    /// Rectangles, every other row (or column) pushed half a tile along it.
    HalfOffsetSquare,
    /// Hexagons, pointed across the offset axis.
    Hexagon,
}

/// How cell coordinates run over the tiles of a non-square shape (TileSet's `tile_layout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileLayout {
    /// Rows (columns) of tiles, odd ones pushed half a tile.
    Stacked,
    /// Rows (columns) of tiles, even ones pushed half a tile.
    StackedOffset,
    /// Each row (column) starts half a tile further right (down).
    StairsRight,
    /// Each column (row) starts half a tile further down (right).
    StairsDown,
    /// x runs up and to the right, y down and to the right.
    DiamondRight,
    /// x runs down and to the right, y down and to the left.
    DiamondDown,
}

/// Along which axis tiles are pushed or overlap (TileSet's `tile_offset_axis`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OffsetAxis {
    /// Rows are pushed sideways; tiles overlap vertically.
    Horizontal,
    /// Columns are pushed up or down; tiles overlap horizontally.
    Vertical,
}

/// A TileSet's layout of cells: shape, layout and offset axis. Built with [`CellShape::new`],
/// which drops what the shape ignores, so equal layouts compare equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellShape {
    tile_shape: TileShape,
    layout: TileLayout,
    axis: OffsetAxis,
}

impl CellShape {
    /// Square cells in rows and columns (AStarGrid2D's `CELL_SHAPE_SQUARE`).
    pub const SQUARE: CellShape = CellShape {
        tile_shape: TileShape::Square,
        layout: TileLayout::Stacked,
        axis: OffsetAxis::Horizontal,
    };

    /// Diamonds, x running up and to the right (AStarGrid2D's `CELL_SHAPE_ISOMETRIC_RIGHT`;
    /// an isometric TileSet in the `DIAMOND_RIGHT` layout).
    pub const ISOMETRIC_RIGHT: CellShape = CellShape {
        tile_shape: TileShape::Isometric,
        layout: TileLayout::DiamondRight,
        axis: OffsetAxis::Horizontal,
    };

    /// Diamonds, x running down and to the right (AStarGrid2D's `CELL_SHAPE_ISOMETRIC_DOWN`;
    /// an isometric TileSet in the `DIAMOND_DOWN` layout).
    pub const ISOMETRIC_DOWN: CellShape = CellShape {
        tile_shape: TileShape::Isometric,
        layout: TileLayout::DiamondDown,
        axis: OffsetAxis::Horizontal,
    };

    /// The layout a TileSet with these three properties gives its cells. Square tiles ignore
    /// layout and axis, and isometric diamonds in a diamond layout land on the same places on
    /// either axis; those settings are dropped.
    pub fn new(tile_shape: TileShape, layout: TileLayout, axis: OffsetAxis) -> CellShape {
        let diamond = matches!(layout, TileLayout::DiamondRight | TileLayout::DiamondDown);
        match tile_shape {
            TileShape::Square => CellShape::SQUARE,
            TileShape::Isometric if diamond => CellShape {
                tile_shape,
                layout,
                axis: OffsetAxis::Horizontal,
            },
            _ => CellShape {
                tile_shape,
                layout,
                axis,
            },
        }
    }

    /// Every distinct layout: for tests that must hold on each.
    #[cfg(test)]
    pub fn all() -> Vec<CellShape> {
        use OffsetAxis::*;
        use TileLayout::*;
        use TileShape::*;
        let mut shapes: Vec<CellShape> = Vec::new();
        for tile_shape in [Square, Isometric, HalfOffsetSquare, Hexagon] {
            for layout in [
                Stacked,
                StackedOffset,
                StairsRight,
                StairsDown,
                DiamondRight,
                DiamondDown,
            ] {
                for axis in [Horizontal, Vertical] {
                    let shape = CellShape::new(tile_shape, layout, axis);
                    if !shapes.contains(&shape) {
                        shapes.push(shape);
                    }
                }
            }
        }
        shapes
    }

    /// Whether every cell is the image of its unit square under one affine map, as with
    /// squares and diamond-laid diamonds: then a k x k footprint is one parallelogram.
    pub fn is_affine_tiling(self) -> bool {
        self == CellShape::SQUARE
            || self == CellShape::ISOMETRIC_RIGHT
            || self == CellShape::ISOMETRIC_DOWN
    }

    /// The layout step without its stagger: a linear map of (possibly fractional) cell
    /// coordinates, in tiles.
    pub(super) fn layout_step(self, x: f64, y: f64) -> (f64, f64) {
        use OffsetAxis::*;
        use TileLayout::*;
        if self.tile_shape == TileShape::Square {
            return (x, y);
        }
        match (self.axis, self.layout) {
            (_, Stacked | StackedOffset) => (x, y),
            (Horizontal, StairsRight) => (x + y / 2.0, y),
            (Horizontal, StairsDown) => (x / 2.0, 2.0 * y + x),
            (Horizontal, DiamondRight) => ((x + y) / 2.0, y - x),
            (Horizontal, DiamondDown) => ((x - y) / 2.0, y + x),
            (Vertical, StairsRight) => (2.0 * x + y, y / 2.0),
            (Vertical, StairsDown) => (x, y + x / 2.0),
            (Vertical, DiamondRight) => (x + y, (y - x) / 2.0),
            (Vertical, DiamondDown) => (x - y, (y + x) / 2.0),
        }
    }

    /// The inverse of [`CellShape::layout_step`] (every layout step is invertible).
    pub(super) fn layout_step_inverse(self, u: f64, v: f64) -> (f64, f64) {
        let (a, c) = self.layout_step(1.0, 0.0);
        let (b, d) = self.layout_step(0.0, 1.0);
        let determinant = a * d - b * c;
        ((d * u - b * v) / determinant, (a * v - c * u) / determinant)
    }

    /// The factors of the squeeze across the offset axis, per axis.
    pub(super) fn overlap(self) -> (f64, f64) {
        let ratio = match self.tile_shape {
            TileShape::Square | TileShape::HalfOffsetSquare => 1.0,
            TileShape::Hexagon => 0.75,
            TileShape::Isometric => 0.5,
        };
        match self.axis {
            OffsetAxis::Horizontal => (1.0, ratio),
            OffsetAxis::Vertical => (ratio, 1.0),
        }
    }

    /// For the stacked layouts: the parity (0 or 1) of the rows (horizontal axis) or columns
    /// (vertical axis) pushed half a tile, and the push.
    pub(super) fn stagger(self) -> Option<(i64, (f64, f64))> {
        if self.tile_shape == TileShape::Square {
            return None;
        }
        let parity = match self.layout {
            TileLayout::Stacked => 1,
            TileLayout::StackedOffset => 0,
            _ => return None,
        };
        let push = match self.axis {
            OffsetAxis::Horizontal => (0.5, 0.0),
            OffsetAxis::Vertical => (0.0, 0.5),
        };
        Some((parity, push))
    }

    /// Whether the stagger alternates with the row (`true`) or the column.
    pub(super) fn staggers_rows(self) -> bool {
        self.axis == OffsetAxis::Horizontal
    }

    /// How far `(dx, dy)`, in tiles, lies from a tile's centre in the tile's own measure: at
    /// most 1 exactly on the tile (its gauge). As the tiles of a layout cover the plane without
    /// overlapping, a point lies in the tile whose centre is nearest by this measure.
    pub(super) fn gauge(self, dx: f64, dy: f64) -> f64 {
        let (u, v) = ((2.0 * dx).abs(), (2.0 * dy).abs());
        match (self.tile_shape, self.axis) {
            (TileShape::Square | TileShape::HalfOffsetSquare, _) => u.max(v),
            (TileShape::Isometric, _) => u + v,
            (TileShape::Hexagon, OffsetAxis::Horizontal) => u.max(u / 2.0 + v),
            (TileShape::Hexagon, OffsetAxis::Vertical) => v.max(v / 2.0 + u),
        }
    }

    /// The corners of a tile round its centre, in tiles, clockwise from the top (or top-left).
    pub(super) fn corners(self) -> &'static [(f64, f64)] {
        match (self.tile_shape, self.axis) {
            (TileShape::Square | TileShape::HalfOffsetSquare, _) => {
                &[(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
            }
            (TileShape::Isometric, _) => &[(0.0, -0.5), (0.5, 0.0), (0.0, 0.5), (-0.5, 0.0)],
            (TileShape::Hexagon, OffsetAxis::Horizontal) => &[
                (0.0, -0.5),
                (0.5, -0.25),
                (0.5, 0.25),
                (0.0, 0.5),
                (-0.5, 0.25),
                (-0.5, -0.25),
            ],
            (TileShape::Hexagon, OffsetAxis::Vertical) => &[
                (-0.25, -0.5),
                (0.25, -0.5),
                (0.5, 0.0),
                (0.25, 0.5),
                (-0.25, 0.5),
                (-0.5, 0.0),
            ],
        }
    }
}
