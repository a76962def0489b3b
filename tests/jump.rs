//! Jump-point search against the independent reference solver and against plain A*: the same
//! optimal costs on generated maps with many cost boundaries, every size, 4- and 8-way
//! movement (each with its own pruning rules), multipliers of 0 and below 1, and through
//! random edits.

use clearance_core::{
    AgentProfile, Cell, Movement, OtherUnits, PathCode, PathMap, PathQuery, Region, SearchMode,
    TerrainGrid, DIAGONAL_STEP, STRAIGHT_STEP,
};
use clearance_tests::check::{check_result, likely_legal_anchor};
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};
use clearance_tests::reference::Reference;

/// Runs one query in every search mode and checks each against the reference.
fn check_every_mode(map: &PathMap, start: Cell, goal: Cell, size: i64, profile: &str) -> PathCode {
    let eight_way = map.movement() == Movement::EightWay;
    let rules = Reference::new(
        map.grid(),
        map.profile(profile).unwrap(),
        size as i32,
        eight_way,
    );
    let mut codes = Vec::new();
    for mode in SearchMode::ALL {
        let query = PathQuery::new(start, goal, size, profile).search(mode);
        let result = map.query(&query);
        let context = format!(
            "{start:?} -> {goal:?}, size {size}, profile {profile}, 8-way {eight_way}, {mode:?}"
        );
        check_result(&rules, &result, start, goal, &context);
        codes.push(result.code);
    }
    assert!(codes.windows(2).all(|pair| pair[0] == pair[1]), "{codes:?}");
    codes[0]
}

