//! Cells, regions and the terrain grid.
//!
//! A map covers a rectangular [`Region`] of cells. As with Godot's `Rect2i`, the region's origin
//! may be negative: a map can cover cells (-8, -8) to (7, 7). `x` grows to the right (columns)
//! and `y` grows downwards (rows). Internally cells are stored row by row, so the storage order
//! of cells is "lowest y, then lowest x", the same order the search uses to break ties.

use crate::error::GridError;
use crate::paged::PagedVec;
use crate::terrain::{TerrainId, TerrainSet};
use std::fmt;

/// Largest width or height of a map, in cells.
pub const MAX_SIDE: i32 = 32_768;

/// Largest number of cells in a map (2^28, about 268 million: 16384 x 16384).
///
/// The bound keeps every path cost within `u64` (see [`MAX_MULTIPLIER`](crate::MAX_MULTIPLIER))
/// and every cell index within `u32`.
pub const MAX_CELLS: u64 = 1 << 28;

/// A cell of the grid, in map coordinates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column; grows to the right.
    pub x: i32,
    /// Row; grows downwards.
    pub y: i32,
}

impl Cell {
    /// The cell at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Cell { x, y }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

impl From<(i32, i32)> for Cell {
    fn from((x, y): (i32, i32)) -> Self {
        Cell { x, y }
    }
}

/// A rectangle of cells: `width` columns from `x` and `height` rows from `y` (like `Rect2i`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Region {
    /// Leftmost column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Number of columns.
    pub width: i32,
    /// Number of rows.
    pub height: i32,
}

impl Region {
    /// The rectangle with top-left cell (`x`, `y`) and the given size. Not validated here:
    /// whatever takes the region checks it.
    pub const fn new(x: i32, y: i32, width: i32, height: i32) -> Self {
        Region {
            x,
            y,
            width,
            height,
        }
    }

    /// Whether `cell` lies inside the rectangle.
    pub fn contains(&self, cell: Cell) -> bool {
        let dx = i64::from(cell.x) - i64::from(self.x);
        let dy = i64::from(cell.y) - i64::from(self.y);
        (0..i64::from(self.width)).contains(&dx) && (0..i64::from(self.height)).contains(&dy)
    }

    /// `cell`'s column and row counted from the rectangle's top-left cell, if it lies inside.
    pub(crate) fn local(&self, cell: Cell) -> Option<(usize, usize)> {
        if !self.contains(cell) {
            return None;
        }
        let column = (i64::from(cell.x) - i64::from(self.x)) as usize;
        let row = (i64::from(cell.y) - i64::from(self.y)) as usize;
        Some((column, row))
    }

    /// `cell`'s index in the rectangle's cells stored row by row, if it lies inside.
    pub(crate) fn index_of(&self, cell: Cell) -> Option<usize> {
        let (column, row) = self.local(cell)?;
        Some(row * self.width as usize + column)
    }

    /// Whether `other` is non-empty and lies entirely inside this rectangle.
    pub fn encloses(&self, other: &Region) -> bool {
        if other.width < 1 || other.height < 1 {
            return false;
        }
        let right = i64::from(other.x) + i64::from(other.width);
        let bottom = i64::from(other.y) + i64::from(other.height);
        i64::from(other.x) >= i64::from(self.x)
            && i64::from(other.y) >= i64::from(self.y)
            && right <= i64::from(self.x) + i64::from(self.width)
            && bottom <= i64::from(self.y) + i64::from(self.height)
    }

    /// Number of cells, or 0 for an empty or negative rectangle.
    pub fn area(&self) -> u64 {
        if self.width < 1 || self.height < 1 {
            0
        } else {
            self.width as u64 * self.height as u64
        }
    }

    /// The cells of the rectangle row by row, top-left first; none for an empty rectangle.
    /// Cells past the `i32` range are not listed.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let rows = self.y..self.y.saturating_add(self.height.max(0));
        let columns = self.x..self.x.saturating_add(self.width.max(0));
        rows.flat_map(move |y| columns.clone().map(move |x| Cell::new(x, y)))
    }

    /// Checks that this region can be a map: sides within [`MAX_SIDE`], at most [`MAX_CELLS`]
    /// cells, far corner within `i32`.
    pub fn validate_as_map(&self) -> Result<(), GridError> {
        let region = *self;
        if !(1..=MAX_SIDE).contains(&self.width) || !(1..=MAX_SIDE).contains(&self.height) {
            return Err(GridError::InvalidRegionSize {
                region,
                max_side: MAX_SIDE,
            });
        }
        if self.area() > MAX_CELLS {
            return Err(GridError::TooManyCells {
                region,
                cells: self.area(),
                max_cells: MAX_CELLS,
            });
        }
        if self.x.checked_add(self.width).is_none() || self.y.checked_add(self.height).is_none() {
            return Err(GridError::RegionOverflow { region });
        }
        Ok(())
    }
}

