//! PNG pictures of a map: terrain, a clearance heat map, units and a path; a flow field's
//! costs and next steps; or a movement range's costs, border and path.

use crate::draw::path_footprints;
use crate::error::CliError;
use crate::units::UnitEntry;
use clearance_core::checked_agent_size;
use clearance_core::{Cell, FlowField, PagedVec, TerrainGrid};
use std::path::Path;

/// What to draw.
pub struct Picture<'a> {
    /// The terrain.
    pub grid: &'a TerrainGrid,
    /// Clearance of each cell for the chosen profile (same order as the grid's cells).
    pub clearance: &'a PagedVec<u8>,
    /// The agent size the path is for; cells with clearance below it are drawn darker.
    pub agent_size: u8,
    /// Anchors of a path to draw, possibly empty.
    pub path: &'a [Cell],
    /// Units standing on the map, drawn in violet (under the path), possibly none.
    pub units: &'a [UnitEntry],
    /// The path's waypoints, drawn as blue lines between the footprints' centres over
    /// everything else, possibly none.
    pub waypoints: &'a [Cell],
}

/// Colour of the lines between waypoints and of their dots.
const WAYPOINT: [u8; 3] = [30, 80, 230];

/// Colour of the cells under units standing on the map.
const UNIT: [u8; 3] = [150, 60, 200];

/// Colour of a map character.
fn terrain_colour(character: u8) -> [u8; 3] {
    match character {
        b'.' | b'G' => [222, 214, 186],
        b'S' => [120, 140, 80],
        b'W' => [70, 120, 200],
        b'T' => [40, 100, 50],
        _ => [30, 30, 34],
    }
}

/// Renders the picture to RGB pixels, `scale` pixels per cell: terrain colour, brightened by
/// clearance (a heat map: the wider the open square, the lighter), darkened where the agent
/// does not fit, the units' cells in violet, and the path's footprint cells in red.
pub fn render(picture: &Picture, scale: usize) -> (usize, usize, Vec<u8>) {
    let grid = picture.grid;
    let (width, height) = (grid.width(), grid.height());
    let largest = picture.clearance.iter().copied().max().unwrap_or(1).max(1);
    let mut on_path = vec![false; width * height];
    for cell in path_footprints(picture.path, picture.agent_size) {
        if let Some(index) = grid.index_of(cell) {
            on_path[index] = true;
        }
    }
    let mut on_unit = vec![false; width * height];
    for unit in picture.units {
        let Some(size) = checked_agent_size(unit.size) else {
            continue;
        };
        for cell in path_footprints(&[unit.anchor], size) {
            if let Some(index) = grid.index_of(cell) {
                on_unit[index] = true;
            }
        }
    }
    let colour_of = |index: usize| -> [u8; 3] {
        if on_path[index] {
            return [220, 40, 40];
        }
        if on_unit[index] {
            return UNIT;
        }
        let base = terrain_colour(grid.as_bytes()[index]);
        let clearance = picture.clearance[index];
        // Clearance 0 (terrain the profile may not enter) is darkened too.
        if clearance < picture.agent_size {
            return base.map(|c| c / 2);
        }
        let heat = f32::from(clearance) / f32::from(largest);
        base.map(|c| (f32::from(c) * (0.55 + 0.45 * heat)) as u8)
    };
    let (pixel_width, pixel_height, mut pixels) = paint_cells(width, height, scale, colour_of);
    draw_waypoints(picture, scale, pixel_width, &mut pixels);
    (pixel_width, pixel_height, pixels)
}

