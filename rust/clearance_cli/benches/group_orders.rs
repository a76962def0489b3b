//! Group orders: many units of mixed sizes sent to one goal, answered by
//! `PathMap::find_paths_to` (one search from the goal per agent size: on these uniform-cost
//! maps a jump-point search that stops at every start), by flow fields (one per agent size,
//! each bounded to settle that size's starts) and by one `find_path` per unit, paired in one
//! run; and one full-map field, its time and bytes.
//!
//! Run: `cargo bench -p clearance_cli --bench group_orders` (optionally `-- ROUNDS`, default 3).
//! 200 starts, 100 on each of AR0011SR (512 x 512) and AcrosstheCape (768 x 768), sizes 1, 2
//! and 3 in turn, drawn with a fixed seed among the anchors that can reach the goal, twice:
//! spread over the whole map, and within a 48 x 48 box around the anchor nearest a fifth of
//! the way across and down where a 3x3 unit can reach the goal (a box-selected group). The
//! goal is the anchor nearest the middle of the map where a 3x3 unit fits. Times are the
//! total for all 200 starts, the mean of the timed rounds after one warm-up round.
//!
//! Last, a small order on a large map: 10 units within 20 cells of their goal in the middle
//! of an open 4096 x 4096 map, by `find_paths_to` and by 10 `find_path` calls; then the same
//! where every seventh pair of rows costs 2 (a field answers the order), and a field bounded
//! to a cost of 20 there, its time and bytes, and the weighted order again with its units
//! and 20 others standing on the map, blocking (`GROUP_ORDERS_SMALL_ONLY=1` runs these rows
//! alone).

use clearance_cli::movingai::{movingai_profile, read_map, MOVINGAI_PROFILE};
use clearance_cli::shared_data::movingai_dir;
use clearance_core::{
    Cell, FlowFieldOptions, LandmarkPlacement, PathMap, PathQuery, PathResult, SearchMode,
    SearchScratch,
};
use std::hint::black_box;
use std::time::Instant;

const MAPS: [&str; 2] = ["AR0011SR", "AcrosstheCape"];
const STARTS_PER_MAP: usize = 100;
const PROFILE: &str = MOVINGAI_PROFILE;

/// One map's group order: the goal and each start with its agent size.
struct Order {
    name: &'static str,
    map: PathMap,
    goal: Cell,
    starts: Vec<(Cell, i64)>,
}

/// SplitMix64, for a fixed, reproducible choice of starts.
struct Rng(u64);

impl Rng {
    fn below(&mut self, limit: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % limit as u64) as usize
    }
}

/// Side of the box a box-selected group's starts are drawn in.
const GROUP_BOX: i32 = 48;

/// The order on map `name`: starts spread over the map, or within [`GROUP_BOX`] of one spot.
fn order(name: &'static str, rng: &mut Rng, grouped: bool) -> Order {
    let dir = movingai_dir().unwrap_or_else(|missing| panic!("{missing}"));
    let file = read_map(&dir.join(format!("{name}.map"))).unwrap();
    let mut map = PathMap::new(file.grid);
    map.set_profile(movingai_profile()).unwrap();
    let region = map.region();
    let middle = Cell::new(region.width / 2, region.height / 2);
    let goal = region
        .cells()
        .filter(|&cell| map.clearance(cell, PROFILE).unwrap_or(0) >= 3)
        .min_by_key(|&cell| {
            let (dx, dy) = (cell.x - middle.x, cell.y - middle.y);
            (dx * dx + dy * dy, cell.y, cell.x)
        })
        .expect("a 3x3 unit fits somewhere");
    // Full fields (not timed) say which anchors of each size can reach the goal.
    let fields: Vec<_> = (1..=3)
        .map(|size| {
            map.flow_field(&[goal], size, PROFILE, FlowFieldOptions::new())
                .unwrap()
        })
        .collect();
    let (corner, side) = if grouped {
        let spot = Cell::new(region.width / 5, region.height / 5);
        let centre = region
            .cells()
            .filter(|&cell| fields[2].cost(cell).is_some())
            .min_by_key(|&cell| {
                let (dx, dy) = (cell.x - spot.x, cell.y - spot.y);
                (dx * dx + dy * dy, cell.y, cell.x)
            })
            .expect("a 3x3 unit reaches the goal from somewhere");
        let corner = Cell::new(
            (centre.x - GROUP_BOX / 2).clamp(0, region.width - GROUP_BOX),
            (centre.y - GROUP_BOX / 2).clamp(0, region.height - GROUP_BOX),
        );
        (corner, (GROUP_BOX, GROUP_BOX))
    } else {
        (Cell::new(0, 0), (region.width, region.height))
    };
    let mut starts = Vec::with_capacity(STARTS_PER_MAP);
    while starts.len() < STARTS_PER_MAP {
        let size = (starts.len() % 3) as i64 + 1;
        let cell = Cell::new(
            corner.x + rng.below(side.0 as usize) as i32,
            corner.y + rng.below(side.1 as usize) as i32,
        );
        if cell != goal && fields[size as usize - 1].cost(cell).is_some() {
            starts.push((cell, size));
        }
    }
    Order {
        name,
        map,
        goal,
        starts,
    }
}

