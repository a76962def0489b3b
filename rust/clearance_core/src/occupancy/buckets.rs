//! Where the units stand, by squares of cells: finding the units over a small rectangle reads
//! the units near it instead of every unit on the map.
//!
//! The map is cut into squares of 16 x 16 cells ([`SIDE_SHIFT`]), and each unit is listed in the
//! square that holds its anchor. A unit of size `s` anchored at `(x, y)` covers columns `x` to
//! `x + s - 1`, so it overlaps columns `a` to `b` exactly when `a - s < x <= b`: its anchor
//! lies at most `s - 1` columns left of the rectangle (and likewise above it). With `L` the
//! largest size registered, every unit that overlaps the rectangle is anchored in the
//! rectangle grown by `L - 1` cells to the left and upwards, so reading the squares that
//! rectangle meets finds all of them (and some that do not overlap, which the caller's exact
//! test drops).

use super::Unit;
use crate::grid::{Cell, Region};
use std::collections::{BTreeMap, HashMap};

/// A square's side is `2^SIDE_SHIFT` cells (16), so a cell's square is a shift away.
const SIDE_SHIFT: u32 = 4;

/// How many units a pass over the list tests in about the time it takes to look up one square.
const UNIT_TESTS_PER_LOOKUP: i64 = 16;

/// No position: the end of a square's chain.
const NONE: u32 = u32::MAX;

/// The units of an occupancy by the square their anchor lies in, as positions in the
/// occupancy's list of units: each square that holds any names its first unit, and each unit
/// the previous and next one in its square. Everything is plain numbers, so a copy of the
/// occupancy (which an edit makes while a request still holds the map) copies blocks of memory
/// rather than a list per square.
#[derive(Debug, Clone, Default)]
pub(crate) struct UnitBuckets {
    /// The position of the first unit anchored in each square that holds any.
    first: HashMap<(i32, i32), u32>,
    /// Per position in the occupancy's list: the unit's neighbours in its square's chain.
    links: Vec<Link>,
    /// How many units of each size are listed: the largest decides how far from a rectangle
    /// an overlapping unit's anchor can lie.
    sizes: BTreeMap<u8, u32>,
}

/// A unit's neighbours in its square's chain, or [`NONE`].
#[derive(Debug, Clone, Copy)]
struct Link {
    previous: u32,
    next: u32,
}

impl UnitBuckets {
    /// The square that holds `cell` (shifts round towards minus infinity, as squares do).
    fn square_of(cell: Cell) -> (i32, i32) {
        (cell.x >> SIDE_SHIFT, cell.y >> SIDE_SHIFT)
    }

    /// Lists `unit`, kept at the next position of the occupancy's list.
    pub(crate) fn push(&mut self, unit: &Unit) {
        let slot = self.links.len() as u32;
        self.links.push(Link {
            previous: NONE,
            next: NONE,
        });
        self.link(slot, Self::square_of(unit.anchor));
        *self.sizes.entry(unit.agent_size).or_default() += 1;
    }

    /// Takes out `unit`, kept at position `slot`, as the occupancy's list does: by moving its
    /// last unit, anchored at `last_anchor`, into the gap.
    pub(crate) fn swap_remove(&mut self, unit: &Unit, slot: usize, last_anchor: Cell) {
        self.unlink(slot as u32, Self::square_of(unit.anchor));
        if let Some(count) = self.sizes.get_mut(&unit.agent_size) {
            *count -= 1;
            if *count == 0 {
                self.sizes.remove(&unit.agent_size);
            }
        }
        let last = self.links.len() - 1;
        if slot != last {
            let square = Self::square_of(last_anchor);
            self.unlink(last as u32, square);
            self.link(slot as u32, square);
        }
        self.links.pop();
    }

    /// Records that the unit at position `slot` moved from anchor `from` to anchor `to`.
    pub(crate) fn moved(&mut self, slot: usize, from: Cell, to: Cell) {
        let (old, new) = (Self::square_of(from), Self::square_of(to));
        if old != new {
            self.unlink(slot as u32, old);
            self.link(slot as u32, new);
        }
    }

    /// Puts position `slot` first in the chain of `square`.
    fn link(&mut self, slot: u32, square: (i32, i32)) {
        let next = self.first.insert(square, slot).unwrap_or(NONE);
        self.links[slot as usize] = Link {
            previous: NONE,
            next,
        };
        if next != NONE {
            self.links[next as usize].previous = slot;
        }
    }

    /// Takes position `slot` out of the chain of `square`.
    fn unlink(&mut self, slot: u32, square: (i32, i32)) {
        let Link { previous, next } = self.links[slot as usize];
        if previous != NONE {
            self.links[previous as usize].next = next;
        } else if next != NONE {
            self.first.insert(square, next);
        } else {
            self.first.remove(&square);
        }
        if next != NONE {
            self.links[next as usize].previous = previous;
        }
    }

    /// The positions, in increasing order, of every unit that may overlap `region` (all that
    /// do, and some that do not); `None` where a pass over all `unit_count` units would cost
    /// about as little as looking up the squares.
    pub(crate) fn near(&self, region: Region, unit_count: usize) -> Option<Vec<usize>> {
        let Some(&largest) = self.sizes.keys().next_back() else {
            return Some(Vec::new());
        };
        if region.width < 1 || region.height < 1 {
            return Some(Vec::new());
        }
        // The squares the anchors of overlapping units lie in (see the module docs).
        let reach = i64::from(largest) - 1;
        let squares = |first: i32, count: i32| {
            let low = (i64::from(first) - reach) >> SIDE_SHIFT;
            let high = (i64::from(first) + i64::from(count) - 1) >> SIDE_SHIFT;
            (low, high)
        };
        let (left, right) = squares(region.x, region.width);
        let (top, bottom) = squares(region.y, region.height);
        let lookups = (right - left + 1).saturating_mul(bottom - top + 1);
        if lookups.saturating_mul(UNIT_TESTS_PER_LOOKUP) > unit_count as i64 {
            return None;
        }
        let mut near = Vec::new();
        for y in top..=bottom {
            for x in left..=right {
                // From an `i32` shifted by 4 and moved by at most 254: always an `i32`.
                let mut slot = self
                    .first
                    .get(&(x as i32, y as i32))
                    .copied()
                    .unwrap_or(NONE);
                while slot != NONE {
                    near.push(slot as usize);
                    slot = self.links[slot as usize].next;
                }
            }
        }
        near.sort_unstable();
        Some(near)
    }
}
