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
use super::scratch::{Node, SearchScratch, DIRECTION_MASK};
use crate::movement::{direction_offsets, STEP_LENGTHS};

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
/// (by label). `moves` are the graph's move masks; `multiplier(b)` is the fixed-point
/// multiplier of entering `b`.
pub(crate) fn range_search<M: MoveMasks>(
    scratch: &mut SearchScratch,
    moves: M,
    multiplier: impl Fn(usize) -> u64,
    width: usize,
    start: usize,
    budget: Budget,
) -> Vec<Reached> {
    let reached_state = scratch.begin(moves.len());
    let SearchScratch { nodes, open, .. } = scratch;
    let open = &mut open.range;
    open.clear();
    let nodes = &mut nodes[..moves.len()];
    let offsets = direction_offsets(width);
    let span = budget.per_turn + 1;
    let last_label = u128::from(budget.turns) * u128::from(span);
    let key = |label: u64, anchor: usize| u128::from(label) << 32 | anchor as u128;
    let placed = |nodes: &mut [Node], key: u128, slot: u32| nodes[key as u32 as usize].slot = slot;

    nodes[start] = Node {
        g: 0,
        slot: 0,
        state: reached_state,
    };
    open.push(key(0, start), |k, slot| placed(nodes, k, slot));
    let mut settled: Vec<Reached> = Vec::new();
    while let Some(entry) = open.pop(|k, slot| placed(nodes, k, slot)) {
        let anchor = entry as u32 as usize;
        let label = (entry >> 32) as u64;
        let direction = (nodes[anchor].state & DIRECTION_MASK) as u8;
        let cost = if anchor == start {
            0
        } else {
            let parent = anchor.wrapping_add_signed(-offsets[usize::from(direction)]);
            // Settled before its child, so its `slot` already names its entry.
            let parent_entry = settled[nodes[parent].slot as usize];
            parent_entry.cost + STEP_LENGTHS[usize::from(direction)] * multiplier(anchor)
        };
        // From now on `slot` names the anchor's place in `settled`. No later label can lower
        // a settled one (labels never decrease along a step), so it is never looked up in
        // the queue again.
        nodes[anchor].slot = settled.len() as u32;
        settled.push(Reached {
            anchor: anchor as u32,
            direction,
            turn: (label / span) as u32,
            cost,
        });
        let (turn, spent) = (label / span, label % span);
        let mut mask = moves.mask(anchor);
        while mask != 0 {
            let step = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = anchor.wrapping_add_signed(offsets[step]);
            let node = nodes[next];
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
            if node.state < reached_state {
                nodes[next] = Node {
                    g: next_label,
                    slot: 0,
                    state: reached_state | step as u32,
                };
                open.push(key(next_label, next), |k, slot| placed(nodes, k, slot));
            } else if next_label < node.g {
                nodes[next].g = next_label;
                nodes[next].state = reached_state | step as u32;
                open.decrease(node.slot, key(next_label, next), |k, slot| {
                    placed(nodes, k, slot)
                });
            }
        }
    }
    settled
}
