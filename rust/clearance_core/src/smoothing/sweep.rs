//! The cells a `k x k` square sweeps on a straight move between two anchors, enumerated
//! exactly in integers (the parent module states the definition and proves the test).

/// Calls `visit(x, y)` on every cell that a `size x size` square sweeps moving in a straight
/// line from anchor `from` to anchor `to` (coordinates of the top-left cells), column by
/// column or row by row along the longer axis, and stops at the first cell for which `visit`
/// returns `false`. Returns whether `visit` accepted every cell.
///
/// Every cell visited lies in the bounding box of the two footprints; each is visited once.
pub(crate) fn all_swept(
    from: (i64, i64),
    to: (i64, i64),
    size: i64,
    mut visit: impl FnMut(i64, i64) -> bool,
) -> bool {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    if dx.abs() >= dy.abs() {
        all_swept_by_column(from, (dx, dy), size, visit)
    } else {
        // The same enumeration with the axes exchanged: rows become columns.
        all_swept_by_column((from.1, from.0), (dy, dx), size, |y, x| visit(x, y))
    }
}

/// [`all_swept`] for a move `(dx, dy)` from `from` with `|dx| >= |dy|`, column by column.
///
/// The square at offset `u` along x (`u = t dx`, `t` in `[0, 1]`) sits at
/// `(from.0 + u, from.1 + u dy / dx)`. Column `cx` is met exactly for `u` in the open
/// interval `(cx - k - from.0, cx + 1 - from.0)`, intersected with `[min(0, dx), max(0, dx)]`;
/// over the closure `[u0, u1]` of that intersection the square's y ranges over `[y_lo, y_hi]`,
/// and the rows met are the integers `cy` with `y_lo - 1 < cy < y_hi + k`: from
/// `floor(y_lo)` to `ceil(y_hi) + k - 1`.
fn all_swept_by_column(
    from: (i64, i64),
    (dx, dy): (i64, i64),
    size: i64,
    mut visit: impl FnMut(i64, i64) -> bool,
) -> bool {
    let (ax, ay) = from;
    if dx == 0 {
        // Then dy is 0 too: the footprint itself.
        return (ay..ay + size).all(|cy| (ax..ax + size).all(|cx| visit(cx, cy)));
    }
    let (u_min, u_max) = (dx.min(0), dx.max(0));
    let run = dx.abs();
    // y offsets are `u * dy / dx = u * slope / run` with `slope = dy * sign(dx)`.
    let slope = dy * dx.signum();
    for cx in ax + u_min..ax + u_max + size {
        let u0 = (cx - size - ax).max(u_min);
        let u1 = (cx + 1 - ax).min(u_max);
        let (n0, n1) = (u0 * slope, u1 * slope);
        let (low, high) = (n0.min(n1), n0.max(n1));
        let first_row = ay + low.div_euclid(run);
        let last_row = ay + size - 1 + ceil_div(high, run);
        if !(first_row..=last_row).all(|cy| visit(cx, cy)) {
            return false;
        }
    }
    true
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
