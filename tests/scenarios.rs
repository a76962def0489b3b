//! Named scenarios: small maps whose right answer can be worked out by hand.

use clearance_core::{
    AgentProfile, Cell, Movement, PathCode, PathMap, PathQuery, Region, SearchMode, TerrainGrid,
    COST_SCALE,
};

const GROUND: u8 = 0;
const WALL: u8 = 1;
const ROAD: u8 = 2;
const SWAMP: u8 = 3;
const MUD: u8 = 4;
const RUBBLE: u8 = 5;

/// A map from rows of characters: `.` ground, `#` wall, `r` road, `s` swamp, `m` mud,
/// `x` rubble.
fn map_from(rows: &[&str], movement: Movement) -> PathMap {
    let width = rows[0].len() as i32;
    let data: Vec<u8> = rows
        .iter()
        .flat_map(|row| row.chars())
        .map(|c| match c {
            '.' => GROUND,
            '#' => WALL,
            'r' => ROAD,
            's' => SWAMP,
            'm' => MUD,
            'x' => RUBBLE,
            other => panic!("unknown map character {other}"),
        })
        .collect();
    let region = Region::new(0, 0, width, rows.len() as i32);
    PathMap::new(TerrainGrid::from_bytes(region, &data).unwrap()).with_movement(movement)
}

fn profile(name: &str, costs: &[(u8, f64)]) -> AgentProfile {
    let mut profile = AgentProfile::new(name);
    for &(terrain, multiplier) in costs {
        profile.set_terrain(terrain, multiplier).unwrap();
    }
    profile
}

fn cost(value: f64) -> u64 {
    (value * COST_SCALE as f64).round() as u64
}

#[test]
fn width_one_gap_passes_a_1x1_and_sends_a_2x2_the_wide_way() {
    let mut map = map_from(
        &[
            "........", "........", "####.###", "........", "........", "........", "........",
            "##....##", "........", "........",
        ],
        Movement::FourWay,
    );
    map.set_profile(profile("unit", &[(GROUND, 1.0)])).unwrap();
    let small = map.find_path(Cell::new(4, 0), Cell::new(4, 3), 1, "unit");
    assert_eq!(small.code, PathCode::Ok);
    assert_eq!(small.cost, cost(3.0));
    assert!(
        small.path.contains(&Cell::new(4, 2)),
        "the 1x1 uses the gap"
    );

    // The 2x2 cannot pass row 2, so the goal above it is unreachable from below, but the
    // wide gap in row 7 lets it reach row 8 from row 3.
    let blocked = map.find_path(Cell::new(3, 0), Cell::new(3, 3), 2, "unit");
    assert_eq!(blocked.code, PathCode::NoPath);
    let wide = map.find_path(Cell::new(0, 3), Cell::new(0, 8), 2, "unit");
    assert_eq!(wide.code, PathCode::Ok);
    assert!(wide.path.iter().any(|a| a.y == 6 && (2..=4).contains(&a.x)));
    assert!(
        wide.cost > cost(5.0),
        "it had to walk round to the wide gap"
    );
}

#[test]
fn six_road_cells_at_1_beat_four_swamp_cells_at_3() {
    // Straight along row 0 enters 4 swamp cells (12.0) and the goal (1.0): 13.0.
    // Round by row 1 enters 6 road cells and the goal: 7.0.
    let mut map = map_from(&["rssssr", "rrrrrr"], Movement::FourWay);
    map.set_profile(profile("jeep", &[(ROAD, 1.0), (SWAMP, 3.0)]))
        .unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(5, 0), 1, "jeep");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.cost, cost(7.0));
    assert!(result.path.iter().all(|a| a.y == 1 || a.x == 0 || a.x == 5));
}

#[test]
fn start_cell_is_never_charged() {
    // Start on rubble at 9.0, then road 1.0, mud 3.0, goal road 1.0: 1 + 3 + 1 = 5.
    let mut map = map_from(&["xrmr"], Movement::FourWay);
    map.set_profile(profile("walker", &[(RUBBLE, 9.0), (ROAD, 1.0), (MUD, 3.0)]))
        .unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(3, 0), 1, "walker");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.total_cost(), 5.0);
    // Backwards the rubble is entered and the first road is not.
    let back = map.find_path(Cell::new(3, 0), Cell::new(0, 0), 1, "walker");
    assert_eq!(back.total_cost(), 3.0 + 1.0 + 9.0);
}

#[test]
fn multiplier_below_one_takes_the_longer_cheaper_route() {
    // Along row 0: 4 ground cells, 4.0. Down, along the 0.25 road and up: 5 x 0.25 + 1 = 2.25.
    let mut map = map_from(&[".....", "rrrrr"], Movement::FourWay);
    map.set_profile(profile("cart", &[(GROUND, 1.0), (ROAD, 0.25)]))
        .unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(4, 0), 1, "cart");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.total_cost(), 2.25);
    assert_eq!(result.path.len(), 7);
}

