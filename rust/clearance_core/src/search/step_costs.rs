//! Step costs under the entry-cost convention: a step's length times the multiplier of the
//! anchor it enters.

use super::units::UnitsView;
use crate::graph::EntryCosts;
use crate::paged::PagedVec;

/// The cost of one step, given its direction and the anchor it enters.
pub(super) trait StepCosts {
    /// Whether every legal anchor costs the same to enter. Then step costs obey the triangle
    /// inequality between neighbouring anchors, which the pruning of `pruning.rs` relies on.
    const UNIFORM: bool;
    /// Whether these are the terrain graph's own costs, which its stored rays were built on
    /// (other units' costs are not).
    const TERRAIN: bool;
    /// The other units that make some anchors dearer than the terrain's costs say, if any:
    /// elsewhere the costs are the terrain's.
    #[inline(always)]
    fn units(&self) -> Option<&UnitsView> {
        None
    }
    /// The cost of the step in `direction` into the anchor stored at `target`.
    fn step_cost(&self, direction: usize, target: usize) -> u64;
    /// The multiplier paid on entering the anchor stored at `anchor`, in the graph's cost
    /// unit. Uniform models may answer any constant: only differences between anchors matter
    /// to the callers.
    fn multiplier(&self, anchor: usize) -> u64;
    /// Whether every neighbour of the anchor stored at `anchor` costs what it costs to enter.
    fn even(&self, anchor: usize) -> bool;
    /// The cost of `steps` steps in `direction` from `from`, each `offset` further in storage:
    /// the sum of their step costs.
    #[inline(always)]
    fn ray_cost(&self, from: usize, direction: usize, offset: isize, steps: usize) -> u64 {
        (1..=steps as isize)
            .map(|step| self.step_cost(direction, from.wrapping_add_signed(offset * step)))
            .sum()
    }
}

/// Every anchor costs the same to enter: the cost of a step depends on its direction only.
pub(super) struct UniformCosts(pub(super) [u64; 8]);

impl StepCosts for UniformCosts {
    const UNIFORM: bool = true;
    const TERRAIN: bool = true;
    #[inline(always)]
    fn step_cost(&self, direction: usize, _target: usize) -> u64 {
        self.0[direction]
    }
    #[inline(always)]
    fn multiplier(&self, _anchor: usize) -> u64 {
        1
    }
    #[inline(always)]
    fn even(&self, _anchor: usize) -> bool {
        true
    }
    #[inline(always)]
    fn ray_cost(&self, _from: usize, direction: usize, _offset: isize, steps: usize) -> u64 {
        steps as u64 * self.0[direction]
    }
}

/// Each anchor has its own entry multiplier (the largest under its footprint).
pub(super) struct PerAnchorCosts<'a> {
    pub(super) lengths: [u64; 8],
    pub(super) multipliers: &'a PagedVec<u32>,
    /// See [`AnchorGraph::even_costs`](crate::graph::AnchorGraph::even_costs).
    pub(super) even_costs: &'a PagedVec<u64>,
}

impl StepCosts for PerAnchorCosts<'_> {
    const UNIFORM: bool = false;
    const TERRAIN: bool = true;
    #[inline(always)]
    fn step_cost(&self, direction: usize, target: usize) -> u64 {
        self.lengths[direction] * u64::from(self.multipliers[target])
    }
    #[inline(always)]
    fn multiplier(&self, anchor: usize) -> u64 {
        u64::from(self.multipliers[anchor])
    }
    #[inline(always)]
    fn even(&self, anchor: usize) -> bool {
        self.even_costs[anchor / 64] & 1 << (anchor % 64) != 0
    }
    #[inline(always)]
    fn ray_cost(&self, from: usize, direction: usize, offset: isize, steps: usize) -> u64 {
        let multipliers: u64 = (1..=steps as isize)
            .map(|step| self.multiplier(from.wrapping_add_signed(offset * step)))
            .sum();
        self.lengths[direction] * multipliers
    }
}

/// The terrain graph's costs with other units' blocked anchors dearer (`units.rs`): entering
/// one costs `max(m, M)`. Counted in a unit `scale` times finer than the graph's, in which
/// `M` is `units_multiplier`.
pub(super) struct UnitCosts<'a> {
    pub(super) lengths: [u64; 8],
    pub(super) terrain: &'a EntryCosts,
    /// The terrain graph's even-cost bits (empty with uniform costs: all even).
    pub(super) even_costs: &'a PagedVec<u64>,
    pub(super) scale: u64,
    pub(super) units_multiplier: u64,
    pub(super) units: &'a UnitsView,
}

impl StepCosts for UnitCosts<'_> {
    const UNIFORM: bool = false;
    const TERRAIN: bool = false;
    #[inline(always)]
    fn units(&self) -> Option<&UnitsView> {
        Some(self.units)
    }
    #[inline(always)]
    fn step_cost(&self, direction: usize, target: usize) -> u64 {
        self.lengths[direction] * self.multiplier(target)
    }
    #[inline(always)]
    fn multiplier(&self, anchor: usize) -> u64 {
        let terrain = match self.terrain {
            EntryCosts::Uniform(multiplier) => u64::from(*multiplier),
            EntryCosts::PerAnchor(multipliers) => u64::from(multipliers[anchor]),
        } * self.scale;
        if self.units.is_blocked(anchor) {
            terrain.max(self.units_multiplier)
        } else {
            terrain
        }
    }
    #[inline(always)]
    fn even(&self, anchor: usize) -> bool {
        // Untouched: neither it nor a neighbour is blocked, so the terrain's bit holds.
        !self.units.is_touched(anchor)
            && (self.even_costs.is_empty()
                || self.even_costs[anchor / 64] & 1 << (anchor % 64) != 0)
    }
}
