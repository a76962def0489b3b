//! Where the flow-field search keeps its labels (see `search.rs` for what a label holds): in
//! one flat array over the whole map, or in pages taken on first touch, so that the memory of
//! a bounded field follows the anchors it reaches rather than the size of the map.
//!
//! # Pages
//!
//! Pages of consecutive anchors are taken on first touch and found through a [`PageTable`].
//! An untouched label reads as 0, exactly as in a flat array that starts zeroed, and a page
//! is zeroed when taken, so a search reads and writes the same values in the same order on
//! either store: the same field.
//!
//! # Which store
//!
//! Each label read on pages costs a table lookup more than on a flat array, while a flat
//! array costs its whole length in zeroed memory before the first label. A search on pages
//! that takes more than one [`PAGED_SHARE`]th of its map's pages moves to a flat array
//! (`into_flat`: every taken page copied to its place) and goes on there from where it
//! stopped: a field that covers much of its map keeps the speed of a flat array, one that
//! covers little holds about as many pages as it touched, and the lookups a search pays
//! before it moves are bounded by a small share of the map.

use super::page_table::{offset, PageTable, PAGE};
use std::ops::{BitAnd, BitOr, Not, Range, Shl, Shr};

/// A search on pages moves to a flat array once it holds more than this fraction (one in
/// `PAGED_SHARE`) of its map's pages.
pub(super) const PAGED_SHARE: usize = 64;
/// ... or more than this many pages, whichever is more.
const PAGED_AT_LEAST: usize = 16;

/// An unsigned integer that holds a label: `u64` when every cost and step count the search can
/// form fits (nearly always), else `u128`.
pub(super) trait Word:
    Copy
    + Ord
    + Default
    + From<u64>
    + Not<Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// An open entry: a label's (cost, steps) and the anchor, ordered by all three.
    type Entry: Copy + Ord + Default;
    /// Bits for the step count in a label of this width, given the bits the map needs.
    fn hop_bits(needed: u32) -> u32;
    fn entry(key: Self, anchor: usize) -> Self::Entry;
    fn entry_parts(entry: Self::Entry) -> (Self, usize);
    /// Greater than every entry: the front of an empty queue.
    fn empty() -> Self::Entry;
    fn low_bits(self) -> u64;
    /// The field's costs from the final labels, converted in `range` only (0 elsewhere), in
    /// place where the widths allow.
    fn into_costs(
        labels: Vec<Self>,
        range: Range<usize>,
        convert: impl FnMut(usize, Self) -> u64,
    ) -> Vec<u64>;
}

impl Word for u64 {
    type Entry = u128;

    fn hop_bits(needed: u32) -> u32 {
        needed
    }

    fn entry(key: u64, anchor: usize) -> u128 {
        (u128::from(key) << 32) | anchor as u128
    }

    fn entry_parts(entry: u128) -> (u64, usize) {
        ((entry >> 32) as u64, entry as u32 as usize)
    }

    fn empty() -> u128 {
        u128::MAX
    }

    fn low_bits(self) -> u64 {
        self
    }

    fn into_costs(
        mut labels: Vec<u64>,
        range: Range<usize>,
        mut convert: impl FnMut(usize, u64) -> u64,
    ) -> Vec<u64> {
        for index in range {
            labels[index] = convert(index, labels[index]);
        }
        labels
    }
}

impl Word for u128 {
    type Entry = (u128, u32);

    fn hop_bits(_: u32) -> u32 {
        32
    }

    fn entry(key: u128, anchor: usize) -> (u128, u32) {
        (key, anchor as u32)
    }

    fn entry_parts(entry: (u128, u32)) -> (u128, usize) {
        (entry.0, entry.1 as usize)
    }

    fn empty() -> (u128, u32) {
        (u128::MAX, u32::MAX)
    }

    fn low_bits(self) -> u64 {
        self as u64
    }

