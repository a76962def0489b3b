//! # clearance_core
//!
//! Grid pathfinding for agents of many sizes and many terrain rules on one shared map.
//!
//! A map ([`PathMap`]) holds a terrain id per cell. Each kind of unit has an [`AgentProfile`]:
//! the terrains it may enter and a cost multiplier for each. A query names the start and goal
//! *anchors* (the top-left cell of the unit's square footprint), the agent size and the
//! profile, and gets back an optimal path or a [`PathCode`] that says why there is none.
//!
//! One [`ClearanceLayer`] per set of traversable terrains (the largest open square whose
//! top-left cell is each anchor) serves every agent size: an anchor is legal for size `k` iff
//! its clearance is at least `k` (Annotated A*, Harabor and Botea 2008).
//!
//! **Layout.** One concept per file: `grid`, `terrain`, `profile`, `cost`, `movement`,
//! `footprint`, `clearance`, `blocked_cells` (the cells a profile may not enter, as bits),
//! `connectivity` (region labels), `occupancy` (the units standing on the map), `paged` (the
//! shared pages every per-anchor array is stored in, so snapshots copy only what edits
//! write), `jump_rules` (jump-point search's successor rules), `range` (movement ranges),
//! `heap`, `query`, `result`, `error`. A concept with
//! parts has a folder: `map/` (the [`PathMap`] facade, its caches, edits, queries, batches,
//! units, slots and landmark configuration), `search/` (one file per search algorithm, beside
//! the heuristics, step costs, open-list keys and pruning tables they share), `graph/` (move
//! masks, entry multipliers and stored rays per agent size), `landmarks/` (tables, their
//! build and their repair), `flow_field/` (one backward search that leads every anchor to the
//! nearest of some goals) and `smoothing/` (taut waypoints).
//!
//! ```
//! use clearance_core::{AgentProfile, Cell, PathMap, Region, TerrainGrid};
//!
//! const GROUND: u8 = 0;
//! const SWAMP: u8 = 3;
//! let mut grid = TerrainGrid::new(Region::new(0, 0, 6, 4), GROUND)?;
//! grid.fill_rect(Region::new(2, 0, 2, 3), SWAMP)?;
//!
//! let mut map = PathMap::new(grid);
//! map.set_profile(AgentProfile::new("tank").with_terrain(GROUND, 1.0)?)?;
//! map.set_profile(
//!     AgentProfile::new("infantry").with_terrain(GROUND, 1.0)?.with_terrain(SWAMP, 2.0)?,
//! )?;
//!
//! // The tank keeps out of the swamp; its 1x1 path goes round through row 3.
//! let tank = map.find_path(Cell::new(0, 0), Cell::new(5, 0), 1, "tank");
//! assert!(tank.path.iter().all(|cell| !(2..4).contains(&cell.x) || cell.y == 3));
//! // A 2x2 infantry squad wades straight through.
//! let squad = map.find_path(Cell::new(0, 0), Cell::new(4, 0), 2, "infantry");
//! assert!(squad.is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod blocked_cells;
mod clearance;
mod connectivity;
mod cost;
mod error;
mod flow_field;
mod footprint;
mod graph;
mod grid;
mod heap;
mod jump_rules;
mod landmarks;
mod map;
mod movement;
mod occupancy;
mod paged;
mod profile;
mod query;
mod range;
mod result;
mod search;
mod smoothing;
mod terrain;
#[cfg(test)]
mod test_rng;

pub use clearance::{ClearanceLayer, MAX_CLEARANCE};
pub use cost::{
    cost_to_f64, COST_SCALE, DIAGONAL_STEP, MAX_MULTIPLIER, MULTIPLIER_SCALE, STRAIGHT_STEP,
};
pub use error::{GridError, LandmarkError, ProfileError, RangeError, SmoothingError, UnitError};
pub use flow_field::{FlowField, FlowFieldOptions};
pub use footprint::{checked_agent_size, footprint, MAX_AGENT_SIZE};
pub use grid::{Cell, Region, TerrainEdit, TerrainGrid, MAX_CELLS, MAX_SIDE};
pub use landmarks::{
    LandmarkPlacement, LandmarkProgress, LandmarkProgressFn, LandmarkStats, MAX_LANDMARKS,
};
pub use map::{
    PathMap, SlotPath, SlotPathOptions, SlotRequest, DEFAULT_CACHE_MEMORY_LIMIT, MAX_THREADS,
};
pub use movement::Movement;
pub use occupancy::{Occupancy, OtherUnits, Unit, UnitCost, UnitId};
pub use paged::{PagedVec, PAGE_BITS, PAGE_LEN};
pub use profile::AgentProfile;
pub use query::{PathQuery, SearchMode};
pub use range::{MovementRange, RangeOptions, BUDGET_TOLERANCE, MAX_BUDGET, MAX_TURNS};
pub use result::{ClearanceShortfall, FieldValue, PathCode, PathResult, ResultField, StepWeights};
pub use search::{SearchScratch, UnitsView};
pub use smoothing::Smoothing;
pub use terrain::{TerrainId, TerrainSet};
