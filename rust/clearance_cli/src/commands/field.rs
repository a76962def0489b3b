//! `clearance field`: a flow field to one goal or the nearest of several, drawn as a PNG heat
//! map with next-step marks, and (with `--from`) the path from each start (with `--smooth`,
//! and its taut waypoints), as lines or JSON.

use super::agent::{describe, parse_cell, UnitArgs};
use super::occupancy::OccupancyArgs;
use super::render::scale_if_drawn;
use super::{add_waypoints, describe_waypoints, exit_status, result_json};
use clap::Args;
use clearance_cli::render::{write_field_png, FieldPicture};
use clearance_cli::CliError;
use clearance_core::{Cell, FlowField, FlowFieldOptions, PathCode, PathMap, PathResult};
use std::path::PathBuf;
use std::process::ExitCode;

/// `clearance field`: the map, the goals, optional starts, the outputs and the unit.
#[derive(Args)]
pub struct FieldArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    /// A goal anchor, as X,Y; repeat for several goals (each anchor then leads to the
    /// nearest).
    #[arg(long, required = true, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Vec<Cell>,
    /// A start anchor, as X,Y; repeat for several. Each gets its path to the nearest goal.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    from: Vec<Cell>,
    /// The PNG file to write: each reached anchor coloured by its cost to the nearest goal
    /// (light near, dark far), goals red, and from 5 pixels per cell up a mark towards each
    /// anchor's next step.
    #[arg(long, required_unless_present = "json")]
    out: Option<PathBuf>,
    /// Pixels per cell in the PNG (default: as many as keep it within 1024 pixels).
    #[arg(long, requires = "out", value_parser = clap::value_parser!(u16).range(1..=64))]
    scale: Option<u16>,
    /// Print a JSON array with one result per --from, in order, each written as `path --json`
    /// writes one.
    #[arg(long, requires = "from")]
    json: bool,
    /// Also give each start's path its taut waypoints (JSON keys `waypoints` and
    /// `waypoint_length`), by the field's rules: the units of --units count by --others, but
    /// --unit-id.
    #[arg(long, requires = "from")]
    smooth: bool,
    #[command(flatten)]
    unit: UnitArgs,
    #[command(flatten)]
    occupancy: OccupancyArgs,
}

/// Builds the field (bounded to settle the starts when there is no picture to draw), answers
/// each start, and writes the picture. Exits 0 if the field was built and every start reached
/// a goal, 1 otherwise. The units of `--units` count by `--others`, but `--unit-id`, which
/// does not count: a start that overlaps a counted unit is not reached under `block`.
pub fn run(args: &FieldArgs) -> Result<ExitCode, CliError> {
    let unit = &args.unit;
    let (map, mut path_map) = unit.load(&args.map)?;
    // A picture too big to make is refused before any work.
    let scale = scale_if_drawn(args.out.as_deref(), args.scale, &map.grid)?;
    args.occupancy.place_on(&mut path_map)?;
    let options = match args.out {
        // The picture shows the whole field.
        Some(_) => FlowFieldOptions::new(),
        None => FlowFieldOptions::new().settle(&args.from),
    }
    .other_units(args.occupancy.rule(), args.occupancy.exempt());
    let field = path_map.flow_field(&args.to, unit.size, unit.profile(), options);
    let mut results = answers(&path_map, &field, args);
    if args.smooth {
        let rules = (args.occupancy.rule(), args.occupancy.exempt());
        for result in &mut results {
            add_waypoints(&path_map, result, unit, rules)?;
        }
    }
    if args.json {
        let array = results.iter().map(result_json).collect();
        say!("{}", serde_json::Value::Array(array));
    } else if field.is_ok() || args.to.len() == 1 {
        // With several goals, a refused field's line below says why; which goal each start
        // would have gone to is not known.
        for (&from, result) in args.from.iter().zip(&results) {
            let goal = result.path.last().copied().unwrap_or(args.to[0]);
            say!("{}", describe(result, from, goal, unit));
            if !result.waypoints.is_empty() {
                say!("{}", describe_waypoints(result));
            }
        }
    }
    let field = match field {
        Ok(field) => field,
        Err(code) => {
            if !args.json {
                let goals: Vec<String> = args.to.iter().map(Cell::to_string).collect();
                say!(
                    "{code}: no field for size {} ({}) to {}",
                    unit.size,
                    unit.profile(),
                    goals.join(", ")
                );
            }
            return Ok(exit_status(false));
        }
    };
    if let Some((out, scale)) = args.out.as_ref().zip(scale) {
        let picture = FieldPicture {
            grid: &map.grid,
            field: &field,
        };
        write_field_png(&picture, scale, out)?;
        if !args.json {
            say!(
                "field of size {} ({}): {} anchors reached; wrote {}",
                unit.size,
                unit.profile(),
                field.reached_count(),
                out.display()
            );
        }
    }
    Ok(exit_status(results.iter().all(PathResult::is_ok)))
}

/// One result per start, in order: with one goal what `path` answers (the same codes in the
/// same order, from `find_paths_to_counting`; but a start on a counted unit is `NO_PATH`
/// under `block`, where `path` lets the unit walk out); with several, the field's path to the
/// nearest.
fn answers(
    path_map: &PathMap,
    field: &Result<FlowField, PathCode>,
    args: &FieldArgs,
) -> Vec<PathResult> {
    let unit = &args.unit;
    if let [goal] = args.to[..] {
        return path_map.find_paths_to_counting(
            goal,
            &args.from,
            unit.size,
            unit.profile(),
            args.occupancy.rule(),
            args.occupancy.exempt(),
        );
    }
    let failure = PathResult::failure;
    args.from
        .iter()
        .map(|&start| match field {
            Ok(field) => field.path_from(start),
            Err(code) => failure(*code),
        })
        .collect()
}
