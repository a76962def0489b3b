//! Units that move, and refused changes that leave the occupancy as it was.

use super::*;

/// A random position change of the units in `units` on `map`, kept in both: one unit moved,
/// several moved at once, one removed, or one placed. Returns what it did.
fn random_change(rng: &mut Rng, map: &mut PathMap, units: &mut Vec<Standing>) -> &'static str {
    let kind = if units.is_empty() { 3 } else { rng.range(0, 5) };
    match kind {
        0 => {
            let which = rng.range(0, units.len() as i64) as usize;
            let anchor = random_cell(rng, map.region());
            map.move_unit(units[which].id, anchor).unwrap();
            units[which].anchor = anchor;
            "move_unit"
        }
        1 | 2 => {
            let mut moves = Vec::new();
            for unit in units.iter_mut() {
                if rng.chance(50) {
                    unit.anchor = random_cell(rng, map.region());
                    moves.push((unit.id, unit.anchor));
                }
            }
            if moves.is_empty() {
                units[0].anchor = random_cell(rng, map.region());
                moves.push((units[0].id, units[0].anchor));
            }
            map.move_units(&moves).unwrap();
            "move_units"
        }
        3 => {
            let unit = random_unit(rng, map, units);
            map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                .unwrap();
            units.push(unit);
            "place_unit"
        }
        _ => {
            let which = rng.range(0, units.len() as i64) as usize;
            map.remove_unit(units[which].id).unwrap();
            let removed = units.swap_remove(which);
            assert_eq!(map.unit(removed.id), None);
            "remove_unit"
        }
    }
}

#[test]
fn answers_follow_the_units_as_they_move() {
    let mut rng = Rng::new(0x0CC0_3071_0003);
    let mut changed_answers = 0;
    for case in 0..150 {
        let mut map = random_map(&mut rng, case, 20);
        let count = rng.range(2, 9);
        let mut units = place_random_units(&mut rng, &mut map, count);
        let size = rng.range(1, 4);
        let profile = *rng.pick(&NAMES);
        let terrain = Reference::for_map(&map, profile, size);
        let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
        let version = map.version();
        let mut seen_versions = vec![map.units_version()];
        let mut previous: Option<(PathCode, u64)> = None;
        for _ in 0..20 {
            let did = random_change(&mut rng, &mut map, &mut units);
            assert_eq!(map.version(), version, "{did} changed the terrain version");
            assert!(
                !seen_versions.contains(&map.units_version()),
                "{did} kept or reused a units version"
            );
            seen_versions.push(map.units_version());
            assert_eq!(registered(&map), sorted(&units), "{did}");
            for unit in &units {
                let expected = Unit {
                    id: unit.id,
                    anchor: unit.anchor,
                    agent_size: unit.size as u8,
                };
                assert_eq!(map.unit(unit.id), Some(expected), "{did}");
            }
            for rule in [OtherUnits::Block, OtherUnits::cost(3.0).unwrap()] {
                let mode = *rng.pick(&SearchMode::ALL);
                let query = PathQuery::new(start, goal, size, profile)
                    .other_units(rule)
                    .allow_partial_path(rng.chance(30))
                    .search(mode);
                let result = map.query(&query);
                check(&map, &units, &query, &result);
                if rule == OtherUnits::Block && !query.allow_partial_path {
                    let answer = (result.code, result.cost);
                    changed_answers += usize::from(previous.is_some_and(|seen| seen != answer));
                    previous = Some(answer);
                }
            }
        }
        map.verify_caches().unwrap();
        // Without units, the block rule answers as if the unit were alone.
        let before = map.units_version();
        map.clear_units();
        if !units.is_empty() {
            assert_ne!(map.units_version(), before);
        }
        assert_eq!(map.version(), version);
        assert!(map.occupancy().is_empty());
        let alone = map.query(&PathQuery::new(start, goal, size, profile));
        for mode in SearchMode::ALL {
            let query = PathQuery::new(start, goal, size, profile).search(mode);
            let blocked = map.query(&query.other_units(OtherUnits::Block));
            check(&map, &[], &query.other_units(OtherUnits::Block), &blocked);
            assert_eq!((blocked.code, blocked.cost), (alone.code, alone.cost));
        }
    }
    assert!(changed_answers >= 150, "{changed_answers}");
}

