//! Text drawings of a map with a path.

use clearance_core::{Cell, TerrainGrid};

/// Marks drawn over the map.
pub const START_MARK: char = 's';
/// The goal anchor.
pub const GOAL_MARK: char = 'g';
/// A cell covered by the agent's footprint somewhere along the path.
pub const FOOTPRINT_MARK: char = '*';

/// The map as text, one line per row, with every cell covered by the footprint along `path`
/// marked `*` and the start and goal anchors marked `s` and `g`.
pub fn draw_path(grid: &TerrainGrid, path: &[Cell], agent_size: i32) -> String {
    let width = grid.width();
    let mut canvas: Vec<char> = grid.as_bytes().iter().map(|&b| char::from(b)).collect();
    let mut mark = |cell: Cell, mark: char| {
        if let Some(index) = grid.index_of(cell) {
            canvas[index] = mark;
        }
    };
    for anchor in path {
        for dy in 0..agent_size {
            for dx in 0..agent_size {
                mark(Cell::new(anchor.x + dx, anchor.y + dy), FOOTPRINT_MARK);
            }
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
