//! Per-anchor search state held by pages that a query takes on first touch, so that memory
//! follows the anchors a search reaches rather than the size of the map.
//!
//! **Layout.** An anchor's storage index splits into a page number (`index >> PAGE_SHIFT`)
//! and an offset in the page (`index & OFFSET_MASK`). The page table maps each page number to
//! the start of its page in one pool of entries, or to [`NO_PAGE`] while the current query has
//! not touched it. Reaching an anchor costs one table read, a shift and a mask beyond a flat
//! array, and a rarely taken branch when its page is new to the query.
//!
//! **Reuse between queries.** Each query gives every pool page back (a table write per page it
//! took, not per anchor of the map) and takes pages again as it touches them, in any order, so
//! the pool holds as many pages as the largest query touched, wherever on the map it was.
//! A page taken again still holds entries from an earlier query, under an older generation
//! stamp: the scratch's generation rule (`mod.rs`) already reads them as unreached, so nothing
//! is cleared. A page the pool adds is zeroed, which also reads as unreached.
//!
//! **Soundness.** Within one query every page number maps to one pool page, taken once, so
//! two anchors never share an entry; across queries an entry is either stamped by the current
//! query (written in it) or older, exactly as with one flat array. Searches therefore read and
//! write the same values in the same order as over a flat array: same paths, costs and
//! expansion counts.

use super::{JumpLink, Node};

/// log2 of the anchors per page.
const PAGE_SHIFT: u32 = 8;
/// Anchors per page.
const PAGE: usize = 1 << PAGE_SHIFT;
const OFFSET_MASK: usize = PAGE - 1;
/// A page table entry for a page the current query has not touched.
const NO_PAGE: u32 = u32::MAX;

/// [`Node`]s, and for jump-point search [`JumpLink`]s, of the anchors one query touches.
#[derive(Debug, Clone, Default)]
pub(in crate::search) struct AnchorPages {
    /// Per page number: where its page starts in `nodes` (and `links`), or [`NO_PAGE`].
    table: Vec<u32>,
    /// Per pool page taken by the current query, in the order taken: its page number.
    taken: Vec<u32>,
    /// The pool: `PAGE` entries per pool page.
    pub(in crate::search) nodes: Vec<Node>,
    /// Beside `nodes`, entry for entry, while a jump-point search runs; may be shorter
    /// otherwise (a plain search does not extend it).
    pub(in crate::search) links: Vec<JumpLink>,
    /// The current query keeps `links` as long as `nodes`.
    with_links: bool,
}

impl AnchorPages {
    /// Gives every page back and gets ready for a query over `anchors` anchors, with
    /// [`JumpLink`]s if `with_links`.
    pub(in crate::search) fn begin(&mut self, anchors: usize, with_links: bool) {
        for &page in &self.taken {
            self.table[page as usize] = NO_PAGE;
        }
        self.taken.clear();
        let pages = anchors.div_ceil(PAGE);
        if self.table.len() < pages {
            self.table.resize(pages, NO_PAGE);
        }
        self.with_links = with_links;
        if with_links && self.links.len() < self.nodes.len() {
            self.links.resize(self.nodes.len(), JumpLink::default());
        }
    }

    /// Where the entries of `anchor` sit in `nodes` (and `links`), taking its page if the
    /// query has not touched it yet.
    #[inline(always)]
    pub(in crate::search) fn slot(&mut self, anchor: usize) -> usize {
        let page = anchor >> PAGE_SHIFT;
        let start = match self.table[page] {
            NO_PAGE => self.take(page),
            start => start,
        };
        start as usize | anchor & OFFSET_MASK
    }

    /// The node of `anchor`; an untouched page's node reads as unreached (the default).
    #[inline(always)]
    pub(in crate::search) fn node(&self, anchor: usize) -> Node {
        match self.table.get(anchor >> PAGE_SHIFT) {
            Some(&start) if start != NO_PAGE => self.nodes[start as usize | anchor & OFFSET_MASK],
            _ => Node::default(),
        }
    }

