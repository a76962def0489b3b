//! Detours that only reorder steps. Where the stretch of an optimal path round its crossings
//! takes the two directions of one *monotone pair* only (8-way: a diagonal and one of the
//! straight steps it is made of; 4-way: two straight steps at right angles), a walk of the same
//! steps in another order that enters only anchors of the smallest multiplier costs what the
//! stretch costs, the least any path between its ends can cost. So such a walk that keeps clear
//! of the units is a detour of equal cost, found without a search by the reachability pass of
//! `direct.rs` (`any_monotone_walk`). `detours.rs` tries it first for each detour and searches
//! only where it finds nothing.

use crate::movement::{direction_offsets, Movement, DIRECTIONS};

/// Anchors a walk of `any_monotone_walk` (`direct.rs`) may settle at most, for one stretch.
const MONOTONE_ANCHORS: usize = 4_096;

/// A stretch of a path that a walk of the same steps in another order may replace: its first
/// and last anchor (indices into the path), and the two directions of its steps with how many
/// it takes of each (the diagonal first, 8-way), as `any_monotone_walk` takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stretch {
    pub first: usize,
    pub last: usize,
    pub directions: (usize, usize),
    pub counts: (usize, usize),
}

/// The stretch of `path` round `crossings` (its unclear steps within the detour `from..to`,
/// at least one) that a reordered walk may replace: the longest within `from..=to` that holds
/// them and takes the two directions of one monotone pair of `movement` only, with at most
/// [`MONOTONE_ANCHORS`] anchors for the walk to settle. `None` where the crossings themselves
/// do not keep to one pair, on maps narrower than three cells (where storage offsets do not
/// tell the steps apart), or where the stretch takes one direction only (then it is the only
/// such walk).
///
/// A walk that `any_monotone_walk` finds costs the least any path between the stretch's ends
/// can cost (the distance times the smallest multiplier). The stretch, part of an optimal
/// path as if alone, costs the least any path there costs as if alone, which is no more; so
/// the two cost the same, and the walk is a detour of equal cost. The stretch's first anchor
/// is entered by a clear step or is the start, and its last is left by a clear step or is the
/// end, since the crossings of other detours lie outside `from..=to`.
pub(super) fn monotone_stretch(
    movement: Movement,
    width: usize,
    path: &[usize],
    crossings: &[usize],
    (from, to): (usize, usize),
) -> Option<Stretch> {
    if width < 3 || crossings.is_empty() {
        return None;
    }
    let offsets = direction_offsets(width);
    let direction_of = |step: usize| {
        let offset = path[step + 1] as isize - path[step] as isize;
        offsets.iter().position(|&o| o == offset)
    };
    let mut counts = [0usize; 8];
    let (first_step, last_step) = (crossings[0], crossings[crossings.len() - 1]);
    for step in first_step..=last_step {
        counts[direction_of(step)?] += 1;
    }
    pair_of(movement, &counts)?;
    // The stretch is anchors `first..=last`, steps `first..last`.
    let (mut first, mut last) = (first_step, last_step + 1);
    let anchors = |counts: &[usize; 8]| {
        counts
            .iter()
            .filter(|&&count| count > 0)
            .map(|count| count + 1)
            .product::<usize>()
    };
    let mut grown = true;
    while grown {
        grown = false;
        for backwards in [true, false] {
            let step = if backwards {
                (first > from).then(|| first - 1)
            } else {
                (last < to).then_some(last)
            };
            let Some(step) = step else { continue };
            let Some(direction) = direction_of(step) else {
                continue;
            };
            counts[direction] += 1;
            if pair_of(movement, &counts).is_some() && anchors(&counts) <= MONOTONE_ANCHORS {
                if backwards {
                    first -= 1;
                } else {
                    last += 1;
                }
                grown = true;
            } else {
                counts[direction] -= 1;
            }
        }
    }
    let (one, other) = pair_of(movement, &counts).filter(|(one, other)| one != other)?;
    Some(Stretch {
        first,
        last,
        directions: (one, other),
        counts: (counts[one], counts[other]),
    })
}

