//! Clearance layers: how large a square agent fits at each anchor.
//!
//! An agent of size `k` occupies a `k x k` square of cells called its *footprint*; its position
//! is the footprint's **top-left** cell, the *anchor*. The clearance of an anchor, for a set of
//! traversable terrains, is the side of the largest all-traversable square whose top-left cell
//! is the anchor (0 on an untraversable cell), capped at 255. An anchor is legal for size `k`
//! exactly when its clearance is at least `k`; one layer therefore answers every agent size.
//! This is the annotation of Annotated A* (Harabor and Botea, "Hierarchical path planning for
//! multi-size agents in heterogeneous environments", IEEE CIG 2008).

use crate::grid::TerrainGrid;
use crate::terrain::TerrainSet;

/// Largest clearance stored; larger open squares also report this value.
pub const MAX_CLEARANCE: u8 = 255;

/// The clearance of every anchor of a map for one set of traversable terrains.
///
/// ```
/// use clearance_core::{ClearanceLayer, Region, TerrainGrid, TerrainSet};
///
/// // 0 = open, 1 = wall:
/// // . . .
/// // . . #
/// let grid = TerrainGrid::from_bytes(Region::new(0, 0, 3, 2), &[0, 0, 0, 0, 0, 1])?;
/// let layer = ClearanceLayer::build(&grid, &TerrainSet::from_iter([0]));
/// assert_eq!(layer.values(), &[2, 1, 1, 1, 1, 0]);
/// # Ok::<(), clearance_core::GridError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearanceLayer {
    width: usize,
    height: usize,
    values: Vec<u8>,
}

impl ClearanceLayer {
    /// Computes the layer with the maximal-square recurrence, from the bottom-right corner:
    /// `clearance(x, y) = 1 + min(clearance(x+1, y), clearance(x, y+1), clearance(x+1, y+1))`
    /// on a traversable cell (cells beyond the map count as 0), and 0 elsewhere.
    pub fn build(grid: &TerrainGrid, traversable: &TerrainSet) -> Self {
        let (width, height) = (grid.width(), grid.height());
        let mut open = [false; 256];
        for terrain in traversable.iter() {
            open[usize::from(terrain)] = true;
        }
        let terrain = grid.as_bytes();
        let mut values = vec![0u8; width * height];
        for y in (0..height).rev() {
            let row = y * width;
            for x in (0..width).rev() {
                let index = row + x;
                if !open[usize::from(terrain[index])] {
                    continue;
                }
                let at = |dx: usize, dy: usize| -> u8 {
                    if x + dx < width && y + dy < height {
                        values[index + dy * width + dx]
                    } else {
                        0
                    }
                };
                let smallest = at(1, 0).min(at(0, 1)).min(at(1, 1));
                // MAX_CLEARANCE is u8::MAX, so saturation is the cap.
                values[index] = smallest.saturating_add(1);
            }
        }
        ClearanceLayer {
            width,
            height,
            values,
        }
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The clearance of every anchor, row by row (same order as [`TerrainGrid::as_bytes`]).
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// The clearance of the anchor stored at `index`.
    pub fn at(&self, index: usize) -> u8 {
        self.values[index]
    }

    /// Bytes of memory the layer holds.
    pub fn memory_bytes(&self) -> usize {
        self.values.capacity()
    }
}
