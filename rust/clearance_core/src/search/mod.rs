//! Path search over the anchors of one agent size and profile, with reusable memory.
//!
//! The search is textbook A* with a consistent heuristic: an open list, a closed set, and one
//! relaxation per legal move. Because the heuristic is consistent, an anchor's cost is final
//! when it is first expanded, so closed anchors are never reopened and the first expansion of
//! the goal ends the search with an optimal cost.
//!
//! One concept per file; a new search algorithm is a sibling of `astar.rs`:
//!
//! | file | what it holds |
//! |---|---|
//! | `astar.rs` | plain A*: the expansion loop and the path trace |
//! | `direct.rs` | the direct walk `auto` tries first, kept when it provably costs the lower bound, and any walk of the same steps in another order |
//! | `jump/` | jump-point search: the search and its proofs (`mod.rs`), the rays between the anchors where a path may turn (`rays.rs`); the rays stored ahead of the queries live with the graph that owns them (`graph/stored_rays.rs`), and the successor rules both follow in `jump_rules.rs` |
//! | `heuristic.rs` | the distance heuristic and its maximum with the landmark bounds |
//! | `step_costs.rs` | the entry-cost models: uniform, or per anchor |
//! | `keys.rs` | open-list keys `(f, h, index)` in three widths |
//! | `pruning.rs` | the steps an expansion may skip on uniform-cost graphs |
//! | `scratch/` | [`SearchScratch`], the per-anchor memory reused between queries (`mod.rs`), held in pages taken on first touch (`pages.rs`) or flat arrays once a search covers much of its map (`layout.rs`) |
//! | `range.rs` | movement ranges: a forward Dijkstra bounded by a budget per turn |
//! | `units/` | other units in a search: the anchors they block, and why every mode stays exact around them (`mod.rs`), and the views, bits and rays that serve them |
//! | `detours.rs` | a query with other units: the search as if alone first, detours round the units it crosses, the whole search last |
//! | `reordered.rs` | detours that only reorder the steps round a crossing, found without a search |
//! | `incumbent.rs` | the bound that lets that last search drop what cannot beat the detoured path |
//! | `units_met.rs` | that last search, counting first only the units its paths meet |
//! | `moves.rs` | where a search reads its move masks: the terrain graph's, or with blocked anchors removed |
//!
//! **Open list.** An indexed 4-ary heap: when a cheaper route to an open anchor turns up, its
//! entry is lowered in place rather than pushed again, so each anchor is popped at most once.
//! Entries pack `(f, h, y, x)` into one `u64` or `u128`, compared without branches; a query
//! whose costs outgrow the packing is run again with wider entries.
//!
//! **Tie-breaking.** Open entries are ordered by `(f, h, y, x)`: lowest estimated total cost,
//! then lowest remaining estimate (deepest first), then lowest row, then lowest column. The
//! order of expansions, and so the path returned, depends on nothing but the query and the map.
//!
//! **Memory reuse.** Per-anchor search state lives in a [`SearchScratch`] that survives between
//! queries. Each query takes a fresh *generation stamp*; state whose stamp is older counts as
//! unvisited, so nothing proportional to the map is cleared per query. The state is held in
//! pages of neighbouring anchors that a query takes as it first touches them, from a pool
//! shared by all queries of the scratch, so memory follows the largest search, not the map.

mod anchor_bits;
mod astar;
mod detours;
mod direct;
mod heuristic;
mod incumbent;
mod jump;
mod key_widths;
mod keys;
mod moves;
mod paths_from;
mod pruning;
mod range;
mod reordered;
mod scratch;
mod step_costs;
mod units;
mod units_met;

pub(crate) use detours::RoundUnits;
use incumbent::Incumbent;
pub(crate) use moves::Unblocked;
pub(crate) use paths_from::{paths_from, FoundPath};
pub(crate) use range::{
    range_search, range_search_bytes, Budget, RangeCosts, RangeFound, Reached, Window,
};
use scratch::Layout;
pub use scratch::SearchScratch;
pub(crate) use units::KeptViews;
pub use units::UnitsView;
pub(crate) use units::{graph_with_units, BlockedLines, Counted, ViewKey};
pub(crate) use units_met::UnitSource;

use crate::cost::STRAIGHT_STEP;
use crate::graph::JumpDistances;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::landmarks::LandmarkTable;
use crate::movement::{Movement, STEP_LENGTHS};
use crate::occupancy::OtherUnits;
use crate::paged::PagedVec;
use astar::astar;
use direct::direct_path;
use heuristic::{DistanceHeuristic, Heuristic, Scaled, TowardsBox, WithLandmarks};
use jump::{jump_search, Goal, Stops};
use key_widths::{with_wider_keys, KeyedSearch};
use keys::KeyCodec;
use moves::MoveMasks;
use step_costs::{PerAnchorCosts, StepCosts, UniformCosts, UnitCosts};

