//! `clearance path`: one query, drawn on the map (with the units standing on it) or written as
//! JSON.

use super::agent::{describe, AgentArgs, EndpointArgs};
use super::{describe_waypoints, exit_status, result_json};
use clap::Args;
use clearance_cli::draw::{Sketch, UNIT_MARK};
use clearance_cli::CliError;
use std::path::PathBuf;
use std::process::ExitCode;

/// `clearance path`: the map, the endpoints, the agent, and the output format.
#[derive(Args)]
pub struct PathArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    #[command(flatten)]
    ends: EndpointArgs,
    #[command(flatten)]
    agent: AgentArgs,
    /// Print one JSON object instead of the drawing.
    #[arg(long)]
    json: bool,
}

/// Runs the query and prints the result: the map with the other units (`u`), the path's
/// footprints and, with `--smooth`, its waypoints (`o`), and a line that describes it (and one
/// for the waypoints); or one JSON object. Exits 0 only if the goal was
/// reached.
pub fn run(args: &PathArgs) -> Result<ExitCode, CliError> {
    let agent = &args.agent;
    let (map, path_map, units) = agent.load(&args.map)?;
    let result = path_map.query(&agent.query(args.ends.from, args.ends.to));
    if args.json {
        say!("{}", result_json(&result));
    } else {
        if !result.path.is_empty() {
            let mut sketch = Sketch::new(&map.grid);
            for unit in agent.occupancy.others(&units) {
                sketch.mark_footprint(unit.anchor, unit.size, UNIT_MARK);
            }
            // A query returns a path only for a legal size, which fits in an i32.
            sketch.mark_path(&result.path, agent.unit.size as i32);
            sketch.mark_waypoints(&result.waypoints);
            say!(raw: "{sketch}");
        }
        say!(
            "{}",
            describe(&result, args.ends.from, args.ends.to, &agent.unit)
        );
        if agent.smooth && !result.waypoints.is_empty() {
            say!("{}", describe_waypoints(&result));
        }
    }
    Ok(exit_status(result.is_ok()))
}