#[test]
fn zero_multiplier_is_free_and_still_optimal() {
    let mut map = map_from(&["r...r", "rrrrr"], Movement::EightWay);
    map.set_profile(profile("ghost", &[(GROUND, 1.0), (ROAD, 0.0)]))
        .unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(4, 0), 1, "ghost");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.cost, 0);
}

#[test]
fn larger_agents_pay_for_the_dearest_cell_under_their_footprint() {
    // A 2x2 at anchor (1, 0) covers columns 1-2; one swamp cell under it makes the step 3.0.
    let mut map = map_from(&["..s.", "...."], Movement::FourWay);
    map.set_profile(profile("tank", &[(GROUND, 1.0), (SWAMP, 3.0)]))
        .unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(2, 0), 2, "tank");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.total_cost(), 6.0);
}

#[test]
fn goal_with_clearance_1_refuses_a_2x2_and_expands_nothing() {
    let mut map = map_from(&["....", "....", "...#"], Movement::EightWay);
    map.set_profile(profile("tank", &[(GROUND, 1.0)])).unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(3, 0), 2, "tank");
    assert_eq!(result.code, PathCode::GoalClearanceInsufficient);
    let shortfall = result.shortfall.unwrap();
    assert_eq!((shortfall.found, shortfall.needed), (1, 2));
    assert_eq!(result.expanded, 0);
    assert!(result.path.is_empty());

    let start = map.find_path(Cell::new(2, 1), Cell::new(0, 0), 2, "tank");
    assert_eq!(start.code, PathCode::StartClearanceInsufficient);
    assert_eq!(start.shortfall.unwrap().found, 1);
    assert_eq!(start.expanded, 0);
}

#[test]
fn diagonal_steps_never_cut_corners() {
    // The diagonal from (0, 1) to (1, 0) would cut the wall at (0, 0).
    let mut map = map_from(&["#.", ".."], Movement::EightWay);
    map.set_profile(profile("unit", &[(GROUND, 1.0)])).unwrap();
    let result = map.find_path(Cell::new(0, 1), Cell::new(1, 0), 1, "unit");
    assert_eq!(
        result.path,
        vec![Cell::new(0, 1), Cell::new(1, 1), Cell::new(1, 0)]
    );
    assert_eq!(result.total_cost(), 2.0);
}

#[test]
fn the_same_query_returns_the_identical_path_after_unrelated_queries() {
    let mut map = map_from(
        &[
            "..........",
            "..#####...",
            "......#...",
            "..s...#...",
            "..ss......",
        ],
        Movement::EightWay,
    );
    map.set_profile(profile("unit", &[(GROUND, 1.0), (SWAMP, 2.0)]))
        .unwrap();
    let first = map.find_path(Cell::new(0, 4), Cell::new(9, 0), 1, "unit");
    let again = map.find_path(Cell::new(0, 4), Cell::new(9, 0), 1, "unit");
    assert_eq!(first, again);
    for x in 0..10 {
        map.find_path(Cell::new(x, 0), Cell::new(9 - x, 4), 1, "unit");
        map.find_path(Cell::new(x, 4), Cell::new(0, 0), 2, "unit");
    }
    assert_eq!(
        map.find_path(Cell::new(0, 4), Cell::new(9, 0), 1, "unit"),
        first
    );
}

#[test]
fn ties_break_by_lowest_h_then_y_then_x() {
    // On an open 3x3 map every 4-way path from (0,0) to (2,2) costs 4. Plain A*: (1,0) and
    // (0,1) tie on f and h; the lower row wins, and so on at every step: along row 0, then
    // down. Jump-point search takes its canonical order instead: vertical steps first.
    let mut map = map_from(&["...", "...", "..."], Movement::FourWay);
    map.set_profile(profile("unit", &[(GROUND, 1.0)])).unwrap();
    let query = PathQuery::new(Cell::new(0, 0), Cell::new(2, 2), 1, "unit");
    let cells = |pairs: [(i32, i32); 5]| pairs.into_iter().map(Cell::from).collect::<Vec<_>>();
    let plain = map.query(&query.search(SearchMode::Plain));
    assert_eq!(plain.total_cost(), 4.0);
    assert_eq!(plain.path, cells([(0, 0), (1, 0), (2, 0), (2, 1), (2, 2)]));
    let jump = map.query(&query.search(SearchMode::Jump));
    assert_eq!(jump.total_cost(), 4.0);
    assert_eq!(jump.path, cells([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2)]));
}

#[test]
fn negative_origins_work_like_any_other() {
    let grid = TerrainGrid::new(Region::new(-10, -3, 6, 4), GROUND).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(profile("unit", &[(GROUND, 1.0)])).unwrap();
    let result = map.find_path(Cell::new(-10, -3), Cell::new(-5, 0), 1, "unit");
    assert_eq!(result.code, PathCode::Ok);
    assert_eq!(result.path.first(), Some(&Cell::new(-10, -3)));
    assert_eq!(result.path.last(), Some(&Cell::new(-5, 0)));
    assert_eq!(result.path.len(), 6);
}
