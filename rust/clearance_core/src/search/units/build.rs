//! Building a view from the map's units, and keeping it between queries.
//!
//! A view is built for one occupancy (the map's units at one
//! [`units_version`](crate::PathMap::units_version)), one agent size and one map shape: its
//! [`ViewKey`]. Building it takes a pass over every unit and two sorts. The queries made
//! between two moves share a key and differ only in which units are exempt (the moving unit,
//! its group) and where they start, so the view holds the bits and rectangles of *every* unit
//! of its key, and applies a query's exemptions and start as a change that the next update
//! takes back:
//!
//! * An exempt unit's rectangles are cleared from the bits, and the counted units'
//!   rectangles are set again where they overlap the cleared ones. The bits of a counted set of
//!   units are the union of their rectangles, and only bits inside the cleared rectangles
//!   changed, so the result is the union of the counted units' rectangles. (With many exempt
//!   units, every unit is cleared and the counted ones set again: the same bits, in time
//!   linear in the units.)
//! * The start's blocked bit is cleared, and what it was is remembered.
//!
//! Taking the change back restores the start's bit and sets the exempt units' rectangles
//! again: a union is restored by adding back what was taken out. A query that exempts exactly
//! the units the last one did (the members of a group order, one after another) keeps the
//! change and only moves the start.
//!
//! After units move, a view built for the older occupancy catches up with the units changed
//! since instead of being built again, while they are few (`catch_up.rs`); a scratch keeps one
//! view per agent size (`kept.rs`).

use super::bits::{set_bits, set_rect};
use super::{AnchorRect, UnitRects, UnitsView};
use crate::occupancy::{Occupancy, Unit, UnitId};

/// What a view is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ViewKey {
    /// The occupancy's version, which no other occupancy of this process shares (see
    /// [`PathMap::units_version`](crate::PathMap::units_version)).
    pub units_version: u64,
    /// The searching agent's size.
    pub agent_size: u8,
    /// The map's width and height in anchors.
    pub shape: (usize, usize),
    /// The map's top-left cell, from which map-local coordinates count.
    pub origin: (i32, i32),
}

/// Which units of its key a view counts.
#[derive(Clone, Copy)]
pub(crate) enum Counted<'a> {
    /// Every unit but the moving one, if named, and the listed ones.
    AllBut {
        moving: Option<UnitId>,
        listed: &'a [UnitId],
    },
    /// Only the listed units.
    Only(&'a [UnitId]),
    /// The units whose id the test accepts.
    Accepted(&'a dyn Fn(UnitId) -> bool),
}

impl Counted<'_> {
    /// Whether the unit with id `id` counts.
    pub(crate) fn counts(&self, id: UnitId) -> bool {
        match *self {
            Counted::AllBut { moving, listed } => moving != Some(id) && !listed.contains(&id),
            Counted::Only(listed) => listed.contains(&id),
            Counted::Accepted(test) => test(id),
        }
    }
}

/// Up to this many exempt units are taken out one by one; beyond, the view is set again from
/// the counted units (the one-by-one cost grows with exempt units times units).
const FEW_EXEMPT: usize = 16;

impl UnitsView {
    /// Makes the view answer for the units of `occupancy` that `counted` counts, for the agent
    /// and map of `key` (which names the occupancy's version), with the anchor stored at
    /// `start` never blocked (`usize::MAX` for none). A view built for an older version of the
    /// occupancy catches up with the few units changed since, where it can (`catch_up.rs`).
    ///
    /// Listed ids are looked up in the view's list by id: with [`Counted::AllBut`] the time
    /// to find the exempt units grows with the ids listed, not with the units (a query that
    /// exempts what the last one did then costs next to nothing); [`Counted::Only`] adds one
    /// pass over the units' indices for the others.
    pub(crate) fn update(
        &mut self,
        key: ViewKey,
        occupancy: &Occupancy,
        counted: Counted<'_>,
        start: usize,
    ) {
        debug_assert_eq!(key.units_version, occupancy.version());
        if self.key != Some(key) && !self.catch_up(key, occupancy) {
            self.build(key, occupancy.units());
        }
        self.restore_start();
        let mut exempt = std::mem::take(&mut self.wanted);
        self.exempt_indices(counted, &mut exempt);
        if exempt != self.exempted {
            if self.exempted.len() > FEW_EXEMPT && exempt.len() > FEW_EXEMPT {
                // Views of a few units, as `units_met.rs` makes them, one after another.
                self.recount(&exempt);
            } else {
                self.take_back();
                self.exempt_from(&exempt);
            }
        }
        // A group's members one after another keep the exemptions: only the start changes.
        self.wanted = exempt;
        if start < self.width * self.height {
            self.start = Some((start, self.is_blocked(start)));
            self.set_start_bits(start, false);
        }
    }

