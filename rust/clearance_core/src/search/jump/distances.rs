//! Precomputed straight rays for jump-point search on uniform-cost graphs.
//!
//! On a graph where every anchor costs the same to enter, where a straight ray stops depends
//! on the move masks along its line and on nothing else but the goal: it stops at the first
//! anchor where a side opens that was closed beside the anchor behind (the obstacle case of
//! the pruning rule), or runs into a dead end. So, as JPS+ does for static maps (Rabin and
//! Silva, "JPS+: An Extreme A* Speed Optimization for Static Uniform Cost Grids", Game AI Pro
//! 2, 2015), the ray from every anchor in each straight direction can be walked once, ahead of
//! the queries, and stored: how many steps it goes and whether it ends at a stop or at a dead
//! end. A query then reads a ray instead of walking it, and only checks whether its own goal
//! (or targets) lie on the stored stretch, which ends the ray earlier.
//!
//! # Why the table is right
//!
//! Let `e(a, d)` be the entry of anchor `a` in straight direction `d`, and `n = a + d`. The
//! ray from `a` (see `Rays::straight` in `rays.rs`) first checks the step `d` from `a`: if it
//! is illegal the ray is a dead end after 0 steps. Otherwise it steps to `n` and stops there
//! if a side of `d` is legal at `n` but not at `a`: a stop after 1 step. Otherwise it goes on
//! exactly as the ray from `n` does, one step later: `e(a, d) = e(n, d) + 1` with the same
//! ending. Filling each line against the direction (from the far end) computes `n`'s entry
//! before `a`'s, so one pass per direction fills the table, and since each entry reads only
//! the masks of its own line, an edit that changed masks in some rows and columns needs only
//! those rows and columns filled again.
//!
//! # Diagonal rays
//!
//! Under 8-way rules a diagonal ray in `D` stops at the first anchor from which one of its two
//! straight rays stops somewhere (not at a dead end), so on a uniform-cost graph it too is fixed
//! by the masks: with `n = a + D`, the entry of `a` is a dead end after 0 steps if the step `D`
//! from `a` is illegal, a stop after 1 step if a stored straight ray of `n` along a part of `D`
//! ends at a stop, and otherwise `n`'s entry plus one step. The goal ends a diagonal ray
//! early at the anchor where it crosses the goal's row or column, if the straight ray from
//! there reaches the goal; that is arithmetic on the stored entries (`rays.rs`).
//!
//! A diagonal entry reads its own mask and, one row further along, the straight entries and
//! the diagonal entry of `n`. After an edit the straight entries change only along the rows
//! and columns the edit crosses, so the repair recomputes the diagonal entries whose `n` lies
//! in those rows and columns, row by row from the far end, plus those whose `n`'s diagonal
//! entry just changed; an entry computed equal to its old value stops the change from
//! spreading further back along its line.
//!
//! A ray never leaves the map (a step off it is never legal), so it takes at most
//! `MAX_SIDE - 1` steps, which fits the 15 bits an entry keeps for them.

use super::rays::SIDE_BITS;
use crate::grid::{Window, MAX_SIDE};
use crate::movement::{direction_offsets, Direction, Movement, DIRECTIONS, STRAIGHT_DIRECTIONS};

/// The flag of an entry whose ray ends at a stop, not at a dead end.
const STOP: u16 = 1 << 15;

const _: () = assert!(MAX_SIDE as u32 - 1 < STOP as u32);

/// Where the rays of every anchor end, for one graph's move masks: an entry per anchor and
/// direction, each the number of steps and whether the ray ends at a stop or at a dead end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JumpDistances {
    /// North, east, south and west.
    entries: Vec<[u16; STRAIGHT_DIRECTIONS]>,
    /// Under 8-way rules: north-east, south-east, south-west and north-west. Empty under
    /// 4-way rules, whose rays are straight or step along and try both sides at each anchor.
    diagonal: Vec<[u16; DIAGONAL_DIRECTIONS]>,
}

/// Diagonal directions, after the straight ones in [`DIRECTIONS`].
const DIAGONAL_DIRECTIONS: usize = 8 - STRAIGHT_DIRECTIONS;

