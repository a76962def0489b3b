//! Jump-point search: A* over the anchors where an optimal path may have to turn, on graphs
//! with obstacles, many agent sizes and per-anchor entry costs.
//!
//! Plain A* expands every anchor of every equally good path. Jump-point search (Harabor and
//! Grastien, AAAI 2011) expands only *jump points*: from each one it walks straight and
//! diagonal rays without touching the open list, and stops where a ray meets the goal or an
//! anchor at which an optimal path may have to turn. Its extension to weighted grids (JPSW,
//! Carlson et al., AAAI 2023) treats a change of cost like an obstacle; the rules below do the
//! same for this crate's cost model, derived and proved here.
//!
//! # Cost model
//!
//! The graph is the one [`AnchorGraph`](crate::graph::AnchorGraph) stores for one profile and
//! agent size: an anchor is legal iff the agent fits there; a straight step is legal iff both
//! ends are; a diagonal step is legal iff its end and both orthogonal anchors it passes are
//! (no corner cutting). A step of length `len` (`S` straight, `D` diagonal, in the fixed-point
//! units of [`cost`](crate::cost), with `S <= D < 2S`) into anchor `b` costs `len * m(b)`,
//! where `m(b) >= 0` is `b`'s entry multiplier. The start is never charged. 8-way movement
//! first; the 4-way rules, proved the same way, follow.
//!
//! # The pruning rule
//!
//! Name directions by compass (`N` is up). Let `n` be reached by a step in direction `d` from
//! `p = n - d`. The *successors* of `n` are the legal steps from `n` among:
//!
//! * `d` straight, say `E` (the natural successor), plus for each side, say `N`:
//!   - `N` and `NE` when `p + N` is illegal (an obstacle beside the parent);
//!   - otherwise `N` when `(D - S) * m(n + N) > S * m(n)`, and `NE` when
//!     `D * m(n + N) + S * m(n + NE) > S * m(n) + D * m(n + NE)`.
//! * `d` diagonal, say `NE`: `NE`, `N` and `E` (natural), plus `NW` when
//!   `S * (m(n + W) + m(n + NW)) > D * (m(n) + m(n + NW))`, and `SE` likewise with `S`.
//!
//! The start's successors are all its legal steps. On a uniform-cost graph every cost test
//! fails, and this is jump-point search without corner cutting: only obstacles beside the
//! parent force a turn, and diagonal arrivals never do.
//!
//! # Why an optimal path survives
//!
//! Call a path *canonical* if every step after the first is a successor of the step before it.
//! **Every start and goal joined by a path are joined by an optimal canonical path.** Among all
//! walks from start to goal take one minimising, in this order: its cost, its number of steps,
//! its number of diagonal steps, and its sequence of step kinds read from the start, with a
//! diagonal before a straight. Suppose its step `p -> n` in direction `d` is followed by
//! `n -> x`, not a successor. Every case gives a walk that is smaller in that order, a
//! contradiction:
//!
//! * `x = p` (a step back): drop both steps; costs are never negative.
//! * `d = E`, `x = n + NW`: take `p -> x` straight instead; `S m(x) <= S m(n) + D m(x)`.
//! * `d = E`, `x = n + N`: not a successor, so `p + N` is legal, the diagonal `p -> x` is
//!   legal, and `D m(x) <= S m(n) + S m(x)`: one step fewer, no dearer.
//! * `d = E`, `x = n + NE`: `p + N` is legal and so is `n + N` (the diagonal `n -> x` passes
//!   it), so `p -> n + N -> x` is legal, as many steps and diagonals, no dearer by the rule,
//!   and its diagonal comes first.
//! * `d = NE`, `x = n + W` (or `n + S`): take `p -> x` straight; `S m(x) <= D m(n) + S m(x)`.
//! * `d = NE`, `x = n + NW`: `n -> x` is legal, so `n + W` is; `p -> n + W -> x` is two
//!   straight steps, legal, no dearer by the rule, and has fewer diagonals.
//!
//! The other directions are mirror images. So the minimal walk is an optimal canonical path.
//!
//! # Why the search finds it
//!
//! The search is A* whose expansion of `n` walks rays along the successors of `n`. A straight
//! ray from `n` in direction `d` steps on while the next anchor has no successor but `d`; it
//! stops at an anchor with another successor (a *forced* one), at the goal, or where the step
//! `d` is illegal (a dead end, no canonical path goes on). A diagonal ray also stops at an
//! anchor from which one of its two straight rays stops somewhere other than a dead end.
//! Where a ray stops, that anchor becomes a jump point with the cost of the ray; the anchors
//! passed keep nothing. So every canonical path is a chain of rays between jump points, and
//! the search is A* over the graph of those rays: same costs, a consistent heuristic (it is
//! consistent along each step, so along each ray). Which successors a jump point has depends
//! on how it was reached, so each jump point keeps the union of the successors of every
//! arrival at its best cost, and an arrival at equal cost that adds successors puts it back
//! on the open list to scan just those. Then every anchor on an optimal canonical path is
//! reached at its optimal cost with its arrival direction among those scanned, and the usual
//! A* argument shows the goal is expanded at the optimal cost.
//!
//! # 4-way movement
//!
//! Without diagonals the canonical order puts vertical steps first. After a vertical arrival
//! every step but the one back is a successor (going on, or turning east or west). After a
//! horizontal arrival, say `E` from `p`, the successors are `E` and each side, say `N`, where
//! `p + N` is illegal or `m(p + N) > m(n)`. Minimise (cost, steps, step kinds with vertical
//! before horizontal): if the walk goes `p -> n -> n + N` with `p + N` legal and
//! `m(p + N) <= m(n)`, then `p -> p + N -> n + N` is legal, as many steps, no dearer
//! (`S m(p + N) + S m(x) <= S m(n) + S m(x)`), and its vertical step comes first. So a
//! horizontal ray stops where a side opens that was closed beside the anchor behind, or is
//! cheaper to reach from here than from there; a vertical ray tries east and west at every
//! anchor, as a diagonal ray tries its two parts.
//!
//! # Stored rays
//!
//! Where a ray stops for a turn depends on the graph alone (its move masks and, with
//! per-anchor costs, its multipliers), never on the query: so the graph stores where each
//! straight ray and each diagonal ray (under 8-way rules) ends (`graph/stored_rays.rs`, after
//! JPS+, with the rules of `jump_rules.rs`), and a ray is read, not walked, then cut short where
//! it passes the goal or a target; on a weighted graph its cost is the sum of the multipliers
//! of the anchors it enters. The stops are the same, so the search expands the same jump
//! points in the same order and returns the same path as with walked rays. Rays are walked
//! where the stored ones do not describe the search's graph: with other units' costs, from the
//! first anchor a unit touches (the stored ray is read up to it, `units.rs`), and on a
//! weighted graph with other units' footprints blocking (on a uniform-cost graph,
//! `search/units/` reads the stored rays around them).
//!
//! # Several targets
//!
//! [`jump_tree`] runs the same search from one source towards a set of targets, guided by a
//! consistent heuristic that is 0 at every target (the caller's choice: the distance to the
//! targets' bounding rectangle): every ray also stops at each target, and the search ends
//! once every target it must reach has been expanded. A target stopping a ray is one stop
//! more on a canonical path, as the goal is: the target keeps the successors of its arrival,
//! so whatever a canonical path does after passing it is scanned from it. With a consistent
//! heuristic every anchor is expanded at its optimal cost (the A* argument over the graph of
//! rays, for each target in turn), so each target is, and tracing parents back from it gives
//! an optimal path.
//!
//! # What is counted, and which path comes back
//!
//! An expansion is a jump point taken off the open list (the scanning of rays is not
//! counted); the expansion limit counts the same. Open entries are ordered by `(f, h, y, x)`
//! as in A*, and the path returned lists every anchor: the rays between jump points are
//! straight or diagonal lines. Among equally cheap paths it may return a different one than
//! plain A*, but the same one for the same query and map every time.

