//! Clearance layers: how large a square agent fits at each anchor.
//!
//! An agent of size `k` occupies a `k x k` square of cells called its *footprint*; its position
//! is the footprint's **top-left** cell, the *anchor*. The clearance of an anchor, for a set of
//! traversable terrains, is the side of the largest all-traversable square whose top-left cell
//! is the anchor (0 on an untraversable cell), capped at 255. An anchor is legal for size `k`
//! exactly when its clearance is at least `k`; one layer therefore answers every agent size.
//! This is the annotation of Annotated A* (Harabor and Botea, "Hierarchical path planning for
//! multi-size agents in heterogeneous environments", IEEE CIG 2008).

use crate::blocked_cells::BlockedCells;
use crate::grid::{TerrainGrid, Window};
use crate::paged::PagedVec;
use crate::result::ClearanceShortfall;
use crate::terrain::TerrainSet;
use std::ops::Index;

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
    /// Paged, so a copy of the layer shares every page a repair does not write.
    values: PagedVec<u8>,
    /// The cells of clearance 0 as bits, for tests of whole runs of a row or column
    /// (smoothing's).
    blocked: BlockedCells,
}

impl ClearanceLayer {
    /// Computes the layer with the maximal-square recurrence, from the bottom-right corner:
    /// `clearance(x, y) = 1 + min(clearance(x+1, y), clearance(x, y+1), clearance(x+1, y+1))`
    /// on a traversable cell (cells beyond the map count as 0), and 0 elsewhere.
    pub fn build(grid: &TerrainGrid, traversable: &TerrainSet) -> Self {
        let (width, height) = (grid.width(), grid.height());
        let open = open_table(traversable);
        let terrain = grid.as_bytes();
        let mut values = vec![0u8; width * height];
        for y in (0..height).rev() {
            for x in (0..width).rev() {
                values[y * width + x] = recurrence(&values, (width, height), &open, terrain, x, y);
            }
        }
        let blocked = BlockedCells::new(width, height, |x, y| values[y * width + x] == 0);
        ClearanceLayer {
            width,
            height,
            values: PagedVec::from(values),
            blocked,
        }
    }

    /// Brings the layer up to date after the terrain of the cells in `edited` changed, and
    /// returns the window of anchors whose clearance changed (`None` if none did).
    ///
    /// A cell's clearance depends only on the cells to its right and below, so an edit can
    /// only change anchors above and to the left of it. Rows are revisited from the edit's
    /// bottom row upwards. In each row the candidates are the edited columns and the columns
    /// of a change in the row below; the scan starts at the rightmost candidate and goes on
    /// leftwards past the last candidate until a value does not change (the cell just left of
    /// a change below is always visited that way). It stops at the first row with nothing to
    /// revisit, so the work is proportional to the cells that change plus the edit's
    /// perimeter.
    pub(crate) fn repair(
        &mut self,
        grid: &TerrainGrid,
        traversable: &TerrainSet,
        edited: Window,
    ) -> Option<Window> {
        let open = open_table(traversable);
        let terrain = grid.as_bytes();
        // Only the edited cells' own terrain changed, so only their bits can.
        for y in edited.y0..edited.y1 {
            for x in edited.x0..edited.x1 {
                let index = y * self.width + x;
                self.blocked.set(x, y, !open[usize::from(terrain[index])]);
            }
        }
        let mut changed: Option<Window> = None;
        // Changed columns `lo..hi` of the row below the current one.
        let mut below: Option<(usize, usize)> = None;
        for y in (0..edited.y1).rev() {
            let (mut candidates_lo, mut candidates_hi) = if y >= edited.y0 {
                (edited.x0, edited.x1)
            } else {
                (usize::MAX, 0)
            };
            if let Some((lo, hi)) = below {
                candidates_lo = candidates_lo.min(lo);
                candidates_hi = candidates_hi.max(hi);
            }
            if candidates_lo >= candidates_hi {
                break;
            }
            let mut row_changed: Option<(usize, usize)> = None;
            for x in (0..candidates_hi).rev() {
                let index = y * self.width + x;
                let size = (self.width, self.height);
                let value = recurrence(&self.values, size, &open, terrain, x, y);
                if self.values.set(index, value) {
                    row_changed = Some(row_changed.map_or((x, x + 1), |(_, hi)| (x, hi)));
                } else if x < candidates_lo {
                    // Nothing left of here reads a changed value.
                    break;
                }
            }
            below = row_changed;
            if let Some((lo, hi)) = row_changed {
                let row = Window {
                    x0: lo,
                    y0: y,
                    x1: hi,
                    y1: y + 1,
                };
                changed = Some(changed.map_or(row, |window| window.hull(row)));
            }
        }
        changed
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
    pub fn values(&self) -> &PagedVec<u8> {
        &self.values
    }

    /// The clearance of the anchor stored at `index`.
    pub fn at(&self, index: usize) -> u8 {
        self.values[index]
    }

    /// How far the clearance at `index` falls short of `needed`, or `None` where a unit of
    /// that size fits.
    pub(crate) fn shortfall(&self, index: usize, needed: u8) -> Option<ClearanceShortfall> {
        let found = self.at(index);
        (found < needed).then_some(ClearanceShortfall { found, needed })
    }

    /// The cells of clearance 0 (not traversable), one bit each.
    pub(crate) fn blocked_cells(&self) -> &BlockedCells {
        &self.blocked
    }

    /// Bytes a layer of a `width x height` map holds.
    pub(crate) fn estimated_bytes(width: usize, height: usize) -> usize {
        width * height + BlockedCells::estimated_bytes(width, height)
    }

    /// Bytes of memory the layer holds.
    pub fn memory_bytes(&self) -> usize {
        self.values.memory_bytes() + self.blocked.memory_bytes()
    }
}

#[cfg(test)]
impl ClearanceLayer {
    /// Compares the layer with `before`'s page by page (see [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.values.audit(&before.values, "clearance", audit);
        self.blocked.audit_pages(&before.blocked, audit);
    }
}

/// The recurrence at column `x`, row `y` of a `width x height` layer, reading the (already
/// final) `values` to the right and below.
fn recurrence(
    values: &impl Index<usize, Output = u8>,
    (width, height): (usize, usize),
    open: &[bool; 256],
    terrain: &PagedVec<u8>,
    x: usize,
    y: usize,
) -> u8 {
    let index = y * width + x;
    if !open[usize::from(terrain[index])] {
        return 0;
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
    smallest.saturating_add(1)
}

/// Whether each terrain id is traversable.
fn open_table(traversable: &TerrainSet) -> [bool; 256] {
    let mut open = [false; 256];
    for terrain in traversable.iter() {
        open[usize::from(terrain)] = true;
    }
    open
}
