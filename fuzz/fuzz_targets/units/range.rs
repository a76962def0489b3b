//! One-turn movement ranges with the enemies counted and the allies' footprints left out;
//! the way to the farthest anchor in range smoothed with the allies and the mover exempt.

use super::{any_rule, cell, Scene, IDS, SIZES};
use clearance_core::{Movement, PathCode, RangeError, RangeOptions, MAX_BUDGET};
use clearance_tests::reference::Reference;
use clearance_tests::swept::WaypointChecker;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use libfuzzer_sys::arbitrary::{Result, Unstructured};

/// Budgets for movement ranges: exact step sums (1 + sqrt 2), fractions, and invalid ones.
const BUDGETS: [f64; 10] = [
    0.0,
    0.5,
    1.0,
    1.0 + std::f64::consts::SQRT_2,
    3.0,
    7.25,
    40.0,
    f64::NAN,
    -1.0,
    2e9,
];

pub(super) fn range(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let start = cell(u, region)?;
    let size = *u.choose(&SIZES)?;
    let name = *u.choose(&["p0", "p1"])?;
    let budget = *u.choose(&BUDGETS)?;
    let (rule, reference_rule) = any_rule(u)?;
    let mut options = RangeOptions::new().other_units(rule);
    if u.arbitrary::<bool>()? {
        options = options.moving_unit(*u.choose(&IDS)?);
    }
    let allies: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    options = options.allies(&allies);
    let answer = map.movement_range(start, size, name, budget, &options);
    let context = format!("range {start} size {size} {name} budget {budget} {options:?}");
    if !(0.0..=MAX_BUDGET).contains(&budget) {
        assert!(
            matches!(answer, Err(RangeError::InvalidBudget { .. })),
            "{context}: {answer:?}"
        );
        return Ok(());
    }
    let registered = |id: &i64| units.iter().any(|unit| unit.id == *id);
    let known = options.moving_unit.iter().chain(&allies).all(registered);
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    // A start the range cannot begin from: the code a query from it would get, in the
    // contract's order.
    let refusal = if !(1..=255).contains(&size) {
        Some(PathCode::InvalidAgentSize)
    } else if !region.contains(start) {
        Some(PathCode::StartOutOfBounds)
    } else if !Reference::new(map.grid(), profile, size as i32, eight_way).legal(start) {
        Some(PathCode::StartClearanceInsufficient)
    } else if !known {
        Some(PathCode::UnknownUnit)
    } else {
        None
    };
    if let Some(code) = refusal {
        assert!(
            matches!(answer, Err(RangeError::Refused { code: refused }) if refused == code),
            "{context}: {answer:?}, expected {code}"
        );
        return Ok(());
    }
    let range = answer.unwrap_or_else(|error| panic!("{context}: {error}"));
    let is_ally =
        |unit: &&Standing| allies.contains(&unit.id) && options.moving_unit != Some(unit.id);
    let enemies: Vec<Standing> = (units.iter())
        .filter(|unit| options.moving_unit != Some(unit.id) && !allies.contains(&unit.id))
        .copied()
        .collect();
    let friends: Vec<Standing> = units.iter().filter(is_ally).copied().collect();
    let reference = |counted: &[Standing], rule| {
        UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            counted,
            rule,
            Some(start),
        )
    };
    let rules = match reference_rule {
        Some(rule) => reference(&enemies, rule),
        None => reference(&[], UnitRule::Block),
    };
    let on_allies = reference(&friends, UnitRule::Block);
    let costs = rules.costs_from(&[start]);
    let limit = range.budget();
    // The anchor in range at the highest cost, whose way is smoothed below.
    let mut farthest = (0, start);
    for (index, &cost) in costs.iter().enumerate() {
        let anchor = map.grid().cell_at(index);
        let reachable = cost != u64::MAX && cost <= limit;
        let ally_there = anchor != start && on_allies.overlaps_units(anchor);
        let inside = reachable && !ally_there;
        assert_eq!(range.is_in_range(anchor), inside, "{context}: {anchor}");
        if !inside {
            continue;
        }
        assert_eq!(range.cost(anchor), Some(cost), "{context}: {anchor}");
        let back = range.path_to(anchor);
        assert_eq!(
            (back.code, back.cost),
            (PathCode::Ok, cost),
            "{context}: {anchor}"
        );
        let weights = rules
            .path_weights(&back.path, start, anchor)
            .unwrap_or_else(|error| panic!("{context}: path to {anchor}: {error}"));
        assert_eq!(weights_cost(weights), cost, "{context}: {anchor}");
        farthest = farthest.max((cost, anchor));
    }
    // The way may cross allies, so they do not count for its waypoints, nor does the mover;
    // the enemies count by the range's rule.
    let path = range.path_to(farthest.1).path;
    let exempt = options.uncounted_units();
    let waypoints = map
        .smooth_path(&path, size, name, rule, &exempt)
        .unwrap_or_else(|error| panic!("{context}: smoothing the way to {}: {error}", farthest.1));
    let checker = WaypointChecker {
        grid: map.grid(),
        profile,
        size,
        units: reference_rule.map(|_| (enemies.clone(), rule)),
        start,
    };
    checker.check(&path, &waypoints, &context);
    Ok(())
}
