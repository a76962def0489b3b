//! Flow fields: one backward search from a goal, or from several ("the nearest depot"), that
//! gives every anchor it reaches its optimal cost to the nearest goal and the next anchor on
//! the way. Many units of one size and profile sent to one place share one field instead of
//! searching one path each.
//!
//! # The backward search
//!
//! Under the entry-cost convention a step from anchor `a` to a neighbour `b` costs
//! `length * m(b)`, the multiplier of the anchor it *enters*. The field runs Dijkstra from the
//! goals over reversed steps: settling `b` at cost `c(b)`, it offers each neighbour `a` with a
//! legal step `a -> b` the cost `c(b) + length * m(b)`, paid by `b`, the anchor the forward
//! step enters, never by `a`. Moves are symmetric (a step and its reverse need the same
//! anchors to be legal, corners included), so the legal steps into `b` are the legal steps
//! out of it. With costs that never go negative, every anchor is settled at its optimal cost
//! to the nearest goal, exactly as a forward search from it would find; goals cost 0.
//!
//! # Ties
//!
//! The search orders anchors by cost, then by the number of steps of the path that gives the
//! cost: each anchor's `next` is, among the neighbours on a cheapest path to a goal, those
//! whose cheapest paths take the fewest steps, the first in direction order north, east,
//! south, west, north-east, south-east, south-west, north-west. Every step of a path so
//! followed brings the step count down by one, so following a field always ends at a goal,
//! also through regions that cost nothing to cross.
//!
//! How the search runs (its queues and packed labels, and why they give these answers) is
//! described in `search.rs`.

use crate::clearance::ClearanceLayer;
use crate::cost::cost_to_f64;
use crate::graph::AnchorGraph;
use crate::grid::{Cell, Region, TerrainGrid};
use crate::movement::{direction_offsets, STEP_LENGTHS, STRAIGHT_DIRECTIONS};
use crate::occupancy::{OtherUnits, UnitId};
use crate::profile::AgentProfile;
use crate::result::{PathCode, PathResult, StepWeights};
use arrays::FieldArrays;
use search::Plan;
use std::collections::HashSet;
use std::sync::Arc;

mod arrays;
mod labels;
mod page_table;
mod search;

/// How far a [`FlowField`] searches: by default until every anchor that can reach a goal is
/// reached. See [`PathMap::flow_field`](crate::PathMap::flow_field).
///
/// ```
/// use clearance_core::{Cell, FlowFieldOptions, COST_SCALE};
///
/// // Stop once these two anchors are settled, or at a cost of 40 at the latest.
/// let options = FlowFieldOptions::new()
///     .settle(&[Cell::new(3, 4), Cell::new(10, 2)])
///     .max_cost(40 * COST_SCALE);
/// assert_eq!(options.settle.len(), 2);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlowFieldOptions {
    /// Stop as soon as every one of these anchors that can reach a goal has its final cost
    /// (anchors outside the map, where the unit does not fit, under a unit that blocks, or
    /// with no path to a goal on the terrain are ignored). Empty (the default): no such
    /// bound. Every anchor cheaper than the last of them is reached too. An anchor that
    /// blocking units only enclose is not known to be unreachable until the search has
    /// reached everything else it can: the field then covers what the goals can reach.
    pub settle: Vec<Cell>,
    /// Reach only anchors whose cost to the nearest goal is at most this, in fixed-point units
    /// ([`COST_SCALE`](crate::COST_SCALE) per 1.0 of cost). `None` (the default): no bound.
    pub max_cost: Option<u64>,
    /// How the units registered on the map count, as in a query
    /// ([`OtherUnits::Ignore`] by default). In a field no anchor is the moving unit's: a start
    /// that overlaps a counted unit is not reached under `Block`, so a group order exempts its
    /// own members (`exempt_units`).
    pub other_units: OtherUnits,
    /// Units that do not count (a group order's own members).
    pub exempt_units: Vec<UnitId>,
}

