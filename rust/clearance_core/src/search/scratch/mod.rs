//! Reusable per-anchor search memory, stamped with generations so that nothing proportional
//! to the map is cleared per query, and held in pages taken on first touch (`pages.rs`), or
//! in flat arrays once a search covers much of its map (`layout.rs`), so that it grows with
//! the searches rather than with the map.

mod layout;
mod pages;

use super::keys::{PackedKey, WideKey};
use crate::heap::IndexedHeap;
use layout::FlatNodes;
pub(super) use layout::{Flat, Layout, NodeStore, Paged};
use pages::AnchorPages;

/// Reusable memory for path queries: per-anchor costs, parents and stamps, and the open list.
///
/// One scratch serves any number of queries, on any maps, one query at a time. Threads that
/// query the same map at once each use their own scratch;
/// [`PathMap::find_path`](crate::PathMap::find_path) keeps one per thread for you.
///
/// Memory follows the searches, not the map: a query takes per-anchor state by pages of
/// neighbouring anchors as it first touches them and gives them all back to the scratch
/// when the next query begins, so a scratch holds about as much as its largest search
/// reached, plus a page table of 8 bytes per 256 anchors of the largest map it searched.
/// On maps small enough that flat arrays for them take at most 8 MiB, and once a search
/// takes more than a quarter of its map's pages, the scratch keeps flat arrays for maps of
/// that size instead, which spare the inner loops a table lookup per anchor: a scratch holds
/// at most 8 MiB or four times what its largest search reached (see `layout.rs`). A query
/// that counts other units keeps its search as if alone in a second such memory, held inside
/// this one, so that its later searches can read it (on pages for its first searches, even
/// on a small map); its whole search runs there too, keeping the alone search's pages in
/// place, so that memory holds the pages of both: at most twice that in all, and within the
/// same quarter of the map's pages before it turns flat. Views of other units (four sets of
/// bits as large as the map each, about 2 MiB on a 2048 x 2048 map) are kept for the last
/// four agent sizes that counted units, and as many for the units a whole search meets.
/// [`trim`](Self::trim) gives everything back.
///
/// ```
/// use clearance_core::{AgentProfile, Cell, PathMap, Region, SearchScratch, TerrainGrid};
///
/// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 8), 0)?);
/// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.0)?)?;
/// let mut scratch = SearchScratch::new();
/// for goal in [Cell::new(7, 7), Cell::new(0, 7)] {
///     let result = map.find_path_with(&mut scratch, Cell::new(0, 0), goal, 1, "walker");
///     assert!(result.is_ok());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct SearchScratch {
    /// Per-anchor [`Node`]s and [`JumpLink`]s in pages taken on first touch (`pages.rs`)...
    pages: AnchorPages,
    /// ...or in flat arrays, once a search covered much of a map (`layout.rs`).
    flat: FlatNodes,
    /// Pages a paged search may take before it overflows.
    page_limit: usize,
    pub(super) open: OpenLists,
    generation: u32,
    /// Other units, as the last queries that counted them saw them, one view per agent size
    /// (`units/kept.rs`).
    pub(crate) units: super::KeptViews,
    /// What the last smoothed query worked in: the cells under other units as it saw them,
    /// and its turns and waypoints (`crate::smoothing`).
    pub(crate) smoothing: crate::smoothing::SmoothingMemory,
    /// Some of the other units: those a query's whole search has met so far
    /// (`units_met.rs`), one view per agent size.
    pub(crate) units_met: super::KeptViews,
    /// Whether the next search keeps the last one's nodes in place
    /// ([`keep_in_place`](Self::keep_in_place)).
    keep_in_place: bool,
    /// Searches that run paged until one overflows, even on maps whose flat arrays would fit
    /// [`layout::FLAT_BUDGET`], before such maps get flat arrays at once: 0, or
    /// [`PAGED_WARM_UP`] for memory that is often made for a few searches (`alone_search`).
    paged_first: u32,
    /// Searches begun, up to `paged_first`.
    searches_begun: u32,
    /// The memory of the search as if alone that a query counting other units runs first,
    /// kept through its detours so that its whole search can read the costs it found
    /// (`detours.rs`, `incumbent.rs`).
    pub(super) alone_search: Option<Box<SearchScratch>>,
}