/// Where one stored ray ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredRay {
    /// Steps from the anchor to where the ray ends.
    pub steps: usize,
    /// The ray ends at an anchor where it stops; otherwise it runs into a dead end after
    /// `steps` steps and stops nowhere.
    pub stops: bool,
}

impl JumpDistances {
    /// The rays of every anchor of a map `width` wide whose move masks are `moves`; diagonal
    /// ones only under 8-way `movement`.
    pub(crate) fn build(moves: &[u8], width: usize, movement: Movement) -> Self {
        let diagonals = if movement == Movement::EightWay {
            moves.len()
        } else {
            0
        };
        let mut distances = JumpDistances {
            entries: vec![[0; STRAIGHT_DIRECTIONS]; moves.len()],
            diagonal: vec![[0; DIAGONAL_DIRECTIONS]; diagonals],
        };
        let height = moves.len() / width.max(1);
        distances.fill(moves, width, full(width, height), full(width, height));
        distances
    }

    /// Fills again the rays along the rows and columns that `changed` (a window of anchors
    /// whose move masks changed) crosses; the result equals a fresh [`build`](Self::build).
    pub(crate) fn repair(&mut self, moves: &[u8], width: usize, changed: Window) {
        let height = moves.len() / width.max(1);
        let rows = Window {
            x0: 0,
            x1: width,
            ..changed
        };
        let columns = Window {
            y0: 0,
            y1: height,
            ..changed
        };
        self.fill(moves, width, rows, columns);
    }

    /// The ray from `anchor` in the straight `direction`.
    #[inline(always)]
    pub(crate) fn ray(&self, anchor: usize, direction: usize) -> StoredRay {
        decode(self.entries[anchor][direction])
    }

    /// The ray from `anchor` in the diagonal `direction`, if diagonal rays are stored.
    #[inline(always)]
    pub(crate) fn diagonal_ray(&self, anchor: usize, direction: usize) -> Option<StoredRay> {
        let entries = self.diagonal.get(anchor)?;
        Some(decode(entries[direction - STRAIGHT_DIRECTIONS]))
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<[u16; STRAIGHT_DIRECTIONS]>()
            + self.diagonal.capacity() * std::mem::size_of::<[u16; DIAGONAL_DIRECTIONS]>()
    }

    /// Bytes a table of `anchors` anchors holds under `movement`.
    pub(crate) fn estimated_bytes(anchors: usize, movement: Movement) -> usize {
        let directions = movement.direction_count();
        anchors.saturating_mul(directions * std::mem::size_of::<u16>())
    }

    /// Fills the horizontal rays of the anchors in `rows` and the vertical ones of those in
    /// `columns`, each window spanning whole lines in its direction.
    fn fill(&mut self, moves: &[u8], width: usize, rows: Window, columns: Window) {
        let offsets = direction_offsets(width);
        for direction in 0..STRAIGHT_DIRECTIONS {
            let offset = offsets[direction];
            let window = if DIRECTIONS[direction].dy == 0 {
                rows
            } else {
                columns
            };
            // Against the direction, so that each anchor's neighbour ahead is filled first.
            let backwards = offset > 0;
            let along = |low: usize, high: usize, i: usize| {
                if backwards {
                    high - 1 - i
                } else {
                    low + i
                }
            };
            for row in 0..window.y1 - window.y0 {
                let y = along(window.y0, window.y1, row);
                for column in 0..window.x1 - window.x0 {
                    let anchor = y * width + along(window.x0, window.x1, column);
                    self.entries[anchor][direction] = self.entry(moves, anchor, direction, offset);
                }
            }
        }
        if !self.diagonal.is_empty() {
            for direction in STRAIGHT_DIRECTIONS..8 {
                self.fill_diagonal(moves, width, direction, (rows, columns));
            }
        }
    }

