//! `field`: flow fields answered per start, drawn, and refused.

use super::*;

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
    let out = scratch_path("field.png");
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
    assert_eq!(png_size_and_remove(&out), (240, 120));
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
    // Neither a picture nor JSON asked for; JSON without starts.
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
    let out = scratch_path("field-bad.png");
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
    // A bad size is the field's code, as a query's, with or without a picture; none is
    // written.
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).starts_with("INVALID_AGENT_SIZE: no field for size 0"));
    assert!(!out.exists());
}

#[test]
fn field_smooth_gives_each_path_waypoints_joined_by_clear_moves() {
    let starts = ["2,2", "2,15", "1,1", "50,50"];
    // Units 4 to 6 stand by the way from (2, 15): the paths go round them.
    let moving_unit_at_the_first_start = ["--units", UNITS, "--others", "block", "--unit-id", "1"];
    for units in [&[][..], &moving_unit_at_the_first_start[..]] {
        let field = |smooth: bool| -> serde_json::Value {
            let mut args = vec!["field", MAP, "--to", "12,16", "--size", "2", "--json"];
            args.extend(["--profiles", PROFILES, "--profile", "truck"]);
            args.extend(units);
            for start in starts {
                args.extend(["--from", start]);
            }
            if smooth {
                args.push("--smooth");
            }
            serde_json::from_str(&stdout(&clearance(&args))).unwrap()
        };
        let (plain, smooth) = (field(false), field(true));
        let mut smoothed = 0;
        for (index, start) in starts.iter().enumerate() {
            let (plain, smooth) = (&plain[index], &smooth[index]);
            // Smoothing leaves the code, the path and its cost as they were.
            for key in ["code", "path", "total_cost"] {
                assert_eq!(smooth[key], plain[key], "{start} {units:?}: {key}");
            }
            assert!(plain.get("waypoints").is_none(), "{plain}");
            let path = anchors(smooth);
            let waypoints = anchors(&serde_json::json!({ "path": smooth["waypoints"] }));
            if path.is_empty() {
                assert!(waypoints.is_empty(), "{start}: {smooth}");
                continue;
            }
            assert_eq!(waypoints.first(), path.first(), "{start}");
            assert_eq!(waypoints.last(), path.last(), "{start}");
            let mut rest = path.iter();
            assert!(
                waypoints.iter().all(|w| rest.any(|anchor| anchor == w)),
                "{start}: waypoints in path order"
            );
            // Never longer than the grid path, as the crow flies.
            let length = smooth["waypoint_length"]
                .as_f64()
                .expect("a waypoint length");
            let grid_length: f64 = (path.windows(2))
                .map(|pair| ((pair[1].0 - pair[0].0) as f64).hypot((pair[1].1 - pair[0].1) as f64))
                .sum();
            assert!(length <= grid_length + 1e-9, "{start}: {smooth}");
            for pair in waypoints.windows(2) {
                let [from, to] = [pair[0], pair[1]].map(|(x, y)| format!("{x},{y}"));
                let mut args = vec!["straight", MAP, "--from", &from, "--to", &to, "--size", "2"];
                args.extend(["--profiles", PROFILES, "--profile", "truck"]);
                args.extend(units);
                let output = clearance(&args);
                assert!(
                    output.status.success(),
                    "{start}: {from} to {to}: {}",
                    stdout(&output)
                );
            }
            smoothed += 1;
        }
        assert_eq!(smoothed, 3, "{units:?}");
    }
    // --smooth answers starts: without --from it is refused.
    let output = clearance(&["field", MAP, "--to", "37,2", "--out", "x.png", "--smooth"]);
    assert_eq!(output.status.code(), Some(2));
}
