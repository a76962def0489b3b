//! Live maps: edits repair the cached clearance layers and search graphs in place, and the
//! repaired caches must equal a full rebuild after every edit, valid or not.

use clearance_core::{
    AgentProfile, Cell, GridError, LandmarkPlacement, Movement, PathCode, PathMap, Region,
    TerrainEdit, TerrainGrid,
};
use clearance_tests::check::{check_random_query, check_result};
use clearance_tests::generate::{
    random_cell, random_grid, random_profile, Rng, GROUND, ROAD, SWAMP, WALL, WATER,
};
use clearance_tests::reference::Reference;
use std::sync::{Arc, Mutex};

const TERRAINS: [u8; 5] = [GROUND, WALL, ROAD, SWAMP, WATER];
const NAMES: [&str; 3] = ["scout", "truck", "tank"];

/// A rectangle somewhere around the map: usually inside, sometimes hanging over an edge or
/// empty, so that invalid edits are tried too.
fn random_rect(rng: &mut Rng, region: Region, max_side: i64) -> Region {
    if rng.chance(85) {
        let corner = random_cell(rng, region);
        let width = rng.range(1, max_side + 1) as i32;
        let height = rng.range(1, max_side + 1) as i32;
        return Region::new(
            corner.x,
            corner.y,
            width.min(region.x + region.width - corner.x),
            height.min(region.y + region.height - corner.y),
        );
    }
    let x = region.x + rng.range(-2, i64::from(region.width) + 1) as i32;
    let y = region.y + rng.range(-2, i64::from(region.height) + 1) as i32;
    let width = rng.range(0, max_side + 1) as i32;
    let height = rng.range(0, max_side + 1) as i32;
    Region::new(x, y, width, height)
}

fn random_edit(rng: &mut Rng, region: Region) -> TerrainEdit {
    let terrain = *rng.pick(&TERRAINS);
    if rng.chance(50) {
        if rng.chance(90) {
            let cell = random_cell(rng, region);
            return TerrainEdit::Cell { cell, terrain };
        }
        let cell = Cell::new(
            region.x + rng.range(-1, i64::from(region.width) + 1) as i32,
            region.y + rng.range(-1, i64::from(region.height) + 1) as i32,
        );
        TerrainEdit::Cell { cell, terrain }
    } else {
        TerrainEdit::Rect {
            rect: random_rect(rng, region, 6),
            terrain,
        }
    }
}

/// A map with three profiles whose layers and graphs for sizes 1 to 4 are all cached.
fn warm_map(rng: &mut Rng, grid: TerrainGrid, movement: Movement) -> PathMap {
    let mut map = PathMap::new(grid).with_movement(movement);
    for name in NAMES {
        map.set_profile(random_profile(rng, name)).unwrap();
    }
    for name in NAMES {
        for size in 1..=4 {
            assert_eq!(map.prepare(name, size), PathCode::Ok);
        }
    }
    map
}

/// Applies one random edit (a cell, a rectangle or a batch, valid or not) and checks that a
/// refused edit changed nothing. Returns whether it was applied.
fn apply_random_edit(rng: &mut Rng, map: &mut PathMap) -> bool {
    let region = map.region();
    let before = map.grid().as_bytes().to_vec();
    let outcome = match rng.range(0, 3) {
        0 => match random_edit(rng, region) {
            TerrainEdit::Cell { cell, terrain } => map.set_cell(cell, terrain),
            TerrainEdit::Rect { rect, terrain } => map.fill_rect(rect, terrain),
        },
        1 => {
            let rect = random_rect(rng, region, 12);
            map.fill_rect(rect, *rng.pick(&TERRAINS))
        }
        _ => {
            let count = rng.range(1, 7);
            let edits: Vec<TerrainEdit> = (0..count).map(|_| random_edit(rng, region)).collect();
            map.apply_edits(&edits)
        }
    };
    if outcome.is_err() {
        assert_eq!(map.grid().as_bytes(), &before[..], "a refused edit wrote");
    }
    outcome.is_ok()
}

