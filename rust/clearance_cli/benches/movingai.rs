//! Benchmarks on the shared Moving AI maps: this engine against the `pathfinding` crate's A*,
//! on the same grid, queries and heuristic, in the same run.
//!
//! Run: `cargo bench -p clearance_cli --bench movingai` (optionally `-- ROUNDS`, default 5).
//! Prints a Markdown table; times are per query, after one warm-up round.

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, Problem};
use clearance_cli::shared_data::{movingai_dir, MAPS};
use clearance_core::{
    Cell, LandmarkPlacement, PathMap, SearchScratch, TerrainGrid, COST_SCALE, DIAGONAL_STEP,
    MULTIPLIER_SCALE, STRAIGHT_STEP,
};
use std::cell::Cell as Counter;
use std::hint::black_box;
use std::time::Instant;

#[path = "../../clearance_core/benches/support/statistics.rs"]
mod statistics;
use statistics::median;

struct Timing {
    mean_us: f64,
    median_us: f64,
    expanded: f64,
    queries: usize,
}

impl Timing {
    fn from(samples: &mut [f64], expanded: u64, queries: usize) -> Timing {
        Timing {
            mean_us: samples.iter().sum::<f64>() / samples.len().max(1) as f64,
            median_us: median(samples),
            expanded: expanded as f64 / queries.max(1) as f64,
            queries,
        }
    }

    fn ns_per_expansion(&self) -> f64 {
        self.mean_us * 1000.0 / self.expanded.max(1.0)
    }
}

fn time_engine(map: &PathMap, problems: &[Problem], size: i64, rounds: usize) -> (Timing, f64) {
    let mut scratch = SearchScratch::new();
    let queries: Vec<(Cell, Cell)> = problems.iter().map(Problem::endpoints).collect();
    let mut samples = Vec::with_capacity(queries.len() * rounds);
    let mut expanded = 0;
    let mut total_cost = 0.0;
    for round in 0..=rounds {
        for &(start, goal) in &queries {
            let started = Instant::now();
            let result = map.find_path_with(&mut scratch, start, goal, size, "movingai");
            let elapsed = started.elapsed().as_secs_f64() * 1e6;
            black_box(&result);
            if round > 0 {
                samples.push(elapsed);
                expanded += result.expanded;
                total_cost += result.total_cost();
            }
        }
    }
    (
        Timing::from(&mut samples, expanded, queries.len() * rounds),
        total_cost,
    )
}

