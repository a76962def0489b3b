//! The engine against the independent reference solver, on generated maps and queries.

use clearance_core::{Cell, Movement, PathCode, PathMap, TerrainGrid};
use clearance_tests::check::{check_query, check_random_query, likely_legal_anchor};
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};
use clearance_tests::reference::Reference;

#[test]
fn optimal_costs_match_reference_on_generated_maps() {
    let mut rng = Rng::new(0x00C1_EA2A_17CE);
    let mut by_code = std::collections::HashMap::new();
    let mut ok_by_size_and_movement = std::collections::HashMap::new();
    for case in 0..800 {
        let width = rng.range(1, 19) as i32;
        let height = rng.range(1, 19) as i32;
        let walls = *rng.pick(&[0, 8, 20, 35]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = if case % 2 == 0 {
            Movement::EightWay
        } else {
            Movement::FourWay
        };
        let mut map = PathMap::new(grid.clone()).with_movement(movement);
        let names = ["scout", "truck", "tank"];
        for name in names {
            map.set_profile(random_profile(&mut rng, name)).unwrap();
        }
        for _ in 0..4 {
            let size = rng.range(1, 5);
            let profile = *rng.pick(&names);
            let code = check_random_query(&mut rng, &map, size, profile);
            *by_code.entry(code).or_insert(0) += 1;
            if code == PathCode::Ok {
                *ok_by_size_and_movement.entry((size, movement)).or_insert(0) += 1;
            }
        }
    }
    // The generator must exercise every outcome and every size in both movement modes.
    for code in [
        PathCode::Ok,
        PathCode::NoPath,
        PathCode::StartClearanceInsufficient,
        PathCode::GoalClearanceInsufficient,
    ] {
        assert!(
            by_code.get(&code).copied().unwrap_or(0) >= 40,
            "{code}: {by_code:?}"
        );
    }
    for size in 1..=4 {
        for movement in [Movement::FourWay, Movement::EightWay] {
            let count = ok_by_size_and_movement
                .get(&(size, movement))
                .copied()
                .unwrap_or(0);
            assert!(count >= 40, "size {size} {movement:?}: {count} paths");
        }
    }
}

#[test]
fn larger_open_maps_match_reference() {
    let mut rng = Rng::new(0x0B16_3A95);
    let mut found = 0;
    for case in 0..40 {
        let (width, height) = (rng.range(30, 60) as i32, rng.range(30, 60) as i32);
        let grid = random_grid(&mut rng, width, height, 12);
        let movement = if case % 2 == 0 {
            Movement::EightWay
        } else {
            Movement::FourWay
        };
        let mut map = PathMap::new(grid.clone()).with_movement(movement);
        map.set_profile(random_profile(&mut rng, "unit")).unwrap();
        for _ in 0..5 {
            let size = rng.range(1, 4);
            // Mostly legal ends, so that most queries search (the rest check the codes).
            let eight_way = movement == Movement::EightWay;
            let rules = Reference::new(&grid, map.profile("unit").unwrap(), size as i32, eight_way);
            let start = likely_legal_anchor(&mut rng, &grid, &rules);
            let goal = likely_legal_anchor(&mut rng, &grid, &rules);
            found +=
                usize::from(check_query(&map, &grid, start, goal, size, "unit") == PathCode::Ok);
        }
    }
    assert!(found > 75, "{found} paths");
}

#[test]
fn start_equal_to_goal_is_a_one_anchor_path_of_cost_zero() {
    let mut rng = Rng::new(7);
    let grid = random_grid(&mut rng, 10, 10, 0);
    let mut map = PathMap::new(grid.clone());
    map.set_profile(random_profile(&mut rng, "unit")).unwrap();
    let cell = grid.cell_at(0);
    let result = map.find_path(cell, cell, 1, "unit");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.path, vec![cell]);
    assert_eq!(result.cost, 0);
}

#[test]
fn queries_are_deterministic_across_histories_and_scratches() {
    let mut rng = Rng::new(0xD373_2A11);
    let grid = random_grid(&mut rng, 40, 40, 15);
    let mut map = PathMap::new(grid.clone());
    map.set_profile(random_profile(&mut rng, "a")).unwrap();
    map.set_profile(random_profile(&mut rng, "b")).unwrap();
    let queries: Vec<(Cell, Cell, i64, &str)> = (0..60)
        .map(|_| {
            (
                random_cell(&mut rng, grid.region()),
                random_cell(&mut rng, grid.region()),
                rng.range(1, 4),
                *rng.pick(&["a", "b"]),
            )
        })
        .collect();
    let first: Vec<_> = queries
        .iter()
        .map(|&(s, g, size, p)| map.find_path(s, g, size, p))
        .collect();
    // Same queries in reverse order, then with a fresh scratch and a cloned map.
    let mut reversed: Vec<_> = queries
        .iter()
        .rev()
        .map(|&(s, g, size, p)| map.find_path(s, g, size, p))
        .collect();
    reversed.reverse();
    assert_eq!(first, reversed);
    let clone = map.clone();
    let mut scratch = clearance_core::SearchScratch::new();
    let fresh: Vec<_> = queries
        .iter()
        .map(|&(s, g, size, p)| clone.find_path_with(&mut scratch, s, g, size, p))
        .collect();
    assert_eq!(first, fresh);
}

#[test]
fn costs_beyond_the_packed_key_range_stay_exact() {
    // A serpentine of about 50,000 steps at the largest multiplier costs more than 2^50 units,
    // the limit of the search's packed open-list keys; the search must fall back to wide keys
    // and stay exact: the same route at multiplier 1 costs exactly 10,000 times less. Each
    // profile also lists an unused terrain whose multiplier makes the gcd of its multipliers 1,
    // so the search cannot count in larger cost units.
    let (width, height) = (321, 321);
    let mut grid = TerrainGrid::new(clearance_core::Region::new(0, 0, width, height), 0).unwrap();
    for row in (1..height).step_by(2) {
        let gap = if row % 4 == 1 { width - 1 } else { 0 };
        for x in 0..width {
            if x != gap {
                grid.set_cell(Cell::new(x, row), 1).unwrap();
            }
        }
    }
    let mut map = PathMap::new(grid.clone());
    let profile = |name: &str, multiplier: f64| {
        clearance_core::AgentProfile::new(name)
            .with_terrain(0, multiplier)
            .and_then(|profile| profile.with_terrain(7, multiplier - 0.001))
            .unwrap()
    };
    map.set_profile(profile("heavy", 10_000.0)).unwrap();
    map.set_profile(profile("light", 1.0)).unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(0, height - 1));
    let heavy = map.find_path(start, goal, 1, "heavy");
    let light = map.find_path(start, goal, 1, "light");
    assert_eq!(heavy.code, PathCode::Ok);
    assert!(
        heavy.cost > 1 << 50,
        "the test must exceed the packed range"
    );
    assert_eq!(heavy.cost, light.cost * 10_000);
    let rules = Reference::new(&grid, map.profile("heavy").unwrap(), 1, true);
    assert_eq!(rules.path_cost(&heavy.path, start, goal), Ok(heavy.cost));
}
