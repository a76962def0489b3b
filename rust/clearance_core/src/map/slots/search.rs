//! The search from the target behind arrival slots, and the walks that tell which starts
//! reach it.

use super::storage::{Buckets, LazyPages};
use crate::graph::AnchorGraph;
use crate::movement::{direction_offsets, directions_in, DIRECTIONS, STEP_LENGTHS};
use crate::search::UnitsView;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// `SlotSearch::known`: what is known of an anchor's connection to the target.
const UNKNOWN: u8 = 0;
const CONNECTED: u8 = 1;
const CUT_OFF: u8 = 2;
/// Being walked through by the current reachability walk.
const VISITING: u8 = 3;

/// A Dijkstra search from the target for one size and profile, resumed as members ask for
/// slots, and what it has learnt about which starts reach the target.
pub(super) struct SlotSearch {
    /// The target's anchors are not all joined by steps among themselves, so reaching one
    /// says nothing of the others: each slot is then checked against the member's start.
    split_seeds: bool,
    graph: Arc<AnchorGraph>,
    view: UnitsView,
    offsets: [isize; 8],
    width: usize,
    size: u8,
    target: (usize, usize),
    /// Per anchor: [`UNKNOWN`], [`CONNECTED`] to the target's anchors, or [`CUT_OFF`].
    known: LazyPages<u8>,
    /// Per anchor: 0 if not reached yet, else its best cost so far plus 1.
    best: LazyPages<u64>,
    open: BinaryHeap<Reverse<(u64, usize)>>,
    /// Anchors in the order the search settled them (cheapest first).
    settled: Vec<usize>,
    /// Settled anchors before this one overlap a slot: taken for good.
    cursor: usize,
    /// The open list of [`reaches`](Self::reaches)'s walks, kept between them.
    open_walk: Buckets,
    /// The open list of the walks from the target, and per anchor the number of the last walk
    /// that visited it (`walks` counts them).
    from_target: Buckets,
    walked: LazyPages<u32>,
    walks: u32,
    /// One of the target's anchors the search starts from, if it has any.
    seed: Option<usize>,
    /// For a split target: per anchor, the part of the map it is joined to by steps that
    /// enter no blocked anchor, numbered from 1 as [`joined`](Self::joined) floods them (0:
    /// not flooded yet). Each part is flooded once, however many members ask.
    parts: LazyPages<u32>,
    part_count: u32,
}

impl SlotSearch {
    /// A search for agents of `size` on `graph` (a map `width x height` anchors) round the
    /// units of `view`, from the target cell `target` (map-local) and its legal anchors
    /// `seeds`.
    pub(super) fn new(
        (graph, view): (Arc<AnchorGraph>, UnitsView),
        (width, height): (usize, usize),
        size: u8,
        target: (usize, usize),
        seeds: &[usize],
    ) -> Self {
        let mut search = SlotSearch {
            split_seeds: !joined_by_steps(seeds, &graph, &view, width),
            offsets: direction_offsets(width),
            known: LazyPages::new(height * width),
            best: LazyPages::new(height * width),
            open: BinaryHeap::new(),
            settled: Vec::new(),
            cursor: 0,
            open_walk: Buckets::new(width + height),
            from_target: Buckets::new(width + height),
            walked: LazyPages::new(height * width),
            walks: 0,
            seed: seeds.first().copied(),
            parts: LazyPages::new(height * width),
            part_count: 0,
            target,
            width,
            size,
            graph,
            view,
        };
        for &seed in seeds {
            search.best.set(seed, 1);
            search.open.push(Reverse((0, seed)));
            search.known.set(seed, CONNECTED);
        }
        search
    }

    /// The next anchor the search settles, if any is left.
    fn settle_next(&mut self) -> Option<usize> {
        while let Some(Reverse((cost, anchor))) = self.open.pop() {
            if self.best.get(anchor) - 1 < cost {
                continue;
            }
            let mask = self.view.unblocked_mask(anchor, self.graph.moves[anchor]);
            for direction in directions_in(mask) {
                let next = anchor.wrapping_add_signed(self.offsets[direction]);
                let next_cost = cost + STEP_LENGTHS[direction] * self.graph.entry_multiplier(next);
                let best = self.best.get(next);
                if best == 0 || next_cost < best - 1 {
                    self.best.set(next, next_cost + 1);
                    self.open.push(Reverse((next_cost, next)));
                    self.known.set(next, CONNECTED);
                }
            }
            // Settled once: a later, dearer entry of the same anchor is skipped above.
            self.settled.push(anchor);
            return Some(anchor);
        }
        None
    }

