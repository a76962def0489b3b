//! Stored rays on the graph of a query that other units block: read where the units are not,
//! walked on the query's masks where they are (see `search/units.rs` for the graph).
//!
//! # Why the stored rays still answer
//!
//! A stored ray was computed on the terrain graph. Its result depends only on the masks of the
//! anchors it passes and, for the first forced-turn test, its origin's; on the query's graph
//! those masks differ only at *touched* anchors (blocked ones and their neighbours). So:
//!
//! * **Straight.** Up to the first touched anchor `t` on the ray (found by a bit scan of the
//!   touched anchors along its line) the stored ray is the query's ray. From `t` the ray is
//!   walked on the query's masks (every forced-turn test, dead end and stop as a walked ray
//!   makes them) until it stands on an untouched anchor `u` whose test is done; from `u` on it
//!   is the stored ray of `u` again, whose tests read `u`'s mask and those beyond, none of
//!   them changed up to the next touched anchor. The first touched anchor on a ray from an
//!   untouched anchor is never blocked (the anchor before it would be touched), so the walk
//!   never starts on a removed anchor.
//! * **Diagonal.** A diagonal ray stops at step `k` where its anchor is a stop or one of its
//!   two straight rays stops somewhere. Up to the first step `k` whose anchor is touched or
//!   one of whose straight rays, as stored, reaches a touched anchor, every straight ray is
//!   the stored one, so the stored diagonal ray is the query's. At `k` the anchor is judged on
//!   the query's graph (its straight rays as above); if it is no stop, the diagonal goes on
//!   from it as the stored diagonal of that anchor, its first step tested on the query's
//!   mask.
//!
//! Stops of the search (the goal, targets) are found as on the terrain graph; where one is
//! found at or after a touched step, the ray may stop there a step early, which is one stop
//! more on a canonical path and harmless (the parent module's "Several targets").

use super::rays::{Rays, Stops};
use crate::graph::JumpDistances;
use crate::movement::{PARTS, SIDE_BITS};
use crate::search::moves::MoveMasks;
use crate::search::step_costs::StepCosts;
use crate::search::units::UnitsView;

impl<C: StepCosts, S: Stops, M: MoveMasks, const FOUR_WAY: bool> Rays<'_, C, S, M, FOUR_WAY> {
    /// The straight ray from `from` in `direction` on the query's graph: how many steps to
    /// where it stops, or `None` at a dead end (see the module docs).
    pub(super) fn straight_around_units(
        &self,
        units: &UnitsView,
        distances: &JumpDistances,
        from: usize,
        direction: usize,
    ) -> Option<usize> {
        let forward = 1u8 << direction;
        let sides = SIDE_BITS[direction];
        let offset = self.offsets[direction];
        if self.moves.mask(from) & forward == 0 {
            return None;
        }
        let (mut origin, mut travelled) = (from, 0usize);
        loop {
            let stored = distances.ray(origin, direction);
            let touched = units.first_touched_straight(origin, direction, stored.steps);
            let reach = touched.unwrap_or(stored.steps);
            if let Some(steps) = self.stops.first_within(origin, direction, reach) {
                return Some(travelled + steps);
            }
            let Some(first) = touched else {
                return stored.stops.then_some(travelled + stored.steps);
            };
            // Walk from the touched anchor on the query's masks.
            let mut at = origin.wrapping_add_signed(offset * first as isize);
            travelled += first;
            let mut behind = self.moves.mask(at.wrapping_add_signed(-offset));
            loop {
                let here = self.moves.mask(at);
                if here & sides & !behind != 0 || self.stops.is_stop(at) {
                    return Some(travelled);
                }
                if here & forward == 0 {
                    return None;
                }
                if !units.is_touched(at) {
                    // Its test is done; the stored ray of `at` goes on from here.
                    break;
                }
                behind = here;
                at = at.wrapping_add_signed(offset);
                travelled += 1;
            }
            origin = at;
        }
    }

    /// The diagonal ray from `from` in `direction` on the query's graph: how many steps to
    /// where it stops, or `None` at a dead end (see the module docs).
    pub(super) fn diagonal_around_units(
        &self,
        units: &UnitsView,
        distances: &JumpDistances,
        from: usize,
        direction: usize,
    ) -> Option<usize> {
        let offset = self.offsets[direction];
        let parts = PARTS[direction];
        let (mut origin, mut travelled) = (from, 0usize);
        loop {
            if self.moves.mask(origin) & 1 << direction == 0 {
                return None;
            }
            let stored = distances.diagonal_ray(origin, direction)?;
            let touched =
                units.first_touched_diagonal(origin, direction, stored.steps, parts, |at, part| {
                    distances.ray(at, part).steps
                });
            let reach = touched.unwrap_or(stored.steps);
            if let Some(steps) = self
                .stops
                .first_on_diagonal(origin, direction, reach, distances)
            {
                return Some(travelled + steps);
            }
            let Some(step) = touched else {
                return stored.stops.then_some(travelled + stored.steps);
            };
            let at = origin.wrapping_add_signed(offset * step as isize);
            travelled += step;
            if self.stops.is_stop(at)
                || self.straight(at, parts[0]).is_some()
                || self.straight(at, parts[1]).is_some()
            {
                return Some(travelled);
            }
            origin = at;
        }
    }
}