    /// Fills the diagonal rays in `direction` that may have changed when the straight rays
    /// along the rows of `rows` and the columns of `columns` did (see the module docs): row by
    /// row from the far end, the anchors whose next anchor along the ray lies in those rows or
    /// columns, or had its own entry change.
    fn fill_diagonal(
        &mut self,
        moves: &[u8],
        width: usize,
        direction: usize,
        (rows, columns): (Window, Window),
    ) {
        let height = moves.len() / width;
        let Direction { dx, dy } = DIRECTIONS[direction];
        let offset = direction_offsets(width)[direction];
        let lane = direction - STRAIGHT_DIRECTIONS;
        let [horizontal, vertical] = [direction_of_step(dx, 0), direction_of_step(0, dy)];
        let in_rows = |y: isize| (rows.y0 as isize..rows.y1 as isize).contains(&y);
        let mut changed: Vec<usize> = Vec::new();
        let mut changed_here = Vec::new();
        let mut candidates = Vec::new();
        for row in 0..height {
            // Against the direction: the row ahead (`y + dy`) is done first.
            let y = if dy > 0 { height - 1 - row } else { row };
            candidates.clear();
            if in_rows(y as isize) || in_rows(y as isize + dy as isize) {
                // The masks here or the straight rays ahead changed anywhere along the row.
                candidates.extend(0..width);
            } else {
                // Columns whose anchor ahead (`x + dx`) is in `columns` or just changed.
                let behind = |x: usize| x.checked_add_signed(-dx as isize).filter(|&x| x < width);
                candidates.extend(
                    (columns.x0..columns.x1)
                        .chain(changed.iter().copied())
                        .filter_map(behind),
                );
            }
            changed_here.clear();
            for &x in &candidates {
                let anchor = y * width + x;
                let entry = if moves[anchor] & 1 << direction == 0 {
                    0
                } else {
                    let next = anchor.wrapping_add_signed(offset);
                    let straight = self.entries[next];
                    if (straight[horizontal] | straight[vertical]) & STOP != 0 {
                        STOP | 1
                    } else {
                        self.diagonal[next][lane] + 1
                    }
                };
                if self.diagonal[anchor][lane] != entry {
                    self.diagonal[anchor][lane] = entry;
                    changed_here.push(x);
                }
            }
            std::mem::swap(&mut changed, &mut changed_here);
        }
    }

    /// The entry of `anchor` in `direction`, from its neighbour's (see the module docs).
    fn entry(&self, moves: &[u8], anchor: usize, direction: usize, offset: isize) -> u16 {
        let here = moves[anchor];
        if here & 1 << direction == 0 {
            return 0;
        }
        let next = anchor.wrapping_add_signed(offset);
        if moves[next] & SIDE_BITS[direction] & !here != 0 {
            return STOP | 1;
        }
        self.entries[next][direction] + 1
    }
}

/// An entry's steps and ending.
#[inline(always)]
fn decode(entry: u16) -> StoredRay {
    StoredRay {
        steps: usize::from(entry & !STOP),
        stops: entry & STOP != 0,
    }
}

/// The index in [`DIRECTIONS`] of the straight step `(dx, dy)`.
fn direction_of_step(dx: i32, dy: i32) -> usize {
    DIRECTIONS[..STRAIGHT_DIRECTIONS]
        .iter()
        .position(|d| d.dx == dx && d.dy == dy)
        .expect("a straight step")
}

