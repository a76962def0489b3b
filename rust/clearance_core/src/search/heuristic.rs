//! Consistent lower bounds on the cost to the goal: the distance heuristic, and its maximum
//! with the landmark bounds.

use crate::graph::AnchorGraph;
use crate::landmarks::LandmarkBounds;
use crate::movement::Movement;

/// [`Movement::distance`] (octile or Manhattan) times the profile's smallest multiplier:
/// `max(dx, dy) * straight + min(dx, dy) * diagonal_extra`, with the movement's weights
/// scaled once per query so the hot loop needs no branch on the movement. It is the exact
/// cost on an open map with every multiplier at its minimum, hence admissible and consistent.
pub(super) struct DistanceHeuristic {
    pub(super) goal_x: u64,
    pub(super) goal_y: u64,
    pub(super) straight: u64,
    pub(super) diagonal_extra: u64,
}

/// A consistent lower bound on the cost from an anchor to the goal.
pub(super) trait Heuristic {
    /// The estimate from the anchor stored at `anchor`, at map-local (`x`, `y`).
    fn estimate(&self, anchor: usize, x: u32, y: u32) -> u64;
}

impl Heuristic for DistanceHeuristic {
    #[inline(always)]
    fn estimate(&self, _anchor: usize, x: u32, y: u32) -> u64 {
        self.distance(x, y)
    }
}

/// A heuristic counted in a unit `factor` times finer (other units' costs, `units.rs`): a
/// consistent heuristic times a positive constant stays consistent for costs scaled alike.
pub(super) struct Scaled<'a, H> {
    pub(super) inner: &'a H,
    pub(super) factor: u64,
}

impl<H: Heuristic> Heuristic for Scaled<'_, H> {
    #[inline(always)]
    fn estimate(&self, anchor: usize, x: u32, y: u32) -> u64 {
        self.inner.estimate(anchor, x, y) * self.factor
    }
}

/// The larger of the distance heuristic and the landmark bounds: both are consistent, so
/// their maximum is.
pub(super) struct WithLandmarks<'a> {
    pub(super) distance: DistanceHeuristic,
    pub(super) bounds: LandmarkBounds<'a>,
}

impl Heuristic for WithLandmarks<'_> {
    #[inline(always)]
    fn estimate(&self, anchor: usize, x: u32, y: u32) -> u64 {
        self.distance
            .distance(x, y)
            .max(self.bounds.estimate(anchor))
    }
}

/// The distance heuristic to the nearest anchor of a rectangle, columns `x0..=x1` and rows
/// `y0..=y1`: the largest lower bound the distance gives on the cost to any target inside it.
/// The distance is a metric, so the distance to a set changes by at most the distance of one
/// step, itself at most the step's cost: consistent, like the distance to one goal. The
/// nearest anchor of the rectangle is the anchor clamped into it, since the distance grows
/// with each coordinate difference on its own.
pub(super) struct TowardsBox {
    pub(super) x0: u64,
    pub(super) y0: u64,
    pub(super) x1: u64,
    pub(super) y1: u64,
    pub(super) straight: u64,
    pub(super) diagonal_extra: u64,
}

impl TowardsBox {
    /// The rectangle around the anchors `targets` (storage indices, at least one) on a map
    /// `width` wide, for `graph` and `movement`.
    pub(super) fn around(
        graph: &AnchorGraph,
        movement: Movement,
        width: usize,
        targets: impl Iterator<Item = usize>,
    ) -> Self {
        let one = DistanceHeuristic::new(graph, movement, width, 0);
        let mut bounds = (u64::MAX, u64::MAX, 0, 0);
        for target in targets {
            let (x, y) = ((target % width) as u64, (target / width) as u64);
            bounds = (
                bounds.0.min(x),
                bounds.1.min(y),
                bounds.2.max(x),
                bounds.3.max(y),
            );
        }
        TowardsBox {
            x0: bounds.0,
            y0: bounds.1,
            x1: bounds.2,
            y1: bounds.3,
            straight: one.straight,
            diagonal_extra: one.diagonal_extra,
        }
    }
}

impl Heuristic for TowardsBox {
    #[inline(always)]
    fn estimate(&self, _anchor: usize, x: u32, y: u32) -> u64 {
        let (x, y) = (u64::from(x), u64::from(y));
        let dx = self.x0.saturating_sub(x) + x.saturating_sub(self.x1);
        let dy = self.y0.saturating_sub(y) + y.saturating_sub(self.y1);
        dx.max(dy) * self.straight + dx.min(dy) * self.diagonal_extra
    }
}

impl DistanceHeuristic {
    pub(super) fn new(graph: &AnchorGraph, movement: Movement, width: usize, goal: usize) -> Self {
        let min = u64::from(graph.min_multiplier);
        let (straight, diagonal_extra) = movement.distance_weights();
        DistanceHeuristic {
            goal_x: (goal % width) as u64,
            goal_y: (goal / width) as u64,
            straight: straight * min,
            diagonal_extra: diagonal_extra * min,
        }
    }

    /// The estimate from the anchor at map-local (`x`, `y`).
    #[inline(always)]
    pub(super) fn distance(&self, x: u32, y: u32) -> u64 {
        let dx = u64::from(x).abs_diff(self.goal_x);
        let dy = u64::from(y).abs_diff(self.goal_y);
        dx.max(dy) * self.straight + dx.min(dy) * self.diagonal_extra
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{DIRECTIONS, STEP_LENGTHS};

    #[test]
    fn the_box_estimate_is_zero_inside_and_consistent_outside() {
        for (movement, directions) in [(Movement::EightWay, 8), (Movement::FourWay, 4)] {
            let (straight, diagonal_extra) = movement.distance_weights();
            let towards = TowardsBox {
                x0: 5,
                y0: 7,
                x1: 9,
                y1: 8,
                straight,
                diagonal_extra,
            };
            for y in 0..20u32 {
                for x in 0..20u32 {
                    let here = towards.estimate(0, x, y);
                    let inside = (5..=9).contains(&x) && (7..=8).contains(&y);
                    assert_eq!(here == 0, inside, "({x}, {y})");
                    for (direction, step) in DIRECTIONS.iter().enumerate().take(directions) {
                        let (Some(nx), Some(ny)) =
                            (x.checked_add_signed(step.dx), y.checked_add_signed(step.dy))
                        else {
                            continue;
                        };
                        let there = towards.estimate(0, nx, ny);
                        assert!(
                            here <= STEP_LENGTHS[direction] + there,
                            "({x}, {y}) {step:?}"
                        );
                    }
                }
            }
        }
    }
}
