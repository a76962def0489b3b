//! Per-anchor search state held by pages that a query takes on first touch, so that memory
//! follows the anchors a search reaches rather than the size of the map.
//!
//! **Layout.** An anchor's storage index splits into a page number (`index >> PAGE_SHIFT`)
//! and an offset in the page (`index & OFFSET_MASK`). The page table holds, per page number,
//! the page itself while the current query has touched it, and nothing otherwise. Reaching an
//! anchor costs one table read and a rarely taken branch (its page is new to the query) beyond
//! a flat array; the offset needs no bounds check, as a page holds exactly `PAGE` entries.
//!
//! **Why pages are boxes.** A query borrows the table as one slice for its whole run
//! ([`AnchorPages::view`]): taking a page fills an entry of the table but never moves the
//! table or any page, so the slice's address and length stay in registers through the inner
//! loop instead of being read again after every possible take.
//!
//! **Reuse between queries.** Each query hands every page it took back to a free list (a table
//! write per page it took, not per anchor of the map) and takes pages again as it touches
//! them, in any order, so the scratch holds as many pages as the largest query touched,
//! wherever on the map it was. A page taken again still holds entries from an earlier query,
//! under an older generation stamp: the scratch's generation rule (`mod.rs`) already reads
//! them as unreached, so nothing is cleared. A new page is zeroed, which also reads as
//! unreached.
//!
//! **Soundness.** Within one query every page number maps to one page, taken once, so two
//! anchors never share an entry; across queries an entry is either stamped by the current
//! query (written in it) or older, exactly as with one flat array. Searches therefore read and
//! write the same values in the same order as over a flat array: same paths, costs and
//! expansion counts.

use super::layout::NodeStore;
use super::{Entry, JumpLink, Node};

/// log2 of the anchors per page.
const PAGE_SHIFT: u32 = 8;
/// Anchors per page.
const PAGE: usize = 1 << PAGE_SHIFT;
const OFFSET_MASK: usize = PAGE - 1;

/// The search state of `PAGE` consecutive anchors: each one's [`Node`] and, for jump-point
/// search, its [`JumpLink`], side by side.
#[derive(Debug, Clone)]
pub(in crate::search) struct Page {
    pub(in crate::search) entries: [Entry; PAGE],
}

impl Page {
    fn zeroed() -> Box<Page> {
        Box::new(Page {
            entries: [Entry::default(); PAGE],
        })
    }
}

/// Pages of a map of `anchors` anchors.
pub(in crate::search) fn pages_for(anchors: usize) -> usize {
    anchors.div_ceil(PAGE)
}

/// The offset of `anchor` within its page.
#[inline(always)]
fn offset(anchor: usize) -> usize {
    anchor & OFFSET_MASK
}

/// [`Node`]s and [`JumpLink`]s of the anchors one query touches.
#[derive(Debug, Clone, Default)]
pub(in crate::search) struct AnchorPages {
    /// Per page number: its page while the current query has touched it.
    table: Vec<Option<Box<Page>>>,
    /// Page numbers the current query took, in the order taken.
    taken: Vec<u32>,
    /// Pages given back by earlier queries, ready to be taken again.
    free: Vec<Box<Page>>,
}

impl AnchorPages {
    /// Gives every page back and gets ready for a query over `anchors` anchors.
    pub(in crate::search) fn begin(&mut self, anchors: usize) {
        for &page in &self.taken {
            if let Some(held) = self.table[page as usize].take() {
                self.free.push(held);
            }
        }
        self.taken.clear();
        self.grow_table(anchors);
    }

    /// Gets ready for a query over `anchors` anchors that keeps every page the last query took
    /// where it is (see `SearchScratch::keep_in_place`): they stay taken, and are given back
    /// with the pages this query takes when the next query begins.
    pub(in crate::search) fn grow_table(&mut self, anchors: usize) {
        let pages = pages_for(anchors);
        if self.table.len() < pages {
            self.table.resize(pages, None);
        }
    }

    /// The table borrowed for one query's inner loop (see the module docs); the query
    /// overflows ([`NodeStore::overflowed`]) once it has taken more than `limit` pages.
    #[inline(always)]
    pub(in crate::search) fn view(&mut self, limit: usize) -> PagesView<'_> {
        PagesView {
            table: &mut self.table,
            taken: &mut self.taken,
            free: &mut self.free,
            limit,
        }
    }

    /// The node of `anchor`; an untouched page's node reads as unreached (the default).
    pub(in crate::search) fn node(&self, anchor: usize) -> Node {
        match self.table.get(anchor >> PAGE_SHIFT) {
            Some(Some(page)) => page.entries[offset(anchor)].node,
            _ => Node::default(),
        }
    }

    /// The jump link of an anchor the current query has touched.
    pub(in crate::search) fn link(&self, anchor: usize) -> JumpLink {
        match self.table.get(anchor >> PAGE_SHIFT) {
            Some(Some(page)) => page.entries[offset(anchor)].link,
            _ => JumpLink::default(),
        }
    }

    /// Every node held, for the generation reset.
    pub(in crate::search) fn every_node_mut(&mut self) -> impl Iterator<Item = &mut Node> + '_ {
        let taken = self.table.iter_mut().flatten();
        taken
            .chain(self.free.iter_mut())
            .flat_map(|page| page.entries.iter_mut().map(|entry| &mut entry.node))
    }

    /// Pages taken by the current (or last) query.
    pub(in crate::search) fn pages_taken(&self) -> usize {
        self.taken.len()
    }

    /// Pages held, taken or free.
    #[cfg(test)]
    fn pages_held(&self) -> usize {
        self.taken.len() + self.free.len()
    }

    /// Bytes held.
    pub(in crate::search) fn memory_bytes(&self) -> usize {
        self.table.capacity() * std::mem::size_of::<Option<Box<Page>>>()
            + self.taken.capacity() * std::mem::size_of::<u32>()
            + self.free.capacity() * std::mem::size_of::<Box<Page>>()
            + (self.taken.len() + self.free.len()) * std::mem::size_of::<Page>()
    }
}

