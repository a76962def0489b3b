//! The shared map: terrain, profiles, cached layers and path queries.
//!
//! [`PathMap`] is the facade every front end talks to. Its parts, one file each:
//!
//! | file | what it holds |
//! |---|---|
//! | `mod.rs` | the type, its contract, movement and profiles |
//! | `caches.rs` | clearance layers and search graphs built on demand, and the memory limit |
//! | `cache_store.rs` | where they are kept, shared by the map's clones until one changes |
//! | `edits.rs` | terrain edits, validated before the first write, and cache repair |
//! | `queries.rs` | query validation and the path search behind `find_path` |
//! | `partial.rs` | the nearest reachable anchor, for partial paths |
//! | `batch.rs` | many queries on several threads |
//! | `fields.rs` | flow fields to one goal or the nearest of several, and group orders |
//! | `landmarks.rs` | landmark placement and the tables built from it |
//! | `units.rs` | the units registered on the map: placed, moved and removed |
//! | `slots/` | arrival slots: one goal per unit of a group order, and the search behind them |
//! | `slot_orders.rs` | a group order sent to arrival slots: each member's slot and path |
//! | `range.rs` | movement ranges: where a unit can go with a budget |
//! | `smoothing.rs` | taut waypoints of query results and of any path of legal steps |
//! | `tables.rs` | the hash tables profiles and caches are kept in |
//! | `sharing.rs` | tests: a snapshot shares every cache page an edit did not write |

mod batch;
mod cache_store;
mod caches;
mod edits;
mod fields;
mod landmarks;
mod partial;
mod queries;
mod range;
#[cfg(test)]
mod sharing;
mod slot_orders;
mod slots;
mod smoothing;
mod steering;
mod tables;
mod units;

pub use batch::MAX_THREADS;
pub use caches::DEFAULT_CACHE_MEMORY_LIMIT;
pub use slot_orders::{SlotPath, SlotPathOptions};
pub use slots::SlotRequest;
pub(crate) use tables::Table;

use self::cache_store::CacheStore;
use crate::error::ProfileError;
use crate::grid::{Region, TerrainGrid};
use crate::landmarks::LandmarkPlacement;
use crate::movement::Movement;
use crate::occupancy::Occupancy;
use crate::profile::AgentProfile;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

/// The last version handed out to any map in this process (see [`PathMap::version`]).
static LAST_VERSION: AtomicU64 = AtomicU64::new(0);

/// A version no map of this process has had before.
pub(crate) fn fresh_version() -> u64 {
    LAST_VERSION.fetch_add(1, Ordering::Relaxed) + 1
}

/// One map shared by every unit: terrain, the registered [`AgentProfile`]s, and lazily built
/// clearance layers and search graphs.
///
/// Queries take `&self`: any number of threads may query one map at once, each with its own
/// [`SearchScratch`](crate::SearchScratch). Edits take `&mut self`, so no query can observe a
/// half-applied edit; an edit repairs the cached layers and graphs around the cells it
/// changed (a batch covering more than a quarter of the map drops them instead, and they are
/// rebuilt on the next query that needs them).
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
    /// Shared with clones until either edits its terrain: a snapshot (an async request's, say)
    /// costs no copy of the terrain, and moving units after one copies none either.
    grid: Arc<TerrainGrid>,
    movement: Movement,
    profiles: Table<String, Arc<AgentProfile>>,
    /// Clearance layers, search graphs and landmark tables, shared with clones until either
    /// changes them (`cache_store.rs`).
    caches: Arc<CacheStore>,
    landmark_placement: LandmarkPlacement,
    /// Storage indices of the cells of `LandmarkPlacement::At`.
    landmark_anchors: Vec<usize>,
    cache_memory_limit: usize,
    /// See [`PathMap::version`].
    version: u64,
    /// The units standing on the map (`units.rs`), with their version.
    occupancy: Occupancy,
}

impl PathMap {
    /// A map over `grid` with 8-way movement and no profiles yet.
    pub fn new(grid: TerrainGrid) -> Self {
        PathMap {
            grid: Arc::new(grid),
            movement: Movement::EightWay,
            profiles: Table::default(),
            caches: Arc::default(),
            landmark_placement: LandmarkPlacement::None,
            landmark_anchors: Vec::new(),
            cache_memory_limit: DEFAULT_CACHE_MEMORY_LIMIT,
            version: fresh_version(),
            occupancy: Occupancy::default(),
        }
    }

