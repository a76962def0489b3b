//! Moving AI `.scen` parser on a fixed small map: any input is either a list of problems that
//! lie on the map or a `CliError` naming the file. Parsed problems are searched.
#![no_main]

use clearance_cli::movingai::{movingai_profile, parse_map, parse_scenario};
use clearance_cli::CliError;
use clearance_core::{Cell, PathMap};
use clearance_fuzz::{check_query, FIXED_MAP};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

/// Problems searched per input; the rest are only checked for bounds.
const SEARCHED: usize = 16;

fuzz_target!(|data: &[u8]| {
    let map = parse_map(FIXED_MAP, Path::new("fixed.map")).expect("the fixed map parses");
    let text = String::from_utf8_lossy(data);
    let path = Path::new("fuzz.scen");
    match parse_scenario(&text, path, &map) {
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.starts_with("fuzz.scen"),
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
                other => panic!("unexpected error kind: {other:?}"),
            }
        }
        Ok(problems) => {
            let region = map.grid.region();
            let mut paths = PathMap::new(map.grid.clone());
            paths
                .set_profile(movingai_profile())
                .expect("named profile");
            let mut last_line = 1;
            for (index, problem) in problems.iter().enumerate() {
                assert!(problem.line > last_line, "lines out of order: {problems:?}");
                last_line = problem.line;
                let start = Cell::new(problem.start.0, problem.start.1);
                let goal = Cell::new(problem.goal.0, problem.goal.1);
                assert!(
                    region.contains(start) && region.contains(goal),
                    "{problem:?}"
                );
                assert!(
                    problem.optimal.is_finite() && problem.optimal >= 0.0,
                    "{problem:?}"
                );
                assert!(problem.tolerance() > 0.0);
                if index < SEARCHED {
                    check_query(&paths, start, goal, 1, "movingai");
                }
            }
        }
    }
});
