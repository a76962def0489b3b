//! Other units in a search: the anchors their footprints block, and how every search mode
//! stays exact around them.
//!
//! # The graph a query searches
//!
//! For an agent of size `k`, a unit whose footprint is the square `[ux, ux + s) x [uy, uy + s)`
//! overlaps the footprint of exactly the anchors `[ux - k + 1, ux + s) x [uy - k + 1, uy + s)`:
//! its *blocked rectangle*. Under [`OtherUnits::Block`](crate::OtherUnits::Block) those anchors
//! (but the start) are removed from the graph; under
//! [`OtherUnits::Cost`](crate::OtherUnits::Cost) they cost `max(m, M)` to enter. Either way the
//! result is a graph of the same kind as the terrain's (anchors, the corner rule, entry costs),
//! so every search that is exact on such graphs is exact on it, provided it reads this graph
//! and not the terrain's.
//!
//! # Touched anchors
//!
//! An anchor's moves, and the costs of its neighbours, can differ from the terrain graph's only
//! if it lies in a blocked rectangle or next to one: in the rectangle grown by one anchor each
//! way, its *touched rectangle*. The view keeps one bit per anchor for "blocked" and one for
//! "touched", and answers the search's reads: outside the touched anchors it hands back the
//! terrain graph's move masks unchanged, inside them it recomputes the mask with the blocked
//! anchors removed.
//!
//! # Jump-point search and stored rays
//!
//! Every touched anchor is made a *stop*: a ray ends there, as it ends at the goal (the parent
//! module's "Several targets" proves that extra stops keep an optimal canonical path, and the
//! stop expands with the successors the rules give it on this query's graph). This is what
//! makes stored rays safe. A ray stored on the terrain graph depends only on the masks of the
//! anchors it passes and, for its first forced-turn test, on its origin's. If none of the
//! anchors it passes is touched, their masks are the terrain's, and where the origin's mask
//! differs in a side bit (the side anchor is blocked) the first anchor passed is next to that
//! blocked anchor, hence touched: so an untouched stretch is read as stored. The first
//! touched anchor on a ray from an untouched origin is never blocked (the anchor before it
//! would be touched), so a ray never stops on a removed anchor; from a touched origin the
//! search first tests the step against the origin's recomputed mask. A diagonal ray stops at
//! step `i` where the anchor there is touched, or where one of its two straight rays, as
//! stored, reaches a touched anchor: the straight rays from untouched anchors are then the
//! stored ones up to that point, by the argument above. The view finds both from its touched
//! rectangles, by arithmetic, without walking.
//!
//! Under `Cost`, moves do not change, only costs: the search runs with per-anchor costs, and
//! an anchor counts as of even cost (no cost test can force a turn there) only if the terrain
//! graph says so and it is not touched.

use super::UnitCostScale;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{Direction, DIRECTIONS};
use crate::occupancy::{OtherUnits, Unit};
use crate::paged::PagedVec;

/// A rectangle of anchors in map-local coordinates, `x0..x1` by `y0..y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AnchorRect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

/// The other units of one query, as the search reads them (see the module docs). Its memory
/// (three bits per anchor) is kept between queries and cleared rectangle by rectangle.
#[derive(Debug, Clone, Default)]
pub struct UnitsView {
    width: usize,
    height: usize,
    /// Bit `y * width + x`: the anchor is blocked.
    blocked: Vec<u64>,
    /// Bit `y * width + x`: the anchor is touched.
    touched_by_row: Vec<u64>,
    /// Bit `x * height + y`: the anchor is touched (so a vertical ray scans words too).
    touched_by_column: Vec<u64>,
    /// The touched rectangles, by top row.
    touched: Vec<AnchorRect>,
    /// The touched rectangles, by left column.
    touched_by_left: Vec<AnchorRect>,
    /// The blocked rectangles.
    blocked_rects: Vec<AnchorRect>,
    /// The tallest and the widest touched rectangle.
    tallest: usize,
    widest: usize,
    /// The start anchor, never blocked.
    start: usize,
}

