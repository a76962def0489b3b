//! Every bad input gets its code or typed error, never a panic, and changes nothing.

use clearance_core::{
    AgentProfile, Cell, GridError, PathCode, PathMap, ProfileError, Region, TerrainEdit,
    TerrainGrid, MAX_CELLS, MAX_SIDE,
};

fn sample_map() -> PathMap {
    let mut grid = TerrainGrid::new(Region::new(-2, -2, 8, 6), 0).unwrap();
    grid.fill_rect(Region::new(2, -2, 1, 4), 1).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map
}

/// A fingerprint of everything a query can observe: terrain and a few query results.
fn observe(map: &PathMap) -> (Vec<u8>, Vec<clearance_core::PathResult>) {
    let queries = [
        (Cell::new(-2, -2), Cell::new(5, -2), 1),
        (Cell::new(-2, 3), Cell::new(4, -1), 2),
    ];
    let results = queries
        .iter()
        .map(|&(s, g, size)| map.find_path(s, g, size, "unit"))
        .collect();
    (map.grid().as_bytes().to_vec(), results)
}

#[test]
fn invalid_agent_sizes_are_refused_before_anything_else() {
    let map = sample_map();
    for size in [0, -1, -255, 256, 1000, i64::MIN, i64::MAX] {
        let result = map.find_path(Cell::new(-2, -2), Cell::new(0, 0), size, "no such profile");
        assert_eq!(result.code, PathCode::InvalidAgentSize, "size {size}");
        assert_eq!(result.expanded, 0);
        assert!(result.path.is_empty());
    }
    assert_eq!(map.prepare("unit", 0), PathCode::InvalidAgentSize);
}

#[test]
fn unknown_profiles_are_refused() {
    let map = sample_map();
    for name in ["", "Unit", "unit ", "tank"] {
        let result = map.find_path(Cell::new(-2, -2), Cell::new(0, 0), 1, name);
        assert_eq!(result.code, PathCode::UnknownProfile, "profile {name:?}");
    }
    assert_eq!(map.prepare("tank", 1), PathCode::UnknownProfile);
    assert_eq!(map.clearance(Cell::new(0, 0), "tank"), None);
}

#[test]
fn out_of_bounds_anchors_are_refused() {
    let map = sample_map();
    let inside = Cell::new(0, 0);
    for outside in [
        Cell::new(-3, 0),
        Cell::new(6, 0),
        Cell::new(0, -3),
        Cell::new(0, 4),
        Cell::new(i32::MIN, i32::MAX),
    ] {
        assert_eq!(
            map.find_path(outside, inside, 1, "unit").code,
            PathCode::StartOutOfBounds
        );
        assert_eq!(
            map.find_path(inside, outside, 1, "unit").code,
            PathCode::GoalOutOfBounds
        );
        assert_eq!(map.clearance(outside, "unit"), None);
    }
    // The start is checked first.
    let both = map.find_path(Cell::new(-9, 0), Cell::new(9, 0), 1, "unit");
    assert_eq!(both.code, PathCode::StartOutOfBounds);
}

#[test]
fn invalid_multipliers_are_typed_errors_and_leave_the_profile_unchanged() {
    let mut profile = AgentProfile::new("unit").with_terrain(0, 2.0).unwrap();
    let before = profile.clone();
    for value in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert!(matches!(
            profile.set_terrain(0, value),
            Err(ProfileError::NonFiniteMultiplier { terrain: 0, .. })
        ));
    }
    assert!(matches!(
        profile.set_terrain(0, -0.5),
        Err(ProfileError::NegativeMultiplier { .. })
    ));
    assert!(matches!(
        profile.set_terrain(0, 1e9),
        Err(ProfileError::MultiplierTooLarge { .. })
    ));
    assert_eq!(profile, before);
    assert!(profile.set_terrain(0, 0.0).is_ok(), "zero is allowed");
    assert!(profile.set_terrain(0, f64::from(f32::MIN_POSITIVE)).is_ok());
}

#[test]
fn empty_profile_names_are_refused() {
    let mut map = sample_map();
    let before = observe(&map);
    assert_eq!(
        map.set_profile(AgentProfile::new("").with_terrain(0, 1.0).unwrap()),
        Err(ProfileError::EmptyName)
    );
    assert_eq!(observe(&map), before);
}

