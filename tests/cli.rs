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

const UNITS: &str = "examples/crossing_units.json";

/// `clearance path ... --json` as a JSON object, with its exit status.
fn path_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let all = [&["path", MAP][..], args, &["--json"]].concat();
    let output = clearance(&all);
    let value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|error| panic!("{all:?}: {error}: {}", stdout(&output)));
    (output.status.code(), value)
}

/// The anchors of a JSON path.
fn anchors(value: &serde_json::Value) -> Vec<(i64, i64)> {
    value["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|anchor| (anchor[0].as_i64().unwrap(), anchor[1].as_i64().unwrap()))
        .collect()
}

#[test]
fn a_unit_on_the_bridge_sends_the_path_round_by_the_ford() {
    let trip = ["--from", "2,9", "--to", "30,9", "--units", UNITS];
    let (status, alone) = path_json(&trip);
    assert_eq!(status, Some(0));
    // Unit 2, a 2x2 at (19, 9), stands on the bridge (rows 9 and 10); ignored by default.
    assert!(anchors(&alone).contains(&(19, 9)), "{alone}");
    let (status, around) = path_json(&[&trip[..], &["--others", "block"]].concat());
    assert_eq!(status, Some(0), "{around}");
    assert_eq!(around["code"], "OK");
    let path = anchors(&around);
    assert_eq!(path.first(), Some(&(2, 9)));
    assert_eq!(path.last(), Some(&(30, 9)));
    assert!(
        path.iter()
            .all(|&(x, y)| !((19..21).contains(&x) && (9..11).contains(&y))),
        "{around}"
    );
    // Round by the ford on row 17.
    assert!(path.iter().any(|&(_, y)| y == 17), "{around}");
    assert!(around["total_cost"].as_f64() > alone["total_cost"].as_f64());
    // Today's keys, no more: occupied_by only with a unit in the way.
    let mut keys: Vec<&str> = around
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    keys.sort_unstable();
    assert_eq!(keys, ["code", "expanded", "ok", "path", "total_cost"]);
    // The drawing marks the other units.
    let output = clearance(&[&["path", MAP][..], &trip, &["--others", "block"]].concat());
    let text = stdout(&output);
    assert!(text.lines().nth(9).unwrap().contains("uu"), "{text}");
}

#[test]
fn a_goal_under_another_unit_is_goal_occupied_and_names_it() {
    let trip = ["--from", "30,2", "--to", "36,2", "--units", UNITS];
    let (status, occupied) = path_json(&[&trip[..], &["--others", "block"]].concat());
    assert_eq!(status, Some(1));
    assert_eq!(occupied["code"], "GOAL_OCCUPIED");
    assert_eq!(occupied["ok"], false);
    assert_eq!(occupied["occupied_by"], 3);
    assert_eq!(occupied["path"], serde_json::json!([]));
    let (status, partial) = path_json(&[&trip[..], &["--others", "block", "--partial"]].concat());
    assert_eq!(status, Some(1));
    assert_eq!(partial["code"], "PARTIAL_PATH");
    assert_eq!(partial["occupied_by"], 3);
    assert!(!anchors(&partial).contains(&(36, 2)));
    // Ignored, unit 3 is not in the way, and the key is absent.
    let (status, ignored) = path_json(&trip);
    assert_eq!(status, Some(0));
    assert!(ignored.get("occupied_by").is_none(), "{ignored}");
    let output = clearance(&[&["path", MAP][..], &trip, &["--others", "block"]].concat());
    assert!(
        stdout(&output).starts_with("GOAL_OCCUPIED: ") && stdout(&output).contains("unit 3"),
        "{}",
        stdout(&output)
    );
}

#[test]
fn other_units_as_cost_raise_the_total_cost() {
    let truck = [
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
        "--units",
        UNITS,
        "--unit-id",
        "1",
    ];
    let cost = |others: &str| {
        let (status, value) = path_json(&[&truck[..], &["--others", others]].concat());
        assert_eq!(status, Some(0), "{others}: {value}");
        value["total_cost"].as_f64().unwrap()
    };
    let (alone, free, dear) = (cost("ignore"), cost("cost:1"), cost("cost:5"));
    assert_eq!(
        alone, free,
        "a multiplier of 1 costs what the terrain costs"
    );
    assert!(dear > alone, "{dear} > {alone}");
    // Blocked, the truck cannot cross: the bridge is taken and the ford is one cell wide.
    let (status, blocked) = path_json(&[&truck[..], &["--others", "block"]].concat());
    assert_eq!(status, Some(1));
    assert_eq!(blocked["code"], "NO_PATH");
}

#[test]
fn the_moving_unit_does_not_count_against_itself() {
    // Unit 1, a 2x2 at (2, 2), moves one step diagonally: its goal overlaps where it stands.
    let step = [
        "--from", "2,2", "--to", "3,3", "--size", "2", "--units", UNITS, "--others", "block",
    ];
    let (status, itself) = path_json(&step);
    assert_eq!(status, Some(1));
    assert_eq!(itself["code"], "GOAL_OCCUPIED");
    assert_eq!(itself["occupied_by"], 1);
    let (status, exempt) = path_json(&[&step[..], &["--unit-id", "1"]].concat());
    assert_eq!(status, Some(0), "{exempt}");
    assert_eq!(anchors(&exempt), [(2, 2), (3, 3)]);
}

#[test]
fn scen_counts_the_units_in_every_problem() {
    let temporary =
        std::env::temp_dir().join(format!("clearance-scen-units-{}", std::process::id()));
    std::fs::create_dir_all(&temporary).unwrap();
    let scen = temporary.join("crossing.map.scen");
    // Across the bridge, and a short trip the units do not touch (optima alone on the map).
    std::fs::write(
        &scen,
        "version 1\n0\tcrossing.map\t40\t20\t2\t9\t30\t9\t28.82842712\n\
         0\tcrossing.map\t40\t20\t1\t1\t4\t1\t3\n",
    )
    .unwrap();
    let run = |extra: &[&str]| -> serde_json::Value {
        let args = [&["scen", MAP, scen.to_str().unwrap(), "--json"][..], extra].concat();
        serde_json::from_str(&stdout(&clearance(&args))).unwrap()
    };
    let alone = run(&[]);
    assert_eq!(alone["mismatches"], 0);
    assert!(alone.get("units").is_none());
    let ignored = run(&["--units", UNITS]);
    assert_eq!(ignored["mismatches"], 0);
    assert_eq!(ignored["units"], 8);
    assert_eq!(ignored["others"], "ignore");
    let blocked = run(&["--units", UNITS, "--others", "block"]);
    assert_eq!(blocked["mismatches"], 1);
    assert_eq!(blocked["mismatched_lines"], serde_json::json!([2]));
    assert_eq!(blocked["others"], "block");
    std::fs::remove_dir_all(&temporary).unwrap();
}

#[test]
fn field_counts_the_units_as_path_does() {
    let starts = ["2,9", "2,2", "10,3", "3,12"];
    let counted = ["--units", UNITS, "--unit-id", "1"];
    let field = |others: &str| -> Vec<serde_json::Value> {
        let mut args = vec!["field", MAP, "--to", "30,9", "--json", "--others", others];
        args.extend(counted);
        for start in starts {
            args.extend(["--from", start]);
        }
        let output = clearance(&args);
        let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        value.as_array().unwrap().clone()
    };
    let (alone, blocked, dear) = (field("ignore"), field("block"), field("cost:5"));
    for (others, results) in [("ignore", &alone), ("block", &blocked), ("cost:5", &dear)] {
        // The first three starts stand on no counted unit (unit 1 is the mover).
        for (start, result) in starts.iter().zip(results).take(3) {
            let (status, path) = path_json(
                &[
                    &["--from", start, "--to", "30,9", "--others", others][..],
                    &counted,
                ]
                .concat(),
            );
            assert_eq!(status, Some(0), "{start} {others}: {path}");
            assert_eq!(result["code"], "OK", "{start} {others}: {result}");
            assert_eq!(result["total_cost"], path["total_cost"], "{start} {others}");
        }
    }
    // Round the truck on the bridge by the ford, or through it at a higher cost.
    for (a, b) in alone.iter().zip(&blocked).take(3) {
        assert!(
            b["total_cost"].as_f64() > a["total_cost"].as_f64(),
            "{a} {b}"
        );
    }
    assert!(dear[0]["total_cost"].as_f64() > alone[0]["total_cost"].as_f64());
    // A start on a unit that counts is not reached under block (the path query lets it
    // walk out), and costs what the terrain costs when ignored.
    assert_eq!(blocked[3]["code"], "NO_PATH");
    assert_eq!(alone[3]["code"], "OK");
    // A goal under a unit that counts, named as path names it.
    let output = clearance(&[
        "field", MAP, "--to", "36,2", "--from", "30,2", "--units", UNITS, "--others", "block",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value[0]["code"], "GOAL_OCCUPIED");
    assert_eq!(value[0]["occupied_by"], 3);
    // The picture of a field that counts them.
    let out =
        std::env::temp_dir().join(format!("clearance-field-units-{}.png", std::process::id()));
    let output = clearance(&[
        "field",
        MAP,
        "--to",
        "30,9",
        "--units",
        UNITS,
        "--others",
        "block",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stdout(&output));
    assert!(stdout(&output).contains("anchors reached"));
    std::fs::remove_file(&out).unwrap();
}

/// The map's rows, for checking where slots lie.
fn crossing_rows() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(repository().join(MAP)).unwrap();
    text.lines()
        .skip(4)
        .map(|row| row.as_bytes().to_vec())
        .collect()
}

#[test]
fn slots_spread_the_group_without_overlaps() {
    let group = [4, 7, 5, 6];
    let output = clearance(&[
        "slots", MAP, "--to", "12,12", "--units", UNITS, "--group", "4,7,5,6", "--json",
    ]);
    assert!(output.status.success(), "{}", stdout(&output));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let slots = value.as_array().unwrap();
    assert_eq!(slots.len(), group.len());
    let units: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repository().join(UNITS)).unwrap()).unwrap();
    let size_of = |id: i64| {
        units
            .as_array()
            .unwrap()
            .iter()
            .find(|unit| unit["id"] == id)
            .unwrap()["size"]
            .as_i64()
            .unwrap()
    };
    let rows = crossing_rows();
    let mut covered = std::collections::HashSet::new();
    // Units outside the group keep their places.
    for unit in units.as_array().unwrap() {
        if !group.contains(&unit["id"].as_i64().unwrap()) {
            let (x, y) = (
                unit["anchor"][0].as_i64().unwrap(),
                unit["anchor"][1].as_i64().unwrap(),
            );
            let size = unit["size"].as_i64().unwrap();
            for dy in 0..size {
                for dx in 0..size {
                    covered.insert((x + dx, y + dy));
                }
            }
        }
    }
    for (slot, id) in slots.iter().zip(group) {
        let keys: Vec<&String> = slot.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["anchor", "id"], "{slot}");
        assert_eq!(slot["id"], id);
        let anchor = slot["anchor"].as_array().expect("every member gets a slot");
        let (x, y) = (anchor[0].as_i64().unwrap(), anchor[1].as_i64().unwrap());
        let size = size_of(id);
        for dy in 0..size {
            for dx in 0..size {
                let cell = (x + dx, y + dy);
                assert!(
                    covered.insert(cell),
                    "{cell:?} under two footprints: {value}"
                );
                let terrain = rows[cell.1 as usize][cell.0 as usize];
                assert!(b".GS".contains(&terrain), "{cell:?} is {}", terrain as char);
            }
        }
        // Compact: every slot within a few steps of the target.
        assert!((x - 12).abs() <= 3 && (y - 12).abs() <= 3, "{value}");
    }
    // The 2x2 goes first, onto the target.
    assert!(covered.contains(&(12, 12)));

    // A 2x2 on the far bank cannot cross (the bridge is taken, the ford is narrow): no slot.
    let output = clearance(&[
        "slots", MAP, "--to", "12,12", "--units", UNITS, "--group", "8,4", "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(value[0], serde_json::json!({"id": 8, "anchor": null}));
    assert_eq!(value[1]["id"], 4);
    assert!(value[1]["anchor"].is_array());

    // The listing: a line per member, then the map with the slots lettered.
    let output = clearance(&[
        "slots", MAP, "--to", "12,12", "--units", UNITS, "--group", "4,7",
    ]);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(
        text.contains("A unit 4, size 1, from (3, 12): slot"),
        "{text}"
    );
    assert!(
        text.contains("B unit 7, size 2, from (8, 16): slot"),
        "{text}"
    );
    assert!(text.lines().any(|line| line.contains("BB")), "{text}");
}

#[test]
fn slots_with_paths_send_each_member_to_its_slot_by_its_profile() {
    let units: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repository().join(UNITS)).unwrap()).unwrap();
    let units = units.as_array().unwrap();
    let group = [4, 7, 5];
    let rows = crossing_rows();
    let temporary =
        std::env::temp_dir().join(format!("clearance-slot-paths-{}", std::process::id()));
    std::fs::create_dir_all(&temporary).unwrap();
    let mut slots_by_profile = Vec::new();
    for profile in ["infantry", "tank"] {
        let output = clearance(&[
            "slots",
            MAP,
            "--to",
            "19,5",
            "--units",
            UNITS,
            "--group",
            "4,7,5",
            "--profiles",
            PROFILES,
            "--profile",
            profile,
            "--paths",
            "--json",
        ]);
        assert!(output.status.success(), "{}", stdout(&output));
        let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
        let entries = value.as_array().unwrap();
        assert_eq!(entries.len(), group.len());
        let mut slots = Vec::new();
        for (entry, id) in entries.iter().zip(group) {
            let unit = units.iter().find(|unit| unit["id"] == id).unwrap();
            let size = unit["size"].as_u64().unwrap() as usize;
            let slot = &entry["anchor"];
            let result = &entry["result"];
            assert_eq!(entry["id"], id);
            assert_eq!(result["code"], "OK", "{entry}");
            let path = result["path"].as_array().unwrap();
            assert_eq!(path.first(), Some(&unit["anchor"]), "{entry}");
            assert_eq!(path.last(), Some(slot), "{entry}");
            let (x, y) = (
                slot[0].as_u64().unwrap() as usize,
                slot[1].as_u64().unwrap() as usize,
            );
            let water =
                (y..y + size).any(|row| (x..x + size).any(|column| rows[row][column] == b'W'));
            assert!(
                !(profile == "tank" && water),
                "a tank's slot in the water: {entry}"
            );
            slots.push(slot.clone());
            // The same way asked on its own, with only the units outside the group counted.
            let alone: Vec<&serde_json::Value> = (units.iter())
                .filter(|other| {
                    other["id"] == id || !group.contains(&other["id"].as_i64().unwrap())
                })
                .collect();
            let file = temporary.join(format!("{profile}-{id}.json"));
            std::fs::write(&file, serde_json::to_string(&alone).unwrap()).unwrap();
            let (from, to) = (format!("{},{}", path[0][0], path[0][1]), format!("{x},{y}"));
            let asked = clearance(&[
                "path",
                MAP,
                "--from",
                &from,
                "--to",
                &to,
                "--size",
                &size.to_string(),
                "--units",
                file.to_str().unwrap(),
                "--unit-id",
                &id.to_string(),
                "--others",
                "block",
                "--profiles",
                PROFILES,
                "--profile",
                profile,
                "--json",
            ]);
            let asked: serde_json::Value = serde_json::from_str(&stdout(&asked))
                .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&asked.stderr)));
            assert_eq!(
                asked["total_cost"], result["total_cost"],
                "{entry}\n{asked}"
            );
        }
        slots_by_profile.push(slots);
    }
    // Infantry wades into the river round the target; a tank stops on the bank.
    assert_ne!(slots_by_profile[0], slots_by_profile[1]);
    std::fs::remove_dir_all(&temporary).unwrap();
}

