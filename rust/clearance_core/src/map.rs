//! The shared map: terrain, profiles, cached layers and path queries.

use crate::clearance::ClearanceLayer;
use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::error::{GridError, LandmarkError, ProfileError};
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::{Cell, Region, TerrainEdit, TerrainGrid, Window};
use crate::landmarks::{LandmarkPlacement, LandmarkStats, LandmarkTable, MAX_LANDMARKS};
use crate::movement::Movement;
use crate::profile::AgentProfile;
use crate::query::PathQuery;
use crate::result::{ClearanceShortfall, PathCode, PathResult};
use crate::search::{estimate, search, SearchLimits, SearchScratch};
use crate::terrain::{TerrainId, TerrainSet};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

/// The default of [`PathMap::set_cache_memory_limit`]: 4 GiB.
pub const DEFAULT_CACHE_MEMORY_LIMIT: usize = 4 << 30;

/// One map shared by every unit: terrain, the registered [`AgentProfile`]s, and lazily built
/// clearance layers and search graphs.
///
/// Queries take `&self`: any number of threads may query one map at once, each with its own
/// [`SearchScratch`]. Edits take `&mut self`, so no query can observe a half-applied edit; an
/// edit drops the cached layers it invalidates, and they are rebuilt on the next query that
/// needs them.
///
/// # The query contract
///
/// * An agent of size `k` covers a `k x k` footprint; its position, the *anchor*, is the
///   footprint's top-left cell. An anchor is legal iff every footprint cell is inside the map
///   and traversable for the profile (its clearance is at least `k`).
/// * Steps go to the 4 or 8 neighbouring anchors ([`Movement`]); a diagonal step also needs
///   both orthogonal anchors it passes to be legal (no corner cutting).
/// * Entry-cost convention: a step costs its length (1 straight, sqrt 2 diagonal) times the
///   largest multiplier among the cells under the footprint at the anchor it enters. The start
///   anchor is never charged.
/// * Paths are optimal. Ties break by lowest `f`, then lowest `h`, then lowest `y`, then
///   lowest `x`, so equal queries on equal maps return equal paths.
///
/// ```
/// use clearance_core::{AgentProfile, Cell, PathCode, PathMap, Region, TerrainGrid};
///
/// const OPEN: u8 = 0;
/// const WALL: u8 = 1;
/// // A wall down column 2 with a one-cell gap at row 2.
/// let mut grid = TerrainGrid::new(Region::new(0, 0, 5, 5), OPEN)?;
/// grid.fill_rect(Region::new(2, 0, 1, 5), WALL)?;
/// grid.set_cell(Cell::new(2, 2), OPEN)?;
/// let mut map = PathMap::new(grid);
/// map.set_profile(AgentProfile::new("unit").with_terrain(OPEN, 1.0)?)?;
///
/// let small = map.find_path(Cell::new(0, 2), Cell::new(4, 2), 1, "unit");
/// assert_eq!(small.code, PathCode::Ok);
/// assert_eq!(small.path.len(), 5);
/// assert_eq!(small.total_cost(), 4.0);
///
/// let large = map.find_path(Cell::new(0, 2), Cell::new(3, 2), 2, "unit");
/// assert_eq!(large.code, PathCode::NoPath); // a 2x2 body cannot pass the gap
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct PathMap {
    grid: TerrainGrid,
    movement: Movement,
    profiles: HashMap<String, Arc<AgentProfile>>,
    clearance: RwLock<HashMap<TerrainSet, Arc<ClearanceLayer>>>,
    graphs: RwLock<HashMap<String, HashMap<u8, Arc<AnchorGraph>>>>,
    landmark_placement: LandmarkPlacement,
    /// Storage indices of the cells of `LandmarkPlacement::At`.
    landmark_anchors: Vec<usize>,
    /// Per profile: its landmark table, or `None` if none could be built.
    landmarks: RwLock<HashMap<String, Option<Arc<LandmarkTable>>>>,
    cache_memory_limit: usize,
}

thread_local! {
    static THREAD_SCRATCH: RefCell<SearchScratch> = RefCell::new(SearchScratch::new());
}

