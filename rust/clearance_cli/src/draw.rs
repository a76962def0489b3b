//! Text drawings of a map with a path.

use clearance_core::{checked_agent_size, footprint, Cell, Region, TerrainGrid};

/// The mark on the path's first anchor.
pub const START_MARK: char = 's';
/// The mark on the path's last anchor.
pub const GOAL_MARK: char = 'g';
/// A cell covered by the agent's footprint somewhere along the path.
pub const FOOTPRINT_MARK: char = '*';

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
    let width = grid.width();
    let mut canvas: Vec<char> = grid.as_bytes().iter().map(|&b| char::from(b)).collect();
    let mut mark = |cell: Cell, mark: char| {
        if let Some(index) = grid.index_of(cell) {
            canvas[index] = mark;
        }
    };
    if let Some(agent_size) = checked_agent_size(i64::from(agent_size)) {
        for cell in path_footprints(path, agent_size) {
            mark(cell, FOOTPRINT_MARK);
        }
    }
    if let (Some(&first), Some(&last)) = (path.first(), path.last()) {
        mark(first, START_MARK);
        mark(last, GOAL_MARK);
    }
    let mut text = String::with_capacity(canvas.len() + grid.height());
    for row in canvas.chunks(width) {
        text.extend(row);
        text.push('\n');
    }
    text
}