/// Draws the picture's waypoints over `pixels` (`pixel_width` wide, `scale` pixels per
/// cell): a straight line between the centres of consecutive footprints, a pixel per step
/// along the longer axis, and a dot a fifth of a cell wide (at least 3 pixels) on each.
fn draw_waypoints(picture: &Picture, scale: usize, pixel_width: usize, pixels: &mut [u8]) {
    let grid = picture.grid;
    let pixel_height = pixels.len() / 3 / pixel_width.max(1);
    let half_footprint = (usize::from(picture.agent_size) * scale / 2) as i64;
    let centre = |anchor: Cell| {
        grid.index_of(anchor).map(|index| {
            let x = ((index % grid.width()) * scale) as i64 + half_footprint;
            let y = ((index / grid.width()) * scale) as i64 + half_footprint;
            (x, y)
        })
    };
    let mut plot = |x: i64, y: i64| {
        if (0..pixel_width as i64).contains(&x) && (0..pixel_height as i64).contains(&y) {
            let at = (y as usize * pixel_width + x as usize) * 3;
            pixels[at..at + 3].copy_from_slice(&WAYPOINT);
        }
    };
    let centres: Vec<(i64, i64)> = picture
        .waypoints
        .iter()
        .filter_map(|&w| centre(w))
        .collect();
    for pair in centres.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        let steps = (x1 - x0).abs().max((y1 - y0).abs()).max(1);
        for step in 0..=steps {
            // Rounded to the nearest pixel, in integers.
            let x = x0 + ((x1 - x0) * step * 2 + steps).div_euclid(2 * steps);
            let y = y0 + ((y1 - y0) * step * 2 + steps).div_euclid(2 * steps);
            plot(x, y);
        }
    }
    let reach = (scale as i64 / 10).max(1);
    for &(x, y) in &centres {
        for dy in -reach..=reach {
            for dx in -reach..=reach {
                plot(x + dx, y + dy);
            }
        }
    }
}

/// Renders the picture and writes it as a PNG file.
pub fn write_png(picture: &Picture, scale: usize, path: &Path) -> Result<(), CliError> {
    let (width, height, pixels) = render(picture, scale);
    write_rgb_png(width, height, &pixels, path)
}

/// A flow field drawn over its map.
pub struct FieldPicture<'a> {
    /// The terrain.
    pub grid: &'a TerrainGrid,
    /// The field, built on that terrain.
    pub field: &'a FlowField,
}

/// Colour of the anchor nearest its goal, in the field's heat map.
const NEAR: [f32; 3] = [250.0, 236.0, 120.0];
/// Colour of the reached anchor farthest from its goal.
const FAR: [f32; 3] = [70.0, 40.0, 150.0];
/// Colour of the next-step marks.
const MARK: [u8; 3] = [20, 20, 20];
/// Colour of the goals' footprints.
const GOAL: [u8; 3] = [220, 40, 40];
/// The smallest scale that draws next-step marks: below it a cell is too small to show one.
pub const MIN_MARK_SCALE: usize = 5;

/// Renders a flow field to RGB pixels, `scale` pixels per cell: each reached anchor coloured
/// by its cost to the nearest goal (light yellow near, dark violet far), the goals' footprints
/// in red, everything else in its terrain colour, darkened where the unit does not fit or the
/// field did not reach. From [`MIN_MARK_SCALE`] pixels per cell up, each reached anchor also
/// gets a dark mark: a dot at the cell's centre and a line from it towards the next anchor.
pub fn render_field(picture: &FieldPicture, scale: usize) -> (usize, usize, Vec<u8>) {
    let (grid, field) = (picture.grid, picture.field);
    let (width, height) = (grid.width(), grid.height());
    let largest = field.max_cost().max(f64::MIN_POSITIVE);
    let mut on_goal = vec![false; width * height];
    let goals: Vec<Cell> = field.goals().to_vec();
    for cell in path_footprints(&goals, field.agent_size()) {
        if let Some(index) = grid.index_of(cell) {
            on_goal[index] = true;
        }
    }
    let colour_of = |index: usize| -> [u8; 3] {
        if on_goal[index] {
            return GOAL;
        }
        match field.cost(grid.cell_at(index)) {
            Some(cost) => {
                let heat = (clearance_core::cost_to_f64(cost) / largest) as f32;
                std::array::from_fn(|c| (NEAR[c] + (FAR[c] - NEAR[c]) * heat) as u8)
            }
            None => terrain_colour(grid.as_bytes()[index]).map(|c| c / 2),
        }
    };
    let (pixel_width, pixel_height, mut pixels) = paint_cells(width, height, scale, colour_of);
    if scale >= MIN_MARK_SCALE {
        let mut plot = |x: usize, y: usize| {
            let at = (y * pixel_width + x) * 3;
            pixels[at..at + 3].copy_from_slice(&MARK);
        };
        let reach = (scale / 2) as i64 - 1;
        for index in 0..width * height {
            let cell = grid.cell_at(index);
            let Some(next) = field.next_anchor(cell) else {
                continue;
            };
            let (dx, dy) = (i64::from(next.x - cell.x), i64::from(next.y - cell.y));
            let centre_x = ((index % width) * scale + scale / 2) as i64;
            let centre_y = ((index / width) * scale + scale / 2) as i64;
            for step in 0..=reach {
                plot(
                    (centre_x + dx * step) as usize,
                    (centre_y + dy * step) as usize,
                );
            }
            // A second pixel across the start makes the dot, so the mark reads as an arrow
            // leaving it.
            plot(
                (centre_x - dy.signum()) as usize,
                (centre_y - dx.signum()) as usize,
            );
        }
    }
    (pixel_width, pixel_height, pixels)
}

