//! A* over the anchors of one agent size and profile, with reusable memory.
//!
//! The search is textbook A* with a consistent heuristic: an open list, a closed set, and one
//! relaxation per legal move. Because the heuristic is consistent, an anchor's cost is final
//! when it is first expanded, so closed anchors are never reopened and the first expansion of
//! the goal ends the search with an optimal cost.
//!
//! **Open list.** An indexed 4-ary heap: when a cheaper route to an open anchor turns up, its
//! entry is lowered in place rather than pushed again, so each anchor is popped once (a lazy
//! heap pops about twice as many entries on the Moving AI maps, half of them stale). Entries
//! pack `(f, h, y, x)` into one `u128`, compared without branches; a query whose costs outgrow
//! the packing is run again with plain wide entries.
//!
//! **Tie-breaking.** Open entries are ordered by `(f, h, y, x)`: lowest estimated total cost,
//! then lowest remaining estimate (deepest first), then lowest row, then lowest column. The
//! order of expansions, and so the path returned, depends on nothing but the query and the map.
//!
//! **Memory reuse.** Per-anchor search state lives in a [`SearchScratch`] that survives between
//! queries. Each query takes a fresh *generation stamp*; state whose stamp is older counts as
//! unvisited, so nothing proportional to the map is cleared per query.

use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::graph::{AnchorGraph, EntryCosts};
use crate::heap::IndexedHeap;
use crate::landmarks::{LandmarkBounds, LandmarkTable};
use crate::movement::{Movement, DIRECTIONS, STRAIGHT_DIRECTIONS};

/// Reusable memory for path queries: per-anchor costs, parents and stamps, and the open list.
///
/// One scratch serves any number of queries, on any maps, one query at a time. Threads that
/// query the same map at once each use their own scratch;
/// [`PathMap::find_path`](crate::PathMap::find_path) keeps one per thread for you.
///
/// ```
/// use clearance_core::{AgentProfile, Cell, PathMap, Region, SearchScratch, TerrainGrid};
///
/// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 8), 0)?);
/// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.0)?)?;
/// let mut scratch = SearchScratch::new();
/// for goal in [Cell::new(7, 7), Cell::new(0, 7)] {
///     let result = map.find_path_with(&mut scratch, Cell::new(0, 0), goal, 1, "walker");
///     assert!(result.is_ok());
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct SearchScratch {
    nodes: Vec<Node>,
    compact_open: IndexedHeap<u64>,
    packed_open: IndexedHeap<PackedKey>,
    wide_open: IndexedHeap<WideKey>,
    generation: u32,
}

/// Search state of one anchor, 16 bytes. `state` packs `generation << 3 | direction`: an
/// anchor whose generation is older than the query's is unreached (its other fields are
/// stale); `direction` is the step by which its parent reached it.
///
/// There is no closed flag. With a consistent heuristic an expanded anchor's cost is already
/// optimal, so no later relaxation can lower it, and the ordinary "is this cheaper?" test
/// turns every step into an expanded anchor away. Dropping the flag removes the least
/// predictable branch of the inner loop.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    g: u64,
    /// Where the anchor's entry sits in the open list, while it is open.
    slot: u32,
    state: u32,
}

const GENERATION_SHIFT: u32 = 3;
const DIRECTION_MASK: u32 = 0b111;
const LAST_GENERATION: u32 = u32::MAX >> GENERATION_SHIFT;

/// How open-list entries `(f, h, index)` are stored: ordered lexicographically. Cells are
/// stored row by row, so ordering by storage index is ordering by `(y, x)`: the tie-break order.
trait KeyCodec: Copy {
    type Key: Ord + Copy;
    /// The entry, or `None` if the values do not fit this representation.
    fn encode(self, f: u64, h: u64, index: u32) -> Option<Self::Key>;
    /// The anchor's storage index.
    fn index(self, key: Self::Key) -> usize;
    /// The open list of this key type in `scratch`.
    fn open_list(scratch: &mut SearchScratch) -> (&mut [Node], &mut IndexedHeap<Self::Key>);
}

