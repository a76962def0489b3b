//! `clearance scen`: every problem of a Moving AI scenario file, each cost checked against
//! the published optimum, with query times and expansion counts.

use super::occupancy::OccupancyArgs;
use super::{exit_status, movingai_path_map, LandmarkArgs, SearchArgs};
use clap::Args;
use clearance_cli::movingai::{read_map, read_scenario, MovingAiMap, Problem, MOVINGAI_PROFILE};
use clearance_cli::CliError;
use clearance_core::{Movement, PathCode, PathMap, PathQuery, PathResult};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// How many mismatches the text summary lists (the JSON lists every mismatched line).
const LISTED_MISMATCHES: usize = 20;

/// `clearance scen`: the map, the scenario file, and the landmarks.
#[derive(Args)]
pub struct ScenArgs {
    /// The `.map` file the scenarios refer to.
    map: PathBuf,
    /// The `.scen` file.
    scen: PathBuf,
    #[command(flatten)]
    landmarks: LandmarkArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    occupancy: OccupancyArgs,
    /// Print one JSON object instead of the summary.
    #[arg(long)]
    json: bool,
}

/// Runs every problem (size 1, 8-way, Moving AI's profile; the units of `--units`, placed once,
/// counted by `--others` in every query) and prints the summary or one JSON object. Exits 0
/// only if every cost matches.
pub fn run(args: &ScenArgs) -> Result<ExitCode, CliError> {
    let map = read_map(&args.map)?;
    let problems = read_scenario(&args.scen, &map)?;
    let prepared = Prepared::new(&map, &args.landmarks, &args.occupancy)?;
    let solved = Solved::new(&prepared.path_map, &problems, args);
    if args.json {
        say!("{}", report_json(args, &prepared, &solved));
    } else {
        print_report(args, &prepared, &solved)?;
    }
    Ok(exit_status(solved.mismatches.is_empty()))
}

/// The path map with its units, and its size-1 layers and landmark tables built before any
/// query, so that query times leave them out, and how long each build took.
struct Prepared {
    path_map: PathMap,
    units: usize,
    layers_micros: f64,
    landmarks_micros: f64,
    landmark_bytes: usize,
}

impl Prepared {
    fn new(
        map: &MovingAiMap,
        landmarks: &LandmarkArgs,
        occupancy: &OccupancyArgs,
    ) -> Result<Self, CliError> {
        let mut path_map = movingai_path_map(map, Movement::EightWay);
        landmarks.set_on(&mut path_map)?;
        let units = occupancy.place_on(&mut path_map)?.len();
        let (_, layers_micros) = timed(|| path_map.prepare(MOVINGAI_PROFILE, 1));
        let (stats, landmarks_micros) = timed(|| landmarks.bake(&path_map, MOVINGAI_PROFILE));
        Ok(Prepared {
            path_map,
            units,
            layers_micros,
            landmarks_micros,
            landmark_bytes: stats.map_or(0, |stats| stats.bytes),
        })
    }
}

/// A problem whose cost differs from the published optimum, or that found no path.
struct Mismatch {
    line: usize,
    optimal: f64,
    code: PathCode,
    /// The cost found, with a path.
    cost: Option<f64>,
}

impl Mismatch {
    /// The mismatch, if `result` does not match `problem`'s optimum within its tolerance.
    fn check(problem: &Problem, result: &PathResult) -> Option<Mismatch> {
        let cost = result.is_ok().then(|| result.total_cost());
        let matches =
            cost.is_some_and(|cost| (cost - problem.optimal).abs() <= problem.tolerance());
        (!matches).then_some(Mismatch {
            line: problem.line,
            optimal: problem.optimal,
            code: result.code,
            cost,
        })
    }

    /// What was found instead of the optimum: the cost, or the code without a path.
    fn found(&self) -> String {
        match self.cost {
            Some(cost) => format!("{cost:.8}"),
            None => self.code.to_string(),
        }
    }
}

