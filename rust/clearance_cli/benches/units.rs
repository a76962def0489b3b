//! Units on the map: the occupancy layer's three targets, paired in one run.
//!
//! Run: `cargo bench -p clearance_cli --bench units` (optionally `-- ROUNDS`, default 5).
//!
//! 1. Moving 1,000 registered units of sizes 1 to 3 one step each, by 1,000 `move_unit` calls
//!    and by one `move_units` batch, on AcrosstheCape (768 x 768): time for all 1,000.
//! 2. AcrosstheCape's scenario with 200 units of sizes 1 to 3 scattered over open ground
//!    (none on a problem's start or goal), `auto` search with stored rays: the mean query
//!    time with `OtherUnits::Block` against the same queries with `OtherUnits::Ignore`, the
//!    two alternating round by round; the same with each query naming a moving unit (one
//!    unit exempt, as a unit's own plan has it); and the same with `OtherUnits::cost(4.0)`.
//!    Then all of it again with 16 landmarks baked (`UNITS_BENCH_LANDMARKS=N` for another
//!    count, `0` to skip), each ratio against `Ignore` with the same landmarks.
//! 3. Arrival slots for 200 units of sizes 1 to 3 (box-selected: starts within a 48 x 48 box)
//!    around the middle of AR0011SR (512 x 512), with 200 other units standing on the map;
//!    then 100 trucks round a target whose anchors two units split, on a generated 1024 x 1024
//!    map (`UNITS_BENCH_SPLIT_ONLY=1` runs that row alone).
//! 4. Partial paths to goals where a unit stands: row 2's problems and units, each goal
//!    replaced by a unit's anchor (`OtherUnits::Block`, partial paths allowed), against the
//!    same starts to their own goals (`UNITS_BENCH_PARTIAL_ONLY=1` runs that row alone).
//!
//! 5. A unit steps, then another re-plans with the units blocking, 400 times, against the same
//!    re-plans with no step between them, with 100, 1,000 and 5,000 units on AcrosstheCape
//!    (`UNITS_BENCH_REPLAN_ONLY=1` runs that row alone).
//! 6. Who stands in the way: for each of 100, 1,000 and 5,000 units on AcrosstheCape, the
//!    units over the footprint one step east of it (itself exempt), by `units_overlapping`
//!    against a pass over every unit, the two alternating round by round
//!    (`UNITS_BENCH_IN_THE_WAY_ONLY=1` runs that row alone; `UNITS_BENCH_MOVES_ONLY=1` runs
//!    row 1 alone).
//!
//! Times are means of the timed rounds after one warm-up round. Units are drawn with a fixed
//! seed, so every run measures the same work. Where the scattered units stand decides much of
//! row 2's `Block` ratio (a unit in a passage that many long paths take sends them all round
//! it), so `UNITS_BENCH_SEED=S` scatters them with another seed (default 2) and
//! `UNITS_BENCH_UNITS=N` scatters another count (default 200); `UNITS_BENCH_PLAIN=0` skips row
//! 2 without landmarks and `UNITS_BENCH_SLOTS=0` skips row 3.

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, MOVINGAI_PROFILE};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{
    Cell, LandmarkPlacement, OtherUnits, PathCode, PathMap, PathQuery, Region, SearchScratch,
    SlotPathOptions, SlotRequest, Unit, UnitId,
};
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Instant;

const PROFILE: &str = MOVINGAI_PROFILE;

#[path = "../../clearance_core/benches/support/generated.rs"]
mod generated;
#[path = "support/scatter.rs"]
mod scatter;
use generated::Lcg as Rng;
use scatter::scatter;

fn load(name: &str) -> (PathMap, std::path::PathBuf) {
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let file = read_map(&dir.join(format!("{name}.map"))).unwrap();
    let mut map = PathMap::new(file.grid);
    map.set_profile(movingai_profile()).unwrap();
    (map, dir)
}

fn mean_ms(rounds: usize, work: impl FnMut()) -> f64 {
    timed_ms(rounds, work).0
}

/// The mean and the fastest of `rounds` timed runs of `work` after one warm-up, in ms.
fn timed_ms(rounds: usize, mut work: impl FnMut()) -> (f64, f64) {
    let mut seconds = 0.0;
    let mut fastest = f64::INFINITY;
    for round in 0..=rounds {
        let started = Instant::now();
        work();
        if round > 0 {
            let elapsed = started.elapsed().as_secs_f64();
            seconds += elapsed;
            fastest = fastest.min(elapsed);
        }
    }
    (seconds * 1e3 / rounds as f64, fastest * 1e3)
}

