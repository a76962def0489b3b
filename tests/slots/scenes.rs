//! Hand-built scenes where a member stands on a unit outside the group or cannot reach the
//! target, and bad group orders with their typed errors.

use super::{place, random_map, scatter_units, NAMES};
use clearance_core::{
    AgentProfile, Cell, PathCode, PathMap, Region, SlotPathOptions, SlotRequest, TerrainGrid,
    UnitError,
};
use clearance_tests::generate::{random_cell, Rng};
use clearance_tests::slots::{check_slots, Seen};
use clearance_tests::units::Standing;
use std::collections::HashMap;

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
        let count = rng.range(0, 4);
        scatter_units(&mut rng, &mut map, count, (1, 3));
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

#[test]
fn a_member_past_the_memory_limit_gets_that_code_not_no_path() {
    let grid = TerrainGrid::new(Region::new(0, 0, 64, 64), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    let member = SlotRequest {
        id: 1,
        start: Cell::new(0, 0),
        agent_size: 1,
        profile: "unit",
    };
    let target = Cell::new(10, 10);
    // No room for the layer, then room for the layer but not the graph.
    for limit in [0, 64 * 64 + 100] {
        map.set_cache_memory_limit(limit);
        let asked = map.find_path(member.start, target, 1, "unit").code;
        assert_eq!(asked, PathCode::MemoryLimitReached, "limit {limit}");
        assert_eq!(map.arrival_slots(target, &[member]), Ok(vec![None]));
        let sent = map
            .find_paths_to_slots(target, &[member], &SlotPathOptions::new())
            .unwrap();
        assert_eq!(
            (sent[0].slot, sent[0].result.code),
            (None, asked),
            "limit {limit}"
        );
    }
}
