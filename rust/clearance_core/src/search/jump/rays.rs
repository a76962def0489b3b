//! The rays of jump-point search: the straight, diagonal and 4-way vertical rays that walk
//! from a jump point to the next, stopping where the successor rules (`jump_rules.rs`) say, or
//! read from the graph's stored rays.

use crate::graph::{JumpDistances, StoredRay};
use crate::jump_rules::{self, TurnGraph, HORIZONTAL, VERTICAL};
use crate::movement::{
    direction_offsets, Direction, DIRECTIONS, PARTS, SIDE_BITS, STRAIGHT_DIRECTIONS,
};
use crate::search::anchor_bits::AnchorBits;
use crate::search::moves::MoveMasks;
use crate::search::step_costs::StepCosts;

/// Where rays stop besides jump points: the goal, or each of several targets.
pub(in crate::search) trait Stops {
    fn is_stop(&self, anchor: usize) -> bool;
    /// The fewest steps, from 1 to `steps`, after which a walk from `from` in the straight
    /// `direction` is at a stop, if any. The caller knows the walk stays on the map.
    fn first_within(&self, from: usize, direction: usize, steps: usize) -> Option<usize>;
    /// The fewest steps, from 1 to `steps`, after which a diagonal ray from `from` in
    /// `direction` stops because of these stops: it is at one, or a straight ray along a
    /// part of `direction` reaches one, as `distances` store those rays. The caller knows the
    /// ray can take `steps` steps.
    fn first_on_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        distances: &JumpDistances,
    ) -> Option<usize>;
}

impl<S: Stops> Stops for &S {
    #[inline(always)]
    fn is_stop(&self, anchor: usize) -> bool {
        (**self).is_stop(anchor)
    }
    #[inline(always)]
    fn first_within(&self, from: usize, direction: usize, steps: usize) -> Option<usize> {
        (**self).first_within(from, direction, steps)
    }
    #[inline(always)]
    fn first_on_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        distances: &JumpDistances,
    ) -> Option<usize> {
        (**self).first_on_diagonal(from, direction, steps, distances)
    }
}

/// The one goal of a search: its storage index and its column and row.
pub(in crate::search) struct Goal {
    anchor: usize,
    x: isize,
    y: isize,
    width: usize,
}

impl Goal {
    /// The goal at storage index `anchor` on a map `width` wide.
    pub(in crate::search) fn new(anchor: usize, width: usize) -> Self {
        Goal {
            anchor,
            x: (anchor % width) as isize,
            y: (anchor / width) as isize,
            width,
        }
    }
}

impl Stops for Goal {
    #[inline(always)]
    fn is_stop(&self, anchor: usize) -> bool {
        anchor == self.anchor
    }

    /// Arithmetic, not a walk: the ray crosses the goal's row after `k_row` steps and its
    /// column after `k_column`; at each crossing the goal lies straight ahead along one part
    /// of the diagonal (or is the anchor itself), and the stored ray along that part says
    /// whether it gets there.
    #[inline(always)]
    fn first_on_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        distances: &JumpDistances,
    ) -> Option<usize> {
        let (dx, dy) = (
            DIRECTIONS[direction].dx as isize,
            DIRECTIONS[direction].dy as isize,
        );
        let (from_x, from_y) = ((from % self.width) as isize, (from / self.width) as isize);
        let (to_x, to_y) = (self.x - from_x, self.y - from_y);
        let [horizontal, vertical] = PARTS[direction];
        let width = self.width as isize;
        let reaches = |k: isize, across: isize, part: usize| {
            (1..=steps as isize).contains(&k)
                && across >= 0
                && across as usize
                    <= distances
                        .ray(from.wrapping_add_signed(k * (dy * width + dx)), part)
                        .steps
        };
        let k_row = to_y * dy;
        let k_column = to_x * dx;
        let row = reaches(k_row, (to_x - k_row * dx) * dx, horizontal).then_some(k_row);
        let column = reaches(k_column, (to_y - k_column * dy) * dy, vertical).then_some(k_column);
        match (row, column) {
            (Some(a), Some(b)) => Some(a.min(b) as usize),
            (a, b) => a.or(b).map(|k| k as usize),
        }
    }

    #[inline(always)]
    fn first_within(&self, from: usize, direction: usize, steps: usize) -> Option<usize> {
        let Direction { dx, dy } = DIRECTIONS[direction];
        let offset = dy as isize * self.width as isize + dx as isize;
        // The goal lies `difference / offset` steps ahead if that divides evenly and is in
        // range; the range test comes first, so the division runs only for goals nearby.
        let difference = self.anchor as isize - from as isize;
        let ahead = difference.signum() == offset.signum()
            && difference.unsigned_abs() <= steps * offset.unsigned_abs();
        (ahead && difference % offset == 0).then(|| (difference / offset) as usize)
    }
}