/// A game's loop: one unit steps (now and then several move, one is placed or removed), then
/// units of every size re-plan, each naming itself as the moving unit, on one scratch. The
/// scratch keeps a view of the units per agent size and catches each up with the units changed
/// since it last served (or builds it again after many); every answer matches the reference.
#[test]
fn views_kept_for_several_sizes_follow_every_change() {
    let mut rng = Rng::new(0x0CC0_3071_0004);
    let mut scratch = SearchScratch::new();
    for case in 0..60 {
        let mut map = random_map(&mut rng, case, 24);
        let count = rng.range(12, 40);
        let mut units = place_random_units(&mut rng, &mut map, count);
        let profile = *rng.pick(&NAMES);
        for _ in 0..25 {
            let did = if rng.chance(75) && !units.is_empty() {
                let which = rng.range(0, units.len() as i64) as usize;
                let anchor = random_cell(&mut rng, map.region());
                map.move_unit(units[which].id, anchor).unwrap();
                units[which].anchor = anchor;
                "move_unit"
            } else {
                random_change(&mut rng, &mut map, &mut units)
            };
            for _ in 0..3 {
                let size = rng.range(1, 5);
                let terrain = Reference::for_map(&map, profile, size);
                let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
                let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
                let rule = match rng.range(0, 3) {
                    0 => OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap(),
                    _ => OtherUnits::Block,
                };
                let mut query = PathQuery::new(start, goal, size, profile)
                    .other_units(rule)
                    .search(*rng.pick(&SearchMode::ALL));
                if !units.is_empty() && rng.chance(70) {
                    let mover = units[rng.range(0, units.len() as i64) as usize].id;
                    query = query.moving_unit(mover);
                }
                let result = map.query_with(&mut scratch, &query);
                let code = check(&map, &units, &query, &result);
                assert_ne!(code, PathCode::UnknownUnit, "after {did}");
            }
        }
    }
}

/// What a refused call must leave as it was.
fn observe(map: &PathMap) -> (Vec<Standing>, u64, u64) {
    (registered(map), map.units_version(), map.version())
}

