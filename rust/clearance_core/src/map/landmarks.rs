//! Landmark placement, and the per-profile tables built from it on demand.

use super::{exclusive, read, write, PathMap};
use crate::error::LandmarkError;
use crate::landmarks::{LandmarkPlacement, LandmarkStats, LandmarkTable, MAX_LANDMARKS};
use crate::profile::AgentProfile;
use std::sync::Arc;

impl PathMap {
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

    pub(super) fn landmarks_for(
        &self,
        name: &str,
        profile: &AgentProfile,
    ) -> Option<Arc<LandmarkTable>> {
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