#[test]
fn repaired_caches_equal_a_rebuild_after_thousands_of_random_edits() {
    let mut rng = Rng::new(0x11FE_3A95);
    let (mut applied, mut refused, mut found) = (0, 0, 0);
    for case in 0..60 {
        let (width, height) = (rng.range(1, 28) as i32, rng.range(1, 28) as i32);
        let walls = *rng.pick(&[0, 10, 25, 40]);
        let movement = if case % 3 == 0 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let grid = random_grid(&mut rng, width, height, walls);
        let mut map = warm_map(&mut rng, grid, movement);
        for step in 0..60 {
            if apply_random_edit(&mut rng, &mut map) {
                applied += 1;
            } else {
                refused += 1;
            }
            if let Err(difference) = map.verify_caches() {
                panic!("case {case}, edit {step}: {difference}");
            }
            if step % 6 == 0 {
                // Queries on the repaired graphs, including NO_PATH with nothing expanded,
                // which holds only if the repaired regions are exact.
                for _ in 0..3 {
                    let size = rng.range(1, 4);
                    let profile = *rng.pick(&NAMES);
                    let code = check_random_query(&mut rng, &map, size, profile);
                    found += usize::from(code == PathCode::Ok);
                }
            }
        }
    }
    assert!(applied >= 2000, "{applied} edits applied");
    assert!(refused >= 200, "{refused} edits refused");
    assert!(found >= 750, "{found} paths found");
}

/// How many regions the size-1 scouts of `map` have, by the reference.
fn region_count(map: &PathMap) -> usize {
    let eight_way = map.movement() == Movement::EightWay;
    let rules = Reference::new(map.grid(), map.profile("scout").unwrap(), 1, eight_way);
    let mut seen = std::collections::HashSet::new();
    let mut count = 0;
    for cell in map.region().cells() {
        if rules.legal(cell) && !seen.contains(&cell) {
            count += 1;
            seen.extend(rules.reachable_from(cell).into_iter().map(|(cell, _)| cell));
        }
    }
    count
}

#[test]
fn long_batches_that_close_and_reopen_passages_keep_regions_exact() {
    // Batches of many small edits packed into a few cells, so that one batch closes a
    // passage, opens it, and closes it again, takes anchors out and puts them back: the
    // regions are checked for splits once per batch, and must still equal a rebuild.
    let mut rng = Rng::new(0x0BA7_C4E5);
    let (mut batches, mut split) = (0, 0);
    for case in 0..40 {
        let (width, height) = (rng.range(20, 40) as i32, rng.range(20, 40) as i32);
        let movement = if case % 3 == 0 {
            Movement::FourWay
        } else {
            Movement::EightWay
        };
        let grid = random_grid(&mut rng, width, height, 30);
        let mut map = warm_map(&mut rng, grid, movement);
        for step in 0..8 {
            let centre = random_cell(&mut rng, map.region());
            let edits: Vec<TerrainEdit> = (0..rng.range(10, 60))
                .map(|_| {
                    let region = map.region();
                    let cell = Cell::new(
                        (centre.x + rng.range(-2, 3) as i32).clamp(region.x, region.x + width - 1),
                        (centre.y + rng.range(-2, 3) as i32).clamp(region.y, region.y + height - 1),
                    );
                    let terrain = if rng.chance(50) { WALL } else { GROUND };
                    TerrainEdit::Cell { cell, terrain }
                })
                .collect();
            let regions_before = region_count(&map);
            map.apply_edits(&edits).unwrap();
            batches += 1;
            split += usize::from(region_count(&map) > regions_before);
            if let Err(difference) = map.verify_caches() {
                panic!("case {case}, batch {step}: {difference}\n{edits:?}");
            }
            for _ in 0..3 {
                let (size, profile) = (rng.range(1, 4), *rng.pick(&NAMES));
                check_random_query(&mut rng, &map, size, profile);
            }
        }
    }
    assert_eq!(batches, 320);
    assert!(split >= 20, "{split} batches split a region");
}

