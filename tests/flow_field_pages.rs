//! Bounded flow fields on large maps: their memory follows the anchors they reach, not the
//! map, and their answers are the reference's. A field bounded by a cost keeps only the pages
//! of the map its search touched; a field whose search spreads over the map (starts far from
//! the goal) moves to arrays over the whole map part way through, and still answers exactly.

use clearance_core::{
    AgentProfile, Cell, FlowField, FlowFieldOptions, PathCode, PathMap, Region, STRAIGHT_STEP,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{movement_for_case, random_grid, Rng, GROUND, ROAD, SWAMP, WATER};
use clearance_tests::reference::Reference;

/// A profile whose multipliers are at least `cheapest` (fixed-point), so that a cost bound
/// also bounds how far a field reaches; sometimes with water at 0 when `zero` is allowed.
fn profile(rng: &mut Rng, zero: bool) -> AgentProfile {
    let mut profile = AgentProfile::new("unit");
    for terrain in [GROUND, ROAD, SWAMP, WATER] {
        if terrain == GROUND || rng.chance(65) {
            let multiplier = if zero && terrain == WATER {
                0.0
            } else {
                *rng.pick(&[0.5, 1.0, 1.0, 1.5, 2.0, 3.0])
            };
            profile.set_terrain(terrain, multiplier).unwrap();
        }
    }
    profile
}

/// A large generated map (wide and short, so that the reference stays cheap) with that profile.
fn large_map(rng: &mut Rng, case: usize, zero: bool) -> PathMap {
    let width = rng.range(1000, 1400) as i32;
    let height = rng.range(150, 250) as i32;
    let walls = *rng.pick(&[0, 5, 15]);
    let grid = random_grid(rng, width, height, walls);
    let movement = movement_for_case(case);
    let mut map = PathMap::new(grid).with_movement(movement);
    map.set_profile(profile(rng, zero)).unwrap();
    map
}

/// Checks the path the field gives from `cell`: legal steps ending at a goal, of the field's
/// cost by the reference's step costs.
fn check_path(field: &FlowField, rules: &Reference, cell: Cell, cost: u64, context: &str) {
    let result = field.path_from(cell);
    assert_eq!(result.code, PathCode::Ok, "{context}");
    assert_eq!(result.cost, cost, "{context}");
    let goal = *result.path.last().unwrap();
    assert!(field.goals().contains(&goal), "{context}");
    assert_eq!(
        rules.path_cost(&result.path, cell, goal),
        Ok(cost),
        "{context}"
    );
    assert!(field.anchors_from(cell).eq(result.path.iter().copied()));
}

fn anchors_of(map: &PathMap) -> usize {
    map.grid().as_bytes().len()
}

#[test]
fn fields_bounded_by_a_cost_keep_only_what_they_reach_and_are_exact() {
    let mut rng = Rng::new(0x9A6E_D0F1_E1D5);
    let (mut small, mut checked) = (0, 0);
    for case in 0..10 {
        let map = large_map(&mut rng, case, false);
        let size = rng.range(1, 4);
        let rules = Reference::for_map(&map, "unit", size);
        let goals: Vec<Cell> = (0..rng.range(1, 3))
            .map(|_| likely_legal_anchor(&mut rng, map.grid(), &rules))
            .collect();
        if !goals.iter().all(|&goal| rules.legal(goal)) {
            continue;
        }
        let bound = rng.range(0, 6) as u64 * STRAIGHT_STEP;
        let context = format!("case {case}, size {size}, goals {goals:?}, bound {bound}");
        let options = FlowFieldOptions::new().max_cost(bound);
        let field = map.flow_field(&goals, size, "unit", options).unwrap();

        // Every multiplier is at least 0.5, so a step costs at least half a straight step: a
        // path within the bound moves at most `reach` anchors from its goal either way.
        let reach = (2 * bound / STRAIGHT_STEP) as i32;
        let near = |cell: Cell| {
            goals
                .iter()
                .any(|goal| (cell.x - goal.x).abs() <= reach && (cell.y - goal.y).abs() <= reach)
        };
        let region = map.region();
        let mut reached = 0;
        for index in 0..anchors_of(&map) {
            let cell = map.grid().cell_at(index);
            let Some(cost) = field.cost(cell) else {
                continue;
            };
            reached += 1;
            assert!(near(cell), "{context}: {cell:?} reached, too far");
            check_path(&field, &rules, cell, cost, &format!("{context}, {cell:?}"));
        }
        assert_eq!(field.reached_count(), reached, "{context}");
        // Anchors near a goal, drawn at random: the reference optimum within the bound, or
        // not reached.
        for _ in 0..150 {
            let goal = *rng.pick(&goals);
            let cell = Cell::new(
                goal.x + rng.range(-i64::from(reach), i64::from(reach) + 1) as i32,
                goal.y + rng.range(-i64::from(reach), i64::from(reach) + 1) as i32,
            );
            if !region.contains(cell) {
                continue;
            }
            let within = rules.reachable_within(cell, bound);
            let optimum = goals.iter().filter_map(|goal| within.get(goal)).min();
            assert_eq!(field.cost(cell), optimum.copied(), "{context}, {cell:?}");
            checked += 1;
        }
        // The field holds about the pages it touched, not a byte per anchor of the map.
        if field.memory_bytes() < anchors_of(&map) {
            small += 1;
        }
    }
    assert!(small >= 6, "{small} fields kept only their pages");
    assert!(checked >= 1_000, "{checked}");
}

#[test]
fn fields_that_spread_over_the_map_move_to_whole_map_arrays_and_stay_exact() {
    let mut rng = Rng::new(0x005E_ADF1_E1D2);
    let (mut spread, mut near_only) = (0, 0);
    for case in 0..8 {
        // Zero-cost water on half the near cases and half the far ones.
        let map = large_map(&mut rng, case, matches!(case % 4, 1 | 2));
        let size = rng.range(1, 3);
        let rules = Reference::for_map(&map, "unit", size);
        let goal = likely_legal_anchor(&mut rng, map.grid(), &rules);
        if !rules.legal(goal) {
            continue;
        }
        // Starts near the goal, and on every other case some anywhere on the map.
        let region = map.region();
        let mut starts: Vec<Cell> = (0..4)
            .map(|_| {
                let around = Region::new(goal.x - 6, goal.y - 6, 13, 13);
                let cell = Cell::new(
                    around.x + rng.range(0, 13) as i32,
                    around.y + rng.range(0, 13) as i32,
                );
                if region.contains(cell) {
                    cell
                } else {
                    goal
                }
            })
            .collect();
        let far = case % 2 == 1;
        if far {
            starts.extend((0..3).map(|_| likely_legal_anchor(&mut rng, map.grid(), &rules)));
        }
        let context = format!("case {case}, size {size}, goal {goal:?}, starts {starts:?}");
        let options = FlowFieldOptions::new().settle(&starts);
        let field = map.flow_field(&[goal], size, "unit", options).unwrap();
        for &start in &starts {
            let optimum = rules.optimal_cost(start, goal);
            assert_eq!(field.cost(start), optimum, "{context}, start {start:?}");
            if let Some(cost) = optimum {
                check_path(&field, &rules, start, cost, &context);
            }
        }
        // A group order on this ground is answered by such a field: the same costs.
        for (start, result) in starts
            .iter()
            .zip(map.find_paths_to(goal, &starts, size, "unit"))
        {
            assert_eq!(
                Some(result.cost).filter(|_| result.is_ok()),
                rules.optimal_cost(*start, goal),
                "{context}, group order from {start:?}"
            );
        }
        let whole_map = field.memory_bytes() >= anchors_of(&map);
        let reached_far = field.reached_count() > anchors_of(&map) / 16;
        if reached_far {
            assert!(
                whole_map,
                "{context}: a spread field keeps arrays over the map"
            );
            spread += 1;
        } else if !far {
            near_only += usize::from(!whole_map);
        }
    }
    assert!(spread >= 2, "{spread} fields spread over their maps");
    assert!(near_only >= 2, "{near_only} fields stayed near their goals");
}
