//! Flow-field determinism: fields built on generated maps, full and bounded, hashed anchor by
//! anchor into one digest that is compared against a stored value. The reference tests in
//! `flow_field.rs` check that costs are optimal and that paths follow the tie rules; this one
//! pins down everything else a field answers (which equal-cost neighbour each `next` picks,
//! exactly which anchors a bounded field reaches, its reached count and completeness), so a
//! change to the search that alters any answer at all shows here. The digest is a pin, not a
//! proof: it was computed by the engine itself.
//!
//! Per field it hashes (64-bit FNV-1a, one byte at a time, little-endian integers): the
//! reached count as u64, completeness as one byte, then for every cell of the map in storage
//! order its fixed-point cost (`u64::MAX` where not reached) and its next anchor's x and y as
//! i32 (`i32::MAX` twice where there is none).
//!
//! After an intended change of answers, print the new digest with
//! `cargo test -p clearance_tests --test flow_field_digest -- --nocapture` and review why.

use clearance_core::{AgentProfile, Cell, FlowField, FlowFieldOptions, Movement, PathMap};
use clearance_tests::check::likely_legal_anchor;
use clearance_tests::generate::{
    movement_for_case, random_cell, random_grid, random_profile, Rng, GROUND, ROAD, SWAMP, WATER,
};
use clearance_tests::reference::Reference;

/// The digest of every field below, computed before the flow-field search was optimised.
const EXPECTED: u64 = 0x6a08_a69f_b476_fd39;
/// The same for fields whose costs need more than 64 bits with their step counts (also
/// computed with the search as it was before).
const EXPECTED_WIDE: u64 = 0x2425_808b_5094_da12;

/// 64-bit FNV-1a, written out so that it never changes.
struct Fnv1a64(u64);

impl Fnv1a64 {
    fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

fn hash_field(hash: &mut Fnv1a64, map: &PathMap, field: &FlowField) {
    hash.write(&(field.reached_count() as u64).to_le_bytes());
    hash.write(&[u8::from(field.is_complete())]);
    for cell in map.region().cells() {
        hash.write(&field.cost(cell).unwrap_or(u64::MAX).to_le_bytes());
        let next = field
            .next_anchor(cell)
            .unwrap_or(Cell::new(i32::MAX, i32::MAX));
        hash.write(&next.x.to_le_bytes());
        hash.write(&next.y.to_le_bytes());
    }
}

/// A full field, one bounded by a cost radius and one bounded to settle a few starts.
fn hash_fields(hash: &mut Fnv1a64, rng: &mut Rng, map: &PathMap, goals: &[Cell], size: i64) {
    let full = map
        .flow_field(goals, size, "unit", FlowFieldOptions::new())
        .unwrap();
    hash_field(hash, map, &full);
    let largest = (map.region().cells())
        .filter_map(|cell| full.cost(cell))
        .max()
        .unwrap_or(0);
    let radius = rng.range(0, largest as i64 + 2) as u64;
    let options = FlowFieldOptions::new().max_cost(radius);
    hash_field(
        hash,
        map,
        &map.flow_field(goals, size, "unit", options).unwrap(),
    );
    let starts: Vec<Cell> = (0..rng.range(1, 6))
        .map(|_| random_cell(rng, map.region()))
        .collect();
    let options = FlowFieldOptions::new().settle(&starts);
    hash_field(
        hash,
        map,
        &map.flow_field(goals, size, "unit", options).unwrap(),
    );
}

/// Full and bounded fields for sizes 1 and 2 on a 200 x 160 map with walls and the four other
/// terrains at `multipliers` (ground, road, swamp, water); returns how many.
fn hash_larger_map(hash: &mut Fnv1a64, seed: u64, multipliers: [f64; 4]) -> usize {
    let mut rng = Rng::new(0x1A56_E000 + seed);
    let grid = random_grid(&mut rng, 200, 160, 12);
    let mut map = PathMap::new(grid);
    let mut profile = AgentProfile::new("unit");
    for (terrain, multiplier) in [GROUND, ROAD, SWAMP, WATER].into_iter().zip(multipliers) {
        profile.set_terrain(terrain, multiplier).unwrap();
    }
    map.set_profile(profile).unwrap();
    let mut fields = 0;
    for size in 1..=2 {
        let goals = [Cell::new(100, 80), Cell::new(10, 150)]
            .map(|cell| Cell::new(cell.x + map.region().x, cell.y + map.region().y));
        let goals: Vec<Cell> = (goals.iter())
            .copied()
            .filter(|&goal| map.clearance(goal, "unit").unwrap_or(0) >= size as u8)
            .collect();
        hash_fields(hash, &mut rng, &map, &goals, size);
        fields += 3;
    }
    fields
}

#[test]
fn flow_fields_match_their_stored_digest() {
    let mut rng = Rng::new(0xD16E_57F1_E1D5);
    let mut hash = Fnv1a64::new();
    let mut fields = 0;
    for case in 0..150 {
        let width = rng.range(1, 48) as i32;
        let height = rng.range(1, 48) as i32;
        let walls = *rng.pick(&[0, 5, 15, 30]);
        let grid = random_grid(&mut rng, width, height, walls);
        let movement = movement_for_case(case);
        let mut map = PathMap::new(grid).with_movement(movement);
        map.set_profile(random_profile(&mut rng, "unit")).unwrap();
        let size = rng.range(1, 5);
        let rules = Reference::new(
            map.grid(),
            map.profile("unit").unwrap(),
            size as i32,
            movement == Movement::EightWay,
        );
        let goals: Vec<Cell> = (0..*rng.pick(&[1, 1, 2, 3]))
            .map(|_| likely_legal_anchor(&mut rng, map.grid(), &rules))
            .collect();
        if goals.iter().all(|&goal| rules.legal(goal)) {
            hash_fields(&mut hash, &mut rng, &map, &goals, size);
            fields += 3;
        }
    }
    // Two larger maps with four terrain multipliers, one with free ground.
    for (seed, ground) in [(1, 1.0), (2, 0.0)] {
        fields += hash_larger_map(&mut hash, seed, [ground, 0.5, 3.0, 1.5]);
    }
    assert!(fields >= 300, "{fields}");
    println!("flow-field digest: {:#018x} over {fields} fields", hash.0);
    assert_eq!(hash.0, EXPECTED, "flow-field digest");
}

#[test]
fn fields_with_very_uneven_costs_match_their_stored_digest() {
    // Multipliers from 0.001 to 10,000: costs too large to pack beside the step count in 64
    // bits on a map this size, so the search takes its wide labels.
    let mut hash = Fnv1a64::new();
    let fields = hash_larger_map(&mut hash, 3, [0.001, 10_000.0, 1.0, 3.5]);
    println!(
        "wide flow-field digest: {:#018x} over {fields} fields",
        hash.0
    );
    assert_eq!(hash.0, EXPECTED_WIDE, "flow-field digest, wide labels");
}
