//! Path queries: validation in the order the result codes are listed (the search graph's
//! memory check after the unit checks, see [`PathCode`]), then the search.

use super::PathMap;
use crate::clearance::ClearanceLayer;
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::Cell;
use crate::landmarks::LandmarkTable;
use crate::occupancy::{OtherUnits, UnitId};
use crate::profile::AgentProfile;
use crate::query::PathQuery;
use crate::query::SearchMode;
use crate::result::{ClearanceShortfall, PathCode, PathResult, StepWeights};
use crate::search::{
    estimate, search, Algorithm, Counted, RoundUnits, SearchOptions, SearchScratch, UnitSource,
    UnitsInSearch, UnitsView, ViewKey,
};
use crate::smoothing::Smoothing;
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static THREAD_SCRATCH: RefCell<SearchScratch> = RefCell::new(SearchScratch::new());
}

/// Runs `work` with this thread's search scratch.
pub(super) fn with_thread_scratch<T>(work: impl FnOnce(&mut SearchScratch) -> T) -> T {
    THREAD_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => work(&mut scratch),
        // Only reachable if a search re-entered itself; a fresh scratch keeps it correct.
        Err(_) => work(&mut SearchScratch::new()),
    })
}

impl PathMap {
    /// Bytes of search memory held by the calling thread: the scratch that
    /// [`find_path`](Self::find_path), [`query`](Self::query) and the other queries without
    /// a caller-owned [`SearchScratch`] keep per thread, shared by every map the thread
    /// searches. It grows with the largest search the thread ran, not with the map; see
    /// [`SearchScratch`]. 0 while the scratch is in use (a search on this thread re-entered).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, Region, TerrainGrid};
    ///
    /// // A wall with a gap at the bottom: no straight walk, so the query searches.
    /// let mut grid = TerrainGrid::new(Region::new(0, 0, 64, 64), 0)?;
    /// grid.fill_rect(Region::new(30, 0, 1, 60), 1)?;
    /// let mut map = PathMap::new(grid);
    /// map.set_profile(AgentProfile::new("walker").with_terrain(0, 1.0)?)?;
    /// assert!(map.find_path(Cell::new(0, 0), Cell::new(63, 40), 1, "walker").is_ok());
    /// assert!(PathMap::thread_search_memory_bytes() > 0);
    /// PathMap::trim_thread_search_memory();
    /// assert_eq!(PathMap::thread_search_memory_bytes(), 0);
    /// // The next query grows it again.
    /// assert!(map.find_path(Cell::new(0, 0), Cell::new(63, 40), 1, "walker").is_ok());
    /// assert!(PathMap::thread_search_memory_bytes() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn thread_search_memory_bytes() -> usize {
        THREAD_SCRATCH.with(|scratch| {
            scratch
                .try_borrow()
                .map_or(0, |scratch| scratch.memory_bytes())
        })
    }

    /// Gives back the calling thread's search memory (see
    /// [`thread_search_memory_bytes`](Self::thread_search_memory_bytes)); the next query on
    /// this thread grows it again. Other threads keep theirs: each trims its own. Does
    /// nothing while the scratch is in use.
    pub fn trim_thread_search_memory() {
        THREAD_SCRATCH.with(|scratch| {
            if let Ok(mut scratch) = scratch.try_borrow_mut() {
                scratch.trim();
            }
        });
    }

    /// Finds an optimal path for an agent of `agent_size` (1 to 255) moving by the rules of
    /// the profile called `profile`, from anchor `start` to anchor `goal`.
    ///
    /// Uses a search scratch kept per thread; see [`find_path_with`](Self::find_path_with) to
    /// manage it yourself, and [`query`](Self::query) for partial paths and expansion limits.
    /// See the type's documentation for the full contract.
    pub fn find_path(&self, start: Cell, goal: Cell, agent_size: i64, profile: &str) -> PathResult {
        self.query(&PathQuery::new(start, goal, agent_size, profile))
    }

    /// [`find_path`](Self::find_path) with caller-owned search memory.
    pub fn find_path_with(
        &self,
        scratch: &mut SearchScratch,
        start: Cell,
        goal: Cell,
        agent_size: i64,
        profile: &str,
    ) -> PathResult {
        self.query_with(scratch, &PathQuery::new(start, goal, agent_size, profile))
    }

    /// Answers a query with its options (partial paths, an expansion limit), using a search
    /// scratch kept per thread.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathCode, PathMap, PathQuery, Region, TerrainGrid};
    ///
    /// // A wall across column 3 cuts the map in two.
    /// let mut grid = TerrainGrid::new(Region::new(0, 0, 6, 3), 0)?;
    /// grid.fill_rect(Region::new(3, 0, 1, 3), 1)?;
    /// let mut map = PathMap::new(grid);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    ///
    /// let query = PathQuery::new(Cell::new(0, 1), Cell::new(5, 1), 1, "unit");
    /// assert_eq!(map.query(&query).code, PathCode::NoPath);
    /// // As close as the unit can get: against the wall, level with the goal.
    /// let partial = map.query(&query.allow_partial_path(true));
    /// assert_eq!(partial.code, PathCode::PartialPath);
    /// assert_eq!(partial.path.last(), Some(&Cell::new(2, 1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn query(&self, query: &PathQuery<'_>) -> PathResult {
        with_thread_scratch(|scratch| self.query_with(scratch, query))
    }

    /// [`query`](Self::query) with caller-owned search memory.
    pub fn query_with(&self, scratch: &mut SearchScratch, query: &PathQuery<'_>) -> PathResult {
        self.query_guided(scratch, query, None)
    }

    /// [`query_with`](Self::query_with) with `landmarks` for its heuristic instead of the
    /// profile's own table (see [`GivenLandmarks`] for which tables keep it exact).
    pub(super) fn query_guided(
        &self,
        scratch: &mut SearchScratch,
        query: &PathQuery<'_>,
        landmarks: Option<GivenLandmarks<'_>>,
    ) -> PathResult {
        PathResult {
            smoothing: query.smoothing,
            ..self.answer_query(scratch, query, landmarks)
        }
    }

    /// The answer to `query` (with waypoints when it asks for them), before its result
    /// records the smoothing asked for.
    fn answer_query(
        &self,
        scratch: &mut SearchScratch,
        query: &PathQuery<'_>,
        landmarks: Option<GivenLandmarks<'_>>,
    ) -> PathResult {
        let checked = match self.check_query(query) {
            Ok(checked) => checked,
            Err(answer) => return answer,
        };
        if checked.start == checked.goal {
            return PathResult {
                path: vec![query.start],
                waypoints: match query.smoothing {
                    Smoothing::Off => Vec::new(),
                    Smoothing::Taut => vec![query.start],
                },
                ..PathResult::failure(PathCode::Ok)
            };
        }
        let Some(graph) = self.graph_for(query.profile, checked.profile, checked.size) else {
            return PathResult::failure(PathCode::MemoryLimitReached);
        };
        // The view lives in the scratch between queries (its bits are cleared rectangle by
        // rectangle), but is read while the search writes the rest of the scratch.
        let mut view = scratch.units.take(checked.size);
        let counted = self.count_other_units(&mut view, query, checked.size, checked.start);
        let rule = if counted {
            query.other_units
        } else {
            OtherUnits::Ignore
        };
        let units = counted.then_some(UnitsInSearch { view: &view, rule });
        let answer = self.answer(scratch, query, &checked, &graph, units, landmarks);
        scratch.units.put_back(view);
        answer
    }

    /// Records in `view` the units that count against `query` (all but the moving unit and
    /// the exempt ones) for an agent of `size` starting at storage index `start`; whether any
    /// does.
    pub(super) fn count_other_units(
        &self,
        view: &mut UnitsView,
        query: &PathQuery<'_>,
        size: u8,
        start: usize,
    ) -> bool {
        if query.other_units == OtherUnits::Ignore || self.occupancy.is_empty() {
            return false;
        }
        self.count_units(view, size, start, others_counted(query))
    }

    /// Records in `view` the units whose id `counts` accepts, for an agent of `size` whose
    /// search starts at storage index `start` (never blocked; `usize::MAX` for none); whether
    /// there is any. Every caller builds its view here.
    pub(super) fn count_units(
        &self,
        view: &mut UnitsView,
        size: u8,
        start: usize,
        counted: Counted<'_>,
    ) -> bool {
        view.update(self.view_key(size), &self.occupancy, counted, start);
        !view.is_empty()
    }

    /// What a view of this map's units for an agent of `size` is built for.
    fn view_key(&self, size: u8) -> ViewKey {
        let region = self.grid.region();
        ViewKey {
            units_version: self.occupancy.version(),
            agent_size: size,
            shape: (self.grid.width(), self.grid.height()),
            origin: (region.x, region.y),
        }
    }

    /// The search behind [`query_with`](Self::query_with), once the query passed its checks.
    fn answer(
        &self,
        scratch: &mut SearchScratch,
        query: &PathQuery<'_>,
        checked: &CheckedQuery<'_>,
        graph: &AnchorGraph,
        units: Option<UnitsInSearch<'_>>,
        given_landmarks: Option<GivenLandmarks<'_>>,
    ) -> PathResult {
        let (start, goal) = (checked.start, checked.goal);
        let blocking = units.filter(|units| units.rule == OtherUnits::Block);
        let occupied_by = blocking
            .filter(|units| units.view.is_blocked(goal))
            .and_then(|_| self.unit_on(query.goal, checked.size, others_counted(query)));
        if occupied_by.is_some() && !query.allow_partial_path {
            return PathResult {
                occupied_by,
                ..PathResult::failure(PathCode::GoalOccupied)
            };
        }
        let mut target = goal;
        if checked.goal_shortfall.is_some()
            || occupied_by.is_some()
            || !graph.connected(start, goal)
        {
            if !query.allow_partial_path {
                return PathResult::failure(PathCode::NoPath);
            }
            // With units and no expansion limit, a guess: if the search cannot reach it, the
            // walk below finds the answer. Under a limit the walk comes first, so that a search
            // towards a guess cut off cannot spend expansions the answer needs.
            target = match blocking {
                Some(units) if query.max_expansions.is_none() => {
                    self.unblocked_anchor_guess(graph, units.view, start, goal)
                }
                Some(units) => self.closest_unblocked_anchor(graph, units.view, start, goal),
                None => self.closest_reachable_anchor(graph, start, goal),
            };
        }
        // The table, and whether it only bounds searches with the units.
        let (given, searches_with_units_only) = match given_landmarks {
            Some(GivenLandmarks::Terrain(table)) => (Some(table), false),
            // Only where the search cannot leave the start through an anchor the table's
            // graph has no moves from.
            Some(GivenLandmarks::WithUnits(table))
                if blocking.is_some_and(|units| !units.view.start_was_blocked()) =>
            {
                (Some(table), true)
            }
            _ => (None, false),
        };
        let baked = match given {
            Some(_) => None,
            None => self.landmarks_for(query.profile, checked.profile),
        };
        let options = SearchOptions {
            algorithm: algorithm_for(query.search, graph, units),
            max_expansions: query.max_expansions.unwrap_or(u64::MAX),
            landmarks: given.or(baked.as_deref()),
            direct_first: query.search == SearchMode::Auto,
            units,
            incumbent: None,
        };
        let width = self.grid.width();
        let movement = self.movement;
        let mut outcome = match units {
            // The search as if alone that `RoundUnits` starts with could not use a table of
            // distances with the units: a search with them and that table costs less anyway.
            Some(_) if query.max_expansions.is_none() && !searches_with_units_only => {
                let round_units = RoundUnits {
                    met: UnitSource {
                        occupancy: &self.occupancy,
                        key: self.view_key(checked.size),
                        start,
                    },
                    graph,
                    movement,
                    width,
                    alone: SearchOptions {
                        algorithm: algorithm_for(query.search, graph, None),
                        units: None,
                        ..options
                    },
                    with_units: options,
                };
                round_units.search(scratch, start, target)
            }
            _ => search(scratch, graph, movement, options, width, start, target),
        };
        if outcome.cost.is_none() && !outcome.limit_reached && query.allow_partial_path {
            // Other units cut the target off though the terrain does not.
            if let Some(units) = blocking {
                target = self.closest_unblocked_anchor(graph, units.view, start, goal);
                let options = SearchOptions {
                    max_expansions: options.max_expansions - outcome.expanded,
                    ..options
                };
                let expanded = outcome.expanded;
                outcome = search(scratch, graph, movement, options, width, start, target);
                outcome.expanded += expanded;
            }
        }
        let code = match (outcome.cost, target == goal) {
            (Some(_), true) => PathCode::Ok,
            (Some(_), false) => PathCode::PartialPath,
            (None, _) if outcome.limit_reached => PathCode::SearchLimitReached,
            (None, _) => PathCode::NoPath,
        };
        let blocked_cost = match units {
            Some(UnitsInSearch {
                view,
                rule: OtherUnits::Cost(multiplier),
            }) => Some((view, u64::from(multiplier))),
            _ => None,
        };
        // A search from an anchor to itself returns that one anchor, as a partial path should.
        let (path, step_weights) = self.cells_and_weights(graph, &outcome.path, blocked_cost);
        let partial = code == PathCode::PartialPath;
        let waypoints = match query.smoothing {
            Smoothing::Off => Vec::new(),
            Smoothing::Taut => self.waypoints_along(
                &mut scratch.smoothing,
                (checked.profile, Some(&checked.clearance)),
                checked.size,
                (&path, &outcome.path),
                units.map_or(OtherUnits::Ignore, |units| units.rule),
                others_counted(query),
            ),
        };
        PathResult {
            smoothing: query.smoothing,
            waypoints,
            code,
            step_weights,
            path,
            cost: outcome.cost.unwrap_or(0),
            expanded: outcome.expanded,
            shortfall: checked.goal_shortfall.filter(|_| partial),
            occupied_by: occupied_by.filter(|_| partial),
        }
    }

    /// The cells of `path` (storage indices of a search's anchors on `graph`) and the
    /// multipliers it pays, in one pass. With `blocked_cost`, an anchor the view blocks costs
    /// at least that fixed-point multiplier (other units under `OtherUnits::Cost`).
    pub(super) fn cells_and_weights(
        &self,
        graph: &AnchorGraph,
        path: &[usize],
        blocked_cost: Option<(&UnitsView, u64)>,
    ) -> (Vec<Cell>, StepWeights) {
        let mut weights = StepWeights::default();
        let cells = match (blocked_cost, graph.uniform_multiplier()) {
            (Some((view, floor)), _) => self.grid.cells_along_with(path, |entered, straight| {
                let terrain = graph.entry_multiplier(entered);
                let paid = if view.is_blocked(entered) {
                    terrain.max(floor)
                } else {
                    terrain
                };
                weights.add(straight, paid);
            }),
            // Every anchor costs the same: the multiplier is read once.
            (None, Some(multiplier)) => self
                .grid
                .cells_along_with(path, |_, straight| weights.add(straight, multiplier)),
            (None, None) => self.grid.cells_along_with(path, |entered, straight| {
                weights.add(straight, graph.entry_multiplier(entered))
            }),
        };
        (cells, weights)
    }

    /// One unit that `counted` counts whose footprint overlaps that of an agent of `size` at
    /// `anchor`.
    pub(super) fn unit_on(&self, anchor: Cell, size: u8, counted: Counted<'_>) -> Option<UnitId> {
        self.occupancy
            .unit_on(anchor, size, |id| counted.counts(id))
    }

    /// Checks a query in the order the [`PathCode`]s are listed, up to the search (and up to
    /// the occupied goal, which needs the units counted). `Err` holds the failure (with its
    /// shortfall).
    pub(super) fn check_query<'a>(
        &'a self,
        query: &PathQuery<'_>,
    ) -> Result<CheckedQuery<'a>, PathResult> {
        let size = checked_agent_size(query.agent_size)
            .ok_or(PathResult::failure(PathCode::InvalidAgentSize))?;
        let profile = self
            .profiles
            .get(query.profile)
            .ok_or(PathResult::failure(PathCode::UnknownProfile))?;
        let start = (self.grid.index_of(query.start))
            .ok_or(PathResult::failure(PathCode::StartOutOfBounds))?;
        let goal = (self.grid.index_of(query.goal))
            .ok_or(PathResult::failure(PathCode::GoalOutOfBounds))?;
        let clearance = self
            .clearance_layer_for(&profile.capability())
            .ok_or(PathResult::failure(PathCode::MemoryLimitReached))?;
        let shortfall = |index: usize| clearance.shortfall(index, size);
        if let Some(shortfall) = shortfall(start) {
            return Err(PathResult {
                shortfall: Some(shortfall),
                ..PathResult::failure(PathCode::StartClearanceInsufficient)
            });
        }
        let goal_shortfall = shortfall(goal);
        if goal_shortfall.is_some() && !query.allow_partial_path {
            return Err(PathResult {
                shortfall: goal_shortfall,
                ..PathResult::failure(PathCode::GoalClearanceInsufficient)
            });
        }
        let registered = |id: &UnitId| self.occupancy.contains(*id);
        if !query
            .moving_unit
            .iter()
            .chain(query.exempt_units)
            .all(registered)
        {
            return Err(PathResult::failure(PathCode::UnknownUnit));
        }
        Ok(CheckedQuery {
            size,
            profile,
            start,
            goal,
            goal_shortfall,
            clearance,
        })
    }

    /// The lower bound the search uses for the cost from anchor `from` to anchor `goal` (its
    /// heuristic, in fixed-point units: octile or Manhattan distance times the profile's
    /// smallest multiplier, or the landmark bound where larger). `None` if the size or profile
    /// is invalid or either anchor is outside the map or not legal for the agent.
    ///
    /// It never exceeds the true cost of a path, and never drops by more than a step's cost
    /// along a step (it is consistent); the tests check both.
    pub fn estimate_cost(
        &self,
        from: Cell,
        goal: Cell,
        agent_size: i64,
        profile: &str,
    ) -> Option<u64> {
        let size = checked_agent_size(agent_size)?;
        let found_profile = self.profiles.get(profile)?;
        let (from_index, goal_index) = (self.grid.index_of(from)?, self.grid.index_of(goal)?);
        let clearance = self.clearance_layer_for(&found_profile.capability())?;
        if clearance.at(from_index) < size || clearance.at(goal_index) < size {
            return None;
        }
        let graph = self.graph_for(profile, found_profile, size)?;
        let landmarks = self.landmarks_for(profile, found_profile);
        Some(estimate(
            &graph,
            self.movement,
            landmarks.as_deref(),
            self.grid.width(),
            from_index,
            goal_index,
        ))
    }
}

