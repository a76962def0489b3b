//! Units scattered over a Moving AI map for the benches that place some (included by path:
//! benches have no library to share).

use crate::generated::Lcg;
use clearance_cli::movingai::MOVINGAI_PROFILE;
use clearance_core::{Cell, PathMap, UnitId};
use std::collections::HashSet;

/// `count` units of sizes 1, 2, 3 in turn, each where a unit of its size fits and whose
/// footprint covers none of `keep_clear`; ids from `first_id`.
pub fn scatter(
    map: &PathMap,
    rng: &mut Lcg,
    count: usize,
    first_id: UnitId,
    keep_clear: &HashSet<Cell>,
) -> Vec<(UnitId, Cell, i64)> {
    let region = map.region();
    let mut units = Vec::with_capacity(count);
    while units.len() < count {
        let size = (units.len() % 3 + 1) as i64;
        let cell = Cell::new(
            region.x + rng.below(region.width),
            region.y + rng.below(region.height),
        );
        let fits = map.clearance(cell, MOVINGAI_PROFILE).unwrap_or(0) as i64 >= size;
        let side = size as i32;
        let clear = (0..side).all(|dy| {
            (0..side).all(|dx| !keep_clear.contains(&Cell::new(cell.x + dx, cell.y + dy)))
        });
        if fits && clear {
            units.push((first_id + units.len() as UnitId, cell, size));
        }
    }
    units
}
