//! Precomputed rays for jump-point search.
//!
//! On a graph where every anchor costs the same to enter, where a straight ray stops depends
//! on the move masks along its line and on nothing else but the goal: it stops at the first
//! anchor where a side opens that was closed beside the anchor behind (the obstacle case of
//! the pruning rule), or runs into a dead end. So, as JPS+ does for static maps (Rabin and
//! Silva, "JPS+: An Extreme A* Speed Optimization for Static Uniform Cost Grids", Game AI Pro
//! 2, 2015), the ray from every anchor in each straight direction can be walked once, ahead of
//! the queries, and stored: how many steps it goes and whether it ends at a stop or at a dead
//! end. A query then reads a ray instead of walking it, and only checks whether its own goal
//! (or targets) lie on the stored stretch, which ends the ray earlier.
//!
//! # Why the table is right
//!
//! Let `e(a, d)` be the entry of anchor `a` in straight direction `d`, and `n = a + d`. The
//! ray from `a` (see `Rays::straight` in `search/jump/rays.rs`) first checks the step `d` from `a`: if it
//! is illegal the ray is a dead end after 0 steps. Otherwise it steps to `n` and stops there
//! if a side of `d` is legal at `n` but not at `a`: a stop after 1 step. Otherwise it goes on
//! exactly as the ray from `n` does, one step later: `e(a, d) = e(n, d) + 1` with the same
//! ending. Filling each line against the direction (from the far end) computes `n`'s entry
//! before `a`'s, so one pass per direction fills the table.
//!
//! After an edit changed the masks of a window of anchors, an entry can change only if its
//! own mask, the mask ahead or the entry ahead did. So the repair walks each line through the
//! window back from the window's far edge: every anchor inside the window, and beyond it
//! until an entry comes out as it was, since every entry further back then stays as it was.
//!
//! # Diagonal rays
//!
//! Under 8-way rules a diagonal ray in `D` stops at the first anchor from which one of its two
//! straight rays stops somewhere (not at a dead end), so on a uniform-cost graph it too is fixed
//! by the masks: with `n = a + D`, the entry of `a` is a dead end after 0 steps if the step `D`
//! from `a` is illegal, a stop after 1 step if a stored straight ray of `n` along a part of `D`
//! ends at a stop, and otherwise `n`'s entry plus one step. The goal ends a diagonal ray
//! early at the anchor where it crosses the goal's row or column, if the straight ray from
//! there reaches the goal; that is arithmetic on the stored entries (`search/jump/rays.rs`).
//!
//! A diagonal entry reads its own mask and, of `n`, whether its two straight rays end at
//! stops, and `n`'s diagonal entry. So after an edit the repair recomputes, row by row from the
//! far end, the diagonal entries of the anchors in the window, of those whose `n` had a
//! straight ray change between ending at a stop and at a dead end, and of those whose `n`'s
//! diagonal entry just changed; an entry that comes out as it was spreads nothing further.
//!
//! # Weighted graphs
//!
//! With per-anchor entry multipliers a ray also stops where a cost test of the successor rules
//! passes (`jump_rules.rs`). Those tests read the move masks and multipliers of the anchor
//! reached and of its neighbours, never the query, so the same recurrences hold with the stop
//! test of the weighted rules in place of the obstacle case: a straight entry of `a` stops
//! after 1 step when the rules force a turn at `n` on an arrival from `a`, and a diagonal
//! entry when they force one on a diagonal arrival at `n` or a straight part of `n` stops.
//! The test at `n` reads multipliers at most one anchor from `n`, so at most two from `a`: the
//! repair is handed a window grown by two around the anchors whose multipliers changed
//! (`AnchorGraph::repair`), and the rest of the argument is unchanged. The cost of a stored
//! ray is not stored: a search sums the multipliers of the steps it takes, once per ray it
//! keeps, instead of testing every anchor of every ray it tries.
//!
//! A ray never leaves the map (a step off it is never legal), so it takes at most
//! `MAX_SIDE - 1` steps, which fits the 15 bits an entry keeps for them.

use crate::grid::{Window, MAX_SIDE};
use crate::jump_rules::{self, TurnGraph};
use crate::movement::{
    direction_offsets, Direction, Movement, DIRECTIONS, PARTS, SIDE_BITS, STRAIGHT_DIRECTIONS,
};
use crate::paged::PagedVec;

