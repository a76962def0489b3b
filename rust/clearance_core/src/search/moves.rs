//! Where a search reads its move masks from: the terrain graph's, or those of the graph with
//! other units' blocked anchors removed (`units.rs`).

use super::units::UnitsView;
use crate::paged::PagedVec;

/// The move masks of the graph a search runs on: bit `d` of `mask(a)` set when the step in
/// `DIRECTIONS[d]` from the anchor stored at `a` is legal.
pub(crate) trait MoveMasks: Copy {
    /// Whether the masks are the terrain graph's own (no units to read around).
    const TERRAIN: bool;
    /// The mask of the anchor stored at `anchor`.
    fn mask(&self, anchor: usize) -> u8;
    /// The number of anchors.
    fn len(&self) -> usize;
    /// The other units these masks remove anchors for, if any.
    fn units(&self) -> Option<&UnitsView>;
}

impl MoveMasks for &PagedVec<u8> {
    const TERRAIN: bool = true;
    #[inline(always)]
    fn mask(&self, anchor: usize) -> u8 {
        self[anchor]
    }
    #[inline(always)]
    fn len(&self) -> usize {
        PagedVec::len(self)
    }
    #[inline(always)]
    fn units(&self) -> Option<&UnitsView> {
        None
    }
}

/// The terrain graph's masks with the anchors other units block removed.
#[derive(Clone, Copy)]
pub(crate) struct Unblocked<'a> {
    pub(crate) terrain: &'a PagedVec<u8>,
    pub(crate) units: &'a UnitsView,
}

impl MoveMasks for Unblocked<'_> {
    const TERRAIN: bool = false;
    #[inline(always)]
    fn mask(&self, anchor: usize) -> u8 {
        self.units.unblocked_mask(anchor, self.terrain[anchor])
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.terrain.len()
    }
    #[inline(always)]
    fn units(&self) -> Option<&UnitsView> {
        Some(self.units)
    }
}
