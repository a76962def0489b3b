//! Determinism: the same inputs give the same result bytes, whatever the run, the thread, the
//! query history or the `PathMap` instance.
//!
//! For each of the five smaller shared Moving AI maps (`shared_data::MAPS`; the two large ones
//! are left to the speed benchmarks), each problem of its scenario is run in six variants:
//!
//! - `plain`: size 1, 8-way, the Moving AI profile, no landmarks;
//! - `landmarks8`: the same with `LandmarkPlacement::Farthest(8)`;
//! - `size2`: agent size 2 on the same start and goal anchors, no landmarks (many of these end
//!   with a clearance code; the codes are part of the digest);
//! - `astar`: as `plain`, but always with plain A* (`SearchMode::Plain`); the other variants
//!   use the default `SearchMode::Auto`, which picks jump-point search on these maps;
//! - `smoothed`: as `size2`, with taut waypoints (`Smoothing::Taut`), whose working memory a
//!   search scratch keeps from one query to the next;
//! - `smoothed1`: as `plain`, with taut waypoints, so that smoothing is covered on maps where
//!   no size 2 path exists (mazes with corridors one cell wide).
//!
//! The results of all problems, in scenario order, are folded into one 64-bit FNV-1a digest
//! (offset basis 0xcbf29ce484222325, prime 0x100000001b3, one byte at a time). Per problem it
//! hashes, in this order:
//!
//! 1. the code's stable name (`PathCode::as_str`) as ASCII bytes, then one 0 byte;
//! 2. the fixed-point cost as a little-endian u64;
//! 3. the expanded count as a little-endian u64;
//! 4. the number of path anchors as a little-endian u64;
//! 5. each path anchor: x then y, each a little-endian i32;
//! 6. where the result has waypoints (the smoothed variants), their number as a little-endian
//!    u64, then each waypoint as a path anchor is.
//!
//! Nothing depends on std's hashers, pointer widths or the Rust version, so the digests are
//! the same on every platform. They are stored in `tests/data/determinism_digests.txt`, one
//! line per map and variant: `<map> <variant> <hex digest> <problem count>` (lines starting
//! with `#` are comments).
//!
//! To regenerate the stored digests after an intended change of results (a different
//! tie-break, say, changes paths and expanded counts without changing costs), run
//!
//! ```text
//! CLEARANCE_UPDATE_DIGESTS=1 cargo test -p clearance_tests --test determinism
//! ```
//!
//! which writes the file instead of comparing, and fails so that it never counts as a pass;
//! review the diff before committing.
//!
//! The stored digests pin down answers, they do not prove them right: they are the engine's
//! own output at the time they were written. Correctness is the reference tests' job
//! (`search.rs`, `movingai.rs` against the published optima, and the others); these catch any
//! change of an answer, which then needs a reason.
//!
//! A second test checks independence from history, threads and instance on every problem of
//! every map and variant, against the digest of a first sequential run on a cold map: the same
//! queries in reverse order on that now warm map (caches built, this thread's search scratch
//! used), the queries split over 2 threads on a second cold map (so the threads race to build
//! its clearance layer, graphs and landmark table), and a third map built separately from
//! freshly read files and queried sequentially.
//!
//! The Moving AI data is required: if it is missing the tests fail rather than skip.

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario};
use clearance_cli::shared_data::{movingai_dir, MAPS};
use clearance_core::{
    Cell, LandmarkPlacement, PathMap, PathQuery, PathResult, SearchMode, Smoothing,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Set to `1` to write the stored digests instead of comparing against them.
const UPDATE_ENV: &str = "CLEARANCE_UPDATE_DIGESTS";

/// The profile name every query uses.
const PROFILE: &str = "movingai";

/// 64-bit FNV-1a, written out so that it never changes.
struct Fnv1a64(u64);

impl Fnv1a64 {
    const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;

    fn new() -> Self {
        Fnv1a64(Self::OFFSET_BASIS)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(Self::PRIME);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// The digest of `results`, in the order given (see the file's documentation).
fn digest(results: &[PathResult]) -> u64 {
    let mut hash = Fnv1a64::new();
    for result in results {
        hash.write(result.code.as_str().as_bytes());
        hash.write(&[0]);
        hash.write(&result.cost.to_le_bytes());
        hash.write(&result.expanded.to_le_bytes());
        hash.write(&(result.path.len() as u64).to_le_bytes());
        for cell in &result.path {
            hash.write(&cell.x.to_le_bytes());
            hash.write(&cell.y.to_le_bytes());
        }
        // Left out where there are none, so that the variants without smoothing keep their
        // digests.
        if !result.waypoints.is_empty() {
            hash.write(&(result.waypoints.len() as u64).to_le_bytes());
            for cell in &result.waypoints {
                hash.write(&cell.x.to_le_bytes());
                hash.write(&cell.y.to_le_bytes());
            }
        }
    }
    hash.finish()
}

#[test]
fn fnv1a64_matches_its_published_test_vectors() {
    // From the FNV reference test suite (Fowler, Noll, Vo).
    for (input, expected) in [
        (&b""[..], 0xcbf2_9ce4_8422_2325),
        (b"a", 0xaf63_dc4c_8601_ec8c),
        (b"foobar", 0x8594_4171_f739_67e8),
    ] {
        let mut hash = Fnv1a64::new();
        hash.write(input);
        assert_eq!(hash.finish(), expected, "{input:?}");
    }
}

#[derive(Debug, Clone, Copy)]
enum Variant {
    Plain,
    Landmarks8,
    Size2,
    AStar,
    Smoothed,
    Smoothed1,
}

impl Variant {
    const ALL: [Variant; 6] = [
        Variant::Plain,
        Variant::Landmarks8,
        Variant::Size2,
        Variant::AStar,
        Variant::Smoothed,
        Variant::Smoothed1,
    ];

    fn name(self) -> &'static str {
        match self {
            Variant::Plain => "plain",
            Variant::Landmarks8 => "landmarks8",
            Variant::Size2 => "size2",
            Variant::AStar => "astar",
            Variant::Smoothed => "smoothed",
            Variant::Smoothed1 => "smoothed1",
        }
    }

    fn agent_size(self) -> i64 {
        match self {
            Variant::Plain | Variant::Landmarks8 | Variant::AStar | Variant::Smoothed1 => 1,
            Variant::Size2 | Variant::Smoothed => 2,
        }
    }

    /// Answers one problem on `map` as this variant asks.
    fn query(self, map: &PathMap, start: Cell, goal: Cell) -> PathResult {
        let mode = match self {
            Variant::AStar => SearchMode::Plain,
            _ => SearchMode::Auto,
        };
        let smoothing = match self {
            Variant::Smoothed | Variant::Smoothed1 => Smoothing::Taut,
            _ => Smoothing::Off,
        };
        let query = PathQuery::new(start, goal, self.agent_size(), PROFILE)
            .search(mode)
            .smoothing(smoothing);
        map.query(&query)
    }
}

/// One shared map's start and goal anchors, in scenario order.
type Queries = Vec<(Cell, Cell)>;

/// Reads map `name` and its scenario from the shared data and builds a cold map for `variant`.
/// Fails the test if the data is missing or unreadable.
fn load(name: &str, variant: Variant) -> (PathMap, Queries) {
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let map = read_map(&dir.join(format!("{name}.map")))
        .unwrap_or_else(|error| panic!("cannot read the shared map {name}: {error}"));
    let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map)
        .unwrap_or_else(|error| panic!("cannot read the scenario of {name}: {error}"));
    assert!(!problems.is_empty(), "{name} has no problems");
    let mut path_map = PathMap::new(map.grid);
    path_map.set_profile(movingai_profile()).unwrap();
    if let Variant::Landmarks8 = variant {
        path_map
            .set_landmarks(LandmarkPlacement::Farthest(8))
            .unwrap();
    }
    let queries = problems
        .iter()
        .map(|problem| {
            (
                Cell::new(problem.start.0, problem.start.1),
                Cell::new(problem.goal.0, problem.goal.1),
            )
        })
        .collect();
    (path_map, queries)
}

/// Runs `queries` in order on the calling thread.
fn run(map: &PathMap, queries: &[(Cell, Cell)], variant: Variant) -> Vec<PathResult> {
    queries
        .iter()
        .map(|&(start, goal)| variant.query(map, start, goal))
        .collect()
}

/// Runs `queries` last to first, and returns the results in problem order.
fn run_reversed(map: &PathMap, queries: &[(Cell, Cell)], variant: Variant) -> Vec<PathResult> {
    let mut results: Vec<PathResult> = queries
        .iter()
        .rev()
        .map(|&(start, goal)| variant.query(map, start, goal))
        .collect();
    results.reverse();
    results
}

/// Runs `queries` on 2 threads (problem `i` on thread `i % 2`), and returns the results in
/// problem order.
fn run_on_two_threads(
    map: &PathMap,
    queries: &[(Cell, Cell)],
    variant: Variant,
) -> Vec<PathResult> {
    const THREADS: usize = 2;
    let shares: Vec<Vec<(usize, PathResult)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|thread| {
                scope.spawn(move || {
                    queries
                        .iter()
                        .enumerate()
                        .skip(thread)
                        .step_by(THREADS)
                        .map(|(index, &(start, goal))| {
                            let result = variant.query(map, start, goal);
                            (index, result)
                        })
                        .collect()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a query thread panicked"))
            .collect()
    });
    let mut merged: Vec<Option<PathResult>> = vec![None; queries.len()];
    for (index, result) in shares.into_iter().flatten() {
        assert!(merged[index].is_none(), "problem {index} ran twice");
        merged[index] = Some(result);
    }
    merged
        .into_iter()
        .enumerate()
        .map(|(index, result)| result.unwrap_or_else(|| panic!("problem {index} never ran")))
        .collect()
}

fn digest_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/determinism_digests.txt")
}

/// Key `(map, variant)`; value `(digest, problem count)`.
type Digests = BTreeMap<(String, String), (u64, usize)>;

fn parse_digests(text: &str) -> Digests {
    let path = digest_file();
    let mut digests = Digests::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let bad = || panic!("{}:{}: malformed line {line:?}", path.display(), number + 1);
        let [map, variant, hex, count] = fields[..] else {
            bad()
        };
        let digest = u64::from_str_radix(hex, 16).unwrap_or_else(|_| bad());
        let count = count.parse().unwrap_or_else(|_| bad());
        let key = (map.to_string(), variant.to_string());
        if digests.insert(key, (digest, count)).is_some() {
            panic!(
                "{}:{}: {map} {variant} is listed twice",
                path.display(),
                number + 1
            );
        }
    }
    digests
}

