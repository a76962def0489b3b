//! Units target: a small map, one or two profiles, and a sequence of unit changes (place,
//! move in batches, remove: valid and not) and queries that count the units, decoded from the
//! input.
//!
//! Checks, after every operation:
//! * the occupancy equals the harness's own record of the units, so a refused change left it
//!   as it was and an accepted one did what it should; `units_version` changes exactly when the
//!   units did, `version` never;
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
//!   back that the reference walks at that cost;
//! * a flow field to one or two goals is refused with the code a query would give (size,
//!   goal off the map, goal clearance, unknown exempt unit, a goal under a counted unit with
//!   `Block`) and otherwise gives every anchor the reference's cost to its nearest goal with
//!   the units counted (none exempt but those named: no anchor is the mover's), bounded by
//!   `max_cost` when one is set, and a path from it that the reference walks at that cost;
//! * arrival slots are refused exactly for bad input (a target or start off the map, a
//!   repeated id, a size out of range, an unknown profile) and otherwise give each member a
//!   slot or none, every slot legal for its member by the reference's rules, clear of units
//!   outside the group, and overlapping no other slot; the order sent to them
//!   (`find_paths_to_slots`) gives each member that slot and what the query by hand answers
//!   (code and cost), with a path the reference walks at that cost. A quarter of the groups
//!   have 8 to 14 members, mostly valid and of one profile, so that their searches share the
//!   landmark an order builds at its target.
#![no_main]

use clearance_core::{
    AgentProfile, Cell, FlowFieldOptions, Movement, OtherUnits, PathCode, PathMap, PathQuery,
    RangeError, RangeOptions, Region, SearchMode, SlotPathOptions, SlotRequest, Smoothing,
    TerrainGrid, COST_SCALE, DIAGONAL_STEP, MAX_BUDGET,
};
use clearance_tests::reference::Reference;
use clearance_tests::swept::WaypointChecker;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

const TERRAINS: [u8; 4] = [0, 1, 2, 3];
const MULTIPLIERS: [f64; 7] = [0.0, 0.25, 0.5, 1.0, 1.5, 3.0, 9.0];
const SIZES: [i64; 7] = [1, 1, 2, 2, 3, 0, 256];
const UNIT_COSTS: [f64; 5] = [0.0, 0.5, 1.0, 4.0, 30.0];
const IDS: [i64; 6] = [1, 2, 3, 4, -7, i64::MAX];
const MAX_OPS: usize = 40;
/// Bounds for flow fields, fixed point: 0, one straight step, one straight and one diagonal
/// step (and a hair less), a fraction of a step, and three steps.
const FIELD_BOUNDS: [u64; 6] = [
    0,
    COST_SCALE,
    COST_SCALE + DIAGONAL_STEP * 1000,
    COST_SCALE + DIAGONAL_STEP * 1000 - 1,
    700_000,
    3 * COST_SCALE,
];
/// Budgets for movement ranges: exact step sums (1 + sqrt 2), fractions, and invalid ones.
const BUDGETS: [f64; 10] = [
    0.0,
    0.5,
    1.0,
    1.0 + std::f64::consts::SQRT_2,
    3.0,
    7.25,
    40.0,
    f64::NAN,
    -1.0,
    2e9,
];

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

