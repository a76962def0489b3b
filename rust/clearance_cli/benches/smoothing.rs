//! Taut waypoints: what smoothing adds to a query, paired in one run.
//!
//! Run: `cargo bench -p clearance_cli --bench smoothing` (optionally `-- ROUNDS`, default 5).
//!
//! For the scenarios of AcrosstheCape (768 x 768) and arena2 (281 x 209), agent sizes 1 and
//! 3, `auto` search (stored rays): the mean query time with `Smoothing::Off` and with
//! `Smoothing::Taut`, on one scratch, their ratio, and the time smoothing adds per path
//! found; the target is a mean ratio of at most 1.10 over the four. Beside them, over the
//! paths found: the mean number of anchors and of waypoints, and the mean Euclidean length of
//! the waypoints against the grid path's and against the true any-angle optimum. The
//! scenarios give grid optima only, so the optimum is computed here, by a visibility graph
//! that shares no code with the engine (`support/any_angle.rs`); it also checks every segment
//! the engine returns, and that no optimum exceeds the waypoints' length.
//!
//! The two settings are paired closely, because this machine's speed drifts by more than
//! smoothing costs within a fraction of a second: each round runs the scenarios in chunks of
//! 64 (`SMOOTHING_CHUNK=N` to change it; a chunk larger than the map's scenarios alternates
//! whole rounds), both settings on each chunk, each setting first on every other chunk. Times
//! are means of the timed rounds after one warm-up round. Each timed round also gives a ratio
//! of its own; the smallest, the median and the largest show how far the machine drifted
//! between rounds, and the median, which one slow round does not move, is summed up beside the
//! mean.
//!
//! `SMOOTHING_MAP=arena2` (or `AcrosstheCape`) measures one map alone, for a profiler.
//! `SMOOTHING_UNITS=N` places `N` units of sizes 1 to 3 at pseudo-random legal anchors and
//! makes every query count them with `OtherUnits::Block` (both settings), so smoothing also
//! keeps clear of them; `SMOOTHING_UNITS_COST=M` counts them by cost `M` instead.
//!
//! Two more rows, outside the target's mean, measure weighted ground, where most segments are
//! held to a multiplier bound and tested cell by cell rather than on bits: the generated
//! 512 x 512 map of the live-map bench (walls, and swamp at 2.5 for its `soldier` profile),
//! 1000 pseudo-random queries (`SMOOTHING_MAP=generated` measures it alone).

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, MOVINGAI_PROFILE};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{Cell, OtherUnits, PathMap, PathQuery, SearchScratch, Smoothing};
use std::collections::HashSet;
use std::hint::black_box;
use std::time::Instant;

#[path = "support/any_angle.rs"]
mod any_angle;
#[path = "../../clearance_core/benches/support/generated.rs"]
mod generated;
#[path = "support/scatter.rs"]
mod scatter;
#[path = "../../clearance_core/benches/support/statistics.rs"]
mod statistics;
use statistics::median;

/// One map and size: the paired times and what the smoothed paths look like.
struct Measured {
    off_us: f64,
    taut_us: f64,
    /// Each timed round's ratio taut / off, sorted.
    round_ratios: Vec<f64>,
    /// The median of `round_ratios`.
    median_round_ratio: f64,
    paths: usize,
    anchors: f64,
    waypoints: f64,
    /// Mean over paths of waypoint length / grid path length.
    length_ratio: f64,
    grid_length: f64,
    waypoint_length: f64,
    /// Over the paths found, the mean any-angle optimum and the mean ratio of waypoint length
    /// to it, when the optimum was computed.
    optimum: Option<(f64, f64)>,
}

/// How the two settings are timed against each other.
#[derive(Clone, Copy)]
struct Timing {
    /// Timed rounds, after one warm-up round.
    rounds: usize,
    /// Queries a setting runs before the other runs the same ones.
    chunk: usize,
}

/// The query from `start` to `goal` for `size` with `profile`, with `smoothing`, counting
/// other units by `others`.
fn query(
    start: Cell,
    goal: Cell,
    (size, profile): (i64, &str),
    smoothing: Smoothing,
    others: OtherUnits,
) -> PathQuery<'_> {
    PathQuery::new(start, goal, size, profile)
        .smoothing(smoothing)
        .other_units(others)
}