/// The window of a whole map.
fn full(width: usize, height: usize) -> Window {
    Window {
        x0: 0,
        y0: 0,
        x1: width,
        y1: height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::test_masks;

    /// Move masks of a `width x height` map whose open cells `open` lists row by row.
    fn move_masks(open: &[bool], width: usize, height: usize) -> Vec<u8> {
        test_masks::move_masks(width, height, |x, y| open[y * width + x])
    }

    /// A small generator on a fixed seed, so a failure replays.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, bound: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % bound as u64) as usize
        }
    }

    /// The ray walked one anchor at a time, as the search did before it had a table.
    fn walked(moves: &[u8], width: usize, anchor: usize, direction: usize) -> StoredRay {
        let offset = direction_offsets(width)[direction];
        let (mut at, mut steps) = (anchor, 0);
        loop {
            if moves[at] & 1 << direction == 0 {
                return StoredRay {
                    steps,
                    stops: false,
                };
            }
            let next = at.wrapping_add_signed(offset);
            steps += 1;
            if moves[next] & SIDE_BITS[direction] & !moves[at] != 0 {
                return StoredRay { steps, stops: true };
            }
            at = next;
        }
    }

    /// The diagonal ray walked one anchor at a time, trying both straight rays at each.
    fn walked_diagonal(moves: &[u8], width: usize, anchor: usize, direction: usize) -> StoredRay {
        let offset = direction_offsets(width)[direction];
        let Direction { dx, dy } = DIRECTIONS[direction];
        let parts = [direction_of_step(dx, 0), direction_of_step(0, dy)];
        let (mut at, mut steps) = (anchor, 0);
        loop {
            if moves[at] & 1 << direction == 0 {
                return StoredRay {
                    steps,
                    stops: false,
                };
            }
            at = at.wrapping_add_signed(offset);
            steps += 1;
            if parts
                .iter()
                .any(|&part| walked(moves, width, at, part).stops)
            {
                return StoredRay { steps, stops: true };
            }
        }
    }

    fn random_open(rng: &mut Rng, cells: usize, walls_in_ten: usize) -> Vec<bool> {
        (0..cells).map(|_| rng.below(10) >= walls_in_ten).collect()
    }

    #[test]
    fn every_stored_ray_is_the_walked_ray() {
        let mut rng = Rng(0x51DE_0A75);
        for case in 0..300 {
            let (width, height) = (1 + rng.below(24), 1 + rng.below(24));
            let open = random_open(&mut rng, width * height, case % 6);
            let moves = move_masks(&open, width, height);
            let distances = JumpDistances::build(&moves, width, Movement::EightWay);
            for anchor in 0..moves.len() {
                for direction in 0..STRAIGHT_DIRECTIONS {
                    assert_eq!(
                        distances.ray(anchor, direction),
                        walked(&moves, width, anchor, direction),
                        "case {case}: {width}x{height}, anchor {anchor}, direction {direction}"
                    );
                }
                for direction in STRAIGHT_DIRECTIONS..8 {
                    assert_eq!(
                        distances.diagonal_ray(anchor, direction),
                        Some(walked_diagonal(&moves, width, anchor, direction)),
                        "case {case}: {width}x{height}, anchor {anchor}, direction {direction}"
                    );
                }
            }
        }
    }

    #[test]
    fn four_way_tables_keep_no_diagonal_rays() {
        let open = vec![true; 9];
        let moves = move_masks(&open, 3, 3);
        let distances = JumpDistances::build(&moves, 3, Movement::FourWay);
        assert_eq!(distances.diagonal_ray(4, 4), None);
        assert_eq!(
            distances.memory_bytes(),
            JumpDistances::estimated_bytes(9, Movement::FourWay)
        );
    }

    #[test]
    fn a_repaired_table_equals_a_rebuild() {
        let mut rng = Rng(0xED17_5EED);
        for case in 0..300 {
            let (width, height) = (1 + rng.below(20), 1 + rng.below(20));
            let mut open = random_open(&mut rng, width * height, 3);
            let mut distances =
                JumpDistances::build(&move_masks(&open, width, height), width, Movement::EightWay);
            let (x0, y0) = (rng.below(width), rng.below(height));
            let (x1, y1) = (
                x0 + 1 + rng.below(width - x0),
                y0 + 1 + rng.below(height - y0),
            );
            for y in y0..y1 {
                for x in x0..x1 {
                    open[y * width + x] = rng.below(2) == 0;
                }
            }
            // Masks change up to one anchor around the edited cells.
            let changed = Window { x0, y0, x1, y1 }.grown(1, 1, width, height);
            let moves = move_masks(&open, width, height);
            distances.repair(&moves, width, changed);
            assert_eq!(
                distances,
                JumpDistances::build(&moves, width, Movement::EightWay),
                "case {case}: {width}x{height}, cells {x0}..{x1} x {y0}..{y1}"
            );
        }
    }
}