#[test]
fn a_batch_that_cuts_thousands_of_moves_splits_regions_exactly() {
    // Pillars every 4 cells keep clearance small, so the batch is repaired in place (it
    // rewrites the clearance of about 20,000 anchors of 102,400); each of its 1,600 walls cuts
    // the moves of its eight neighbours, and two lines of walls in the same batch cut the map
    // into three parts: the split check starts from about 13,000 anchors.
    let side = 320;
    let mut grid = TerrainGrid::new(Region::new(0, 0, side, side), GROUND).unwrap();
    for y in (0..side).step_by(4) {
        for x in (0..side).step_by(4) {
            grid.set_cell(Cell::new(x, y), WALL).unwrap();
        }
    }
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    assert_eq!(map.prepare("unit", 1), PathCode::Ok);
    let per_row = side / 8;
    let mut edits: Vec<TerrainEdit> = (0..per_row * per_row)
        .map(|at| TerrainEdit::Cell {
            cell: Cell::new(8 * (at % per_row) + 2, 8 * (at / per_row) + 2),
            terrain: WALL,
        })
        .collect();
    for x in [31, 65] {
        edits.extend((0..side).map(|y| TerrainEdit::Cell {
            cell: Cell::new(x, y),
            terrain: WALL,
        }));
    }
    map.apply_edits(&edits).unwrap();
    assert!(
        map.cache_memory_bytes() > 0,
        "repaired in place, not dropped"
    );
    map.verify_caches().unwrap();
    let (left, middle, right) = (Cell::new(1, 1), Cell::new(50, 1), Cell::new(200, 1));
    for (from, to) in [(left, middle), (middle, right), (left, right)] {
        let result = map.find_path(from, to, 1, "unit");
        assert_eq!((result.code, result.expanded), (PathCode::NoPath, 0));
    }
    assert_eq!(
        map.find_path(left, Cell::new(29, 300), 1, "unit").code,
        PathCode::Ok
    );
    assert_eq!(
        map.find_path(right, Cell::new(301, 301), 1, "unit").code,
        PathCode::Ok
    );
}

#[test]
fn a_batch_that_toggles_a_door_many_times_ends_with_exact_regions() {
    // A wall across the map with a door one cell wide, opened and closed a thousand times in
    // one batch (the region split check runs once, not a thousand times).
    let mut grid = TerrainGrid::new(Region::new(0, 0, 64, 64), GROUND).unwrap();
    grid.fill_rect(Region::new(32, 0, 1, 64), WALL).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    let (left, right) = (Cell::new(0, 0), Cell::new(63, 63));
    assert_eq!(map.find_path(left, right, 1, "unit").code, PathCode::NoPath);
    let door = Cell::new(32, 30);
    let toggles = |count: usize, first: u8, second: u8| -> Vec<TerrainEdit> {
        (0..count)
            .map(|at| TerrainEdit::Cell {
                cell: door,
                terrain: if at % 2 == 0 { first } else { second },
            })
            .collect()
    };
    // Ends open: one region.
    map.apply_edits(&toggles(1001, GROUND, WALL)).unwrap();
    map.verify_caches().unwrap();
    assert_eq!(map.find_path(left, right, 1, "unit").code, PathCode::Ok);
    // Ends closed: two regions again, NO_PATH without a search.
    map.apply_edits(&toggles(1001, WALL, GROUND)).unwrap();
    map.verify_caches().unwrap();
    let closed = map.find_path(left, right, 1, "unit");
    assert_eq!((closed.code, closed.expanded), (PathCode::NoPath, 0));
}

