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

/// Units a linear pass tests in about the time one square is looked up.
const UNITS_PER_SQUARE: i64 = 16;

/// The units of an occupancy by the square their anchor lies in, as positions in the
/// occupancy's list of units.
#[derive(Debug, Clone, Default)]
pub(crate) struct UnitBuckets {
    /// The positions of the units anchored in each square that holds any.
    squares: HashMap<(i32, i32), Vec<u32>>,
    /// How many units of each size are listed: the largest decides how far from a rectangle
    /// an overlapping unit's anchor can lie.
    sizes: BTreeMap<u8, u32>,
}

impl UnitBuckets {
    /// The square that holds `cell` (shifts round towards minus infinity, as squares do).
    fn square_of(cell: Cell) -> (i32, i32) {
        (cell.x >> SIDE_SHIFT, cell.y >> SIDE_SHIFT)
    }

    /// Lists `unit`, kept at position `slot`.
    pub(crate) fn insert(&mut self, unit: &Unit, slot: usize) {
        let square = Self::square_of(unit.anchor);
        self.squares.entry(square).or_default().push(slot as u32);
        *self.sizes.entry(unit.agent_size).or_default() += 1;
    }

    /// Takes out `unit`, kept at position `slot`.
    pub(crate) fn remove(&mut self, unit: &Unit, slot: usize) {
        self.unlist(unit.anchor, slot);
        if let Some(count) = self.sizes.get_mut(&unit.agent_size) {
            *count -= 1;
            if *count == 0 {
                self.sizes.remove(&unit.agent_size);
            }
        }
    }

    /// Records that the unit at position `from`, anchored at `anchor`, is now kept at `to`.
    pub(crate) fn renumber(&mut self, anchor: Cell, from: usize, to: usize) {
        let listed = self.squares.get_mut(&Self::square_of(anchor));
        if let Some(slot) = listed.and_then(|slots| slots.iter_mut().find(|s| **s == from as u32)) {
            *slot = to as u32;
        }
    }

    /// Records that the unit at position `slot` moved from anchor `from` to anchor `to`.
    pub(crate) fn moved(&mut self, slot: usize, from: Cell, to: Cell) {
        let square = Self::square_of(to);
        if Self::square_of(from) != square {
            self.unlist(from, slot);
            self.squares.entry(square).or_default().push(slot as u32);
        }
    }

    /// Takes position `slot` out of the square of `anchor`.
    fn unlist(&mut self, anchor: Cell, slot: usize) {
        let square = Self::square_of(anchor);
        if let Some(slots) = self.squares.get_mut(&square) {
            if let Some(at) = slots.iter().position(|&s| s == slot as u32) {
                slots.swap_remove(at);
            }
            if slots.is_empty() {
                self.squares.remove(&square);
            }
        }
    }

    /// The positions, in increasing order, of every unit that may overlap `region` (all that
    /// do, and some that do not); `None` where reading all `units` units would cost about as
    /// little as looking up the squares (a look-up costs about what testing
    /// [`UNITS_PER_SQUARE`] units does).
    pub(crate) fn near(&self, region: Region, units: usize) -> Option<Vec<usize>> {
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
        let read = (right - left + 1).saturating_mul(bottom - top + 1);
        if read.saturating_mul(UNITS_PER_SQUARE) > units as i64 {
            return None;
        }
        let mut near = Vec::new();
        for y in top..=bottom {
            for x in left..=right {
                // Squares past the `i32` range hold no anchor.
                let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
                    continue;
                };
                if let Some(slots) = self.squares.get(&(x, y)) {
                    near.extend(slots.iter().map(|&slot| slot as usize));
                }
            }
        }
        near.sort_unstable();
        Some(near)
    }
}
