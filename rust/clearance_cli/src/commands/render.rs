//! `clearance render`: a PNG of the map, its clearance, and optionally the units standing on it
//! and one query's path (with `--smooth`, its waypoints joined by straight lines).

use super::agent::{describe, parse_cell, AgentArgs};
use super::exit_status;
use clap::Args;
use clearance_cli::render::{write_png, Picture};
use clearance_cli::CliError;
use clearance_core::{Cell, TerrainGrid};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The longest side, in pixels, that the default scale keeps the picture within.
const DEFAULT_PICTURE_SIDE: usize = 1024;
/// The most pixels per cell the default scale gives a small map.
const MAX_DEFAULT_SCALE: usize = 16;

/// `clearance render`: the map, the picture file, optional endpoints, the scale, and the agent.
#[derive(Args)]
pub struct RenderArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    /// The PNG file to write.
    #[arg(long)]
    out: PathBuf,
    /// Start anchor, as X,Y.
    #[arg(long, value_parser = parse_cell, requires = "to", allow_hyphen_values = true)]
    from: Option<Cell>,
    /// Goal anchor, as X,Y.
    #[arg(long, value_parser = parse_cell, requires = "from", allow_hyphen_values = true)]
    to: Option<Cell>,
    /// Pixels per cell (default: as many as keep the picture within 1024 pixels).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
    scale: Option<u16>,
    #[command(flatten)]
    agent: AgentArgs,
}

/// The most pixels a picture may have (a 8192 x 8192 one, 192 MiB of RGB): `--scale` on a
/// big map would otherwise ask for more memory than the machine has.
const MAX_PICTURE_PIXELS: usize = 1 << 26;

/// Pixels per cell: `scale`, or the most that keep the picture within
/// [`DEFAULT_PICTURE_SIDE`] (at least 1, at most [`MAX_DEFAULT_SCALE`]). A picture of more than
/// [`MAX_PICTURE_PIXELS`] is a usage error that says which scale fits.
pub fn picture_scale(scale: Option<u16>, grid: &TerrainGrid) -> Result<usize, CliError> {
    let longest_side = grid.width().max(grid.height());
    let scale = scale.map_or(
        (DEFAULT_PICTURE_SIDE / longest_side).clamp(1, MAX_DEFAULT_SCALE),
        usize::from,
    );
    let cells = grid.width() * grid.height();
    if cells.saturating_mul(scale * scale) <= MAX_PICTURE_PIXELS {
        return Ok(scale);
    }
    let (width, height) = (grid.width() * scale, grid.height() * scale);
    let advice = match (MAX_PICTURE_PIXELS / cells).isqrt() {
        0 => "the map is too big to draw".to_owned(),
        fitting => format!("use --scale {fitting} or less"),
    };
    Err(CliError::Usage(format!(
        "a picture of {width} x {height} pixels at {scale} per cell is more than \
         {MAX_PICTURE_PIXELS} pixels; {advice}"
    )))
}

/// With a picture to write (`out`), its [`picture_scale`]; `None` without one.
pub fn scale_if_drawn(
    out: Option<&Path>,
    scale: Option<u16>,
    grid: &TerrainGrid,
) -> Result<Option<usize>, CliError> {
    out.map(|_| picture_scale(scale, grid)).transpose()
}

/// Writes the picture (with the units of `--units`); with endpoints, first runs the query and
/// prints the line that describes its result. Exits 0 unless that query failed.
pub fn run(args: &RenderArgs) -> Result<ExitCode, CliError> {
    let agent = &args.agent;
    let (map, path_map, units) = agent.load(&args.map)?;
    let agent_size = agent.unit.checked_size()?;
    let (found, path, waypoints) = match args.from.zip(args.to) {
        Some((from, to)) => {
            let result = path_map.query(&agent.query(from, to));
            say!("{}", describe(&result, from, to, &agent.unit));
            (result.is_ok(), result.path, result.waypoints)
        }
        None => (true, Vec::new(), Vec::new()),
    };
    let clearance = path_map
        .clearance_layer(agent.unit.profile())
        .ok_or_else(|| {
            CliError::Usage(format!(
                "the clearance layer of {} would exceed the cache memory limit",
                agent.unit.profile()
            ))
        })?;
    let picture = Picture {
        grid: &map.grid,
        clearance: clearance.values(),
        agent_size,
        path: &path,
        units: &units,
        waypoints: &waypoints,
    };
    write_png(&picture, picture_scale(args.scale, &map.grid)?, &args.out)?;
    say!("wrote {}", args.out.display());
    Ok(exit_status(found))
}
