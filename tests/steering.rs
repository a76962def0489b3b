//! Steering one waypoint at a time (`PathMap::first_waypoint`), against the independent
//! checker of `clearance_tests::swept`: on generated maps (sizes 1 to 4, walls, weighted
//! ground, 4- and 8-way, units counted by the block and the cost rule), the anchor returned
//! lies on the path, the straight move to it keeps the rules, the move one anchor farther
//! does not (unless it is the goal), it is the greedy walk's waypoint as the smoothing module
//! documents it (a reimplementation on the checker's tests), and the whole path's taut
//! waypoints never turn nearer.
//! Long straight paths check the lazy reading at the lengths where it reads more, and bad
//! input gets the errors `smooth_path` gives.

use clearance_core::{
    AgentProfile, Cell, FlowFieldOptions, OtherUnits, PathMap, Region, SmoothingError, TerrainGrid,
};
use clearance_tests::generate::Rng;
use clearance_tests::smoothing::{checker_for, random_map, DrawnQuery};
use clearance_tests::swept::WaypointChecker;

/// Where `waypoint` lies on `path`.
fn position_on(path: &[Cell], waypoint: Cell, context: &str) -> usize {
    (path.iter().position(|&anchor| anchor == waypoint))
        .unwrap_or_else(|| panic!("{context}: {waypoint} is not on the path"))
}

/// The first waypoint of the greedy walk as the crate's `smoothing` module documents it, each
/// move tested by the checker: from the start, the places where `path` turns (and its last
/// anchor) are galloped over, 1, 2, 4, ... turns ahead of the last accepted one (the first
/// is accepted untested), to the first refused; the gap is bisected to neighbouring turns,
/// one accepted and one refused; the answer is the last accepted anchor from the first of
/// them up to the second.
fn documented_first_waypoint(checker: &WaypointChecker<'_>, path: &[Cell]) -> usize {
    let last = path.len() - 1;
    if last == 0 {
        return 0;
    }
    let step = |i: usize| (path[i + 1].x - path[i].x, path[i + 1].y - path[i].y);
    let mut turns: Vec<usize> = (1..last).filter(|&i| step(i - 1) != step(i)).collect();
    turns.push(last);
    let allows = |to: usize| checker.allows(path, 0, to);
    let (mut accepted, mut reach) = (0, 1);
    let mut refused = loop {
        if accepted == turns.len() - 1 {
            return last;
        }
        let probe = (accepted + reach).min(turns.len() - 1);
        if !allows(turns[probe]) {
            break probe;
        }
        accepted = probe;
        reach *= 2;
    };
    while refused - accepted > 1 {
        let middle = accepted + (refused - accepted) / 2;
        if allows(turns[middle]) {
            accepted = middle;
        } else {
            refused = middle;
        }
    }
    (turns[accepted]..turns[refused])
        .rev()
        .find(|&i| allows(i))
        .expect("the accepted turn")
}

#[test]
fn the_first_waypoint_is_the_farthest_straight_move_before_a_refused_one_on_generated_maps() {
    let mut rng = Rng::new(0x57EE_41D6);
    let (mut steered, mut refused_next, mut past_first_read) = (0, 0, 0);
    let mut nearer_than_taut = 0;
    for case in 0..1800 {
        // Every second map is large enough for waypoints past the first 32 anchors read.
        let max_side = if case % 2 == 0 { 160 } else { 25 };
        let (map, units) = random_map(&mut rng, case, max_side);
        for _ in 0..3 {
            let drawn = DrawnQuery::draw(&mut rng, &map, &units);
            let (size, profile, rule, start) = (drawn.size, drawn.profile, drawn.rule, drawn.start);
            let exempt = &drawn.exempt;
            let query = drawn.query();
            let path = map.query(&query).path;
            if path.is_empty() {
                continue;
            }
            let context = format!("case {case}: {query:?}");
            let first = map
                .first_waypoint(path.iter().copied(), size, profile, rule, &exempt)
                .unwrap_or_else(|error| panic!("{context}: {error}"));
            let at = position_on(&path, first, &context);
            let checker = checker_for(&map, &units, &query, start);
            if path.len() == 1 {
                assert_eq!(at, 0, "{context}");
                continue;
            }
            assert!(at >= 1, "{context}: the unit is sent nowhere");
            assert!(
                checker.allows(&path, 0, at),
                "{context}: the move to {first} breaks the rules"
            );
            if at + 1 < path.len() {
                assert!(
                    !checker.allows(&path, 0, at + 1),
                    "{context}: the move to the anchor after {first} keeps the rules"
                );
                refused_next += 1;
            }
            assert_eq!(
                at,
                documented_first_waypoint(&checker, &path),
                "{context}: not the greedy walk's waypoint"
            );
            let taut = map
                .smooth_path(&path, size, profile, rule, &exempt)
                .unwrap_or_else(|error| panic!("{context}: {error}"));
            let taut_at = position_on(&path, taut[1], &context);
            assert!(
                taut_at >= at,
                "{context}: taut turns at {taut_at}, before {at}"
            );
            nearer_than_taut += usize::from(taut_at > at);
            past_first_read += usize::from(at >= 32);
            steered += 1;
        }
    }
    assert!(steered > 3000, "only {steered} paths steered");
    assert!(
        refused_next > 2000,
        "only {refused_next} refused moves past"
    );
    assert!(
        past_first_read > 20,
        "only {past_first_read} waypoints past 32 anchors"
    );
    // The greedy waypoint is the taut one on most paths.
    assert!(
        nearer_than_taut * 10 < steered,
        "{nearer_than_taut} of {steered}"
    );
}

