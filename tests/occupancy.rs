//! The occupancy layer against the independent reference with units (tests/support/units.rs):
//! on generated maps with random units of sizes 1 to 3, every search mode under the block and
//! the cost rule gives the reference's code and optimal cost, with a path that is legal step
//! by step under the query's rules and costs what it claims; answers follow the units as they
//! move (the terrain version stays, the units' version changes); GOAL_OCCUPIED, partial paths
//! when units cut the map and UNKNOWN_UNIT come where the reference says; refused changes
//! leave the occupancy as it was; batches answer as single queries do.

use clearance_core::{
    AgentProfile, Cell, FlowFieldOptions, Movement, OtherUnits, PathCode, PathMap, PathQuery,
    PathResult, Region, SearchMode, StepWeights, TerrainGrid, Unit, UnitError,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{
    map_with_random_profiles, random_cell, random_grid, random_profile, Rng,
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

/// A generated map with three random profiles.
fn random_map(rng: &mut Rng, case: usize, max_side: i64) -> PathMap {
    let width = rng.range(1, max_side + 1) as i32;
    let height = rng.range(1, max_side + 1) as i32;
    let walls = *rng.pick(&[0, 0, 5, 15, 30]);
    let grid = random_grid(rng, width, height, walls);
    let movement = if case % 4 == 3 {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    map_with_random_profiles(rng, grid, movement, &NAMES)
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
    let movement = if case % 3 == 2 {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
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

#[test]
fn every_mode_matches_the_reference_with_units_on_generated_maps() {
    let mut rng = Rng::new(0x0CC0_9A4C_E001);
    let mut tally: HashMap<(&str, PathCode), usize> = HashMap::new();
    let mut ok_by_size = [0usize; 5];
    let mut started_under_a_unit = 0;
    let mut moving_ids = 1000;
    let mut units_changed_the_answer = [0usize; 2];
    for case in 0..1500 {
        let mut map = random_map(&mut rng, case, 24);
        let count = rng.range(0, 7);
        let mut units = place_random_units(&mut rng, &mut map, count);
        for _ in 0..4 {
            let size = rng.range(1, 5);
            let profile = *rng.pick(&NAMES);
            let terrain = Reference::for_map(&map, profile, size);
            let mut start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            if rng.chance(20) {
                // On another unit, where the terrain lets it stand: never blocked.
                for _ in 0..6 {
                    match cell_under_a_unit(&mut rng, &map, &units) {
                        Some(cell) if terrain.legal(cell) => {
                            start = cell;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            let mut goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            if rng.chance(20) {
                if let Some(cell) = cell_under_a_unit(&mut rng, &map, &units) {
                    goal = cell;
                }
            }
            let start_legal = terrain.legal(start);
            // The moving unit: registered where it starts, somewhere else, or none.
            let moving = match rng.range(0, 10) {
                0..=3 => {
                    moving_ids += 1;
                    map.place_unit(moving_ids, start, size).unwrap();
                    let anchor = start;
                    units.push(Standing {
                        id: moving_ids,
                        anchor,
                        size: size as i32,
                    });
                    Some(moving_ids)
                }
                4..=5 if !units.is_empty() => Some(rng.pick(&units).id),
                _ => None,
            };
            let exempt: Vec<i64> = (units.iter())
                .filter(|_| rng.chance(20))
                .map(|unit| unit.id)
                .collect();
            let partial = rng.chance(30);
            let cost = OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap();
            let on_start = |unit: &Standing| {
                Some(unit.id) != moving && footprint_overlaps(start, size as i32, unit)
            };
            if start_legal && units.iter().any(on_start) {
                started_under_a_unit += 1;
            }
            let mut by_rule = Vec::new();
            for rule in [OtherUnits::Block, cost, OtherUnits::Ignore] {
                let mut base = PathQuery::new(start, goal, size, profile)
                    .other_units(rule)
                    .exempt_units(&exempt)
                    .allow_partial_path(partial);
                base.moving_unit = moving;
                let mut answers = Vec::new();
                for mode in SearchMode::ALL {
                    let query = base.search(mode);
                    let result = map.query(&query);
                    check(&map, &units, &query, &result);
                    answers.push((result.code, result.cost));
                }
                let codes: Vec<PathCode> = answers.iter().map(|&(code, _)| code).collect();
                assert!(
                    answers.windows(2).all(|pair| pair[0] == pair[1]),
                    "{answers:?}"
                );
                *tally.entry((rule_name(rule), codes[0])).or_insert(0) += 1;
                by_rule.push(answers[0]);
                if codes[0] == PathCode::Ok && rule != OtherUnits::Ignore {
                    ok_by_size[size as usize] += 1;
                }
            }
            // The units made a difference: a dearer path, or none where the terrain has one.
            let ignored = by_rule[2];
            units_changed_the_answer[0] += usize::from(by_rule[0] != ignored);
            units_changed_the_answer[1] += usize::from(by_rule[1].1 > ignored.1);
            if let Some(id) = moving.filter(|&id| id > 1000) {
                map.remove_unit(id).unwrap();
                units.retain(|unit| unit.id != id);
            }
        }
        assert_eq!(registered(&map), sorted(&units));
    }
    for (rule, code, least) in [
        ("block", PathCode::Ok, 1800),
        ("cost", PathCode::Ok, 2500),
        ("block", PathCode::GoalOccupied, 400),
        ("block", PathCode::NoPath, 400),
        ("block", PathCode::PartialPath, 400),
        ("cost", PathCode::PartialPath, 250),
        ("cost", PathCode::NoPath, 300),
    ] {
        let count = tally.get(&(rule, code)).copied().unwrap_or(0);
        assert!(count >= least, "{rule} {code}: {count} of {tally:?}");
    }
    for (size, &count) in ok_by_size.iter().enumerate().skip(1) {
        assert!(count >= 400, "size {size}: {count} paths");
    }
    assert!(started_under_a_unit >= 800, "{started_under_a_unit}");
    let [blocked, dearer] = units_changed_the_answer;
    assert!(
        blocked >= 800 && dearer >= 400,
        "{units_changed_the_answer:?}"
    );
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

#[test]
fn crowds_on_larger_maps_with_stored_rays_match_the_reference() {
    // Uniform profiles give graphs whose rays are stored: units must stop them.
    let mut rng = Rng::new(0x0CC0_5A75_0002);
    let mut paths = 0;
    let mut blocked_differs = 0;
    let mut long_lists = 0;
    for case in 0..60 {
        let mut map = map_without_profiles(&mut rng, case, 30..100, &[0, 3, 10]);
        map.set_profile(uniform_profile()).unwrap();
        map.set_profile(random_profile(&mut rng, "weighted"))
            .unwrap();
        let count = rng.range(10, 60);
        let mut units = Vec::new();
        for _ in 0..count {
            let mut unit = random_unit(&mut rng, &map, &units);
            unit.id = rng.range(0, 1 << 40);
            if rng.chance(10) {
                // Now and then a building: its rectangle reaches past the map's edges.
                unit.size = rng.range(4, 30) as i32;
            }
            if units.iter().all(|other: &Standing| other.id != unit.id) {
                map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                    .unwrap();
                units.push(unit);
            }
        }
        for _ in 0..6 {
            let size = rng.range(1, 4);
            let profile = if rng.chance(70) {
                "uniform"
            } else {
                "weighted"
            };
            let terrain = Reference::new(
                map.grid(),
                map.profile(profile).unwrap(),
                size as i32,
                map.movement() == Movement::EightWay,
            );
            let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            // Long lists (over 16 ids) are looked up in a set.
            let share = *rng.pick(&[0, 10, 60]);
            let exempt: Vec<i64> = (units.iter())
                .filter(|_| rng.chance(share))
                .map(|unit| unit.id)
                .collect();
            long_lists += usize::from(exempt.len() > 16);
            let cost = OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap();
            let ignored = map.query(&PathQuery::new(start, goal, size, profile));
            for rule in [OtherUnits::Block, cost] {
                for mode in SearchMode::ALL {
                    let query = PathQuery::new(start, goal, size, profile)
                        .other_units(rule)
                        .exempt_units(&exempt)
                        .allow_partial_path(rng.chance(30))
                        .search(mode);
                    let result = map.query(&query);
                    if check(&map, &units, &query, &result) == PathCode::Ok {
                        paths += 1;
                    }
                    if rule == OtherUnits::Block
                        && (result.code, result.cost) != (ignored.code, ignored.cost)
                    {
                        blocked_differs += 1;
                    }
                }
            }
        }
    }
    assert!(paths >= 1000, "{paths}");
    assert!(blocked_differs >= 300, "{blocked_differs}");
    assert!(long_lists >= 40, "{long_lists}");
}

#[test]
fn crowds_round_far_goals_match_the_reference() {
    // Crossings near the goal of a long trip: where units block on uniform terrain, the whole
    // search then starts from the goal (`search/detours.rs`). A crowd stands round each goal
    // (never on it), now and then with a few units near the start as well.
    let mut rng = Rng::new(0x0CC0_5A75_0003);
    let mut paths = 0;
    let mut blocked_differs = 0;
    for case in 0..40 {
        let mut map = map_without_profiles(&mut rng, case, 30..80, &[0, 3, 10, 20]);
        map.set_profile(uniform_profile()).unwrap();
        for _ in 0..5 {
            let size = rng.range(1, 4) as i32;
            let terrain = Reference::new(
                map.grid(),
                map.profile("uniform").unwrap(),
                size,
                map.movement() == Movement::EightWay,
            );
            let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let region = map.region();
            let near = |rng: &mut Rng, to: Cell, reach: i64| {
                let x = i64::from(to.x) + rng.range(-reach, reach + 1);
                let y = i64::from(to.y) + rng.range(-reach, reach + 1);
                Cell::new(x as i32, y as i32)
            };
            let mut units: Vec<Standing> = Vec::new();
            let crowd = rng.range(5, 40);
            let by_start = *rng.pick(&[0, 0, 3]);
            for placed in 0..crowd + by_start {
                let around = if placed < crowd { goal } else { start };
                let unit = Standing {
                    id: placed,
                    anchor: near(&mut rng, around, 10),
                    size: rng.range(1, 4) as i32,
                };
                if region.contains(unit.anchor) && !footprint_overlaps(goal, size, &unit) {
                    map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                        .unwrap();
                    units.push(unit);
                }
            }
            let ignored = map.query(&PathQuery::new(start, goal, i64::from(size), "uniform"));
            for mode in SearchMode::ALL {
                let query = PathQuery::new(start, goal, i64::from(size), "uniform")
                    .other_units(OtherUnits::Block)
                    .search(mode);
                let result = map.query(&query);
                if check(&map, &units, &query, &result) == PathCode::Ok {
                    paths += 1;
                    blocked_differs += usize::from(result.cost != ignored.cost);
                }
            }
            map.clear_units();
        }
    }
    assert!(paths >= 300, "{paths}");
    assert!(blocked_differs >= 60, "{blocked_differs}");
}

/// A random position change of the units in `units` on `map`, kept in both: one unit moved,
/// several moved at once, one removed, or one placed. Returns what it did.
fn random_change(rng: &mut Rng, map: &mut PathMap, units: &mut Vec<Standing>) -> &'static str {
    let kind = if units.is_empty() { 3 } else { rng.range(0, 5) };
    match kind {
        0 => {
            let which = rng.range(0, units.len() as i64) as usize;
            let anchor = random_cell(rng, map.region());
            map.move_unit(units[which].id, anchor).unwrap();
            units[which].anchor = anchor;
            "move_unit"
        }
        1 | 2 => {
            let mut moves = Vec::new();
            for unit in units.iter_mut() {
                if rng.chance(50) {
                    unit.anchor = random_cell(rng, map.region());
                    moves.push((unit.id, unit.anchor));
                }
            }
            if moves.is_empty() {
                units[0].anchor = random_cell(rng, map.region());
                moves.push((units[0].id, units[0].anchor));
            }
            map.move_units(&moves).unwrap();
            "move_units"
        }
        3 => {
            let unit = random_unit(rng, map, units);
            map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                .unwrap();
            units.push(unit);
            "place_unit"
        }
        _ => {
            let which = rng.range(0, units.len() as i64) as usize;
            map.remove_unit(units[which].id).unwrap();
            let removed = units.swap_remove(which);
            assert_eq!(map.unit(removed.id), None);
            "remove_unit"
        }
    }
}

#[test]
fn answers_follow_the_units_as_they_move() {
    let mut rng = Rng::new(0x0CC0_3071_0003);
    let mut changed_answers = 0;
    for case in 0..150 {
        let mut map = random_map(&mut rng, case, 20);
        let count = rng.range(2, 9);
        let mut units = place_random_units(&mut rng, &mut map, count);
        // Layers built before the units move must stay valid: build them now.
        let size = rng.range(1, 4);
        let profile = *rng.pick(&NAMES);
        let terrain = Reference::for_map(&map, profile, size);
        let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        let version = map.version();
        let mut seen_versions = vec![map.units_version()];
        let mut previous: Option<(PathCode, u64)> = None;
        for _ in 0..20 {
            let did = random_change(&mut rng, &mut map, &mut units);
            assert_eq!(map.version(), version, "{did} changed the terrain version");
            assert!(
                !seen_versions.contains(&map.units_version()),
                "{did} kept or reused a units version"
            );
            seen_versions.push(map.units_version());
            assert_eq!(registered(&map), sorted(&units), "{did}");
            for unit in &units {
                let expected = Unit {
                    id: unit.id,
                    anchor: unit.anchor,
                    agent_size: unit.size as u8,
                };
                assert_eq!(map.unit(unit.id), Some(expected), "{did}");
            }
            for rule in [OtherUnits::Block, OtherUnits::cost(3.0).unwrap()] {
                let mode = *rng.pick(&SearchMode::ALL);
                let query = PathQuery::new(start, goal, size, profile)
                    .other_units(rule)
                    .allow_partial_path(rng.chance(30))
                    .search(mode);
                let result = map.query(&query);
                check(&map, &units, &query, &result);
                if rule == OtherUnits::Block && !query.allow_partial_path {
                    let answer = (result.code, result.cost);
                    changed_answers += usize::from(previous.is_some_and(|seen| seen != answer));
                    previous = Some(answer);
                }
            }
        }
        map.verify_caches().unwrap();
        // Without units, the block rule answers as if the unit were alone.
        let before = map.units_version();
        map.clear_units();
        if !units.is_empty() {
            assert_ne!(map.units_version(), before);
        }
        assert_eq!(map.version(), version);
        assert!(map.occupancy().is_empty());
        let alone = map.query(&PathQuery::new(start, goal, size, profile));
        for mode in SearchMode::ALL {
            let query = PathQuery::new(start, goal, size, profile).search(mode);
            let blocked = map.query(&query.other_units(OtherUnits::Block));
            check(&map, &[], &query.other_units(OtherUnits::Block), &blocked);
            assert_eq!((blocked.code, blocked.cost), (alone.code, alone.cost));
        }
    }
    assert!(changed_answers >= 150, "{changed_answers}");
}

/// What a refused call must leave as it was.
fn observe(map: &PathMap) -> (Vec<Standing>, u64, u64) {
    (registered(map), map.units_version(), map.version())
}

#[test]
fn refused_unit_changes_leave_the_occupancy_as_it_was() {
    let mut rng = Rng::new(0x0CC0_BAD1_0004);
    let mut refusals: HashMap<&str, usize> = HashMap::new();
    for case in 0..200 {
        let mut map = random_map(&mut rng, case, 16);
        let count = rng.range(1, 7);
        let units = place_random_units(&mut rng, &mut map, count);
        let region = map.region();
        let outside = *rng.pick(&[
            Cell::new(region.x - 1, region.y),
            Cell::new(region.x + region.width, region.y),
            Cell::new(region.x, region.y - 1),
            Cell::new(region.x, region.y + region.height),
            Cell::new(i32::MIN, i32::MAX),
        ]);
        let unknown = (0..)
            .find(|id| units.iter().all(|unit| unit.id != *id))
            .unwrap();
        let known = rng.pick(&units).id;
        let before = observe(&map);
        // Good entries around one bad one, at a random position in the batch.
        let mut fresh_ids = (1000..).filter(|id| units.iter().all(|unit| unit.id != *id));
        let mut placements: Vec<(i64, Cell, i64)> = (0..rng.range(0, 4))
            .map(|_| {
                let id = fresh_ids.next().unwrap();
                (id, random_cell(&mut rng, region), rng.range(1, 4))
            })
            .collect();
        let at = rng.range(0, placements.len() as i64 + 1) as usize;
        let cell = random_cell(&mut rng, region);
        let new_id = fresh_ids.next().unwrap();
        let (bad, expected, name) = match rng.range(0, 5) {
            0 => (
                (known, cell, 1),
                UnitError::DuplicateUnit { id: known },
                "place: registered id",
            ),
            1 => {
                let size = *rng.pick(&[0, -1, 256, i64::MIN, i64::MAX]);
                (
                    (new_id, cell, size),
                    UnitError::InvalidAgentSize { id: new_id, size },
                    "place: size",
                )
            }
            2 => (
                (new_id, outside, 1),
                UnitError::AnchorOutOfBounds {
                    id: new_id,
                    anchor: outside,
                },
                "place: outside",
            ),
            _ if !placements.is_empty() => {
                // The same new id twice: the later entry is the bad one.
                let id = placements[0].0;
                let at_least = at.max(1);
                placements.insert(at_least, (id, cell, 1));
                assert_eq!(
                    map.place_units(&placements),
                    Err(UnitError::DuplicateInBatch { id })
                );
                assert_eq!(observe(&map), before);
                *refusals.entry("place: twice").or_insert(0) += 1;
                continue;
            }
            _ => (
                (known, cell, 2),
                UnitError::DuplicateUnit { id: known },
                "place: registered id",
            ),
        };
        placements.insert(at, bad);
        assert_eq!(
            map.place_units(&placements),
            Err(expected.clone()),
            "{name}"
        );
        assert_eq!(observe(&map), before, "{name}");
        if placements.len() == 1 {
            let (id, anchor, size) = bad;
            assert_eq!(map.place_unit(id, anchor, size), Err(expected), "{name}");
            assert_eq!(observe(&map), before, "{name}");
        }
        *refusals.entry(name).or_insert(0) += 1;

        // Moves: good moves of registered units around one bad move.
        let mut moves = Vec::new();
        for unit in &units {
            if rng.chance(50) {
                moves.push((unit.id, random_cell(&mut rng, region)));
            }
        }
        let at = rng.range(0, moves.len() as i64 + 1) as usize;
        let (bad, expected, name) = match rng.range(0, 3) {
            0 => (
                (unknown, cell),
                UnitError::UnknownUnit { id: unknown },
                "move: unknown",
            ),
            1 => (
                (known, outside),
                UnitError::AnchorOutOfBounds {
                    id: known,
                    anchor: outside,
                },
                "move: outside",
            ),
            _ => {
                moves.retain(|&(id, _)| id != known);
                let at = rng.range(0, moves.len() as i64 + 1) as usize;
                moves.insert(at, (known, cell));
                (
                    (known, random_cell(&mut rng, region)),
                    UnitError::DuplicateInBatch { id: known },
                    "move: twice",
                )
            }
        };
        // A repeated id is reported where it repeats: put it after the first.
        let at = if name == "move: twice" {
            let first = moves.iter().position(|&(id, _)| id == known).unwrap();
            rng.range(first as i64 + 1, moves.len() as i64 + 1) as usize
        } else {
            at
        };
        moves.insert(at, bad);
        assert_eq!(
            map.move_units(&moves),
            Err(expected.clone()),
            "{name}: {moves:?}"
        );
        assert_eq!(observe(&map), before, "{name}: {moves:?}");
        if name != "move: twice" {
            assert_eq!(map.move_unit(bad.0, bad.1), Err(expected), "{name}");
            assert_eq!(observe(&map), before, "{name}");
        }
        *refusals.entry(name).or_insert(0) += 1;

        // Long batches (sets, not scans, find repeats there) refuse just the same.
        let mut long: Vec<(i64, Cell)> = (0..12)
            .map(|_| (rng.pick(&units).id, random_cell(&mut rng, region)))
            .collect();
        long.sort_by_key(|&(id, _)| id);
        long.dedup_by_key(|&mut (id, _)| id);
        long.push((long[0].0, cell));
        let repeated = long[0].0;
        assert_eq!(
            map.move_units(&long),
            Err(UnitError::DuplicateInBatch { id: repeated })
        );
        assert_eq!(observe(&map), before);

        assert_eq!(
            map.remove_unit(unknown),
            Err(UnitError::UnknownUnit { id: unknown })
        );
        assert_eq!(observe(&map), before);
        assert_eq!(map.unit(unknown), None);
    }
    for name in [
        "place: registered id",
        "place: size",
        "place: outside",
        "place: twice",
        "move: unknown",
        "move: outside",
        "move: twice",
    ] {
        assert!(
            refusals.get(name).copied().unwrap_or(0) >= 15,
            "{name}: {refusals:?}"
        );
    }
}

#[test]
fn invalid_cost_rules_are_refused() {
    for value in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.001,
        -1.0,
        10_000.5,
    ] {
        match OtherUnits::cost(value) {
            Err(UnitError::InvalidMultiplier { value: reported }) => {
                assert!(reported.to_bits() == value.to_bits(), "{value}")
            }
            other => panic!("{value}: {other:?}"),
        }
    }
    assert_eq!(OtherUnits::cost(0.0), Ok(OtherUnits::Cost(0)));
    assert_eq!(OtherUnits::cost(10_000.0), Ok(OtherUnits::Cost(10_000_000)));
    assert_eq!(OtherUnits::cost(0.0625), Ok(OtherUnits::Cost(63)));
    for name in [
        "", "Block", "cost", "cost:", "cost:x", "cost:-1", "cost:NaN", "ignore ",
    ] {
        assert!(OtherUnits::from_name(name).is_err(), "{name:?}");
    }
}

#[test]
fn unknown_moving_or_exempt_units_are_refused_after_the_clearance_checks() {
    let mut rng = Rng::new(0x0CC0_0202_0005);
    let mut tally: HashMap<(PathCode, bool), usize> = HashMap::new();
    for case in 0..300 {
        let mut map = random_map(&mut rng, case, 14);
        let count = rng.range(0, 5);
        let units = place_random_units(&mut rng, &mut map, count);
        let unknown = (100..)
            .find(|id| units.iter().all(|unit| unit.id != *id))
            .unwrap();
        let size = rng.range(1, 4);
        let profile = *rng.pick(&NAMES);
        let terrain = Reference::for_map(&map, profile, size);
        let pick_anchor = |rng: &mut Rng| {
            if rng.chance(50) {
                random_cell(rng, map.region())
            } else {
                likely_legal_anchor(rng, map.grid(), &terrain)
            }
        };
        let start = pick_anchor(&mut rng);
        let goal = if rng.chance(10) {
            start
        } else {
            pick_anchor(&mut rng)
        };
        let mut exempt: Vec<i64> = (units.iter())
            .filter(|_| rng.chance(40))
            .map(|unit| unit.id)
            .collect();
        let moving_is_unknown = exempt.is_empty() || rng.chance(50);
        let moving = if moving_is_unknown {
            unknown
        } else {
            let at = rng.range(0, exempt.len() as i64 + 1) as usize;
            exempt.insert(at, unknown);
            units.first().map_or(unknown, |unit| unit.id)
        };
        let rule = *rng.pick(&[
            OtherUnits::Ignore,
            OtherUnits::Block,
            OtherUnits::cost(2.0).unwrap(),
        ]);
        let partial = rng.chance(40);
        for mode in SearchMode::ALL {
            let query = PathQuery::new(start, goal, size, profile)
                .other_units(rule)
                .moving_unit(moving)
                .exempt_units(&exempt)
                .allow_partial_path(partial)
                .search(mode);
            let code = check(&map, &units, &query, &map.query(&query));
            *tally.entry((code, partial)).or_insert(0) += 1;
        }
    }
    for (code, partial, least) in [
        (PathCode::UnknownUnit, false, 150),
        (PathCode::UnknownUnit, true, 150),
        (PathCode::StartClearanceInsufficient, false, 30),
        (PathCode::StartClearanceInsufficient, true, 30),
        (PathCode::GoalClearanceInsufficient, false, 30),
    ] {
        let count = tally.get(&(code, partial)).copied().unwrap_or(0);
        assert!(count >= least, "{code} {partial}: {count} of {tally:?}");
    }
    assert_eq!(
        tally
            .keys()
            .filter(|(code, _)| *code == PathCode::Ok)
            .count(),
        0
    );
}

/// An open `width x height` map of ground with a 1.0 profile called "unit".
fn open_map(width: i32, height: i32, movement: Movement) -> PathMap {
    let grid = TerrainGrid::new(Region::new(0, 0, width, height), 0).unwrap();
    let mut map = PathMap::new(grid).with_movement(movement);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map
}

#[test]
fn units_walling_off_the_goal_leave_no_path_under_the_block_rule_only() {
    for movement in [Movement::EightWay, Movement::FourWay] {
        let mut map = open_map(14, 10, movement);
        // A ring of 1x1 units round the 3 x 3 room x 7..10, y 3..6.
        let mut units = Vec::new();
        for x in 6..=10 {
            for y in 2..=6 {
                if x == 6 || x == 10 || y == 2 || y == 6 {
                    let id = i64::from(y * 100 + x);
                    map.place_unit(id, Cell::new(x, y), 1).unwrap();
                    units.push(Standing {
                        id,
                        anchor: Cell::new(x, y),
                        size: 1,
                    });
                }
            }
        }
        for size in [1, 2] {
            let (start, goal) = (Cell::new(0, 0), Cell::new(8, 4));
            for mode in SearchMode::ALL {
                let query = PathQuery::new(start, goal, size, "unit").search(mode);
                let alone = map.query(&query);
                assert_eq!(alone.code, PathCode::Ok);
                check(&map, &units, &query, &alone);
                let blocked = map.query(&query.other_units(OtherUnits::Block));
                assert_eq!(
                    blocked.code,
                    PathCode::NoPath,
                    "{movement:?} {size} {mode:?}"
                );
                check(
                    &map,
                    &units,
                    &query.other_units(OtherUnits::Block),
                    &blocked,
                );
                // Through the units at a price.
                let costly = query.other_units(OtherUnits::cost(5.0).unwrap());
                let through = map.query(&costly);
                assert_eq!(through.code, PathCode::Ok);
                assert!(through.cost > alone.cost);
                check(&map, &units, &costly, &through);
                // As near as the ring allows: three steps from the goal, the lowest row first.
                let near = query
                    .other_units(OtherUnits::Block)
                    .allow_partial_path(true);
                let partial = map.query(&near);
                assert_eq!(partial.code, PathCode::PartialPath);
                let end = if size == 1 {
                    // (8, 1), (5, 4), (11, 4) and (8, 7) are all three steps away.
                    Cell::new(8, 1)
                } else {
                    // A 2x2 footprint reaches one cell further right and down: three steps
                    // away only at (11, 4) and (8, 7), four at (8, 0) and (4, 4).
                    Cell::new(11, 4)
                };
                assert_eq!(
                    partial.path.last(),
                    Some(&end),
                    "{movement:?} {size} {mode:?}"
                );
                check(&map, &units, &near, &partial);
                // With one unit of the ring exempt, the door is open for a 1x1 agent.
                let door = [608];
                let exempt = query.other_units(OtherUnits::Block).exempt_units(&door);
                let opened = map.query(&exempt);
                check(&map, &units, &exempt, &opened);
                assert_eq!(opened.code == PathCode::Ok, size == 1);
                assert!(size != 1 || opened.path.contains(&Cell::new(8, 6)));
            }
        }
    }
}

#[test]
fn gaps_closed_one_after_another_send_the_path_to_the_first_open_one() {
    // A wall across the map with gaps at rising distances from the straight line, and units
    // closing the nearest ones: each path the whole search finds on the units met so far runs
    // into the next closed gap (`search/units_met.rs`), up to more closed gaps than it has
    // rounds, where it counts every unit at once. Under `Cost` the units may be paid for.
    let gap_rows = [10, 7, 13, 4, 16, 1, 19];
    for closed in 1..gap_rows.len() {
        for movement in [Movement::EightWay, Movement::FourWay] {
            let mut grid = TerrainGrid::new(Region::new(0, 0, 41, 21), 0).unwrap();
            grid.fill_rect(Region::new(20, 0, 2, 21), 1).unwrap();
            for &row in &gap_rows {
                grid.fill_rect(Region::new(20, row, 2, 2), 0).unwrap();
            }
            let mut map = PathMap::new(grid).with_movement(movement);
            map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
                .unwrap();
            let units: Vec<Standing> = (gap_rows.iter().take(closed).enumerate())
                .map(|(id, &row)| Standing {
                    id: id as i64,
                    anchor: Cell::new(20, row),
                    size: 2,
                })
                .collect();
            for unit in &units {
                map.place_unit(unit.id, unit.anchor, 2).unwrap();
            }
            for size in [1, 2] {
                let (start, goal) = (Cell::new(2, 10), Cell::new(38, 10));
                for mode in SearchMode::ALL {
                    // Units that cost: the path may pay to pass one, or go round by a gap.
                    let query = PathQuery::new(start, goal, size, "unit").search(mode);
                    let costly = query.other_units(OtherUnits::cost(6.0).unwrap());
                    let result = map.query(&costly);
                    assert_eq!(result.code, PathCode::Ok, "{closed} {movement:?} {size}");
                    check(&map, &units, &costly, &result);
                    let query = query.other_units(OtherUnits::Block);
                    let result = map.query(&query);
                    assert_eq!(result.code, PathCode::Ok, "{closed} {movement:?} {size}");
                    check(&map, &units, &query, &result);
                    // It crosses the wall through the first gap left open.
                    let open_row = gap_rows[closed];
                    assert!(
                        (result.path.iter())
                            .any(|cell| cell.x == 20 && (open_row..=open_row + 1).contains(&cell.y)),
                        "{closed} {movement:?} {size} {mode:?}: {:?}",
                        result.path
                    );
                }
            }
        }
    }
}

#[test]
fn a_cell_under_two_units_counts_once() {
    // A corridor one row high; units 1 and 2 both stand on (2, 0), unit 3 is a 2x2 on the
    // next two cells.
    let mut map = open_map(8, 1, Movement::EightWay);
    map.place_units(&[
        (1, Cell::new(2, 0), 1),
        (2, Cell::new(2, 0), 1),
        (3, Cell::new(3, 0), 2),
    ])
    .unwrap();
    let scale = clearance_core::COST_SCALE;
    let query = PathQuery::new(Cell::new(0, 0), Cell::new(7, 0), 1, "unit");
    for mode in SearchMode::ALL {
        let query = query.search(mode);
        // Seven straight steps; the three entered under units pay 4 once each.
        let costly = query.other_units(OtherUnits::cost(4.0).unwrap());
        assert_eq!(map.query(&costly).cost, (4 + 3 * 4) * scale, "{mode:?}");
        // Below the terrain's multiplier the units change nothing.
        let cheap = query.other_units(OtherUnits::cost(0.5).unwrap());
        assert_eq!(map.query(&cheap).cost, 7 * scale, "{mode:?}");
        let blocked = query.other_units(OtherUnits::Block);
        for (exempt, code) in [
            (&[][..], PathCode::NoPath),
            (&[1][..], PathCode::NoPath),
            (&[1, 3][..], PathCode::NoPath),
            (&[1, 2, 3][..], PathCode::Ok),
        ] {
            assert_eq!(
                map.query(&blocked.exempt_units(exempt)).code,
                code,
                "{exempt:?}"
            );
        }
        // Unit 2 exempt, unit 1 still counts once.
        let some = costly.exempt_units(&[2, 3]);
        assert_eq!(map.query(&some).cost, (6 + 4) * scale, "{mode:?}");
    }
}

#[test]
fn goal_occupied_names_a_unit_on_the_goal() {
    let mut map = open_map(10, 6, Movement::EightWay);
    map.place_unit(1, Cell::new(0, 0), 1).unwrap();
    map.place_unit(2, Cell::new(5, 2), 2).unwrap();
    map.place_unit(3, Cell::new(6, 3), 1).unwrap();
    let query = PathQuery::new(Cell::new(0, 0), Cell::new(6, 3), 1, "unit")
        .other_units(OtherUnits::Block)
        .moving_unit(1);
    for mode in SearchMode::ALL {
        let result = map.query(&query.search(mode));
        assert_eq!(result.code, PathCode::GoalOccupied);
        // The first registered of the two.
        assert_eq!(result.occupied_by, Some(2));
        // With 2 exempt, only 3 is in the way.
        let result = map.query(&query.exempt_units(&[2]).search(mode));
        assert_eq!(result.occupied_by, Some(3));
        // A goal next to them is free; a 2x2 agent's footprint there reaches unit 2.
        let beside = PathQuery {
            goal: Cell::new(4, 2),
            ..query
        };
        assert_eq!(map.query(&beside.search(mode)).code, PathCode::Ok);
        let wide = PathQuery {
            agent_size: 2,
            ..beside
        };
        let result = map.query(&wide.search(mode));
        assert_eq!(
            (result.code, result.occupied_by),
            (PathCode::GoalOccupied, Some(2))
        );
        // The cost rule never refuses a goal.
        let costly = query.other_units(OtherUnits::cost(2.0).unwrap());
        assert_eq!(map.query(&costly.search(mode)).code, PathCode::Ok);
    }
}

#[test]
fn goal_occupied_names_a_unit_in_the_way_after_a_removal() {
    // `PathResult::occupied_by`: "the id of one unit in the way". Units 2 and 3 both stand
    // on the goal; removing unit 1 reorders the layer, and the unit named must still be one
    // of them, and never the removed one.
    let mut map = open_map(10, 6, Movement::EightWay);
    map.place_unit(1, Cell::new(9, 5), 1).unwrap();
    map.place_unit(2, Cell::new(5, 2), 2).unwrap();
    map.place_unit(3, Cell::new(6, 3), 1).unwrap();
    map.remove_unit(1).unwrap();
    let query =
        PathQuery::new(Cell::new(0, 0), Cell::new(6, 3), 1, "unit").other_units(OtherUnits::Block);
    let result = map.query(&query);
    assert_eq!(result.code, PathCode::GoalOccupied);
    assert!(
        matches!(result.occupied_by, Some(2 | 3)),
        "{:?} {:?}",
        result.occupied_by,
        map.occupancy().units()
    );
    let exempt_two = map.query(&query.exempt_units(&[2]));
    assert_eq!(exempt_two.occupied_by, Some(3));
}

#[test]
fn partial_paths_end_where_the_reference_says_when_units_cut_the_map() {
    let mut rng = Rng::new(0x0CC0_C077_0006);
    let mut cut_off = 0;
    for case in 0..300 {
        let (width, height) = (rng.range(6, 22) as i32, rng.range(6, 22) as i32);
        let walls = *rng.pick(&[0, 0, 5, 15]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = if case % 3 == 2 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let mut map = PathMap::new(grid).with_movement(movement);
        for name in NAMES {
            map.set_profile(random_profile(&mut rng, name)).unwrap();
        }
        let region = map.region();
        // A line of units across the map, now and then with a gap.
        let vertical = rng.chance(50);
        let across = if vertical { width } else { height };
        let along = if vertical { height } else { width };
        let line = rng.range(2, i64::from(across) - 2) as i32;
        let mut units = Vec::new();
        let mut at = 0;
        while at < along {
            let side = rng.range(1, 4) as i32;
            if !rng.chance(8) {
                let (dx, dy) = if vertical { (line, at) } else { (at, line) };
                let unit = Standing {
                    id: units.len() as i64,
                    anchor: Cell::new(region.x + dx, region.y + dy),
                    size: side,
                };
                map.place_unit(unit.id, unit.anchor, i64::from(side))
                    .unwrap();
                units.push(unit);
            }
            at += side;
        }
        for _ in 0..6 {
            let size = rng.range(1, 4);
            let profile = *rng.pick(&NAMES);
            let terrain = Reference::new(
                map.grid(),
                map.profile(profile).unwrap(),
                size as i32,
                movement == Movement::EightWay,
            );
            // One anchor on each side of the line.
            let mut start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let mut goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let side_of = |cell: Cell| {
                let coordinate = if vertical {
                    cell.x - region.x
                } else {
                    cell.y - region.y
                };
                coordinate < line
            };
            if side_of(start) == side_of(goal) {
                std::mem::swap(&mut start, &mut goal);
                goal = if vertical {
                    Cell::new(region.x + width - 1 - (goal.x - region.x), goal.y)
                } else {
                    Cell::new(goal.x, region.y + height - 1 - (goal.y - region.y))
                };
            }
            let alone = map.query(&PathQuery::new(start, goal, size, profile));
            for mode in SearchMode::ALL {
                let query = PathQuery::new(start, goal, size, profile)
                    .other_units(OtherUnits::Block)
                    .allow_partial_path(true)
                    .search(mode);
                let result = map.query(&query);
                check(&map, &units, &query, &result);
                if result.code == PathCode::PartialPath && alone.code == PathCode::Ok {
                    cut_off += 1;
                }
                let whole = query.allow_partial_path(false);
                check(&map, &units, &whole, &map.query(&whole));
            }
        }
    }
    assert!(cut_off >= 500, "{cut_off}");
}

#[test]
fn batches_with_units_answer_as_single_queries() {
    let mut rng = Rng::new(0x0CC0_BA7C_0007);
    for case in 0..20 {
        let mut map = random_map(&mut rng, case, 40);
        let count = rng.range(4, 20);
        let units = place_random_units(&mut rng, &mut map, count);
        let ids: Vec<i64> = units.iter().map(|unit| unit.id).collect();
        let exempt_lists: Vec<Vec<i64>> = (0..8)
            .map(|_| ids.iter().copied().filter(|_| rng.chance(20)).collect())
            .collect();
        let queries: Vec<PathQuery<'_>> = (0..80)
            .map(|_| {
                let mut query = PathQuery::new(
                    random_cell(&mut rng, map.region()),
                    random_cell(&mut rng, map.region()),
                    rng.range(1, 4),
                    NAMES[rng.range(0, 3) as usize],
                )
                .other_units(*rng.pick(&[
                    OtherUnits::Ignore,
                    OtherUnits::Block,
                    OtherUnits::Cost(2500),
                    OtherUnits::Cost(0),
                ]))
                .exempt_units(rng.pick::<Vec<i64>>(&exempt_lists))
                .allow_partial_path(rng.chance(40))
                .search(*rng.pick(&SearchMode::ALL));
                if rng.chance(50) {
                    query.moving_unit = Some(*rng.pick(&ids));
                }
                if rng.chance(5) {
                    query.moving_unit = Some(-1000);
                }
                query
            })
            .collect();
        let single: Vec<PathResult> = queries.iter().map(|query| map.query(query)).collect();
        for (query, result) in queries.iter().zip(&single) {
            check(&map, &units, query, result);
        }
        for threads in [1, 2, 3] {
            assert_eq!(
                map.query_batch(&queries, threads),
                single,
                "{threads} threads"
            );
        }
    }
}

#[test]
fn group_orders_and_flow_fields_count_units_as_the_reference_says() {
    // `find_paths_to_counting` (a jump tree from the goal on uniform profiles, a bounded field
    // on weighted ones) and `flow_field` with other units: every start's code and cost, and
    // the field's cost at sampled anchors, against the reference with the exempt units left
    // out. In a group order no start is the moving unit's, so nothing else is exempt.
    let mut rng = Rng::new(0x0CC0_5A75_0003);
    let (mut compared, mut blocked_starts, mut differs_from_ignore) = (0, 0, 0);
    for case in 0..40 {
        let (width, height) = (rng.range(20, 70) as i32, rng.range(20, 70) as i32);
        let walls = *rng.pick(&[0, 5, 15]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = if case % 4 == 3 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let mut map = PathMap::new(grid).with_movement(movement);
        map.set_profile(uniform_profile()).unwrap();
        map.set_profile(random_profile(&mut rng, "weighted"))
            .unwrap();
        let count = rng.range(5, 40);
        let units = place_random_units(&mut rng, &mut map, count);
        let size = rng.range(1, 4);
        let profile = if case % 2 == 0 { "uniform" } else { "weighted" };
        let terrain = Reference::new(
            map.grid(),
            map.profile(profile).unwrap(),
            size as i32,
            movement == Movement::EightWay,
        );
        let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        let starts: Vec<Cell> = (0..8)
            .map(|_| likely_legal_anchor(&mut rng, map.grid(), &terrain))
            .collect();
        let exempt: Vec<i64> = (units.iter())
            .filter(|_| rng.chance(30))
            .map(|unit| unit.id)
            .collect();
        let counted: Vec<Standing> = (units.iter())
            .filter(|unit| !exempt.contains(&unit.id))
            .copied()
            .collect();
        let cost = OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap();
        for rule in [OtherUnits::Block, cost] {
            let reference_rule = match rule {
                OtherUnits::Cost(fixed) => UnitRule::Cost(u64::from(fixed)),
                _ => UnitRule::Block,
            };
            let reference = UnitsReference::new(
                map.grid(),
                map.profile(profile).unwrap(),
                size as i32,
                movement == Movement::EightWay,
                &counted,
                reference_rule,
                None,
            );
            let ignored = map.find_paths_to(goal, &starts, size, profile);
            let results = map.find_paths_to_counting(goal, &starts, size, profile, rule, &exempt);
            let goal_occupied = rule == OtherUnits::Block && reference.overlaps_units(goal);
            for ((&start, result), alone) in starts.iter().zip(&results).zip(&ignored) {
                if !terrain.legal(start) || !terrain.legal(goal) {
                    assert_ne!(result.code, PathCode::Ok, "{start} to {goal}");
                    continue;
                }
                if goal_occupied {
                    assert_eq!(result.code, PathCode::GoalOccupied, "case {case}");
                    continue;
                }
                let start_blocked = rule == OtherUnits::Block && reference.overlaps_units(start);
                blocked_starts += usize::from(start_blocked);
                let expected = if start_blocked && start != goal {
                    None
                } else {
                    reference.optimal_cost(start, goal)
                };
                match expected {
                    None => assert_eq!(
                        result.code,
                        PathCode::NoPath,
                        "case {case}: {start} to {goal}"
                    ),
                    Some(cost) => {
                        assert_eq!(result.code, PathCode::Ok, "case {case}: {start} to {goal}");
                        assert_eq!(result.cost, cost, "case {case}: {start} to {goal}");
                        let path: Vec<Cell> = result.path.clone();
                        assert_eq!((path.first(), path.last()), (Some(&start), Some(&goal)));
                        let weights = reference
                            .path_weights(&path, start, goal)
                            .unwrap_or_else(|error| panic!("case {case}: {error}"));
                        assert_eq!(weights_cost(weights), cost, "case {case}");
                    }
                }
                compared += 1;
                differs_from_ignore +=
                    usize::from((result.code, result.cost) != (alone.code, alone.cost));
            }
            // The field: sampled anchors' costs to the goal.
            let options = FlowFieldOptions::new().other_units(rule, &exempt);
            match map.flow_field(&[goal], size, profile, options) {
                Err(code) => assert!(
                    code == PathCode::GoalOccupied && goal_occupied
                        || code == PathCode::GoalClearanceInsufficient && !terrain.legal(goal),
                    "case {case}: {code}"
                ),
                Ok(field) => {
                    for _ in 0..6 {
                        let anchor = likely_legal_anchor(&mut rng, map.grid(), &terrain);
                        let expected = if reference.legal(anchor) || anchor == goal {
                            reference.optimal_cost(anchor, goal)
                        } else {
                            None
                        };
                        assert_eq!(
                            field.cost(anchor),
                            expected,
                            "case {case}: field at {anchor}"
                        );
                    }
                }
            }
        }
    }
    assert!(compared >= 300, "{compared}");
    assert!(blocked_starts >= 5, "{blocked_starts}");
    assert!(differs_from_ignore >= 30, "{differs_from_ignore}");
}

#[test]
fn flow_fields_record_the_units_version_they_counted() {
    let mut map = open_map(12, 8, Movement::EightWay);
    map.place_unit(1, Cell::new(5, 3), 2).unwrap();
    let goal = Cell::new(11, 7);
    let alone = map
        .flow_field(&[goal], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(alone.units_version(), None);
    let counted = map
        .flow_field(
            &[goal],
            1,
            "unit",
            FlowFieldOptions::new().other_units(OtherUnits::Block, &[]),
        )
        .unwrap();
    assert_eq!(counted.units_version(), Some(map.units_version()));
    assert_eq!(
        counted.cost(Cell::new(5, 3)),
        None,
        "the unit's own anchor is blocked"
    );
    map.move_unit(1, Cell::new(0, 0)).unwrap();
    assert_ne!(counted.units_version(), Some(map.units_version()));
    assert_eq!(counted.version(), map.version());
}

#[test]
fn free_ground_round_a_unit_on_the_start_gives_paths_without_cycles() {
    // Multipliers of 0 make whole areas free, so many paths cost the optimum, some of them
    // through the start again; a unit standing on the start is counted (no moving unit is
    // named). Found by the `units` fuzz target: a detour back through the start spliced a
    // cycle into the path, which then cost more than reported under the cost rule.
    let mut rng = Rng::new(0xF4EE_6A0D);
    let mut checked = 0;
    for case in 0..400 {
        let mut map = map_without_profiles(&mut rng, case, 2..9, &[0, 10, 25]);
        let mut profile = AgentProfile::new("walker");
        for terrain in [0u8, 2, 3, 4] {
            profile
                .set_terrain(terrain, *rng.pick(&[0.0, 0.0, 0.0, 1.0, 3.0]))
                .unwrap();
        }
        map.set_profile(profile).unwrap();
        let count = rng.range(1, 4);
        let units = place_random_units(&mut rng, &mut map, count);
        for _ in 0..6 {
            let Some(start) = cell_under_a_unit(&mut rng, &map, &units) else {
                continue;
            };
            let goal = random_cell(&mut rng, map.region());
            let rule = if rng.chance(50) {
                OtherUnits::Block
            } else {
                OtherUnits::cost(*rng.pick(&[0.5, 1.0, 4.0])).unwrap()
            };
            for mode in SearchMode::ALL {
                let query = PathQuery::new(start, goal, 1, "walker")
                    .other_units(rule)
                    .search(mode);
                let result = map.query(&query);
                check(&map, &units, &query, &result);
                let mut seen = std::collections::HashSet::new();
                assert!(
                    result.path.iter().all(|cell| seen.insert(*cell)),
                    "{mode:?} {rule:?}: an anchor twice in {:?}",
                    result.path
                );
                checked += usize::from(result.code == PathCode::Ok && result.path.len() > 2);
            }
        }
    }
    assert!(checked > 1_000, "only {checked} paths checked");
}
