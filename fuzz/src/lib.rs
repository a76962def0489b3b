//! Checks shared by the fuzz targets: every query result is compared with the independent
//! reference solver of the test-support crate (`clearance_tests::reference`), its taut
//! waypoints with the independent checker (`clearance_tests::swept`), every cached clearance
//! layer with a fresh build from the terrain.
//!
//! A failed check panics, which libFuzzer reports as a crash and saves the input.

use clearance_core::{
    Cell, ClearanceShortfall, Movement, OtherUnits, PathCode, PathMap, PathQuery, PathResult,
    Region, SearchMode, SearchScratch, Smoothing, TerrainGrid, DIAGONAL_STEP, STRAIGHT_STEP,
};
use clearance_tests::reference::Reference;
use clearance_tests::swept::WaypointChecker;

/// A small Moving AI map used by the scenario and profile targets: walls, trees, swamp, water,
/// a narrow and a wide gap.
pub const FIXED_MAP: &str = "type octile
height 6
width 8
map
........
.@@@@...
.@..T...
.@..@.S.
....@...
WWW..GG.
";

/// Checks one query against the contract and the reference solver, and returns the engine's
/// result.
///
/// The expected code is worked out without the engine, in the documented checking order
/// (size, profile, start bounds, goal bounds, start clearance, goal clearance, reachability);
/// a found path must have the reference's optimal cost and walk, step by legal step, to
/// exactly the reported cost; the landmark or distance estimate must stay admissible and
/// consistent along it; a fresh scratch must give the identical result.
pub fn check_query(map: &PathMap, start: Cell, goal: Cell, size: i64, profile: &str) -> PathResult {
    let result = map.find_path(start, goal, size, profile);
    let eight_way = map.movement() == Movement::EightWay;
    let context = format!(
        "{start:?} -> {goal:?}, size {size}, profile {profile:?}, eight_way {eight_way}, \
         landmarks {:?}, region {:?}, result {result:?}",
        map.landmark_placement(),
        map.region()
    );
    let again = map.find_path_with(&mut SearchScratch::new(), start, goal, size, profile);
    assert_eq!(result, again, "fresh scratch differs: {context}");

    let prepared = map.prepare(profile, size);
    let failure = |code: PathCode| {
        assert_eq!(result.code, code, "{context}");
        assert!(result.path.is_empty(), "{context}");
        assert_eq!(result.cost, 0, "{context}");
        assert_eq!(result.expanded, 0, "{context}");
        assert_eq!(result.shortfall, None, "{context}");
    };
    if !(1..=255).contains(&size) {
        failure(PathCode::InvalidAgentSize);
        assert_eq!(prepared, PathCode::InvalidAgentSize, "prepare: {context}");
        return result;
    }
    let Some(found) = map.profile(profile) else {
        failure(PathCode::UnknownProfile);
        assert_eq!(prepared, PathCode::UnknownProfile, "prepare: {context}");
        return result;
    };
    assert_eq!(prepared, PathCode::Ok, "prepare: {context}");
    let region = map.region();
    if !region.contains(start) {
        failure(PathCode::StartOutOfBounds);
        return result;
    }
    if !region.contains(goal) {
        failure(PathCode::GoalOutOfBounds);
        return result;
    }
    // The reference adds to coordinates without overflow checks, so it runs on a copy of the
    // terrain moved to origin (0, 0); cells are moved with it.
    let grid = &TerrainGrid::from_bytes(
        Region::new(0, 0, region.width, region.height),
        &map.grid().as_bytes().to_vec(),
    )
    .expect("same size as the map");
    let local = |cell: Cell| {
        let x = i64::from(cell.x) - i64::from(region.x);
        let y = i64::from(cell.y) - i64::from(region.y);
        match (i32::try_from(x), i32::try_from(y)) {
            (Ok(x), Ok(y)) => Cell::new(x, y),
            _ => panic!("cell {cell:?} far outside the map: {context}"),
        }
    };
    let (at_start, at_goal) = (local(start), local(goal));
    let rules = Reference::new(grid, found, size as i32, eight_way);
    check_partial_path(
        map,
        &result,
        (start, goal),
        size,
        profile,
        &rules,
        &local,
        &context,
    );
    for (anchor, code) in [
        (at_start, PathCode::StartClearanceInsufficient),
        (at_goal, PathCode::GoalClearanceInsufficient),
    ] {
        if !rules.legal(anchor) {
            assert_eq!(result.code, code, "{context}");
            assert!(result.path.is_empty(), "{context}");
            assert_eq!(result.expanded, 0, "{context}");
            let expected = ClearanceShortfall {
                found: Reference::direct_clearance(grid, found, anchor),
                needed: size as u8,
            };
            assert_eq!(result.shortfall, Some(expected), "{context}");
            assert_eq!(
                map.estimate_cost(start, goal, size, profile),
                None,
                "{context}"
            );
            return result;
        }
    }
    let estimate = map.estimate_cost(start, goal, size, profile);
    assert!(
        estimate.is_some(),
        "no estimate between legal anchors: {context}"
    );
    match rules.optimal_cost(at_start, at_goal) {
        None => {
            failure(PathCode::NoPath);
            // Every search mode finds nothing either.
            for mode in [SearchMode::Plain, SearchMode::Jump] {
                let found = map.query(&PathQuery::new(start, goal, size, profile).search(mode));
                assert_eq!(found.code, PathCode::NoPath, "{mode:?}: {context}");
                assert!(found.path.is_empty(), "{mode:?}: {context}");
            }
        }
        Some(optimal) => {
            assert_eq!(
                result.code,
                PathCode::Ok,
                "reference found cost {optimal}: {context}"
            );
            assert_eq!(result.shortfall, None, "{context}");
            assert_eq!(result.cost, optimal, "cost is not optimal: {context}");
            let path: Vec<Cell> = result.path.iter().map(|&cell| local(cell)).collect();
            let walked = rules
                .path_cost(&path, at_start, at_goal)
                .unwrap_or_else(|error| panic!("{error}: {context}"));
            assert_eq!(
                walked, result.cost,
                "reported cost differs from the path's: {context}"
            );
            check_waypoints(map, &result.path, (grid, &path), size, profile, &context);
            // Every search mode finds a path of the same optimal cost that walks to it, and
            // stops exactly at an expansion limit one below what it needed.
            for mode in [SearchMode::Plain, SearchMode::Jump] {
                let query = PathQuery::new(start, goal, size, profile).search(mode);
                let found = map.query(&query);
                assert_eq!(
                    (found.code, found.cost),
                    (PathCode::Ok, optimal),
                    "{mode:?}: {context}"
                );
                let path: Vec<Cell> = found.path.iter().map(|&cell| local(cell)).collect();
                let walked = rules
                    .path_cost(&path, at_start, at_goal)
                    .unwrap_or_else(|error| panic!("{mode:?}: {error}: {context}"));
                assert_eq!(walked, optimal, "{mode:?} path cost: {context}");
                if found.expanded > 0 {
                    let short = map.query(&query.max_expansions(found.expanded - 1));
                    assert_eq!(
                        short.code,
                        PathCode::SearchLimitReached,
                        "{mode:?}: {context}"
                    );
                }
            }
            // An expansion limit equal to what the query needed changes nothing; one just
            // below stops the search exactly there. Only a direct walk (one expansion per
            // step) can be undercut: without it, jump-point search may still answer, within
            // the limit and at the same cost.
            let query = PathQuery::new(start, goal, size, profile);
            let enough = map.query(&query.max_expansions(result.expanded));
            assert_eq!(enough, result, "limit equal to the expansions: {context}");
            if result.expanded > 0 {
                let short = map.query(&query.max_expansions(result.expanded - 1));
                let direct = result.expanded + 1 == result.path.len() as u64;
                if short.code == PathCode::Ok && direct {
                    assert_eq!(short.cost, result.cost, "{context}");
                    assert!(short.expanded < result.expanded, "{context}");
                } else {
                    assert_eq!(short.code, PathCode::SearchLimitReached, "{context}");
                    assert_eq!(short.expanded, result.expanded - 1, "{context}");
                    assert!(short.path.is_empty(), "{context}");
                }
            }
            if start == goal {
                assert_eq!(result.path, vec![start], "{context}");
            }
            // Admissible at every anchor of the (optimal) path, consistent along each step.
            let mut remaining = result.cost;
            let mut previous: Option<(u64, u64)> = None; // (estimate, step cost into here)
            for (index, (&anchor, &engine_anchor)) in path.iter().zip(&result.path).enumerate() {
                let here = map
                    .estimate_cost(engine_anchor, goal, size, profile)
                    .unwrap_or_else(|| {
                        panic!("no estimate at path anchor {engine_anchor:?}: {context}")
                    });
                assert!(
                    here <= remaining,
                    "estimate {here} at {engine_anchor:?} exceeds the remaining cost \
                     {remaining}: {context}"
                );
                if let Some((before, step)) = previous {
                    assert!(
                        before <= step + here,
                        "estimate drops by more than the step's cost at {engine_anchor:?}: \
                         {context}"
                    );
                }
                if let Some(&next) = path.get(index + 1) {
                    let step = rules.step_cost(anchor, next).expect("walked above");
                    remaining -= step;
                    previous = Some((here, step));
                }
            }
        }
    }
    result
}

