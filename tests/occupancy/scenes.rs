//! Hand-built scenes: units walling off goals, closing gaps, sharing cells, standing on the
//! goal, and cutting the map.

use super::*;

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
        let movement = movement_for_case(case);
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
fn a_limited_partial_path_spends_no_expansions_on_an_anchor_units_cut_off() {
    // The ring of units round the room x 7..10, y 3..6, and a unit on the goal inside it: the
    // nearest free anchors lie inside the ring, which the start cannot reach. Without a limit
    // a search towards one of them fails first; with one, the answer comes from the walk, and
    // a limit as large as that answer's own search still finds it.
    for movement in [Movement::EightWay, Movement::FourWay] {
        let mut map = open_map(14, 10, movement);
        for x in 6..=10 {
            for y in 2..=6 {
                if x == 6 || x == 10 || y == 2 || y == 6 {
                    map.place_unit(i64::from(y * 100 + x), Cell::new(x, y), 1)
                        .unwrap();
                }
            }
        }
        map.place_unit(1, Cell::new(8, 4), 1).unwrap();
        for mode in SearchMode::ALL {
            let query = PathQuery::new(Cell::new(0, 0), Cell::new(8, 4), 1, "unit")
                .search(mode)
                .other_units(OtherUnits::Block)
                .allow_partial_path(true);
            let unlimited = map.query(&query);
            assert_eq!(
                unlimited.code,
                PathCode::PartialPath,
                "{movement:?} {mode:?}"
            );
            assert_eq!(unlimited.path.last(), Some(&Cell::new(8, 1)));
            // What a search straight to that end expands is all the limited query may use.
            let to_end = PathQuery {
                goal: Cell::new(8, 1),
                ..query
            };
            let needed = map.query(&to_end.max_expansions(u64::MAX)).expanded;
            let limited = map.query(&query.max_expansions(needed));
            assert_eq!(
                (limited.code, limited.cost, limited.path.last()),
                (unlimited.code, unlimited.cost, unlimited.path.last()),
                "{movement:?} {mode:?}: a limit of {needed}"
            );
        }
    }
}