/// Targets of [`jump_tree`](super::jump_tree): one bit per anchor for [`is_stop`](Stops::is_stop), and the
/// same anchors sorted by row and by column, so that a ray finds the targets along its line,
/// or in the band of rows and columns a diagonal ray crosses, by binary search.
pub(super) struct Targets<'a> {
    bits: &'a AnchorBits,
    width: usize,
    /// `(y, x)`, ascending: row by row, each row by column.
    by_row: Vec<(usize, usize)>,
    /// `(x, y)`, ascending: column by column, each column by row.
    by_column: Vec<(usize, usize)>,
}

impl<'a> Targets<'a> {
    /// The anchors whose bits are set in `bits`, on a map `width` wide; `anchors` lists them
    /// (and may list others, and repeat them).
    pub(super) fn new(bits: &'a AnchorBits, width: usize, anchors: &[usize]) -> Self {
        let is_set = |anchor: usize| bits.contains(anchor);
        let mut by_row: Vec<(usize, usize)> = anchors
            .iter()
            .filter(|&&anchor| is_set(anchor))
            .map(|&anchor| (anchor / width, anchor % width))
            .collect();
        by_row.sort_unstable();
        by_row.dedup();
        let mut by_column: Vec<(usize, usize)> = by_row.iter().map(|&(y, x)| (x, y)).collect();
        by_column.sort_unstable();
        Targets {
            bits,
            width,
            by_row,
            by_column,
        }
    }
}

/// In `sorted` pairs `(line, position)`: the nearest pair on `line` strictly after
/// `position` (`forward`) or strictly before it, at most `steps` away; its distance.
fn nearest_on_line(
    sorted: &[(usize, usize)],
    (line, position): (usize, usize),
    forward: bool,
    steps: usize,
) -> Option<usize> {
    if forward {
        let next = sorted.partition_point(|&pair| pair <= (line, position));
        let &(on, at) = sorted.get(next)?;
        (on == line && at - position <= steps).then(|| at - position)
    } else {
        let before = sorted.partition_point(|&pair| pair < (line, position));
        let &(on, at) = sorted.get(before.checked_sub(1)?)?;
        (on == line && position - at <= steps).then(|| position - at)
    }
}

/// The pairs of `sorted` whose first member lies in `first..=last`.
fn band(sorted: &[(usize, usize)], first: usize, last: usize) -> &[(usize, usize)] {
    let start = sorted.partition_point(|&(line, _)| line < first);
    let end = sorted.partition_point(|&(line, _)| line <= last);
    &sorted[start..end]
}

impl Stops for Targets<'_> {
    #[inline(always)]
    fn is_stop(&self, anchor: usize) -> bool {
        self.bits.contains(anchor)
    }

    fn first_within(&self, from: usize, direction: usize, steps: usize) -> Option<usize> {
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (x, y) = (from % self.width, from / self.width);
        if dy == 0 {
            nearest_on_line(&self.by_row, (y, x), dx > 0, steps)
        } else {
            nearest_on_line(&self.by_column, (x, y), dy > 0, steps)
        }
    }

    /// The targets in the rows the ray crosses: each is reached if it lies ahead, along the
    /// horizontal part, of the anchor where the ray crosses its row, within that anchor's
    /// stored ray; then the same for the columns and the vertical part.
    fn first_on_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        distances: &JumpDistances,
    ) -> Option<usize> {
        if steps == 0 {
            return None;
        }
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (dx, dy) = (dx as isize, dy as isize);
        let (x, y) = ((from % self.width) as isize, (from / self.width) as isize);
        let [horizontal, vertical] = PARTS[direction];
        let offset = direction_offsets(self.width)[direction];
        let span = |start: isize, step: isize| {
            let end = start + step * steps as isize;
            (
                (start + step).min(end) as usize,
                (start + step).max(end) as usize,
            )
        };
        // A target `across` steps ahead along `part` of the anchor `k` steps along the ray.
        let reached = |k: isize, across: isize, part: usize| {
            let at = from.wrapping_add_signed(offset * k);
            across >= 0 && across as usize <= distances.ray(at, part).steps
        };
        let (top, bottom) = span(y, dy);
        let by_rows = band(&self.by_row, top, bottom)
            .iter()
            .filter_map(|&(row, column)| {
                let k = (row as isize - y) * dy;
                reached(k, (column as isize - (x + k * dx)) * dx, horizontal).then_some(k)
            });
        let (left, right) = span(x, dx);
        let by_columns = band(&self.by_column, left, right)
            .iter()
            .filter_map(|&(column, row)| {
                let k = (column as isize - x) * dx;
                reached(k, (row as isize - (y + k * dy)) * dy, vertical).then_some(k)
            });
        by_rows.chain(by_columns).min().map(|k| k as usize)
    }
}