/// What a table's rays stop at besides dead ends: the graph's move masks, its movement rules
/// and, on a weighted graph, its entry multipliers (whose cost tests stop rays too).
#[derive(Clone, Copy)]
pub(crate) struct RayRule<'a> {
    pub moves: &'a PagedVec<u8>,
    pub multipliers: Option<&'a PagedVec<u32>>,
    /// With `multipliers`: the graph's even-cost bits (`AnchorGraph::even_costs`), where no
    /// cost test can pass, so only the obstacle case is tested; `None` tests every anchor.
    pub even_costs: Option<&'a PagedVec<u64>>,
    pub movement: Movement,
}

/// A weighted graph as the successor rules read it.
struct Weighted<'a> {
    moves: &'a PagedVec<u8>,
    multipliers: &'a PagedVec<u32>,
}

impl TurnGraph for Weighted<'_> {
    const UNIFORM: bool = false;
    #[inline(always)]
    fn mask(&self, anchor: usize) -> u8 {
        self.moves[anchor]
    }
    #[inline(always)]
    fn multiplier(&self, anchor: usize) -> u64 {
        u64::from(self.multipliers[anchor])
    }
}

impl RayRule<'_> {
    /// Whether a ray from `anchor` stops at `next`, one step on in `direction` (a legal step),
    /// for a turn: the obstacle case on a uniform-cost graph, the successor rules on a
    /// weighted one. The straight parts of a diagonal ray are tested by the caller.
    #[inline]
    fn turns_at(&self, anchor: usize, next: usize, direction: usize, offsets: &[isize; 8]) -> bool {
        let obstacle = || {
            direction < STRAIGHT_DIRECTIONS
                && self.moves[next] & SIDE_BITS[direction] & !self.moves[anchor] != 0
        };
        let Some(multipliers) = self.multipliers else {
            return obstacle();
        };
        if self.movement == Movement::FourWay && jump_rules::VERTICAL[direction] {
            // Every turn after a vertical 4-way arrival is natural.
            return false;
        }
        if let Some(bits) = self.even_costs {
            if bits[next / 64] & 1 << (next % 64) != 0 {
                return obstacle();
            }
        }
        let graph = Weighted {
            moves: self.moves,
            multipliers,
        };
        match self.movement {
            Movement::EightWay => jump_rules::forced::<_, false>(&graph, offsets, next, direction),
            Movement::FourWay => jump_rules::forced::<_, true>(&graph, offsets, next, direction),
        }
    }
}

/// The flag of an entry whose ray ends at a stop, not at a dead end.
const STOP: u16 = 1 << 15;

const _: () = assert!(MAX_SIDE as u32 - 1 < STOP as u32);

/// Where the rays of every anchor end, for one graph's move masks: an entry per anchor and
/// direction, each the number of steps and whether the ray ends at a stop or at a dead end.
/// The table is paged and written only where an entry changes, so a copy (a snapshot's)
/// shares every page a repair leaves as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JumpDistances {
    /// An anchor's rays side by side, in the order of [`DIRECTIONS`]: north, east, south and
    /// west, then (under 8-way rules) north-east, south-east, south-west and north-west. A
    /// jump point's expansion reads several of them, in one cache line and one page lookup.
    rays: PagedVec<[u16; 8]>,
    /// Whether diagonal rays are stored: under 8-way rules. Under 4-way rules, whose rays are
    /// straight or step along and try both sides at each anchor, their entries stay 0.
    diagonals: bool,
}

/// Where one stored ray ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StoredRay {
    /// Steps from the anchor to where the ray ends.
    pub steps: usize,
    /// The ray ends at an anchor where it stops; otherwise it runs into a dead end after
    /// `steps` steps and stops nowhere.
    pub stops: bool,
}

impl JumpDistances {
    /// The rays of every anchor of a map `width` wide under `rule`; diagonal ones only under
    /// 8-way movement.
    pub(crate) fn build(rule: RayRule, width: usize) -> Self {
        let moves = rule.moves;
        let diagonals = rule.movement == Movement::EightWay;
        // A flat array while the table is built (nothing shares it yet), paged at the end.
        let mut rays = vec![[0; 8]; moves.len()];
        let offsets = direction_offsets(width);
        let directions = if diagonals { 8 } else { STRAIGHT_DIRECTIONS };
        // The straight rays first, which the diagonal ones read; each against its direction,
        // so that an anchor's next anchor is filled before it.
        for (direction, &offset) in offsets.iter().enumerate().take(directions) {
            let mut fill = |anchor: usize| {
                rays[anchor][direction] = if direction < STRAIGHT_DIRECTIONS {
                    straight_entry(rule, anchor, direction, &offsets, |next| {
                        rays[next][direction]
                    })
                } else {
                    diagonal_entry(rule, anchor, direction, &offsets, |next| rays[next])
                };
            };
            if offset > 0 {
                (0..moves.len()).rev().for_each(&mut fill);
            } else {
                (0..moves.len()).for_each(&mut fill);
            }
        }
        JumpDistances {
            rays: PagedVec::from(rays),
            diagonals,
        }
    }