impl PathMap {
    /// A map over `grid` with 8-way movement and no profiles yet.
    pub fn new(grid: TerrainGrid) -> Self {
        PathMap {
            grid,
            movement: Movement::EightWay,
            profiles: HashMap::new(),
            clearance: RwLock::default(),
            graphs: RwLock::default(),
            landmark_placement: LandmarkPlacement::None,
            landmark_anchors: Vec::new(),
            landmarks: RwLock::default(),
            cache_memory_limit: DEFAULT_CACHE_MEMORY_LIMIT,
        }
    }

    /// Builder form of [`set_movement`](Self::set_movement).
    pub fn with_movement(mut self, movement: Movement) -> Self {
        self.set_movement(movement);
        self
    }

    /// Switches between 4-way and 8-way movement. Search graphs and landmark tables are
    /// rebuilt on demand: distances under one rule are no bounds under the other.
    pub fn set_movement(&mut self, movement: Movement) {
        if movement != self.movement {
            self.movement = movement;
            exclusive(&mut self.graphs).clear();
            exclusive(&mut self.landmarks).clear();
        }
    }

    /// The movement rule in force.
    pub fn movement(&self) -> Movement {
        self.movement
    }

    /// The terrain grid.
    pub fn grid(&self) -> &TerrainGrid {
        &self.grid
    }

    /// The region the map covers.
    pub fn region(&self) -> Region {
        self.grid.region()
    }

    /// Replaces the whole terrain grid, region included, keeping the profiles, the movement
    /// rule and the landmark placement (landmark cells of `LandmarkPlacement::At` that fall
    /// outside the new region are dropped). Every cached layer and table is rebuilt on demand.
    pub fn replace_grid(&mut self, grid: TerrainGrid) {
        if let LandmarkPlacement::At(cells) = &mut self.landmark_placement {
            cells.retain(|&cell| grid.index_of(cell).is_some());
            self.landmark_anchors = cells
                .iter()
                .filter_map(|&cell| grid.index_of(cell))
                .collect();
        }
        self.grid = grid;
        exclusive(&mut self.clearance).clear();
        exclusive(&mut self.graphs).clear();
        exclusive(&mut self.landmarks).clear();
    }

    /// Registers `profile` under its name, replacing any profile of the same name.
    pub fn set_profile(&mut self, profile: AgentProfile) -> Result<(), ProfileError> {
        if profile.name().is_empty() {
            return Err(ProfileError::EmptyName);
        }
        let name = profile.name().to_owned();
        self.drop_graphs_of(&name);
        self.profiles.insert(name, Arc::new(profile));
        Ok(())
    }

    /// Removes the profile called `name`; returns whether there was one.
    pub fn remove_profile(&mut self, name: &str) -> bool {
        self.drop_graphs_of(name);
        self.profiles.remove(name).is_some()
    }

    /// The profile called `name`.
    pub fn profile(&self, name: &str) -> Option<&AgentProfile> {
        self.profiles.get(name).map(|profile| &**profile)
    }

    /// The registered profiles, in no particular order.
    pub fn profiles(&self) -> impl Iterator<Item = &AgentProfile> {
        self.profiles.values().map(|profile| &**profile)
    }

    /// The clearance of `cell` for the profile called `profile`: the side of the largest square
    /// with top-left cell `cell` that the profile may enter entirely. `None` if the cell is
    /// outside the map or the profile is unknown.
    pub fn clearance(&self, cell: Cell, profile: &str) -> Option<u8> {
        let index = self.grid.index_of(cell)?;
        let profile = self.profiles.get(profile)?;
        Some(self.clearance_layer_for(&profile.capability())?.at(index))
    }

    /// The whole clearance layer of the profile called `profile`, built if needed. `None` if
    /// the profile is unknown or the layer would not fit the cache memory limit.
    pub fn clearance_layer(&self, profile: &str) -> Option<Arc<ClearanceLayer>> {
        let profile = self.profiles.get(profile)?;
        self.clearance_layer_for(&profile.capability())
    }

    /// Builds the clearance layer and search graph that queries for `profile` and `agent_size`
    /// use, so that the first such query does not pay for them. Returns the code a query
    /// would fail with for an invalid size or unknown profile, `PathCode::Ok` otherwise.
    pub fn prepare(&self, profile: &str, agent_size: i64) -> PathCode {
        let Some(size) = checked_agent_size(agent_size) else {
            return PathCode::InvalidAgentSize;
        };
        match self.profiles.get(profile) {
            None => PathCode::UnknownProfile,
            Some(found) => match self.graph_for(profile, found, size) {
                Some(_) => PathCode::Ok,
                None => PathCode::MemoryLimitReached,
            },
        }
    }