/// The two directions the steps counted in `counts` (per direction) take, the diagonal first
/// (8-way), when they are a monotone pair of `movement`; a single direction, returned twice,
/// when they take only one (a partner may still join it).
fn pair_of(movement: Movement, counts: &[usize; 8]) -> Option<(usize, usize)> {
    let mut taken = (0..8).filter(|&direction| counts[direction] > 0);
    let one = taken.next()?;
    let Some(other) = taken.next() else {
        return Some((one, one));
    };
    if taken.next().is_some() {
        return None;
    }
    let (a, b) = (DIRECTIONS[one], DIRECTIONS[other]);
    match movement {
        Movement::EightWay => {
            // Straight directions come first in `DIRECTIONS`, so `one` is the straight one.
            let (straight, diagonal) = (a, b);
            let diagonal_is = diagonal.dx != 0 && diagonal.dy != 0;
            let part = (straight.dx == diagonal.dx && straight.dy == 0)
                || (straight.dy == diagonal.dy && straight.dx == 0);
            (diagonal_is && straight.dx * straight.dy == 0 && part).then_some((other, one))
        }
        Movement::FourWay => ((a.dx == 0) != (b.dx == 0)).then_some((one, other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::detours::detour_ends;
    use crate::test_rng::TestRng;

    #[test]
    fn monotone_stretches_hold_their_crossings_keep_to_one_pair_and_grow_as_far_as_allowed() {
        let mut rng = TestRng(54);
        let width = 1_000usize;
        let offsets = direction_offsets(width);
        let direction_of = |from: usize, to: usize| {
            (0..8)
                .find(|&d| from.wrapping_add_signed(offsets[d]) == to)
                .expect("a king's step")
        };
        let (mut some, mut none) = (0, 0);
        for _ in 0..3_000 {
            // Walks that mostly alternate two directions for a while, as paths on open
            // ground do, then change.
            let mut path = vec![500 * width + 500];
            let length = 2 + rng.below(150usize);
            let mut pair = (rng.below(8usize), rng.below(8usize));
            while path.len() < length {
                if rng.below(25) == 0 {
                    pair = (rng.below(8usize), rng.below(8usize));
                }
                let direction = if rng.below(2) == 0 { pair.0 } else { pair.1 };
                let next = path[path.len() - 1].wrapping_add_signed(offsets[direction]);
                path.push(next);
            }
            let steps = path.len() - 1;
            let mut crossings: Vec<usize> = (0..steps).filter(|_| rng.below(40) == 0).collect();
            if crossings.is_empty() {
                crossings.push(rng.below(steps));
            }
            for (from, to) in detour_ends(&path, &crossings) {
                let inside: Vec<usize> = (crossings.iter())
                    .copied()
                    .filter(|&step| from <= step && step < to)
                    .collect();
                let found = monotone_stretch(Movement::EightWay, width, &path, &inside, (from, to));
                let Some(Stretch {
                    first,
                    last,
                    directions,
                    counts,
                }) = found
                else {
                    none += 1;
                    continue;
                };
                some += 1;
                // It holds the crossings and lies in the detour.
                assert!(from <= first && first <= inside[0], "{first} {inside:?}");
                assert!(inside[inside.len() - 1] < last && last <= to);
                // Its steps keep to one monotone pair, both directions taken.
                let (a, b) = (DIRECTIONS[directions.0], DIRECTIONS[directions.1]);
                assert!(a.dx != 0 && a.dy != 0 && b.dx * b.dy == 0);
                assert!((b.dx == a.dx && b.dy == 0) || (b.dy == a.dy && b.dx == 0));
                let mut taken = (0, 0);
                for step in first..last {
                    match direction_of(path[step], path[step + 1]) {
                        d if d == directions.0 => taken.0 += 1,
                        d if d == directions.1 => taken.1 += 1,
                        d => panic!("step {step} in direction {d} of {directions:?}"),
                    }
                }
                assert_eq!(taken, counts);
                assert!(counts.0 > 0 && counts.1 > 0);
                assert!((counts.0 + 1) * (counts.1 + 1) <= MONOTONE_ANCHORS);
                // Neither end could take one more step of the detour.
                let one_more = |step: usize| {
                    let direction = direction_of(path[step], path[step + 1]);
                    let (mut more, mut within) = (counts, true);
                    if direction == directions.0 {
                        more.0 += 1;
                    } else if direction == directions.1 {
                        more.1 += 1;
                    } else {
                        within = false;
                    }
                    within && (more.0 + 1) * (more.1 + 1) <= MONOTONE_ANCHORS
                };
                assert!(first == from || !one_more(first - 1), "{first} {from}");
                assert!(last == to || !one_more(last), "{last} {to}");
            }
        }
        assert!(some > 500 && none > 500, "{some} stretches, {none} without");
    }
}
