//! `clearance`: find paths for agents of any size on Moving AI maps, check scenario files
//! against their published optima, and render maps, without Godot.

use clap::{Args, Parser, Subcommand};
use clearance_cli::draw::draw_path;
use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, MovingAiMap};
use clearance_cli::profiles::read_profiles;
use clearance_cli::render::{write_png, Picture};
use clearance_cli::CliError;
use clearance_core::{
    checked_agent_size, Cell, FieldValue, LandmarkPlacement, Movement, PathCode, PathMap,
    PathQuery, PathResult, MAX_AGENT_SIZE,
};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "clearance", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Find an optimal path and print it drawn on the map (footprints marked `*`).
    Path {
        /// A Moving AI `.map` file.
        map: PathBuf,
        /// Start anchor (top-left cell of the footprint), as X,Y.
        #[arg(long, value_parser = parse_cell)]
        from: Cell,
        /// Goal anchor, as X,Y.
        #[arg(long, value_parser = parse_cell)]
        to: Cell,
        #[command(flatten)]
        agent: AgentArgs,
        /// Print one JSON object instead of the drawing.
        #[arg(long)]
        json: bool,
    },
    /// Run every problem of a Moving AI scenario file (8-way, size 1, no corner cutting) and
    /// check each cost against the published optimum. Exits 0 only if all match.
    Scen {
        /// The `.map` file the scenarios refer to.
        map: PathBuf,
        /// The `.scen` file.
        scen: PathBuf,
        /// Landmarks for the differential heuristic (0 to 64), placed farthest-point.
        #[arg(long, default_value_t = 0)]
        landmarks: usize,
        /// Print one JSON object instead of the summary.
        #[arg(long)]
        json: bool,
    },
    /// Write a PNG of terrain, a clearance heat map and (with --from and --to) a path.
    Render {
        /// A Moving AI `.map` file.
        map: PathBuf,
        /// The PNG file to write.
        #[arg(long)]
        out: PathBuf,
        /// Start anchor, as X,Y.
        #[arg(long, value_parser = parse_cell, requires = "to")]
        from: Option<Cell>,
        /// Goal anchor, as X,Y.
        #[arg(long, value_parser = parse_cell, requires = "from")]
        to: Option<Cell>,
        /// Pixels per cell (default: as many as keep the picture within 1024 pixels).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=64))]
        scale: Option<u16>,
        #[command(flatten)]
        agent: AgentArgs,
    },
}

#[derive(Args)]
struct AgentArgs {
    /// Agent size: the side of its square footprint, 1 to 255.
    #[arg(long, default_value_t = 1)]
    size: i64,
    /// Profile name: `movingai` (`.`, `G`, `S` at cost 1) or one from --profiles.
    #[arg(long, default_value = "movingai")]
    profile: String,
    /// A JSON file of named profiles: {"profiles": {"tank": {"costs": {".": 1.0, "S": 3.0}}}}.
    #[arg(long)]
    profiles: Option<PathBuf>,
    /// Move in 4 directions instead of 8.
    #[arg(long)]
    four_way: bool,
    /// Landmarks for the differential heuristic (0 to 64), placed farthest-point.
    #[arg(long, default_value_t = 0)]
    landmarks: usize,
    /// If the goal cannot be reached, show the path to the reachable anchor nearest to it
    /// (code PARTIAL_PATH; the exit status stays 1).
    #[arg(long)]
    partial: bool,
    /// Give up after expanding this many anchors (code SEARCH_LIMIT_REACHED).
    #[arg(long)]
    max_expansions: Option<u64>,
}

impl AgentArgs {
    fn query(&self, from: Cell, to: Cell) -> PathQuery<'_> {
        PathQuery {
            max_expansions: self.max_expansions,
            ..PathQuery::new(from, to, self.size, &self.profile).allow_partial_path(self.partial)
        }
    }
}