    /// Sets the terrain of one cell. On error nothing changes.
    pub fn set_cell(&mut self, cell: Cell, terrain: TerrainId) -> Result<(), GridError> {
        self.fill_rect(Region::new(cell.x, cell.y, 1, 1), terrain)
            .map_err(|_| GridError::CellOutOfBounds { cell })
    }

    /// Sets the terrain of every cell of `rect` (non-empty, inside the map). On error nothing
    /// changes.
    pub fn fill_rect(&mut self, rect: Region, terrain: TerrainId) -> Result<(), GridError> {
        self.apply_edits(&[TerrainEdit::Rect { rect, terrain }])
            .map_err(|_| GridError::RectOutOfBounds { rect })
    }

    /// Replaces the terrain of every cell (one byte per cell, row by row). On error nothing
    /// changes.
    pub fn load_terrain(&mut self, data: &[TerrainId]) -> Result<(), GridError> {
        let old: TerrainSet = self.grid.as_bytes().iter().copied().collect();
        self.grid.load(data)?;
        exclusive(&mut self.clearance).clear();
        exclusive(&mut self.graphs).clear();
        self.drop_landmarks_unless_costs_only_rose(old, data.iter().copied().collect());
        Ok(())
    }

    /// Applies a batch of edits in order, all or nothing: every entry is checked before the
    /// first write, and on error nothing changes.
    ///
    /// Cached clearance layers and search graphs are repaired around each edit rather than
    /// rebuilt: the work grows with the cells whose clearance changes, not with the map. A
    /// batch covering more than a quarter of the map drops them instead, to be rebuilt on
    /// demand. Landmark tables survive edits that can only raise a profile's costs (see
    /// [`set_landmarks`](Self::set_landmarks)) and are rebuilt on demand otherwise.
    pub fn apply_edits(&mut self, edits: &[TerrainEdit]) -> Result<(), GridError> {
        let mut windows = Vec::with_capacity(edits.len());
        for (index, edit) in edits.iter().enumerate() {
            let window = self
                .grid
                .check_edit(edit)
                .and_then(|()| {
                    self.grid
                        .window_of(edit.rect())
                        .ok_or(GridError::RectOutOfBounds { rect: edit.rect() })
                })
                .map_err(|source| GridError::InvalidBatchEntry {
                    index,
                    source: Box::new(source),
                })?;
            windows.push(window);
        }
        if edits.is_empty() {
            return Ok(());
        }
        let mut old = TerrainSet::new();
        for edit in edits {
            let present = self.grid.terrains_in(edit.rect()).unwrap_or_default();
            for terrain in present.iter() {
                old.insert(terrain);
            }
        }
        let edited_area: usize = windows.iter().map(|window| window.area()).sum();
        let repair = edited_area.saturating_mul(4) <= self.grid.as_bytes().len();
        if !repair {
            exclusive(&mut self.clearance).clear();
            exclusive(&mut self.graphs).clear();
        }
        for (edit, window) in edits.iter().zip(windows) {
            let written = self.grid.fill_rect(edit.rect(), edit.terrain());
            debug_assert!(written.is_ok(), "edits were checked before the first write");
            if repair {
                self.repair_caches(window);
            }
        }
        self.drop_landmarks_unless_costs_only_rose(
            old,
            edits.iter().map(TerrainEdit::terrain).collect(),
        );
        Ok(())
    }

    /// Repairs every cached clearance layer and search graph after the terrain in `edited`
    /// changed. Layers shared with a clone of this map are copied first (copy on write), so
    /// the clone keeps seeing its own version.
    fn repair_caches(&mut self, edited: Window) {
        let layers = exclusive(&mut self.clearance);
        let mut changed = HashMap::with_capacity(layers.len());
        for (capability, layer) in layers.iter_mut() {
            let window = Arc::make_mut(layer).repair(&self.grid, capability, edited);
            changed.insert(*capability, window);
        }
        let graphs = exclusive(&mut self.graphs);
        graphs.retain(|name, by_size| {
            let Some(profile) = self.profiles.get(name) else {
                return false;
            };
            let capability = profile.capability();
            let Some(layer) = layers.get(&capability) else {
                // Never reached: a graph is built from its layer, and both are dropped
                // together; without the layer the graph cannot be repaired, so drop it.
                return false;
            };
            for graph in by_size.values_mut() {
                Arc::make_mut(graph).repair(
                    &self.grid,
                    layer,
                    profile,
                    edited,
                    changed.get(&capability).copied().flatten(),
                );
            }
            true
        });
    }

