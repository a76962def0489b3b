//! Landmark tables repaired in place through every kind of edit (closings, openings,
//! rectangles, cost changes both ways in one batch) stay equal to a rebuild from the same
//! landmarks; builds on several threads give the same table as one thread.

use clearance_core::{
    AgentProfile, Cell, LandmarkPlacement, LandmarkProgress, Movement, PathCode, PathMap, Region,
    TerrainEdit, TerrainGrid,
};
use clearance_tests::check::check_query;
use clearance_tests::generate::{
    map_with_random_profiles, random_cell, random_grid, Rng, GROUND, ROAD, SWAMP, WALL, WATER,
};
use clearance_tests::reference::Reference;
use std::sync::Mutex;

const PROFILES: [&str; 2] = ["a", "b"];

/// A generated map of at least 12 x 12 cells (so that every edit of the tests stays below a
/// quarter of the map, the most the caches are repaired around) with two random profiles.
fn generated_map(rng: &mut Rng, case: usize) -> (PathMap, TerrainGrid) {
    let (width, height) = (rng.range(12, 34) as i32, rng.range(12, 34) as i32);
    let walls = *rng.pick(&[5, 15, 30]);
    let grid = random_grid(rng, width, height, walls);
    let movement = if case.is_multiple_of(2) {
        Movement::EightWay
    } else {
        Movement::FourWay
    };
    let map = map_with_random_profiles(rng, grid.clone(), movement, &PROFILES);
    (map, grid)
}

/// A random edit: a closing, an opening, a rectangle of any terrain, or a batch that may
/// raise some costs and lower others.
fn random_edit(rng: &mut Rng, region: Region) -> Vec<TerrainEdit> {
    let cell = random_cell(rng, region);
    let terrain = *rng.pick(&[GROUND, WALL, ROAD, SWAMP, WATER]);
    let clipped = |rng: &mut Rng, cell: Cell| {
        Region::new(
            cell.x,
            cell.y,
            (rng.range(1, 4) as i32).min(region.x + region.width - cell.x),
            (rng.range(1, 4) as i32).min(region.y + region.height - cell.y),
        )
    };
    match rng.range(0, 8) {
        0 | 1 => vec![TerrainEdit::Cell {
            cell,
            terrain: WALL,
        }],
        2 | 3 => vec![TerrainEdit::Cell {
            cell,
            terrain: GROUND,
        }],
        4 => vec![TerrainEdit::Cell { cell, terrain }],
        5 => vec![TerrainEdit::Rect {
            rect: clipped(rng, cell),
            terrain,
        }],
        _ => (0..rng.range(2, 4))
            .map(|_| {
                let cell = random_cell(rng, region);
                TerrainEdit::Rect {
                    rect: clipped(rng, cell),
                    terrain: *rng.pick(&[GROUND, WALL, ROAD, SWAMP, WATER]),
                }
            })
            .collect(),
    }
}

/// Whether a rebuild from `landmarks` would place other landmarks than these: one of them is
/// no longer legal, or (for given cells) a given cell that was skipped became legal.
fn placement_changed(
    map: &PathMap,
    profile: &str,
    landmarks: &[Cell],
    placement: &LandmarkPlacement,
) -> bool {
    let terrain = Reference::for_map(map, profile, 1);
    let legal = |cell: Cell| terrain.legal(cell);
    let closed = landmarks.iter().any(|&cell| !legal(cell));
    let opened = match placement {
        LandmarkPlacement::At(cells) => cells
            .iter()
            .any(|&cell| legal(cell) && !landmarks.contains(&cell)),
        _ => false,
    };
    closed || opened
}

