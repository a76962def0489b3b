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