/// Checks that every cached clearance layer and search graph matches a rebuild from the current
/// terrain (`PathMap::verify_caches`; the map repairs its caches incrementally after edits),
/// then caches every profile's layer so that later edits must repair it too.
pub fn check_layers(map: &PathMap) {
    if let Err(difference) = map.verify_caches() {
        panic!(
            "{difference}\nregion {:?}, terrain {:?}",
            map.region(),
            map.grid().as_bytes()
        );
    }
    // Cache every profile's layer, so that the edits that follow must repair it; the next
    // `verify_caches` compares it with a rebuild. The layer itself (rebuilt or repaired) must
    // hold each cell's clearance as the reference finds it, square by square: a rebuild
    // shares the engine's code, this does not.
    for profile in map.profiles() {
        map.clearance_layer(profile.name())
            .expect("registered profile has a layer");
        for index in 0..map.grid().as_bytes().len() {
            let cell = map.grid().cell_at(index);
            let direct = Reference::direct_clearance(map.grid(), profile, cell);
            assert_eq!(
                map.clearance(cell, profile.name()),
                Some(direct),
                "{}: clearance at {cell}",
                profile.name()
            );
        }
    }
}

/// Checks that the map's cost estimate from `from` to `goal` is a lower bound of the
/// reference's optimal cost (when both anchors are legal and the goal is reachable).
pub fn check_estimate(map: &PathMap, from: Cell, goal: Cell, size: i64, profile: &str) {
    let Some(estimate) = map.estimate_cost(from, goal, size, profile) else {
        return;
    };
    let found = map
        .profile(profile)
        .expect("an estimate needs a known profile");
    let region = map.region();
    let grid = TerrainGrid::from_bytes(
        Region::new(0, 0, region.width, region.height),
        &map.grid().as_bytes().to_vec(),
    )
    .expect("same size as the map");
    let local = |cell: Cell| {
        Cell::new(
            (i64::from(cell.x) - i64::from(region.x)) as i32,
            (i64::from(cell.y) - i64::from(region.y)) as i32,
        )
    };
    let eight_way = map.movement() == Movement::EightWay;
    let rules = Reference::new(&grid, found, size as i32, eight_way);
    assert!(
        rules.legal(local(from)) && rules.legal(local(goal)),
        "estimate {estimate} given for an illegal anchor: {from:?} -> {goal:?}, size {size}"
    );
    if let Some(optimal) = rules.optimal_cost(local(from), local(goal)) {
        assert!(
            estimate <= optimal,
            "estimate {estimate} exceeds the optimal cost {optimal}: {from:?} -> {goal:?}, \
             size {size}, profile {profile:?}, eight_way {eight_way}, landmarks {:?}",
            map.landmark_placement()
        );
    }
}

