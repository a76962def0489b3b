//! Flow fields and group orders against the independent reference solver: on generated maps
//! (sizes 1 to 4, weighted profiles with multipliers of 0 and below 1, 4- and 8-way movement,
//! one goal and several) every reached anchor's cost is the reference optimum to the nearest
//! goal, following the field reproduces it step by step and ends at a goal, unreached anchors
//! are exactly those with no path, bounded fields are exact wherever they reach, and
//! `find_paths_to` answers what `find_path` answers.

use clearance_core::{
    cost_to_f64, AgentProfile, Cell, FlowField, FlowFieldOptions, Movement, PathCode, PathMap,
    Region, TerrainGrid, STRAIGHT_STEP,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{
    map_with_random_profiles, movement_for_case, random_cell, random_grid, Rng, GROUND, ROAD,
    SWAMP, WATER,
};
use clearance_tests::reference::Reference;

/// The reference optimum from every anchor of the map (by storage index) to the nearest of
/// `goals`: `None` where the unit does not fit or no goal can be reached. One forward
/// Dijkstra per anchor: no backward search in the reference.
fn reference_costs(rules: &Reference, grid: &TerrainGrid, goals: &[Cell]) -> Vec<Option<u64>> {
    (0..grid.as_bytes().len())
        .map(|index| {
            let reachable = rules.reachable_from(grid.cell_at(index));
            reachable
                .iter()
                .filter(|(cell, _)| goals.contains(cell))
                .map(|&(_, cost)| cost)
                .min()
        })
        .collect()
}

/// The reference's true cost of `path`: its entry multipliers summed over straight and over
/// diagonal steps, then combined with the exact square root of 2 (what `total_cost` promises).
fn reference_total_cost(rules: &Reference, path: &[Cell]) -> f64 {
    let (mut straight, mut diagonal) = (0u64, 0u64);
    for pair in path.windows(2) {
        let multiplier = rules.footprint_multiplier(pair[1]).unwrap();
        if pair[0].x == pair[1].x || pair[0].y == pair[1].y {
            straight += multiplier;
        } else {
            diagonal += multiplier;
        }
    }
    (straight as f64 + diagonal as f64 * std::f64::consts::SQRT_2) / 1000.0
}

/// Checks the field at every anchor it claims to reach: the reference optimum, a path that
/// reproduces it step by step and ends at a goal, the exact total cost. Where it does not
/// reach, the answer must say why. Returns how many anchors it reached.
fn check_reached_anchors(
    field: &FlowField,
    rules: &Reference,
    grid: &TerrainGrid,
    expected: &[Option<u64>],
    context: &str,
) -> usize {
    let mut reached = 0;
    let mut largest = 0;
    for (index, &optimum) in expected.iter().enumerate() {
        let cell = grid.cell_at(index);
        let context = format!("{context}, anchor {cell:?}");
        let result = field.path_from(cell);
        assert!(
            field.anchors_from(cell).eq(result.path.iter().copied()),
            "anchors read lazily, {context}"
        );
        let Some(cost) = field.cost(cell) else {
            assert_eq!(field.next_anchor(cell), None, "{context}");
            assert_eq!(field.total_cost(cell), None, "{context}");
            let code = if rules.legal(cell) {
                PathCode::NoPath
            } else {
                PathCode::StartClearanceInsufficient
            };
            assert_eq!(result.code, code, "{context}");
            continue;
        };
        reached += 1;
        largest = largest.max(cost);
        assert_eq!(Some(cost), optimum, "cost to the nearest goal, {context}");
        assert_eq!(result.code, PathCode::Ok, "{context}");
        assert_eq!(result.cost, cost, "{context}");
        assert_eq!(result.expanded, 0);
        let goal = *result.path.last().unwrap();
        assert!(field.goals().contains(&goal), "ends at a goal, {context}");
        assert_eq!(
            rules.path_cost(&result.path, cell, goal),
            Ok(cost),
            "{context}"
        );
        for pair in result.path.windows(2) {
            // Step by step: each anchor's cost is the step into the next plus the next's cost.
            let step = rules.step_cost(pair[0], pair[1]).unwrap();
            assert_eq!(
                field.cost(pair[0]),
                Some(step + field.cost(pair[1]).unwrap())
            );
            assert_eq!(field.next_anchor(pair[0]), Some(pair[1]), "{context}");
        }
        assert_eq!(field.next_anchor(goal), None, "{context}");
        let total = reference_total_cost(rules, &result.path);
        assert_eq!(field.total_cost(cell), Some(total), "{context}");
        assert_eq!(result.total_cost(), total, "{context}");
    }
    assert_eq!(field.reached_count(), reached, "{context}");
    assert_eq!(field.max_cost(), cost_to_f64(largest), "{context}");
    reached
}

/// A generated map with a random profile called "unit", 4-way on every third case.
fn generated_map(rng: &mut Rng, case: usize, max_side: i64) -> PathMap {
    let width = rng.range(1, max_side) as i32;
    let height = rng.range(1, max_side) as i32;
    let walls = *rng.pick(&[0, 5, 15, 30]);
    let grid = random_grid(rng, width, height, walls);
    let movement = movement_for_case(case);
    map_with_random_profiles(rng, grid, movement, &["unit"])
}

/// A profile whose terrains (ground, and road, swamp and water each maybe) all cost one
/// multiplier, 0 and below 1 included.
fn uniform_profile(rng: &mut Rng, name: &str) -> AgentProfile {
    let multiplier = *rng.pick(&[0.0, 0.5, 1.0, 1.0, 3.0]);
    let mut profile = AgentProfile::new(name);
    for terrain in [GROUND, ROAD, SWAMP, WATER] {
        if terrain == GROUND || rng.chance(65) {
            profile.set_terrain(terrain, multiplier).unwrap();
        }
    }
    profile
}

fn rules_of(map: &PathMap, size: i64) -> Reference<'_> {
    Reference::new(
        map.grid(),
        map.profile("unit").unwrap(),
        size as i32,
        map.movement() == Movement::EightWay,
    )
}