/// The fastest representation: all three fields in one `u64`, compared in one instruction.
/// The index takes as many low bits as the map needs; `h` and `f` share the rest. Costs are
/// counted in the graph's cost unit (the gcd of the profile's multipliers), which keeps them
/// small: on a 512 x 512 map with uniform costs, paths of up to 3000 steps fit.
#[derive(Debug, Clone, Copy)]
struct Compact {
    index_bits: u32,
    estimate_bits: u32,
    /// Bits left for `f`: `64 - index_bits - estimate_bits`.
    f_bits: u32,
    index_mask: u64,
}

impl Compact {
    fn for_cells(cells: usize) -> Self {
        let index_bits = usize::BITS - (cells.max(2) - 1).leading_zeros();
        let estimate_bits = (u64::BITS - index_bits) / 2;
        Compact {
            index_bits,
            estimate_bits,
            f_bits: u64::BITS - index_bits - estimate_bits,
            index_mask: (1 << index_bits) - 1,
        }
    }
}

impl KeyCodec for Compact {
    type Key = u64;

    #[inline(always)]
    fn encode(self, f: u64, h: u64, index: u32) -> Option<u64> {
        if (f >> self.f_bits) | (h >> self.estimate_bits) != 0 {
            return None;
        }
        Some((f << self.estimate_bits | h) << self.index_bits | u64::from(index))
    }

    #[inline(always)]
    fn index(self, key: u64) -> usize {
        (key & self.index_mask) as usize
    }

    fn open_list(scratch: &mut SearchScratch) -> (&mut [Node], &mut IndexedHeap<u64>) {
        (&mut scratch.nodes, &mut scratch.compact_open)
    }
}

/// The middle representation: all three fields in one `u128`, compared in two instructions.
/// `f` and `h` get 50 bits each, the index 28 bits (maps have at most 2^28 cells).
#[derive(Debug, Clone, Copy)]
struct Packed;

/// A `u128` open-list key (see [`Packed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct PackedKey(u128);

const INDEX_BITS: u32 = 28;
const ESTIMATE_BITS: u32 = 50;
const _: () = assert!(crate::grid::MAX_CELLS <= 1 << INDEX_BITS);
const _: () = assert!(2 * ESTIMATE_BITS + INDEX_BITS == 128);

impl KeyCodec for Packed {
    type Key = PackedKey;

    #[inline(always)]
    fn encode(self, f: u64, h: u64, index: u32) -> Option<PackedKey> {
        if (f | h) >> ESTIMATE_BITS != 0 {
            return None;
        }
        let estimates = (f as u128) << ESTIMATE_BITS | h as u128;
        Some(PackedKey(estimates << INDEX_BITS | index as u128))
    }

    #[inline(always)]
    fn index(self, key: PackedKey) -> usize {
        (key.0 as u32 & ((1 << INDEX_BITS) - 1)) as usize
    }

    fn open_list(scratch: &mut SearchScratch) -> (&mut [Node], &mut IndexedHeap<PackedKey>) {
        (&mut scratch.nodes, &mut scratch.packed_open)
    }
}

/// The fallback representation for any cost: plain fields.
#[derive(Debug, Clone, Copy)]
struct Wide;

/// A plain open-list key (see [`Wide`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct WideKey {
    f: u64,
    h: u64,
    index: u32,
}

impl KeyCodec for Wide {
    type Key = WideKey;

    fn encode(self, f: u64, h: u64, index: u32) -> Option<WideKey> {
        Some(WideKey { f, h, index })
    }

    fn index(self, key: WideKey) -> usize {
        key.index as usize
    }

    fn open_list(scratch: &mut SearchScratch) -> (&mut [Node], &mut IndexedHeap<WideKey>) {
        (&mut scratch.nodes, &mut scratch.wide_open)
    }
}

