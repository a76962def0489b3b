//! `clearance range`: where a unit can go with its movement points, what each destination
//! costs, and (with `--to`) the way to one of them; drawn on the map, written as JSON, or
//! painted as a PNG.

use super::agent::{parse_cell, UnitArgs};
use super::occupancy::{named_units, OccupancyArgs};
use super::render::scale_if_drawn;
use super::{add_waypoints, describe_waypoints, exit_status, field_json};
use clap::Args;
use clearance_cli::draw::{Sketch, START_MARK, UNIT_MARK};
use clearance_cli::render::{write_range_png, RangePicture};
use clearance_cli::units::UnitEntry;
use clearance_cli::CliError;
use clearance_core::{
    cost_to_f64, Cell, MovementRange, PathCode, PathMap, PathResult, RangeError, RangeOptions,
    ResultField, TerrainGrid, UnitId, MAX_TURNS,
};
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::process::ExitCode;

/// The mark on an anchor in range, in the drawing of a one-turn range.
const RANGE_MARK: char = '+';
/// The mark on an anchor on the border of this turn's range.
const BORDER_MARK: char = '#';
/// The mark on the cells of an ally (passable, not a destination).
const ALLY_MARK: char = 'a';
/// The mark on anchors that need 10 turns or more, in the drawing of a multi-turn range.
const LATE_TURN_MARK: char = '+';

/// `clearance range`: the map, the start and budget, the unit, the units around it, and the
/// outputs.
#[derive(Args)]
pub struct RangeArgs {
    /// A Moving AI `.map` file.
    map: PathBuf,
    /// Start anchor (top-left cell of the footprint), as X,Y.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    from: Cell,
    /// Movement points per turn: 1.0 buys one straight step at multiplier 1 (a diagonal costs
    /// sqrt 2 times a straight step). A number from 0 to 1e9; an anchor whose cost is exactly
    /// the budget is in range.
    #[arg(long, value_name = "B", allow_hyphen_values = true)]
    budget: f64,
    /// An anchor to show the way to, as X,Y: the path and its cost, if it is reached within
    /// the turns (exit status 1 if not).
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    to: Option<Cell>,
    /// Count this many turns of the budget (1 to 1000): every anchor reached within them is
    /// listed with the turns it needs (a turn spends at most the budget and a step never spans
    /// two turns; the drawing marks anchors by turn, 1 to 9, then `+`).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_TURNS))
    )]
    turns: u32,
    #[command(flatten)]
    unit: UnitArgs,
    #[command(flatten)]
    occupancy: OccupancyArgs,
    /// Allies, units of --units, as ID,ID,...: their footprints may be passed through but not
    /// stopped on (--others then counts only the units that are neither allies nor the mover).
    #[arg(
        long,
        value_name = "IDS",
        value_delimiter = ',',
        requires = "units",
        allow_hyphen_values = true
    )]
    allies: Vec<UnitId>,
    /// With --to: also the way's taut waypoints, straight lines the unit's square may walk by
    /// the range's rules (allies may be crossed); JSON keys "waypoints" and "waypoint_length",
    /// drawn as `o`.
    #[arg(long, requires = "to")]
    smooth: bool,
    /// Print one JSON object instead of the drawing: {"code", "cells": [{"anchor": [x, y],
    /// "cost": c}, ...] by row, "border": [[x, y], ...]} ("turns" on each cell with --turns
    /// above 1; "to_code", "path" and "total_cost" with --to).
    #[arg(long)]
    json: bool,
    /// Write a PNG instead of the drawing: each anchor reached tinted by its cost (light near,
    /// dark far), the border dotted (from 5 pixels per cell), the start and the --to path red.
    #[arg(long, value_name = "FILE.png")]
    out: Option<PathBuf>,
    /// Pixels per cell in the PNG (default: as many as keep it within 1024 pixels).
    #[arg(long, requires = "out", value_parser = clap::value_parser!(u16).range(1..=64))]
    scale: Option<u16>,
}

