//! Landmarks (the differential heuristic) and connectivity: exact, admissible, consistent,
//! for every agent size, also after edits.

use clearance_core::{
    Cell, LandmarkError, LandmarkPlacement, Movement, PathCode, PathMap, Region, TerrainEdit,
    TerrainGrid,
};
use clearance_tests::check::check_query;
use clearance_tests::generate::{
    map_with_random_profiles, random_cell, random_grid, Rng, GROUND, ROAD, SWAMP, WALL, WATER,
};
use clearance_tests::reference::Reference;

fn generated_map(rng: &mut Rng, case: usize) -> (PathMap, TerrainGrid) {
    let (width, height) = (rng.range(4, 26) as i32, rng.range(4, 26) as i32);
    let walls = *rng.pick(&[5, 15, 30]);
    let grid = random_grid(rng, width, height, walls);
    let movement = if case.is_multiple_of(2) {
        Movement::EightWay
    } else {
        Movement::FourWay
    };
    let map = map_with_random_profiles(rng, grid.clone(), movement, &["a", "b"]);
    (map, grid)
}

#[test]
fn landmark_heuristic_is_admissible_and_consistent_for_every_size() {
    let mut rng = Rng::new(0x1A2D_3A4C);
    let mut checked_pairs = 0;
    let mut checked_steps = 0;
    for case in 0..60 {
        let (mut map, grid) = generated_map(&mut rng, case);
        map.set_landmarks(LandmarkPlacement::Farthest(1 + case % 8))
            .unwrap();
        let eight_way = map.movement() == Movement::EightWay;
        for profile in ["a", "b"] {
            for size in 1..=3i64 {
                let rules =
                    Reference::new(&grid, map.profile(profile).unwrap(), size as i32, eight_way);
                for _ in 0..6 {
                    let goal = random_cell(&mut rng, grid.region());
                    if !rules.legal(goal) {
                        continue;
                    }
                    for index in 0..grid.as_bytes().len() {
                        let from = grid.cell_at(index);
                        let Some(h) = map.estimate_cost(from, goal, size, profile) else {
                            assert!(!rules.legal(from));
                            continue;
                        };
                        if let Some(optimal) = rules.optimal_cost(from, goal) {
                            assert!(
                                h <= optimal,
                                "h {h} > d {optimal} from {from:?} to {goal:?}"
                            );
                            checked_pairs += 1;
                        }
                        for (dx, dy) in [
                            (1, 0),
                            (-1, 0),
                            (0, 1),
                            (0, -1),
                            (1, 1),
                            (1, -1),
                            (-1, 1),
                            (-1, -1),
                        ] {
                            let to = Cell::new(from.x + dx, from.y + dy);
                            if let Some(step) = rules.step_cost(from, to) {
                                let h_to = map.estimate_cost(to, goal, size, profile).unwrap();
                                assert!(h <= step + h_to, "inconsistent at {from:?} -> {to:?}");
                                checked_steps += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked_pairs > 20_000, "{checked_pairs}");
    assert!(checked_steps > 50_000, "{checked_steps}");
}

#[test]
fn landmark_search_returns_the_same_optimal_costs_as_plain_search() {
    let mut rng = Rng::new(0x1A2D_0002);
    let mut compared = 0;
    let mut fewer_or_equal = 0;
    for case in 0..300 {
        let (plain, grid) = generated_map(&mut rng, case);
        let mut with_landmarks = plain.clone();
        with_landmarks
            .set_landmarks(LandmarkPlacement::Farthest(1 + case % 6))
            .unwrap();
        for _ in 0..8 {
            let size = rng.range(1, 4);
            let profile = *rng.pick(&["a", "b"]);
            let rules = Reference::new(
                &grid,
                plain.profile(profile).unwrap(),
                size as i32,
                plain.movement() == Movement::EightWay,
            );
            let mut legal_cell = || {
                let mut cell = random_cell(&mut rng, grid.region());
                for _ in 0..10 {
                    if rules.legal(cell) {
                        break;
                    }
                    cell = random_cell(&mut rng, grid.region());
                }
                cell
            };
            let (start, goal) = (legal_cell(), legal_cell());
            let expected = plain.find_path(start, goal, size, profile);
            let found = with_landmarks.find_path(start, goal, size, profile);
            assert_eq!(found.code, expected.code);
            assert_eq!(
                found.cost, expected.cost,
                "{start:?} -> {goal:?} size {size}"
            );
            if found.code == PathCode::Ok {
                assert_eq!(rules.path_cost(&found.path, start, goal), Ok(found.cost));
                compared += 1;
                fewer_or_equal += usize::from(found.expanded <= expected.expanded);
            }
        }
    }
    assert!(compared >= 1000, "{compared}");
    // A larger consistent heuristic rarely expands more (only through tie-breaking).
    assert!(
        fewer_or_equal * 10 >= compared * 9,
        "{fewer_or_equal} of {compared}"
    );
}

#[test]
fn results_stay_optimal_through_random_edit_sequences() {
    let mut rng = Rng::new(0x1A2D_0003);
    let mut paths = 0;
    for case in 0..40 {
        let (mut map, mut grid) = generated_map(&mut rng, case);
        map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
        let region = grid.region();
        for _ in 0..25 {
            // Edits of every kind, including ones that open cells and lower costs, and invalid
            // batches that must change nothing.
            let terrain = *rng.pick(&[GROUND, WALL, ROAD, SWAMP, WATER]);
            let cell = random_cell(&mut rng, region);
            match rng.range(0, 4) {
                0 => {
                    map.set_cell(cell, terrain).unwrap();
                    grid.set_cell(cell, terrain).unwrap();
                }
                1 => {
                    let rect = Region::new(
                        cell.x,
                        cell.y,
                        rng.range(1, 4) as i32,
                        rng.range(1, 4) as i32,
                    );
                    let in_map = map.fill_rect(rect, terrain).is_ok();
                    assert_eq!(in_map, grid.fill_rect(rect, terrain).is_ok());
                }
                2 => {
                    let batch = [
                        TerrainEdit::Cell { cell, terrain },
                        TerrainEdit::Cell {
                            cell: random_cell(&mut rng, region),
                            terrain: WALL,
                        },
                    ];
                    map.apply_edits(&batch).unwrap();
                    grid.apply_edits(&batch).unwrap();
                }
                _ => {
                    let bad = [
                        TerrainEdit::Cell { cell, terrain },
                        TerrainEdit::Cell {
                            cell: Cell::new(region.x - 1, region.y),
                            terrain,
                        },
                    ];
                    assert!(map.apply_edits(&bad).is_err());
                }
            }
            assert_eq!(map.grid(), &grid);
            let size = rng.range(1, 3);
            let profile = *rng.pick(&["a", "b"]);
            let rules = Reference::new(
                &grid,
                map.profile(profile).unwrap(),
                size as i32,
                map.movement() == Movement::EightWay,
            );
            for _ in 0..3 {
                let start = random_cell(&mut rng, region);
                let goal = random_cell(&mut rng, region);
                let result = map.find_path(start, goal, size, profile);
                if !rules.legal(start) {
                    assert_eq!(result.code, PathCode::StartClearanceInsufficient);
                } else if !rules.legal(goal) {
                    assert_eq!(result.code, PathCode::GoalClearanceInsufficient);
                } else {
                    let expected = rules.optimal_cost(start, goal);
                    let found = (result.code == PathCode::Ok).then_some(result.cost);
                    assert_eq!(found, expected, "{:?}", result.code);
                    if found.is_none() {
                        assert_eq!(result.code, PathCode::NoPath);
                    }
                    paths += usize::from(found.is_some());
                }
            }
        }
    }
    assert!(paths > 650, "{paths} paths");
}

#[test]
fn tables_are_repaired_through_raising_lowering_and_mixed_edits() {
    let grid = TerrainGrid::new(Region::new(0, 0, 30, 30), GROUND).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(GROUND, 1.0)
            .unwrap()
            .with_terrain(SWAMP, 3.0)
            .unwrap(),
    )
    .unwrap();
    map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
    let stats = map.bake_landmarks("unit").unwrap();
    assert_eq!(stats.landmarks.len(), 4);
    // Distances differ each way (swamp costs more to enter), so both directions are stored.
    assert_eq!(stats.bytes_per_cell_per_landmark, 8.0);
    map.set_cell(Cell::new(5, 5), SWAMP).unwrap(); // 1.0 -> 3.0: raises
    map.fill_rect(Region::new(8, 8, 3, 3), WALL).unwrap(); // closes cells: raises
    assert_eq!(
        map.landmark_stats("unit"),
        Some(stats.clone()),
        "repaired after raising edits"
    );
    assert_eq!(map.landmarks_exact("unit"), Some(true));
    map.verify_caches().unwrap(); // the true distances, as a rebuild finds them
    map.set_cell(Cell::new(5, 5), GROUND).unwrap(); // 3.0 -> 1.0: lowers
    assert_eq!(
        map.landmark_stats("unit"),
        Some(stats.clone()),
        "repaired after a lowering edit"
    );
    let rebuilt = map.bake_landmarks("unit").unwrap();
    map.set_cell(Cell::new(9, 9), GROUND).unwrap(); // opens a wall
    assert_eq!(
        map.landmark_stats("unit"),
        Some(rebuilt.clone()),
        "repaired in place after an opening edit"
    );
    map.fill_rect(Region::new(0, 20, 4, 4), SWAMP).unwrap();
    map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
    map.bake_landmarks("unit").unwrap();
    map.fill_rect(Region::new(1, 21, 2, 2), GROUND).unwrap(); // lowers
    assert!(
        map.landmark_stats("unit").is_some(),
        "repaired after a lowering edit"
    );
    map.verify_caches().unwrap();
    // Raising and lowering in one batch: repaired too.
    map.apply_edits(&[
        TerrainEdit::Cell {
            cell: Cell::new(8, 8),
            terrain: GROUND,
        },
        TerrainEdit::Cell {
            cell: Cell::new(20, 20),
            terrain: WALL,
        },
    ])
    .unwrap();
    assert_eq!(map.landmarks_exact("unit"), Some(true));
    map.verify_caches().unwrap();
}

#[test]
fn an_opened_shortcut_reaches_the_table_without_a_rebuild() {
    // A wall down column 10 with a gap at the bottom; a landmark at (0, 15). Opening (10, 15)
    // shortens the distances of everything right of the wall: the repair must carry the drop
    // across the map, or the bound from (20, 15) would overestimate.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 30, 30), GROUND).unwrap();
    grid.fill_rect(Region::new(10, 0, 1, 29), WALL).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(GROUND, 1.0)
            .unwrap(),
    )
    .unwrap();
    let landmark = Cell::new(0, 15);
    map.set_landmarks(LandmarkPlacement::At(vec![landmark, Cell::new(10, 5)]))
        .unwrap();
    // The wall cell cannot hold a landmark.
    assert_eq!(
        map.bake_landmarks("unit").unwrap().landmarks,
        vec![landmark]
    );
    let far = Cell::new(20, 15);
    let before = map.estimate_cost(far, landmark, 1, "unit").unwrap();
    map.set_cell(Cell::new(10, 15), GROUND).unwrap();
    assert!(
        map.landmark_stats("unit").is_some(),
        "the opening kept the table"
    );
    map.verify_caches().unwrap();
    let result = map.find_path(far, landmark, 1, "unit");
    assert_eq!((result.code, result.total_cost()), (PathCode::Ok, 20.0));
    // The goal is the landmark: the bound is the stored distance, now the straight one.
    assert_eq!(
        map.estimate_cost(far, landmark, 1, "unit"),
        Some(result.cost)
    );
    assert!(before > result.cost * 3 / 2, "the long way round: {before}");
    // Opening the given cell (10, 5) makes a rebuild place a landmark there: dropped.
    map.set_cell(Cell::new(10, 5), GROUND).unwrap();
    assert!(map.landmark_stats("unit").is_none());
    assert_eq!(map.bake_landmarks("unit").unwrap().landmarks.len(), 2);
}

/// Whether replacing the terrains of `rect` (on `grid`) by `terrain` can only lower the
/// costs of `profile` and whether it can only raise them, impassable counting as infinitely
/// dear.
fn classify(
    grid: &TerrainGrid,
    profile: &clearance_core::AgentProfile,
    rect: Region,
    terrain: u8,
) -> (bool, bool) {
    let cost = |t: u8| profile.multiplier(t).unwrap_or(f64::INFINITY);
    let mut old = Vec::new();
    for y in rect.y..rect.y + rect.height {
        for x in rect.x..rect.x + rect.width {
            old.push(cost(grid.terrain(Cell::new(x, y)).unwrap()));
        }
    }
    let new = cost(terrain);
    let lowers = old.iter().all(|&c| c >= new);
    let raises = old.iter().all(|&c| c <= new);
    (lowers, raises)
}

#[test]
fn opening_edits_repair_tables_to_equal_a_rebuild() {
    let mut rng = Rng::new(0x1A2D_0E0E);
    let (mut repaired, mut queries) = (0, 0);
    for case in 0..48 {
        let (mut map, mut grid) = generated_map(&mut rng, case);
        let region = grid.region();
        let placement = if case % 3 == 2 {
            LandmarkPlacement::At((0..3).map(|_| random_cell(&mut rng, region)).collect())
        } else {
            LandmarkPlacement::Farthest(1 + case % 6)
        };
        // Tables as the test knows them to be exact: rebuilt, then only repaired.
        let mut exact: Vec<Option<Vec<Cell>>> = vec![None, None];
        for step in 0..30 {
            if step % 6 == 0 {
                map.set_landmarks(placement.clone()).unwrap(); // drops every table
                for (index, profile) in ["a", "b"].into_iter().enumerate() {
                    exact[index] = map.bake_landmarks(profile).map(|stats| stats.landmarks);
                }
            }
            // Mostly openings and cheaper terrain, sometimes raising or mixed edits.
            let cell = random_cell(&mut rng, region);
            let (rect, terrain) = match rng.range(0, 10) {
                0..=4 => (Region::new(cell.x, cell.y, 1, 1), GROUND),
                5 | 6 => {
                    let rect = Region::new(
                        cell.x,
                        cell.y,
                        (rng.range(1, 4) as i32).min(region.x + region.width - cell.x),
                        (rng.range(1, 4) as i32).min(region.y + region.height - cell.y),
                    );
                    (rect, *rng.pick(&[GROUND, ROAD]))
                }
                7 => (Region::new(cell.x, cell.y, 1, 1), *rng.pick(&[ROAD, WATER])),
                _ => (Region::new(cell.x, cell.y, 1, 1), *rng.pick(&[WALL, SWAMP])),
            };
            let classes: Vec<(bool, bool)> = ["a", "b"]
                .iter()
                .map(|p| classify(&grid, map.profile(p).unwrap(), rect, terrain))
                .collect();
            map.fill_rect(rect, terrain).unwrap();
            grid.fill_rect(rect, terrain).unwrap();
            if let Err(error) = map.verify_caches() {
                panic!("case {case} step {step}: {error}");
            }
            for (index, profile) in ["a", "b"].into_iter().enumerate() {
                let (lowers, raises) = classes[index];
                let Some(landmarks) = exact[index].take() else {
                    continue;
                };
                let kept = map.landmark_stats(profile).map(|s| s.landmarks);
                if lowers && raises {
                    assert_eq!(kept.as_ref(), Some(&landmarks), "unchanged costs");
                    exact[index] = kept;
                } else if lowers {
                    // Kept unless a given cell it skipped became legal.
                    let skipped_opened = match &placement {
                        LandmarkPlacement::At(cells) => cells.iter().any(|cell| {
                            !landmarks.contains(cell)
                                && Reference::for_map(&map, profile, 1).legal(*cell)
                        }),
                        _ => false,
                    };
                    if skipped_opened {
                        assert_eq!(kept, None, "case {case} step {step}");
                    } else {
                        assert_eq!(kept.as_ref(), Some(&landmarks), "case {case} step {step}");
                        repaired += 1;
                        exact[index] = kept;
                    }
                }
            }
            for _ in 0..2 {
                let size = rng.range(1, 3);
                let profile = *rng.pick(&["a", "b"]);
                let start = random_cell(&mut rng, region);
                let goal = random_cell(&mut rng, region);
                if check_query(&map, &grid, start, goal, size, profile) == PathCode::Ok {
                    queries += 1;
                }
            }
        }
    }
    assert!(repaired >= 300, "only {repaired} tables repaired");
    assert!(queries >= 300, "only {queries} queries found a path");
}

#[test]
fn user_given_landmarks_and_bad_configurations() {
    let grid = TerrainGrid::from_bytes(Region::new(-1, -1, 4, 1), &[GROUND, WALL, GROUND, GROUND])
        .unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(GROUND, 1.0)
            .unwrap(),
    )
    .unwrap();
    map.set_landmarks(LandmarkPlacement::At(vec![
        Cell::new(0, -1),
        Cell::new(2, -1),
    ]))
    .unwrap();
    // The wall at (0, -1) cannot hold a landmark for this profile and is skipped.
    let stats = map.bake_landmarks("unit").unwrap();
    assert_eq!(stats.landmarks, vec![Cell::new(2, -1)]);
    assert_eq!(stats.bytes_per_cell_per_landmark, 4.0);

    let before = map.landmark_placement().clone();
    assert_eq!(
        map.set_landmarks(LandmarkPlacement::Farthest(65)),
        Err(LandmarkError::TooMany { count: 65, max: 64 })
    );
    assert_eq!(
        map.set_landmarks(LandmarkPlacement::At(vec![Cell::new(3, -1)])),
        Err(LandmarkError::CellOutOfBounds {
            cell: Cell::new(3, -1)
        })
    );
    assert_eq!(map.landmark_placement(), &before);
    assert!(
        map.landmark_stats("unit").is_some(),
        "a refused configuration keeps the table"
    );
}

#[test]
fn disconnected_queries_expand_nothing() {
    // Two open halves split by a wall column; every cross query is NO_PATH at once.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 21, 9), GROUND).unwrap();
    grid.fill_rect(Region::new(10, 0, 1, 9), WALL).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(GROUND, 1.0)
            .unwrap(),
    )
    .unwrap();
    for size in 1..=3 {
        let result = map.find_path(Cell::new(0, 0), Cell::new(18, 6), size, "unit");
        assert_eq!(result.code, PathCode::NoPath);
        assert_eq!(result.expanded, 0);
    }
    // A gap wide enough for size 1 only connects the halves for size 1.
    map.fill_rect(Region::new(10, 4, 1, 1), GROUND).unwrap();
    assert_eq!(
        map.find_path(Cell::new(0, 0), Cell::new(18, 6), 1, "unit")
            .code,
        PathCode::Ok
    );
    let large = map.find_path(Cell::new(0, 0), Cell::new(18, 6), 2, "unit");
    assert_eq!((large.code, large.expanded), (PathCode::NoPath, 0));
}

#[test]
fn replacing_the_grid_keeps_profiles_and_landmark_settings() {
    let grid = TerrainGrid::new(Region::new(0, 0, 12, 12), GROUND).unwrap();
    let mut map = PathMap::new(grid).with_movement(Movement::FourWay);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(GROUND, 1.0)
            .unwrap(),
    )
    .unwrap();
    map.set_landmarks(LandmarkPlacement::At(vec![
        Cell::new(1, 1),
        Cell::new(10, 10),
    ]))
    .unwrap();
    assert_eq!(map.bake_landmarks("unit").unwrap().landmarks.len(), 2);
    map.replace_grid(TerrainGrid::new(Region::new(0, 0, 6, 6), GROUND).unwrap());
    assert_eq!(map.movement(), Movement::FourWay);
    assert!(
        map.landmark_stats("unit").is_none(),
        "tables of the old grid are gone"
    );
    assert_eq!(
        map.landmark_placement(),
        &LandmarkPlacement::At(vec![Cell::new(1, 1)])
    );
    assert_eq!(
        map.bake_landmarks("unit").unwrap().landmarks,
        vec![Cell::new(1, 1)]
    );
    let result = map.find_path(Cell::new(0, 0), Cell::new(5, 5), 1, "unit");
    assert_eq!((result.code, result.total_cost()), (PathCode::Ok, 10.0));
}

#[test]
fn switching_movement_rebuilds_landmark_tables() {
    // Found by the differential fuzz target: 4-way distances are no lower bounds for 8-way
    // moves, so tables built under one rule must not guide searches under the other.
    let mut rng = Rng::new(0x0004_3A7E);
    let mut baked = 0;
    for case in 0..20 {
        let (mut map, grid) = generated_map(&mut rng, case);
        map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
        let first = if case.is_multiple_of(2) {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        map.set_movement(first);
        if map.bake_landmarks("a").is_none() {
            continue; // no region large enough for a landmark
        }
        baked += 1;
        let other = if first == Movement::FourWay {
            Movement::EightWay
        } else {
            Movement::FourWay
        };
        map.set_movement(other);
        assert!(
            map.landmark_stats("a").is_none(),
            "tables dropped with the old movement rule"
        );
        let rules = Reference::new(
            &grid,
            map.profile("a").unwrap(),
            1,
            other == Movement::EightWay,
        );
        for _ in 0..20 {
            let start = random_cell(&mut rng, grid.region());
            let goal = random_cell(&mut rng, grid.region());
            if let (Some(estimate), Some(cost)) = (
                map.estimate_cost(start, goal, 1, "a"),
                rules.optimal_cost(start, goal),
            ) {
                assert!(estimate <= cost, "case {case}: {estimate} > {cost}");
            }
        }
    }
    assert!(baked >= 10, "only {baked} maps had landmarks");
}