impl UnitsView {
    /// Clears the previous query's bits and records `units` (in map-local anchors: each unit's
    /// anchor minus the map's origin) for an agent of `agent_size` on a `width x height` map
    /// whose search starts at storage index `start`.
    pub(crate) fn rebuild(
        &mut self,
        (width, height): (usize, usize),
        agent_size: u8,
        units: impl Iterator<Item = Unit>,
        origin: (i32, i32),
        start: usize,
    ) {
        self.clear();
        let words = (width * height).div_ceil(64);
        if self.width != width || self.height != height || self.blocked.len() != words {
            self.blocked = vec![0; words];
            self.touched_by_row = vec![0; words];
            self.touched_by_column = vec![0; words];
            self.width = width;
            self.height = height;
        }
        self.start = start;
        let reach = i64::from(agent_size) - 1;
        for unit in units {
            let x = i64::from(unit.anchor.x) - i64::from(origin.0);
            let y = i64::from(unit.anchor.y) - i64::from(origin.1);
            let side = i64::from(unit.agent_size);
            let clip = |low: i64, high: i64, limit: usize| {
                (
                    low.clamp(0, limit as i64) as usize,
                    high.clamp(0, limit as i64) as usize,
                )
            };
            let (x0, x1) = clip(x - reach, x + side, width);
            let (y0, y1) = clip(y - reach, y + side, height);
            if x0 >= x1 || y0 >= y1 {
                continue;
            }
            let blocked = AnchorRect { x0, y0, x1, y1 };
            let (tx0, tx1) = clip(x - reach - 1, x + side + 1, width);
            let (ty0, ty1) = clip(y - reach - 1, y + side + 1, height);
            let touched = AnchorRect {
                x0: tx0,
                y0: ty0,
                x1: tx1,
                y1: ty1,
            };
            self.mark(blocked, touched, true);
            self.blocked_rects.push(blocked);
            self.touched.push(touched);
        }
        if start < width * height {
            self.blocked[start / 64] &= !(1 << (start % 64));
        }
        self.touched.sort_unstable_by_key(|rect| (rect.y0, rect.x0));
        self.touched_by_left.extend_from_slice(&self.touched);
        self.touched_by_left
            .sort_unstable_by_key(|rect| (rect.x0, rect.y0));
        self.tallest = self.touched.iter().map(|r| r.y1 - r.y0).max().unwrap_or(0);
        self.widest = self.touched.iter().map(|r| r.x1 - r.x0).max().unwrap_or(0);
    }

    /// Forgets every unit (the bits of the last query are cleared).
    fn clear(&mut self) {
        let (blocked, touched) = (
            std::mem::take(&mut self.blocked_rects),
            std::mem::take(&mut self.touched),
        );
        for (&blocked_rect, &touched_rect) in blocked.iter().zip(&touched) {
            self.mark(blocked_rect, touched_rect, false);
        }
        self.blocked_rects = blocked;
        self.touched = touched;
        self.blocked_rects.clear();
        self.touched.clear();
        self.touched_by_left.clear();
    }

    /// Sets (or clears) the bits of one unit's rectangles.
    fn mark(&mut self, blocked: AnchorRect, touched: AnchorRect, on: bool) {
        let (width, height) = (self.width, self.height);
        for y in blocked.y0..blocked.y1 {
            set_bits(
                &mut self.blocked,
                y * width + blocked.x0,
                blocked.x1 - blocked.x0,
                on,
            );
        }
        for y in touched.y0..touched.y1 {
            set_bits(
                &mut self.touched_by_row,
                y * width + touched.x0,
                touched.x1 - touched.x0,
                on,
            );
        }
        for x in touched.x0..touched.x1 {
            set_bits(
                &mut self.touched_by_column,
                x * height + touched.y0,
                touched.y1 - touched.y0,
                on,
            );
        }
    }

    /// Whether no unit counts in this query.
    pub(crate) fn is_empty(&self) -> bool {
        self.blocked_rects.is_empty()
    }

