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
//! # What is counted, and which path comes back
//!
//! An expansion is a jump point taken off the open list (the scanning of rays is not
//! counted); the expansion limit counts the same. Open entries are ordered by `(f, h, y, x)`
//! as in A*, and the path returned lists every anchor: the rays between jump points are
//! straight or diagonal lines. Among equally cheap paths it may return a different one than
//! plain A*, but the same one for the same query and map every time.

use super::heuristic::Heuristic;
use super::keys::KeyCodec;
use super::scratch::{JumpLink, Node, SearchScratch};
use super::step_costs::StepCosts;
use super::{Problem, SearchOutcome};
use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::movement::{direction_offsets, DIRECTIONS, OPPOSITE, STRAIGHT_DIRECTIONS};

/// The index in [`DIRECTIONS`] of the step `(dx, dy)`.
const fn direction_of(dx: i32, dy: i32) -> usize {
    let mut direction = 0;
    while DIRECTIONS[direction].dx != dx || DIRECTIONS[direction].dy != dy {
        direction += 1;
    }
    direction
}

/// For a straight direction `d`: its two sides, each as `(side, diagonal)`, the straight
/// direction at right angles and the diagonal between `d` and it.
const SIDES: [[(usize, usize); 2]; STRAIGHT_DIRECTIONS] = {
    let mut sides = [[(0, 0); 2]; STRAIGHT_DIRECTIONS];
    let mut d = 0;
    while d < STRAIGHT_DIRECTIONS {
        let (dx, dy) = (DIRECTIONS[d].dx, DIRECTIONS[d].dy);
        // Right angles to (dx, dy): (dy, dx) and (-dy, -dx).
        let (ax, ay) = (dy, dx);
        sides[d] = [
            (direction_of(ax, ay), direction_of(dx + ax, dy + ay)),
            (direction_of(-ax, -ay), direction_of(dx - ax, dy - ay)),
        ];
        d += 1;
    }
    sides
};

/// For a straight direction: the bits of its two sides (see [`SIDES`]).
const SIDE_BITS: [u8; 8] = {
    let mut bits = [0; 8];
    let mut d = 0;
    while d < STRAIGHT_DIRECTIONS {
        bits[d] = 1 << SIDES[d][0].0 | 1 << SIDES[d][1].0;
        d += 1;
    }
    bits
};

/// For a diagonal direction `(dx, dy)`: its straight parts `(dx, 0)` and `(0, dy)`.
const PARTS: [[usize; 2]; 8] = {
    let mut parts = [[0; 2]; 8];
    let mut d = STRAIGHT_DIRECTIONS;
    while d < 8 {
        let (dx, dy) = (DIRECTIONS[d].dx, DIRECTIONS[d].dy);
        parts[d] = [direction_of(dx, 0), direction_of(0, dy)];
        d += 1;
    }
    parts
};

/// For a diagonal direction `(dx, dy)`: the two diagonals at right angles to it, each with
/// the straight direction between it and the way back: `((-dx, dy), (-dx, 0))` and
/// `((dx, -dy), (0, -dy))`.
const TURNS: [[(usize, usize); 2]; 8] = {
    let mut turns = [[(0, 0); 2]; 8];
    let mut d = STRAIGHT_DIRECTIONS;
    while d < 8 {
        let (dx, dy) = (DIRECTIONS[d].dx, DIRECTIONS[d].dy);
        turns[d] = [
            (direction_of(-dx, dy), direction_of(-dx, 0)),
            (direction_of(dx, -dy), direction_of(0, -dy)),
        ];
        d += 1;
    }
    turns
};

/// The natural successors of an arrival in each direction: straight on, or a diagonal and
/// its two straight parts.
const NATURAL: [u8; 8] = {
    let mut natural = [0; 8];
    let mut d = 0;
    while d < 8 {
        natural[d] = 1 << d;
        if d >= STRAIGHT_DIRECTIONS {
            natural[d] |= 1 << PARTS[d][0] | 1 << PARTS[d][1];
        }
        d += 1;
    }
    natural
};

