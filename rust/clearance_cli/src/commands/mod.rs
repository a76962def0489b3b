//! The subcommands, one module each, and what they share.

/// `println!` (or `print!`, after `raw:`) on standard output, except that a failed write
/// returns [`CliError::Output`] from the enclosing function instead of panicking: piping a
/// long answer into `head` closes standard output early.
macro_rules! say {
    (raw: $($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*).map_err(clearance_cli::CliError::Output)?
    }};
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*).map_err(clearance_cli::CliError::Output)?
    }};
}

pub mod field;
pub mod path;
pub mod range;
pub mod render;
pub mod scen;
pub mod slots;
pub mod straight;

mod agent;
mod occupancy;

use clap::Args;
use clearance_cli::movingai::{movingai_profile, MovingAiMap};
use clearance_cli::progress::ProgressBar;
use clearance_cli::CliError;
use clearance_core::{
    FieldValue, LandmarkPlacement, LandmarkStats, Movement, OtherUnits, PathMap, PathResult,
    SearchMode, Smoothing, UnitId,
};
use serde_json::json;
use std::process::ExitCode;

/// A path map of `map` under `movement`, with the built-in `movingai` profile registered.
fn movingai_path_map(map: &MovingAiMap, movement: Movement) -> PathMap {
    let mut path_map = PathMap::new(map.grid.clone()).with_movement(movement);
    path_map
        .set_profile(movingai_profile())
        .expect("the built-in profile has a name");
    path_map
}

/// `--landmarks`, as `path`, `render` and `scen` take it.
#[derive(Args)]
pub struct LandmarkArgs {
    /// Landmarks for the differential heuristic (0 to 64), placed farthest-point.
    #[arg(long, default_value_t = 0)]
    landmarks: usize,
}

impl LandmarkArgs {
    /// How many landmarks were asked for.
    fn count(&self) -> usize {
        self.landmarks
    }

    /// Asks `map` for the landmarks, placed farthest-point (none for 0); a count past the
    /// core's limit is a usage error naming `--landmarks`.
    fn set_on(&self, map: &mut PathMap) -> Result<(), CliError> {
        let placement = match self.landmarks {
            0 => LandmarkPlacement::None,
            count => LandmarkPlacement::Farthest(count),
        };
        map.set_landmarks(placement)
            .map_err(|error| CliError::Usage(format!("--landmarks: {error}")))
    }

    /// Builds the landmark table of `profile` on every core, with a progress bar on stderr
    /// when the build is long (see `clearance_cli::progress`). `None` without landmarks.
    fn bake(&self, map: &PathMap, profile: &str) -> Option<LandmarkStats> {
        if self.landmarks == 0 {
            return None;
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let bar = ProgressBar::new(format!("{} landmarks", self.landmarks));
        map.bake_landmarks_with(profile, threads, &|progress| bar.report(progress))
    }
}

/// `--search`, as `path`, `render` and `scen` take it.
#[derive(Args)]
pub struct SearchArgs {
    /// Search algorithm: auto (jump-point search where it pays, else plain A*), jump or plain.
    /// Every choice finds optimal paths.
    #[arg(long, default_value = "auto", value_parser = parse_search_mode)]
    search: SearchMode,
}

impl SearchArgs {
    /// The chosen mode.
    fn mode(&self) -> SearchMode {
        self.search
    }
}

/// Parses `auto`, `jump` or `plain`.
fn parse_search_mode(text: &str) -> Result<SearchMode, String> {
    SearchMode::from_name(text).ok_or_else(|| {
        let names: Vec<&str> = SearchMode::ALL.iter().map(|mode| mode.as_str()).collect();
        format!("expected one of {}, got {text:?}", names.join(", "))
    })
}

/// Exit status 0 if the command found what was asked for, 1 if a query failed or a cost did
/// not match.
fn exit_status(success: bool) -> ExitCode {
    if success {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The smoothing `--smooth` asks for: taut waypoints, or none.
fn smoothing_of(smooth: bool) -> Smoothing {
    if smooth {
        Smoothing::Taut
    } else {
        Smoothing::Off
    }
}

/// With `--smooth`: gives `result`, a path the command found by `unit`'s rules with the units
/// counted by `rule` but `uncounted`, its taut waypoints. Such a path keeps those rules, so
/// the refusal does not happen; it is reported, not hidden.
fn add_waypoints(
    path_map: &PathMap,
    result: &mut PathResult,
    unit: &agent::UnitArgs,
    (rule, uncounted): (OtherUnits, &[UnitId]),
) -> Result<(), CliError> {
    (path_map.add_waypoints(result, unit.size, unit.profile(), rule, uncounted))
        .map_err(|error| CliError::Usage(format!("--smooth: {error}")))
}

/// One line for people about a smoothed result's waypoints: how many, and their length
/// against the grid path's.
fn describe_waypoints(result: &PathResult) -> String {
    format!(
        "{} waypoints, length {:.4} (the grid path's {:.4})",
        result.waypoints.len(),
        result.waypoint_length(),
        result.path_length()
    )
}

/// A result as one JSON object, as `path --json` and `field --json` write it: a key for each of
/// [`PathResult::fields`], named by [`ResultField::name`](clearance_core::ResultField::name).
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
        FieldValue::Id(id) => json!(id),
    }
}