#[test]
fn every_edit_keeps_tables_equal_to_a_rebuild_from_the_same_landmarks() {
    let mut rng = Rng::new(0x1A2D_7E9A);
    let (mut repaired, mut raised, mut dropped, mut queries) = (0, 0, 0, 0);
    for case in 0..40 {
        let (mut map, mut grid) = generated_map(&mut rng, case);
        let region = grid.region();
        let placement = if case % 4 == 3 {
            LandmarkPlacement::At((0..3).map(|_| random_cell(&mut rng, region)).collect())
        } else {
            LandmarkPlacement::Farthest(1 + case % 8)
        };
        map.set_landmarks(placement.clone()).unwrap();
        // The landmarks of each profile's table, as the test expects them.
        let mut tables: Vec<Option<Vec<Cell>>> = PROFILES
            .iter()
            .map(|p| map.bake_landmarks(p).map(|stats| stats.landmarks))
            .collect();
        for step in 0..100 {
            let edits = random_edit(&mut rng, region);
            // Edits that write walls or swamp, which may raise costs (whether they do depends
            // on the random profiles and on what they cover).
            let may_raise = edits
                .iter()
                .any(|edit| edit.terrain() == WALL || edit.terrain() == SWAMP);
            map.apply_edits(&edits).unwrap();
            grid.apply_edits(&edits).unwrap();
            if let Err(error) = map.verify_caches() {
                panic!("case {case} step {step}: {error}");
            }
            for (index, profile) in PROFILES.into_iter().enumerate() {
                let kept = map.landmark_stats(profile).map(|stats| stats.landmarks);
                if let Some(landmarks) = tables[index].take() {
                    if placement_changed(&map, profile, &landmarks, &placement) {
                        assert_eq!(kept, None, "case {case} step {step}: dropped");
                        dropped += 1;
                    } else {
                        assert_eq!(kept.as_ref(), Some(&landmarks), "case {case} step {step}");
                        // Exact, and verify_caches compared every distance with a rebuild.
                        assert_eq!(map.landmarks_exact(profile), Some(true));
                        repaired += 1;
                        raised += usize::from(may_raise);
                    }
                }
                // Tables dropped (or never built) are built again, to be repaired next.
                tables[index] = match kept {
                    Some(kept) if map.landmarks_exact(profile) == Some(true) => Some(kept),
                    _ => map.bake_landmarks(profile).map(|stats| stats.landmarks),
                };
            }
            if step % 2 == 0 {
                let size = rng.range(1, 4);
                let profile = *rng.pick(&PROFILES);
                let start = random_cell(&mut rng, region);
                let goal = random_cell(&mut rng, region);
                if check_query(&map, &grid, start, goal, size, profile) == PathCode::Ok {
                    queries += 1;
                }
            }
        }
    }
    assert!(repaired >= 5000, "only {repaired} tables repaired");
    assert!(
        raised >= 3000,
        "only {raised} repairs after edits that write walls or swamp"
    );
    assert!(dropped >= 10, "only {dropped} tables lost a landmark");
    assert!(queries >= 300, "only {queries} queries found a path");
}

/// A wall across the map with one gap; the landmark on the left.
fn divided_map() -> PathMap {
    let mut grid = TerrainGrid::new(Region::new(0, 0, 40, 40), GROUND).unwrap();
    grid.fill_rect(Region::new(10, 0, 1, 40), WALL).unwrap();
    grid.set_cell(Cell::new(10, 20), GROUND).unwrap();
    let mut map = PathMap::new(grid);
    let profile = AgentProfile::new("unit")
        .with_terrain(GROUND, 1.0)
        .and_then(|p| p.with_terrain(SWAMP, 4.0))
        .unwrap();
    map.set_profile(profile).unwrap();
    map.set_landmarks(LandmarkPlacement::At(vec![
        Cell::new(2, 20),
        Cell::new(35, 5),
    ]))
    .unwrap();
    map
}

