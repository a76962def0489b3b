//! Clearance layers against direct footprint expansion.

use clearance_core::{AgentProfile, Cell, PathMap, Region, TerrainGrid, MAX_CLEARANCE};
use clearance_tests::generate::{random_grid, random_profile, Rng};
use clearance_tests::reference::Reference;

#[test]
fn clearance_equals_direct_expansion_for_every_cell_and_capability() {
    let mut rng = Rng::new(0xC1EA_0001);
    for _ in 0..150 {
        let (width, height) = (rng.range(1, 24) as i32, rng.range(1, 24) as i32);
        let walls = *rng.pick(&[0, 5, 15, 30]);
        let grid = random_grid(&mut rng, width, height, walls);
        let mut map = PathMap::new(grid.clone());
        let profiles: Vec<AgentProfile> = (0..3)
            .map(|i| random_profile(&mut rng, &format!("p{i}")))
            .collect();
        for profile in &profiles {
            map.set_profile(profile.clone()).unwrap();
        }
        for profile in &profiles {
            for index in 0..grid.as_bytes().len() {
                let cell = grid.cell_at(index);
                assert_eq!(
                    map.clearance(cell, profile.name()),
                    Some(Reference::direct_clearance(&grid, profile, cell)),
                    "cell {cell:?}, capability {:?}",
                    profile.capability()
                );
            }
        }
    }
}

#[test]
fn clearance_is_capped_at_255() {
    let grid = TerrainGrid::new(Region::new(-5, -5, 300, 300), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    assert_eq!(
        map.clearance(Cell::new(-5, -5), "unit"),
        Some(MAX_CLEARANCE)
    );
    assert_eq!(map.clearance(Cell::new(45, 45), "unit"), Some(250));
    assert_eq!(map.clearance(Cell::new(294, 294), "unit"), Some(1));
    assert_eq!(map.clearance(Cell::new(295, 0), "unit"), None);
}

#[test]
fn edits_invalidate_cached_clearance() {
    let grid = TerrainGrid::new(Region::new(0, 0, 6, 6), 0).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0).unwrap())
        .unwrap();
    assert_eq!(map.clearance(Cell::new(0, 0), "unit"), Some(6));
    map.set_cell(Cell::new(3, 3), 1).unwrap();
    assert_eq!(map.clearance(Cell::new(0, 0), "unit"), Some(3));
    map.fill_rect(Region::new(0, 1, 6, 1), 1).unwrap();
    assert_eq!(map.clearance(Cell::new(0, 0), "unit"), Some(1));
    map.load_terrain(&[0; 36]).unwrap();
    assert_eq!(map.clearance(Cell::new(0, 0), "unit"), Some(6));
}

#[test]
fn profiles_with_equal_capability_share_clearance() {
    let grid = TerrainGrid::from_bytes(Region::new(0, 0, 3, 1), &[0, 2, 0]).unwrap();
    let mut map = PathMap::new(grid);
    map.set_profile(AgentProfile::new("cheap").with_terrain(0, 1.0).unwrap())
        .unwrap();
    map.set_profile(AgentProfile::new("dear").with_terrain(0, 5.0).unwrap())
        .unwrap();
    let cheap = map.clearance_layer("cheap").unwrap();
    let dear = map.clearance_layer("dear").unwrap();
    assert!(std::sync::Arc::ptr_eq(&cheap, &dear));
    assert_eq!(cheap.values(), &[1, 0, 1]);
}
