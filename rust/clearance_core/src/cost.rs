//! Fixed-point costs.
//!
//! All path costs are integers, so that results are exact, identical on every machine and never
//! depend on the order of floating-point additions.
//!
//! * A cost multiplier `m` is stored as `round(m * MULTIPLIER_SCALE)`: multipliers are exact to
//!   1/1000 (1.5, 0.25 and 0.125 are exact; 0.0625 becomes 0.063).
//! * A straight step has length [`STRAIGHT_STEP`] and a diagonal step [`DIAGONAL_STEP`]; their
//!   ratio 3363/2378 is a convergent of the continued fraction of sqrt 2 and differs from it by
//!   about 4.4e-8 (relative), so a path of 10,000 diagonal steps is off by less than 1e-3.
//! * A step costs `length * multiplier` in these units; [`COST_SCALE`] units make a cost of 1.0
//!   (one straight step at multiplier 1.0).
//!
//! Overflow: a multiplier is at most [`MAX_MULTIPLIER`] and a map has at most
//! [`MAX_CELLS`](crate::MAX_CELLS) anchors, so a path that visits every anchor once costs at most
//! 2^28 * 3363 * 10^7 < 9.1e18 < 2^64 units, and no sum the search forms can overflow `u64`.

/// Fixed-point units per 1.0 of cost multiplier.
pub const MULTIPLIER_SCALE: u32 = 1000;

/// Length of a straight (orthogonal) step, in fixed-point length units.
pub const STRAIGHT_STEP: u64 = 2378;

/// Length of a diagonal step, in fixed-point length units (about `STRAIGHT_STEP * sqrt 2`).
pub const DIAGONAL_STEP: u64 = 3363;

/// Fixed-point cost units per 1.0 of cost: one straight step at multiplier 1.0.
pub const COST_SCALE: u64 = STRAIGHT_STEP * MULTIPLIER_SCALE as u64;

/// Largest cost multiplier a profile accepts.
pub const MAX_MULTIPLIER: f64 = 10_000.0;

/// Converts a fixed-point cost to a floating-point one (1.0 = one straight step at multiplier 1).
///
/// ```
/// use clearance_core::{cost_to_f64, COST_SCALE, DIAGONAL_STEP, MULTIPLIER_SCALE};
///
/// assert_eq!(cost_to_f64(3 * COST_SCALE), 3.0);
/// let diagonal = cost_to_f64(DIAGONAL_STEP * MULTIPLIER_SCALE as u64);
/// assert!((diagonal - std::f64::consts::SQRT_2).abs() < 1e-7);
/// ```
pub fn cost_to_f64(cost: u64) -> f64 {
    cost as f64 / COST_SCALE as f64
}
