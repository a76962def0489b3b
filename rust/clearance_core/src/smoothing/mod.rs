//! Taut waypoints: any-angle smoothing of a grid path, exact for square footprints.
//!
//! A grid path turns only by multiples of 45 degrees. Its *waypoints* are a subsequence of
//! its anchors, start and goal kept, such that the unit may walk in a straight line from each
//! waypoint to the next: the line keeps to the rules the path itself keeps to.
//!
//! # The swept region
//!
//! Cell `(x, y)` is the unit square `[x, x + 1] x [y, y + 1]`; a unit of size `k` at anchor
//! `a` covers the closed square `S(a) = a + [0, k]^2`. Moving in a straight line from anchor
//! `a` to anchor `b`, it covers `S(p(t))` at `p(t) = a + t (b - a)`, `t` in `[0, 1]`. The
//! region it *sweeps* is `W = [a, b] + [0, k]^2`, the convex hull of `S(a)` and `S(b)` (a
//! hexagon, or a rectangle when the move is straight). A cell **counts** as swept when its
//! open interior meets the open interior of `W`; a cell that `W` touches only along an edge or
//! at a corner does not count.
//!
//! **The line test.** Cell `c = (cx, cy)` is swept iff the closed segment `[a, b]` meets the
//! open box `(cx - k, cx + 1) x (cy - k, cy + 1)`.
//!
//! *Proof.* Let `Q = (0, k)^2`, the open square. `C = [a, b] + Q` is open (a union of
//! translates of an open set), convex, contained in `W` and dense in it, so `C = int(W)` (a
//! convex set and its closure have the same interior, and an open set is its own interior).
//! Hence `int(c)` meets `int(W)` iff some `p(t) + Q` meets `int(c) = (cx, cx + 1) x
//! (cy, cy + 1)`. Two open boxes meet iff their open intervals meet on both axes, and
//! `(px, px + k)` meets `(cx, cx + 1)` iff `cx - k < px < cx + 1`; likewise for `y`. So the
//! cell counts iff some `p(t)` lies in the open box above. ∎
//!
//! `sweep.rs` enumerates those cells in integers: column `cx` (for a move at least as long in
//! `x` as in `y`; the other case exchanges the axes) is met exactly for the `t` at which
//! `cx - k < px(t) < cx + 1`, an open interval of `t` whose intersection with `[0, 1]`, when not
//! empty, has positive length; over it `py` runs over an interval with ends `y_lo <= y_hi`
//! (or the single value `ay` when `b - a` is horizontal), and the open interval
//! `(cy - k, cy + 1)` meets it iff `y_lo - 1 < cy < y_hi + k`: the rows `floor(y_lo)` to
//! `ceil(y_hi) + k - 1`. The ends are fractions with denominator `|bx - ax|`, floored and
//! ceiled exactly. A single step sweeps its two footprints and, diagonally, the corner cell of
//! each side anchor's footprint, half of which the square crosses; the corner rule already
//! requires both side anchors to be legal.
//!
//! # The rule a segment keeps
//!
//! Between consecutive waypoints `w_i` and `w_j` (anchors `i < j` of the grid path), every
//! cell the segment sweeps must
//!
//! * be terrain the profile may enter;
//! * have a multiplier no higher than the highest multiplier among the cells the grid path
//!   sweeps from anchor `i` to anchor `j` (each step's swept cells, as above): on weighted
//!   ground a shortcut never crosses dearer terrain than the path it replaces did;
//! * with other units counted ([`OtherUnits`](crate::OtherUnits)): under `Cost(M)` a cell
//!   under a counted unit has multiplier `max(terrain, M)` in the rule above; under `Block` no
//!   swept cell may lie under a counted unit, except cells of the start anchor's footprint
//!   (the search never blocks the start: a unit that overlaps another walks out of it). By the
//!   line test, outside the start's footprint this says that the moving square never overlaps
//!   a counted unit's square with positive area: touching along an edge is allowed.
//!
//! Every single step of a path the search returns keeps this rule (its cells are the
//! footprints it enters, which are legal and, under `Block`, not blocked, and the corner cells
//! of its side anchors, which are legal and not blocked or the start), so a waypoint sequence
//! always exists: the path itself.
//!
//! # Choosing waypoints
//!
//! `taut.rs` first walks greedily. From the current waypoint it looks along the path's
//! *turns* (the anchors where its direction changes, and the last): the first turn is one
//! straight run away and always accepted; the turns beyond are galloped over (1, 2, 4, ...
//! ahead) and bisected to an accepted turn followed by a refused one; the straight run between
//! them is then searched for its last accepted anchor. Every refused segment names a refused
//! cell it sweeps (a *witness*), and the anchors of a straight run whose segment from the
//! waypoint sweeps a given cell are consecutive (the points `p` for which `[a, p]` meets a
//! convex set form a convex set, which meets a line in an interval), so the run is narrowed to
//! the anchor just before the witness's interval, found in closed form from a few linear
//! inequalities (`sweep.rs`, [`first_sweeping_along`](sweep::first_sweeping_along)) or, where
//! those do not settle it, by constant-time tests against the witness; only that anchor is
//! swept in full. Which refused cell a sweep names as the witness never changes which
//! segments are refused, so it only decides how many anchors are swept: `rows/` names the
//! one nearest the waypoint. Then one pass with a stack drops every waypoint whose neighbours
//! see each other: each arriving waypoint pops the stack's top while the one below it sees
//! the arrival. When the pass ends, every three consecutive waypoints were tested at the
//! moment the last of them was pushed, and the segment from the first to the last was
//! refused; none of the three changed afterwards. So **no waypoint can be dropped** without
//! breaking the rule: the result is taut, on uniform and weighted ground alike (the rule
//! compares each pair with the path between them, so it is a fixed test for every pair),
//! whatever the greedy walk chose.
//!
//! A segment is tested row by row from the waypoint's side (`rows/`), stopping at the first
//! row that holds a refused cell, with the multiplier bound of any pair of anchors read in
//! constant time from a sparse table of the steps' largest multipliers (not built on ground
//! where every cell the profile enters costs the same, since there the bound holds for every
//! such cell). Where the bound is at least the profile's highest multiplier, the only rule
//! left is "every swept cell may be entered, and none lies under a unit that refuses it
//! whatever its terrain": a blocking unit outside the start's footprint, or a unit counted by
//! a cost `M` above the bound (such a cell costs `max(terrain, M)`). Each row is then tested
//! against the blocked cells kept as bits beside the profile's clearance layer (and the cells
//! under those units, as bits of the units' view), a word or two per row (or per column, for a
//! steep move) instead of a lookup per cell. Otherwise each row's terrain is read cell by cell
//! against the bound, and the refusing units' cells still as bits.
//!
//! The waypoints' Euclidean length ([`PathResult::waypoint_length`](crate::PathResult)) never
//! exceeds the grid path's ([`PathResult::path_length`](crate::PathResult)): each segment is
//! no longer than the steps it replaces (the triangle inequality). Waypoints depend only on
//! the path, the map and the rules, so equal queries give equal waypoints.
//!
//! ```
//! use clearance_core::{AgentProfile, Cell, PathMap, PathQuery, Region, Smoothing, TerrainGrid};
//!
//! // An open field with a pillar in the middle.
//! let mut grid = TerrainGrid::new(Region::new(0, 0, 12, 7), 0)?;
//! grid.fill_rect(Region::new(5, 2, 2, 3), 1)?;
//! let mut map = PathMap::new(grid);
//! map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
//!
//! let query = PathQuery::new(Cell::new(0, 3), Cell::new(11, 3), 1, "unit");
//! assert!(map.query(&query).waypoints.is_empty()); // smoothing is off by default
//! let smooth = map.query(&query.smoothing(Smoothing::Taut));
//! assert_eq!(smooth.waypoints.first(), Some(&Cell::new(0, 3)));
//! assert_eq!(smooth.waypoints.last(), Some(&Cell::new(11, 3)));
//! // Round one corner of the pillar and the next: two bends, straight lines between.
//! assert_eq!(smooth.waypoints.len(), 4);
//! assert!(smooth.waypoint_length() < smooth.path_length());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod rows;
mod rules;
mod sweep;
mod taut;