impl SearchScratch {
    /// Empty scratch; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes of memory held.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.compact_open.memory_bytes()
            + self.packed_open.memory_bytes()
            + self.wide_open.memory_bytes()
    }

    /// Starts a query over `cells` anchors; returns the lowest `state` that means "reached
    /// in this query".
    fn begin(&mut self, cells: usize) -> u32 {
        if self.nodes.len() < cells {
            self.nodes.resize(cells, Node::default());
        }
        if self.generation == LAST_GENERATION {
            for node in &mut self.nodes {
                node.state = 0;
            }
            self.generation = 0;
        }
        self.generation += 1;
        self.compact_open.clear();
        self.packed_open.clear();
        self.wide_open.clear();
        self.generation << GENERATION_SHIFT
    }
}

/// What one search found: the optimal cost and anchor indices from start to goal, if any.
pub(crate) struct SearchOutcome {
    pub cost: Option<u64>,
    pub path: Vec<usize>,
    pub expanded: u64,
    /// The search stopped at its expansion limit before reaching the goal.
    pub limit_reached: bool,
}

/// The anchors a search may expand and the landmarks it may use.
#[derive(Clone, Copy)]
pub(crate) struct SearchLimits<'a> {
    /// Expansions allowed; the goal counts when it is expanded.
    pub max_expansions: u64,
    pub landmarks: Option<&'a LandmarkTable>,
}

/// Runs A* from `start` to `goal` (storage indices of legal anchors) on a map `width` wide.
pub(crate) fn search(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    movement: Movement,
    limits: SearchLimits<'_>,
    width: usize,
    start: usize,
    goal: usize,
) -> SearchOutcome {
    let distance = DistanceHeuristic::new(graph, movement, width, goal);
    fn problem<'a, H>(
        graph: &'a AnchorGraph,
        width: usize,
        (start, goal): (usize, usize),
        max_expansions: u64,
        heuristic: &'a H,
    ) -> Problem<'a, H> {
        Problem {
            moves: &graph.moves,
            width,
            start,
            goal,
            heuristic,
            max_expansions,
        }
    }
    let mut outcome = match limits.landmarks {
        None => {
            let problem = problem(
                graph,
                width,
                (start, goal),
                limits.max_expansions,
                &distance,
            );
            search_with(scratch, graph, &problem)
        }
        Some(table) => {
            let heuristic = WithLandmarks {
                distance,
                bounds: table.towards(goal),
            };
            let problem = problem(
                graph,
                width,
                (start, goal),
                limits.max_expansions,
                &heuristic,
            );
            search_with(scratch, graph, &problem)
        }
    };
    outcome.cost = outcome.cost.map(|cost| cost * graph.cost_unit);
    outcome
}

/// The heuristic value the search uses at `from` on its way to `goal`.
pub(crate) fn estimate(
    graph: &AnchorGraph,
    movement: Movement,
    landmarks: Option<&LandmarkTable>,
    width: usize,
    from: usize,
    goal: usize,
) -> u64 {
    let distance = DistanceHeuristic::new(graph, movement, width, goal);
    let (x, y) = ((from % width) as u32, (from / width) as u32);
    // The same maximum `WithLandmarks` takes during a search.
    let landmark_bound = landmarks.map_or(0, |table| table.towards(goal).estimate(from));
    distance.distance(x, y).max(landmark_bound) * graph.cost_unit
}

fn search_with<H: Heuristic>(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    problem: &Problem<H>,
) -> SearchOutcome {
    match &graph.entry {
        EntryCosts::Uniform(multiplier) => {
            let costs = UniformCosts(step_lengths().map(|length| length * u64::from(*multiplier)));
            run_with_fallback(scratch, problem, &costs)
        }
        EntryCosts::PerAnchor(multipliers) => {
            let costs = PerAnchorCosts {
                lengths: step_lengths(),
                multipliers,
            };
            run_with_fallback(scratch, problem, &costs)
        }
    }
}

