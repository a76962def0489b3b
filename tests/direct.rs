//! The direct path `auto` tries before searching: a straight walk at the goal, kept only when
//! every step is legal and pays the profile's smallest multiplier (then it costs the lower
//! bound, so it is optimal). Checked against plain A* and the independent reference, on
//! shapes built to take or refuse it, and on generated open maps.

use clearance_core::{
    AgentProfile, Cell, Movement, PathCode, PathMap, PathQuery, PathResult, Region, SearchMode,
    TerrainGrid,
};
use clearance_tests::check::check_result;
use clearance_tests::generate::{random_cell, Rng};
use clearance_tests::reference::Reference;

const GROUND: u8 = 0;
const WALL: u8 = 1;
const ROAD: u8 = 2;

fn map(width: i32, height: i32, walls: &[Region], roads: &[Region]) -> PathMap {
    let mut grid = TerrainGrid::new(Region::new(0, 0, width, height), GROUND).unwrap();
    for &wall in walls {
        grid.fill_rect(wall, WALL).unwrap();
    }
    for &road in roads {
        grid.fill_rect(road, ROAD).unwrap();
    }
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    map.set_profile(
        AgentProfile::new("driver")
            .with_terrain(GROUND, 1.0)
            .unwrap()
            .with_terrain(ROAD, 0.5)
            .unwrap(),
    )
    .unwrap();
    map
}

fn query(
    map: &PathMap,
    start: (i32, i32),
    goal: (i32, i32),
    size: i64,
    profile: &str,
    mode: SearchMode,
) -> PathResult {
    map.query(&PathQuery::new(Cell::from(start), Cell::from(goal), size, profile).search(mode))
}

/// Whether `result` is a direct walk: as many expansions as steps.
fn is_direct(result: &PathResult) -> bool {
    result.code == PathCode::Ok && result.expanded + 1 == result.path.len() as u64
}

fn cells(points: &[(i32, i32)]) -> Vec<Cell> {
    points.iter().map(|&point| Cell::from(point)).collect()
}

#[test]
fn open_ground_takes_the_diagonals_first_walk() {
    let mut map = map(20, 20, &[], &[]);
    let auto = query(&map, (2, 3), (6, 5), 1, "unit", SearchMode::Auto);
    assert!(is_direct(&auto), "{auto:?}");
    assert_eq!(auto.path, cells(&[(2, 3), (3, 4), (4, 5), (5, 5), (6, 5)]));
    assert_eq!(
        auto.cost,
        query(&map, (2, 3), (6, 5), 1, "unit", SearchMode::Plain).cost
    );
    map.set_movement(Movement::FourWay);
    let auto = query(&map, (2, 3), (4, 5), 1, "unit", SearchMode::Auto);
    assert_eq!(auto.path, cells(&[(2, 3), (2, 4), (2, 5), (3, 5), (4, 5)]));
    assert!(is_direct(&auto));
}

#[test]
fn a_blocked_walk_tries_the_other_order_then_searches() {
    // A wall on the diagonal-first walk only: the straight-first walk serves.
    let map_one = map(20, 20, &[Region::new(3, 4, 1, 1)], &[]);
    let auto = query(&map_one, (2, 3), (6, 5), 1, "unit", SearchMode::Auto);
    assert!(is_direct(&auto));
    assert_eq!(auto.path, cells(&[(2, 3), (3, 3), (4, 3), (5, 4), (6, 5)]));
    // Walls on both: the search answers, at the same cost as plain A*.
    let map_both = map(
        20,
        20,
        &[Region::new(3, 4, 1, 1), Region::new(4, 3, 1, 1)],
        &[],
    );
    let auto = query(&map_both, (2, 3), (6, 5), 1, "unit", SearchMode::Auto);
    let plain = query(&map_both, (2, 3), (6, 5), 1, "unit", SearchMode::Plain);
    assert!(!is_direct(&auto) || auto.path.len() > 5);
    assert_eq!(auto.cost, plain.cost);
}

