//! Live-map benchmarks on a generated 1024 x 1024 map: edits repaired in place against a full
//! rebuild of the same caches, batch query throughput on 1, 2 and all cores, and doors that
//! open under 8 landmarks (the table repaired in place against rebuilt); and the search memory
//! a thread holds after 1,000 short queries on a generated 4096 x 4096 map.
//!
//! Run: `cargo bench -p clearance_core --bench live_map`. Prints Markdown tables;
//! `-- scratch` prints only the last one, `-- door` only the one of a batch that opens and
//! closes a door many times.

use clearance_core::{
    AgentProfile, Cell, PathCode, PathMap, PathQuery, Region, TerrainEdit, TerrainGrid,
};
use statistics::median;
use std::hint::black_box;
use std::time::Instant;

#[path = "support/generated.rs"]
mod generated;
#[path = "support/statistics.rs"]
mod statistics;
use generated::{generated_map, generated_map_of_side, Lcg, GROUND, SIDE, WALL};

const PROFILES: [&str; 2] = ["soldier", "tank"];
const SIZES: [i64; 3] = [1, 2, 3];

/// Builds every layer and graph the benchmark keeps cached (2 layers, 6 graphs).
fn warm(map: &PathMap) {
    for profile in PROFILES {
        for size in SIZES {
            assert_eq!(map.prepare(profile, size), PathCode::Ok);
        }
    }
}

fn micros(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e6
}

/// Mean time of `count` edits of `side x side` squares that toggle between wall and ground.
fn time_edits(map: &mut PathMap, rng: &mut Lcg, side: i32, count: usize) -> f64 {
    let start = Instant::now();
    for _ in 0..count {
        let (x, y) = (rng.below(SIDE - side + 1), rng.below(SIDE - side + 1));
        let rect = Region::new(x, y, side, side);
        let terrain = if map.grid().terrain(Cell::new(x, y)) == Some(WALL) {
            GROUND
        } else {
            WALL
        };
        map.fill_rect(rect, terrain).unwrap();
    }
    micros(start) / count as f64
}

fn main() {
    if std::env::args().any(|arg| arg == "scratch") {
        report_thread_scratch(&mut Lcg(SCRATCH_SEED));
        return;
    }
    if std::env::args().any(|arg| arg == "door") {
        time_door_batch(&mut Lcg(DOOR_SEED));
        return;
    }
    let mut rng = Lcg(0x5EED);
    let mut map = generated_map(&mut rng);
    let bytes = map.grid().as_bytes().to_vec();
    warm(&map);

    let rebuild = median(
        &mut (0..5)
            .map(|_| {
                let start = Instant::now();
                map.load_terrain(&bytes).unwrap();
                warm(&map);
                micros(start)
            })
            .collect::<Vec<_>>(),
    );
    println!(
        "| operation on a 1024 x 1024 map, 2 layers + 6 graphs cached | time | vs full rebuild |"
    );
    println!("|---|---|---|");
    println!(
        "| full rebuild (drop and build every cache) | {:.1} ms | 1x |",
        rebuild / 1000.0
    );
    for (label, side, count) in [
        ("single-cell edit", 1, 4000),
        ("8 x 8 rectangle edit", 8, 1000),
    ] {
        let mean = time_edits(&mut map, &mut rng, side, count);
        println!(
            "| {label}, repaired | {mean:.1} us | {:.0}x faster |",
            rebuild / mean
        );
    }
    // An edit while a query thread still holds the previous version copies what it writes
    // (timed with taking and dropping the snapshot). `LIVE_MAP_SNAPSHOTS=N` takes N of each
    // instead of 50, for a profiler.
    let snapshots = (std::env::var("LIVE_MAP_SNAPSHOTS").ok())
        .and_then(|count| count.parse().ok())
        .unwrap_or(50);
    for (label, side) in [("single-cell edit", 1), ("8 x 8 rectangle edit", 8)] {
        let start = Instant::now();
        for _ in 0..snapshots {
            let held = black_box(map.clone());
            time_edits(&mut map, &mut rng, side, 1);
            drop(held);
        }
        let copied = micros(start) / snapshots as f64;
        println!(
            "| {label} while a snapshot is held (copy on write) | {:.2} ms | {:.1}x faster |",
            copied / 1000.0,
            rebuild / copied
        );
    }
    if let Err(difference) = map.verify_caches() {
        panic!("repair diverged from a rebuild: {difference}");
    }

    // Batch throughput: random legal queries over the three sizes and both profiles.
    let mut queries = Vec::new();
    while queries.len() < 3000 {
        let size = SIZES[queries.len() % 3];
        let profile = PROFILES[queries.len() / 3 % 2];
        let start = Cell::new(rng.below(SIDE), rng.below(SIDE));
        let goal = Cell::new(rng.below(SIDE), rng.below(SIDE));
        let fits = |cell| map.clearance(cell, profile).unwrap_or(0) >= size as u8;
        if fits(start) && fits(goal) {
            queries.push((start, goal, size, profile));
        }
    }
    let batch: Vec<PathQuery> = queries
        .iter()
        .map(|&(start, goal, size, profile)| PathQuery::new(start, goal, size, profile))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!();
    println!(
        "| batch of {} queries, threads | queries per second | speed-up |",
        batch.len()
    );
    println!("|---|---|---|");
    let mut single = 0.0;
    let mut thread_counts = vec![1, 2, cores];
    thread_counts.dedup();
    for threads in thread_counts {
        let seconds = median(
            &mut (0..3)
                .map(|_| {
                    let start = Instant::now();
                    black_box(map.query_batch(&batch, threads));
                    start.elapsed().as_secs_f64()
                })
                .collect::<Vec<_>>(),
        );
        let rate = batch.len() as f64 / seconds;
        if threads == 1 {
            single = rate;
        }
        println!("| {threads} | {rate:.0} | {:.2}x |", rate / single);
    }
    println!();
    println!("({cores} cores available)");
    time_landmark_openings(&mut map, &mut rng);
    drop(map);
    time_door_batch(&mut Lcg(DOOR_SEED));
    report_thread_scratch(&mut Lcg(SCRATCH_SEED));
}

