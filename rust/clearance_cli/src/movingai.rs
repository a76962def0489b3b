//! The Moving AI benchmark formats (Sturtevant, "Benchmarks for Grid-Based Pathfinding",
//! IEEE TCIAIG 4(2), 2012; format described at movingai.com/benchmarks/formats.html).
//!
//! A `.map` file: `type octile`, `height H`, `width W`, `map`, then H rows of W characters.
//! `.` and `G` are ground, `S` swamp (passable), `W` water, `T` trees, `@` and `O` out of
//! bounds. A `.scen` file: `version 1` (or `version 1.0`), then one problem per line: bucket,
//! map name, map width, map height, start x, start y, goal x, goal y, optimal length.

use crate::error::{read_text, CliError};
use clearance_core::{AgentProfile, Cell, Region, TerrainGrid, MAX_SIDE};
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
    /// How many decimals the published length has: it is the exact optimum rounded to them.
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

    /// How far an exact length may lie from the published one: half a unit of the last
    /// printed decimal (the published length is the optimum rounded to the digits printed),
    /// plus 1e-7 relative for the arithmetic of the tool that computed it. Older Moving AI
    /// files were evidently summed in single precision: AcrosstheCape line 575's optimum,
    /// 99 + 96 sqrt 2 = 234.7645020, is printed 234.764, and arena2 line 201's,
    /// 76.8822510, is printed 76.8822; 1e-9 relative would call both wrong.
    ///
    /// ```
    /// # use clearance_cli::movingai::Problem;
    /// let problem = Problem {
    ///     line: 575, bucket: 58, start: (581, 541), goal: (463, 560),
    ///     optimal: 234.764, decimals: 3,
    /// };
    /// let exact = 99.0 + 96.0 * std::f64::consts::SQRT_2;
    /// assert!((exact - problem.optimal).abs() <= problem.tolerance());
    /// assert!((exact + 0.001 - problem.optimal).abs() > problem.tolerance());
    /// ```
    pub fn tolerance(&self) -> f64 {
        let last_digit = 10f64.powi(-i32::try_from(self.decimals).unwrap_or(i32::MAX));
        0.5 * last_digit + 1e-7 * self.optimal.abs()
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
    parse_map(&read_text(path)?, path)
}

/// Parses the text of a `.map` file; `path` only names the file in errors.
pub fn parse_map(text: &str, path: &Path) -> Result<MovingAiMap, CliError> {
    let mut lines = numbered_lines(text);
    let (width, height) = parse_header(text, &mut lines, path)?;
    // A map too large for the engine is refused from its header, before any row is read; and
    // no more is reserved than the text could hold, whatever the header claims.
    let region = Region::new(0, 0, width as i32, height as i32);
    (region.validate_as_map()).map_err(|error| CliError::invalid(path, error.to_string()))?;
    let mut data = Vec::with_capacity((width * height).min(text.len()));
    for row in 0..height {
        let Some((number, line)) = lines.next() else {
            return Err(CliError::syntax(
                path,
                text.lines().count(),
                format!("expected {height} map rows, found {row}"),
            ));
        };
        data.extend_from_slice(parse_row(line, number, width, path)?);
    }
    // Text after the last row is ignored, as Moving AI's own loader does: some redistributed
    // files carry a citation there.
    let grid = TerrainGrid::from_bytes(region, &data)
        .map_err(|error| CliError::invalid(path, error.to_string()))?;
    Ok(MovingAiMap {
        grid,
        path: path.to_owned(),
    })
}

/// Reads the header lines of a `.map` file, up to and including the `map` line, and returns
/// the map's width and height.
fn parse_header<'a>(
    text: &str,
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    path: &Path,
) -> Result<(usize, usize), CliError> {
    let mut height = None;
    let mut width = None;
    loop {
        let Some((number, line)) = lines.next() else {
            return Err(CliError::syntax(
                path,
                text.lines().count().max(1),
                "missing `map` line",
            ));
        };
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("type"), Some(_), None) => {}
            (Some("height"), Some(value), None) => height = Some(parse_side(value, number, path)?),
            (Some("width"), Some(value), None) => width = Some(parse_side(value, number, path)?),
            (Some("map"), None, None) => break,
            _ => {
                return Err(CliError::syntax(
                    path,
                    number,
                    format!("unexpected header line {line:?}"),
                ))
            }
        }
    }
    let missing = |what: &str| CliError::syntax(path, 1, format!("missing `{what}` line"));
    let height = height.ok_or_else(|| missing("height"))?;
    let width = width.ok_or_else(|| missing("width"))?;
    Ok((width, height))
}

fn parse_side(value: &str, line: usize, path: &Path) -> Result<usize, CliError> {
    match value.parse::<usize>() {
        Ok(side) if (1..=MAX_SIDE as usize).contains(&side) => Ok(side),
        _ => Err(CliError::syntax(
            path,
            line,
            format!("map side {value:?} is not a number from 1 to {MAX_SIDE}"),
        )),
    }
}