    /// Identifies what paths on this map depend on: its terrain, profiles and movement rule.
    /// Every successful change of one of them (an edit, a new grid, a profile set or removed,
    /// another movement rule) gives the map a version no map of this process has had before,
    /// larger than its last; a clone keeps its original's version until either changes. Work
    /// derived from the map, such as a [`FlowField`](crate::FlowField), records the version
    /// it was made for: while the versions are equal, it still holds.
    ///
    /// ```
    /// use clearance_core::{Cell, PathMap, Region, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 4, 4), 0)?);
    /// let before = map.version();
    /// map.set_cell(Cell::new(1, 1), 5)?;
    /// assert!(map.version() > before);
    /// // A refused edit changes nothing, the version included.
    /// assert!(map.set_cell(Cell::new(9, 9), 5).is_err());
    /// assert_eq!(map.clone().version(), map.version());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Records a change of terrain, profiles or movement (see [`version`](Self::version)).
    fn bump_version(&mut self) {
        self.version = fresh_version();
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
            self.bump_version();
            let caches = self.caches_mut();
            exclusive(&mut caches.graphs).clear();
            exclusive(&mut caches.landmarks).clear();
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
    /// outside the new region are dropped, and so are units whose anchor lies outside it).
    /// Every cached layer and table is rebuilt on demand.
    pub fn replace_grid(&mut self, grid: TerrainGrid) {
        let region = grid.region();
        self.occupancy.retain(|unit| region.contains(unit.anchor));
        if let LandmarkPlacement::At(cells) = &mut self.landmark_placement {
            cells.retain(|&cell| grid.index_of(cell).is_some());
            self.landmark_anchors = cells
                .iter()
                .filter_map(|&cell| grid.index_of(cell))
                .collect();
        }
        self.grid = Arc::new(grid);
        self.bump_version();
        // Nothing carries over to another grid: a store of its own, not a copy emptied.
        self.caches = Arc::default();
    }

    /// Registers `profile` under its name, replacing any profile of the same name. The
    /// replaced profile's search graphs and landmark table are dropped (rebuilt on demand),
    /// and so is a clearance layer that no registered profile uses any more. A profile equal
    /// to the one registered under its name changes nothing: caches and
    /// [`version`](Self::version) stay (a game that sets its profiles again each level, say,
    /// keeps the graphs it built).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, PathMap, Region, TerrainGrid};
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 8), 0)?);
    /// map.set_profile(AgentProfile::new("scout").with_terrain(0, 1.0)?)?;
    /// let version = map.version();
    /// map.set_profile(AgentProfile::new("scout").with_terrain(0, 1.0)?)?;
    /// assert_eq!(map.version(), version);
    /// map.set_profile(AgentProfile::new("scout").with_terrain(0, 2.0)?)?;
    /// assert!(map.version() > version);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_profile(&mut self, profile: AgentProfile) -> Result<(), ProfileError> {
        if profile.name().is_empty() {
            return Err(ProfileError::EmptyName);
        }
        if self.profile(profile.name()) == Some(&profile) {
            return Ok(());
        }
        let name = profile.name().to_owned();
        self.profiles.insert(name.clone(), Arc::new(profile));
        self.drop_caches_of(&name);
        self.bump_version();
        Ok(())
    }

    /// Removes the profile called `name`; returns whether there was one. Its caches go with
    /// it, as [`set_profile`](Self::set_profile) drops a replaced profile's.
    pub fn remove_profile(&mut self, name: &str) -> bool {
        let removed = self.profiles.remove(name).is_some();
        self.drop_caches_of(name);
        if removed {
            self.bump_version();
        }
        removed
    }

    /// The profile called `name`.
    pub fn profile(&self, name: &str) -> Option<&AgentProfile> {
        self.profiles.get(name).map(|profile| &**profile)
    }

    /// The registered profiles, in no particular order.
    pub fn profiles(&self) -> impl Iterator<Item = &AgentProfile> {
        self.profiles.values().map(|profile| &**profile)
    }
}

impl Clone for PathMap {
    /// Copies terrain and profiles; the caches are shared, since they describe equal terrain,
    /// until either map changes them (`cache_store.rs`).
    fn clone(&self) -> Self {
        PathMap {
            grid: self.grid.clone(),
            movement: self.movement,
            profiles: self.profiles.clone(),
            caches: Arc::clone(&self.caches),
            landmark_placement: self.landmark_placement.clone(),
            landmark_anchors: self.landmark_anchors.clone(),
            cache_memory_limit: self.cache_memory_limit,
            version: self.version,
            occupancy: self.occupancy.clone(),
        }
    }
}

impl PathMap {
    /// The map's own cache store, copied first if a clone shares it (see `cache_store.rs`).
    /// Code that also reads other fields while it holds a table calls `Arc::make_mut` on
    /// `self.caches` itself, to borrow the fields apart.
    fn caches_mut(&mut self) -> &mut CacheStore {
        Arc::make_mut(&mut self.caches)
    }
}

/// The lock's value, through `&mut` access (no locking needed).
fn exclusive<T>(lock: &mut RwLock<T>) -> &mut T {
    lock.get_mut().unwrap_or_else(PoisonError::into_inner)
}

/// A read guard, also when a panicking thread poisoned the lock (caches stay consistent:
/// they are replaced whole).
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

/// A write guard, also when a panicking thread poisoned the lock.
fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}
