//! `clearance straight`: whether the unit's square may move in a straight line from one anchor
//! to another, by the rule taut waypoints keep without their cost bound.

use super::agent::{EndpointArgs, UnitArgs};
use super::exit_status;
use super::occupancy::OccupancyArgs;
use clap::Args;
use clearance_cli::CliError;
use clearance_core::SmoothingError;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// `clearance straight`: the map, the two anchors, the unit and the units around it.
#[derive(Args)]
pub struct StraightArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    #[command(flatten)]
    ends: EndpointArgs,
    #[command(flatten)]
    unit: UnitArgs,
    #[command(flatten)]
    occupancy: OccupancyArgs,
    /// Print one JSON object: {"clear": true} or {"clear": false, "blocked_cell": [X, Y]}.
    #[arg(long)]
    json: bool,
}

/// Tests the move and prints `clear` or the cell in the way. Exits 0 only if it is clear; bad
/// input (a size outside 1 to 255, an anchor off the map or where the unit does not fit, an
/// unknown unit) is a usage error.
pub fn run(args: &StraightArgs) -> Result<ExitCode, CliError> {
    args.unit.checked_size()?;
    let (_, mut path_map) = args.unit.load(&args.map)?;
    args.occupancy.place_on(&mut path_map)?;
    let in_the_way = path_map
        .straight_move_blocker(
            args.ends.from,
            args.ends.to,
            args.unit.size,
            args.unit.profile(),
            args.occupancy.rule(),
            args.occupancy.exempt(),
        )
        .map_err(|error| CliError::Usage(named_by_flag(error)))?;
    let (from, to) = (args.ends.from, args.ends.to);
    match (args.json, in_the_way) {
        (true, None) => say!("{}", json!({ "clear": true })),
        (true, Some(cell)) => say!(
            "{}",
            json!({ "clear": false, "blocked_cell": [cell.x, cell.y] })
        ),
        (false, None) => say!("clear: size {} from {from} to {to}", args.unit.size),
        (false, Some(cell)) => say!(
            "blocked: size {} from {from} to {to} sweeps {cell}",
            args.unit.size
        ),
    }
    Ok(exit_status(in_the_way.is_none()))
}

/// The error's message, naming an anchor by its flag rather than by its place in a path.
fn named_by_flag(error: SmoothingError) -> String {
    let flag = |index: usize| if index == 0 { "--from" } else { "--to" };
    match error {
        SmoothingError::AnchorOutOfBounds { index, anchor } => {
            format!("{} {anchor} lies outside the map", flag(index))
        }
        SmoothingError::AnchorNotLegal { index, anchor } => {
            format!("the unit does not fit at {} {anchor}", flag(index))
        }
        other => other.to_string(),
    }
}
