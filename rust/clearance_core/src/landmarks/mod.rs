//! Landmarks: the differential heuristic, which knows about walls.
//!
//! A distance heuristic (octile, Manhattan) ignores walls, so A* floods every dead end that
//! points towards the goal. The differential heuristic (the "ALT" idea of Goldberg and
//! Harrelson, "Computing the shortest path: A* search meets graph theory", SODA 2005; explained
//! in Red Blob Games' "Improving Heuristics") stores true distances to and from a few
//! *landmarks* `L`. By the triangle inequality, for any anchor `x` and goal `g`:
//!
//! * `d(x, g) >= d(L, g) - d(L, x)`, since `d(L, g) <= d(L, x) + d(x, g)`;
//! * `d(x, g) >= d(x, L) - d(g, L)`, since `d(x, L) <= d(x, g) + d(g, L)`.
//!
//! The heuristic is the largest of these bounds over all landmarks, and of the distance
//! heuristic. Each bound is consistent (`h(x) <= d(x, y) + h(y)` follows from the same
//! triangle inequality), and the maximum of consistent heuristics is consistent.
//!
//! **One table serves every agent size.** Tables are computed on the size-1 graph of a
//! profile. A size-`k` agent's graph is a subgraph of it (an anchor or step legal for size `k`
//! is legal for size 1) with step costs at least as high (the largest multiplier under a
//! footprint is at least the multiplier of its top-left cell). So size-1 distances are lower
//! bounds of size-`k` distances, and for every size-`k` step `x -> y`,
//! `h(x) <= d1(x, y) + h(y) <= cost_k(x, y) + h(y)`: the heuristic stays admissible and
//! consistent for every size.
//!
//! **After edits.** Every edit repairs the tables in place (the `repair` module): closings,
//! openings, and edits that raise some costs and lower others, single cells or rectangles.
//! The repair touches the anchors whose distance to some landmark changes, and the result
//! equals a rebuild from the same landmarks. A table is dropped, to be rebuilt on the next
//! query (where farthest-point placement may then choose other landmarks), when an edit it is
//! repaired around closes one of its landmarks, when a given landmark cell it had to skip
//! opens, and when an edit too large to repair around (a new grid, or a batch over a quarter
//! of the map) lowers costs. An edit of that size that only raises costs keeps the table,
//! even one that closes a landmark (its old distances still bound the new ones), marked inexact
//! ([`LandmarkTable::is_exact`]): every true distance grew or stayed, so the old distances
//! are still lower bounds, and consistent ones (the inequalities above hold between the old
//! distances, which lower-bound the new step costs). An inexact table is dropped by the next
//! edit that is not a pure raise.
//!
//! **Building** (the `build` module) runs the sweeps of one table on several threads when
//! asked, with the same table for any thread count, and reports its progress
//! ([`LandmarkProgress`]).

mod build;
mod progress;
mod queue;
mod repair;
mod sweep;

pub use progress::{LandmarkProgress, LandmarkProgressFn};

use crate::connectivity::NO_REGION;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::grid::Cell;
use crate::paged::PagedVec;
use sweep::{Sweep, Sweeper};

/// Largest number of landmarks per profile.
pub const MAX_LANDMARKS: usize = 64;

/// Regions with fewer anchors than this get no landmark of their own by automatic placement:
/// searches inside them are short anyway.
const SMALLEST_REGION_FOR_LANDMARK: usize = 64;

/// A stored distance for an anchor that the landmark cannot reach (or is not reached from).
const UNREACHABLE: u32 = u32::MAX;

/// Where landmarks go.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum LandmarkPlacement {
    /// No landmarks: the distance heuristic alone (the default).
    #[default]
    None,
    /// This many landmarks (at most [`MAX_LANDMARKS`]), placed by farthest-point selection:
    /// each new landmark is the anchor farthest from those already chosen; a sizeable region
    /// (64 anchors or more) without a landmark counts as infinitely far, so every such region
    /// gets one before any gets a second. Smaller regions get none of their own (searches in
    /// them are short), so a profile whose regions are all smaller gets no table.
    Farthest(usize),
    /// Landmarks at these anchors (at most [`MAX_LANDMARKS`]). Anchors that a profile cannot
    /// enter are skipped for that profile.
    At(Vec<Cell>),
}

