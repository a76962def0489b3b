//! Movement ranges against flow fields bounded by the same cost around the same anchor (the
//! same amount of work, run backwards), paired in one run.
//!
//! Run: `cargo bench -p clearance_cli --bench ranges` (optionally `-- ROUNDS`, default 5).
//! Budget 30 (about 25 straight steps of open ground), sizes 1 and 3, on AR0011SR (512 x 512,
//! the Moving AI profile) and on the live-map bench's generated 1024 x 1024 map (the
//! `soldier` profile, swamp at 2.5, and the uniform `tank`); 20 starts per case drawn with a
//! fixed seed where the size fits. Reported: the mean time per range of the fastest round, ns
//! per anchor in range, the time to list a built range's cells (`cells()`), and the field's
//! time for the same starts and bound, likewise.

use clearance_cli::movingai::{movingai_profile, read_map, MOVINGAI_PROFILE};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{Cell, FlowFieldOptions, PathMap, RangeOptions, COST_SCALE};
use std::hint::black_box;
use std::time::Instant;

#[path = "../../clearance_core/benches/support/generated.rs"]
mod generated;

const BUDGET: f64 = 30.0;
const STARTS: usize = 20;

fn starts(map: &PathMap, profile: &str, size: i64, rng: &mut generated::Lcg) -> Vec<Cell> {
    let region = map.region();
    let mut starts = Vec::new();
    while starts.len() < STARTS {
        let cell = Cell::new(
            region.x + rng.below(region.width),
            region.y + rng.below(region.height),
        );
        if i64::from(map.clearance(cell, profile).unwrap_or(0)) >= size {
            starts.push(cell);
        }
    }
    starts
}

fn case(name: &str, map: &PathMap, profile: &str, size: i64, rounds: usize) {
    let starts = starts(map, profile, size, &mut generated::Lcg(size as u64 * 7 + 1));
    assert_eq!(map.prepare(profile, size), clearance_core::PathCode::Ok);
    let options = RangeOptions::new();
    let bound = FlowFieldOptions::new().max_cost((BUDGET * COST_SCALE as f64) as u64);
    let (mut range_seconds, mut field_seconds, mut cells) = (f64::MAX, f64::MAX, 0usize);
    let ranges = || {
        let started = Instant::now();
        for &start in &starts {
            let range = map
                .movement_range(start, size, profile, BUDGET, &options)
                .unwrap();
            black_box(range);
        }
        started.elapsed().as_secs_f64()
    };
    let fields = || {
        let started = Instant::now();
        for &start in &starts {
            black_box(
                map.flow_field(&[start], size, profile, bound.clone())
                    .unwrap(),
            );
        }
        started.elapsed().as_secs_f64()
    };
    // Each timed pass follows an untimed one over the same starts, so both kinds are timed
    // with what they read in cache: between rounds the fields' map-sized arrays would evict
    // the ranges' memory, and the ranges the fields'.
    // The fastest round of each: the machine's other work only ever adds time.
    for _ in 0..rounds {
        ranges();
        range_seconds = ranges().min(range_seconds);
        fields();
        field_seconds = fields().min(field_seconds);
    }
    // Listing the cells, which every front end does after the search (GDScript's
    // `get_cells()`), timed apart on ranges already built.
    let built: Vec<_> = (starts.iter())
        .map(|&start| {
            map.movement_range(start, size, profile, BUDGET, &options)
                .unwrap()
        })
        .collect();
    let mut listing_seconds = f64::MAX;
    for _ in 0..rounds {
        let started = Instant::now();
        for range in &built {
            black_box(range.cells());
        }
        listing_seconds = listing_seconds.min(started.elapsed().as_secs_f64());
    }
    for &start in &starts {
        let range = map.movement_range(start, size, profile, BUDGET, &options);
        cells += range.unwrap().cells().len();
    }
    let per_range = range_seconds / starts.len() as f64;
    let per_field = field_seconds / starts.len() as f64;
    let per_listing = listing_seconds / starts.len() as f64;
    let anchors = cells as f64 / starts.len() as f64;
    println!(
        "| {name}, `{profile}`, size {size} | {anchors:.0} | {:.1} us | {:.1} ns | {:.1} us | {:.1} us | {:.2}x |",
        per_range * 1e6,
        per_range * 1e9 / anchors,
        per_listing * 1e6,
        per_field * 1e6,
        per_range / per_field,
    );
}

