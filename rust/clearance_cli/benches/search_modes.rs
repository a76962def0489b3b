//! Jump-point search against plain A* of the same build, on every shared Moving AI map, in
//! one run: per query times and expansions for `plain`, `jump` and `auto`, with and without
//! landmarks, for agent sizes 1 to 3, a weighted profile and 4-way movement; and a Rust peer, the
//! `grid_pathfinding` crate's jump point search, on the same size-1 queries.
//!
//! Run: `cargo bench -p clearance_cli --bench search_modes` (optionally `-- ROUNDS`, default 3).
//! Prints Markdown tables; times are means per query after one warm-up round.
//!
//! The peer's moves may cut corners (a diagonal step past one blocked orthogonal cell), which
//! Moving AI's rules and ours forbid, so its paths can be shorter than the published optima;
//! its times are shown for scale, not as the same problem.

use clearance_cli::movingai::{movingai_profile, read_map, read_scenario, Problem};
use clearance_cli::shared_data::{movingai_dir, LARGE_MAPS, MAPS};
use clearance_core::{
    AgentProfile, Cell, LandmarkPlacement, Movement, PathMap, PathQuery, SearchMode, SearchScratch,
    TerrainGrid,
};
use grid_pathfinding::PathingGrid;
use grid_util::grid::ValueGrid;
use grid_util::point::Point;
use std::hint::black_box;
use std::time::Instant;

/// Mean microseconds and expansions per query, and the summed fixed-point cost (to check that
/// modes agree).
struct Timing {
    mean_us: f64,
    expanded: f64,
    cost: u64,
}

fn time_mode(
    map: &PathMap,
    queries: &[(Cell, Cell)],
    size: i64,
    profile: &str,
    mode: SearchMode,
    rounds: usize,
) -> Timing {
    let mut scratch = SearchScratch::new();
    let (mut seconds, mut expanded, mut cost) = (0.0, 0, 0);
    for round in 0..=rounds {
        let started = Instant::now();
        for &(start, goal) in queries {
            let query = PathQuery::new(start, goal, size, profile).search(mode);
            let result = map.query_with(&mut scratch, &query);
            if round == 0 {
                expanded += result.expanded;
                cost += result.cost;
            }
            black_box(result);
        }
        if round > 0 {
            seconds += started.elapsed().as_secs_f64();
        }
    }
    let count = (queries.len() * rounds).max(1) as f64;
    Timing {
        mean_us: seconds * 1e6 / count,
        expanded: expanded as f64 / queries.len().max(1) as f64,
        cost,
    }
}

fn time_peer(grid: &TerrainGrid, queries: &[(Cell, Cell)], rounds: usize) -> f64 {
    let (width, height) = (grid.width(), grid.height());
    let mut peer = PathingGrid::new(width, height, false);
    for (index, &terrain) in grid.as_bytes().iter().enumerate() {
        let blocked = !matches!(terrain, b'.' | b'G' | b'S');
        peer.set((index % width) as i32, (index / width) as i32, blocked);
    }
    peer.initialize();
    peer.generate_components();
    let point = |cell: Cell| Point::new(cell.x, cell.y);
    let mut seconds = 0.0;
    for round in 0..=rounds {
        let started = Instant::now();
        for &(start, goal) in queries {
            black_box(peer.get_waypoints_single_goal(point(start), point(goal), false));
        }
        if round > 0 {
            seconds += started.elapsed().as_secs_f64();
        }
    }
    seconds * 1e6 / (queries.len() * rounds).max(1) as f64
}

/// Trees passable at cost 3: a weighted profile with real cost boundaries on maps with trees.
fn trees_profile() -> AgentProfile {
    let mut profile = AgentProfile::new("trees");
    for (terrain, multiplier) in [(b'.', 1.0), (b'G', 1.0), (b'S', 1.0), (b'T', 3.0)] {
        profile
            .set_terrain(terrain, multiplier)
            .expect("valid multipliers");
    }
    profile
}