/// Searches with compact keys; if a cost outgrows them, searches again with wider ones.
fn run_with_fallback<H: Heuristic, C: StepCosts>(
    scratch: &mut SearchScratch,
    problem: &Problem<H>,
    costs: &C,
) -> SearchOutcome {
    let compact = Compact::for_cells(problem.moves.len());
    run(scratch, problem, costs, compact)
        .or_else(|| run(scratch, problem, costs, Packed))
        .or_else(|| run(scratch, problem, costs, Wide))
        .expect("wide keys hold any cost")
}

fn step_lengths() -> [u64; 8] {
    std::array::from_fn(|direction| {
        if direction < STRAIGHT_DIRECTIONS {
            STRAIGHT_STEP
        } else {
            DIAGONAL_STEP
        }
    })
}

/// Octile distance (or Manhattan, with `diagonal_extra == straight`) times the profile's
/// smallest multiplier: `max(dx, dy) * straight + min(dx, dy) * diagonal_extra`. It is the exact
/// cost on an open map with every multiplier at its minimum, hence admissible and consistent.
struct DistanceHeuristic {
    goal_x: u64,
    goal_y: u64,
    straight: u64,
    diagonal_extra: u64,
}

/// A consistent lower bound on the cost from an anchor to the goal.
trait Heuristic {
    /// The estimate from the anchor stored at `anchor`, at map-local (`x`, `y`).
    fn estimate(&self, anchor: usize, x: u32, y: u32) -> u64;
}

impl Heuristic for DistanceHeuristic {
    #[inline(always)]
    fn estimate(&self, _anchor: usize, x: u32, y: u32) -> u64 {
        self.distance(x, y)
    }
}

/// The larger of the distance heuristic and the landmark bounds: both are consistent, so
/// their maximum is.
struct WithLandmarks<'a> {
    distance: DistanceHeuristic,
    bounds: LandmarkBounds<'a>,
}

impl Heuristic for WithLandmarks<'_> {
    #[inline(always)]
    fn estimate(&self, anchor: usize, x: u32, y: u32) -> u64 {
        self.distance
            .distance(x, y)
            .max(self.bounds.estimate(anchor))
    }
}

impl DistanceHeuristic {
    fn new(graph: &AnchorGraph, movement: Movement, width: usize, goal: usize) -> Self {
        let min = u64::from(graph.min_multiplier);
        DistanceHeuristic {
            goal_x: (goal % width) as u64,
            goal_y: (goal / width) as u64,
            straight: STRAIGHT_STEP * min,
            // Manhattan: a diagonal is never taken, so dx + dy straight steps remain.
            diagonal_extra: match movement {
                Movement::FourWay => STRAIGHT_STEP * min,
                Movement::EightWay => (DIAGONAL_STEP - STRAIGHT_STEP) * min,
            },
        }
    }

    /// The estimate from the anchor at map-local (`x`, `y`).
    #[inline(always)]
    fn distance(&self, x: u32, y: u32) -> u64 {
        let dx = u64::from(x).abs_diff(self.goal_x);
        let dy = u64::from(y).abs_diff(self.goal_y);
        dx.max(dy) * self.straight + dx.min(dy) * self.diagonal_extra
    }
}

/// The cost of one step, given its direction and the anchor it enters.
trait StepCosts {
    /// Whether every legal anchor costs the same to enter. Then step costs obey the triangle
    /// inequality between neighbouring anchors, which [`redundant_steps`] relies on.
    const UNIFORM: bool;
    fn step_cost(&self, direction: usize, target: usize) -> u64;
}

struct UniformCosts([u64; 8]);

impl StepCosts for UniformCosts {
    const UNIFORM: bool = true;
    #[inline(always)]
    fn step_cost(&self, direction: usize, _target: usize) -> u64 {
        self.0[direction]
    }
}

