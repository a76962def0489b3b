//! What `path`, `render`, `field`, `slots` and `range` share: the unit's and the search's
//! options, the map, profiles and units they load, the query they run, and the one line that
//! describes its result.

use super::occupancy::OccupancyArgs;
use super::{movingai_path_map, smoothing_of, LandmarkArgs, SearchArgs};
use clap::Args;
use clearance_cli::movingai::{read_map, MovingAiMap, MOVINGAI_PROFILE};
use clearance_cli::profiles::read_profiles;
use clearance_cli::units::UnitEntry;
use clearance_cli::CliError;
use clearance_core::{
    checked_agent_size, Cell, Movement, PathCode, PathMap, PathQuery, PathResult, MAX_AGENT_SIZE,
};
use std::path::{Path, PathBuf};

/// The rules units move by: the profile and the movement, as `path`, `render`, `field` and
/// `slots` take them.
#[derive(Args)]
pub struct ProfileArgs {
    /// Profile name: `movingai` (`.`, `G`, `S` at cost 1) or one from --profiles.
    #[arg(long, default_value = MOVINGAI_PROFILE)]
    pub profile: String,
    /// A JSON file of named profiles: {"profiles": {"tank": {"costs": {".": 1.0, "S": 3.0}}}}.
    #[arg(long)]
    profiles: Option<PathBuf>,
    /// Move in 4 directions instead of 8.
    #[arg(long)]
    four_way: bool,
}

impl ProfileArgs {
    /// Loads the map and registers the built-in profile and the profile file's, under the
    /// chosen movement. The chosen profile must be one of them, and the file may not redefine
    /// the built-in one.
    pub fn load(&self, path: &Path) -> Result<(MovingAiMap, PathMap), CliError> {
        let map = read_map(path)?;
        let movement = if self.four_way {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let mut path_map = movingai_path_map(&map, movement);
        if let Some(file) = &self.profiles {
            for profile in read_profiles(file)? {
                if profile.name() == MOVINGAI_PROFILE {
                    return Err(CliError::invalid(
                        file,
                        format!(
                            "the profile {MOVINGAI_PROFILE:?} is built in (Moving AI's rules); \
                             give yours another name"
                        ),
                    ));
                }
                path_map
                    .set_profile(profile)
                    .expect("profile files reject empty names");
            }
        }
        if path_map.profile(&self.profile).is_none() {
            let mut known: Vec<&str> = path_map.profiles().map(|p| p.name()).collect();
            known.sort_unstable();
            return Err(CliError::Usage(format!(
                "unknown profile {:?}; known profiles: {}",
                self.profile,
                known.join(", ")
            )));
        }
        Ok((map, path_map))
    }
}

/// The unit: its size, profile and movement rule, as `path`, `render`, `field` and `range` take
/// them.
#[derive(Args)]
pub struct UnitArgs {
    /// Agent size: the side of its square footprint, 1 to 255 (with another, a query answers
    /// the code INVALID_AGENT_SIZE; `render` and `straight` refuse it as bad input).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub size: i64,
    #[command(flatten)]
    pub rules: ProfileArgs,
}

impl UnitArgs {
    /// Loads the map as [`ProfileArgs::load`] does.
    pub fn load(&self, path: &Path) -> Result<(MovingAiMap, PathMap), CliError> {
        self.rules.load(path)
    }

    /// The profile's name.
    pub fn profile(&self) -> &str {
        &self.rules.profile
    }

