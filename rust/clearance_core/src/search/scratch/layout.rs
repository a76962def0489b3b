//! Two layouts of the same per-anchor search state, chosen per query, so that memory follows
//! the searches and the inner loops keep the speed of a flat array where a search covers
//! much of its map.
//!
//! - [`Paged`]: pages taken on first touch (`pages.rs`). A short search on a huge map holds
//!   only the pages it touched; each read costs a table lookup more than a flat array.
//! - [`Flat`]: one entry per anchor of the map in one array, indexed directly.
//!
//! A search runs flat when the flat arrays for its map take at most [`FLAT_BUDGET`] bytes,
//! or when the scratch already holds flat arrays that large. Otherwise it runs paged, and a
//! paged search with compact keys that takes more than a quarter of its map's pages stops
//! ([`NodeStore::overflowed`]): the scratch then grows flat arrays for maps of that size,
//! and the query runs again on them from the start. The flat arrays are then at most four
//! times what the search that asked for them had already reached (a quarter of the pages),
//! so a scratch holds at most [`FLAT_BUDGET`] or four times its largest search, never memory
//! in proportion to a large map that its searches did not cover.
//!
//! Both layouts store the same values for the same anchors and the search code is the same
//! (generic over [`NodeStore`]), so a query finds the same path, cost and expansion count on
//! either; running it again from the start after an overflow changes nothing but the time.

use super::pages::PagesView;
use super::{Entry, JumpLink, Node, OpenLists, SearchScratch};

/// Flat arrays up to this size are taken without waiting for a search to cover a quarter of
/// its map: 8 MiB, the most a thread's search memory should take after short queries on a
/// huge map (4096 x 4096: 400 MB flat).
pub(in crate::search) const FLAT_BUDGET: usize = 8 << 20;

/// Per-anchor search state, as a search reads and writes it.
pub(in crate::search) trait NodeStore {
    /// The node of `anchor`; one the query has not touched reads as unreached (the default).
    fn node(&self, anchor: usize) -> Node;
    /// The node of `anchor`, for writing.
    fn node_mut(&mut self, anchor: usize) -> &mut Node;
    /// The node and jump link of `anchor`, for writing.
    fn entry_mut(&mut self, anchor: usize) -> (&mut Node, &mut JumpLink);
    /// Whether the search has taken more memory than its layout allows: it should stop and
    /// run again on the flat layout.
    fn overflowed(&self) -> bool;
}

/// Where a search keeps its per-anchor state.
pub(in crate::search) trait Layout {
    /// The state, borrowed for one search.
    type Store<'a>: NodeStore;
    /// Starts a search over `anchors` anchors: the state, the open lists, and the stamps
    /// `(previous, reached)`: `reached` is the lowest node `state` that means "reached in this
    /// search", and a node whose `state` lies in `previous..reached` holds the cost at which
    /// the last search reached it (an empty range unless
    /// [`SearchScratch::keep_in_place`] asked for it).
    fn begin(
        scratch: &mut SearchScratch,
        anchors: usize,
    ) -> (Self::Store<'_>, &mut OpenLists, (u32, u32));
    /// The node of `anchor` as the last search on this layout left it.
    fn node(scratch: &SearchScratch, anchor: usize) -> Node;
    /// The jump link of `anchor` as the last search on this layout left it.
    fn link(scratch: &SearchScratch, anchor: usize) -> JumpLink;
}

/// Pages taken on first touch; with compact keys a search overflows past a quarter of the
/// map's pages.
pub(in crate::search) struct Paged;

/// One flat array for the whole map.
pub(in crate::search) struct Flat;

impl Layout for Paged {
    type Store<'a> = PagesView<'a>;

    #[inline(always)]
    fn begin(
        scratch: &mut SearchScratch,
        anchors: usize,
    ) -> (PagesView<'_>, &mut OpenLists, (u32, u32)) {
        let reached = scratch.begin(anchors);
        let limit = scratch.page_limit;
        let SearchScratch { pages, open, .. } = scratch;
        (pages.view(limit), open, reached)
    }

    fn node(scratch: &SearchScratch, anchor: usize) -> Node {
        scratch.pages.node(anchor)
    }

    fn link(scratch: &SearchScratch, anchor: usize) -> JumpLink {
        scratch.pages.link(anchor)
    }
}

/// Per-anchor state of every anchor of a map, in one flat array.
#[derive(Debug, Clone, Default)]
pub(in crate::search) struct FlatNodes {
    pub(super) entries: Vec<Entry>,
}

impl FlatNodes {
    /// Whether the arrays hold a map of `anchors` anchors.
    pub(super) fn holds(&self, anchors: usize) -> bool {
        self.entries.len() >= anchors
    }

    /// Bytes the array takes for a map of `anchors` anchors.
    pub(super) fn bytes_for(anchors: usize) -> usize {
        anchors * std::mem::size_of::<Entry>()
    }

    /// Grows the array to `anchors` entries; new entries read as unreached.
    pub(super) fn grow(&mut self, anchors: usize) {
        if self.entries.len() < anchors {
            self.entries.resize(anchors, Entry::default());
        }
    }

    /// Bytes held.
    pub(super) fn memory_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
    }
}

/// The flat array of one search, cut to its map.
pub(in crate::search) struct FlatView<'a> {
    entries: &'a mut [Entry],
}

impl Layout for Flat {
    type Store<'a> = FlatView<'a>;

    #[inline(always)]
    fn begin(
        scratch: &mut SearchScratch,
        anchors: usize,
    ) -> (FlatView<'_>, &mut OpenLists, (u32, u32)) {
        let reached = scratch.begin(anchors);
        scratch.flat.grow(anchors);
        let SearchScratch { flat, open, .. } = scratch;
        let view = FlatView {
            entries: &mut flat.entries[..anchors],
        };
        (view, open, reached)
    }

    fn node(scratch: &SearchScratch, anchor: usize) -> Node {
        scratch.flat.entries[anchor].node
    }

    fn link(scratch: &SearchScratch, anchor: usize) -> JumpLink {
        scratch.flat.entries[anchor].link
    }
}

impl NodeStore for FlatView<'_> {
    #[inline(always)]
    fn node(&self, anchor: usize) -> Node {
        self.entries[anchor].node
    }

    #[inline(always)]
    fn node_mut(&mut self, anchor: usize) -> &mut Node {
        &mut self.entries[anchor].node
    }

    #[inline(always)]
    fn entry_mut(&mut self, anchor: usize) -> (&mut Node, &mut JumpLink) {
        let Entry { node, link } = &mut self.entries[anchor];
        (node, link)
    }

    #[inline(always)]
    fn overflowed(&self) -> bool {
        false
    }
}
