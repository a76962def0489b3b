//! Where a partial path ends: the reachable anchor nearest the goal.

use super::PathMap;
use crate::cost::STRAIGHT_STEP;
use crate::graph::AnchorGraph;

impl PathMap {
    /// The anchor in `start`'s region nearest to `goal` as the crow flies in the movement's
    /// metric (octile or Manhattan, in step lengths), lowest `y` then `x` among equals.
    /// Searches square rings around the goal outwards, and stops once no farther ring can hold
    /// a nearer anchor.
    pub(super) fn closest_reachable_anchor(
        &self,
        graph: &AnchorGraph,
        start: usize,
        goal: usize,
    ) -> usize {
        let (width, height) = (self.grid.width() as i64, self.grid.height() as i64);
        let (goal_x, goal_y) = (goal as i64 % width, goal as i64 / width);
        let region = graph.regions.region_of(start);
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
                let on_edge_row = (y - goal_y).abs() == ring;
                let columns: Vec<i64> = if on_edge_row {
                    ((goal_x - ring).max(0)..=(goal_x + ring).min(width - 1)).collect()
                } else {
                    [goal_x - ring, goal_x + ring]
                        .into_iter()
                        .filter(|&x| x >= 0 && x < width)
                        .collect()
                };
                for x in columns {
                    let index = (y * width + x) as usize;
                    if graph.regions.region_of(index) != region {
                        continue;
                    }
                    let candidate = (distance(x, y), index);
                    if best.is_none_or(|held| candidate < held) {
                        best = Some(candidate);
                    }
                }
            }
        }
        best.map_or(start, |(_, index)| index)
    }
}
