//! The cells a `k x k` square sweeps on a straight move between two anchors, enumerated
//! exactly in integers (the parent module states the definition and proves the test).

/// The region a `size x size` square sweeps moving in a straight line from anchor `from` to
/// anchor `to` (coordinates of the top-left cells), as one interval of rows per column along
/// the move's longer axis.
///
/// For a move `(dx, dy)` with `|dx| >= |dy|` (the other case exchanges the axes: "columns"
/// then run along y), the square at offset `u` along x (`u = t dx`, `t` in `[0, 1]`) sits at
/// `(from.0 + u, from.1 + u dy / dx)`. Column `cx` is met exactly for `u` in the open interval
/// `(cx - k - from.0, cx + 1 - from.0)`, intersected with `[min(0, dx), max(0, dx)]`; over the
/// closure `[u0, u1]` of that intersection the square's y ranges over `[y_lo, y_hi]`, and the
/// rows met are the integers `cy` with `y_lo - 1 < cy < y_hi + k`: from `floor(y_lo)` to
/// `ceil(y_hi) + k - 1`. Both ends of the interval move monotonically with the column (the
/// square moves along a line), a fact the clearance cover relies on.
pub(crate) struct Sweep {
    /// Columns run along y: column `c`, row `r` is the cell `(r, c)`.
    transposed: bool,
    /// The start anchor, in (column, row) order.
    anchor: (i64, i64),
    /// `|d column|`, the move's length along its longer axis.
    run: i64,
    /// `d row * sign(d column)`: the square's row offset at column offset `u` is
    /// `u * slope / run`.
    slope: i64,
    /// The first and last row of the two footprints' bounding box.
    bounding_rows: (i64, i64),
    /// `slope / run` (0 for a move of length zero): rows per column.
    gradient: f64,
    /// The range of column offsets the square's left side passes: `[min(0, d), max(0, d)]`.
    offsets: (i64, i64),
    size: i64,
}

impl Sweep {
    /// The sweep of a `size` square from anchor `from` to anchor `to`.
    pub(crate) fn new(from: (i64, i64), to: (i64, i64), size: i64) -> Self {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let transposed = dx.abs() < dy.abs();
        let (anchor, along, across) = if transposed {
            ((from.1, from.0), dy, dx)
        } else {
            (from, dx, dy)
        };
        let (run, slope) = (along.abs(), across * along.signum());
        let rows = (anchor.1, anchor.1 + across);
        Sweep {
            transposed,
            anchor,
            run,
            slope,
            bounding_rows: (rows.0.min(rows.1), rows.0.max(rows.1) + size - 1),
            gradient: if run == 0 {
                0.0
            } else {
                slope as f64 / run as f64
            },
            offsets: (along.min(0), along.max(0)),
            size,
        }
    }

    /// The first and last column the sweep meets.
    pub(crate) fn columns(&self) -> (i64, i64) {
        let (low, high) = self.offsets;
        (self.anchor.0 + low, self.anchor.0 + high + self.size - 1)
    }

    /// The first and last row the sweep meets in `column` (one of [`columns`](Self::columns)).
    #[inline]
    pub(crate) fn rows(&self, column: i64) -> (i64, i64) {
        let (column0, row0) = self.anchor;
        if self.run == 0 {
            // A move of length zero: the footprint itself.
            return (row0, row0 + self.size - 1);
        }
        let (low, high) = self.offsets;
        let u0 = (column - self.size - column0).max(low);
        let u1 = (column + 1 - column0).min(high);
        let (n0, n1) = (u0 * self.slope, u1 * self.slope);
        (
            row0 + n0.min(n1).div_euclid(self.run),
            row0 + self.size - 1 + ceil_div(n0.max(n1), self.run),
        )
    }

    /// Rows that hold every row the sweep meets in the columns `first..=last` (`first <=
    /// last`, both among [`columns`](Self::columns)), and at most one more at each end: from
    /// the rows of the two end columns, computed in floating point and widened by a margin
    /// that covers its rounding, with no division.
    #[inline]
    pub(crate) fn rows_around(&self, first: i64, last: i64) -> (i64, i64) {
        let (column0, row0) = self.anchor;
        let (low, high) = self.offsets;
        // The square's offsets along the columns over the chunk, and its row offsets there
        // (a linear function of them, so extreme at the ends).
        let u0 = (first - self.size - column0).clamp(low, high);
        let u1 = (last + 1 - column0).clamp(low, high);
        let (y0, y1) = (u0 as f64 * self.gradient, u1 as f64 * self.gradient);
        let margin = 1e-6;
        // The margin must not leave the footprints' bounding box (it may leave the map).
        let (first_row, last_row) = self.bounding_rows;
        (
            (row0 + floor(y0.min(y1) - margin)).max(first_row),
            (row0 + self.size - 1 - floor(-(y0.max(y1) + margin))).min(last_row),
        )
    }

