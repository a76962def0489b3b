//! The slot checker: arrival slots against every property of the contract in
//! `map/slots/mod.rs`, and the paths a group order sends to them against the reference's
//! optimum. Shared by the slot tests and the `units` fuzz target.

use crate::reference::Reference;
use crate::units::{weights_cost, Standing, UnitRule, UnitsReference};
use clearance_core::Cell;
use clearance_core::{ClearanceShortfall, Movement, PathCode, PathMap, SlotRequest};
use std::collections::HashMap;

/// Whether the `size x size` squares at `a` and `b` share a cell.
pub fn squares_overlap(a: Cell, a_size: i32, b: Cell, b_size: i32) -> bool {
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
pub struct Seen {
    pub slots: usize,
    pub none: usize,
    /// Members whose slot is not the cheapest anchor: compactness had work to do.
    pub displaced: usize,
    /// Members cut off from the target's anchors although some anchors are free.
    pub cut_off: usize,
    /// Groups where no anchor holding the target was legal (the nearest legal one seeds).
    pub fallback_seed: usize,
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
        .expect("the slots were given, so the profile exists");
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
pub fn check_slots(
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
            .expect("the slots were given, so the profile exists");
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
pub fn check_slot_paths(
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
            .expect("the slots were given, so the profile exists");
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
                let found = Reference::direct_clearance(map.grid(), profile, member.start);
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