    /// The agent size as a byte, or a usage error naming `--size` if it is not a legal size.
    pub fn checked_size(&self) -> Result<u8, CliError> {
        checked_agent_size(self.size).ok_or_else(|| {
            CliError::Usage(format!(
                "--size {} is not from 1 to {MAX_AGENT_SIZE}",
                self.size
            ))
        })
    }
}

/// The unit and its search, as `path` and `render` take them.
#[derive(Args)]
pub struct AgentArgs {
    #[command(flatten)]
    pub unit: UnitArgs,
    #[command(flatten)]
    landmarks: LandmarkArgs,
    #[command(flatten)]
    search: SearchArgs,
    /// If the goal cannot be reached, show the path to the reachable anchor nearest to it
    /// (code PARTIAL_PATH; the exit status stays 1).
    #[arg(long)]
    partial: bool,
    /// Give up after expanding this many anchors (code SEARCH_LIMIT_REACHED).
    #[arg(long)]
    max_expansions: Option<u64>,
    /// Also find the path's taut waypoints: straight lines the unit's square may walk
    /// (JSON keys `waypoints` and `waypoint_length`; drawn as `o`, or as lines in a picture).
    #[arg(long)]
    pub smooth: bool,
    #[command(flatten)]
    pub occupancy: OccupancyArgs,
}

impl AgentArgs {
    /// Loads the map as [`UnitArgs::load`] does, with the chosen landmarks and the units of
    /// `--units` (returned too: none without it).
    pub fn load(&self, path: &Path) -> Result<(MovingAiMap, PathMap, Vec<UnitEntry>), CliError> {
        let (map, mut path_map) = self.unit.load(path)?;
        self.landmarks.set_on(&mut path_map)?;
        let units = self.occupancy.place_on(&mut path_map)?;
        // Built here rather than by the first query, to show progress on large maps.
        self.landmarks.bake(&path_map, self.unit.profile());
        Ok((map, path_map, units))
    }

    /// The query for this agent from `from` to `to`, counting other units by `--others`. The
    /// size is not checked here: the query reports an illegal one as its result.
    pub fn query(&self, from: Cell, to: Cell) -> PathQuery<'_> {
        let query = PathQuery {
            max_expansions: self.max_expansions,
            ..PathQuery::new(from, to, self.unit.size, self.unit.profile())
                .allow_partial_path(self.partial)
                .search(self.search.mode())
                .smoothing(smoothing_of(self.smooth))
        };
        self.occupancy.apply(query)
    }
}

/// `--from` and `--to`, as `path` and `straight` take them.
#[derive(Args)]
pub struct EndpointArgs {
    /// Start anchor (top-left cell of the footprint), as X,Y.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    pub from: Cell,
    /// Goal anchor, as X,Y.
    #[arg(long, value_parser = parse_cell, allow_hyphen_values = true)]
    pub to: Cell,
}

/// Parses an anchor given as `X,Y` (spaces around either number allowed).
pub fn parse_cell(text: &str) -> Result<Cell, String> {
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

/// One line for people: the code, the query, and what the result says about it.
pub fn describe(result: &PathResult, from: Cell, to: Cell, unit: &UnitArgs) -> String {
    let what = format!(
        "size {} ({}) from ({}, {}) to ({}, {})",
        unit.size,
        unit.profile(),
        from.x,
        from.y,
        to.x,
        to.y
    );
    let in_the_way = result.occupied_by.map_or(String::new(), |id| {
        format!(" (unit {id} stands on the goal)")
    });
    match result.code {
        PathCode::Ok => format!(
            "OK: {what}: {} steps, cost {:.4}, {} anchors expanded",
            result.path.len() - 1,
            result.total_cost(),
            result.expanded
        ),
        PathCode::StartClearanceInsufficient | PathCode::GoalClearanceInsufficient => {
            match result.shortfall {
                Some(shortfall) => format!(
                    "{}: {what}: clearance there is {}, the agent needs {}",
                    result.code, shortfall.found, shortfall.needed
                ),
                None => format!("{}: {what}", result.code),
            }
        }
        PathCode::NoPath => format!(
            "NO_PATH: {what}: no legal route ({} anchors expanded)",
            result.expanded
        ),
        PathCode::GoalOccupied => match result.occupied_by {
            Some(id) => format!("GOAL_OCCUPIED: {what}: unit {id} stands in the goal's footprint"),
            None => format!("GOAL_OCCUPIED: {what}: another unit stands in the goal's footprint"),
        },
        PathCode::PartialPath => format!(
            "PARTIAL_PATH: {what}: the goal cannot be reached{in_the_way}; {} steps to ({}, {}), the nearest reachable anchor, cost {:.4}",
            result.path.len().saturating_sub(1),
            result.path.last().map_or(0, |cell| cell.x),
            result.path.last().map_or(0, |cell| cell.y),
            result.total_cost()
        ),
        code => format!("{code}: {what}"),
    }
}