/// The `pathfinding` crate's `astar` on the same graph: 8-way, no corner cutting, the same
/// integer step lengths and octile heuristic. Expansions are counted as successor calls.
fn time_pathfinding_crate(
    grid: &TerrainGrid,
    problems: &[Problem],
    rounds: usize,
) -> (Timing, f64) {
    let (width, height) = (grid.width() as i32, grid.height() as i32);
    let open: Vec<bool> = grid
        .as_bytes()
        .iter()
        .map(|&c| matches!(c, b'.' | b'G' | b'S'))
        .collect();
    let passable = |x: i32, y: i32| {
        x >= 0 && y >= 0 && x < width && y < height && open[(y * width + x) as usize]
    };
    let unit = u64::from(MULTIPLIER_SCALE);
    let mut samples = Vec::new();
    let mut expanded = 0;
    let mut total_cost = 0.0;
    for round in 0..=rounds {
        for problem in problems {
            let goal = problem.goal;
            let calls = Counter::new(0u64);
            let started = Instant::now();
            let result = pathfinding::directed::astar::astar(
                &problem.start,
                |&(x, y)| {
                    calls.set(calls.get() + 1);
                    let mut next: Vec<((i32, i32), u64)> = Vec::with_capacity(8);
                    for (dx, dy) in [
                        (0, -1),
                        (1, 0),
                        (0, 1),
                        (-1, 0),
                        (1, -1),
                        (1, 1),
                        (-1, 1),
                        (-1, -1),
                    ] {
                        let (nx, ny) = (x + dx, y + dy);
                        if !passable(nx, ny) {
                            continue;
                        }
                        if dx != 0 && dy != 0 {
                            if passable(x + dx, y) && passable(x, y + dy) {
                                next.push(((nx, ny), DIAGONAL_STEP * unit));
                            }
                        } else {
                            next.push(((nx, ny), STRAIGHT_STEP * unit));
                        }
                    }
                    next
                },
                |&(x, y)| {
                    let dx = (x - goal.0).unsigned_abs() as u64;
                    let dy = (y - goal.1).unsigned_abs() as u64;
                    (dx.max(dy) * STRAIGHT_STEP + dx.min(dy) * (DIAGONAL_STEP - STRAIGHT_STEP))
                        * unit
                },
                |&cell| cell == goal,
            );
            let elapsed = started.elapsed().as_secs_f64() * 1e6;
            if round > 0 {
                samples.push(elapsed);
                expanded += calls.get();
                total_cost += result.map_or(0.0, |(_, cost)| cost as f64 / COST_SCALE as f64);
            }
        }
    }
    (
        Timing::from(&mut samples, expanded, problems.len() * rounds),
        total_cost,
    )
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(5);
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    println!(
        "Moving AI benchmarks from {} ({rounds} timed rounds after one warm-up)\n",
        dir.display()
    );
    let mut speed = Vec::new();
    let mut landmark_rows = Vec::new();
    let mut size_rows = Vec::new();
    for name in MAPS {
        let map_file = dir.join(format!("{name}.map"));
        let map = read_map(&map_file).unwrap_or_else(|e| panic!("{e}"));
        let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut path_map = PathMap::new(map.grid.clone());
        path_map.set_profile(movingai_profile()).unwrap();
        let build_started = Instant::now();
        path_map.prepare("movingai", 1);
        let build_us = build_started.elapsed().as_secs_f64() * 1e6;
        let cells = map.grid.as_bytes().len();
        let bytes_per_cell = path_map.cache_memory_bytes() as f64 / cells as f64;

        let (ours, our_total) = time_engine(&path_map, &problems, 1, rounds);
        let (theirs, their_total) = time_pathfinding_crate(&map.grid, &problems, rounds);
        assert!(
            (our_total - their_total).abs() < 1e-6 * our_total.max(1.0),
            "{name}: the two engines disagree on total cost ({our_total} vs {their_total})"
        );
        speed.push(format!(
            "| {name} | {} | {:.1} | {:.1} | {:.0} | {:.1} | {:.1} | {:.0} | {:.1} | **{:.1}x** | {build_us:.0} | {bytes_per_cell:.1} |",
            ours.queries / rounds,
            ours.mean_us,
            ours.median_us,
            ours.expanded,
            ours.ns_per_expansion(),
            theirs.mean_us,
            theirs.expanded,
            theirs.ns_per_expansion(),
            theirs.mean_us / ours.mean_us,
        ));

        for count in [0usize, 4, 8, 16] {
            let mut with_landmarks = PathMap::new(map.grid.clone());
            with_landmarks.set_profile(movingai_profile()).unwrap();
            with_landmarks.prepare("movingai", 1);
            let placement = if count == 0 {
                LandmarkPlacement::None
            } else {
                LandmarkPlacement::Farthest(count)
            };
            with_landmarks.set_landmarks(placement).unwrap();
            let bake_started = Instant::now();
            let stats = with_landmarks.bake_landmarks("movingai");
            let bake_ms = bake_started.elapsed().as_secs_f64() * 1e3;
            let (timing, total) = time_engine(&with_landmarks, &problems, 1, rounds);
            assert!(
                (total - our_total).abs() < 1e-6 * total.max(1.0),
                "{name}: landmarks changed costs"
            );
            landmark_rows.push(format!(
                "| {name} | {count} | {:.0} | {:.1}x | {:.1} | {:.1} | {:.1}x | {bake_ms:.1} | {:.0} |",
                timing.expanded,
                ours.expanded / timing.expanded.max(1.0),
                timing.mean_us,
                timing.median_us,
                theirs.mean_us / timing.mean_us,
                stats.map_or(0, |s| s.bytes) as f64 / 1024.0,
            ));
        }

        for size in [2i64, 3] {
            path_map.prepare("movingai", size);
            let legal: Vec<Problem> = problems
                .iter()
                .filter(|p| {
                    let fits = |(x, y): (i32, i32)| {
                        path_map.clearance(Cell::new(x, y), "movingai").unwrap_or(0) as i64 >= size
                    };
                    fits(p.start) && fits(p.goal)
                })
                .cloned()
                .collect();
            if legal.is_empty() {
                size_rows.push(format!("| {name} | {size} | 0 | - | - | - | - | - |"));
                continue;
            }
            let (timing, _) = time_engine(&path_map, &legal, size, rounds);
            size_rows.push(format!(
                "| {name} | {size} | {} | {:.1} | {:.1} | {:.0} | {:.1} | {:.1} |",
                timing.queries / rounds,
                timing.mean_us,
                timing.median_us,
                timing.expanded,
                timing.ns_per_expansion(),
                path_map.cache_memory_bytes() as f64 / cells as f64,
            ));
        }
    }
    println!("Size 1, 8-way, octile heuristic, against the `pathfinding` crate's A* on the same queries:\n");
    println!("| map | queries | ours mean us | ours median us | expanded/query | ns/expansion | pathfinding mean us | its expanded/query | its ns/expansion | speed-up | layer build us | cached bytes/cell |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for row in speed {
        println!("{row}");
    }
    println!("\nLandmarks (farthest-point placement; the speed-up is against the `pathfinding` crate above):\n");
    println!("| map | landmarks | expanded/query | fewer expansions | mean us | median us | speed-up | build ms | table KiB |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for row in landmark_rows {
        println!("{row}");
    }
    println!(
        "\nLarger agents on the same maps (the problems whose start and goal fit the agent):\n"
    );
    println!("| map | size | queries | mean us | median us | expanded/query | ns/expansion | cached bytes/cell (all sizes) |");
    println!("|---|---|---|---|---|---|---|---|");
    for row in size_rows {
        println!("{row}");
    }
}
