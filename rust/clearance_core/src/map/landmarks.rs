//! Landmark placement, and the per-profile tables built from it on demand.

use super::{exclusive, read, write, PathMap};
use crate::error::LandmarkError;
use crate::landmarks::{
    LandmarkPlacement, LandmarkProgressFn, LandmarkStats, LandmarkTable, MAX_LANDMARKS,
};
use crate::profile::AgentProfile;
use std::sync::Arc;

impl PathMap {
    /// Chooses where landmarks go; tables are built on the next query of each profile, or by
    /// [`bake_landmarks`](Self::bake_landmarks). On error nothing changes.
    ///
    /// Edits repair the tables in place, and a repaired table equals one built from the same
    /// landmarks. A table is dropped instead, and built again on the next query, when an edit
    /// it is repaired around closes one of its landmarks or opens a given cell it had to skip,
    /// or when an edit covers too much of the map to repair around and lowers some cost (one
    /// that only raises costs keeps the table as lower bounds, a closed landmark's included,
    /// which the next edit that lowers a cost drops).
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
        exclusive(&mut self.caches_mut().landmarks).clear();
        Ok(())
    }

    /// The landmark placement in force.
    pub fn landmark_placement(&self) -> &LandmarkPlacement {
        &self.landmark_placement
    }

    /// Builds the landmark table of the profile called `profile` now, rather than on its next
    /// query, and describes it (a table already built is described as it is: one kept as lower
    /// bounds through edits that only raised costs, see [`landmarks_exact`](Self::landmarks_exact),
    /// may name landmarks the profile can no longer enter). Runs on the calling thread. `None` (queries then search
    /// without landmarks, as exactly) if the profile is unknown, no landmarks are configured,
    /// none could be placed (no cell given that the profile may enter, or, placed farthest, no
    /// region of 64 anchors or more), every step is free, the table would pass the cache memory limit, or a distance would not fit
    /// its 32 bits (counted in the greatest common divisor of the profile's multipliers: long
    /// paths, or a dear terrain beside a nearly free one, such as 10,000 and 0.002).
    pub fn bake_landmarks(&self, profile: &str) -> Option<LandmarkStats> {
        self.bake_landmarks_with(profile, 1, &|_| {})
    }

    /// [`bake_landmarks`](Self::bake_landmarks) on `threads` threads (the calling one among
    /// them; 0 counts as 1, and a count above 64 as 64, so any `usize` is safe), reporting how far the build has come to `progress` (from any of
    /// those threads; nothing is reported if the table is already built). The table is the
    /// same for every thread count.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, LandmarkPlacement, PathMap, Region, TerrainGrid};
    /// use std::sync::atomic::{AtomicU64, Ordering};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 64, 64), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// map.set_landmarks(LandmarkPlacement::Farthest(4))?;
    /// // A node or a progress bar polls the value from another thread.
    /// let permille = AtomicU64::new(0);
    /// let report = |p: clearance_core::LandmarkProgress| {
    ///     permille.store((p.fraction() * 1000.0) as u64, Ordering::Relaxed)
    /// };
    /// let stats = map.bake_landmarks_with("unit", 2, &report).unwrap();
    /// assert_eq!(stats.landmarks.len(), 4);
    /// assert_eq!(permille.load(Ordering::Relaxed), 1000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bake_landmarks_with(
        &self,
        profile: &str,
        threads: usize,
        progress: LandmarkProgressFn,
    ) -> Option<LandmarkStats> {
        let found = self.profiles.get(profile)?;
        let table = self.landmarks_built(profile, found, threads, progress)?;
        Some(self.describe(&table))
    }

    /// Describes the landmark table of the profile called `profile`, if it is built.
    pub fn landmark_stats(&self, profile: &str) -> Option<LandmarkStats> {
        let table = read(&self.caches.landmarks).get(profile)?.clone()?;
        Some(self.describe(&table))
    }

    /// Whether the landmark table of the profile called `profile` holds the true distances of
    /// the current terrain, as a rebuild from the same landmarks would; `false` once an edit
    /// too large to repair around, which only raised costs, left it as lower bounds (see
    /// [`set_landmarks`](Self::set_landmarks)). `None` if no table is built.
    pub fn landmarks_exact(&self, profile: &str) -> Option<bool> {
        let table = read(&self.caches.landmarks).get(profile)?.clone()?;
        Some(table.is_exact())
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

    /// The landmark table of `profile` called `name`, built on the calling thread if needed.
    pub(super) fn landmarks_for(
        &self,
        name: &str,
        profile: &AgentProfile,
    ) -> Option<Arc<LandmarkTable>> {
        self.landmarks_built(name, profile, 1, &|_| {})
    }

    fn landmarks_built(
        &self,
        name: &str,
        profile: &AgentProfile,
        threads: usize,
        progress: LandmarkProgressFn,
    ) -> Option<Arc<LandmarkTable>> {
        if self.landmark_placement == LandmarkPlacement::None {
            return None;
        }
        if let Some(table) = read(&self.caches.landmarks).get(name) {
            return table.clone();
        }
        let graph = self.graph_for(name, profile, 1)?;
        let count = self.landmark_placement.count();
        let estimate = LandmarkTable::estimated_bytes(self.grid.as_bytes().len(), count);
        // Checked and reserved in the build turn, built outside it: a table takes far longer
        // than the graphs other threads may need meanwhile.
        let _reserved = {
            let _turn = self.caches.build_turn();
            if let Some(table) = read(&self.caches.landmarks).get(name) {
                return table.clone();
            }
            if !self.fits(estimate) {
                return None;
            }
            self.caches.reserve(estimate)
        };
        let table = LandmarkTable::build(
            &graph,
            self.grid.width(),
            &self.landmark_placement,
            &self.landmark_anchors,
            threads,
            progress,
        )
        .map(Arc::new);
        write(&self.caches.landmarks)
            .entry(name.to_owned())
            .or_insert(table)
            .clone()
    }
}
