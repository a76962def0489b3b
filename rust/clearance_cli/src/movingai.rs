//! The Moving AI benchmark formats (Sturtevant, "Benchmarks for Grid-Based Pathfinding",
//! IEEE TCIAIG 4(2), 2012; format described at movingai.com/benchmarks/formats.html).
//!
//! A `.map` file: `type octile`, `height H`, `width W`, `map`, then H rows of W characters.
//! `.` and `G` are ground, `S` swamp (passable), `W` water, `T` trees, `@` and `O` out of
//! bounds. A `.scen` file: `version 1` (or `version 1.0`), then one problem per line: bucket,
//! map name, map width, map height, start x, start y, goal x, goal y, optimal length.

use crate::error::CliError;
use clearance_core::{AgentProfile, Cell, Region, TerrainGrid};
use std::path::{Path, PathBuf};

/// The name of [`movingai_profile`].
pub const MOVINGAI_PROFILE: &str = "movingai";

/// Every character a Moving AI map may contain.
pub const MAP_CHARACTERS: &[u8] = b".GSWT@O";

/// A map read from a `.map` file; each cell's terrain id is its character's byte value.
#[derive(Debug, Clone)]
pub struct MovingAiMap {
    /// The terrain, with origin (0, 0).
    pub grid: TerrainGrid,
    /// The file it came from.
    pub path: PathBuf,
}

/// One problem of a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Line number in the file, from 1.
    pub line: usize,
    /// Bucket (difficulty class) as given.
    pub bucket: u32,
    /// Start cell (x, y).
    pub start: (i32, i32),
    /// Goal cell (x, y).
    pub goal: (i32, i32),
    /// Published optimal length.
    pub optimal: f64,
    /// How many decimals the published length has; lengths with 2 decimals get a looser
    /// tolerance when compared.
    pub decimals: usize,
}

impl Problem {
    /// Start and goal as cells.
    pub fn endpoints(&self) -> (Cell, Cell) {
        (
            Cell::new(self.start.0, self.start.1),
            Cell::new(self.goal.0, self.goal.1),
        )
    }

    /// The tolerance to compare a computed length against the published one: 0.005 for
    /// lengths given to 2 decimals or fewer, 1e-3 otherwise.
    pub fn tolerance(&self) -> f64 {
        if self.decimals <= 2 {
            0.005
        } else {
            1e-3
        }
    }
}

/// The profile that follows Moving AI's rules: `.`, `G` and `S` at cost 1, all else blocked.
pub fn movingai_profile() -> AgentProfile {
    let mut profile = AgentProfile::new(MOVINGAI_PROFILE);
    for terrain in [b'.', b'G', b'S'] {
        profile
            .set_terrain(terrain, 1.0)
            .expect("1.0 is a valid multiplier");
    }
    profile
}

/// Reads a `.map` file.
pub fn read_map(path: &Path) -> Result<MovingAiMap, CliError> {
    let text = read_text(path)?;
    parse_map(&text, path)
}

/// Parses the text of a `.map` file; `path` only names the file in errors.
pub fn parse_map(text: &str, path: &Path) -> Result<MovingAiMap, CliError> {
    let syntax = |line: usize, message: String| CliError::Syntax {
        path: path.to_owned(),
        line,
        message,
    };
    let mut lines = numbered_lines(text);
    let mut height = None;
    let mut width = None;
    loop {
        let Some((number, line)) = lines.next() else {
            return Err(syntax(
                text.lines().count().max(1),
                "missing `map` line".into(),
            ));
        };
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("type"), Some(_), None) => {}
            (Some("height"), Some(value), None) => height = Some(parse_side(value, number, path)?),
            (Some("width"), Some(value), None) => width = Some(parse_side(value, number, path)?),
            (Some("map"), None, None) => break,
            _ => return Err(syntax(number, format!("unexpected header line {line:?}"))),
        }
    }
    let height = height.ok_or_else(|| syntax(1, "missing `height` line".into()))?;
    let width = width.ok_or_else(|| syntax(1, "missing `width` line".into()))?;
    let mut data = Vec::with_capacity(width * height);
    for row in 0..height {
        let Some((number, line)) = lines.next() else {
            return Err(syntax(
                text.lines().count(),
                format!("expected {height} map rows, found {row}"),
            ));
        };
        if line.len() != width {
            return Err(syntax(
                number,
                format!("row has {} characters, expected {width}", line.len()),
            ));
        }
        if let Some(column) = line.bytes().position(|c| !MAP_CHARACTERS.contains(&c)) {
            let found = line[column..].chars().next().unwrap_or('?');
            return Err(syntax(
                number,
                format!("unknown map character {found:?} at column {}", column + 1),
            ));
        }
        data.extend_from_slice(line.as_bytes());
    }
    // Text after the last row is ignored, as Moving AI's own loader does: some redistributed
    // files carry a citation there.
    let region = Region::new(0, 0, width as i32, height as i32);
    let grid = TerrainGrid::from_bytes(region, &data).map_err(|error| CliError::Invalid {
        path: path.to_owned(),
        message: error.to_string(),
    })?;
    Ok(MovingAiMap {
        grid,
        path: path.to_owned(),
    })
}

