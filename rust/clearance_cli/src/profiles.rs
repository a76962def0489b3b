//! Profile files: named profiles whose terrains are map characters.
//!
//! ```json
//! {"profiles": {
//!   "tank":       {"costs": {".": 1.0, "S": 3.0}},
//!   "amphibious": {"costs": {".": 1.0, "S": 2.0, "W": 1.5}}
//! }}
//! ```
//!
//! A character missing from `costs` is impassable for that profile.

use crate::error::{read_text, CliError};
use clearance_core::AgentProfile;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileFile {
    profiles: BTreeMap<String, ProfileEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileEntry {
    costs: BTreeMap<String, f64>,
}

/// Reads a profile file.
pub fn read_profiles(path: &Path) -> Result<Vec<AgentProfile>, CliError> {
    parse_profiles(&read_text(path)?, path)
}

/// Parses the text of a profile file; `path` only names the file in errors.
pub fn parse_profiles(text: &str, path: &Path) -> Result<Vec<AgentProfile>, CliError> {
    let file: ProfileFile = serde_json::from_str(text)
        .map_err(|error| CliError::syntax(path, error.line().max(1), error.to_string()))?;
    let invalid = |message: String| CliError::invalid(path, message);
    let mut profiles = Vec::new();
    for (name, entry) in file.profiles {
        if name.is_empty() {
            return Err(invalid("a profile has an empty name".into()));
        }
        let mut profile = AgentProfile::new(name.as_str());
        for (character, multiplier) in entry.costs {
            let terrain = match character.as_bytes() {
                [byte] if byte.is_ascii_graphic() => *byte,
                _ => {
                    return Err(invalid(format!(
                    "profile {name:?}: terrain {character:?} is not one printable ASCII character"
                )))
                }
            };
            profile.set_terrain(terrain, multiplier).map_err(|error| {
                invalid(format!("profile {name:?}, terrain {character:?}: {error}"))
            })?;
        }
        profiles.push(profile);
    }
    if profiles.is_empty() {
        return Err(invalid("the file defines no profiles".into()));
    }
    Ok(profiles)
}