impl FlowFieldOptions {
    /// No bounds: the field reaches every anchor that can reach a goal.
    pub fn new() -> Self {
        FlowFieldOptions::default()
    }

    /// Builder form of the `settle` field (replaces it).
    pub fn settle(mut self, anchors: &[Cell]) -> Self {
        self.settle = anchors.to_vec();
        self
    }

    /// Builder form of the `max_cost` field.
    pub fn max_cost(mut self, cost: u64) -> Self {
        self.max_cost = Some(cost);
        self
    }

    /// Builder form of the `other_units` and `exempt_units` fields.
    pub fn other_units(mut self, rule: OtherUnits, exempt: &[UnitId]) -> Self {
        self.other_units = rule;
        self.exempt_units = exempt.to_vec();
        self
    }
}

/// The way from every reached anchor to the nearest of one or more goals, for one agent size
/// and profile on one version of a map: built by
/// [`PathMap::flow_field`](crate::PathMap::flow_field) (see the module documentation of
/// `flow_field/mod.rs` for the search and its ties, and `flow_field/search.rs` for how it
/// runs).
///
/// A field is a snapshot: it answers for the map version it was built on
/// ([`version`](Self::version)) and is not changed by later edits.
///
/// ```
/// use clearance_core::{AgentProfile, Cell, FlowFieldOptions, PathCode, PathMap, Region, TerrainGrid};
///
/// // A wall down column 3 with a gap at row 4; two depots on the far side.
/// let mut grid = TerrainGrid::new(Region::new(0, 0, 8, 6), 0)?;
/// grid.fill_rect(Region::new(3, 0, 1, 4), 1)?;
/// let mut map = PathMap::new(grid);
/// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
///
/// let depots = [Cell::new(7, 0), Cell::new(5, 5)];
/// let field = map.flow_field(&depots, 1, "unit", FlowFieldOptions::new())?;
/// assert_eq!(field.version(), map.version());
/// // From (0, 5) the nearer depot is (5, 5), five steps east.
/// assert_eq!(field.total_cost(Cell::new(0, 5)), Some(5.0));
/// assert_eq!(field.next_anchor(Cell::new(0, 5)), Some(Cell::new(1, 5)));
/// let path = field.path_from(Cell::new(0, 5));
/// assert_eq!(path.code, PathCode::Ok);
/// assert_eq!(path.path.last(), Some(&Cell::new(5, 5)));
/// // Walls are not anchors: the unit does not fit there.
/// assert_eq!(field.cost(Cell::new(3, 0)), None);
/// assert_eq!(field.path_from(Cell::new(3, 0)).code, PathCode::StartClearanceInsufficient);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct FlowField {
    region: Region,
    width: usize,
    agent_size: u8,
    profile: String,
    goals: Vec<Cell>,
    version: u64,
    /// The map's units version, if the field counted other units.
    units_version: Option<u64>,
    /// Every cost below is in units of this many fixed-point cost units per length unit (the
    /// graph's `cost_unit`).
    cost_unit: u64,
    /// Per anchor: its cost to the nearest goal plus 1, in units of `cost_unit` (0 where not
    /// reached), and the direction of its next step plus 1 (0 where there is none).
    arrays: FieldArrays,
    /// The largest stored cost, kept so that [`max_cost`](Self::max_cost) does not scan them.
    largest: u64,
    reached: usize,
    complete: bool,
    /// The map's clearance layer of that version (shared with the map while it lasts): says
    /// where the unit does not fit, and by how much.
    clearance: Arc<ClearanceLayer>,
}

/// What a field is built from: a map version's search graph and clearance layer for one agent
/// size and profile, and goals already checked (inside the map, legal for the size).
pub(crate) struct FieldSource<'a> {
    pub grid: &'a TerrainGrid,
    pub graph: &'a AnchorGraph,
    pub clearance: Arc<ClearanceLayer>,
    pub agent_size: u8,
    pub profile_name: &'a str,
    pub profile: &'a AgentProfile,
    pub version: u64,
    /// The map's units version, if the field counts other units.
    pub units_version: Option<u64>,
    /// Under [`OtherUnits::Cost`]: its fixed-point multiplier, one more that steps may pay.
    pub units_multiplier: Option<u32>,
}

