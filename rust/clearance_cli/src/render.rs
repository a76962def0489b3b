//! PNG pictures of a map: terrain, a clearance heat map and a path.

use crate::draw::path_footprints;
use crate::error::CliError;
use clearance_core::{Cell, TerrainGrid};
use std::path::Path;

/// What to draw.
pub struct Picture<'a> {
    /// The terrain.
    pub grid: &'a TerrainGrid,
    /// Clearance of each cell for the chosen profile (same order as the grid's cells).
    pub clearance: &'a [u8],
    /// The agent size the path is for; cells with clearance below it are drawn darker.
    pub agent_size: u8,
    /// Anchors of a path to draw, possibly empty.
    pub path: &'a [Cell],
}

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
/// does not fit, and the path's footprint cells in red.
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
    let colour_of = |index: usize| -> [u8; 3] {
        if on_path[index] {
            return [220, 40, 40];
        }
        let base = terrain_colour(grid.as_bytes()[index]);
        let clearance = picture.clearance[index];
        if clearance == 0 {
            return base;
        }
        if clearance < picture.agent_size {
            return base.map(|c| c / 2);
        }
        let heat = f32::from(clearance) / f32::from(largest);
        base.map(|c| (f32::from(c) * (0.55 + 0.45 * heat)) as u8)
    };
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

/// Renders the picture and writes it as a PNG file.
pub fn write_png(picture: &Picture, scale: usize, path: &Path) -> Result<(), CliError> {
    let (width, height, pixels) = render(picture, scale);
    let file = std::fs::File::create(path).map_err(|source| CliError::io(path, source))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width as u32, height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let encoding = |error: png::EncodingError| CliError::invalid(path, error.to_string());
    let mut writer = encoder.write_header().map_err(encoding)?;
    writer.write_image_data(&pixels).map_err(encoding)?;
    writer.finish().map_err(encoding)
}