fn query(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let (start, goal) = (cell(u, region)?, cell(u, region)?);
    let size = u.int_in_range(1..=3i64)?;
    let name = *u.choose(&["p0", "p1"])?;
    let rule = if u.arbitrary::<bool>()? {
        OtherUnits::Block
    } else {
        OtherUnits::cost(*u.choose(&UNIT_COSTS)?).expect("valid")
    };
    let moving = if u.arbitrary::<bool>()? {
        Some(*u.choose(&IDS)?)
    } else {
        None
    };
    let exempt: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    if !region.contains(start) || !region.contains(goal) {
        return Ok(());
    }
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| Some(unit.id) != moving && !exempt.contains(&unit.id))
        .copied()
        .collect();
    let reference_rule = match rule {
        OtherUnits::Cost(fixed) => UnitRule::Cost(u64::from(fixed)),
        _ => UnitRule::Block,
    };
    let rules = UnitsReference::new(
        map.grid(),
        profile,
        size as i32,
        eight_way,
        &counted,
        reference_rule,
        Some(start),
    );
    if !rules.terrain_legal(start) || !rules.terrain_legal(goal) {
        return Ok(());
    }
    let registered = |id: &i64| units.iter().any(|unit| unit.id == *id);
    let known = moving.iter().chain(&exempt).all(registered);
    let smoothing = *u.choose(&Smoothing::ALL)?;
    for mode in SearchMode::ALL {
        let mut query = PathQuery::new(start, goal, size, name)
            .other_units(rule)
            .exempt_units(&exempt)
            .search(mode)
            .smoothing(smoothing);
        query.moving_unit = moving;
        let result = map.query(&query);
        if !known {
            assert_eq!(result.code, PathCode::UnknownUnit);
            continue;
        }
        if start == goal {
            assert_eq!(result.code, PathCode::Ok);
            continue;
        }
        if rule == OtherUnits::Block && rules.overlaps_units(goal) {
            assert_eq!(result.code, PathCode::GoalOccupied, "{mode:?}");
            assert!(result.occupied_by.is_some());
            continue;
        }
        match rules.optimal_cost(start, goal) {
            None => assert_eq!(result.code, PathCode::NoPath, "{mode:?} {start} {goal}"),
            Some(cost) => {
                assert_eq!(result.code, PathCode::Ok, "{mode:?} {start} {goal}");
                assert_eq!(result.cost, cost, "{mode:?} {start} {goal}");
                let weights = rules
                    .path_weights(&result.path, start, goal)
                    .unwrap_or_else(|error| panic!("{mode:?}: {error}"));
                assert_eq!(weights_cost(weights), cost);
                if smoothing == Smoothing::Taut {
                    let checker = WaypointChecker {
                        grid: map.grid(),
                        profile,
                        size,
                        units: Some((counted.clone(), rule)),
                        start,
                    };
                    checker.check(&result.path, &result.waypoints, &format!("{mode:?}"));
                    // One straight move from start to goal, against the same checker.
                    let mut not_counted = exempt.clone();
                    not_counted.extend(moving);
                    let in_the_way = map
                        .straight_move_blocker(start, goal, size, name, rule, &not_counted)
                        .unwrap_or_else(|error| panic!("{start} -> {goal}: {error}"));
                    let refused = checker.refused_on_move(goal);
                    match in_the_way {
                        None => assert!(refused.is_empty(), "{start} -> {goal}: {refused:?}"),
                        Some(cell) => assert!(refused.contains(&cell), "{start} -> {goal}: {cell}"),
                    }
                }
            }
        }
    }
    Ok(())
}

