//! The occupancy layer against the independent reference with units (tests/support/units.rs):
//! on generated maps with random units of sizes 1 to 3, every search mode under the block and
//! the cost rule gives the reference's code and optimal cost, with a path that is legal step
//! by step under the query's rules and costs what it claims; answers follow the units as they
//! move (the terrain version stays, the units' version changes); GOAL_OCCUPIED, partial paths
//! when units cut the map and UNKNOWN_UNIT come where the reference says; refused changes
//! leave the occupancy as it was; batches answer as single queries do.
//!
//! One module per concern: the reference on generated maps, changes to the units, hand-built
//! scenes, batches, group orders and flow fields, and finding the units over a rectangle.

use clearance_core::{
    AgentProfile, Cell, FlowFieldOptions, Movement, OtherUnits, PathCode, PathMap, PathQuery,
    PathResult, Region, SearchMode, SearchScratch, StepWeights, TerrainGrid, Unit, UnitCost,
    UnitError,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{
    movement_for_case, random_cell, random_grid, random_map_for_case, random_profile, Rng,
};
use clearance_tests::reference::Reference;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use std::collections::HashMap;

/// Profile names of generated maps.
const NAMES: [&str; 3] = ["scout", "truck", "tank"];

/// Multipliers for the cost rule: 0, below and above the generated profiles' multipliers.
const UNIT_COSTS: [f64; 6] = [0.0, 0.5, 1.0, 2.5, 4.0, 30.0];

/// What the reference expects of one query.
#[derive(Debug)]
struct Expected {
    code: PathCode,
    /// With a path (OK or partial): where it ends and its optimal cost.
    end: Option<(Cell, u64)>,
    /// Under the block rule: the counted units whose squares overlap the goal's footprint.
    on_goal: Vec<i64>,
    /// The goal's footprint does not fit the terrain.
    goal_short: bool,
}

/// Whether the `size x size` footprint at `anchor` shares a cell with `unit`'s square.
fn footprint_overlaps(anchor: Cell, size: i32, unit: &Standing) -> bool {
    (0..size).any(|dy| (0..size).any(|dx| unit.covers(Cell::new(anchor.x + dx, anchor.y + dy))))
}

/// The reference's rules for `query` with `units` standing on `map` (the test's own record
/// of them, not the map's), and what it expects of the query.
fn expect<'a>(
    map: &'a PathMap,
    units: &[Standing],
    query: &PathQuery<'_>,
) -> (UnitsReference<'a>, Expected) {
    let counts = |unit: &&Standing| {
        Some(unit.id) != query.moving_unit && !query.exempt_units.contains(&unit.id)
    };
    let counted: Vec<Standing> = units.iter().filter(counts).copied().collect();
    let (counted, rule) = match query.other_units {
        OtherUnits::Ignore => (Vec::new(), UnitRule::Block),
        OtherUnits::Block => (counted, UnitRule::Block),
        OtherUnits::Cost(multiplier) => (counted, UnitRule::Cost(u64::from(multiplier))),
    };
    let size = query.agent_size as i32;
    let rules = UnitsReference::new(
        map.grid(),
        map.profile(query.profile)
            .expect("generated profiles exist"),
        size,
        map.movement() == Movement::EightWay,
        &counted,
        rule,
        Some(query.start),
    );
    let on_goal: Vec<i64> = match query.other_units {
        OtherUnits::Block => (counted.iter())
            .filter(|unit| footprint_overlaps(query.goal, size, unit))
            .map(|unit| unit.id)
            .collect(),
        _ => Vec::new(),
    };
    let goal_short = !rules.terrain_legal(query.goal);
    let partial = query.allow_partial_path;
    let registered = |id: &i64| units.iter().any(|unit| unit.id == *id);
    let (code, end) = if !rules.terrain_legal(query.start) {
        (PathCode::StartClearanceInsufficient, None)
    } else if goal_short && !partial {
        (PathCode::GoalClearanceInsufficient, None)
    } else if !query
        .moving_unit
        .iter()
        .chain(query.exempt_units)
        .all(registered)
    {
        (PathCode::UnknownUnit, None)
    } else if query.start == query.goal {
        (PathCode::Ok, Some((query.start, 0)))
    } else if !on_goal.is_empty() && !partial {
        (PathCode::GoalOccupied, None)
    } else {
        let costs = rules.costs_from(&[query.start]);
        let at = |cell: Cell| costs[rules.index(cell).expect("anchors are on the map")];
        if at(query.goal) != u64::MAX {
            (PathCode::Ok, Some((query.goal, at(query.goal))))
        } else if !partial {
            (PathCode::NoPath, None)
        } else {
            let end = (rules.nearest_reached(&costs, query.goal)).expect("the start is reached");
            (PathCode::PartialPath, Some((end, at(end))))
        }
    };
    let expected = Expected {
        code,
        end,
        on_goal,
        goal_short,
    };
    (rules, expected)
}

