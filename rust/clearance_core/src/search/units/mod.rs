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
//! stored ones up to that point, by the argument above. On a short ray the view tests each
//! step (its touched bit, and a scan of the touched bits along each straight part as far as
//! it is stored); on a long one it finds the step from its touched rectangles by arithmetic,
//! in time that grows with the rectangles beside the ray instead of its length, and there
//! only the rectangles' far corners count for the straight parts (the only places a unit can
//! make a straight ray turn; `jump/units.rs` proves it), so a ray passes the rectangles' other
//! rows and columns without stopping.
//!
//! Where a view counts at most [`FEW_RECTANGLES`] units (as the views of `units_met.rs` do),
//! a ray is first tested against their touched rectangles: a straight ray whose anchors meet
//! none, or a diagonal ray none of whose two bands (the rows it crosses, and the columns it
//! crosses, each on its side of the origin, where all its straight parts run) meets one,
//! reaches no touched anchor, and its bits are not scanned.
//!
//! Under `Cost`, moves do not change, only costs: the search runs with per-anchor costs, and
//! an anchor counts as of even cost (no cost test can force a turn there) only if the terrain
//! graph says so and it is not touched. Its stored rays are read up to the first touched
//! anchor and walked on the query's costs from there (`jump/units.rs`); the far corners do
//! not apply, since a dearer anchor can force a turn all along its side.

mod band;
mod bits;
mod build;
mod graph;

use crate::blocked_cells::{first_set_between, last_set_between};
use crate::movement::{diagonal_step, Direction, DIRECTIONS};
use crate::occupancy::UnitId;
use band::first_in_band;
use bits::{first_run_end, first_set};
pub(crate) use build::{Counted, ViewKey};
pub(crate) use graph::graph_with_units;

/// A rectangle of anchors in map-local coordinates, `x0..x1` by `y0..y1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AnchorRect {
    pub x0: usize,
    pub y0: usize,
    pub x1: usize,
    pub y1: usize,
}

/// One unit of a view: its id and its two rectangles.
#[derive(Debug, Clone, Copy)]
struct UnitRects {
    id: UnitId,
    blocked: AnchorRect,
    touched: AnchorRect,
}

/// The other units of one query, as the search reads them (see the module docs). It is kept
/// between queries: built for every unit of one occupancy, agent size and map shape, with each
/// query's exempt units and start applied as a change that the next query takes back (see
/// `build.rs`).
#[derive(Debug, Clone, Default)]
pub struct UnitsView {
    width: usize,
    height: usize,
    /// Bit `y * width + x`: the anchor is blocked.
    blocked: Vec<u64>,
    /// Bit `x * height + y`: the anchor is blocked (so a vertical ray scans words too).
    blocked_by_column: Vec<u64>,
    /// Bit `y * width + x`: the anchor is touched.
    touched_by_row: Vec<u64>,
    /// Bit `x * height + y`: the anchor is touched (so a vertical ray scans words too).
    touched_by_column: Vec<u64>,
    /// The counted units' touched rectangles, by top row.
    touched: Vec<AnchorRect>,
    /// The counted units' touched rectangles, by left column.
    touched_by_left: Vec<AnchorRect>,
    /// The tallest and the widest touched rectangle of any unit, counted or not (a bound is
    /// all the band scan needs).
    tallest: usize,
    widest: usize,
    /// What the view was built for; `None` before the first build.
    key: Option<ViewKey>,
    /// Every unit of the key whose rectangles meet the map.
    units: Vec<UnitRects>,
    /// Whether each of `units` is exempt from the current query.
    exempt: Vec<bool>,
    /// The indices of the exempt units, ascending.
    exempted: Vec<usize>,
    /// Every unit's id and index, by id.
    by_id: Vec<(UnitId, usize)>,
    /// Memory for the next update's exempt indices.
    wanted: Vec<usize>,
    /// The current query's start and whether it was blocked before the query cleared it.
    start: Option<(usize, bool)>,
}

impl UnitsView {
    /// Whether no unit counts in this query.
    pub(crate) fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Whether the anchor stored at `anchor` is blocked (never the start).
    #[inline(always)]
    pub(crate) fn is_blocked(&self, anchor: usize) -> bool {
        self.blocked[anchor / 64] >> (anchor % 64) & 1 != 0
    }

    /// The first blocked anchor among those stored at `first..=last`, if any (a run of one row
    /// when the anchors are consecutive there).
    #[inline]
    pub(crate) fn first_blocked_between(&self, first: usize, last: usize) -> Option<usize> {
        first_set_between(|word| self.blocked[word], first, last)
    }