#[test]
fn refused_unit_changes_leave_the_occupancy_as_it_was() {
    let mut rng = Rng::new(0x0CC0_BAD1_0004);
    let mut refusals: HashMap<&str, usize> = HashMap::new();
    for case in 0..200 {
        let mut map = random_map(&mut rng, case, 16);
        let count = rng.range(1, 7);
        let units = place_random_units(&mut rng, &mut map, count);
        let region = map.region();
        let outside = *rng.pick(&[
            Cell::new(region.x - 1, region.y),
            Cell::new(region.x + region.width, region.y),
            Cell::new(region.x, region.y - 1),
            Cell::new(region.x, region.y + region.height),
            Cell::new(i32::MIN, i32::MAX),
        ]);
        let unknown = (0..)
            .find(|id| units.iter().all(|unit| unit.id != *id))
            .unwrap();
        let known = rng.pick(&units).id;
        let before = observe(&map);
        // Good entries around one bad one, at a random position in the batch.
        let mut fresh_ids = (1000..).filter(|id| units.iter().all(|unit| unit.id != *id));
        let mut placements: Vec<(i64, Cell, i64)> = (0..rng.range(0, 4))
            .map(|_| {
                let id = fresh_ids.next().unwrap();
                (id, random_cell(&mut rng, region), rng.range(1, 4))
            })
            .collect();
        let at = rng.range(0, placements.len() as i64 + 1) as usize;
        let cell = random_cell(&mut rng, region);
        let new_id = fresh_ids.next().unwrap();
        let (bad, expected, name) = match rng.range(0, 5) {
            0 => (
                (known, cell, 1),
                UnitError::DuplicateUnit { id: known },
                "place: registered id",
            ),
            1 => {
                let size = *rng.pick(&[0, -1, 256, i64::MIN, i64::MAX]);
                (
                    (new_id, cell, size),
                    UnitError::InvalidAgentSize { id: new_id, size },
                    "place: size",
                )
            }
            2 => (
                (new_id, outside, 1),
                UnitError::AnchorOutOfBounds {
                    id: new_id,
                    anchor: outside,
                },
                "place: outside",
            ),
            _ if !placements.is_empty() => {
                // The same new id twice: the later entry is the bad one.
                let id = placements[0].0;
                let at_least = at.max(1);
                placements.insert(at_least, (id, cell, 1));
                assert_eq!(
                    map.place_units(&placements),
                    Err(UnitError::DuplicateInBatch { id })
                );
                assert_eq!(observe(&map), before);
                *refusals.entry("place: twice").or_insert(0) += 1;
                continue;
            }
            _ => (
                (known, cell, 2),
                UnitError::DuplicateUnit { id: known },
                "place: registered id",
            ),
        };
        placements.insert(at, bad);
        assert_eq!(
            map.place_units(&placements),
            Err(expected.clone()),
            "{name}"
        );
        assert_eq!(observe(&map), before, "{name}");
        if placements.len() == 1 {
            let (id, anchor, size) = bad;
            assert_eq!(map.place_unit(id, anchor, size), Err(expected), "{name}");
            assert_eq!(observe(&map), before, "{name}");
        }
        *refusals.entry(name).or_insert(0) += 1;

        // Moves: good moves of registered units around one bad move.
        let mut moves = Vec::new();
        for unit in &units {
            if rng.chance(50) {
                moves.push((unit.id, random_cell(&mut rng, region)));
            }
        }
        let at = rng.range(0, moves.len() as i64 + 1) as usize;
        let (bad, expected, name) = match rng.range(0, 3) {
            0 => (
                (unknown, cell),
                UnitError::UnknownUnit { id: unknown },
                "move: unknown",
            ),
            1 => (
                (known, outside),
                UnitError::AnchorOutOfBounds {
                    id: known,
                    anchor: outside,
                },
                "move: outside",
            ),
            _ => {
                moves.retain(|&(id, _)| id != known);
                let at = rng.range(0, moves.len() as i64 + 1) as usize;
                moves.insert(at, (known, cell));
                (
                    (known, random_cell(&mut rng, region)),
                    UnitError::DuplicateInBatch { id: known },
                    "move: twice",
                )
            }
        };
        // A repeated id is reported where it repeats: put it after the first.
        let at = if name == "move: twice" {
            let first = moves.iter().position(|&(id, _)| id == known).unwrap();
            rng.range(first as i64 + 1, moves.len() as i64 + 1) as usize
        } else {
            at
        };
        moves.insert(at, bad);
        assert_eq!(
            map.move_units(&moves),
            Err(expected.clone()),
            "{name}: {moves:?}"
        );
        assert_eq!(observe(&map), before, "{name}: {moves:?}");
        if name != "move: twice" {
            assert_eq!(map.move_unit(bad.0, bad.1), Err(expected), "{name}");
            assert_eq!(observe(&map), before, "{name}");
        }
        *refusals.entry(name).or_insert(0) += 1;

        // Long batches (sets, not scans, find repeats there) refuse just the same.
        let mut long: Vec<(i64, Cell)> = (0..12)
            .map(|_| (rng.pick(&units).id, random_cell(&mut rng, region)))
            .collect();
        long.sort_by_key(|&(id, _)| id);
        long.dedup_by_key(|&mut (id, _)| id);
        long.push((long[0].0, cell));
        let repeated = long[0].0;
        assert_eq!(
            map.move_units(&long),
            Err(UnitError::DuplicateInBatch { id: repeated })
        );
        assert_eq!(observe(&map), before);

        assert_eq!(
            map.remove_unit(unknown),
            Err(UnitError::UnknownUnit { id: unknown })
        );
        assert_eq!(observe(&map), before);
        assert_eq!(map.unit(unknown), None);
    }
    for name in [
        "place: registered id",
        "place: size",
        "place: outside",
        "place: twice",
        "move: unknown",
        "move: outside",
        "move: twice",
    ] {
        assert!(
            refusals.get(name).copied().unwrap_or(0) >= 15,
            "{name}: {refusals:?}"
        );
    }
}