impl FlowField {
    /// Bytes a field of a map of `cells` cells needs while it is built, counted as its own 9
    /// per anchor (a cost and a direction), 5 of search memory and 16 for the open queues. The
    /// search's 8-byte labels become the costs, so it needs less; with 16-byte labels (costs
    /// too large to pack in 8 bytes) labels, costs and directions take 25. A bounded field
    /// that stays on pages needs far less, but one whose search spreads moves to arrays over
    /// the whole map part way, so the estimate is the same for every field.
    pub(crate) fn estimated_bytes(cells: usize) -> usize {
        cells.saturating_mul(8 + 1 + 5 + 16)
    }

    /// Runs the backward search from `goals` (inside the map and legal; duplicates allowed)
    /// within the bounds of `options`.
    pub(crate) fn build(
        source: FieldSource<'_>,
        goals: &[Cell],
        options: &FlowFieldOptions,
    ) -> Self {
        let FieldSource {
            grid,
            graph,
            clearance,
            agent_size,
            profile_name,
            profile,
            version,
            units_version,
            units_multiplier,
        } = source;
        let mut multipliers: Vec<u64> = (profile.capability().iter())
            .filter_map(|terrain| profile.fixed_multiplier(terrain))
            .chain(units_multiplier)
            .map(|multiplier| u64::from(multiplier) / graph.cost_unit)
            .collect();
        multipliers.sort_unstable();
        multipliers.dedup();
        let goal_indices: Vec<usize> = goals
            .iter()
            .filter_map(|&goal| grid.index_of(goal))
            .collect();
        // The anchors to settle before stopping: legal ones that can reach a goal. An anchor
        // with no move (one a blocking unit stands on: the graph with units took its moves)
        // is reached only if it is a goal; the region labels, the terrain's, do not know it.
        // Sets, so that many anchors to settle and many goals cost their sum, not product.
        let goal_set: HashSet<usize> = goal_indices.iter().copied().collect();
        let goal_regions: HashSet<u32> = (goal_indices.iter())
            .map(|&goal| graph.regions.region_of(goal))
            .collect();
        let pending: Vec<usize> = (options.settle.iter())
            .filter_map(|&cell| grid.index_of(cell))
            .filter(|&anchor| {
                clearance.at(anchor) >= agent_size
                    && (graph.moves[anchor] != 0 || goal_set.contains(&anchor))
                    && goal_regions.contains(&graph.regions.region_of(anchor))
            })
            .collect();
        let plan = Plan {
            graph,
            offsets: direction_offsets(grid.width()),
            bound: options.max_cost.map(|cost| cost / graph.cost_unit),
            goals: &goal_indices,
            pending: &pending,
            settle_bounded: !options.settle.is_empty(),
        };
        let largest = multipliers.last().copied().unwrap_or(0);
        let found = if search::fits_u64(graph.moves.len(), largest, plan.bound) {
            plan.run::<u64>(multipliers)
        } else {
            plan.run::<u128>(multipliers)
        };
        FlowField {
            region: grid.region(),
            width: grid.width(),
            agent_size,
            profile: profile_name.to_owned(),
            goals: goals.to_vec(),
            version,
            units_version,
            cost_unit: graph.cost_unit,
            arrays: found.arrays,
            largest: found.largest,
            reached: found.reached,
            complete: found.complete,
            clearance,
        }
    }

    /// The storage index of `cell`, if it lies inside the map.
    fn index_of(&self, cell: Cell) -> Option<usize> {
        self.region.index_of(cell)
    }

    fn cell_at(&self, index: usize) -> Cell {
        Cell::new(
            self.region.x + (index % self.width) as i32,
            self.region.y + (index / self.width) as i32,
        )
    }

