//! Taut waypoints against an independent checker: on generated maps (sizes 1 to 4, walls,
//! weighted terrain with multipliers 0 and below 1, 4- and 8-way, units counted by the block
//! and the cost rule) and on Moving AI scenarios, every segment between consecutive waypoints
//! sweeps only cells the rules allow, no waypoint can be dropped, the waypoints are a
//! subsequence of the path from start to goal, and their length never exceeds the path's.
//!
//! The checker is `clearance_tests::swept::WaypointChecker` (its module docs give the test).

use clearance_core::{
    AgentProfile, Cell, Movement, OtherUnits, PathMap, PathQuery, PathResult, Smoothing,
    SmoothingError, TerrainGrid, UnitCost,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{random_cell, Rng};
use clearance_tests::reference::Reference;
use clearance_tests::smoothing::{checker_for, random_map, DrawnQuery, NAMES, UNIT_COSTS};
use clearance_tests::swept::WaypointChecker;

#[test]
fn every_segment_keeps_the_rules_and_no_waypoint_can_be_dropped_on_generated_maps() {
    let mut rng = Rng::new(0x5300_7401_7A17);
    let mut smoothed = 0;
    let mut shortened = 0;
    let mut with_units = [0usize; 2];
    let mut by_size = [0usize; 5];
    for case in 0..700 {
        let (map, units) = random_map(&mut rng, case, 25);
        for _ in 0..4 {
            let drawn = DrawnQuery::draw(&mut rng, &map, &units);
            let (size, profile, rule, start) = (drawn.size, drawn.profile, drawn.rule, drawn.start);
            let exempt = &drawn.exempt;
            let ids: Vec<i64> = units.iter().map(|unit| unit.id).collect();
            let mut query = drawn.query();
            if !ids.is_empty() && rng.chance(30) {
                query = query.moving_unit(*rng.pick(&ids));
            }
            let plain = map.query(&query);
            let result = map.query(&query.smoothing(Smoothing::Taut));
            let context = format!("case {case}: {query:?}");
            assert_eq!(
                (plain.code, &plain.path, plain.cost),
                (result.code, &result.path, result.cost),
                "{context}: smoothing changed the path"
            );
            assert!(plain.waypoints.is_empty() && plain.smoothing == Smoothing::Off);
            assert_eq!(result.smoothing, Smoothing::Taut);
            if result.path.is_empty() {
                assert!(
                    result.waypoints.is_empty(),
                    "{context}: waypoints without a path"
                );
                continue;
            }
            let checker = checker_for(&map, &units, &query, start);
            let count = checker.check(&result.path, &result.waypoints, &context);
            assert!((result.waypoint_length() - result.path_length()) <= 1e-9);
            // The same waypoints for the same path through the public entry point.
            let mut not_counted = exempt.clone();
            not_counted.extend(query.moving_unit);
            let again = map
                .smooth_path(&result.path, size, profile, rule, &not_counted)
                .unwrap_or_else(|error| panic!("{context}: {error}"));
            assert_eq!(again, result.waypoints, "{context}: smooth_path differs");
            smoothed += 1;
            by_size[size as usize] += 1;
            shortened += usize::from(count < result.path.len() && count > 2);
            match rule {
                OtherUnits::Block if !checker.units.as_ref().unwrap().0.is_empty() => {
                    with_units[0] += 1
                }
                OtherUnits::Cost(_) if !checker.units.as_ref().unwrap().0.is_empty() => {
                    with_units[1] += 1
                }
                _ => {}
            }
        }
    }
    assert!(smoothed > 1200, "only {smoothed} paths smoothed");
    assert!(
        shortened > 300,
        "only {shortened} paths with a bend and a shortcut"
    );
    assert!(by_size[1..].iter().all(|&count| count > 150), "{by_size:?}");
    assert!(
        with_units.iter().all(|&count| count > 150),
        "{with_units:?}"
    );
}

#[test]
fn straight_moves_are_stopped_exactly_where_the_checker_says() {
    let mut rng = Rng::new(0x57A1_6E7B);
    let (mut clear, mut stopped, mut not_legal) = (0, 0, 0);
    let mut stopped_by_units = 0;
    for case in 0..500 {
        let (map, units) = random_map(&mut rng, case, 25);
        for _ in 0..8 {
            let size = rng.range(1, 5);
            let profile = *rng.pick(&NAMES);
            let terrain = Reference::for_map(&map, profile, size);
            let from = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            // Near moves as well as far ones, so that many are clear.
            let to = if rng.chance(50) {
                let near = |at: i32, rng: &mut Rng| at + rng.range(-4, 5) as i32;
                Cell::new(near(from.x, &mut rng), near(from.y, &mut rng))
            } else {
                likely_legal_anchor(&mut rng, map.grid(), &terrain)
            };
            let rule = match rng.range(0, 3) {
                0 => OtherUnits::Ignore,
                1 => OtherUnits::Block,
                _ => OtherUnits::Cost(UnitCost::from_fixed(*rng.pick(&UNIT_COSTS)).unwrap()),
            };
            let exempt: Vec<i64> = (units.iter().map(|unit| unit.id))
                .filter(|_| rng.chance(20))
                .collect();
            let context = format!("case {case}: size {size} {profile} {from} -> {to}, {rule:?}");
            let on_map = |anchor: Cell| map.grid().terrain(anchor).is_some();
            let found = match map.straight_move_blocker(from, to, size, profile, rule, &exempt) {
                Ok(found) => found,
                // Off the map is checked for both anchors first, then the fit: the error
                // names the first anchor that fails the first check any fails.
                Err(SmoothingError::AnchorOutOfBounds { index, anchor }) => {
                    assert!(
                        index < 2 && anchor == [from, to][index],
                        "{context}: {anchor}"
                    );
                    assert!(!on_map(anchor), "{context}: {anchor} is on the map");
                    assert!(
                        [from, to][..index].iter().all(|&end| on_map(end)),
                        "{context}"
                    );
                    not_legal += 1;
                    continue;
                }
                Err(SmoothingError::AnchorNotLegal { index, anchor }) => {
                    assert!(
                        index < 2 && anchor == [from, to][index],
                        "{context}: {anchor}"
                    );
                    assert!(on_map(from) && on_map(to), "{context}: off the map");
                    assert!(!terrain.legal(anchor), "{context}: {anchor} is legal");
                    assert!([from, to][..index].iter().all(|&end| terrain.legal(end)));
                    not_legal += 1;
                    continue;
                }
                Err(error) => panic!("{context}: {error}"),
            };
            assert!(
                terrain.legal(from) && terrain.legal(to),
                "{context}: answered"
            );
            let query = PathQuery::new(from, to, size, profile)
                .other_units(rule)
                .exempt_units(&exempt);
            let checker = checker_for(&map, &units, &query, from);
            let refused = checker.refused_on_move(to);
            match found {
                None => {
                    assert!(
                        refused.is_empty(),
                        "{context}: clear, but {refused:?} refuse it"
                    );
                    clear += 1;
                }
                Some(cell) => {
                    assert!(
                        refused.contains(&cell),
                        "{context}: {cell} named, refused {refused:?}"
                    );
                    stopped += 1;
                    stopped_by_units +=
                        usize::from(map.grid().terrain(cell).is_some_and(|terrain| {
                            map.profile(profile)
                                .unwrap()
                                .fixed_multiplier(terrain)
                                .is_some()
                        }));
                }
            }
        }
    }
    assert!(
        clear > 600 && stopped > 600,
        "{clear} clear, {stopped} stopped"
    );
    assert!(
        stopped_by_units > 50,
        "only {stopped_by_units} stopped by a unit"
    );
    assert!(not_legal > 50, "only {not_legal} refused anchors");
}

#[test]
fn straight_moves_refuse_bad_input_with_its_error() {
    let mut map =
        PathMap::new(TerrainGrid::new(clearance_core::Region::new(0, 0, 6, 6), 0).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map.place_unit(7, Cell::new(2, 2), 1).unwrap();
    let at = |x: i32, y: i32| Cell::new(x, y);
    let check = |from: Cell, to: Cell, size: i64, profile: &str, exempt: &[i64]| {
        map.straight_move_blocker(from, to, size, profile, OtherUnits::Block, exempt)
    };
    assert_eq!(check(at(0, 0), at(5, 0), 1, "unit", &[]), Ok(None));
    // The unit at (2, 2) stands on the diagonal; exempt, it does not count.
    assert_eq!(
        check(at(0, 0), at(5, 5), 1, "unit", &[]),
        Ok(Some(at(2, 2)))
    );
    assert_eq!(check(at(0, 0), at(5, 5), 1, "unit", &[7]), Ok(None));
    // Standing on a unit's cell, the mover walks out of it.
    assert_eq!(check(at(2, 2), at(5, 2), 1, "unit", &[]), Ok(None));
    for size in [0, -1, 256] {
        assert_eq!(
            check(at(0, 0), at(1, 0), size, "unit", &[]),
            Err(SmoothingError::InvalidAgentSize { size })
        );
    }
    assert_eq!(
        check(at(0, 0), at(1, 0), 1, "tank", &[]),
        Err(SmoothingError::UnknownProfile {
            profile: "tank".to_owned()
        })
    );
    assert_eq!(
        check(at(0, 0), at(1, 0), 1, "unit", &[8]),
        Err(SmoothingError::UnknownUnit { id: 8 })
    );
    assert_eq!(
        check(at(-1, 0), at(1, 0), 1, "unit", &[]),
        Err(SmoothingError::AnchorOutOfBounds {
            index: 0,
            anchor: at(-1, 0)
        })
    );
    assert_eq!(
        check(at(0, 0), at(1, 6), 1, "unit", &[]),
        Err(SmoothingError::AnchorOutOfBounds {
            index: 1,
            anchor: at(1, 6)
        })
    );
    // A 2x2 footprint at (5, 5) would stick out of the map.
    assert_eq!(
        check(at(0, 0), at(5, 5), 2, "unit", &[]),
        Err(SmoothingError::AnchorNotLegal {
            index: 1,
            anchor: at(5, 5)
        })
    );
}

#[test]
fn batches_and_repeated_queries_return_the_same_waypoints() {
    let mut rng = Rng::new(0x0BA7_C4E5);
    for case in 0..40 {
        let (map, _) = random_map(&mut rng, case, 25);
        let queries: Vec<PathQuery<'_>> = (0..12)
            .map(|_| {
                let region = map.region();
                PathQuery::new(
                    random_cell(&mut rng, region),
                    random_cell(&mut rng, region),
                    rng.range(1, 4),
                    NAMES[case % 2],
                )
                .other_units(OtherUnits::Block)
                .smoothing(Smoothing::Taut)
            })
            .collect();
        let single: Vec<PathResult> = queries.iter().map(|query| map.query(query)).collect();
        assert_eq!(map.query_batch(&queries, 3), single, "case {case}");
        assert_eq!(map.query_batch(&queries, 1), single, "case {case}");
    }
}

#[test]
fn a_straight_line_replaces_a_staircase_only_where_the_square_fits() {
    // Open ground with a wall cell at (3, 1): a 1x1 unit from (0, 0) to (6, 2) must bend.
    let mut grid = TerrainGrid::new(clearance_core::Region::new(0, 0, 8, 4), 0).unwrap();
    grid.set_cell(Cell::new(3, 1), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let query =
        PathQuery::new(Cell::new(0, 0), Cell::new(6, 2), 1, "unit").smoothing(Smoothing::Taut);
    let result = map.query(&query);
    assert!(result.waypoints.len() >= 3, "{:?}", result.waypoints);
    let checker = WaypointChecker {
        grid: map.grid(),
        profile: map.profile("unit").unwrap(),
        size: 1,
        units: None,
        start: query.start,
    };
    checker.check(&result.path, &result.waypoints, "wall cell");
    // Without the wall the line is straight: two waypoints.
    map.set_cell(Cell::new(3, 1), 0).unwrap();
    assert_eq!(
        map.query(&query).waypoints,
        [Cell::new(0, 0), Cell::new(6, 2)]
    );
    // Touching a wall at a corner or along an edge is allowed: a line along a wall's side.
    map.set_cell(Cell::new(3, 1), 1).unwrap();
    let along =
        PathQuery::new(Cell::new(0, 0), Cell::new(7, 0), 1, "unit").smoothing(Smoothing::Taut);
    assert_eq!(
        map.query(&along).waypoints,
        [Cell::new(0, 0), Cell::new(7, 0)]
    );
}

#[test]
fn a_shortcut_never_crosses_dearer_ground_than_the_path_it_replaces() {
    // Road along the top and right, swamp in the middle: the 4-way path keeps to the road
    // (cost 0.5), and a straight line from corner to corner would cross swamp (cost 3).
    let mut grid = TerrainGrid::new(clearance_core::Region::new(0, 0, 10, 10), 3).unwrap();
    grid.fill_rect(clearance_core::Region::new(0, 0, 10, 1), 2)
        .unwrap();
    grid.fill_rect(clearance_core::Region::new(9, 0, 1, 10), 2)
        .unwrap();
    let mut map = PathMap::new(grid).with_movement(Movement::FourWay);
    let profile = AgentProfile::new("unit")
        .with_terrain(2, 0.5)
        .unwrap()
        .with_terrain(3, 3.0)
        .unwrap();
    map.set_profile(profile).unwrap();
    let query =
        PathQuery::new(Cell::new(0, 0), Cell::new(9, 9), 1, "unit").smoothing(Smoothing::Taut);
    let result = map.query(&query);
    assert_eq!(
        result.waypoints,
        [Cell::new(0, 0), Cell::new(9, 0), Cell::new(9, 9)]
    );
    // On swamp the same corner is cut: the line crosses nothing dearer than swamp.
    let across =
        PathQuery::new(Cell::new(0, 1), Cell::new(8, 9), 1, "unit").smoothing(Smoothing::Taut);
    assert_eq!(
        map.query(&across).waypoints,
        [Cell::new(0, 1), Cell::new(8, 9)]
    );
}

#[test]
fn smoothing_a_path_refuses_what_is_not_a_path() {
    let mut grid = TerrainGrid::new(clearance_core::Region::new(0, 0, 6, 4), 0).unwrap();
    grid.set_cell(Cell::new(2, 2), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map.place_unit(7, Cell::new(4, 0), 1).unwrap();
    let cells =
        |list: &[(i32, i32)]| -> Vec<Cell> { list.iter().map(|&c| Cell::from(c)).collect() };
    let smooth = |path: &[Cell], size: i64, profile: &str, rule: OtherUnits, exempt: &[i64]| {
        map.smooth_path(path, size, profile, rule, exempt)
    };
    let line = cells(&[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0)]);
    assert_eq!(
        smooth(&line, 0, "unit", OtherUnits::Ignore, &[]),
        Err(SmoothingError::InvalidAgentSize { size: 0 })
    );
    assert_eq!(
        smooth(&line, 1, "tank", OtherUnits::Ignore, &[]),
        Err(SmoothingError::UnknownProfile {
            profile: "tank".into()
        })
    );
    assert_eq!(
        smooth(&line, 1, "unit", OtherUnits::Block, &[8]),
        Err(SmoothingError::UnknownUnit { id: 8 })
    );
    assert_eq!(
        smooth(&[], 1, "unit", OtherUnits::Ignore, &[]),
        Err(SmoothingError::EmptyPath)
    );
    assert_eq!(
        smooth(
            &cells(&[(0, 0), (-1, 0)]),
            1,
            "unit",
            OtherUnits::Ignore,
            &[]
        ),
        Err(SmoothingError::AnchorOutOfBounds {
            index: 1,
            anchor: Cell::new(-1, 0)
        })
    );
    assert_eq!(
        smooth(
            &cells(&[(1, 1), (2, 2)]),
            1,
            "unit",
            OtherUnits::Ignore,
            &[]
        ),
        Err(SmoothingError::AnchorNotLegal {
            index: 1,
            anchor: Cell::new(2, 2)
        })
    );
    // Cutting the wall's corner is no step.
    assert_eq!(
        smooth(
            &cells(&[(1, 1), (2, 1), (3, 2)]),
            1,
            "unit",
            OtherUnits::Ignore,
            &[]
        ),
        Err(SmoothingError::NotAStep {
            index: 1,
            from: Cell::new(2, 1),
            to: Cell::new(3, 2)
        })
    );
    // A 2x2 footprint at (2, 1) covers the wall.
    assert_eq!(
        smooth(
            &cells(&[(0, 0), (1, 0)]),
            2,
            "unit",
            OtherUnits::Ignore,
            &[]
        ),
        Ok(cells(&[(0, 0), (1, 0)]))
    );
    assert!(matches!(
        smooth(
            &cells(&[(1, 0), (2, 0), (2, 1)]),
            2,
            "unit",
            OtherUnits::Ignore,
            &[]
        ),
        Err(SmoothingError::AnchorNotLegal { index: 2, .. })
    ));
    // Through unit 7 at (4, 0): refused when units block, unless it is exempt.
    assert_eq!(
        smooth(&line, 1, "unit", OtherUnits::Block, &[]),
        Err(SmoothingError::Occupied {
            index: 3,
            from: Cell::new(3, 0),
            to: Cell::new(4, 0)
        })
    );
    assert_eq!(
        smooth(&line, 1, "unit", OtherUnits::Block, &[7]),
        Ok(cells(&[(0, 0), (5, 0)]))
    );
    assert_eq!(
        smooth(&line, 1, "unit", OtherUnits::Ignore, &[]),
        Ok(cells(&[(0, 0), (5, 0)]))
    );
    // Under the cost rule the line passes, and a shortcut may cross the unit's cell only
    // where the path it replaces does.
    assert_eq!(
        smooth(&line, 1, "unit", OtherUnits::cost(4.0).unwrap(), &[]),
        Ok(cells(&[(0, 0), (5, 0)]))
    );
    // Passing the unit diagonally is refused when units block.
    let past = cells(&[(3, 0), (4, 1), (5, 0)]);
    assert!(matches!(
        smooth(&past, 1, "unit", OtherUnits::Block, &[]),
        Err(SmoothingError::Occupied { index: 0, .. })
    ));
    // Round it by straight steps, the path sweeps only cost-1 cells; so may its shortcuts,
    // which keep out of the unit's cell under either rule (touching its edge is allowed).
    let around = cells(&[(3, 0), (3, 1), (4, 1), (5, 1), (5, 0)]);
    let bends = cells(&[(3, 0), (3, 1), (5, 1), (5, 0)]);
    assert_eq!(
        smooth(&around, 1, "unit", OtherUnits::cost(4.0).unwrap(), &[]),
        Ok(bends.clone())
    );
    assert_eq!(
        smooth(&around, 1, "unit", OtherUnits::Block, &[]),
        Ok(bends)
    );
}

/// Every `stride`-th problem of shared map `name`, smoothed for sizes 1 and 3 and checked.
fn check_shared_map(name: &str, stride: usize) -> usize {
    use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, MOVINGAI_PROFILE};
    let dir =
        clearance_cli::shared_data::movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let map = read_map(&dir.join(format!("{name}.map"))).unwrap();
    let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map).unwrap();
    let mut path_map = PathMap::new(map.grid);
    path_map.set_profile(movingai_profile()).unwrap();
    let mut checked = 0;
    for problem in problems.iter().step_by(stride) {
        let (start, goal) = problem.endpoints();
        for size in [1, 3] {
            let query =
                PathQuery::new(start, goal, size, MOVINGAI_PROFILE).smoothing(Smoothing::Taut);
            let result = path_map.query(&query);
            if result.path.is_empty() {
                continue;
            }
            let checker = checker_for(&path_map, &[], &query, start);
            checker.check(
                &result.path,
                &result.waypoints,
                &format!("{name} line {} size {size}", problem.line),
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn moving_ai_scenarios_on_arena2_are_smoothed_by_the_rules() {
    assert!(check_shared_map("arena2", 24) > 40);
}

#[test]
fn moving_ai_scenarios_on_across_the_cape_are_smoothed_by_the_rules() {
    assert!(check_shared_map("AcrosstheCape", 120) > 40);
}