/// One to three goals where the unit fits, or `None` if none turned up.
fn legal_goals(rng: &mut Rng, map: &PathMap, rules: &Reference) -> Option<Vec<Cell>> {
    let count = *rng.pick(&[1, 1, 2, 3]);
    let goals: Vec<Cell> = (0..count)
        .map(|_| likely_legal_anchor(rng, map.grid(), rules))
        .collect();
    goals.iter().all(|&goal| rules.legal(goal)).then_some(goals)
}

#[test]
fn full_fields_match_the_reference_at_every_anchor() {
    let mut rng = Rng::new(0xF10E_F1E1_D001);
    let mut fields_by_size = [0usize; 5];
    let mut several_goals = 0;
    let mut reached_total = 0;
    for case in 0..800 {
        let map = generated_map(&mut rng, case, 21);
        let size = rng.range(1, 5);
        let rules = rules_of(&map, size);
        let Some(goals) = legal_goals(&mut rng, &map, &rules) else {
            continue;
        };
        let context = format!(
            "case {case}, size {size}, goals {goals:?}, {:?}",
            map.movement()
        );
        let field = map
            .flow_field(&goals, size, "unit", FlowFieldOptions::new())
            .unwrap();
        assert!(field.is_complete(), "{context}");
        assert_eq!(field.version(), map.version());
        assert_eq!(field.goals(), &goals[..]);
        let expected = reference_costs(&rules, map.grid(), &goals);
        reached_total += check_reached_anchors(&field, &rules, map.grid(), &expected, &context);
        fields_by_size[size as usize] += 1;
        several_goals += usize::from(goals.len() > 1);
    }
    for (size, &count) in fields_by_size.iter().enumerate().skip(1) {
        assert!(count >= 40, "size {size}: {count} fields");
    }
    assert!(several_goals >= 80, "{several_goals}");
    assert!(reached_total >= 10_000, "{reached_total}");
}