/// One anchor reached: where, its fixed-point cost (see [`reached`]), and the turns it needs.
struct Reach {
    anchor: Cell,
    cost: u64,
    turns: u32,
}

/// Builds the range and writes what was asked: the JSON object, the PNG, or the drawing with
/// a line that describes the range (and one for `--to`). Exits 0 if the range was built and
/// `--to`, if given, is reached within the turns; 1 if the range was refused (the code of a
/// query from the start: bad size, start off the map or where the unit does not fit, ...)
/// or `--to` is not reached; 2 for bad input (a budget that is not a number from 0 to 1e9,
/// an unknown profile, an --allies id the units file lacks).
pub fn run(args: &RangeArgs) -> Result<ExitCode, CliError> {
    let unit = &args.unit;
    let (map, mut path_map) = unit.load(&args.map)?;
    // A picture too big to make is refused before any work.
    let scale = scale_if_drawn(args.out.as_deref(), args.scale, &map.grid)?;
    let units = args.occupancy.place_on(&mut path_map)?;
    check_allies(args, &units)?;
    let mut options = RangeOptions::new()
        .turns(args.turns)
        .other_units(args.occupancy.rule())
        .allies(&args.allies);
    options.moving_unit = args.occupancy.moving_unit();
    let range =
        path_map.movement_range(args.from, unit.size, unit.profile(), args.budget, &options);
    let range = match range {
        Ok(range) => range,
        Err(RangeError::Refused { code }) => {
            if args.json {
                say!("{}", refusal_json(code, args));
            } else {
                say!("{}", describe_refusal(code, args, &path_map));
            }
            return Ok(exit_status(false));
        }
        Err(error @ RangeError::InvalidBudget { .. }) => {
            return Err(CliError::Usage(format!("--budget: {error}")));
        }
        Err(error @ RangeError::TooManyTurns { .. }) => {
            return Err(CliError::Usage(format!("--turns: {error}")));
        }
    };
    let reached = reached(&range);
    let border = range.border_cells();
    let mut to = args.to.map(|anchor| range.path_to(anchor));
    if let Some(result) = to.as_mut().filter(|_| args.smooth) {
        // The allies and the mover do not count: the way may cross allies.
        let uncounted = options.uncounted_units();
        add_waypoints(&path_map, result, unit, (options.other_units, &uncounted))?;
    }
    if args.json {
        say!("{}", range_json(args, &reached, &border, to.as_ref()));
    }
    let others: Vec<UnitEntry> = args.occupancy.others(&units).copied().collect();
    if let Some((out, scale)) = args.out.as_ref().zip(scale) {
        let cells: Vec<(Cell, f64)> = (reached.iter())
            .map(|reach| (reach.anchor, cost_to_f64(reach.cost)))
            .collect();
        let picture = RangePicture {
            grid: &map.grid,
            cells: &cells,
            border: &border,
            start: range.start(),
            agent_size: range.agent_size(),
            path: to.as_ref().map_or(&[][..], |result| result.path.as_slice()),
            units: &others,
        };
        write_range_png(&picture, scale, out)?;
    }
    if !args.json {
        if args.out.is_none() {
            say!(raw:
                "{}",
                drawing(
                    args,
                    &map.grid,
                    &range,
                    &reached,
                    &border,
                    &others,
                    to.as_ref()
                )
            );
        }
        say!("{}", describe_range(args, &reached, &border));
        if let (Some(anchor), Some(result)) = (args.to, &to) {
            say!("{}", describe_to(anchor, result, &range, &args.allies));
            if !result.waypoints.is_empty() {
                say!("{}", describe_waypoints(result));
            }
        }
        if let Some(out) = &args.out {
            say!("wrote {}", out.display());
        }
    }
    Ok(exit_status(to.as_ref().is_none_or(PathResult::is_ok)))
}