    /// Whether the anchor stored at `anchor` is blocked (never the start).
    #[inline(always)]
    pub(crate) fn is_blocked(&self, anchor: usize) -> bool {
        self.blocked[anchor / 64] >> (anchor % 64) & 1 != 0
    }

    /// Whether the anchor stored at `anchor` is touched (see the module docs).
    #[inline(always)]
    pub(crate) fn is_touched(&self, anchor: usize) -> bool {
        self.touched_by_row[anchor / 64] >> (anchor % 64) & 1 != 0
    }

    /// The move mask of the anchor stored at `anchor` with the blocked anchors removed, given
    /// its mask `terrain` on the terrain graph.
    #[inline]
    pub(crate) fn unblocked_mask(&self, anchor: usize, terrain: u8) -> u8 {
        if !self.is_touched(anchor) {
            return terrain;
        }
        if self.is_blocked(anchor) {
            return 0;
        }
        self.steps_to_unblocked(anchor, terrain)
    }

    /// The steps of `terrain` (the move mask of the anchor stored at `anchor`) that enter and
    /// pass no blocked anchor, whether or not `anchor` itself is blocked: the moves out of
    /// where a unit already stands.
    #[inline]
    pub(crate) fn steps_to_unblocked(&self, anchor: usize, terrain: u8) -> u8 {
        let (x, y) = (anchor % self.width, anchor / self.width);
        let mut pattern = 0usize;
        for (bit, direction) in DIRECTIONS.iter().enumerate() {
            let (nx, ny) = (
                x as isize + direction.dx as isize,
                y as isize + direction.dy as isize,
            );
            if nx >= 0 && ny >= 0 && (nx as usize) < self.width && (ny as usize) < self.height {
                let neighbour = ny as usize * self.width + nx as usize;
                pattern |= usize::from(self.is_blocked(neighbour)) << bit;
            }
        }
        terrain & FREE_STEPS[pattern]
    }

    /// Whether the path `path` (storage indices of successive anchors on a map `width` wide)
    /// enters no blocked anchor and passes none diagonally.
    pub(crate) fn clear_along(&self, path: &[usize], width: usize) -> bool {
        path.windows(2).all(|pair| {
            let (from, to) = (pair[0], pair[1]);
            let (dx, dy) = (to % width != from % width, to / width != from / width);
            !self.is_blocked(to)
                && !(dx
                    && dy
                    && (self.is_blocked(from - from % width + to % width)
                        || self.is_blocked(to - to % width + from % width)))
        })
    }

    /// The fewest steps, from 1 to `steps`, after which a walk from the anchor stored at
    /// `from` in the straight `direction` is at a touched anchor, if any: a scan of the
    /// touched bits along its row (or, for a vertical walk, its column), a word at a time.
    pub(crate) fn first_touched_straight(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
    ) -> Option<usize> {
        if steps == 0 || self.is_empty() {
            return None;
        }
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (x, y) = (from % self.width, from / self.width);
        if dy == 0 {
            let base = y * self.width + x;
            first_set(&self.touched_by_row, base, dx > 0, steps)
        } else {
            let base = x * self.height + y;
            first_set(&self.touched_by_column, base, dy > 0, steps)
        }
    }

