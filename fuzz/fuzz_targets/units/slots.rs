//! Arrival slots and the group order sent to them.

use super::{cell, Scene, IDS, SIZES, UNIT_COSTS};
use clearance_core::{
    Cell, Movement, OtherUnits, PathCode, PathQuery, SearchMode, SlotPathOptions, SlotRequest,
    Smoothing,
};
use clearance_tests::reference::Reference;
use clearance_tests::slots::{check_slots, Seen};
use clearance_tests::swept::WaypointChecker;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use libfuzzer_sys::arbitrary::{Result, Unstructured};

pub(super) fn slots(u: &mut Unstructured, scene: &Scene<'_>) -> Result<()> {
    let &Scene {
        map, units, region, ..
    } = scene;
    let target = cell(u, region)?;
    let mut group = Vec::new();
    // Large groups of one profile share a landmark at the target (eight members or more):
    // their members are mostly valid, with ids of their own and one profile.
    let large = u.ratio(1, 4)?;
    let members = if large { 8..=14 } else { 0..=4usize };
    for index in 0..u.int_in_range(members)? {
        let valid = large && u.ratio(7, 8)?;
        group.push(SlotRequest {
            id: match valid {
                true => 100 + index as i64,
                false => *u.choose(&IDS)?,
            },
            start: match valid {
                true => Cell::new(
                    region.x + u.int_in_range(0..=region.width - 1)?,
                    region.y + u.int_in_range(0..=region.height - 1)?,
                ),
                false => cell(u, region)?,
            },
            agent_size: *u.choose(if valid { &SIZES[..5] } else { &SIZES })?,
            profile: match valid {
                true => "p1",
                false => u.choose(&["p0", "p1", "p1", "unknown"])?,
            },
        });
    }
    let valid = region.contains(target)
        && group.iter().enumerate().all(|(at, member)| {
            group[..at].iter().all(|other| other.id != member.id)
                && region.contains(member.start)
                && (1..=255).contains(&member.agent_size)
                && member.profile != "unknown"
        });
    let answer = map.arrival_slots(target, &group);
    assert_eq!(answer.is_ok(), valid, "slots {target} {group:?}");
    let Ok(slots) = answer else { return Ok(()) };
    // Every property of the contract: legal, apart, clear of the units outside the group,
    // reachable, compact, and `None` only where no free anchor is left to reach.
    check_slots(map, units, target, &group, &slots, &mut Seen::default());
    send_to_slots(u, scene, target, &group, &slots)
}

/// The group order sent to its slots: every member's slot is the one `arrival_slots` chose,
/// and its result answers as the query a caller would make by hand (code and cost), with a
/// path the reference walks at that cost and waypoints that pass the checker.
pub(super) fn send_to_slots(
    u: &mut Unstructured,
    scene: &Scene<'_>,
    target: Cell,
    group: &[SlotRequest<'_>],
    slots: &[Option<Cell>],
) -> Result<()> {
    let &Scene {
        map,
        units,
        movement,
        ..
    } = scene;
    let rule = if u.arbitrary::<bool>()? {
        OtherUnits::Block
    } else {
        OtherUnits::cost(*u.choose(&UNIT_COSTS)?).expect("valid")
    };
    let options = SlotPathOptions::new()
        .other_units(rule)
        .search(*u.choose(&SearchMode::ALL)?)
        .smoothing(*u.choose(&Smoothing::ALL)?)
        .threads(u.int_in_range(1..=2usize)?);
    let order = (map.find_paths_to_slots(target, group, &options))
        .unwrap_or_else(|error| panic!("the slots were given, the order is refused: {error}"));
    assert_eq!(order.len(), group.len());
    let registered = |id: i64| units.iter().any(|unit| unit.id == id);
    let group_ids: Vec<i64> = (group.iter())
        .map(|member| member.id)
        .filter(|&id| registered(id))
        .collect();
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| !group_ids.contains(&unit.id))
        .copied()
        .collect();
    let reference_rule = match rule {
        OtherUnits::Cost(fixed) => UnitRule::Cost(u64::from(fixed)),
        _ => UnitRule::Block,
    };
    let eight_way = movement == Movement::EightWay;
    for ((member, slot), sent) in group.iter().zip(slots).zip(&order) {
        let context = format!("order to {target}: {member:?} {options:?}");
        assert_eq!(sent.slot, *slot, "{context}");
        let profile = map.profile(member.profile).expect("checked by the slots");
        let size = member.agent_size as i32;
        let Some(slot) = *slot else {
            let fits = Reference::new(map.grid(), profile, size, eight_way).legal(member.start);
            let code = if fits {
                PathCode::NoPath
            } else {
                PathCode::StartClearanceInsufficient
            };
            assert_eq!(sent.result.code, code, "{context}");
            continue;
        };
        let mut query = PathQuery::new(member.start, slot, member.agent_size, member.profile)
            .other_units(rule)
            .exempt_units(&group_ids)
            .search(options.search)
            .smoothing(options.smoothing);
        if registered(member.id) {
            query = query.moving_unit(member.id);
        }
        let by_hand = map.query(&query);
        assert_eq!(
            (sent.result.code, sent.result.cost),
            (by_hand.code, by_hand.cost),
            "{context}"
        );
        if rule == OtherUnits::Block {
            assert_eq!(sent.result.code, PathCode::Ok, "{context}");
        }
        if sent.result.code != PathCode::Ok {
            continue;
        }
        let rules = UnitsReference::new(
            map.grid(),
            profile,
            size,
            eight_way,
            &counted,
            reference_rule,
            Some(member.start),
        );
        let weights = (rules.path_weights(&sent.result.path, member.start, slot))
            .unwrap_or_else(|error| panic!("{context}: {error}"));
        assert_eq!(weights_cost(weights), sent.result.cost, "{context}");
        // Optimal by the reference, not only equal to the query by hand.
        let optimum = rules.optimal_cost(member.start, slot);
        assert_eq!(optimum, Some(sent.result.cost), "{context}: not optimal");
        if options.smoothing == Smoothing::Taut {
            let checker = WaypointChecker {
                grid: map.grid(),
                profile,
                size: member.agent_size,
                units: Some((counted.clone(), rule)),
                start: member.start,
            };
            checker.check(&sent.result.path, &sent.result.waypoints, &context);
        }
    }
    Ok(())
}
