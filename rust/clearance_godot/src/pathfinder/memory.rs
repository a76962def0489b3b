//! Search memory: what the node's searches hold between queries, and giving it back. The
//! memory is the core's per-thread search scratch, on the main thread (synchronous queries)
//! and on each worker thread (requests).
#![forbid(unsafe_code)]

use super::ClearancePathfinder;
use clearance_core::PathMap;
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Bytes of search memory held for this node's queries: the main thread's (used by
    /// `find_path()` and the other synchronous queries, and shared with every other
    /// `ClearancePathfinder` queried on the main thread) plus each worker thread's, as of its
    /// last request. It grows with the largest search a thread ran, not with the map, and
    /// stays until `trim_search_memory()`. Separate from `cache_memory_limit_mb`, which bounds
    /// the map's caches.
    #[func]
    pub fn get_search_memory_bytes(&self) -> i64 {
        let workers = self
            .workers
            .as_ref()
            .map_or(0, |workers| workers.search_memory_bytes());
        i64::try_from(PathMap::thread_search_memory_bytes() + workers).unwrap_or(i64::MAX)
    }

    /// Gives back the search memory `get_search_memory_bytes()` counts: the main thread's at
    /// once, each idle worker's as soon as it wakes, and a busy worker's when its current
    /// request is done. Later queries grow it again as they need; results do not change.
    /// Useful after a burst of long searches, or when a large map is replaced by a small one.
    #[func]
    pub fn trim_search_memory(&mut self) {
        PathMap::trim_thread_search_memory();
        if let Some(workers) = &self.workers {
            workers.trim_search_memory();
        }
    }
}