/// The rays of one search: the graph, its costs and the anchors they stop at besides jump
/// points. `FOUR_WAY` selects the 4-way rules (see the module docs).
pub(super) struct Rays<'a, C, S, M, const FOUR_WAY: bool> {
    /// The move masks of this query's graph.
    pub(super) moves: M,
    pub(super) offsets: [isize; 8],
    pub(super) costs: &'a C,
    pub(super) stops: &'a S,
    /// The graph's stored rays, if it keeps them; [`stored`](Self::stored) says whether they
    /// serve this search.
    pub(super) distances: Option<&'a JumpDistances>,
}

impl<C: StepCosts, S: Stops, M: MoveMasks, const FOUR_WAY: bool> TurnGraph
    for Rays<'_, C, S, M, FOUR_WAY>
{
    const UNIFORM: bool = C::UNIFORM;
    #[inline(always)]
    fn mask(&self, anchor: usize) -> u8 {
        self.moves.mask(anchor)
    }
    #[inline(always)]
    fn multiplier(&self, anchor: usize) -> u64 {
        self.costs.multiplier(anchor)
    }
}

impl<C: StepCosts, S: Stops, M: MoveMasks, const FOUR_WAY: bool> Rays<'_, C, S, M, FOUR_WAY> {
    /// The graph's stored rays, where they describe this search's rays: on uniform costs
    /// (`units.rs` reads them round units that block), and on a weighted graph with the
    /// terrain's own moves and its own costs, or other units' costs where they touch a ray
    /// (`units.rs` walks those stretches).
    #[inline(always)]
    fn stored(&self) -> Option<&JumpDistances> {
        if C::UNIFORM || (M::TERRAIN && (C::TERRAIN || self.costs.units().is_some())) {
            self.distances
        } else {
            None
        }
    }

    #[inline(always)]
    fn neighbour(&self, anchor: usize, direction: usize) -> usize {
        anchor.wrapping_add_signed(self.offsets[direction])
    }

    /// The successors of `at` reached by a step in `arrival` (see the module docs).
    #[inline(always)]
    pub(super) fn successors(&self, at: usize, arrival: usize) -> u8 {
        jump_rules::successors::<Self, FOUR_WAY>(self, &self.offsets, at, arrival)
    }

    /// Whether a ray arriving at `at` in `arrival` stops there for a turn.
    #[inline(always)]
    pub(super) fn forced(&self, at: usize, arrival: usize) -> bool {
        jump_rules::forced::<Self, FOUR_WAY>(self, &self.offsets, at, arrival)
    }

    /// Walks from `from` in the straight `direction`: the first anchor where the ray stops
    /// and the cost of getting there, or `None` at a dead end.
    #[inline(always)]
    pub(super) fn straight(&self, from: usize, direction: usize) -> Option<(usize, u64)> {
        if let Some(distances) = self.stored() {
            return self.stored_straight(distances, from, direction);
        }
        let forward = 1 << direction;
        let sides = SIDE_BITS[direction];
        let (mut at, mut cost) = (from, 0);
        let mut behind = self.moves.mask(from);
        loop {
            if behind & forward == 0 {
                return None;
            }
            at = self.neighbour(at, direction);
            cost += self.costs.step_cost(direction, at);
            let here = self.moves.mask(at);
            // Where no cost test can force a turn, one is forced exactly where a side opens
            // that was closed beside the anchor behind (the obstacle case of `successors`).
            let forced = if C::UNIFORM || self.costs.even(at) {
                here & sides & !behind != 0
            } else {
                self.forced(at, direction)
            };
            if forced || self.stops.is_stop(at) {
                return Some((at, cost));
            }
            behind = here;
        }
    }

    /// [`straight`](Self::straight) read from the stored rays: where the stored ray ends, or
    /// earlier where it passes a stop of this search.
    #[inline(always)]
    fn stored_straight(
        &self,
        distances: &JumpDistances,
        from: usize,
        direction: usize,
    ) -> Option<(usize, u64)> {
        if let Some(units) = self.moves.units().or(self.costs.units()) {
            let steps = self.straight_around_units(units, distances, from, direction)?;
            return Some(self.stored_end(from, direction, steps));
        }
        let stored = distances.ray(from, direction);
        let steps = match self.stops.first_within(from, direction, stored.steps) {
            Some(steps) => steps,
            None if stored.stops => stored.steps,
            None => return None,
        };
        Some(self.stored_end(from, direction, steps))
    }

    /// Where a ray read from the stored rays ends, `steps` steps from `from` in `direction`,
    /// and what those steps cost.
    #[inline(always)]
    fn stored_end(&self, from: usize, direction: usize, steps: usize) -> (usize, u64) {
        let offset = self.offsets[direction];
        let at = from.wrapping_add_signed(offset * steps as isize);
        (at, self.costs.ray_cost(from, direction, offset, steps))
    }

    /// [`sweep`](Self::sweep) along a diagonal, read from the stored rays: where the stored
    /// diagonal ray `stored` ends, or earlier where it meets a stop of this search.
    #[inline(always)]
    fn stored_diagonal(
        &self,
        distances: &JumpDistances,
        stored: StoredRay,
        from: usize,
        direction: usize,
    ) -> Option<(usize, u64)> {
        if let Some(units) = self.moves.units().or(self.costs.units()) {
            let steps = self.diagonal_around_units(units, distances, from, direction)?;
            return Some(self.stored_end(from, direction, steps));
        }
        let steps = match (self.stops).first_on_diagonal(from, direction, stored.steps, distances) {
            Some(steps) => steps,
            None if stored.stops => stored.steps,
            None => return None,
        };
        Some(self.stored_end(from, direction, steps))
    }

    /// Walks from `from` in `direction` (a diagonal, or a vertical under 4-way rules), trying
    /// both straight rays in `parts` at each anchor: the first anchor where the ray stops and
    /// its cost, or `None` at a dead end.
    fn sweep(&self, from: usize, direction: usize, parts: [usize; 2]) -> Option<(usize, u64)> {
        let (mut at, mut cost) = (from, 0);
        loop {
            if self.moves.mask(at) & 1 << direction == 0 {
                return None;
            }
            at = self.neighbour(at, direction);
            cost += self.costs.step_cost(direction, at);
            // A diagonal arrival is forced to turn only by a cost test; a vertical 4-way
            // arrival never is (every turn is natural).
            if self.stops.is_stop(at)
                || (!FOUR_WAY && !C::UNIFORM && !self.costs.even(at) && self.forced(at, direction))
                || self.straight(at, parts[0]).is_some()
                || self.straight(at, parts[1]).is_some()
            {
                return Some((at, cost));
            }
        }
    }

    /// The ray from `from` in `direction`, whichever kind it is.
    #[inline(always)]
    pub(super) fn ray(&self, from: usize, direction: usize) -> Option<(usize, u64)> {
        // A stored ray knows the terrain graph's first step only (see `search/units/mod.rs`).
        if !M::TERRAIN && self.moves.mask(from) & 1 << direction == 0 {
            return None;
        }
        if !FOUR_WAY && direction >= STRAIGHT_DIRECTIONS {
            if let Some(distances) = self.stored() {
                if let Some(stored) = distances.diagonal_ray(from, direction) {
                    return self.stored_diagonal(distances, stored, from, direction);
                }
            }
        }
        if FOUR_WAY && VERTICAL[direction] {
            self.sweep(from, direction, HORIZONTAL)
        } else if direction < STRAIGHT_DIRECTIONS {
            self.straight(from, direction)
        } else {
            self.sweep(from, direction, PARTS[direction])
        }
    }
}