impl fmt::Display for Region {
    /// As Godot prints a `Rect2i`: position, then size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[P: ({}, {}), S: ({}, {})]",
            self.x, self.y, self.width, self.height
        )
    }
}

/// One change to the terrain, as used by batch edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerrainEdit {
    /// Set one cell.
    Cell {
        /// The cell to change.
        cell: Cell,
        /// Its new terrain.
        terrain: TerrainId,
    },
    /// Set every cell of a rectangle.
    Rect {
        /// The rectangle to fill; must be non-empty and inside the map.
        rect: Region,
        /// The new terrain of its cells.
        terrain: TerrainId,
    },
}

impl TerrainEdit {
    /// The rectangle of cells this edit changes.
    pub fn rect(&self) -> Region {
        match *self {
            TerrainEdit::Cell { cell, .. } => Region::new(cell.x, cell.y, 1, 1),
            TerrainEdit::Rect { rect, .. } => rect,
        }
    }

    /// The terrain this edit writes.
    pub fn terrain(&self) -> TerrainId {
        match *self {
            TerrainEdit::Cell { terrain, .. } | TerrainEdit::Rect { terrain, .. } => terrain,
        }
    }
}

/// The terrain of every cell of a rectangular region.
///
/// ```
/// use clearance_core::{Cell, Region, TerrainGrid};
///
/// let mut grid = TerrainGrid::new(Region::new(-2, -2, 4, 4), 0)?;
/// grid.set_cell(Cell::new(-1, 0), 7)?;
/// assert_eq!(grid.terrain(Cell::new(-1, 0)), Some(7));
/// assert_eq!(grid.terrain(Cell::new(2, 0)), None); // outside the region
/// # Ok::<(), clearance_core::GridError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TerrainGrid {
    region: Region,
    /// Paged, so a copy of the grid shares every page an edit does not write.
    cells: PagedVec<TerrainId>,
}

impl TerrainGrid {
    /// A grid over `region` with every cell set to `fill`.
    pub fn new(region: Region, fill: TerrainId) -> Result<Self, GridError> {
        region.validate_as_map()?;
        Ok(TerrainGrid {
            region,
            cells: PagedVec::filled(fill, region.area() as usize),
        })
    }

    /// A grid over `region` whose terrain is `data`, one byte per cell, row by row from the
    /// top-left cell.
    pub fn from_bytes(region: Region, data: &[TerrainId]) -> Result<Self, GridError> {
        region.validate_as_map()?;
        let expected = region.area() as usize;
        if data.len() != expected {
            return Err(GridError::DataLengthMismatch {
                expected,
                found: data.len(),
            });
        }
        Ok(TerrainGrid {
            region,
            cells: PagedVec::from(data),
        })
    }

    /// The region the grid covers.
    pub fn region(&self) -> Region {
        self.region
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.region.width as usize
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.region.height as usize
    }

    /// The terrain of every cell, row by row from the top-left cell (compares equal to a
    /// slice of the same bytes; [`PagedVec::to_vec`] copies them out).
    pub fn as_bytes(&self) -> &PagedVec<TerrainId> {
        &self.cells
    }

    /// The storage index of `cell`, or `None` when it lies outside the region.
    pub fn index_of(&self, cell: Cell) -> Option<usize> {
        self.region.index_of(cell)
    }

    /// The cell stored at `index`, the inverse of [`index_of`](Self::index_of).
    ///
    /// # Panics
    ///
    /// If `index` is not below the cell count, as indexing a slice past its end does.
    pub fn cell_at(&self, index: usize) -> Cell {
        assert!(
            index < self.cells.len(),
            "cell index {index} is past the grid's {} cells",
            self.cells.len()
        );
        let width = self.width();
        Cell::new(
            self.region.x + (index % width) as i32,
            self.region.y + (index / width) as i32,
        )
    }

