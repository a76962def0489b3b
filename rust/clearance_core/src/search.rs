//! A* over the anchors of one agent size and profile, with reusable memory.
//!
//! The search is textbook A* with a consistent heuristic: an open list (a 4-ary min-heap that
//! may hold stale entries, skipped when popped), a closed set, and one relaxation per legal move.
//! Because the heuristic is consistent, an anchor's cost is final when it is first expanded, so
//! closed anchors are never reopened and the first expansion of the goal ends the search with
//! an optimal cost.
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
use crate::heap::MinHeap;
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
    open: MinHeap<OpenEntry>,
    generation: u32,
}

/// Search state of one anchor. `stamp == generation`: reached in this query (`g` and `parent`
/// are valid); `stamp == generation + 1`: expanded; anything else: not reached.
#[derive(Debug, Clone, Copy, Default)]
struct Node {
    g: u64,
    stamp: u32,
    parent: u32,
}

/// An open-list entry; the derived order is the tie-break order `(f, h, y, x)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct OpenEntry {
    f: u64,
    h: u64,
    /// `y << 16 | x`, in map-local coordinates (both below 2^15).
    position: u32,
}

impl SearchScratch {
    /// Empty scratch; it grows on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes of memory held.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>() + self.open.memory_bytes()
    }

    /// Starts a query over `cells` anchors; returns the stamp meaning "reached".
    fn begin(&mut self, cells: usize) -> u32 {
        if self.nodes.len() < cells {
            self.nodes.resize(cells, Node::default());
        }
        if self.generation >= u32::MAX - 2 {
            for node in &mut self.nodes {
                node.stamp = 0;
            }
            self.generation = 0;
        }
        self.generation += 2;
        self.open.clear();
        self.generation
    }
}

/// What one search found: the optimal cost and anchor indices from start to goal, if any.
pub(crate) struct SearchOutcome {
    pub cost: Option<u64>,
    pub path: Vec<usize>,
    pub expanded: u64,
}

/// Runs A* from `start` to `goal` (storage indices of legal anchors) on a map `width` wide.
pub(crate) fn search(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    movement: Movement,
    width: usize,
    start: usize,
    goal: usize,
) -> SearchOutcome {
    let goal_x = (goal % width) as u64;
    let goal_y = (goal / width) as u64;
    let min = u64::from(graph.min_multiplier);
    let heuristic = DistanceHeuristic {
        goal_x,
        goal_y,
        straight: STRAIGHT_STEP * min,
        // Manhattan: a diagonal is never taken, so dx + dy straight steps remain.
        diagonal_extra: match movement {
            Movement::FourWay => STRAIGHT_STEP * min,
            Movement::EightWay => (DIAGONAL_STEP - STRAIGHT_STEP) * min,
        },
    };
    match &graph.entry {
        EntryCosts::Uniform(multiplier) => {
            let costs = UniformCosts(step_lengths().map(|length| length * u64::from(*multiplier)));
            run(
                scratch,
                &graph.moves,
                width,
                start,
                goal,
                &heuristic,
                &costs,
            )
        }
        EntryCosts::PerAnchor(multipliers) => {
            let costs = PerAnchorCosts {
                lengths: step_lengths(),
                multipliers,
            };
            run(
                scratch,
                &graph.moves,
                width,
                start,
                goal,
                &heuristic,
                &costs,
            )
        }
    }
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

impl DistanceHeuristic {
    #[inline(always)]
    fn estimate(&self, x: u64, y: u64) -> u64 {
        let dx = x.abs_diff(self.goal_x);
        let dy = y.abs_diff(self.goal_y);
        dx.max(dy) * self.straight + dx.min(dy) * self.diagonal_extra
    }
}

/// The cost of one step, given its direction and the anchor it enters.
trait StepCosts {
    fn step_cost(&self, direction: usize, target: usize) -> u64;
}

struct UniformCosts([u64; 8]);

impl StepCosts for UniformCosts {
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
    #[inline(always)]
    fn step_cost(&self, direction: usize, target: usize) -> u64 {
        self.lengths[direction] * u64::from(self.multipliers[target])
    }
}

fn run<C: StepCosts>(
    scratch: &mut SearchScratch,
    moves: &[u8],
    width: usize,
    start: usize,
    goal: usize,
    heuristic: &DistanceHeuristic,
    costs: &C,
) -> SearchOutcome {
    let reached = scratch.begin(moves.len());
    let expanded_stamp = reached + 1;
    let offsets: [isize; 8] = DIRECTIONS.map(|d| d.dy as isize * width as isize + d.dx as isize);
    let nodes = &mut scratch.nodes[..moves.len()];
    let open = &mut scratch.open;

    let (start_x, start_y) = ((start % width) as u32, (start / width) as u32);
    nodes[start] = Node {
        g: 0,
        stamp: reached,
        parent: start as u32,
    };
    let start_h = heuristic.estimate(u64::from(start_x), u64::from(start_y));
    open.push(OpenEntry {
        f: start_h,
        h: start_h,
        position: start_y << 16 | start_x,
    });

    let mut expanded = 0u64;
    while let Some(entry) = open.pop() {
        let x = entry.position & 0xFFFF;
        let y = entry.position >> 16;
        let index = y as usize * width + x as usize;
        let node = &mut nodes[index];
        if node.stamp == expanded_stamp {
            continue; // a stale entry: the anchor was expanded through a cheaper one
        }
        node.stamp = expanded_stamp;
        expanded += 1;
        let g = node.g;
        if index == goal {
            return SearchOutcome {
                cost: Some(g),
                path: trace_back(nodes, start, goal),
                expanded,
            };
        }
        let mut mask = moves[index];
        while mask != 0 {
            let direction = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let target = index.wrapping_add_signed(offsets[direction]);
            let next = &mut nodes[target];
            if next.stamp == expanded_stamp {
                continue;
            }
            let next_g = g + costs.step_cost(direction, target);
            if next.stamp != reached || next_g < next.g {
                next.g = next_g;
                next.stamp = reached;
                next.parent = index as u32;
                let step = DIRECTIONS[direction];
                let next_x = x.wrapping_add_signed(step.dx);
                let next_y = y.wrapping_add_signed(step.dy);
                let h = heuristic.estimate(u64::from(next_x), u64::from(next_y));
                open.push(OpenEntry {
                    f: next_g + h,
                    h,
                    position: next_y << 16 | next_x,
                });
            }
        }
    }
    SearchOutcome {
        cost: None,
        path: Vec::new(),
        expanded,
    }
}

fn trace_back(nodes: &[Node], start: usize, goal: usize) -> Vec<usize> {
    let mut path = vec![goal];
    let mut at = goal;
    while at != start {
        at = nodes[at].parent as usize;
        path.push(at);
    }
    path.reverse();
    path
}