/// Checks the same query with `allow_partial_path`: answered as without it when the goal is
/// reachable or the start refused; otherwise `PARTIAL_PATH` with an optimal path to the
/// reachable anchor nearest the goal (crow-flies distance in step lengths, then lowest `y`,
/// then `x`), worked out here from the reference's reachable set.
#[allow(clippy::too_many_arguments)]
fn check_partial_path(
    map: &PathMap,
    result: &PathResult,
    (start, goal): (Cell, Cell),
    size: i64,
    profile: &str,
    rules: &Reference,
    local: &dyn Fn(Cell) -> Cell,
    context: &str,
) {
    let partial = map.query(&PathQuery::new(start, goal, size, profile).allow_partial_path(true));
    let (at_start, at_goal) = (local(start), local(goal));
    if !rules.legal(at_start) || rules.optimal_cost(at_start, at_goal).is_some() {
        assert_eq!(
            &partial, result,
            "partial option changed an answer: {context}"
        );
        return;
    }
    assert_eq!(partial.code, PathCode::PartialPath, "{context}");
    assert_eq!(partial.path.first(), Some(&start), "{context}");
    let end = *partial.path.last().expect("a partial path has an anchor");
    let eight_way = map.movement() == Movement::EightWay;
    let crow_flies = |cell: Cell| {
        let (dx, dy) = (
            u64::from(cell.x.abs_diff(at_goal.x)),
            u64::from(cell.y.abs_diff(at_goal.y)),
        );
        if eight_way {
            dx.min(dy) * DIAGONAL_STEP + (dx.max(dy) - dx.min(dy)) * STRAIGHT_STEP
        } else {
            (dx + dy) * STRAIGHT_STEP
        }
    };
    let nearest = rules
        .reachable_from(at_start)
        .into_iter()
        .min_by_key(|&(cell, _)| (crow_flies(cell), cell.y, cell.x))
        .expect("the start reaches itself");
    assert_eq!(
        local(end),
        nearest.0,
        "not the nearest reachable anchor: {context}"
    );
    assert_eq!(
        partial.cost, nearest.1,
        "partial path not optimal: {context}"
    );
    let path: Vec<Cell> = partial.path.iter().map(|&cell| local(cell)).collect();
    let walked = rules
        .path_cost(&path, at_start, local(end))
        .unwrap_or_else(|error| panic!("partial path: {error}: {context}"));
    assert_eq!(walked, partial.cost, "{context}");
    let goal_fits = rules.legal(at_goal);
    assert_eq!(partial.shortfall.is_some(), !goal_fits, "{context}");
}

