//! Dijkstra sweeps over the size-1 graph of a profile: whole columns of a landmark table, and
//! the decrease-only propagation its repairs end with.
//!
//! Entry-cost convention: a step costs its length times the multiplier of the anchor it
//! enters. A sweep [`Sweep::FromSource`] measures `d(L, x)` and relaxes `x -> y` at the cost
//! of entering `y`; a sweep [`Sweep::ToSource`] measures `d(x, L)` on the reversed steps, so
//! relaxing `x -> y` there stands for the step `y -> x`, which enters `x`. Moves are
//! symmetric (a step is legal both ways), so the reversed graph has the same move masks.

use super::progress::Progress;
use super::queue::{BucketQueue, MonotoneQueue, RadixQueue};
use super::UNREACHABLE;
use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{direction_offsets, STEP_LENGTHS};
use crate::paged::PagedVec;
use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Mutex, PoisonError};

/// Which way a Dijkstra sweep measures: away from its source or towards it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Sweep {
    /// Distances from the source to every anchor.
    FromSource,
    /// Distances from every anchor to the source.
    ToSource,
}

impl Sweep {
    pub fn name(self) -> &'static str {
        match self {
            Sweep::FromSource => "from",
            Sweep::ToSource => "to",
        }
    }
}

/// Sweeps over one graph of a map `width` wide.
#[derive(Clone, Copy)]
pub(super) struct Sweeper<'a> {
    pub graph: &'a AnchorGraph,
    pub width: usize,
    /// On a graph with multipliers per anchor, every anchor's
    /// [`packed_moves_and_multipliers`], made once for the many sweeps of a build; `None`
    /// makes them per sweep.
    pub packed: Option<&'a [u32]>,
    /// Columns already stored, whose memory the next sweeps reuse; `None` allocates each.
    pub spare: Option<&'a SpareColumns>,
}

/// The memory of finished columns, kept for the next sweeps of a build: a fresh column of a
/// large map costs the system a page fault per 4 KiB and the zeroing of each page, which a
/// reused one does not.
#[derive(Default)]
pub(super) struct SpareColumns(Mutex<Vec<Vec<u32>>>);

impl SpareColumns {
    pub fn give(&self, column: Vec<u32>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(column);
    }

    /// A column of `len` unlabelled anchors.
    fn take(spare: Option<&Self>, len: usize) -> Vec<u32> {
        let reused = spare.and_then(|spare| {
            let mut columns = spare.0.lock().unwrap_or_else(PoisonError::into_inner);
            columns.pop()
        });
        match reused {
            Some(mut column) => {
                column.clear();
                column.resize(len, UNREACHABLE);
                column
            }
            None => vec![UNREACHABLE; len],
        }
    }
}

/// How many settled anchors a sweep counts before it reports progress.
const PROGRESS_EVERY: u64 = 1 << 16;

