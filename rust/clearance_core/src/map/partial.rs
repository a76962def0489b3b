//! Where a partial path ends: the reachable anchor nearest the goal.

use super::PathMap;
use crate::cost::STRAIGHT_STEP;
use crate::graph::AnchorGraph;
use crate::movement::direction_offsets;
use crate::search::UnitsView;

impl PathMap {
    /// The anchor in `start`'s region nearest to `goal` as the crow flies in the movement's
    /// metric (octile or Manhattan, in step lengths), lowest `y` then `x` among equals.
    pub(super) fn closest_reachable_anchor(
        &self,
        graph: &AnchorGraph,
        start: usize,
        goal: usize,
    ) -> usize {
        let region = graph.regions.region_of(start);
        self.nearest_anchor(goal, |index| graph.regions.region_of(index) == region)
            .unwrap_or(start)
    }

    /// The anchor nearest to `goal` for which `accept` holds, in the movement's metric, lowest
    /// `y` then `x` among equals. Searches square rings around the goal outwards, and stops
    /// once no farther ring can hold a nearer anchor.
    pub(super) fn nearest_anchor(
        &self,
        goal: usize,
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let (width, height) = (self.grid.width() as i64, self.grid.height() as i64);
        let (goal_x, goal_y) = (goal as i64 % width, goal as i64 / width);
        let distance = |x: i64, y: i64| -> u64 {
            self.movement
                .distance((x - goal_x).unsigned_abs(), (y - goal_y).unsigned_abs())
        };
        let mut best: Option<(u64, usize)> = None;
        for ring in 0..width.max(height) {
            // Every anchor on ring `r` is at least `r` straight steps from the goal.
            if best.is_some_and(|(d, _)| d < ring as u64 * STRAIGHT_STEP) {
                break;
            }
            let rows = (goal_y - ring).max(0)..=(goal_y + ring).min(height - 1);
            for y in rows {
                // A row on the ring's edge is walked whole; any other meets the ring at its
                // two ends only.
                let on_edge_row = (y - goal_y).abs() == ring;
                let stride = if on_edge_row { 1 } else { 2 * ring as usize };
                let columns = ((goal_x - ring)..=(goal_x + ring))
                    .step_by(stride)
                    .filter(|&x| x >= 0 && x < width);
                for x in columns {
                    let index = (y * width + x) as usize;
                    if !accept(index) {
                        continue;
                    }
                    let candidate = (distance(x, y), index);
                    if best.is_none_or(|held| candidate < held) {
                        best = Some(candidate);
                    }
                }
            }
        }
        best.map(|(_, index)| index)
    }

    /// The first guess at where a partial path ends when other units block: the anchor
    /// nearest to `goal` (same metric and ties as
    /// [`closest_reachable_anchor`](Self::closest_reachable_anchor)) among those in `start`'s
    /// region that no unit blocks, `start` included.
    ///
    /// Every anchor `start` reaches with the units' anchors removed is one of these (no move
    /// enters a blocked anchor), so the guess is at least as near as
    /// [`closest_unblocked_anchor`](Self::closest_unblocked_anchor)'s answer, and is that
    /// answer whenever a search from `start` reaches it. Where a unit stands on the goal with
    /// free ground round it, that search is an ordinary one; the whole region is walked only
    /// when it fails. Queries with an expansion limit walk first instead, so that a search
    /// towards a guess cut off spends none of the limit.
    pub(super) fn unblocked_anchor_guess(
        &self,
        graph: &AnchorGraph,
        units: &UnitsView,
        start: usize,
        goal: usize,
    ) -> usize {
        let region = graph.regions.region_of(start);
        self.nearest_anchor(goal, |index| {
            index == start || (graph.regions.region_of(index) == region && !units.is_blocked(index))
        })
        .unwrap_or(start)
    }

    /// [`closest_reachable_anchor`](Self::closest_reachable_anchor) where other units block:
    /// the anchor nearest to `goal` (same metric and ties) among those `start` reaches with
    /// the anchors in `units` removed. A flood fill over them, since units may cut a terrain
    /// region in parts that region labels do not know.
    pub(super) fn closest_unblocked_anchor(
        &self,
        graph: &AnchorGraph,
        units: &UnitsView,
        start: usize,
        goal: usize,
    ) -> usize {
        let width = self.grid.width();
        let (goal_x, goal_y) = (goal % width, goal / width);
        let offsets = direction_offsets(width);
        let distance = |anchor: usize| {
            let (x, y) = (anchor % width, anchor / width);
            self.movement
                .distance(x.abs_diff(goal_x) as u64, y.abs_diff(goal_y) as u64)
        };
        let mut seen = vec![0u64; graph.moves.len().div_ceil(64)];
        seen[start / 64] |= 1 << (start % 64);
        let mut pending = vec![start];
        let mut best = (distance(start), start);
        while let Some(anchor) = pending.pop() {
            best = best.min((distance(anchor), anchor));
            let mut mask = units.unblocked_mask(anchor, graph.moves[anchor]);
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = anchor.wrapping_add_signed(offsets[direction]);
                if seen[next / 64] >> (next % 64) & 1 == 0 {
                    seen[next / 64] |= 1 << (next % 64);
                    pending.push(next);
                }
            }
        }
        best.1
    }
}
