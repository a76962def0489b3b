//! Agent profiles: capability and fixed-point multipliers.

use clearance_core::{AgentProfile, TerrainSet, MULTIPLIER_SCALE};

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