/// What one search found: the optimal cost and anchor indices from start to goal, if any.
pub(crate) struct SearchOutcome {
    /// The optimal cost, if the goal was reached.
    pub cost: Option<u64>,
    /// Storage indices of the anchors from start to goal; empty without a path.
    pub path: Vec<usize>,
    /// Anchors expanded, the goal included when it was expanded.
    pub expanded: u64,
    /// The search stopped at its expansion limit before reaching the goal.
    pub limit_reached: bool,
}

impl SearchOutcome {
    /// A search that ended without reaching the goal.
    fn unfinished(expanded: u64, limit_reached: bool) -> Self {
        SearchOutcome {
            cost: None,
            path: Vec::new(),
            expanded,
            limit_reached,
        }
    }
}

/// One query on one graph.
pub(super) struct Problem<'a, H, M = &'a PagedVec<u8>> {
    /// The move masks of the graph searched: the terrain graph's, or with other units'
    /// blocked anchors removed (`units.rs`).
    pub(super) moves: M,
    pub(super) width: usize,
    pub(super) start: usize,
    pub(super) goal: usize,
    pub(super) heuristic: &'a H,
    pub(super) max_expansions: u64,
    /// The graph's stored straight rays, if it keeps them.
    pub(super) distances: Option<&'a JumpDistances>,
    /// A path in hand that the search only has to beat (`incumbent.rs`), if any.
    pub(super) incumbent: Option<&'a Incumbent>,
}

impl<'a, H> Problem<'a, H> {
    /// The same problem on the graph whose move masks are `moves`.
    fn with_moves<M: MoveMasks>(&self, moves: M) -> Problem<'a, H, M> {
        Problem {
            moves,
            width: self.width,
            start: self.start,
            goal: self.goal,
            heuristic: self.heuristic,
            max_expansions: self.max_expansions,
            distances: self.distances,
            incumbent: self.incumbent,
        }
    }

    /// The query from `start` to `goal` on `graph` (a map `width` wide), guided by `heuristic`
    /// and limited as `options` say.
    fn new(
        graph: &'a AnchorGraph,
        width: usize,
        (start, goal): (usize, usize),
        heuristic: &'a H,
        options: &SearchOptions<'a>,
    ) -> Self {
        Problem {
            moves: &graph.moves,
            width,
            start,
            goal,
            heuristic,
            max_expansions: options.max_expansions,
            distances: graph.jump_distances.as_ref(),
            incumbent: options.incumbent,
        }
    }
}

/// Which algorithm a search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Algorithm {
    /// Plain A* (`astar.rs`).
    Plain,
    /// Jump-point search (`jump/`).
    Jump,
    /// For short trips (where `auto` uses it: other units counted by a cost, or blocking on
    /// a weighted graph, where the stored rays do not describe the search), plain A*
    /// within a budget of expansions that grows with the straight-line distance (no ray
    /// floods the open ground around the start), then, if the budget did not suffice,
    /// jump-point search for the rest of the expansion limit; long trips go straight to
    /// jump-point search. Both are exact, so either answer is optimal;
    /// expansions of both count.
    PlainThenJump,
}

/// How one search runs: which algorithm, the anchors it may expand and the landmarks it may
/// use.
#[derive(Clone, Copy)]
pub(crate) struct SearchOptions<'a> {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Expansions allowed; the goal counts when it is expanded.
    pub max_expansions: u64,
    /// The landmark table of the graph's profile, if one is built.
    pub landmarks: Option<&'a LandmarkTable>,
    /// Try the direct path (`direct.rs`) before the algorithm: a straight walk at the goal,
    /// kept when it provably costs the lower bound (its steps count as expansions).
    pub direct_first: bool,
    /// Other units that block or cost, if any count in this search.
    pub units: Option<UnitsInSearch<'a>>,
    /// A path with the units in hand, which the search only has to beat (`incumbent.rs`).
    pub incumbent: Option<&'a Incumbent>,
}

/// Other units in one search: the view of the anchors they block, and whether those anchors
/// are removed ([`OtherUnits::Block`]) or dearer ([`OtherUnits::Cost`]).
#[derive(Clone, Copy)]
pub(crate) struct UnitsInSearch<'a> {
    pub view: &'a UnitsView,
    pub rule: OtherUnits,
}

