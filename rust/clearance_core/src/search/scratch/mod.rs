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
/// on a small map): at most twice that in all.
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
    /// Other units, as the last query that counted them saw them (`units.rs`).
    pub(crate) units: super::UnitsView,
    /// The cells under other units, as the last smoothed query that counted them saw them
    /// (a view for agent size 1: `crate::smoothing`).
    pub(crate) unit_cells: super::UnitsView,
    /// Some of the other units: those a query's whole search has met so far
    /// (`units_met.rs`).
    pub(crate) units_met: super::UnitsView,
    /// Whether the last search ran on the flat layout (else paged), so that
    /// [`reached_cost`](Self::reached_cost) reads where it wrote.
    last_flat: bool,
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
            units: super::UnitsView::default(),
            unit_cells: super::UnitsView::default(),
            units_met: super::UnitsView::default(),
            last_flat: false,
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
            + self.unit_cells.memory_bytes()
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

    /// The cost at which the last search on this scratch reached the anchor stored at
    /// `anchor` (in that search's units), if it reached it. Every such cost is the cost of
    /// a path from that search's start: an upper bound on the cheapest.
    pub(super) fn reached_cost(&self, anchor: usize) -> Option<u64> {
        let node = if self.last_flat {
            self.flat.nodes.get(anchor).copied().unwrap_or_default()
        } else {
            self.pages.node(anchor)
        };
        (self.generation > 0 && node.state >= self.generation << GENERATION_SHIFT).then_some(node.g)
    }

    /// Starts a query over `cells` anchors; returns the lowest `state` that means "reached
    /// in this query".
    fn begin(&mut self, cells: usize) -> u32 {
        self.searches_begun = (self.searches_begun + 1).min(self.paged_first);
        self.pages.begin(cells);
        if self.generation == LAST_GENERATION {
            // Every page held is free now; an untouched page reads as state 0.
            for node in self.pages.every_node_mut().chain(&mut self.flat.nodes) {
                node.state = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
        self.open.compact.clear();
        self.open.packed.clear();
        self.open.wide.clear();
        self.generation << GENERATION_SHIFT
    }
}