impl Sweeper<'_> {
    #[inline]
    pub fn multiplier(&self, anchor: usize) -> u64 {
        match &self.graph.entry {
            EntryCosts::Uniform(m) => u64::from(*m),
            EntryCosts::PerAnchor(values) => u64::from(values[anchor]),
        }
    }

    /// The cost of relaxing `from -> to` (a step in direction `step`) in `sweep`.
    #[inline]
    pub fn relax_cost(&self, from: usize, to: usize, step: usize, sweep: Sweep) -> u64 {
        let entered = match sweep {
            Sweep::FromSource => to,
            Sweep::ToSource => from,
        };
        STEP_LENGTHS[step] * self.multiplier(entered)
    }

    /// The distances of `sweep` from `source` as a table stores them: `UNREACHABLE` where
    /// the source does not reach. `None` if some reached distance does not fit below
    /// `UNREACHABLE`. Reports settled anchors to `progress`.
    ///
    /// Labels are kept in 32 bits; a tentative label too large to keep is skipped and its
    /// anchor remembered: the anchor is still relaxed from its true predecessor when that is
    /// settled, so it ends with its distance if that fits, and an anchor that ends unlabelled
    /// after such a skip has a distance that does not fit.
    pub fn column(&self, source: usize, sweep: Sweep, progress: &Progress) -> Option<Vec<u32>> {
        let graph = self.graph;
        let cheapest = STRAIGHT_STEP * u64::from(graph.min_multiplier);
        let costliest = DIAGONAL_STEP * u64::from(graph.max_multiplier);
        match &graph.entry {
            EntryCosts::Uniform(multiplier) => {
                let nodes = UniformNodes {
                    labels: SpareColumns::take(self.spare, graph.moves.len()),
                    moves: &graph.moves,
                    multiplier: u64::from(*multiplier),
                };
                self.column_in(nodes, (cheapest, costliest), source, sweep, progress)
            }
            EntryCosts::PerAnchor(multipliers) => {
                let packed = match self.packed {
                    Some(packed) => Cow::Borrowed(packed),
                    None => Cow::Owned(packed_moves_and_multipliers(&graph.moves, multipliers)),
                };
                let labels = SpareColumns::take(self.spare, graph.moves.len());
                let nodes = PackedNodes { labels, packed };
                self.column_in(nodes, (cheapest, costliest), source, sweep, progress)
            }
        }
    }

    /// [`column`](Self::column) on `nodes`, with buckets where steps cost from `cheapest`
    /// to `costliest` and `cheapest` is not 0, with a radix queue otherwise.
    fn column_in(
        &self,
        nodes: impl SweepNodes,
        (cheapest, costliest): (u64, u64),
        source: usize,
        sweep: Sweep,
        progress: &Progress,
    ) -> Option<Vec<u32>> {
        match BucketQueue::for_steps(cheapest, costliest) {
            Some(buckets) => self.column_with(buckets, nodes, source, sweep, progress),
            None => self.column_with(RadixQueue::new(), nodes, source, sweep, progress),
        }
    }

    /// [`column`](Self::column) with `queue` for its open anchors, reading and labelling
    /// anchors through `nodes`.
    fn column_with(
        &self,
        mut queue: impl MonotoneQueue,
        mut nodes: impl SweepNodes,
        source: usize,
        sweep: Sweep,
        progress: &Progress,
    ) -> Option<Vec<u32>> {
        let offsets = direction_offsets(self.width);
        let mut skipped = Vec::new();
        let mut settled = 0u64;
        nodes.set_label(source, 0);
        queue.push(0, source as u32);
        while let Some((d, anchor)) = queue.pop() {
            let anchor = anchor as usize;
            let (label, mut mask, own_multiplier) = nodes.read(anchor);
            if d > u64::from(label) {
                continue;
            }
            settled += 1;
            if settled == PROGRESS_EVERY {
                progress.advance(settled);
                settled = 0;
            }
            while mask != 0 {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let neighbour = anchor.wrapping_add_signed(offsets[step]);
                let (reached, _, multiplier) = nodes.read(neighbour);
                let entered = match sweep {
                    Sweep::FromSource => multiplier,
                    Sweep::ToSource => own_multiplier,
                };
                let next = d + STEP_LENGTHS[step] * entered;
                if next < u64::from(reached) {
                    nodes.set_label(neighbour, next as u32);
                    queue.push(next, neighbour as u32);
                } else if next >= u64::from(UNREACHABLE) && reached == UNREACHABLE {
                    skipped.push(neighbour);
                }
            }
        }
        progress.advance(settled);
        let labels = nodes.into_labels();
        let overflowed = skipped.iter().any(|&anchor| labels[anchor] == UNREACHABLE);
        (!overflowed).then_some(labels)
    }

    /// The same distances, by a plain binary-heap Dijkstra in 64 bits (`u64::MAX` where the
    /// source does not reach): what tables are checked against, and where placement needs
    /// distances that may not fit a table.
    pub fn distances(&self, source: usize, sweep: Sweep) -> Vec<u64> {
        let graph = self.graph;
        let offsets = direction_offsets(self.width);
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
                let next = d + self.relax_cost(anchor, neighbour, step, sweep);
                if next < distance[neighbour] {
                    distance[neighbour] = next;
                    queue.push(Reverse((next, neighbour)));
                }
            }
        }
        distance
    }

    /// Decrease-only propagation: relaxes out of every seed at its current distance and
    /// keeps only strict improvements (see the `repair` module for why that is exact).
    /// `false` if a distance does not fit the storage.
    pub fn lower(
        &self,
        column: &mut Column,
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
                let next = d + self.relax_cost(anchor, neighbour, step, sweep);
                if next < column.get(neighbour) {
                    if next >= u64::from(UNREACHABLE) {
                        return false;
                    }
                    column.set(neighbour, next);
                    queue.push(Reverse((next, neighbour)));
                }
            }
        }
        true
    }
}