#[test]
fn walls_that_cut_a_corridor_split_its_region_and_reopening_joins_it() {
    // Two rooms joined by a corridor one cell wide; a second, wider corridor lower down that
    // only a 1x1 agent uses when the first is closed.
    let text = [
        "..........#..........",
        "..........#..........",
        ".....................",
        ".....................",
        "..........#..........",
        "#####.#########.#####",
        "#####.#########.#####",
        "#####...........#####",
    ];
    let width = text[0].len() as i32;
    let bytes: Vec<u8> = text
        .iter()
        .flat_map(|row| row.bytes().map(|b| if b == b'#' { WALL } else { GROUND }))
        .collect();
    let grid =
        TerrainGrid::from_bytes(Region::new(0, 0, width, text.len() as i32), &bytes).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    let (left, right) = (Cell::new(0, 0), Cell::new(19, 0));
    assert_eq!(map.find_path(left, right, 2, "unit").code, PathCode::Ok);

    // Closing the door leaves the big agent no way through: NO_PATH without searching.
    map.fill_rect(Region::new(10, 2, 1, 2), WALL).unwrap();
    map.verify_caches().unwrap();
    let blocked = map.find_path(left, right, 2, "unit");
    assert_eq!((blocked.code, blocked.expanded), (PathCode::NoPath, 0));
    // The small agent goes round by the lower corridor.
    let around = map.find_path(left, right, 1, "unit");
    assert_eq!(around.code, PathCode::Ok);
    assert!(around.path.iter().any(|cell| cell.y == 7));

    // Closing the lower corridor too splits the small agent's region as well.
    map.set_cell(Cell::new(10, 7), WALL).unwrap();
    map.verify_caches().unwrap();
    let cut = map.find_path(left, right, 1, "unit");
    assert_eq!((cut.code, cut.expanded), (PathCode::NoPath, 0));

    // Reopening the door joins the regions again for both sizes.
    map.fill_rect(Region::new(10, 2, 1, 2), GROUND).unwrap();
    map.verify_caches().unwrap();
    assert_eq!(map.find_path(left, right, 1, "unit").code, PathCode::Ok);
    assert_eq!(map.find_path(left, right, 2, "unit").code, PathCode::Ok);
}

#[test]
fn a_wall_that_seals_a_pocket_is_found_without_relabelling_the_map() {
    // Sealing a small pocket in a big open map: the pocket becomes its own region.
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 200, 200), GROUND).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    map.fill_rect(Region::new(50, 50, 5, 1), WALL).unwrap();
    map.fill_rect(Region::new(50, 54, 5, 1), WALL).unwrap();
    map.fill_rect(Region::new(50, 50, 1, 5), WALL).unwrap();
    map.fill_rect(Region::new(54, 50, 1, 3), WALL).unwrap();
    let inside = Cell::new(52, 52);
    let outside = Cell::new(150, 150);
    assert_eq!(map.prepare("unit", 1), PathCode::Ok);
    assert_eq!(map.find_path(inside, outside, 1, "unit").code, PathCode::Ok);
    map.set_cell(Cell::new(54, 53), WALL).unwrap();
    map.verify_caches().unwrap();
    let sealed = map.find_path(inside, outside, 1, "unit");
    assert_eq!((sealed.code, sealed.expanded), (PathCode::NoPath, 0));
    assert_eq!(
        map.find_path(inside, Cell::new(51, 51), 1, "unit").code,
        PathCode::Ok
    );
}

#[test]
fn a_wall_that_halves_the_map_relabels_it_exactly() {
    // Both halves are larger than a split check may visit (a quarter of the graph), so the
    // check gives up and the whole graph is labelled afresh; then a door joins them again.
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 300, 300), GROUND).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    let (west, east) = (Cell::new(10, 150), Cell::new(290, 150));
    assert_eq!(map.prepare("unit", 1), PathCode::Ok);
    map.fill_rect(Region::new(150, 0, 1, 299), WALL).unwrap();
    assert_eq!(map.find_path(west, east, 1, "unit").code, PathCode::Ok);
    map.set_cell(Cell::new(150, 299), WALL).unwrap();
    map.verify_caches().unwrap();
    let cut = map.find_path(west, east, 1, "unit");
    assert_eq!((cut.code, cut.expanded), (PathCode::NoPath, 0));
    map.set_cell(Cell::new(150, 10), GROUND).unwrap();
    map.verify_caches().unwrap();
    assert_eq!(map.find_path(west, east, 1, "unit").code, PathCode::Ok);
}

