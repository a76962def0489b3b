//! Testing a sweep row by row (or column by column): against the blocked cells' bits, and
//! where bits do not settle it (a multiplier bound), against each row's terrain cell by cell.
//!
//! Where the only rule is "every swept cell is terrain the profile may enter", a segment is
//! refused exactly when one of the cells it sweeps is blocked. The cells a sweep meets in one
//! row are consecutive, so with the blocked cells stored as bits ([`BlockedCells`]) a row costs
//! a word or two: the segment from anchor `a` to anchor `b` costs `|b.y - a.y| + k` such tests,
//! or `|b.x - a.x| + k` on the bits kept column by column, whichever is fewer.
//!
//! **The cells of a row.** Take `b.y > a.y` (exchanging `a` and `b` sweeps the same region;
//! `b.y = a.y` is below). Write `dx = b.x - a.x`, `dy = b.y - a.y` and `v = t dy` for the
//! square's offset down from `a` (so `p(t) = a + (v dx / dy, v)`). By the line test of the
//! parent module, row `cy = a.y + j` is met for the `v` in `[0, dy]` with `j - k < v < j + 1`, a
//! nonempty open interval for `j` in `0..dy + k` whose closure is `[v0, v1]` with `v0 = max(j -
//! k, 0)` and `v1 = min(j + 1, dy)`. Over it `px` runs over an interval with ends `a.x + v0 dx /
//! dy` and `a.x + v1 dx / dy` (equal when `dx = 0`); the open interval `(cx - k, cx + 1)` meets
//! it iff it meets its closure `[x_lo, x_hi]` (an open set meets the closure of an interval of
//! positive length iff it meets the interval, and the interval of `v` has positive length), that
//! is iff `x_lo - 1 < cx < x_hi + k`: the cells `floor(x_lo)` to `ceil(x_hi) + k - 1`. For
//! `dx >= 0`, `x_lo` comes from `v0` and `x_hi` from `v1`; for `dx < 0` the other way round.
//! Both `v0` and `v1` grow by at most one from row to row, so each end of the run follows a
//! running multiple of the slope, with no division per row. A move with
//! `dy = 0` sweeps the rectangle between its footprints: rows `a.y` to `a.y + k - 1`, cells
//! `min(a.x, b.x)` to `max(a.x, b.x) + k - 1`.
//!
//! [`BlockedCells`]: crate::blocked_cells::BlockedCells

use super::rules::Obstacles;
use crate::blocked_cells::{BitRows, WORD};
use crate::search::BlockedLines;

/// A cell that the agent's square sweeps moving in a straight line from anchor `from` to
/// anchor `to` (map-local; both footprints on the map) and that `obstacles` refuse, or `None`
/// if there is none.
///
/// The move is walked along its longer axis, one run of cells per row or per column (a steep
/// move is the same problem with the axes exchanged, on the bits kept column by column, for
/// the units' cells as for the terrain's), so it costs `min(|dx|, |dy|) + k` runs. With
/// blocking units, each run's cells of the start's footprint are left out of the units' test
/// (a unit walks out of where it stands).
pub(crate) fn first_blocked_swept(
    from: (i64, i64),
    to: (i64, i64),
    obstacles: &Obstacles,
) -> Option<(i64, i64)> {
    let (size, terrain) = (obstacles.size, obstacles.terrain);
    let by_rows = (to.1 - from.1).abs() <= (to.0 - from.0).abs();
    let exchange = |(x, y): (i64, i64)| (y, x);
    match (obstacles.units, by_rows) {
        (None, true) => first_blocked_in_rows(from, to, size, terrain.rows()),
        (None, false) => {
            first_blocked_in_rows(exchange(from), exchange(to), size, terrain.columns())
                .map(exchange)
        }
        (Some((units, start)), true) => {
            let lines = (terrain.rows(), units.blocked_lines(false));
            first_refused_in_rows(from, to, start, size, lines)
        }
        (Some((units, start)), false) => {
            let lines = (terrain.columns(), units.blocked_lines(true));
            let start = start.map(exchange);
            first_refused_in_rows(exchange(from), exchange(to), start, size, lines).map(exchange)
        }
    }
}

