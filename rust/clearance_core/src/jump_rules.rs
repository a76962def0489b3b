//! The successor rules of jump-point search: after arriving at an anchor in a direction, which
//! steps may an optimal path take next, and so where a ray must stop.
//!
//! The rules and their proof are in the docs of `search/jump/mod.rs`. They read only the graph
//! (move masks and entry multipliers), never a query, so two places use them: the searches,
//! which walk rays and test each anchor they pass, and the graph's stored rays
//! (`graph/stored_rays.rs`), which walk every ray once ahead of the queries. Both call the
//! functions here, so a stored ray stops exactly where a walked one would.

use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::movement::{direction_of, DIRECTIONS, OPPOSITE, PARTS, SIDES, STRAIGHT_DIRECTIONS};

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
pub(crate) const VERTICAL: [bool; 8] = {
    let mut vertical = [false; 8];
    let mut d = 0;
    while d < 8 {
        vertical[d] = DIRECTIONS[d].dx == 0;
        d += 1;
    }
    vertical
};

/// East and west: the straight rays a vertical 4-way ray tries at each anchor.
pub(crate) const HORIZONTAL: [usize; 2] = [direction_of(1, 0), direction_of(-1, 0)];

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

/// What the rules read of a graph: each anchor's legal moves and entry multiplier.
///
/// `UNIFORM` graphs answer any constant multiplier, and the rules then skip every cost test
/// (none can pass where all anchors cost the same).
pub(crate) trait TurnGraph {
    /// Whether every anchor costs the same to enter.
    const UNIFORM: bool;
    /// The steps the anchor at storage index `anchor` may take: bit `d` for `DIRECTIONS[d]`.
    fn mask(&self, anchor: usize) -> u8;
    /// The multiplier paid on entering `anchor`, in any unit common to the whole graph.
    fn multiplier(&self, anchor: usize) -> u64;
}

/// The successors every arrival in `arrival` has, forced or not.
#[inline(always)]
pub(crate) fn natural<const FOUR_WAY: bool>(arrival: usize) -> u8 {
    if FOUR_WAY {
        NATURAL_FOUR_WAY[arrival]
    } else {
        NATURAL[arrival]
    }
}

/// The successors of `at`, reached by a step in `arrival`, on `graph` (a map whose direction
/// offsets are `offsets`): the legal steps among those the rules of `search/jump/mod.rs` keep.
#[inline(always)]
pub(crate) fn successors<G: TurnGraph, const FOUR_WAY: bool>(
    graph: &G,
    offsets: &[isize; 8],
    at: usize,
    arrival: usize,
) -> u8 {
    let neighbour =
        |anchor: usize, direction: usize| anchor.wrapping_add_signed(offsets[direction]);
    let moves = graph.mask(at);
    if FOUR_WAY {
        return successors_four_way(graph, offsets, at, arrival) & moves;
    }
    let mut successors = NATURAL[arrival];
    if arrival < STRAIGHT_DIRECTIONS {
        let parent_moves = graph.mask(neighbour(at, OPPOSITE[arrival]));
        for (side, diagonal) in SIDES[arrival] {
            if moves & 1 << side == 0 {
                // Neither the side nor the diagonal past it is legal.
                continue;
            }
            if parent_moves & 1 << side == 0 {
                successors |= 1 << side | 1 << diagonal;
            } else if !G::UNIFORM {
                let here = graph.multiplier(at);
                let beside = graph.multiplier(neighbour(at, side));
                if (DIAGONAL_STEP - STRAIGHT_STEP) * beside > STRAIGHT_STEP * here {
                    successors |= 1 << side;
                }
                if moves & 1 << diagonal != 0 {
                    let ahead = graph.multiplier(neighbour(at, diagonal));
                    if DIAGONAL_STEP * beside + STRAIGHT_STEP * ahead
                        > STRAIGHT_STEP * here + DIAGONAL_STEP * ahead
                    {
                        successors |= 1 << diagonal;
                    }
                }
            }
        }
    } else if !G::UNIFORM {
        for (diagonal, between) in TURNS[arrival] {
            if moves & 1 << diagonal != 0 {
                let here = graph.multiplier(at);
                let past = graph.multiplier(neighbour(at, between));
                let ahead = graph.multiplier(neighbour(at, diagonal));
                if STRAIGHT_STEP * (past + ahead) > DIAGONAL_STEP * (here + ahead) {
                    successors |= 1 << diagonal;
                }
            }
        }
    }
    successors & moves
}

/// [`successors`] under the 4-way rules, before masking by the legal moves: a vertical
/// arrival may go on or turn either way; a horizontal one goes on, and turns where the side
/// beside the parent is closed or dearer than here.
#[inline(always)]
fn successors_four_way<G: TurnGraph>(
    graph: &G,
    offsets: &[isize; 8],
    at: usize,
    arrival: usize,
) -> u8 {
    if VERTICAL[arrival] {
        return NATURAL_FOUR_WAY[arrival];
    }
    let moves = graph.mask(at);
    let parent = at.wrapping_add_signed(offsets[OPPOSITE[arrival]]);
    let parent_moves = graph.mask(parent);
    let mut successors = 1 << arrival;
    for (side, _) in SIDES[arrival] {
        if moves & 1 << side == 0 {
            continue;
        }
        if parent_moves & 1 << side == 0
            || (!G::UNIFORM
                && graph.multiplier(parent.wrapping_add_signed(offsets[side]))
                    > graph.multiplier(at))
        {
            successors |= 1 << side;
        }
    }
    successors
}

/// Whether a ray arriving at `at` in `arrival` stops there for a turn: `at` has a successor
/// besides the natural ones.
#[inline(always)]
pub(crate) fn forced<G: TurnGraph, const FOUR_WAY: bool>(
    graph: &G,
    offsets: &[isize; 8],
    at: usize,
    arrival: usize,
) -> bool {
    successors::<G, FOUR_WAY>(graph, offsets, at, arrival) & !natural::<FOUR_WAY>(arrival) != 0
}