/// Compares `snapshot` with a map rebuilt from `terrain`, the terrain it had when it was
/// taken: the terrain page by page, every cached layer and graph against a rebuild, each
/// profile's clearance layer against the rebuilt map's, and a few queries.
fn check_snapshot(rng: &mut Rng, snapshot: &PathMap, terrain: &[u8], taken_at: usize) {
    assert_eq!(
        snapshot.grid().as_bytes(),
        terrain,
        "snapshot of edit {taken_at}"
    );
    if let Err(difference) = snapshot.verify_caches() {
        panic!("snapshot of edit {taken_at}: {difference}");
    }
    let mut rebuilt = PathMap::new(TerrainGrid::from_bytes(snapshot.region(), terrain).unwrap())
        .with_movement(snapshot.movement());
    for profile in snapshot.profiles() {
        rebuilt.set_profile(profile.clone()).unwrap();
    }
    for name in NAMES {
        let (held, fresh) = (
            snapshot.clearance_layer(name).unwrap(),
            rebuilt.clearance_layer(name).unwrap(),
        );
        assert_eq!(held.values(), fresh.values(), "snapshot of edit {taken_at}");
        for _ in 0..4 {
            let (start, goal) = (
                random_cell(rng, snapshot.region()),
                random_cell(rng, snapshot.region()),
            );
            let size = rng.range(1, 4);
            assert_eq!(
                snapshot.find_path(start, goal, size, name),
                rebuilt.find_path(start, goal, size, name),
                "snapshot of edit {taken_at}"
            );
        }
    }
}

#[test]
fn snapshots_held_across_thousands_of_edits_keep_their_versions() {
    let mut rng = Rng::new(0x5A9E_D0C5);
    for movement in [Movement::EightWay, Movement::FourWay] {
        // Several pages per array, so that edits write some pages and share the others.
        let grid = random_grid(&mut rng, 130, 100, 20);
        let mut map = warm_map(&mut rng, grid, movement);
        let mut held: Vec<(PathMap, Vec<u8>, usize)> = Vec::new();
        for edit in 0..2500 {
            if edit % 150 == 0 {
                held.push((map.clone(), map.grid().as_bytes().to_vec(), edit));
            }
            // Each snapshot is held for about a thousand edits, overlapping the others.
            if held
                .first()
                .is_some_and(|&(_, _, taken)| edit - taken >= 1000)
            {
                let (snapshot, terrain, taken) = held.remove(0);
                check_snapshot(&mut rng, &snapshot, &terrain, taken);
            }
            apply_random_edit(&mut rng, &mut map);
        }
        for (snapshot, terrain, taken) in held {
            check_snapshot(&mut rng, &snapshot, &terrain, taken);
        }
        map.verify_caches().unwrap();
    }
}