fn moves(rounds: usize) {
    let (mut map, _) = load("AcrosstheCape");
    let units = scatter(&map, &mut Rng(1), 1000, 0, &HashSet::new());
    map.place_units(&units).unwrap();
    let region = map.region();
    // Each round every unit steps one cell east, or back west where it would leave the map.
    let mut east = true;
    let mut step = || {
        east = !east;
        units
            .iter()
            .map(|&(id, anchor, _)| {
                let dx = i32::from(east && anchor.x + 1 < region.width);
                (id, Cell::new(anchor.x + dx, anchor.y))
            })
            .collect::<Vec<_>>()
    };
    let version = map.version();
    let planned: Vec<Vec<(UnitId, Cell)>> = (0..=rounds).map(|_| step()).collect();
    let mut round = 0;
    let single = mean_ms(rounds, || {
        for &(id, anchor) in &planned[round] {
            map.move_unit(id, anchor).unwrap();
        }
        round += 1;
    });
    let mut round = 0;
    let batch = mean_ms(rounds, || {
        map.move_units(&planned[round]).unwrap();
        round += 1;
    });
    assert_eq!(
        map.version(),
        version,
        "moving units never changes the terrain version"
    );
    println!("| 1,000 units one step, `move_unit` each | {single:.3} ms |");
    println!("| 1,000 units one step, one `move_units` batch | {batch:.3} ms |");
}

/// Row 2, with `landmarks` landmarks baked for the profile (0: none).
fn blocking(rounds: usize, landmarks: usize) {
    let (mut map, dir) = load("AcrosstheCape");
    let file = read_map(&dir.join("AcrosstheCape.map")).unwrap();
    let problems = read_scenario(&dir.join("AcrosstheCape.map.scen"), &file).unwrap();
    let queries: Vec<(Cell, Cell)> = problems.iter().map(|problem| problem.endpoints()).collect();
    let ends: HashSet<Cell> = queries.iter().flat_map(|&(a, b)| [a, b]).collect();
    let (seed, count) = (
        env_number("UNITS_BENCH_SEED", 2),
        env_number("UNITS_BENCH_UNITS", 200),
    );
    let units = scatter(&map, &mut Rng(seed), count as usize, 0, &ends);
    map.place_units(&units).unwrap();
    if landmarks > 0 {
        map.set_landmarks(LandmarkPlacement::Farthest(landmarks))
            .unwrap();
        map.bake_landmarks(PROFILE);
    }
    let baked = match landmarks {
        0 => String::new(),
        count => format!(", {count} landmarks"),
    };
    // Each rule, and whether each query names a moving unit (query `i` the unit `i mod 200`,
    // exempt from its own query as a unit's own plan would be).
    let mut rules = vec![
        (OtherUnits::Ignore, false),
        (OtherUnits::Block, false),
        (OtherUnits::Block, true),
        (OtherUnits::cost(4.0).unwrap(), false),
    ];
    // `UNITS_BENCH_RULE=block` (say) times that rule alone, for a profiler.
    if let Ok(only) = std::env::var("UNITS_BENCH_RULE") {
        rules.retain(|(rule, _)| rule.name() == only);
    }
    let mut scratch = SearchScratch::new();
    let mut seconds = vec![0.0; rules.len()];
    let mut codes = vec![[0usize; 3]; rules.len()];
    let mut expanded = vec![0u64; rules.len()];
    for round in 0..=rounds {
        for (rule_index, &(rule, named)) in rules.iter().enumerate() {
            let started = Instant::now();
            for (index, &(start, goal)) in queries.iter().enumerate() {
                let mut query = PathQuery::new(start, goal, 1, PROFILE).other_units(rule);
                if named {
                    query = query.moving_unit(units[index % units.len()].0);
                }
                let result = map.query_with(&mut scratch, &query);
                if round == 0 {
                    expanded[rule_index] += result.expanded;
                    let slot = match result.code {
                        PathCode::Ok => 0,
                        PathCode::NoPath => 1,
                        _ => 2,
                    };
                    codes[rule_index][slot] += 1;
                }
                black_box(result);
            }
            if round > 0 {
                seconds[rule_index] += started.elapsed().as_secs_f64();
            }
        }
    }
    let per_query = |rule: usize| seconds[rule] * 1e6 / (rounds * queries.len()) as f64;
    for (rule_index, (rule, named)) in rules.iter().enumerate() {
        let [ok, none, other] = codes[rule_index];
        println!(
            "| AcrosstheCape, {} queries, {} units{baked}, `{}`{} | {:.1} us | {:.2}x | {ok} OK, {none} NO_PATH, {other} other; {:.0} expanded |",
            queries.len(),
            units.len(),
            rule.name(),
            if *named { ", moving unit named" } else { "" },
            per_query(rule_index),
            per_query(rule_index) / per_query(0),
            expanded[rule_index] as f64 / queries.len() as f64,
        );
    }
}

