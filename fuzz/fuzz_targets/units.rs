//! Units target: a small map, one or two profiles, and a sequence of unit changes (place,
//! move in batches, remove: valid and not) and queries that count the units, decoded from the
//! input.
//!
//! Checks, after every operation:
//! * the occupancy equals the harness's own record of the units, so a refused change left it
//!   as it was and an accepted one did what it should; `units_version` changes exactly when the
//!   units did, `version` never;
//! * a query with a size out of range or an unknown profile is refused with that code (size
//!   first) in every search mode, whatever else is wrong with it;
//! * every query that passes its checks answers as the reference with units says (code and
//!   exact cost; `UNKNOWN_UNIT`, `GOAL_OCCUPIED`) in every search mode, and its path is legal
//!   by the reference's rules; with taut smoothing, its waypoints pass the independent
//!   checker (`clearance_tests::swept`: a subsequence of the path, every segment within the
//!   rules, none droppable), and a straight move from start to goal is stopped exactly where
//!   that checker says;
//! * a one-turn movement range is refused exactly for bad input (a budget that is NaN,
//!   negative or too large, a start off the map or without clearance, an unknown unit) and
//!   otherwise holds exactly the anchors the reference reaches within the budget with the
//!   enemies counted, less the allies' footprints, each at the reference's cost, with a path
//!   back that the reference walks at that cost; the way to the farthest anchor, smoothed with
//!   the allies and the mover exempt, passes the waypoint checker for the enemies;
//! * a flow field to one or two goals is refused with the code a query would give (size,
//!   goal off the map, goal clearance, unknown exempt unit, a goal under a counted unit with
//!   `Block`) and otherwise gives every anchor the reference's cost to its nearest goal with
//!   the units counted (none exempt but those named: no anchor is the mover's), bounded by
//!   `max_cost` when one is set, and a path from it that the reference walks at that cost;
//! * arrival slots are refused exactly for bad input (a target or start off the map, a
//!   repeated id, a size out of range, an unknown profile) and otherwise meet every property
//!   of the contract by the slot checker the slot tests use (`clearance_tests::slots`: legal,
//!   apart, clear of units outside the group, reachable, compact, and `None` only where no free
//!   anchor is left to reach); the order sent to them (`find_paths_to_slots`) gives each
//!   member that slot and what the query by hand answers (code and cost), with a path the
//!   reference walks at that cost. A quarter of the groups have 8 to 14 members, mostly valid
//!   and of one profile, so that their searches share the landmark an order builds at its
//!   target.
//!
//! This file decodes the map and the changes to the units; each kind of request has its own
//! module under `units/`.
#![no_main]

use clearance_core::{AgentProfile, Cell, Movement, OtherUnits, PathMap, Region, TerrainGrid};
use clearance_tests::units::{Standing, UnitRule};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "units/field.rs"]
mod field;
#[path = "units/query.rs"]
mod query;
#[path = "units/range.rs"]
mod range;
#[path = "units/slots.rs"]
mod slots;

use field::field;
use query::query;
use range::range;
use slots::slots;

const TERRAINS: [u8; 4] = [0, 1, 2, 3];
const MULTIPLIERS: [f64; 7] = [0.0, 0.25, 0.5, 1.0, 1.5, 3.0, 9.0];
const SIZES: [i64; 7] = [1, 1, 2, 2, 3, 0, 256];
const UNIT_COSTS: [f64; 5] = [0.0, 0.5, 1.0, 4.0, 30.0];
const IDS: [i64; 6] = [1, 2, 3, 4, -7, i64::MAX];
const MAX_OPS: usize = 40;

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});

fn cell(u: &mut Unstructured, region: Region) -> Result<Cell> {
    let dx = u.int_in_range(-1..=region.width)?;
    let dy = u.int_in_range(-1..=region.height)?;
    Ok(Cell::new(region.x + dx, region.y + dy))
}

fn sorted(mut units: Vec<Standing>) -> Vec<Standing> {
    units.sort_by_key(|unit| unit.id);
    units
}

fn observed(map: &PathMap) -> Vec<Standing> {
    sorted(
        (map.occupancy().units().iter())
            .map(|unit| Standing {
                id: unit.id,
                anchor: unit.anchor,
                size: i32::from(unit.agent_size),
            })
            .collect(),
    )
}