/// Checks one map row, line `number` of the file: `width` characters, each a map character.
fn parse_row<'a>(
    line: &'a str,
    number: usize,
    width: usize,
    path: &Path,
) -> Result<&'a [u8], CliError> {
    if line.len() != width {
        return Err(CliError::syntax(
            path,
            number,
            format!("row has {} characters, expected {width}", line.len()),
        ));
    }
    if let Some(column) = line.bytes().position(|c| !MAP_CHARACTERS.contains(&c)) {
        let found = line[column..].chars().next().unwrap_or('?');
        return Err(CliError::syntax(
            path,
            number,
            format!("unknown map character {found:?} at column {}", column + 1),
        ));
    }
    Ok(line.as_bytes())
}

/// Reads a `.scen` file and checks each problem against `map`'s size and bounds.
pub fn read_scenario(path: &Path, map: &MovingAiMap) -> Result<Vec<Problem>, CliError> {
    parse_scenario(&read_text(path)?, path, map)
}

/// Parses the text of a `.scen` file; `path` only names the file in errors. Blank lines are
/// skipped; the first malformed line is the error.
pub fn parse_scenario(
    text: &str,
    path: &Path,
    map: &MovingAiMap,
) -> Result<Vec<Problem>, CliError> {
    let mut lines = numbered_lines(text);
    check_version(lines.next(), path)?;
    lines
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(number, line)| ProblemLine::split(line, number, path)?.parse(map))
        .collect()
}

/// Checks a scenario file's first line: `version 1` or `version 1.0`.
fn check_version(first: Option<(usize, &str)>, path: &Path) -> Result<(), CliError> {
    match first {
        Some((_, header)) if matches!(header.trim(), "version 1" | "version 1.0") => Ok(()),
        Some((number, header)) => Err(CliError::syntax(
            path,
            number,
            format!("expected `version 1`, found {header:?}"),
        )),
        None => Err(CliError::syntax(path, 1, "empty scenario file")),
    }
}

/// One problem line of a scenario file, split into its nine fields.
struct ProblemLine<'a> {
    fields: Vec<&'a str>,
    /// Line number in the file, from 1.
    number: usize,
    path: &'a Path,
}

impl<'a> ProblemLine<'a> {
    /// Splits the line at tabs and spaces; anything but nine fields is an error.
    fn split(line: &'a str, number: usize, path: &'a Path) -> Result<Self, CliError> {
        let fields: Vec<&str> = line.split(['\t', ' ']).filter(|f| !f.is_empty()).collect();
        if fields.len() != 9 {
            return Err(CliError::syntax(
                path,
                number,
                format!("expected 9 fields, found {}", fields.len()),
            ));
        }
        Ok(ProblemLine {
            fields,
            number,
            path,
        })
    }

    /// The problem, checked against `map`: the line's map size must be `map`'s, and start and
    /// goal must lie on it. Fields are checked in file order, the bucket's sign last.
    fn parse(&self, map: &MovingAiMap) -> Result<Problem, CliError> {
        let bucket = self.integer(0, "bucket")?;
        let (width, height) = (
            self.integer(2, "map width")?,
            self.integer(3, "map height")?,
        );
        let region = map.grid.region();
        if width != i64::from(region.width) || height != i64::from(region.height) {
            return Err(self.error(format!(
                "problem is for a {width}x{height} map, but {} is {}x{}",
                map.path.display(),
                region.width,
                region.height
            )));
        }
        let start = self.cell(4, "start", (width, height))?;
        let goal = self.cell(6, "goal", (width, height))?;
        let (optimal, decimals) = self.optimal()?;
        let bucket = u32::try_from(bucket)
            .map_err(|_| self.error(format!("bucket {bucket} is negative")))?;
        Ok(Problem {
            line: self.number,
            bucket,
            start,
            goal,
            optimal,
            decimals,
        })
    }

    fn error(&self, message: String) -> CliError {
        CliError::syntax(self.path, self.number, message)
    }

    /// Field `index` as an integer; `name` names it in the error.
    fn integer(&self, index: usize, name: &str) -> Result<i64, CliError> {
        let field = self.fields[index];
        field
            .parse::<i64>()
            .map_err(|_| self.error(format!("{name} {field:?} is not an integer")))
    }

    /// The cell whose x is field `index` and y the next, on a map of `size` (width, height).
    fn cell(&self, index: usize, what: &str, size: (i64, i64)) -> Result<(i32, i32), CliError> {
        let (x, y) = (self.integer(index, what)?, self.integer(index + 1, what)?);
        if (0..size.0).contains(&x) && (0..size.1).contains(&y) {
            Ok((x as i32, y as i32))
        } else {
            Err(self.error(format!("{what} ({x}, {y}) lies outside the map")))
        }
    }

    /// The published optimal length, a finite number from 0, and how many decimals it has.
    fn optimal(&self) -> Result<(f64, usize), CliError> {
        let field = self.fields[8];
        let optimal = field
            .parse()
            .ok()
            .filter(|value: &f64| value.is_finite() && *value >= 0.0)
            .ok_or_else(|| self.error(format!("optimal length {field:?} is not a number")))?;
        let decimals = field
            .split_once('.')
            .map_or(0, |(_, fraction)| fraction.len());
        Ok((optimal, decimals))
    }
}

/// The lines of `text` with their numbers from 1, without carriage returns.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim_end_matches('\r')))
}
