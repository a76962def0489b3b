//! A* proper: the expansion loop over one graph with one heuristic, one cost model and one
//! key representation.

use super::heuristic::Heuristic;
use super::keys::KeyCodec;
use super::moves::MoveMasks;
use super::pruning::REDUNDANT_STEPS;
use super::scratch::{Layout, Node, NodeStore, SearchScratch, DIRECTION_MASK};
use super::step_costs::StepCosts;
use super::{Problem, SearchOutcome};
use crate::movement::{direction_offsets, DIRECTIONS, OPPOSITE};

/// A* proper, on per-anchor state laid out by `L`. Returns `None` only if a key does not fit
/// `K` (the caller then retries with a wider key type) or the paged layout overflowed (the
/// caller then runs it again on the flat one: `scratch/layout.rs`).
pub(super) fn astar<L: Layout, K: KeyCodec, H: Heuristic, C: StepCosts, M: MoveMasks>(
    scratch: &mut SearchScratch,
    problem: &Problem<H, M>,
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
        incumbent,
        ..
    } = *problem;
    let (mut pages, open, (previous, reached)) = L::begin(scratch, moves.len());
    let offsets = direction_offsets(width);
    let open = K::heap(open);

    *pages.node_mut(start) = Node {
        g: 0,
        slot: 0,
        state: reached,
    };
    let start_h = heuristic.estimate(start, (start % width) as u32, (start / width) as u32);
    let mut next_entry = Some(codec.encode(start_h, start_h, start as u32)?);

    let mut expanded = 0u64;
    // `next_entry` is a one-place fast lane in front of the heap: a successor whose key is
    // below every key in the heap (typically the next anchor of a dive along an f-plateau)
    // would be popped next anyway, so it skips the push and the pop.
    while let Some(entry) =
        next_entry.or_else(|| open.pop(|key, slot| pages.node_mut(codec.index(key)).slot = slot))
    {
        next_entry = None;
        if pages.overflowed() {
            return None;
        }
        if expanded == max_expansions {
            return Some(SearchOutcome::unfinished(expanded, true));
        }
        let index = codec.index(entry);
        expanded += 1;
        if index == goal {
            return Some(SearchOutcome {
                cost: Some(pages.node(index).g),
                path: trace_back(&pages, &offsets, start, goal),
                expanded,
                limit_reached: false,
            });
        }
        let Node { g, state, .. } = pages.node(index);
        // 32-bit division: indices are below 2^28, and it is several times cheaper than 64-bit.
        let (x, y) = (index as u32 % width as u32, index as u32 / width as u32);
        let mut mask = moves_worth_trying::<C, M>(moves, state, &offsets, index, start);
        while mask != 0 {
            let direction = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let target = index.wrapping_add_signed(offsets[direction]);
            let node = pages.node_mut(target);
            let next = *node;
            let next_g = g + costs.step_cost(direction, target);
            let unreached = next.state < reached;
            // A first arrival is the only one to test: if it is kept, every cheaper one
            // would be too (`incumbent.rs`).
            if unreached
                && incumbent.is_some_and(|bound| {
                    bound.cuts(next.kept_cost(previous), next_g, || {
                        let step = DIRECTIONS[direction];
                        let (x, y) = (
                            x.wrapping_add_signed(step.dx),
                            y.wrapping_add_signed(step.dy),
                        );
                        heuristic.estimate(target, x, y)
                    })
                })
            {
                continue;
            }
            // An unreached anchor's stale cost reads as infinite; computed without a branch.
            let known_g = next.g | u64::from(unreached).wrapping_neg();
            if next_g < known_g {
                *node = Node {
                    g: next_g,
                    slot: next.slot,
                    state: reached | direction as u32,
                };
                let step = DIRECTIONS[direction];
                let h = heuristic.estimate(
                    target,
                    x.wrapping_add_signed(step.dx),
                    y.wrapping_add_signed(step.dy),
                );
                let key = codec.encode(next_g + h, h, target as u32)?;
                let placed = |key: K::Key, slot| pages.node_mut(codec.index(key)).slot = slot;
                if !unreached && open.holds(next.slot, |held| codec.index(held) == target) {
                    open.decrease(next.slot, key, placed);
                } else if !unreached {
                    // Unreachable with a consistent heuristic (an improved anchor is always
                    // open); if a bug ever broke consistency, reopening keeps the search sound.
                    open.push(key, placed);
                } else if next_entry.is_none_or(|held| key < held)
                    && open.peek().is_none_or(|top| key < top)
                {
                    // The new best successor takes the fast lane; a successor held there
                    // before it goes to the heap.
                    if let Some(held) = next_entry.replace(key) {
                        open.push(held, placed);
                    }
                } else {
                    open.push(key, placed);
                }
            }
        }
        // A decrease-key above may have put a smaller key in the heap than the one held.
        if let Some(held) = next_entry {
            if open.peek().is_some_and(|top| top < held) {
                open.push(held, |key: K::Key, slot| {
                    pages.node_mut(codec.index(key)).slot = slot
                });
                next_entry = None;
            }
        }
    }
    Some(SearchOutcome::unfinished(expanded, false))
}

