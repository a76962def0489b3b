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
    let cheapest = graph.min_multiplier;
    let mut path = Vec::with_capacity(steps + 1);
    path.push(start);
    let mut here = start;
    let mut cost = 0;
    for &(direction, count) in legs {
        for _ in 0..count {
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
            here = here.wrapping_add_signed(offsets[direction]);
            // Another unit's multiplier counts only where it exceeds the cheapest.
            if let Some(UnitsInSearch {
                view,
                rule: OtherUnits::Cost(multiplier),
            }) = units
            {
                if view.is_blocked(here)
                    && u64::from(multiplier) > u64::from(cheapest) * graph.cost_unit
                {
                    return None;
                }
            }
            if let EntryCosts::PerAnchor(multipliers) = &graph.entry {
                if multipliers[here] != cheapest {
                    return None;
                }
            }
            cost += STEP_LENGTHS[direction] * u64::from(cheapest);
            path.push(here);
        }
    }
    Some(DirectPath { path, cost })
}