/// Its own seed, so that `-- door` prints the same table as a full run.
const DOOR_SEED: u64 = 0x000D_0042;

/// One batch that opens and closes a door 1,000 times (2,001 entries: it ends open) in a wall
/// that halves the generated map, with every layer and graph cached, against rebuilding those
/// caches. Each closing may split a region, which is checked once per batch.
fn time_door_batch(rng: &mut Lcg) {
    let mut map = generated_map(rng);
    map.fill_rect(Region::new(SIDE / 2, 0, 1, SIDE), WALL)
        .unwrap();
    let door = Cell::new(SIDE / 2, SIDE / 2);
    let toggles: Vec<TerrainEdit> = (0..2001)
        .map(|at| TerrainEdit::Cell {
            cell: door,
            terrain: if at % 2 == 0 { GROUND } else { WALL },
        })
        .collect();
    let close = [TerrainEdit::Cell {
        cell: door,
        terrain: WALL,
    }];
    let bytes = map.grid().as_bytes().to_vec();
    warm(&map);
    let mut batch = Vec::new();
    let mut rebuild = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        map.apply_edits(&toggles).unwrap();
        batch.push(micros(start));
        map.apply_edits(&close).unwrap();
        let start = Instant::now();
        map.load_terrain(&bytes).unwrap();
        warm(&map);
        rebuild.push(micros(start));
    }
    map.apply_edits(&toggles).unwrap();
    if let Err(difference) = map.verify_caches() {
        panic!("the door batch diverged from a rebuild: {difference}");
    }
    let (batch, rebuild) = (median(&mut batch), median(&mut rebuild));
    println!();
    println!("| operation on a {SIDE} x {SIDE} map halved by a wall, 2 layers + 6 graphs cached | time | vs full rebuild |");
    println!("|---|---|---|");
    println!(
        "| one batch opening and closing its door 1,000 times (2,001 entries) | {:.2} ms | {:.2}x the time |",
        batch / 1000.0,
        batch / rebuild
    );
    println!(
        "| full rebuild of the caches | {:.2} ms | 1x |",
        rebuild / 1000.0
    );
    time_scattered_walls();
}