/// A landmark table a batch of queries searches with instead of their profile's own.
#[derive(Debug, Clone, Copy)]
pub(super) enum GivenLandmarks<'a> {
    /// True distances on the size-1 graph of the queries' profile: lower bounds for every
    /// query of that profile and agent size, with or without other units (units only remove
    /// anchors or raise costs), so every search stays exact (`landmarks/mod.rs`).
    Terrain(&'a LandmarkTable),
    /// True distances on that size-1 graph with every unit that each query of the batch
    /// counts blocking (the same units for all of them, under [`OtherUnits::Block`]). For an
    /// agent of size `k` whose start is not under one of those units, every step of its graph
    /// with the units joins two anchors whose top-left cells are clear of them (each lies in
    /// a footprint clear of them), and a diagonal step's two side anchors likewise, so it is a
    /// step of the table's graph that costs no more there (a cell's multiplier is at most its
    /// footprint's highest). The table's bounds are therefore lower bounds, and consistent,
    /// on the query's graph, and the search with the units stays exact. They are not lower
    /// bounds without the units, so such a query skips the search as if alone and searches
    /// with the units at once; a query whose start is under a unit uses its profile's table.
    WithUnits(&'a LandmarkTable),
}

/// A query that passed every check before the search.
pub(super) struct CheckedQuery<'a> {
    pub(super) size: u8,
    pub(super) profile: &'a AgentProfile,
    /// Storage index of the start anchor.
    pub(super) start: usize,
    /// Storage index of the goal anchor.
    pub(super) goal: usize,
    /// The goal's shortfall, kept for a partial path when the agent does not fit there.
    goal_shortfall: Option<ClearanceShortfall>,
    /// The profile's clearance layer.
    pub(super) clearance: Arc<ClearanceLayer>,
}