fn slots(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map, units, region, ..
    } = scene;
    let target = cell(u, region)?;
    let mut group = Vec::new();
    // Large groups of one profile share a landmark at the target (eight members or more):
    // their members are mostly valid, with ids of their own and one profile.
    let large = u.ratio(1, 4)?;
    let members = if large { 8..=14 } else { 0..=4usize };
    for index in 0..u.int_in_range(members)? {
        let valid = large && u.ratio(7, 8)?;
        group.push(SlotRequest {
            id: match valid {
                true => 100 + index as i64,
                false => *u.choose(&IDS)?,
            },
            start: match valid {
                true => Cell::new(
                    region.x + u.int_in_range(0..=region.width - 1)?,
                    region.y + u.int_in_range(0..=region.height - 1)?,
                ),
                false => cell(u, region)?,
            },
            agent_size: *u.choose(if valid { &SIZES[..5] } else { &SIZES })?,
            profile: match valid {
                true => "p1",
                false => u.choose(&["p0", "p1", "p1", "unknown"])?,
            },
        });
    }
    let valid = region.contains(target)
        && group.iter().enumerate().all(|(at, member)| {
            group[..at].iter().all(|other| other.id != member.id)
                && region.contains(member.start)
                && (1..=255).contains(&member.agent_size)
                && member.profile != "unknown"
        });
    let answer = map.arrival_slots(target, &group);
    assert_eq!(answer.is_ok(), valid, "slots {target} {group:?}");
    let Ok(slots) = answer else { return Ok(()) };
    assert_eq!(slots.len(), group.len());
    let outsiders: Vec<Standing> = (units.iter())
        .filter(|unit| group.iter().all(|member| member.id != unit.id))
        .copied()
        .collect();
    let mut placed: Vec<Standing> = Vec::new();
    for (member, slot) in group.iter().zip(&slots) {
        let Some(slot) = *slot else { continue };
        let size = member.agent_size as i32;
        let rules = UnitsReference::for_slots(map, member.profile, size, &outsiders);
        assert!(
            rules.terrain_legal(slot),
            "slot {slot} of {member:?} is not legal"
        );
        assert!(
            !rules.overlaps_units(slot),
            "slot {slot} of {member:?} overlaps a unit"
        );
        let square = Standing {
            id: member.id,
            anchor: slot,
            size,
        };
        let overlaps = |other: &Standing| {
            (0..size)
                .any(|dy| (0..size).any(|dx| other.covers(Cell::new(slot.x + dx, slot.y + dy))))
        };
        assert!(
            !placed.iter().any(overlaps),
            "slot {slot} of {member:?} overlaps another slot"
        );
        placed.push(square);
    }
    send_to_slots(u, scene, target, &group, &slots)
}

