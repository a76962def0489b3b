//! Movement ranges against the independent reference: every anchor's membership and cost on
//! generated maps (sizes 1-4, weighted profiles with multipliers 0 and below 1, 4- and 8-way),
//! budgets on exact boundaries, paths read back against `find_path`, several turns, allies
//! and enemies (the paths through allies smoothed with them exempt), and bad input.

use clearance_core::{
    AgentProfile, Cell, ClearanceShortfall, Movement, OtherUnits, PathCode, PathMap, PathQuery,
    RangeError, RangeOptions, Region, TerrainGrid, COST_SCALE, MAX_TURNS,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{movement_for_case, random_grid, random_profile, Rng};
use clearance_tests::reference::Reference;
use clearance_tests::swept::WaypointChecker;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The ids of `units` whose squares overlap the footprint of an agent of `size` at `anchor`.
fn units_on(units: &[Standing], anchor: Cell, size: i64) -> Vec<i64> {
    let size = size as i32;
    (units.iter())
        .filter(|unit| {
            unit.anchor.x < anchor.x + size
                && anchor.x < unit.anchor.x + unit.size
                && unit.anchor.y < anchor.y + size
                && anchor.y < unit.anchor.y + unit.size
        })
        .map(|unit| unit.id)
        .collect()
}

/// The budget, as a float, that a fixed-point cost is worth.
fn as_budget(cost: u64) -> f64 {
    cost as f64 / COST_SCALE as f64
}

/// The reference's labels for several turns: per storage index the smallest
/// `(turns - 1, spent)` with at most `budget` spent per turn and no step across two turns.
fn reference_turns(
    rules: &UnitsReference<'_>,
    grid: &TerrainGrid,
    start: Cell,
    budget: u64,
    turns: u64,
) -> Vec<Option<(u64, u64)>> {
    let cells = grid.as_bytes().len();
    let mut best: Vec<Option<(u64, u64)>> = vec![None; cells];
    let mut queue = BinaryHeap::new();
    best[rules.index(start).unwrap()] = Some((0, 0));
    queue.push(Reverse(((0u64, 0u64), start.y, start.x)));
    while let Some(Reverse(((turn, spent), y, x))) = queue.pop() {
        let at = Cell::new(x, y);
        if best[rules.index(at).unwrap()] != Some((turn, spent)) {
            continue;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                let to = Cell::new(x + dx, y + dy);
                let Some(paid) = grid
                    .region()
                    .contains(to)
                    .then(|| rules.step_cost(at, to))
                    .flatten()
                else {
                    continue;
                };
                let label = if spent + paid <= budget {
                    (turn, spent + paid)
                } else if paid <= budget {
                    (turn + 1, paid)
                } else {
                    continue;
                };
                if label.0 >= turns {
                    continue;
                }
                let slot = &mut best[rules.index(to).unwrap()];
                if slot.is_none_or(|held| label < held) {
                    *slot = Some(label);
                    queue.push(Reverse((label, to.y, to.x)));
                }
            }
        }
    }
    best
}

fn random_case(rng: &mut Rng, case: usize) -> (PathMap, Movement) {
    let (width, height) = (rng.range(6, 40) as i32, rng.range(6, 40) as i32);
    let walls = *rng.pick(&[0, 10, 25]);
    let grid = random_grid(rng, width, height, walls);
    let movement = movement_for_case(case);
    let mut map = PathMap::new(grid).with_movement(movement);
    map.set_profile(random_profile(rng, "unit")).unwrap();
    (map, movement)
}