/// Mean seconds of `work` over `rounds` timed rounds after one warm-up, and the warm-up's
/// summed cost.
fn time(rounds: usize, mut work: impl FnMut() -> u64) -> (f64, u64) {
    let cost = work();
    let started = Instant::now();
    for _ in 0..rounds {
        black_box(work());
    }
    (started.elapsed().as_secs_f64() / rounds.max(1) as f64, cost)
}

fn total_cost(results: &[PathResult]) -> u64 {
    results
        .iter()
        .map(|result| {
            assert!(result.is_ok(), "{}", result.code);
            result.cost
        })
        .sum()
}

/// The starts of `order` of agent size `size`.
fn starts_of(order: &Order, size: i64) -> Vec<Cell> {
    (order.starts.iter())
        .filter(|&&(_, s)| s == size)
        .map(|&(cell, _)| cell)
        .collect()
}

/// Every order answered by one `find_paths_to` per map and size.
fn by_group_orders(orders: &[Order]) -> u64 {
    let mut cost = 0;
    for order in orders {
        for size in 1..=3 {
            let starts = starts_of(order, size);
            cost += total_cost(&order.map.find_paths_to(order.goal, &starts, size, PROFILE));
        }
    }
    cost
}

/// Every order answered by one flow field per map and size, bounded to settle its starts,
/// then a path from each start; with how many anchors the fields settle in all.
fn by_fields(orders: &[Order]) -> (u64, usize) {
    let (mut cost, mut settled) = (0, 0);
    for order in orders {
        for size in 1..=3 {
            let starts = starts_of(order, size);
            let options = FlowFieldOptions::new().settle(&starts);
            let field = order.map.flow_field(&[order.goal], size, PROFILE, options);
            let field = field.unwrap();
            settled += field.reached_count();
            let paths: Vec<PathResult> =
                starts.iter().map(|&start| field.path_from(start)).collect();
            cost += total_cost(&paths);
        }
    }
    (cost, settled)
}

/// Every order answered by one search per start.
fn by_searches(orders: &[Order], mode: SearchMode, scratch: &mut SearchScratch) -> (u64, u64) {
    let (mut cost, mut expanded) = (0, 0);
    for order in orders {
        for &(start, size) in &order.starts {
            let query = PathQuery::new(start, order.goal, size, PROFILE).search(mode);
            let result = order.map.query_with(scratch, &query);
            assert!(result.is_ok(), "{}", result.code);
            cost += result.cost;
            expanded += result.expanded;
        }
    }
    (cost, expanded)
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse().ok())
        .unwrap_or(3);
    if std::env::var_os("GROUP_ORDERS_SMALL_ONLY").is_some() {
        small_order_on_a_large_map(rounds);
        return;
    }
    for grouped in [false, true] {
        let mut rng = Rng(0x6A0F_2026);
        let orders: Vec<Order> = MAPS
            .iter()
            .map(|name| order(name, &mut rng, grouped))
            .collect();
        compare(orders, rounds, grouped);
    }
    small_order_on_a_large_map(rounds);
}

