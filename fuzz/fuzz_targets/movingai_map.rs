//! Moving AI `.map` parser: any input is either a map or a `CliError` naming the file, never a
//! panic. A parsed map must lie at the origin and hold only map characters (its rows are
//! checked against the text by the parser tests in `tests/movingai.rs`, not here), and small
//! ones are searched.
#![no_main]

use clearance_cli::movingai::{movingai_profile, parse_map, MAP_CHARACTERS};
use clearance_cli::CliError;
use clearance_core::{Cell, PathMap};
use clearance_fuzz::check_query;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// Maps up to this many cells are also searched (the reference solver is a plain Dijkstra).
const SEARCHED_CELLS: u64 = 4096;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.map");
    match parse_map(&text, path) {
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.starts_with("fuzz.map"),
                "error does not name the file: {message}"
            );
            match error {
                CliError::Syntax { line, .. } => {
                    let lines = text.lines().count().max(1);
                    assert!(
                        (1..=lines).contains(&line),
                        "line {line} of {lines}: {message}"
                    );
                }
                CliError::Invalid { .. } => {}
                other => panic!("unexpected error kind: {other:?}"),
            }
        }
        Ok(map) => {
            assert_eq!(map.path, path);
            let region = map.grid.region();
            assert_eq!((region.x, region.y), (0, 0));
            assert!(map
                .grid
                .as_bytes()
                .iter()
                .all(|c| MAP_CHARACTERS.contains(c)));
            if region.area() > SEARCHED_CELLS {
                return;
            }
            let mut paths = PathMap::new(map.grid.clone());
            paths
                .set_profile(movingai_profile())
                .expect("named profile");
            let (right, bottom) = (region.width - 1, region.height - 1);
            for size in [1, 2] {
                let result = check_query(
                    &paths,
                    Cell::new(0, 0),
                    Cell::new(right, bottom),
                    size,
                    "movingai",
                );
                if result.is_ok() {
                    let drawn =
                        clearance_cli::draw::draw_path(&map.grid, &result.path, size as i32);
                    assert!(!drawn.is_empty());
                }
            }
            check_query(
                &paths,
                Cell::new(right, 0),
                Cell::new(0, bottom),
                1,
                "movingai",
            );
        }
    }
});