    /// Whether the last update's start lies where a counted unit blocks it (the view then
    /// leaves it unblocked all the same, so the search can leave it).
    pub(crate) fn start_was_blocked(&self) -> bool {
        matches!(self.start, Some((_, true)))
    }

    /// Sets `exempt` to the indices into `units`, ascending, of the units `counted` refuses.
    fn exempt_indices(&self, counted: Counted<'_>, exempt: &mut Vec<usize>) {
        exempt.clear();
        match counted {
            Counted::AllBut { moving, listed } => {
                self.indices_of_ids(moving.into_iter().chain(listed.iter().copied()), exempt);
            }
            Counted::Only(listed) => {
                // The counted ones first, then every other index.
                self.indices_of_ids(listed.iter().copied(), exempt);
                let counted = exempt.len();
                for index in 0..self.units.len() {
                    if exempt[..counted].binary_search(&index).is_err() {
                        exempt.push(index);
                    }
                }
                exempt.drain(..counted);
            }
            Counted::Accepted(test) => {
                let refused = |index: &usize| !test(self.units[*index].id);
                exempt.extend((0..self.units.len()).filter(refused));
            }
        }
    }

    /// Adds to `indices` (empty) the indices into `units` of the units with the ids `ids`,
    /// ascending and each once.
    fn indices_of_ids(&self, ids: impl Iterator<Item = UnitId>, indices: &mut Vec<usize>) {
        for id in ids {
            indices.extend(self.indices_of(id));
        }
        indices.sort_unstable();
        indices.dedup();
    }

