//! Typed errors for invalid input, one enum per layer.
//!
//! Errors describe input that the library refuses before it changes anything: a call that returns
//! an error has left the map, the profile and every cache exactly as they were. A query that
//! finds no path is *not* an error; it is a [`PathCode`](crate::PathCode) in the result.

use crate::grid::{Cell, Region};
use crate::terrain::TerrainId;
use thiserror::Error;

/// Invalid input to a grid: its shape, its data or an edit.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GridError {
    /// The region has a width or height below 1 or above [`MAX_SIDE`](crate::MAX_SIDE).
    #[error("region {region} must be between 1 and {max_side} cells on each side")]
    InvalidRegionSize {
        /// The rejected region.
        region: Region,
        /// The largest side allowed.
        max_side: i32,
    },
    /// The region has more cells than [`MAX_CELLS`](crate::MAX_CELLS).
    #[error("region {region} has {cells} cells, more than the limit of {max_cells}")]
    TooManyCells {
        /// The rejected region.
        region: Region,
        /// Its cell count.
        cells: u64,
        /// The largest cell count allowed.
        max_cells: u64,
    },
    /// The region's far corner does not fit in 32-bit coordinates.
    #[error("region {region} reaches beyond the 32-bit coordinate range")]
    RegionOverflow {
        /// The rejected region.
        region: Region,
    },
    /// Whole-map terrain data does not have one byte per cell.
    #[error("terrain data has {found} bytes but the region has {expected} cells")]
    DataLengthMismatch {
        /// Cells in the region.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
    /// A cell lies outside the map's region.
    #[error("cell {cell} lies outside the map region")]
    CellOutOfBounds {
        /// The rejected cell.
        cell: Cell,
    },
    /// A rectangle is empty, negative or not entirely inside the map's region.
    #[error("rectangle {rect} is not a non-empty rectangle inside the map region")]
    RectOutOfBounds {
        /// The rejected rectangle.
        rect: Region,
    },
    /// One entry of a batch edit is invalid; no entry of the batch was applied.
    #[error("batch entry {index} is invalid (nothing was applied): {source}")]
    InvalidBatchEntry {
        /// Position of the first invalid entry in the batch.
        index: usize,
        /// Why that entry is invalid.
        #[source]
        source: Box<GridError>,
    },
}

/// Invalid input to an agent profile.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ProfileError {
    /// The profile name is empty.
    #[error("a profile needs a non-empty name")]
    EmptyName,
    /// A cost multiplier is NaN or infinite.
    #[error("cost multiplier for terrain {terrain} must be finite, got {value}")]
    NonFiniteMultiplier {
        /// The terrain the multiplier was meant for.
        terrain: TerrainId,
        /// The rejected value.
        value: f64,
    },
    /// A cost multiplier is below zero.
    #[error("cost multiplier for terrain {terrain} must not be negative, got {value}")]
    NegativeMultiplier {
        /// The terrain the multiplier was meant for.
        terrain: TerrainId,
        /// The rejected value.
        value: f64,
    },
    /// A cost multiplier is above [`MAX_MULTIPLIER`](crate::MAX_MULTIPLIER).
    #[error("cost multiplier for terrain {terrain} must be at most {max}, got {value}")]
    MultiplierTooLarge {
        /// The terrain the multiplier was meant for.
        terrain: TerrainId,
        /// The rejected value.
        value: f64,
        /// The largest multiplier allowed.
        max: f64,
    },
}

/// Invalid landmark configuration.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LandmarkError {
    /// More landmarks than [`MAX_LANDMARKS`](crate::MAX_LANDMARKS) were asked for.
    #[error("{count} landmarks asked for; at most {max} are allowed")]
    TooMany {
        /// The number asked for.
        count: usize,
        /// The largest number allowed.
        max: usize,
    },
    /// A landmark cell lies outside the map's region.
    #[error("landmark cell {cell} lies outside the map region")]
    CellOutOfBounds {
        /// The rejected cell.
        cell: Cell,
    },
    /// One profile's table of this many landmarks would not fit the cache memory limit.
    #[error("{count} landmarks need up to {needed} bytes per profile; the cache memory limit is {limit}")]
    MemoryLimit {
        /// The number asked for.
        count: usize,
        /// Bytes one profile's table may need.
        needed: usize,
        /// The map's cache memory limit.
        limit: usize,
    },
}

