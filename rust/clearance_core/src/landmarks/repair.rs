//! Repairing a landmark table in place after an edit, so that it equals a rebuild from the
//! same landmarks: closings, openings, and cost changes both ways in one edit.
//!
//! This is the repair of dynamic single-source shortest paths (Ramalingam and Reps, "An
//! incremental algorithm for a generalization of the shortest-path problem", J. Algorithms
//! 1996; the increase phase is also in Frigioni, Marchetti-Spaccamela and Nanni, "Fully dynamic
//! algorithms for maintaining shortest paths trees", J. Algorithms 2000), once per landmark
//! and stored direction. Write `d` for a column before the edit (the exact distances of the
//! old graph), `d'` for the distances of the new graph, and `S` for the seed anchors: the
//! edited cells grown by one cell. Both ends of every step whose cost or legality changed lie
//! in `S` (see [`LandmarkTable::repair`]).
//!
//! **Raise phase** (skipped when the edit can only lower costs). Anchors are taken in order
//! of their old distance, starting with those of `S`. An anchor `v` (not the landmark) is
//! *supported* if some neighbour `u` with a finite label has `d(u) + cost'(u, v) <= d(v)`
//! on the new graph; an unsupported anchor joins the raised set `A`, its label becomes
//! unreachable, and each neighbour `w` whose old distance came through it
//! (`d(w) = d(v) + cost(v, w)`) is taken next.
//!
//! *Claim: after the raise phase, every label is at least the new distance* (an upper bound
//! of `d'`). Unreachable labels trivially; for the others, by induction on `d(v)`. Every step
//! costs more than 0 (see below for free terrain), so a supporter `u` of `v` has
//! `d(u) < d(v)` and was classified before `v`: it is outside `A` and its label `d(u)`
//! bounds `d'(u)`, so `d'(v) <= d'(u) + cost'(u, v) <= d(v)`. An anchor that was never taken
//! is outside `S`, so the last step `p -> v` of its old shortest path is unchanged; had `p`
//! joined `A`, `v` would have been taken; so `p` is outside `A`, `d'(p) <= d(p)`, and
//! `d'(v) <= d(p) + cost(p, v) = d(v)`.
//!
//! **Lower phase.** A decrease-only Dijkstra starts from every anchor of `S` and every anchor
//! outside `A` next to one inside (at their labels), and keeps only strict improvements.
//!
//! *Claim: every label ends equal to `d'`.* Labels only fall, each to the length of a path
//! of the new graph, so they stay upper bounds. Suppose some `v` ends above `d'(v)`, the one
//! of least `d'(v)` (fewest steps on ties), and let `u -> v` be the last step of a shortest
//! new path to it; `u` ends right. If `u` was queued at any time, it was relaxed at its final
//! label and gave `v` its distance. Otherwise `u` kept its raise-phase label, so that label
//! is `d'(u)`, finite: `u` is outside `A`. If `v` is in `A`, `u` is next to it and was
//! queued. If the step changed, `u` is in `S` and was queued. Otherwise `v` is outside `A`
//! and the step unchanged, so the label of `v` is at most
//! `d(v) <= d(u) + cost(u, v) = d'(u) + cost'(u, v) = d'(v)`, where `d(u) = d'(u)` since
//! `u` was outside `A` and never queued. Each case contradicts the choice of `v`.
//!
//! So the column holds exactly the distances of the new graph, `UNREACHABLE` exactly where
//! the landmark no longer reaches: what a rebuild from the same landmark stores (a table
//! stores distances only, which no tie-break affects).
//!
//! **Fallbacks, just as exact.** Where the raised set of a column grows past a quarter of the
//! map's anchors ([`LARGEST_RAISED_SHARE`]), the repair would cost about what a sweep costs,
//! and the column is swept afresh from its landmark instead. Where some terrain of the profile
//! is free (multiplier 0), steps of cost 0 break the raise phase's order (two anchors at
//! equal distance could support each other), and edits that may raise costs sweep every
//! column afresh; edits that only lower costs need no raise phase, and the lower phase's
//! argument holds for free steps (the fewest-steps tie-break).

use super::progress::Progress;
use super::sweep::{Column, Sweep, Sweeper};
use super::LandmarkTable;
use crate::connectivity::NO_REGION;
use crate::graph::AnchorGraph;
use crate::grid::Window;
use crate::movement::direction_offsets;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A column whose raised set outgrows `1 / LARGEST_RAISED_SHARE` of the anchors is swept
/// afresh instead of repaired.
pub(super) const LARGEST_RAISED_SHARE: usize = 4;