/// The anchors as a sweep reads and labels them.
trait SweepNodes {
    /// The label, the move mask and the entry multiplier (in the graph's cost units) of the
    /// anchor stored at `anchor`.
    fn read(&self, anchor: usize) -> (u32, u8, u64);
    fn set_label(&mut self, anchor: usize, label: u32);
    fn into_labels(self) -> Vec<u32>;
}

/// Labels of a graph with one multiplier: the moves are read from the graph.
struct UniformNodes<'a> {
    labels: Vec<u32>,
    moves: &'a PagedVec<u8>,
    multiplier: u64,
}

impl SweepNodes for UniformNodes<'_> {
    #[inline(always)]
    fn read(&self, anchor: usize) -> (u32, u8, u64) {
        (self.labels[anchor], self.moves[anchor], self.multiplier)
    }

    #[inline(always)]
    fn set_label(&mut self, anchor: usize, label: u32) {
        self.labels[anchor] = label;
    }

    fn into_labels(self) -> Vec<u32> {
        self.labels
    }
}

/// Every anchor's move mask (top 8 bits) beside its entry multiplier (low 24 bits: a
/// multiplier is at most [`MAX_MULTIPLIER`](crate::cost::MAX_MULTIPLIER) times
/// [`MULTIPLIER_SCALE`](crate::cost::MULTIPLIER_SCALE), below `2^24`): what a sweep reads
/// of a neighbour, in one cache line instead of one in each of two paged arrays. A sweep over
/// a large map visits every row of it per step of its frontier, so each line it touches is a
/// likely miss.
pub(super) fn packed_moves_and_multipliers(
    moves: &PagedVec<u8>,
    multipliers: &PagedVec<u32>,
) -> Vec<u32> {
    (moves.iter().zip(multipliers.iter()))
        .map(|(&moves, &multiplier)| {
            debug_assert!(multiplier < 1 << MULTIPLIER_BITS);
            u32::from(moves) << MULTIPLIER_BITS | multiplier
        })
        .collect()
}

/// The low bits of [`packed_moves_and_multipliers`] that hold the multiplier.
const MULTIPLIER_BITS: u32 = 24;

/// Labels of a graph with multipliers per anchor, and the anchors' packed moves and
/// multipliers.
struct PackedNodes<'a> {
    labels: Vec<u32>,
    packed: Cow<'a, [u32]>,
}

impl SweepNodes for PackedNodes<'_> {
    #[inline(always)]
    fn read(&self, anchor: usize) -> (u32, u8, u64) {
        let packed = self.packed[anchor];
        let multiplier = packed & ((1 << MULTIPLIER_BITS) - 1);
        let moves = (packed >> MULTIPLIER_BITS) as u8;
        (self.labels[anchor], moves, u64::from(multiplier))
    }

    #[inline(always)]
    fn set_label(&mut self, anchor: usize, label: u32) {
        self.labels[anchor] = label;
    }

    fn into_labels(self) -> Vec<u32> {
        self.labels
    }
}

/// One landmark's distances inside an interleaved table (`[anchor][slot]`, `stride` slots per
/// anchor). Writes go through [`PagedVec::set`], so a value that does not change leaves its
/// page shared with any snapshot.
pub(super) struct Column<'a> {
    pub table: &'a mut PagedVec<u32>,
    pub stride: usize,
    pub landmark: usize,
}

impl Column<'_> {
    /// The stored distance, `u64::MAX` for `UNREACHABLE`.
    #[inline]
    pub fn get(&self, anchor: usize) -> u64 {
        match self.table[anchor * self.stride + self.landmark] {
            UNREACHABLE => u64::MAX,
            stored => u64::from(stored),
        }
    }

    /// Stores `distance` (below `UNREACHABLE`, or `u64::MAX` for unreachable).
    #[inline]
    pub fn set(&mut self, anchor: usize, distance: u64) {
        let stored = if distance == u64::MAX {
            UNREACHABLE
        } else {
            debug_assert!(distance < u64::from(UNREACHABLE));
            distance as u32
        };
        self.table.set(anchor * self.stride + self.landmark, stored);
    }

    /// Overwrites the whole column with `column` (as [`Sweeper::column`] returns it).
    pub fn fill(&mut self, column: &[u32]) {
        for (anchor, &distance) in column.iter().enumerate() {
            self.table
                .set(anchor * self.stride + self.landmark, distance);
        }
    }
}