/// Whether each direction is vertical (north or south).
const VERTICAL: [bool; 8] = {
    let mut vertical = [false; 8];
    let mut d = 0;
    while d < 8 {
        vertical[d] = DIRECTIONS[d].dx == 0;
        d += 1;
    }
    vertical
};

/// East and west: the straight rays a vertical 4-way ray tries at each anchor.
const HORIZONTAL: [usize; 2] = [direction_of(1, 0), direction_of(-1, 0)];

/// The natural successors under 4-way rules: straight on after a horizontal arrival; straight
/// on, east and west after a vertical one.
const NATURAL_FOUR_WAY: [u8; 8] = {
    let mut natural = [0; 8];
    let mut d = 0;
    while d < STRAIGHT_DIRECTIONS {
        natural[d] = 1 << d;
        if DIRECTIONS[d].dx == 0 {
            natural[d] |= 1 << HORIZONTAL[0] | 1 << HORIZONTAL[1];
        }
        d += 1;
    }
    natural
};

/// The rays of one search: the graph, its costs and the goal they stop at. `FOUR_WAY` selects
/// the 4-way rules (see the module docs).
struct Rays<'a, C, const FOUR_WAY: bool> {
    moves: &'a [u8],
    offsets: [isize; 8],
    costs: &'a C,
    goal: usize,
}

