//! The `clearance` command, run as a user would run it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn clearance(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_clearance"))
        .args(args)
        .current_dir(repository())
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const MAP: &str = "examples/crossing.map";
const PROFILES: &str = "examples/profiles.json";

#[test]
fn path_draws_the_route_and_its_cost() {
    let output = clearance(&[
        "path",
        MAP,
        "--from",
        "2,2",
        "--to",
        "37,2",
        "--size",
        "2",
        "--profiles",
        PROFILES,
        "--profile",
        "truck",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains("OK: size 2 (truck)"), "{text}");
    assert!(
        text.lines().nth(2).unwrap().contains('s'),
        "start marked on row 2: {text}"
    );
    assert!(text.contains('*'));
}

#[test]
fn path_json_has_the_documented_keys() {
    let output = clearance(&["path", MAP, "--from", "1,1", "--to", "38,18", "--json"]);
    assert!(output.status.success());
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["ok"], true);
    assert_eq!(value["code"], "OK");
    assert_eq!(value["path"][0], serde_json::json!([1, 1]));
    assert_eq!(
        value["path"].as_array().unwrap().last().unwrap(),
        &serde_json::json!([38, 18])
    );
    assert!(value["total_cost"].as_f64().unwrap() > 37.0);
    assert!(value["expanded"].as_u64().unwrap() > 0);
}

#[test]
fn a_tank_cannot_cross_the_river_but_infantry_wades() {
    let args = |profile: &'static str| {
        [
            "path",
            MAP,
            "--from",
            "1,1",
            "--to",
            "36,1",
            "--size",
            "3",
            "--profiles",
            PROFILES,
            "--profile",
            profile,
            "--json",
        ]
    };
    let tank = clearance(&args("tank"));
    assert_eq!(tank.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&tank)).unwrap();
    assert_eq!(value["code"], "NO_PATH");
    let infantry = clearance(&args("infantry"));
    assert!(infantry.status.success());
}

#[test]
fn clearance_failures_report_what_was_found() {
    let output = clearance(&[
        "path", MAP, "--from", "1,1", "--to", "38,18", "--size", "3", "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["code"], "GOAL_CLEARANCE_INSUFFICIENT");
    assert_eq!(value["clearance_found"], 1);
    assert_eq!(value["clearance_needed"], 3);
}

#[test]
fn bad_input_gets_one_line_and_a_nonzero_exit() {
    let temporary = std::env::temp_dir().join(format!("clearance-cli-{}", std::process::id()));
    std::fs::create_dir_all(&temporary).unwrap();
    let bad_map = temporary.join("bad.map");
    std::fs::write(&bad_map, "type octile\nheight 1\nwidth 2\nmap\n.x\n").unwrap();
    let bad_profiles = temporary.join("bad.json");
    std::fs::write(
        &bad_profiles,
        r#"{"profiles": {"tank": {"costs": {".": NaN}}}}"#,
    )
    .unwrap();
    let bad_map = bad_map.to_str().unwrap();
    let bad_profiles = bad_profiles.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        (
            &["path", "missing.map", "--from", "0,0", "--to", "1,1"],
            "missing.map",
        ),
        (
            &["path", bad_map, "--from", "0,0", "--to", "1,0"],
            "bad.map:5",
        ),
        (
            &[
                "path",
                MAP,
                "--from",
                "0,0",
                "--to",
                "1,1",
                "--profiles",
                bad_profiles,
            ],
            "bad.json:1",
        ),
        (
            &[
                "path",
                MAP,
                "--from",
                "1,1",
                "--to",
                "2,2",
                "--profile",
                "boat",
            ],
            "unknown profile",
        ),
        (&["scen", MAP, "examples/profiles.json"], "profiles.json:1"),
    ];
    for (args, expected) in cases {
        let output = clearance(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected),
            "{stderr}"
        );
    }
    // Out-of-range anchors and sizes are query results with their own codes.
    for (args, code) in [
        (
            ["--from", "99,1", "--to", "1,1", "--size", "1"],
            "START_OUT_OF_BOUNDS",
        ),
        (
            ["--from", "1,1", "--to", "1,-1", "--size", "1"],
            "GOAL_OUT_OF_BOUNDS",
        ),
        (
            ["--from", "1,1", "--to", "2,2", "--size", "0"],
            "INVALID_AGENT_SIZE",
        ),
        (
            ["--from", "1,1", "--to", "2,2", "--size", "256"],
            "INVALID_AGENT_SIZE",
        ),
    ] {
        let mut all = vec!["path", MAP];
        all.extend(args);
        let output = clearance(&all);
        assert_eq!(output.status.code(), Some(1), "{all:?}");
        assert!(stdout(&output).starts_with(code), "{}", stdout(&output));
    }
    // Malformed coordinates are usage errors.
    let output = clearance(&["path", MAP, "--from", "1;1", "--to", "2,2"]);
    assert_eq!(output.status.code(), Some(2));
    std::fs::remove_dir_all(&temporary).unwrap();
}

