//! Landmark tables under edits and large builds, paired in one run.
//!
//! Run: `cargo bench -p clearance_core --bench landmark_edits` (optionally `-- ROUNDS`,
//! default 20; `LANDMARK_BUILD=0` skips the 4096 x 4096 builds, `LANDMARK_PROFILES=tank`
//! builds for that profile only).
//!
//! 1. AR0011SR (512 x 512, the Moving AI profile), 8 landmarks (farthest-point): ROUNDS open
//!    cells drawn with a fixed seed (no landmark among them), each closed and then opened
//!    again, each edit followed by the scenario's longest query. Paired in every round: the
//!    query alone, the closing plus the query, the opening plus the query with the table
//!    repaired in place, and the opening plus the query as the map did before closings were
//!    repaired (the closing left the table as lower bounds, the opening dropped it, and the
//!    query rebuilt it: here the table is dropped by placing the landmarks again before the
//!    opening). Medians.
//! 2. 8 landmarks on the live-map bench's generated map grown to 4096 x 4096 (the uniform
//!    `tank` profile, one stored direction, and `soldier`, swamp at 2.5, two), on 1 and 2
//!    threads, and one sweep alone (one given landmark) for where the time goes.

use clearance_core::{AgentProfile, Cell, LandmarkPlacement, PathCode, PathMap, PathQuery};
use clearance_core::{Region, TerrainGrid};
use statistics::median;
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Instant;

#[path = "support/generated.rs"]
mod generated;
#[path = "support/statistics.rs"]
mod statistics;

/// The Moving AI profile of the CLI (`.`, `G`, `S` at cost 1, terrain = map character).
const MOVINGAI_PROFILE: &str = "movingai";

fn movingai_dir() -> PathBuf {
    match std::env::var_os("CLEARANCE_MOVINGAI_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
    }
}

/// AR0011SR as the CLI reads it, and the start and goal of its scenario's longest problem. (The core has no file formats; this bench reads the two it needs.)
fn ar0011sr() -> (PathMap, Cell, Cell) {
    let dir = movingai_dir();
    let text = std::fs::read_to_string(dir.join("AR0011SR.map")).expect("the Moving AI data");
    let mut lines = text.lines();
    let (mut width, mut height) = (0, 0);
    for line in lines.by_ref() {
        let mut words = line.split_whitespace();
        match (words.next(), words.next()) {
            (Some("width"), Some(w)) => width = w.parse().unwrap(),
            (Some("height"), Some(h)) => height = h.parse().unwrap(),
            (Some("map"), None) => break,
            _ => {}
        }
    }
    let data: Vec<u8> = lines
        .take(height)
        .flat_map(|row| row.bytes().take(width))
        .collect();
    let grid = TerrainGrid::from_bytes(Region::new(0, 0, width as i32, height as i32), &data);
    let mut map = PathMap::new(grid.unwrap());
    let mut profile = AgentProfile::new(MOVINGAI_PROFILE);
    for terrain in [b'.', b'G', b'S'] {
        profile.set_terrain(terrain, 1.0).unwrap();
    }
    map.set_profile(profile).unwrap();
    let scen = std::fs::read_to_string(dir.join("AR0011SR.map.scen")).unwrap();
    let longest = (scen.lines().skip(1))
        .map(|line| line.split_whitespace().collect::<Vec<_>>())
        .max_by(|a, b| f64::total_cmp(&a[8].parse().unwrap(), &b[8].parse().unwrap()))
        .unwrap();
    let at = |i: usize| longest[i].parse().unwrap();
    (map, Cell::new(at(4), at(5)), Cell::new(at(6), at(7)))
}