mod rays;
mod units;

pub(super) use rays::Goal;

use super::anchor_bits::AnchorBits;
use super::heuristic::Heuristic;
use super::keys::KeyCodec;
use super::moves::MoveMasks;
use super::scratch::{JumpLink, Layout, Node, NodeStore, SearchScratch};
use super::step_costs::StepCosts;
use super::{FoundPath, Problem, SearchOutcome};
use crate::movement::direction_offsets;
pub(super) use rays::Stops;
use rays::{Rays, Targets};

/// How the open-list loop of [`expand`] ended.
enum Ending {
    /// `done` said so on expanding this anchor.
    Done(usize),
    /// The open list ran out.
    Exhausted,
    /// The expansion limit was reached first.
    Limit,
}

/// Jump-point search proper. Returns `None` only if a key does not fit `K` (the caller then
/// retries with a wider key type).
pub(super) fn jump_search<
    L: Layout,
    K: KeyCodec,
    H: Heuristic,
    C: StepCosts,
    M: MoveMasks,
    S: Stops,
    const FOUR_WAY: bool,
>(
    scratch: &mut SearchScratch,
    problem: &Problem<H, M>,
    costs: &C,
    codec: K,
    stops: &S,
) -> Option<SearchOutcome> {
    let goal = problem.goal;
    let (ending, expanded, _) =
        expand::<L, K, H, C, M, S, FOUR_WAY>(scratch, problem, costs, codec, stops, |index| {
            index == goal
        })?;
    Some(match ending {
        Ending::Done(index) => SearchOutcome {
            cost: Some(L::node(scratch, index).g),
            path: trace_back(
                |at| L::link(scratch, at),
                problem.width,
                problem.start,
                goal,
            ),
            expanded,
            limit_reached: false,
        },
        Ending::Exhausted => SearchOutcome::unfinished(expanded, false),
        Ending::Limit => SearchOutcome::unfinished(expanded, true),
    })
}

