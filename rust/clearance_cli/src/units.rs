//! Units files: the units standing on a map, each with an id, an anchor and a size.
//!
//! ```json
//! [
//!   {"id": 1, "anchor": [2, 2], "size": 2},
//!   {"id": 7, "anchor": [12, 3], "size": 1}
//! ]
//! ```
//!
//! The anchor is the top-left cell of the unit's `size x size` footprint. Ids are any 64-bit
//! integers, each used once. Every command that takes `--units` reads the file here and
//! places it with [`place_units`]; sizes and anchors are checked against the map there.

use crate::error::{read_text, CliError};
use clearance_core::{Cell, PathMap, UnitId};
use serde::Deserialize;
use std::collections::HashSet;
use std::path::Path;

/// One unit of a units file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnitEntry {
    /// The unit's id.
    pub id: UnitId,
    /// The top-left cell of its footprint.
    pub anchor: Cell,
    /// The side of its footprint (checked when the unit is placed: 1 to 255).
    pub size: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    id: UnitId,
    anchor: [i32; 2],
    size: i64,
}

/// Reads a units file.
pub fn read_units(path: &Path) -> Result<Vec<UnitEntry>, CliError> {
    parse_units(&read_text(path)?, path)
}

/// Parses the text of a units file; `path` only names the file in errors. An id used twice
/// is an error; sizes and anchors are checked by [`place_units`], against the map.
pub fn parse_units(text: &str, path: &Path) -> Result<Vec<UnitEntry>, CliError> {
    let raw: Vec<RawUnit> = serde_json::from_str(text)
        .map_err(|error| CliError::syntax(path, error.line().max(1), error.to_string()))?;
    let mut seen = HashSet::with_capacity(raw.len());
    let mut units = Vec::with_capacity(raw.len());
    for unit in raw {
        if !seen.insert(unit.id) {
            return Err(CliError::invalid(
                path,
                format!("unit id {} is used twice", unit.id),
            ));
        }
        units.push(UnitEntry {
            id: unit.id,
            anchor: Cell::new(unit.anchor[0], unit.anchor[1]),
            size: unit.size,
        });
    }
    Ok(units)
}

/// Registers `units` on `map`, all or none; a size out of range or an anchor off the map is
/// an error naming `path` (the file they came from) and the unit.
pub fn place_units(map: &mut PathMap, units: &[UnitEntry], path: &Path) -> Result<(), CliError> {
    let batch: Vec<(UnitId, Cell, i64)> = units
        .iter()
        .map(|unit| (unit.id, unit.anchor, unit.size))
        .collect();
    map.place_units(&batch)
        .map_err(|error| CliError::invalid(path, error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units_and_rejects_repeated_ids() {
        let path = Path::new("units.json");
        let units = parse_units(r#"[{"id": -4, "anchor": [1, 2], "size": 3}]"#, path).unwrap();
        assert_eq!(
            units,
            [UnitEntry {
                id: -4,
                anchor: Cell::new(1, 2),
                size: 3
            }]
        );
        assert!(parse_units("[]", path).unwrap().is_empty());
        let twice = r#"[{"id": 1, "anchor": [0, 0], "size": 1},
                        {"id": 1, "anchor": [2, 0], "size": 1}]"#;
        let error = parse_units(twice, path).unwrap_err().to_string();
        assert!(error.contains("unit id 1 is used twice"), "{error}");
        let error = parse_units("[{\"id\": 1,\n \"anchor\": [0], \"size\": 1}]", path)
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("units.json:2: "), "{error}");
        let error = parse_units(r#"[{"id": 1, "anchor": [0, 0], "size": 1, "hp": 3}]"#, path)
            .unwrap_err()
            .to_string();
        assert!(error.contains("hp"), "{error}");
    }
}