/// One open list per key representation (see `keys.rs`); a query uses one of them.
#[derive(Debug, Clone, Default)]
pub(super) struct OpenLists {
    pub(super) compact: IndexedHeap<u64>,
    pub(super) packed: IndexedHeap<PackedKey>,
    pub(super) wide: IndexedHeap<WideKey>,
    /// Movement ranges: `label << 32 | index` (`range.rs`).
    pub(super) range: IndexedHeap<u128>,
}

/// Search state of one anchor, 16 bytes. `state` packs `generation << 3 | direction`: an
/// anchor whose generation is older than the query's is unreached (its other fields are
/// stale); `direction` is the step by which its parent reached it.
///
/// There is no closed flag. With a consistent heuristic an expanded anchor's cost is already
/// optimal, so no later relaxation can lower it, and the ordinary "is this cheaper?" test
/// turns every step into an expanded anchor away. Dropping the flag removes the least
/// predictable branch of the inner loop.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Node {
    pub(super) g: u64,
    /// Where the anchor's entry sits in the open list, while it is open.
    pub(super) slot: u32,
    pub(super) state: u32,
}

impl Node {
    /// For a node the current search has not reached yet, the cost at which the last search
    /// reached it, if that search's nodes were kept in place for this one: its stamp is at
    /// least `previous`, the first stamp of [`Layout::begin`]'s range (see
    /// [`SearchScratch::keep_in_place`]).
    #[inline(always)]
    pub(super) fn kept_cost(self, previous: u32) -> Option<u64> {
        (self.state >= previous).then_some(self.g)
    }
}

/// What jump-point search keeps per jump point beside its [`Node`], valid while the node is
/// reached in the current query.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct JumpLink {
    /// The jump point this one was first reached from at its current cost.
    pub(super) parent: u32,
    /// Directions still to scan from here: the successors of every arrival at the current
    /// cost, less those already scanned.
    pub(super) pending: u8,
    /// Directions already scanned from here.
    pub(super) scanned: u8,
}

/// An anchor's [`Node`] and [`JumpLink`] side by side, 24 bytes: a search that arrives at an
/// anchor reads the node and, when the arrival is kept, writes both, so keeping them together
/// makes that one cache line where two arrays made it two.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Entry {
    pub(super) node: Node,
    pub(super) link: JumpLink,
}

/// Searches a scratch made by [`SearchScratch::for_alone_searches`] runs paged before it
/// takes flat arrays for a small map: enough to outlast a batch's share of queries, few next
/// to the queries a long-lived scratch serves.
const PAGED_WARM_UP: u32 = 256;

pub(super) const GENERATION_SHIFT: u32 = 3;
pub(super) const DIRECTION_MASK: u32 = 0b111;
const LAST_GENERATION: u32 = u32::MAX >> GENERATION_SHIFT;

impl Default for SearchScratch {
    fn default() -> Self {
        SearchScratch {
            pages: AnchorPages::default(),
            flat: FlatNodes::default(),
            page_limit: usize::MAX,
            open: OpenLists::default(),
            generation: 0,
            units: super::KeptViews::default(),
            smoothing: crate::smoothing::SmoothingMemory::default(),
            units_met: super::KeptViews::default(),
            keep_in_place: false,
            paged_first: 0,
            searches_begun: 0,
            alone_search: None,
        }
    }
}