/// Optimal paths from `problem.start` to every anchor in `targets` (a bit per anchor) that
/// the search must reach, `wanted` of them (those in the start's region): jump-point search
/// guided by `problem.heuristic` (consistent, 0 at every target) that stops rays at every
/// target (see "Several targets" in the module docs). Returns `None` only if a key does not
/// fit `K`; otherwise, for each of `queried`, its cost (in graph units) and its path from the
/// start, or `None` if the search did not expand it. `problem.goal` is not used.
pub(super) fn jump_tree<
    L: Layout,
    K: KeyCodec,
    H: Heuristic,
    C: StepCosts,
    M: MoveMasks,
    const FOUR_WAY: bool,
>(
    scratch: &mut SearchScratch,
    problem: &Problem<H, M>,
    costs: &C,
    codec: K,
    (targets, wanted): (&AnchorBits, usize),
    queried: &[usize],
) -> Option<Vec<Option<FoundPath>>> {
    let mut expanded_targets = AnchorBits::like(targets);
    let mut remaining = wanted;
    let stops = Targets::new(targets, problem.width, queried);
    let on_expand = |index: usize| {
        if stops.is_stop(index) && expanded_targets.insert(index) {
            remaining -= 1;
        }
        remaining == 0
    };
    let (_, _, reached) =
        expand::<L, K, H, C, M, _, FOUR_WAY>(scratch, problem, costs, codec, &stops, on_expand)?;
    Some(
        queried
            .iter()
            .map(|&target| {
                let node = L::node(scratch, target);
                let expanded = expanded_targets.contains(target);
                (expanded && node.state >= reached).then(|| {
                    let link = |at| L::link(scratch, at);
                    let path = trace_back(link, problem.width, problem.start, target);
                    FoundPath { cost: node.g, path }
                })
            })
            .collect(),
    )
}

/// The open-list loop shared by [`jump_search`] and [`jump_tree`]: expands jump points from
/// `problem.start` in key order until `done` says so of an expanded anchor, the open list runs
/// out, or the expansion limit is reached. Returns how it ended, the expansions, and the
/// `state` from which a node counts as reached in this search. `None` only if a key does not
/// fit `K`.
fn expand<
    L: Layout,
    K: KeyCodec,
    H: Heuristic,
    C: StepCosts,
    M: MoveMasks,
    S: Stops,
    const FOUR_WAY: bool,