#[test]
fn ranges_match_the_reference_on_generated_maps() {
    let mut rng = Rng::new(0x0A46_E000_0001);
    let (mut in_range, mut boundaries, mut paths, mut misfits) = (0, 0, 0, 0);
    for case in 0..400 {
        let (map, movement) = random_case(&mut rng, case);
        let size = rng.range(1, 5);
        let profile = map.profile("unit").unwrap();
        let eight_way = movement == Movement::EightWay;
        let terrain = Reference::new(map.grid(), profile, size as i32, eight_way);
        let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        if !terrain.legal(start) {
            let refused = map.movement_range(start, size, "unit", 5.0, &RangeOptions::new());
            assert!(
                matches!(
                    refused,
                    Err(RangeError::Refused {
                        code: PathCode::StartClearanceInsufficient | PathCode::StartOutOfBounds
                    })
                ),
                "{refused:?}"
            );
            continue;
        }
        let rules = UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &[],
            UnitRule::Block,
            Some(start),
        );
        let costs = rules.costs_from(&[start]);
        // Budgets on the cost of a reached anchor (an exact boundary) or anywhere.
        let reached: Vec<u64> = costs
            .iter()
            .copied()
            .filter(|&cost| cost != u64::MAX)
            .collect();
        let exact = reached[rng.range(0, reached.len() as i64) as usize];
        let budget = if rng.chance(60) {
            as_budget(exact)
        } else {
            rng.range(0, 30) as f64 * 0.7
        };
        let range = map
            .movement_range(start, size, "unit", budget, &RangeOptions::new())
            .unwrap();
        let limit = budget * COST_SCALE as f64 * (1.0 + 1e-7);
        let mut expected_cells = Vec::new();
        for (index, &cost) in costs.iter().enumerate() {
            let anchor = map.grid().cell_at(index);
            let inside = cost != u64::MAX && cost as f64 <= limit;
            assert_eq!(
                range.is_in_range(anchor),
                inside,
                "case {case}: {anchor} at {cost}, budget {budget}"
            );
            assert_eq!(
                range.cost(anchor),
                inside.then_some(cost),
                "case {case}: {anchor}"
            );
            if inside {
                expected_cells.push(anchor);
                in_range += 1;
                boundaries += usize::from(cost == exact && budget == as_budget(exact));
                if rng.chance(20) {
                    let path = range.path_to(anchor);
                    assert_eq!(path.code, PathCode::Ok);
                    assert_eq!(path.cost, cost);
                    let weights = rules.path_weights(&path.path, start, anchor).unwrap();
                    assert_eq!(weights_cost(weights), cost, "case {case}");
                    assert_eq!(
                        (path.step_weights.straight, path.step_weights.diagonal),
                        weights
                    );
                    let found = map.find_path(start, anchor, size, "unit");
                    assert_eq!(found.cost, cost, "case {case}: find_path to {anchor}");
                    paths += 1;
                }
            } else if cost == u64::MAX {
                // Where the unit does not fit, the code and shortfall a query gives.
                let answer = range.path_to(anchor);
                if terrain.legal(anchor) {
                    assert_eq!(answer.code, PathCode::NoPath, "case {case}: {anchor}");
                } else {
                    let found = Reference::direct_clearance(map.grid(), profile, anchor);
                    let shortfall = ClearanceShortfall {
                        found,
                        needed: size as u8,
                    };
                    assert_eq!(
                        (answer.code, answer.shortfall),
                        (PathCode::GoalClearanceInsufficient, Some(shortfall)),
                        "case {case}: {anchor}"
                    );
                    let query = map.find_path(start, anchor, size, "unit");
                    assert_eq!(
                        (query.code, query.shortfall),
                        (answer.code, answer.shortfall)
                    );
                    misfits += 1;
                }
            }
        }
        expected_cells.sort_by_key(|cell| (cell.y, cell.x));
        assert_eq!(range.cells(), expected_cells, "case {case}");
        // The border: in range, with a neighbour (by the movement rule) that is not.
        let steps: &[(i32, i32)] = if eight_way {
            &[
                (0, -1),
                (1, 0),
                (0, 1),
                (-1, 0),
                (1, -1),
                (1, 1),
                (-1, 1),
                (-1, -1),
            ]
        } else {
            &[(0, -1), (1, 0), (0, 1), (-1, 0)]
        };
        let border: Vec<Cell> = (expected_cells.iter().copied())
            .filter(|cell| {
                steps
                    .iter()
                    .any(|&(dx, dy)| !range.is_in_range(Cell::new(cell.x + dx, cell.y + dy)))
            })
            .collect();
        assert_eq!(range.border_cells(), border, "case {case}");
    }
    assert!(in_range >= 20_000, "{in_range}");
    assert!(boundaries >= 150, "{boundaries}");
    assert!(paths >= 2000, "{paths}");
    assert!(
        misfits >= 2000,
        "{misfits} anchors where the unit does not fit"
    );
}