    /// The node of `anchor`, its page taken if need be.
    #[inline(always)]
    pub(in crate::search) fn node_mut(&mut self, anchor: usize) -> &mut Node {
        let slot = self.slot(anchor);
        &mut self.nodes[slot]
    }

    /// The jump link of an anchor the current query has touched.
    pub(in crate::search) fn link(&self, anchor: usize) -> JumpLink {
        let start = self.table[anchor >> PAGE_SHIFT];
        debug_assert_ne!(start, NO_PAGE);
        self.links[start as usize | anchor & OFFSET_MASK]
    }

    /// Takes a pool page for page number `page`, adding one to the pool if every page is
    /// taken; returns where it starts.
    #[cold]
    #[inline(never)]
    fn take(&mut self, page: usize) -> u32 {
        let start = self.taken.len() * PAGE;
        if start == self.nodes.len() {
            self.nodes.resize(start + PAGE, Node::default());
        }
        if self.with_links && self.links.len() < start + PAGE {
            self.links.resize(start + PAGE, JumpLink::default());
        }
        self.taken.push(page as u32);
        self.table[page] = start as u32;
        start as u32
    }

    /// Every node in the pool, for the generation reset.
    pub(in crate::search) fn pool_mut(&mut self) -> &mut [Node] {
        &mut self.nodes
    }

    /// Pool pages taken by the current (or last) query.
    #[cfg(test)]
    pub(in crate::search) fn pages_taken(&self) -> usize {
        self.taken.len()
    }

    /// Bytes held.
    pub(in crate::search) fn memory_bytes(&self) -> usize {
        self.table.capacity() * std::mem::size_of::<u32>()
            + self.taken.capacity() * std::mem::size_of::<u32>()
            + self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.links.capacity() * std::mem::size_of::<JumpLink>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_pages_read_as_unreached_and_take_nothing() {
        let mut pages = AnchorPages::default();
        pages.begin(1 << 20, false);
        assert_eq!(pages.node(12_345).state, 0);
        assert_eq!(pages.nodes.len(), 0);
        pages.node_mut(12_345).state = 9;
        pages.node_mut(12_346).g = 4;
        assert_eq!(pages.nodes.len(), PAGE);
        assert_eq!(pages.node(12_345).state, 9);
        assert_eq!(pages.node(12_346).g, 4);
        // Another page of the map, far away: a second pool page.
        pages.node_mut(900_000).state = 5;
        assert_eq!((pages.nodes.len(), pages.pages_taken()), (2 * PAGE, 2));
    }

    #[test]
    fn the_pool_holds_as_many_pages_as_the_largest_query_touched() {
        let mut pages = AnchorPages::default();
        let anchors = 1 << 22;
        let mut largest = 0;
        for query in 0..50usize {
            pages.begin(anchors, query % 2 == 0);
            // Each query touches `query % 7 + 1` pages somewhere else on the map.
            let touched = query % 7 + 1;
            for page in 0..touched {
                let anchor = (query * 7919 + page * 104_729) * PAGE % anchors;
                pages.node_mut(anchor).state = query as u32;
                pages.node_mut(anchor + 1).state = query as u32;
            }
            largest = largest.max(touched);
            assert_eq!(pages.pages_taken(), touched);
            assert_eq!(pages.nodes.len(), largest * PAGE);
            if query % 2 == 0 {
                assert_eq!(pages.links.len(), pages.nodes.len());
            }
        }
    }

    #[test]
    fn a_page_taken_again_keeps_the_entries_written_in_its_last_use() {
        // What makes reuse sound is the generation stamp; the pages themselves are not cleared.
        let mut pages = AnchorPages::default();
        pages.begin(4 * PAGE, false);
        pages.node_mut(3).g = 77;
        pages.begin(4 * PAGE, false);
        assert_eq!(pages.node(3).g, 0, "an untouched page reads as the default");
        pages.node_mut(2 * PAGE + 3).state = 1;
        assert_eq!(
            pages.node(2 * PAGE + 3).g,
            77,
            "the one pool page came back"
        );
    }
}
