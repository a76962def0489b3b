//! The direct path: before searching, walk straight at the goal and keep the walk if it is
//! provably optimal. Most short trips in open country are answered so, with no open list.
//!
//! # The walk
//!
//! From the start, step diagonally towards the goal until level with it in one axis, then
//! straight (8-way); or straight along the columns, then along the rows (4-way). If that walk
//! meets an illegal step, try the other order (straight first, then diagonal; rows, then
//! columns). Every step must be legal for the agent (the graph's move masks, corner rule
//! included) and enter an anchor whose multiplier is the profile's smallest.
//!
//! # Why the walk is optimal
//!
//! Any path from `s` to `g` has steps whose lengths add up to at least the octile (8-way) or
//! Manhattan (4-way) distance `D(s, g)`, and each step costs its length times a multiplier of at
//! least `m_min`, the smallest the profile has: every path costs at least `D(s, g) * m_min`
//! (this is the search's distance heuristic). The walk has exactly that length (it never steps
//! away from the goal in either axis, and in 8-way it takes `min(dx, dy)` diagonals), and each
//! of its steps pays `m_min`, so its cost is `D(s, g) * m_min`: the lower bound, hence optimal.
//! When a step is illegal or costs more, nothing is claimed and the search runs as usual.
//!
//! With other units counted (`units.rs`) the walk reads the query's graph: under `Block` a
//! step must avoid the blocked anchors, under `Cost` an anchor under a unit must still cost
//! the smallest multiplier; the bound and the argument are unchanged (units only raise
//! costs and remove anchors).

use super::UnitsInSearch;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{direction_offsets, Movement, STEP_LENGTHS};
use crate::occupancy::OtherUnits;

/// Direction indices in `movement::DIRECTIONS` order: N, E, S, W, NE, SE, SW, NW.
const NORTH: usize = 0;
const EAST: usize = 1;
const SOUTH: usize = 2;
const WEST: usize = 3;
const NORTH_EAST: usize = 4;
const SOUTH_EAST: usize = 5;
const SOUTH_WEST: usize = 6;
const NORTH_WEST: usize = 7;

/// A walk found optimal: its anchors from start to goal and its cost in graph units.
pub(super) struct DirectPath {
    pub path: Vec<usize>,
    pub cost: u64,
}

/// The direct path from `start` to `goal` (storage indices of legal anchors on a map `width`
/// wide) if one of the two walks is legal and pays the smallest multiplier at every step; see
/// the module documentation. At most `max_steps` steps are walked.
pub(super) fn direct_path(
    graph: &AnchorGraph,
    movement: Movement,
    width: usize,
    (start, goal): (usize, usize),
    max_steps: u64,
    units: Option<UnitsInSearch<'_>>,
) -> Option<DirectPath> {
    let (x0, y0) = (start % width, start / width);
    let (x1, y1) = (goal % width, goal / width);
    let (dx, dy) = (x0.abs_diff(x1), y0.abs_diff(y1));
    let vertical = if y1 < y0 { NORTH } else { SOUTH };
    let horizontal = if x1 < x0 { WEST } else { EAST };
    let legs: [[(usize, usize); 2]; 2] = match movement {
        Movement::EightWay => {
            let diagonal = match (horizontal, vertical) {
                (EAST, NORTH) => NORTH_EAST,
                (EAST, _) => SOUTH_EAST,
                (_, NORTH) => NORTH_WEST,
                _ => SOUTH_WEST,
            };
            let straight = if dx > dy { horizontal } else { vertical };
            let (diagonals, straights) = (dx.min(dy), dx.abs_diff(dy));
            [
                [(diagonal, diagonals), (straight, straights)],
                [(straight, straights), (diagonal, diagonals)],
            ]
        }
        Movement::FourWay => [
            [(vertical, dy), (horizontal, dx)],
            [(horizontal, dx), (vertical, dy)],
        ],
    };
    let steps = legs[0][0].1 + legs[0][1].1;
    if steps as u64 > max_steps {
        return None;
    }
    legs.iter()
        .find_map(|walk| follow(graph, width, start, walk, steps, units))
}

/// Walks `legs` from `start`, if every step is legal and enters an anchor of the smallest
/// multiplier.
fn follow(
    graph: &AnchorGraph,
    width: usize,
    start: usize,
    legs: &[(usize, usize); 2],
    steps: usize,
    units: Option<UnitsInSearch<'_>>,
) -> Option<DirectPath> {
    let offsets = direction_offsets(width);
    let mut path = Vec::with_capacity(steps + 1);
    path.push(start);
    let mut here = start;
    let mut cost = 0;
    for &(direction, count) in legs {
        for _ in 0..count {
            here = cheapest_step(graph, &offsets, units, here, direction)?;
            cost += STEP_LENGTHS[direction] * u64::from(graph.min_multiplier);
            path.push(here);
        }
    }
    Some(DirectPath { path, cost })
}