#[test]
fn invalid_cost_rules_are_refused() {
    for value in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.001,
        -1.0,
        10_000.5,
    ] {
        match OtherUnits::cost(value) {
            Err(UnitError::InvalidMultiplier { value: reported }) => {
                assert!(reported.to_bits() == value.to_bits(), "{value}")
            }
            other => panic!("{value}: {other:?}"),
        }
    }
    let fixed = |multiplier: f64| match OtherUnits::cost(multiplier) {
        Ok(OtherUnits::Cost(cost)) => Some(cost.fixed()),
        _ => None,
    };
    assert_eq!(fixed(0.0), Some(0));
    assert_eq!(fixed(10_000.0), Some(10_000_000));
    assert_eq!(fixed(0.0625), Some(63));
    // A fixed-point value is held to the same bound.
    assert_eq!(
        UnitCost::from_fixed(10_000_000).map(OtherUnits::Cost),
        OtherUnits::cost(10_000.0)
    );
    assert!(matches!(
        UnitCost::from_fixed(10_000_001),
        Err(UnitError::InvalidMultiplier { .. })
    ));
    for name in [
        "", "Block", "cost", "cost:", "cost:x", "cost:-1", "cost:NaN", "ignore ",
    ] {
        assert!(OtherUnits::from_name(name).is_err(), "{name:?}");
    }
}

#[test]
fn unknown_moving_or_exempt_units_are_refused_after_the_clearance_checks() {
    let mut rng = Rng::new(0x0CC0_0202_0005);
    let mut tally: HashMap<(PathCode, bool), usize> = HashMap::new();
    for case in 0..300 {
        let mut map = random_map(&mut rng, case, 14);
        let count = rng.range(0, 5);
        let units = place_random_units(&mut rng, &mut map, count);
        let unknown = (100..)
            .find(|id| units.iter().all(|unit| unit.id != *id))
            .unwrap();
        let size = rng.range(1, 4);
        let profile = *rng.pick(&NAMES);
        let terrain = Reference::for_map(&map, profile, size);
        let pick_anchor = |rng: &mut Rng| {
            if rng.chance(50) {
                random_cell(rng, map.region())
            } else {
                likely_legal_anchor(rng, map.grid(), &terrain)
            }
        };
        let start = pick_anchor(&mut rng);
        let goal = if rng.chance(10) {
            start
        } else {
            pick_anchor(&mut rng)
        };
        let mut exempt: Vec<i64> = (units.iter())
            .filter(|_| rng.chance(40))
            .map(|unit| unit.id)
            .collect();
        let moving_is_unknown = exempt.is_empty() || rng.chance(50);
        let moving = if moving_is_unknown {
            unknown
        } else {
            let at = rng.range(0, exempt.len() as i64 + 1) as usize;
            exempt.insert(at, unknown);
            units.first().map_or(unknown, |unit| unit.id)
        };
        let rule = *rng.pick(&[
            OtherUnits::Ignore,
            OtherUnits::Block,
            OtherUnits::cost(2.0).unwrap(),
        ]);
        let partial = rng.chance(40);
        for mode in SearchMode::ALL {
            let query = PathQuery::new(start, goal, size, profile)
                .other_units(rule)
                .moving_unit(moving)
                .exempt_units(&exempt)
                .allow_partial_path(partial)
                .search(mode);
            let code = check(&map, &units, &query, &map.query(&query));
            *tally.entry((code, partial)).or_insert(0) += 1;
        }
    }
    for (code, partial, least) in [
        (PathCode::UnknownUnit, false, 150),
        (PathCode::UnknownUnit, true, 150),
        (PathCode::StartClearanceInsufficient, false, 30),
        (PathCode::StartClearanceInsufficient, true, 30),
        (PathCode::GoalClearanceInsufficient, false, 30),
    ] {
        let count = tally.get(&(code, partial)).copied().unwrap_or(0);
        assert!(count >= least, "{code} {partial}: {count} of {tally:?}");
    }
    assert_eq!(
        tally
            .keys()
            .filter(|(code, _)| *code == PathCode::Ok)
            .count(),
        0
    );
}