#[test]
fn bad_units_input_gets_one_line_and_exit_status_2() {
    let temporary = std::env::temp_dir().join(format!("clearance-units-{}", std::process::id()));
    std::fs::create_dir_all(&temporary).unwrap();
    let file = |name: &str, text: &str| {
        let path = temporary.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let small = file("small.json", r#"[{"id": 1, "anchor": [2, 2], "size": 0}]"#);
    let large = file(
        "large.json",
        r#"[{"id": 1, "anchor": [2, 2], "size": 256}]"#,
    );
    let outside = file(
        "outside.json",
        r#"[{"id": 1, "anchor": [40, 2], "size": 1}]"#,
    );
    let negative = file(
        "negative.json",
        r#"[{"id": 1, "anchor": [2, -1], "size": 1}]"#,
    );
    let twice = file(
        "twice.json",
        r#"[{"id": 5, "anchor": [2, 2], "size": 1}, {"id": 5, "anchor": [4, 4], "size": 1}]"#,
    );
    let malformed = file(
        "malformed.json",
        "[{\"id\": 1,\n \"anchor\": [2, 2] \"size\": 1}]",
    );
    let not_a_list = file("object.json", r#"{"id": 1, "anchor": [2, 2], "size": 1}"#);
    let no_problems = file("none.scen", "version 1\n");
    let path = |units: &str| -> Vec<String> {
        [
            "path", MAP, "--from", "1,1", "--to", "3,3", "--units", units,
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let with = |mut args: Vec<String>, extra: &[&str]| {
        args.extend(extra.iter().map(|arg| arg.to_string()));
        args
    };
    let slots = |units: &str, group: &str| -> Vec<String> {
        [
            "slots", MAP, "--to", "12,12", "--units", units, "--group", group,
        ]
        .map(str::to_owned)
        .to_vec()
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            path(&small),
            "small.json: unit 1: agent size must be 1 to 255, got 0".into(),
        ),
        (
            path(&large),
            "large.json: unit 1: agent size must be 1 to 255, got 256".into(),
        ),
        (
            path(&outside),
            "outside.json: unit 1: anchor (40, 2) lies outside the map".into(),
        ),
        (
            path(&negative),
            "negative.json: unit 1: anchor (2, -1) lies outside the map".into(),
        ),
        (path(&twice), "twice.json: unit id 5 is used twice".into()),
        (path(&malformed), "malformed.json:2: ".into()),
        (path(&not_a_list), "object.json:1: ".into()),
        (path("missing_units.json"), "missing_units.json: ".into()),
        (
            with(path(UNITS), &["--unit-id", "99"]),
            format!("--unit-id 99: {UNITS} has no unit with that id"),
        ),
        (
            with(path(UNITS), &["--unit-id", "-1", "--others", "block"]),
            "--unit-id -1:".into(),
        ),
        (
            [
                "scen",
                MAP,
                &no_problems,
                "--units",
                UNITS,
                "--unit-id",
                "9",
            ]
            .map(str::to_owned)
            .to_vec(),
            format!("--unit-id 9: {UNITS} has no unit with that id"),
        ),
        (
            ["scen", MAP, &no_problems, "--units", &outside]
                .map(str::to_owned)
                .to_vec(),
            "outside.json: unit 1: anchor (40, 2) lies outside the map".into(),
        ),
        (
            slots(UNITS, "4,99"),
            format!("--group: {UNITS} has no unit with id 99"),
        ),
        (slots(UNITS, "4,5,4"), "--group names unit 4 twice".into()),
        (
            slots(&twice, "5"),
            "twice.json: unit id 5 is used twice".into(),
        ),
        (
            slots(&large, "1"),
            "large.json: unit 1: agent size must be 1 to 255".into(),
        ),
        (
            [
                "slots", MAP, "--to", "40,12", "--units", UNITS, "--group", "4",
            ]
            .map(str::to_owned)
            .to_vec(),
            "--to 40,12: target (40, 12) lies outside the map".into(),
        ),
        (
            with(
                [
                    "field", MAP, "--to", "12,12", "--from", "2,9", "--units", UNITS, "--json",
                ]
                .map(str::to_owned)
                .to_vec(),
                &["--unit-id", "42"],
            ),
            "--unit-id 42:".into(),
        ),
        (
            with(
                ["render", MAP, "--out", "unused.png", "--units"]
                    .map(str::to_owned)
                    .to_vec(),
                &[outside.as_str()],
            ),
            "outside.json: unit 1: anchor (40, 2) lies outside the map".into(),
        ),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = clearance(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: ") && stderr.contains(expected.as_str()),
            "{args:?}: {stderr}"
        );
        assert!(stdout(&output).is_empty(), "{args:?}");
    }
    // Bad rules are refused as the command line is read, as a bad --search is.
    for (others, expected) in [
        ("cost:NaN", "got NaN"),
        ("cost:-1", "got -1"),
        ("cost:inf", "got inf"),
        ("cost:10001", "got 10001"),
        ("cost:", "expected ignore, block or cost:M"),
        ("fly", "expected ignore, block or cost:M"),
    ] {
        for command in [
            &["path", MAP, "--from", "1,1", "--to", "3,3"][..],
            &["scen", MAP, "examples/crossing.map"],
            &["field", MAP, "--to", "3,3", "--from", "1,1", "--json"],
        ] {
            let output = clearance(&[command, &["--units", UNITS, "--others", others]].concat());
            assert_eq!(output.status.code(), Some(2), "{command:?} {others}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(
                stderr.starts_with("error: ")
                    && stderr.contains("--others")
                    && stderr.contains(expected),
                "{others}: {stderr}"
            );
        }
    }
    // A moving unit needs the units it is one of.
    let output = clearance(&[
        "path",
        MAP,
        "--from",
        "1,1",
        "--to",
        "3,3",
        "--unit-id",
        "1",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--units"));
    // So does a group.
    let output = clearance(&["slots", MAP, "--to", "3,3", "--group", "1"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--units"));
    std::fs::remove_dir_all(&temporary).unwrap();
}

/// `clearance range MAP ... --json` as a JSON object, with its exit status.
fn range_json(map: &str, args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let all = [&["range", map][..], args, &["--json"]].concat();
    let output = clearance(&all);
    let value = serde_json::from_str(&stdout(&output))
        .unwrap_or_else(|error| panic!("{all:?}: {error}: {}", stdout(&output)));
    (output.status.code(), value)
}

/// The cells of a range's JSON: anchor, cost, and turns (1 where the key is absent).
fn range_cells(value: &serde_json::Value) -> Vec<((i64, i64), f64, u64)> {
    value["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|cell| {
            let anchor = &cell["anchor"];
            (
                (anchor[0].as_i64().unwrap(), anchor[1].as_i64().unwrap()),
                cell["cost"].as_f64().unwrap(),
                cell.get("turns").map_or(1, |turns| turns.as_u64().unwrap()),
            )
        })
        .collect()
}

/// The cost a range lists for `anchor`, if it lists it.
fn range_cost(value: &serde_json::Value, anchor: (i64, i64)) -> Option<f64> {
    (range_cells(value).into_iter())
        .find(|&(listed, _, _)| listed == anchor)
        .map(|(_, cost, _)| cost)
}

/// The keys of a JSON object, sorted.
fn keys(value: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
    keys.sort_unstable();
    keys
}

/// Whether two costs agree: a range's costs are fixed-point sums (a diagonal is 3363/2378,
/// 4.4e-8 relatively longer than the square root of 2), `path`'s total_cost uses the exact root.
fn same_cost(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(1.0)
}

/// An open 9 x 9 map, written under `temporary`.
fn open_map(temporary: &Path) -> String {
    std::fs::create_dir_all(temporary).unwrap();
    let map = temporary.join("open.map");
    let rows = ".........\n".repeat(9);
    std::fs::write(&map, format!("type octile\nheight 9\nwidth 9\nmap\n{rows}")).unwrap();
    map.to_str().unwrap().to_owned()
}

#[test]
fn range_json_lists_each_anchor_in_range_by_row_at_path_costs() {
    let infantry = ["--profiles", PROFILES, "--profile", "infantry"];
    let (status, value) = range_json(
        MAP,
        &[&["--from", "3,5", "--budget", "6"][..], &infantry].concat(),
    );
    assert_eq!(status, Some(0), "{value}");
    assert_eq!(keys(&value), ["border", "cells", "code"]);
    assert_eq!(value["code"], "OK");
    for cell in value["cells"].as_array().unwrap() {
        assert_eq!(keys(cell), ["anchor", "cost"], "{cell}");
    }
    let cells = range_cells(&value);
    let order: Vec<(i64, i64)> = cells.iter().map(|&((x, y), _, _)| (y, x)).collect();
    assert!(
        order.windows(2).all(|pair| pair[0] < pair[1]),
        "by y then x"
    );
    assert_eq!(
        range_cost(&value, (3, 5)),
        Some(0.0),
        "the start is in range"
    );
    assert!(cells.iter().all(|&(_, cost, _)| cost <= 6.0 * (1.0 + 1e-7)));
    // The border is the outline: anchors in range, in the same order.
    let listed: Vec<serde_json::Value> = (value["cells"].as_array().unwrap().iter())
        .map(|cell| cell["anchor"].clone())
        .collect();
    let border = value["border"].as_array().unwrap();
    assert!(!border.is_empty() && border.len() < listed.len());
    let mut rest = listed.iter();
    assert!(border.iter().all(|anchor| rest.any(|cell| cell == anchor)));
    assert!(!border.contains(&serde_json::json!([3, 5])));
    // Each cost is what `path` finds; through swamp (cost 2) too, and the dearest anchor.
    let dearest = cells
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|&(anchor, _, _)| anchor)
        .unwrap();
    for anchor in [(6, 5), (6, 3), (1, 1), (4, 8), (3, 11), dearest] {
        let to = format!("{},{}", anchor.0, anchor.1);
        let (status, path) = path_json(&[&["--from", "3,5", "--to", &to][..], &infantry].concat());
        assert_eq!(status, Some(0), "{to}: {path}");
        let cost = range_cost(&value, anchor).unwrap_or_else(|| panic!("{to} is in range"));
        let total = path["total_cost"].as_f64().unwrap();
        assert!(same_cost(cost, total), "{to}: range {cost}, path {total}");
    }
    // And an anchor just out of range costs more than the budget.
    assert_eq!(range_cost(&value, (12, 5)), None);
    let (_, path) = path_json(&[&["--from", "3,5", "--to", "12,5"][..], &infantry].concat());
    assert!(path["total_cost"].as_f64().unwrap() > 6.0, "{path}");
}

#[test]
fn a_budget_of_one_plus_root_two_reaches_one_straight_and_one_diagonal_step() {
    let temporary = std::env::temp_dir().join(format!("clearance-range-{}", std::process::id()));
    let map = open_map(&temporary);
    let exact = (1.0 + 2f64.sqrt()).to_string();
    let (status, value) = range_json(&map, &["--from", "4,4", "--budget", &exact]);
    assert_eq!(status, Some(0), "{value}");
    // The start, 4 straight and 4 diagonal steps, 4 double straight ones, 8 knight's moves.
    assert_eq!(range_cells(&value).len(), 21, "{value}");
    let knight = range_cost(&value, (6, 5)).expect("one straight and one diagonal step away");
    assert!(same_cost(knight, 1.0 + 2f64.sqrt()), "{knight}");
    assert_eq!(
        range_cost(&value, (6, 6)),
        None,
        "two diagonals cost 2 sqrt 2"
    );
    assert_eq!(
        range_cost(&value, (7, 4)),
        None,
        "three straight steps cost 3"
    );
    assert_eq!(range_cost(&value, (4, 2)), Some(2.0));
    // A thousandth less, and the knight's moves are out.
    let less = (1.0 + 2f64.sqrt() - 1e-3).to_string();
    let (_, value) = range_json(&map, &["--from", "4,4", "--budget", &less]);
    assert_eq!(range_cells(&value).len(), 13, "{value}");
    assert_eq!(range_cost(&value, (6, 5)), None);
    // The way there.
    let (status, value) = range_json(&map, &["--from", "4,4", "--budget", &exact, "--to", "6,5"]);
    assert_eq!(status, Some(0), "{value}");
    assert_eq!(value["to_code"], "OK");
    assert_eq!(anchors(&value).len(), 3);
    let total = value["total_cost"].as_f64().unwrap();
    assert!((total - (1.0 + 2f64.sqrt())).abs() < 1e-12, "{total}");
    std::fs::remove_dir_all(&temporary).unwrap();
}

#[test]
fn range_to_gives_the_way_there_at_path_cost() {
    let trip = ["--from", "12,12", "--budget", "6"];
    let (status, value) = range_json(MAP, &[&trip[..], &["--to", "15,16"]].concat());
    assert_eq!(status, Some(0), "{value}");
    assert_eq!(
        keys(&value),
        ["border", "cells", "code", "path", "to_code", "total_cost"]
    );
    assert_eq!(
        (&value["code"], &value["to_code"]),
        (&"OK".into(), &"OK".into())
    );
    let path = anchors(&value);
    assert_eq!(path.first(), Some(&(12, 12)));
    assert_eq!(path.last(), Some(&(15, 16)));
    assert!(path
        .windows(2)
        .all(|step| (step[0].0 - step[1].0).abs() <= 1 && (step[0].1 - step[1].1).abs() <= 1));
    let (_, single) = path_json(&["--from", "12,12", "--to", "15,16"]);
    let total = value["total_cost"].as_f64().unwrap();
    assert!(
        (total - single["total_cost"].as_f64().unwrap()).abs() < 1e-9,
        "{single}"
    );
    assert!(same_cost(total, range_cost(&value, (15, 16)).unwrap()));
    // Out of range, off the map: the range is still listed, the exit status is 1.
    for (to, code) in [("20,12", "NO_PATH"), ("12,40", "GOAL_OUT_OF_BOUNDS")] {
        let (status, value) = range_json(MAP, &[&trip[..], &["--to", to]].concat());
        assert_eq!(status, Some(1), "{to}");
        assert_eq!(value["code"], "OK");
        assert_eq!(value["to_code"], code, "{to}");
        assert_eq!(value["path"], serde_json::json!([]));
        assert!(!range_cells(&value).is_empty());
    }
    // The drawing: anchors in range `+`, the border `#`, the start `s`, the path `*` to `g`.
    let output = clearance(&[&["range", MAP][..], &trip, &["--to", "15,16"]].concat());
    assert!(output.status.success());
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows[12].find('s'), Some(12), "{text}");
    assert_eq!(rows[16].find('g'), Some(15), "{text}");
    assert!(
        text.contains('*') && text.contains('+') && text.contains('#'),
        "{text}"
    );
    assert!(
        text.contains("OK: size 1 (movingai) from (12, 12), budget 6: "),
        "{text}"
    );
    assert!(text.contains("OK: to (15, 16): "), "{text}");
    let output = clearance(&[&["range", MAP][..], &trip, &["--to", "20,12"]].concat());
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("NO_PATH: (20, 12) is not within the budget"));
}

#[test]
fn range_turns_label_every_anchor_reached_within_them() {
    let start = ["--from", "12,12", "--budget", "3"];
    let (_, one) = range_json(MAP, &start);
    let (status, three) = range_json(MAP, &[&start[..], &["--turns", "3"]].concat());
    assert_eq!(status, Some(0), "{three}");
    assert_eq!(keys(&three), ["border", "cells", "code"]);
    for cell in three["cells"].as_array().unwrap() {
        assert_eq!(keys(cell), ["anchor", "cost", "turns"], "{cell}");
    }
    let cells = range_cells(&three);
    let order: Vec<(i64, i64)> = cells.iter().map(|&((x, y), _, _)| (y, x)).collect();
    assert!(
        order.windows(2).all(|pair| pair[0] < pair[1]),
        "by y then x"
    );
    // The first turn is the one-turn range, and its border is the border.
    let first: Vec<_> = cells.iter().filter(|cell| cell.2 == 1).copied().collect();
    assert_eq!(first, range_cells(&one));
    assert_eq!(three["border"], one["border"]);
    for turns in 1..=3 {
        assert!(cells.iter().any(|cell| cell.2 == turns), "turn {turns}");
    }
    assert!(cells
        .iter()
        .all(|&(_, cost, turns)| (1..=3).contains(&turns)
            && cost <= 3.0 * turns as f64 * (1.0 + 1e-7)));
    // A turn-3 anchor: the way there costs what the range lists.
    let &((x, y), cost, _) = cells.iter().find(|cell| cell.2 == 3).unwrap();
    let to = format!("{x},{y}");
    let (status, value) = range_json(MAP, &[&start[..], &["--turns", "3", "--to", &to]].concat());
    assert_eq!(status, Some(0), "{value}");
    assert!(
        same_cost(value["total_cost"].as_f64().unwrap(), cost),
        "{value}"
    );
    // Beyond the turns the anchor is not reached.
    let (status, value) = range_json(
        MAP,
        &[&start[..], &["--turns", "3", "--to", "30,12"]].concat(),
    );
    assert_eq!(status, Some(1));
    assert_eq!(value["to_code"], "NO_PATH");
    // The drawing marks anchors by turn.
    let output = clearance(&[&["range", MAP][..], &start, &["--turns", "3"]].concat());
    let text = stdout(&output);
    assert!(text.contains('2') && text.contains('3'), "{text}");
    assert!(text.contains("anchors within 3 turns"), "{text}");
    for turns in ["0", "1001", "x"] {
        let output = clearance(&[&["range", MAP][..], &start, &["--turns", turns]].concat());
        assert_eq!(output.status.code(), Some(2), "--turns {turns}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("--turns"));
    }
}

#[test]
fn range_allies_are_passed_and_enemies_count_by_the_rule() {
    // A soldier west of the bridge; unit 2, a 2x2 at (19, 9), stands on it.
    let soldier = ["--from", "16,9", "--budget", "5", "--units", UNITS];
    let run = |extra: &[&str]| {
        let (status, value) = range_json(MAP, &[&soldier[..], extra].concat());
        assert_eq!(status, Some(0), "{extra:?}: {value}");
        value
    };
    let ignored = run(&[]);
    assert_eq!(range_cost(&ignored, (19, 9)), Some(3.0));
    assert_eq!(range_cost(&ignored, (21, 9)), Some(5.0));
    let blocked = run(&["--others", "block"]);
    for anchor in [(19, 9), (20, 9), (19, 10), (20, 10), (21, 9)] {
        assert_eq!(range_cost(&blocked, anchor), None, "{anchor:?}");
    }
    assert_eq!(range_cost(&blocked, (18, 9)), Some(2.0));
    // As an ally, unit 2 is passed but not stopped on.
    let allied = run(&["--others", "block", "--allies", "2"]);
    assert_eq!(range_cost(&allied, (19, 9)), None);
    assert_eq!(range_cost(&allied, (21, 9)), Some(5.0));
    let (status, value) = range_json(
        MAP,
        &[
            &soldier[..],
            &["--others", "block", "--allies", "2", "--to", "21,9"],
        ]
        .concat(),
    );
    assert_eq!(status, Some(0), "{value}");
    assert!(anchors(&value).contains(&(19, 9)), "{value}");
    let (status, value) = range_json(
        MAP,
        &[
            &soldier[..],
            &["--others", "block", "--allies", "2", "--to", "19,9"],
        ]
        .concat(),
    );
    assert_eq!(status, Some(1));
    assert_eq!(value["to_code"], "GOAL_OCCUPIED");
    // Enemies as cost: dearer anchors, at the cost `path` finds.
    let dear = run(&["--others", "cost:3"]);
    assert_eq!(range_cost(&dear, (21, 9)), None);
    let (_, path) = path_json(&[
        "--from", "16,9", "--to", "19,9", "--units", UNITS, "--others", "cost:3",
    ]);
    let cost = range_cost(&dear, (19, 9)).unwrap();
    assert!(
        same_cost(cost, path["total_cost"].as_f64().unwrap()),
        "{cost} {path}"
    );
    assert!(cost > 3.0);
    // The mover never counts against itself.
    let (status, value) = range_json(
        MAP,
        &[
            "--from", "19,9", "--size", "2", "--budget", "2", "--units", UNITS,
        ]
        .iter()
        .chain(&["--unit-id", "2", "--others", "block"])
        .copied()
        .collect::<Vec<_>>(),
    );
    assert_eq!(status, Some(0), "{value}");
    assert_eq!(range_cost(&value, (19, 9)), Some(0.0));
    assert!(range_cells(&value).len() > 1, "{value}");
    // The drawing marks allies `a` and the other units `u`.
    let output = clearance(
        &[
            &["range", MAP][..],
            &soldier,
            &["--others", "block", "--allies", "2,4"],
        ]
        .concat(),
    );
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(&rows[9][19..21], "aa", "{text}");
    assert_eq!(&rows[12][3..5], "au", "{text}");
    // Allies must be units of the file, each named once.
    for (allies, expected) in [
        (
            "99",
            format!("--allies 99: {UNITS} has no unit with that id"),
        ),
        ("2,4,2", "--allies names unit 2 twice".to_owned()),
    ] {
        let output = clearance(&[&["range", MAP][..], &soldier, &["--allies", allies]].concat());
        assert_eq!(output.status.code(), Some(2), "{allies}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.starts_with("error: ") && stderr.contains(&expected),
            "{stderr}"
        );
    }
    let output = clearance(&[
        "range", MAP, "--from", "16,9", "--budget", "5", "--allies", "2",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--units"));
}

#[test]
fn bad_range_input_gets_a_clear_error() {
    // Budgets that are not a number from 0 to 1e9: one line, exit status 2, nothing on stdout.
    for (budget, expected) in [
        ("NaN", "got NaN"),
        ("-1", "got -1"),
        ("inf", "got inf"),
        ("-inf", "got -inf"),
        ("1e10", "got 10000000000"),
    ] {
        let output = clearance(&["range", MAP, "--from", "2,2", "--budget", budget, "--json"]);
        assert_eq!(output.status.code(), Some(2), "{budget}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with("error: --budget: ") && stderr.contains(expected),
            "{budget}: {stderr}"
        );
        assert!(stdout(&output).is_empty());
    }
    let output = clearance(&["range", MAP, "--from", "2,2", "--budget", "lots"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--budget"));
    let output = clearance(&[
        "range",
        MAP,
        "--from",
        "2,2",
        "--budget",
        "3",
        "--profile",
        "boat",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: unknown profile \"boat\""),
        "{stderr}"
    );
    // Refusals are codes, as a query from the start would give them: exit status 1.
    for (from, size, code, why) in [
        (
            "2,2",
            "0",
            "INVALID_AGENT_SIZE",
            "the agent size must be 1 to 255",
        ),
        (
            "2,2",
            "-3",
            "INVALID_AGENT_SIZE",
            "the agent size must be 1 to 255",
        ),
        (
            "2,2",
            "256",
            "INVALID_AGENT_SIZE",
            "the agent size must be 1 to 255",
        ),
        (
            "40,5",
            "1",
            "START_OUT_OF_BOUNDS",
            "the start lies outside the map",
        ),
        (
            "-1,5",
            "1",
            "START_OUT_OF_BOUNDS",
            "the start lies outside the map",
        ),
        (
            "0,0",
            "1",
            "START_CLEARANCE_INSUFFICIENT",
            "clearance there is 0",
        ),
        (
            "6,1",
            "2",
            "START_CLEARANCE_INSUFFICIENT",
            "is 1, the agent needs 2",
        ),
    ] {
        let args = [
            "--from", from, "--size", size, "--budget", "3", "--to", "4,4",
        ];
        let (status, value) = range_json(MAP, &args);
        assert_eq!(status, Some(1), "{args:?}");
        assert_eq!(value["code"], code, "{args:?}");
        assert_eq!(value["to_code"], code, "{args:?}");
        assert_eq!(value["cells"], serde_json::json!([]));
        assert_eq!(value["path"], serde_json::json!([]));
        let output = clearance(&[&["range", MAP][..], &args].concat());
        assert_eq!(output.status.code(), Some(1));
        let text = stdout(&output);
        assert!(
            text.starts_with(&format!("{code}: ")) && text.contains(why),
            "{text}"
        );
    }
}

#[test]
fn range_writes_a_png() {
    let out = std::env::temp_dir().join(format!("clearance-range-{}.png", std::process::id()));
    let output = clearance(&[
        "range",
        MAP,
        "--from",
        "12,12",
        "--budget",
        "8",
        "--to",
        "14,6",
        "--units",
        UNITS,
        "--out",
        out.to_str().unwrap(),
        "--scale",
        "4",
    ]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    assert!(
        text.contains("anchors in range") && text.contains("wrote"),
        "{text}"
    );
    assert!(!text.contains('#'), "no drawing with --out: {text}");
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(bytes[20..24].try_into().unwrap());
    assert_eq!((width, height), (160, 80));
    std::fs::remove_file(&out).unwrap();
}

#[test]
fn path_smooth_json_adds_the_waypoints_and_their_length_only() {
    let args = ["--from", "1,1", "--to", "38,18"];
    let (plain_status, plain) = path_json(&args);
    let (status, smooth) = path_json(&[&args[..], &["--smooth"]].concat());
    assert_eq!((plain_status, status), (Some(0), Some(0)));
    let mut expected = keys(&plain);
    assert!(!expected.contains(&"waypoints".to_owned()));
    expected.extend(["waypoint_length".to_owned(), "waypoints".to_owned()]);
    expected.sort_unstable();
    assert_eq!(keys(&smooth), expected);
    // Smoothing leaves the path and its cost as they were.
    assert_eq!(smooth["path"], plain["path"]);
    assert_eq!(smooth["total_cost"], plain["total_cost"]);
    let path = anchors(&smooth);
    let waypoints = anchors(&serde_json::json!({ "path": smooth["waypoints"] }));
    assert_eq!(waypoints.first(), path.first());
    assert_eq!(waypoints.last(), path.last());
    assert!(waypoints.len() >= 2 && waypoints.len() < path.len());
    let mut rest = path.iter();
    assert!(
        waypoints.iter().all(|w| rest.any(|anchor| anchor == w)),
        "waypoints in path order"
    );
    let length = |cells: &[(i64, i64)]| -> f64 {
        cells
            .windows(2)
            .map(|p| ((p[1].0 - p[0].0) as f64).hypot((p[1].1 - p[0].1) as f64))
            .sum()
    };
    let reported = smooth["waypoint_length"].as_f64().unwrap();
    assert!((reported - length(&waypoints)).abs() < 1e-9);
    assert!(reported < length(&path));
    // A failed query asked to smooth has no waypoints, under the same key.
    let (_, refused) = path_json(&["--from", "1,1", "--to", "38,18", "--size", "9", "--smooth"]);
    assert_eq!(refused["waypoints"], serde_json::json!([]));
    assert_eq!(refused["waypoint_length"].to_string(), "0.0");
}

#[test]
fn path_smooth_marks_the_waypoints_and_render_smooth_draws_them() {
    let args = ["path", MAP, "--from", "1,1", "--to", "38,18", "--smooth"];
    let output = clearance(&args);
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains(" waypoints, length "), "{text}");
    let plain = stdout(&clearance(&args[..args.len() - 1]));
    // The drawing is every line but the one (or, with the waypoints', two) below it.
    let marks = |text: &str, below: usize| -> usize {
        let lines: Vec<&str> = text.lines().collect();
        lines[..lines.len() - below]
            .iter()
            .map(|line| line.matches('o').count())
            .sum()
    };
    assert!(marks(&text, 2) > marks(&plain, 1), "{text}");
    let picture = |smooth: bool| {
        let out = std::env::temp_dir().join(format!(
            "clearance-render-smooth-{smooth}-{}.png",
            std::process::id()
        ));
        let mut args = vec![
            "render",
            MAP,
            "--out",
            out.to_str().unwrap(),
            "--from",
            "1,1",
            "--to",
            "38,18",
            "--scale",
            "4",
        ];
        if smooth {
            args.push("--smooth");
        }
        let output = clearance(&args);
        assert!(output.status.success());
        let bytes = std::fs::read(&out).unwrap();
        std::fs::remove_file(&out).unwrap();
        bytes
    };
    let (plain, smooth) = (picture(false), picture(true));
    assert_eq!(&smooth[1..4], b"PNG");
    assert_eq!(smooth[16..24], plain[16..24], "same picture size");
    assert_ne!(smooth, plain, "the waypoints' lines are drawn");
}
