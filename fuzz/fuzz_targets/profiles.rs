//! Profile-file parser: any input is either a non-empty list of valid, distinctly named
//! profiles or a `CliError` naming the file. Parsed profiles are registered on a small map and
//! queried.
#![no_main]

use clearance_cli::movingai::parse_map;
use clearance_cli::profiles::parse_profiles;
use clearance_cli::CliError;
use clearance_core::{Cell, PathMap, MAX_MULTIPLIER, MULTIPLIER_SCALE};
use clearance_fuzz::{check_layers, check_query, FIXED_MAP};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::path::Path;

/// Profiles queried per input; the rest are only registered.
const QUERIED: usize = 8;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.json");
    match parse_profiles(&text, path) {
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.starts_with("fuzz.json"),
                "error does not name the file: {message}"
            );
            assert!(
                matches!(error, CliError::Syntax { line, .. } if line >= 1)
                    || matches!(error, CliError::Invalid { .. }),
                "unexpected error: {error:?}"
            );
        }
        Ok(profiles) => {
            assert!(!profiles.is_empty());
            let names: HashSet<&str> = profiles.iter().map(|p| p.name()).collect();
            assert_eq!(names.len(), profiles.len(), "duplicate names");
            let max_fixed = (MAX_MULTIPLIER * f64::from(MULTIPLIER_SCALE)) as u32;
            for profile in &profiles {
                assert!(!profile.name().is_empty());
                for terrain in 0..=255u8 {
                    if let Some(fixed) = profile.fixed_multiplier(terrain) {
                        assert!(terrain.is_ascii_graphic(), "terrain {terrain} accepted");
                        assert!(fixed <= max_fixed, "multiplier {fixed} above the maximum");
                    }
                }
            }
            let map = parse_map(FIXED_MAP, Path::new("fixed.map")).expect("the fixed map parses");
            let region = map.grid.region();
            let mut paths = PathMap::new(map.grid);
            for profile in &profiles {
                paths.set_profile(profile.clone()).expect("non-empty name");
            }
            check_layers(&paths);
            let corners = [
                Cell::new(0, 0),
                Cell::new(region.width - 1, region.height - 1),
                Cell::new(region.width - 1, 0),
                Cell::new(0, region.height - 1),
            ];
            for (index, profile) in profiles.iter().take(QUERIED).enumerate() {
                let start = corners[index % 4];
                let goal = corners[(index + 1) % 4];
                check_query(&paths, start, goal, 1, profile.name());
                check_query(&paths, goal, start, 2, profile.name());
            }
        }
    }
});