    /// The last blocked anchor among those stored at `first..=last`, if any.
    #[inline]
    pub(crate) fn last_blocked_between(&self, first: usize, last: usize) -> Option<usize> {
        last_set_between(|word| self.blocked[word], first, last)
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

    /// The steps of `terrain` (the move mask of the anchor stored at `anchor` on the terrain
    /// graph) that enter and pass no blocked anchor, whether or not `anchor` itself is
    /// blocked: the moves out of where a unit already stands.
    ///
    /// The anchor's 3 x 3 neighbourhood is read as three runs of three bits, without bounds
    /// per neighbour: on the map's edge a run wraps to the next or previous row, or reads as
    /// free past the ends, but only in directions that `terrain` already forbids (a diagonal
    /// step is legal only where both straight anchors it passes are, which are then on the
    /// map), so the answer is the same.
    #[inline]
    pub(crate) fn steps_to_unblocked(&self, anchor: usize, terrain: u8) -> u8 {
        let row = |first: usize| three_bits(&self.blocked, first);
        let around = row(anchor.wrapping_sub(self.width + 1))
            | row(anchor.wrapping_sub(1)) << 3
            | row(anchor.wrapping_add(self.width - 1)) << 6;
        terrain & FREE_AROUND[around as usize]
    }

    /// Whether the path `path` (storage indices of successive anchors on a map `width` wide)
    /// enters no blocked anchor and passes none diagonally.
    pub(crate) fn clear_along(&self, path: &[usize], width: usize) -> bool {
        path.windows(2)
            .all(|pair| self.step_clear(pair[0], pair[1], width))
    }

    /// The steps of `path` (as in [`clear_along`](Self::clear_along); step `i` goes from
    /// anchor `i` to anchor `i + 1`) that enter a blocked anchor or pass one diagonally.
    pub(crate) fn unclear_steps(&self, path: &[usize], width: usize) -> Vec<usize> {
        let mut unclear = Vec::new();
        for (step, &to) in path.iter().enumerate().skip(1) {
            // Most anchors are untouched: one bit each (see `step_clear`). The test is
            // written out here as well, so that the loop keeps it in line (leaving it to
            // `step_clear` alone cost 2% of a blocking query's instructions).
            if self.is_touched(to) && !self.step_clear(path[step - 1], to, width) {
                unclear.push(step - 1);
            }
        }
        unclear
    }

    /// Adds to `met`, once each, every counted unit whose blocked rectangle holds an anchor
    /// that a step of `path` (as in [`clear_along`](Self::clear_along)) enters or passes
    /// diagonally: the units that make those steps illegal under `Block`, or may make them
    /// dearer under `Cost`.
    pub(crate) fn units_met(&self, path: &[usize], met: &mut Vec<UnitId>) {
        self.units_met_on(path, &self.unclear_steps(path, self.width), met);
    }

    /// [`units_met`](Self::units_met), given the steps of `path` that are not clear
    /// ([`unclear_steps`](Self::unclear_steps)).
    pub(crate) fn units_met_on(&self, path: &[usize], unclear: &[usize], met: &mut Vec<UnitId>) {
        let width = self.width;
        for &step in unclear {
            let (from, to) = (path[step], path[step + 1]);
            let passed = passed_anchors(from, to, width);
            let anchors = [
                Some(to),
                passed.map(|pair| pair.0),
                passed.map(|pair| pair.1),
            ];
            for anchor in anchors.into_iter().flatten() {
                if !self.is_blocked(anchor) {
                    continue;
                }
                let (x, y) = (anchor % width, anchor / width);
                for (unit, &exempt) in self.units.iter().zip(&self.exempt) {
                    let rect = unit.blocked;
                    let holds = (rect.x0..rect.x1).contains(&x) && (rect.y0..rect.y1).contains(&y);
                    if holds && !exempt && !met.contains(&unit.id) {
                        met.push(unit.id);
                    }
                }
            }
        }
    }

    /// Whether the step from the anchor stored at `from` to its neighbour at `to` enters no
    /// blocked anchor and passes none diagonally.
    #[inline]
    fn step_clear(&self, from: usize, to: usize, width: usize) -> bool {
        // An anchor is touched when it or one of its eight neighbours is blocked, and the
        // anchors a diagonal step passes are neighbours of `to`: one bit settles most steps.
        if !self.is_touched(to) {
            return true;
        }
        if self.is_blocked(to) {
            return false;
        }
        passed_anchors(from, to, width).is_none_or(|(beside_from, beside_to)| {
            !self.is_blocked(beside_from) && !self.is_blocked(beside_to)
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
        let at = self.xy(from);
        if self.few_units() && !self.may_touch_straight(at, direction, steps) {
            return None;
        }
        self.touched_ahead(from, at, direction, steps)
    }

    /// [`first_touched_straight`](Self::first_touched_straight) from the anchor stored at
    /// `from`, at `(x, y)`, which the caller knows.
    #[inline(always)]
    fn touched_ahead(
        &self,
        from: usize,
        (x, y): (usize, usize),
        direction: usize,
        steps: usize,
    ) -> Option<usize> {
        let Direction { dx, dy } = DIRECTIONS[direction];
        if dy == 0 {
            first_set(&self.touched_by_row, from, dx > 0, steps)
        } else {
            first_set(&self.touched_by_column, x * self.height + y, dy > 0, steps)
        }
    }

    /// Where units can end a straight walk of at most `steps` steps from the anchor stored at
    /// `from` in `direction`: the fewest steps to a blocked anchor, and the
    /// fewest steps short of that (and at most `steps`) to an anchor beside which a line of
    /// blocked anchors ends behind the walk, the only anchors where units can make the walk
    /// turn (see `jump/units.rs`). A scan of the touched bits along its line (a row, or a
    /// column for a vertical walk), then, from the first touched anchor, of the blocked bits
    /// along it and the two lines beside it, a word at a time.
    pub(crate) fn straight_scan(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
    ) -> (Option<usize>, Option<usize>) {
        if steps == 0 || self.is_empty() {
            return (None, None);
        }
        if self.few_units() && !self.may_touch_straight(self.xy(from), direction, steps) {
            return (None, None);
        }
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (blocked, touched, at, stride, lines, forward) = if dy == 0 {
            let at = from;
            (
                &self.blocked,
                &self.touched_by_row,
                at,
                self.width,
                self.height,
                dx > 0,
            )
        } else {
            let (x, y) = (from % self.width, from / self.width);
            let at = x * self.height + y;
            let (blocked, touched) = (&self.blocked_by_column, &self.touched_by_column);
            (blocked, touched, at, self.height, self.width, dy > 0)
        };
        // Blocked anchors, and anchors where a blocked line beside ends, are touched: the
        // scans start one step short of the first touched anchor.
        let Some(first) = first_set(touched, at, forward, steps) else {
            return (None, None);
        };
        let skipped = first - 1;
        let (at, steps) = (
            if forward { at + skipped } else { at - skipped },
            steps - skipped,
        );
        let found = first_set(blocked, at, forward, steps);
        let reach = found.map_or(steps, |steps| steps - 1);
        let line = at / stride;
        let before = (line > 0 && reach > 0)
            .then(|| first_run_end(blocked, at - stride, forward, reach))
            .flatten();
        let after = (line + 1 < lines && reach > 0)
            .then(|| first_run_end(blocked, at + stride, forward, before.unwrap_or(reach)))
            .flatten();
        let turn = after.or(before);
        (found.map(|s| s + skipped), turn.map(|s| s + skipped))
    }

    /// A step, from 1 to `steps`, at or before which a diagonal ray from `from` in
    /// `direction` needs the query's graph (see the module docs): on a short ray the first at
    /// which it is at a touched anchor or one of its straight rays `part_steps(at, part)` long
    /// reaches one; on a long ray the first at which it is at a touched anchor or a straight
    /// ray reaches a far corner of a touched rectangle (any touched anchor while the start
    /// lies inside a unit).
    pub(crate) fn first_touched_diagonal(
        &self,
        from: usize,
        direction: usize,
        steps: usize,
        parts: [usize; 2],
        part_steps: impl Fn(usize, usize) -> usize,
        corners: bool,
    ) -> Option<usize> {
        if steps == 0 || self.is_empty() {
            return None;
        }
        let ray = DiagonalRay::new(from, direction, steps, self.width, parts);
        if !self.may_touch_diagonal(&ray) {
            return None;
        }
        if steps <= SHORT_DIAGONAL {
            self.diagonal_by_steps(&ray, part_steps)
        } else {
            self.diagonal_by_bands(&ray, part_steps, corners && !self.start_was_blocked())
        }
    }

    /// [`first_touched_diagonal`](Self::first_touched_diagonal) step by step: the anchor's
    /// touched bit, then a scan of the touched bits along each straight part.
    fn diagonal_by_steps(
        &self,
        ray: &DiagonalRay,
        part_steps: impl Fn(usize, usize) -> usize,
    ) -> Option<usize> {
        let [horizontal, vertical] = ray.parts;
        (1..=ray.last).find_map(|k| {
            let anchor = ray.at(k);
            let (x, y) = ((ray.x + k * ray.dx) as usize, (ray.y + k * ray.dy) as usize);
            let stops = self.is_touched(anchor)
                || (self.touched_ahead(anchor, (x, y), horizontal, part_steps(anchor, horizontal)))
                    .is_some()
                || (self.touched_ahead(anchor, (x, y), vertical, part_steps(anchor, vertical)))
                    .is_some();
            stops.then_some(k as usize)
        })
    }

    /// [`first_touched_diagonal`](Self::first_touched_diagonal) from the touched rectangles
    /// beside the ray, by arithmetic.
    fn diagonal_by_bands(
        &self,
        ray: &DiagonalRay,
        part_steps: impl Fn(usize, usize) -> usize,
        corners: bool,
    ) -> Option<usize> {
        let [horizontal, vertical] = ray.parts;
        let (x, y, dx, dy, last) = (ray.x, ray.y, ray.dx, ray.dy, ray.last);
        // The rows it crosses, reached along its horizontal part; then the columns, along the
        // vertical part.
        let rows = |rect: &AnchorRect| (rect.y0, rect.y1, rect.x0, rect.x1);
        let best = first_in_band(
            (&self.touched, self.tallest, rows),
            ((y, dy), (x, dx)),
            last,
            last + 1,
            |k| part_steps(ray.at(k), horizontal),
            corners,
        );
        let columns = |rect: &AnchorRect| (rect.x0, rect.x1, rect.y0, rect.y1);
        // Only steps before the best so far can still matter.
        let best = first_in_band(
            (&self.touched_by_left, self.widest, columns),
            ((x, dx), (y, dy)),
            last.min(best - 1),
            best,
            |k| part_steps(ray.at(k), vertical),
            corners,
        );
        (best <= last).then_some(best as usize)
    }

    /// The column and row of the anchor stored at `anchor`.
    #[inline(always)]
    fn xy(&self, anchor: usize) -> (usize, usize) {
        (anchor % self.width, anchor / self.width)
    }

    /// Whether the view counts so few units that a ray is worth testing against their
    /// touched rectangles before its bits are scanned (as in the views of `units_met.rs`).
    #[inline(always)]
    fn few_units(&self) -> bool {
        self.touched.len() <= FEW_RECTANGLES
    }

    /// Whether a counted unit's touched rectangle meets the columns `xs` of the rows `ys`
    /// (half-open ranges). Always `true` when the view counts many units, so that `false`
    /// means "no touched anchor there" and `true` only "maybe".
    #[inline]
    fn may_touch(&self, xs: (usize, usize), ys: (usize, usize)) -> bool {
        !self.few_units()
            || (self.touched.iter())
                .any(|rect| rect.x0 < xs.1 && xs.0 < rect.x1 && rect.y0 < ys.1 && ys.0 < rect.y1)
    }

    /// Whether a straight walk of `steps` steps from `(x, y)` in `direction` may reach a
    /// touched anchor ([`may_touch`](Self::may_touch) of the anchors it enters).
    #[inline]
    fn may_touch_straight(&self, (x, y): (usize, usize), direction: usize, steps: usize) -> bool {
        let Direction { dx, dy } = DIRECTIONS[direction];
        let along = |at: usize, delta: i32| match delta {
            1.. => (at + 1, at + steps + 1),
            0 => (at, at + 1),
            _ => (at.saturating_sub(steps), at),
        };
        self.may_touch(along(x, dx), along(y, dy))
    }

    /// Whether a diagonal ray may need the query's graph anywhere along it: whether a
    /// touched rectangle meets the anchors on the ray's side of its origin in the rows the
    /// ray crosses (where its horizontal parts run) or in the columns it crosses (where its
    /// vertical parts run). Each anchor the ray or one of its straight parts enters lies in
    /// one of those two bands, so `false` means none of them is touched.
    #[inline]
    fn may_touch_diagonal(&self, ray: &DiagonalRay) -> bool {
        if !self.few_units() {
            return true;
        }
        let (x, y, last) = (ray.x as usize, ray.y as usize, ray.last as usize);
        let crossed = |at: usize, delta: isize| match delta {
            1.. => (at + 1, at + last + 1),
            _ => (at.saturating_sub(last), at),
        };
        let beyond = |at: usize, delta: isize, limit: usize| match delta {
            1.. => (at + 1, limit),
            _ => (0, at),
        };
        self.may_touch(beyond(x, ray.dx, self.width), crossed(y, ray.dy))
            || self.may_touch(crossed(x, ray.dx), beyond(y, ray.dy, self.height))
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.blocked.capacity()
            + self.blocked_by_column.capacity()
            + self.touched_by_row.capacity()
            + self.touched_by_column.capacity())
            * 8
            + (self.touched.capacity() + self.touched_by_left.capacity())
                * std::mem::size_of::<AnchorRect>()
            + self.units.capacity() * std::mem::size_of::<UnitRects>()
            + self.exempt.capacity()
            + (self.exempted.capacity() + self.wanted.capacity()) * std::mem::size_of::<usize>()
            + self.by_id.capacity() * std::mem::size_of::<(UnitId, usize)>()
    }
}

/// The two anchors a diagonal step from the anchor stored at `from` to its neighbour at `to`
/// passes (on a map `width` wide): beside `from` vertically, beside `to` horizontally; `None`
/// for a straight step.
#[inline(always)]
fn passed_anchors(from: usize, to: usize, width: usize) -> Option<(usize, usize)> {
    if !diagonal_step(from, to, width) {
        return None;
    }
    // A diagonal step's offset, `±width ± 1`, has the sign of its vertical part.
    let vertical = if to > from {
        width
    } else {
        width.wrapping_neg()
    };
    Some((from.wrapping_add(vertical), to.wrapping_sub(vertical)))
}

/// A diagonal ray from the anchor stored at `from`, at `(x, y)`, by `(dx, dy)` a step, for
/// `last` steps, with its straight parts (horizontal, then vertical).
struct DiagonalRay {
    from: usize,
    x: isize,
    y: isize,
    dx: isize,
    dy: isize,
    /// The storage offset of one step.
    offset: isize,
    last: isize,
    parts: [usize; 2],
}

impl DiagonalRay {
    fn new(from: usize, direction: usize, steps: usize, width: usize, parts: [usize; 2]) -> Self {
        let Direction { dx, dy } = DIRECTIONS[direction];
        let (dx, dy) = (dx as isize, dy as isize);
        DiagonalRay {
            from,
            x: (from % width) as isize,
            y: (from / width) as isize,
            dx,
            dy,
            offset: dy * width as isize + dx,
            last: steps as isize,
            parts,
        }
    }

    /// The anchor `k` steps along.
    #[inline(always)]
    fn at(&self, k: isize) -> usize {
        (self.from as isize + k * self.offset) as usize
    }
}

/// Views of at most this many counted units test a ray against their touched rectangles
/// before scanning its bits (see [`UnitsView::may_touch`]).
const FEW_RECTANGLES: usize = 8;

/// Diagonal rays up to this long are checked step by step; longer ones by the band scan,
/// whose cost grows with the rectangles beside the ray rather than with its length.
const SHORT_DIAGONAL: usize = 6;

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

/// [`FREE_STEPS`] indexed by a 3 x 3 neighbourhood of blocked bits, row by row from the
/// top-left (bit 4, the anchor itself, is ignored).
const FREE_AROUND: [u8; 512] = {
    // The bit of the 3 x 3 neighbourhood that holds the neighbour in `DIRECTIONS[d]`.
    let mut table = [0u8; 512];
    let mut around = 0;
    while around < 512 {
        let mut pattern = 0;
        let mut direction = 0;
        while direction < 8 {
            let Direction { dx, dy } = DIRECTIONS[direction];
            let bit = (dy + 1) * 3 + dx + 1;
            pattern |= (around >> bit & 1) << direction;
            direction += 1;
        }
        table[around] = FREE_STEPS[pattern];
        around += 1;
    }
    table
};

/// The three bits of `bits` from bit `first` (wrapped below zero, or past the end: free), in
/// the low three bits.
#[inline(always)]
fn three_bits(bits: &[u64], first: usize) -> u64 {
    let (word, shift) = (first / 64, first % 64);
    let Some(&low) = bits.get(word) else {
        // From bit -1 (the run left of the second row's first anchor), two bits are on the map.
        return match first {
            usize::MAX => bits.first().map_or(0, |&word| word << 1 & 7),
            _ => 0,
        };
    };
    let high = match shift {
        62.. => bits.get(word + 1).map_or(0, |&next| next << (64 - shift)),
        _ => 0,
    };
    (low >> shift | high) & 7
}

#[cfg(test)]
mod tests;