/// An open map with a wall: the path runs east along row `north` from x = 0 to x = `turn`,
/// then north to row 0 beside a wall along its west side, which refuses the move from the
/// start to any anchor after the turn.
fn east_then_north(turn: i32, north: i32) -> (PathMap, Vec<Cell>) {
    let mut grid = TerrainGrid::new(Region::new(0, 0, turn + 4, north + 2), 0).unwrap();
    grid.fill_rect(Region::new(turn - 1, 0, 1, north), 1)
        .unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let east = (0..=turn).map(|x| Cell::new(x, north));
    let up = (0..north).rev().map(|y| Cell::new(turn, y));
    (map, east.chain(up).collect())
}

#[test]
fn waypoints_at_the_lengths_where_more_of_the_path_is_read() {
    for turn in [1, 2, 30, 31, 32, 33, 63, 64, 65, 127, 128, 129, 300] {
        let (map, path) = east_then_north(turn, 10);
        let first = map
            .first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Ignore, &[])
            .unwrap();
        assert_eq!(first, Cell::new(turn, 10), "turn at {turn}");
        assert!(map
            .straight_move_blocker(
                path[0],
                path[turn as usize + 1],
                1,
                "unit",
                OtherUnits::Ignore,
                &[]
            )
            .unwrap()
            .is_some());
        // Straight to the end, read to the end.
        let straight = &path[..=turn as usize];
        let last = map.first_waypoint(straight.iter().copied(), 1, "unit", OtherUnits::Ignore, &[]);
        assert_eq!(last, Ok(Cell::new(turn, 10)), "turn at {turn}");
    }
}

#[test]
fn what_lies_where_the_first_read_ends_does_not_change_the_waypoint() {
    // Open ground with one wall cell, which hides anchor 31 of the path below from the start
    // (and anchor 30, a turn) but not the turns the walk from the start tests: anchors 20 (one
    // turn past the first), 40 (two more) and 50 (the last).
    let mut grid = TerrainGrid::new(Region::new(0, 0, 40, 30), 0).unwrap();
    grid.fill_rect(Region::new(15, 8, 1, 1), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let legs = [
        ((1, 0), 10),
        ((0, 1), 10),
        ((1, 0), 10),
        ((0, 1), 10),
        ((1, 0), 10),
    ];
    let mut path = vec![Cell::new(0, 0)];
    for ((dx, dy), steps) in legs {
        for _ in 0..steps {
            let at = *path.last().unwrap();
            path.push(Cell::new(at.x + dx, at.y + dy));
        }
    }
    let blocker = |to: Cell| {
        map.straight_move_blocker(path[0], to, 1, "unit", OtherUnits::Ignore, &[])
            .unwrap()
    };
    assert_eq!(path[31], Cell::new(20, 11));
    assert!(blocker(path[31]).is_some());
    assert!([20, 40, 50]
        .iter()
        .all(|&turn| blocker(path[turn]).is_none()));
    // The walk tests turns only: the first 32 anchors read end where the path does not turn,
    // so the walk reads on to the turns past them and, seeing those it tests, heads for the
    // goal.
    let first = map.first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Ignore, &[]);
    assert_eq!(first, Ok(Cell::new(30, 20)));
}