fn measure(
    map: &PathMap,
    queries: &[(Cell, Cell)],
    agent: (i64, &str),
    timing: Timing,
    others: OtherUnits,
    visibility: Option<&any_angle::VisibilityGraph>,
) -> Measured {
    let rounds = timing.rounds;
    let size = agent.0;
    let mut scratch = SearchScratch::new();
    let mut seconds = [0.0f64; 2];
    let mut round_ratios = Vec::with_capacity(rounds);
    let choices = [Smoothing::Off, Smoothing::Taut];
    for round in 0..=rounds {
        let mut this_round = [0.0f64; 2];
        for (index, part) in queries.chunks(timing.chunk).enumerate() {
            // Each setting goes first on every other chunk, so neither always finds the
            // caches warmed by the other's run of the same queries.
            let order = if index % 2 == 0 { [0, 1] } else { [1, 0] };
            for slot in order {
                let started = Instant::now();
                for &(start, goal) in part {
                    let query = query(start, goal, agent, choices[slot], others);
                    black_box(map.query_with(&mut scratch, &query));
                }
                this_round[slot] += started.elapsed().as_secs_f64();
            }
        }
        if round > 0 {
            seconds[0] += this_round[0];
            seconds[1] += this_round[1];
            round_ratios.push(this_round[1] / this_round[0]);
        }
    }
    // Sorts the ratios too, for the least and the most round.
    let median_round_ratio = median(&mut round_ratios);
    let per_query = |slot: usize| seconds[slot] * 1e6 / (rounds * queries.len()) as f64;
    let mut measured = Measured {
        off_us: per_query(0),
        taut_us: per_query(1),
        round_ratios,
        median_round_ratio,
        paths: 0,
        anchors: 0.0,
        waypoints: 0.0,
        length_ratio: 0.0,
        grid_length: 0.0,
        waypoint_length: 0.0,
        optimum: visibility.map(|_| (0.0, 0.0)),
    };
    for &(start, goal) in queries {
        let result = map.query_with(
            &mut scratch,
            &query(start, goal, agent, Smoothing::Taut, others),
        );
        if result.path.len() < 2 {
            continue;
        }
        measured.paths += 1;
        measured.anchors += result.path.len() as f64;
        measured.waypoints += result.waypoints.len() as f64;
        measured.grid_length += result.path_length();
        measured.waypoint_length += result.waypoint_length();
        measured.length_ratio += result.waypoint_length() / result.path_length();
        if let (Some(graph), Some((optimum, ratio))) = (visibility, measured.optimum.as_mut()) {
            let point = |cell: &Cell| (i64::from(cell.x), i64::from(cell.y));
            // The yardstick tests the engine too: every segment it returns is a legal move.
            for pair in result.waypoints.windows(2) {
                let (from, to) = (point(&pair[0]), point(&pair[1]));
                assert!(
                    graph.map().move_is_clear(size, from, to),
                    "size {size}: the segment {from:?} -> {to:?} meets a blocked cell"
                );
            }
            let found = graph
                .shortest(point(&start), point(&goal))
                .expect("the engine found a path, so an any-angle one exists");
            assert!(
                found <= result.waypoint_length() + 1e-9,
                "size {size}, {start:?} -> {goal:?}: optimum {found} above the waypoints' {}",
                result.waypoint_length()
            );
            *optimum += found;
            *ratio += result.waypoint_length() / found;
        }
    }
    let paths = measured.paths.max(1) as f64;
    measured.anchors /= paths;
    measured.waypoints /= paths;
    measured.grid_length /= paths;
    measured.waypoint_length /= paths;
    measured.length_ratio /= paths;
    if let Some((optimum, ratio)) = measured.optimum.as_mut() {
        *optimum /= paths;
        *ratio /= paths;
    }
    measured
}