/// Renders a flow field and writes it as a PNG file.
pub fn write_field_png(picture: &FieldPicture, scale: usize, path: &Path) -> Result<(), CliError> {
    let (width, height, pixels) = render_field(picture, scale);
    write_rgb_png(width, height, &pixels, path)
}

/// A movement range drawn over its map.
pub struct RangePicture<'a> {
    /// The terrain.
    pub grid: &'a TerrainGrid,
    /// Every anchor to tint, with its cost (1.0 per straight step at multiplier 1).
    pub cells: &'a [(Cell, f64)],
    /// The anchors on the range's border, marked with a dot.
    pub border: &'a [Cell],
    /// The range's start anchor.
    pub start: Cell,
    /// The agent size the range is for (its start and path are drawn as footprints).
    pub agent_size: u8,
    /// Anchors of a path to draw over the range, possibly empty.
    pub path: &'a [Cell],
    /// Units standing on the map, drawn in violet where no anchor in range is, possibly none.
    pub units: &'a [UnitEntry],
}

/// Renders a movement range to RGB pixels, `scale` pixels per cell: each anchor of `cells`
/// coloured by its cost (light yellow at the start, dark violet at the dearest), the start's
/// footprint and the path's footprint cells in red, units' cells elsewhere in violet, and
/// everything else in its terrain colour, darkened. From [`MIN_MARK_SCALE`] pixels per cell
/// up, each border anchor also gets a dark dot at its centre.
pub fn render_range(picture: &RangePicture, scale: usize) -> (usize, usize, Vec<u8>) {
    let grid = picture.grid;
    let (width, height) = (grid.width(), grid.height());
    let largest = (picture.cells.iter())
        .map(|&(_, cost)| cost)
        .fold(f64::MIN_POSITIVE, f64::max);
    let mut cost = vec![None; width * height];
    for &(cell, value) in picture.cells {
        if let Some(index) = grid.index_of(cell) {
            cost[index] = Some(value);
        }
    }
    let mut marked = vec![false; width * height];
    let mark = |cells: &[Cell], size: u8, marked: &mut [bool]| {
        for cell in path_footprints(cells, size) {
            if let Some(index) = grid.index_of(cell) {
                marked[index] = true;
            }
        }
    };
    let mut on_path = vec![false; width * height];
    mark(picture.path, picture.agent_size, &mut on_path);
    mark(&[picture.start], picture.agent_size, &mut on_path);
    for unit in picture.units {
        if let Some(size) = checked_agent_size(unit.size) {
            mark(&[unit.anchor], size, &mut marked);
        }
    }
    let colour_of = |index: usize| -> [u8; 3] {
        if on_path[index] {
            return GOAL;
        }
        match cost[index] {
            Some(cost) => {
                let heat = (cost / largest) as f32;
                std::array::from_fn(|c| (NEAR[c] + (FAR[c] - NEAR[c]) * heat) as u8)
            }
            None if marked[index] => UNIT,
            None => terrain_colour(grid.as_bytes()[index]).map(|c| c / 2),
        }
    };
    let (pixel_width, pixel_height, mut pixels) = paint_cells(width, height, scale, colour_of);
    if scale >= MIN_MARK_SCALE {
        let dot = (scale / 5).max(1);
        for &cell in picture.border {
            let Some(index) = grid.index_of(cell) else {
                continue;
            };
            let left = (index % width) * scale + (scale - dot) / 2;
            let top = (index / width) * scale + (scale - dot) / 2;
            for y in top..top + dot {
                for x in left..left + dot {
                    let at = (y * pixel_width + x) * 3;
                    pixels[at..at + 3].copy_from_slice(&MARK);
                }
            }
        }
    }
    (pixel_width, pixel_height, pixels)
}