pub(crate) use rules::{CellRules, CellUnits, FORBIDDEN};
pub(crate) use taut::{first_greedy_waypoint, taut_waypoints, PathAnchors, WaypointMemory};

use crate::search::UnitsView;

/// Memory a smoothing call works in, kept in a search scratch between queries so that a
/// smoothed query allocates nothing but its result.
#[derive(Debug, Clone, Default)]
pub(crate) struct SmoothingMemory {
    /// The cells under counted units: a view for agent size 1.
    pub unit_cells: UnitsView,
    /// The turns and the waypoints found so far.
    pub waypoints: WaypointMemory,
}

impl SmoothingMemory {
    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.unit_cells.memory_bytes() + self.waypoints.memory_bytes()
    }
}

/// Whether a query's result carries waypoints, and which (see the module docs).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Smoothing {
    /// No waypoints (the default).
    #[default]
    Off,
    /// Taut waypoints: a subsequence of the path's anchors joined by straight segments that
    /// keep the path's rules, none of which can be dropped.
    Taut,
}

impl Smoothing {
    /// Every choice.
    pub const ALL: [Smoothing; 2] = [Smoothing::Off, Smoothing::Taut];

    /// The choice's stable name: `"off"` or `"taut"`.
    ///
    /// ```
    /// use clearance_core::Smoothing;
    /// for choice in Smoothing::ALL {
    ///     assert_eq!(Smoothing::from_name(choice.name()), Some(choice));
    /// }
    /// assert_eq!(Smoothing::from_name("round"), None);
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Smoothing::Off => "off",
            Smoothing::Taut => "taut",
        }
    }

    /// The choice called `name` (see [`name`](Self::name)).
    pub fn from_name(name: &str) -> Option<Smoothing> {
        Smoothing::ALL
            .into_iter()
            .find(|choice| choice.name() == name)
    }
}

/// `count` pseudo-random units of sizes 1 to 3 on a `width x height` map (footprints on it),
/// with the view smoothing builds of them: size 1 and no start, so its blocked anchors are
/// exactly the cells under the units.
#[cfg(test)]
fn random_unit_cells(
    rng: &mut crate::test_rng::TestRng,
    (width, height): (usize, usize),
    count: i64,
) -> (Vec<crate::occupancy::Unit>, UnitsView) {
    use crate::search::{Counted, ViewKey};
    let units: Vec<_> = (0..count)
        .map(|id| crate::occupancy::Unit {
            id,
            anchor: crate::grid::Cell::new(
                rng.below(width as i64 - 2) as i32,
                rng.below(height as i64 - 2) as i32,
            ),
            agent_size: 1 + rng.below(3) as u8,
        })
        .collect();
    let mut view = UnitsView::default();
    let occupancy = crate::occupancy::Occupancy::holding(&units);
    let key = ViewKey {
        units_version: occupancy.version(),
        agent_size: 1,
        shape: (width, height),
        origin: (0, 0),
    };
    view.update(key, &occupancy, Counted::Accepted(&|_| true), usize::MAX);
    (units, view)
}
