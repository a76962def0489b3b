//! Every search mode against the reference with units, on generated maps and in crowds.

use super::*;

#[test]
fn every_mode_matches_the_reference_with_units_on_generated_maps() {
    let mut rng = Rng::new(0x0CC0_9A4C_E001);
    let mut tally: HashMap<(&str, PathCode), usize> = HashMap::new();
    let mut ok_by_size = [0usize; 5];
    let mut started_under_a_unit = 0;
    let mut moving_ids = 1000;
    let mut units_changed_the_answer = [0usize; 2];
    for case in 0..1500 {
        let mut map = random_map(&mut rng, case, 24);
        let count = rng.range(0, 7);
        let mut units = place_random_units(&mut rng, &mut map, count);
        for _ in 0..4 {
            let size = rng.range(1, 5);
            let profile = *rng.pick(&NAMES);
            let terrain = Reference::for_map(&map, profile, size);
            let mut start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            if rng.chance(20) {
                // On another unit, where the terrain lets it stand: never blocked.
                for _ in 0..6 {
                    match cell_under_a_unit(&mut rng, &map, &units) {
                        Some(cell) if terrain.legal(cell) => {
                            start = cell;
                            break;
                        }
                        _ => {}
                    }
                }
            }
            let mut goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            if rng.chance(20) {
                if let Some(cell) = cell_under_a_unit(&mut rng, &map, &units) {
                    goal = cell;
                }
            }
            let start_legal = terrain.legal(start);
            // The moving unit: registered where it starts, somewhere else, or none.
            let moving = match rng.range(0, 10) {
                0..=3 => {
                    moving_ids += 1;
                    map.place_unit(moving_ids, start, size).unwrap();
                    let anchor = start;
                    units.push(Standing {
                        id: moving_ids,
                        anchor,
                        size: size as i32,
                    });
                    Some(moving_ids)
                }
                4..=5 if !units.is_empty() => Some(rng.pick(&units).id),
                _ => None,
            };
            let exempt: Vec<i64> = (units.iter())
                .filter(|_| rng.chance(20))
                .map(|unit| unit.id)
                .collect();
            let partial = rng.chance(30);
            let cost = OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap();
            let on_start = |unit: &Standing| {
                Some(unit.id) != moving && footprint_overlaps(start, size as i32, unit)
            };
            if start_legal && units.iter().any(on_start) {
                started_under_a_unit += 1;
            }
            let mut by_rule = Vec::new();
            for rule in [OtherUnits::Block, cost, OtherUnits::Ignore] {
                let mut base = PathQuery::new(start, goal, size, profile)
                    .other_units(rule)
                    .exempt_units(&exempt)
                    .allow_partial_path(partial);
                base.moving_unit = moving;
                let mut answers = Vec::new();
                for mode in SearchMode::ALL {
                    let query = base.search(mode);
                    let result = map.query(&query);
                    check(&map, &units, &query, &result);
                    answers.push((result.code, result.cost));
                }
                let codes: Vec<PathCode> = answers.iter().map(|&(code, _)| code).collect();
                assert!(
                    answers.windows(2).all(|pair| pair[0] == pair[1]),
                    "{answers:?}"
                );
                *tally.entry((rule_name(rule), codes[0])).or_insert(0) += 1;
                by_rule.push(answers[0]);
                if codes[0] == PathCode::Ok && rule != OtherUnits::Ignore {
                    ok_by_size[size as usize] += 1;
                }
            }
            // The units made a difference: a dearer path, or none where the terrain has one.
            let ignored = by_rule[2];
            units_changed_the_answer[0] += usize::from(by_rule[0] != ignored);
            units_changed_the_answer[1] += usize::from(by_rule[1].1 > ignored.1);
            if let Some(id) = moving.filter(|&id| id > 1000) {
                map.remove_unit(id).unwrap();
                units.retain(|unit| unit.id != id);
            }
        }
        assert_eq!(registered(&map), sorted(&units));
    }
    for (rule, code, least) in [
        ("block", PathCode::Ok, 1800),
        ("cost", PathCode::Ok, 2500),
        ("block", PathCode::GoalOccupied, 400),
        ("block", PathCode::NoPath, 400),
        ("block", PathCode::PartialPath, 400),
        ("cost", PathCode::PartialPath, 250),
        ("cost", PathCode::NoPath, 300),
    ] {
        let count = tally.get(&(rule, code)).copied().unwrap_or(0);
        assert!(count >= least, "{rule} {code}: {count} of {tally:?}");
    }
    for (size, &count) in ok_by_size.iter().enumerate().skip(1) {
        assert!(count >= 400, "size {size}: {count} paths");
    }
    assert!(started_under_a_unit >= 800, "{started_under_a_unit}");
    let [blocked, dearer] = units_changed_the_answer;
    assert!(
        blocked >= 800 && dearer >= 400,
        "{units_changed_the_answer:?}"
    );
}