/// What running every problem found.
struct Solved {
    problems: usize,
    mismatches: Vec<Mismatch>,
    mean_micros: f64,
    median_micros: f64,
    mean_expanded: f64,
}

impl Solved {
    fn new(path_map: &PathMap, problems: &[Problem], args: &ScenArgs) -> Solved {
        let mut micros = Vec::with_capacity(problems.len());
        let mut expanded = 0u64;
        let mut mismatches = Vec::new();
        for problem in problems {
            let (start, goal) = problem.endpoints();
            let query = PathQuery::new(start, goal, 1, MOVINGAI_PROFILE).search(args.search.mode());
            let query = args.occupancy.apply(query);
            let (result, query_micros) = timed(|| path_map.query(&query));
            micros.push(query_micros);
            expanded += result.expanded;
            mismatches.extend(Mismatch::check(problem, &result));
        }
        let count = problems.len().max(1) as f64;
        // Summed from 0.0: an empty `f64` sum is -0.0, which JSON would print as such.
        let mean_micros = micros.iter().fold(0.0, |sum, micros| sum + micros) / count;
        micros.sort_by(f64::total_cmp);
        Solved {
            problems: problems.len(),
            mismatches,
            mean_micros,
            median_micros: micros.get(micros.len() / 2).copied().unwrap_or(0.0),
            mean_expanded: expanded as f64 / count,
        }
    }
}

/// Runs `work` and says how long it took, in microseconds.
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let started = Instant::now();
    let value = work();
    (value, started.elapsed().as_secs_f64() * 1e6)
}

/// The totals and times as one JSON object, with every mismatched line (and, with `--units`,
/// how many units stood on the map and the rule they were counted by).
fn report_json(args: &ScenArgs, prepared: &Prepared, solved: &Solved) -> serde_json::Value {
    let mut report = json!({
        "map": args.map.display().to_string(),
        "scenario": args.scen.display().to_string(),
        "problems": solved.problems,
        "mismatches": solved.mismatches.len(),
        "mean_us": solved.mean_micros,
        "median_us": solved.median_micros,
        "mean_expanded": solved.mean_expanded,
        "search": args.search.mode().as_str(),
        "clearance_build_us": prepared.layers_micros,
        "landmarks": args.landmarks.count(),
        "landmark_build_us": prepared.landmarks_micros,
        "landmark_bytes": prepared.landmark_bytes,
        "mismatched_lines": solved.mismatches.iter().map(|m| m.line).collect::<Vec<_>>(),
    });
    if args.occupancy.has_units() {
        report["units"] = json!(prepared.units);
        report["others"] = json!(args.occupancy.rule().name());
    }
    report
}

/// The first mismatches, one line each, then a line of totals and times.
fn print_report(args: &ScenArgs, prepared: &Prepared, solved: &Solved) -> Result<(), CliError> {
    let scen = args.scen.display();
    for mismatch in solved.mismatches.iter().take(LISTED_MISMATCHES) {
        say!(
            "MISMATCH {scen}:{}: optimal {}, found {}",
            mismatch.line,
            mismatch.optimal,
            mismatch.found()
        );
    }
    let landmark_note = if args.landmarks.count() > 0 {
        format!(
            "; {} landmarks built in {:.0} us ({} KiB)",
            args.landmarks.count(),
            prepared.landmarks_micros,
            prepared.landmark_bytes / 1024
        )
    } else {
        String::new()
    };
    let units_note = if args.occupancy.has_units() {
        format!(
            "; {} units on the map (others: {})",
            prepared.units,
            args.occupancy.rule().name()
        )
    } else {
        String::new()
    };
    say!(
        "{scen}: {} problems, {} mismatches; mean {:.1} us, median {:.1} us per query; \
         mean {:.0} anchors expanded; layers built in {:.0} us{landmark_note}{units_note}",
        solved.problems,
        solved.mismatches.len(),
        solved.mean_micros,
        solved.median_micros,
        solved.mean_expanded,
        prepared.layers_micros,
    );
    Ok(())
}
