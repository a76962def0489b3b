//! Text drawings of a map with a path, the units standing on it, or arrival slots.

use clearance_core::{checked_agent_size, footprint, Cell, Region, TerrainGrid};
use std::fmt;

/// The mark on the path's first anchor.
pub const START_MARK: char = 's';
/// The mark on the path's last anchor.
pub const GOAL_MARK: char = 'g';
/// A cell covered by the agent's footprint somewhere along the path.
pub const FOOTPRINT_MARK: char = '*';
/// A cell covered by a unit standing on the map (other than the one that moves).
pub const UNIT_MARK: char = 'u';
/// A waypoint of a smoothed path (other than its start and goal).
pub const WAYPOINT_MARK: char = 'o';

/// Every cell covered by the footprint of an `agent_size` unit at each anchor of `path`, anchor
/// by anchor; a cell covered from several anchors is listed once for each. Cells may lie off
/// the map.
pub fn path_footprints(path: &[Cell], agent_size: u8) -> impl Iterator<Item = Cell> + '_ {
    path.iter()
        .filter_map(move |&anchor| footprint(anchor, agent_size))
        .flat_map(Region::cells)
}

/// The map as text, one line per row, with every cell covered by the footprint along `path`
/// marked `*` and the start and goal anchors marked `s` and `g`. A size that is not a legal
/// agent size (see [`checked_agent_size`]) has no footprint: only the anchors are marked.
pub fn draw_path(grid: &TerrainGrid, path: &[Cell], agent_size: i32) -> String {
    let mut sketch = Sketch::new(grid);
    sketch.mark_path(path, agent_size);
    sketch.to_string()
}

/// A text drawing of a map: one character per cell (its terrain's), with marks written over
/// them; a later mark replaces an earlier one, and marks off the map are dropped. Displayed
/// as one line per row.
pub struct Sketch<'a> {
    grid: &'a TerrainGrid,
    canvas: Vec<char>,
}

impl<'a> Sketch<'a> {
    /// The map's terrain, unmarked.
    pub fn new(grid: &'a TerrainGrid) -> Self {
        Sketch {
            grid,
            canvas: grid.as_bytes().iter().map(|&b| char::from(b)).collect(),
        }
    }

    /// Marks one cell.
    pub fn mark(&mut self, cell: Cell, mark: char) {
        if let Some(index) = self.grid.index_of(cell) {
            self.canvas[index] = mark;
        }
    }

    /// Marks every cell of the footprint of a unit of `size` at `anchor` (nothing for a size
    /// that is not a legal agent size).
    pub fn mark_footprint(&mut self, anchor: Cell, size: i64, mark: char) {
        let Some(size) = checked_agent_size(size) else {
            return;
        };
        for cell in footprint(anchor, size).into_iter().flat_map(Region::cells) {
            self.mark(cell, mark);
        }
    }

    /// Marks `path` as [`draw_path`] does: every footprint cell `*`, then the start `s` and
    /// the goal `g`.
    pub fn mark_path(&mut self, path: &[Cell], agent_size: i32) {
        if let Some(agent_size) = checked_agent_size(i64::from(agent_size)) {
            for cell in path_footprints(path, agent_size) {
                self.mark(cell, FOOTPRINT_MARK);
            }
        }
        if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
            self.mark(first, START_MARK);
            self.mark(last, GOAL_MARK);
        }
    }
}

impl Sketch<'_> {
    /// Marks the waypoints between the first and the last `o` (those stay `s` and `g`).
    pub fn mark_waypoints(&mut self, waypoints: &[Cell]) {
        let inner = waypoints.len().saturating_sub(1);
        for &waypoint in waypoints.iter().take(inner).skip(1) {
            self.mark(waypoint, WAYPOINT_MARK);
        }
    }
}

impl fmt::Display for Sketch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(self.canvas.len() + self.grid.height());
        for row in self.canvas.chunks(self.grid.width()) {
            text.extend(row);
            text.push('\n');
        }
        f.write_str(&text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_marks_replace_earlier_ones_and_off_map_marks_are_dropped() {
        let grid = TerrainGrid::new(Region::new(0, 0, 4, 2), b'.').unwrap();
        let mut sketch = Sketch::new(&grid);
        sketch.mark_footprint(Cell::new(2, 0), 3, UNIT_MARK);
        sketch.mark_path(&[Cell::new(0, 0), Cell::new(1, 0)], 1);
        sketch.mark(Cell::new(9, 9), 'x');
        sketch.mark_footprint(Cell::new(0, 1), 0, 'x');
        assert_eq!(sketch.to_string(), "sguu\n..uu\n");
    }
}
