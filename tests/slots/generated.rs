//! Generated group orders: slots and the paths sent to them on random maps with units.

use super::{place, random_map, scatter_units, NAMES};
use clearance_core::{
    Cell, Movement, OtherUnits, PathMap, PathQuery, SlotPathOptions, SlotRequest, Smoothing,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{random_cell, Rng};
use clearance_tests::reference::Reference;
use clearance_tests::slots::squares_overlap;
use clearance_tests::slots::{check_slot_paths, check_slots, Seen};
use clearance_tests::units::Standing;

/// One cell under a random unit of `units` that lies on the map.
fn cell_under(rng: &mut Rng, map: &PathMap, units: &[Standing]) -> Option<Cell> {
    if units.is_empty() {
        return None;
    }
    let unit = rng.pick(units);
    let cell = Cell::new(
        unit.anchor.x + rng.range(0, i64::from(unit.size)) as i32,
        unit.anchor.y + rng.range(0, i64::from(unit.size)) as i32,
    );
    map.region().contains(cell).then_some(cell)
}

/// Where generated members start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Starts {
    /// Never where a unit outside the group stands (on a legal anchor).
    ClearOfOutsiders,
    /// At least one member on a unit outside the group, free to walk out.
    SomeOnOutsiders,
}

/// Generates `cases` maps with units and a group order on each, and checks the slots;
/// returns the tallies and how many members started on a unit outside the group.
fn check_generated_groups(seed: u64, cases: usize, starts: Starts) -> (Seen, usize) {
    let mut rng = Rng::new(seed);
    let mut seen = Seen::default();
    let mut on_outsiders = 0;
    for case in 0..cases {
        let mut map = random_map(&mut rng, case, 22);
        let count = rng.range(0, 7);
        let mut units = scatter_units(&mut rng, &mut map, count, (1, 4));
        let outsiders = units.clone();
        let mut group = Vec::new();
        for index in 0..rng.range(1, 9) {
            let size = *rng.pick(&[1, 1, 1, 2, 2, 3, 4]);
            let profile = *rng.pick(&NAMES);
            let terrain = Reference::for_map(&map, profile, size);
            let on_an_outsider = |cell: Cell| {
                terrain.legal(cell)
                    && (outsiders.iter())
                        .any(|unit| squares_overlap(cell, size as i32, unit.anchor, unit.size))
            };
            let wanted_on = starts == Starts::SomeOnOutsiders && (index == 0 || rng.chance(20));
            let mut start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            for _ in 0..30 {
                let cell = if wanted_on {
                    cell_under(&mut rng, &map, &outsiders)
                } else if rng.chance(15) {
                    Some(random_cell(&mut rng, map.region()))
                } else {
                    Some(likely_legal_anchor(&mut rng, map.grid(), &terrain))
                };
                if let Some(cell) = cell.filter(|&cell| on_an_outsider(cell) == wanted_on) {
                    start = cell;
                    break;
                }
            }
            if on_an_outsider(start) != wanted_on && starts == Starts::ClearOfOutsiders {
                continue;
            }
            on_outsiders += usize::from(on_an_outsider(start));
            // Members are often registered where they stand; that must not count.
            let id = 100 + index;
            if rng.chance(50) {
                let unit = Standing {
                    id,
                    anchor: start,
                    size: size as i32,
                };
                place(&mut map, &mut units, unit);
            }
            group.push(SlotRequest {
                id,
                start,
                agent_size: size,
                profile,
            });
        }
        let target = match rng.range(0, 5) {
            0 => cell_under(&mut rng, &map, &outsiders)
                .unwrap_or_else(|| random_cell(&mut rng, map.region())),
            1 | 2 => random_cell(&mut rng, map.region()),
            _ => {
                // Where a 1x1 scout may stand, so that most groups have anchors on it.
                let scout = map.profile("scout").unwrap();
                let eight_way = map.movement() == Movement::EightWay;
                let terrain = Reference::new(map.grid(), scout, 1, eight_way);
                likely_legal_anchor(&mut rng, map.grid(), &terrain)
            }
        };
        let slots = map.arrival_slots(target, &group).unwrap();
        check_slots(&map, &units, target, &group, &slots, &mut seen);
        let options = SlotPathOptions::new().threads(1 + case % 2);
        let order = map.find_paths_to_slots(target, &group, &options).unwrap();
        check_slot_paths(&map, &units, &group, &slots, &order);
        if case % 5 == 0 {
            // The contract: each result is the query a caller would make by hand.
            let smoothed = options.smoothing(Smoothing::Taut);
            let order = map.find_paths_to_slots(target, &group, &smoothed).unwrap();
            let registered: Vec<i64> = (group.iter().map(|member| member.id))
                .filter(|&id| map.unit(id).is_some())
                .collect();
            for (member, sent) in group.iter().zip(&order) {
                let Some(slot) = sent.slot else { continue };
                let mut query =
                    PathQuery::new(member.start, slot, member.agent_size, member.profile)
                        .other_units(OtherUnits::Block)
                        .exempt_units(&registered)
                        .smoothing(Smoothing::Taut);
                query.moving_unit = map.unit(member.id).map(|_| member.id);
                let by_hand = map.query(&query);
                assert_eq!(sent.result.code, by_hand.code, "{member:?}");
                assert_eq!(sent.result.cost, by_hand.cost, "{member:?}");
                assert_eq!(sent.result.smoothing, by_hand.smoothing, "{member:?}");
                if sent.result.path == by_hand.path {
                    assert_eq!(sent.result, by_hand, "{member:?}");
                }
            }
        }
        assert_eq!(map.arrival_slots(target, &group), Ok(slots.clone()));
        assert_eq!(map.clone().arrival_slots(target, &group), Ok(slots));
    }
    (seen, on_outsiders)
}