fn main() {
    let rounds = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse::<usize>().ok())
        .unwrap_or(5)
        .max(1);
    let chunk = (std::env::var("SMOOTHING_CHUNK").ok())
        .and_then(|chunk| chunk.parse::<usize>().ok())
        .unwrap_or(64)
        .max(1);
    let timing = Timing { rounds, chunk };
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let mut ratios = Vec::new();
    let mut medians = Vec::new();
    // Query time summed over every scenario of every row, off and taut.
    let mut pooled = [0.0f64; 2];
    let only = std::env::var("SMOOTHING_MAP").ok();
    // The any-angle optimum is computed after the timed rounds, on every map by default (about
    // half a minute for AcrosstheCape's two sizes); `SMOOTHING_OPTIMUM=arena2` computes it on
    // that map only, `none` on none.
    let optimum_on = std::env::var("SMOOTHING_OPTIMUM").unwrap_or_else(|_| "all".to_owned());
    let units: usize = (std::env::var("SMOOTHING_UNITS").ok())
        .and_then(|count| count.parse().ok())
        .unwrap_or(0);
    let cost = std::env::var("SMOOTHING_UNITS_COST").ok();
    let others = match cost.and_then(|cost| cost.parse().ok()) {
        _ if units == 0 => OtherUnits::Ignore,
        Some(multiplier) => OtherUnits::cost(multiplier).expect("a valid multiplier"),
        None => OtherUnits::Block,
    };
    for name in ["AcrosstheCape", "arena2"] {
        if only.as_deref().is_some_and(|only| only != name) {
            continue;
        }
        if ratios.is_empty() {
            print_header();
        }
        let file = read_map(&dir.join(format!("{name}.map"))).unwrap();
        let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &file).unwrap();
        let queries: Vec<(Cell, Cell)> =
            problems.iter().map(|problem| problem.endpoints()).collect();
        let mut map = PathMap::new(file.grid);
        map.set_profile(movingai_profile()).unwrap();
        let placed = scatter::scatter(&map, &mut generated::Lcg(0x5EED), units, 0, &HashSet::new());
        map.place_units(&placed).unwrap();
        let blocked = (optimum_on == "all" || optimum_on == name)
            .then(|| any_angle::BlockedMap::read(&dir.join(format!("{name}.map"))));
        for size in [1, 3] {
            // Units change what is legal; the yardstick knows the terrain only.
            let visibility = (blocked.as_ref()).filter(|_| units == 0).map(|blocked| {
                let started = Instant::now();
                let graph = any_angle::VisibilityGraph::new(blocked, size);
                eprintln!(
                    "{name}, size {size}: visibility graph of {} corners in {:.1} s",
                    graph.corner_count(),
                    started.elapsed().as_secs_f64()
                );
                graph
            });
            let agent = (size, MOVINGAI_PROFILE);
            let m = measure(&map, &queries, agent, timing, others, visibility.as_ref());
            let ratio = print_row(name, size, queries.len(), &m);
            ratios.push(ratio);
            medians.push(m.median_round_ratio);
            pooled[0] += m.off_us * queries.len() as f64;
            pooled[1] += m.taut_us * queries.len() as f64;
        }
    }
    if !ratios.is_empty() {
        let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
        let target = if units > 0 {
            format!("with {units} units counted by {others:?}; the target is for none")
        } else {
            "target: at most 1.10x".to_owned()
        };
        println!("\nMean time ratio taut / off over the rows: {mean:.3}x ({target})");
        println!(
            "Mean over the rows of the median round's ratio: {:.3}x",
            medians.iter().sum::<f64>() / medians.len() as f64
        );
        println!(
            "Pooled over every scenario (each query weighs the same): {:.3}x",
            pooled[1] / pooled[0]
        );
    }
    if only.as_deref().is_none_or(|only| only == "generated") {
        weighted_rows(timing, others, units);
    }
}

/// The rows on weighted ground (see the module docs), with `units` scattered units counted
/// by `others`.
fn weighted_rows(timing: Timing, others: OtherUnits, units: usize) {
    let mut rng = generated::Lcg(7);
    let mut map = generated::generated_map_of_side(&mut rng, 512);
    let placed = scatter::scatter(&map, &mut generated::Lcg(0x5EED), units, 0, &HashSet::new());
    map.place_units(&placed).unwrap();
    let mut anchor = || Cell::new(rng.below(512), rng.below(512));
    let queries: Vec<(Cell, Cell)> = (0..1000).map(|_| (anchor(), anchor())).collect();
    println!("\nWeighted ground, outside the target:\n");
    print_header();
    for size in [1, 3] {
        let m = measure(&map, &queries, (size, "soldier"), timing, others, None);
        print_row("generated 512, swamp 2.5", size, queries.len(), &m);
    }
}

/// Prints the row of `name` and `size` for `queries` queries measured as `m`; returns its
/// ratio taut / off.
fn print_row(name: &str, size: i64, queries: usize, m: &Measured) -> f64 {
    let (optimum, over_optimum) = match m.optimum {
        Some((optimum, ratio)) => (format!("{optimum:.2}"), format!("{ratio:.4}")),
        None => ("-".to_owned(), "-".to_owned()),
    };
    let ratio = m.taut_us / m.off_us;
    // Failed queries have no path to smooth, so the time smoothing adds is spread over the
    // paths found.
    let added = (m.taut_us - m.off_us) * queries as f64 / m.paths.max(1) as f64;
    let spread = format!(
        "{:.3}x / {:.3}x / {:.3}x",
        m.round_ratios[0],
        m.median_round_ratio,
        m.round_ratios[m.round_ratios.len() - 1]
    );
    println!(
        "| {name} | {size} | {queries} ({}) | {:.1} us | {:.1} us | {ratio:.3}x | {spread} | {added:.2} us | {:.1} | {:.2} | {:.2} | {:.2} | {:.4} | {optimum} | {over_optimum} |",
        m.paths,
        m.off_us,
        m.taut_us,
        m.anchors,
        m.waypoints,
        m.grid_length,
        m.waypoint_length,
        m.length_ratio,
    );
    ratio
}

/// The header of a table of rows.
fn print_header() {
    println!("| map | size | queries (paths) | off | taut | ratio | rounds' ratios: least / median / most | added per path | anchors | waypoints | grid length | waypoint length | mean ratio | any-angle optimum | waypoints / optimum |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
}