/// Renders a movement range and writes it as a PNG file.
pub fn write_range_png(picture: &RangePicture, scale: usize, path: &Path) -> Result<(), CliError> {
    let (width, height, pixels) = render_range(picture, scale);
    write_rgb_png(width, height, &pixels, path)
}

/// Writes RGB pixels, row by row, as a PNG file.
fn write_rgb_png(width: usize, height: usize, pixels: &[u8], path: &Path) -> Result<(), CliError> {
    let file = std::fs::File::create(path).map_err(|source| CliError::io(path, source))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encoding = |error: png::EncodingError| CliError::invalid(path, error.to_string());
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(pixels).map_err(encoding)?;
    writer.finish().map_err(encoding)
}

/// RGB pixels of a `width x height` grid of cells, `scale` pixels a side per cell, each cell
/// in `colour_of(its storage index)`: (pixel width, pixel height, pixels).
fn paint_cells(
    width: usize,
    height: usize,
    scale: usize,
    colour_of: impl Fn(usize) -> [u8; 3],
) -> (usize, usize, Vec<u8>) {
    let (pixel_width, pixel_height) = (width * scale, height * scale);
    let mut pixels = vec![0u8; pixel_width * pixel_height * 3];
    for y in 0..pixel_height {
        for x in 0..pixel_width {
            let colour = colour_of((y / scale) * width + x / scale);
            let at = (y * pixel_width + x) * 3;
            pixels[at..at + 3].copy_from_slice(&colour);
        }
    }
    (pixel_width, pixel_height, pixels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clearance_core::Region;

    #[test]
    fn cells_where_the_agent_does_not_fit_are_darkened() {
        // Swamp the agent may not enter (clearance 0), then too narrow (1), then wide enough.
        let grid = TerrainGrid::new(Region::new(0, 0, 3, 1), b'S').unwrap();
        let clearance = clearance_core::PagedVec::from(vec![0u8, 1, 2]);
        let picture = Picture {
            grid: &grid,
            clearance: &clearance,
            agent_size: 2,
            path: &[],
            units: &[],
            waypoints: &[],
        };
        let (_, _, pixels) = render(&picture, 1);
        let swamp = terrain_colour(b'S');
        let darkened = swamp.map(|c| c / 2);
        assert_eq!(pixels[0..3], darkened);
        assert_eq!(pixels[3..6], darkened);
        assert!((0..3).all(|channel| pixels[6 + channel] > darkened[channel]));
    }

    #[test]
    fn waypoints_are_joined_by_lines_between_footprint_centres() {
        let grid = TerrainGrid::new(Region::new(0, 0, 10, 4), b'.').unwrap();
        let clearance = clearance_core::PagedVec::from(vec![1u8; 40]);
        let waypoints = [Cell::new(0, 0), Cell::new(9, 0), Cell::new(9, 3)];
        let picture = Picture {
            grid: &grid,
            clearance: &clearance,
            agent_size: 1,
            path: &[],
            units: &[],
            waypoints: &waypoints,
        };
        let (width, height, pixels) = render(&picture, 4);
        assert_eq!((width, height), (40, 16));
        let colour = |x: usize, y: usize| -> [u8; 3] {
            let at = (y * width + x) * 3;
            [pixels[at], pixels[at + 1], pixels[at + 2]]
        };
        // Along row 2 from the first centre (2, 2) to the second (38, 2), then down column 38.
        assert!((2..=38).all(|x| colour(x, 2) == WAYPOINT));
        assert!((2..=14).all(|y| colour(38, y) == WAYPOINT));
        assert_ne!(colour(20, 8), WAYPOINT);
        assert_ne!(colour(2, 14), WAYPOINT);
    }
}