struct PerAnchorCosts<'a> {
    lengths: [u64; 8],
    multipliers: &'a [u32],
}

impl StepCosts for PerAnchorCosts<'_> {
    const UNIFORM: bool = false;
    #[inline(always)]
    fn step_cost(&self, direction: usize, target: usize) -> u64 {
        self.lengths[direction] * u64::from(self.multipliers[target])
    }
}

/// One query on one graph.
struct Problem<'a, H> {
    moves: &'a [u8],
    width: usize,
    start: usize,
    goal: usize,
    heuristic: &'a H,
    max_expansions: u64,
}

/// A* proper. Returns `None` only if a key does not fit `K` (the caller then retries with a
/// wider key type).
fn run<K: KeyCodec, H: Heuristic, C: StepCosts>(
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
    let reached = scratch.begin(moves.len());
    let offsets: [isize; 8] = DIRECTIONS.map(|d| d.dy as isize * width as isize + d.dx as isize);
    let (nodes, open) = K::open_list(scratch);
    let nodes = &mut nodes[..moves.len()];

    nodes[start] = Node {
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
        next_entry.or_else(|| open.pop(|key, slot| nodes[codec.index(key)].slot = slot))
    {
        next_entry = None;
        if expanded == max_expansions {
            return Some(SearchOutcome {
                cost: None,
                path: Vec::new(),
                expanded,
                limit_reached: true,
            });
        }
        let index = codec.index(entry);
        expanded += 1;
        if index == goal {
            return Some(SearchOutcome {
                cost: Some(nodes[index].g),
                path: trace_back(nodes, &offsets, start, goal),
                expanded,
                limit_reached: false,
            });
        }
        let g = nodes[index].g;
        // 32-bit division: indices are below 2^28, and it is several times cheaper than 64-bit.
        let (x, y) = (index as u32 % width as u32, index as u32 / width as u32);
        let mut mask = moves[index];
        if index != start {
            let arrival = (nodes[index].state & DIRECTION_MASK) as usize;
            mask &= !if C::UNIFORM {
                let parent = index.wrapping_add_signed(-offsets[arrival]);
                REDUNDANT_STEPS[arrival][usize::from(moves[parent])]
            } else {
                1 << OPPOSITE[arrival]
            };
        }
        while mask != 0 {
            let direction = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let target = index.wrapping_add_signed(offsets[direction]);
            let next = nodes[target];
            let next_g = g + costs.step_cost(direction, target);
            let unreached = next.state < reached;
            // An unreached anchor's stale cost reads as infinite; computed without a branch.
            let known_g = next.g | u64::from(unreached).wrapping_neg();
            if next_g < known_g {
                nodes[target].g = next_g;
                nodes[target].state = reached | direction as u32;
                let step = DIRECTIONS[direction];
                let h = heuristic.estimate(
                    target,
                    x.wrapping_add_signed(step.dx),
                    y.wrapping_add_signed(step.dy),
                );
                let key = codec.encode(next_g + h, h, target as u32)?;
                let placed = |key: K::Key, slot| nodes[codec.index(key)].slot = slot;
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
                    nodes[codec.index(key)].slot = slot
                });
                next_entry = None;
            }
        }
    }
    Some(SearchOutcome {
        cost: None,
        path: Vec::new(),
        expanded,
        limit_reached: false,
    })
}

/// `OPPOSITE[d]` is the direction that undoes `DIRECTIONS[d]`.
const OPPOSITE: [usize; 8] = {
    let mut opposite = [0; 8];
    let mut d = 0;
    while d < 8 {
        let mut e = 0;
        while e < 8 {
            if DIRECTIONS[e].dx == -DIRECTIONS[d].dx && DIRECTIONS[e].dy == -DIRECTIONS[d].dy {
                opposite[d] = e;
            }
            e += 1;
        }
        d += 1;
    }
    opposite
};