    /// Brings the table up to date after the move masks of the anchors in `changed` changed;
    /// the result equals a fresh [`build`](Self::build) (see the module docs). On a weighted
    /// graph `changed` must also hold every anchor within two of one whose multiplier changed
    /// and within one of one whose mask changed.
    pub(crate) fn repair(&mut self, rule: RayRule, width: usize, changed: Window) {
        let moves = rule.moves;
        let height = moves.len() / width.max(1);
        let offsets = direction_offsets(width);
        let inside = |x: usize, y: usize| {
            (changed.x0..changed.x1).contains(&x) && (changed.y0..changed.y1).contains(&y)
        };
        // Anchors whose straight rays changed between ending at a stop and at a dead end:
        // the diagonal rays read nothing else of them.
        let mut turned = Vec::new();
        for (direction, &Direction { dx, dy }) in
            DIRECTIONS.iter().enumerate().take(STRAIGHT_DIRECTIONS)
        {
            let lines = if dy == 0 {
                changed.y0..changed.y1
            } else {
                changed.x0..changed.x1
            };
            for line in lines {
                // From the window's edge ahead back along the line: inside the window every
                // anchor, beyond it until an entry comes out as it was.
                let (mut x, mut y) = match (dx, dy) {
                    (1, _) => (changed.x1 - 1, line),
                    (-1, _) => (changed.x0, line),
                    (_, 1) => (line, changed.y1 - 1),
                    _ => (line, changed.y0),
                };
                loop {
                    let anchor = y * width + x;
                    let old = self.rays[anchor][direction];
                    let new = self.refill(rule, anchor, direction, &offsets);
                    if (old ^ new) & STOP != 0 {
                        turned.push(anchor);
                    }
                    let back = step_back(x, y, dx, dy, width, height);
                    match back {
                        Some(previous) if old != new || inside(x, y) => (x, y) = previous,
                        _ => break,
                    }
                }
            }
        }
        if !self.diagonals {
            return;
        }
        for (direction, &Direction { dx, dy }) in
            DIRECTIONS.iter().enumerate().skip(STRAIGHT_DIRECTIONS)
        {
            // Anchors whose own mask changed, or whose next anchor's straight rays turned.
            let mut seeds: Vec<(usize, usize)> = (changed.y0..changed.y1)
                .flat_map(|y| (changed.x0..changed.x1).map(move |x| (x, y)))
                .chain(turned.iter().filter_map(|&anchor| {
                    step_back(anchor % width, anchor / width, dx, dy, width, height)
                }))
                .collect();
            self.repair_diagonal(rule, width, direction, &mut seeds);
        }
    }

    /// Recomputes the diagonal entries in `direction` of `seeds` (column and row of each) and
    /// of every anchor whose next anchor's entry changed, row by row from the far end.
    fn repair_diagonal(
        &mut self,
        rule: RayRule,
        width: usize,
        direction: usize,
        seeds: &mut [(usize, usize)],
    ) {
        let height = rule.moves.len() / width;
        let Direction { dx, dy } = DIRECTIONS[direction];
        let offsets = direction_offsets(width);
        // Rows in the order they are done: against the direction.
        let order = |y: usize| if dy > 0 { height - 1 - y } else { y };
        seeds.sort_unstable_by_key(|&(x, y)| (order(y), x));
        let mut pending: Vec<usize> = Vec::new();
        let mut changed_here = Vec::new();
        let mut next_seed = 0;
        let mut row = seeds.first().map_or(height, |&(_, y)| order(y));
        while row < height && (next_seed < seeds.len() || !pending.is_empty()) {
            let y = order(row);
            changed_here.clear();
            let seeded = seeds[next_seed..]
                .iter()
                .take_while(|&&(_, seed_y)| seed_y == y)
                .count();
            let here = seeds[next_seed..next_seed + seeded].iter().map(|&(x, _)| x);
            for x in here.chain(pending.iter().copied()) {
                let anchor = y * width + x;
                let old = self.rays[anchor][direction];
                if self.refill(rule, anchor, direction, &offsets) != old {
                    changed_here.push(x);
                }
            }
            next_seed += seeded;
            // The anchors one row further back whose next anchor just changed.
            pending.clear();
            pending.extend(
                changed_here
                    .iter()
                    .filter_map(|&x| x.checked_add_signed(-dx as isize).filter(|&x| x < width)),
            );
            if row + 1 < height && pending.is_empty() && next_seed < seeds.len() {
                row = order(seeds[next_seed].1);
            } else {
                row += 1;
            }
        }
    }