impl LandmarkPlacement {
    /// The most landmarks this placement asks for.
    pub fn count(&self) -> usize {
        match self {
            LandmarkPlacement::None => 0,
            LandmarkPlacement::Farthest(count) => *count,
            LandmarkPlacement::At(cells) => cells.len(),
        }
    }
}

/// What a built landmark table holds and costs.
#[derive(Debug, Clone, PartialEq)]
pub struct LandmarkStats {
    /// The landmarks, in order of placement.
    pub landmarks: Vec<Cell>,
    /// Bytes of memory the table holds.
    pub bytes: usize,
    /// Bytes per map cell per landmark: 4 where steps cost the same both ways (uniform
    /// multipliers), 8 where distances to and from a landmark differ, times the table's
    /// slots per anchor over its landmarks (the count is rounded up to a power of two, so 3
    /// landmarks hold 4 slots: 5.33 or 10.67 bytes).
    pub bytes_per_cell_per_landmark: f64,
}

/// Slots per anchor in a table of `count` landmarks: `count` rounded up to a power of two, at
/// most [`MAX_LANDMARKS`], which divides a page.
fn stride_for(count: usize) -> usize {
    count.next_power_of_two()
}

const _: () = assert!(crate::paged::PAGE_LEN.is_multiple_of(MAX_LANDMARKS.next_power_of_two()));

/// True distances between every anchor and a few landmarks, on the size-1 graph of a profile.
#[derive(Debug, Clone)]
pub(crate) struct LandmarkTable {
    /// Storage indices of the landmarks.
    pub landmarks: Vec<usize>,
    /// Slots per anchor in the tables: the landmark count rounded up to a power of two, so
    /// that an anchor's row never straddles two pages (the slots past the count are unused).
    stride: usize,
    /// `from_landmark[anchor * stride + l] = d(L_l, anchor)`, in the graph's cost units.
    /// Paged like every per-anchor array a snapshot shares, and written only where a value
    /// changes, so an edit under a snapshot copies only the pages whose distances changed.
    from_landmark: PagedVec<u32>,
    /// `to_landmark[anchor * stride + l] = d(anchor, L_l)`; `None` when every step costs the
    /// same both ways, so it equals `from_landmark`.
    to_landmark: Option<PagedVec<u32>>,
    /// Whether the distances are the true ones of the current graph (what a rebuild from the
    /// same landmarks holds); `false` once an edit raised costs under the table, which then
    /// holds lower bounds.
    exact: bool,
}

impl LandmarkTable {
    /// Whether the table holds the true distances of its graph, not just lower bounds.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Records that costs under the table may have risen: its distances are lower bounds now.
    pub fn mark_inexact(&mut self) {
        self.exact = false;
    }

