//! The `clearance` command, run as a user would run it: one module per command or concern,
//! sharing the helpers below.

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

/// A path in the temporary folder for this test run, named for `name`.
fn scratch_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("clearance-{}-{name}", std::process::id()))
}

/// A `width x height` map of open ground, written under a fresh temporary folder named for
/// `test`.
fn open_map(test: &str, width: usize, height: usize) -> PathBuf {
    let folder = scratch_path(test);
    std::fs::create_dir_all(&folder).unwrap();
    let map = folder.join("open.map");
    let row = ".".repeat(width) + "\n";
    let text = format!(
        "type octile\nheight {height}\nwidth {width}\nmap\n{}",
        row.repeat(height)
    );
    std::fs::write(&map, text).unwrap();
    map
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

const MAP: &str = "examples/crossing.map";
const PROFILES: &str = "examples/profiles.json";
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

/// Reads the PNG file at `path`, removes it, and returns its width and height in pixels
/// (failing if it is not a PNG).
fn png_size_and_remove(path: &Path) -> (u32, u32) {
    let shown = path.display();
    let bytes = std::fs::read(path).unwrap_or_else(|error| panic!("{shown}: {error}"));
    std::fs::remove_file(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG", "{shown} is a PNG");
    // The IHDR chunk comes first: its width and height follow the 8-byte signature, the
    // chunk's length and its type.
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

/// The keys of a JSON object, sorted.
fn keys(value: &serde_json::Value) -> Vec<String> {
    let mut keys: Vec<String> = value.as_object().unwrap().keys().cloned().collect();
    keys.sort_unstable();
    keys
}

mod field;
mod output;
mod path;
mod range;
mod slots;
mod smoothing;
mod units;
