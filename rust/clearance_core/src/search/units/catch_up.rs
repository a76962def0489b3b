//! Catching a kept view up with units that moved, instead of building it again.
//!
//! A game moves a few units between queries. A view built for the occupancy's older version
//! differs from one built for the new version only in the rectangles of the units those
//! changes named, which [`Occupancy::changed_since`] lists. So the view replaces those units'
//! entries one at a time, keeping every other part of its state as it is:
//!
//! * A counted unit's old rectangles are cleared from the bits, and every other counted
//!   unit's rectangles are set again where they overlap the cleared ones (the bits are the
//!   union of the counted units' rectangles, and only bits inside the cleared rectangles
//!   changed, as when a unit is exempted: `build.rs`). Its new rectangles are then set. The
//!   bits stay the union of the counted units' rectangles after each unit.
//! * An exempt unit's entry just changes: its rectangles are not in the bits.
//! * A unit placed since is added as counted; one removed since is dropped (the last entry
//!   takes its place, as in [`Occupancy`]), and the list of exempt indices follows.
//!
//! The next query's exemptions are then applied to this state as to any other, so a view
//! caught up answers exactly as one built afresh. Each changed unit costs a pass over the
//! units (the overlap test) and its rectangles; building costs every unit's rectangles, so
//! the view catches up only while the changes are few beside its units.

use super::build::{by_left, by_top, insert_sorted, remove_sorted, unit_rects, ViewKey};
use super::{AnchorRect, UnitsView};
use crate::occupancy::{Occupancy, Unit, UnitId};

/// A view catches up while its units number at least this many times the changed ones.
const UNITS_PER_CHANGE: usize = 4;

impl UnitsView {
    /// Brings the view from the occupancy its key names to `occupancy` at `key` by replacing
    /// the entries of the units changed since (see the module docs), if `key` differs from
    /// its own in the occupancy's version alone, `occupancy` knows the changes and they are
    /// few; whether it did. On `false` the view is unchanged.
    pub(super) fn catch_up(&mut self, key: ViewKey, occupancy: &Occupancy) -> bool {
        let Some(own) = self.key else {
            return false;
        };
        if (ViewKey {
            units_version: own.units_version,
            ..key
        }) != own
        {
            return false;
        }
        let Some(changed) = occupancy.changed_since(own.units_version) else {
            return false;
        };
        let mut changed: Vec<UnitId> = changed.collect();
        changed.sort_unstable();
        changed.dedup();
        if changed.len() * UNITS_PER_CHANGE > self.units.len() {
            return false;
        }
        self.restore_start();
        for id in changed {
            self.replace_unit(key, id, occupancy.get(id));
        }
        self.key = Some(key);
        true
    }

    /// Replaces the entry of the unit `id` (if the view has one) by its rectangles for `now`
    /// (if it is still registered, and they meet the map).
    fn replace_unit(&mut self, key: ViewKey, id: UnitId, now: Option<Unit>) {
        let now = now.and_then(|unit| unit_rects(key, &unit));
        let found = (self.by_id.binary_search_by_key(&id, |&(other, _)| other)).ok();
        let index = found.map(|position| self.by_id[position].1);
        // A unit new to the view counts until the query's exemptions are applied.
        let counted = index.is_none_or(|index| !self.exempt[index]);
        if let (Some(index), true) = (index, counted) {
            self.clear_bits(index);
        }
        match (index, now) {
            (Some(index), Some(rects)) => {
                if counted {
                    let old = self.units[index].touched;
                    replace_sorted(&mut self.touched, old, rects.touched, by_top);
                    replace_sorted(&mut self.touched_by_left, old, rects.touched, by_left);
                }
                self.units[index] = rects;
            }
            (Some(index), None) => {
                if counted {
                    let old = self.units[index].touched;
                    remove_sorted(&mut self.touched, old, by_top);
                    remove_sorted(&mut self.touched_by_left, old, by_left);
                }
                self.drop_entry(index);
            }
            (None, Some(rects)) => {
                let at = self.by_id.partition_point(|&(other, _)| other < id);
                self.by_id.insert(at, (id, self.units.len()));
                self.units.push(rects);
                self.exempt.push(false);
                insert_sorted(&mut self.touched, rects.touched, by_top);
                insert_sorted(&mut self.touched_by_left, rects.touched, by_left);
            }
            (None, None) => {}
        }
        if let Some(rects) = now {
            if counted {
                self.mark(rects.blocked, rects.touched, true);
            }
            self.tallest = self.tallest.max(rects.touched.y1 - rects.touched.y0);
            self.widest = self.widest.max(rects.touched.x1 - rects.touched.x0);
        }
    }

    /// Clears the counted unit at `index` from the bits, setting again where the other
    /// counted units overlap it.
    fn clear_bits(&mut self, index: usize) {
        let cleared = self.units[index];
        self.mark(cleared.blocked, cleared.touched, false);
        self.set_overlaps(cleared, Some(index));
    }

    /// Removes the entry at `index`, the last entry taking its place.
    fn drop_entry(&mut self, index: usize) {
        let last = self.units.len() - 1;
        let removed = self.units[index].id;
        let position =
            (self.by_id.binary_search(&(removed, index))).expect("every entry is listed by id");
        self.by_id.remove(position);
        if index != last {
            let moved = self.units[last].id;
            let position =
                (self.by_id.binary_search(&(moved, last))).expect("every entry is listed by id");
            self.by_id[position].1 = index;
        }
        self.units.swap_remove(index);
        self.exempt.swap_remove(index);
        // The exempt indices follow: `index` leaves them, `last` becomes `index`.
        self.exempted.retain(|&exempt| exempt != index);
        if let Some(position) = self.exempted.iter().position(|&exempt| exempt == last) {
            self.exempted.remove(position);
            let at = self.exempted.partition_point(|&exempt| exempt < index);
            self.exempted.insert(at, index);
        }
    }
}

/// Replaces one rectangle equal to `old` in `rects` (sorted by `key`) by `new`, keeping the
/// order: only the rectangles between the two places move, few when a unit stepped.
fn replace_sorted(
    rects: &mut [AnchorRect],
    old: AnchorRect,
    new: AnchorRect,
    key: fn(&AnchorRect) -> (usize, usize),
) {
    let first = rects.partition_point(|other| key(other) < key(&old));
    let at = first
        + (rects[first..].iter())
            .position(|&other| other == old)
            .expect("a counted unit's rectangle is in the list");
    let new_key = key(&new);
    // Those before `at` with a larger key move up one place; else those after it with a
    // smaller key move down one.
    let before = rects[..at].partition_point(|other| key(other) <= new_key);
    if before < at {
        rects[before..=at].rotate_right(1);
        rects[before] = new;
    } else {
        let after = at + 1 + rects[at + 1..].partition_point(|other| key(other) < new_key);
        rects[at..after].rotate_left(1);
        rects[after - 1] = new;
    }
}