fn endpoints(problems: &[Problem]) -> Vec<(Cell, Cell)> {
    problems.iter().map(Problem::endpoints).collect()
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(3);
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    println!(
        "Search modes on the shared Moving AI maps ({rounds} timed rounds after one warm-up)\n"
    );
    let mut modes = Vec::new();
    let mut landmark_rows = Vec::new();
    let mut variant_rows = Vec::new();
    let mut four_way_rows = Vec::new();
    for name in MAPS.into_iter().chain(LARGE_MAPS) {
        let map_file = read_map(&dir.join(format!("{name}.map"))).unwrap();
        let problems = read_scenario(&dir.join(format!("{name}.map.scen")), &map_file).unwrap();
        let queries = endpoints(&problems);
        let mut map = PathMap::new(map_file.grid.clone());
        map.set_profile(movingai_profile()).unwrap();
        map.set_profile(trees_profile()).unwrap();
        for size in 1..=3 {
            map.prepare("movingai", size);
        }
        map.prepare("trees", 1);
        let run = |map: &PathMap, queries: &[(Cell, Cell)], size, profile, mode| {
            time_mode(map, queries, size, profile, mode, rounds)
        };
        let plain = run(&map, &queries, 1, "movingai", SearchMode::Plain);
        let jump = run(&map, &queries, 1, "movingai", SearchMode::Jump);
        let auto = run(&map, &queries, 1, "movingai", SearchMode::Auto);
        assert!(
            plain.cost == jump.cost && jump.cost == auto.cost,
            "{name}: modes disagree"
        );
        let peer = time_peer(&map_file.grid, &queries, rounds);
        modes.push(format!(
            "| {name} | {} | {:.1} | {:.0} | {:.1} | {:.0} | {:.1} | **{:.1}x** | {:.1}x | {:.1} | {:.2}x |",
            queries.len(),
            plain.mean_us,
            plain.expanded,
            jump.mean_us,
            jump.expanded,
            auto.mean_us,
            plain.mean_us / jump.mean_us,
            plain.mean_us / auto.mean_us,
            peer,
            peer / jump.mean_us,
        ));

        let mut four_way = PathMap::new(map_file.grid.clone()).with_movement(Movement::FourWay);
        four_way.set_profile(movingai_profile()).unwrap();
        four_way.prepare("movingai", 1);
        let plain4 = run(&four_way, &queries, 1, "movingai", SearchMode::Plain);
        let jump4 = run(&four_way, &queries, 1, "movingai", SearchMode::Jump);
        assert_eq!(plain4.cost, jump4.cost, "{name} 4-way: modes disagree");
        four_way_rows.push(format!(
            "| {name} | {:.1} | {:.0} | {:.1} | {:.0} | **{:.1}x** |",
            plain4.mean_us,
            plain4.expanded,
            jump4.mean_us,
            jump4.expanded,
            plain4.mean_us / jump4.mean_us,
        ));

        let mut landmarks = map.clone();
        landmarks
            .set_landmarks(LandmarkPlacement::Farthest(8))
            .unwrap();
        landmarks.bake_landmarks("movingai");
        let plain8 = run(&landmarks, &queries, 1, "movingai", SearchMode::Plain);
        let jump8 = run(&landmarks, &queries, 1, "movingai", SearchMode::Jump);
        assert_eq!(plain8.cost, plain.cost, "{name}: landmarks changed costs");
        assert_eq!(jump8.cost, plain.cost, "{name}: landmarks changed costs");
        landmark_rows.push(format!(
            "| {name} | {:.1} | {:.0} | {:.1} | {:.0} | {:.1}x | {:.1}x |",
            plain8.mean_us,
            plain8.expanded,
            jump8.mean_us,
            jump8.expanded,
            plain.mean_us / jump8.mean_us,
            plain8.mean_us / jump8.mean_us,
        ));

        for (size, profile) in [(2, "movingai"), (3, "movingai"), (1, "trees")] {
            let fitting: Vec<(Cell, Cell)> = queries
                .iter()
                .copied()
                .filter(|&(start, goal)| {
                    let fits = |cell| map.clearance(cell, profile).unwrap_or(0) as i64 >= size;
                    fits(start) && fits(goal)
                })
                .collect();
            if fitting.is_empty() {
                continue;
            }
            let plain = run(&map, &fitting, size, profile, SearchMode::Plain);
            let jump = run(&map, &fitting, size, profile, SearchMode::Jump);
            let auto = run(&map, &fitting, size, profile, SearchMode::Auto);
            assert_eq!(
                plain.cost, jump.cost,
                "{name} size {size} {profile}: modes disagree"
            );
            variant_rows.push(format!(
                "| {name} | {size} | {profile} | {} | {:.1} | {:.0} | {:.1} | {:.0} | **{:.1}x** | {:.1}x |",
                fitting.len(),
                plain.mean_us,
                plain.expanded,
                jump.mean_us,
                jump.expanded,
                plain.mean_us / jump.mean_us,
                plain.mean_us / auto.mean_us,
            ));
        }
    }
    println!("Size 1, 8-way, no landmarks; speed-ups against plain A* of the same build:\n");
    println!("| map | queries | plain us | plain expanded | jump us | jump expanded | auto us | jump speed-up | auto speed-up | grid_pathfinding JPS us | its time / ours |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    modes.iter().for_each(|row| println!("{row}"));
    println!("\n4-way movement, same queries:\n");
    println!("| map | plain us | plain expanded | jump us | jump expanded | jump speed-up |");
    println!("|---|---|---|---|---|---|");
    four_way_rows.iter().for_each(|row| println!("{row}"));
    println!("\nWith 8 landmarks (farthest-point):\n");
    println!("| map | plain us | plain expanded | jump us | jump expanded | jump+landmarks vs plain without | vs plain with landmarks |");
    println!("|---|---|---|---|---|---|---|");
    landmark_rows.iter().for_each(|row| println!("{row}"));
    println!("\nLarger agents, and a weighted profile (trees passable at cost 3), on the queries whose ends fit:\n");
    println!("| map | size | profile | queries | plain us | plain expanded | jump us | jump expanded | jump speed-up | auto speed-up |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    variant_rows.iter().for_each(|row| println!("{row}"));
}
