//! `path`, `scen` and `render`: routes, their JSON, failures and bad input.

use super::*;

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
    let temporary = scratch_path("cli");
    std::fs::create_dir_all(&temporary).unwrap();
    let bad_map = temporary.join("bad.map");
    std::fs::write(&bad_map, "type octile\nheight 1\nwidth 2\nmap\n.x\n").unwrap();
    let bad_profiles = temporary.join("bad.json");
    std::fs::write(
        &bad_profiles,
        r#"{"profiles": {"tank": {"costs": {".": NaN}}}}"#,
    )
    .unwrap();
    let built_in = temporary.join("built_in.json");
    std::fs::write(
        &built_in,
        r#"{"profiles": {"movingai": {"costs": {".": 5}}}}"#,
    )
    .unwrap();
    let bad_map = bad_map.to_str().unwrap();
    let bad_profiles = bad_profiles.to_str().unwrap();
    let built_in = built_in.to_str().unwrap();
    let cases: [(&[&str], &str); 6] = [
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
        (
            &[
                "path",
                MAP,
                "--from",
                "1,1",
                "--to",
                "2,2",
                "--profiles",
                built_in,
            ],
            "built_in.json: the profile \"movingai\" is built in",
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
    let out = scratch_path("render.png");
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
    assert_eq!(png_size_and_remove(&out), (160, 80));
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