/// Invalid input to the occupancy layer: units placed, moved or removed, and the rule by
/// which a query counts them.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum UnitError {
    /// No unit of this id is registered.
    #[error("no unit with id {id} is registered")]
    UnknownUnit {
        /// The id asked for.
        id: i64,
    },
    /// A unit of this id is registered already.
    #[error("a unit with id {id} is registered already")]
    DuplicateUnit {
        /// The id placed again.
        id: i64,
    },
    /// A batch names the same unit twice.
    #[error("unit {id} appears twice in one batch")]
    DuplicateInBatch {
        /// The id named twice.
        id: i64,
    },
    /// The unit's size is below 1 or above 255.
    #[error("unit {id}: agent size must be 1 to 255, got {size}")]
    InvalidAgentSize {
        /// The unit's id.
        id: i64,
        /// The rejected size.
        size: i64,
    },
    /// The unit's anchor lies outside the map.
    #[error("unit {id}: anchor {anchor} lies outside the map")]
    AnchorOutOfBounds {
        /// The unit's id.
        id: i64,
        /// The rejected anchor.
        anchor: Cell,
    },
    /// The multiplier of [`OtherUnits::Cost`](crate::OtherUnits::Cost) is NaN, infinite,
    /// negative or above [`MAX_MULTIPLIER`](crate::MAX_MULTIPLIER).
    #[error("the multiplier for other units must be a number from 0 to 10000, got {value}")]
    InvalidMultiplier {
        /// The rejected value.
        value: f64,
    },
    /// A group member names a profile the map does not have.
    #[error("unit {id}: no profile named {profile:?} is registered")]
    UnknownProfile {
        /// The member's id.
        id: i64,
        /// The profile asked for.
        profile: String,
    },
    /// The target of a group order lies outside the map.
    #[error("target {target} lies outside the map")]
    TargetOutOfBounds {
        /// The rejected target.
        target: Cell,
    },
    /// A rule name other than `ignore`, `block` or `cost:M`.
    #[error("unknown rule for other units {name:?}: expected ignore, block or cost:M")]
    UnknownRule {
        /// The rejected name.
        name: String,
    },
}

/// Invalid input to a movement range, or a refusal a query would give.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum RangeError {
    /// The budget is NaN, infinite, negative or above [`MAX_BUDGET`](crate::MAX_BUDGET).
    #[error("the budget must be a number from 0 to 1e9, got {value}")]
    InvalidBudget {
        /// The rejected value.
        value: f64,
    },
    /// More turns than [`MAX_TURNS`](crate::MAX_TURNS).
    #[error("a range counts at most 1000 turns, got {turns}")]
    TooManyTurns {
        /// The rejected count.
        turns: u32,
    },
    /// The code a query from the same start would fail with (invalid size, unknown profile,
    /// start off the map, memory limit, start clearance, unknown unit).
    #[error("the range was refused: {code}")]
    Refused {
        /// The query's code.
        code: crate::PathCode,
    },
}

/// Invalid input to [`PathMap::smooth_path`](crate::PathMap::smooth_path): a path that is not
/// one the map's rules allow, or rules the map does not know; and to
/// [`PathMap::straight_move_blocker`](crate::PathMap::straight_move_blocker), whose two anchors
/// it checks as a path of two: `from` is anchor 0, `to` anchor 1.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SmoothingError {
    /// The agent size is below 1 or above 255.
    #[error("agent size must be 1 to 255, got {size}")]
    InvalidAgentSize {
        /// The rejected size.
        size: i64,
    },
    /// No profile of that name is registered on the map.
    #[error("no profile named {profile:?} is registered")]
    UnknownProfile {
        /// The profile asked for.
        profile: String,
    },
    /// An exempt unit is not registered on the map.
    #[error("no unit with id {id} is registered")]
    UnknownUnit {
        /// The id named.
        id: i64,
    },
    /// The path has no anchor.
    #[error("the path to smooth is empty")]
    EmptyPath,
    /// An anchor of the path lies outside the map.
    #[error("anchor {index} of the path, {anchor}, lies outside the map")]
    AnchorOutOfBounds {
        /// Its position in the path.
        index: usize,
        /// The anchor.
        anchor: Cell,
    },
    /// The agent's footprint does not fit at an anchor of the path (clearance below its size).
    #[error("the agent does not fit at anchor {index} of the path, {anchor}")]
    AnchorNotLegal {
        /// Its position in the path.
        index: usize,
        /// The anchor.
        anchor: Cell,
    },
    /// Two consecutive anchors are not one legal step apart under the map's movement (not
    /// neighbours, or a diagonal that cuts a corner).
    #[error("anchors {index} and {next} of the path, {from} and {to}, are not one legal step apart", next = index + 1)]
    NotAStep {
        /// Position of the step's first anchor in the path.
        index: usize,
        /// The step's first anchor.
        from: Cell,
        /// The step's second anchor.
        to: Cell,
    },
    /// Under [`OtherUnits::Block`](crate::OtherUnits::Block): a step enters, or passes
    /// diagonally, an anchor whose footprint overlaps a counted unit.
    #[error("step {index} of the path, from {from} to {to}, runs into another unit")]
    Occupied {
        /// Position of the step's first anchor in the path.
        index: usize,
        /// The step's first anchor.
        from: Cell,
        /// The step's second anchor.
        to: Cell,
    },
    /// Building the search graph the check needs would take the map's cached data past its
    /// memory limit.
    #[error("the search graph needed would exceed the cache memory limit")]
    MemoryLimitReached,
}
