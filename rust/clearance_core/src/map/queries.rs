//! Path queries: validation in the order the result codes are listed, then the search.

use super::PathMap;
use crate::footprint::checked_agent_size;
use crate::grid::Cell;
use crate::profile::AgentProfile;
use crate::query::PathQuery;
use crate::query::SearchMode;
use crate::result::{ClearanceShortfall, PathCode, PathResult};
use crate::search::{estimate, search, Algorithm, SearchOptions, SearchScratch};
use std::cell::RefCell;

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
        let checked = match self.check_query(query) {
            Ok(checked) => checked,
            Err(answer) => return answer,
        };
        let Some(graph) = self.graph_for(query.profile, checked.profile, checked.size) else {
            return PathResult::failure(PathCode::MemoryLimitReached);
        };
        let (start, goal) = (checked.start, checked.goal);
        let mut target = goal;
        if checked.goal_shortfall.is_some() || !graph.connected(start, goal) {
            if !query.allow_partial_path {
                return PathResult::failure(PathCode::NoPath);
            }
            target = self.closest_reachable_anchor(&graph, start, goal);
        }
        let landmarks = self.landmarks_for(query.profile, checked.profile);
        let options = SearchOptions {
            algorithm: match query.search {
                // Stored rays cost nothing to scan, short trips included.
                SearchMode::Auto if graph.jump_distances.is_some() => Algorithm::Jump,
                SearchMode::Auto if graph.suits_jump_search() => Algorithm::PlainThenJump,
                SearchMode::Auto | SearchMode::Plain => Algorithm::Plain,
                SearchMode::Jump => Algorithm::Jump,
            },
            max_expansions: query.max_expansions.unwrap_or(u64::MAX),
            landmarks: landmarks.as_deref(),
            direct_first: query.search == SearchMode::Auto,
        };
        let width = self.grid.width();
        let outcome = search(
            scratch,
            &graph,
            self.movement,
            options,
            width,
            start,
            target,
        );
        let code = match (outcome.cost, target == goal) {
            (Some(_), true) => PathCode::Ok,
            (Some(_), false) => PathCode::PartialPath,
            (None, _) if outcome.limit_reached => PathCode::SearchLimitReached,
            // Unreachable with exact regions; kept so a bug degrades to an honest answer.
            (None, _) => PathCode::NoPath,
        };
        // A search from an anchor to itself returns that one anchor, as a partial path should.
        let path = self.grid.cells_along(&outcome.path);
        PathResult {
            code,
            step_weights: graph.step_weights(&outcome.path, width),
            path,
            cost: outcome.cost.unwrap_or(0),
            expanded: outcome.expanded,
            shortfall: checked
                .goal_shortfall
                .filter(|_| code == PathCode::PartialPath),
        }
    }

    /// Checks a query in the order the [`PathCode`]s are listed, up to the search. `Err` holds
    /// the answer of a query that needs no search: a failure code (with its shortfall), or the
    /// one-anchor path from an anchor to itself.
    fn check_query<'a>(&'a self, query: &PathQuery<'_>) -> Result<CheckedQuery<'a>, PathResult> {
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
        let shortfall = |index: usize| {
            let found = clearance.at(index);
            (found < size).then_some(ClearanceShortfall {
                found,
                needed: size,
            })
        };
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
        if start == goal {
            return Err(PathResult {
                path: vec![query.start],
                ..PathResult::failure(PathCode::Ok)
            });
        }
        Ok(CheckedQuery {
            size,
            profile,
            start,
            goal,
            goal_shortfall,
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

/// A query that passed every check before the search.
struct CheckedQuery<'a> {
    size: u8,
    profile: &'a AgentProfile,
    /// Storage index of the start anchor.
    start: usize,
    /// Storage index of the goal anchor.
    goal: usize,
    /// The goal's shortfall, kept for a partial path when the agent does not fit there.
    goal_shortfall: Option<ClearanceShortfall>,
}
