//! Movement ranges: one forward Dijkstra search from a start, bounded by a budget per turn.
//!
//! # What it computes
//!
//! Under the entry-cost convention the cost of reaching `b` from the start is what a path
//! from the start pays, entering `b` last: a forward search, not the backward one of flow
//! fields (the cost from `a` to `b` is not the cost from `b` to `a`).
//!
//! With one turn, every anchor whose optimal cost is at most the budget `B` is labelled with
//! that cost: textbook Dijkstra, bounded at `B`. With several turns a unit spends at most `B`
//! per turn and a step never spans two turns (what is left of a turn is lost). Each anchor
//! then gets the smallest label `(turns, spent)` in lexicographic order, where a step of cost
//! `c` from `(t, u)` goes to `(t, u + c)` if `u + c <= B` and to `(t + 1, c)` otherwise (if
//! `c <= B`). The extension is monotone in the label (a smaller label never extends to a
//! larger one) and never decreases it, so Dijkstra's argument holds over these labels: the
//! first time an anchor is taken off the queue its label is final. With one turn the label
//! is `(1, cost)` and this is the plain search.
//!
//! Labels pack into one integer, `turns * (B + 1) + spent`, which orders them the same way.
//! Ties break by storage index (lowest `y`, then `x`), so equal queries give equal ranges.

use super::moves::MoveMasks;
use crate::cost::STRAIGHT_STEP;
use crate::movement::{direction_offsets, OPPOSITE, STEP_LENGTHS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// One anchor the search reached: its storage index, its packed label, the total cost of the
/// path to it, and the direction of the last step (meaningless for the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reached {
    pub anchor: u32,
    pub direction: u8,
    /// The whole turns used before the one it is reached in.
    pub turn: u32,
    /// The fixed-point cost of the path, all turns together.
    pub cost: u64,
}

/// The bounds of one range search: the budget per turn (fixed-point) and how many turns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub per_turn: u64,
    pub turns: u32,
}

/// Every anchor reached from `start` within `budget`, in the order the search settled them
/// (by label). `moves` are the graph's move masks on a `width x height` map; `multiplier(b)`
/// is the fixed-point multiplier of entering `b`, never below `cheapest`.
///
/// The search keeps its per-anchor state in a window round the start that holds every anchor
/// the budget can reach (each step costs at least a straight step at `cheapest`), so its
/// memory follows the range, not the map, and stays in cache; with `cheapest` 0 the window is
/// the whole map.
pub(crate) fn range_search<M: MoveMasks>(
    moves: M,
    multiplier: (impl Fn(usize) -> u64, u64),
    size: (usize, usize),
    start: usize,
    budget: Budget,
) -> RangeFound {
    let span = u128::from(budget.per_turn) + 1;
    let window = Window::around(start, size, budget, multiplier.1);
    // Labels and window indices in one 64-bit key where both fit (nearly always).
    if u128::from(budget.turns) * span < 1 << 32 && window.width * window.height < 1 << 32 {
        search_in::<u64, M>(moves, multiplier, size.0, start, budget, window)
    } else {
        search_in::<u128, M>(moves, multiplier, size.0, start, budget, window)
    }
}

/// What [`range_search`] found: every anchor reached, in the order settled, and the window
/// they lie in with each window anchor's place in that list (`u32::MAX` where none).
pub(crate) struct RangeFound {
    pub settled: Vec<Reached>,
    pub window: Window,
    pub places: Vec<u32>,
}

/// A queue key holding a label and a window index, ordered by label, then index.
trait RangeKey: Ord + Copy {
    fn new(label: u64, local: usize) -> Self;
    fn label(self) -> u64;
    fn local(self) -> usize;
}

impl RangeKey for u64 {
    #[inline(always)]
    fn new(label: u64, local: usize) -> Self {
        label << 32 | local as u64
    }
    #[inline(always)]
    fn label(self) -> u64 {
        self >> 32
    }
    #[inline(always)]
    fn local(self) -> usize {
        self as u32 as usize
    }
}

impl RangeKey for u128 {
    #[inline(always)]
    fn new(label: u64, local: usize) -> Self {
        u128::from(label) << 64 | local as u128
    }
    #[inline(always)]
    fn label(self) -> u64 {
        (self >> 64) as u64
    }
    #[inline(always)]
    fn local(self) -> usize {
        self as u64 as usize
    }
}