/// `RANGE_PROBE=N`: one start on AR0011SR, N times (200 if N is not a number), for a steady
/// figure on a busy machine or a profiler; with `RANGE_PROBE_PROFILE=soldier` (or `tank`), on
/// the generated map with that profile. `PROBE_BUDGET` replaces the budget of 30.
fn probe(map: &PathMap, profile: &str, repeats: usize) {
    let start = starts(map, profile, 1, &mut generated::Lcg(8))[0];
    let options = RangeOptions::new();
    let mut best = f64::MAX;
    let budget: f64 = std::env::var("PROBE_BUDGET")
        .ok()
        .and_then(|b| b.parse().ok())
        .unwrap_or(BUDGET);
    for _ in 0..repeats {
        let started = Instant::now();
        black_box(
            map.movement_range(start, 1, profile, budget, &options)
                .unwrap(),
        );
        best = best.min(started.elapsed().as_secs_f64());
    }
    let cells = map
        .movement_range(start, 1, profile, BUDGET, &options)
        .unwrap()
        .cells()
        .len();
    println!(
        "probe: best of {repeats} {:.1} us for {cells} anchors",
        best * 1e6
    );
}

fn main() {
    let rounds: usize = (std::env::args().nth(1))
        .and_then(|text| text.parse().ok())
        .unwrap_or(5);
    println!("| map, profile, size | anchors in range | range | per anchor | listing the cells | bounded field | range / field |");
    println!("|---|---|---|---|---|---|---|");
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let file = read_map(&dir.join("AR0011SR.map")).unwrap();
    let mut arena = PathMap::new(file.grid);
    arena.set_profile(movingai_profile()).unwrap();
    let generated = generated::generated_map(&mut generated::Lcg(0x5EED));
    if let Ok(repeats) = std::env::var("RANGE_PROBE") {
        let repeats = repeats.parse().unwrap_or(200);
        return match std::env::var("RANGE_PROBE_PROFILE") {
            Ok(profile) => probe(&generated, &profile, repeats),
            Err(_) => probe(&arena, MOVINGAI_PROFILE, repeats),
        };
    }
    if std::env::var_os("RANGE_UNITS_ONLY").is_none() {
        for size in [1, 3] {
            case("AR0011SR", &arena, MOVINGAI_PROFILE, size, rounds);
            case("generated 1024 x 1024", &generated, "soldier", size, rounds);
            case("generated 1024 x 1024", &generated, "tank", size, rounds);
        }
    }
    tactics_turns(generated, rounds);
}

/// A tactics game's turn: 40 units stand on the generated map, and each in turn asks for its
/// range of 6 movement points with the others blocking (naming itself as the moving unit),
/// as a game does to show where the selected unit can go. The mean time per range of the
/// fastest round. `RANGE_UNITS_ONLY=1` runs this row alone.
fn tactics_turns(mut map: PathMap, rounds: usize) {
    let mut cells = starts(&map, "soldier", 1, &mut generated::Lcg(41));
    cells.extend(starts(&map, "soldier", 1, &mut generated::Lcg(43)));
    let units: Vec<(i64, Cell, i64)> = (cells.iter().enumerate())
        .map(|(id, &cell)| (id as i64, cell, 1))
        .collect();
    map.place_units(&units).unwrap();
    let mut best = f64::MAX;
    let mut anchors = 0;
    for _ in 0..=rounds {
        let started = Instant::now();
        anchors = 0;
        for &(id, anchor, _) in &units {
            let options = RangeOptions::new()
                .other_units(clearance_core::OtherUnits::Block)
                .moving_unit(id);
            let range = map.movement_range(anchor, 1, "soldier", 6.0, &options);
            anchors += range.map_or(0, |range| range.cells().len());
        }
        best = best.min(started.elapsed().as_secs_f64());
    }
    let per_range = best / units.len() as f64;
    println!();
    println!("| a tactics turn on the generated 1024 x 1024 map | anchors in range | range |");
    println!("|---|---|---|");
    println!(
        "| {} units, each its range of 6 points, the others blocking | {:.0} | {:.1} us |",
        units.len(),
        anchors as f64 / units.len() as f64,
        per_range * 1e6
    );
}
