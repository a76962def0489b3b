//! The units registered on the map: placed, moved and removed by id, each call validated
//! whole before anything changes (see the `occupancy` module for how queries count them).

use super::PathMap;
use crate::error::UnitError;
use crate::grid::{Cell, Region};
use crate::occupancy::{Occupancy, Unit, UnitId};
use std::collections::HashSet;

impl PathMap {
    /// Registers a unit of `agent_size` (1 to 255) at `anchor` under `id`. The anchor must
    /// lie on the map (the footprint may reach past its edge). Terrain is not checked: a unit
    /// may stand where no profile could walk (a building, a unit dropped off by a script).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, OtherUnits, PathCode, PathMap, PathQuery, Region, TerrainGrid};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 3), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// map.place_unit(1, Cell::new(0, 1), 1)?; // the soldier who moves
    /// map.place_unit(2, Cell::new(4, 0), 2)?; // a 2x2 truck standing in the way
    ///
    /// let query = PathQuery::new(Cell::new(0, 1), Cell::new(7, 1), 1, "unit")
    ///     .other_units(OtherUnits::Block)
    ///     .moving_unit(1);
    /// let around = map.query(&query);
    /// assert_eq!(around.code, PathCode::Ok);
    /// assert!(around.path.iter().all(|cell| !(cell.x >= 4 && cell.x < 6 && cell.y < 2)));
    ///
    /// let onto_truck = map.query(&PathQuery { goal: Cell::new(5, 1), ..query });
    /// assert_eq!(onto_truck.code, PathCode::GoalOccupied);
    /// assert_eq!(onto_truck.occupied_by, Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn place_unit(
        &mut self,
        id: UnitId,
        anchor: Cell,
        agent_size: i64,
    ) -> Result<(), UnitError> {
        self.place_units(&[(id, anchor, agent_size)])
    }

    /// Registers several units at once: all of them, or (on error) none.
    pub fn place_units(&mut self, units: &[(UnitId, Cell, i64)]) -> Result<(), UnitError> {
        let region = self.grid.region();
        let mut seen = HashSet::with_capacity(units.len());
        let mut checked = Vec::with_capacity(units.len());
        for &(id, anchor, size) in units {
            if self.occupancy.contains(id) {
                return Err(UnitError::DuplicateUnit { id });
            }
            if !seen.insert(id) {
                return Err(UnitError::DuplicateInBatch { id });
            }
            checked.push(Occupancy::check_placement(region, id, anchor, size)?);
        }
        if !checked.is_empty() {
            self.occupancy.insert_checked(&checked);
        }
        Ok(())
    }

    /// Moves the unit `id` to `anchor`: O(1), whatever its size; no terrain cache is touched.
    pub fn move_unit(&mut self, id: UnitId, anchor: Cell) -> Result<(), UnitError> {
        self.move_units(&[(id, anchor)])
    }

    /// Moves several units at once: all of them, or (on error: an unknown id, an anchor off
    /// the map, an id named twice) none.
    pub fn move_units(&mut self, moves: &[(UnitId, Cell)]) -> Result<(), UnitError> {
        let region = self.grid.region();
        // Small batches (a unit stepping) need no set to find repeats.
        let mut seen = HashSet::new();
        for (position, &(id, anchor)) in moves.iter().enumerate() {
            if !self.occupancy.contains(id) {
                return Err(UnitError::UnknownUnit { id });
            }
            if !region.contains(anchor) {
                return Err(UnitError::AnchorOutOfBounds { id, anchor });
            }
            let repeated = if moves.len() <= 8 {
                moves[..position].iter().any(|&(other, _)| other == id)
            } else {
                !seen.insert(id)
            };
            if repeated {
                return Err(UnitError::DuplicateInBatch { id });
            }
        }
        self.occupancy.move_checked(moves);
        Ok(())
    }

    /// Removes the unit `id`.
    pub fn remove_unit(&mut self, id: UnitId) -> Result<(), UnitError> {
        if !self.occupancy.contains(id) {
            return Err(UnitError::UnknownUnit { id });
        }
        self.occupancy.remove_checked(id);
        Ok(())
    }

    /// Removes every unit.
    pub fn clear_units(&mut self) {
        self.occupancy.clear();
    }

    /// The unit registered as `id`: where it stands and its size.
    pub fn unit(&self, id: UnitId) -> Option<Unit> {
        self.occupancy.get(id)
    }

    /// The occupancy layer: every registered unit.
    pub fn occupancy(&self) -> &Occupancy {
        &self.occupancy
    }

    /// The units, but those in `exempt`, whose footprint overlaps `region`, in the order the
    /// occupancy keeps them ([`Occupancy::overlapping`]). For a small region this reads the
    /// units standing near it, not every unit.
    pub fn units_overlapping(&self, region: Region, exempt: &[UnitId]) -> Vec<Unit> {
        self.occupancy.overlapping(region, exempt, usize::MAX)
    }

    /// Identifies the occupancy layer as [`version`](Self::version) identifies the terrain:
    /// every successful change of the units (placed, moved, removed) gives it a value no map
    /// of this process has had before. Moving units never changes [`version`](Self::version),
    /// so flow fields and cached layers stay valid.
    pub fn units_version(&self) -> u64 {
        self.occupancy.version()
    }
}