/// `REDUNDANT_STEPS[d][m]`: the steps from an anchor `n` that cannot improve anything when `n`
/// was reached in direction `d` from its parent `p`, and `m` is `p`'s move mask.
///
/// `p` was expanded before `n` and then relaxed every neighbour `x` it has a legal step to.
/// If `x` is also a neighbour of `n`, then on a map where every anchor costs the same to
/// enter, the triangle inequality of the step lengths (1 and about sqrt 2) gives
/// `g(p) + cost(p, x) <= g(p) + cost(p, n) + cost(n, x) = g(n) + cost(n, x)`: the step from
/// `n` to `x` is no cheaper than what `x` already has, so it is skipped without changing the
/// search in any way (same expansions, same parents). Stepping back to `p` itself is always
/// redundant. On a straight arrival this skips 5 of 8 steps, on a diagonal one 3.
static REDUNDANT_STEPS: [[u8; 256]; 8] = redundant_steps();

const fn redundant_steps() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut arrival = 0;
    while arrival < 8 {
        let mut parent_moves = 0;
        while parent_moves < 256 {
            let mut redundant = 0u8;
            let mut step = 0;
            while step < 8 {
                // Offset from the parent to the neighbour reached by `step` from the anchor.
                let dx = DIRECTIONS[arrival].dx + DIRECTIONS[step].dx;
                let dy = DIRECTIONS[arrival].dy + DIRECTIONS[step].dy;
                if dx == 0 && dy == 0 {
                    redundant |= 1 << step;
                }
                let mut parent_step = 0;
                while parent_step < 8 {
                    if DIRECTIONS[parent_step].dx == dx
                        && DIRECTIONS[parent_step].dy == dy
                        && parent_moves & (1 << parent_step) != 0
                    {
                        redundant |= 1 << step;
                    }
                    parent_step += 1;
                }
                step += 1;
            }
            table[arrival][parent_moves] = redundant;
            parent_moves += 1;
        }
        arrival += 1;
    }
    table
}

