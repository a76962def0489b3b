//! Blocked cells as bits: one bit per cell, set where the terrain is not traversable, so that
//! "is any cell of this run of a row blocked, and which is the first?" costs a word or two
//! instead of a lookup per cell. The bits are kept twice, row by row and column by column, so
//! that runs of a column cost as little.
//!
//! In each of the two, each row (or column) starts a new word (`words_per_row = ceil(width /
//! 64)`), so a run of a row never straddles two rows, and bit `x % 64` of word `y *
//! words_per_row + x / 64` is cell `(x, y)`. The bits padding the last word of a row stay
//! clear. Stored in shared pages like every other
//! per-map array, so a snapshot of the map shares them and an edit copies only the pages it
//! writes.

use crate::paged::PagedVec;

/// Bits per word.
pub(crate) const WORD: usize = u64::BITS as usize;

/// The blocked cells of a map, by rows and by columns (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BlockedCells {
    rows: BitRows,
    /// The same bits with the axes exchanged: row `x` of it is column `x` of the map.
    columns: BitRows,
}

impl BlockedCells {
    /// The blocked cells of a `width x height` map, where `blocked(x, y)` says so.
    pub(crate) fn new(width: usize, height: usize, blocked: impl Fn(usize, usize) -> bool) -> Self {
        BlockedCells {
            rows: BitRows::new(width, height, &blocked),
            columns: BitRows::new(height, width, |y, x| blocked(x, y)),
        }
    }

    /// Marks cell `(x, y)` blocked or not; copies a page only if a bit changes.
    pub(crate) fn set(&mut self, x: usize, y: usize, blocked: bool) {
        self.rows.set(x, y, blocked);
        self.columns.set(y, x, blocked);
    }

    /// The bits row by row: bit `x` of row `y` is cell `(x, y)`.
    pub(crate) fn rows(&self) -> &BitRows {
        &self.rows
    }

    /// The bits column by column: bit `y` of row `x` is cell `(x, y)`.
    pub(crate) fn columns(&self) -> &BitRows {
        &self.columns
    }

    /// Bytes the bits of a `width x height` map hold.
    pub(crate) fn estimated_bytes(width: usize, height: usize) -> usize {
        let words = width.div_ceil(WORD) * height + height.div_ceil(WORD) * width;
        words * std::mem::size_of::<u64>()
    }

    /// Bytes of memory held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.rows.words.memory_bytes() + self.columns.words.memory_bytes()
    }
}

#[cfg(test)]
impl BlockedCells {
    /// Compares the bits with `before`'s page by page (see [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        (self.rows.words).audit(&before.rows.words, "blocked cells by rows", audit);
        (self.columns.words).audit(&before.columns.words, "blocked cells by columns", audit);
    }
}

/// One bit per cell of a grid, row by row, each row starting a new word.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BitRows {
    words: PagedVec<u64>,
    words_per_row: usize,
}

impl BitRows {
    /// The bits of a `width x height` grid, set where `blocked(x, y)` says so.
    fn new(width: usize, height: usize, blocked: impl Fn(usize, usize) -> bool) -> Self {
        let words_per_row = width.div_ceil(WORD);
        let mut words = vec![0u64; words_per_row * height];
        for (y, row) in words.chunks_mut(words_per_row.max(1)).enumerate() {
            for x in (0..width).filter(|&x| blocked(x, y)) {
                row[x / WORD] |= 1 << (x % WORD);
            }
        }
        BitRows {
            words: PagedVec::from(words),
            words_per_row,
        }
    }

    /// Sets or clears the bit of cell `(x, y)`; copies its page only if the bit changes.
    fn set(&mut self, x: usize, y: usize, blocked: bool) {
        let index = y * self.words_per_row + x / WORD;
        let bit = 1 << (x % WORD);
        let word = self.words[index];
        self.words
            .set(index, if blocked { word | bit } else { word & !bit });
    }

    /// Words per row: row `y` starts at word `y * words_per_row`.
    #[inline(always)]
    pub(crate) fn words_per_row(&self) -> usize {
        self.words_per_row
    }

    /// The bits of columns `first..=last` of the row starting at word `row_start`, which lie
    /// in one word (`first / 64 == last / 64`), in their places in that word.
    #[inline(always)]
    pub(crate) fn in_one_word(&self, row_start: usize, first: usize, last: usize) -> u64 {
        debug_assert_eq!(first / WORD, last / WORD);
        self.words[row_start + first / WORD] & run_mask(first % WORD, last % WORD)
    }