    /// The cheapest settled anchor whose footprint overlaps no cell of `taken` and that a unit
    /// at `start` reaches, settling more as needed.
    pub(super) fn next_free(&mut self, taken: &[u64], start: usize) -> Option<usize> {
        let mut at = self.cursor;
        loop {
            while let Some(&anchor) = self.settled.get(at) {
                if !self.fits(anchor, taken) {
                    // Taken for good: later members skip it too.
                    if at == self.cursor {
                        self.cursor += 1;
                    }
                } else if !self.split_seeds || self.joined(start, anchor) {
                    // Its cells are taken next, so no later member fits there.
                    if at == self.cursor {
                        self.cursor += 1;
                    }
                    return Some(anchor);
                }
                at += 1;
            }
            self.settle_next()?;
        }
    }

    /// Whether `from` (where a unit stands, blocked or not) and `to` (a settled anchor that
    /// fits: not blocked) are joined by steps that enter no blocked anchor; for the rare split
    /// target only. `from` joins `to` if it is `to`, or if one of its steps enters an anchor of
    /// `to`'s part (steps between unblocked anchors are legal both ways, so a part is the same
    /// whichever of its anchors a flood starts from).
    fn joined(&mut self, from: usize, to: usize) -> bool {
        if from == to {
            return true;
        }
        let part = self.part_of(to);
        let steps = self.view.steps_to_unblocked(from, self.graph.moves[from]);
        directions_in(steps).any(|direction| {
            let next = from.wrapping_add_signed(self.offsets[direction]);
            self.part_of(next) == part
        })
    }

    /// The part of the map holding the unblocked anchor `anchor` (see [`parts`](Self::parts)),
    /// flooding it first if no flood has reached it yet.
    fn part_of(&mut self, anchor: usize) -> u32 {
        let known = self.parts.get(anchor);
        if known != 0 {
            return known;
        }
        self.part_count += 1;
        let part = self.part_count;
        self.parts.set(anchor, part);
        let mut pending = vec![anchor];
        while let Some(at) = pending.pop() {
            let mask = self.view.unblocked_mask(at, self.graph.moves[at]);
            for direction in directions_in(mask) {
                let next = at.wrapping_add_signed(self.offsets[direction]);
                if self.parts.get(next) == 0 {
                    self.parts.set(next, part);
                    pending.push(next);
                }
            }
        }
        part
    }

    fn fits(&self, anchor: usize, taken: &[u64]) -> bool {
        let side = usize::from(self.size);
        (0..side).all(|row| {
            (0..side).all(|column| {
                let cell = anchor + row * self.width + column;
                taken[cell / 64] >> (cell % 64) & 1 == 0
            })
        })
    }

    /// Takes over what a search for a larger size with the same profile knows to be connected
    /// to the target, when that is sound (see the module docs): `larger` is finished, its
    /// seeds are joined among themselves, and this search reaches one of them.
    pub(super) fn borrow_connections(&mut self, larger: &SlotSearch) {
        let Some(seed) = larger.seed.filter(|_| !larger.split_seeds) else {
            return;
        };
        if !self.reaches(seed) {
            return;
        }
        self.known.merge_from(&larger.known, |mine, theirs| {
            if mine == UNKNOWN && theirs == CONNECTED {
                CONNECTED
            } else {
                mine
            }
        });
    }

    /// Whether a unit standing at `start` reaches the target's anchors.
    ///
    /// Two best-first walks take turns, one anchor each: one from `start` towards the
    /// target, which stops at an anchor known to be connected (or cut off) and then knows
    /// everything it visited alike; one from the target's first anchor towards `start`, every
    /// anchor of which is connected. Steps are symmetric (a step between two anchors is legal
    /// both ways), so the walks meeting means `start` is connected. If the walk from the
    /// target runs out of anchors first, it has visited the target's whole part of the map
    /// (it passes through known anchors too), and `start` is not in it: cut off. A walk from
    /// the target alone cannot say that when the target's anchors are not joined among
    /// themselves, so then only the walk from `start` runs.
    pub(super) fn reaches(&mut self, start: usize) -> bool {
        if !self.graph.regions.is_labelled(start) {
            return false;
        }
        if self.view.is_blocked(start) {
            // Its ways out may lie in different parts: each is asked on its own.
            let mask = self.view.steps_to_unblocked(start, self.graph.moves[start]);
            let mut reached = false;
            for direction in directions_in(mask) {
                reached |= self.reaches(start.wrapping_add_signed(self.offsets[direction]));
            }
            return reached;
        }
        // `start` is not blocked here, so every anchor visited shares its part of the map.
        if self.known.get(start) != UNKNOWN {
            return self.known.get(start) == CONNECTED;
        }
        self.known.set(start, VISITING);
        let mut visited = vec![start];
        let width = self.width;
        let start_cell = (start % width, start / width);
        self.open_walk.clear();
        self.open_walk
            .push(chebyshev(start_cell, self.target), start);
        self.from_target.clear();
        self.walks += 1;
        let from_target = self.seed.filter(|_| !self.split_seeds);
        if let Some(seed) = from_target {
            self.from_target
                .push(chebyshev((seed % width, seed / width), start_cell), seed);
            self.walked.set(seed, self.walks);
        }
        let verdict = loop {
            if let Some(verdict) = self.step_from_start(&mut visited) {
                break verdict;
            }
            if from_target.is_some() {
                match self.step_from_target(start_cell) {
                    TargetSide::Walking => {}
                    TargetSide::Met => break CONNECTED,
                    TargetSide::Exhausted => break CUT_OFF,
                }
            }
        };
        for anchor in visited {
            self.known.set(anchor, verdict);
        }
        verdict == CONNECTED
    }

