//! The cells a `k x k` square sweeps on a straight move between two anchors, enumerated
//! exactly in integers (the parent module states the definition and proves the test): the
//! reference the row walks of `rows/` and the step bounds of `taut.rs` are tested against.
//! Beside it, constant-time tests of one cell against a move.

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
/// `ceil(y_hi) + k - 1`.
#[cfg(test)]
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
    /// The range of column offsets the square's left side passes: `[min(0, d), max(0, d)]`.
    offsets: (i64, i64),
    size: i64,
}

#[cfg(test)]
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
        Sweep {
            transposed,
            anchor,
            run,
            slope,
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

/// Whether a `size x size` square moving in a straight line from anchor `from` to anchor `to`
/// sweeps cell `(x, y)`, in constant time and without a division: by the line test of the
/// parent module, whether the segment `p(t) = from + t (to - from)`, `t` in `[0, 1]`, meets the
/// open box `(x - size, x + 1) x (y - size, y + 1)`.
///
/// On each axis with `d != 0` the box's open interval holds `p(t)` for `t` in an open interval
/// `(low / |d|, high / |d|)`; with `d = 0`, for every `t` or none, written as an interval that
/// holds all of `[0, 1]` or as an empty one, so that every case takes the same test. The
/// segment meets the box iff
/// the largest lower end among those and `0` lies below the smallest upper end among those and
/// `1` (an open and a closed end meeting at one `t` leave nothing, and `[0, 1]` has positive
/// length unless `from = to`, where the test is the footprint's). Fractions are compared by
/// cross-multiplying their positive denominators.
pub(crate) fn sweeps_cell(from: (i64, i64), to: (i64, i64), size: i64, (x, y): (i64, i64)) -> bool {
    /// The open interval of `t` on one axis as `(low, high, denominator)`: `(-1, 2, 1)`, which
    /// holds all of `[0, 1]`, when every `t` works, and `(0, 0, 1)` when none does.
    #[inline(always)]
    fn axis(start: i64, end: i64, (open_low, open_high): (i64, i64)) -> (i64, i64, i64) {
        let d = end - start;
        if d > 0 {
            (open_low - start, open_high - start, d)
        } else if d < 0 {
            (start - open_high, start - open_low, -d)
        } else if open_low < start && start < open_high {
            (-1, 2, 1)
        } else {
            (0, 0, 1)
        }
    }
    let (low_x, high_x, d_x) = axis(from.0, to.0, (x - size, x + 1));
    let (low_y, high_y, d_y) = axis(from.1, to.1, (y - size, y + 1));
    // Each interval meets [0, 1], and each starts before the other ends.
    high_x > 0
        && low_x < d_x
        && high_y > 0
        && low_y < d_y
        && low_x * d_y < high_y * d_x
        && low_y * d_x < high_x * d_y
}

/// Calls `visit(x, y)` on every cell that a `size x size` square sweeps moving in a straight
/// line from anchor `from` to anchor `to` (see [`Sweep`]), column by column, and stops at the
/// first cell for which `visit` returns `false`. Returns whether `visit` accepted every cell.
///
/// Every cell visited lies in the bounding box of the two footprints; each is visited once.
#[cfg(test)]
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

/// Along a straight run of anchors `run_start + s * step` (`step` one grid step, `s` in
/// `0..=last`), the first `s` at which a `size x size` square moving in a straight line from
/// anchor `from` sweeps `cell`, given that it does not at `s = 0` and does at `s = last`; or
/// `None` where the closed form below does not settle it, and the caller must test anchors one
/// by one.
///
/// The anchors whose segment sweeps the cell are consecutive (see the parent module), so the
/// answer is where they begin. Write `D(s) = run_start + s * step - from`, one linear function
/// per axis. By the test of [`sweeps_cell`], on each axis the segment is inside the cell's open
/// box for `t` in `(a / m(s), b / m(s))`, where `m(s) = |D(s)|` and `a`, `b` do not depend on
/// `s` while the sign of `D(s)` stays that of `D(last)`. On an axis where `D` is `0` for every
/// `s`, `m = 1` and `(a, b)` is `(-1, 2)` (every `t`) or `(0, 0)` (none). The cell is swept
/// exactly when `b_x > 0`, `b_y > 0`, `a_x < m_x(s)`, `a_y < m_y(s)`, `a_x m_y(s) < b_y m_x(s)`
/// and `a_y m_x(s) < b_x m_y(s)`. Each of these is `alpha + beta s > 0` with integers `alpha`,
/// `beta`. Take the `s` from `first` to `last`, where `first` is the smallest `s` from which both
/// signs stay those at `last`. Every condition holds at `last`. Those with `beta <= 0` then hold
/// at every smaller `s`. Those with `beta > 0` hold exactly from `floor(-alpha / beta) + 1` on.
/// So over those `s` the cell is swept exactly from `lower`, the largest of `first` and those
/// bounds, on. When `lower > first`, `lower` is the answer, because the square does not sweep
/// the cell at `lower - 1`. When `lower = first`, the anchors before `first` are on the other
/// side of `from`'s row or column, and the closed form says nothing about them: `None`.
pub(crate) fn first_sweeping_along(
    from: (i64, i64),
    (run_start, step): ((i64, i64), (i64, i64)),
    last: i64,
    size: i64,
    (x, y): (i64, i64),
) -> Option<i64> {
    /// One axis: `(a, b)`, `m(s) = m0 + m1 s`, and the first `s` from which `m(s) > 0`.
    struct Axis {
        interval: (i64, i64),
        m: (i64, i64),
        first: i64,
    }
    fn axis(start: i64, step: i64, last: i64, (open_low, open_high): (i64, i64)) -> Axis {
        let at_last = start + step * last;
        let (interval, m0, m1) = if at_last > 0 {
            ((open_low, open_high), start, step)
        } else if at_last < 0 {
            ((-open_high, -open_low), -start, -step)
        } else if step == 0 {
            let every_t = open_low < 0 && 0 < open_high;
            (if every_t { (-1, 2) } else { (0, 0) }, 1, 0)
        } else {
            // `D` is zero at `last` alone.
            return Axis {
                interval: (0, 0),
                m: (0, 0),
                first: last,
            };
        };
        let first = if m1 > 0 {
            ((-m0).div_euclid(m1) + 1).max(0)
        } else {
            0
        };
        Axis {
            interval,
            m: (m0, m1),
            first,
        }
    }
    let across_x = axis(
        run_start.0 - from.0,
        step.0,
        last,
        (x - size - from.0, x + 1 - from.0),
    );
    let across_y = axis(
        run_start.1 - from.1,
        step.1,
        last,
        (y - size - from.1, y + 1 - from.1),
    );
    let first = across_x.first.max(across_y.first);
    if first >= last {
        return None;
    }
    let ((a_x, b_x), (m0_x, m1_x)) = (across_x.interval, across_x.m);
    let ((a_y, b_y), (m0_y, m1_y)) = (across_y.interval, across_y.m);
    if b_x <= 0 || b_y <= 0 {
        // Not swept at `last` after all: nothing to settle.
        return None;
    }
    // Each condition `alpha + beta s > 0` as `(alpha, beta)`.
    let conditions = [
        (m0_x - a_x, m1_x),
        (m0_y - a_y, m1_y),
        (b_y * m0_x - a_x * m0_y, b_y * m1_x - a_x * m1_y),
        (b_x * m0_y - a_y * m0_x, b_x * m1_y - a_y * m1_x),
    ];
    let lower = (conditions.iter())
        .filter(|&&(_, beta)| beta > 0)
        .map(|&(alpha, beta)| (-alpha).div_euclid(beta) + 1)
        .fold(first, i64::max);
    (lower > first).then_some(lower)
}

/// `ceil(a / b)` for `b > 0`.
#[cfg(test)]
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
    fn the_constant_time_test_agrees_with_the_enumeration() {
        let mut rng = crate::test_rng::TestRng(11);
        let mut next = |bound: i64| rng.below(bound);
        let mut met = 0;
        for _ in 0..2000 {
            let size = 1 + next(4);
            let from = (next(12), next(12));
            // Short and long moves, straight and diagonal ones among them.
            let to = match next(4) {
                0 => (from.0 + next(3) - 1, from.1 + next(3) - 1),
                1 => (from.0, next(12)),
                2 => (next(12), from.1 + next(12) - next(12)),
                _ => (next(12), next(12)),
            };
            let cells = swept(from, to, size);
            for x in -6..20 {
                for y in -6..20 {
                    let expected = cells.binary_search(&(x, y)).is_ok();
                    assert_eq!(
                        sweeps_cell(from, to, size, (x, y)),
                        expected,
                        "size {size}, {from:?} to {to:?}, cell {:?}",
                        (x, y)
                    );
                    met += usize::from(expected);
                }
            }
        }
        assert!(met > 10_000, "{met}");
    }

    #[test]
    fn the_first_anchor_of_a_run_to_sweep_a_cell_agrees_with_testing_each() {
        let mut rng = crate::test_rng::TestRng(29);
        let mut next = |bound: i64| rng.below(bound);
        let (mut settled, mut left_open) = (0, 0);
        for _ in 0..120_000 {
            let size = 1 + next(4);
            let from = (next(30), next(30));
            let run_start = (next(30), next(30));
            let step = match next(8) {
                0 => (1, 0),
                1 => (-1, 0),
                2 => (0, 1),
                3 => (0, -1),
                4 => (1, 1),
                5 => (1, -1),
                6 => (-1, 1),
                _ => (-1, -1),
            };
            let last = 1 + next(30);
            let cell = (next(40) - 5, next(40) - 5);
            let at = |s: i64| (run_start.0 + s * step.0, run_start.1 + s * step.1);
            let swept: Vec<bool> = (0..=last)
                .map(|s| sweeps_cell(from, at(s), size, cell))
                .collect();
            if swept[0] || !swept[last as usize] {
                continue;
            }
            let expected = swept
                .iter()
                .position(|&swept| swept)
                .expect("swept at last") as i64;
            // The anchors that sweep the cell are consecutive.
            assert!(swept[expected as usize..].iter().all(|&swept| swept));
            let run = (run_start, step);
            match first_sweeping_along(from, run, last, size, cell) {
                Some(found) => {
                    assert_eq!(
                        found, expected,
                        "size {size}, from {from:?}, run {run:?} to {last}, cell {cell:?}"
                    );
                    settled += 1;
                }
                None => left_open += 1,
            }
        }
        assert!(
            settled > 2000 && left_open * 5 < settled,
            "{settled} settled, {left_open} left open"
        );
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
