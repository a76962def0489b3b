//! The shared map: terrain, profiles, cached layers and path queries.

use crate::clearance::ClearanceLayer;
use crate::error::{GridError, ProfileError};
use crate::graph::AnchorGraph;
use crate::grid::{Cell, Region, TerrainEdit, TerrainGrid};
use crate::movement::Movement;
use crate::profile::AgentProfile;
use crate::result::{ClearanceShortfall, PathCode, PathResult};
use crate::search::{search, SearchScratch};
use crate::terrain::{TerrainId, TerrainSet};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, PoisonError, RwLock};

/// Largest agent size: clearance is stored in a byte.
pub const MAX_AGENT_SIZE: i64 = 255;

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
        }
    }

    /// Builder form of [`set_movement`](Self::set_movement).
    pub fn with_movement(mut self, movement: Movement) -> Self {
        self.set_movement(movement);
        self
    }

    /// Switches between 4-way and 8-way movement.
    pub fn set_movement(&mut self, movement: Movement) {
        if movement != self.movement {
            self.movement = movement;
            self.graphs
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .clear();
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
        Some(self.clearance_layer_for(&profile.capability()).at(index))
    }

    /// The whole clearance layer of the profile called `profile`, built if needed.
    pub fn clearance_layer(&self, profile: &str) -> Option<Arc<ClearanceLayer>> {
        let profile = self.profiles.get(profile)?;
        Some(self.clearance_layer_for(&profile.capability()))
    }

    /// Builds the clearance layer and search graph that queries for `profile` and `agent_size`
    /// use, so that the first such query does not pay for them. Returns the code a query
    /// would fail with for an invalid size or unknown profile, `PathCode::Ok` otherwise.
    pub fn prepare(&self, profile: &str, agent_size: i64) -> PathCode {
        let Some(size) = valid_agent_size(agent_size) else {
            return PathCode::InvalidAgentSize;
        };
        match self.profiles.get(profile) {
            None => PathCode::UnknownProfile,
            Some(found) => {
                self.graph_for(profile, found, size);
                PathCode::Ok
            }
        }
    }

    /// Sets the terrain of one cell. On error nothing changes.
    pub fn set_cell(&mut self, cell: Cell, terrain: TerrainId) -> Result<(), GridError> {
        self.grid.set_cell(cell, terrain)?;
        self.invalidate();
        Ok(())
    }

    /// Sets the terrain of every cell of `rect` (non-empty, inside the map). On error nothing
    /// changes.
    pub fn fill_rect(&mut self, rect: Region, terrain: TerrainId) -> Result<(), GridError> {
        self.grid.fill_rect(rect, terrain)?;
        self.invalidate();
        Ok(())
    }

    /// Replaces the terrain of every cell (one byte per cell, row by row). On error nothing
    /// changes.
    pub fn load_terrain(&mut self, data: &[TerrainId]) -> Result<(), GridError> {
        self.grid.load(data)?;
        self.invalidate();
        Ok(())
    }

    /// Applies a batch of edits, all or nothing: every entry is checked before the first write.
    pub fn apply_edits(&mut self, edits: &[TerrainEdit]) -> Result<(), GridError> {
        self.grid.apply_edits(edits)?;
        if !edits.is_empty() {
            self.invalidate();
        }
        Ok(())
    }

    /// Finds an optimal path for an agent of `agent_size` (1 to 255) moving by the rules of
    /// the profile called `profile`, from anchor `start` to anchor `goal`.
    ///
    /// Uses a search scratch kept per thread; see [`find_path_with`](Self::find_path_with) to
    /// manage it yourself. See the type's documentation for the full contract.
    pub fn find_path(&self, start: Cell, goal: Cell, agent_size: i64, profile: &str) -> PathResult {
        THREAD_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => self.find_path_with(&mut scratch, start, goal, agent_size, profile),
            // Only reachable if a query re-entered itself; a fresh scratch keeps it correct.
            Err(_) => {
                self.find_path_with(&mut SearchScratch::new(), start, goal, agent_size, profile)
            }
        })
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
        let Some(size) = valid_agent_size(agent_size) else {
            return PathResult::failure(PathCode::InvalidAgentSize);
        };
        let Some(found_profile) = self.profiles.get(profile) else {
            return PathResult::failure(PathCode::UnknownProfile);
        };
        let Some(start_index) = self.grid.index_of(start) else {
            return PathResult::failure(PathCode::StartOutOfBounds);
        };
        let Some(goal_index) = self.grid.index_of(goal) else {
            return PathResult::failure(PathCode::GoalOutOfBounds);
        };
        let clearance = self.clearance_layer_for(&found_profile.capability());
        for (index, code) in [
            (start_index, PathCode::StartClearanceInsufficient),
            (goal_index, PathCode::GoalClearanceInsufficient),
        ] {
            let found = clearance.at(index);
            if found < size {
                return PathResult {
                    shortfall: Some(ClearanceShortfall {
                        found,
                        needed: size,
                    }),
                    ..PathResult::failure(code)
                };
            }
        }
        if start_index == goal_index {
            return PathResult {
                path: vec![start],
                ..PathResult::failure(PathCode::Ok)
            };
        }
        let graph = self.graph_for(profile, found_profile, size);
        let outcome = search(
            scratch,
            &graph,
            self.movement,
            self.grid.width(),
            start_index,
            goal_index,
        );
        match outcome.cost {
            Some(cost) => PathResult {
                code: PathCode::Ok,
                path: outcome
                    .path
                    .iter()
                    .map(|&index| self.grid.cell_at(index))
                    .collect(),
                cost,
                expanded: outcome.expanded,
                shortfall: None,
            },
            None => PathResult {
                expanded: outcome.expanded,
                ..PathResult::failure(PathCode::NoPath)
            },
        }
    }

    /// Bytes held by cached clearance layers and search graphs.
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
        clearance + graphs
    }

    fn clearance_layer_for(&self, capability: &TerrainSet) -> Arc<ClearanceLayer> {
        if let Some(layer) = read(&self.clearance).get(capability) {
            return Arc::clone(layer);
        }
        let layer = Arc::new(ClearanceLayer::build(&self.grid, capability));
        let mut layers = write(&self.clearance);
        // Another thread may have built it meanwhile; keep the first so all share one.
        Arc::clone(layers.entry(*capability).or_insert(layer))
    }

    fn graph_for(&self, name: &str, profile: &AgentProfile, size: u8) -> Arc<AnchorGraph> {
        if let Some(graph) = read(&self.graphs)
            .get(name)
            .and_then(|by_size| by_size.get(&size))
        {
            return Arc::clone(graph);
        }
        let clearance = self.clearance_layer_for(&profile.capability());
        let graph = Arc::new(AnchorGraph::build(
            &self.grid,
            &clearance,
            profile,
            size,
            self.movement,
        ));
        let mut graphs = write(&self.graphs);
        let by_size = graphs.entry(name.to_owned()).or_default();
        Arc::clone(by_size.entry(size).or_insert(graph))
    }

    fn drop_graphs_of(&mut self, name: &str) {
        self.graphs
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(name);
    }

    fn invalidate(&mut self) {
        self.clearance
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
        self.graphs
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
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
        }
    }
}

/// The agent size as a byte, if it is a legal size (1 to [`MAX_AGENT_SIZE`]).
fn valid_agent_size(agent_size: i64) -> Option<u8> {
    u8::try_from(agent_size).ok().filter(|&size| size >= 1)
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