impl SearchScratch {
    /// Empty scratch; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes of memory held.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, Region, SearchScratch, TerrainGrid};
    ///
    /// // 4 million anchors; a wall makes the query search rather than walk straight.
    /// let mut grid = TerrainGrid::new(Region::new(0, 0, 2048, 2048), 0)?;
    /// grid.fill_rect(Region::new(15, 0, 1, 12), 1)?;
    /// let mut map = PathMap::new(grid);
    /// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.0)?)?;
    /// let mut scratch = SearchScratch::new();
    /// let result = map.find_path_with(&mut scratch, Cell::new(9, 9), Cell::new(20, 4), 1, "walker");
    /// assert!(result.is_ok());
    /// assert!(result.expanded > 0 && scratch.memory_bytes() > 0);
    /// // A short trip holds far less than one byte per anchor of the map.
    /// assert!(scratch.memory_bytes() < 2048 * 2048 / 8);
    /// scratch.trim();
    /// assert_eq!(scratch.memory_bytes(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory_bytes(&self) -> usize {
        self.pages.memory_bytes()
            + self.flat.memory_bytes()
            + self.open.compact.memory_bytes()
            + self.open.packed.memory_bytes()
            + self.open.wide.memory_bytes()
            + self.open.range.memory_bytes()
            + self.units.memory_bytes()
            + self.smoothing.memory_bytes()
            + self.units_met.memory_bytes()
            + (self.alone_search.as_ref()).map_or(0, |alone| alone.memory_bytes())
    }

    /// Gives back all the memory held; the scratch stays usable and grows again on use.
    pub fn trim(&mut self) {
        *self = SearchScratch {
            paged_first: self.paged_first,
            ..Self::new()
        };
    }

    /// Runs a search on the layout that suits this scratch and a map of `anchors` anchors
    /// (`layout.rs`): `flat` if the scratch holds flat arrays that large, else `paged`, and
    /// if that overflows, `flat` after growing them. `None` if the search's keys are too
    /// narrow for its costs.
    pub(super) fn on_either_layout<T>(
        &mut self,
        anchors: usize,
        paged: impl FnOnce(&mut Self) -> Option<T>,
        flat: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<T> {
        // `Flat::begin` grows the arrays to the map, if they are smaller.
        let small = FlatNodes::bytes_for(anchors) <= layout::FLAT_BUDGET;
        let warm = self.searches_begun >= self.paged_first;
        if self.flat.holds(anchors) || (small && warm) {
            return flat(self);
        }
        self.page_limit = pages::pages_for(anchors) / 4;
        let outcome = paged(self);
        let overflowed = outcome.is_none() && self.pages.pages_taken() > self.page_limit;
        self.page_limit = usize::MAX;
        if overflowed {
            flat(self)
        } else {
            outcome
        }
    }

    /// An empty scratch for the searches as if alone of queries that count other units.
    /// Its first [`PAGED_WARM_UP`] searches run paged (unless one overflows): threaded
    /// batches make a scratch per helper thread and call, and flat arrays for a whole map, taken
    /// page by page from the system, would cost those few searches more than they save.
    pub(super) fn for_alone_searches() -> Self {
        SearchScratch {
            paged_first: PAGED_WARM_UP,
            ..Self::default()
        }
    }

    /// How many searches began on this scratch, wrapping (a search ran in between iff it
    /// changed).
    pub(super) fn generation(&self) -> u32 {
        self.generation
    }

    /// Makes the next search on this scratch begin without giving back the last search's
    /// memory, so that every node the last search reached still holds, until the next search
    /// first writes it, the cost at which the last search reached it, stamped with the last
    /// search's generation: [`Layout::begin`] returns that stamp as `previous`. The next
    /// search finds that memory warm, and the bound of `incumbent.rs` reads the costs there.
    ///
    /// Only the next search to begin keeps it, and only if it begins on the layout the last
    /// search ran on (no node of the other layout carries the last search's stamp, so there
    /// it reads nothing). Any later search gives everything back as usual, as does a search
    /// that starts over with wider keys, and their `previous` is their own `reached`: no
    /// node lies between. On a scratch that has run no search yet there is nothing to keep,
    /// and the range is empty too.
    pub(super) fn keep_in_place(&mut self) {
        self.keep_in_place = true;
    }

    /// Clears a request of [`keep_in_place`](Self::keep_in_place) that no search took.
    pub(super) fn forget_in_place(&mut self) {
        self.keep_in_place = false;
    }

    /// Starts a query over `cells` anchors; returns the stamps `(previous, reached)`:
    /// `reached` is the lowest `state` that means "reached in this query", and a node whose
    /// `state` lies in `previous..reached` holds the cost at which the last search reached
    /// it (see [`keep_in_place`](Self::keep_in_place); an empty range unless it was asked).
    fn begin(&mut self, cells: usize) -> (u32, u32) {
        self.searches_begun = (self.searches_begun + 1).min(self.paged_first);
        // Before any search there is nothing to keep (every node reads as state 0), and the
        // generation reset below clears every stamp, the last search's among them.
        let wraps = self.generation == LAST_GENERATION;
        let in_place = std::mem::take(&mut self.keep_in_place) && self.generation > 0 && !wraps;
        if in_place {
            self.pages.grow_table(cells);
        } else {
            self.pages.begin(cells);
        }
        if wraps {
            for node in self
                .pages
                .every_node_mut()
                .chain(self.flat.entries.iter_mut().map(|entry| &mut entry.node))
            {
                node.state = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
        self.open.compact.clear();
        self.open.packed.clear();
        self.open.wide.clear();
        let reached = self.generation << GENERATION_SHIFT;
        let previous = if in_place {
            (self.generation - 1) << GENERATION_SHIFT
        } else {
            reached
        };
        (previous, reached)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;
    use std::collections::HashMap;

    /// Stands in for a search on layout `L`: begins one and writes, as a search would, each
    /// of `count` random anchors reached at a random cost. Returns what it wrote and the
    /// nodes that its begin found in `previous..reached` (anchor, cost).
    fn search_on<L: Layout>(
        scratch: &mut SearchScratch,
        anchors: usize,
        rng: &mut TestRng,
        count: usize,
    ) -> (HashMap<usize, u64>, HashMap<usize, u64>) {
        let (mut store, _, (previous, reached)) = L::begin(scratch, anchors);
        assert!(previous <= reached);
        let in_place: HashMap<usize, u64> = (0..anchors)
            .map(|anchor| (anchor, store.node(anchor)))
            .filter(|(_, node)| (previous..reached).contains(&node.state))
            .map(|(anchor, node)| (anchor, node.g))
            .collect();
        let mut written = HashMap::new();
        for _ in 0..count {
            let anchor = rng.below(anchors);
            let g = rng.below(1_000_000u64);
            let direction = rng.below(8u32);
            let node = store.node_mut(anchor);
            node.g = g;
            node.state = reached | direction;
            written.insert(anchor, g);
        }
        (written, in_place)
    }

    #[test]
    fn a_search_kept_in_place_reads_exactly_the_last_search_s_costs() {
        let mut rng = TestRng(51);
        // Several pages, so that pages given back are taken again for other page numbers.
        let anchors = 40 * 256 + 17;
        let mut checked = 0;
        for round in 0..40 {
            let mut scratch = SearchScratch::new();
            let flat_first = round % 2 == 0;
            let run = |scratch: &mut SearchScratch, flat: bool, rng: &mut TestRng| {
                let count = 1 + rng.below(3000);
                if flat {
                    search_on::<Flat>(scratch, anchors, rng, count)
                } else {
                    search_on::<Paged>(scratch, anchors, rng, count)
                }
            };
            // Earlier searches on both layouts leave stale nodes behind.
            for _ in 0..3 {
                run(&mut scratch, rng.below(2) == 0, &mut rng);
            }
            let (last, _) = run(&mut scratch, flat_first, &mut rng);
            scratch.keep_in_place();
            let (_, in_place) = run(&mut scratch, flat_first, &mut rng);
            assert_eq!(
                in_place, last,
                "round {round}: the last search's nodes, in place"
            );
            checked += in_place.len();
            // Only the next search keeps them; the one after reads no range at all.
            let (_, none) = run(&mut scratch, flat_first, &mut rng);
            assert!(none.is_empty(), "round {round}");
            // A search on the other layout finds none of the last search's stamps.
            scratch.keep_in_place();
            let (_, other) = run(&mut scratch, !flat_first, &mut rng);
            assert!(other.is_empty(), "round {round}: the other layout");
            // Nor does a request that no search took leak into a later search.
            scratch.keep_in_place();
            scratch.forget_in_place();
            let (_, forgotten) = run(&mut scratch, !flat_first, &mut rng);
            assert!(forgotten.is_empty(), "round {round}: forgotten");
        }
        assert!(checked > 10_000, "{checked} nodes checked");
    }

    #[test]
    fn a_search_kept_in_place_across_the_generation_reset_reads_nothing() {
        let mut rng = TestRng(52);
        let anchors = 3 * 256;
        for flat in [false, true] {
            let mut scratch = SearchScratch::new();
            scratch.generation = LAST_GENERATION - 1;
            let run = |scratch: &mut SearchScratch, rng: &mut TestRng| {
                if flat {
                    search_on::<Flat>(scratch, anchors, rng, 500)
                } else {
                    search_on::<Paged>(scratch, anchors, rng, 500)
                }
            };
            let (_, _) = run(&mut scratch, &mut rng);
            scratch.keep_in_place();
            // This search resets every stamp: the last search's costs are gone.
            let (_, in_place) = run(&mut scratch, &mut rng);
            assert!(in_place.is_empty(), "flat {flat}");
            assert_eq!(scratch.generation, 1);
        }
    }
}