/// The legal steps from the anchor stored at `index` (whose node has `state`) that may still
/// improve something: all of them at the start; elsewhere all but the step back to the
/// parent, and on uniform-cost graphs also those the parent's own relaxations already covered
/// (see `pruning.rs`).
#[inline(always)]
fn moves_worth_trying<C: StepCosts, M: MoveMasks>(
    moves: M,
    state: u32,
    offsets: &[isize; 8],
    index: usize,
    start: usize,
) -> u8 {
    let mask = moves.mask(index);
    if index == start {
        return mask;
    }
    let arrival = (state & DIRECTION_MASK) as usize;
    mask & !if C::UNIFORM {
        let parent = index.wrapping_add_signed(-offsets[arrival]);
        REDUNDANT_STEPS[arrival][usize::from(moves.mask(parent))]
    } else {
        1 << OPPOSITE[arrival]
    }
}

/// The anchors from `start` to `goal`, following each anchor's arrival direction back.
fn trace_back(
    pages: &impl NodeStore,
    offsets: &[isize; 8],
    start: usize,
    goal: usize,
) -> Vec<usize> {
    let parent = |at: usize| {
        let direction = (pages.node(at).state & DIRECTION_MASK) as usize;
        at.wrapping_add_signed(-offsets[direction])
    };
    // Counted first, so that the path is allocated once, at its size.
    let mut steps = 0;
    let mut at = goal;
    while at != start {
        at = parent(at);
        steps += 1;
    }
    let mut path = vec![start; steps + 1];
    let mut at = goal;
    for slot in path[1..].iter_mut().rev() {
        *slot = at;
        at = parent(at);
    }
    path
}

#[cfg(test)]
mod tests {
    use super::super::heuristic::DistanceHeuristic;
    use super::super::keys::{Compact, Packed, Wide};
    use super::super::scratch::{Flat, Paged};
    use super::super::step_costs::{PerAnchorCosts, UniformCosts};
    use super::*;
    use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
    use crate::graph::test_masks::move_masks;
    use crate::movement::STEP_LENGTHS;
    use crate::paged::PagedVec;

    /// The octile distance to `goal` on a map `width` wide whose multipliers are all `multiplier`.
    fn octile_towards(goal: usize, width: usize, multiplier: u64) -> DistanceHeuristic {
        DistanceHeuristic {
            goal_x: (goal % width) as u64,
            goal_y: (goal / width) as u64,
            straight: STRAIGHT_STEP * multiplier,
            diagonal_extra: (DIAGONAL_STEP - STRAIGHT_STEP) * multiplier,
        }
    }

