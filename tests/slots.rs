//! Arrival slots against a checker that shares no code with the slot builder: every property
//! of the contract in `map/slots/mod.rs` (legal, pairwise apart, clear of the units outside the
//! group, reachable round them, compact by the reference cost from the target's anchors, and
//! `None` only where no free anchor is left to reach), checked with the reference solver with
//! units (tests/support/units.rs) on generated maps; equal calls give equal slots; bad input
//! gets its typed error.

use clearance_core::{
    AgentProfile, Cell, ClearanceShortfall, Movement, OtherUnits, PathCode, PathMap, PathQuery,
    Region, SlotPathOptions, SlotRequest, Smoothing, TerrainGrid, UnitError,
};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{random_cell, random_map_for_case, Rng};
use clearance_tests::reference::Reference;
use clearance_tests::units::{weights_cost, Standing, UnitRule, UnitsReference};
use std::collections::HashMap;

/// Profile names of generated maps.
const NAMES: [&str; 3] = ["scout", "truck", "tank"];

/// Whether the `size x size` squares at `a` and `b` share a cell.
fn squares_overlap(a: Cell, a_size: i32, b: Cell, b_size: i32) -> bool {
    let other = Standing {
        id: 0,
        anchor: b,
        size: b_size,
    };
    (0..a_size).any(|dy| (0..a_size).any(|dx| other.covers(Cell::new(a.x + dx, a.y + dy))))
}

/// The map as text for failure messages: a row per line, `#` for walls, the terrain id
/// elsewhere, `u` where a unit outside the group stands, `T` at the target.
fn picture(map: &PathMap, outsiders: &[Standing], target: Cell) -> String {
    let region = map.region();
    let mut text = format!("origin ({}, {})\n", region.x, region.y);
    for y in region.y..region.y + region.height {
        for x in region.x..region.x + region.width {
            let cell = Cell::new(x, y);
            let terrain = map.grid().terrain(cell).expect("on the map");
            text.push(if cell == target {
                'T'
            } else if outsiders.iter().any(|unit| unit.covers(cell)) {
                'u'
            } else if terrain == 1 {
                '#'
            } else {
                char::from(b'0' + terrain)
            });
        }
        text.push('\n');
    }
    text
}

/// What the checker found, for the tallies of the generated tests.
#[derive(Debug, Default)]
struct Seen {
    slots: usize,
    none: usize,
    /// Members whose slot is not the cheapest anchor: compactness had work to do.
    displaced: usize,
    /// Members cut off from the target's anchors although some anchors are free.
    cut_off: usize,
    /// Groups where no anchor holding the target was legal (the nearest legal one seeds).
    fallback_seed: usize,
}

/// The reference cost from the target for one size and profile: a Dijkstra from the legal
/// anchors whose footprint holds `target` (or, if none is legal, from the legal anchor nearest
/// to it, lowest `y` then `x`), the units outside the group as walls.
fn costs_from_target(rules: &UnitsReference<'_>, map: &PathMap, target: Cell) -> (Vec<u64>, bool) {
    let reach = rules.size() - 1;
    let covering: Vec<Cell> = (target.y - reach..=target.y)
        .flat_map(|y| (target.x - reach..=target.x).map(move |x| Cell::new(x, y)))
        .filter(|&anchor| rules.legal(anchor))
        .collect();
    if !covering.is_empty() {
        return (rules.costs_from(&covering), false);
    }
    let nearest = (map.region().cells())
        .filter(|&anchor| rules.legal(anchor))
        .min_by_key(|&anchor| (rules.distance(anchor, target), anchor.y, anchor.x));
    (
        rules.costs_from(&nearest.into_iter().collect::<Vec<_>>()),
        true,
    )
}

/// The reference's rules for `member` walking from where it stands: the `outsiders` block,
/// and its start is exempt, as a query that names it as the moving unit has it.
fn member_rules<'a>(
    map: &'a PathMap,
    member: &SlotRequest<'_>,
    outsiders: &[Standing],
) -> UnitsReference<'a> {
    let profile = map
        .profile(member.profile)
        .expect("generated profiles exist");
    UnitsReference::new(
        map.grid(),
        profile,
        member.agent_size as i32,
        map.movement() == Movement::EightWay,
        outsiders,
        UnitRule::Block,
        Some(member.start),
    )
}

