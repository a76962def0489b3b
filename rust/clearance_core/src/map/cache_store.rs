//! Where a map keeps what it derives from its terrain, profiles and movement rule: clearance
//! layers, search graphs and landmark tables, shared by the map's clones until one of them
//! changes.
//!
//! A clone of a map (an async request's snapshot, say) shares the map's store, not a copy of
//! it. Whatever either builds while they share it (a layer, a graph, a table) serves the
//! other: a worker's request that builds a graph leaves it for the map's next query, even
//! after the map moved its units (which touches no cache). The first change that does touch
//! a cache (an edit repairing it, a profile or movement rule that drops some, another landmark
//! placement) goes through [`Arc::make_mut`] and gives the changed map a store of its own: the
//! tables are copied, their entries stay shared until repaired (copy on write, page by page).
//! A new grid starts from an empty store instead, since nothing carries over to it.
//!
//! Sharing is sound because every entry depends only on what the sharers have in common:
//! both hold the same terrain, profiles, movement rule and landmark placement until a
//! `&mut` method changes one of them, and each such method writes the store through
//! `Arc::make_mut` before anything else reads it.

use super::read;
use super::tables::Table;
use crate::clearance::ClearanceLayer;
use crate::graph::AnchorGraph;
use crate::landmarks::LandmarkTable;
use crate::terrain::TerrainSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

/// The derived data of one version of a map; see the module docs.
#[derive(Debug, Default)]
pub(super) struct CacheStore {
    /// Per set of enterable terrains: its clearance layer.
    pub(super) clearance: RwLock<Table<TerrainSet, Arc<ClearanceLayer>>>,
    /// Per profile and agent size: its search graph.
    pub(super) graphs: RwLock<Table<String, Table<u8, Arc<AnchorGraph>>>>,
    /// Per profile: its landmark table, or `None` if none could be built.
    pub(super) landmarks: RwLock<Table<String, Option<Arc<LandmarkTable>>>>,
    /// Held while a clearance layer or search graph is built, so that threads sharing the
    /// store build one at a time: each build is checked against the memory limit with every
    /// earlier one counted, and none builds what another has just built.
    building: Mutex<()>,
    /// Bytes promised to landmark tables being built outside the build turn (a table can
    /// take seconds, which graph builds should not wait for); the limit counts them.
    reserved: AtomicUsize,
}

impl Clone for CacheStore {
    /// The same entries in tables of its own: a copy for a map about to change them.
    fn clone(&self) -> Self {
        CacheStore {
            clearance: RwLock::new(read(&self.clearance).clone()),
            graphs: RwLock::new(read(&self.graphs).clone()),
            landmarks: RwLock::new(read(&self.landmarks).clone()),
            building: Mutex::new(()),
            reserved: AtomicUsize::new(0),
        }
    }
}

impl CacheStore {
    /// The turn to build a layer or graph (see [`CacheStore::building`]); whoever holds it
    /// looks again for what it needs before building, since the thread it waited for may
    /// have built just that.
    pub(super) fn build_turn(&self) -> MutexGuard<'_, ()> {
        // A build that panicked left the tables as they were (entries go in whole).
        self.building.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Bytes reserved by builds under way outside the turn.
    pub(super) fn reserved_bytes(&self) -> usize {
        self.reserved.load(Ordering::Relaxed)
    }

    /// Reserves `bytes` until the returned guard drops (the build finished, or panicked).
    /// Take it while holding the build turn, after checking the limit with the reservation
    /// counted.
    pub(super) fn reserve(&self, bytes: usize) -> Reservation<'_> {
        self.reserved.fetch_add(bytes, Ordering::Relaxed);
        Reservation {
            reserved: &self.reserved,
            bytes,
        }
    }
}

/// Bytes reserved in a [`CacheStore`] while a build runs; given back on drop.
pub(super) struct Reservation<'a> {
    reserved: &'a AtomicUsize,
    bytes: usize,
}

impl Drop for Reservation<'_> {
    fn drop(&mut self) {
        self.reserved.fetch_sub(self.bytes, Ordering::Relaxed);
    }
}