#[test]
fn scen_checks_every_problem() {
    let dir =
        clearance_cli::shared_data::movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let map = dir.join("arena.map");
    let scen = dir.join("arena.map.scen");
    let output = clearance(&[
        "scen",
        map.to_str().unwrap(),
        scen.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        output.status.success(),
        "{}{}",
        stdout(&output),
        String::from_utf8_lossy(&output.stderr)
    );
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value["problems"], 130);
    assert_eq!(value["mismatches"], 0);
}

#[test]
fn render_writes_a_png() {
    let out = std::env::temp_dir().join(format!("clearance-render-{}.png", std::process::id()));
    let output = clearance(&[
        "render",
        MAP,
        "--out",
        out.to_str().unwrap(),
        "--from",
        "2,2",
        "--to",
        "37,2",
        "--size",
        "2",
        "--scale",
        "4",
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (160, 80));
    std::fs::remove_file(Path::new(&out)).unwrap();
}

#[test]
fn partial_paths_and_expansion_limits_from_the_command_line() {
    let args = ["path", MAP, "--from", "1,1", "--to", "30,10", "--size", "3"];
    let refused = clearance(&args);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        stdout(&refused).contains("GOAL_CLEARANCE_INSUFFICIENT"),
        "{}",
        stdout(&refused)
    );

    let partial = clearance(&[&args[..], &["--partial", "--json"]].concat());
    assert_eq!(
        partial.status.code(),
        Some(1),
        "a partial path is not the goal"
    );
    let value: serde_json::Value = serde_json::from_str(&stdout(&partial)).unwrap();
    assert_eq!(value["code"], "PARTIAL_PATH");
    assert_eq!(value["path"][0], serde_json::json!([1, 1]));
    assert_ne!(
        value["path"].as_array().unwrap().last(),
        Some(&serde_json::json!([30, 10]))
    );

    let limited = clearance(&[
        "path",
        MAP,
        "--from",
        "1,1",
        "--to",
        "38,18",
        "--max-expansions",
        "3",
    ]);
    assert_eq!(limited.status.code(), Some(1));
    assert!(stdout(&limited).contains("SEARCH_LIMIT_REACHED"));
}

#[test]
fn negative_sizes_and_coordinates_are_values_not_flags() {
    let json = |args: &[&str]| -> serde_json::Value {
        let output = clearance(args);
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        serde_json::from_slice(&output.stdout).expect("one JSON object")
    };
    let bad_size = json(&[
        "path", MAP, "--from", "2,2", "--to", "5,2", "--size", "-2", "--json",
    ]);
    assert_eq!(bad_size["code"], "INVALID_AGENT_SIZE");
    let outside = json(&["path", MAP, "--from", "-1,2", "--to", "5,2", "--json"]);
    assert_eq!(outside["code"], "START_OUT_OF_BOUNDS");
    let outside = json(&["path", MAP, "--from", "2,2", "--to", "5,-7", "--json"]);
    assert_eq!(outside["code"], "GOAL_OUT_OF_BOUNDS");
}

