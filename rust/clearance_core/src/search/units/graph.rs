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
            // Only touched anchors can lose a move: the words of anchors with none touched
            // are skipped whole, so the copy costs what the units cover, not the map.
            let anchors = graph.moves.len();
            for (word, &touched) in view.touched_by_row.iter().enumerate() {
                if touched == 0 {
                    continue;
                }
                for anchor in word * 64..(word * 64 + 64).min(anchors) {
                    let mask = graph.moves[anchor];
                    graph.moves.set(anchor, view.unblocked_mask(anchor, mask));
                }
            }
        }
        OtherUnits::Cost(cost) => {
            let UnitCostScale {
                unit,
                scale,
                multiplier: units_multiplier,
            } = UnitCostScale::new(terrain.cost_unit, cost.fixed());
            let entry: PagedVec<u32> = (0..terrain.moves.len())
                .map(|anchor| {
                    let own = u64::from(match &terrain.entry {
                        EntryCosts::Uniform(value) => *value,
                        EntryCosts::PerAnchor(values) => values[anchor],
                    }) * scale;
                    let paid = if view.is_blocked(anchor) {
                        own.max(units_multiplier)
                    } else {
                        own
                    };
                    // At most 10,000 x 1000 fixed-point units, so it fits.
                    paid as u32
                })
                .collect();
            graph.entry = EntryCosts::PerAnchor(entry);
            graph.cost_unit = unit;
            graph.min_multiplier = (u64::from(terrain.min_multiplier) * scale) as u32;
            graph.max_multiplier =
                ((u64::from(terrain.max_multiplier) * scale).max(units_multiplier)) as u32;
        }
    }
    graph
}