    /// Compares every cached clearance layer and search graph with one built afresh from the
    /// current terrain, and describes the first difference. As costly as rebuilding them all:
    /// meant for tests and for debugging incremental repair.
    pub fn verify_caches(&self) -> Result<(), String> {
        for (capability, layer) in read(&self.clearance).iter() {
            if **layer != ClearanceLayer::build(&self.grid, capability) {
                return Err(format!(
                    "the clearance layer for terrains {capability:?} differs from a rebuild"
                ));
            }
        }
        for (name, by_size) in read(&self.graphs).iter() {
            let profile = self
                .profiles
                .get(name)
                .ok_or_else(|| format!("a search graph is cached for unknown profile {name:?}"))?;
            let layer = ClearanceLayer::build(&self.grid, &profile.capability());
            for (&size, graph) in by_size {
                let fresh = AnchorGraph::build(&self.grid, &layer, profile, size, self.movement);
                if !graph.same_as(&fresh) {
                    return Err(format!(
                        "the search graph of profile {name:?}, size {size} differs from a rebuild"
                    ));
                }
            }
        }
        Ok(())
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
        THREAD_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => self.query_with(&mut scratch, query),
            // Only reachable if a query re-entered itself; a fresh scratch keeps it correct.
            Err(_) => self.query_with(&mut SearchScratch::new(), query),
        })
    }

    /// Answers many queries on `threads` threads (at least one; the calling thread is one of
    /// them), each with its own scratch; results come back in the order of `queries`. Every
    /// query sees this same map version. If the system refuses to start a thread, the others
    /// (at least the calling one) answer its share.
    pub fn query_batch(&self, queries: &[PathQuery<'_>], threads: usize) -> Vec<PathResult> {
        let threads = threads.clamp(1, queries.len().max(1));
        if threads == 1 {
            return queries.iter().map(|query| self.query(query)).collect();
        }
        // Threads take the next unanswered query, so slow queries do not hold up a share.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let answer = || {
            let mut scratch = SearchScratch::new();
            let mut answered = Vec::new();
            loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(query) = queries.get(index) else {
                    return answered;
                };
                answered.push((index, self.query_with(&mut scratch, query)));
            }
        };
        let mut answered: Vec<(usize, PathResult)> = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(scope, answer).ok())
                .collect();
            let mut all = answer();
            for helper in helpers {
                match helper.join() {
                    Ok(answers) => all.extend(answers),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            all
        });
        answered.sort_unstable_by_key(|&(index, _)| index);
        answered.into_iter().map(|(_, result)| result).collect()
    }

    /// [`query`](Self::query) with caller-owned search memory.
    pub fn query_with(&self, scratch: &mut SearchScratch, query: &PathQuery<'_>) -> PathResult {
        let Some(size) = checked_agent_size(query.agent_size) else {
            return PathResult::failure(PathCode::InvalidAgentSize);
        };
        let Some(found_profile) = self.profiles.get(query.profile) else {
            return PathResult::failure(PathCode::UnknownProfile);
        };
        let Some(start_index) = self.grid.index_of(query.start) else {
            return PathResult::failure(PathCode::StartOutOfBounds);
        };
        let Some(goal_index) = self.grid.index_of(query.goal) else {
            return PathResult::failure(PathCode::GoalOutOfBounds);
        };
        let Some(clearance) = self.clearance_layer_for(&found_profile.capability()) else {
            return PathResult::failure(PathCode::MemoryLimitReached);
        };
        let shortfall = |index: usize| {
            let found = clearance.at(index);
            (found < size).then_some(ClearanceShortfall {
                found,
                needed: size,
            })
        };
        if let Some(shortfall) = shortfall(start_index) {
            return PathResult {
                shortfall: Some(shortfall),
                ..PathResult::failure(PathCode::StartClearanceInsufficient)
            };
        }
        let goal_shortfall = shortfall(goal_index);
        if goal_shortfall.is_some() && !query.allow_partial_path {
            return PathResult {
                shortfall: goal_shortfall,
                ..PathResult::failure(PathCode::GoalClearanceInsufficient)
            };
        }
        if start_index == goal_index {
            return PathResult {
                path: vec![query.start],
                ..PathResult::failure(PathCode::Ok)
            };
        }
        let Some(graph) = self.graph_for(query.profile, found_profile, size) else {
            return PathResult::failure(PathCode::MemoryLimitReached);
        };
        let mut target = goal_index;
        if goal_shortfall.is_some() || !graph.connected(start_index, goal_index) {
            if !query.allow_partial_path {
                return PathResult::failure(PathCode::NoPath);
            }
            target = self.closest_reachable_anchor(&graph, start_index, goal_index);
        }
        let landmarks = self.landmarks_for(query.profile, found_profile);
        let limits = SearchLimits {
            max_expansions: query.max_expansions.unwrap_or(u64::MAX),
            landmarks: landmarks.as_deref(),
        };
        let outcome = search(
            scratch,
            &graph,
            self.movement,
            limits,
            self.grid.width(),
            start_index,
            target,
        );
        let code = match (outcome.cost, target == goal_index) {
            (Some(_), true) => PathCode::Ok,
            (Some(_), false) => PathCode::PartialPath,
            (None, _) if outcome.limit_reached => PathCode::SearchLimitReached,
            // Unreachable with exact regions; kept so a bug degrades to an honest answer.
            (None, _) => PathCode::NoPath,
        };
        // A search from an anchor to itself returns that one anchor, as a partial path should.
        let path: Vec<Cell> = outcome
            .path
            .iter()
            .map(|&index| self.grid.cell_at(index))
            .collect();
        PathResult {
            code,
            path,
            cost: outcome.cost.unwrap_or(0),
            expanded: outcome.expanded,
            shortfall: goal_shortfall.filter(|_| code == PathCode::PartialPath),
        }
    }

    /// The anchor in `start`'s region nearest to `goal` as the crow flies in the movement's
    /// metric (octile or Manhattan, in step lengths), lowest `y` then `x` among equals.
    /// Searches square rings around the goal outwards, and stops once no farther ring can hold
    /// a nearer anchor.
    fn closest_reachable_anchor(&self, graph: &AnchorGraph, start: usize, goal: usize) -> usize {
        let (width, height) = (self.grid.width() as i64, self.grid.height() as i64);
        let (goal_x, goal_y) = (goal as i64 % width, goal as i64 / width);
        let region = graph.regions.region_of(start);
        let distance = |x: i64, y: i64| -> u64 {
            let (dx, dy) = ((x - goal_x).unsigned_abs(), (y - goal_y).unsigned_abs());
            let (long, short) = (dx.max(dy), dx.min(dy));
            match self.movement {
                Movement::FourWay => (dx + dy) * STRAIGHT_STEP,
                Movement::EightWay => short * DIAGONAL_STEP + (long - short) * STRAIGHT_STEP,
            }
        };
        let mut best: Option<(u64, usize)> = None;
        for ring in 0..width.max(height) {
            // Every anchor on ring `r` is at least `r` straight steps from the goal.
            if best.is_some_and(|(d, _)| d < ring as u64 * STRAIGHT_STEP) {
                break;
            }
            let rows = (goal_y - ring).max(0)..=(goal_y + ring).min(height - 1);
            for y in rows {
                let on_edge_row = (y - goal_y).abs() == ring;
                let columns: Vec<i64> = if on_edge_row {
                    ((goal_x - ring).max(0)..=(goal_x + ring).min(width - 1)).collect()
                } else {
                    [goal_x - ring, goal_x + ring]
                        .into_iter()
                        .filter(|&x| x >= 0 && x < width)
                        .collect()
                };
                for x in columns {
                    let index = (y * width + x) as usize;
                    if graph.regions.region_of(index) != region {
                        continue;
                    }
                    let candidate = (distance(x, y), index);
                    if best.is_none_or(|held| candidate < held) {
                        best = Some(candidate);
                    }
                }
            }
        }
        best.map_or(start, |(_, index)| index)
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

    /// Bytes held by cached clearance layers, search graphs and landmark tables.
    pub fn cache_memory_bytes(&self) -> usize {
        let clearance: usize = read(&self.clearance)
            .values()
            .map(|layer| layer.memory_bytes())
            .sum();
        let graphs: usize = read(&self.graphs)
            .values()
            .flat_map(|by_size| by_size.values())
            .map(|graph| graph.memory_bytes())
            .sum();
        let landmarks: usize = read(&self.landmarks)
            .values()
            .flatten()
            .map(|table| table.memory_bytes())
            .sum();
        clearance + graphs + landmarks
    }

    /// Sets the most memory the map's cached layers, graphs and landmark tables may hold
    /// together, in bytes (default [`DEFAULT_CACHE_MEMORY_LIMIT`]). Before building one, the
    /// map estimates its size; if it would not fit, the query fails with
    /// [`PathCode::MemoryLimitReached`] (landmark tables are skipped instead: searches stay
    /// exact without them). Nothing already built is dropped.
    pub fn set_cache_memory_limit(&mut self, bytes: usize) {
        self.cache_memory_limit = bytes;
    }

    /// The limit set by [`set_cache_memory_limit`](Self::set_cache_memory_limit).
    pub fn cache_memory_limit(&self) -> usize {
        self.cache_memory_limit
    }

    /// Whether `extra` more bytes of cache fit under the limit.
    fn fits(&self, extra: usize) -> bool {
        self.cache_memory_bytes().saturating_add(extra) <= self.cache_memory_limit
    }

    fn clearance_layer_for(&self, capability: &TerrainSet) -> Option<Arc<ClearanceLayer>> {
        if let Some(layer) = read(&self.clearance).get(capability) {
            return Some(Arc::clone(layer));
        }
        if !self.fits(ClearanceLayer::estimated_bytes(self.grid.as_bytes().len())) {
            return None;
        }
        let layer = Arc::new(ClearanceLayer::build(&self.grid, capability));
        let mut layers = write(&self.clearance);
        // Another thread may have built it meanwhile; keep the first so all share one.
        Some(Arc::clone(layers.entry(*capability).or_insert(layer)))
    }

    fn graph_for(&self, name: &str, profile: &AgentProfile, size: u8) -> Option<Arc<AnchorGraph>> {
        if let Some(graph) = read(&self.graphs)
            .get(name)
            .and_then(|by_size| by_size.get(&size))
        {
            return Some(Arc::clone(graph));
        }
        let clearance = self.clearance_layer_for(&profile.capability())?;
        if !self.fits(AnchorGraph::estimated_bytes(
            self.grid.as_bytes().len(),
            profile,
        )) {
            return None;
        }
        let graph = Arc::new(AnchorGraph::build(
            &self.grid,
            &clearance,
            profile,
            size,
            self.movement,
        ));
        let mut graphs = write(&self.graphs);
        let by_size = graphs.entry(name.to_owned()).or_default();
        Some(Arc::clone(by_size.entry(size).or_insert(graph)))
    }

    fn drop_graphs_of(&mut self, name: &str) {
        exclusive(&mut self.graphs).remove(name);
        exclusive(&mut self.landmarks).remove(name);
    }

    /// Drops the landmark tables of profiles for which replacing terrains `old` by terrains
    /// `new` may have lowered a cost or opened a cell (see the `landmarks` module).
    fn drop_landmarks_unless_costs_only_rose(&mut self, old: TerrainSet, new: TerrainSet) {
        let profiles = &self.profiles;
        exclusive(&mut self.landmarks).retain(|name, _| {
            profiles
                .get(name)
                .is_some_and(|profile| only_raises_costs(profile, &old, &new))
        });
    }

    /// Chooses where landmarks go; tables are built on the next query of each profile, or by
    /// [`bake_landmarks`](Self::bake_landmarks). On error nothing changes.
    pub fn set_landmarks(&mut self, placement: LandmarkPlacement) -> Result<(), LandmarkError> {
        let mut anchors = Vec::new();
        match &placement {
            LandmarkPlacement::None => {}
            LandmarkPlacement::Farthest(count) if *count > MAX_LANDMARKS => {
                return Err(LandmarkError::TooMany {
                    count: *count,
                    max: MAX_LANDMARKS,
                })
            }
            LandmarkPlacement::Farthest(_) => {}
            LandmarkPlacement::At(cells) => {
                if cells.len() > MAX_LANDMARKS {
                    return Err(LandmarkError::TooMany {
                        count: cells.len(),
                        max: MAX_LANDMARKS,
                    });
                }
                for &cell in cells {
                    let index = self
                        .grid
                        .index_of(cell)
                        .ok_or(LandmarkError::CellOutOfBounds { cell })?;
                    anchors.push(index);
                }
            }
        }
        let needed = LandmarkTable::estimated_bytes(self.grid.as_bytes().len(), placement.count());
        if needed > self.cache_memory_limit {
            return Err(LandmarkError::MemoryLimit {
                count: placement.count(),
                needed,
                limit: self.cache_memory_limit,
            });
        }
        self.landmark_placement = placement;
        self.landmark_anchors = anchors;
        exclusive(&mut self.landmarks).clear();
        Ok(())
    }

    /// The landmark placement in force.
    pub fn landmark_placement(&self) -> &LandmarkPlacement {
        &self.landmark_placement
    }

    /// Builds the landmark table of the profile called `profile` now, rather than on its next
    /// query, and describes it. `None` if the profile is unknown, no landmarks are configured,
    /// or none could be placed. Runs on the calling thread.
    pub fn bake_landmarks(&self, profile: &str) -> Option<LandmarkStats> {
        let found = self.profiles.get(profile)?;
        let table = self.landmarks_for(profile, found)?;
        Some(self.describe(&table))
    }

    /// Describes the landmark table of the profile called `profile`, if it is built.
    pub fn landmark_stats(&self, profile: &str) -> Option<LandmarkStats> {
        let table = read(&self.landmarks).get(profile)?.clone()?;
        Some(self.describe(&table))
    }

    fn describe(&self, table: &LandmarkTable) -> LandmarkStats {
        let cells = self.grid.as_bytes().len() * table.count();
        LandmarkStats {
            landmarks: table
                .landmarks
                .iter()
                .map(|&index| self.grid.cell_at(index))
                .collect(),
            bytes: table.memory_bytes(),
            bytes_per_cell_per_landmark: table.memory_bytes() as f64 / cells as f64,
        }
    }

    fn landmarks_for(&self, name: &str, profile: &AgentProfile) -> Option<Arc<LandmarkTable>> {
        if self.landmark_placement == LandmarkPlacement::None {
            return None;
        }
        if let Some(table) = read(&self.landmarks).get(name) {
            return table.clone();
        }
        let graph = self.graph_for(name, profile, 1)?;
        let count = self.landmark_placement.count();
        if !self.fits(LandmarkTable::estimated_bytes(
            self.grid.as_bytes().len(),
            count,
        )) {
            return None;
        }
        let table = LandmarkTable::build(
            &graph,
            self.grid.width(),
            &self.landmark_placement,
            &self.landmark_anchors,
        )
        .map(Arc::new);
        write(&self.landmarks)
            .entry(name.to_owned())
            .or_insert(table)
            .clone()
    }
}