/// The anchor one step from `here` in `direction`, if the step is legal for the agent (and,
/// under `Block`, for the counted units) and enters an anchor of the smallest multiplier
/// (under `Cost`, with the counted units' multiplier too).
#[inline]
fn cheapest_step(
    graph: &AnchorGraph,
    offsets: &[isize; 8],
    units: Option<UnitsInSearch<'_>>,
    here: usize,
    direction: usize,
) -> Option<usize> {
    let cheapest = graph.min_multiplier;
    let moves = match units {
        Some(UnitsInSearch {
            view,
            rule: OtherUnits::Block,
        }) => view.unblocked_mask(here, graph.moves[here]),
        _ => graph.moves[here],
    };
    if moves & (1 << direction) == 0 {
        return None;
    }
    let next = here.wrapping_add_signed(offsets[direction]);
    // Another unit's multiplier counts only where it exceeds the cheapest.
    if let Some(UnitsInSearch {
        view,
        rule: OtherUnits::Cost(multiplier),
    }) = units
    {
        if view.is_blocked(next) && u64::from(multiplier) > u64::from(cheapest) * graph.cost_unit {
            return None;
        }
    }
    if let EntryCosts::PerAnchor(multipliers) = &graph.entry {
        if multipliers[next] != cheapest {
            return None;
        }
    }
    Some(next)
}