/// Checks the engine's `result` for `query` against the reference; returns its code.
fn check(
    map: &PathMap,
    units: &[Standing],
    query: &PathQuery<'_>,
    result: &PathResult,
) -> PathCode {
    let (rules, expected) = expect(map, units, query);
    let context = format!(
        "{query:?}\n8-way {}, units {units:?}\nexpected {expected:?}\ngot {result:?}",
        map.movement() == Movement::EightWay
    );
    assert_eq!(result.code, expected.code, "{context}");
    match expected.end {
        Some((end, cost)) => {
            let weights = (rules.path_weights(&result.path, query.start, end))
                .unwrap_or_else(|error| panic!("{error}\n{context}"));
            assert_eq!(result.cost, cost, "not optimal\n{context}");
            assert_eq!(
                weights_cost(weights),
                result.cost,
                "the path costs other than reported\n{context}"
            );
            let (straight, diagonal) = weights;
            assert_eq!(
                result.step_weights,
                StepWeights { straight, diagonal },
                "{context}"
            );
            let float = rules.float_cost(&result.path);
            assert!(
                (result.total_cost() - float).abs() <= 1e-9 * float.max(1.0),
                "total_cost {} against {float}\n{context}",
                result.total_cost()
            );
        }
        None => {
            assert!(result.path.is_empty(), "{context}");
            assert_eq!(result.cost, 0, "{context}");
        }
    }
    let names_a_unit = matches!(result.code, PathCode::GoalOccupied | PathCode::PartialPath)
        && !expected.on_goal.is_empty();
    if names_a_unit {
        let id = (result.occupied_by).unwrap_or_else(|| panic!("no occupied_by\n{context}"));
        assert!(
            expected.on_goal.contains(&id),
            "{id} is not on the goal\n{context}"
        );
    } else {
        assert_eq!(result.occupied_by, None, "{context}");
    }
    let short = match result.code {
        PathCode::StartClearanceInsufficient | PathCode::GoalClearanceInsufficient => true,
        PathCode::PartialPath => expected.goal_short,
        _ => false,
    };
    assert_eq!(result.shortfall.is_some(), short, "{context}");
    if matches!(result.code, PathCode::UnknownUnit | PathCode::GoalOccupied) {
        assert_eq!(result.expanded, 0, "{context}");
    }
    result.code
}

/// A generated map with the three profiles of [`NAMES`].
fn random_map(rng: &mut Rng, case: usize, max_side: i64) -> PathMap {
    random_map_for_case(rng, case, max_side, &NAMES)
}

/// A generated map with sides in `sides` and one of `walls` percent of walls, 4-way in every
/// third case, with no profile yet.
fn map_without_profiles(
    rng: &mut Rng,
    case: usize,
    sides: std::ops::Range<i64>,
    walls: &[u64],
) -> PathMap {
    let (width, height) = (
        rng.range(sides.start, sides.end),
        rng.range(sides.start, sides.end),
    );
    let walls = *rng.pick(walls);
    let grid = random_grid(rng, width as i32, height as i32, walls);
    let movement = movement_for_case(case);
    PathMap::new(grid).with_movement(movement)
}

/// A unit of size 1 to 3 at a random anchor, under an id no unit of `units` has.
fn random_unit(rng: &mut Rng, map: &PathMap, units: &[Standing]) -> Standing {
    let mut id = rng.range(-40, 60);
    while units.iter().any(|unit| unit.id == id) {
        id = rng.range(-40, 60);
    }
    Standing {
        id,
        anchor: random_cell(rng, map.region()),
        size: rng.range(1, 4) as i32,
    }
}

/// Places `count` random units on `map`, one call at a time or as one batch.
fn place_random_units(rng: &mut Rng, map: &mut PathMap, count: i64) -> Vec<Standing> {
    let mut units = Vec::new();
    for _ in 0..count {
        let unit = random_unit(rng, map, &units);
        units.push(unit);
    }
    let entries: Vec<(i64, Cell, i64)> = (units.iter())
        .map(|unit| (unit.id, unit.anchor, i64::from(unit.size)))
        .collect();
    if rng.chance(50) {
        map.place_units(&entries).unwrap();
    } else {
        for &(id, anchor, size) in &entries {
            map.place_unit(id, anchor, size).unwrap();
        }
    }
    units
}

/// The units the map holds, by id.
fn registered(map: &PathMap) -> Vec<Standing> {
    let mut units: Vec<Standing> = (map.occupancy().units().iter())
        .map(|unit| Standing {
            id: unit.id,
            anchor: unit.anchor,
            size: i32::from(unit.agent_size),
        })
        .collect();
    units.sort();
    units
}

/// `units` sorted by id, as [`registered`] lists them.
fn sorted(units: &[Standing]) -> Vec<Standing> {
    let mut units = units.to_vec();
    units.sort();
    units
}

/// The rule's name for tallies.
fn rule_name(rule: OtherUnits) -> &'static str {
    match rule {
        OtherUnits::Ignore => "ignore",
        OtherUnits::Block => "block",
        OtherUnits::Cost(_) => "cost",
    }
}

/// One random cell under a random unit of `units` that lies on the map, if there are units.
fn cell_under_a_unit(rng: &mut Rng, map: &PathMap, units: &[Standing]) -> Option<Cell> {
    let unit = units.get(rng.range(0, units.len().max(1) as i64) as usize)?;
    let cell = Cell::new(
        unit.anchor.x + rng.range(0, i64::from(unit.size)) as i32,
        unit.anchor.y + rng.range(0, i64::from(unit.size)) as i32,
    );
    map.region().contains(cell).then_some(cell)
}

/// A profile named "uniform" that enters every terrain of a generated map at one multiplier,
/// so that its graph keeps stored rays.
fn uniform_profile() -> AgentProfile {
    let mut uniform = AgentProfile::new("uniform");
    for terrain in [0, 2, 3, 4] {
        uniform.set_terrain(terrain, 1.0).unwrap();
    }
    uniform
}

/// An open `width x height` map of ground with a 1.0 profile called "unit".
fn open_map(width: i32, height: i32, movement: Movement) -> PathMap {
    let grid = TerrainGrid::new(Region::new(0, 0, width, height), 0).unwrap();
    let mut map = PathMap::new(grid).with_movement(movement);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map
}

mod changes;
mod groups;
mod near;
mod reference;
mod scenes;
