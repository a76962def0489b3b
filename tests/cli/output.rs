//! What the command writes: standard output to a reader that stops early, pictures too big to
//! make, and figures of an empty scenario.

use super::*;
use std::io::Read;
use std::process::Stdio;

#[test]
fn a_reader_that_stops_early_ends_the_command_quietly() {
    // The drawing of a 700 x 700 map is far more than a pipe holds, so the command is still
    // writing when its reader goes, as with `clearance path ... | head`.
    let map = open_map("closed-pipe", 700, 700);
    let mut child = Command::new(env!("CARGO_BIN_EXE_clearance"))
        .args([
            "path",
            map.to_str().unwrap(),
            "--from",
            "0,0",
            "--to",
            "699,699",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first_bytes = [0u8; 16];
    let mut stdout = child.stdout.take().unwrap();
    stdout.read_exact(&mut first_bytes).unwrap();
    drop(stdout);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.is_empty(), "{stderr}");
    assert_eq!(output.status.code(), Some(0));
    std::fs::remove_dir_all(map.parent().unwrap()).unwrap();
}

#[test]
fn pictures_larger_than_the_limit_are_refused_before_they_are_drawn() {
    // 1100 x 1100 cells at 8 pixels a side is 77 million pixels, over the 67 million allowed;
    // 7 a side is 59 million.
    let map = open_map("big-picture", 1100, 1100);
    let map = map.to_str().unwrap();
    let out = scratch_path("big.png");
    let out = out.to_str().unwrap();
    for args in [
        &["render", map, "--out", out, "--scale", "8"][..],
        &["field", map, "--to", "5,5", "--out", out, "--scale", "8"],
        &[
            "range", map, "--from", "5,5", "--budget", "3", "--out", out, "--scale", "8",
        ],
    ] {
        let output = clearance(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr.contains("8800 x 8800 pixels") && stderr.contains("use --scale 7 or less"),
            "{args:?}: {stderr}"
        );
        assert!(!Path::new(out).exists(), "{args:?}");
    }
    std::fs::remove_dir_all(Path::new(map).parent().unwrap()).unwrap();
}

#[test]
fn a_scale_needs_a_picture() {
    let output = clearance(&[
        "field", MAP, "--to", "5,5", "--from", "2,2", "--json", "--scale", "3",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--out"));
}

#[test]
fn an_empty_scenario_has_no_negative_times() {
    let scen = scratch_path("empty.scen");
    std::fs::write(&scen, "version 1\n").unwrap();
    let output = clearance(&["scen", MAP, scen.to_str().unwrap(), "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(text.contains(r#""mean_us":0.0"#), "{text}");
    assert!(text.contains(r#""problems":0"#), "{text}");
    std::fs::remove_file(&scen).unwrap();
}