#[test]
fn a_field_steers_as_its_path_does() {
    let (map, path) = east_then_north(200, 10);
    let goal = *path.last().unwrap();
    let field = map
        .flow_field(&[goal], 1, "unit", FlowFieldOptions::new())
        .unwrap();
    let start = Cell::new(0, 10);
    let read = field.anchors_from(start);
    let from_field = map.first_waypoint(read, 1, "unit", OtherUnits::Ignore, &[]);
    let whole = field.path_from(start).path;
    let from_path = map.first_waypoint(whole, 1, "unit", OtherUnits::Ignore, &[]);
    assert_eq!(from_field, from_path);
    assert!(from_field.is_ok());
}

#[test]
fn bad_input_gets_the_errors_of_smooth_path_where_it_is_read() {
    let (map, path) = east_then_north(10, 10);
    let first = |anchors: &[Cell]| {
        map.first_waypoint(anchors.iter().copied(), 1, "unit", OtherUnits::Ignore, &[])
    };
    assert_eq!(first(&[]), Err(SmoothingError::EmptyPath));
    let mut off_map = path.clone();
    off_map[3] = Cell::new(-1, 10);
    assert_eq!(
        first(&off_map),
        Err(SmoothingError::AnchorOutOfBounds {
            index: 3,
            anchor: Cell::new(-1, 10)
        })
    );
    let mut jump = path.clone();
    jump.remove(4);
    assert_eq!(
        first(&jump),
        Err(SmoothingError::NotAStep {
            index: 3,
            from: Cell::new(3, 10),
            to: Cell::new(5, 10)
        })
    );
    let mut on_the_wall = path.clone();
    on_the_wall[9] = Cell::new(9, 9);
    assert!(matches!(
        first(&on_the_wall),
        Err(SmoothingError::AnchorNotLegal { index: 9, .. })
    ));
    // Past the anchors read, nothing is checked: the unit is steered by what it can see.
    // East to the wall's end, then north in a zigzag (each anchor a turn): the walk from the
    // start tests the first turn after the corner only.
    let (map, _) = east_then_north(20, 90);
    let east = (0..=20).map(|x| Cell::new(x, 90));
    let zigzag = (1..=80).map(|i| Cell::new(20 + i % 2, 90 - i));
    let path: Vec<Cell> = east.chain(zigzag).collect();
    let mut far_jump = path.clone();
    far_jump.extend([Cell::new(500, 500), Cell::new(-7, 3)]);
    assert_eq!(
        map.first_waypoint(far_jump, 1, "unit", OtherUnits::Ignore, &[]),
        Ok(Cell::new(20, 90))
    );
    // Read far enough, the jump is refused.
    let mut near_jump = path.clone();
    near_jump.truncate(23);
    near_jump.push(Cell::new(-7, 3));
    assert!(matches!(
        map.first_waypoint(near_jump, 1, "unit", OtherUnits::Ignore, &[]),
        Err(SmoothingError::AnchorOutOfBounds { index: 23, .. })
    ));
    // The agent, the profile and the exempt units are checked before any anchor.
    let agent = |size: i64, profile: &str, exempt: &[i64]| {
        map.first_waypoint(
            path.iter().copied(),
            size,
            profile,
            OtherUnits::Ignore,
            exempt,
        )
    };
    assert_eq!(
        agent(0, "unit", &[]),
        Err(SmoothingError::InvalidAgentSize { size: 0 })
    );
    assert!(matches!(
        agent(1, "boat", &[]),
        Err(SmoothingError::UnknownProfile { .. })
    ));
    assert_eq!(
        agent(1, "unit", &[4]),
        Err(SmoothingError::UnknownUnit { id: 4 })
    );
}

#[test]
fn a_blocking_unit_on_the_path_read_is_refused_as_smooth_path_refuses_it() {
    let (mut map, path) = east_then_north(30, 10);
    map.place_unit(1, Cell::new(6, 10), 1).unwrap();
    let steered = map.first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Block, &[]);
    let smoothed = map.smooth_path(&path, 1, "unit", OtherUnits::Block, &[]);
    assert!(matches!(
        steered,
        Err(SmoothingError::Occupied { index: 5, .. })
    ));
    assert_eq!(steered.unwrap_err(), smoothed.unwrap_err());
    // Exempt, the unit stops nothing.
    assert_eq!(
        map.first_waypoint(path, 1, "unit", OtherUnits::Block, &[1]),
        Ok(Cell::new(30, 10))
    );
}