#[test]
fn crowds_on_larger_maps_with_stored_rays_match_the_reference() {
    // Uniform profiles give graphs whose rays are stored: units must stop them.
    let mut rng = Rng::new(0x0CC0_5A75_0002);
    let mut paths = 0;
    let mut blocked_differs = 0;
    let mut long_lists = 0;
    for case in 0..60 {
        let mut map = map_without_profiles(&mut rng, case, 30..100, &[0, 3, 10]);
        map.set_profile(uniform_profile()).unwrap();
        map.set_profile(random_profile(&mut rng, "weighted"))
            .unwrap();
        let count = rng.range(10, 60);
        let mut units = Vec::new();
        for _ in 0..count {
            let mut unit = random_unit(&mut rng, &map, &units);
            unit.id = rng.range(0, 1 << 40);
            if rng.chance(10) {
                // Now and then a building: its rectangle reaches past the map's edges.
                unit.size = rng.range(4, 30) as i32;
            }
            if units.iter().all(|other: &Standing| other.id != unit.id) {
                map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                    .unwrap();
                units.push(unit);
            }
        }
        for _ in 0..6 {
            let size = rng.range(1, 4);
            let profile = if rng.chance(70) {
                "uniform"
            } else {
                "weighted"
            };
            let terrain = Reference::new(
                map.grid(),
                map.profile(profile).unwrap(),
                size as i32,
                map.movement() == Movement::EightWay,
            );
            let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            // Long lists (over 16 ids) are looked up in a set.
            let share = *rng.pick(&[0, 10, 60]);
            let exempt: Vec<i64> = (units.iter())
                .filter(|_| rng.chance(share))
                .map(|unit| unit.id)
                .collect();
            long_lists += usize::from(exempt.len() > 16);
            let cost = OtherUnits::cost(*rng.pick(&UNIT_COSTS)).unwrap();
            let ignored = map.query(&PathQuery::new(start, goal, size, profile));
            for rule in [OtherUnits::Block, cost] {
                for mode in SearchMode::ALL {
                    let query = PathQuery::new(start, goal, size, profile)
                        .other_units(rule)
                        .exempt_units(&exempt)
                        .allow_partial_path(rng.chance(30))
                        .search(mode);
                    let result = map.query(&query);
                    if check(&map, &units, &query, &result) == PathCode::Ok {
                        paths += 1;
                    }
                    if rule == OtherUnits::Block
                        && (result.code, result.cost) != (ignored.code, ignored.cost)
                    {
                        blocked_differs += 1;
                    }
                }
            }
        }
    }
    assert!(paths >= 1000, "{paths}");
    assert!(blocked_differs >= 300, "{blocked_differs}");
    assert!(long_lists >= 40, "{long_lists}");
}

#[test]
fn crowds_round_far_goals_match_the_reference() {
    // Crossings near the goal of a long trip: where units block on uniform terrain, the whole
    // search then starts from the goal (`search/detours.rs`). A crowd stands round each goal
    // (never on it), now and then with a few units near the start as well.
    let mut rng = Rng::new(0x0CC0_5A75_0003);
    let mut paths = 0;
    let mut blocked_differs = 0;
    for case in 0..40 {
        let mut map = map_without_profiles(&mut rng, case, 30..80, &[0, 3, 10, 20]);
        map.set_profile(uniform_profile()).unwrap();
        for _ in 0..5 {
            let size = rng.range(1, 4) as i32;
            let terrain = Reference::new(
                map.grid(),
                map.profile("uniform").unwrap(),
                size,
                map.movement() == Movement::EightWay,
            );
            let start = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let goal = likely_legal_anchor(&mut rng, map.grid(), &terrain);
            let region = map.region();
            let near = |rng: &mut Rng, to: Cell, reach: i64| {
                let x = i64::from(to.x) + rng.range(-reach, reach + 1);
                let y = i64::from(to.y) + rng.range(-reach, reach + 1);
                Cell::new(x as i32, y as i32)
            };
            let mut units: Vec<Standing> = Vec::new();
            let crowd = rng.range(5, 40);
            let by_start = *rng.pick(&[0, 0, 3]);
            for placed in 0..crowd + by_start {
                let around = if placed < crowd { goal } else { start };
                let unit = Standing {
                    id: placed,
                    anchor: near(&mut rng, around, 10),
                    size: rng.range(1, 4) as i32,
                };
                if region.contains(unit.anchor) && !footprint_overlaps(goal, size, &unit) {
                    map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
                        .unwrap();
                    units.push(unit);
                }
            }
            let ignored = map.query(&PathQuery::new(start, goal, i64::from(size), "uniform"));
            for mode in SearchMode::ALL {
                let query = PathQuery::new(start, goal, i64::from(size), "uniform")
                    .other_units(OtherUnits::Block)
                    .search(mode);
                let result = map.query(&query);
                if check(&map, &units, &query, &result) == PathCode::Ok {
                    paths += 1;
                    blocked_differs += usize::from(result.cost != ignored.cost);
                }
            }
            map.clear_units();
        }
    }
    assert!(paths >= 300, "{paths}");
    assert!(blocked_differs >= 60, "{blocked_differs}");
}