impl<C: StepCosts, const FOUR_WAY: bool> Rays<'_, C, FOUR_WAY> {
    #[inline(always)]
    fn neighbour(&self, anchor: usize, direction: usize) -> usize {
        anchor.wrapping_add_signed(self.offsets[direction])
    }

    /// The successors of `at` reached by a step in `arrival` (see the module docs).
    #[inline(always)]
    fn successors(&self, at: usize, arrival: usize) -> u8 {
        let moves = self.moves[at];
        if FOUR_WAY {
            return self.successors_four_way(at, arrival) & moves;
        }
        let mut successors = NATURAL[arrival];
        if arrival < STRAIGHT_DIRECTIONS {
            let parent_moves = self.moves[self.neighbour(at, OPPOSITE[arrival])];
            for (side, diagonal) in SIDES[arrival] {
                if moves & 1 << side == 0 {
                    // Neither the side nor the diagonal past it is legal.
                    continue;
                }
                if parent_moves & 1 << side == 0 {
                    successors |= 1 << side | 1 << diagonal;
                } else if !C::UNIFORM {
                    let here = self.costs.multiplier(at);
                    let beside = self.costs.multiplier(self.neighbour(at, side));
                    if (DIAGONAL_STEP - STRAIGHT_STEP) * beside > STRAIGHT_STEP * here {
                        successors |= 1 << side;
                    }
                    if moves & 1 << diagonal != 0 {
                        let ahead = self.costs.multiplier(self.neighbour(at, diagonal));
                        if DIAGONAL_STEP * beside + STRAIGHT_STEP * ahead
                            > STRAIGHT_STEP * here + DIAGONAL_STEP * ahead
                        {
                            successors |= 1 << diagonal;
                        }
                    }
                }
            }
        } else if !C::UNIFORM {
            for (diagonal, between) in TURNS[arrival] {
                if moves & 1 << diagonal != 0 {
                    let here = self.costs.multiplier(at);
                    let past = self.costs.multiplier(self.neighbour(at, between));
                    let ahead = self.costs.multiplier(self.neighbour(at, diagonal));
                    if STRAIGHT_STEP * (past + ahead) > DIAGONAL_STEP * (here + ahead) {
                        successors |= 1 << diagonal;
                    }
                }
            }
        }
        successors & moves
    }

    /// [`successors`](Self::successors) under the 4-way rules, before masking by the legal
    /// moves: a vertical arrival may go on or turn either way; a horizontal one goes on, and
    /// turns where the side beside the parent is closed or dearer than here.
    #[inline(always)]
    fn successors_four_way(&self, at: usize, arrival: usize) -> u8 {
        if VERTICAL[arrival] {
            return NATURAL_FOUR_WAY[arrival];
        }
        let moves = self.moves[at];
        let parent = self.neighbour(at, OPPOSITE[arrival]);
        let parent_moves = self.moves[parent];
        let mut successors = 1 << arrival;
        for (side, _) in SIDES[arrival] {
            if moves & 1 << side == 0 {
                continue;
            }
            if parent_moves & 1 << side == 0
                || (!C::UNIFORM
                    && self.costs.multiplier(self.neighbour(parent, side))
                        > self.costs.multiplier(at))
            {
                successors |= 1 << side;
            }
        }
        successors
    }

    /// The successors every arrival in `arrival` has, forced or not.
    #[inline(always)]
    fn natural(arrival: usize) -> u8 {
        if FOUR_WAY {
            NATURAL_FOUR_WAY[arrival]
        } else {
            NATURAL[arrival]
        }
    }

    /// Whether a ray arriving at `at` in `arrival` stops there for a turn.
    #[inline(always)]
    fn forced(&self, at: usize, arrival: usize) -> bool {
        self.successors(at, arrival) & !Self::natural(arrival) != 0
    }

    /// Walks from `from` in the straight `direction`: the first anchor where the ray stops
    /// and the cost of getting there, or `None` at a dead end.
    #[inline(always)]
    fn straight(&self, from: usize, direction: usize) -> Option<(usize, u64)> {
        let forward = 1 << direction;
        let sides = SIDE_BITS[direction];
        let (mut at, mut cost) = (from, 0);
        let mut behind = self.moves[from];
        loop {
            if behind & forward == 0 {
                return None;
            }
            at = self.neighbour(at, direction);
            cost += self.costs.step_cost(direction, at);
            let here = self.moves[at];
            // Where no cost test can force a turn, one is forced exactly where a side opens
            // that was closed beside the anchor behind (the obstacle case of `successors`).
            let forced = if C::UNIFORM || self.costs.even(at) {
                here & sides & !behind != 0
            } else {
                self.forced(at, direction)
            };
            if forced || at == self.goal {
                return Some((at, cost));
            }
            behind = here;
        }
    }

    /// Walks from `from` in `direction` (a diagonal, or a vertical under 4-way rules), trying
    /// both straight rays in `parts` at each anchor: the first anchor where the ray stops and
    /// its cost, or `None` at a dead end.
    fn sweep(&self, from: usize, direction: usize, parts: [usize; 2]) -> Option<(usize, u64)> {
        let (mut at, mut cost) = (from, 0);
        loop {
            if self.moves[at] & 1 << direction == 0 {
                return None;
            }
            at = self.neighbour(at, direction);
            cost += self.costs.step_cost(direction, at);
            // A diagonal arrival is forced to turn only by a cost test; a vertical 4-way
            // arrival never is (every turn is natural).
            if at == self.goal
                || (!FOUR_WAY && !C::UNIFORM && !self.costs.even(at) && self.forced(at, direction))
                || self.straight(at, parts[0]).is_some()
                || self.straight(at, parts[1]).is_some()
            {
                return Some((at, cost));
            }
        }
    }

    /// The ray from `from` in `direction`, whichever kind it is.
    #[inline(always)]
    fn ray(&self, from: usize, direction: usize) -> Option<(usize, u64)> {
        if FOUR_WAY && VERTICAL[direction] {
            self.sweep(from, direction, HORIZONTAL)
        } else if direction < STRAIGHT_DIRECTIONS {
            self.straight(from, direction)
        } else {
            self.sweep(from, direction, PARTS[direction])
        }
    }
}

