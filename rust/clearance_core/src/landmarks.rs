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
//! **After edits.** An edit that only raises costs (or closes cells) for a profile makes every
//! true distance larger or equal, so an old table still gives lower bounds, consistent ones
//! (the inequalities above hold between the old distances, which lower-bound the new step
//! costs): it is kept, marked inexact ([`LandmarkTable::is_exact`]), since its distances may
//! now be shorter than the true ones.
//!
//! An edit that only lowers costs (or opens cells) for a profile is repaired in place
//! ([`LandmarkTable::repair_lowered`]): a decrease-only Dijkstra from the anchors next to the
//! edit touches just the distances that drop, and the result equals a rebuild from the same
//! landmarks. An inexact table cannot be repaired exactly, and is dropped by such an edit, as
//! is any table by an edit that raises some costs and lowers others; the next query rebuilds
//! it (where farthest-point placement may then choose other landmarks).

use crate::connectivity::NO_REGION;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::grid::{Cell, Window};
use crate::movement::{direction_offsets, STEP_LENGTHS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

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
    /// without a landmark counts as infinitely far, so every region gets one before any gets a
    /// second.
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
    /// multipliers), 8 where distances to and from a landmark differ.
    pub bytes_per_cell_per_landmark: f64,
}

/// True distances between every anchor and a few landmarks, on the size-1 graph of a profile.
#[derive(Debug, Clone)]
pub(crate) struct LandmarkTable {
    /// Storage indices of the landmarks.
    pub landmarks: Vec<usize>,
    /// `from_landmark[anchor * count + l] = d(L_l, anchor)`, in the graph's cost units.
    from_landmark: Vec<u32>,
    /// `to_landmark[anchor * count + l] = d(anchor, L_l)`; `None` when every step costs the
    /// same both ways, so it equals `from_landmark`.
    to_landmark: Option<Vec<u32>>,
    /// Whether the distances are the true ones of the current graph (what a rebuild from the
    /// same landmarks holds); `false` once an edit raised costs under the table, which then
    /// holds lower bounds.
    exact: bool,
}

impl LandmarkTable {
    /// Builds the table on `graph`, the size-1 graph of a profile. Distances are in the
    /// graph's cost units (see `AnchorGraph::cost_unit`), which every size of the profile
    /// shares. Returns `None` if no landmark can be placed, if every step is free, or if some
    /// distance does not fit the 32-bit storage (only on maps with paths of millions of steps).
    pub fn build(
        graph: &AnchorGraph,
        width: usize,
        placement: &LandmarkPlacement,
        given: &[usize],
    ) -> Option<Self> {
        if graph.min_multiplier == 0 && matches!(graph.entry, EntryCosts::Uniform(_)) {
            return None; // every step is free: distances are all 0 and bound nothing
        }
        let symmetric = matches!(graph.entry, EntryCosts::Uniform(_));
        let dijkstra = Dijkstra { graph, width };
        let sources: Vec<(usize, Vec<u64>)> = match placement {
            LandmarkPlacement::None => return None,
            LandmarkPlacement::At(_) => given
                .iter()
                .filter(|&&anchor| graph.regions.region_of(anchor) != NO_REGION)
                .map(|&anchor| (anchor, dijkstra.distances(anchor, Sweep::FromSource)))
                .collect(),
            LandmarkPlacement::Farthest(count) => farthest_point(&dijkstra, *count),
        };
        if sources.is_empty() {
            return None;
        }
        let landmarks: Vec<usize> = sources.iter().map(|(anchor, _)| *anchor).collect();
        let forward: Vec<Vec<u64>> = sources.into_iter().map(|(_, column)| column).collect();
        let from_landmark = interleave(&forward)?;
        let to_landmark = if symmetric {
            None
        } else {
            let backward: Vec<Vec<u64>> = landmarks
                .iter()
                .map(|&anchor| dijkstra.distances(anchor, Sweep::ToSource))
                .collect();
            Some(interleave(&backward)?)
        };
        Some(LandmarkTable {
            landmarks,
            from_landmark,
            to_landmark,
            exact: true,
        })
    }