/// Checks `slots`, the answer to `group` around `target` on `map`, where the units
/// `registered` stand (the test's own record), against every property of the contract.
fn check_slots(
    map: &PathMap,
    registered: &[Standing],
    target: Cell,
    group: &[SlotRequest<'_>],
    slots: &[Option<Cell>],
    seen: &mut Seen,
) {
    let outsiders: Vec<Standing> = (registered.iter())
        .filter(|unit| group.iter().all(|member| member.id != unit.id))
        .copied()
        .collect();
    let context = format!(
        "target {target:?}, group {group:?}\nunits {registered:?}\nslots {slots:?}, 8-way {}\n{}",
        map.movement() == Movement::EightWay,
        picture(map, &outsiders, target)
    );
    assert_eq!(slots.len(), group.len(), "{context}");
    let eight_way = map.movement() == Movement::EightWay;
    let grid = map.grid();
    let mut by_class: HashMap<(&str, i32), (UnitsReference<'_>, Vec<u64>)> = HashMap::new();
    for (i, member) in group.iter().enumerate() {
        let size = member.agent_size as i32;
        let profile = map
            .profile(member.profile)
            .expect("generated profiles exist");
        let (from_target, target_costs) =
            by_class.entry((member.profile, size)).or_insert_with(|| {
                let rules = UnitsReference::for_slots(map, member.profile, size, &outsiders);
                let (costs, fallback) = costs_from_target(&rules, map, target);
                seen.fallback_seed += usize::from(fallback);
                (rules, costs)
            });
        let from_start = member_rules(map, member, &outsiders);
        let reached = from_start.costs_from(&[member.start]);
        let cost_at = |anchor: Cell| target_costs[from_target.index(anchor).expect("on the map")];
        let reaches =
            |anchor: Cell| reached[from_start.index(anchor).expect("on the map")] != u64::MAX;
        let taken_by_another = |anchor: Cell| {
            (group.iter().zip(slots).enumerate()).any(|(j, (other, slot))| {
                j != i
                    && slot.is_some_and(|slot| {
                        squares_overlap(anchor, size, slot, other.agent_size as i32)
                    })
            })
        };
        // The anchors the member could take: reachable, with a cost from the target (so
        // legal and clear of outsiders), and overlapping no other member's slot.
        let free: Vec<(u64, Cell)> = (map.region().cells())
            .filter(|&anchor| cost_at(anchor) != u64::MAX && reaches(anchor))
            .filter(|&anchor| !taken_by_another(anchor))
            .map(|anchor| (cost_at(anchor), anchor))
            .collect();
        match slots[i] {
            Some(slot) => {
                seen.slots += 1;
                let member_context = format!("member {i} ({member:?}) at {slot:?}\n{context}");
                assert!(
                    Reference::new(grid, profile, size, eight_way).legal(slot),
                    "slot illegal for its member: {member_context}"
                );
                assert!(
                    outsiders.iter().all(|unit| !squares_overlap(
                        slot,
                        size,
                        unit.anchor,
                        unit.size
                    )),
                    "slot overlaps a unit outside the group: {member_context}"
                );
                assert!(from_target.legal(slot), "{member_context}");
                assert!(reaches(slot), "slot unreachable: {member_context}");
                let cost = cost_at(slot);
                assert_ne!(
                    cost,
                    u64::MAX,
                    "slot has no cost from the target: {member_context}"
                );
                if let Some(&(cheaper, anchor)) = free.iter().min() {
                    assert!(
                        cheaper >= cost,
                        "{anchor:?} costs {cheaper} < {cost} and is free: {member_context}"
                    );
                }
                let cheapest = (map.region().cells())
                    .map(cost_at)
                    .min()
                    .unwrap_or(u64::MAX);
                seen.displaced += usize::from(cost > cheapest);
            }
            None => {
                seen.none += 1;
                assert!(
                    free.is_empty(),
                    "member {i} ({member:?}) got none, but {:?} is free\n{context}",
                    free.iter().min()
                );
                let any_free = (map.region().cells())
                    .any(|anchor| cost_at(anchor) != u64::MAX && !taken_by_another(anchor));
                seen.cut_off += usize::from(any_free);
            }
        }
    }
    for (i, (a, slot_a)) in group.iter().zip(slots).enumerate() {
        for (b, slot_b) in group.iter().zip(slots).skip(i + 1) {
            if let (Some(slot_a), Some(slot_b)) = (slot_a, slot_b) {
                assert!(
                    !squares_overlap(*slot_a, a.agent_size as i32, *slot_b, b.agent_size as i32),
                    "slots {slot_a:?} of {a:?} and {slot_b:?} of {b:?} overlap\n{context}"
                );
            }
        }
    }
}

/// Checks `order`, the group order of `group` sent to `slots` on `map` where the units
/// `registered` stand: each member with a slot gets `OK` and a path of legal steps from its
/// start to its slot, round the units outside the group, that costs what the reference's
/// optimum costs; a member without one gets no path, with its start's shortfall if it does
/// not fit where it stands and `NO_PATH` otherwise.
fn check_slot_paths(
    map: &PathMap,
    registered: &[Standing],
    group: &[SlotRequest<'_>],
    slots: &[Option<Cell>],
    order: &[clearance_core::SlotPath],
) {
    let outsiders: Vec<Standing> = (registered.iter())
        .filter(|unit| group.iter().all(|member| member.id != unit.id))
        .copied()
        .collect();
    let eight_way = map.movement() == Movement::EightWay;
    assert_eq!(order.len(), group.len());
    for ((member, slot), sent) in group.iter().zip(slots).zip(order) {
        let context = format!("{member:?} to {slot:?}: {sent:?}\nunits {registered:?}");
        assert_eq!(sent.slot, *slot, "{context}");
        let profile = map
            .profile(member.profile)
            .expect("generated profiles exist");
        let size = member.agent_size as i32;
        let result = &sent.result;
        let Some(slot) = *slot else {
            assert!(result.path.is_empty(), "{context}");
            let terrain = Reference::new(map.grid(), profile, size, eight_way);
            if terrain.legal(member.start) {
                assert_eq!(result.code, PathCode::NoPath, "{context}");
            } else {
                assert_eq!(
                    result.code,
                    PathCode::StartClearanceInsufficient,
                    "{context}"
                );
                let needed = member.agent_size as u8;
                let found = map
                    .clearance(member.start, member.profile)
                    .expect("on the map");
                assert_eq!(result.shortfall, Some(ClearanceShortfall { found, needed }));
            }
            continue;
        };
        let rules = member_rules(map, member, &outsiders);
        assert_eq!(result.code, PathCode::Ok, "{context}");
        let weights = (rules.path_weights(&result.path, member.start, slot))
            .unwrap_or_else(|error| panic!("{error}\n{context}"));
        assert_eq!(weights_cost(weights), result.cost, "{context}");
        assert_eq!(
            rules.optimal_cost(member.start, slot),
            Some(result.cost),
            "not optimal\n{context}"
        );
    }
}

/// A generated map with the three profiles of [`NAMES`].
fn random_map(rng: &mut Rng, case: usize, max_side: i64) -> PathMap {
    random_map_for_case(rng, case, max_side, &NAMES)
}

/// Registers `unit` on `map` and in `units`.
fn place(map: &mut PathMap, units: &mut Vec<Standing>, unit: Standing) {
    map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
        .unwrap();
    units.push(unit);
}

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
        let mut units = Vec::new();
        for id in 0..rng.range(0, 7) {
            let unit = Standing {
                id,
                anchor: random_cell(&mut rng, map.region()),
                size: rng.range(1, 4) as i32,
            };
            place(&mut map, &mut units, unit);
        }
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
    let (seen, on_outsiders) =
        check_generated_groups(0x0005_107A_0001, 1000, Starts::ClearOfOutsiders);
    assert_eq!(on_outsiders, 0);
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
        let mut units = Vec::new();
        for id in 0..rng.range(1, 9) {
            let unit = Standing {
                id,
                anchor: random_cell(&mut rng, map.region()),
                size: rng.range(1, 4) as i32,
            };
            place(&mut map, &mut units, unit);
        }
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

/// A corridor `x = 0..7` of ground, one row high, with one unit outside the group at x = 3
/// and the target at x = 6: the left end is cut off from the target, and a member standing on
/// the unit may walk out to either side.
fn corridor() -> (PathMap, Vec<Standing>) {
    let grid = TerrainGrid::new(Region::new(0, 0, 7, 1), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let mut units = Vec::new();
    let unit = Standing {
        id: 9,
        anchor: Cell::new(3, 0),
        size: 1,
    };
    place(&mut map, &mut units, unit);
    (map, units)
}

/// Arrival slots for the corridor's two members, listed `cut_off_first` or not: the member at
/// x = 0 and the member standing on unit 9 at x = 3.
fn corridor_slots(cut_off_first: bool) {
    // Member 2 stands on unit 9 and may step out to x = 2 or x = 4; only x = 4 leads on to
    // the target. Member 1, at x = 0, can reach no anchor that has a cost from the target.
    let (map, units) = corridor();
    let left = SlotRequest {
        id: 1,
        start: Cell::new(0, 0),
        agent_size: 1,
        profile: "unit",
    };
    let on_unit = SlotRequest {
        id: 2,
        start: Cell::new(3, 0),
        ..left
    };
    let target = Cell::new(6, 0);
    let group = if cut_off_first {
        [left, on_unit]
    } else {
        [on_unit, left]
    };
    let slots = map.arrival_slots(target, &group).unwrap();
    check_slots(&map, &units, target, &group, &slots, &mut Seen::default());
    let (left_slot, on_unit_slot) = if cut_off_first {
        (slots[0], slots[1])
    } else {
        (slots[1], slots[0])
    };
    assert_eq!(on_unit_slot, Some(target), "{slots:?}");
    assert_eq!(left_slot, None, "{slots:?}");
}

#[test]
fn a_member_on_an_outsider_still_reaches_the_target_after_a_cut_off_member() {
    corridor_slots(true);
}

#[test]
fn a_member_on_an_outsider_does_not_connect_a_cut_off_member_after_it() {
    corridor_slots(false);
}

#[test]
fn a_member_is_not_sent_to_an_anchor_on_the_target_it_cannot_reach() {
    // For a 2x2 agent only the anchors (0, 0) and (1, 1) fit, and both hold the target (1, 1);
    // the diagonal between them would cut the walls' corners. The member stands on (1, 1).
    //   . . #
    //   . . .
    //   # . .
    let mut grid = TerrainGrid::new(Region::new(0, 0, 3, 3), 0).unwrap();
    grid.set_cell(Cell::new(2, 0), 1).unwrap();
    grid.set_cell(Cell::new(0, 2), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let member = SlotRequest {
        id: 1,
        start: Cell::new(1, 1),
        agent_size: 2,
        profile: "unit",
    };
    let target = Cell::new(1, 1);
    // The engine itself finds no path between the two.
    let between = map.find_path(Cell::new(1, 1), Cell::new(0, 0), 2, "unit");
    assert_eq!(between.code, clearance_core::PathCode::NoPath);
    let slots = map.arrival_slots(target, &[member]).unwrap();
    check_slots(&map, &[], target, &[member], &slots, &mut Seen::default());
    assert_eq!(slots, [Some(Cell::new(1, 1))]);
}

#[test]
fn bad_group_orders_get_their_typed_errors() {
    let mut rng = Rng::new(0x0005_107A_BAD0);
    let mut refusals: HashMap<&str, usize> = HashMap::new();
    for case in 0..200 {
        let mut map = random_map(&mut rng, case, 12);
        let mut units = Vec::new();
        for id in 0..rng.range(0, 4) {
            let unit = Standing {
                id,
                anchor: random_cell(&mut rng, map.region()),
                size: rng.range(1, 3) as i32,
            };
            place(&mut map, &mut units, unit);
        }
        let region = map.region();
        let mut group: Vec<SlotRequest<'_>> = (0..rng.range(1, 6))
            .map(|index| SlotRequest {
                id: 100 + index,
                start: random_cell(&mut rng, region),
                agent_size: rng.range(1, 4),
                profile: NAMES[rng.range(0, 3) as usize],
            })
            .collect();
        let target = random_cell(&mut rng, region);
        let good = map.arrival_slots(target, &group).unwrap();
        assert_eq!(map.check_group_order(target, &group), Ok(()));
        assert_eq!(good.len(), group.len());
        let outside = *rng.pick(&[
            Cell::new(region.x - 1, region.y),
            Cell::new(region.x + region.width, region.y + region.height - 1),
            Cell::new(region.x, region.y - 1),
            Cell::new(i32::MAX, i32::MIN),
        ]);
        let at = rng.range(0, group.len() as i64) as usize;
        let id = group[at].id;
        let (asked, expected, name) = match rng.range(0, 5) {
            0 => (
                outside,
                UnitError::TargetOutOfBounds { target: outside },
                "target",
            ),
            1 => {
                // Named again later in the group.
                let later = rng.range(at as i64 + 1, group.len() as i64 + 1) as usize;
                let again = SlotRequest {
                    start: random_cell(&mut rng, region),
                    ..group[at]
                };
                group.insert(later, again);
                (target, UnitError::DuplicateInBatch { id }, "twice")
            }
            2 => {
                let size = *rng.pick(&[0, -3, 256, i64::MAX]);
                group[at].agent_size = size;
                (target, UnitError::InvalidAgentSize { id, size }, "size")
            }
            3 => {
                group[at].start = outside;
                let expected = UnitError::AnchorOutOfBounds {
                    id,
                    anchor: outside,
                };
                (target, expected, "start")
            }
            _ => {
                group[at].profile = "no such profile";
                let expected = UnitError::UnknownProfile {
                    id,
                    profile: "no such profile".to_owned(),
                };
                (target, expected, "profile")
            }
        };
        assert_eq!(
            map.arrival_slots(asked, &group),
            Err(expected.clone()),
            "{name}"
        );
        let options = SlotPathOptions::new();
        let sent = map.find_paths_to_slots(asked, &group, &options);
        assert_eq!(sent.map(|_| ()), Err(expected), "{name}");
        *refusals.entry(name).or_insert(0) += 1;
        assert_eq!(map.arrival_slots(target, &[]), Ok(Vec::new()));
        // Errors come in the order of the checks: the target first.
        assert!(matches!(
            map.arrival_slots(outside, &group),
            Err(UnitError::TargetOutOfBounds { .. })
        ));
    }
    for name in ["target", "twice", "size", "start", "profile"] {
        assert!(
            refusals.get(name).copied().unwrap_or(0) >= 20,
            "{name}: {refusals:?}"
        );
    }
}
