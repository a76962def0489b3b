//! The agent's footprint: its size, and the square of cells it covers at an anchor.
//!
//! Every front end (the core's queries, the Godot node, the CLI) checks an agent size and lists
//! footprint cells through these two functions, so the rule and its limits live here alone.

use crate::grid::{Cell, Region};

/// Largest agent size: clearance is stored in a byte.
pub const MAX_AGENT_SIZE: i64 = 255;

/// The agent size as a byte, if it is a legal size (1 to [`MAX_AGENT_SIZE`]).
///
/// ```
/// use clearance_core::checked_agent_size;
/// assert_eq!(checked_agent_size(3), Some(3));
/// assert_eq!(checked_agent_size(0), None);
/// assert_eq!(checked_agent_size(-2), None);
/// assert_eq!(checked_agent_size(256), None);
/// ```
pub fn checked_agent_size(agent_size: i64) -> Option<u8> {
    if (1..=MAX_AGENT_SIZE).contains(&agent_size) {
        u8::try_from(agent_size).ok()
    } else {
        None
    }
}

/// The square a unit of `agent_size` covers when its anchor (top-left cell) is `anchor`, or
/// `None` if that square would reach past the `i32` coordinate range. Pure geometry: the
/// square may lie off the map.
///
/// ```
/// use clearance_core::{footprint, Cell, Region};
/// let square = footprint(Cell::new(4, 7), 2).unwrap();
/// assert_eq!(square, Region::new(4, 7, 2, 2));
/// let cells: Vec<Cell> = square.cells().collect();
/// assert_eq!(cells, [Cell::new(4, 7), Cell::new(5, 7), Cell::new(4, 8), Cell::new(5, 8)]);
/// assert_eq!(footprint(Cell::new(i32::MAX, 0), 2), None);
/// ```
pub fn footprint(anchor: Cell, agent_size: u8) -> Option<Region> {
    let reach = i32::from(agent_size) - 1;
    anchor.x.checked_add(reach)?;
    anchor.y.checked_add(reach)?;
    let side = i32::from(agent_size);
    Some(Region::new(anchor.x, anchor.y, side, side))
}
