//! Rays that stop at every anchor other units touch (see `search/units.rs` for why that keeps
//! stored rays exact).

use super::distances::JumpDistances;
use super::rays::{Stops, PARTS};
use crate::search::units::UnitsView;

/// The stops of `inner` (the goal, or targets) and every touched anchor of `units`.
pub(in crate::search) struct AroundUnits<'a, S> {
    pub(in crate::search) inner: S,
    pub(in crate::search) units: &'a UnitsView,
}

/// The nearer of two distances.
fn nearer(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

impl<S: Stops> Stops for AroundUnits<'_, S> {
    #[inline(always)]
    fn is_stop(&self, anchor: usize) -> bool {
        self.inner.is_stop(anchor) || self.units.is_touched(anchor)
    }

    fn first_within(&self, from: usize, direction: usize, steps: usize) -> Option<usize> {
        let units = self.units.first_touched_straight(from, direction, steps);
        let within = units.map_or(steps, |found| found - 1);
        nearer(self.inner.first_within(from, direction, within), units)
    }

    fn first_on_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        distances: &JumpDistances,
    ) -> Option<usize> {
        let units = self.units.first_touched_diagonal(
            from,
            direction,
            steps,
            PARTS[direction],
            |at, part| distances.ray(at, part).steps,
        );
        let within = units.map_or(steps, |found| found - 1);
        nearer(
            self.inner
                .first_on_diagonal(from, direction, within, distances),
            units,
        )
    }
}
