//! Clearance layers and search graphs, built on first use and shared by every query, and the
//! memory limit they are held to.

use super::{exclusive, read, write, PathMap};
use crate::clearance::ClearanceLayer;
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::Cell;
use crate::profile::AgentProfile;
use crate::result::PathCode;
use crate::terrain::TerrainSet;
use std::sync::Arc;

/// The default of [`PathMap::set_cache_memory_limit`]: 4 GiB.
pub const DEFAULT_CACHE_MEMORY_LIMIT: usize = 4 << 30;

impl PathMap {
    /// The clearance of `cell` for the profile called `profile`: the side of the largest square
    /// with top-left cell `cell` that the profile may enter entirely. `None` if the cell is
    /// outside the map, the profile is unknown or its layer would not fit the cache memory
    /// limit.
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
    /// would fail with for an invalid size, an unknown profile or data past the cache memory
    /// limit (`PathCode::MemoryLimitReached`), `PathCode::Ok` otherwise.
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

    /// Compares every cached clearance layer, search graph and landmark table with one built
    /// afresh from the current terrain, and describes the first difference. As costly as
    /// rebuilding them all: meant for tests and for debugging incremental repair.
    ///
    /// A landmark table is compared with one built from the same landmarks (farthest-point
    /// placement might choose others now) on a fresh size-1 graph: a table built or repaired
    /// since the last edit that raised its profile's costs must equal it; one kept through
    /// such an edit must hold lower bounds of its distances (see the `landmarks` module).
    pub fn verify_caches(&self) -> Result<(), String> {
        for (capability, layer) in read(&self.caches.clearance).iter() {
            if **layer != ClearanceLayer::build(&self.grid, capability) {
                return Err(format!(
                    "the clearance layer for terrains {capability:?} differs from a rebuild"
                ));
            }
        }
        for (name, by_size) in read(&self.caches.graphs).iter() {
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
        for (name, table) in read(&self.caches.landmarks).iter() {
            let Some(table) = table else { continue };
            let profile = self.profiles.get(name).ok_or_else(|| {
                format!("a landmark table is cached for unknown profile {name:?}")
            })?;
            let layer = ClearanceLayer::build(&self.grid, &profile.capability());
            let fresh = AnchorGraph::build(&self.grid, &layer, profile, 1, self.movement);
            table
                .verify(&fresh, self.grid.width())
                .map_err(|error| format!("landmarks of profile {name:?}: {error}"))?;
        }
        Ok(())
    }

    /// Bytes held by cached clearance layers, search graphs and landmark tables.
    pub fn cache_memory_bytes(&self) -> usize {
        let clearance: usize = read(&self.caches.clearance)
            .values()
            .map(|layer| layer.memory_bytes())
            .sum();
        let graphs: usize = read(&self.caches.graphs)
            .values()
            .flat_map(|by_size| by_size.values())
            .map(|graph| graph.memory_bytes())
            .sum();
        let landmarks: usize = read(&self.caches.landmarks)
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

    /// Whether `extra` more bytes of cache fit under the limit, with what builds under way
    /// have reserved.
    pub(super) fn fits(&self, extra: usize) -> bool {
        (self.cache_memory_bytes())
            .saturating_add(self.caches.reserved_bytes())
            .saturating_add(extra)
            <= self.cache_memory_limit
    }

    /// The clearance layer of `capability`, built if the memory limit allows.
    pub(super) fn clearance_layer_for(
        &self,
        capability: &TerrainSet,
    ) -> Option<Arc<ClearanceLayer>> {
        if let Some(layer) = read(&self.caches.clearance).get(capability) {
            return Some(Arc::clone(layer));
        }
        let _turn = self.caches.build_turn();
        self.clearance_layer_in_turn(capability)
    }

    /// [`clearance_layer_for`](Self::clearance_layer_for) for a thread that holds the build
    /// turn.
    fn clearance_layer_in_turn(&self, capability: &TerrainSet) -> Option<Arc<ClearanceLayer>> {
        if let Some(layer) = read(&self.caches.clearance).get(capability) {
            return Some(Arc::clone(layer));
        }
        if !self.fits(ClearanceLayer::estimated_bytes(
            self.grid.width(),
            self.grid.height(),
        )) {
            return None;
        }
        let layer = Arc::new(ClearanceLayer::build(&self.grid, capability));
        write(&self.caches.clearance).insert(*capability, Arc::clone(&layer));
        Some(layer)
    }

    /// The search graph of the profile called `name` (which is `profile`) for units of
    /// `size`, built (with its clearance layer) if the memory limit allows.
    pub(super) fn graph_for(
        &self,
        name: &str,
        profile: &AgentProfile,
        size: u8,
    ) -> Option<Arc<AnchorGraph>> {
        let built = || {
            (read(&self.caches.graphs).get(name))
                .and_then(|by_size| by_size.get(&size))
                .map(Arc::clone)
        };
        if let Some(graph) = built() {
            return Some(graph);
        }
        let _turn = self.caches.build_turn();
        if let Some(graph) = built() {
            return Some(graph);
        }
        let clearance = self.clearance_layer_in_turn(&profile.capability())?;
        if !self.fits(AnchorGraph::estimated_bytes(
            self.grid.as_bytes().len(),
            profile,
            self.movement,
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
        let mut graphs = write(&self.caches.graphs);
        let by_size = graphs.entry(name.to_owned()).or_default();
        by_size.insert(size, Arc::clone(&graph));
        Some(graph)
    }

    /// After the profile called `name` was set or removed: drops its search graphs and
    /// landmark table, and every clearance layer that no registered profile uses any more
    /// (edits would go on repairing it, and it would count against the memory limit).
    pub(super) fn drop_caches_of(&mut self, name: &str) {
        let caches = Arc::make_mut(&mut self.caches);
        // Not `caches_mut()`: the profiles are read while the tables are held.
        exclusive(&mut caches.graphs).remove(name);
        exclusive(&mut caches.landmarks).remove(name);
        let used: Vec<TerrainSet> = (self.profiles.values())
            .map(|profile| profile.capability())
            .collect();
        exclusive(&mut caches.clearance).retain(|capability, _| used.contains(capability));
    }
}