#[test]
fn a_budget_of_one_plus_root_two_includes_the_anchor_at_that_cost() {
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 9, 9), 0).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let range = map
        .movement_range(
            Cell::new(4, 4),
            1,
            "unit",
            1.0 + 2f64.sqrt(),
            &RangeOptions::new(),
        )
        .unwrap();
    assert!(range.is_in_range(Cell::new(6, 5)));
    assert!(range.is_in_range(Cell::new(5, 2)));
    assert!(!range.is_in_range(Cell::new(6, 6)));
    assert!(!range.is_in_range(Cell::new(7, 4)));
    // Many diagonals: the fixed-point diagonal is a little longer than sqrt 2.
    let far = map
        .movement_range(
            Cell::new(0, 0),
            1,
            "unit",
            8.0 * 2f64.sqrt(),
            &RangeOptions::new(),
        )
        .unwrap();
    assert!(far.is_in_range(Cell::new(8, 8)));
    let short = map
        .movement_range(
            Cell::new(0, 0),
            1,
            "unit",
            8.0 * 2f64.sqrt() - 0.001,
            &RangeOptions::new(),
        )
        .unwrap();
    assert!(!short.is_in_range(Cell::new(8, 8)));
}

#[test]
fn several_turns_match_the_reference() {
    let mut rng = Rng::new(0x0A46_E000_0002);
    let mut later_turns = 0;
    for case in 0..200 {
        let (map, movement) = random_case(&mut rng, case);
        let size = rng.range(1, 4);
        let profile = map.profile("unit").unwrap();
        let eight_way = movement == Movement::EightWay;
        let terrain = Reference::new(map.grid(), profile, size as i32, eight_way);
        let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        if !terrain.legal(start) {
            continue;
        }
        let rules = UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &[],
            UnitRule::Block,
            Some(start),
        );
        let budget = rng.range(1, 12) as f64 * 0.75;
        let turns = rng.range(1, 5) as u32;
        let range = map
            .movement_range(
                start,
                size,
                "unit",
                budget,
                &RangeOptions::new().turns(turns),
            )
            .unwrap();
        let fixed = range.budget();
        let labels = reference_turns(&rules, map.grid(), start, fixed, u64::from(turns));
        for (index, label) in labels.iter().enumerate() {
            let anchor = map.grid().cell_at(index);
            assert_eq!(
                range.turns(anchor),
                label.map(|(turn, _)| turn as u32 + 1),
                "case {case}: {anchor}, budget {budget}, {turns} turns"
            );
            later_turns += usize::from(label.is_some_and(|(turn, _)| turn > 0));
            if let Some((0, spent)) = label {
                assert_eq!(range.cost(anchor), Some(*spent), "case {case}: {anchor}");
            }
            if label.is_some() {
                let path = range.path_to(anchor);
                assert_eq!(path.code, PathCode::Ok);
                rules.path_weights(&path.path, start, anchor).unwrap();
            }
        }
    }
    assert!(later_turns >= 2000, "{later_turns}");
}