/// One batch of 8,000 single-cell walls, each between four pillars of a map that has a pillar
/// every 4 cells (so clearance stays small and the batch is repaired in place, not rebuilt):
/// every wall cuts the moves of its neighbours, which the region check after the batch starts
/// from, all of them in one region.
fn time_scattered_walls() {
    let mut grid = TerrainGrid::new(Region::new(0, 0, SIDE, SIDE), GROUND).unwrap();
    for y in (0..SIDE).step_by(4) {
        for x in (0..SIDE).step_by(4) {
            grid.set_cell(Cell::new(x, y), WALL).unwrap();
        }
    }
    let mut map = PathMap::new(grid);
    map.set_profile(
        AgentProfile::new("soldier")
            .with_terrain(GROUND, 1.0)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(map.prepare("soldier", 1), PathCode::Ok);
    let walls: Vec<TerrainEdit> = (0..8000)
        .map(|at| TerrainEdit::Cell {
            cell: Cell::new(4 * (at % 100) + 2, 4 * (at / 100) + 2),
            terrain: WALL,
        })
        .collect();
    let start = Instant::now();
    map.apply_edits(&walls).unwrap();
    let batch = micros(start);
    assert!(
        map.cache_memory_bytes() > 0,
        "the batch was repaired, not rebuilt"
    );
    if let Err(difference) = map.verify_caches() {
        panic!("the scattered walls diverged from a rebuild: {difference}");
    }
    println!(
        "| one batch of 8,000 walls between pillars (a map with a pillar every 4 cells, 1 graph cached) | {:.2} ms | |",
        batch / 1000.0
    );
}

/// Side of the map for the thread scratch table.
const LARGE_SIDE: i32 = 4096;
/// Its own seed, so that `-- scratch` prints the same table as a full run.
const SCRATCH_SEED: u64 = 0x005C_A7C4;

/// The search memory of a fresh thread after 1,000 random queries of 50 steps as the crow
/// flies (start anywhere legal, goal 50 straight or diagonal steps away in a random
/// direction) on a generated 4096 x 4096 map, in `auto` mode, then after trimming it.
fn report_thread_scratch(rng: &mut Lcg) {
    let map = generated_map_of_side(rng, LARGE_SIDE);
    assert_eq!(map.prepare("tank", 1), PathCode::Ok);
    let fits = |cell| map.clearance(cell, "tank").unwrap_or(0) >= 1;
    let mut trips = Vec::new();
    while trips.len() < 1000 {
        let start = Cell::new(rng.below(LARGE_SIDE), rng.below(LARGE_SIDE));
        // A point on the square ring 50 steps out.
        let (side, along) = (rng.below(4), rng.below(101) - 50);
        let (dx, dy) = [(50, along), (-50, along), (along, 50), (along, -50)][side as usize];
        let goal = Cell::new(start.x + dx, start.y + dy);
        if fits(start) && fits(goal) {
            trips.push((start, goal));
        }
    }
    let (held, trimmed, found, expanded) = std::thread::scope(|scope| {
        scope
            .spawn(|| {
                let (mut found, mut expanded) = (0, 0);
                for &(start, goal) in &trips {
                    let result = map.find_path(start, goal, 1, "tank");
                    found += usize::from(result.is_ok());
                    expanded = expanded.max(result.expanded);
                }
                let held = PathMap::thread_search_memory_bytes();
                PathMap::trim_thread_search_memory();
                (held, PathMap::thread_search_memory_bytes(), found, expanded)
            })
            .join()
            .unwrap()
    });
    let megabytes = |bytes: usize| bytes as f64 / 1e6;
    println!();
    println!(
        "| search memory of one thread, {LARGE_SIDE} x {LARGE_SIDE} map ({} anchors) | MB |",
        LARGE_SIDE * LARGE_SIDE
    );
    println!("|---|---|");
    println!(
        "| after {} random 50-step queries ({found} found, at most {expanded} expansions) | {:.2} |",
        trips.len(),
        megabytes(held)
    );
    println!(
        "| after `PathMap::trim_thread_search_memory()` | {:.2} |",
        megabytes(trimmed)
    );
}

/// Opens wall cells beside open ground one at a time with 8 landmarks on the `tank` profile
/// and times each opening together with the next query across the map: once as the map does
/// it (the landmark table repaired in place), once with the table dropped first, so that the
/// query rebuilds it (what an opening cost before tables were repaired).
fn time_landmark_openings(map: &mut PathMap, rng: &mut Lcg) {
    map.set_landmarks(clearance_core::LandmarkPlacement::Farthest(8))
        .unwrap();
    map.bake_landmarks("tank").unwrap();
    let query = PathQuery::new(Cell::new(5, 5), Cell::new(SIDE - 6, SIDE - 6), 1, "tank");
    let mut doors = Vec::new();
    while doors.len() < 40 {
        let cell = Cell::new(1 + rng.below(SIDE - 2), 1 + rng.below(SIDE - 2));
        let beside = Cell::new(cell.x + 1, cell.y);
        if map.grid().terrain(cell) == Some(WALL) && map.grid().terrain(beside) == Some(GROUND) {
            doors.push(cell);
        }
    }
    let mut repaired = Vec::new();
    let mut rebuilt = Vec::new();
    for (index, &door) in doors.iter().enumerate() {
        let start = Instant::now();
        if index % 2 == 1 {
            // Dropping the table the old way: placing landmarks again clears every table.
            map.set_landmarks(clearance_core::LandmarkPlacement::Farthest(8))
                .unwrap();
        }
        map.set_cell(door, GROUND).unwrap();
        black_box(map.query(&query));
        let elapsed = micros(start);
        if index % 2 == 1 {
            rebuilt.push(elapsed);
        } else {
            repaired.push(elapsed);
        }
    }
    let (repaired, rebuilt) = (median(&mut repaired), median(&mut rebuilt));
    println!();
    println!("| a wall cell opens beside open ground, 8 landmarks, then one query across the map | median time |");
    println!("|---|---|");
    println!("| table repaired in place | {:.2} ms |", repaired / 1000.0);
    println!(
        "| table dropped and rebuilt by the query | {:.1} ms ({:.0}x) |",
        rebuilt / 1000.0,
        rebuilt / repaired
    );
}
