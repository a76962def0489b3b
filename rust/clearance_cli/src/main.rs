//! `clearance`: find paths for agents of any size on Moving AI maps (alone or among other
//! units), check scenario files against their published optima, render maps, draw flow fields,
//! choose arrival slots for group orders, show movement ranges and test straight moves, without
//! Godot.
//!
//! Exit status: 0 when the command did what was asked, 1 when a query failed or a scenario
//! cost did not match, 2 when the input was bad (one line on stderr says why). A reader that
//! closes standard output early (`| head`) ends the command quietly, with status 0.

mod commands;

use clap::{Parser, Subcommand};
use commands::{field, path, range, render, scen, slots, straight};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "clearance", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find an optimal path and print it drawn on the map (footprints marked `*`, other units
    /// `u`).
    Path(path::PathArgs),
    /// Run every problem of a Moving AI scenario file (8-way, size 1, no corner cutting; with
    /// --units, among those units) and check each cost against the published optimum. Exits 0
    /// only if all match.
    Scen(scen::ScenArgs),
    /// Write a PNG of terrain, a clearance heat map and (with --from and --to) a path.
    Render(render::RenderArgs),
    /// Build a flow field to one goal or the nearest of several: write it as a PNG (cost heat
    /// map and next-step marks) and, with --from, each start's path (--json: as `path --json`).
    Field(field::FieldArgs),
    /// Choose where each member of a group order stops around a target: slots that overlap
    /// no other slot and no unit outside the group, each reachable by its member, nearest the
    /// target first (--json: one {"id", "anchor"} per member).
    Slots(slots::SlotsArgs),
    /// Show where a unit can go with a budget of movement points (per turn, for --turns
    /// turns), what each anchor costs, and with --to the way there: drawn on the map (in range
    /// `+` or by turn, border `#`, start `s`, path `*`), as JSON (--json) or as a PNG (--out).
    Range(range::RangeArgs),
    /// Whether the unit's whole square may move in a straight line from --from to --to: only
    /// over terrain its profile enters and, with --others block, past no other unit (the rule
    /// taut waypoints keep, without their cost bound). Exits 0 if the way is clear.
    Straight(straight::StraightArgs),
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Path(args) => path::run(&args),
        Command::Scen(args) => scen::run(&args),
        Command::Render(args) => render::run(&args),
        Command::Field(args) => field::run(&args),
        Command::Slots(args) => slots::run(&args),
        Command::Range(args) => range::run(&args),
        Command::Straight(args) => straight::run(&args),
    };
    match outcome {
        Ok(code) => code,
        // The reader of standard output has what it wanted (`clearance ... | head`).
        Err(error) if error.is_closed_output() => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}