#[test]
fn every_search_mode_finds_the_same_cost() {
    let mut costs = Vec::new();
    for mode in ["auto", "jump", "plain"] {
        let output = clearance(&[
            "path",
            MAP,
            "--from",
            "2,2",
            "--to",
            "37,2",
            "--size",
            "2",
            "--profiles",
            PROFILES,
            "--profile",
            "infantry",
            "--search",
            mode,
            "--json",
        ]);
        assert!(output.status.success(), "{mode}: {}", stdout(&output));
        let result: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        costs.push(result["total_cost"].as_f64().unwrap());
    }
    assert!(costs.iter().all(|&cost| cost == costs[0]), "{costs:?}");
    let output = clearance(&[
        "path", MAP, "--from", "2,2", "--to", "5,2", "--search", "fast",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("auto, jump, plain"));
}

#[test]
fn field_json_answers_each_start_as_path_json_does() {
    let starts = ["2,2", "1,1", "0,0", "37,2", "50,50", "20,10"];
    let mut args = vec![
        "field",
        MAP,
        "--to",
        "37,2",
        "--size",
        "2",
        "--profiles",
        PROFILES,
        "--profile",
        "truck",
        "--json",
    ];
    for start in starts {
        args.extend(["--from", start]);
    }
    let output = clearance(&args);
    // Some starts fail (a wall, outside the map), so the exit status is 1.
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let results = value.as_array().unwrap();
    assert_eq!(results.len(), starts.len());
    for (start, field) in starts.iter().zip(results) {
        let single = clearance(&[
            "path",
            MAP,
            "--from",
            start,
            "--to",
            "37,2",
            "--size",
            "2",
            "--profiles",
            PROFILES,
            "--profile",
            "truck",
            "--json",
        ]);
        let path: serde_json::Value = serde_json::from_str(&stdout(&single)).unwrap();
        assert_eq!(field["code"], path["code"], "{start}");
        assert_eq!(field["ok"], path["ok"], "{start}");
        assert_eq!(field["total_cost"], path["total_cost"], "{start}");
        assert_eq!(field["clearance_found"], path["clearance_found"], "{start}");
        let anchors = field["path"].as_array().unwrap();
        assert_eq!(
            anchors.is_empty(),
            path["path"].as_array().unwrap().is_empty()
        );
        if let Some(last) = anchors.last() {
            assert_eq!(last, &serde_json::json!([37, 2]));
            let (x, y) = start.split_once(',').unwrap();
            let first: [i32; 2] = [x.parse().unwrap(), y.parse().unwrap()];
            assert_eq!(anchors[0], serde_json::json!(first));
        }
    }
    assert_eq!(results[0]["code"], "OK");
    assert_eq!(results[2]["code"], "START_CLEARANCE_INSUFFICIENT");
    assert_eq!(results[3]["path"], serde_json::json!([[37, 2]]));
    assert_eq!(results[4]["code"], "START_OUT_OF_BOUNDS");
}

#[test]
fn field_draws_costs_and_next_steps_to_the_nearest_goal() {
    let out = std::env::temp_dir().join(format!("clearance-field-{}.png", std::process::id()));
    let output = clearance(&[
        "field",
        MAP,
        "--to",
        "37,2",
        "--to",
        "2,17",
        "--from",
        "3,15",
        "--out",
        out.to_str().unwrap(),
        "--scale",
        "6",
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    // The start near the second goal goes there.
    assert!(
        text.contains("OK: size 1 (movingai) from (3, 15) to (2, 17)"),
        "{text}"
    );
    assert!(text.contains("anchors reached"), "{text}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (240, 120));
    std::fs::remove_file(Path::new(&out)).unwrap();
}

#[test]
fn field_refusals_have_codes_and_usage_errors_exit_2() {
    let output = clearance(&["field", MAP, "--to", "50,2", "--from", "1,1", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value[0]["code"], "GOAL_OUT_OF_BOUNDS");
    // Several goals, one of them in a wall.
    let output = clearance(&[
        "field", MAP, "--to", "37,2", "--to", "0,0", "--from", "1,1", "--json",
    ]);
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value[0]["code"], "GOAL_CLEARANCE_INSUFFICIENT");
    // Neither a picture nor JSON asked for; JSON without starts; a picture for a bad size.
    assert_eq!(
        clearance(&["field", MAP, "--to", "1,1"]).status.code(),
        Some(2)
    );
    assert_eq!(
        clearance(&["field", MAP, "--to", "1,1", "--json"])
            .status
            .code(),
        Some(2)
    );
    let out = std::env::temp_dir().join(format!("clearance-field-bad-{}.png", std::process::id()));
    let output = clearance(&[
        "field",
        MAP,
        "--to",
        "1,1",
        "--size",
        "0",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--size"));
}
