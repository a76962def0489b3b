//! Queries that count the units, in every search mode, against the reference with units;
//! with taut smoothing, the waypoints, the first waypoint read lazily and a straight move
//! against the independent checker.

use super::{cell, Scene, IDS, UNIT_COSTS};
use clearance_core::{
    ClearanceShortfall, Movement, OtherUnits, PathCode, PathQuery, SearchMode, Smoothing,
};
use clearance_tests::reference::Reference;
use clearance_tests::swept::WaypointChecker;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use libfuzzer_sys::arbitrary::{Result, Unstructured};

pub(super) fn query(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let (start, goal) = (cell(u, region)?, cell(u, region)?);
    // Now and then a size out of range or a profile the map does not hold.
    let size = *u.choose(&[1, 1, 2, 2, 3, 3, 0, 256])?;
    let name = *u.choose(&["p0", "p0", "p1", "p1", "p2"])?;
    let rule = if u.arbitrary::<bool>()? {
        OtherUnits::Block
    } else {
        OtherUnits::cost(*u.choose(&UNIT_COSTS)?).expect("valid")
    };
    let moving = if u.arbitrary::<bool>()? {
        Some(*u.choose(&IDS)?)
    } else {
        None
    };
    let exempt: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    let invalid = if !(1..=255).contains(&size) {
        Some(PathCode::InvalidAgentSize)
    } else if map.profile(name).is_none() {
        Some(PathCode::UnknownProfile)
    } else {
        None
    };
    if let Some(code) = invalid {
        for mode in SearchMode::ALL {
            let mut query = PathQuery::new(start, goal, size, name)
                .other_units(rule)
                .exempt_units(&exempt)
                .search(mode)
                .smoothing(Smoothing::Taut);
            query.moving_unit = moving;
            let result = map.query(&query);
            assert_eq!(
                (result.code, result.shortfall, result.occupied_by),
                (code, None, None),
                "{mode:?}"
            );
            assert!(result.path.is_empty() && result.waypoints.is_empty());
        }
        return Ok(());
    }
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| Some(unit.id) != moving && !exempt.contains(&unit.id))
        .copied()
        .collect();
    let reference_rule = match rule {
        OtherUnits::Cost(fixed) => UnitRule::Cost(u64::from(fixed)),
        _ => UnitRule::Block,
    };
    let rules = UnitsReference::new(
        map.grid(),
        profile,
        size as i32,
        eight_way,
        &counted,
        reference_rule,
        Some(start),
    );
    // An end off the map or where the unit does not fit: the code of the first check that
    // fails, in the contract's order (these come before the units are looked at), with the
    // shortfall from the reference's own clearance.
    let shortfall = |anchor| ClearanceShortfall {
        found: Reference::direct_clearance(map.grid(), profile, anchor),
        needed: size as u8,
    };
    let refusal = if !region.contains(start) {
        Some((PathCode::StartOutOfBounds, None))
    } else if !region.contains(goal) {
        Some((PathCode::GoalOutOfBounds, None))
    } else if !rules.terrain_legal(start) {
        Some((PathCode::StartClearanceInsufficient, Some(shortfall(start))))
    } else if !rules.terrain_legal(goal) {
        Some((PathCode::GoalClearanceInsufficient, Some(shortfall(goal))))
    } else {
        None
    };
    let registered = |id: &i64| units.iter().any(|unit| unit.id == *id);
    let known = moving.iter().chain(&exempt).all(registered);
    let smoothing = *u.choose(&Smoothing::ALL)?;
    for mode in SearchMode::ALL {
        let mut query = PathQuery::new(start, goal, size, name)
            .other_units(rule)
            .exempt_units(&exempt)
            .search(mode)
            .smoothing(smoothing);
        query.moving_unit = moving;
        let result = map.query(&query);
        if let Some((code, shortfall)) = refusal {
            assert_eq!(
                (result.code, result.shortfall),
                (code, shortfall),
                "{mode:?}"
            );
            assert!(result.path.is_empty() && result.waypoints.is_empty());
            continue;
        }
        if !known {
            assert_eq!(result.code, PathCode::UnknownUnit);
            continue;
        }
        if start == goal {
            assert_eq!(
                (result.code, &result.path, result.cost),
                (PathCode::Ok, &vec![start], 0)
            );
            continue;
        }
        if rule == OtherUnits::Block && rules.overlaps_units(goal) {
            assert_eq!(result.code, PathCode::GoalOccupied, "{mode:?}");
            // The unit named stands on the goal's footprint.
            let named = result.occupied_by.expect("a unit on the goal is named");
            let unit = counted.iter().find(|unit| unit.id == named);
            let overlaps = |unit: &Standing| {
                let apart =
                    |a: i32, a_size: i32, b: i32, b_size: i32| a + a_size <= b || b + b_size <= a;
                !apart(unit.anchor.x, unit.size, goal.x, size as i32)
                    && !apart(unit.anchor.y, unit.size, goal.y, size as i32)
            };
            assert!(unit.is_some_and(overlaps), "{mode:?}: unit {named}");
            continue;
        }
        match rules.optimal_cost(start, goal) {
            None => assert_eq!(result.code, PathCode::NoPath, "{mode:?} {start} {goal}"),
            Some(cost) => {
                assert_eq!(result.code, PathCode::Ok, "{mode:?} {start} {goal}");
                assert_eq!(result.cost, cost, "{mode:?} {start} {goal}");
                let weights = rules
                    .path_weights(&result.path, start, goal)
                    .unwrap_or_else(|error| panic!("{mode:?}: {error}"));
                assert_eq!(weights_cost(weights), cost);
                if smoothing == Smoothing::Taut {
                    let checker = WaypointChecker {
                        grid: map.grid(),
                        profile,
                        size,
                        units: Some((counted.clone(), rule)),
                        start,
                    };
                    checker.check(&result.path, &result.waypoints, &format!("{mode:?}"));
                    let mut not_counted = exempt.clone();
                    not_counted.extend(moving);
                    // Steering: the first waypoint read lazily, a move the checker allows
                    // while it refuses the next, no farther than the taut one.
                    let path = &result.path;
                    let first = map
                        .first_waypoint(path.iter().copied(), size, name, rule, &not_counted)
                        .unwrap_or_else(|error| panic!("{mode:?}: first waypoint: {error}"));
                    let at = path
                        .iter()
                        .position(|&anchor| anchor == first)
                        .expect("on the path");
                    let taut_at = path
                        .iter()
                        .position(|&a| Some(&a) == result.waypoints.get(1));
                    if path.len() > 1 {
                        assert!(
                            checker.allows(path, 0, at) && at >= 1,
                            "{mode:?}: to {first}"
                        );
                        let past = at + 1 < path.len() && checker.allows(path, 0, at + 1);
                        assert!(!past, "{mode:?}: past {first}");
                        assert!(taut_at.is_some_and(|taut| taut >= at), "{mode:?}: {first}");
                    }
                    // One straight move from start to goal, against the same checker.
                    let in_the_way = map
                        .straight_move_blocker(start, goal, size, name, rule, &not_counted)
                        .unwrap_or_else(|error| panic!("{start} -> {goal}: {error}"));
                    let refused = checker.refused_on_move(goal);
                    match in_the_way {
                        None => assert!(refused.is_empty(), "{start} -> {goal}: {refused:?}"),
                        Some(cell) => assert!(refused.contains(&cell), "{start} -> {goal}: {cell}"),
                    }
                }
            }
        }
    }
    Ok(())
}