    /// Compares the table with one built from the same landmarks on `graph`, a freshly built
    /// size-1 graph of the current terrain (`PathMap::verify_caches`). An exact table must
    /// equal it; an inexact one must hold lower bounds (each distance at most the rebuilt
    /// one, an unreachable anchor counting as infinitely far), except for landmarks that are
    /// no longer legal, which a rebuild would not place (their old distances still bound the
    /// true ones, since costs only rose since they were exact, but nothing rebuilt shows it).
    pub fn verify(&self, graph: &AnchorGraph, width: usize) -> Result<(), String> {
        let symmetric = matches!(graph.entry, EntryCosts::Uniform(_));
        if symmetric != self.to_landmark.is_none() {
            return Err("the table stores other directions than a rebuild would".into());
        }
        let sweeper = Sweeper {
            graph,
            width,
            packed: None,
            spare: None,
        };
        let kind = if self.exact { "exact" } else { "inexact" };
        for (l, &landmark) in self.landmarks.iter().enumerate() {
            if graph.regions.region_of(landmark) == NO_REGION {
                if self.exact {
                    return Err(format!("landmark {landmark} of an exact table is illegal"));
                }
                continue;
            }
            let tables = [Some(&self.from_landmark), self.to_landmark.as_ref()];
            for (table, sweep) in tables.into_iter().zip([Sweep::FromSource, Sweep::ToSource]) {
                let Some(table) = table else { continue };
                let fresh = sweeper.distances(landmark, sweep);
                for (anchor, &rebuilt) in fresh.iter().enumerate() {
                    let stored = match table[anchor * self.stride + l] {
                        UNREACHABLE => u64::MAX,
                        stored => u64::from(stored),
                    };
                    let wrong = if self.exact {
                        stored != rebuilt || rebuilt == u64::from(UNREACHABLE)
                    } else {
                        stored > rebuilt
                    };
                    if wrong {
                        let direction = sweep.name();
                        return Err(format!(
                            "the {kind} distance {direction} landmark {landmark} at anchor \
                             {anchor} is {stored}, a rebuild finds {rebuilt}"
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    pub fn count(&self) -> usize {
        self.landmarks.len()
    }

    /// Bytes a table of `count` landmarks on a map of `cells` cells may hold: distances to and
    /// from each landmark slot, 4 bytes each (half that when costs are uniform).
    pub fn estimated_bytes(cells: usize, count: usize) -> usize {
        cells.saturating_mul(stride_for(count)).saturating_mul(8)
    }

    pub fn memory_bytes(&self) -> usize {
        let to = self.to_landmark.as_ref().map_or(0, PagedVec::memory_bytes);
        self.from_landmark.memory_bytes() + to
    }

    /// Compares the table's pages with `before`'s (see [`PagedVec::audit`]).
    #[cfg(test)]
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.from_landmark
            .audit(&before.from_landmark, "distances from landmarks", audit);
        if let (Some(mine), Some(theirs)) = (&self.to_landmark, &before.to_landmark) {
            mine.audit(theirs, "distances to landmarks", audit);
        }
    }

    /// The distances of `anchor` in `table`, one per landmark.
    #[inline]
    fn row<'a>(&self, table: &'a PagedVec<u32>, anchor: usize) -> &'a [u32] {
        let start = anchor * self.stride;
        table.slice(start..start + self.count())
    }

    /// The heuristic towards `goal`, ready to evaluate at any anchor.
    pub fn towards(&self, goal: usize) -> LandmarkBounds<'_> {
        LandmarkBounds {
            table: self,
            goal_from_landmark: self.row(&self.from_landmark, goal).to_vec(),
            goal_to_landmark: self
                .to_landmark
                .as_ref()
                .map(|table| self.row(table, goal).to_vec()),
        }
    }
}

/// The landmark lower bounds on the distance to one goal.
pub(crate) struct LandmarkBounds<'a> {
    table: &'a LandmarkTable,
    goal_from_landmark: Vec<u32>,
    goal_to_landmark: Option<Vec<u32>>,
}

impl LandmarkBounds<'_> {
    /// The largest landmark bound on the distance from `anchor` to the goal, in the graph's
    /// cost units.
    ///
    /// A landmark in another region than the goal stores `UNREACHABLE` for the goal and for
    /// every anchor the search can reach, so its bounds come out as 0.
    #[inline]
    pub fn estimate(&self, anchor: usize) -> u64 {
        let count = self.table.count();
        let from = self.table.row(&self.table.from_landmark, anchor);
        let mut best = 0u32;
        match (&self.goal_to_landmark, &self.table.to_landmark) {
            (Some(goal_to), Some(to_table)) => {
                let to = self.table.row(to_table, anchor);
                for l in 0..count {
                    best = best
                        .max(self.goal_from_landmark[l].saturating_sub(from[l]))
                        .max(to[l].saturating_sub(goal_to[l]));
                }
            }
            _ => {
                for (goal_from, from) in self.goal_from_landmark.iter().zip(from) {
                    best = best.max(goal_from.abs_diff(*from));
                }
            }
        }
        u64::from(best)
    }
}