/// 10 units within 20 cells of their goal on an open 4096 x 4096 map: what a group order's
/// memory costs when it follows the map instead of the search.
fn small_order_on_a_large_map(rounds: usize) {
    let grid = clearance_core::TerrainGrid::new(clearance_core::Region::new(0, 0, 4096, 4096), 0)
        .expect("a valid region");
    let mut map = PathMap::new(grid);
    map.set_profile(
        clearance_core::AgentProfile::new("unit")
            .with_terrain(0, 1.0)
            .unwrap(),
    )
    .unwrap();
    map.prepare("unit", 1);
    let goal = Cell::new(2000, 2000);
    let starts: Vec<Cell> = (0..10)
        .map(|index| Cell::new(1985 + index * 3, 1990 + (index % 3) * 5))
        .collect();
    let (together, _) = time(rounds, || {
        total_cost(&map.find_paths_to(goal, &starts, 1, "unit"))
    });
    let (one_by_one, _) = time(rounds, || {
        let results: Vec<PathResult> = (starts.iter())
            .map(|&start| map.find_path(start, goal, 1, "unit"))
            .collect();
        total_cost(&results)
    });
    println!("\n| 10 units within 20 cells of the goal, open 4096 x 4096 | find_paths_to | 10 find_path |");
    println!("|---|---:|---:|");
    println!(
        "| per order | {:.1} us | {:.1} us |",
        together * 1e6,
        one_by_one * 1e6
    );
    // The same order where the ground is not uniform: a field answers it.
    let mut grid = map.grid().clone();
    for y in (0..4094).step_by(7) {
        grid.fill_rect(clearance_core::Region::new(0, y, 4096, 2), 1)
            .expect("inside the map");
    }
    let mut weighted = PathMap::new(grid);
    weighted
        .set_profile(
            clearance_core::AgentProfile::new("unit")
                .with_terrain(0, 1.0)
                .unwrap()
                .with_terrain(1, 2.0)
                .unwrap(),
        )
        .unwrap();
    weighted.prepare("unit", 1);
    let (together, _) = time(rounds, || {
        total_cost(&weighted.find_paths_to(goal, &starts, 1, "unit"))
    });
    let (one_by_one, _) = time(rounds, || {
        let results: Vec<PathResult> = (starts.iter())
            .map(|&start| weighted.find_path(start, goal, 1, "unit"))
            .collect();
        total_cost(&results)
    });
    let mut bytes = 0;
    let (field, _) = time(rounds, || {
        let options = FlowFieldOptions::new().max_cost(20 * clearance_core::COST_SCALE);
        let field = weighted.flow_field(&[goal], 1, "unit", options).unwrap();
        bytes = field.memory_bytes();
        field.reached_count() as u64
    });
    println!(
        "| weighted (rows of cost 2), per order | {:.1} us | {:.1} us |",
        together * 1e6,
        one_by_one * 1e6
    );
    println!(
        "| a field bounded to cost 20 on that ground | {:.1} us, {bytes} bytes | - |",
        field * 1e6
    );
    // The order's own units stand on their starts; 20 others stand about, and block.
    let group: Vec<(i64, Cell, i64)> = (starts.iter().enumerate())
        .map(|(index, &start)| (index as i64, start, 1))
        .collect();
    let others = (0..20).map(|index| (100 + index, Cell::new(1980 + 2 * index as i32, 2010), 1));
    let units: Vec<(i64, Cell, i64)> = group.iter().copied().chain(others).collect();
    weighted.place_units(&units).expect("units on open ground");
    let members: Vec<i64> = group.iter().map(|&(id, _, _)| id).collect();
    let (together, _) = time(rounds, || {
        let results = weighted.find_paths_to_counting(
            goal,
            &starts,
            1,
            "unit",
            clearance_core::OtherUnits::Block,
            &members,
        );
        total_cost(&results)
    });
    println!(
        "| the weighted order among 30 units, the 20 others blocking | {:.1} us | - |",
        together * 1e6
    );
}