    /// The storage index of `cell` if the field reached it.
    fn reached_index(&self, cell: Cell) -> Option<usize> {
        self.index_of(cell)
            .filter(|&index| self.arrays.cost(index) != 0)
    }

    /// The fixed-point cost (see [`COST_SCALE`](crate::COST_SCALE)) of an optimal path from
    /// anchor `cell` to the nearest goal, exactly what
    /// [`PathMap::find_path`](crate::PathMap::find_path) to that goal would report as
    /// `cost`; 0 at a goal. `None` where the field did not reach (no path, or beyond its
    /// bounds), where the unit does not fit, and outside the map.
    pub fn cost(&self, cell: Cell) -> Option<u64> {
        self.reached_index(cell)
            .map(|index| (self.arrays.cost(index) - 1) * self.cost_unit)
    }

    /// The true cost of the path [`path_from`](Self::path_from) returns, as
    /// [`PathResult::total_cost`] gives it (multipliers summed over straight and diagonal
    /// steps, with the exact square root of 2). `None` where [`cost`](Self::cost) is. Walks
    /// the path: takes time in proportion to its length.
    pub fn total_cost(&self, cell: Cell) -> Option<f64> {
        let index = self.reached_index(cell)?;
        Some(self.walk(index, |_| {}).total_cost())
    }

    /// The next anchor on the way from `cell` to the nearest goal (see the module
    /// documentation for ties). `None` at a goal and wherever [`cost`](Self::cost) is `None`.
    pub fn next_anchor(&self, cell: Cell) -> Option<Cell> {
        let index = self.reached_index(cell)?;
        self.step(index).map(|(next, _)| self.cell_at(next))
    }

    /// The anchor after `index` and the direction of the step to it, if `index` is not a goal.
    fn step(&self, index: usize) -> Option<(usize, usize)> {
        let stored = usize::from(self.arrays.next(index));
        (stored != 0).then(|| {
            let direction = stored - 1;
            let offset = direction_offsets(self.width)[direction];
            (index.wrapping_add_signed(offset), direction)
        })
    }

    /// Follows the field from the reached anchor `index` to its goal, handing each anchor
    /// after the first to `visit`, and returns the multipliers paid. Each step's multiplier is
    /// the drop in cost along it divided by its length: exact, as costs are sums of them (the
    /// 1 added to every stored cost cancels out).
    fn walk(&self, mut index: usize, mut visit: impl FnMut(usize)) -> StepWeights {
        let mut weights = StepWeights::default();
        while let Some((next, direction)) = self.step(index) {
            let multiplier = (self.arrays.cost(index) - self.arrays.cost(next))
                / STEP_LENGTHS[direction]
                * self.cost_unit;
            if direction < STRAIGHT_DIRECTIONS {
                weights.straight += multiplier;
            } else {
                weights.diagonal += multiplier;
            }
            visit(next);
            index = next;
        }
        weights
    }

    /// The path from anchor `cell` to the nearest goal, as a [`PathResult`] like
    /// [`PathMap::find_path`](crate::PathMap::find_path) returns: `OK` with every anchor from
    /// `cell` to the goal (just `cell` at a goal), its fixed-point `cost` and step weights;
    /// `NO_PATH` where the field did not reach (with bounds, that may only mean "beyond
    /// them": see [`is_complete`](Self::is_complete)); `START_CLEARANCE_INSUFFICIENT`, with
    /// the shortfall, where the unit does not fit; `START_OUT_OF_BOUNDS` outside the map.
    /// `expanded` is 0: the search is already done.
    pub fn path_from(&self, cell: Cell) -> PathResult {
        let Some(index) = self.index_of(cell) else {
            return PathResult::failure(PathCode::StartOutOfBounds);
        };
        if let Some(shortfall) = self.clearance.shortfall(index, self.agent_size) {
            return PathResult {
                shortfall: Some(shortfall),
                ..PathResult::failure(PathCode::StartClearanceInsufficient)
            };
        }
        if self.arrays.cost(index) == 0 {
            return PathResult::failure(PathCode::NoPath);
        }
        let mut path = vec![cell];
        let step_weights = self.walk(index, |next| path.push(self.cell_at(next)));
        PathResult {
            code: PathCode::Ok,
            path,
            cost: (self.arrays.cost(index) - 1) * self.cost_unit,
            step_weights,
            expanded: 0,
            ..PathResult::failure(PathCode::Ok)
        }
    }

