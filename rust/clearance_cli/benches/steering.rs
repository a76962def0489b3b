//! Steering by a smoothed flow field: the first waypoint from an anchor, read lazily
//! (`PathMap::first_waypoint` over `FlowField::anchors_from`), against the whole path's taut
//! waypoints (`path_from`, then `smooth_path`, keeping the second), paired in one run.
//!
//! Run: `cargo bench -p clearance_cli --bench steering` (optionally `-- ROUNDS`, default 5).
//!
//! One field per map and size, sizes 1 and 3: on AcrosstheCape, arena2 and maze512-16-0 to
//! the goal of the map's first scenario whose goal fits the unit, steering from every scenario
//! start the field reached; on the generated 4096 x 4096 map (walls and swamp; the weighted
//! `soldier` profile and the uniform `tank`) to its centre, from 1000 pseudo-random reached
//! anchors. Each round runs the starts in chunks of 64, both ways on each chunk, each way
//! first on every other chunk (the machine's speed drifts within a second); reported are the
//! means over the timed rounds after a warm-up round; the mean number of anchors from the
//! start to the waypoint, of anchors the lazy way read and of the path's anchors; and how
//! often the two waypoints differ (the whole path's stack pass can drop the greedy one for a
//! farther one).

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, MOVINGAI_PROFILE};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{Cell, FlowField, FlowFieldOptions, OtherUnits, PathMap};
use std::hint::black_box;
use std::time::Instant;

#[path = "../../clearance_core/benches/support/generated.rs"]
mod generated;

const CHUNK: usize = 64;

/// One way to find where a unit on an anchor heads.
type Steer = fn(&PathMap, &FlowField, Cell, i64) -> Cell;

/// The waypoint the whole path's taut waypoints give after `start`.
fn whole_path_waypoint(map: &PathMap, field: &FlowField, start: Cell, size: i64) -> Cell {
    let path = field.path_from(start).path;
    let waypoints = map
        .smooth_path(&path, size, field.profile(), OtherUnits::Ignore, &[])
        .unwrap();
    waypoints.get(1).copied().unwrap_or(start)
}

/// The waypoint read lazily.
fn lazy_waypoint(map: &PathMap, field: &FlowField, start: Cell, size: i64) -> Cell {
    let anchors = field.anchors_from(start);
    map.first_waypoint(anchors, size, field.profile(), OtherUnits::Ignore, &[])
        .unwrap()
}

fn case(name: &str, map: &PathMap, field: &FlowField, starts: &[Cell], rounds: usize) {
    let size = i64::from(field.agent_size());
    let ways: [Steer; 2] = [whole_path_waypoint, lazy_waypoint];
    let mut seconds = [0.0f64; 2];
    for round in 0..=rounds {
        for (chunk_index, chunk) in starts.chunks(CHUNK).enumerate() {
            for turn in 0..2 {
                let way = (turn + chunk_index) % 2;
                let started = Instant::now();
                for &start in chunk {
                    black_box(ways[way](map, field, start, size));
                }
                if round > 0 {
                    seconds[way] += started.elapsed().as_secs_f64();
                }
            }
        }
    }
    let per_start = |total: f64| total / (rounds * starts.len()) as f64 * 1e6;
    let (mut to_waypoint, mut to_end, mut differ) = (0usize, 0usize, 0usize);
    let mut read = 0usize;
    for &start in starts {
        let whole = whole_path_waypoint(map, field, start, size);
        let lazy = lazy_waypoint(map, field, start, size);
        let counted = field.anchors_from(start).inspect(|_| read += 1);
        let again = map.first_waypoint(counted, size, field.profile(), OtherUnits::Ignore, &[]);
        assert_eq!(again, Ok(lazy));
        to_waypoint += (field.anchors_from(start))
            .position(|anchor| anchor == lazy)
            .unwrap();
        to_end += field.anchors_from(start).count();
        differ += usize::from(whole != lazy);
    }
    let count = starts.len() as f64;
    let (whole_us, lazy_us) = (per_start(seconds[0]), per_start(seconds[1]));
    println!(
        "| {name} | {} | {size} | {} | {whole_us:.2} us | {lazy_us:.2} us | {:.1}x | {:.1} | {:.1} | {:.1} | {differ} |",
        field.profile(),
        starts.len(),
        whole_us / lazy_us,
        to_waypoint as f64 / count,
        read as f64 / count,
        to_end as f64 / count,
    );
}

fn main() {
    let rounds: usize = (std::env::args().nth(1))
        .and_then(|rounds| rounds.parse().ok())
        .unwrap_or(5)
        .max(1);
    println!("| map | profile | size | starts | whole path | first waypoint | speed-up | anchors to it | anchors read | path anchors | waypoints differ |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    for name in ["AcrosstheCape", "arena2", "maze512-16-0"] {
        let file = read_map(&dir.join(format!("{name}.map"))).unwrap();
        let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &file).unwrap();
        let mut map = PathMap::new(file.grid);
        map.set_profile(movingai_profile()).unwrap();
        for size in [1, 3] {
            let fits =
                |cell: Cell| i64::from(map.clearance(cell, MOVINGAI_PROFILE).unwrap_or(0)) >= size;
            let Some(goal) = (problems.iter())
                .map(|problem| problem.endpoints().1)
                .find(|&goal| fits(goal))
            else {
                continue;
            };
            let options = FlowFieldOptions::new();
            let field = map
                .flow_field(&[goal], size, MOVINGAI_PROFILE, options)
                .unwrap();
            let starts: Vec<Cell> = (problems.iter())
                .map(|problem| problem.endpoints().0)
                .filter(|&start| field.cost(start).is_some_and(|cost| cost > 0))
                .collect();
            case(name, &map, &field, &starts, rounds);
        }
    }
    let side = 4096;
    let map = generated::generated_map_of_side(&mut generated::Lcg(0x57EE), side);
    for (profile, size) in [("soldier", 1), ("tank", 3)] {
        let goal = (0..side / 2)
            .map(|offset| Cell::new(side / 2 + offset, side / 2))
            .find(|&cell| i64::from(map.clearance(cell, profile).unwrap_or(0)) >= size)
            .unwrap();
        let field = map
            .flow_field(&[goal], size, profile, FlowFieldOptions::new())
            .unwrap();
        let mut rng = generated::Lcg(size as u64);
        let mut starts = Vec::new();
        while starts.len() < 1000 {
            let cell = Cell::new(rng.below(side), rng.below(side));
            if field.cost(cell).is_some_and(|cost| cost > 0) {
                starts.push(cell);
            }
        }
        case("generated 4096", &map, &field, &starts, rounds);
    }
}