fn run(u: &mut Unstructured) -> Result<()> {
    let region = Region::new(
        u.int_in_range(-3..=3)?,
        u.int_in_range(-3..=3)?,
        u.int_in_range(1..=10)?,
        u.int_in_range(1..=10)?,
    );
    let data: Vec<u8> = (0..region.area())
        .map(|_| u.choose(&TERRAINS).copied())
        .collect::<Result<_>>()?;
    let grid = TerrainGrid::from_bytes(region, &data).expect("valid generated region");
    let movement = if u.arbitrary::<bool>()? {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    let mut map = PathMap::new(grid).with_movement(movement);
    let names = ["p0", "p1"];
    for name in names {
        let mut profile = AgentProfile::new(name);
        for terrain in TERRAINS {
            if u.int_in_range(0..=3u8)? > 0 {
                profile
                    .set_terrain(terrain, *u.choose(&MULTIPLIERS)?)
                    .expect("valid multiplier");
            }
        }
        map.set_profile(profile).expect("named");
    }
    let version = map.version();
    let mut units: Vec<Standing> = Vec::new();
    for _ in 0..u.int_in_range(0..=MAX_OPS)? {
        let before = map.units_version();
        let changed = match u.int_in_range(0..=6u8)? {
            0 | 1 => {
                let (id, anchor, size) = (*u.choose(&IDS)?, cell(u, region)?, *u.choose(&SIZES)?);
                let valid = !units.iter().any(|unit| unit.id == id)
                    && region.contains(anchor)
                    && (1..=255).contains(&size);
                assert_eq!(
                    map.place_unit(id, anchor, size).is_ok(),
                    valid,
                    "place {id} {anchor} {size}"
                );
                if valid {
                    units.push(Standing {
                        id,
                        anchor,
                        size: size as i32,
                    });
                }
                valid
            }
            2 => {
                let count = u.int_in_range(0..=3usize)?;
                let mut moves = Vec::new();
                for _ in 0..count {
                    moves.push((*u.choose(&IDS)?, cell(u, region)?));
                }
                let valid = moves.iter().enumerate().all(|(at, &(id, anchor))| {
                    units.iter().any(|unit| unit.id == id)
                        && region.contains(anchor)
                        && moves[..at].iter().all(|&(other, _)| other != id)
                });
                assert_eq!(map.move_units(&moves).is_ok(), valid, "move {moves:?}");
                if valid {
                    for &(id, anchor) in &moves {
                        units.iter_mut().find(|unit| unit.id == id).unwrap().anchor = anchor;
                    }
                }
                valid && !moves.is_empty()
            }
            3 => {
                let id = *u.choose(&IDS)?;
                let valid = units.iter().any(|unit| unit.id == id);
                assert_eq!(map.remove_unit(id).is_ok(), valid, "remove {id}");
                units.retain(|unit| unit.id != id);
                valid
            }
            asked => {
                let scene = Scene {
                    map: &map,
                    units: &units,
                    region,
                    movement,
                };
                if asked < 6 {
                    query(u, &scene)?;
                } else {
                    match u.int_in_range(0..=2u8)? {
                        0 => slots(u, &scene)?,
                        1 => range(u, &scene)?,
                        _ => field(u, &scene)?,
                    }
                }
                false
            }
        };
        assert_eq!(observed(&map), sorted(units.clone()));
        assert_eq!(map.units_version() != before, changed, "units_version");
        assert_eq!(
            map.version(),
            version,
            "moving units never changes the terrain version"
        );
    }
    Ok(())
}

/// What a query or a slot request is asked on: the map, the harness's record of its units.
struct Scene<'a> {
    map: &'a PathMap,
    units: &'a [Standing],
    region: Region,
    movement: Movement,
}

/// A rule for other units, any of the three, with the reference's rule for it (`None` for
/// `Ignore`).
fn any_rule(u: &mut Unstructured) -> Result<(OtherUnits, Option<UnitRule>)> {
    Ok(match u.int_in_range(0..=2u8)? {
        0 => (OtherUnits::Ignore, None),
        1 => (OtherUnits::Block, Some(UnitRule::Block)),
        _ => {
            let rule = OtherUnits::cost(*u.choose(&UNIT_COSTS)?).expect("valid");
            let OtherUnits::Cost(fixed) = rule else {
                unreachable!("`cost` makes a `Cost` rule")
            };
            (rule, Some(UnitRule::Cost(u64::from(fixed))))
        }
    })
}