    /// The first set bit among columns `first..=last` of row `y` (all on the grid), or `None`
    /// if none is set.
    #[inline]
    pub(crate) fn first_in_row(&self, y: usize, first: usize, last: usize) -> Option<usize> {
        let row = y * self.words_per_row;
        first_set_between(|word| self.words[row + word], first, last)
    }

    /// The last set bit among columns `first..=last` of row `y` (all on the grid), or `None`
    /// if none is set.
    #[inline]
    pub(crate) fn last_in_row(&self, y: usize, first: usize, last: usize) -> Option<usize> {
        let row = y * self.words_per_row;
        last_set_between(|word| self.words[row + word], first, last)
    }
}

/// The bits `first..=last` of a word set (`first <= last < 64`).
#[inline(always)]
fn run_mask(first: usize, last: usize) -> u64 {
    u64::MAX << first & u64::MAX >> (WORD - 1 - last)
}

/// The first set bit among bits `first..=last` of the words `word(0)`, `word(1)`, ... (bit `i`
/// is bit `i % 64` of word `i / 64`), or `None` if none is set.
#[inline]
pub(crate) fn first_set_between(
    word: impl Fn(usize) -> u64,
    first: usize,
    last: usize,
) -> Option<usize> {
    let (mut at, last_word) = (first / WORD, last / WORD);
    // Bits from `first` on in its word, then whole words, then bits up to `last` in its word.
    let mut hits = word(at) & u64::MAX << (first % WORD);
    while at < last_word {
        if hits != 0 {
            return Some(at * WORD + hits.trailing_zeros() as usize);
        }
        at += 1;
        hits = word(at);
    }
    hits &= u64::MAX >> (WORD - 1 - last % WORD);
    (hits != 0).then(|| at * WORD + hits.trailing_zeros() as usize)
}

/// The last set bit among bits `first..=last` of the words `word(0)`, `word(1)`, ... (as in
/// [`first_set_between`]), or `None` if none is set.
#[inline]
pub(crate) fn last_set_between(
    word: impl Fn(usize) -> u64,
    first: usize,
    last: usize,
) -> Option<usize> {
    let (first_word, mut at) = (first / WORD, last / WORD);
    // Bits up to `last` in its word, then whole words, then bits from `first` on in its word.
    let mut hits = word(at) & u64::MAX >> (WORD - 1 - last % WORD);
    while at > first_word {
        if hits != 0 {
            return Some(at * WORD + (WORD - 1) - hits.leading_zeros() as usize);
        }
        at -= 1;
        hits = word(at);
    }
    hits &= u64::MAX << (first % WORD);
    (hits != 0).then(|| at * WORD + (WORD - 1) - hits.leading_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_a_row_or_column_find_their_first_and_last_blocked_cells() {
        let (width, height) = (150usize, 70usize);
        let blocked = |x: usize, y: usize| (x * 7 + y * 13).is_multiple_of(23);
        let bits = BlockedCells::new(width, height, blocked);
        let mut found = 0;
        // Every run of a few rows, then of a few columns (rows of the exchanged bits).
        let mut check =
            |lines: &BitRows, line: usize, length: usize, blocked: &dyn Fn(usize) -> bool| {
                for first in 0..length {
                    for last in first..length {
                        let expected = (first..=last).find(|&at| blocked(at));
                        let by_bits = lines.first_in_row(line, first, last);
                        assert_eq!(by_bits, expected, "line {line}: {first}..={last}");
                        let expected_last = (first..=last).rev().find(|&at| blocked(at));
                        let last_by_bits = lines.last_in_row(line, first, last);
                        assert_eq!(
                            last_by_bits, expected_last,
                            "last, line {line}: {first}..={last}"
                        );
                        found += usize::from(expected.is_some() && expected != expected_last);
                    }
                }
            };
        for y in [0, 1, 2, 69] {
            check(bits.rows(), y, width, &|x| blocked(x, y));
        }
        for x in [0, 1, 63, 64, 149] {
            check(bits.columns(), x, height, &|y| blocked(x, y));
        }
        assert!(found > 10_000, "{found}");
    }

    #[test]
    fn setting_a_bit_changes_only_that_cell() {
        let mut bits = BlockedCells::new(70, 2, |_, _| false);
        bits.set(65, 1, true);
        assert_eq!(bits.rows().first_in_row(1, 0, 69), Some(65));
        assert_eq!(bits.rows().first_in_row(0, 0, 69), None);
        assert_eq!(bits.columns().first_in_row(65, 0, 1), Some(1));
        assert_eq!(bits.columns().first_in_row(64, 0, 1), None);
        bits.set(65, 1, false);
        assert_eq!(bits, BlockedCells::new(70, 2, |_, _| false));
    }
}