fn format_digests(digests: &Digests) -> String {
    let mut text = String::from(
        "# Determinism digests of tests/determinism.rs: <map> <variant> <hex digest> <problem count>.\n\
         # Regenerate with CLEARANCE_UPDATE_DIGESTS=1 cargo test -p clearance_tests --test determinism\n",
    );
    // In the order of the shared selection, then of the variants, rather than sorted by name.
    for name in MAPS {
        for variant in Variant::ALL {
            let key = (name.to_string(), variant.name().to_string());
            let (digest, count) = digests[&key];
            writeln!(text, "{name} {} {digest:016x} {count}", variant.name()).unwrap();
        }
    }
    text
}

#[test]
fn results_match_the_stored_digests() {
    let mut computed = Digests::new();
    for name in MAPS {
        for variant in Variant::ALL {
            let (map, queries) = load(name, variant);
            let results = run(&map, &queries, variant);
            let key = (name.to_string(), variant.name().to_string());
            computed.insert(key, (digest(&results), results.len()));
        }
    }
    let path = digest_file();
    if std::env::var_os(UPDATE_ENV).is_some_and(|value| value == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format_digests(&computed))
            .unwrap_or_else(|error| panic!("cannot write {}: {error}", path.display()));
        // Writing is not checking: the run fails, so that a stray variable never turns this
        // test into a pass.
        panic!(
            "wrote {}; review the change, then run again without {UPDATE_ENV}",
            path.display()
        );
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "cannot read the stored digests {}: {error}; generate them with {UPDATE_ENV}=1",
            path.display()
        )
    });
    let stored = parse_digests(&text);
    let mut failures = Vec::new();
    for ((name, variant), &(digest, count)) in &computed {
        match stored.get(&(name.clone(), variant.clone())) {
            None => failures.push(format!("{name} {variant}: no stored digest")),
            Some(&(stored_digest, stored_count)) => {
                if (stored_digest, stored_count) != (digest, count) {
                    failures.push(format!(
                        "{name} {variant}: digest {digest:016x} over {count} problems, \
                         stored {stored_digest:016x} over {stored_count}"
                    ));
                }
            }
        }
    }
    for (name, variant) in stored.keys() {
        if !computed.contains_key(&(name.clone(), variant.clone())) {
            failures.push(format!("{name} {variant}: stored but no longer computed"));
        }
    }
    assert!(
        failures.is_empty(),
        "results differ from {} (if the change is intended, regenerate with {UPDATE_ENV}=1):\n{}",
        path.display(),
        failures.join("\n")
    );
}

#[test]
fn results_do_not_depend_on_history_threads_or_map_instance() {
    let mut failures = Vec::new();
    for name in MAPS {
        for variant in Variant::ALL {
            let (map, queries) = load(name, variant);
            let baseline = digest(&run(&map, &queries, variant));
            // The same map, now with its caches built and this thread's scratch used.
            let reversed = digest(&run_reversed(&map, &queries, variant));
            // A cold map: the two threads race to build what the queries need.
            let (cold, _) = load(name, variant);
            let threaded = digest(&run_on_two_threads(&cold, &queries, variant));
            // A separately built map from freshly read files.
            let (fresh, fresh_queries) = load(name, variant);
            assert_eq!(
                fresh_queries, queries,
                "{name}: the scenario read differently"
            );
            let separate = digest(&run(&fresh, &fresh_queries, variant));
            for (check, found) in [
                ("reverse order", reversed),
                ("two threads", threaded),
                ("separate map", separate),
            ] {
                if found != baseline {
                    failures.push(format!(
                        "{name} {}: {check} gives {found:016x}, sequential {baseline:016x}",
                        variant.name()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "results depend on history, threads or map instance:\n{}",
        failures.join("\n")
    );
}
