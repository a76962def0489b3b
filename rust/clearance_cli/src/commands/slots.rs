//! `clearance slots`: where each member of a group order should stop around its target, so
//! that a selection sent to one cell spreads out instead of piling on one anchor.

use super::agent::{parse_cell, ProfileArgs};
use super::occupancy::named_units;
use super::{describe_waypoints, exit_status, result_json, smoothing_of};
use clap::Args;
use clearance_cli::draw::{Sketch, UNIT_MARK};
use clearance_cli::units::{place_units, read_units, UnitEntry};
use clearance_cli::CliError;
use clearance_core::{Cell, PathResult, SlotPathOptions, SlotRequest, UnitId};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// The mark on the target cell in the drawing (where no slot covers it).
const TARGET_MARK: char = '+';
/// The mark on the slots of members past the 26th, which have no letter.
const UNLETTERED_SLOT_MARK: char = '#';

/// `clearance slots`: the map, the target, the units and the group, and the output format.
#[derive(Args)]
pub struct SlotsArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    /// The target of the group order, as X,Y.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Cell,
    /// A JSON file of units standing on the map: [{"id": 1, "anchor": [X, Y], "size": K}, ...].
    /// The members of --group start where they stand; the others keep their place and block.
    #[arg(long, value_name = "FILE")]
    units: PathBuf,
    /// The ids of the group's members, units of --units, as ID,ID,...: the slots come out in
    /// this order.
    #[arg(
        long,
        required = true,
        value_name = "IDS",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    group: Vec<UnitId>,
    // The profile every member moves by, and the movement rule.
    #[command(flatten)]
    rules: ProfileArgs,
    /// Print a JSON array, one {"id": N, "anchor": [X, Y]} per member in --group order
    /// ("anchor": null for a member that can reach no free slot), instead of the listing.
    #[arg(long)]
    json: bool,
    /// Also send each member to its slot, round the units outside the group (the group
    /// exempt), and print the path: in JSON, "result" with the keys of `path --json`.
    #[arg(long)]
    paths: bool,
    /// With --paths, also give each path its taut waypoints (JSON keys `waypoints` and
    /// `waypoint_length` in "result").
    #[arg(long, requires = "paths")]
    smooth: bool,
}

/// Chooses the slots (and with `--paths` the way to each) and prints them: a line per member
/// and the map with the slots lettered, or one JSON array. Exits 0 only if every member got a
/// slot (and a path).
pub fn run(args: &SlotsArgs) -> Result<ExitCode, CliError> {
    let (map, mut path_map) = args.rules.load(&args.map)?;
    let units = read_units(&args.units)?;
    place_units(&mut path_map, &units, &args.units)?;
    let members = named_units("--group", &args.group, &units, &args.units)?;
    let requests: Vec<SlotRequest<'_>> = members
        .iter()
        .map(|member| SlotRequest {
            id: member.id,
            start: member.anchor,
            agent_size: member.size,
            profile: &args.rules.profile,
        })
        .collect();
    let refused = |error| CliError::Usage(format!("--to {},{}: {error}", args.to.x, args.to.y));
    let (slots, results): (Vec<Option<Cell>>, Option<Vec<PathResult>>) = if args.paths {
        let options = SlotPathOptions::new().smoothing(smoothing_of(args.smooth));
        let order =
            (path_map.find_paths_to_slots(args.to, &requests, &options)).map_err(refused)?;
        let (slots, results) = order
            .into_iter()
            .map(|sent| (sent.slot, sent.result))
            .unzip();
        (slots, Some(results))
    } else {
        (
            path_map
                .arrival_slots(args.to, &requests)
                .map_err(refused)?,
            None,
        )
    };
    if args.json {
        let array = (members.iter().zip(&slots).enumerate())
            .map(|(position, (member, slot))| {
                let mut entry =
                    json!({"id": member.id, "anchor": slot.map(|cell| [cell.x, cell.y])});
                if let Some(results) = &results {
                    entry["result"] = result_json(&results[position]);
                }
                entry
            })
            .collect();
        say!("{}", serde_json::Value::Array(array));
    } else {
        print_listing(
            args,
            &map.grid,
            &units,
            &members,
            &slots,
            results.as_deref(),
        )?;
    }
    let every_path = results.is_none_or(|results| results.iter().all(PathResult::is_ok));
    Ok(exit_status(slots.iter().all(Option::is_some) && every_path))
}

/// The mark of the `position`th member's slot: `A` to `Z`, then `#`.
fn slot_mark(position: usize) -> char {
    (b'A'..=b'Z')
        .nth(position)
        .map_or(UNLETTERED_SLOT_MARK, char::from)
}

/// A line per member (its mark, id, size, start and slot), then the map with the other units
/// marked `u`, the target `+` and each slot's footprint in its member's mark.
fn print_listing(
    args: &SlotsArgs,
    grid: &clearance_core::TerrainGrid,
    units: &[UnitEntry],
    members: &[UnitEntry],
    slots: &[Option<Cell>],
    results: Option<&[PathResult]>,
) -> Result<(), CliError> {
    let others = units.len() - members.len();
    say!(
        "{} members to {} ({}); {others} other unit{} on the map",
        members.len(),
        args.to,
        args.rules.profile,
        if others == 1 { "" } else { "s" }
    );
    let mut sketch = Sketch::new(grid);
    for unit in units.iter().filter(|unit| !args.group.contains(&unit.id)) {
        sketch.mark_footprint(unit.anchor, unit.size, UNIT_MARK);
    }
    sketch.mark(args.to, TARGET_MARK);
    for (position, (member, slot)) in members.iter().zip(slots).enumerate() {
        let mark = slot_mark(position);
        let place = match slot {
            Some(slot) => {
                sketch.mark_footprint(*slot, member.size, mark);
                format!("slot {slot}")
            }
            None => "no free slot it can reach".to_owned(),
        };
        let way = match results.map(|results| &results[position]) {
            Some(result) if result.is_ok() => {
                let waypoints = if args.smooth {
                    format!("; {}", describe_waypoints(result))
                } else {
                    String::new()
                };
                format!(
                    "; path of {} steps, cost {:.4}{waypoints}",
                    result.path.len() - 1,
                    result.total_cost()
                )
            }
            Some(result) if slot.is_some() => format!("; no path: {}", result.code),
            _ => String::new(),
        };
        say!(
            "{mark} unit {}, size {}, from {}: {place}{way}",
            member.id,
            member.size,
            member.anchor
        );
    }
    say!(raw: "{sketch}");
    Ok(())
}
