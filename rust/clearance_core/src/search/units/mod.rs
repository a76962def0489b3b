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
//! it is stored), and so on a ray beside which the units crowd (more touched rectangles start
//! in the rows it crosses than two per step); on other long ones it finds the step from its
//! touched rectangles by arithmetic,
//! in time that grows with the rectangles beside the ray instead of its length, and there
//! only the rectangles' far corners count for the straight parts (the only places a unit can
//! make a straight ray turn; `jump/units.rs` proves it), so a ray passes the rectangles' other
//! rows and columns without stopping. Those reads are in `rays.rs`.
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
//!
//! [`FEW_RECTANGLES`]: rays::FEW_RECTANGLES

mod band;
mod bits;
mod build;
mod catch_up;
mod graph;
mod kept;
mod rays;

use crate::blocked_cells::{first_set_between, last_set_between};
use crate::movement::{diagonal_step, Direction, DIRECTIONS};
use crate::occupancy::UnitId;
pub(crate) use build::{Counted, ViewKey};
pub(crate) use graph::graph_with_units;
pub(crate) use kept::KeptViews;

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
    /// At least the height and the width of every unit's touched rectangle, counted or not (a
    /// bound is all the band scan needs): exact after a build, only grown by a catch-up.
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

/// A view's blocked anchors in one orientation (see [`UnitsView::blocked_lines`]): bit
/// `line * length + position` is the anchor at `position` along line `line`.
#[derive(Clone, Copy)]
pub(crate) struct BlockedLines<'a> {
    words: &'a [u64],
    length: usize,
}

impl BlockedLines<'_> {
    /// The first blocked position among `first..=last` of line `line`, if any.
    #[inline]
    pub(crate) fn first_between(&self, line: usize, first: usize, last: usize) -> Option<usize> {
        let start = line * self.length;
        first_set_between(|word| self.words[word], start + first, start + last)
            .map(|bit| bit - start)
    }

    /// The last blocked position among `first..=last` of line `line`, if any.
    #[inline]
    pub(crate) fn last_between(&self, line: usize, first: usize, last: usize) -> Option<usize> {
        let start = line * self.length;
        last_set_between(|word| self.words[word], start + first, start + last)
            .map(|bit| bit - start)
    }
}

impl UnitsView {
    /// The agent size the view was last built for, if any.
    pub(crate) fn agent_size(&self) -> Option<u8> {
        self.key.map(|key| key.agent_size)
    }

    /// Whether no unit counts in this query.
    pub(crate) fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Whether the anchor stored at `anchor` is blocked (never the start).
    #[inline(always)]
    pub(crate) fn is_blocked(&self, anchor: usize) -> bool {
        self.blocked[anchor / 64] >> (anchor % 64) & 1 != 0
    }

    /// The blocked anchors line by line: row by row (bit `y * width + x`), or column by
    /// column (`by_columns`, bit `x * height + y`), so that a run of either costs a word or two.
    #[inline]
    pub(crate) fn blocked_lines(&self, by_columns: bool) -> BlockedLines<'_> {
        if by_columns {
            BlockedLines {
                words: &self.blocked_by_column,
                length: self.height,
            }
        } else {
            BlockedLines {
                words: &self.blocked,
                length: self.width,
            }
        }
    }

    /// Every touched anchor (storage indices), read from the counted units' rectangles: some
    /// more than once where rectangles overlap, in time proportional to their areas rather
    /// than to the map.
    pub(crate) fn touched_anchors(&self) -> impl Iterator<Item = usize> + '_ {
        self.touched.iter().flat_map(move |rect| {
            (rect.y0..rect.y1)
                .flat_map(move |y| (rect.x0..rect.x1).map(move |x| y * self.width + x))
        })
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
        // The blocked anchors those steps enter or pass, by row, then one pass over the units
        // that looks each one's rows up among them: time linear in the units, not in the
        // units times the anchors.
        let mut held: Vec<(usize, usize)> = Vec::new();
        for &step in unclear {
            let (from, to) = (path[step], path[step + 1]);
            let passed = passed_anchors(from, to, width);
            let anchors = [
                Some(to),
                passed.map(|pair| pair.0),
                passed.map(|pair| pair.1),
            ];
            let blocked = anchors
                .into_iter()
                .flatten()
                .filter(|&a| self.is_blocked(a));
            held.extend(blocked.map(|anchor| (anchor / width, anchor % width)));
        }
        if held.is_empty() {
            return;
        }
        held.sort_unstable();
        // A bit per row that holds one: most units' rows hold none, and a word or two says so.
        let mut rows = vec![0u64; self.height.div_ceil(64)];
        for &(y, _) in &held {
            rows[y / 64] |= 1 << (y % 64);
        }
        for (unit, &exempt) in self.units.iter().zip(&self.exempt) {
            let rect = unit.blocked;
            if exempt || first_set_between(|word| rows[word], rect.y0, rect.y1 - 1).is_none() {
                continue;
            }
            let first = held.partition_point(|&(y, _)| y < rect.y0);
            let holds = (held[first..].iter())
                .take_while(|&&(y, _)| y < rect.y1)
                .any(|&(_, x)| (rect.x0..rect.x1).contains(&x));
            if holds && !met.contains(&unit.id) {
                met.push(unit.id);
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