    /// Whether the table holds the true distances of its graph, not just lower bounds.
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// Records that costs under the table may have risen: its distances are lower bounds now.
    pub fn mark_inexact(&mut self) {
        self.exact = false;
    }

    /// Brings an exact table up to date after edits that could only lower costs or open cells
    /// of its (already repaired) size-1 graph `graph`, on a map `width` wide. `edited` holds
    /// the edited cells; an anchor's entry multiplier or moves can only have changed within
    /// one cell of them (moves change where the legality of an anchor or of a corner a
    /// diagonal passes changed, and both ends of such a step lie next to the edited cell), so
    /// both ends of every changed step lie in `edited` grown by one cell.
    ///
    /// For each landmark and sweep direction, every anchor of those grown windows is queued at
    /// its current distance and Dijkstra relaxes only strict improvements from there.
    ///
    /// Why that gives the true distances: costs only fell and moves only appeared, so every old
    /// distance is the length of a path that still exists, at most as dear: an upper bound of
    /// the new distance, and labels only ever fall. Suppose some anchor `v` ends above its new
    /// distance; take the one with the least new distance (fewest steps on ties) and the last
    /// step `u -> v` of a shortest new path to it. `u` ends right, by that choice. If the step
    /// changed, `u` was queued, so it was relaxed at its final label and `v` got the right
    /// distance. If `u` was ever queued, the same. Otherwise `u` kept its old distance, which
    /// is therefore right, and the unchanged step gave `v` an old distance at most
    /// `d(u) + cost(u, v)`, the new one. Either way, a contradiction. (Backwards sweeps use the
    /// reversed steps, the same argument.)
    ///
    /// The table stays laid out as a rebuild lays it out: unreachable anchors hold
    /// `UNREACHABLE`, and the landmarks stay legal (cells only opened). Returns `false`, and
    /// leaves the table half repaired, if some new distance does not fit the 32-bit storage,
    /// where a rebuild returns no table; the caller then drops it.
    pub fn repair_lowered(&mut self, graph: &AnchorGraph, width: usize, edited: &[Window]) -> bool {
        debug_assert!(self.exact, "only exact tables are repaired");
        let height = graph.moves.len() / width;
        let mut seeds: Vec<usize> = Vec::new();
        for window in edited {
            let grown = window.grown(1, 1, width, height);
            for y in grown.y0..grown.y1 {
                seeds.extend((grown.x0..grown.x1).map(|x| y * width + x));
            }
        }
        seeds.sort_unstable();
        seeds.dedup();
        let dijkstra = Dijkstra { graph, width };
        let count = self.count();
        let mut queue = BinaryHeap::new();
        let tables = [Some(&mut self.from_landmark), self.to_landmark.as_mut()];
        for (table, sweep) in tables.into_iter().zip([Sweep::FromSource, Sweep::ToSource]) {
            let Some(table) = table else { continue };
            for l in 0..count {
                let column = Column {
                    table: &mut table[..],
                    count,
                    landmark: l,
                };
                if !dijkstra.lower(column, &seeds, sweep, &mut queue) {
                    return false;
                }
            }
        }
        true
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
        let dijkstra = Dijkstra { graph, width };
        let count = self.count();
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
                let fresh = dijkstra.distances(landmark, sweep);
                for (anchor, &rebuilt) in fresh.iter().enumerate() {
                    let stored = match table[anchor * count + l] {
                        UNREACHABLE => u64::MAX,
                        stored => u64::from(stored),
                    };
                    let wrong = if self.exact {
                        stored != rebuilt || rebuilt == u64::from(UNREACHABLE)
                    } else {
                        stored > rebuilt
                    };
                    if wrong {
                        let direction = match sweep {
                            Sweep::FromSource => "from",
                            Sweep::ToSource => "to",
                        };
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
    /// from each landmark, 4 bytes each (half that when costs are uniform).
    pub fn estimated_bytes(cells: usize, count: usize) -> usize {
        cells.saturating_mul(count).saturating_mul(8)
    }

    pub fn memory_bytes(&self) -> usize {
        let to = self.to_landmark.as_ref().map_or(0, Vec::capacity);
        (self.from_landmark.capacity() + to) * std::mem::size_of::<u32>()
    }

    /// The heuristic towards `goal`, ready to evaluate at any anchor.
    pub fn towards(&self, goal: usize) -> LandmarkBounds<'_> {
        let count = self.count();
        let row = |table: &[u32]| table[goal * count..(goal + 1) * count].to_vec();
        LandmarkBounds {
            table: self,
            goal_from_landmark: row(&self.from_landmark),
            goal_to_landmark: self.to_landmark.as_deref().map(row),
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
        let from = &self.table.from_landmark[anchor * count..(anchor + 1) * count];
        let mut best = 0u32;
        match (&self.goal_to_landmark, &self.table.to_landmark) {
            (Some(goal_to), Some(to_table)) => {
                let to = &to_table[anchor * count..(anchor + 1) * count];
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

/// Lays distances out anchor by anchor (`[anchor][landmark]`), so one anchor's distances share
/// a cache line; `None` if some distance does not fit 32 bits.
fn interleave(columns: &[Vec<u64>]) -> Option<Vec<u32>> {
    let count = columns.len();
    let cells = columns[0].len();
    let mut table = vec![UNREACHABLE; cells * count];
    for (l, column) in columns.iter().enumerate() {
        for (anchor, &distance) in column.iter().enumerate() {
            if distance != u64::MAX {
                let stored = u32::try_from(distance).ok().filter(|&d| d != UNREACHABLE)?;
                table[anchor * count + l] = stored;
            }
        }
    }
    Some(table)
}

/// Farthest-point placement; returns each landmark with its distances from it.
fn farthest_point(dijkstra: &Dijkstra, count: usize) -> Vec<(usize, Vec<u64>)> {
    let regions: Vec<u32> = (0..dijkstra.graph.moves.len())
        .map(|anchor| dijkstra.graph.regions.region_of(anchor))
        .collect();
    let mut region_sizes: Vec<usize> = Vec::new();
    for &region in regions.iter().filter(|&&r| r != NO_REGION) {
        let region = region as usize;
        if region >= region_sizes.len() {
            region_sizes.resize(region + 1, 0);
        }
        region_sizes[region] += 1;
    }
    // Distance from each anchor to the nearest landmark so far; anchors in small regions (and
    // illegal ones) never attract a landmark.
    let mut nearest: Vec<u64> = regions
        .iter()
        .map(|&r| {
            if r != NO_REGION && region_sizes[r as usize] >= SMALLEST_REGION_FOR_LANDMARK {
                u64::MAX
            } else {
                0
            }
        })
        .collect();
    let mut columns = Vec::new();
    while columns.len() < count {
        // Farthest anchor from the landmarks so far (lowest index on ties).
        let (candidate, &distance) = nearest
            .iter()
            .enumerate()
            .max_by_key(|&(index, &d)| (d, Reverse(index)))
            .expect("maps are not empty");
        if distance == 0 {
            break;
        }
        let landmark = if distance == u64::MAX {
            // A region without a landmark: start from its far end, not its first anchor.
            let from_candidate = dijkstra.distances(candidate, Sweep::FromSource);
            farthest_reached(&from_candidate).unwrap_or(candidate)
        } else {
            candidate
        };
        let column = dijkstra.distances(landmark, Sweep::FromSource);
        for (near, &d) in nearest.iter_mut().zip(&column) {
            *near = (*near).min(d);
        }
        nearest[landmark] = 0;
        columns.push((landmark, column));
    }
    columns
}

fn farthest_reached(distances: &[u64]) -> Option<usize> {
    distances
        .iter()
        .enumerate()
        .filter(|&(_, &d)| d != u64::MAX)
        .max_by_key(|&(index, &d)| (d, Reverse(index)))
        .map(|(index, _)| index)
}

/// Which way a Dijkstra sweep measures: away from its source or towards it.
#[derive(Clone, Copy, PartialEq)]
enum Sweep {
    /// Distances from the source to every anchor.
    FromSource,
    /// Distances from every anchor to the source.
    ToSource,
}

/// Plain Dijkstra over a search graph (build time only, so a lazy binary heap is enough).
struct Dijkstra<'a> {
    graph: &'a AnchorGraph,
    width: usize,
}

/// One landmark's distances inside an interleaved table.
struct Column<'a> {
    table: &'a mut [u32],
    count: usize,
    landmark: usize,
}

impl Column<'_> {
    fn get(&self, anchor: usize) -> u64 {
        match self.table[anchor * self.count + self.landmark] {
            UNREACHABLE => u64::MAX,
            stored => u64::from(stored),
        }
    }
}

impl Dijkstra<'_> {
    fn multiplier(&self, anchor: usize) -> u64 {
        match &self.graph.entry {
            EntryCosts::Uniform(m) => u64::from(*m),
            EntryCosts::PerAnchor(values) => u64::from(values[anchor]),
        }
    }

    /// Decrease-only propagation (see [`LandmarkTable::repair_lowered`]): relaxes out of every
    /// seed at its current distance and keeps only strict improvements. `false` if a distance
    /// does not fit the storage.
    fn lower(
        &self,
        column: Column,
        seeds: &[usize],
        sweep: Sweep,
        queue: &mut BinaryHeap<Reverse<(u64, usize)>>,
    ) -> bool {
        let offsets = direction_offsets(self.width);
        queue.clear();
        for &seed in seeds {
            let d = column.get(seed);
            if d != u64::MAX {
                queue.push(Reverse((d, seed)));
            }
        }
        while let Some(Reverse((d, anchor))) = queue.pop() {
            if d > column.get(anchor) {
                continue;
            }
            let mut mask = self.graph.moves[anchor];
            while mask != 0 {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let neighbour = anchor.wrapping_add_signed(offsets[step]);
                let entered = match sweep {
                    Sweep::FromSource => neighbour,
                    Sweep::ToSource => anchor,
                };
                let next = d + STEP_LENGTHS[step] * self.multiplier(entered);
                if next < column.get(neighbour) {
                    if next >= u64::from(UNREACHABLE) {
                        return false;
                    }
                    column.table[neighbour * column.count + column.landmark] = next as u32;
                    queue.push(Reverse((next, neighbour)));
                }
            }
        }
        true
    }

    fn distances(&self, source: usize, sweep: Sweep) -> Vec<u64> {
        let graph = self.graph;
        let offsets = direction_offsets(self.width);
        let multiplier = |anchor: usize| -> u64 {
            match &graph.entry {
                EntryCosts::Uniform(m) => u64::from(*m),
                EntryCosts::PerAnchor(values) => u64::from(values[anchor]),
            }
        };
        let mut distance = vec![u64::MAX; graph.moves.len()];
        let mut queue = BinaryHeap::new();
        distance[source] = 0;
        queue.push(Reverse((0u64, source)));
        while let Some(Reverse((d, anchor))) = queue.pop() {
            if d > distance[anchor] {
                continue;
            }
            let mut mask = graph.moves[anchor];
            while mask != 0 {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let neighbour = anchor.wrapping_add_signed(offsets[step]);
                let length = STEP_LENGTHS[step];
                // Entry-cost convention: a step costs the multiplier of the anchor it enters.
                // Backwards, the step neighbour -> anchor enters `anchor`.
                let entered = match sweep {
                    Sweep::FromSource => neighbour,
                    Sweep::ToSource => anchor,
                };
                let next = d + length * multiplier(entered);
                if next < distance[neighbour] {
                    distance[neighbour] = next;
                    queue.push(Reverse((next, neighbour)));
                }
            }
        }
        distance
    }
}