    /// Whether the sweep meets cell `(x, y)`.
    pub(crate) fn contains(&self, (x, y): (i64, i64)) -> bool {
        let (column, row) = self.cell(x, y);
        let (first, last) = self.columns();
        (first..=last).contains(&column) && {
            let (top, bottom) = self.rows(column);
            (top..=bottom).contains(&row)
        }
    }

    /// For a sweep whose rows do not rise from column to column (`slope >= 0`): the last
    /// column from `first` up to `cap` whose rows all lie at or above `lowest_row`, given that
    /// `first`'s do (`None` when the rows rise, since then a later column may reach higher).
    pub(crate) fn last_column_above(&self, first: i64, cap: i64, lowest_row: i64) -> Option<i64> {
        if self.slope < 0 {
            return None;
        }
        let (_, last) = self.columns();
        let cap = cap.min(last);
        let mut column = if self.slope == 0 || self.run == 0 {
            cap
        } else {
            // The last row of column `j` is `row0 + size - 1 + ceil(u1 * gradient)` with
            // `u1 = j + 1 - column0`: an estimate from the inverse, then checked exactly.
            let (column0, row0) = self.anchor;
            let room = (lowest_row - row0 - self.size + 1) as f64;
            let estimate = (room / self.gradient).floor() as i64 + column0 - 1;
            estimate.clamp(first, cap)
        };
        while column > first && self.rows(column).1 > lowest_row {
            column -= 1;
        }
        Some(column)
    }

    /// The cell `(x, y)` at `column` and `row` (exchanging the axes is its own inverse, so
    /// this also gives a cell's column and row).
    #[inline]
    pub(crate) fn cell(&self, column: i64, row: i64) -> (i64, i64) {
        if self.transposed {
            (row, column)
        } else {
            (column, row)
        }
    }
}

/// Calls `visit(x, y)` on every cell that a `size x size` square sweeps moving in a straight
/// line from anchor `from` to anchor `to` (see [`Sweep`]), column by column, and stops at the
/// first cell for which `visit` returns `false`. Returns whether `visit` accepted every cell.
///
/// Every cell visited lies in the bounding box of the two footprints; each is visited once.
pub(crate) fn all_swept(
    from: (i64, i64),
    to: (i64, i64),
    size: i64,
    mut visit: impl FnMut(i64, i64) -> bool,
) -> bool {
    let sweep = Sweep::new(from, to, size);
    let (first, last) = sweep.columns();
    (first..=last).all(|column| {
        let (top, bottom) = sweep.rows(column);
        (top..=bottom).all(|row| {
            let (x, y) = sweep.cell(column, row);
            visit(x, y)
        })
    })
}

/// `floor(value)` for `|value| < 2^31`, by truncating a positive number (without SSE 4.1,
/// `f64::floor` is a library call), up to the rounding of `value + 2^31`: less than
/// `2^-22`, well inside the margin of [`Sweep::rows_around`].
#[inline]
fn floor(value: f64) -> i64 {
    const OFFSET: i64 = 1 << 31;
    (value + OFFSET as f64) as i64 - OFFSET
}

/// `ceil(a / b)` for `b > 0`.
fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn swept(from: (i64, i64), to: (i64, i64), size: i64) -> Vec<(i64, i64)> {
        let mut cells = Vec::new();
        all_swept(from, to, size, |x, y| {
            cells.push((x, y));
            true
        });
        cells.sort_unstable();
        cells
    }

    #[test]
    fn a_diagonal_step_sweeps_both_footprints_and_the_two_side_cells() {
        assert_eq!(swept((0, 0), (1, 1), 1), [(0, 0), (0, 1), (1, 0), (1, 1)]);
        // A 2x2 square: its two footprints (7 cells) and the corner cells (2, 0) and (0, 2).
        assert_eq!(swept((0, 0), (1, 1), 2).len(), 9);
        assert_eq!(swept((0, 0), (-1, 1), 2).len(), 9);
    }

    #[test]
    fn a_straight_move_sweeps_the_rectangle_between_the_footprints() {
        assert_eq!(swept((0, 0), (3, 0), 2).len(), 10);
        assert_eq!(
            swept((0, 0), (0, -3), 1),
            [(0, -3), (0, -2), (0, -1), (0, 0)]
        );
    }

    #[test]
    fn a_shallow_line_sweeps_only_the_cells_its_interior_meets() {
        // From (0, 0) to (2, 1) a unit square passes through (1, 0) and (1, 1), and the
        // corner cells (2, 0) and (0, 1) are met too: the square at u = 1 spans y 0.5..1.5.
        assert_eq!(
            swept((0, 0), (2, 1), 1),
            [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1)]
        );
        // From (0, 0) to (4, 1): at x in 0..1 the square spans y up to 1.25, so (0, 1) is met;
        // (4, 0) at u = 3..4 where y > 0.75: met too. Never (0, 2) or (4, -1).
        let cells = swept((0, 0), (4, 1), 1);
        assert!(cells.contains(&(0, 1)) && cells.contains(&(4, 0)));
        assert_eq!(cells.len(), 10);
    }
}
