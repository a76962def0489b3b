//! `--smooth`: waypoints in `path`'s JSON and in `render`; `straight`: one straight move.

use super::*;

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
        let out = scratch_path(&format!("render-smooth-{smooth}.png"));
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

#[test]
fn straight_says_whether_the_square_may_move_in_a_line() {
    let straight = |args: &[&str]| clearance(&[&["straight", MAP][..], args].concat());
    // The waypoints `path --smooth` returns are joined by clear straight moves.
    let (_, smooth) = path_json(&["--from", "1,1", "--to", "37,17", "--size", "2", "--smooth"]);
    let waypoints = anchors(&serde_json::json!({ "path": smooth["waypoints"] }));
    assert!(waypoints.len() > 2, "{waypoints:?}");
    for pair in waypoints.windows(2) {
        let [from, to] = [pair[0], pair[1]].map(|(x, y)| format!("{x},{y}"));
        let output = straight(&["--from", &from, "--to", &to, "--size", "2"]);
        assert!(
            output.status.success(),
            "{from} to {to}: {}",
            stdout(&output)
        );
        assert!(stdout(&output).starts_with("clear"));
    }
    // Across the river: the JSON names the first water cell in the way.
    let output = straight(&["--from", "10,3", "--to", "25,3", "--json"]);
    assert_eq!(output.status.code(), Some(1));
    let value: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(
        value,
        serde_json::json!({ "clear": false, "blocked_cell": [18, 3] })
    );
    // Unit 3 at (36, 2) stops a move along its row only when units block, and never itself.
    let past_unit = ["--from", "34,2", "--to", "38,2", "--units", UNITS];
    assert_eq!(straight(&past_unit).status.code(), Some(0));
    let blocked = straight(&[&past_unit[..], &["--others", "block"]].concat());
    assert_eq!(blocked.status.code(), Some(1));
    assert!(
        stdout(&blocked).contains("sweeps (36, 2)"),
        "{}",
        stdout(&blocked)
    );
    let moving = [&past_unit[..], &["--others", "block", "--unit-id", "3"]].concat();
    assert_eq!(straight(&moving).status.code(), Some(0));
    // Bad input: one line that names what is wrong, and exit status 2.
    for (args, named) in [
        (
            &["--from", "2,2", "--to", "80,4"][..],
            "--to (80, 4) lies outside the map",
        ),
        (
            &["--from", "0,0", "--to", "4,4"][..],
            "the unit does not fit at --from (0, 0)",
        ),
        (
            &["--from", "2,2", "--to", "4,4", "--size", "0"][..],
            "--size 0 is not from 1 to 255",
        ),
    ] {
        let output = straight(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr.contains(named) && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
}
