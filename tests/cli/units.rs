//! Other units on the map: `--units` and `--others` in `path`, `scen` and `field`.

use super::*;

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
    let temporary = scratch_path("scen-units");
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
    let out = scratch_path("field-units.png");
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