#[test]
fn every_mode_matches_the_reference_on_generated_maps() {
    let mut rng = Rng::new(0x0005_EA2C_4011);
    let mut ok_by_size = [0usize; 5];
    for case in 0..1500 {
        let width = rng.range(1, 26) as i32;
        let height = rng.range(1, 26) as i32;
        let walls = *rng.pick(&[0, 0, 5, 15, 30]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = if case % 4 == 3 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let mut map = PathMap::new(grid).with_movement(movement);
        let names = ["scout", "truck", "tank"];
        for name in names {
            map.set_profile(random_profile(&mut rng, name)).unwrap();
        }
        for _ in 0..4 {
            let size = rng.range(1, 5);
            let profile = *rng.pick(&names);
            let rules = Reference::new(
                map.grid(),
                map.profile(profile).unwrap(),
                size as i32,
                movement == Movement::EightWay,
            );
            let start = likely_legal_anchor(&mut rng, map.grid(), &rules);
            let goal = likely_legal_anchor(&mut rng, map.grid(), &rules);
            if check_every_mode(&map, start, goal, size, profile) == PathCode::Ok {
                ok_by_size[size as usize] += 1;
            }
        }
    }
    for (size, &count) in ok_by_size.iter().enumerate().skip(1) {
        assert!(count >= 300, "size {size}: {count} paths");
    }
}

#[test]
fn every_mode_matches_the_reference_on_checkerboards_of_costs() {
    // Every cell a cost boundary: the weighted rules must force turns everywhere.
    let mut rng = Rng::new(0x0C4E_C4E2);
    let mut found = 0;
    for case in 0..300 {
        let side = rng.range(4, 22) as i32;
        let mut grid = TerrainGrid::new(Region::new(0, 0, side, side), 0).unwrap();
        let period = rng.range(1, 4) as i32;
        for y in 0..side {
            for x in 0..side {
                let terrain = ((x / period + y / period) % 3) as u8;
                grid.set_cell(Cell::new(x, y), terrain).unwrap();
            }
        }
        for _ in 0..rng.range(0, 6) {
            let cell = random_cell(&mut rng, grid.region());
            grid.set_cell(cell, 9).unwrap();
        }
        let multipliers = [0.0, 0.25, 0.5, 1.0, 1.5, 3.0, 10.0];
        let mut profile = AgentProfile::new("walker");
        for terrain in 0..3 {
            profile
                .set_terrain(terrain, *rng.pick(&multipliers))
                .unwrap();
        }
        let movement = if case % 3 == 2 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let mut map = PathMap::new(grid).with_movement(movement);
        map.set_profile(profile).unwrap();
        for _ in 0..8 {
            let size = rng.range(1, 3);
            let start = random_cell(&mut rng, map.region());
            let goal = random_cell(&mut rng, map.region());
            found +=
                usize::from(check_every_mode(&map, start, goal, size, "walker") == PathCode::Ok);
        }
    }
    assert!(found > 1400, "{found} paths");
}

#[test]
fn jump_search_expands_fewer_anchors_on_open_ground() {
    // Open ground but for two walls across the straight walks at the goals, so that `auto`
    // searches (a direct walk would answer it without; see tests/direct.rs), and a patch of
    // mud far from every path, which only the rover pays more for.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 200, 200), 0).unwrap();
    grid.fill_rect(Region::new(55, 45, 1, 16), 1).unwrap();
    grid.fill_rect(Region::new(100, 0, 1, 196), 1).unwrap();
    grid.fill_rect(Region::new(180, 150, 3, 3), 2).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(
        AgentProfile::new("walker")
            .with_terrain(0, 1.0)
            .and_then(|profile| profile.with_terrain(2, 1.0))
            .unwrap(),
    )
    .unwrap();
    map.set_profile(
        AgentProfile::new("rover")
            .with_terrain(0, 1.0)
            .and_then(|profile| profile.with_terrain(2, 2.0))
            .unwrap(),
    )
    .unwrap();
    for movement in [Movement::EightWay, Movement::FourWay] {
        map.set_movement(movement);
        for profile in ["walker", "rover"] {
            for (start, goal) in [((3, 190), (196, 7)), ((50, 50), (58, 53))] {
                let query = PathQuery::new(Cell::from(start), Cell::from(goal), 1, profile);
                let plain = map.query(&query.search(SearchMode::Plain));
                let jump = map.query(&query.search(SearchMode::Jump));
                let auto = map.query(&query);
                assert_eq!(plain.cost, jump.cost);
                assert_eq!(plain.cost, auto.cost);
                assert_eq!(jump.path.len(), plain.path.len());
                if start.0 == 3 {
                    assert!(
                        jump.expanded * 20 < plain.expanded,
                        "{movement:?} {profile}: {} vs {}",
                        jump.expanded,
                        plain.expanded
                    );
                }
                // Every graph stores its rays and `auto` jumps at once: the mud patch is one
                // place of many where costs change, far under one anchor in ten.
                assert_eq!(auto, jump, "{movement:?} {profile} {start:?}");
                // With other units blocking, a weighted graph's stored rays no longer
                // describe the search's graph: for trips under 64 steps `auto` runs plain A*
                // within a budget of 4 d + 32 expansions, and jumps on top if that did not
                // suffice; longer trips jump at once. A unit far from every path keeps the
                // answers those of the terrain alone, and an expansion limit makes every search
                // count it from the start (without one, a query first searches as if alone).
                map.place_unit(1, Cell::new(190, 190), 1).unwrap();
                let blocking = query.other_units(OtherUnits::Block).max_expansions(1 << 30);
                let plain = map.query(&blocking.search(SearchMode::Plain));
                let jump = map.query(&blocking.search(SearchMode::Jump));
                let auto = map.query(&blocking);
                map.remove_unit(1).unwrap();
                assert_eq!((plain.cost, auto.cost), (jump.cost, jump.cost));
                let distance = auto_distance(movement, start, goal);
                let budget = 4 * distance + 32;
                if profile == "walker" || distance >= 64 {
                    assert_eq!(auto, jump, "{movement:?} {profile} {start:?} blocking");
                } else if plain.expanded <= budget {
                    assert_eq!(auto, plain, "{movement:?} {profile} {start:?} blocking");
                } else {
                    assert_eq!(
                        auto.expanded,
                        budget + jump.expanded,
                        "{movement:?} {profile} {start:?} blocking"
                    );
                    assert_eq!(auto.path, jump.path);
                }
            }
        }
    }
}

/// The straight-line distance `auto` budgets by, in whole straight steps (the fixed-point
/// octile or Manhattan distance, divided by a straight step).
fn auto_distance(movement: Movement, from: (i32, i32), to: (i32, i32)) -> u64 {
    let (dx, dy) = (from.0.abs_diff(to.0) as u64, from.1.abs_diff(to.1) as u64);
    let fixed = match movement {
        Movement::FourWay => (dx + dy) * STRAIGHT_STEP,
        Movement::EightWay => {
            dx.max(dy) * STRAIGHT_STEP + dx.min(dy) * (DIAGONAL_STEP - STRAIGHT_STEP)
        }
    };
    fixed / STRAIGHT_STEP
}

#[test]
fn paths_list_every_anchor_with_unit_steps() {
    let mut rng = Rng::new(0x0005_7E95);
    let mut found = 0;
    for _ in 0..200 {
        let grid = random_grid(&mut rng, 30, 30, 10);
        let mut map = PathMap::new(grid);
        map.set_profile(random_profile(&mut rng, "unit")).unwrap();
        let start = random_cell(&mut rng, map.region());
        let goal = random_cell(&mut rng, map.region());
        let result = map.query(&PathQuery::new(start, goal, 1, "unit").search(SearchMode::Jump));
        if result.code == PathCode::Ok {
            assert_eq!(result.path.first(), Some(&start));
            assert_eq!(result.path.last(), Some(&goal));
            found += 1;
        }
        for pair in result.path.windows(2) {
            let (dx, dy) = (pair[1].x - pair[0].x, pair[1].y - pair[0].y);
            assert!(
                dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0),
                "{pair:?}"
            );
        }
    }
    assert!(found > 100, "{found} paths");
}

#[test]
fn every_mode_stays_exact_through_random_edits() {
    let mut rng = Rng::new(0xED17_5EA2);
    let (mut applied, mut found) = (0, 0);
    for _ in 0..60 {
        let grid = random_grid(&mut rng, 24, 24, 10);
        let mut map = PathMap::new(grid);
        for name in ["scout", "truck"] {
            map.set_profile(random_profile(&mut rng, name)).unwrap();
        }
        for _ in 0..30 {
            let region = map.region();
            let rect = Region::new(
                region.x + rng.range(0, 24) as i32,
                region.y + rng.range(0, 24) as i32,
                rng.range(1, 4) as i32,
                rng.range(1, 4) as i32,
            );
            let terrain = *rng.pick(&[0u8, 1, 2, 3, 4]);
            // Rectangles reaching past the map's edge are refused and change nothing.
            let before = map.grid().clone();
            match map.fill_rect(rect, terrain) {
                Ok(()) => applied += 1,
                Err(_) => assert_eq!(map.grid(), &before, "{rect:?} refused"),
            }
            let size = rng.range(1, 4);
            let profile = *rng.pick(&["scout", "truck"]);
            let start = random_cell(&mut rng, map.region());
            let goal = random_cell(&mut rng, map.region());
            found +=
                usize::from(check_every_mode(&map, start, goal, size, profile) == PathCode::Ok);
        }
        map.verify_caches().unwrap();
    }
    assert!(
        applied > 1500 && found > 500,
        "{applied} edits, {found} paths"
    );
}
