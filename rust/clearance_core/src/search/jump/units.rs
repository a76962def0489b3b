//! Stored rays on the graph of a query that other units block or make dearer: read where the
//! units are not, corrected from the blocked anchors' bits where they block, walked on the
//! query's costs where they cost (see `search/units/mod.rs` for the graph).
//!
//! # Why the stored rays still answer
//!
//! A stored ray was computed on the terrain graph. The query's graph has the same anchors
//! with the blocked ones removed, so its move masks are the terrain's with moves taken away,
//! and only at *touched* anchors (blocked ones and their neighbours). On uniform costs a
//! straight ray turns at anchor `a`, reached from `b`, when `a`'s mask holds a side move (a
//! straight move at right angles) that `b`'s lacks; a diagonal ray turns only where one of its
//! two straight parts stops.
//!
//! * **Where units make a straight ray turn.** Take a ray to the right along row `y` (the
//!   other directions are mirror images) turning at `a = (x, y)` from `b = (x - 1, y)` for the
//!   side move down, within the stretch its stored ray covers. `a`'s terrain mask holds that
//!   move; had `b`'s terrain mask lacked it, the stored ray would turn at `a` too, so it ends
//!   there. Otherwise units took the move from `b`: the anchor it enters, `(x - 1, y + 1)`,
//!   is blocked, and the one `a`'s move enters, `(x, y + 1)`, is not. So **units make a ray
//!   turn only where a line of blocked anchors beside it has just ended behind it.** (A turn
//!   at step 1 compares with the origin's mask: the same argument with `b` the origin.) In
//!   rectangles: `(x - 1, y + 1)` lies in a counted unit's blocked rectangle `[x0, x1) x [y0,
//!   y1)` that holds neither `(x, y + 1)` nor `b`, so `x = x1` and `y = y0 - 1`: `a` is the
//!   top-right corner of the unit's touched rectangle (the blocked one grown by one). The
//!   places a unit can turn a ray are its touched rectangle's *far corners*: the right-hand
//!   ones for a ray to the right, the left-hand ones to the left, the bottom ones down and the
//!   top ones up. That step needs every anchor of a blocked rectangle blocked, which a start
//!   inside one breaks (the view unblocks the start); the bit condition does not.
//! * **Straight.** So a straight ray on the query's graph is read from its stored ray and
//!   three scans of blocked bits, along its line and the two beside it: it stops at the first
//!   anchor short of the first blocked one on its line where a blocked line beside it has
//!   just ended, else dead-ends before that blocked anchor (a straight step is legal exactly when it enters no blocked
//!   anchor), else is the stored ray. An anchor named a stop this way where no turn is forced
//!   is one stop more, and so is a stored turn that units take away; extra stops keep an
//!   optimal canonical path (the parent module's "Several targets").
//! * **Diagonal.** A diagonal ray stops at step `k` where its anchor is a stop or one of its
//!   straight parts stops. If the anchor is untouched, its mask (so the diagonal's next step)
//!   is the terrain's, and by the first point a straight part from it stops on the query's
//!   graph where its stored ray does not only at a turn that units force, ahead of it within
//!   the stored stretch. A part whose stored ray stops where the query's does not (units cut
//!   it short, or took its stored turn away) leaves the stored diagonal stopping where the
//!   query's may not: one stop more. So the stored diagonal ray is the query's up to
//!   the first step whose anchor is touched or one of whose straight parts, as stored, reaches
//!   a place where units can turn it: a far corner, or while the start lies inside a unit any
//!   touched anchor. On a long ray the view finds that step from the touched rectangles; on a
//!   short one, by scanning touched bits, it finds the first step whose anchor is touched or
//!   one of whose straight parts reaches any touched anchor, which is no later. There the
//!   anchor is judged on the query's graph (its straight rays as above), and if it is no stop
//!   the diagonal goes on from it as the stored diagonal of that anchor, its first step tested
//!   on the query's mask.
//!
//! # Dearer anchors (`Cost`)
//!
//! Under `Cost` the moves are the terrain's and only the costs of blocked anchors rise. A
//! turn test at an anchor reads the masks and costs of the anchor and its neighbours only, so
//! at an untouched anchor it is the terrain's test, and a stored ray is the query's up to the
//! first touched anchor on it (found by a scan of the touched bits). From there the ray is
//! walked on the query's costs, each anchor's turn test as a walked ray makes it, until it
//! stands on an untouched anchor whose test is done; from there on it is that anchor's stored
//! ray again. The walk may cross blocked anchors: under `Cost` their moves are the terrain's,
//! only their cost differs. A diagonal
//! ray is read as above with the wider test (any touched anchor a straight part reaches; a
//! dearer anchor can force a turn anywhere along its side, not only at a far corner), and at
//! the step found the anchor is also tested for a turn of its own, which costs can force on
//! a diagonal arrival.
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
    /// where it stops, or `None` at a dead end (see the module docs). Under `Block` it is read
    /// from blocked bits; under `Cost` (the masks are the terrain's) walked where units touch
    /// it.
    pub(super) fn straight_around_units(
        &self,
        units: &UnitsView,
        distances: &JumpDistances,
        from: usize,
        direction: usize,
    ) -> Option<usize> {
        let forward = 1u8 << direction;
        if self.moves.mask(from) & forward == 0 {
            return None;
        }
        if M::TERRAIN {
            return self.walked_on_costs(units, distances, (from, direction));
        }
        let stored = distances.ray(from, direction);
        let (blocked, turn) = units.straight_scan(from, direction, stored.steps);
        let reach = turn.or(blocked.map(|steps| steps - 1));
        if let Some(steps) =
            (self.stops).first_within(from, direction, reach.unwrap_or(stored.steps))
        {
            return Some(steps);
        }
        if turn.is_some() {
            return turn;
        }
        if blocked.is_some() {
            return None;
        }
        stored.stops.then_some(stored.steps)
    }

    /// [`straight_around_units`](Self::straight_around_units) where other units make anchors
    /// dearer: the stored rays up to each touched anchor, walked on the query's costs from
    /// there to the next untouched one (see the module docs).
    fn walked_on_costs(
        &self,
        units: &UnitsView,
        distances: &JumpDistances,
        (from, direction): (usize, usize),
    ) -> Option<usize> {
        let forward = 1u8 << direction;
        let sides = SIDE_BITS[direction];
        let offset = self.offsets[direction];
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
            let mut at = origin.wrapping_add_signed(offset * first as isize);
            travelled += first;
            let mut behind = self.moves.mask(at.wrapping_add_signed(-offset));
            loop {
                let here = self.moves.mask(at);
                let forced = if self.costs.even(at) {
                    here & sides & !behind != 0
                } else {
                    self.forced(at, direction)
                };
                if forced || self.stops.is_stop(at) {
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
        // Far corners hold only where units remove moves (the masks are not the terrain's);
        // dearer anchors can turn a ray anywhere they touch it.
        let corners = !M::TERRAIN;
        let (mut origin, mut travelled) = (from, 0usize);
        loop {
            if self.moves.mask(origin) & 1 << direction == 0 {
                return None;
            }
            let stored = distances.diagonal_ray(origin, direction)?;
            let part_steps = |at: usize, part: usize| distances.ray(at, part).steps;
            let touched = (units).first_touched_diagonal(
                origin,
                direction,
                stored.steps,
                parts,
                part_steps,
                corners,
            );
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
                || (!C::UNIFORM && !self.costs.even(at) && self.forced(at, direction))
                || self.straight(at, parts[0]).is_some()
                || self.straight(at, parts[1]).is_some()
            {
                return Some(travelled);
            }
            origin = at;
        }
    }
}
