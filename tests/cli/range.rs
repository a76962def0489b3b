//! `range`: movement ranges, their JSON, turns, allies and enemies, and pictures.

use super::*;

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

/// Whether two costs agree: a range's costs are fixed-point sums (a diagonal is 3363/2378,
/// 4.4e-8 relatively longer than the square root of 2), `path`'s total_cost uses the exact root.
fn same_cost(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(1.0)
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
    let map = open_map("range", 9, 9);
    let temporary = map.parent().unwrap().to_owned();
    let map = map.to_str().unwrap();
    let exact = (1.0 + 2f64.sqrt()).to_string();
    let (status, value) = range_json(map, &["--from", "4,4", "--budget", &exact]);
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
    let (_, value) = range_json(map, &["--from", "4,4", "--budget", &less]);
    assert_eq!(range_cells(&value).len(), 13, "{value}");
    assert_eq!(range_cost(&value, (6, 5)), None);
    // The way there.
    let (status, value) = range_json(map, &["--from", "4,4", "--budget", &exact, "--to", "6,5"]);
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
    // Out of range, in the water, off the map: the range is still listed, the exit status
    // is 1.
    let refused = [
        ("30,12", "NO_PATH"),
        ("20,12", "GOAL_CLEARANCE_INSUFFICIENT"),
        ("12,40", "GOAL_OUT_OF_BOUNDS"),
    ];
    for (to, code) in refused {
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
    let output = clearance(&[&["range", MAP][..], &trip, &["--to", "30,12"]].concat());
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("NO_PATH: (30, 12) is not within the budget"));
    let output = clearance(&[&["range", MAP][..], &trip, &["--to", "20,12"]].concat());
    assert_eq!(output.status.code(), Some(1));
    let water =
        "GOAL_CLEARANCE_INSUFFICIENT: the unit does not fit at (20, 12) (clearance 0, size 1)";
    assert!(stdout(&output).contains(water), "{}", stdout(&output));
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
    let out = scratch_path("range.png");
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
    assert_eq!(png_size_and_remove(&out), (160, 80));
}

#[test]
fn range_smooth_gives_the_way_its_waypoints_across_allies() {
    // The soldier west of the bridge, with unit 2 (a 2x2 on the bridge) an ally it may cross.
    let args = [
        "--from", "16,9", "--budget", "8", "--units", UNITS, "--others", "block", "--allies", "2",
        "--to", "22,11",
    ];
    let (status, plain) = range_json(MAP, &args);
    assert_eq!(status, Some(0), "{plain}");
    assert!(
        plain.get("waypoints").is_none(),
        "no waypoints without --smooth"
    );
    let (status, smooth) = range_json(MAP, &[&args[..], &["--smooth"]].concat());
    assert_eq!(status, Some(0), "{smooth}");
    assert_eq!(smooth["path"], plain["path"], "smoothing keeps the path");
    let path = anchors(&smooth);
    let waypoints: Vec<(i64, i64)> = (smooth["waypoints"].as_array().unwrap().iter())
        .map(|anchor| (anchor[0].as_i64().unwrap(), anchor[1].as_i64().unwrap()))
        .collect();
    assert_eq!(waypoints.first(), path.first());
    assert_eq!(waypoints.last(), path.last());
    assert!(
        waypoints.len() < path.len() && waypoints.iter().all(|anchor| path.contains(anchor)),
        "{waypoints:?} of {path:?}"
    );
    let length = smooth["waypoint_length"].as_f64().unwrap();
    assert!(length < smooth["total_cost"].as_f64().unwrap(), "{smooth}");
    // The first leg runs straight over the ally's cells (19..=20, 9..=10) on the bridge.
    assert!(path.contains(&(19, 9)), "{path:?}");
    assert_eq!(waypoints[0], (16, 9));
    assert!(
        waypoints[1].0 > 20,
        "the leg crosses the ally: {waypoints:?}"
    );
    // The drawing marks the inner waypoints and says how long they are.
    let output = clearance(&[&["range", MAP][..], &args, &["--smooth"]].concat());
    let text = stdout(&output);
    assert!(
        text.contains(&format!("{} waypoints, length", waypoints.len())),
        "{text}"
    );
    // --smooth needs --to.
    let output = clearance(&["range", MAP, "--from", "16,9", "--budget", "8", "--smooth"]);
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn range_to_a_goal_under_a_unit_names_it_as_path_does() {
    let blocked = ["--units", UNITS, "--others", "block"];
    let args = [
        &["--from", "6,12", "--budget", "5", "--to", "4,12"][..],
        &blocked,
    ]
    .concat();
    let (status, range) = range_json(MAP, &args);
    assert_eq!(status, Some(1));
    assert_eq!(range["to_code"], "GOAL_OCCUPIED");
    assert_eq!(range["occupied_by"], 5);
    let (_, path) = path_json(&[&["--from", "6,12", "--to", "4,12"][..], &blocked].concat());
    assert_eq!(
        (&path["code"], &path["occupied_by"]),
        (&range["to_code"], &range["occupied_by"])
    );
}