/// Checks `--allies` (which clap lets through only with `--units`): every id a unit of the
/// units file, none named twice.
fn check_allies(args: &RangeArgs, units: &[UnitEntry]) -> Result<(), CliError> {
    match args.occupancy.file() {
        Some(file) => named_units("--allies", &args.allies, units, file).map(drop),
        None => Ok(()),
    }
}

/// Every anchor listed, by `y` then `x`: those in range this turn with one turn; with more,
/// every anchor reached within the turns, with the whole path's cost, all turns together.
fn reached(range: &MovementRange) -> Vec<Reach> {
    (range.reached())
        .map(|(anchor, turns, cost)| Reach {
            anchor,
            cost,
            turns,
        })
        .collect()
}

/// An anchor as a JSON `[x, y]` pair.
fn anchor_json(anchor: Cell) -> Value {
    json!([anchor.x, anchor.y])
}

/// The JSON object of a range that was built.
fn range_json(
    args: &RangeArgs,
    reached: &[Reach],
    border: &[Cell],
    to: Option<&PathResult>,
) -> Value {
    let cells = (reached.iter())
        .map(|reach| {
            let mut cell =
                json!({"anchor": anchor_json(reach.anchor), "cost": cost_to_f64(reach.cost)});
            if args.turns > 1 {
                cell["turns"] = json!(reach.turns);
            }
            cell
        })
        .collect();
    let mut object = Map::new();
    object.insert("code".into(), json!(PathCode::Ok.as_str()));
    object.insert("cells".into(), Value::Array(cells));
    object.insert(
        "border".into(),
        Value::Array(border.iter().copied().map(anchor_json).collect()),
    );
    if let Some(result) = to {
        insert_to(&mut object, result);
    }
    Value::Object(object)
}

/// The JSON object of a refused range: its code, no cells, and with `--to` no path.
fn refusal_json(code: PathCode, args: &RangeArgs) -> Value {
    let mut object = Map::new();
    object.insert("code".into(), json!(code.as_str()));
    object.insert("cells".into(), json!([]));
    object.insert("border".into(), json!([]));
    if args.to.is_some() {
        insert_to(&mut object, &PathResult::failure(code));
    }
    Value::Object(object)
}

/// The `--to` result's fields as `path --json` writes them (from [`PathResult::fields`]), but
/// its code as `to_code` (`code` is the range's) and without `ok` and `expanded` (the range's
/// search answers it).
fn insert_to(object: &mut Map<String, Value>, result: &PathResult) {
    for (field, value) in result.fields() {
        let key = match field {
            ResultField::Ok | ResultField::Expanded => continue,
            ResultField::Code => "to_code",
            field => field.name(),
        };
        object.insert(key.into(), field_json(value));
    }
}

/// The mark of an anchor that needs `turns` turns: `1` to `9`, then `+`.
fn turn_mark(turns: u32) -> char {
    char::from_digit(turns, 10)
        .filter(|_| turns < 10)
        .unwrap_or(LATE_TURN_MARK)
}

/// The map with the anchors reached marked (`+`, or by turn), the border `#`, the other
/// units `u` and allies `a` over them, the `--to` path's footprints `*` ending in `g`, and
/// the start `s`.
fn drawing(
    args: &RangeArgs,
    grid: &TerrainGrid,
    range: &MovementRange,
    reached: &[Reach],
    border: &[Cell],
    others: &[UnitEntry],
    to: Option<&PathResult>,
) -> String {
    let mut sketch = Sketch::new(grid);
    for reach in reached {
        let mark = match args.turns {
            1 => RANGE_MARK,
            _ => turn_mark(reach.turns),
        };
        sketch.mark(reach.anchor, mark);
    }
    for &anchor in border {
        sketch.mark(anchor, BORDER_MARK);
    }
    for unit in others {
        let mark = match args.allies.contains(&unit.id) {
            true => ALLY_MARK,
            false => UNIT_MARK,
        };
        sketch.mark_footprint(unit.anchor, unit.size, mark);
    }
    if let Some(result) = to {
        sketch.mark_path(&result.path, i32::from(range.agent_size()));
        sketch.mark_waypoints(&result.waypoints);
    }
    sketch.mark(range.start(), START_MARK);
    sketch.to_string()
}