/// The group order sent to its slots: every member's slot is the one `arrival_slots` chose,
/// and its result answers as the query a caller would make by hand (code and cost), with a
/// path the reference walks at that cost and waypoints that pass the checker.
fn send_to_slots(
    u: &mut Unstructured,
    scene: &Scene<'_>,
    target: Cell,
    group: &[SlotRequest<'_>],
    slots: &[Option<Cell>],
) -> Result<()> {
    let &Scene {
        map,
        units,
        movement,
        ..
    } = scene;
    let rule = if u.arbitrary::<bool>()? {
        OtherUnits::Block
    } else {
        OtherUnits::cost(*u.choose(&UNIT_COSTS)?).expect("valid")
    };
    let options = SlotPathOptions::new()
        .other_units(rule)
        .search(*u.choose(&SearchMode::ALL)?)
        .smoothing(*u.choose(&Smoothing::ALL)?)
        .threads(u.int_in_range(1..=2usize)?);
    let order = (map.find_paths_to_slots(target, group, &options))
        .unwrap_or_else(|error| panic!("the slots were given, the order is refused: {error}"));
    assert_eq!(order.len(), group.len());
    let registered = |id: i64| units.iter().any(|unit| unit.id == id);
    let group_ids: Vec<i64> = (group.iter())
        .map(|member| member.id)
        .filter(|&id| registered(id))
        .collect();
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| !group_ids.contains(&unit.id))
        .copied()
        .collect();
    let reference_rule = match rule {
        OtherUnits::Cost(fixed) => UnitRule::Cost(u64::from(fixed)),
        _ => UnitRule::Block,
    };
    let eight_way = movement == Movement::EightWay;
    for ((member, slot), sent) in group.iter().zip(slots).zip(&order) {
        let context = format!("order to {target}: {member:?} {options:?}");
        assert_eq!(sent.slot, *slot, "{context}");
        let profile = map.profile(member.profile).expect("checked by the slots");
        let size = member.agent_size as i32;
        let Some(slot) = *slot else {
            let fits = Reference::new(map.grid(), profile, size, eight_way).legal(member.start);
            let code = if fits {
                PathCode::NoPath
            } else {
                PathCode::StartClearanceInsufficient
            };
            assert_eq!(sent.result.code, code, "{context}");
            continue;
        };
        let mut query = PathQuery::new(member.start, slot, member.agent_size, member.profile)
            .other_units(rule)
            .exempt_units(&group_ids)
            .search(options.search)
            .smoothing(options.smoothing);
        if registered(member.id) {
            query = query.moving_unit(member.id);
        }
        let by_hand = map.query(&query);
        assert_eq!(
            (sent.result.code, sent.result.cost),
            (by_hand.code, by_hand.cost),
            "{context}"
        );
        if rule == OtherUnits::Block {
            assert_eq!(sent.result.code, PathCode::Ok, "{context}");
        }
        if sent.result.code != PathCode::Ok {
            continue;
        }
        let rules = UnitsReference::new(
            map.grid(),
            profile,
            size,
            eight_way,
            &counted,
            reference_rule,
            Some(member.start),
        );
        let weights = (rules.path_weights(&sent.result.path, member.start, slot))
            .unwrap_or_else(|error| panic!("{context}: {error}"));
        assert_eq!(weights_cost(weights), sent.result.cost, "{context}");
        if options.smoothing == Smoothing::Taut {
            let checker = WaypointChecker {
                grid: map.grid(),
                profile,
                size: member.agent_size,
                units: Some((counted.clone(), rule)),
                start: member.start,
            };
            checker.check(&sent.result.path, &sent.result.waypoints, &context);
        }
    }
    Ok(())
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

fn range(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let start = cell(u, region)?;
    let size = *u.choose(&SIZES)?;
    let name = *u.choose(&["p0", "p1"])?;
    let budget = *u.choose(&BUDGETS)?;
    let (rule, reference_rule) = any_rule(u)?;
    let mut options = RangeOptions::new().other_units(rule);
    if u.arbitrary::<bool>()? {
        options = options.moving_unit(*u.choose(&IDS)?);
    }
    let allies: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    options = options.allies(&allies);
    let answer = map.movement_range(start, size, name, budget, &options);
    let context = format!("range {start} size {size} {name} budget {budget} {options:?}");
    if !(0.0..=MAX_BUDGET).contains(&budget) {
        assert!(
            matches!(answer, Err(RangeError::InvalidBudget { .. })),
            "{context}: {answer:?}"
        );
        return Ok(());
    }
    let registered = |id: &i64| units.iter().any(|unit| unit.id == *id);
    let known = options.moving_unit.iter().chain(&allies).all(registered);
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    let valid_start = (1..=255).contains(&size) && region.contains(start) && {
        Reference::new(map.grid(), profile, size as i32, eight_way).legal(start)
    };
    if !valid_start || !known {
        assert!(
            matches!(answer, Err(RangeError::Refused { .. })),
            "{context}: {answer:?}"
        );
        return Ok(());
    }
    let range = answer.unwrap_or_else(|error| panic!("{context}: {error}"));
    let is_ally =
        |unit: &&Standing| allies.contains(&unit.id) && options.moving_unit != Some(unit.id);
    let enemies: Vec<Standing> = (units.iter())
        .filter(|unit| options.moving_unit != Some(unit.id) && !allies.contains(&unit.id))
        .copied()
        .collect();
    let friends: Vec<Standing> = units.iter().filter(is_ally).copied().collect();
    let reference = |counted: &[Standing], rule| {
        UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            counted,
            rule,
            Some(start),
        )
    };
    let rules = match reference_rule {
        Some(rule) => reference(&enemies, rule),
        None => reference(&[], UnitRule::Block),
    };
    let on_allies = reference(&friends, UnitRule::Block);
    let costs = rules.costs_from(&[start]);
    let limit = range.budget();
    for (index, &cost) in costs.iter().enumerate() {
        let anchor = map.grid().cell_at(index);
        let reachable = cost != u64::MAX && cost <= limit;
        let ally_there = anchor != start && on_allies.overlaps_units(anchor);
        let inside = reachable && !ally_there;
        assert_eq!(range.is_in_range(anchor), inside, "{context}: {anchor}");
        if !inside {
            continue;
        }
        assert_eq!(range.cost(anchor), Some(cost), "{context}: {anchor}");
        let back = range.path_to(anchor);
        assert_eq!(
            (back.code, back.cost),
            (PathCode::Ok, cost),
            "{context}: {anchor}"
        );
        let weights = rules
            .path_weights(&back.path, start, anchor)
            .unwrap_or_else(|error| panic!("{context}: path to {anchor}: {error}"));
        assert_eq!(weights_cost(weights), cost, "{context}: {anchor}");
    }
    Ok(())
}

