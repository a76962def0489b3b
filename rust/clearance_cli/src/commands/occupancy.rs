//! `--units`, `--unit-id` and `--others`, as `path`, `render`, `scen`, `field` and `range` take
//! them: the units standing on the map, the one that moves, and how the others count.

use clap::Args;
use clearance_cli::units::{place_units, read_units, UnitEntry};
use clearance_cli::CliError;
use clearance_core::{OtherUnits, PathMap, PathQuery, UnitId};
use std::path::{Path, PathBuf};

/// The units on the map and how a query counts them.
#[derive(Args)]
pub struct OccupancyArgs {
    /// A JSON file of units standing on the map: [{"id": 1, "anchor": [X, Y], "size": K}, ...]
    /// (anchor: the top-left cell of the unit's K x K footprint).
    #[arg(long, value_name = "FILE")]
    units: Option<PathBuf>,
    /// The id of the unit that moves, one of --units: it never counts against itself.
    #[arg(
        long,
        value_name = "ID",
        requires = "units",
        allow_negative_numbers = true
    )]
    unit_id: Option<UnitId>,
    /// How the other units count: ignore (as if the mover were alone), block (no footprint may
    /// overlap theirs) or cost:M (cells under them cost at least M, from 0 to 10000).
    #[arg(long, value_name = "RULE", default_value = "ignore", value_parser = parse_others)]
    others: OtherUnits,
}

impl OccupancyArgs {
    /// Reads `--units`, if given, and registers them on `map`; checks that `--unit-id` is one
    /// of them. Returns the units read (none without `--units`).
    pub fn place_on(&self, map: &mut PathMap) -> Result<Vec<UnitEntry>, CliError> {
        let Some(file) = &self.units else {
            return Ok(Vec::new());
        };
        let units = read_units(file)?;
        place_units(map, &units, file)?;
        named_units("--unit-id", self.exempt(), &units, file)?;
        Ok(units)
    }

    /// The units of `units` other than `--unit-id`: those drawn as others.
    pub fn others<'a>(&self, units: &'a [UnitEntry]) -> impl Iterator<Item = &'a UnitEntry> {
        let mover = self.unit_id;
        units.iter().filter(move |unit| Some(unit.id) != mover)
    }

    /// `query` counting the other units by `--others`, with `--unit-id` as its moving unit.
    pub fn apply<'a>(&self, query: PathQuery<'a>) -> PathQuery<'a> {
        PathQuery {
            other_units: self.others,
            moving_unit: self.unit_id,
            ..query
        }
    }

    /// Whether `--units` was given.
    pub fn has_units(&self) -> bool {
        self.units.is_some()
    }

    /// The `--units` file, if given.
    pub fn file(&self) -> Option<&Path> {
        self.units.as_deref()
    }

    /// The `--others` rule.
    pub fn rule(&self) -> OtherUnits {
        self.others
    }

    /// The `--unit-id`, if given.
    pub fn moving_unit(&self) -> Option<UnitId> {
        self.unit_id
    }

    /// The units that do not count: `--unit-id`, if given.
    pub fn exempt(&self) -> &[UnitId] {
        self.unit_id.as_slice()
    }
}

/// Parses `ignore`, `block` or `cost:M`, as the core names the rules.
fn parse_others(text: &str) -> Result<OtherUnits, String> {
    OtherUnits::from_name(text).map_err(|error| error.to_string())
}

/// The units that `flag` names by `ids`, in that order, from `units` (read from `file`): an id
/// the file lacks, or one named twice, is a usage error that names the flag.
pub fn named_units(
    flag: &str,
    ids: &[UnitId],
    units: &[UnitEntry],
    file: &Path,
) -> Result<Vec<UnitEntry>, CliError> {
    let mut named: Vec<UnitEntry> = Vec::with_capacity(ids.len());
    for &id in ids {
        if named.iter().any(|unit| unit.id == id) {
            return Err(CliError::Usage(format!("{flag} names unit {id} twice")));
        }
        let unit = units.iter().find(|unit| unit.id == id).ok_or_else(|| {
            CliError::Usage(format!(
                "{flag} {id}: {} has no unit with that id",
                file.display()
            ))
        })?;
        named.push(*unit);
    }
    Ok(named)
}