#[test]
fn slots_keep_the_contract_on_generated_maps() {
    // No member starts on an outsider here: the generator skips such starts.
    let (seen, _) = check_generated_groups(0x0005_107A_0001, 1000, Starts::ClearOfOutsiders);
    assert!(seen.slots >= 2000, "{seen:?}");
    assert!(seen.none >= 200, "{seen:?}");
    assert!(seen.displaced >= 1000, "{seen:?}");
    assert!(seen.cut_off >= 50, "{seen:?}");
    assert!(seen.fallback_seed >= 100, "{seen:?}");
}

#[test]
fn slots_keep_the_contract_with_members_standing_on_outsiders() {
    // A member may stand where a unit outside the group stands, and walk out of it.
    let (seen, on_outsiders) =
        check_generated_groups(0x0005_107A_0002, 600, Starts::SomeOnOutsiders);
    assert!(on_outsiders >= 500, "{on_outsiders}");
    assert!(seen.slots >= 1000, "{seen:?}");
}

#[test]
fn large_groups_of_one_profile_get_optimal_paths_to_their_slots() {
    // Eight or more members of one profile: their queries share a landmark near the target.
    let mut rng = Rng::new(0x0510_70BD_3B16);
    let mut sent = 0;
    for case in 0..60 {
        let mut map = random_map(&mut rng, case, 26);
        let count = rng.range(1, 9);
        let units = scatter_units(&mut rng, &mut map, count, (1, 4));
        let profile = *rng.pick(&NAMES);
        let mut group = Vec::new();
        for index in 0..rng.range(8, 17) {
            let size = *rng.pick(&[1, 1, 2, 3]);
            let terrain = Reference::for_map(&map, profile, size);
            let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            group.push(SlotRequest {
                id: 100 + index,
                start,
                agent_size: size,
                profile,
            });
        }
        let target = random_cell(&mut rng, map.region());
        let slots = map.arrival_slots(target, &group).unwrap();
        for rule in [OtherUnits::Block, OtherUnits::cost(3.0).unwrap()] {
            let options = SlotPathOptions::new()
                .other_units(rule)
                .threads(1 + case % 2);
            let order = map.find_paths_to_slots(target, &group, &options).unwrap();
            if rule == OtherUnits::Block {
                check_slot_paths(&map, &units, &group, &slots, &order);
            }
            // Each result is the query a caller would make by hand, the landmark aside.
            for (member, sent_member) in group.iter().zip(&order) {
                let Some(slot) = sent_member.slot else {
                    continue;
                };
                let by_hand = map.query(
                    &PathQuery::new(member.start, slot, member.agent_size, member.profile)
                        .other_units(rule),
                );
                assert_eq!(sent_member.result.code, by_hand.code, "{member:?} {rule:?}");
                assert_eq!(sent_member.result.cost, by_hand.cost, "{member:?} {rule:?}");
                sent += usize::from(by_hand.is_ok());
            }
        }
    }
    assert!(sent > 500, "only {sent} members sent");
}