/// What was asked: the unit, its start and its budget.
fn what(args: &RangeArgs) -> String {
    let per_turn = if args.turns > 1 { " a turn" } else { "" };
    format!(
        "size {} ({}) from {}, budget {}{per_turn}",
        args.unit.size,
        args.unit.profile(),
        args.from,
        args.budget
    )
}

/// One line for people about a range that was built.
fn describe_range(args: &RangeArgs, reached: &[Reach], border: &[Cell]) -> String {
    let this_turn = reached.iter().filter(|reach| reach.turns == 1).count();
    let plural = |count: usize| if count == 1 { "" } else { "s" };
    let mut line = format!(
        "OK: {}: {this_turn} anchor{} in range, {} on the border",
        what(args),
        plural(this_turn),
        border.len()
    );
    if args.turns > 1 {
        line.push_str(&format!(
            "; {} anchor{} within {} turns",
            reached.len(),
            plural(reached.len()),
            args.turns
        ));
    }
    line
}

/// One line for people about the way to `--to`.
fn describe_to(
    anchor: Cell,
    result: &PathResult,
    range: &MovementRange,
    allies: &[UnitId],
) -> String {
    match result.code {
        PathCode::Ok => {
            let turns = match (range.turn_count(), range.turns(anchor)) {
                (1, _) | (_, None) => String::new(),
                (_, Some(turns)) => {
                    format!(" in {turns} turn{}", if turns == 1 { "" } else { "s" })
                }
            };
            format!(
                "OK: to {anchor}: {} steps, cost {:.4}{turns}",
                result.path.len() - 1,
                result.total_cost()
            )
        }
        PathCode::GoalOutOfBounds => format!("GOAL_OUT_OF_BOUNDS: {anchor} lies outside the map"),
        PathCode::GoalClearanceInsufficient => match result.shortfall {
            Some(shortfall) => format!(
                "GOAL_CLEARANCE_INSUFFICIENT: the unit does not fit at {anchor} (clearance {}, \
                 size {})",
                shortfall.found, shortfall.needed
            ),
            None => format!("GOAL_CLEARANCE_INSUFFICIENT: the unit does not fit at {anchor}"),
        },
        PathCode::GoalOccupied => match result.occupied_by {
            Some(id) if allies.contains(&id) => format!(
                "GOAL_OCCUPIED: ally {id} stands on {anchor}: it may be passed, not stopped on"
            ),
            Some(id) => format!("GOAL_OCCUPIED: unit {id} stands on {anchor}"),
            None => format!("GOAL_OCCUPIED: a unit stands on {anchor}"),
        },
        PathCode::NoPath if range.turn_count() > 1 => format!(
            "NO_PATH: {anchor} is not reached within {} turns",
            range.turn_count()
        ),
        PathCode::NoPath => format!("NO_PATH: {anchor} is not within the budget"),
        code => format!("{code}: to {anchor}"),
    }
}

/// One line for people about a refused range: the code, what was asked, and why.
fn describe_refusal(code: PathCode, args: &RangeArgs, path_map: &PathMap) -> String {
    let why = match code {
        PathCode::InvalidAgentSize => format!(
            ": the agent size must be 1 to {}",
            clearance_core::MAX_AGENT_SIZE
        ),
        PathCode::StartOutOfBounds => ": the start lies outside the map".to_owned(),
        PathCode::StartClearanceInsufficient => {
            match path_map.clearance(args.from, args.unit.profile()) {
                Some(found) => format!(
                    ": clearance there is {found}, the agent needs {}",
                    args.unit.size
                ),
                None => String::new(),
            }
        }
        PathCode::MemoryLimitReached => {
            ": the search graph would pass the cache memory limit".to_owned()
        }
        PathCode::UnknownUnit => ": a unit it names is not on the map".to_owned(),
        _ => String::new(),
    };
    format!("{code}: {}{why}", what(args))
}
