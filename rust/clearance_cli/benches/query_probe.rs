//! One map's scenario in one search mode, for pairing two builds of the engine query for query:
//! the hot loops with little else around them, so that a profiler or `valgrind --tool=callgrind`
//! (instruction counts do not depend on the machine's load) sees the search and not the set-up.
//!
//! Run: `PROBE_MAP=AR0011SR PROBE_MODE=auto cargo bench -p clearance_cli --bench query_probe --
//! ROUNDS` (defaults: AR0011SR, `auto`, size 1, 20 rounds). `PROBE_MODE` is `plain`, `jump`
//! or `auto`; `PROBE_SIZE` an agent size; `PROBE_PROFILE=trees` prices trees at 3. Prints the
//! mean and best round in microseconds per query, the expansions and the summed cost (equal in
//! both builds when they agree).

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, Problem};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{AgentProfile, Cell, PathMap, PathQuery, SearchMode, SearchScratch};
use std::hint::black_box;
use std::time::Instant;

fn setting(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(20);
    let name = setting("PROBE_MAP", "AR0011SR");
    let mode = match setting("PROBE_MODE", "auto").as_str() {
        "plain" => SearchMode::Plain,
        "jump" => SearchMode::Jump,
        "auto" => SearchMode::Auto,
        other => panic!("PROBE_MODE is plain, jump or auto, not {other}"),
    };
    let size: i64 = setting("PROBE_SIZE", "1").parse().expect("PROBE_SIZE");
    let profile = setting("PROBE_PROFILE", "movingai");

    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let map_file = read_map(&dir.join(format!("{name}.map"))).unwrap();
    let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map_file).unwrap();
    let mut map = PathMap::new(map_file.grid.clone());
    map.set_profile(movingai_profile()).unwrap();
    let mut trees = AgentProfile::new("trees");
    for (terrain, multiplier) in [(b'.', 1.0), (b'G', 1.0), (b'S', 1.0), (b'T', 3.0)] {
        trees.set_terrain(terrain, multiplier).unwrap();
    }
    map.set_profile(trees).unwrap();
    map.prepare(&profile, size);
    let queries: Vec<(Cell, Cell)> = problems
        .iter()
        .map(Problem::endpoints)
        .filter(|&(start, goal)| {
            let fits = |cell| map.clearance(cell, &profile).unwrap_or(0) as i64 >= size;
            fits(start) && fits(goal)
        })
        .collect();

    let mut scratch = SearchScratch::new();
    let (mut best, mut total, mut expanded, mut cost) = (f64::INFINITY, 0.0, 0, 0);
    for round in 0..=rounds {
        let started = Instant::now();
        for &(start, goal) in &queries {
            let query = PathQuery::new(start, goal, size, &profile).search(mode);
            let result = map.query_with(&mut scratch, &query);
            if round == 0 {
                expanded += result.expanded;
                cost += result.cost;
            }
            black_box(result);
        }
        let seconds = started.elapsed().as_secs_f64();
        if round > 0 {
            total += seconds;
            best = f64::min(best, seconds);
        }
    }
    let per_query = |seconds: f64| seconds * 1e6 / queries.len().max(1) as f64;
    println!(
        "{name} {mode:?} size {size} {profile}: {} queries, mean {:.2} us, best {:.2} us, {:.0} expanded/query, cost {cost}",
        queries.len(),
        per_query(total / rounds.max(1) as f64),
        per_query(best),
        expanded as f64 / queries.len().max(1) as f64,
    );
}