>(
    scratch: &mut SearchScratch,
    problem: &Problem<H, M>,
    costs: &C,
    codec: K,
    stops: &S,
    mut done: impl FnMut(usize) -> bool,
) -> Option<(Ending, u64, u32)> {
    let Problem {
        moves,
        width,
        start,
        heuristic,
        max_expansions,
        incumbent,
        ..
    } = *problem;
    let (mut pages, open, (previous, reached)) = L::begin(scratch, moves.len());
    let open = K::heap(open);
    let rays = Rays::<C, S, M, FOUR_WAY> {
        moves,
        offsets: direction_offsets(width),
        costs,
        stops,
        distances: problem.distances,
    };
    let estimate = |anchor: usize| {
        let (x, y) = (anchor as u32 % width as u32, anchor as u32 / width as u32);
        heuristic.estimate(anchor, x, y)
    };

    let (start_node, start_link) = pages.entry_mut(start);
    *start_node = Node {
        g: 0,
        slot: 0,
        state: reached,
    };
    *start_link = JumpLink {
        parent: start as u32,
        pending: moves.mask(start),
        scanned: 0,
    };
    let start_h = estimate(start);
    open.push(
        codec.encode(start_h, start_h, start as u32)?,
        |key, slot| pages.node_mut(codec.index(key)).slot = slot,
    );

    let mut expanded = 0u64;
    while let Some(entry) = open.pop(|key, slot| pages.node_mut(codec.index(key)).slot = slot) {
        if expanded == max_expansions {
            return Some((Ending::Limit, expanded, reached));
        }
        let index = codec.index(entry);
        expanded += 1;
        if done(index) {
            return Some((Ending::Done(index), expanded, reached));
        }
        if pages.overflowed() {
            return None;
        }
        let (node, link) = pages.entry_mut(index);
        let g = node.g;
        let mut directions = link.pending & !link.scanned;
        link.scanned |= directions;
        link.pending = 0;
        while directions != 0 {
            let direction = directions.trailing_zeros() as usize;
            directions &= directions - 1;
            let Some((target, ray_cost)) = rays.ray(index, direction) else {
                continue;
            };
            let next_g = g + ray_cost;
            let (target_node, target_link) = pages.entry_mut(target);
            let next = *target_node;
            let unreached = next.state < reached;
            // A first arrival is the only one to test: if it is kept, every cheaper one
            // would be too (`incumbent.rs`).
            if unreached
                && incumbent.is_some_and(|bound| {
                    bound.cuts(next.kept_cost(previous), next_g, || estimate(target))
                })
            {
                continue;
            }
            let known_g = next.g | u64::from(unreached).wrapping_neg();
            let is_open = !unreached && open.holds(next.slot, |held| codec.index(held) == target);
            if next_g < known_g {
                *target_node = Node {
                    g: next_g,
                    slot: next.slot,
                    state: reached,
                };
                *target_link = JumpLink {
                    parent: index as u32,
                    pending: rays.successors(target, direction),
                    scanned: 0,
                };
                let h = estimate(target);
                let key = codec.encode(next_g + h, h, target as u32)?;
                let placed = |key: K::Key, slot| pages.node_mut(codec.index(key)).slot = slot;
                if is_open {
                    open.decrease(next.slot, key, placed);
                } else {
                    open.push(key, placed);
                }
            } else if next_g == known_g {
                // Another arrival at the same cost: scan whatever successors it adds.
                let link = target_link;
                let added = rays.successors(target, direction) & !(link.scanned | link.pending);
                if added != 0 {
                    link.pending |= added;
                    if !is_open {
                        let h = estimate(target);
                        let key = codec.encode(next_g + h, h, target as u32)?;
                        open.push(key, |key: K::Key, slot| {
                            pages.node_mut(codec.index(key)).slot = slot
                        });
                    }
                }
            }
        }
    }
    Some((Ending::Exhausted, expanded, reached))
}

/// Every anchor from `start` to `goal`: the jump points, back through their parents, with the
/// straight or diagonal line between each two filled in.
fn trace_back(
    link: impl Fn(usize) -> JumpLink,
    width: usize,
    start: usize,
    goal: usize,
) -> Vec<usize> {
    // Each leg is straight or diagonal: its step, and as many steps as its longer side.
    let leg_into = |to: usize| {
        let from = link(to).parent as usize;
        let (from_x, from_y) = ((from % width) as isize, (from / width) as isize);
        let (to_x, to_y) = ((to % width) as isize, (to / width) as isize);
        let step = (to_y - from_y).signum() * width as isize + (to_x - from_x).signum();
        let steps = (to_x - from_x)
            .unsigned_abs()
            .max((to_y - from_y).unsigned_abs());
        (from, step, steps)
    };
    // The legs are walked twice, from the goal back: once to count the anchors, so the path
    // is allocated once at its size, and once to write them from its end.
    let (mut length, mut at) = (1, goal);
    while at != start {
        let (from, _, steps) = leg_into(at);
        length += steps;
        at = from;
    }
    let mut path = vec![start; length];
    let (mut end, mut at) = (length, goal);
    while at != start {
        let (from, step, steps) = leg_into(at);
        let mut anchor = at;
        for slot in path[end - steps..end].iter_mut().rev() {
            *slot = anchor;
            anchor = anchor.wrapping_add_signed(-step);
        }
        end -= steps;
        at = from;
    }
    path
}