    /// The cells stored at `path`'s indices, a walk of single steps (straight or diagonal)
    /// such as a search returns, calling `on_step(entered, straight)` for each step in order
    /// with the index it enters and whether it is straight, so that a caller weighing the
    /// steps needs no second pass. Only the first index is divided by the width: on a map at
    /// least 3 cells wide the index difference of a step tells its direction, since `±1`,
    /// `±width` and `±width ± 1` are then all distinct.
    pub(crate) fn cells_along_with(
        &self,
        path: &[usize],
        mut on_step: impl FnMut(usize, bool),
    ) -> Vec<Cell> {
        let width = self.width();
        let Some(&first) = path.first() else {
            return Vec::new();
        };
        let start = self.cell_at(first);
        if width < 3 {
            let mut previous = start;
            return path
                .iter()
                .enumerate()
                .map(|(step, &index)| {
                    let cell = self.cell_at(index);
                    if step > 0 {
                        on_step(index, cell.x == previous.x || cell.y == previous.y);
                    }
                    previous = cell;
                    cell
                })
                .collect();
        }
        let row = width as isize;
        let (mut cell, mut previous) = (start, first);
        let mut cells = Vec::with_capacity(path.len());
        cells.push(start);
        // One pass that the slice's exact length lets `extend` write without a capacity test
        // per cell.
        cells.extend(path[1..].iter().map(|&index| {
            let delta = index as isize - previous as isize;
            previous = index;
            let dy = isize::from(delta >= row - 1) - isize::from(delta <= 1 - row);
            let dx = delta - dy * row;
            on_step(index, dx == 0 || dy == 0);
            cell = Cell::new(cell.x + dx as i32, cell.y + dy as i32);
            cell
        }));
        cells
    }

    /// The terrain of `cell`, or `None` when it lies outside the region.
    pub fn terrain(&self, cell: Cell) -> Option<TerrainId> {
        self.index_of(cell).map(|index| self.cells[index])
    }

    /// Replaces the terrain of every cell; `data` has one byte per cell, row by row.
    /// On error nothing changes.
    pub fn load(&mut self, data: &[TerrainId]) -> Result<(), GridError> {
        if data.len() != self.cells.len() {
            return Err(GridError::DataLengthMismatch {
                expected: self.cells.len(),
                found: data.len(),
            });
        }
        self.cells.assign(data);
        Ok(())
    }

    /// Sets the terrain of one cell. On error nothing changes.
    pub fn set_cell(&mut self, cell: Cell, terrain: TerrainId) -> Result<(), GridError> {
        let index = self
            .index_of(cell)
            .ok_or(GridError::CellOutOfBounds { cell })?;
        self.cells[index] = terrain;
        Ok(())
    }

    /// Sets the terrain of every cell of `rect`, which must be non-empty and inside the region.
    /// On error nothing changes.
    pub fn fill_rect(&mut self, rect: Region, terrain: TerrainId) -> Result<(), GridError> {
        self.check_rect(rect)?;
        let width = self.width();
        let left = (rect.x - self.region.x) as usize;
        let top = (rect.y - self.region.y) as usize;
        for row in top..top + rect.height as usize {
            let start = row * width + left;
            self.cells.fill(start..start + rect.width as usize, terrain);
        }
        Ok(())
    }

    /// Checks one edit without applying it.
    pub fn check_edit(&self, edit: &TerrainEdit) -> Result<(), GridError> {
        match *edit {
            TerrainEdit::Cell { cell, .. } => self
                .index_of(cell)
                .map(|_| ())
                .ok_or(GridError::CellOutOfBounds { cell }),
            TerrainEdit::Rect { rect, .. } => self.check_rect(rect),
        }
    }

    /// Applies a batch of edits in order, all or nothing: every entry is checked before the
    /// first write, and on error the grid is unchanged.
    pub fn apply_edits(&mut self, edits: &[TerrainEdit]) -> Result<(), GridError> {
        self.check_batch(edits)?;
        for edit in edits {
            let written = self.fill_rect(edit.rect(), edit.terrain());
            debug_assert!(written.is_ok(), "edits were checked before the first write");
        }
        Ok(())
    }

    /// Checks every entry of a batch before any is applied, and gives each one's storage
    /// window. The first bad entry is reported with its index.
    pub(crate) fn check_batch(&self, edits: &[TerrainEdit]) -> Result<Vec<Window>, GridError> {
        let check = |edit: &TerrainEdit| {
            self.check_edit(edit)?;
            self.window_of(edit.rect())
                .ok_or(GridError::RectOutOfBounds { rect: edit.rect() })
        };
        edits
            .iter()
            .enumerate()
            .map(|(index, edit)| {
                check(edit).map_err(|source| GridError::InvalidBatchEntry {
                    index,
                    source: Box::new(source),
                })
            })
            .collect()
    }

