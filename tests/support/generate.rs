//! Seeded generators for maps, profiles and queries, so that every failure replays.

use clearance_core::{AgentProfile, Cell, Movement, PathMap, Region, TerrainGrid};

/// SplitMix64: a tiny, well-mixed generator; good enough for test cases and fully reproducible.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..high` (`high > low`).
    pub fn range(&mut self, low: i64, high: i64) -> i64 {
        low + (self.next_u64() % (high - low) as u64) as i64
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() as i64) as usize]
    }
}

/// Terrain ids used by generated maps: 0 ground, 1 wall, 2 road, 3 swamp, 4 water.
pub const GROUND: u8 = 0;
/// Never traversable in generated profiles.
pub const WALL: u8 = 1;
/// Usually cheap.
pub const ROAD: u8 = 2;
/// Usually expensive.
pub const SWAMP: u8 = 3;
/// Traversable only for some profiles.
pub const WATER: u8 = 4;

/// A random map of the given size with a random origin (possibly negative); `wall_percent` of
/// the cells are walls, the rest a mix of the other terrains, partly in blobs so that wide and
/// narrow passages both occur.
pub fn random_grid(rng: &mut Rng, width: i32, height: i32, wall_percent: u64) -> TerrainGrid {
    let region = Region::new(
        rng.range(-20, 20) as i32,
        rng.range(-20, 20) as i32,
        width,
        height,
    );
    let mut grid = TerrainGrid::new(region, GROUND).expect("generated region is valid");
    let cells = i64::from(width) * i64::from(height);
    for _ in 0..(cells / 8).max(1) {
        let terrain = *rng.pick(&[ROAD, SWAMP, WATER, GROUND]);
        let w = rng.range(1, 4) as i32;
        let h = rng.range(1, 4) as i32;
        let x = region.x + rng.range(0, i64::from(width)) as i32;
        let y = region.y + rng.range(0, i64::from(height)) as i32;
        let rect = Region::new(
            x,
            y,
            w.min(region.x + width - x),
            h.min(region.y + height - y),
        );
        grid.fill_rect(rect, terrain)
            .expect("clipped rectangle is inside");
    }
    for index in 0..cells as usize {
        if rng.chance(wall_percent) {
            let cell = grid.cell_at(index);
            grid.set_cell(cell, WALL).expect("cell is inside");
        }
    }
    grid
}

/// A random profile: ground always allowed, road, swamp and water each maybe, walls never;
/// multipliers drawn from a set that includes 0 and values below 1.
pub fn random_profile(rng: &mut Rng, name: &str) -> AgentProfile {
    const MULTIPLIERS: [f64; 9] = [0.0, 0.25, 0.5, 1.0, 1.0, 1.5, 2.0, 3.0, 9.0];
    let mut profile = AgentProfile::new(name);
    for terrain in [GROUND, ROAD, SWAMP, WATER] {
        if terrain == GROUND || rng.chance(65) {
            profile
                .set_terrain(terrain, *rng.pick(&MULTIPLIERS))
                .expect("generated multipliers are valid");
        }
    }
    profile
}

/// A random cell of `region`.
pub fn random_cell(rng: &mut Rng, region: Region) -> Cell {
    Cell::new(
        region.x + rng.range(0, i64::from(region.width)) as i32,
        region.y + rng.range(0, i64::from(region.height)) as i32,
    )
}

/// A map of `grid` moving by `movement`, with a random profile (see [`random_profile`]) under
/// each of `names`, drawn in that order.
pub fn map_with_random_profiles(
    rng: &mut Rng,
    grid: TerrainGrid,
    movement: Movement,
    names: &[&str],
) -> PathMap {
    let mut map = PathMap::new(grid).with_movement(movement);
    for name in names {
        map.set_profile(random_profile(rng, name)).unwrap();
    }
    map
}

/// The movement rule of generated case number `case`: 4-way in every third case, 8-way
/// otherwise, so that a run of cases covers both.
pub fn movement_for_case(case: usize) -> Movement {
    if case % 3 == 2 {
        Movement::FourWay
    } else {
        Movement::EightWay
    }
}

/// A generated map for case number `case`: sides from 1 to `max_side`, no walls or 5, 15 or 30
/// percent of them, 4-way in every fourth case, with a random profile under each of `names`.
pub fn random_map_for_case(rng: &mut Rng, case: usize, max_side: i64, names: &[&str]) -> PathMap {
    let width = rng.range(1, max_side + 1) as i32;
    let height = rng.range(1, max_side + 1) as i32;
    let walls = *rng.pick(&[0, 0, 5, 15, 30]);
    let grid = random_grid(rng, width, height, walls);
    let movement = if case % 4 == 3 {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    map_with_random_profiles(rng, grid, movement, names)
}