fn trace_back(nodes: &[Node], offsets: &[isize; 8], start: usize, goal: usize) -> Vec<usize> {
    let mut path = vec![goal];
    let mut at = goal;
    while at != start {
        let direction = (nodes[at].state & DIRECTION_MASK) as usize;
        at = at.wrapping_add_signed(-offsets[direction]);
        path.push(at);
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_keys_order_like_wide_keys() {
        let mut state = 0xFEED_u64;
        let mut next = move |bits: u32| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % (1 << bits)
        };
        for _ in 0..10_000 {
            let a = (next(50), next(50), next(28) as u32);
            let b = (a.0 + next(2), a.1 + next(1), next(28) as u32);
            let packed = |k: (u64, u64, u32)| Packed.encode(k.0, k.1, k.2).unwrap();
            let wide = |k: (u64, u64, u32)| Wide.encode(k.0, k.1, k.2).unwrap();
            assert_eq!(packed(a).cmp(&packed(b)), wide(a).cmp(&wide(b)));
            assert_eq!(Packed.index(packed(a)), a.2 as usize);
            let compact = Compact::for_cells(1 << 28);
            let small = |k: (u64, u64, u32)| (k.0 >> 32, k.1 >> 32, k.2);
            let (a, b) = (small(a), small(b));
            let encoded = |k: (u64, u64, u32)| compact.encode(k.0, k.1, k.2).unwrap();
            assert_eq!(encoded(a).cmp(&encoded(b)), wide(a).cmp(&wide(b)));
            assert_eq!(compact.index(encoded(a)), a.2 as usize);
        }
        assert!(Packed.encode(1 << ESTIMATE_BITS, 0, 0).is_none());
        assert!(Packed.encode(0, 1 << ESTIMATE_BITS, 0).is_none());
        let compact = Compact::for_cells(1000);
        assert_eq!((compact.index_bits, compact.estimate_bits), (10, 27));
        assert!(compact.encode((1 << 27) - 1, (1 << 27) - 1, 999).is_some());
        assert!(compact.encode(1 << 27, 0, 0).is_none());
        assert!(compact.encode(0, 1 << 27, 0).is_none());
    }

    /// Move masks of a `width` x `width` map whose open cells `open(x, y)` says, for size 1
    /// and 8-way movement without corner cutting.
    fn move_masks(width: usize, open: impl Fn(usize, usize) -> bool) -> Vec<u8> {
        let legal = |x: i64, y: i64| {
            x >= 0 && y >= 0 && x < width as i64 && y < width as i64 && open(x as usize, y as usize)
        };
        (0..width * width)
            .map(|index| {
                let (x, y) = ((index % width) as i64, (index / width) as i64);
                if !legal(x, y) {
                    return 0;
                }
                DIRECTIONS.iter().enumerate().fold(0u8, |mask, (bit, d)| {
                    let (dx, dy) = (i64::from(d.dx), i64::from(d.dy));
                    if legal(x + dx, y + dy) && legal(x + dx, y) && legal(x, y + dy) {
                        mask | 1 << bit
                    } else {
                        mask
                    }
                })
            })
            .collect()
    }

    #[test]
    fn both_key_types_find_the_same_paths() {
        // A 40x40 map with a wall pattern, multiplier 1, all eight directions where legal.
        let width = 40;
        let open = |x: usize, y: usize| !(x % 7 == 3 && y % 9 != 4);
        let moves = move_masks(width, open);
        let mut scratch = SearchScratch::new();
        // Multiplier 1: costs in cost units, as the map hands them to the search.
        let costs = UniformCosts(step_lengths());
        for (start, goal) in [(0, width * width - 1), (45, 1000), (5, 1555), (300, 301)] {
            let heuristic = DistanceHeuristic {
                goal_x: (goal % width) as u64,
                goal_y: (goal / width) as u64,
                straight: STRAIGHT_STEP,
                diagonal_extra: DIAGONAL_STEP - STRAIGHT_STEP,
            };
            let problem = Problem {
                moves: &moves,
                width,
                start,
                goal,
                heuristic: &heuristic,
                max_expansions: u64::MAX,
            };
            let compact = Compact::for_cells(moves.len());
            let small = run(&mut scratch, &problem, &costs, compact).unwrap();
            let packed = run(&mut scratch, &problem, &costs, Packed).unwrap();
            let wide = run(&mut scratch, &problem, &costs, Wide).unwrap();
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
        let moves = move_masks(width, |x, y| open[y * width + x]);
        let uniform = UniformCosts(step_lengths().map(|length| length * 1500));
        let multipliers = vec![1500u32; width * width];
        let per_anchor = PerAnchorCosts {
            lengths: step_lengths(),
            multipliers: &multipliers,
        };
        let mut scratch = SearchScratch::new();
        let mut found = 0;
        for _ in 0..300 {
            let start = random() as usize % (width * width);
            let goal = random() as usize % (width * width);
            if !open[start] || !open[goal] {
                continue;
            }
            let heuristic = DistanceHeuristic {
                goal_x: (goal % width) as u64,
                goal_y: (goal / width) as u64,
                straight: STRAIGHT_STEP * 1500,
                diagonal_extra: (DIAGONAL_STEP - STRAIGHT_STEP) * 1500,
            };
            let problem = Problem {
                moves: &moves,
                width,
                start,
                goal,
                heuristic: &heuristic,
                max_expansions: u64::MAX,
            };
            let pruned = run(&mut scratch, &problem, &uniform, Packed).unwrap();
            let plain = run(&mut scratch, &problem, &per_anchor, Packed).unwrap();
            assert_eq!(pruned.cost, plain.cost);
            assert_eq!(pruned.path, plain.path);
            assert_eq!(pruned.expanded, plain.expanded);
            found += usize::from(pruned.cost.is_some());
        }
        assert!(found > 50);
    }
}