    /// The indices into `units` of the units with id `id`.
    fn indices_of(&self, id: UnitId) -> impl Iterator<Item = usize> + '_ {
        let first = self.by_id.partition_point(|&(other, _)| other < id);
        (self.by_id[first..].iter())
            .take_while(move |&&(other, _)| other == id)
            .map(|&(_, index)| index)
    }

    /// Moves the view from the units it counted to all but `exempt` (more than
    /// [`FEW_EXEMPT`] indices, as the last update's were) directly, without setting every
    /// exempt unit back first.
    ///
    /// With the start's bit restored the bits are the union of the counted units'
    /// rectangles, so clearing those rectangles clears every bit, and setting the new ones
    /// makes their union.
    fn recount(&mut self, exempt: &[usize]) {
        self.mark_units(false, true);
        self.exempt.fill(false);
        for &index in exempt {
            self.exempt[index] = true;
        }
        self.exempted.clear();
        self.exempted.extend_from_slice(exempt);
        self.mark_units(true, true);
        self.sort_touched();
    }

    /// Sets the last update's start blocked again if it was.
    pub(super) fn restore_start(&mut self) {
        if let Some((start, true)) = self.start.take() {
            self.set_start_bits(start, true);
        }
    }

    /// Sets or clears the blocked bit of the anchor stored at `start`, in both orders.
    fn set_start_bits(&mut self, start: usize, on: bool) {
        let (x, y) = (start % self.width, start / self.width);
        set_bits(&mut self.blocked, start, 1, on);
        set_bits(&mut self.blocked_by_column, x * self.height + y, 1, on);
    }

    /// Undoes the last update's exemptions, its start already restored: the view then holds
    /// every unit of its key.
    fn take_back(&mut self) {
        let exempted = std::mem::take(&mut self.exempted);
        for &index in &exempted {
            let unit = self.units[index];
            self.exempt[index] = false;
            self.mark(unit.blocked, unit.touched, true);
        }
        if exempted.len() > FEW_EXEMPT {
            self.sort_touched();
        } else {
            for &index in &exempted {
                let rect = self.units[index].touched;
                insert_sorted(&mut self.touched, rect, by_top);
                insert_sorted(&mut self.touched_by_left, rect, by_left);
            }
        }
        self.exempted = exempted;
        self.exempted.clear();
    }

    /// Forgets the previous key's units, with the last update's exemptions and start (every
    /// bit set lies in one of those units' rectangles), and records every unit of `units` for
    /// `key`.
    fn build(&mut self, key: ViewKey, units: &[Unit]) {
        self.start = None;
        self.exempted.clear();
        let (width, height) = key.shape;
        let words = (width * height).div_ceil(64);
        if (self.width, self.height) != key.shape || self.blocked.len() != words {
            self.blocked = vec![0; words];
            self.blocked_by_column = vec![0; words];
            self.touched_by_row = vec![0; words];
            self.touched_by_column = vec![0; words];
            (self.width, self.height) = key.shape;
        } else {
            self.mark_units(false, false);
        }
        self.units.clear();
        self.exempt.clear();
        for unit in units {
            if let Some(rects) = unit_rects(key, unit) {
                self.mark(rects.blocked, rects.touched, true);
                self.units.push(rects);
                self.exempt.push(false);
            }
        }
        self.by_id.clear();
        let ids = self
            .units
            .iter()
            .enumerate()
            .map(|(index, unit)| (unit.id, index));
        self.by_id.extend(ids);
        self.by_id.sort_unstable();
        self.sort_touched();
        let rects = || self.units.iter().map(|unit| unit.touched);
        self.tallest = rects().map(|r| r.y1 - r.y0).max().unwrap_or(0);
        self.widest = rects().map(|r| r.x1 - r.x0).max().unwrap_or(0);
        self.key = Some(key);
    }

    /// Takes the units at `exempt` (indices into `units`, ascending) out of a view that
    /// counts every unit (see the module docs).
    fn exempt_from(&mut self, exempt: &[usize]) {
        if exempt.is_empty() {
            return;
        }
        for &index in exempt {
            self.exempt[index] = true;
        }
        let mut exempted = std::mem::take(&mut self.exempted);
        exempted.extend_from_slice(exempt);
        if exempted.len() > FEW_EXEMPT {
            self.mark_units(false, false);
            self.mark_units(true, true);
            self.sort_touched();
        } else {
            for &index in &exempted {
                let unit = self.units[index];
                self.mark(unit.blocked, unit.touched, false);
                remove_sorted(&mut self.touched, unit.touched, by_top);
                remove_sorted(&mut self.touched_by_left, unit.touched, by_left);
            }
            for &index in &exempted {
                self.set_overlaps(self.units[index], None);
            }
        }
        self.exempted = exempted;
    }

    /// Sets again the bits of the counted units (but the one at `skip`) where they overlap
    /// `cleared`'s rectangles: clearing a rectangle cleared their bits there too.
    pub(super) fn set_overlaps(&mut self, cleared: UnitRects, skip: Option<usize>) {
        for other in 0..self.units.len() {
            let unit = self.units[other];
            if Some(other) == skip || self.exempt[other] || !meets(unit.touched, cleared.touched) {
                continue;
            }
            let blocked = intersection(unit.blocked, cleared.blocked);
            let touched = intersection(unit.touched, cleared.touched);
            self.mark(blocked, touched, true);
        }
    }

    /// Sets the sorted lists of touched rectangles to the counted units'.
    fn sort_touched(&mut self) {
        self.touched.clear();
        let counted = (self.units.iter().zip(&self.exempt))
            .filter(|(_, &exempt)| !exempt)
            .map(|(unit, _)| unit.touched);
        self.touched.extend(counted);
        self.touched.sort_unstable_by_key(by_top);
        self.touched_by_left.clear();
        self.touched_by_left.extend_from_slice(&self.touched);
        self.touched_by_left.sort_unstable_by_key(by_left);
    }

    /// Sets (or clears) the bits of every unit's rectangles, or with `counted_only` of the
    /// units not exempt.
    fn mark_units(&mut self, on: bool, counted_only: bool) {
        for index in 0..self.units.len() {
            if !(counted_only && self.exempt[index]) {
                let unit = self.units[index];
                self.mark(unit.blocked, unit.touched, on);
            }
        }
    }

    /// Sets (or clears) the bits of one unit's rectangles.
    pub(super) fn mark(&mut self, blocked: AnchorRect, touched: AnchorRect, on: bool) {
        let (width, height) = (self.width, self.height);
        set_rect(&mut self.blocked, blocked, width, false, on);
        set_rect(&mut self.blocked_by_column, blocked, height, true, on);
        set_rect(&mut self.touched_by_row, touched, width, false, on);
        set_rect(&mut self.touched_by_column, touched, height, true, on);
    }
}