/// [`range_search`] with keys of type `K`.
///
/// The queue keeps duplicates instead of lowering keys in place: a lowered label pushes a new
/// key and the old one is skipped when it comes up (its label no longer matches, or the
/// anchor is settled). Keys come off in the same order as from a queue that lowers in place,
/// so the settled order, and with it every parent chosen, is the same.
fn search_in<K: RangeKey, M: MoveMasks>(
    moves: M,
    (multiplier, _): (impl Fn(usize) -> u64, u64),
    width: usize,
    start: usize,
    budget: Budget,
    window: Window,
) -> RangeFound {
    let mut open: BinaryHeap<Reverse<K>> = BinaryHeap::with_capacity(1024);
    let mut nodes = vec![RangeNode::default(); window.width * window.height];
    let global_offsets = direction_offsets(width);
    let local_offsets = direction_offsets(window.width);
    let span = budget.per_turn + 1;
    let last_label = u128::from(budget.turns) * u128::from(span);

    let local_start = window.local(start, width);
    nodes[local_start].reached = true;
    open.push(Reverse(K::new(0, local_start)));
    let mut settled: Vec<Reached> = Vec::new();
    while let Some(Reverse(entry)) = open.pop() {
        let (local, label) = (entry.local(), entry.label());
        let node = nodes[local];
        if node.settled || label != node.label {
            continue;
        }
        let anchor = window.global(local, width);
        let direction = node.direction;
        let cost = if anchor == start {
            0
        } else {
            let parent = local.wrapping_add_signed(-local_offsets[usize::from(direction)]);
            // Settled before its child, so its `place` is set.
            let parent_entry = settled[nodes[parent].place as usize];
            parent_entry.cost + STEP_LENGTHS[usize::from(direction)] * multiplier(anchor)
        };
        nodes[local].place = settled.len() as u32;
        nodes[local].settled = true;
        let (turn, spent) = if budget.turns == 1 {
            (0, label)
        } else {
            (label / span, label % span)
        };
        settled.push(Reached {
            anchor: anchor as u32,
            direction,
            turn: turn as u32,
            cost,
        });
        let mut mask = moves.mask(anchor);
        if anchor != start {
            // The step back to the parent cannot improve it: labels never decrease.
            mask &= !(1 << OPPOSITE[usize::from(direction)]);
        }
        while mask != 0 {
            let step = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = anchor.wrapping_add_signed(global_offsets[step]);
            let paid = STEP_LENGTHS[step] * multiplier(next);
            let next_label = if spent + paid <= budget.per_turn {
                turn * span + spent + paid
            } else if paid <= budget.per_turn {
                (turn + 1) * span + paid
            } else {
                continue;
            };
            if u128::from(next_label) >= last_label {
                continue;
            }
            // Within the window: every anchor the budget reaches lies in it.
            let next_local = local.wrapping_add_signed(local_offsets[step]);
            let node = &mut nodes[next_local];
            // A settled anchor's label is never above `next_label` (labels never decrease
            // along a step), so only open or unseen anchors can improve.
            if !node.reached || next_label < node.label {
                *node = RangeNode {
                    label: next_label,
                    place: 0,
                    direction: step as u8,
                    reached: true,
                    settled: false,
                };
                open.push(Reverse(K::new(next_label, next_local)));
            }
        }
    }
    let places = nodes
        .iter()
        .map(|node| if node.settled { node.place } else { u32::MAX })
        .collect();
    RangeFound {
        settled,
        window,
        places,
    }
}

/// The search state of one anchor of a range.
#[derive(Debug, Clone, Copy, Default)]
struct RangeNode {
    label: u64,
    /// Its place in the settled list, once settled.
    place: u32,
    /// The step that reached it.
    direction: u8,
    reached: bool,
    settled: bool,
}

/// The rectangle of anchors a range can reach, as a grid of its own.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub x0: usize,
    pub y0: usize,
    pub width: usize,
    pub height: usize,
}

impl Window {
    /// The anchors within the budget's reach of `start` on a `width x height` map: no more
    /// than `turns * per_turn / (STRAIGHT_STEP * cheapest)` steps away in either axis (the
    /// whole map if `cheapest` is 0).
    fn around(
        start: usize,
        (width, height): (usize, usize),
        budget: Budget,
        cheapest: u64,
    ) -> Self {
        let total = u128::from(budget.per_turn) * u128::from(budget.turns);
        let reach = match u128::from(STRAIGHT_STEP) * u128::from(cheapest) {
            0 => usize::MAX,
            step => usize::try_from(total / step).unwrap_or(usize::MAX),
        };
        let (x, y) = (start % width, start / width);
        let (x0, y0) = (x.saturating_sub(reach), y.saturating_sub(reach));
        let x1 = x.saturating_add(reach).saturating_add(1).min(width);
        let y1 = y.saturating_add(reach).saturating_add(1).min(height);
        Window {
            x0,
            y0,
            width: x1 - x0,
            height: y1 - y0,
        }
    }

    pub fn local(&self, anchor: usize, map_width: usize) -> usize {
        (anchor / map_width - self.y0) * self.width + anchor % map_width - self.x0
    }

    pub fn global(&self, local: usize, map_width: usize) -> usize {
        (local / self.width + self.y0) * map_width + local % self.width + self.x0
    }
}