    /// The set of terrains present in `rect`, or `None` if `rect` is not a non-empty rectangle
    /// inside the region.
    pub fn terrains_in(&self, rect: Region) -> Option<TerrainSet> {
        self.check_rect(rect).ok()?;
        let width = self.width();
        let left = (rect.x - self.region.x) as usize;
        let top = (rect.y - self.region.y) as usize;
        let mut present = TerrainSet::new();
        for row in top..top + rect.height as usize {
            let start = row * width + left;
            for run in self.cells.runs(start..start + rect.width as usize) {
                for &terrain in run {
                    present.insert(terrain);
                }
            }
        }
        Some(present)
    }

    /// The storage window of `rect`, or `None` if `rect` is not a non-empty rectangle inside
    /// the region.
    pub(crate) fn window_of(&self, rect: Region) -> Option<Window> {
        self.check_rect(rect).ok()?;
        let x0 = (i64::from(rect.x) - i64::from(self.region.x)) as usize;
        let y0 = (i64::from(rect.y) - i64::from(self.region.y)) as usize;
        Some(Window {
            x0,
            y0,
            x1: x0 + rect.width as usize,
            y1: y0 + rect.height as usize,
        })
    }

    /// The storage window of the whole grid.
    pub(crate) fn full_window(&self) -> Window {
        Window {
            x0: 0,
            y0: 0,
            x1: self.width(),
            y1: self.height(),
        }
    }

    fn check_rect(&self, rect: Region) -> Result<(), GridError> {
        if self.region.encloses(&rect) {
            Ok(())
        } else {
            Err(GridError::RectOutOfBounds { rect })
        }
    }
}

#[cfg(test)]
impl TerrainGrid {
    /// Compares the terrain with `before`'s page by page (see [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.cells.audit(&before.cells, "terrain", audit);
    }
}

/// A rectangle of storage positions: columns `x0..x1` and rows `y0..y1`, counted from the
/// grid's top-left cell. Incremental repair works in these coordinates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

impl Window {
    /// The smallest window holding both.
    pub fn hull(self, other: Window) -> Window {
        Window {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }

    /// The window grown by `before` columns and rows up and to the left and `after` down and
    /// to the right, clipped to a `width x height` grid.
    pub fn grown(self, before: usize, after: usize, width: usize, height: usize) -> Window {
        Window {
            x0: self.x0.saturating_sub(before),
            y0: self.y0.saturating_sub(before),
            x1: (self.x1 + after).min(width),
            y1: (self.y1 + after).min(height),
        }
    }

    /// Number of positions.
    pub fn area(&self) -> usize {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cells_along_with` gives the cells at the walk's indices and calls its step hook once
    /// per step, in order, with the index entered and whether the step is straight as the
    /// cells' coordinates say, on every width from 1 (where index differences are ambiguous
    /// and coordinates are compared instead) up; an empty walk has no cells.
    #[test]
    fn each_step_is_reported_with_its_kind() {
        let mut rng = crate::test_rng::TestRng(0x5eed);
        let mut below = |bound: i64| rng.below(bound);
        for width in 1..=6_usize {
            let height = 4_usize;
            let grid =
                TerrainGrid::new(Region::new(-3, 7, width as i32, height as i32), 0).unwrap();
            let (mut column, mut row) = (below(width as i64), below(height as i64));
            let mut walk = vec![(row as usize) * width + column as usize];
            while walk.len() < 30 {
                let (dx, dy) = (below(3) - 1, below(3) - 1);
                let (next_column, next_row) = (column + dx, row + dy);
                if (dx, dy) != (0, 0)
                    && (0..width as i64).contains(&next_column)
                    && (0..height as i64).contains(&next_row)
                {
                    (column, row) = (next_column, next_row);
                    walk.push(row as usize * width + column as usize);
                }
            }
            let mut steps = Vec::new();
            let cells =
                grid.cells_along_with(&walk, |entered, straight| steps.push((entered, straight)));
            let expected: Vec<(usize, bool)> = walk
                .windows(2)
                .map(|pair| {
                    let (from, to) = (grid.cell_at(pair[0]), grid.cell_at(pair[1]));
                    (pair[1], from.x == to.x || from.y == to.y)
                })
                .collect();
            assert_eq!(steps, expected, "width {width}");
            let at: Vec<Cell> = walk.iter().map(|&index| grid.cell_at(index)).collect();
            assert_eq!(cells, at, "width {width}");
            assert!(grid.cells_along_with(&[], |_, _| {}).is_empty());
        }
    }

    #[test]
    #[should_panic(expected = "cell index 6 is past the grid's 6 cells")]
    fn a_cell_index_past_the_grid_is_refused_with_its_reason() {
        let grid = TerrainGrid::new(Region::new(0, i32::MAX - 2, 3, 2), 0).unwrap();
        assert_eq!(grid.cell_at(5), Cell::new(2, i32::MAX - 1));
        grid.cell_at(6);
    }
}
