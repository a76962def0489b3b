//! Query options and batches: partial paths, expansion limits, cache memory limits, and many
//! queries on several threads.

use clearance_core::{
    AgentProfile, Cell, LandmarkError, LandmarkPlacement, Movement, PathCode, PathMap, PathQuery,
    PathResult, Region, TerrainGrid, DIAGONAL_STEP, STRAIGHT_STEP,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};
use clearance_tests::reference::Reference;

/// The crow-flies distance the partial-path rule minimises, computed here on its own.
fn crow_flies(from: Cell, to: Cell, eight_way: bool) -> u64 {
    let (dx, dy) = (from.x.abs_diff(to.x) as u64, from.y.abs_diff(to.y) as u64);
    if eight_way {
        dx.min(dy) * DIAGONAL_STEP + (dx.max(dy) - dx.min(dy)) * STRAIGHT_STEP
    } else {
        (dx + dy) * STRAIGHT_STEP
    }
}

#[test]
fn partial_paths_lead_to_the_reachable_anchor_nearest_the_goal() {
    let mut rng = Rng::new(0x09A2_71A1);
    let mut partial = 0;
    let mut full = 0;
    for case in 0..300 {
        let (width, height) = (rng.range(2, 16) as i32, rng.range(2, 16) as i32);
        let walls = *rng.pick(&[15, 30, 45]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = if case % 2 == 0 {
            Movement::EightWay
        } else {
            Movement::FourWay
        };
        let eight_way = movement == Movement::EightWay;
        let mut map = PathMap::new(grid.clone()).with_movement(movement);
        map.set_profile(random_profile(&mut rng, "unit")).unwrap();
        for _ in 0..4 {
            let size = rng.range(1, 4);
            let rules = Reference::new(&grid, map.profile("unit").unwrap(), size as i32, eight_way);
            let start = likely_legal_anchor(&mut rng, &grid, &rules);
            let goal = random_cell(&mut rng, grid.region());
            let query = PathQuery::new(start, goal, size, "unit").allow_partial_path(true);
            let result = map.query(&query);
            let context = format!("case {case}: {start} -> {goal}, size {size}");
            if !rules.legal(start) {
                assert_eq!(
                    result.code,
                    PathCode::StartClearanceInsufficient,
                    "{context}"
                );
                continue;
            }
            if let Some(cost) = rules.optimal_cost(start, goal) {
                // Reachable goals are answered exactly as without the option.
                assert_eq!(result.code, PathCode::Ok, "{context}");
                assert_eq!(result.cost, cost, "{context}");
                assert_eq!(result, map.find_path(start, goal, size, "unit"));
                full += 1;
                continue;
            }
            assert_eq!(result.code, PathCode::PartialPath, "{context}");
            assert_eq!(
                result.shortfall.is_some(),
                !rules.legal(goal),
                "the shortfall says whether the goal was too narrow, {context}"
            );
            let end = *result.path.last().expect("a partial path has an anchor");
            let nearest = rules
                .reachable_from(start)
                .into_iter()
                .map(|(cell, cost)| (crow_flies(cell, goal, eight_way), cell.y, cell.x, cost))
                .min()
                .unwrap();
            assert_eq!((end.y, end.x), (nearest.1, nearest.2), "{context}");
            assert_eq!(
                result.cost, nearest.3,
                "optimal to the nearest anchor, {context}"
            );
            assert_eq!(rules.path_cost(&result.path, start, end), Ok(result.cost));
            // Without the option the same query fails with its own code.
            let plain = map.find_path(start, goal, size, "unit");
            assert!(
                matches!(
                    plain.code,
                    PathCode::NoPath | PathCode::GoalClearanceInsufficient
                ),
                "{context}"
            );
            partial += 1;
        }
    }
    assert!(
        partial >= 150 && full >= 150,
        "{partial} partial, {full} full"
    );
}

#[test]
fn expansion_limits_stop_the_search_exactly_at_the_limit() {
    let mut rng = Rng::new(0x0011_3171);
    let mut stopped = 0;
    for _ in 0..200 {
        let grid = random_grid(&mut rng, 30, 30, 20);
        let mut map = PathMap::new(grid.clone());
        map.set_profile(random_profile(&mut rng, "unit")).unwrap();
        let rules = Reference::new(&grid, map.profile("unit").unwrap(), 1, true);
        let start = likely_legal_anchor(&mut rng, &grid, &rules);
        let goal = likely_legal_anchor(&mut rng, &grid, &rules);
        let unlimited = map.find_path(start, goal, 1, "unit");
        let limit = rng.range(1, 120) as u64;
        let limited = map.query(&PathQuery::new(start, goal, 1, "unit").max_expansions(limit));
        if unlimited.expanded <= limit {
            assert_eq!(limited, unlimited);
        } else {
            assert_eq!(limited.code, PathCode::SearchLimitReached);
            assert_eq!(limited.expanded, limit);
            assert!(limited.path.is_empty());
            stopped += 1;
        }
    }
    assert!(stopped >= 50, "{stopped} searches stopped");
    // A limit of 0 refuses every search but still answers validation failures.
    let grid = TerrainGrid::new(Region::new(0, 0, 8, 8), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let zero = |start, goal, size| {
        map.query(&PathQuery::new(start, goal, size, "unit").max_expansions(0))
            .code
    };
    assert_eq!(
        zero(Cell::new(0, 0), Cell::new(7, 7), 1),
        PathCode::SearchLimitReached
    );
    assert_eq!(
        zero(Cell::new(0, 0), Cell::new(0, 0), 1),
        PathCode::Ok,
        "start = goal needs no search"
    );
    assert_eq!(
        zero(Cell::new(0, 0), Cell::new(7, 7), 0),
        PathCode::InvalidAgentSize
    );
}

#[test]
fn cache_memory_limits_are_codes_not_aborts() {
    let grid = TerrainGrid::new(Region::new(0, 0, 100, 100), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let (start, goal) = (Cell::new(0, 0), Cell::new(99, 99));

    // Not even a clearance layer (10,000 bytes) fits.
    map.set_cache_memory_limit(5_000);
    assert_eq!(
        map.find_path(start, goal, 1, "unit").code,
        PathCode::MemoryLimitReached
    );
    assert_eq!(map.prepare("unit", 1), PathCode::MemoryLimitReached);
    assert_eq!(map.clearance(start, "unit"), None);
    assert_eq!(map.cache_memory_bytes(), 0);
    // Validation still comes first.
    assert_eq!(
        map.find_path(start, goal, 0, "unit").code,
        PathCode::InvalidAgentSize
    );

    // The layer fits, the graph (21 bytes per cell with its stored rays) does not.
    map.set_cache_memory_limit(30_000);
    assert_eq!(
        map.find_path(start, goal, 1, "unit").code,
        PathCode::MemoryLimitReached
    );
    assert_eq!(map.clearance(start, "unit"), Some(100));
    assert!(map.cache_memory_bytes() <= 30_000);

    // A landmark table that cannot fit is refused when configured.
    assert!(matches!(
        map.set_landmarks(LandmarkPlacement::Farthest(8)),
        Err(LandmarkError::MemoryLimit { count: 8, .. })
    ));
    assert_eq!(map.landmark_placement(), &LandmarkPlacement::None);

    // Room for the graph but not for the tables built later: queries stay exact without them.
    map.set_cache_memory_limit(250_000);
    map.set_landmarks(LandmarkPlacement::Farthest(1)).unwrap();
    map.set_cache_memory_limit(240_000);
    let result = map.find_path(start, goal, 1, "unit");
    assert_eq!(result.code, PathCode::Ok);
    assert!((result.total_cost() - 99.0 * 2f64.sqrt()).abs() < 1e-3);
    assert_eq!(map.bake_landmarks("unit"), None);
    assert!(map.cache_memory_bytes() <= 240_000);
}

#[test]
fn profiles_changed_or_removed_leave_no_layer_behind() {
    // Terrains 0 to 11 on a 64 x 64 map; a profile that learns to enter one more each time
    // (a unit upgraded to swim, say) needs another clearance layer each time.
    let mut grid = TerrainGrid::new(Region::new(0, 0, 64, 64), 0).unwrap();
    for terrain in 1..12u8 {
        let cell = Cell::new(i32::from(terrain) * 5, 0);
        grid.fill_rect(Region::new(cell.x, cell.y, 5, 64), terrain)
            .unwrap();
    }
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("scout").with_terrain(0, 1.0).unwrap())
        .unwrap();
    assert_eq!(map.prepare("scout", 1), PathCode::Ok);
    let mut unit = AgentProfile::new("unit");
    let mut held = Vec::new();
    for terrain in 0..12u8 {
        unit.set_terrain(terrain, 1.0).unwrap();
        map.set_profile(unit.clone()).unwrap();
        assert_eq!(map.prepare("unit", 1), PathCode::Ok);
        held.push(map.cache_memory_bytes());
        map.verify_caches().unwrap();
    }
    // Two layers and two graphs whatever the number of changes: the first `unit` shared
    // the scout's layer, every later one needed one of its own and dropped the last. (A
    // graph's size varies by a few bytes with its profile; a layer is 4,096 bytes.)
    let layer = 64 * 64;
    assert!(
        held[2..]
            .iter()
            .all(|&bytes| bytes.abs_diff(held[1]) < layer),
        "{held:?}"
    );
    map.remove_profile("unit");
    map.remove_profile("scout");
    assert_eq!(map.cache_memory_bytes(), 0);
}

#[test]
fn batches_on_any_number_of_threads_equal_single_queries() {
    let mut rng = Rng::new(0x000B_A7C4);
    let grid = random_grid(&mut rng, 50, 50, 20);
    let mut map = PathMap::new(grid.clone());
    for name in ["a", "b"] {
        map.set_profile(random_profile(&mut rng, name)).unwrap();
    }
    let names = ["a", "b", "missing"];
    let queries: Vec<PathQuery> = (0..300)
        .map(|_| {
            let name = *rng.pick(&names);
            PathQuery::new(
                random_cell(&mut rng, grid.region()),
                random_cell(&mut rng, grid.region()),
                rng.range(0, 4),
                name,
            )
            .allow_partial_path(rng.chance(30))
        })
        .collect();
    let single: Vec<_> = queries.iter().map(|query| map.query(query)).collect();
    for threads in [0, 1, 2, 3, 8] {
        assert_eq!(
            map.query_batch(&queries, threads),
            single,
            "{threads} threads"
        );
    }
    assert!(map.query_batch(&[], 4).is_empty());
}

#[test]
fn parallel_batches_keep_the_cache_memory_limit_and_build_each_graph_once() {
    // Room for the clearance layer and two search graphs: eight threads each needing a graph
    // of another size at once must not pass the limit together, and all the queries of one
    // size share one graph. Each map is made afresh: clones would share their caches.
    let fresh_map = |limit: usize| {
        let grid = TerrainGrid::new(Region::new(0, 0, 300, 300), 0).unwrap();
        let mut map = PathMap::new(grid);
        map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
            .unwrap();
        map.set_cache_memory_limit(limit);
        map
    };
    let (start, goal) = (Cell::new(0, 0), Cell::new(250, 250));
    let probe = fresh_map(usize::MAX);
    assert_eq!(probe.find_path(start, goal, 1, "unit").code, PathCode::Ok);
    let layer_and_graph = probe.cache_memory_bytes();
    let limit = 2 * layer_and_graph + layer_and_graph / 4;
    let queries: Vec<PathQuery<'_>> = (1..=8)
        .map(|size| PathQuery::new(start, goal, size, "unit"))
        .collect();
    for round in 0..6 {
        let results = batch_within_limit(&fresh_map(limit), &queries, round);
        let codes: Vec<PathCode> = results.iter().map(|result| result.code).collect();
        let answered = codes.iter().filter(|&&code| code == PathCode::Ok).count();
        assert_eq!(answered, 2, "round {round}: {codes:?}");
        assert!(codes
            .iter()
            .all(|code| matches!(code, PathCode::Ok | PathCode::MemoryLimitReached)));
    }
    // Queries of one size on many threads: one graph, built once, whoever asked first.
    let map = fresh_map(layer_and_graph + layer_and_graph / 4);
    let same: Vec<PathQuery<'_>> = (0..16).map(|_| queries[0]).collect();
    let codes: Vec<PathCode> = (map.query_batch(&same, 8).iter())
        .map(|result| result.code)
        .collect();
    assert!(codes.iter().all(|&code| code == PathCode::Ok), "{codes:?}");
    assert_eq!(map.cache_memory_bytes(), layer_and_graph);
}

#[test]
fn landmark_tables_built_beside_graphs_keep_the_cache_memory_limit() {
    // Eight profiles share one clearance layer; each query builds its profile's graph and
    // then its landmark table (outside the build turn, with its bytes reserved). With room
    // for about two of each, threads building them at once must not pass the limit.
    let names: Vec<String> = (0..8).map(|index| format!("unit{index}")).collect();
    let fresh_map = |limit: usize| {
        let grid = TerrainGrid::new(Region::new(0, 0, 200, 200), 0).unwrap();
        let mut map = PathMap::new(grid);
        for name in &names {
            map.set_profile(AgentProfile::new(name).with_terrain(0, 1.0).unwrap())
                .unwrap();
        }
        map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
        map.set_cache_memory_limit(limit);
        map
    };
    let (start, goal) = (Cell::new(0, 0), Cell::new(150, 170));
    let probe = fresh_map(usize::MAX);
    assert_eq!(
        probe.find_path(start, goal, 1, &names[0]).code,
        PathCode::Ok
    );
    let one = probe.cache_memory_bytes();
    assert_eq!(
        probe.find_path(start, goal, 1, &names[1]).code,
        PathCode::Ok
    );
    let per_profile = probe.cache_memory_bytes() - one;
    let limit = one + per_profile + per_profile / 2;
    let queries: Vec<PathQuery<'_>> = (names.iter())
        .map(|name| PathQuery::new(start, goal, 1, name))
        .collect();
    for round in 0..6 {
        let results = batch_within_limit(&fresh_map(limit), &queries, round);
        assert!(results.iter().any(|result| result.code == PathCode::Ok));
    }
}

/// `queries` answered on eight threads at once by `map`, after checking that the caches they
/// built stayed within the map's memory limit (in round `round` of a test).
fn batch_within_limit(map: &PathMap, queries: &[PathQuery<'_>], round: usize) -> Vec<PathResult> {
    let results = map.query_batch(queries, 8);
    let (bytes, limit) = (map.cache_memory_bytes(), map.cache_memory_limit());
    assert!(
        bytes <= limit,
        "round {round}: {bytes} bytes of caches against a limit of {limit}"
    );
    results
}
