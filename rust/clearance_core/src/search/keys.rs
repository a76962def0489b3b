//! Open-list keys: `(f, h, index)` ordered lexicographically, in three representations from
//! the fastest to the widest.

use super::scratch::OpenLists;
use crate::heap::IndexedHeap;

/// How open-list entries `(f, h, index)` are stored: ordered lexicographically. Cells are
/// stored row by row, so ordering by storage index is ordering by `(y, x)`: the tie-break order.
pub(super) trait KeyCodec: Copy {
    type Key: Ord + Copy;
    /// The entry, or `None` if the values do not fit this representation.
    fn encode(self, f: u64, h: u64, index: u32) -> Option<Self::Key>;
    /// The anchor's storage index.
    fn index(self, key: Self::Key) -> usize;
    /// The open list of this key type.
    fn heap(open: &mut OpenLists) -> &mut IndexedHeap<Self::Key>;
}

/// The fastest representation: all three fields in one `u64`, compared in one instruction.
/// The index takes as many low bits as the map needs; `h` and `f` share the rest. Costs are
/// counted in the graph's cost unit (the gcd of the profile's multipliers), which keeps them
/// small: on a 512 x 512 map with uniform costs, paths of up to 3000 steps fit.
#[derive(Debug, Clone, Copy)]
pub(super) struct Compact {
    index_bits: u32,
    estimate_bits: u32,
    /// Bits left for `f`: `64 - index_bits - estimate_bits`.
    f_bits: u32,
    index_mask: u64,
}

impl Compact {
    pub(super) fn for_cells(cells: usize) -> Self {
        let index_bits = usize::BITS - (cells.max(2) - 1).leading_zeros();
        let estimate_bits = (u64::BITS - index_bits) / 2;
        Compact {
            index_bits,
            estimate_bits,
            f_bits: u64::BITS - index_bits - estimate_bits,
            index_mask: (1 << index_bits) - 1,
        }
    }
}

impl KeyCodec for Compact {
    type Key = u64;

    #[inline(always)]
    fn encode(self, f: u64, h: u64, index: u32) -> Option<u64> {
        if (f >> self.f_bits) | (h >> self.estimate_bits) != 0 {
            return None;
        }
        Some((f << self.estimate_bits | h) << self.index_bits | u64::from(index))
    }

    #[inline(always)]
    fn index(self, key: u64) -> usize {
        (key & self.index_mask) as usize
    }

    fn heap(open: &mut OpenLists) -> &mut IndexedHeap<u64> {
        &mut open.compact
    }
}

/// The middle representation: all three fields in one `u128`, compared in two instructions.
/// `f` and `h` get 50 bits each, the index 28 bits (maps have at most 2^28 cells).
#[derive(Debug, Clone, Copy)]
pub(super) struct Packed;

/// A `u128` open-list key (see [`Packed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct PackedKey(u128);

const INDEX_BITS: u32 = 28;
const ESTIMATE_BITS: u32 = 50;
const _: () = assert!(crate::grid::MAX_CELLS <= 1 << INDEX_BITS);
const _: () = assert!(2 * ESTIMATE_BITS + INDEX_BITS == 128);

impl KeyCodec for Packed {
    type Key = PackedKey;

    #[inline(always)]
    fn encode(self, f: u64, h: u64, index: u32) -> Option<PackedKey> {
        if (f | h) >> ESTIMATE_BITS != 0 {
            return None;
        }
        let estimates = (f as u128) << ESTIMATE_BITS | h as u128;
        Some(PackedKey(estimates << INDEX_BITS | index as u128))
    }

    #[inline(always)]
    fn index(self, key: PackedKey) -> usize {
        (key.0 as u32 & ((1 << INDEX_BITS) - 1)) as usize
    }

    fn heap(open: &mut OpenLists) -> &mut IndexedHeap<PackedKey> {
        &mut open.packed
    }
}

/// The fallback representation for any cost: plain fields.
#[derive(Debug, Clone, Copy)]
pub(super) struct Wide;

/// A plain open-list key (see [`Wide`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct WideKey {
    f: u64,
    h: u64,
    index: u32,
}

impl KeyCodec for Wide {
    type Key = WideKey;

    fn encode(self, f: u64, h: u64, index: u32) -> Option<WideKey> {
        Some(WideKey { f, h, index })
    }

    fn index(self, key: WideKey) -> usize {
        key.index as usize
    }

    fn heap(open: &mut OpenLists) -> &mut IndexedHeap<WideKey> {
        &mut open.wide
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_keys_order_like_wide_keys() {
        let mut state = 0xFEED_u64;
        let mut next = move |bits: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % (1 << bits)
        };
        for _ in 0..10_000 {
            let a = (next(50), next(50), next(28) as u32);
            let b = (a.0 + next(2), a.1 + next(1), next(28) as u32);
            let packed = |k: (u64, u64, u32)| Packed.encode(k.0, k.1, k.2).unwrap();
            let wide = |k: (u64, u64, u32)| Wide.encode(k.0, k.1, k.2).unwrap();
            assert_eq!(packed(a).cmp(&packed(b)), wide(a).cmp(&wide(b)));
            assert_eq!(Packed.index(packed(a)), a.2 as usize);
            let compact = Compact::for_cells(1 << 28);
            let small = |k: (u64, u64, u32)| (k.0 >> 32, k.1 >> 32, k.2);
            let (a, b) = (small(a), small(b));
            let encoded = |k: (u64, u64, u32)| compact.encode(k.0, k.1, k.2).unwrap();
            assert_eq!(encoded(a).cmp(&encoded(b)), wide(a).cmp(&wide(b)));
            assert_eq!(compact.index(encoded(a)), a.2 as usize);
        }
        assert!(Packed.encode(1 << ESTIMATE_BITS, 0, 0).is_none());
        assert!(Packed.encode(0, 1 << ESTIMATE_BITS, 0).is_none());
        let compact = Compact::for_cells(1000);
        assert_eq!((compact.index_bits, compact.estimate_bits), (10, 27));
        assert!(compact.encode((1 << 27) - 1, (1 << 27) - 1, 999).is_some());
        assert!(compact.encode(1 << 27, 0, 0).is_none());
        assert!(compact.encode(0, 1 << 27, 0).is_none());
    }
}
