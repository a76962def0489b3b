//! Open-list keys from the narrowest that holds a search's costs to the widest, and the
//! scratch layout each runs on.
//!
//! Compact keys (`keys.rs`) fit nearly every search, and run on either layout of the search
//! scratch (`scratch/layout.rs`). A search whose costs outgrow them stops and runs again with
//! packed keys, then with wide ones, which hold any cost; those run paged, since such costs
//! are rare and memory matters more there than speed. Every search that can meet a large cost
//! goes through [`with_wider_keys`], so the order is kept in one place.

use super::keys::{Compact, KeyCodec, Packed, Wide};
use super::scratch::{Flat, Layout, Paged, SearchScratch};

/// A search that runs on any scratch layout with any key type.
pub(super) trait KeyedSearch {
    /// What the search finds.
    type Found;
    /// Runs the search; `None` only if a cost does not fit `K`.
    fn run<L: Layout, K: KeyCodec>(
        &self,
        scratch: &mut SearchScratch,
        keys: K,
    ) -> Option<Self::Found>;
}

/// Runs `search` over a graph of `anchors` anchors with compact keys on either layout, then,
/// while a cost does not fit, with packed and with wide keys.
pub(super) fn with_wider_keys<S: KeyedSearch>(
    scratch: &mut SearchScratch,
    anchors: usize,
    search: &S,
) -> S::Found {
    let compact = Compact::for_cells(anchors);
    scratch
        .on_either_layout(
            anchors,
            |scratch| search.run::<Paged, _>(scratch, compact),
            |scratch| search.run::<Flat, _>(scratch, compact),
        )
        .or_else(|| search.run::<Paged, _>(scratch, Packed))
        .or_else(|| search.run::<Paged, _>(scratch, Wide))
        .expect("wide keys hold any cost")
}