/// Times one set of orders every way, and the full-map fields after the spread-out ones.
fn compare(mut orders: Vec<Order>, rounds: usize, grouped: bool) {
    for order in &orders {
        for size in 1..=3 {
            order.map.prepare(PROFILE, size);
        }
    }
    let spread = if grouped {
        format!("within a {GROUP_BOX} x {GROUP_BOX} box")
    } else {
        "spread over the map".to_owned()
    };
    println!("Group orders: {} starts {spread}, sizes 1-3, one goal per map ({rounds} timed rounds after one warm-up)\n",
        orders.iter().map(|order| order.starts.len()).sum::<usize>());
    for order in &orders {
        println!(
            "* {}: goal ({}, {})",
            order.name, order.goal.x, order.goal.y
        );
    }
    println!();
    println!("| landmarks | answered by | total ms | per start us | anchors expanded (fields: settled) per start | find_paths_to faster by |");
    println!("|---|---|---:|---:|---:|---:|");
    let mut scratch = SearchScratch::new();
    for landmarks in [0, 8] {
        if landmarks > 0 {
            for order in &mut orders {
                order
                    .map
                    .set_landmarks(LandmarkPlacement::Farthest(landmarks))
                    .unwrap();
                order.map.bake_landmarks(PROFILE);
            }
        }
        let starts = orders.iter().map(|order| order.starts.len()).sum::<usize>() as f64;
        let (group_s, group_cost) = time(rounds, || by_group_orders(&orders));
        let row = |what: &str, seconds: f64, expanded: Option<f64>| {
            println!(
                "| {landmarks} | {what} | {:.1} | {:.0} | {} | {} |",
                seconds * 1e3,
                seconds * 1e6 / starts,
                expanded.map_or("-".to_owned(), |e| format!("{:.0}", e / starts)),
                if what == "find_paths_to" {
                    "-".to_owned()
                } else {
                    format!("**{:.1}x**", seconds / group_s)
                },
            );
        };
        row("find_paths_to", group_s, None);
        let mut settled = 0;
        let (fields_s, fields_cost) = time(rounds, || {
            let (cost, count) = by_fields(&orders);
            settled = count;
            cost
        });
        assert_eq!(
            fields_cost, group_cost,
            "fields and group orders disagree on costs"
        );
        row("bounded flow fields", fields_s, Some(settled as f64));
        for mode in [SearchMode::Plain, SearchMode::Auto] {
            let mut expanded = 0;
            let (seconds, cost) = time(rounds, || {
                let (cost, count) = by_searches(&orders, mode, &mut scratch);
                expanded = count;
                cost
            });
            assert_eq!(
                cost, group_cost,
                "group orders and searches disagree on costs"
            );
            row(
                &format!("find_path {}", mode.as_str()),
                seconds,
                Some(expanded as f64),
            );
        }
    }

    if grouped {
        println!();
        return;
    }
    // One full-map field per size on the large map.
    let cape = &orders[1];
    let anchors = (cape.map.region().width * cape.map.region().height) as f64;
    println!("\nFull-map fields on {} ({} cells)\n", cape.name, anchors);
    println!("| size | reached anchors | ms | ns per reached anchor | bytes per map cell |");
    println!("|---:|---:|---:|---:|---:|");
    for size in 1..=3 {
        let mut field = None;
        let (seconds, _) = time(rounds, || {
            let built = cape
                .map
                .flow_field(&[cape.goal], size, PROFILE, FlowFieldOptions::new())
                .unwrap();
            let reached = built.reached_count() as u64;
            field = Some(built);
            reached
        });
        let field = field.expect("timed at least once");
        println!(
            "| {size} | {} | {:.1} | {:.0} | {:.1} |",
            field.reached_count(),
            seconds * 1e3,
            seconds * 1e9 / field.reached_count() as f64,
            field.memory_bytes() as f64 / anchors
        );
    }
}