#[test]
fn a_clone_keeps_its_own_version_while_the_original_is_edited() {
    let mut rng = Rng::new(0xC0_FFEE);
    let grid = random_grid(&mut rng, 24, 24, 15);
    let mut map = warm_map(&mut rng, grid, Movement::EightWay);
    let snapshot = map.clone();
    let frozen = snapshot.grid().as_bytes().to_vec();
    let queries: Vec<(Cell, Cell)> = (0..30)
        .map(|_| {
            (
                random_cell(&mut rng, map.region()),
                random_cell(&mut rng, map.region()),
            )
        })
        .collect();
    let before: Vec<_> = queries
        .iter()
        .map(|&(start, goal)| snapshot.find_path(start, goal, 1, "scout"))
        .collect();
    for _ in 0..200 {
        apply_random_edit(&mut rng, &mut map);
    }
    assert_ne!(
        map.grid().as_bytes(),
        &frozen[..],
        "the edits changed nothing"
    );
    map.verify_caches().unwrap();
    snapshot.verify_caches().unwrap();
    assert_eq!(snapshot.grid().as_bytes(), &frozen[..]);
    let after: Vec<_> = queries
        .iter()
        .map(|&(start, goal)| snapshot.find_path(start, goal, 1, "scout"))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn large_batches_and_whole_map_loads_rebuild_on_demand() {
    let mut rng = Rng::new(0xB16_BA7C);
    let grid = random_grid(&mut rng, 30, 30, 10);
    let mut map = warm_map(&mut rng, grid, Movement::EightWay);
    // Most of the map in one batch: the caches are dropped rather than repaired.
    let edits = [
        TerrainEdit::Rect {
            rect: Region::new(map.region().x, map.region().y, 25, 25),
            terrain: SWAMP,
        },
        TerrainEdit::Cell {
            cell: Cell::new(map.region().x + 29, map.region().y + 29),
            terrain: WALL,
        },
    ];
    map.apply_edits(&edits).unwrap();
    map.verify_caches().unwrap();
    for name in NAMES {
        assert_eq!(map.prepare(name, 2), PathCode::Ok);
    }
    let bytes: Vec<u8> = (0..900).map(|i| TERRAINS[i % 5]).collect();
    map.load_terrain(&bytes).unwrap();
    map.verify_caches().unwrap();
    assert_eq!(
        map.load_terrain(&bytes[1..]),
        Err(GridError::DataLengthMismatch {
            expected: 900,
            found: 899
        })
    );
    assert_eq!(map.grid().as_bytes(), &bytes[..]);
}

#[test]
fn a_batch_whose_repairs_rewrite_much_of_the_map_drops_the_caches_instead() {
    // Walls scattered on open ground: each writes one cell, but changes the clearance of
    // thousands of anchors up and to the left of it.
    let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 256, 256), GROUND).unwrap());
    map.set_profile(AgentProfile::new("unit").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    assert_eq!(map.prepare("unit", 2), PathCode::Ok);
    let walls = |cells: &[(i32, i32)]| -> Vec<TerrainEdit> {
        (cells.iter())
            .map(|&(x, y)| TerrainEdit::Cell {
                cell: Cell::new(x, y),
                terrain: WALL,
            })
            .collect()
    };
    // Two walls near the top left corner, which change few anchors' clearance: repaired in
    // place, the caches kept.
    map.apply_edits(&walls(&[(3, 3), (5, 40)])).unwrap();
    assert!(
        map.cache_memory_bytes() > 0,
        "a small batch keeps its caches"
    );
    map.verify_caches().unwrap();
    // Forty: written far less than a quarter of the map, but their repairs would rewrite
    // more than a quarter of its anchors long before the last, so the caches are dropped.
    let scattered: Vec<(i32, i32)> = (0..40).map(|i| (200 - i * 5, 230 - i * 4)).collect();
    map.apply_edits(&walls(&scattered)).unwrap();
    assert_eq!(map.cache_memory_bytes(), 0, "the caches were dropped");
    map.verify_caches().unwrap();
    let rules = Reference::new(map.grid(), map.profile("unit").unwrap(), 2, true);
    let (start, goal) = (Cell::new(0, 0), Cell::new(240, 240));
    let result = map.find_path(start, goal, 2, "unit");
    check_result(&rules, &result, start, goal, "after the batch");
}

#[test]
fn landmark_queries_stay_optimal_through_repairs() {
    let mut rng = Rng::new(0x1A2D_3A2C);
    for _ in 0..6 {
        let grid = random_grid(&mut rng, 30, 30, 15);
        let mut map = warm_map(&mut rng, grid, Movement::EightWay);
        map.set_landmarks(LandmarkPlacement::Farthest(4)).unwrap();
        for step in 0..40 {
            apply_random_edit(&mut rng, &mut map);
            if step % 4 == 0 {
                let profile = *rng.pick(&NAMES);
                check_random_query(&mut rng, &map, 1, profile);
            }
        }
        map.verify_caches().unwrap();
    }
}

