//! Checks of engine results against the reference solver, shared by the test files.

use crate::generate::{random_cell, Rng};
use crate::reference::Reference;
use clearance_core::{Cell, Movement, PathCode, PathMap, PathResult, TerrainGrid};

/// Compares one query with the reference; returns the code the engine gave.
pub fn check_query(
    map: &PathMap,
    grid: &TerrainGrid,
    start: Cell,
    goal: Cell,
    size: i64,
    profile: &str,
) -> PathCode {
    let eight_way = map.movement() == Movement::EightWay;
    let rules = Reference::new(grid, map.profile(profile).unwrap(), size as i32, eight_way);
    let result = map.find_path(start, goal, size, profile);
    let context = format!("{start:?} -> {goal:?}, size {size}, profile {profile}, {eight_way}");
    check_result(&rules, &result, start, goal, &context);
    result.code
}

/// A query between two likely legal anchors of `map`, checked with [`check_query`].
pub fn check_random_query(rng: &mut Rng, map: &PathMap, size: i64, profile: &str) -> PathCode {
    let grid = map.grid();
    let eight_way = map.movement() == Movement::EightWay;
    let rules = Reference::new(grid, map.profile(profile).unwrap(), size as i32, eight_way);
    let start = likely_legal_anchor(rng, grid, &rules);
    let goal = likely_legal_anchor(rng, grid, &rules);
    check_query(map, grid, start, goal, size, profile)
}

/// Checks the engine's `result` for a query from `start` to `goal` against the reference
/// `rules`: optimal cost, a path that costs what it claims, and the right failure code.
pub fn check_result(
    rules: &Reference,
    result: &PathResult,
    start: Cell,
    goal: Cell,
    context: &str,
) {
    match result.code {
        PathCode::Ok => {
            assert_eq!(
                Some(result.cost),
                rules.optimal_cost(start, goal),
                "{context}"
            );
            let walked = rules.path_cost(&result.path, start, goal).unwrap();
            assert_eq!(
                walked, result.cost,
                "reported cost differs from the path's, {context}"
            );
        }
        PathCode::NoPath => {
            assert!(rules.legal(start) && rules.legal(goal), "{context}");
            assert_eq!(rules.optimal_cost(start, goal), None, "{context}");
            assert!(result.path.is_empty());
            // Connectivity labels answer every impossible query without a search.
            assert_eq!(result.expanded, 0, "{context}");
        }
        PathCode::StartClearanceInsufficient => {
            assert!(!rules.legal(start), "{context}");
            assert_eq!(result.expanded, 0);
        }
        PathCode::GoalClearanceInsufficient => {
            assert!(rules.legal(start) && !rules.legal(goal), "{context}");
            assert_eq!(result.expanded, 0);
        }
        other => panic!("unexpected {other} for {context}"),
    }
}

/// A random anchor that is legal for the query, if one turns up in a few tries (so that most
/// generated queries exercise the search rather than the clearance checks).
pub fn likely_legal_anchor(rng: &mut Rng, grid: &TerrainGrid, rules: &Reference) -> Cell {
    let mut cell = random_cell(rng, grid.region());
    for _ in 0..12 {
        if rules.legal(cell) {
            break;
        }
        cell = random_cell(rng, grid.region());
    }
    cell
}