impl LandmarkTable {
    /// Brings an exact table up to date after the terrain of the cells in `edited` changed,
    /// on `graph`, the already repaired size-1 graph, of a map `width` wide; `may_raise`
    /// says whether the edit can raise some cost or close some cell (`false` when it can only
    /// lower costs or open cells). Afterwards the table equals a rebuild from the same
    /// landmarks (see the module documentation for the proof).
    ///
    /// `edited` must cover every changed cell. An anchor's entry multiplier changes only in
    /// an edited cell, and its moves only within one cell of one (a move changes where the
    /// legality of an end or of a corner the diagonal passes changed, and both ends of such a
    /// step lie next to the changed cell); so both ends of every changed step lie in `edited`
    /// grown by one cell.
    ///
    /// Returns `false`, leaving the table half repaired, if some landmark is no longer legal
    /// (a rebuild would not place it) or some new distance does not fit the 32-bit storage
    /// (a rebuild returns no table); the caller then drops the table.
    pub fn repair(
        &mut self,
        graph: &AnchorGraph,
        width: usize,
        edited: &[Window],
        may_raise: bool,
    ) -> bool {
        debug_assert!(self.exact, "only exact tables are repaired");
        let illegal = |&anchor: &usize| graph.regions.region_of(anchor) == NO_REGION;
        if self.landmarks.iter().any(illegal) {
            return false;
        }
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
        let sweeper = Sweeper {
            graph,
            width,
            packed: None,
            spare: None,
        };
        let sweep_afresh = may_raise && graph.min_multiplier == 0;
        let largest_raised = graph.moves.len() / LARGEST_RAISED_SHARE;
        let mut queue = BinaryHeap::new();
        let mut raise = RaiseScratch::default();
        let tables = [Some(&mut self.from_landmark), self.to_landmark.as_mut()];
        for (table, sweep) in tables.into_iter().zip([Sweep::FromSource, Sweep::ToSource]) {
            let Some(table) = table else { continue };
            for (l, &landmark) in self.landmarks.iter().enumerate() {
                let mut column = Column {
                    table,
                    stride: self.stride,
                    landmark: l,
                };
                let repaired = if sweep_afresh {
                    false
                } else if !may_raise {
                    sweeper.lower(&mut column, &seeds, sweep, &mut queue)
                } else if raise.run(
                    &sweeper,
                    &mut column,
                    (landmark, sweep),
                    &seeds,
                    largest_raised,
                ) {
                    raise.boundary.extend_from_slice(&seeds);
                    if !sweeper.lower(&mut column, &raise.boundary, sweep, &mut queue) {
                        return false;
                    }
                    true
                } else {
                    false
                };
                if !repaired {
                    let quiet = |_| {};
                    let progress = Progress::new(0, &quiet);
                    let Some(fresh) = sweeper.column(landmark, sweep, &progress) else {
                        return false;
                    };
                    column.fill(&fresh);
                }
            }
        }
        true
    }
}

/// The raise phase's working memory, kept across columns.
#[derive(Default)]
struct RaiseScratch {
    queue: BinaryHeap<Reverse<(u64, usize)>>,
    /// Anchors outside the raised set next to one inside, then the lower phase's seeds.
    boundary: Vec<usize>,
}

impl RaiseScratch {
    /// The raise phase on one column of landmark `source` in direction `sweep`: anchors that
    /// lost every support get unreachable labels, and `boundary` collects their labelled
    /// neighbours. `false` (with the column half raised) if more than `largest` anchors rose.
    fn run(
        &mut self,
        sweeper: &Sweeper,
        column: &mut Column,
        (source, sweep): (usize, Sweep),
        seeds: &[usize],
        largest: usize,
    ) -> bool {
        let moves = &sweeper.graph.moves;
        let offsets = direction_offsets(sweeper.width);
        self.queue.clear();
        self.boundary.clear();
        for &seed in seeds {
            let d = column.get(seed);
            if d != u64::MAX {
                self.queue.push(Reverse((d, seed)));
            }
        }
        let mut raised = Vec::new();
        while let Some(Reverse((d, v))) = self.queue.pop() {
            if v == source || column.get(v) != d {
                continue; // the landmark, or an anchor already raised
            }
            let mut supported = false;
            let mut mask = moves[v];
            while mask != 0 && !supported {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let u = v.wrapping_add_signed(offsets[step]);
                let du = column.get(u);
                // The step u -> v has the length of v -> u.
                supported = du != u64::MAX && du + sweeper.relax_cost(u, v, step, sweep) <= d;
            }
            if supported {
                continue;
            }
            column.set(v, u64::MAX);
            raised.push(v);
            if raised.len() > largest {
                return false;
            }
            let mut mask = moves[v];
            while mask != 0 {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let w = v.wrapping_add_signed(offsets[step]);
                let dw = column.get(w);
                if dw != u64::MAX && dw == d + sweeper.relax_cost(v, w, step, sweep) {
                    self.queue.push(Reverse((dw, w)));
                }
            }
        }
        for &v in &raised {
            let mut mask = moves[v];
            while mask != 0 {
                let step = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let u = v.wrapping_add_signed(offsets[step]);
                if column.get(u) != u64::MAX {
                    self.boundary.push(u);
                }
            }
        }
        true
    }
}