    /// The fewest steps, from 1 to `steps`, after which a diagonal ray from `from` in
    /// `direction` must stop for a touched anchor: it is at one, or one of its straight rays
    /// `part_steps(at, part)` long reaches one (see the module docs).
    pub(crate) fn first_touched_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        [horizontal, vertical]: [usize; 2],
        part_steps: impl Fn(usize, usize) -> usize,
    ) -> Option<usize> {
        if steps == 0 || self.is_empty() {
            return None;
        }
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (dx, dy) = (dx as isize, dy as isize);
        let width = self.width as isize;
        let (x, y) = ((from % self.width) as isize, (from / self.width) as isize);
        let last = steps as isize;
        let at = |k: isize| (from as isize + k * (dy * width + dx)) as usize;
        // The rows it crosses, reached along its horizontal part; then the columns, along the
        // vertical part.
        let rows = |rect: &AnchorRect| (rect.y0, rect.y1, rect.x0, rect.x1);
        let best = first_in_band(
            (&self.touched, self.tallest, rows),
            ((y, dy), (x, dx)),
            last,
            last + 1,
            |k| part_steps(at(k), horizontal),
        );
        let columns = |rect: &AnchorRect| (rect.x0, rect.x1, rect.y0, rect.y1);
        // Only steps before the best so far can still matter.
        let best = first_in_band(
            (&self.touched_by_left, self.widest, columns),
            ((x, dx), (y, dy)),
            last.min(best - 1),
            best,
            |k| part_steps(at(k), vertical),
        );
        (best <= last).then_some(best as usize)
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.blocked.capacity()
            + self.touched_by_row.capacity()
            + self.touched_by_column.capacity())
            * 8
            + (self.touched.capacity()
                + self.touched_by_left.capacity()
                + self.blocked_rects.capacity())
                * std::mem::size_of::<AnchorRect>()
    }
}

/// For each set of blocked neighbours (bit `d`: the neighbour in `DIRECTIONS[d]`), the steps
/// that enter none and, diagonally, pass none of them.
const FREE_STEPS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut pattern = 0;
    while pattern < 256 {
        let mut free = 0u8;
        let mut direction = 0;
        while direction < 8 {
            let Direction { dx, dy } = DIRECTIONS[direction];
            let mut clear = pattern >> direction & 1 == 0;
            if dx != 0 && dy != 0 {
                // The two straight neighbours the diagonal passes.
                let mut part = 0;
                while part < 4 {
                    let Direction { dx: px, dy: py } = DIRECTIONS[part];
                    if (px == dx && py == 0) || (px == 0 && py == dy) {
                        clear = clear && pattern >> part & 1 == 0;
                    }
                    part += 1;
                }
            }
            if clear {
                free |= 1 << direction;
            }
            direction += 1;
        }
        table[pattern] = free;
        pattern += 1;
    }
    table
};

/// One axis of [`UnitsView::first_touched_diagonal`]: among `rects` (sorted by their start on
/// the *band* axis, none longer than `longest` on it; `span` gives a rectangle's band start and
/// end and its start and end on the other, *across* axis, ends exclusive), the fewest steps `k`
/// below `best` at which the ray, at `band + k * band_step` and `across + k * across_step`,
/// lies in a rectangle's band and inside it, or ahead of it on the across axis within
/// `reach(k)` steps of its straight part. `best` if none.
fn first_in_band(
    (rects, longest, span): (
        &[AnchorRect],
        usize,
        impl Fn(&AnchorRect) -> (usize, usize, usize, usize),
    ),
    ((band, band_step), (across, across_step)): ((isize, isize), (isize, isize)),
    last: isize,
    mut best: isize,
    reach: impl Fn(isize) -> usize,
) -> isize {
    let (low, high) = ordered(band + band_step, band + band_step * last);
    let first = rects.partition_point(|rect| (span(rect).0 + longest) as isize <= low);
    for rect in &rects[first..] {
        let (band0, band1, across0, across1) = span(rect);
        if band0 as isize > high {
            break;
        }
        let (near_edge, far_edge) = (across0 as isize, across1 as isize - 1);
        // Steps at which the ray is in the rectangle's band, nearest first.
        let Some((near, far)) = steps_in(band, band_step, band0 as isize, band1 as isize - 1, last)
        else {
            continue;
        };
        // Wholly behind the ray at its nearest step in the band: no part reaches it.
        if (across_step > 0 && far_edge < across + near)
            || (across_step < 0 && near_edge > across - near)
        {
            continue;
        }
        for k in near..=far.min(best - 1) {
            let position = across + k * across_step;
            let ahead = if across_step > 0 {
                near_edge - position
            } else {
                position - far_edge
            };
            let inside = (near_edge..=far_edge).contains(&position);
            if inside || (ahead > 0 && ahead as usize <= reach(k)) {
                best = k;
                break;
            }
        }
    }
    best
}

