//! Rows of bits: setting runs of them and finding the nearest set one, a word at a time.

use super::AnchorRect;
use crate::blocked_cells::{first_set_between, last_set_between};

/// Sets or clears `count` consecutive bits of `bits` from bit `first`.
pub(super) fn set_bits(bits: &mut [u64], first: usize, count: usize, on: bool) {
    let mut at = first;
    let end = first + count;
    while at < end {
        let (word, shift) = (at / 64, at % 64);
        let take = (64 - shift).min(end - at);
        let mask = if take == 64 {
            u64::MAX
        } else {
            ((1u64 << take) - 1) << shift
        };
        if on {
            bits[word] |= mask;
        } else {
            bits[word] &= !mask;
        }
        at += take;
    }
}

/// Sets or clears the bits of the anchors of `rect` in `bits`, which holds `stride` bits per
/// row of anchors, or with `by_column` per column.
pub(super) fn set_rect(
    bits: &mut [u64],
    rect: AnchorRect,
    stride: usize,
    by_column: bool,
    on: bool,
) {
    let (lines, across) = if by_column {
        (rect.x0..rect.x1, (rect.y0, rect.y1))
    } else {
        (rect.y0..rect.y1, (rect.x0, rect.x1))
    };
    for line in lines {
        set_bits(bits, line * stride + across.0, across.1 - across.0, on);
    }
}

/// The fewest steps, 1 to `steps`, from bit `from` forwards (or backwards) to a set bit.
#[inline]
pub(super) fn first_set(bits: &[u64], from: usize, forward: bool, steps: usize) -> Option<usize> {
    first_marked(from, forward, steps, |word| bits[word])
}

/// The fewest steps `d`, 1 to `steps`, from bit `from` forwards (or backwards) at which a run
/// of set bits has just ended: bit `from + d - 1` set and bit `from + d` clear (backwards,
/// `from - d + 1` and `from - d`).
#[inline]
pub(super) fn first_run_end(
    bits: &[u64],
    from: usize,
    forward: bool,
    steps: usize,
) -> Option<usize> {
    // Each word marks the bits whose neighbour behind (in the walk's direction) is set and
    // which are clear themselves; that neighbour may lie in the next word over.
    if forward {
        first_marked(from, true, steps, |word| {
            let carried = if word > 0 { bits[word - 1] >> 63 } else { 0 };
            (bits[word] << 1 | carried) & !bits[word]
        })
    } else {
        first_marked(from, false, steps, |word| {
            let carried = bits.get(word + 1).map_or(0, |next| next << 63);
            (bits[word] >> 1 | carried) & !bits[word]
        })
    }
}

/// The fewest steps, 1 to `steps`, from bit `from` forwards (or backwards) to a bit that
/// `marks(word)` sets in its word: the word scans of `blocked_cells`, counted from `from`.
#[inline(always)]
fn first_marked(
    from: usize,
    forward: bool,
    steps: usize,
    marks: impl Fn(usize) -> u64,
) -> Option<usize> {
    if steps == 0 {
        return None;
    }
    if forward {
        first_set_between(marks, from + 1, from + steps).map(|at| at - from)
    } else {
        let nearest = from.checked_sub(1)?;
        last_set_between(marks, from.saturating_sub(steps), nearest).map(|at| from - at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_scans_find_the_nearest_set_bit_within_reach() {
        let mut bits = vec![0u64; 4];
        for position in [3usize, 70, 200] {
            set_bits(&mut bits, position, 1, true);
        }
        assert_eq!(first_set(&bits, 0, true, 10), Some(3));
        assert_eq!(first_set(&bits, 3, true, 66), None);
        assert_eq!(first_set(&bits, 3, true, 67), Some(67));
        assert_eq!(first_set(&bits, 71, true, 200), Some(129));
        assert_eq!(first_set(&bits, 200, false, 130), Some(130));
        assert_eq!(first_set(&bits, 200, false, 129), None);
        assert_eq!(first_set(&bits, 69, false, 69), Some(66));
        assert_eq!(first_set(&bits, 2, false, 2), None);
        set_bits(&mut bits, 10, 100, true);
        assert!((10..110).all(|bit| bits[bit / 64] >> (bit % 64) & 1 == 1));
        set_bits(&mut bits, 10, 100, false);
        assert_eq!(bits, [1 << 3, 0, 0, 1 << 8]);
    }

    #[test]
    fn run_ends_are_found_as_a_bit_by_bit_reading_finds_them() {
        let mut rng = crate::test_rng::TestRng(11);
        for round in 0..400 {
            let words = 1 + rng.below(4) as usize;
            let mut bits = vec![0u64; words];
            for _ in 0..rng.below(12) {
                let (first, count) = (rng.below(64 * words as i64) as usize, 1 + rng.below(70));
                let count = (count as usize).min(64 * words - first);
                set_bits(&mut bits, first, count, true);
            }
            let bit = |at: usize| bits[at / 64] >> (at % 64) & 1 == 1;
            let from = rng.below(64 * words as i64) as usize;
            for forward in [true, false] {
                let room = if forward { 64 * words - 1 - from } else { from };
                let steps = rng.below(room as i64 + 1) as usize;
                let expected = (1..=steps).find(|&d| {
                    let (behind, here) = if forward {
                        (from + d - 1, from + d)
                    } else {
                        (from - d + 1, from - d)
                    };
                    bit(behind) && !bit(here)
                });
                assert_eq!(
                    first_run_end(&bits, from, forward, steps),
                    expected,
                    "round {round}, from {from}, forward {forward}, steps {steps}"
                );
            }
        }
    }
}