fn millis(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

fn closing_then_opening(rounds: usize) {
    let (mut map, start, goal) = ar0011sr();
    let placement = LandmarkPlacement::Farthest(8);
    map.set_landmarks(placement.clone()).unwrap();
    let landmarks = map.bake_landmarks(MOVINGAI_PROFILE).unwrap().landmarks;
    let query = PathQuery::new(start, goal, 1, MOVINGAI_PROFILE);
    assert_eq!(map.query(&query).code, PathCode::Ok);
    let region = map.region();
    let legal = |map: &PathMap, cell| map.clearance(cell, MOVINGAI_PROFILE).unwrap_or(0) >= 1;
    let wall = (0..region.width * region.height)
        .map(|index| Cell::new(index % region.width, index / region.width))
        .find(|&cell| map.clearance(cell, MOVINGAI_PROFILE) == Some(0))
        .and_then(|cell| map.grid().terrain(cell))
        .unwrap();
    let mut rng = generated::Lcg(0xD00B);
    let mut cells = Vec::new();
    while cells.len() < rounds {
        let cell = Cell::new(rng.below(region.width), rng.below(region.height));
        if legal(&map, cell) && !landmarks.contains(&cell) && !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    let timed = |map: &mut PathMap, edit: &dyn Fn(&mut PathMap)| {
        let started = Instant::now();
        edit(map);
        black_box(map.query(&query));
        millis(started)
    };
    let (mut alone, mut closing, mut opening, mut before) = (vec![], vec![], vec![], vec![]);
    for &cell in &cells {
        let open = map.grid().terrain(cell).unwrap();
        alone.push(timed(&mut map, &|_| {}));
        closing.push(timed(&mut map, &|map| map.set_cell(cell, wall).unwrap()));
        opening.push(timed(&mut map, &|map| map.set_cell(cell, open).unwrap()));
        assert_eq!(
            map.landmark_stats(MOVINGAI_PROFILE).unwrap().landmarks,
            landmarks
        );
        map.set_cell(cell, wall).unwrap();
        before.push(timed(&mut map, &|map| {
            map.set_landmarks(placement.clone()).unwrap();
            map.set_cell(cell, open).unwrap();
        }));
    }
    // The same edits while a snapshot of the map is held (a request in flight, say): the
    // tables' pages that a repair writes are copied, the others stay shared.
    let (mut closing_held, mut opening_held) = (vec![], vec![]);
    for &cell in &cells {
        let open = map.grid().terrain(cell).unwrap();
        let snapshot = map.clone();
        closing_held.push(timed(&mut map, &|map| map.set_cell(cell, wall).unwrap()));
        drop(snapshot);
        let snapshot = map.clone();
        opening_held.push(timed(&mut map, &|map| map.set_cell(cell, open).unwrap()));
        drop(snapshot);
    }
    map.verify_caches().unwrap();
    let (alone, closing, opening, before) = (
        median(&mut alone),
        median(&mut closing),
        median(&mut opening),
        median(&mut before),
    );
    let (closing_held, opening_held) = (median(&mut closing_held), median(&mut opening_held));
    println!("| AR0011SR, 8 landmarks, {rounds} cells closed then opened, each edit + the longest query | median ms |");
    println!("|---|---:|");
    println!("| the query alone | {alone:.3} |");
    println!("| closing + query (table repaired) | {closing:.3} |");
    println!(
        "| opening + query (table repaired) | {opening:.3} (+{:.3} over the query) |",
        opening - alone
    );
    println!(
        "| opening + query, table dropped and rebuilt (before) | {before:.1} (+{:.1}) |",
        before - alone
    );
    println!("| closing + query while a snapshot is held | {closing_held:.3} |");
    println!("| opening + query while a snapshot is held | {opening_held:.3} |");
}

/// CPU seconds this process has used, all threads (Linux; 0 elsewhere): on a busy machine
/// the wall-clock time of a build says more about the other processes than about it.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<f64> = (after_name.split_whitespace())
        .map(|field| field.parse().unwrap_or(0.0))
        .collect();
    // utime and stime, fields 14 and 15 of the line, in clock ticks (100 per second).
    fields
        .get(11)
        .zip(fields.get(12))
        .map_or(0.0, |(u, s)| (u + s) / 100.0)
}

fn large_builds() {
    let map = generated::generated_map_of_side(&mut generated::Lcg(0x5EED), 4096);
    println!();
    println!("| 4096 x 4096 generated map, profile | landmarks | threads | build s | CPU s |");
    println!("|---|---|---:|---:|---:|");
    let profiles = std::env::var("LANDMARK_PROFILES").unwrap_or("tank,soldier".into());
    for profile in profiles.split(',') {
        assert_eq!(map.prepare(profile, 1), PathCode::Ok);
        let mut map = map.clone();
        let anchor = (0..)
            .map(|x| Cell::new(x, 2048))
            .find(|&cell| map.clearance(cell, profile).unwrap_or(0) >= 1)
            .unwrap();
        for (label, placement, threads) in [
            (
                "1 given (one sweep each way)",
                LandmarkPlacement::At(vec![anchor]),
                1,
            ),
            ("8 farthest", LandmarkPlacement::Farthest(8), 1),
            ("8 farthest", LandmarkPlacement::Farthest(8), 2),
        ] {
            map.set_landmarks(placement).unwrap();
            let (started, cpu) = (Instant::now(), cpu_seconds());
            let stats = map.bake_landmarks_with(profile, threads, &|_| {}).unwrap();
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "| `{profile}` | {label} ({}) | {threads} | {seconds:.2} | {:.2} |",
                stats.landmarks.len(),
                cpu_seconds() - cpu
            );
        }
    }
}

fn main() {
    let rounds: usize = (std::env::args().nth(1))
        .and_then(|text| text.parse().ok())
        .unwrap_or(20);
    closing_then_opening(rounds);
    if std::env::var("LANDMARK_BUILD").as_deref() != Ok("0") {
        large_builds();
    }
}
