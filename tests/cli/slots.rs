//! `slots`: group orders spread over arrival slots, and bad units input.

use super::*;

/// The map's rows, for checking where slots lie.
fn crossing_rows() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(repository().join(MAP)).unwrap();
    text.lines()
        .skip(4)
        .map(|row| row.as_bytes().to_vec())
        .collect()
}

/// The units of the example's units file, as JSON objects.
fn crossing_units() -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(repository().join(UNITS)).unwrap();
    serde_json::from_str(&text).unwrap()
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
    let units = crossing_units();
    let size_of = |id: i64| {
        units.iter().find(|unit| unit["id"] == id).unwrap()["size"]
            .as_i64()
            .unwrap()
    };
    let rows = crossing_rows();
    let mut covered = std::collections::HashSet::new();
    // Units outside the group keep their places.
    for unit in &units {
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
    // The 2x2 (unit 7) goes first, onto the target.
    let truck = slots.iter().find(|slot| slot["id"] == 7).unwrap();
    let (x, y) = (
        truck["anchor"][0].as_i64().unwrap(),
        truck["anchor"][1].as_i64().unwrap(),
    );
    assert!(
        (x..x + 2).contains(&12) && (y..y + 2).contains(&12),
        "{truck}"
    );

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
    let units = crossing_units();
    let group = [4, 7, 5];
    let rows = crossing_rows();
    let temporary = scratch_path("slot-paths");
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
    let temporary = scratch_path("units");
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
            format!("--group 99: {UNITS} has no unit with that id"),
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

#[test]
fn slots_with_paths_smooth_give_each_path_waypoints_joined_by_clear_moves() {
    let units = crossing_units();
    let group = [4, 7, 5];
    let order = |smooth: bool| -> serde_json::Value {
        let mut args = vec![
            "slots", MAP, "--to", "19,5", "--units", UNITS, "--group", "4,7,5",
        ];
        args.extend([
            "--profiles",
            PROFILES,
            "--profile",
            "infantry",
            "--paths",
            "--json",
        ]);
        if smooth {
            args.push("--smooth");
        }
        let output = clearance(&args);
        assert!(output.status.success(), "{}", stdout(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    let (plain, smooth) = (order(false), order(true));
    let temporary = scratch_path("slot-waypoints");
    std::fs::create_dir_all(&temporary).unwrap();
    for (position, id) in group.into_iter().enumerate() {
        let (plain, smooth) = (&plain[position], &smooth[position]);
        assert_eq!(plain["anchor"], smooth["anchor"], "the same slots");
        let result = &smooth["result"];
        for key in ["code", "path", "total_cost"] {
            assert_eq!(result[key], plain["result"][key], "{id}: {key}");
        }
        assert!(plain["result"].get("waypoints").is_none());
        let path = anchors(result);
        let waypoints = anchors(&serde_json::json!({ "path": result["waypoints"] }));
        assert_eq!(waypoints.first(), path.first(), "{id}");
        assert_eq!(waypoints.last(), path.last(), "{id}");
        let mut rest = path.iter();
        assert!(waypoints.iter().all(|w| rest.any(|anchor| anchor == w)));
        // Each leg is clear of the units outside the group, as the member's path is.
        let outside: Vec<&serde_json::Value> = (units.iter())
            .filter(|unit| unit["id"] == id || !group.contains(&unit["id"].as_i64().unwrap()))
            .collect();
        let file = temporary.join(format!("{id}.json"));
        std::fs::write(&file, serde_json::to_string(&outside).unwrap()).unwrap();
        let unit = units.iter().find(|unit| unit["id"] == id).unwrap();
        let size = unit["size"].to_string();
        for pair in waypoints.windows(2) {
            let [from, to] = [pair[0], pair[1]].map(|(x, y)| format!("{x},{y}"));
            let mut args = vec![
                "straight", MAP, "--from", &from, "--to", &to, "--size", &size,
            ];
            args.extend([
                "--profiles",
                PROFILES,
                "--profile",
                "infantry",
                "--others",
                "block",
            ]);
            let id = id.to_string();
            args.extend(["--units", file.to_str().unwrap(), "--unit-id", &id]);
            let output = clearance(&args);
            assert!(
                output.status.success(),
                "{from} to {to}: {}",
                stdout(&output)
            );
        }
    }
    std::fs::remove_dir_all(&temporary).unwrap();
    // The listing says how many waypoints each path has; --smooth needs --paths.
    let listing = clearance(&[
        "slots", MAP, "--to", "19,5", "--units", UNITS, "--group", "4,7,5", "--paths", "--smooth",
    ]);
    assert!(
        stdout(&listing).contains(" waypoints, length "),
        "{}",
        stdout(&listing)
    );
    let output = clearance(&[
        "slots", MAP, "--to", "19,5", "--units", UNITS, "--group", "4", "--smooth",
    ]);
    assert_eq!(output.status.code(), Some(2));
}