/// A unit's rectangles for the agent and map of `key`: the anchors whose footprint overlaps
/// the unit's, and those within one step of one; `None` if they miss the map.
pub(super) fn unit_rects(key: ViewKey, unit: &Unit) -> Option<UnitRects> {
    let (width, height) = key.shape;
    let reach = i64::from(key.agent_size) - 1;
    let x = i64::from(unit.anchor.x) - i64::from(key.origin.0);
    let y = i64::from(unit.anchor.y) - i64::from(key.origin.1);
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
        return None;
    }
    let blocked = AnchorRect { x0, y0, x1, y1 };
    let (x0, x1) = clip(x - reach - 1, x + side + 1, width);
    let (y0, y1) = clip(y - reach - 1, y + side + 1, height);
    let touched = AnchorRect { x0, y0, x1, y1 };
    Some(UnitRects {
        id: unit.id,
        blocked,
        touched,
    })
}

/// The sort key of the list by top row.
pub(super) fn by_top(rect: &AnchorRect) -> (usize, usize) {
    (rect.y0, rect.x0)
}

/// The sort key of the list by left column.
pub(super) fn by_left(rect: &AnchorRect) -> (usize, usize) {
    (rect.x0, rect.y0)
}

/// Inserts `rect` into `rects`, sorted by `key`.
pub(super) fn insert_sorted(
    rects: &mut Vec<AnchorRect>,
    rect: AnchorRect,
    key: fn(&AnchorRect) -> (usize, usize),
) {
    let at = rects.partition_point(|other| key(other) < key(&rect));
    rects.insert(at, rect);
}

/// Removes one rectangle equal to `rect` from `rects`, sorted by `key` (equal rectangles
/// are interchangeable).
pub(super) fn remove_sorted(
    rects: &mut Vec<AnchorRect>,
    rect: AnchorRect,
    key: fn(&AnchorRect) -> (usize, usize),
) {
    let first = rects.partition_point(|other| key(other) < key(&rect));
    let found = (rects[first..].iter())
        .position(|&other| other == rect)
        .expect("an exempt unit's rectangle is in the list");
    rects.remove(first + found);
}