    fn into_costs(
        labels: Vec<u128>,
        range: Range<usize>,
        mut convert: impl FnMut(usize, u128) -> u64,
    ) -> Vec<u64> {
        let mut costs = vec![0; labels.len()];
        for index in range {
            costs[index] = convert(index, labels[index]);
        }
        costs
    }
}

/// Per-anchor labels as the search reads and writes them.
pub(super) trait LabelStore<W: Word> {
    /// The label of `anchor` (0 if the search has not touched it).
    fn get(&self, anchor: usize) -> W;
    /// The label of `anchor`, for writing.
    fn slot(&mut self, anchor: usize) -> &mut W;
    /// Notes that `anchor` was settled (pages keep the list, to convert only those anchors).
    fn note_settled(&mut self, anchor: usize);
    /// Whether the store holds more than its share of the map: the search should move to a
    /// flat array.
    fn overflowed(&self) -> bool;
}

/// One label per anchor of the map.
pub(super) struct FlatLabels<W>(pub Vec<W>);

impl<W: Word> FlatLabels<W> {
    /// Labels for `anchors` anchors, all 0: allocated zeroed, so untouched parts of a large
    /// array cost no memory until written.
    pub fn new(anchors: usize) -> Self {
        FlatLabels(vec![W::default(); anchors])
    }
}

impl<W: Word> LabelStore<W> for FlatLabels<W> {
    #[inline(always)]
    fn get(&self, anchor: usize) -> W {
        self.0[anchor]
    }

    #[inline(always)]
    fn slot(&mut self, anchor: usize) -> &mut W {
        &mut self.0[anchor]
    }

    #[inline(always)]
    fn note_settled(&mut self, _: usize) {}

    #[inline(always)]
    fn overflowed(&self) -> bool {
        false
    }
}

/// The labels of the pages a search touched (see the module documentation).
pub(super) struct PagedLabels<W> {
    /// Where each page taken is kept.
    pub table: PageTable,
    /// The pages taken, by place (boxed, so that taking one never moves the others).
    pub pages: Vec<Box<[W; PAGE]>>,
    /// The anchors settled, in order.
    pub settled: Vec<u32>,
    /// More pages than this: [`overflowed`](LabelStore::overflowed).
    limit: usize,
}

impl<W: Word> PagedLabels<W> {
    /// No page taken yet, for a map of `anchors` anchors; the store overflows past
    /// one [`PAGED_SHARE`]th of its pages, or [`PAGED_AT_LEAST`] pages.
    pub fn new(anchors: usize) -> Self {
        PagedLabels {
            table: PageTable::new(anchors),
            pages: Vec::new(),
            settled: Vec::new(),
            limit: Self::limit_for(anchors),
        }
    }

    /// How many pages a store for a map of `anchors` anchors takes before it overflows.
    pub fn limit_for(anchors: usize) -> usize {
        (PageTable::pages_for(anchors) / PAGED_SHARE).max(PAGED_AT_LEAST)
    }

    /// The same labels in one flat array over `anchors` anchors.
    pub fn into_flat(self, anchors: usize) -> FlatLabels<W> {
        let mut flat = FlatLabels::new(anchors);
        for (first, place) in self.table.pages() {
            let end = (first + PAGE).min(anchors);
            flat.0[first..end].copy_from_slice(&self.pages[place][..end - first]);
        }
        flat
    }
}

impl<W: Word> LabelStore<W> for PagedLabels<W> {
    #[inline(always)]
    fn get(&self, anchor: usize) -> W {
        match self.table.place(anchor) {
            None => W::default(),
            Some(place) => self.pages[place][offset(anchor)],
        }
    }

    #[inline(always)]
    fn slot(&mut self, anchor: usize) -> &mut W {
        let (place, taken) = self.table.place_or_take(anchor);
        if taken {
            self.pages.push(Box::new([W::default(); PAGE]));
        }
        &mut self.pages[place][offset(anchor)]
    }

    #[inline(always)]
    fn note_settled(&mut self, anchor: usize) {
        self.settled.push(anchor as u32);
    }

    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.pages.len() > self.limit
    }
}