fn parse_cell(text: &str) -> Result<Cell, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("expected X,Y, got {text:?}"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<i32>()
            .map_err(|_| format!("{part:?} in {text:?} is not an integer"))
    };
    Ok(Cell::new(number(x)?, number(y)?))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Path {
            map,
            from,
            to,
            agent,
            json,
        } => run_path(&map, from, to, &agent, json),
        Command::Scen {
            map,
            scen,
            landmarks,
            json,
        } => run_scen(&map, &scen, landmarks, json),
        Command::Render {
            map,
            out,
            from,
            to,
            scale,
            agent,
        } => run_render(&map, &out, from.zip(to), scale, &agent),
    };
    match outcome {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// Loads the map and registers the default and any file's profiles.
fn load(path: &Path, agent: &AgentArgs) -> Result<(MovingAiMap, PathMap), CliError> {
    let map = read_map(path)?;
    let movement = if agent.four_way {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    let mut path_map = PathMap::new(map.grid.clone()).with_movement(movement);
    path_map
        .set_profile(movingai_profile())
        .expect("the built-in profile has a name");
    if let Some(file) = &agent.profiles {
        for profile in read_profiles(file)? {
            path_map
                .set_profile(profile)
                .expect("profile files reject empty names");
        }
    }
    set_landmarks(&mut path_map, agent.landmarks)?;
    if path_map.profile(&agent.profile).is_none() {
        let mut known: Vec<&str> = path_map.profiles().map(|p| p.name()).collect();
        known.sort_unstable();
        return Err(CliError::Usage(format!(
            "unknown profile {:?}; known profiles: {}",
            agent.profile,
            known.join(", ")
        )));
    }
    Ok((map, path_map))
}

fn set_landmarks(map: &mut PathMap, count: usize) -> Result<(), CliError> {
    let placement = if count == 0 {
        LandmarkPlacement::None
    } else {
        LandmarkPlacement::Farthest(count)
    };
    map.set_landmarks(placement)
        .map_err(|error| CliError::Usage(format!("--landmarks: {error}")))
}

fn run_path(
    map_file: &Path,
    from: Cell,
    to: Cell,
    agent: &AgentArgs,
    json: bool,
) -> Result<ExitCode, CliError> {
    let (map, path_map) = load(map_file, agent)?;
    let result = path_map.query(&agent.query(from, to));
    if json {
        println!("{}", result_json(&result));
    } else {
        if !result.path.is_empty() {
            print!("{}", draw_path(&map.grid, &result.path, agent.size as i32));
        }
        println!("{}", describe(&result, from, to, agent));
    }
    Ok(if result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The result as one JSON object: a key for each of [`PathResult::fields`], named by
/// [`ResultField::name`](clearance_core::ResultField::name).
fn result_json(result: &PathResult) -> serde_json::Value {
    let fields = result
        .fields()
        .map(|(field, value)| (field.name().to_owned(), field_json(value)))
        .collect();
    serde_json::Value::Object(fields)
}

/// A field's value in JSON: counts as integers, the cost as a float, anchors as `[x, y]` pairs.
fn field_json(value: FieldValue<'_>) -> serde_json::Value {
    match value {
        FieldValue::Flag(flag) => json!(flag),
        FieldValue::Text(text) => json!(text),
        FieldValue::Anchors(anchors) => json!(anchors
            .iter()
            .map(|anchor| [anchor.x, anchor.y])
            .collect::<Vec<_>>()),
        FieldValue::Number(number) => json!(number),
        FieldValue::Count(count) => json!(count),
    }
}

fn describe(result: &PathResult, from: Cell, to: Cell, agent: &AgentArgs) -> String {
    let what = format!(
        "size {} ({}) from ({}, {}) to ({}, {})",
        agent.size, agent.profile, from.x, from.y, to.x, to.y
    );
    match result.code {
        PathCode::Ok => format!(
            "OK: {what}: {} steps, cost {:.4}, {} anchors expanded",
            result.path.len() - 1,
            result.total_cost(),
            result.expanded
        ),
        PathCode::StartClearanceInsufficient | PathCode::GoalClearanceInsufficient => {
            let shortfall = result
                .shortfall
                .unwrap_or(clearance_core::ClearanceShortfall {
                    found: 0,
                    needed: 0,
                });
            format!(
                "{}: {what}: clearance there is {}, the agent needs {}",
                result.code, shortfall.found, shortfall.needed
            )
        }
        PathCode::NoPath => format!(
            "NO_PATH: {what}: no legal route ({} anchors expanded)",
            result.expanded
        ),
        PathCode::PartialPath => format!(
            "PARTIAL_PATH: {what}: the goal cannot be reached; {} steps to ({}, {}), the nearest reachable anchor, cost {:.4}",
            result.path.len().saturating_sub(1),
            result.path.last().map_or(0, |cell| cell.x),
            result.path.last().map_or(0, |cell| cell.y),
            result.total_cost()
        ),
        code => format!("{code}: {what}"),
    }
}

fn run_scen(
    map_file: &Path,
    scen_file: &Path,
    landmarks: usize,
    json: bool,
) -> Result<ExitCode, CliError> {
    let map = read_map(map_file)?;
    let problems = read_scenario(scen_file, &map)?;
    let mut path_map = PathMap::new(map.grid.clone());
    path_map
        .set_profile(movingai_profile())
        .expect("the built-in profile has a name");
    set_landmarks(&mut path_map, landmarks)?;
    let build_started = Instant::now();
    path_map.prepare("movingai", 1);
    let build_micros = build_started.elapsed().as_secs_f64() * 1e6;
    let bake_started = Instant::now();
    let landmark_stats = path_map.bake_landmarks("movingai");
    let bake_micros = bake_started.elapsed().as_secs_f64() * 1e6;
    let landmark_bytes = landmark_stats.as_ref().map_or(0, |stats| stats.bytes);

    let mut micros = Vec::with_capacity(problems.len());
    let mut expanded = 0u64;
    let mut mismatches = Vec::new();
    for problem in &problems {
        let start = Cell::new(problem.start.0, problem.start.1);
        let goal = Cell::new(problem.goal.0, problem.goal.1);
        let started = Instant::now();
        let result = path_map.find_path(start, goal, 1, "movingai");
        micros.push(started.elapsed().as_secs_f64() * 1e6);
        expanded += result.expanded;
        let cost = result.is_ok().then(|| result.total_cost());
        let matches =
            cost.is_some_and(|cost| (cost - problem.optimal).abs() <= problem.tolerance());
        if !matches {
            mismatches.push((problem.line, problem.optimal, result.code, cost));
        }
    }
    let count = problems.len().max(1) as f64;
    let mean = micros.iter().sum::<f64>() / count;
    micros.sort_by(f64::total_cmp);
    let median = micros.get(micros.len() / 2).copied().unwrap_or(0.0);
    let mean_expanded = expanded as f64 / count;
    if json {
        let value = json!({
            "map": map_file.display().to_string(),
            "scenario": scen_file.display().to_string(),
            "problems": problems.len(),
            "mismatches": mismatches.len(),
            "mean_us": mean,
            "median_us": median,
            "mean_expanded": mean_expanded,
            "clearance_build_us": build_micros,
            "landmarks": landmarks,
            "landmark_build_us": bake_micros,
            "landmark_bytes": landmark_bytes,
            "mismatched_lines": mismatches.iter().map(|m| m.0).collect::<Vec<_>>(),
        });
        println!("{value}");
    } else {
        for (line, optimal, code, cost) in mismatches.iter().take(20) {
            match cost {
                Some(cost) => println!(
                    "MISMATCH {}:{line}: optimal {optimal}, found {cost:.8}",
                    scen_file.display()
                ),
                None => println!(
                    "MISMATCH {}:{line}: optimal {optimal}, found {code}",
                    scen_file.display()
                ),
            }
        }
        let landmark_note = if landmarks > 0 {
            format!(
                "; {landmarks} landmarks built in {bake_micros:.0} us ({} KiB)",
                landmark_bytes / 1024
            )
        } else {
            String::new()
        };
        println!(
            "{}: {} problems, {} mismatches; mean {mean:.1} us, median {median:.1} us per query; \
             mean {mean_expanded:.0} anchors expanded; layers built in {build_micros:.0} us\
             {landmark_note}",
            scen_file.display(),
            problems.len(),
            mismatches.len(),
        );
    }
    Ok(if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn run_render(
    map_file: &Path,
    out: &Path,
    endpoints: Option<(Cell, Cell)>,
    scale: Option<u16>,
    agent: &AgentArgs,
) -> Result<ExitCode, CliError> {
    let (map, path_map) = load(map_file, agent)?;
    let agent_size = checked_agent_size(agent.size).ok_or_else(|| {
        CliError::Usage(format!(
            "--size {} is not from 1 to {MAX_AGENT_SIZE}",
            agent.size
        ))
    })?;
    let mut path = Vec::new();
    let mut status = ExitCode::SUCCESS;
    if let Some((from, to)) = endpoints {
        let result = path_map.query(&agent.query(from, to));
        println!("{}", describe(&result, from, to, agent));
        if !result.is_ok() {
            status = ExitCode::FAILURE;
        }
        path = result.path;
    }
    let clearance = path_map.clearance_layer(&agent.profile).ok_or_else(|| {
        CliError::Usage(format!(
            "the clearance layer of {} would exceed the cache memory limit",
            agent.profile
        ))
    })?;
    let longest_side = map.grid.width().max(map.grid.height());
    let scale = scale.map_or((1024 / longest_side).clamp(1, 16), usize::from);
    let picture = Picture {
        grid: &map.grid,
        clearance: clearance.values(),
        agent_size,
        path: &path,
    };
    write_png(&picture, scale, out)?;
    println!("wrote {}", out.display());
    Ok(status)
}
