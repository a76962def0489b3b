//! Arrival slots against a checker that shares no code with the slot builder: every property
//! of the contract in `map/slots/mod.rs` (legal, pairwise apart, clear of the units outside the
//! group, reachable round them, compact by the reference cost from the target's anchors, and
//! `None` only where no free anchor is left to reach), checked with the reference solver with
//! units (tests/support/units.rs) on generated maps; equal calls give equal slots; bad input
//! gets its typed error.
//!
//! One module per concern: generated group orders, and hand-built scenes with bad input; the
//! checker of slots and of the paths sent to them is `clearance_tests::slots`, which the
//! `units` fuzz target calls too.

mod generated;
mod scenes;

use clearance_core::PathMap;
use clearance_tests::generate::{random_cell, random_map_for_case, Rng};
use clearance_tests::units::Standing;

/// Profile names of generated maps.
const NAMES: [&str; 3] = ["scout", "truck", "tank"];

/// A generated map with the three profiles of [`NAMES`].
fn random_map(rng: &mut Rng, case: usize, max_side: i64) -> PathMap {
    random_map_for_case(rng, case, max_side, &NAMES)
}

/// Registers `unit` on `map` and in `units`.
fn place(map: &mut PathMap, units: &mut Vec<Standing>, unit: Standing) {
    map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
        .unwrap();
    units.push(unit);
}

/// Places `count` units with ids from 0 at random cells of `map`, each of a size in
/// `sizes.0..sizes.1`, and returns them.
fn scatter_units(rng: &mut Rng, map: &mut PathMap, count: i64, sizes: (i64, i64)) -> Vec<Standing> {
    let mut units = Vec::new();
    for id in 0..count {
        let unit = Standing {
            id,
            anchor: random_cell(rng, map.region()),
            size: rng.range(sizes.0, sizes.1) as i32,
        };
        place(map, &mut units, unit);
    }
    units
}