#[test]
fn a_door_closed_and_opened_again_keeps_the_table_exact() {
    let mut map = divided_map();
    let built = map.bake_landmarks("unit").unwrap();
    let (far, landmark) = (Cell::new(30, 20), Cell::new(2, 20));
    let open_estimate = map.estimate_cost(far, landmark, 1, "unit").unwrap();
    for round in 0..5 {
        // Closing the gap cuts most of the map off from the first landmark: more than a
        // quarter of the anchors rise, and the column is swept afresh.
        map.set_cell(Cell::new(10, 20), WALL).unwrap();
        assert_eq!(
            map.landmark_stats("unit"),
            Some(built.clone()),
            "round {round}"
        );
        assert_eq!(map.landmarks_exact("unit"), Some(true));
        map.verify_caches().unwrap();
        let closed = map.find_path(far, landmark, 1, "unit");
        assert_eq!(closed.code, PathCode::NoPath);
        // Two openings in one batch: the gap again, as swamp, and a second gap of ground.
        map.apply_edits(&[
            TerrainEdit::Cell {
                cell: Cell::new(10, 20),
                terrain: SWAMP,
            },
            TerrainEdit::Cell {
                cell: Cell::new(10, 30),
                terrain: GROUND,
            },
        ])
        .unwrap();
        assert_eq!(map.landmarks_exact("unit"), Some(true));
        map.verify_caches().unwrap();
        map.apply_edits(&[
            TerrainEdit::Cell {
                cell: Cell::new(10, 20),
                terrain: GROUND,
            },
            TerrainEdit::Cell {
                cell: Cell::new(10, 30),
                terrain: WALL,
            },
        ])
        .unwrap();
        assert_eq!(map.landmark_stats("unit"), Some(built.clone()));
        assert_eq!(map.landmarks_exact("unit"), Some(true));
        map.verify_caches().unwrap();
        assert_eq!(
            map.estimate_cost(far, landmark, 1, "unit"),
            Some(open_estimate)
        );
    }
}

#[test]
fn closing_a_landmark_drops_the_table_and_a_large_raise_keeps_lower_bounds() {
    let mut map = divided_map();
    map.bake_landmarks("unit").unwrap();
    map.set_cell(Cell::new(2, 20), WALL).unwrap();
    assert_eq!(map.landmark_stats("unit"), None, "a rebuild would skip it");
    assert_eq!(map.bake_landmarks("unit").unwrap().landmarks.len(), 1);
    // Over a quarter of the map: the caches are not repaired around it.
    map.fill_rect(Region::new(20, 0, 20, 40), SWAMP).unwrap();
    assert_eq!(map.landmarks_exact("unit"), Some(false));
    map.verify_caches().unwrap(); // lower bounds
    map.set_cell(Cell::new(25, 25), GROUND).unwrap();
    assert_eq!(
        map.landmark_stats("unit"),
        None,
        "lower bounds cannot be repaired"
    );
}

#[test]
fn builds_on_several_threads_equal_one_thread_and_report_progress() {
    let mut rng = Rng::new(0x1A2D_7437);
    for case in 0..24 {
        let (map, grid) = generated_map(&mut rng, case);
        let placement = if case % 3 == 2 {
            let region = grid.region();
            LandmarkPlacement::At((0..5).map(|_| random_cell(&mut rng, region)).collect())
        } else {
            LandmarkPlacement::Farthest(1 + case % 7)
        };
        let mut single = map.clone();
        single.set_landmarks(placement.clone()).unwrap();
        for profile in PROFILES {
            let alone = single.bake_landmarks(profile);
            for threads in [2, 3, 5, usize::MAX] {
                let mut several = PathMap::new(grid.clone()).with_movement(map.movement());
                for name in PROFILES {
                    several
                        .set_profile(map.profile(name).unwrap().clone())
                        .unwrap();
                }
                several.set_landmarks(placement.clone()).unwrap();
                let reports = Mutex::new(Vec::<LandmarkProgress>::new());
                let report = |p| reports.lock().unwrap().push(p);
                let built = several.bake_landmarks_with(profile, threads, &report);
                assert_eq!(built, alone, "case {case} {profile} {threads} threads");
                several.verify_caches().unwrap();
                // Same heuristic everywhere, so the same distances in every slot.
                let region = grid.region();
                for _ in 0..200 {
                    let (cell, goal) =
                        (random_cell(&mut rng, region), random_cell(&mut rng, region));
                    assert_eq!(
                        several.estimate_cost(cell, goal, 1, profile),
                        single.estimate_cost(cell, goal, 1, profile),
                        "case {case} {profile} {threads} threads"
                    );
                }
                let reports = reports.into_inner().unwrap();
                if built.is_some() {
                    let last = reports.last().expect("a build reports progress");
                    assert_eq!(last.done, last.total);
                    assert!(reports.windows(2).all(|pair| pair[0].done < pair[1].done));
                }
            }
        }
    }
}
