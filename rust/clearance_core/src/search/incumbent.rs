//! Cutting a search with other units short against a path already in hand.
//!
//! A query that counts other units first searches as if alone, then tries detours round the
//! units its path crosses (`detours.rs`). When every detour finds a path but some cost more
//! than the stretch they replace, the spliced path is a path with the units that costs `U`,
//! above the alone optimum `C0`: an *incumbent*. The whole search with the units that follows
//! only has to find a path cheaper than `U`, or show that none exists, so it may drop every
//! arrival that no such path makes.
//!
//! # The bound
//!
//! Write `d` for costs without the units and `d_u` for costs with them. The units only remove
//! anchors (`Block`; never the start) or raise what entering them costs (`Cost`), so
//! `d_u >= d` between any two anchors. The search as if alone, from the same start, left at
//! each anchor `n` it reached the cost `a(n)` of some path to `n` without the units, so
//! `a(n) >= d(s, n)`. By the triangle inequality `C0 = d(s, g) <= d(s, n) + d(n, g) <= a(n) +
//! d(n, g)`, hence
//!
//! ```text
//! d_u(n, g) >= d(n, g) >= C0 - a(n).
//! ```
//!
//! A path with the units that reaches `n` at cost `c` costs at least `c + C0 - a(n)` by the
//! goal. When that is `U` or more, the arrival leads to nothing cheaper than the incumbent,
//! and the search drops it: it neither records `n` at `c` nor queues it. So it does when the
//! search's own heuristic `h`, a lower bound on `d_u(n, g)` too, gives `c + h(n) >= U`: the
//! second test is what ends the search when nothing beats the incumbent, since the first
//! leaves alone the anchors the alone search never reached.
//!
//! # Why the search stays exact
//!
//! The test depends only on the anchor and the cost of the arrival, and a cheaper arrival is
//! never dropped where a dearer one is kept. On a path with the units that costs `C < U`,
//! every anchor `n` is reached at its cost `c` along the path, and both `c + C0 - a(n)` and
//! `c + h(n)` are at most `c + d_u(n, g) <= C < U` (the rest of the path costs at least
//! `d_u(n, g)`), so no arrival the path makes is dropped, nor any other arrival at the same anchor and cost. The rules that
//! let a search skip work (the successors a jump point adds for each arrival at its cost, the
//! steps plain A* leaves to the parent) therefore see along such a path all they see without
//! the bound: a step they skip from `n` would reach an anchor at no less than its parent
//! reached it, and is dropped there if it would be dropped here. So the search finds an
//! optimal path whenever one costs less than `U`; if it runs out of anchors instead, no path
//! costs less than `U`, and the incumbent is optimal. Anchors the alone search did not reach
//! have no bound and are never dropped.
//!
//! On a graph where every step costs the same both ways, `detours.rs` may run the search with
//! the units from the goal to the start: the same argument holds with the two ends exchanged,
//! `a(n)` then read from a search as if alone from the goal.
//!
//! # Where `a(n)` is read
//!
//! The search with the units runs on the memory of the search as if alone, which keeps its
//! nodes in place for it (`SearchScratch::keep_in_place`): until the search with the units
//! first writes an anchor's node, the node still holds `a(n)`, stamped with the alone search's
//! generation. Only a first arrival is ever tested (a kept one is written at once, and every
//! cheaper arrival after it would be kept too, by the monotony above), and the node it finds
//! is still the alone search's, so every test reads `a(n)` where the alone search reached `n`
//! and nothing where it did not. A search that cannot keep the memory in place (one that
//! starts over with wider keys, say) reads no `a(n)` at all, which drops fewer arrivals and
//! stays exact. Reading the node the search reads anyway costs no second lookup, and the
//! alone search has just warmed that memory.

use super::UnitCostScale;
use crate::graph::AnchorGraph;
use crate::occupancy::OtherUnits;

/// The bound of the module docs for one search with the units, in that search's units.
pub(crate) struct Incumbent {
    /// How many units of the search with the units one unit of the alone search is.
    scale: u64,
    /// `U - C0`, in units of the search with the units.
    slack: u64,
    /// `U`, in units of the search with the units.
    incumbent: u64,
}

impl Incumbent {
    /// The bound for a search on `graph` under `rule`, given the optimum `alone_optimum` that
    /// the search without the units from the same start found, and an `incumbent` path's cost
    /// with the units (both as queries report costs).
    pub(crate) fn new(
        graph: &AnchorGraph,
        rule: OtherUnits,
        alone_optimum: u64,
        incumbent: u64,
    ) -> Self {
        // A search under `Cost` counts in a finer unit (`search/mod.rs`); `Block`, in the
        // graph's.
        let unit = match rule {
            OtherUnits::Cost(cost) => UnitCostScale::new(graph.cost_unit, cost.fixed()).unit,
            _ => graph.cost_unit,
        };
        Incumbent {
            scale: graph.cost_unit / unit,
            slack: incumbent.saturating_sub(alone_optimum) / unit,
            incumbent: incumbent / unit,
        }
    }

    /// Whether a first arrival at an anchor, at cost `cost`, leads to nothing cheaper than the
    /// incumbent, given the cost `alone` at which the search as if alone reached the anchor
    /// (in its units; `None` if it did not, or cannot be read) and the search's own
    /// `estimate` of the cost on from it (both in the search's units).
    #[inline]
    pub(super) fn cuts(
        &self,
        alone: Option<u64>,
        cost: u64,
        estimate: impl FnOnce() -> u64,
    ) -> bool {
        // `c + C0 - a(n) >= U`, as `c >= (U - C0) + a(n)`; a bound that overflows cuts nothing.
        let beyond_alone = alone.is_some_and(|alone| {
            cost >= alone.saturating_mul(self.scale).saturating_add(self.slack)
        });
        beyond_alone || cost.saturating_add(estimate()) >= self.incumbent
    }
}