#[test]
fn bounded_fields_are_exact_wherever_they_reach() {
    let mut rng = Rng::new(0xB0DE_D0F1);
    let (mut by_radius, mut by_starts) = (0, 0);
    for case in 0..300 {
        let map = generated_map(&mut rng, case, 17);
        let size = rng.range(1, 4);
        let rules = rules_of(&map, size);
        let Some(goals) = legal_goals(&mut rng, &map, &rules) else {
            continue;
        };
        let expected = reference_costs(&rules, map.grid(), &goals);
        let context = format!(
            "case {case}, size {size}, goals {goals:?}, {:?}",
            map.movement()
        );

        // A cost radius: reached are exactly the anchors at most that far.
        let largest = expected.iter().flatten().copied().max().unwrap_or(0);
        let radius = rng.range(0, largest as i64 + 2) as u64;
        let options = FlowFieldOptions::new().max_cost(radius);
        let field = map.flow_field(&goals, size, "unit", options).unwrap();
        let context_radius = format!("{context}, radius {radius}");
        check_reached_anchors(&field, &rules, map.grid(), &expected, &context_radius);
        for (index, &optimum) in expected.iter().enumerate() {
            let within = optimum.is_some_and(|cost| cost <= radius);
            let cell = map.grid().cell_at(index);
            assert_eq!(
                field.cost(cell).is_some(),
                within,
                "{context_radius}, {cell:?}"
            );
        }
        assert_eq!(
            field.is_complete(),
            expected.iter().flatten().all(|&cost| cost <= radius),
            "{context_radius}"
        );
        by_radius += 1;

        // Settle these starts (some illegal, some maybe unreachable, some outside the map).
        let mut starts: Vec<Cell> = (0..rng.range(1, 5))
            .map(|_| likely_legal_anchor(&mut rng, map.grid(), &rules))
            .collect();
        starts.push(random_cell(&mut rng, map.region()));
        starts.push(Cell::new(map.region().x - 1, map.region().y));
        let options = FlowFieldOptions::new().settle(&starts);
        let field = map.flow_field(&goals, size, "unit", options).unwrap();
        let context_starts = format!("{context}, settle {starts:?}");
        check_reached_anchors(&field, &rules, map.grid(), &expected, &context_starts);
        let mut farthest = 0;
        for &start in &starts {
            let optimum = map.grid().index_of(start).and_then(|index| expected[index]);
            assert_eq!(
                field.cost(start),
                optimum,
                "{context_starts}, start {start:?}"
            );
            farthest = farthest.max(optimum.unwrap_or(0));
        }
        // Everything cheaper than the last start settled is settled too.
        for (index, &optimum) in expected.iter().enumerate() {
            if optimum.is_some_and(|cost| cost < farthest) {
                let cell = map.grid().cell_at(index);
                assert!(field.cost(cell).is_some(), "{context_starts}, {cell:?}");
            }
        }
        by_starts += 1;
    }
    assert!(
        by_radius >= 200 && by_starts >= 200,
        "{by_radius} {by_starts}"
    );
}

