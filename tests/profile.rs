//! Agent profiles: capability and fixed-point multipliers.

use clearance_core::{
    AgentProfile, PathCode, PathMap, Region, TerrainGrid, TerrainSet, MULTIPLIER_SCALE,
};
use clearance_tests::generate::Rng;

#[test]
fn multipliers_are_stored_to_the_nearest_thousandth() {
    let mut profile = AgentProfile::new("unit");
    for (value, fixed) in [
        (1.0, 1000),
        (0.25, 250),
        (1.5, 1500),
        (0.0625, 63),
        (0.0004, 0),
        (3.3333, 3333),
    ] {
        profile.set_terrain(0, value).unwrap();
        assert_eq!(profile.fixed_multiplier(0), Some(fixed), "{value}");
    }
    assert_eq!(MULTIPLIER_SCALE, 1000);
    profile.set_terrain(0, 0.1f32.into()).unwrap();
    assert_eq!(profile.multiplier(0), Some(0.1));
}

#[test]
fn capability_lists_the_enterable_terrains() {
    let mut profile = AgentProfile::new("boat")
        .with_terrain(4, 1.0)
        .unwrap()
        .with_terrain(200, 2.0)
        .unwrap();
    assert_eq!(profile.capability(), TerrainSet::from_iter([4, 200]));
    profile.forbid_terrain(4);
    assert_eq!(profile.capability(), TerrainSet::from_iter([200]));
    assert_eq!(profile.multiplier(4), None);
    assert_eq!(profile.min_fixed_multiplier(), Some(2000));
}

#[test]
fn lowest_and_highest_multipliers_follow_every_change() {
    // A fixed sequence of pseudo-random changes: set (or reset) a terrain, or forbid one,
    // each followed by a comparison with a scan of every terrain.
    let mut profile = AgentProfile::new("walker");
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let mut forbidden_some = false;
    for _ in 0..400 {
        let terrain = rng.range(0, 12) as u8;
        if rng.chance(25) {
            forbidden_some |= profile.fixed_multiplier(terrain).is_some();
            profile.forbid_terrain(terrain);
        } else {
            let value = rng.range(0, 4096) as f64 / 512.0;
            profile.set_terrain(terrain, value).unwrap();
        }
        let entered: Vec<u32> = (0..=255)
            .filter_map(|t| profile.fixed_multiplier(t))
            .collect();
        assert_eq!(
            profile.min_fixed_multiplier(),
            entered.iter().copied().min()
        );
        assert_eq!(
            profile.max_fixed_multiplier(),
            entered.iter().copied().max()
        );
    }
    assert!(
        forbidden_some,
        "the sequence forbids a terrain the profile could enter"
    );
    for terrain in 0..12 {
        profile.forbid_terrain(terrain);
    }
    assert_eq!(profile.min_fixed_multiplier(), None);
    assert_eq!(profile.max_fixed_multiplier(), None);
}

#[test]
fn setting_an_equal_profile_keeps_the_caches_and_the_version() {
    let grid = TerrainGrid::new(Region::new(0, 0, 64, 64), 0).unwrap();
    let mut map = PathMap::new(grid);
    let scout = || AgentProfile::new("scout").with_terrain(0, 1.0).unwrap();
    map.set_profile(scout()).unwrap();
    assert_eq!(map.prepare("scout", 2), PathCode::Ok);
    let (version, bytes) = (map.version(), map.cache_memory_bytes());
    assert!(bytes > 0);
    map.set_profile(scout()).unwrap();
    assert_eq!((map.version(), map.cache_memory_bytes()), (version, bytes));
    // Another multiplier is a change: the graphs go, the version moves on.
    map.set_profile(AgentProfile::new("scout").with_terrain(0, 2.0).unwrap())
        .unwrap();
    assert!(map.version() > version);
    assert!(map.cache_memory_bytes() < bytes);
}