    /// The anchors of the path [`path_from`](Self::path_from) gives from `cell`, `cell`
    /// first, read one step at a time as the iterator is advanced; none where that call does
    /// not answer `OK`. For reading the start of a long path without walking all of it, as
    /// [`PathMap::first_waypoint`](crate::PathMap::first_waypoint) does.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, FlowFieldOptions, PathMap, Region, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 40, 3), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let field = map.flow_field(&[Cell::new(39, 1)], 1, "unit", FlowFieldOptions::new()).expect("a field");
    /// let first: Vec<Cell> = field.anchors_from(Cell::new(0, 1)).take(3).collect();
    /// assert_eq!(first, [Cell::new(0, 1), Cell::new(1, 1), Cell::new(2, 1)]);
    /// assert!(field.anchors_from(Cell::new(0, 1)).eq(field.path_from(Cell::new(0, 1)).path));
    /// assert_eq!(field.anchors_from(Cell::new(-1, 1)).count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn anchors_from(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        let start = (self.reached_index(cell))
            .filter(|&index| self.clearance.shortfall(index, self.agent_size).is_none());
        std::iter::successors(start, |&index| self.step(index).map(|(next, _)| next))
            .map(|index| self.cell_at(index))
    }

    /// The goals the field leads to, as given.
    pub fn goals(&self) -> &[Cell] {
        &self.goals
    }

    /// The [`PathMap::version`](crate::PathMap::version) of the map the field was built on.
    /// When the map's version differs, the map has changed since and the field may be stale.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The [`PathMap::units_version`](crate::PathMap::units_version) of the map the field was
    /// built on, if it counted other units (`None` if they were ignored, or none counted):
    /// while both versions are equal, the field still holds.
    pub fn units_version(&self) -> Option<u64> {
        self.units_version
    }

    /// The agent size the field is for.
    pub fn agent_size(&self) -> u8 {
        self.agent_size
    }

    /// The name of the profile the field is for.
    pub fn profile(&self) -> &str {
        &self.profile
    }

    /// The region of the map the field covers.
    pub fn region(&self) -> Region {
        self.region
    }

    /// How many anchors the field reached, goals included.
    pub fn reached_count(&self) -> usize {
        self.reached
    }

    /// Whether the field surely reached every anchor that has a path to a goal: no bound of
    /// its [`FlowFieldOptions`] stopped an offer to an anchor not yet settled. Then `NO_PATH`
    /// from [`path_from`](Self::path_from) means there is no path at all. The answer errs on
    /// the safe side: `false` can also mean a bound was met exactly and the anchor it stopped
    /// an offer to was settled later by a cheaper way.
    pub fn is_complete(&self) -> bool {
        self.complete
    }

    /// The largest cost among reached anchors, as a float (1.0 = one straight step at
    /// multiplier 1), for scaling a heat map; 0 if only goals were reached.
    pub fn max_cost(&self) -> f64 {
        // Stored costs are 1 more than the cost, and 0 where not reached.
        cost_to_f64(self.largest.saturating_sub(1) * self.cost_unit)
    }

    /// Bytes the field holds of its own: a cost and a direction per anchor of the map, and its
    /// goals; for a bounded field whose search stayed within a small share of a map of more
    /// than 2,048 anchors, a cost and a direction per anchor of the pages (of 128
    /// consecutive anchors) its search touched, and the pages' table. The clearance layer it
    /// shares with the map is not counted.
    pub fn memory_bytes(&self) -> usize {
        self.arrays.memory_bytes()
            + self.goals.capacity() * std::mem::size_of::<Cell>()
            + self.profile.capacity()
    }
}