/// Jump-point search proper. Returns `None` only if a key does not fit `K` (the caller then
/// retries with a wider key type).
pub(super) fn jump_search<K: KeyCodec, H: Heuristic, C: StepCosts, const FOUR_WAY: bool>(
    scratch: &mut SearchScratch,
    problem: &Problem<H>,
    costs: &C,
    codec: K,
) -> Option<SearchOutcome> {
    let Problem {
        moves,
        width,
        start,
        goal,
        heuristic,
        max_expansions,
    } = *problem;
    let reached = scratch.begin_jumps(moves.len());
    let SearchScratch {
        nodes,
        jump_links,
        open,
        ..
    } = scratch;
    let open = K::heap(open);
    let nodes = &mut nodes[..moves.len()];
    let links = &mut jump_links[..moves.len()];
    let rays = Rays::<C, FOUR_WAY> {
        moves,
        offsets: direction_offsets(width),
        costs,
        goal,
    };
    let estimate = |anchor: usize| {
        let (x, y) = (anchor as u32 % width as u32, anchor as u32 / width as u32);
        heuristic.estimate(anchor, x, y)
    };

    nodes[start] = Node {
        g: 0,
        slot: 0,
        state: reached,
    };
    links[start] = JumpLink {
        parent: start as u32,
        pending: moves[start],
        scanned: 0,
    };
    let start_h = estimate(start);
    open.push(
        codec.encode(start_h, start_h, start as u32)?,
        |key, slot| nodes[codec.index(key)].slot = slot,
    );

    let mut expanded = 0u64;
    while let Some(entry) = open.pop(|key, slot| nodes[codec.index(key)].slot = slot) {
        if expanded == max_expansions {
            return Some(SearchOutcome::unfinished(expanded, true));
        }
        let index = codec.index(entry);
        expanded += 1;
        if index == goal {
            return Some(SearchOutcome {
                cost: Some(nodes[index].g),
                path: trace_back(links, width, start, goal),
                expanded,
                limit_reached: false,
            });
        }
        let g = nodes[index].g;
        let link = &mut links[index];
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
            let next = nodes[target];
            let unreached = next.state < reached;
            let known_g = next.g | u64::from(unreached).wrapping_neg();
            let is_open = !unreached && open.holds(next.slot, |held| codec.index(held) == target);
            if next_g < known_g {
                nodes[target].g = next_g;
                nodes[target].state = reached;
                links[target] = JumpLink {
                    parent: index as u32,
                    pending: rays.successors(target, direction),
                    scanned: 0,
                };
                let h = estimate(target);
                let key = codec.encode(next_g + h, h, target as u32)?;
                let placed = |key: K::Key, slot| nodes[codec.index(key)].slot = slot;
                if is_open {
                    open.decrease(next.slot, key, placed);
                } else {
                    open.push(key, placed);
                }
            } else if next_g == known_g {
                // Another arrival at the same cost: scan whatever successors it adds.
                let link = &mut links[target];
                let added = rays.successors(target, direction) & !(link.scanned | link.pending);
                if added != 0 {
                    link.pending |= added;
                    if !is_open {
                        let h = estimate(target);
                        let key = codec.encode(next_g + h, h, target as u32)?;
                        open.push(key, |key: K::Key, slot| nodes[codec.index(key)].slot = slot);
                    }
                }
            }
        }
    }
    Some(SearchOutcome::unfinished(expanded, false))
}

/// Every anchor from `start` to `goal`: the jump points, back through their parents, with the
/// straight or diagonal line between each two filled in.
fn trace_back(links: &[JumpLink], width: usize, start: usize, goal: usize) -> Vec<usize> {
    let mut jump_points = vec![goal];
    let mut at = goal;
    while at != start {
        at = links[at].parent as usize;
        jump_points.push(at);
    }
    jump_points.reverse();
    let mut path = vec![start];
    for pair in jump_points.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        let dx = (to % width).cmp(&(from % width)) as isize;
        let dy = (to / width).cmp(&(from / width)) as isize;
        let step = dy * width as isize + dx;
        let mut at = from;
        while at != to {
            at = at.wrapping_add_signed(step);
            path.push(at);
        }
    }
    path
}
