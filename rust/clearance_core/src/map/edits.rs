//! Terrain edits: every entry is checked before the first write, and cached layers and graphs
//! are repaired around the edit rather than rebuilt.

use super::{exclusive, read, PathMap};
use crate::connectivity::NO_REGION;
use crate::error::GridError;
use crate::grid::{Cell, Region, TerrainEdit, Window};
use crate::landmarks::LandmarkPlacement;
use crate::profile::AgentProfile;
use crate::terrain::{TerrainId, TerrainSet};
use std::collections::HashMap;
use std::sync::Arc;

impl PathMap {
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
        Arc::make_mut(&mut self.grid).load(data)?;
        self.bump_version();
        let caches = self.caches_mut();
        exclusive(&mut caches.clearance).clear();
        exclusive(&mut caches.graphs).clear();
        self.update_landmarks(old, data.iter().copied().collect(), None);
        Ok(())
    }

    /// Applies a batch of edits in order, all or nothing: every entry is checked before the
    /// first write, and on error nothing changes.
    ///
    /// Cached clearance layers and search graphs are repaired around each edit rather than
    /// rebuilt: the work grows with the cells whose clearance changes, not with the map;
    /// whether the batch split a region is checked once, after its last edit (a check can
    /// visit much of the map). A batch covering more than a quarter of the map drops them
    /// instead, to be rebuilt on demand; so does a batch whose repairs have rewritten the
    /// clearance of a quarter of the map's anchors per cached layer (walls scattered on open
    /// ground each change many), from then on. Landmark tables are repaired in place too,
    /// closings and openings alike, and equal a rebuild from the same landmarks afterwards
    /// (see [`set_landmarks`](Self::set_landmarks) for when a table is dropped instead).
    pub fn apply_edits(&mut self, edits: &[TerrainEdit]) -> Result<(), GridError> {
        let windows = self.grid.check_batch(edits)?;
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
        self.bump_version();
        let cells = self.grid.as_bytes().len();
        let edited_area: usize = windows.iter().map(|window| window.area()).sum();
        let mut repair = edited_area.saturating_mul(4) <= cells;
        if !repair {
            self.drop_layers_and_graphs();
        }
        // What the repairs have rewritten so far: anchors whose clearance changed, all layers
        // together.
        let layers = read(&self.caches.clearance).len().max(1);
        let mut repaired = 0usize;
        for (at, (edit, &window)) in edits.iter().zip(&windows).enumerate() {
            let written = Arc::make_mut(&mut self.grid).fill_rect(edit.rect(), edit.terrain());
            debug_assert!(written.is_ok(), "edits were checked before the first write");
            if repair {
                repaired = repaired.saturating_add(self.repair_caches(window));
                // A wall on open ground changes the clearance of up to 255 x 255 anchors:
                // once the repairs have rewritten a quarter of the map's anchors per layer,
                // they have cost what rebuilding would, and the rest of the batch drops the
                // caches instead (the quarter rule, on the work done).
                let more_to_come = at + 1 < edits.len();
                if more_to_come && repaired.saturating_mul(4) > cells.saturating_mul(layers) {
                    self.drop_layers_and_graphs();
                    repair = false;
                }
            }
        }
        if repair {
            self.finish_graph_repairs();
        }
        self.update_landmarks(
            old,
            edits.iter().map(TerrainEdit::terrain).collect(),
            repair.then_some(&windows[..]),
        );
        Ok(())
    }

    /// Drops every cached clearance layer and search graph, to be rebuilt on demand.
    fn drop_layers_and_graphs(&mut self) {
        let caches = self.caches_mut();
        exclusive(&mut caches.clearance).clear();
        exclusive(&mut caches.graphs).clear();
    }

    /// Repairs every cached clearance layer and search graph after the terrain in `edited`
    /// changed, and returns how many anchors' clearance the layers rewrote (all layers
    /// together: the size of the windows they repaired). Layers shared with a clone of this
    /// map are copied first (copy on write), so the clone keeps seeing its own version.
    fn repair_caches(&mut self, edited: Window) -> usize {
        let caches = Arc::make_mut(&mut self.caches);
        let layers = exclusive(&mut caches.clearance);
        let mut changed = HashMap::with_capacity(layers.len());
        let mut rewritten = 0usize;
        for (capability, layer) in layers.iter_mut() {
            let window = Arc::make_mut(layer).repair(&self.grid, capability, edited);
            rewritten += window.map_or(0, |window| window.area());
            changed.insert(*capability, window);
        }
        let graphs = exclusive(&mut caches.graphs);
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
        rewritten
    }

    /// Ends a batch of [`repair_caches`](Self::repair_caches): every cached graph checks once
    /// whether the batch split any of its regions.
    fn finish_graph_repairs(&mut self) {
        let caches = Arc::make_mut(&mut self.caches);
        let layers = exclusive(&mut caches.clearance);
        let width = self.grid.width();
        for (name, by_size) in exclusive(&mut caches.graphs).iter_mut() {
            let Some(profile) = self.profiles.get(name) else {
                continue;
            };
            let Some(layer) = layers.get(&profile.capability()) else {
                continue;
            };
            for graph in by_size.values_mut() {
                Arc::make_mut(graph).finish_repairs(layer, width);
            }
        }
    }

    /// Brings the landmark tables up to date after terrains `old` were replaced by terrains
    /// `new`, in the cells of `edited` if the graphs were repaired around them (`None` when
    /// the graphs were dropped). Per profile, as the `landmarks` module describes:
    ///
    /// * costs unchanged (every old and new terrain costs the same): the table is kept as is;
    /// * an exact table with a cached size-1 graph repaired around `edited` is repaired in
    ///   place, whichever way costs moved, and equals a rebuild from the same landmarks;
    ///   unless one of its landmarks was closed, or a given cell of `LandmarkPlacement::At`
    ///   that it had to skip became legal (a rebuild would place other landmarks): dropped;
    /// * otherwise, if costs can only rise, the table is kept as lower bounds, marked inexact;
    /// * otherwise, and for entries that hold no table: dropped, to be rebuilt on demand.
    pub(super) fn update_landmarks(
        &mut self,
        old: TerrainSet,
        new: TerrainSet,
        edited: Option<&[Window]>,
    ) {
        let width = self.grid.width();
        let caches = Arc::make_mut(&mut self.caches);
        let graphs = exclusive(&mut caches.graphs);
        let given = match &self.landmark_placement {
            LandmarkPlacement::At(_) => &self.landmark_anchors[..],
            _ => &[],
        };
        let profiles = &self.profiles;
        exclusive(&mut caches.landmarks).retain(|name, table| {
            let Some(profile) = profiles.get(name) else {
                return false;
            };
            let raises = only_raises_costs(profile, &old, &new);
            let lowers = only_raises_costs(profile, &new, &old);
            let Some(table) = table else {
                // No table could be built: opening cells may change that.
                return raises;
            };
            if raises && lowers {
                return true;
            }
            let graph = graphs.get(name).and_then(|by_size| by_size.get(&1));
            let (true, Some(edited), Some(graph)) = (table.is_exact(), edited, graph) else {
                if raises && table.is_exact() {
                    Arc::make_mut(table).mark_inexact();
                }
                return raises;
            };
            let newly_legal_given = given.iter().any(|&anchor| {
                graph.regions.region_of(anchor) != NO_REGION && !table.landmarks.contains(&anchor)
            });
            !newly_legal_given && Arc::make_mut(table).repair(graph, width, edited, !lowers)
        });
    }
}

/// Whether replacing terrains `old` by terrains `new` can only raise the profile's costs:
/// every new terrain costs at least as much as every old one (impassable counting as
/// infinitely dear). With the arguments swapped: whether it can only lower costs or open
/// cells. In a batch a cell may be written more than once, but it starts with a terrain of
/// `old` and ends with one of `new`, so the bound holds for the batch's net change.
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