/// Finds an optimal path from `start` to `goal` (storage indices of legal anchors) on a map
/// `width` wide.
pub(crate) fn search(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    movement: Movement,
    options: SearchOptions<'_>,
    width: usize,
    start: usize,
    goal: usize,
) -> SearchOutcome {
    if options.direct_first {
        if let Some(direct) = direct_path(
            graph,
            movement,
            width,
            (start, goal),
            options.max_expansions,
            options.units,
        ) {
            return SearchOutcome {
                cost: Some(direct.cost * graph.cost_unit),
                expanded: direct.path.len() as u64 - 1,
                path: direct.path,
                limit_reached: false,
            };
        }
    }
    if options.algorithm == Algorithm::PlainThenJump {
        return plain_then_jump(scratch, graph, movement, options, width, start, goal);
    }
    let distance = DistanceHeuristic::new(graph, movement, width, goal);
    let jump = (options.algorithm == Algorithm::Jump).then_some(movement);
    let units_cost = match options.units {
        Some(UnitsInSearch {
            rule: OtherUnits::Cost(cost),
            ..
        }) => Some(UnitCostScale::new(graph.cost_unit, cost.fixed())),
        _ => None,
    };
    let unit = units_cost.map_or(graph.cost_unit, |scale| scale.unit);
    let mut outcome = match options.landmarks {
        None => search_guided(
            scratch,
            graph,
            width,
            (start, goal),
            &distance,
            &options,
            jump,
        ),
        Some(table) => {
            let heuristic = WithLandmarks {
                distance,
                bounds: table.towards(goal),
            };
            search_guided(
                scratch,
                graph,
                width,
                (start, goal),
                &heuristic,
                &options,
                jump,
            )
        }
    };
    outcome.cost = outcome.cost.map(|cost| cost * unit);
    outcome
}

/// How a search under [`OtherUnits::Cost`] counts: in units of `unit` (the greatest common
/// divisor of the graph's cost unit and the units' multiplier `M`, so `M` is a whole number
/// of them), in which a graph multiplier is `scale` times larger and `M` is `multiplier`.
#[derive(Clone, Copy)]
pub(crate) struct UnitCostScale {
    pub unit: u64,
    pub scale: u64,
    pub multiplier: u64,
}

impl UnitCostScale {
    /// The scale for a graph counting in `cost_unit` and units' fixed-point `multiplier`.
    pub fn new(cost_unit: u64, multiplier: u32) -> Self {
        let unit = greatest_common_divisor(cost_unit, u64::from(multiplier));
        UnitCostScale {
            unit,
            scale: cost_unit / unit,
            multiplier: u64::from(multiplier) / unit,
        }
    }
}

fn greatest_common_divisor(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        greatest_common_divisor(b, a % b)
    }
}

/// [`search_with`] on the graph of this query: the terrain graph's, with other units'
/// anchors removed, or with them dearer.
fn search_guided<H: Heuristic>(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    width: usize,
    (start, goal): (usize, usize),
    heuristic: &H,
    options: &SearchOptions<'_>,
    jump: Option<Movement>,
) -> SearchOutcome {
    let problem = Problem::new(graph, width, (start, goal), heuristic, options);
    let goal_stop = Goal::new(goal, width);
    match options.units {
        None => search_with(scratch, graph, &problem, jump, &goal_stop),
        Some(UnitsInSearch {
            view,
            rule: OtherUnits::Cost(cost),
        }) => {
            let scale = UnitCostScale::new(graph.cost_unit, cost.fixed());
            let scaled = Scaled {
                inner: heuristic,
                factor: scale.scale,
            };
            let problem = Problem::new(graph, width, (start, goal), &scaled, options);
            let costs = UnitCosts {
                lengths: STEP_LENGTHS,
                terrain: &graph.entry,
                even_costs: &graph.even_costs,
                scale: scale.scale,
                units_multiplier: scale.multiplier,
                units: view,
            };
            run_with_fallback(scratch, &problem, &costs, jump, &goal_stop)
        }
        Some(UnitsInSearch { view, .. }) => {
            let problem = problem.with_moves(Unblocked {
                terrain: &graph.moves,
                units: view,
            });
            search_with(scratch, graph, &problem, jump, &goal_stop)
        }
    }
}

/// Straight-line distance, in straight steps, from which [`Algorithm::PlainThenJump`] goes
/// straight to jump-point search: rays scan open ground around the start whatever the trip,
/// which short trips do not repay, while on long ones plain A* would waste its budget.
const LONG_TRIP: u64 = 64;