fn field(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let goals: Vec<Cell> = (0..u.int_in_range(1..=2usize)?)
        .map(|_| cell(u, region))
        .collect::<Result<_>>()?;
    let size = *u.choose(&SIZES)?;
    let name = *u.choose(&["p0", "p1"])?;
    let (rule, reference_rule) = any_rule(u)?;
    let exempt: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    let mut options = FlowFieldOptions::new().other_units(rule, &exempt);
    if u.arbitrary::<bool>()? {
        options = options.max_cost(*u.choose(&FIELD_BOUNDS)?);
    }
    let answer = map.flow_field(&goals, size, name, options.clone());
    let context = format!("field {goals:?} size {size} {name} {options:?}");
    if !(1..=255).contains(&size) {
        assert_eq!(answer.err(), Some(PathCode::InvalidAgentSize), "{context}");
        return Ok(());
    }
    if !goals.iter().all(|&goal| region.contains(goal)) {
        assert_eq!(answer.err(), Some(PathCode::GoalOutOfBounds), "{context}");
        return Ok(());
    }
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    let terrain = Reference::new(map.grid(), profile, size as i32, eight_way);
    if !goals.iter().all(|&goal| terrain.legal(goal)) {
        assert_eq!(
            answer.err(),
            Some(PathCode::GoalClearanceInsufficient),
            "{context}"
        );
        return Ok(());
    }
    if !exempt
        .iter()
        .all(|id| units.iter().any(|unit| unit.id == *id))
    {
        assert_eq!(answer.err(), Some(PathCode::UnknownUnit), "{context}");
        return Ok(());
    }
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| !exempt.contains(&unit.id))
        .copied()
        .collect();
    let rules = match reference_rule {
        Some(rule) => UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &counted,
            rule,
            None,
        ),
        None => UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &[],
            UnitRule::Block,
            None,
        ),
    };
    if rule == OtherUnits::Block && goals.iter().any(|&goal| rules.overlaps_units(goal)) {
        assert_eq!(answer.err(), Some(PathCode::GoalOccupied), "{context}");
        return Ok(());
    }
    let field = answer.unwrap_or_else(|code| panic!("{context}: {code:?}"));
    for index in 0..map.grid().as_bytes().len() {
        let anchor = map.grid().cell_at(index);
        let costs = rules.costs_from(&[anchor]);
        let nearest = (goals.iter())
            .filter_map(|&goal| rules.index(goal).map(|at| costs[at]))
            .filter(|&cost| cost != u64::MAX)
            .min();
        let expected = nearest.filter(|&cost| options.max_cost.is_none_or(|most| cost <= most));
        assert_eq!(field.cost(anchor), expected, "{context}: {anchor}");
        let Some(cost) = expected else { continue };
        let path = field.path_from(anchor);
        assert_eq!(
            (path.code, path.cost),
            (PathCode::Ok, cost),
            "{context}: {anchor}"
        );
        let end = *path.path.last().expect("a path");
        assert!(goals.contains(&end), "{context}: {anchor} leads to {end}");
        let weights = rules
            .path_weights(&path.path, anchor, end)
            .unwrap_or_else(|error| panic!("{context}: path from {anchor}: {error}"));
        assert_eq!(weights_cost(weights), cost, "{context}: {anchor}");
    }
    Ok(())
}
