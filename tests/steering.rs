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
fn the_first_waypoint_is_the_greedy_walks_and_the_move_past_it_is_refused_on_generated_maps() {
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
                .first_waypoint(path.iter().copied(), size, profile, rule, exempt)
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
                .smooth_path(&path, size, profile, rule, exempt)
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
fn a_field_steers_by_the_greedy_walk_along_its_paths() {
    // A wall with a gap, so that paths from the left side wind through it.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 120, 40), 0).unwrap();
    grid.fill_rect(Region::new(60, 0, 2, 40), 1).unwrap();
    grid.fill_rect(Region::new(60, 17, 2, 3), 0).unwrap();
    grid.fill_rect(Region::new(30, 5, 6, 20), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let mut rng = Rng::new(0xF1E1D);
    for size in 1..=2 {
        let goal = Cell::new(110, 35);
        let field = map
            .flow_field(&[goal], size, "unit", FlowFieldOptions::new())
            .unwrap();
        let mut steered = 0;
        while steered < 40 {
            let start = Cell::new(rng.range(0, 60) as i32, rng.range(0, 40) as i32);
            let path = field.path_from(start).path;
            if path.len() < 2 {
                continue;
            }
            let checker = WaypointChecker {
                grid: map.grid(),
                profile: map.profile("unit").unwrap(),
                size,
                units: None,
                start,
            };
            let expected = path[documented_first_waypoint(&checker, &path)];
            let read = field.anchors_from(start);
            let from_field = map.first_waypoint(read, size, "unit", OtherUnits::Ignore, &[]);
            assert_eq!(from_field, Ok(expected), "size {size}, from {start}");
            steered += 1;
        }
    }
}

#[test]
fn anchors_past_the_first_read_are_checked_when_read() {
    // East for 10 anchors, then straight north for 100: the walk reads on to the last anchor,
    // the next turn it must probe.
    let (mut map, path) = east_then_north(10, 100);
    let first = |anchors: &[Cell], rule: OtherUnits| {
        map.first_waypoint(anchors.iter().copied(), 1, "unit", rule, &[])
    };
    assert_eq!(first(&path, OtherUnits::Ignore), Ok(Cell::new(10, 100)));
    // A jump from anchor 31, the last of the first read, to the first of the second.
    let mut jump = path.clone();
    jump.remove(32);
    assert_eq!(
        first(&jump, OtherUnits::Ignore),
        Err(SmoothingError::NotAStep {
            index: 31,
            from: path[31],
            to: path[33]
        })
    );
    let mut on_the_wall = path.clone();
    on_the_wall[50].x -= 1;
    assert_eq!(
        first(&on_the_wall, OtherUnits::Ignore),
        Err(SmoothingError::AnchorNotLegal {
            index: 50,
            anchor: on_the_wall[50]
        })
    );
    map.place_unit(7, path[70], 1).unwrap();
    let blocked = map.first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Block, &[]);
    assert!(matches!(
        blocked,
        Err(SmoothingError::Occupied { index: 69, .. })
    ));
    let smoothed = map.smooth_path(&path, 1, "unit", OtherUnits::Block, &[]);
    assert_eq!(blocked, Err(smoothed.unwrap_err()));
}

#[test]
fn on_maps_narrower_than_three_cells_every_anchor_is_probed_as_a_turn() {
    // Two cells wide, one wall cell beside the path, which runs straight down the map and
    // then zigzags: the start sees the zigzag's anchors on its own column, not the others.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 2, 120), 0).unwrap();
    grid.fill_rect(Region::new(1, 20, 1, 1), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let column = |y: i32| if y > 40 { (y - 40) % 2 } else { 0 };
    let path: Vec<Cell> = (0..70).map(|y| Cell::new(column(y), y)).collect();
    let first = map
        .first_waypoint(path.iter().copied(), 1, "unit", OtherUnits::Ignore, &[])
        .unwrap();
    let at = position_on(&path, first, "narrow");
    let checker = WaypointChecker {
        grid: map.grid(),
        profile: map.profile("unit").unwrap(),
        size: 1,
        units: None,
        start: path[0],
    };
    assert!(at > 40 && checker.allows(&path, 0, at));
    assert!(at + 1 < path.len() && !checker.allows(&path, 0, at + 1));
    let taut = map
        .smooth_path(&path, 1, "unit", OtherUnits::Ignore, &[])
        .unwrap();
    assert!(position_on(&path, taut[1], "narrow") >= at);
}

#[test]
fn bad_input_in_the_first_read_gets_the_errors_of_smooth_path() {
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