#[test]
fn allies_are_passed_and_enemies_block_or_cost() {
    let mut rng = Rng::new(0x0A46_E000_0003);
    let (mut ally_cells, mut enemy_effect, mut costed_effect) = (0, 0, 0);
    let (mut smoothed_paths, mut occupied_goals, mut allies_named) = (0, 0, 0);
    for case in 0..300 {
        let (mut map, movement) = random_case(&mut rng, case);
        let size = rng.range(1, 3);
        let profile = map.profile("unit").unwrap().clone();
        let eight_way = movement == Movement::EightWay;
        let terrain = Reference::new(map.grid(), &profile, size as i32, eight_way);
        let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        if !terrain.legal(start) {
            continue;
        }
        let region = map.region();
        let mut units = Vec::new();
        for id in 0..rng.range(2, 12) {
            let anchor = Cell::new(
                region.x + rng.range(0, i64::from(region.width)) as i32,
                region.y + rng.range(0, i64::from(region.height)) as i32,
            );
            let unit_size = rng.range(1, 3) as i32;
            map.place_unit(id, anchor, i64::from(unit_size)).unwrap();
            units.push(Standing {
                id,
                anchor,
                size: unit_size,
            });
        }
        map.place_unit(100, start, size).unwrap();
        let allies: Vec<i64> = units
            .iter()
            .filter(|_| rng.chance(50))
            .map(|unit| unit.id)
            .collect();
        let enemies: Vec<Standing> = units
            .iter()
            .filter(|unit| !allies.contains(&unit.id))
            .copied()
            .collect();
        let friends: Vec<Standing> = units
            .iter()
            .filter(|unit| allies.contains(&unit.id))
            .copied()
            .collect();
        let budget = rng.range(2, 15) as f64;
        // Enemies block in two cases of three and raise costs in the third.
        let (rule, reference_rule) = if case % 3 == 2 {
            let multiplier = [0.5, 2.0, 4.0, 9.5][case / 3 % 4];
            let rule = OtherUnits::cost(multiplier).unwrap();
            let OtherUnits::Cost(fixed) = rule else {
                unreachable!("`cost` makes a `Cost` rule")
            };
            (rule, UnitRule::Cost(u64::from(fixed)))
        } else {
            (OtherUnits::Block, UnitRule::Block)
        };
        let options = RangeOptions::new()
            .other_units(rule)
            .moving_unit(100)
            .allies(&allies);
        let range = map
            .movement_range(start, size, "unit", budget, &options)
            .unwrap();
        let rules = UnitsReference::new(
            map.grid(),
            &profile,
            size as i32,
            eight_way,
            &enemies,
            reference_rule,
            Some(start),
        );
        let on_allies = UnitsReference::new(
            map.grid(),
            &profile,
            size as i32,
            eight_way,
            &friends,
            UnitRule::Block,
            Some(start),
        );
        let costs = rules.costs_from(&[start]);
        let alone = UnitsReference::new(
            map.grid(),
            &profile,
            size as i32,
            eight_way,
            &[],
            UnitRule::Block,
            Some(start),
        )
        .costs_from(&[start]);
        let limit = range.budget();
        // Where the unit fits the terrain, whoever stands there.
        let fits = Reference::new(map.grid(), &profile, size as i32, eight_way);
        for (index, &cost) in costs.iter().enumerate() {
            let anchor = map.grid().cell_at(index);
            let reachable = cost != u64::MAX && cost <= limit;
            let ally_there = on_allies.overlaps_units(anchor) && anchor != start;
            ally_cells += usize::from(reachable && ally_there);
            enemy_effect += usize::from(cost != alone[index]);
            costed_effect += usize::from(case % 3 == 2 && cost != alone[index] && reachable);
            assert_eq!(
                range.is_in_range(anchor),
                reachable && !ally_there,
                "case {case}: {anchor}"
            );
            if reachable && !ally_there {
                assert_eq!(range.cost(anchor), Some(cost));
                // The way there crosses allies: smoothed with them (and the mover) exempt,
                // its waypoints keep the rules for the enemies alone.
                let path = range.path_to(anchor).path;
                let exempt = options.uncounted_units();
                let waypoints = map
                    .smooth_path(&path, size, "unit", rule, &exempt)
                    .unwrap_or_else(|error| panic!("case {case}: {anchor}: {error}"));
                let checker = WaypointChecker {
                    grid: map.grid(),
                    profile: &profile,
                    size,
                    units: Some((enemies.clone(), rule)),
                    start,
                };
                smoothed_paths += 1;
                checker.check(&path, &waypoints, &format!("case {case}: {anchor}"));
            }
            // A goal under a unit that blocks: named, as a query names it; else one under an
            // ally, in range or not.
            let under = units_on(&enemies, anchor, size);
            let enemy_named = rule == OtherUnits::Block && !under.is_empty();
            if !fits.legal(anchor) {
                // Where the unit does not fit, that comes first, as in a query.
                let answer = range.path_to(anchor);
                assert_eq!(
                    answer.code,
                    PathCode::GoalClearanceInsufficient,
                    "case {case}"
                );
            } else if ally_there && !enemy_named {
                let answer = range.path_to(anchor);
                assert_eq!(answer.code, PathCode::GoalOccupied, "case {case}: {anchor}");
                let named = answer.occupied_by.expect("an ally on the goal is named");
                assert!(
                    units_on(&friends, anchor, size).contains(&named),
                    "case {case}"
                );
                allies_named += usize::from(!reachable);
            }
            if enemy_named && anchor != start && fits.legal(anchor) {
                let answer = range.path_to(anchor);
                assert_eq!(answer.code, PathCode::GoalOccupied, "case {case}: {anchor}");
                let named = answer.occupied_by.expect("a unit on the goal is named");
                assert!(under.contains(&named), "case {case}: {anchor}");
                let query = PathQuery {
                    other_units: rule,
                    moving_unit: Some(100),
                    exempt_units: &allies,
                    ..PathQuery::new(start, anchor, size, "unit")
                };
                let found = map.query(&query);
                assert_eq!(
                    (found.code, found.occupied_by),
                    (answer.code, answer.occupied_by),
                    "case {case}: {anchor}"
                );
                occupied_goals += 1;
            }
        }
    }
    assert!(occupied_goals >= 100, "{occupied_goals}");
    assert!(
        allies_named >= 100,
        "allies out of range named: {allies_named}"
    );
    assert!(ally_cells >= 100, "{ally_cells}");
    assert!(enemy_effect >= 100, "{enemy_effect}");
    assert!(costed_effect >= 20, "{costed_effect}");
    assert!(smoothed_paths >= 1000, "{smoothed_paths}");
}

