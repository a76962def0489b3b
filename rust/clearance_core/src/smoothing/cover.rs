//! Testing a sweep with clearance squares instead of cell by cell.
//!
//! Where the only rule is "every swept cell is terrain the profile may enter", the profile's
//! clearance layer already knows large free blocks: clearance `m` at cell `(x, y)` says the
//! square `[x, x + m) x [y, y + m)` holds only cells the profile may enter (`m = 0` on a cell
//! it may not). A rectangle of columns and rows lies inside that square when its top-left cell
//! is `(x, y)` and neither of its sides exceeds `m`, so one lookup clears it.
//!
//! [`first_blocked`] walks the sweep's columns in chunks. The rows a chunk of columns meets
//! lie between the rows of its two end columns, since both ends of a column's rows move
//! monotonically (see [`Sweep`]); [`Sweep::rows_around`] gives them, a row wider at most at each
//! end. If the clearance at that rectangle's top-left cell covers it, every swept cell of the
//! chunk is free. The rectangle may hold cells the sweep does not, so a chunk that is not
//! covered proves nothing: the chunk shrinks, down to a single column, whose exact rows are
//! walked, each lookup clearing `m` rows of it, and a lookup of 0 is a swept cell the profile
//! may not enter. So the answer equals the cell-by-cell test's, and on open ground the chunks
//! grow (they double after every covered chunk) until a lookup clears many columns. Where the
//! rows do not rise from column to column, a square that covered a chunk also covers the
//! columns after it whose last row it still reaches ([`Sweep::last_column_above`], checked
//! exactly), and the walk skips them.

use super::sweep::Sweep;

/// A cell of `sweep` that is not free, or `None` if every cell is, where `clearance(x, y)` is
/// the side of the largest square of free cells whose top-left cell is `(x, y)` (0 if that
/// cell is not free). Every cell passed to `clearance` lies in the bounding box of the sweep's
/// two footprints.
pub(crate) fn first_blocked(
    sweep: &Sweep,
    clearance: impl Fn(i64, i64) -> u8,
) -> Option<(i64, i64)> {
    let (mut column, last_column) = sweep.columns();
    let mut width: i64 = 1;
    while column <= last_column {
        width = width.min(last_column - column + 1);
        let end = column + width - 1;
        let (top, bottom) = if width == 1 {
            sweep.rows(column)
        } else {
            sweep.rows_around(column, end)
        };
        let (x, y) = sweep.cell(column, top);
        let side = i64::from(clearance(x, y));
        if side >= width.max(bottom - top + 1) {
            // Where rows do not rise, the square may clear later columns too.
            let reach = sweep.last_column_above(end, column + side - 1, top + side - 1);
            column = reach.unwrap_or(end) + 1;
            width *= 2;
            continue;
        }
        if width > 1 {
            width = (width / 2).min(side).max(1);
            continue;
        }
        // One column, exactly: `(column, top)` is swept, and each lookup clears `side` rows.
        let mut row = top;
        let mut side = side;
        loop {
            if side == 0 {
                return Some(sweep.cell(column, row));
            }
            row += side;
            if row > bottom {
                break;
            }
            let (x, y) = sweep.cell(column, row);
            side = i64::from(clearance(x, y));
        }
        column += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::sweep::all_swept;
    use super::*;

    /// A pseudo-random map of `width x height` free and blocked cells (about one in `one_in`
    /// blocked) with its clearance table, computed directly.
    fn random_map(seed: u64, width: i64, height: i64, one_in: u64) -> (Vec<bool>, Vec<u8>) {
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            state >> 33
        };
        let free: Vec<bool> = (0..width * height).map(|_| next() % one_in != 0).collect();
        let at = |x: i64, y: i64| x < width && y < height && free[(y * width + x) as usize];
        let clearance = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .map(|(x, y)| {
                let mut side = 0;
                while (0..=side).all(|d| at(x + side, y + d) && at(x + d, y + side)) {
                    side += 1;
                }
                side as u8
            })
            .collect();
        (free, clearance)
    }

    #[test]
    fn the_cover_agrees_with_the_cell_by_cell_test() {
        let (width, height) = (40i64, 30i64);
        let (mut accepted, mut refused) = (0, 0);
        for (seed, one_in) in [(1, 7), (2, 19), (3, 60), (4, 400)] {
            let (free, clearance) = random_map(seed, width, height, one_in);
            let lookup = |x: i64, y: i64| clearance[(y * width + x) as usize];
            for size in 1..=4 {
                for from in
                    (0..=height - size).flat_map(|y| (0..=width - size).map(move |x| (x, y)))
                {
                    if from.0 % 3 != 0 || from.1 % 2 != 0 {
                        continue;
                    }
                    for to in [
                        (0, 0),
                        (width - size, height - size),
                        (width - size, 0),
                        (0, height - size),
                        (17, 11),
                        (from.0 + 1, from.1),
                    ] {
                        if to.0 + size > width || to.1 + size > height {
                            continue;
                        }
                        let by_cells =
                            all_swept(from, to, size, |x, y| free[(y * width + x) as usize]);
                        let sweep = Sweep::new(from, to, size);
                        let blocked = first_blocked(&sweep, lookup);
                        assert_eq!(
                            blocked.is_none(),
                            by_cells,
                            "seed {seed}, size {size}, {from:?} to {to:?}"
                        );
                        if let Some(cell) = blocked {
                            assert!(
                                sweep.contains(cell) && !free[(cell.1 * width + cell.0) as usize]
                            );
                        }
                        accepted += usize::from(by_cells);
                        refused += usize::from(!by_cells);
                    }
                }
            }
        }
        assert!(
            accepted > 200 && refused > 200,
            "{accepted} accepted, {refused} refused"
        );
    }
}