    /// The anchors one step round the units from `anchor`, each with its map-local cell.
    fn steps_out(&self, anchor: usize) -> impl Iterator<Item = (usize, (usize, usize))> + use<> {
        let cell = (anchor % self.width, anchor / self.width);
        let mask = self.view.unblocked_mask(anchor, self.graph.moves[anchor]);
        let offsets = self.offsets;
        directions_in(mask).map(move |direction| {
            let next = anchor.wrapping_add_signed(offsets[direction]);
            (next, neighbour(cell, direction))
        })
    }

    /// One anchor of the walk from a start towards the target: the verdict once it meets a
    /// known anchor or runs out, else `None`.
    fn step_from_start(&mut self, visited: &mut Vec<usize>) -> Option<u8> {
        let Some(anchor) = self.open_walk.pop() else {
            return Some(CUT_OFF);
        };
        for (next, cell) in self.steps_out(anchor) {
            match self.known.get(next) {
                UNKNOWN => {
                    self.known.set(next, VISITING);
                    visited.push(next);
                    self.open_walk.push(chebyshev(cell, self.target), next);
                }
                VISITING => {}
                known => return Some(known),
            }
        }
        None
    }

    /// One anchor of the walk from the target towards `start_cell`, every anchor of which
    /// it marks connected.
    fn step_from_target(&mut self, start_cell: (usize, usize)) -> TargetSide {
        let Some(anchor) = self.from_target.pop() else {
            return TargetSide::Exhausted;
        };
        for (next, cell) in self.steps_out(anchor) {
            if self.walked.get(next) == self.walks {
                continue;
            }
            self.walked.set(next, self.walks);
            match self.known.get(next) {
                VISITING => return TargetSide::Met,
                UNKNOWN => self.known.set(next, CONNECTED),
                _ => {}
            }
            self.from_target.push(chebyshev(cell, start_cell), next);
        }
        TargetSide::Walking
    }
}

/// Where the walk from the target stands after one anchor.
enum TargetSide {
    Walking,
    /// It reached an anchor the walk from the start visited.
    Met,
    /// It visited every anchor it can reach.
    Exhausted,
}

/// The cell one step in `direction` from `(x, y)` (a step the map allows, so on the map).
fn neighbour((x, y): (usize, usize), direction: usize) -> (usize, usize) {
    let step = DIRECTIONS[direction];
    (
        x.wrapping_add_signed(step.dx as isize),
        y.wrapping_add_signed(step.dy as isize),
    )
}

/// The distance between two cells in king's moves.
fn chebyshev((x, y): (usize, usize), (to_x, to_y): (usize, usize)) -> usize {
    x.abs_diff(to_x).max(y.abs_diff(to_y))
}

/// Whether the anchors of `seeds` are joined by steps among themselves (none entering a
/// blocked anchor): then reaching one of them is reaching them all.
fn joined_by_steps(seeds: &[usize], graph: &AnchorGraph, view: &UnitsView, width: usize) -> bool {
    if seeds.len() <= 1 {
        return true;
    }
    let offsets = direction_offsets(width);
    let mut joined = vec![false; seeds.len()];
    let mut pending = vec![0];
    if let Some(first) = joined.first_mut() {
        *first = true;
    }
    while let Some(index) = pending.pop() {
        let seed = seeds[index];
        for direction in directions_in(view.unblocked_mask(seed, graph.moves[seed])) {
            let next = seed.wrapping_add_signed(offsets[direction]);
            if let Some(other) = seeds.iter().position(|&seed| seed == next) {
                if !joined[other] {
                    joined[other] = true;
                    pending.push(other);
                }
            }
        }
    }
    joined.iter().all(|&joined| joined)
}
