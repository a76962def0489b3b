//! The rays of a search through a view: where a straight or diagonal ray from a jump point
//! first reaches a touched anchor (see the parent module's "Jump-point search and stored
//! rays"), by scanning the touched bits, by stepping, or from the touched rectangles beside it.

use super::band::first_in_band;
use super::bits::{first_run_end, first_set};
use super::{AnchorRect, DiagonalRay, UnitsView};
use crate::movement::{Direction, DIRECTIONS};

impl UnitsView {
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
    /// `direction` needs the query's graph (see the module docs): on a short ray, or one
    /// beside which the units crowd ([`crowded_beside`](Self::crowded_beside)), the first at
    /// which it is at a touched anchor or one of its straight rays `part_steps(at, part)` long
    /// reaches one; on other long rays the first at which it is at a touched anchor or a
    /// straight ray reaches a far corner of a touched rectangle (any touched anchor while the
    /// start lies inside a unit). The first answer is never later than the second, and either
    /// is a step at or before which the ray needs the graph.
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
        if steps <= SHORT_DIAGONAL || self.crowded_beside(&ray) {
            self.diagonal_by_steps(&ray, part_steps)
        } else {
            self.diagonal_by_bands(&ray, part_steps, corners && !self.start_was_blocked())
        }
    }

    /// [`first_touched_diagonal`](Self::first_touched_diagonal) step by step: the anchor's
    /// touched bit, then a scan of the touched bits along each straight part.
    pub(super) fn diagonal_by_steps(
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
    pub(super) fn diagonal_by_bands(
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

    /// Whether more touched rectangles start in the rows a diagonal ray crosses than
    /// [`CROWDED_PER_STEP`] times its steps: the band scan would read more of them than
    /// testing the ray step by step reads words.
    fn crowded_beside(&self, ray: &DiagonalRay) -> bool {
        let (y, last) = (ray.y, ray.last);
        let (low, high) = if ray.dy > 0 {
            (y + 1, y + last)
        } else {
            (y - last, y - 1)
        };
        let tallest = self.tallest as isize;
        let first = (self.touched).partition_point(|rect| rect.y0 as isize + tallest <= low);
        let end = (self.touched).partition_point(|rect| rect.y0 as isize <= high);
        end.saturating_sub(first) > CROWDED_PER_STEP * last as usize
    }

    /// The column and row of the anchor stored at `anchor`.
    #[inline(always)]
    fn xy(&self, anchor: usize) -> (usize, usize) {
        (anchor % self.width, anchor / self.width)
    }

    /// Whether the view counts so few units that a ray is worth testing against their
    /// touched rectangles before its bits are scanned (as in the views of `units_met.rs`).
    #[inline(always)]
    pub(super) fn few_units(&self) -> bool {
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
    pub(super) fn may_touch_straight(
        &self,
        (x, y): (usize, usize),
        direction: usize,
        steps: usize,
    ) -> bool {
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
    pub(super) fn may_touch_diagonal(&self, ray: &DiagonalRay) -> bool {
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
}

/// Views of at most this many counted units test a ray against their touched rectangles
/// before scanning its bits (see [`UnitsView::may_touch`]).
pub(super) const FEW_RECTANGLES: usize = 8;

/// A diagonal ray is tested step by step where more than this many touched rectangles per
/// step lie in the rows it crosses.
const CROWDED_PER_STEP: usize = 2;

/// Diagonal rays up to this long are checked step by step; longer ones by the band scan,
/// whose cost grows with the rectangles beside the ray rather than with its length.
const SHORT_DIAGONAL: usize = 6;