#[test]
fn bad_input_is_refused_with_its_error() {
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 5, 5), 0).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let options = RangeOptions::new();
    let start = Cell::new(1, 1);
    for budget in [f64::NAN, -1.0, f64::INFINITY, 2e9] {
        assert!(matches!(
            map.movement_range(start, 1, "unit", budget, &options),
            Err(RangeError::InvalidBudget { .. })
        ));
    }
    let refused = |size: i64, profile: &str, at: Cell, options: &RangeOptions| match map
        .movement_range(at, size, profile, 3.0, options)
    {
        Err(RangeError::Refused { code }) => code,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        refused(0, "unit", start, &options),
        PathCode::InvalidAgentSize
    );
    assert_eq!(
        refused(256, "unit", start, &options),
        PathCode::InvalidAgentSize
    );
    assert_eq!(
        refused(1, "nobody", start, &options),
        PathCode::UnknownProfile
    );
    assert_eq!(
        refused(1, "unit", Cell::new(5, 0), &options),
        PathCode::StartOutOfBounds
    );
    assert_eq!(
        refused(6, "unit", start, &options),
        PathCode::StartClearanceInsufficient
    );
    assert_eq!(
        refused(1, "unit", start, &RangeOptions::new().moving_unit(7)),
        PathCode::UnknownUnit
    );
    assert_eq!(
        refused(1, "unit", start, &RangeOptions::new().allies(&[3])),
        PathCode::UnknownUnit
    );
    assert!(matches!(
        map.movement_range(
            start,
            1,
            "unit",
            3.0,
            &RangeOptions::new().turns(MAX_TURNS + 1)
        ),
        Err(RangeError::TooManyTurns { .. })
    ));
    // A zero budget: the start alone.
    let still = map.movement_range(start, 1, "unit", 0.0, &options).unwrap();
    assert_eq!(still.cells(), [start]);
    assert_eq!(still.cost(start), Some(0));
}

#[test]
fn a_range_whose_search_would_pass_the_memory_limit_is_refused() {
    // Road that costs nothing: a step can be free, so a range's search spans the whole map.
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 512, 512), 0).unwrap());
    map.set_profile(
        AgentProfile::new("unit")
            .with_terrain(0, 1.0)
            .unwrap()
            .with_terrain(2, 0.0)
            .unwrap(),
    )
    .unwrap();
    map.fill_rect(Region::new(0, 10, 512, 1), 2).unwrap();
    let options = RangeOptions::new();
    let start = Cell::new(5, 5);
    // A first range builds the search graph; the limit then leaves 1 MiB over the caches.
    let near = map.movement_range(start, 1, "unit", 2.0, &options).unwrap();
    map.set_cache_memory_limit(map.cache_memory_bytes() + (1 << 20));
    let before = map.cache_memory_bytes();
    assert!(matches!(
        map.movement_range(start, 1, "unit", 8.0, &options),
        Err(RangeError::Refused {
            code: PathCode::MemoryLimitReached
        })
    ));
    assert_eq!(
        map.cache_memory_bytes(),
        before,
        "a refused range builds nothing"
    );
    // Without free steps the window follows the budget, and fits.
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map.set_cache_memory_limit(usize::MAX);
    map.movement_range(start, 1, "unit", 2.0, &options).unwrap();
    map.set_cache_memory_limit(map.cache_memory_bytes() + (1 << 20));
    let same = map.movement_range(start, 1, "unit", 2.0, &options).unwrap();
    assert_eq!(same.cells(), near.cells());
    assert!(map.movement_range(start, 1, "unit", 40.0, &options).is_ok());
}