/// The pages of one query, borrowed for its inner loop: the table is a slice that no take
/// moves or resizes.
pub(in crate::search) struct PagesView<'a> {
    table: &'a mut [Option<Box<Page>>],
    taken: &'a mut Vec<u32>,
    free: &'a mut Vec<Box<Page>>,
    limit: usize,
}

impl PagesView<'_> {
    /// The page of `anchor`, taken if the query has not touched it yet.
    #[inline(always)]
    fn page(&mut self, anchor: usize) -> &mut Page {
        let page = anchor >> PAGE_SHIFT;
        let entry = &mut self.table[page];
        if entry.is_none() {
            take(entry, self.free, self.taken, page);
        }
        match entry {
            Some(held) => held,
            None => unreachable!("a page was just taken"),
        }
    }
}

impl NodeStore for PagesView<'_> {
    #[inline(always)]
    fn node(&self, anchor: usize) -> Node {
        match &self.table[anchor >> PAGE_SHIFT] {
            Some(page) => page.entries[offset(anchor)].node,
            None => Node::default(),
        }
    }

    #[inline(always)]
    fn node_mut(&mut self, anchor: usize) -> &mut Node {
        &mut self.page(anchor).entries[offset(anchor)].node
    }

    #[inline(always)]
    fn entry_mut(&mut self, anchor: usize) -> (&mut Node, &mut JumpLink) {
        let Entry { node, link } = &mut self.page(anchor).entries[offset(anchor)];
        (node, link)
    }

    #[inline(always)]
    fn overflowed(&self) -> bool {
        self.taken.len() > self.limit
    }
}

/// Fills the table entry of page number `page` with a free page, or a new zeroed one.
#[cold]
#[inline(never)]
fn take(
    entry: &mut Option<Box<Page>>,
    free: &mut Vec<Box<Page>>,
    taken: &mut Vec<u32>,
    page: usize,
) {
    *entry = Some(free.pop().unwrap_or_else(Page::zeroed));
    taken.push(page as u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_pages_read_as_unreached_and_take_nothing() {
        let mut pages = AnchorPages::default();
        pages.begin(1 << 20);
        assert_eq!(pages.node(12_345).state, 0);
        assert_eq!(pages.pages_held(), 0);
        let mut view = pages.view(usize::MAX);
        view.node_mut(12_345).state = 9;
        view.node_mut(12_346).g = 4;
        assert_eq!(view.node(12_345).state, 9);
        assert_eq!(pages.pages_held(), 1);
        assert_eq!(pages.node(12_345).state, 9);
        assert_eq!(pages.node(12_346).g, 4);
        // Another page of the map, far away: a second page.
        pages.view(usize::MAX).node_mut(900_000).state = 5;
        assert_eq!((pages.pages_held(), pages.pages_taken()), (2, 2));
    }

    #[test]
    fn the_scratch_holds_as_many_pages_as_the_largest_query_touched() {
        let mut pages = AnchorPages::default();
        let anchors = 1 << 22;
        let mut largest = 0;
        for query in 0..50usize {
            pages.begin(anchors);
            // Each query touches `query % 7 + 1` pages somewhere else on the map.
            let touched = query % 7 + 1;
            let mut view = pages.view(usize::MAX);
            for page in 0..touched {
                let anchor = (query * 7919 + page * 104_729) * PAGE % anchors;
                view.node_mut(anchor).state = query as u32;
                view.node_mut(anchor + 1).state = query as u32;
            }
            largest = largest.max(touched);
            assert_eq!(pages.pages_taken(), touched);
            assert_eq!(pages.pages_held(), largest);
            assert!(pages.memory_bytes() >= largest * std::mem::size_of::<Page>());
        }
    }

    #[test]
    fn a_page_taken_again_keeps_the_entries_written_in_its_last_use() {
        // What makes reuse sound is the generation stamp; the pages themselves are not cleared.
        let mut pages = AnchorPages::default();
        pages.begin(4 * PAGE);
        pages.view(usize::MAX).node_mut(3).g = 77;
        pages.begin(4 * PAGE);
        assert_eq!(pages.node(3).g, 0, "an untouched page reads as the default");
        pages.view(usize::MAX).node_mut(2 * PAGE + 3).state = 1;
        assert_eq!(
            pages.node(2 * PAGE + 3).g,
            77,
            "the one free page came back"
        );
    }
}