/// [`Algorithm::PlainThenJump`]: for a goal under [`LONG_TRIP`] straight steps away as the
/// crow flies (`d`), plain A* with at most `4 d + 32` expansions first; jump-point search for
/// longer trips, and for short ones the budget did not suffice.
fn plain_then_jump(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    movement: Movement,
    options: SearchOptions<'_>,
    width: usize,
    start: usize,
    goal: usize,
) -> SearchOutcome {
    let (dx, dy) = (
        (start % width).abs_diff(goal % width),
        (start / width).abs_diff(goal / width),
    );
    let steps = movement.distance(dx as u64, dy as u64) / STRAIGHT_STEP;
    let run = |scratch: &mut SearchScratch, algorithm, max_expansions| {
        let options = SearchOptions {
            algorithm,
            max_expansions,
            direct_first: false,
            ..options
        };
        search(scratch, graph, movement, options, width, start, goal)
    };
    if steps >= LONG_TRIP {
        return run(scratch, Algorithm::Jump, options.max_expansions);
    }
    let budget = steps * 4 + 32;
    let first = run(
        scratch,
        Algorithm::Plain,
        options.max_expansions.min(budget),
    );
    if !first.limit_reached || options.max_expansions <= budget {
        return first;
    }
    let mut second = run(
        scratch,
        Algorithm::Jump,
        options.max_expansions - first.expanded,
    );
    second.expanded += first.expanded;
    second
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

fn search_with<H: Heuristic, M: MoveMasks, S: Stops>(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    problem: &Problem<H, M>,
    jump: Option<Movement>,
    stops: &S,
) -> SearchOutcome {
    match &graph.entry {
        EntryCosts::Uniform(multiplier) => {
            let costs = UniformCosts(STEP_LENGTHS.map(|length| length * u64::from(*multiplier)));
            run_with_fallback(scratch, problem, &costs, jump, stops)
        }
        EntryCosts::PerAnchor(multipliers) => {
            let costs = PerAnchorCosts {
                lengths: STEP_LENGTHS,
                multipliers,
                even_costs: &graph.even_costs,
            };
            run_with_fallback(scratch, problem, &costs, jump, stops)
        }
    }
}

/// Plain A*, or jump-point search for `jump`'s movement, through [`with_wider_keys`].
fn run_with_fallback<H: Heuristic, C: StepCosts, M: MoveMasks, S: Stops>(
    scratch: &mut SearchScratch,
    problem: &Problem<H, M>,
    costs: &C,
    jump: Option<Movement>,
    stops: &S,
) -> SearchOutcome {
    let anchors = problem.moves.len();
    let search = OneSearch {
        problem,
        costs,
        stops,
    };
    match jump {
        Some(Movement::EightWay) => {
            with_wider_keys(scratch, anchors, &JumpPoints::<_, _, _, _, false>(search))
        }
        Some(Movement::FourWay) => {
            with_wider_keys(scratch, anchors, &JumpPoints::<_, _, _, _, true>(search))
        }
        None => with_wider_keys(scratch, anchors, &search),
    }
}

/// One search's problem, step costs and stops: plain A* as a [`KeyedSearch`] (which has no
/// use for the stops), and jump-point search as [`JumpPoints`].
struct OneSearch<'a, H, C, M, S> {
    problem: &'a Problem<'a, H, M>,
    costs: &'a C,
    stops: &'a S,
}

impl<H: Heuristic, C: StepCosts, M: MoveMasks, S: Stops> KeyedSearch for OneSearch<'_, H, C, M, S> {
    type Found = SearchOutcome;
    fn run<L: Layout, K: KeyCodec>(
        &self,
        scratch: &mut SearchScratch,
        keys: K,
    ) -> Option<SearchOutcome> {
        astar::<L, K, H, C, M>(scratch, self.problem, self.costs, keys)
    }
}

/// [`jump_search`] for 4-way (`FOUR_WAY`) or 8-way movement, as a [`KeyedSearch`].
struct JumpPoints<'a, H, C, M, S, const FOUR_WAY: bool>(OneSearch<'a, H, C, M, S>);

impl<H: Heuristic, C: StepCosts, M: MoveMasks, S: Stops, const FOUR_WAY: bool> KeyedSearch
    for JumpPoints<'_, H, C, M, S, FOUR_WAY>
{
    type Found = SearchOutcome;
    fn run<L: Layout, K: KeyCodec>(
        &self,
        scratch: &mut SearchScratch,
        keys: K,
    ) -> Option<SearchOutcome> {
        let OneSearch {
            problem,
            costs,
            stops,
        } = self.0;
        jump_search::<L, K, H, C, M, S, FOUR_WAY>(scratch, problem, costs, keys, stops)
    }
}
