//! Every problem of every shared Moving AI scenario file, against its published optimum, plus
//! the parsers' handling of malformed files.

use clearance_cli::movingai::{
    movingai_profile, parse_map, parse_scenario, read_map, read_scenario,
};
use clearance_cli::profiles::parse_profiles;
use clearance_cli::shared_data::{movingai_dir, LARGE_MAPS, MAPS};
use clearance_cli::CliError;
use clearance_core::{PathMap, PathQuery, SearchMode};
use std::path::Path;

#[test]
fn every_shared_scenario_matches_its_published_optimum_in_every_search_mode() {
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let mut total = 0;
    for name in MAPS.into_iter().chain(LARGE_MAPS) {
        let map = read_map(&dir.join(format!("{name}.map"))).unwrap();
        let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map).unwrap();
        assert!(!problems.is_empty(), "{name} has no problems");
        let mut path_map = PathMap::new(map.grid.clone());
        path_map.set_profile(movingai_profile()).unwrap();
        let mut mismatches = Vec::new();
        for problem in &problems {
            let (start, goal) = problem.endpoints();
            let query = PathQuery::new(start, goal, 1, "movingai");
            let plain = path_map.query(&query.search(SearchMode::Plain));
            let jump = path_map.query(&query.search(SearchMode::Jump));
            assert_eq!(
                (plain.code, plain.cost),
                (jump.code, jump.cost),
                "{name} line {}: plain A* and jump search disagree",
                problem.line
            );
            let cost = jump.is_ok().then(|| jump.total_cost());
            if !cost.is_some_and(|cost| (cost - problem.optimal).abs() <= problem.tolerance()) {
                mismatches.push((problem.line, problem.optimal, jump.code, cost));
            }
        }
        assert!(
            mismatches.is_empty(),
            "{name}: {} mismatches, first: {:?}",
            mismatches.len(),
            &mismatches[..mismatches.len().min(5)]
        );
        total += problems.len();
    }
    // The shared selection: 130 + 929 + 1280 + 2430 + 490 problems, then the large maps'
    // 2940 + 300.
    assert_eq!(total, 8499);
}

fn syntax_error_line(error: CliError) -> usize {
    match error {
        CliError::Syntax { line, .. } => line,
        other => panic!("expected a syntax error, got {other}"),
    }
}

const SMALL_MAP: &str = "type octile\nheight 2\nwidth 3\nmap\n..T\nS.W\n";

#[test]
fn map_parser_reads_terrain_as_character_bytes() {
    let map = parse_map(SMALL_MAP, Path::new("small.map")).unwrap();
    assert_eq!(map.grid.as_bytes(), b"..TS.W");
    // Trailing text after the last row (as in some redistributed files) is ignored.
    let with_citation = format!("{SMALL_MAP}\n@article{{...}}\n");
    assert!(parse_map(&with_citation, Path::new("small.map")).is_ok());
}

#[test]
fn map_parser_names_the_bad_line() {
    let cases = [
        ("type octile\nheight 2\nwidth 3\nmap\n..T\nS.X\n", 6),
        ("type octile\nheight 2\nwidth 3\nmap\n..T\nS.\n", 6),
        ("type octile\nheight 2\nwidth 3\nmap\n..T\n", 5),
        ("type octile\nheight two\nwidth 3\nmap\n", 2),
        ("type octile\nheight 0\nwidth 3\nmap\n", 2),
        ("type octile\nwidth 3\nmap\n...\n", 1),
        ("type octile\nheight 1\nwidth 3\nbanana\n", 4),
        ("", 1),
    ];
    for (text, line) in cases {
        let error = parse_map(text, Path::new("bad.map")).unwrap_err();
        let message = error.to_string();
        assert!(message.starts_with("bad.map:"), "{message}");
        assert_eq!(syntax_error_line(error), line, "{text:?}");
    }
}

#[test]
fn a_map_too_large_is_refused_from_its_header() {
    // 32768 x 32768 is 2^30 cells, over the engine's 2^28: refused before any row is read
    // (none is given), naming the limit, not with a row count.
    let text = "type octile\nheight 32768\nwidth 32768\nmap\n";
    let message = parse_map(text, Path::new("huge.map"))
        .unwrap_err()
        .to_string();
    assert!(message.starts_with("huge.map:"), "{message}");
    assert!(message.contains("268435456"), "{message}");
}

#[test]
fn scenario_parser_names_the_bad_line() {
    let map = parse_map(SMALL_MAP, Path::new("small.map")).unwrap();
    let good = "version 1\n0\tsmall.map\t3\t2\t0\t0\t1\t1\t1.41421356\n";
    let problems = parse_scenario(good, Path::new("s.scen"), &map).unwrap();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].decimals, 8);
    let cases = [
        ("version 2\n", 1),
        ("version 1\n0\tsmall.map\t3\t2\t0\t0\t1\t1\n", 2),
        ("version 1\n0\tsmall.map\t3\t2\t0\t0\t3\t1\t1.0\n", 2),
        ("version 1\n0\tsmall.map\t3\t2\t0\t-1\t1\t1\t1.0\n", 2),
        ("version 1\n0\tsmall.map\t4\t2\t0\t0\t1\t1\t1.0\n", 2),
        ("version 1\n\n0\tsmall.map\t3\t2\t0\t0\t1\t1\tnan\n", 3),
        ("version 1\n0\tsmall.map\t3\t2\tx\t0\t1\t1\t1.0\n", 2),
    ];
    for (text, line) in cases {
        let error = parse_scenario(text, Path::new("bad.scen"), &map).unwrap_err();
        assert_eq!(syntax_error_line(error), line, "{text:?}");
    }
}

#[test]
fn profile_files_are_validated() {
    let good = r#"{"profiles": {"tank": {"costs": {".": 1.0, "S": 3.0}}}}"#;
    let profiles = parse_profiles(good, Path::new("p.json")).unwrap();
    assert_eq!(profiles[0].name(), "tank");
    assert_eq!(profiles[0].multiplier(b'S'), Some(3.0));
    assert_eq!(profiles[0].multiplier(b'W'), None);
    for bad in [
        r#"{"profiles": {"tank": {"costs": {".": -1.0}}}}"#,
        r#"{"profiles": {"tank": {"costs": {"..": 1.0}}}}"#,
        r#"{"profiles": {"tank": {"costs": {".": 1e300}}}}"#,
        r#"{"profiles": {"": {"costs": {".": 1.0}}}}"#,
        r#"{"profiles": {}}"#,
        r#"{"profiles": {"tank": {"cost": {".": 1.0}}}}"#,
        r#"{"profiles": {"tank": {"costs": {".": "fast"}}}}"#,
        "{\n\"profiles\": [\n",
    ] {
        let error = parse_profiles(bad, Path::new("p.json")).unwrap_err();
        assert!(error.to_string().starts_with("p.json"), "{error}");
    }
}
