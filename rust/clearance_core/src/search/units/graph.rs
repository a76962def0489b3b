//! A copy of a terrain graph with other units counted, for searches that read the graph's
//! arrays directly.

use super::UnitsView;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::occupancy::OtherUnits;
use crate::paged::PagedVec;
use crate::search::UnitCostScale;

/// `graph` with other units counted as `view` and `rule` say, for searches that read the
/// graph's arrays directly (flow fields): under [`OtherUnits::Block`] the blocked anchors
/// lose their moves and their neighbours the moves onto them; under [`OtherUnits::Cost`] the
/// blocked anchors cost `max(m, M)`, counted in a unit that divides both the graph's and `M`.
/// The copy keeps the terrain's region labels (units only split regions, which costs a
/// search the time to find out) and drops the stored rays, which describe the terrain's
/// graph.
pub(crate) fn graph_with_units(
    terrain: &AnchorGraph,
    view: &UnitsView,
    rule: OtherUnits,
) -> AnchorGraph {
    let mut graph = terrain.without_stored_rays();
    match rule {
        OtherUnits::Ignore => {}
        OtherUnits::Block => {
            // Only touched anchors can lose a move, so the copy costs what the units cover,
            // not the map. An anchor met twice (rectangles overlap) gets the same mask again:
            // removing the moves onto blocked anchors a second time removes nothing more.
            for anchor in view.touched_anchors() {
                let mask = graph.moves[anchor];
                graph.moves.set(anchor, view.unblocked_mask(anchor, mask));
            }
        }
        OtherUnits::Cost(cost) => {
            let UnitCostScale {
                unit,
                scale,
                multiplier: units_multiplier,
            } = UnitCostScale::new(terrain.cost_unit, cost.fixed());
            let own = |anchor: usize| {
                u64::from(match &terrain.entry {
                    EntryCosts::Uniform(value) => *value,
                    EntryCosts::PerAnchor(values) => values[anchor],
                }) * scale
            };
            // At most 10,000 x 1000 fixed-point units, so every multiplier fits.
            let entry: PagedVec<u32> = if scale == 1 {
                // The terrain's multipliers as they are (pages shared), raised where units
                // stand: the copy costs what the units cover, not the map.
                let mut entry = match &terrain.entry {
                    EntryCosts::Uniform(value) => PagedVec::filled(*value, terrain.moves.len()),
                    EntryCosts::PerAnchor(values) => values.clone(),
                };
                for anchor in view.touched_anchors() {
                    if view.is_blocked(anchor) {
                        entry.set(anchor, own(anchor).max(units_multiplier) as u32);
                    }
                }
                entry
            } else {
                (0..terrain.moves.len())
                    .map(|anchor| {
                        let paid = if view.is_blocked(anchor) {
                            own(anchor).max(units_multiplier)
                        } else {
                            own(anchor)
                        };
                        paid as u32
                    })
                    .collect()
            };
            graph.entry = EntryCosts::PerAnchor(entry);
            graph.cost_unit = unit;
            graph.min_multiplier = (u64::from(terrain.min_multiplier) * scale) as u32;
            graph.max_multiplier =
                ((u64::from(terrain.max_multiplier) * scale).max(units_multiplier)) as u32;
        }
    }
    graph
}