    /// Computes, stores and returns the entry of `anchor` in `direction` from its next
    /// anchor's (see the module docs), which must be up to date.
    fn refill(
        &mut self,
        rule: RayRule,
        anchor: usize,
        direction: usize,
        offsets: &[isize; 8],
    ) -> u16 {
        let entry = if direction < STRAIGHT_DIRECTIONS {
            straight_entry(rule, anchor, direction, offsets, |next| {
                self.rays[next][direction]
            })
        } else {
            diagonal_entry(rule, anchor, direction, offsets, |next| self.rays[next])
        };
        // Written only when it changes: an unchanged entry leaves its page shared.
        if self.rays[anchor][direction] != entry {
            self.rays[anchor][direction] = entry;
        }
        entry
    }

    /// The ray from `anchor` in the straight `direction`.
    #[inline(always)]
    pub(crate) fn ray(&self, anchor: usize, direction: usize) -> StoredRay {
        decode(self.rays[anchor][direction])
    }

    /// The ray from `anchor` in the diagonal `direction`, if diagonal rays are stored.
    #[inline(always)]
    pub(crate) fn diagonal_ray(&self, anchor: usize, direction: usize) -> Option<StoredRay> {
        self.diagonals.then(|| decode(self.rays[anchor][direction]))
    }

    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.rays.memory_bytes()
    }

    /// Bytes a table of `anchors` anchors holds, under either movement rule.
    pub(crate) fn estimated_bytes(anchors: usize) -> usize {
        anchors.saturating_mul(std::mem::size_of::<[u16; 8]>())
    }
}

#[cfg(test)]
impl JumpDistances {
    /// Compares both tables with `before`'s page by page (see [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.rays.audit(&before.rays, "stored rays", audit);
    }
}

/// The entry of `anchor` in the straight `direction` under `rule`, given how to read the entry
/// of the anchor one step on in that direction (see the module docs).
#[inline]
fn straight_entry(
    rule: RayRule,
    anchor: usize,
    direction: usize,
    offsets: &[isize; 8],
    next_entry: impl FnOnce(usize) -> u16,
) -> u16 {
    let next = anchor.wrapping_add_signed(offsets[direction]);
    if rule.moves[anchor] & 1 << direction == 0 {
        0
    } else if rule.turns_at(anchor, next, direction, offsets) {
        STOP | 1
    } else {
        next_entry(next) + 1
    }
}

/// The entry of `anchor` in the diagonal `direction` under `rule`, given how to read the
/// straight entries and this direction's diagonal entry of the anchor one step on.
#[inline]
fn diagonal_entry(
    rule: RayRule,
    anchor: usize,
    direction: usize,
    offsets: &[isize; 8],
    next_entries: impl FnOnce(usize) -> [u16; 8],
) -> u16 {
    let next = anchor.wrapping_add_signed(offsets[direction]);
    if rule.moves[anchor] & 1 << direction == 0 {
        return 0;
    }
    let entries = next_entries(next);
    let [horizontal, vertical] = PARTS[direction];
    if (entries[horizontal] | entries[vertical]) & STOP != 0
        || rule.turns_at(anchor, next, direction, offsets)
    {
        STOP | 1
    } else {
        entries[direction] + 1
    }
}

/// The anchor one step against `(dx, dy)` from column `x`, row `y`, if on the map.
fn step_back(
    x: usize,
    y: usize,
    dx: i32,
    dy: i32,
    width: usize,
    height: usize,
) -> Option<(usize, usize)> {
    let x = x.checked_add_signed(-dx as isize).filter(|&x| x < width)?;
    let y = y.checked_add_signed(-dy as isize).filter(|&y| y < height)?;
    Some((x, y))
}

/// An entry's steps and ending.
#[inline(always)]
fn decode(entry: u16) -> StoredRay {
    StoredRay {
        steps: usize::from(entry & !STOP),
        stops: entry & STOP != 0,
    }
}

#[cfg(test)]
mod tests;