/// Whether two rectangles share an anchor.
fn meets(a: AnchorRect, b: AnchorRect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

/// The anchors two rectangles share (an empty rectangle if none).
fn intersection(a: AnchorRect, b: AnchorRect) -> AnchorRect {
    let (x0, y0) = (a.x0.max(b.x0), a.y0.max(b.y0));
    AnchorRect {
        x0,
        y0,
        x1: a.x1.min(b.x1).max(x0),
        y1: a.y1.min(b.y1).max(y0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Cell;
    use crate::test_rng::TestRng;

    /// The blocked and touched anchors straight from the definitions, for the units `counts`
    /// accepts: blocked where the agent's footprint overlaps a counted unit's, touched within
    /// one step of an anchor such a unit blocks; the start never blocked.
    fn expected(
        (width, height): (usize, usize),
        size: i64,
        units: &[Unit],
        counts: impl Fn(UnitId) -> bool,
        start: usize,
    ) -> (Vec<bool>, Vec<bool>) {
        let blocks = |unit: &Unit, x: i64, y: i64| {
            let (ux, uy, side) = (
                i64::from(unit.anchor.x),
                i64::from(unit.anchor.y),
                i64::from(unit.agent_size),
            );
            x < ux + side && ux < x + size && y < uy + side && uy < y + size
        };
        let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x < width as i64 && y < height as i64;
        let mut blocked = vec![false; width * height];
        let mut touched = vec![false; width * height];
        for unit in units.iter().filter(|unit| counts(unit.id)) {
            for y in 0..height as i64 {
                for x in 0..width as i64 {
                    let near = (-1..=1).any(|dy| {
                        (-1..=1).any(|dx| inside(x + dx, y + dy) && blocks(unit, x + dx, y + dy))
                    });
                    let at = y as usize * width + x as usize;
                    blocked[at] |= blocks(unit, x, y) && at != start;
                    touched[at] |= near;
                }
            }
        }
        (blocked, touched)
    }

    #[test]
    fn a_kept_view_answers_like_the_definitions_after_every_update() {
        let mut rng = TestRng(11);
        let shape = (23usize, 17usize);
        let mut view = UnitsView::default();
        let mut occupancy = Occupancy::default();
        let mut exempt: Vec<UnitId> = Vec::new();
        let mut next_id: UnitId = 0;
        let mut caught_up = 0;
        let anchor = |rng: &mut TestRng| Cell::new(rng.below(23), rng.below(17));
        for round in 0..1200 {
            // The units change: a few moved, placed or removed (a view catches up with those),
            // now and then all of them moved at once or cleared (it is built again for those).
            let ids: Vec<UnitId> = occupancy.units().iter().map(|unit| unit.id).collect();
            match rng.below(10) {
                0..=2 if !ids.is_empty() => {
                    let mut moves: Vec<(UnitId, Cell)> = (0..rng.below(3) + 1)
                        .map(|_| (ids[rng.below(ids.len() as u64) as usize], anchor(&mut rng)))
                        .collect();
                    moves.sort_unstable_by_key(|&(id, _)| id);
                    moves.dedup_by_key(|&mut (id, _)| id);
                    occupancy.move_checked(&moves);
                }
                3 | 4 => {
                    let placed: Vec<Unit> = (0..rng.below(if ids.len() < 8 { 12 } else { 3 }) + 1)
                        .map(|offset| Unit {
                            id: next_id + offset as UnitId,
                            anchor: anchor(&mut rng),
                            agent_size: rng.below(3) as u8 + 1,
                        })
                        .collect();
                    next_id += placed.len() as UnitId;
                    occupancy.insert_checked(&placed);
                }
                5 if ids.len() > 4 => {
                    occupancy.remove_checked(ids[rng.below(ids.len() as u64) as usize])
                }
                6 if rng.below(8) == 0 => {
                    let all: Vec<(UnitId, Cell)> =
                        ids.iter().map(|&id| (id, anchor(&mut rng))).collect();
                    occupancy.move_checked(&all);
                }
                7 if rng.below(30) == 0 => occupancy.clear(),
                _ => {}
            }
            // Not every change is followed by a query: a view catches up with several.
            if rng.below(3) == 0 {
                continue;
            }
            let units = occupancy.units().to_vec();
            let size = (round / 150 % 3 + 1) as u8;
            let key = ViewKey {
                units_version: occupancy.version(),
                agent_size: size,
                shape,
                origin: (0, 0),
            };
            // No exemption, a few, most of the units, or the last round's.
            exempt = match rng.below(4) {
                0 => Vec::new(),
                1 => (0..rng.below(4))
                    .map(|_| rng.below(next_id as u64 + 1) as UnitId)
                    .collect(),
                2 => (0..next_id).filter(|_| rng.below(4) != 0).collect(),
                _ => exempt,
            };
            let start = match rng.below(4) {
                0 => usize::MAX,
                _ => rng.below((shape.0 * shape.1) as u64) as usize,
            };
            let counts = |id: UnitId| !exempt.contains(&id);
            // The same units named each of the three ways.
            let counted_ids: Vec<UnitId> = (0..next_id).filter(|&id| counts(id)).collect();
            let counted = match rng.below(3) {
                0 => Counted::AllBut {
                    moving: exempt.first().copied(),
                    listed: exempt.get(1..).unwrap_or_default(),
                },
                1 => Counted::Only(&counted_ids),
                _ => Counted::Accepted(&counts),
            };
            // A catch-up the view makes is made here first, to count it.
            if view.key.is_some_and(|own| own != key) && view.catch_up(key, &occupancy) {
                caught_up += 1;
            }
            view.update(key, &occupancy, counted, start);
            // Every unit has one entry, listed by id.
            assert_eq!(view.units.len(), units.len(), "round {round}");
            for (position, &(id, index)) in view.by_id.iter().enumerate() {
                assert_eq!(view.units[index].id, id, "round {round}");
                assert!(position == 0 || view.by_id[position - 1].0 < id);
            }
            let flagged = (view.exempt.iter().enumerate()).filter(|(_, &exempt)| exempt);
            let flagged: Vec<usize> = flagged.map(|(index, _)| index).collect();
            assert_eq!(view.exempted, flagged, "round {round}");
            for unit in &view.units {
                let rect = unit.touched;
                assert!(rect.y1 - rect.y0 <= view.tallest && rect.x1 - rect.x0 <= view.widest);
            }
            let (blocked, touched) = expected(shape, i64::from(size), &units, counts, start);
            for (at, (&blocked, &touched)) in blocked.iter().zip(&touched).enumerate() {
                assert_eq!(view.is_blocked(at), blocked, "round {round}, anchor {at}");
                assert_eq!(view.is_touched(at), touched, "round {round}, anchor {at}");
                let (x, y) = (at % shape.0, at / shape.0);
                let by_column = x * shape.1 + y;
                let column_bit = |bits: &[u64]| bits[by_column / 64] >> (by_column % 64) & 1 == 1;
                assert_eq!(
                    column_bit(&view.touched_by_column),
                    touched,
                    "round {round}, {at}"
                );
                assert_eq!(
                    column_bit(&view.blocked_by_column),
                    blocked,
                    "round {round}, {at}"
                );
            }
            // The lists hold one rectangle per counted unit that meets the map, in order.
            let counted = (units.iter()).filter(|unit| counts(unit.id)).count();
            assert_eq!(view.touched.len(), counted, "round {round}"); // every anchor is on the map
            assert_eq!(view.is_empty(), !touched.iter().any(|&t| t));
            assert!(view
                .touched
                .windows(2)
                .all(|w| by_top(&w[0]) <= by_top(&w[1])));
            let left = &view.touched_by_left;
            assert!(left.windows(2).all(|w| by_left(&w[0]) <= by_left(&w[1])));
            let every_field = |rect: &AnchorRect| (rect.x0, rect.y0, rect.x1, rect.y1);
            let (mut by_top_list, mut by_left_list) = (view.touched.clone(), left.clone());
            by_top_list.sort_unstable_by_key(every_field);
            by_left_list.sort_unstable_by_key(every_field);
            assert_eq!(by_top_list, by_left_list, "round {round}");
            // Every touched anchor lies in a listed rectangle, and every listed one is touched.
            for rect in &view.touched {
                for y in rect.y0..rect.y1 {
                    for x in rect.x0..rect.x1 {
                        assert!(touched[y * shape.0 + x], "round {round}");
                    }
                }
            }
            for (at, _) in touched.iter().enumerate().filter(|(_, &t)| t) {
                let (x, y) = (at % shape.0, at / shape.0);
                let listed = (view.touched.iter())
                    .any(|r| (r.x0..r.x1).contains(&x) && (r.y0..r.y1).contains(&y));
                assert!(listed, "round {round}, anchor {at}");
            }
        }
        // Most updates after a few changes caught up rather than built again.
        println!("{caught_up} catch-ups");
        assert!(caught_up > 300, "{caught_up} catch-ups");
    }
}