fn parse_side(value: &str, line: usize, path: &Path) -> Result<usize, CliError> {
    match value.parse::<usize>() {
        Ok(side) if (1..=clearance_core::MAX_SIDE as usize).contains(&side) => Ok(side),
        _ => Err(CliError::Syntax {
            path: path.to_owned(),
            line,
            message: format!(
                "map side {value:?} is not a number from 1 to {}",
                clearance_core::MAX_SIDE
            ),
        }),
    }
}

/// Reads a `.scen` file and checks each problem against `map`'s size and bounds.
pub fn read_scenario(path: &Path, map: &MovingAiMap) -> Result<Vec<Problem>, CliError> {
    let text = read_text(path)?;
    parse_scenario(&text, path, map)
}

/// Parses the text of a `.scen` file; `path` only names the file in errors.
pub fn parse_scenario(
    text: &str,
    path: &Path,
    map: &MovingAiMap,
) -> Result<Vec<Problem>, CliError> {
    let syntax = |line: usize, message: String| CliError::Syntax {
        path: path.to_owned(),
        line,
        message,
    };
    let mut lines = numbered_lines(text);
    match lines.next() {
        Some((_, header)) if matches!(header.trim(), "version 1" | "version 1.0") => {}
        Some((number, header)) => {
            return Err(syntax(
                number,
                format!("expected `version 1`, found {header:?}"),
            ))
        }
        None => return Err(syntax(1, "empty scenario file".into())),
    }
    let region = map.grid.region();
    let mut problems = Vec::new();
    for (number, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(['\t', ' ']).filter(|f| !f.is_empty()).collect();
        if fields.len() != 9 {
            return Err(syntax(
                number,
                format!("expected 9 fields, found {}", fields.len()),
            ));
        }
        let integer = |index: usize, name: &str| -> Result<i64, CliError> {
            fields[index].parse::<i64>().map_err(|_| {
                syntax(
                    number,
                    format!("{name} {:?} is not an integer", fields[index]),
                )
            })
        };
        let bucket = integer(0, "bucket")?;
        let (width, height) = (integer(2, "map width")?, integer(3, "map height")?);
        if width != i64::from(region.width) || height != i64::from(region.height) {
            return Err(syntax(
                number,
                format!(
                    "problem is for a {width}x{height} map, but {} is {}x{}",
                    map.path.display(),
                    region.width,
                    region.height
                ),
            ));
        }
        let cell = |x: usize, y: usize, what: &str| -> Result<(i32, i32), CliError> {
            let (x, y) = (integer(x, what)?, integer(y, what)?);
            if (0..width).contains(&x) && (0..height).contains(&y) {
                Ok((x as i32, y as i32))
            } else {
                Err(syntax(
                    number,
                    format!("{what} ({x}, {y}) lies outside the map"),
                ))
            }
        };
        let start = cell(4, 5, "start")?;
        let goal = cell(6, 7, "goal")?;
        let optimal: f64 = fields[8]
            .parse()
            .ok()
            .filter(|value: &f64| value.is_finite() && *value >= 0.0)
            .ok_or_else(|| {
                syntax(
                    number,
                    format!("optimal length {:?} is not a number", fields[8]),
                )
            })?;
        let decimals = fields[8]
            .split_once('.')
            .map_or(0, |(_, fraction)| fraction.len());
        problems.push(Problem {
            line: number,
            bucket: u32::try_from(bucket)
                .map_err(|_| syntax(number, format!("bucket {bucket} is negative")))?,
            start,
            goal,
            optimal,
            decimals,
        });
    }
    Ok(problems)
}

/// The lines of `text` with their numbers from 1, without carriage returns.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim_end_matches('\r')))
}

fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::Io {
        path: path.to_owned(),
        source,
    })
}
