//! Rows of bits: setting runs of them and finding the nearest set one, a word at a time.

use super::AnchorRect;

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
pub(super) fn first_set(bits: &[u64], from: usize, forward: bool, steps: usize) -> Option<usize> {
    if forward {
        let (mut at, end) = (from + 1, from + steps);
        while at <= end {
            let (word, shift) = (at / 64, at % 64);
            let found = bits[word] >> shift;
            if found != 0 {
                let distance = at + found.trailing_zeros() as usize - from;
                return (distance <= steps).then_some(distance);
            }
            at += 64 - shift;
        }
        None
    } else {
        let lowest = from.saturating_sub(steps);
        let mut at = from.checked_sub(1)?;
        loop {
            let (word, shift) = (at / 64, at % 64);
            // Bits 0..=shift of the word, highest first.
            let found = bits[word] << (63 - shift);
            if found != 0 {
                let position = at - found.leading_zeros() as usize;
                let distance = from - position;
                return (distance <= steps).then_some(distance);
            }
            if at < shift + 1 || at - shift - 1 < lowest {
                return None;
            }
            at -= shift + 1;
        }
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
}