/// Some walk from `start` of `counts.0` steps in direction `directions.0` and `counts.1` in
/// `directions.1`, taken in any order, whose every step is legal and enters an anchor of the
/// smallest multiplier (as [`direct_path`] asks of its two walks), if one exists: the anchors
/// from `start` to its end. Every walk with those steps ends at the same anchor; where the two
/// directions are a *monotone pair* of the movement (8-way: a diagonal and one of the straight
/// steps it is made of; 4-way: two straight steps at right angles), each has the length of the
/// distance between its ends, and so is optimal by the argument of the module docs.
///
/// The anchors such walks pass are `start + i d0 + j d1` with `i <= counts.0`, `j <= counts.1`,
/// all within the bounding box of the two ends; each is reached by a walk of legal steps
/// exactly when one of its two predecessors is and the step from it is legal. Reachability is
/// settled in that order, `(counts.0 + 1) (counts.1 + 1)` anchors in all, and the walk read back
/// from the end. The last step into an anchor is the diagonal (first direction) one where both
/// are legal, so equal inputs give equal walks.
pub(super) fn any_monotone_walk(
    graph: &AnchorGraph,
    width: usize,
    start: usize,
    (directions, counts): ((usize, usize), (usize, usize)),
    units: Option<UnitsInSearch<'_>>,
) -> Option<Vec<usize>> {
    /// How the walk reached an anchor, in `reached`.
    const UNREACHED: u8 = 0;
    const BY_FIRST: u8 = 1;
    const BY_SECOND: u8 = 2;
    let offsets = direction_offsets(width);
    let (first, second) = (offsets[directions.0], offsets[directions.1]);
    let columns = counts.1 + 1;
    let mut reached = vec![UNREACHED; (counts.0 + 1) * columns];
    reached[0] = BY_FIRST;
    let anchor = |i: usize, j: usize| {
        start
            .wrapping_add_signed(first * i as isize)
            .wrapping_add_signed(second * j as isize)
    };
    let steps_to = |from: usize, direction: usize, to: usize| {
        cheapest_step(graph, &offsets, units, from, direction) == Some(to)
    };
    for i in 0..=counts.0 {
        for j in 0..=counts.1 {
            let at = i * columns + j;
            if at == 0 {
                continue;
            }
            let here = anchor(i, j);
            reached[at] = if i > 0
                && reached[at - columns] != UNREACHED
                && steps_to(anchor(i - 1, j), directions.0, here)
            {
                BY_FIRST
            } else if j > 0
                && reached[at - 1] != UNREACHED
                && steps_to(anchor(i, j - 1), directions.1, here)
            {
                BY_SECOND
            } else {
                UNREACHED
            };
        }
    }
    let (mut i, mut j) = counts;
    if reached[i * columns + j] == UNREACHED {
        return None;
    }
    let mut walk = Vec::with_capacity(counts.0 + counts.1 + 1);
    walk.push(anchor(i, j));
    while (i, j) != (0, 0) {
        if reached[i * columns + j] == BY_FIRST {
            i -= 1;
        } else {
            j -= 1;
        }
        walk.push(anchor(i, j));
    }
    walk.reverse();
    Some(walk)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clearance::ClearanceLayer;
    use crate::grid::{Region, TerrainGrid};
    use crate::movement::DIRECTIONS;
    use crate::profile::AgentProfile;
    use crate::test_rng::TestRng;

    /// Every monotone pair of `movement`, the diagonal first (8-way).
    fn pairs(movement: Movement) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (one, &a) in DIRECTIONS.iter().enumerate() {
            for (other, &b) in DIRECTIONS.iter().enumerate() {
                let pair = match movement {
                    Movement::EightWay => {
                        a.dx != 0
                            && a.dy != 0
                            && b.dx * b.dy == 0
                            && ((b.dx == a.dx && b.dy == 0) || (b.dy == a.dy && b.dx == 0))
                    }
                    Movement::FourWay => {
                        one < other && one < 4 && other < 4 && (a.dx == 0) != (b.dx == 0)
                    }
                };
                if pair {
                    pairs.push((one, other));
                }
            }
        }
        pairs
    }

    /// Whether some order of the steps keeps the rule, tried order by order, each step read
    /// from the map's coordinates, the graph's move masks and its multipliers.
    fn some_order_keeps(
        graph: &AnchorGraph,
        (width, height): (usize, usize),
        at: (i32, i32),
        directions: (usize, usize),
        left: (usize, usize),
    ) -> bool {
        if left == (0, 0) {
            return true;
        }
        let here = at.1 as usize * width + at.0 as usize;
        let cheapest = graph.min_multiplier;
        let step = |direction: usize| {
            let d = DIRECTIONS[direction];
            let next = (at.0 + d.dx, at.1 + d.dy);
            let on_map =
                (0..width as i32).contains(&next.0) && (0..height as i32).contains(&next.1);
            let index = (next.1.max(0) as usize) * width + next.0.max(0) as usize;
            let costs_least = match &graph.entry {
                EntryCosts::PerAnchor(multipliers) => on_map && multipliers[index] == cheapest,
                EntryCosts::Uniform(_) => true,
            };
            (on_map && graph.moves[here] >> direction & 1 != 0 && costs_least).then_some(next)
        };
        let first = (left.0 > 0).then(|| step(directions.0)).flatten();
        let second = (left.1 > 0).then(|| step(directions.1)).flatten();
        first.is_some_and(|next| {
            some_order_keeps(
                graph,
                (width, height),
                next,
                directions,
                (left.0 - 1, left.1),
            )
        }) || second.is_some_and(|next| {
            some_order_keeps(
                graph,
                (width, height),
                next,
                directions,
                (left.0, left.1 - 1),
            )
        })
    }

    #[test]
    fn a_monotone_walk_is_found_exactly_when_some_order_of_its_steps_keeps_the_rule() {
        let mut rng = TestRng(53);
        let (width, height) = (13usize, 11usize);
        let (mut found, mut none) = (0, 0);
        for round in 0..60 {
            // Open ground (1x), dearer ground (2x) and walls, more or fewer of each.
            let walls = 3 + rng.below(12u32);
            let dear = rng.below(3u32) * 10;
            let cells: Vec<u8> = (0..width * height)
                .map(|_| match rng.below(100u32) {
                    roll if roll < walls => 2,
                    roll if roll < walls + dear => 1,
                    _ => 0,
                })
                .collect();
            let region = Region::new(0, 0, width as i32, height as i32);
            let grid = TerrainGrid::from_bytes(region, &cells).expect("a grid");
            let profile = (AgentProfile::new("walker").with_terrain(0, 1.0))
                .and_then(|profile| profile.with_terrain(1, 2.0))
                .expect("a profile");
            let clearance = ClearanceLayer::build(&grid, &profile.capability());
            for movement in [Movement::EightWay, Movement::FourWay] {
                for size in 1..=2u8 {
                    let graph = AnchorGraph::build(&grid, &clearance, &profile, size, movement);
                    for _ in 0..40 {
                        let start = rng.below(width * height);
                        if graph.moves[start] == 0 {
                            continue;
                        }
                        let pairs = pairs(movement);
                        let directions = pairs[rng.below(pairs.len())];
                        let counts = (rng.below(6usize), rng.below(6usize));
                        let at = ((start % width) as i32, (start / width) as i32);
                        let expected =
                            some_order_keeps(&graph, (width, height), at, directions, counts);
                        let walk =
                            any_monotone_walk(&graph, width, start, (directions, counts), None);
                        assert_eq!(walk.is_some(), expected, "round {round}, {at:?}");
                        let Some(walk) = walk else {
                            none += 1;
                            continue;
                        };
                        found += 1;
                        // The walk takes the steps asked for, each legal and of least cost.
                        assert_eq!(walk.len(), counts.0 + counts.1 + 1);
                        assert_eq!(walk[0], start);
                        let offsets = direction_offsets(width);
                        let mut taken = (0, 0);
                        for pair in walk.windows(2) {
                            let direction = (0..8)
                                .find(|&d| pair[0].wrapping_add_signed(offsets[d]) == pair[1])
                                .expect("a step");
                            assert!(graph.moves[pair[0]] >> direction & 1 != 0);
                            if let EntryCosts::PerAnchor(multipliers) = &graph.entry {
                                assert_eq!(multipliers[pair[1]], graph.min_multiplier);
                            }
                            if direction == directions.0 {
                                taken.0 += 1;
                            } else {
                                assert_eq!(direction, directions.1);
                                taken.1 += 1;
                            }
                        }
                        assert_eq!(taken, counts);
                    }
                }
            }
        }
        assert!(found > 1_000 && none > 1_000, "{found} found, {none} none");
    }
}
