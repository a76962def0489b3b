//! The generated 1024 x 1024 map of the live-map bench, shared with the range bench of the
//! CLI crate (included by path: benches have no library to share). Each bench uses part of it.
#![allow(dead_code)]

use clearance_core::{AgentProfile, PathMap, Region, TerrainGrid};

/// Side of the generated map.
pub const SIDE: i32 = 1024;
pub const GROUND: u8 = 0;
pub const WALL: u8 = 1;
pub const SWAMP: u8 = 2;

/// A fixed-seed linear congruential generator: the same map and edits on every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn below(&mut self, bound: i32) -> i32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % bound as u64) as i32
    }
}

/// Open ground with scattered wall blocks and swamp patches, about 20% walls.
pub fn generated_map(rng: &mut Lcg) -> PathMap {
    generated_map_of_side(rng, SIDE)
}

/// The same kind of map, `side` x `side` (a multiple of 1024), with as many blocks per area.
pub fn generated_map_of_side(rng: &mut Lcg, side: i32) -> PathMap {
    let scale = (side / SIDE) * (side / SIDE);
    let mut grid = TerrainGrid::new(Region::new(0, 0, side, side), GROUND).unwrap();
    for (count, terrain) in [(2500, SWAMP), (6000, WALL)] {
        for _ in 0..count * scale {
            let (x, y) = (rng.below(side), rng.below(side));
            let (w, h) = (1 + rng.below(12), 1 + rng.below(12));
            let rect = Region::new(x, y, w.min(side - x), h.min(side - y));
            grid.fill_rect(rect, terrain).unwrap();
        }
    }
    let mut map = PathMap::new(grid);
    map.set_profile(
        AgentProfile::new("soldier")
            .with_terrain(GROUND, 1.0)
            .and_then(|p| p.with_terrain(SWAMP, 2.5))
            .unwrap(),
    )
    .unwrap();
    map.set_profile(AgentProfile::new("tank").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    map
}
