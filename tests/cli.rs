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
