//! Flow fields to one or two goals with the units counted.

use super::{any_rule, cell, Scene, IDS, SIZES};
use clearance_core::{
    Cell, FlowFieldOptions, Movement, OtherUnits, PathCode, COST_SCALE, DIAGONAL_STEP,
};
use clearance_tests::reference::Reference;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use libfuzzer_sys::arbitrary::{Result, Unstructured};

/// Bounds for flow fields, fixed point: 0, one straight step, one straight and one diagonal
/// step (and a hair less), a fraction of a step, and three steps.
const FIELD_BOUNDS: [u64; 6] = [
    0,
    COST_SCALE,
    COST_SCALE + DIAGONAL_STEP * 1000,
    COST_SCALE + DIAGONAL_STEP * 1000 - 1,
    700_000,
    3 * COST_SCALE,
];

pub(super) fn field(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map,
        units,
        region,
        movement,
    } = scene;
    let goals: Vec<Cell> = (0..u.int_in_range(1..=2usize)?)
        .map(|_| cell(u, region))
        .collect::<Result<_>>()?;
    let size = *u.choose(&SIZES)?;
    let name = *u.choose(&["p0", "p1"])?;
    let (rule, reference_rule) = any_rule(u)?;
    let exempt: Vec<i64> = (0..u.int_in_range(0..=2usize)?)
        .map(|_| u.choose(&IDS).copied())
        .collect::<Result<_>>()?;
    let mut options = FlowFieldOptions::new().other_units(rule, &exempt);
    if u.arbitrary::<bool>()? {
        options = options.max_cost(*u.choose(&FIELD_BOUNDS)?);
    }
    let answer = map.flow_field(&goals, size, name, options.clone());
    let context = format!("field {goals:?} size {size} {name} {options:?}");
    if !(1..=255).contains(&size) {
        assert_eq!(answer.err(), Some(PathCode::InvalidAgentSize), "{context}");
        return Ok(());
    }
    if !goals.iter().all(|&goal| region.contains(goal)) {
        assert_eq!(answer.err(), Some(PathCode::GoalOutOfBounds), "{context}");
        return Ok(());
    }
    let profile = map.profile(name).expect("registered");
    let eight_way = movement == Movement::EightWay;
    let terrain = Reference::new(map.grid(), profile, size as i32, eight_way);
    if !goals.iter().all(|&goal| terrain.legal(goal)) {
        assert_eq!(
            answer.err(),
            Some(PathCode::GoalClearanceInsufficient),
            "{context}"
        );
        return Ok(());
    }
    if !exempt
        .iter()
        .all(|id| units.iter().any(|unit| unit.id == *id))
    {
        assert_eq!(answer.err(), Some(PathCode::UnknownUnit), "{context}");
        return Ok(());
    }
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| !exempt.contains(&unit.id))
        .copied()
        .collect();
    let rules = match reference_rule {
        Some(rule) => UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &counted,
            rule,
            None,
        ),
        None => UnitsReference::new(
            map.grid(),
            profile,
            size as i32,
            eight_way,
            &[],
            UnitRule::Block,
            None,
        ),
    };
    if rule == OtherUnits::Block && goals.iter().any(|&goal| rules.overlaps_units(goal)) {
        assert_eq!(answer.err(), Some(PathCode::GoalOccupied), "{context}");
        return Ok(());
    }
    let field = answer.unwrap_or_else(|code| panic!("{context}: {code:?}"));
    for index in 0..map.grid().as_bytes().len() {
        let anchor = map.grid().cell_at(index);
        let costs = rules.costs_from(&[anchor]);
        let nearest = (goals.iter())
            .filter_map(|&goal| rules.index(goal).map(|at| costs[at]))
            .filter(|&cost| cost != u64::MAX)
            .min();
        let expected = nearest.filter(|&cost| options.max_cost.is_none_or(|most| cost <= most));
        assert_eq!(field.cost(anchor), expected, "{context}: {anchor}");
        let Some(cost) = expected else { continue };
        let path = field.path_from(anchor);
        assert_eq!(
            (path.code, path.cost),
            (PathCode::Ok, cost),
            "{context}: {anchor}"
        );
        let end = *path.path.last().expect("a path");
        assert!(goals.contains(&end), "{context}: {anchor} leads to {end}");
        let weights = rules
            .path_weights(&path.path, anchor, end)
            .unwrap_or_else(|error| panic!("{context}: path from {anchor}: {error}"));
        assert_eq!(weights_cost(weights), cost, "{context}: {anchor}");
    }
    Ok(())
}