    /// The problem from `start` to `goal` on `moves`, with no expansion limit.
    fn unlimited<'a>(
        moves: &'a PagedVec<u8>,
        width: usize,
        (start, goal): (usize, usize),
        heuristic: &'a DistanceHeuristic,
    ) -> Problem<'a, DistanceHeuristic> {
        Problem {
            moves,
            width,
            start,
            goal,
            heuristic,
            max_expansions: u64::MAX,
            distances: None,
            incumbent: None,
        }
    }

    #[test]
    fn both_key_types_find_the_same_paths() {
        // A 40x40 map with a wall pattern, multiplier 1, all eight directions where legal.
        let width = 40;
        let open = |x: usize, y: usize| !(x % 7 == 3 && y % 9 != 4);
        let moves = move_masks(width, width, open);
        let mut scratch = SearchScratch::new();
        // Multiplier 1: costs in cost units, as the map hands them to the search.
        let costs = UniformCosts(STEP_LENGTHS);
        for (start, goal) in [(0, width * width - 1), (45, 1000), (5, 1555), (300, 301)] {
            let heuristic = octile_towards(goal, width, 1);
            let problem = unlimited(&moves, width, (start, goal), &heuristic);
            let compact = Compact::for_cells(moves.len());
            let small =
                astar::<Paged, _, _, _, _>(&mut scratch, &problem, &costs, compact).unwrap();
            let packed = astar::<Flat, _, _, _, _>(&mut scratch, &problem, &costs, Packed).unwrap();
            let wide = astar::<Paged, _, _, _, _>(&mut scratch, &problem, &costs, Wide).unwrap();
            assert_eq!(packed.cost, wide.cost);
            assert_eq!(packed.path, wide.path);
            assert_eq!(packed.expanded, wide.expanded);
            assert_eq!(small.cost, wide.cost);
            assert_eq!(small.path, wide.path);
            assert_eq!(small.expanded, wide.expanded);
            assert!(packed.cost.is_some());
        }
    }

    #[test]
    fn skipping_redundant_steps_changes_nothing() {
        // The same uniform-cost graph searched with the pruning cost model and with a per-anchor
        // model whose multipliers are all equal (which prunes only the step back): same paths,
        // same costs, same expansion counts.
        let width = 48;
        let mut state = 0xABCDu64;
        let mut random = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let open: Vec<bool> = (0..width * width).map(|_| random() % 100 >= 22).collect();
        let moves = move_masks(width, width, |x, y| open[y * width + x]);
        let uniform = UniformCosts(STEP_LENGTHS.map(|length| length * 1500));
        let multipliers = PagedVec::filled(1500u32, width * width);
        let per_anchor = PerAnchorCosts {
            lengths: STEP_LENGTHS,
            multipliers: &multipliers,
            even_costs: &PagedVec::new(),
        };
        let mut scratch = SearchScratch::new();
        let mut found = 0;
        for _ in 0..300 {
            let start = random() as usize % (width * width);
            let goal = random() as usize % (width * width);
            if !open[start] || !open[goal] {
                continue;
            }
            let heuristic = octile_towards(goal, width, 1500);
            let problem = unlimited(&moves, width, (start, goal), &heuristic);
            let pruned =
                astar::<Paged, _, _, _, _>(&mut scratch, &problem, &uniform, Packed).unwrap();
            let plain =
                astar::<Flat, _, _, _, _>(&mut scratch, &problem, &per_anchor, Packed).unwrap();
            assert_eq!(pruned.cost, plain.cost);
            assert_eq!(pruned.path, plain.path);
            assert_eq!(pruned.expanded, plain.expanded);
            found += usize::from(pruned.cost.is_some());
        }
        assert!(found > 50);
    }

    /// The costs a search on `scratch` reads as the last search's, kept in place
    /// (`SearchScratch::keep_in_place`), as the bound of `incumbent.rs` reads them: begins a
    /// search on layout `L` and collects them.
    fn kept_costs<L: Layout>(scratch: &mut SearchScratch, anchors: usize) -> Vec<Option<u64>> {
        scratch.keep_in_place();
        let (store, _, (previous, reached)) = L::begin(scratch, anchors);
        (0..anchors)
            .map(|anchor| {
                let node = store.node(anchor);
                (previous..reached).contains(&node.state).then_some(node.g)
            })
            .collect()
    }

    #[test]
    fn costs_kept_in_place_are_the_last_search_s_on_either_layout() {
        // Every cost a search finds kept in place was reached by the last search: at least
        // the cheapest cost from that search's start (by Dijkstra here), exactly it at the
        // goal, and never a cost left by an earlier search on the other layout.
        let width = 36;
        let open = |x: usize, y: usize| !(x % 6 == 2 && y % 11 != 5) && (x + 3 * y) % 17 != 1;
        let moves = move_masks(width, width, open);
        let offsets = direction_offsets(width);
        let cheapest_from = |start: usize| {
            let mut cost = vec![u64::MAX; width * width];
            let mut queue = std::collections::BinaryHeap::new();
            cost[start] = 0;
            queue.push(std::cmp::Reverse((0u64, start)));
            while let Some(std::cmp::Reverse((g, at))) = queue.pop() {
                if g > cost[at] {
                    continue;
                }
                for (direction, &length) in STEP_LENGTHS.iter().enumerate() {
                    if (&moves).mask(at) >> direction & 1 != 0 {
                        let next = at.wrapping_add_signed(offsets[direction]);
                        if g + length < cost[next] {
                            cost[next] = g + length;
                            queue.push(std::cmp::Reverse((g + length, next)));
                        }
                    }
                }
            }
            cost
        };
        let costs = UniformCosts(STEP_LENGTHS);
        let mut scratch = SearchScratch::new();
        let anchors = width * width;
        assert!(
            kept_costs::<Flat>(&mut scratch, anchors)
                .iter()
                .all(Option::is_none),
            "a fresh scratch reached nothing"
        );
        // Connected trips between open anchors, long and short, alternately on each layout.
        let ends = [
            37, 1200, 1290, 40, 700, 701, 41, 1291, 1000, 3, 650, 77, 500, 505,
        ];
        let trips = (ends.chunks(2).map(|pair| (pair[0], pair[1])))
            .filter(|&(start, goal)| cheapest_from(start)[goal] < u64::MAX)
            .collect::<Vec<_>>();
        assert!(trips.len() >= 4, "{trips:?}");
        for (trip, &(start, goal)) in trips.iter().enumerate() {
            let heuristic = octile_towards(goal, width, 1);
            let problem = unlimited(&moves, width, (start, goal), &heuristic);
            let flat = trip % 2 == 0;
            let found = if flat {
                astar::<Flat, _, _, _, _>(&mut scratch, &problem, &costs, Packed)
            } else {
                astar::<Paged, _, _, _, _>(&mut scratch, &problem, &costs, Packed)
            };
            let cheapest = cheapest_from(start);
            let cost = found.unwrap().cost;
            assert_eq!(cost, Some(cheapest[goal]), "trip {trip}");
            let kept = if flat {
                kept_costs::<Flat>(&mut scratch, anchors)
            } else {
                kept_costs::<Paged>(&mut scratch, anchors)
            };
            assert_eq!(kept[goal], Some(cheapest[goal]), "trip {trip}");
            assert_eq!(kept[start], Some(0), "trip {trip}");
            let mut reached = 0;
            for (anchor, &least) in cheapest.iter().enumerate() {
                if let Some(g) = kept[anchor] {
                    assert!(g >= least, "trip {trip}, anchor {anchor}");
                    reached += 1;
                }
            }
            // Short trips reach a few anchors, not the whole map.
            assert!(reached < anchors, "trip {trip}");
        }
    }
}