#[test]
fn queries_during_edits_are_optimal_for_one_map_version() {
    // A writer publishes each edited version; readers query whichever version is current when
    // they start. Every result must be optimal on the version it started from.
    let mut rng = Rng::new(0x7E_AD5);
    let grid = random_grid(&mut rng, 40, 40, 15);
    let map = warm_map(&mut rng, grid, Movement::EightWay);
    let current = Mutex::new((0usize, Arc::new(map)));
    let versions = Mutex::new(vec![current.lock().unwrap().1.grid().clone()]);
    let results = Mutex::new(Vec::new());
    let started = std::sync::Barrier::new(4);
    let done = std::sync::atomic::AtomicBool::new(false);
    // How many versions readers have taken (the newest one taken, plus one; 0 before any):
    // the writer publishes the next version only after a reader took the current one, so
    // every version is queried whatever the threads' timing.
    let taken = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for reader in 0..3u64 {
            let (current, results, started, done) = (&current, &results, &started, &done);
            let taken = &taken;
            scope.spawn(move || {
                let mut rng = Rng::new(100 + reader);
                started.wait();
                let mut count = 0;
                // The version this reader queried last, and how often: a few queries a
                // version are enough, and the writer may wait on another reader.
                let mut last = (usize::MAX, 0);
                while count < 100 || !done.load(std::sync::atomic::Ordering::Acquire) {
                    let (version, map) = {
                        let guard = current.lock().unwrap();
                        (guard.0, Arc::clone(&guard.1))
                    };
                    taken.fetch_max(version + 1, std::sync::atomic::Ordering::Release);
                    if last.0 == version && last.1 >= 4 && count >= 100 {
                        std::thread::yield_now();
                        continue;
                    }
                    last = (version, if last.0 == version { last.1 + 1 } else { 1 });
                    count += 1;
                    let start = random_cell(&mut rng, map.region());
                    let goal = random_cell(&mut rng, map.region());
                    let size = rng.range(1, 3);
                    let result = map.find_path(start, goal, size, "truck");
                    results
                        .lock()
                        .unwrap()
                        .push((version, start, goal, size, result));
                }
            });
        }
        scope.spawn(|| {
            let mut rng = Rng::new(99);
            started.wait();
            for version in 0..120 {
                while taken.load(std::sync::atomic::Ordering::Acquire) <= version {
                    std::thread::yield_now();
                }
                let mut next = Arc::clone(&current.lock().unwrap().1);
                // Copy on write: readers holding the old version keep it intact.
                apply_random_edit(&mut rng, Arc::make_mut(&mut next));
                let mut versions = versions.lock().unwrap();
                versions.push(next.grid().clone());
                *current.lock().unwrap() = (versions.len() - 1, next);
            }
            while taken.load(std::sync::atomic::Ordering::Acquire) <= 120 {
                std::thread::yield_now();
            }
            done.store(true, std::sync::atomic::Ordering::Release);
        });
    });
    let map = Arc::clone(&current.lock().unwrap().1);
    let versions = versions.into_inner().unwrap();
    let results = results.into_inner().unwrap();
    assert!(results.len() >= 300);
    let seen: std::collections::HashSet<usize> = results.iter().map(|r| r.0).collect();
    assert_eq!(seen.len(), versions.len(), "every version is queried");
    for (version, start, goal, size, result) in results {
        let grid = &versions[version];
        let rules = Reference::new(grid, map.profile("truck").unwrap(), size as i32, true);
        let context = format!("version {version}, {start} -> {goal}, size {size}");
        check_result(&rules, &result, start, goal, &context);
    }
}