impl Clone for PathMap {
    /// Copies terrain and profiles; cached layers are shared, since they describe equal terrain.
    fn clone(&self) -> Self {
        PathMap {
            grid: self.grid.clone(),
            movement: self.movement,
            profiles: self.profiles.clone(),
            clearance: RwLock::new(read(&self.clearance).clone()),
            graphs: RwLock::new(read(&self.graphs).clone()),
            landmark_placement: self.landmark_placement.clone(),
            landmark_anchors: self.landmark_anchors.clone(),
            landmarks: RwLock::new(read(&self.landmarks).clone()),
            cache_memory_limit: self.cache_memory_limit,
        }
    }
}

/// Whether replacing terrains `old` by terrains `new` can only raise the profile's costs:
/// every new terrain costs at least as much as every old one (impassable counting as
/// infinitely dear).
fn only_raises_costs(profile: &AgentProfile, old: &TerrainSet, new: &TerrainSet) -> bool {
    let cost = |terrain| {
        profile
            .fixed_multiplier(terrain)
            .map_or(u64::MAX, u64::from)
    };
    let cheapest_new = new.iter().map(cost).min().unwrap_or(u64::MAX);
    let dearest_old = old.iter().map(cost).max().unwrap_or(0);
    cheapest_new >= dearest_old
}

/// The lock's value, through `&mut` access (no locking needed).
fn exclusive<T>(lock: &mut RwLock<T>) -> &mut T {
    lock.get_mut().unwrap_or_else(PoisonError::into_inner)
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