#[test]
fn a_field_answers_for_the_version_it_was_built_on() {
    let grid = TerrainGrid::new(Region::new(0, 0, 12, 12), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let goal = Cell::new(11, 6);
    let start = Cell::new(0, 6);
    let field = map
        .flow_field(&[goal], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(field.version(), map.version());
    let before = field.path_from(start);

    // A wall across the straight line: the map moves on, the field does not.
    map.fill_rect(Region::new(5, 2, 1, 9), 1).unwrap();
    assert_ne!(field.version(), map.version());
    assert_eq!(field.path_from(start), before);
    let fresh = map
        .flow_field(&[goal], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(fresh.version(), map.version());
    assert!(fresh.cost(start) > field.cost(start));
    assert_eq!(
        fresh.cost(start),
        Some(map.find_path(start, goal, 1, "unit").cost)
    );

    // Refused edits and landmark settings leave the version alone; profile changes do not.
    let version = map.version();
    assert!(map.set_cell(Cell::new(40, 0), 1).is_err());
    map.set_landmarks(clearance_core::LandmarkPlacement::Farthest(2))
        .unwrap();
    assert_eq!(map.version(), version);
    assert_eq!(map.clone().version(), version);
    map.set_profile(AgentProfile::new("other").with_terrain(0, 2.0).unwrap())
        .unwrap();
    assert!(map.version() > version);
    let version = map.version();
    map.set_movement(Movement::FourWay);
    assert!(map.version() > version);
    // A clone edited on its own gets a version its original never has.
    let mut copy = map.clone();
    copy.set_cell(Cell::new(0, 0), 1).unwrap();
    map.set_cell(Cell::new(1, 0), 1).unwrap();
    assert_ne!(copy.version(), map.version());
}

#[test]
fn ties_take_the_fewest_steps_then_the_first_direction() {
    // 4-way on open ground: east and south are equally good from (0, 0); east comes first
    // in direction order (north, east, south, west).
    let grid = TerrainGrid::new(Region::new(0, 0, 5, 5), 0).unwrap();
    let mut map = PathMap::new(grid).with_movement(Movement::FourWay);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let goal = Cell::new(2, 2);
    let field = map
        .flow_field(&[goal], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    let path = field.path_from(Cell::new(0, 0)).path;
    let expected = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)].map(|(x, y)| Cell::new(x, y));
    assert_eq!(path, expected);
    assert_eq!(
        field.next_anchor(Cell::new(4, 4)),
        Some(Cell::new(4, 3)),
        "north before west"
    );

    // Free ground (multiplier 0): every anchor costs 0, and the field still takes the fewest
    // steps to the goal, so it never goes round in circles.
    let grid = TerrainGrid::new(Region::new(0, 0, 6, 6), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("free").with_terrain(0, 0.0).unwrap())
        .unwrap();
    let goal = Cell::new(5, 5);
    let field = map
        .flow_field(&[goal], 1, "free", FlowFieldOptions::new())
        .unwrap();
    for cell in map.region().cells() {
        assert_eq!(field.cost(cell), Some(0));
        let result = field.path_from(cell);
        let steps = (goal.x - cell.x).abs().max((goal.y - cell.y).abs());
        assert_eq!(result.path.len() as i32, steps + 1, "{cell:?}");
        assert_eq!(result.path.last(), Some(&goal));
    }
    assert_eq!(field.next_anchor(Cell::new(0, 0)), Some(Cell::new(1, 1)));
}

#[test]
fn the_step_into_an_anchor_is_paid_by_that_anchor() {
    // A corridor of three cells: cheap, dear, goal. Backwards from the goal, the step
    // dear -> goal is charged the goal's multiplier and cheap -> dear the dear one's.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 3, 1), 0).unwrap();
    grid.set_cell(Cell::new(1, 0), 3).unwrap();
    grid.set_cell(Cell::new(2, 0), 2).unwrap();
    let mut map = PathMap::new(grid);
    let profile = AgentProfile::new("unit")
        .with_terrain(0, 0.25)
        .unwrap()
        .with_terrain(3, 9.0)
        .unwrap()
        .with_terrain(2, 0.5)
        .unwrap();
    map.set_profile(profile).unwrap();
    let field = map
        .flow_field(&[Cell::new(2, 0)], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(field.cost(Cell::new(1, 0)), Some(STRAIGHT_STEP * 500));
    assert_eq!(
        field.cost(Cell::new(0, 0)),
        Some(STRAIGHT_STEP * (500 + 9000))
    );
    assert_eq!(field.total_cost(Cell::new(0, 0)), Some(9.5));
    // And the other way round, to the cheap end.
    let field = map
        .flow_field(&[Cell::new(0, 0)], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(
        field.cost(Cell::new(2, 0)),
        Some(STRAIGHT_STEP * (9000 + 250))
    );
}

#[test]
fn flow_field_refusals_follow_the_query_order() {
    let mut grid = TerrainGrid::new(Region::new(0, 0, 8, 8), 0).unwrap();
    grid.set_cell(Cell::new(7, 7), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let field = |map: &PathMap, goals: &[Cell], size: i64, profile: &str| {
        map.flow_field(goals, size, profile, FlowFieldOptions::new())
            .err()
    };
    let inside = Cell::new(1, 1);
    let outside = Cell::new(8, 0);
    let walled = Cell::new(7, 7);
    assert_eq!(
        field(&map, &[outside], 0, "none"),
        Some(PathCode::InvalidAgentSize)
    );
    assert_eq!(
        field(&map, &[outside], 256, "unit"),
        Some(PathCode::InvalidAgentSize)
    );
    assert_eq!(
        field(&map, &[outside], 1, "none"),
        Some(PathCode::UnknownProfile)
    );
    assert_eq!(
        field(&map, &[walled, outside], 1, "unit"),
        Some(PathCode::GoalOutOfBounds)
    );
    assert_eq!(
        field(&map, &[inside, walled], 1, "unit"),
        Some(PathCode::GoalClearanceInsufficient)
    );
    assert_eq!(
        field(&map, &[Cell::new(6, 0)], 3, "unit"),
        Some(PathCode::GoalClearanceInsufficient)
    );
    assert_eq!(field(&map, &[inside], 1, "unit"), None);
    // No goals: a field that reaches nothing.
    let empty = map
        .flow_field(&[], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(empty.reached_count(), 0);
    assert_eq!(empty.path_from(inside).code, PathCode::NoPath);

    // Memory: the field's own arrays count against the cache limit while it is built.
    let mut tight = PathMap::new(TerrainGrid::new(Region::new(0, 0, 64, 64), 0).unwrap());
    tight
        .set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    // Terrain 1 costs more, so this profile's graph has per-anchor costs and its group orders
    // need a field.
    let mixed = AgentProfile::new("mixed").with_terrain(0, 1.0).unwrap();
    tight
        .set_profile(mixed.with_terrain(1, 2.0).unwrap())
        .unwrap();
    assert_eq!(tight.prepare("unit", 1), PathCode::Ok);
    assert_eq!(tight.prepare("mixed", 1), PathCode::Ok);
    tight.set_cache_memory_limit(tight.cache_memory_bytes() + 64 * 64 * 4);
    assert_eq!(
        field(&tight, &[walled], 1, "unit"),
        Some(PathCode::MemoryLimitReached)
    );
    assert!(tight.find_path(inside, walled, 1, "unit").is_ok());
    let group = tight.find_paths_to(walled, &[inside, Cell::new(108, 0)], 1, "mixed");
    assert_eq!(group[0].code, PathCode::MemoryLimitReached);
    assert_eq!(group[1].code, PathCode::StartOutOfBounds);
    // Uniform costs: the group order is one jump-point search, which needs no field.
    let group = tight.find_paths_to(walled, &[inside, Cell::new(108, 0)], 1, "unit");
    assert_eq!(
        group[0].cost,
        tight.find_path(inside, walled, 1, "unit").cost
    );
    assert_eq!(group[1].code, PathCode::StartOutOfBounds);
    tight.set_cache_memory_limit(usize::MAX);
    let field = tight
        .flow_field(&[walled], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    assert_eq!(field.reached_count(), 64 * 64);
    assert!(field.memory_bytes() >= 64 * 64 * 9);
}

#[test]
fn group_orders_answer_what_find_path_answers() {
    let mut rng = Rng::new(0x6E0F_0E0E);
    let mut ok = 0;
    let mut codes = std::collections::HashSet::new();
    let mut uniform_ok = 0;
    for case in 0..500 {
        let mut map = generated_map(&mut rng, case, 22);
        // Every terrain at one multiplier: the group order is one jump-point search.
        let uniform = case % 2 == 0;
        if uniform {
            map.set_profile(uniform_profile(&mut rng, "unit")).unwrap();
        }
        let size = if case % 25 == 0 {
            *rng.pick(&[0, -3, 300])
        } else {
            rng.range(1, 5)
        };
        let profile = if case % 31 == 0 { "nobody" } else { "unit" };
        let rules = rules_of(&map, size.clamp(1, 4));
        let goal = match case % 17 {
            0 => Cell::new(map.region().x + map.region().width, map.region().y),
            1 => random_cell(&mut rng, map.region()),
            _ => likely_legal_anchor(&mut rng, map.grid(), &rules),
        };
        let mut starts: Vec<Cell> = (0..rng.range(0, 12))
            .map(|_| likely_legal_anchor(&mut rng, map.grid(), &rules))
            .collect();
        starts.push(random_cell(&mut rng, map.region()));
        starts.push(goal);
        starts.push(Cell::new(map.region().x, map.region().y - 1));
        if let Some(&first) = starts.first() {
            starts.push(first);
        }
        let group = map.find_paths_to(goal, &starts, size, profile);
        assert_eq!(group.len(), starts.len());
        for (&start, result) in starts.iter().zip(&group) {
            let single = map.find_path(start, goal, size, profile);
            let context = format!("case {case}, {start:?} -> {goal:?}, size {size}");
            assert_eq!(result.code, single.code, "{context}");
            assert_eq!(result.cost, single.cost, "{context}");
            assert_eq!(result.shortfall, single.shortfall, "{context}");
            assert_eq!(result.expanded, 0);
            codes.insert(result.code);
            if result.is_ok() {
                assert_eq!(
                    rules.path_cost(&result.path, start, goal),
                    Ok(result.cost),
                    "{context}"
                );
                assert_eq!(
                    result.total_cost(),
                    reference_total_cost(&rules, &result.path)
                );
                ok += 1;
                uniform_ok += usize::from(uniform);
            } else {
                assert!(result.path.is_empty(), "{context}");
            }
        }
    }
    assert!(ok >= 1500, "{ok}");
    assert!(
        uniform_ok >= 700,
        "{uniform_ok} paths by the jump-point search, of {ok}"
    );
    for code in [
        PathCode::Ok,
        PathCode::InvalidAgentSize,
        PathCode::UnknownProfile,
        PathCode::StartOutOfBounds,
        PathCode::GoalOutOfBounds,
        PathCode::StartClearanceInsufficient,
        PathCode::GoalClearanceInsufficient,
        PathCode::NoPath,
    ] {
        assert!(codes.contains(&code), "{code} never came up");
    }
}