/// The units a query counts: every unit but the moving one and those it exempts.
pub(super) fn others_counted<'a>(query: &PathQuery<'a>) -> Counted<'a> {
    Counted::AllBut {
        moving: query.moving_unit,
        listed: query.exempt_units,
    }
}

/// The algorithm a query's `mode` runs on `graph`, with `units` counted.
fn algorithm_for(
    mode: SearchMode,
    graph: &AnchorGraph,
    units: Option<UnitsInSearch<'_>>,
) -> Algorithm {
    match (mode, units) {
        // Other units' costs: the stored rays serve only where no unit touches a ray, and
        // the rest is walked, so short trips try plain A* first, as on weighted terrain.
        (
            SearchMode::Auto,
            Some(UnitsInSearch {
                rule: OtherUnits::Cost(_),
                ..
            }),
        ) => Algorithm::PlainThenJump,
        // Stored rays cost nothing to scan, short trips included, where they serve the query
        // (a weighted graph's rays know nothing of anchors other units block). Read, not
        // walked, rays beat plain A* even where costs change often: a ray that stops at
        // every other anchor still stops only where a turn may pay.
        (SearchMode::Auto, units)
            if graph.jump_distances.is_some()
                && (graph.entry.per_anchor().is_none() || units.is_none()) =>
        {
            Algorithm::Jump
        }
        (SearchMode::Auto, _) if graph.suits_jump_search() => Algorithm::PlainThenJump,
        (SearchMode::Auto | SearchMode::Plain, _) => Algorithm::Plain,
        (SearchMode::Jump, _) => Algorithm::Jump,
    }
}