/// `find_paths_to_slots` timed over `rounds`: the mean and fastest round, how many members
/// got a path and their mean expansions, as the cells of a table row.
fn time_order(
    rounds: usize,
    map: &PathMap,
    target: Cell,
    group: &[SlotRequest<'_>],
    options: &SlotPathOptions,
) -> String {
    let (mut sent, mut expanded) = (0, 0);
    let (time, fastest) = timed_ms(rounds, || {
        let order = map.find_paths_to_slots(target, group, options).unwrap();
        sent = order.iter().filter(|member| member.result.is_ok()).count();
        expanded = (order.iter().map(|member| member.result.expanded)).sum::<u64>();
        black_box(order);
    });
    let expanded = expanded as f64 / sent.max(1) as f64;
    let members = group.len();
    format!("{time:.3} ms (fastest round {fastest:.3} ms) | {sent} of {members} with a path; {expanded:.0} expanded a member")
}

fn slots(rounds: usize) {
    let (mut map, _) = load("AR0011SR");
    let region = map.region();
    let mut rng = Rng(3);
    let outsiders = scatter(&map, &mut rng, 200, 10_000, &HashSet::new());
    map.place_units(&outsiders).unwrap();
    // The group: 200 starts of sizes 1-3 in a 48 x 48 box a fifth of the way across.
    let corner = Cell::new(region.width / 5, region.height / 5);
    let mut group = Vec::new();
    let mut taken = HashSet::new();
    while group.len() < 200 {
        let size = (group.len() % 3 + 1) as i64;
        let start = Cell::new(corner.x + rng.below(48), corner.y + rng.below(48));
        if map.clearance(start, PROFILE).unwrap_or(0) as i64 >= size && taken.insert(start) {
            group.push(SlotRequest {
                id: group.len() as UnitId,
                start,
                agent_size: size,
                profile: PROFILE,
            });
        }
    }
    let target = Cell::new(region.width / 2, region.height / 2);
    // `UNITS_BENCH_SLOTS_ONLY=1` times the arrival slots alone, for a profiler.
    let slots_only = std::env::var_os("UNITS_BENCH_SLOTS_ONLY").is_some();
    let timed = time_slots(rounds, &map, target, &group);
    println!(
        "| arrival slots, 200 units of sizes 1-3 on AR0011SR, 200 others standing | {timed} |"
    );
    if slots_only {
        return;
    }
    // The same order with every member's path to its slot, round the others (on one thread
    // and on two) and as if alone.
    for (threads, rule) in [
        (1, OtherUnits::Block),
        (2, OtherUnits::Block),
        (1, OtherUnits::Ignore),
    ] {
        let options = SlotPathOptions::new().threads(threads).other_units(rule);
        let timed = time_order(rounds, &map, target, &group, &options);
        println!("| the same order sent to its slots (`find_paths_to_slots`), {threads} thread(s), {rule:?} | {timed} |");
    }
    // The same order with the members standing where they start, as a game registers its
    // units: every member's query then exempts the whole group.
    let mut standing = map.clone();
    let members: Vec<(UnitId, Cell, i64)> = (group.iter())
        .map(|member| (member.id, member.start, member.agent_size))
        .collect();
    standing.place_units(&members).unwrap();
    let options = SlotPathOptions::new().threads(1);
    let timed = time_order(rounds, &standing, target, &group, &options);
    println!(
        "| the same order, its members standing on the map as units, 1 thread, Block | {timed} |"
    );
    // What a caller would do by hand: the slots, then one `query_batch` of the members' queries
    // (no landmark near the target), one thread.
    let mut sent = 0;
    let (time, fastest) = timed_ms(rounds, || {
        let slots = map.arrival_slots(target, &group).unwrap();
        let queries: Vec<PathQuery<'_>> = (group.iter().zip(&slots))
            .filter_map(|(member, slot)| {
                let query = PathQuery::new(member.start, (*slot)?, member.agent_size, PROFILE);
                Some(query.other_units(OtherUnits::Block))
            })
            .collect();
        let results = map.query_batch(&queries, 1);
        sent = results.iter().filter(|result| result.is_ok()).count();
        black_box(results);
    });
    println!("| the same order by hand (`arrival_slots`, then `query_batch`), 1 thread, Block | {time:.3} ms (fastest round {fastest:.3} ms) | {sent} of 200 with a path |");
}

fn main() {
    let rounds: usize = (std::env::args().nth(1))
        .and_then(|text| text.parse().ok())
        .unwrap_or(5);
    println!("| what | time | | |");
    println!("|---|---|---|---|");
    // One row alone, for a profiler or a paired run.
    type Row = fn(usize);
    let alone: [(&str, Row); 6] = [
        ("UNITS_BENCH_SLOTS_ONLY", slots),
        ("UNITS_BENCH_SPLIT_ONLY", split_slots),
        ("UNITS_BENCH_PARTIAL_ONLY", partial_to_occupied),
        ("UNITS_BENCH_REPLAN_ONLY", step_then_replan),
        ("UNITS_BENCH_IN_THE_WAY_ONLY", in_the_way),
        ("UNITS_BENCH_MOVES_ONLY", moves),
    ];
    if let Some((_, row)) = (alone.iter()).find(|(flag, _)| std::env::var_os(flag).is_some()) {
        row(rounds);
        return;
    }
    moves(rounds);
    // `UNITS_BENCH_LANDMARKS=16` (say) measures blocking queries with that many landmarks
    // too (`0`: without only).
    let landmarks = env_number("UNITS_BENCH_LANDMARKS", 16) as usize;
    if env_number("UNITS_BENCH_PLAIN", 1) != 0 {
        blocking(rounds, 0);
    }
    if landmarks > 0 {
        blocking(rounds, landmarks);
    }
    if env_number("UNITS_BENCH_SLOTS", 1) != 0 {
        slots(rounds);
        split_slots(rounds);
    }
    partial_to_occupied(rounds);
    step_then_replan(rounds);
    in_the_way(rounds);
}

/// Row 6: for every unit, the other units over the footprint one step east of its anchor (what
/// a game asks before a unit steps), by `units_overlapping` and by a pass over every unit, the
/// two alternating round by round; 100, 1,000 and 5,000 units of sizes 1 to 3 on
/// AcrosstheCape.
fn in_the_way(rounds: usize) {
    let (map, _) = load("AcrosstheCape");
    for count in [100, 1000, 5000] {
        let mut map = map.clone();
        let units = scatter(&map, &mut Rng(11), count, 0, &HashSet::new());
        map.place_units(&units).unwrap();
        let steps: Vec<(Region, [UnitId; 1])> = (units.iter())
            .map(|&(id, anchor, size)| {
                let side = size as i32;
                (Region::new(anchor.x + 1, anchor.y, side, side), [id])
            })
            .collect();
        let by_pass = |region: Region, exempt: &[UnitId]| -> Vec<Unit> {
            (map.occupancy().units().iter())
                .filter(|unit| {
                    let side = i32::from(unit.agent_size);
                    let square = Region::new(unit.anchor.x, unit.anchor.y, side, side);
                    let right = |r: Region| r.x + r.width;
                    let bottom = |r: Region| r.y + r.height;
                    square.x < right(region)
                        && region.x < right(square)
                        && square.y < bottom(region)
                        && region.y < bottom(square)
                        && !exempt.contains(&unit.id)
                })
                .copied()
                .collect()
        };
        let mut seconds = [0.0; 2];
        let mut met = 0;
        for round in 0..=rounds {
            for (way, timed) in seconds.iter_mut().enumerate() {
                let started = Instant::now();
                for (region, exempt) in &steps {
                    let found = if way == 0 {
                        map.units_overlapping(*region, exempt)
                    } else {
                        by_pass(*region, exempt)
                    };
                    if round == 0 && way == 0 {
                        assert_eq!(found, by_pass(*region, exempt));
                        met += found.len();
                    }
                    black_box(found);
                }
                if round > 0 {
                    *timed += started.elapsed().as_secs_f64();
                }
            }
        }
        let per_call = |way: usize| seconds[way] * 1e9 / (rounds * count) as f64;
        println!(
            "| AcrosstheCape, {count} units: the units one step east of each (`units_overlapping`) | {:.0} ns | {:.3}x of a pass over every unit ({:.0} ns) | {met} met |",
            per_call(0),
            per_call(0) / per_call(1),
            per_call(1),
        );
        // What an edit or a move pays while a request still holds the map: a copy of it.
        let copies = 200;
        let copying = mean_ms(rounds, || {
            for _ in 0..copies {
                black_box(map.clone());
            }
        });
        println!(
            "| AcrosstheCape, {count} units: a copy of the map (an edit while a request holds it) | {:.1} us | | |",
            copying * 1e3 / copies as f64
        );
    }
}

/// Row 5: a game loop that moves one unit, then has another re-plan with the units blocking
/// (the first query after any move meets a new occupancy), against the same queries with no
/// move between them and the same queries as if alone (`Ignore`), the three alternating round
/// by round; for 100, 1,000 and 5,000 units of sizes 1 to 3 on AcrosstheCape, each re-planning
/// unit at its own size (so consecutive queries differ in size).
fn step_then_replan(rounds: usize) {
    let (map, dir) = load("AcrosstheCape");
    let file = read_map(&dir.join("AcrosstheCape.map")).unwrap();
    let problems = read_scenario(&dir.join("AcrosstheCape.map.scen"), &file).unwrap();
    let goals: Vec<Cell> = problems
        .iter()
        .map(|problem| problem.endpoints().1)
        .collect();
    let ends: HashSet<Cell> = goals.iter().copied().collect();
    let region = map.region();
    // `UNITS_BENCH_REPLAN_UNITS=N` measures that count alone.
    let counts = match env_number("UNITS_BENCH_REPLAN_UNITS", 0) {
        0 => vec![100, 1000, 5000],
        count => vec![count as usize],
    };
    for count in counts {
        let mut map = map.clone();
        let units = scatter(&map, &mut Rng(7), count, 0, &ends);
        map.place_units(&units).unwrap();
        let mut scratch = SearchScratch::new();
        let replans = 400;
        let mut seconds = [0.0; 3];
        let mut east = vec![false; count];
        let (mut codes, mut expanded) = ([0; 2], 0);
        for round in 0..=rounds {
            for (set, (moving, rule)) in [
                (false, OtherUnits::Block),
                (true, OtherUnits::Block),
                (false, OtherUnits::Ignore),
            ]
            .into_iter()
            .enumerate()
            {
                let started = Instant::now();
                for index in 0..replans {
                    if moving {
                        // Another unit steps one cell east, or back west.
                        let stepper = (index * 7 + 3) % count;
                        let (id, anchor, _) = units[stepper];
                        east[stepper] = !east[stepper] && anchor.x + 1 < region.width;
                        let dx = i32::from(east[stepper]);
                        map.move_unit(id, Cell::new(anchor.x + dx, anchor.y))
                            .unwrap();
                    }
                    let (id, start, size) = units[index % count];
                    let goal = goals[index % goals.len()];
                    let query = PathQuery::new(start, goal, size, PROFILE)
                        .other_units(rule)
                        .moving_unit(id);
                    let one = Instant::now();
                    let result = map.query_with(&mut scratch, &query);
                    if round == 0 && set == 0 && std::env::var_os("REPLAN_DEBUG").is_some() {
                        println!(
                            "{:?} {} {:.1}",
                            result.code,
                            result.expanded,
                            one.elapsed().as_secs_f64() * 1e6
                        );
                    }
                    if round == 0 && set == 0 {
                        codes[usize::from(result.code != PathCode::Ok)] += 1;
                        expanded += result.expanded;
                    }
                    black_box(result);
                }
                if round > 0 {
                    seconds[set] += started.elapsed().as_secs_f64();
                }
            }
        }
        let per_replan = |set: usize| seconds[set] * 1e6 / (rounds * replans) as f64;
        println!(
            "| AcrosstheCape, {count} units: a unit steps, another re-plans (`block`) | {:.1} us | {:.2}x of the same re-plans with no step between ({:.1} us) | {:.1} us a step; {} OK, {} other; {:.0} expanded; alone {:.1} us |",
            per_replan(1),
            per_replan(1) / per_replan(0),
            per_replan(0),
            per_replan(1) - per_replan(0),
            codes[0],
            codes[1],
            expanded as f64 / replans as f64,
            per_replan(2),
        );
    }
}

/// Partial paths to goals a unit stands on: each of AcrosstheCape's problems sent to the
/// anchor of a scattered unit instead of its goal, against the same starts to their own
/// goals, the two alternating round by round.
fn partial_to_occupied(rounds: usize) {
    let (mut map, dir) = load("AcrosstheCape");
    let file = read_map(&dir.join("AcrosstheCape.map")).unwrap();
    let problems = read_scenario(&dir.join("AcrosstheCape.map.scen"), &file).unwrap();
    let queries: Vec<(Cell, Cell)> = problems.iter().map(|problem| problem.endpoints()).collect();
    let ends: HashSet<Cell> = queries.iter().flat_map(|&(a, b)| [a, b]).collect();
    let units = scatter(&map, &mut Rng(2), 200, 0, &ends);
    map.place_units(&units).unwrap();
    let occupied: Vec<(Cell, Cell)> = (queries.iter().enumerate())
        .map(|(index, &(start, _))| (start, units[index % units.len()].1))
        .collect();
    let mut scratch = SearchScratch::new();
    let mut seconds = [0.0; 2];
    let mut partial = 0;
    for round in 0..=rounds {
        for (set, problems) in [&queries, &occupied].into_iter().enumerate() {
            let started = Instant::now();
            for &(start, goal) in problems {
                let query = PathQuery::new(start, goal, 1, PROFILE)
                    .other_units(OtherUnits::Block)
                    .allow_partial_path(true);
                let result = map.query_with(&mut scratch, &query);
                if round == 0 && set == 1 && result.code == PathCode::PartialPath {
                    partial += 1;
                }
                black_box(result);
            }
            if round > 0 {
                seconds[set] += started.elapsed().as_secs_f64();
            }
        }
    }
    let per_query = |set: usize| seconds[set] * 1e6 / (rounds * queries.len()) as f64;
    println!(
        "| AcrosstheCape, {} queries to a unit's anchor, `block`, partial allowed | {:.1} us | {:.2}x of the same starts to their goals ({:.1} us) | {partial} PARTIAL_PATH |",
        queries.len(),
        per_query(1),
        per_query(1) / per_query(0),
        per_query(0),
    );
}

/// Arrival slots for 100 trucks (2 x 2) round a target whose anchors two units standing
/// diagonally next to it split (two anchors blocked, the step between the other two passing
/// between the units): every slot is then checked against its member's start, on the
/// generated 1024 x 1024 map of the core's benches.
fn split_slots(rounds: usize) {
    let mut map = generated::generated_map(&mut Rng(0x5EED));
    let fits = |map: &PathMap, cell: Cell| map.clearance(cell, "soldier").unwrap_or(0) >= 4;
    // A target near the middle with open ground round it.
    let target = (0..)
        .map(|step| Cell::new(512 + step, 512))
        .find(|&cell| fits(&map, Cell::new(cell.x - 2, cell.y - 2)))
        .unwrap();
    map.place_unit(1, Cell::new(target.x + 1, target.y - 1), 1)
        .unwrap();
    map.place_unit(2, Cell::new(target.x - 1, target.y + 1), 1)
        .unwrap();
    let mut rng = Rng(5);
    let corner = Cell::new(target.x - 300, target.y - 300);
    let mut group = Vec::new();
    let mut taken = HashSet::new();
    while group.len() < 100 {
        let start = Cell::new(corner.x + rng.below(48), corner.y + rng.below(48));
        let free = map.clearance(start, "soldier").unwrap_or(0) >= 2;
        if free && taken.insert(start) {
            group.push(SlotRequest {
                id: 100 + group.len() as UnitId,
                start,
                agent_size: 2,
                profile: "soldier",
            });
        }
    }
    let timed = time_slots(rounds, &map, target, &group);
    println!("| arrival slots, 100 trucks round a target two units split, generated 1024 x 1024 | {timed} |");
}

/// `arrival_slots` timed over `rounds`: the mean and fastest round and how many members got a
/// slot, as the cells of a table row.
fn time_slots(rounds: usize, map: &PathMap, target: Cell, group: &[SlotRequest<'_>]) -> String {
    let mut placed = 0;
    let (time, fastest) = timed_ms(rounds, || {
        let slots = map.arrival_slots(target, group).unwrap();
        placed = slots.iter().filter(|slot| slot.is_some()).count();
        black_box(slots);
    });
    let members = group.len();
    format!("{time:.3} ms (fastest round {fastest:.3} ms) | {placed} of {members} placed")
}

/// The number the environment variable `name` holds, or `default` if it is unset or not a
/// number.
fn env_number(name: &str, default: u64) -> u64 {
    (std::env::var(name).ok())
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}
