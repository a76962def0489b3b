//! Movement ranges from one start: checked as a query is, then one forward search.

use super::queries::{others_counted, with_thread_scratch};
use super::PathMap;
use crate::error::RangeError;
use crate::graph::EntryCosts;
use crate::grid::Cell;
use crate::occupancy::{OtherUnits, Unit, UnitId};
use crate::paged::PagedVec;
use crate::query::PathQuery;
use crate::range::{fixed_budget, MovementRange, RangeOptions, MAX_TURNS};
use crate::result::PathCode;
use crate::search::Counted;
use crate::search::{
    range_search, range_search_bytes, Budget, RangeCosts, RangeFound, Unblocked, UnitsView,
};

impl PathMap {
    /// Where a unit of `agent_size` moving by the profile called `profile` can go from
    /// `start` with `budget` (1.0 is one straight step at multiplier 1) per turn: see
    /// [`MovementRange`] and the `range` module for the contract and the boundary.
    ///
    /// Refused, before anything is searched, for a budget that is not a number from 0 to
    /// [`MAX_BUDGET`](crate::MAX_BUDGET), more than [`MAX_TURNS`] turns, with the code
    /// a query from `start` would fail with, and with `MEMORY_LIMIT_REACHED` when the search's
    /// memory (which follows the budget's reach: the whole map where a step can be free) would
    /// take the map past its cache memory limit.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, RangeOptions, Region, TerrainGrid};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 9, 9), 0)?);
    /// map.set_profile(AgentProfile::new("soldier").with_terrain(0, 1.0)?)?;
    /// let range = map.movement_range(Cell::new(4, 4), 1, "soldier", 1.0 + 2f64.sqrt(), &RangeOptions::new())?;
    /// assert!(range.is_in_range(Cell::new(6, 5))); // one diagonal and one straight step
    /// assert!(!range.is_in_range(Cell::new(6, 6))); // two diagonals: 2 sqrt 2 > 1 + sqrt 2
    /// assert_eq!(range.cost(Cell::new(6, 5)), map.find_path(Cell::new(4, 4), Cell::new(6, 5), 1, "soldier").cost.into());
    /// assert_eq!(range.path_to(Cell::new(6, 5)).path.len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn movement_range(
        &self,
        start: Cell,
        agent_size: i64,
        profile: &str,
        budget: f64,
        options: &RangeOptions,
    ) -> Result<MovementRange, RangeError> {
        let per_turn = fixed_budget(budget).ok_or(RangeError::InvalidBudget { value: budget })?;
        if options.turns > MAX_TURNS {
            return Err(RangeError::TooManyTurns {
                turns: options.turns,
            });
        }
        // The checks of a query from `start` to itself, with the same units named.
        let mut named: Vec<i64> = options.allies.clone();
        named.extend(options.moving_unit);
        let query = PathQuery::new(start, start, agent_size, profile).exempt_units(&named);
        let refused = |code| RangeError::Refused { code };
        let checked = (self.check_query(&query)).map_err(|answer| refused(answer.code))?;
        let graph = (self.graph_for(profile, checked.profile, checked.size))
            .ok_or(refused(PathCode::MemoryLimitReached))?;
        let width = self.grid.width();
        let size = (width, self.grid.height());
        let cheapest = u64::from(graph.min_multiplier) * graph.cost_unit;
        let turns = options.turns.max(1);
        let budget = Budget { per_turn, turns };
        // The search's memory follows its reach (the whole map when a step can be free), and
        // counts against the limit as a flow field's does.
        if !self.fits(range_search_bytes(size, checked.start, budget, cheapest)) {
            return Err(refused(PathCode::MemoryLimitReached));
        }
        // Enemies: every unit but the mover and the allies, counted by the rule.
        let enemies = PathQuery {
            other_units: options.other_units,
            moving_unit: options.moving_unit,
            exempt_units: &options.allies,
            ..query
        };
        // The thread's scratch keeps the views of the units between calls (map-sized sets of
        // bits, caught up when units moved), as queries keep theirs.
        with_thread_scratch(|scratch| {
            let (mut view, mut allies) = (
                scratch.units.take(checked.size),
                scratch.units_met.take(checked.size),
            );
            let range = {
                let (view, allies) = (&mut view, &mut allies);
                let counted = self.count_other_units(view, &enemies, checked.size, checked.start);
                let rule = if counted {
                    options.other_units
                } else {
                    OtherUnits::Ignore
                };
                let search = RangeSearch {
                    moves: &graph.moves,
                    units: (rule == OtherUnits::Block).then_some(&*view),
                    size,
                    start: checked.start,
                    budget,
                };
                let found = match (&graph.entry, rule) {
                    // One multiplier everywhere: a constant, which the search's inner loop folds in.
                    (EntryCosts::Uniform(value), OtherUnits::Ignore | OtherUnits::Block) => search
                        .run(RangeCosts::<fn(usize) -> u64>::Uniform(
                            u64::from(*value) * graph.cost_unit,
                        )),
                    (_, OtherUnits::Ignore | OtherUnits::Block) => {
                        search.run(RangeCosts::PerAnchor {
                            multiplier: |anchor| graph.entry_multiplier(anchor),
                            cheapest,
                        })
                    }
                    // Enemies under `Cost` raise what entering their anchors costs.
                    (_, OtherUnits::Cost(floor)) => search.run(RangeCosts::PerAnchor {
                        multiplier: |anchor| {
                            let terrain = graph.entry_multiplier(anchor);
                            if view.is_blocked(anchor) {
                                terrain.max(u64::from(floor))
                            } else {
                                terrain
                            }
                        },
                        cheapest,
                    }),
                };
                let RangeFound {
                    settled: reached,
                    window,
                    places,
                } = found;
                // Allies' footprints: reached anchors that overlap one may be passed, not stopped on.
                let is_ally = |id| options.allies.contains(&id) && options.moving_unit != Some(id);
                let any_allies = !options.allies.is_empty()
                    && self.count_units(
                        allies,
                        checked.size,
                        checked.start,
                        Counted::Accepted(&is_ally),
                    );
                let passable_only = reached
                    .iter()
                    .map(|entry| any_allies && allies.is_blocked(entry.anchor as usize))
                    .collect();
                let standing = |counts: &dyn Fn(UnitId) -> bool| -> Vec<Unit> {
                    (self.occupancy.units().iter())
                        .filter(|unit| counts(unit.id))
                        .copied()
                        .collect()
                };
                let counted_enemies = others_counted(&enemies);
                let blockers = match rule {
                    OtherUnits::Block => standing(&|id| counted_enemies.counts(id)),
                    _ => Vec::new(),
                };
                let standing_allies = standing(&is_ally);
                Ok(MovementRange {
                    region: self.grid.region(),
                    width,
                    movement: self.movement,
                    start: checked.start,
                    agent_size: checked.size,
                    budget: per_turn,
                    turns,
                    reached,
                    window,
                    places,
                    passable_only,
                    blockers,
                    allies: standing_allies,
                    clearance: checked.clearance,
                    version: self.version,
                    units_version: self.occupancy.version(),
                })
            };
            scratch.units.put_back(view);
            scratch.units_met.put_back(allies);
            range
        })
    }
}

/// One range search's inputs besides the multipliers: the terrain's move masks, the units
/// that block (under [`OtherUnits::Block`]), the map's size, the start and the bounds.
struct RangeSearch<'a> {
    moves: &'a PagedVec<u8>,
    units: Option<&'a UnitsView>,
    size: (usize, usize),
    start: usize,
    budget: Budget,
}

impl RangeSearch<'_> {
    fn run(&self, costs: RangeCosts<impl Fn(usize) -> u64>) -> RangeFound {
        match self.units {
            Some(units) => {
                let moves = Unblocked {
                    terrain: self.moves,
                    units,
                };
                range_search(moves, costs, self.size, self.start, self.budget)
            }
            None => range_search(self.moves, costs, self.size, self.start, self.budget),
        }
    }
}