#[test]
fn a_larger_agent_walks_only_where_its_footprint_fits() {
    // A 2x2 unit along row 5: a wall at (8, 7) is under no footprint, one at (8, 6) is.
    let clear = map(20, 12, &[Region::new(8, 7, 1, 1)], &[]);
    assert!(is_direct(&query(
        &clear,
        (2, 5),
        (14, 5),
        2,
        "unit",
        SearchMode::Auto
    )));
    let blocked = map(20, 12, &[Region::new(8, 6, 1, 1)], &[]);
    let auto = query(&blocked, (2, 5), (14, 5), 2, "unit", SearchMode::Auto);
    assert!(!is_direct(&auto));
    assert_eq!(
        auto.cost,
        query(&blocked, (2, 5), (14, 5), 2, "unit", SearchMode::Plain).cost
    );
}

#[test]
fn only_the_cheapest_terrain_proves_a_walk_optimal() {
    // On the road (0.5, the driver's cheapest) the walk is optimal; on ground it is not even
    // when it is the answer, so the search runs.
    let roads = [Region::new(0, 4, 20, 1)];
    let map = map(20, 10, &[], &roads);
    let on_road = query(&map, (1, 4), (15, 4), 1, "driver", SearchMode::Auto);
    assert!(is_direct(&on_road));
    assert_eq!(on_road.total_cost(), 7.0);
    let on_ground = query(&map, (1, 8), (15, 8), 1, "driver", SearchMode::Auto);
    assert!(!is_direct(&on_ground));
    assert_eq!(
        on_ground.cost,
        query(&map, (1, 8), (15, 8), 1, "driver", SearchMode::Plain).cost
    );
    // A walk that crosses the road pays 0.5 there and 1.0 elsewhere: not the lower bound.
    let across = query(&map, (5, 1), (5, 8), 1, "driver", SearchMode::Auto);
    assert!(!is_direct(&across));
}

#[test]
fn an_expansion_limit_below_the_walk_stops_as_a_search_would() {
    let map = map(30, 5, &[], &[]);
    let mut limited = PathQuery::new(Cell::new(0, 2), Cell::new(20, 2), 1, "unit");
    limited.max_expansions = Some(10);
    // The walk would take 20 expansions: the search answers instead, as it would alone.
    let searched = map.query(&limited);
    assert!(!is_direct(&searched));
    assert_eq!(searched, map.query(&limited.search(SearchMode::Jump)));
    limited.max_expansions = Some(20);
    assert!(is_direct(&map.query(&limited)));
}

/// Generated open maps with scattered walls and roads, every size, both movements: `auto`
/// (direct walk or search) gives the reference's optimum, and the direct walks it takes are
/// legal paths of that cost.
#[test]
fn auto_matches_the_reference_on_generated_open_maps() {
    let mut rng = Rng::new(0x00d1_2ec7);
    let mut direct = 0;
    for round in 0..24 {
        let (width, height) = (rng.range(8, 28) as i32, rng.range(6, 20) as i32);
        let mut walls = Vec::new();
        let mut roads = Vec::new();
        for _ in 0..rng.range(0, 6) {
            let corner = random_cell(&mut rng, Region::new(0, 0, width, height));
            let clipped = Region::new(
                corner.x,
                corner.y,
                (rng.range(1, 4) as i32).min(width - corner.x),
                (rng.range(1, 4) as i32).min(height - corner.y),
            );
            if rng.range(0, 3) == 0 {
                roads.push(clipped)
            } else {
                walls.push(clipped)
            }
        }
        let mut map = map(width, height, &walls, &roads);
        let movement = if round % 2 == 0 {
            Movement::EightWay
        } else {
            Movement::FourWay
        };
        map.set_movement(movement);
        for profile in ["unit", "driver"] {
            for size in 1..=3 {
                let rules = Reference::new(
                    map.grid(),
                    map.profile(profile).unwrap(),
                    size as i32,
                    movement == Movement::EightWay,
                );
                for _ in 0..12 {
                    let bounds = Region::new(0, 0, width, height);
                    let (start, goal) =
                        (random_cell(&mut rng, bounds), random_cell(&mut rng, bounds));
                    let result = map.query(&PathQuery::new(start, goal, size, profile));
                    check_result(
                        &rules,
                        &result,
                        start,
                        goal,
                        &format!("round {round} {profile} size {size} {start:?}->{goal:?}"),
                    );
                    if is_direct(&result) && result.path.len() > 1 {
                        direct += 1;
                    }
                }
            }
        }
    }
    assert!(direct >= 100, "only {direct} direct walks were taken");
}