#[test]
fn a_batch_with_one_bad_entry_changes_nothing() {
    let mut map = sample_map();
    let before = observe(&map);
    let bad_entries = [
        TerrainEdit::Cell {
            cell: Cell::new(6, 0),
            terrain: 1,
        },
        TerrainEdit::Rect {
            rect: Region::new(0, 0, 9, 1),
            terrain: 1,
        },
        TerrainEdit::Rect {
            rect: Region::new(0, 0, 0, 1),
            terrain: 1,
        },
        TerrainEdit::Rect {
            rect: Region::new(0, 0, -1, -1),
            terrain: 1,
        },
        TerrainEdit::Rect {
            rect: Region::new(i32::MAX, 0, i32::MAX, 1),
            terrain: 1,
        },
    ];
    for bad in bad_entries {
        let batch = [
            TerrainEdit::Cell {
                cell: Cell::new(0, 0),
                terrain: 1,
            },
            TerrainEdit::Rect {
                rect: Region::new(-2, -2, 3, 3),
                terrain: 1,
            },
            bad,
            TerrainEdit::Cell {
                cell: Cell::new(1, 1),
                terrain: 1,
            },
        ];
        let error = map.apply_edits(&batch).unwrap_err();
        assert!(
            matches!(error, GridError::InvalidBatchEntry { index: 2, .. }),
            "{error}"
        );
        assert_eq!(observe(&map), before, "after {bad:?}");
    }
    // A good batch applies in order.
    map.apply_edits(&[
        TerrainEdit::Rect {
            rect: Region::new(-2, -2, 8, 6),
            terrain: 1,
        },
        TerrainEdit::Cell {
            cell: Cell::new(5, 3),
            terrain: 0,
        },
    ])
    .unwrap();
    assert_eq!(map.grid().as_bytes().iter().filter(|&&t| t == 0).count(), 1);
}

#[test]
fn bad_single_edits_and_loads_change_nothing() {
    let mut map = sample_map();
    let before = observe(&map);
    assert!(matches!(
        map.set_cell(Cell::new(100, 0), 3),
        Err(GridError::CellOutOfBounds { .. })
    ));
    assert!(matches!(
        map.fill_rect(Region::new(-3, 0, 2, 2), 3),
        Err(GridError::RectOutOfBounds { .. })
    ));
    assert!(matches!(
        map.load_terrain(&[0; 47]),
        Err(GridError::DataLengthMismatch {
            expected: 48,
            found: 47
        })
    ));
    assert_eq!(observe(&map), before);
}

#[test]
fn invalid_regions_are_refused() {
    for region in [
        Region::new(0, 0, 0, 5),
        Region::new(0, 0, 5, -1),
        Region::new(0, 0, MAX_SIDE + 1, 1),
    ] {
        assert!(matches!(
            TerrainGrid::new(region, 0),
            Err(GridError::InvalidRegionSize { .. })
        ));
    }
    assert!(matches!(
        TerrainGrid::new(Region::new(0, 0, MAX_SIDE, MAX_SIDE), 0),
        Err(GridError::TooManyCells {
            max_cells: MAX_CELLS,
            ..
        })
    ));
    assert!(matches!(
        TerrainGrid::new(Region::new(i32::MAX - 2, 0, 5, 5), 0),
        Err(GridError::RegionOverflow { .. })
    ));
    assert!(matches!(
        TerrainGrid::from_bytes(Region::new(0, 0, 3, 3), &[0; 8]),
        Err(GridError::DataLengthMismatch {
            expected: 9,
            found: 8
        })
    ));
}

#[test]
fn a_profile_that_enters_nothing_fails_with_a_clearance_code() {
    let mut map = sample_map();
    map.set_profile(AgentProfile::new("statue")).unwrap();
    let result = map.find_path(Cell::new(0, 0), Cell::new(1, 1), 1, "statue");
    assert_eq!(result.code, PathCode::StartClearanceInsufficient);
    assert_eq!(result.shortfall.unwrap().found, 0);
}

#[test]
fn codes_have_stable_names() {
    let names: Vec<&str> = PathCode::ALL.iter().map(|code| code.as_str()).collect();
    assert_eq!(
        names,
        [
            "OK",
            "INVALID_AGENT_SIZE",
            "UNKNOWN_PROFILE",
            "START_OUT_OF_BOUNDS",
            "GOAL_OUT_OF_BOUNDS",
            "MEMORY_LIMIT_REACHED",
            "START_CLEARANCE_INSUFFICIENT",
            "GOAL_CLEARANCE_INSUFFICIENT",
            "UNKNOWN_UNIT",
            "GOAL_OCCUPIED",
            "NO_PATH",
            "SEARCH_LIMIT_REACHED",
            "PARTIAL_PATH",
        ]
    );
}