/// Checks the taut waypoints of a found path, asked for in both ways (by `smooth_path` and by
/// a query with smoothing), against the independent checker: every segment keeps the rules
/// and no waypoint can be dropped. The checker runs on `local`, the terrain moved to origin
/// `(0, 0)` with the path (`local_path`), where its coordinates cannot overflow.
fn check_waypoints(
    map: &PathMap,
    path: &[Cell],
    (local, local_path): (&TerrainGrid, &[Cell]),
    size: i64,
    profile: &str,
    context: &str,
) {
    let waypoints = map
        .smooth_path(path, size, profile, OtherUnits::Ignore, &[])
        .unwrap_or_else(|error| panic!("smoothing a found path: {error}: {context}"));
    let (start, goal) = (path[0], path[path.len() - 1]);
    let smoothed =
        map.query(&PathQuery::new(start, goal, size, profile).smoothing(Smoothing::Taut));
    assert_eq!(smoothed.path, path, "smoothing changed the path: {context}");
    assert_eq!(
        smoothed.waypoints, waypoints,
        "query and smooth_path: {context}"
    );
    let region = map.region();
    let moved: Vec<Cell> = (waypoints.iter())
        .map(|cell| Cell::new(cell.x - region.x, cell.y - region.y))
        .collect();
    let checker = WaypointChecker {
        grid: local,
        profile: map.profile(profile).expect("checked before"),
        size,
        units: None,
        start: local_path[0],
    };
    checker.check(local_path, &moved, &format!("waypoints: {context}"));
}