/// The first blocked cell among `first..=last` of line `line` of `blocked` for a move to the
/// right (`RIGHTWARDS`), the last for a move to the left: the one on the mover's side.
#[inline(always)]
fn nearest_in_row<const RIGHTWARDS: bool>(
    blocked: &BitRows,
    line: usize,
    first: usize,
    last: usize,
) -> Option<usize> {
    if RIGHTWARDS {
        blocked.first_in_row(line, first, last)
    } else {
        blocked.last_in_row(line, first, last)
    }
}

/// [`first_blocked_swept`] with units that refuse, walked by rows (after the axes are
/// exchanged for a steep move) on the rows of the terrain's blocked cells and of the units'
/// cells, leaving out the footprint of `start` if given. In the first row with a refused
/// cell, the cell found is on `from`'s side of the terrain's refused cells if there are any,
/// else of the units' (see [`first_blocked_in_rows`]).
fn first_refused_in_rows(
    from: (i64, i64),
    to: (i64, i64),
    start: Option<(i64, i64)>,
    size: i64,
    lines: (&BitRows, BlockedLines<'_>),
) -> Option<(i64, i64)> {
    fn walk<const RIGHTWARDS: bool>(
        from: (i64, i64),
        to: (i64, i64),
        start: Option<(i64, i64)>,
        size: i64,
        (terrain, units): (&BitRows, BlockedLines<'_>),
    ) -> Option<(i64, i64)> {
        let left_out = LeftOut::new(start, size);
        each_run(from, to, size, |y, first, last| {
            let line = y as usize;
            let terrain_hit =
                nearest_in_row::<RIGHTWARDS>(terrain, line, first as usize, last as usize);
            let hit = terrain_hit.map(|x| x as i64);
            let hit = hit.or_else(|| under_units::<RIGHTWARDS>(units, (y, first, last), left_out));
            hit.map(|x| (x, y))
        })
    }
    if to.0 >= from.0 {
        walk::<true>(from, to, start, size, lines)
    } else {
        walk::<false>(from, to, start, size, lines)
    }
}

/// The cells of a start footprint a units' test leaves out: rows `top..bottom`, columns
/// `left..right` (no rows when none are left out), set once per sweep so that a row only
/// compares.
#[derive(Clone, Copy)]
struct LeftOut {
    top: i64,
    bottom: i64,
    left: i64,
    right: i64,
}

impl LeftOut {
    /// The `size x size` footprint of anchor `start`, if given.
    fn new(start: Option<(i64, i64)>, size: i64) -> Self {
        let (left, top, size) = match start {
            Some((x, y)) => (x, y, size),
            None => (0, 0, 0),
        };
        LeftOut {
            top,
            bottom: top + size,
            left,
            right: left + size,
        }
    }
}

/// The cell under a unit (`units`, by rows) among cells `first..=last` of row `y`, on the
/// side a move to the right (`RIGHTWARDS`) or to the left comes from, leaving out the cells
/// of `left_out`; `None` if there is none.
#[inline(always)]
fn under_units<const RIGHTWARDS: bool>(
    units: BlockedLines<'_>,
    (y, first, last): (i64, i64, i64),
    left_out: LeftOut,
) -> Option<i64> {
    let nearest = |first: i64, last: i64| {
        if first > last {
            return None;
        }
        let (line, first, last) = (y as usize, first as usize, last as usize);
        let hit = if RIGHTWARDS {
            units.first_between(line, first, last)
        } else {
            units.last_between(line, first, last)
        };
        hit.map(|x| x as i64)
    };
    if !(left_out.top..left_out.bottom).contains(&y) {
        return nearest(first, last);
    }
    // The start's own footprint is left out of the run: the part on the mover's side first.
    let (left, right) = (
        (first, last.min(left_out.left - 1)),
        (first.max(left_out.right), last),
    );
    let (near, far) = if RIGHTWARDS {
        (left, right)
    } else {
        (right, left)
    };
    nearest(near.0, near.1).or_else(|| nearest(far.0, far.1))
}

/// A cell that a `size x size` square sweeps moving in a straight line from anchor `from` to
/// anchor `to` (map-local; both footprints on the map) whose terrain `refused` refuses (given
/// the row's first cell's storage index and the cell's column), or that lies under a unit of
/// `units` (by rows) outside the footprint of the start anchor given with it; `None` if there
/// is none.
///
/// For rules that bits do not settle (a multiplier bound, units counted by cost): the sweep is
/// walked by rows, the terrain of each run read cell by cell from `from`'s side, the units'
/// cells a word or two at a time. In the first row holding a refused cell, the cell named is
/// on `from`'s side of the terrain's refused cells if there are any, else of the units'.
pub(crate) fn first_refused_by_cells(
    from: (i64, i64),
    to: (i64, i64),
    size: i64,
    refused: impl Fn(usize, i64) -> bool,
    units: Option<(BlockedLines<'_>, Option<(i64, i64)>)>,
    width: usize,
) -> Option<(i64, i64)> {
    // The direction is read per row here: a row costs a lookup per cell anyway.
    let rightwards = to.0 >= from.0;
    let units = units.map(|(units, start)| (units, LeftOut::new(start, size)));
    each_run(from, to, size, |y, first, last| {
        let row = y as usize * width;
        let terrain_hit = if rightwards {
            (first..=last).find(|&x| refused(row, x))
        } else {
            (first..=last).rev().find(|&x| refused(row, x))
        };
        let hit = terrain_hit.or_else(|| {
            let (units, left_out) = units?;
            if rightwards {
                under_units::<true>(units, (y, first, last), left_out)
            } else {
                under_units::<false>(units, (y, first, last), left_out)
            }
        });
        hit.map(|x| (x, y))
    })
}

/// A blocked cell that a `size x size` square sweeps moving in a straight line from anchor
/// `from` to anchor `to` (map-local; both footprints on the map), or `None` if every cell it
/// sweeps is traversable.
///
/// Rows are tested from `from`'s side, and within the first row that holds one, the blocked
/// cell found is the one on `from`'s side of the run (the first for a move to the right, the
/// last for a move to the left). So it is the nearest to `from` along both axes: seen from
/// `from`, a nearer cell shadows a wider angle, which makes it a better witness for the
/// waypoint search (it refuses more of the anchors tried after it without a sweep). Which
/// cell is returned never changes which segments are refused, so the waypoints do not depend
/// on it.
fn first_blocked_in_rows(
    from: (i64, i64),
    to: (i64, i64),
    size: i64,
    blocked: &BitRows,
) -> Option<(i64, i64)> {
    fn walk<const RIGHTWARDS: bool>(
        from: (i64, i64),
        to: (i64, i64),
        size: i64,
        blocked: &BitRows,
    ) -> Option<(i64, i64)> {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        if dy != 0 {
            return RowSpans::<RIGHTWARDS>::new(from, dx, dy, size).first_blocked(blocked);
        }
        each_run(from, to, size, |y, first, last| {
            let hit =
                nearest_in_row::<RIGHTWARDS>(blocked, y as usize, first as usize, last as usize);
            hit.map(|x| (x as i64, y))
        })
    }
    if to.0 >= from.0 {
        walk::<true>(from, to, size, blocked)
    } else {
        walk::<false>(from, to, size, blocked)
    }
}

/// Calls `visit(y, first, last)` for every row `y` the sweep from `from` to `to` meets, from
/// `from`'s side, with the first and last cell it meets there (see the module docs), until
/// `visit` returns something, which it returns.
#[inline]
fn each_run<T>(
    from: (i64, i64),
    to: (i64, i64),
    size: i64,
    mut visit: impl FnMut(i64, i64, i64) -> Option<T>,
) -> Option<T> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    if dy == 0 {
        let (first, last) = (from.0.min(to.0), from.0.max(to.0) + size - 1);
        (from.1..from.1 + size).find_map(|y| visit(y, first, last))
    } else if dx >= 0 {
        RowSpans::<true>::new(from, dx, dy, size).walk(visit)
    } else {
        RowSpans::<false>::new(from, dx, dy, size).walk(visit)
    }
}

/// The runs of a sweep that is not horizontal, row by row from `from`'s side (see the module
/// docs), for a move to the right (`RIGHTWARDS`, `dx >= 0`) or to the left.
///
/// Walking upwards is walking downwards with the rows mirrored about `from`'s footprint,
/// which maps it to itself, so `j` counts rows away from `from` either way. Of a run's two
/// ends, one follows `v0` and is a floor (`x + floor(v0 |dx| / dy)` to the right, `x + k - 1 -
/// floor(v0 |dx| / dy)` to the left) and the other follows `v1` and is a ceiling. Each is read
/// from a running multiple of the slope in fixed point, so a row costs two additions.
struct RowSpans<const RIGHTWARDS: bool> {
    /// The current row and the step to the next (`1` or `-1`).
    row: i64,
    row_step: i64,
    /// The lagging end at `v0 = 0` and the leading end's base (`x + k - 1` to the right, `x`
    /// to the left), which the scaled offsets move away from.
    lagging_base: i64,
    leading_base: i64,
    /// `v0 * up`, and `v1 * down + 2^32 - 1` so that dropping the fraction rounds it up (see
    /// [`Slope`]).
    lagging: u64,
    leading: u64,
    slope: Slope,
    dy: i64,
    size: i64,
}

/// `|dx| / dy` in fixed point with [`FRACTION_BITS`] fraction bits, rounded up and down.
///
/// For `v` in `0..=dy`, `floor(v * up / 2^32) = floor(v |dx| / dy)` and `ceil(v * down / 2^32) =
/// ceil(v |dx| / dy)`. Proof: write `q = v |dx| / dy = n + f / dy` with `0 <= f < dy`. Rounding
/// the slope moves `v` times it by less than `v <= dy < MAX_SIDE = 2^15` units of `2^-32`,
/// that is by less than `2^-17`, which is below `1 / dy`. So `v * up / 2^32` lies in `[q, q +
/// 2^-17)`, below `n + 1` because `f / dy <= 1 - 1 / dy`: its floor is `n`. And `v * down /
/// 2^32` lies in `(q - 2^-17, q]`: for `f = 0` above `n - 1`, so its ceiling is `n`; for `f > 0`
/// above `n`, so its ceiling is `n + 1`. The products stay below `2^15 * 2^47 = 2^62`.
#[derive(Clone, Copy)]
struct Slope {
    up: u64,
    down: u64,
}

/// Fraction bits of a [`Slope`].
const FRACTION_BITS: u32 = 32;

impl<const RIGHTWARDS: bool> RowSpans<RIGHTWARDS> {
    /// Ends move right for a move to the right, left otherwise.
    const SIGN: i64 = if RIGHTWARDS { 1 } else { -1 };

    /// The runs of the move by `(dx, dy)` from `from` (`dy != 0`, `dx` of the sign
    /// `RIGHTWARDS` says), at row 0: `v0 = 0`, `v1 = 1`.
    fn new(from: (i64, i64), dx: i64, dy: i64, size: i64) -> Self {
        let (row, row_step) = if dy > 0 {
            (from.1, 1)
        } else {
            (from.1 + size - 1, -1)
        };
        let dy = dy.abs();
        let slope = {
            let scaled = dx.unsigned_abs() << FRACTION_BITS;
            let (down, rest) = (scaled / dy as u64, scaled % dy as u64);
            Slope {
                up: down + u64::from(rest != 0),
                down,
            }
        };
        let (lagging_base, leading_base) = if RIGHTWARDS {
            (from.0, from.0 + size - 1)
        } else {
            (from.0 + size - 1, from.0)
        };
        RowSpans {
            row,
            row_step,
            lagging_base,
            leading_base,
            lagging: 0,
            leading: slope.down + ((1 << FRACTION_BITS) - 1),
            slope,
            dy,
            size,
        }
    }

    /// The rows in at most three stretches, each `(end, lagging step, leading step)`: the
    /// rows from the previous stretch's end (or 0) to `end`, after each of which the two ends
    /// step by those amounts. `v0 = max(j - k, 0)` grows after rows `k..`, and `v1 = min(j +
    /// 1, dy)` after rows `..dy - 1`, so within a stretch a row needs no test of its own for it.
    fn stretches(&self) -> [(i64, u64, u64); 3] {
        let (Slope { up, down }, size, dy) = (self.slope, self.size, self.dy);
        let (early, late) = (size.min(dy - 1), size.max(dy - 1));
        let middle = if size < dy - 1 { (up, down) } else { (0, 0) };
        [
            (early, 0, down),
            (late, middle.0, middle.1),
            (dy + size, up, 0),
        ]
    }

    /// The current row's run, its first and last cell.
    #[inline(always)]
    fn run(&self) -> (i64, i64) {
        let lagging = self.lagging_base + Self::SIGN * (self.lagging >> FRACTION_BITS) as i64;
        let leading = self.leading_base + Self::SIGN * (self.leading >> FRACTION_BITS) as i64;
        if RIGHTWARDS {
            (lagging, leading)
        } else {
            (leading, lagging)
        }
    }

    /// Moves to the next row, with the ends stepping by `steps` (see
    /// [`stretches`](Self::stretches)).
    #[inline(always)]
    fn advance(&mut self, (lagging_step, leading_step): (u64, u64)) {
        self.lagging += lagging_step;
        self.leading += leading_step;
        self.row += self.row_step;
    }

    /// Calls `visit(y, first, last)` on each row's run until it returns something, which it
    /// returns.
    #[inline]
    fn walk<T>(mut self, mut visit: impl FnMut(i64, i64, i64) -> Option<T>) -> Option<T> {
        let mut j = 0;
        for (end, lagging_step, leading_step) in self.stretches() {
            while j < end {
                let (first, last) = self.run();
                let seen = visit(self.row, first, last);
                if seen.is_some() {
                    return seen;
                }
                self.advance((lagging_step, leading_step));
                j += 1;
            }
        }
        None
    }

    /// The blocked cell of `blocked` that [`first_blocked_in_rows`] names: in the first row
    /// holding one, the one on `from`'s side.
    ///
    /// [`walk`](Self::walk) with its visit written out: a run within one word, as most are,
    /// is tested in place, on a word index that steps with the row.
    fn first_blocked(mut self, blocked: &BitRows) -> Option<(i64, i64)> {
        let words_per_row = blocked.words_per_row() as i64;
        let mut row_start = self.row * words_per_row;
        let mut j = 0;
        for (end, lagging_step, leading_step) in self.stretches() {
            while j < end {
                let (first, last) = self.run();
                let (first, last) = (first as usize, last as usize);
                let hit = if first / WORD == last / WORD {
                    let hits = blocked.in_one_word(row_start as usize, first, last);
                    (hits != 0).then(|| {
                        let within = if RIGHTWARDS {
                            hits.trailing_zeros()
                        } else {
                            WORD as u32 - 1 - hits.leading_zeros()
                        };
                        first / WORD * WORD + within as usize
                    })
                } else {
                    nearest_in_row::<RIGHTWARDS>(blocked, self.row as usize, first, last)
                };
                if let Some(x) = hit {
                    return Some((x as i64, self.row));
                }
                self.advance((lagging_step, leading_step));
                row_start += words_per_row * self.row_step;
                j += 1;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests;