/// `(a, b)` in ascending order.
fn ordered(a: isize, b: isize) -> (isize, isize) {
    (a.min(b), a.max(b))
}

/// The steps `k` in `1..=last` at which a walk from coordinate `from` by `step` (1 or -1) per
/// step lies in `low..=high`, as the nearest and the farthest, if any.
fn steps_in(
    from: isize,
    step: isize,
    low: isize,
    high: isize,
    last: isize,
) -> Option<(isize, isize)> {
    let (a, b) = ((low - from) * step, (high - from) * step);
    let (near, far) = (a.min(b).max(1), a.max(b).min(last));
    (near <= far).then_some((near, far))
}

/// Sets or clears `count` consecutive bits of `bits` from bit `first`.
fn set_bits(bits: &mut [u64], first: usize, count: usize, on: bool) {
    let mut at = first;
    let end = first + count;
    while at < end {
        let (word, shift) = (at / 64, at % 64);
        let take = (64 - shift).min(end - at);
        let mask = if take == 64 {
            u64::MAX
        } else {
            ((1u64 << take) - 1) << shift
        };
        if on {
            bits[word] |= mask;
        } else {
            bits[word] &= !mask;
        }
        at += take;
    }
}

/// The fewest steps, 1 to `steps`, from bit `from` forwards (or backwards) to a set bit.
fn first_set(bits: &[u64], from: usize, forward: bool, steps: usize) -> Option<usize> {
    if forward {
        let (mut at, end) = (from + 1, from + steps);
        while at <= end {
            let (word, shift) = (at / 64, at % 64);
            let found = bits[word] >> shift;
            if found != 0 {
                let distance = at + found.trailing_zeros() as usize - from;
                return (distance <= steps).then_some(distance);
            }
            at += 64 - shift;
        }
        None
    } else {
        let lowest = from.saturating_sub(steps);
        let mut at = from.checked_sub(1)?;
        loop {
            let (word, shift) = (at / 64, at % 64);
            // Bits 0..=shift of the word, highest first.
            let found = bits[word] << (63 - shift);
            if found != 0 {
                let position = at - found.leading_zeros() as usize;
                let distance = from - position;
                return (distance <= steps).then_some(distance);
            }
            if at < shift + 1 || at - shift - 1 < lowest {
                return None;
            }
            at -= shift + 1;
        }
    }
}

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
            for anchor in 0..graph.moves.len() {
                let mask = graph.moves[anchor];
                graph.moves.set(anchor, view.unblocked_mask(anchor, mask));
            }
        }
        OtherUnits::Cost(multiplier) => {
            let UnitCostScale {
                unit,
                scale,
                multiplier: units_multiplier,
            } = UnitCostScale::new(terrain.cost_unit, multiplier);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_scans_find_the_nearest_set_bit_within_reach() {
        let mut bits = vec![0u64; 4];
        for position in [3usize, 70, 200] {
            set_bits(&mut bits, position, 1, true);
        }
        assert_eq!(first_set(&bits, 0, true, 10), Some(3));
        assert_eq!(first_set(&bits, 3, true, 66), None);
        assert_eq!(first_set(&bits, 3, true, 67), Some(67));
        assert_eq!(first_set(&bits, 71, true, 200), Some(129));
        assert_eq!(first_set(&bits, 200, false, 130), Some(130));
        assert_eq!(first_set(&bits, 200, false, 129), None);
        assert_eq!(first_set(&bits, 69, false, 69), Some(66));
        assert_eq!(first_set(&bits, 2, false, 2), None);
        set_bits(&mut bits, 10, 100, true);
        assert!((10..110).all(|bit| bits[bit / 64] >> (bit % 64) & 1 == 1));
        set_bits(&mut bits, 10, 100, false);
        assert_eq!(bits, [1 << 3, 0, 0, 1 << 8]);
    }
}
