//! An independent checker of taut waypoints: every segment between consecutive waypoints
//! sweeps only cells the rules allow, no waypoint can be dropped, the waypoints are a
//! subsequence of the path from start to goal, and their length never exceeds the path's.
//!
//! It shares no clearance, occupancy, search or smoothing code with the engine. A segment's
//! swept region `W` is the convex hull of the two footprints `S(a)` and `S(b)`; a cell counts
//! when its open interior meets `W`'s. The checker decides that with the separating axis
//! theorem in integers: two convex polygons have disjoint interiors iff their projections on
//! the normal of some edge of either overlap in at most one point (`0` lies outside or on the
//! boundary of the Minkowski difference, whose edges are parallel to theirs). `W`'s edges are
//! parallel to the axes or to `b - a`, and the cell's to the axes, so three axes decide, with
//! `W` projected through its eight corner points. Every cell of the two footprints' bounding
//! box is tested. The multiplier bound of a segment is the largest multiplier among the cells
//! each step of the path between its ends sweeps (the same test, step by step); a cell under a
//! counted unit (read from the caller's own record of the units, coordinate by coordinate) has
//! multiplier `max(m, M)` under the cost rule, and may not be swept under the block rule
//! unless it lies in the start's footprint.
//!
//! It also lists the cells a single straight move may not sweep, for
//! `PathMap::straight_move_blocker`. Used by `tests/smoothing.rs`, `tests/range.rs` and the
//! fuzz targets.

use crate::units::Standing;
use clearance_core::{AgentProfile, Cell, OtherUnits, TerrainGrid};

/// The rules one smoothed query's segments are held to, evaluated on the raw terrain.
pub struct WaypointChecker<'a> {
    /// The map's terrain.
    pub grid: &'a TerrainGrid,
    /// The query's profile.
    pub profile: &'a AgentProfile,
    /// The query's agent size.
    pub size: i64,
    /// The units that count, and how: `None` for the ignore rule.
    pub units: Option<(Vec<Standing>, OtherUnits)>,
    /// The path's first anchor.
    pub start: Cell,
}

/// The swept region of one straight move, ready to test cells against (see the module docs).
struct Hull {
    /// The axes that decide: x, y, and the normal of the move when it is neither.
    axes: Vec<(i64, i64)>,
    /// The hull's projection on each axis, lowest and highest.
    spans: Vec<(i64, i64)>,
}

/// The four corners of the square of `side` at `(x, y)`.
fn corners(x: i64, y: i64, side: i64) -> [(i64, i64); 4] {
    [(x, y), (x + side, y), (x, y + side), (x + side, y + side)]
}

/// A projection's lowest and highest value on axis `(nx, ny)`.
fn project(points: &[(i64, i64)], (nx, ny): (i64, i64)) -> (i64, i64) {
    let values = points.iter().map(|&(x, y)| x * nx + y * ny);
    (values.clone().min().unwrap(), values.max().unwrap())
}

impl Hull {
    /// The hull of the `size` squares at `a` and `b`.
    fn new(a: Cell, b: Cell, size: i64) -> Self {
        let (ax, ay, bx, by) = (
            i64::from(a.x),
            i64::from(a.y),
            i64::from(b.x),
            i64::from(b.y),
        );
        let points: Vec<(i64, i64)> = corners(ax, ay, size)
            .into_iter()
            .chain(corners(bx, by, size))
            .collect();
        let mut axes = vec![(1, 0), (0, 1)];
        let (dx, dy) = (bx - ax, by - ay);
        if dx != 0 && dy != 0 {
            axes.push((-dy, dx));
        }
        let spans = axes.iter().map(|&axis| project(&points, axis)).collect();
        Hull { axes, spans }
    }

    /// Whether the open interiors of the hull and of `cell` meet: on no axis do their
    /// projections overlap in at most a point.
    fn meets(&self, cell: Cell) -> bool {
        let square = corners(i64::from(cell.x), i64::from(cell.y), 1);
        self.axes
            .iter()
            .zip(&self.spans)
            .all(|(&axis, &(low, high))| {
                let (cell_low, cell_high) = project(&square, axis);
                high > cell_low && cell_high > low
            })
    }
}

/// The cells a `size` square sweeps from `a` to `b`: every cell of the footprints' bounding
/// box whose interior meets the hull's.
pub fn swept(a: Cell, b: Cell, size: i64) -> Vec<Cell> {
    let hull = Hull::new(a, b, size);
    let (low_x, high_x) = (i64::from(a.x.min(b.x)), i64::from(a.x.max(b.x)) + size);
    let (low_y, high_y) = (i64::from(a.y.min(b.y)), i64::from(a.y.max(b.y)) + size);
    let mut cells = Vec::new();
    for y in low_y..high_y {
        for x in low_x..high_x {
            // Past the coordinate range no cell exists, so none can be swept.
            let (Ok(x), Ok(y)) = (i32::try_from(x), i32::try_from(y)) else {
                continue;
            };
            let cell = Cell::new(x, y);
            if hull.meets(cell) {
                cells.push(cell);
            }
        }
    }
    cells
}

impl WaypointChecker<'_> {
    /// The multiplier of `cell` under the rules, `None` if no segment may sweep it.
    fn multiplier(&self, cell: Cell) -> Option<u64> {
        let terrain = self.grid.terrain(cell)?;
        let own = u64::from(self.profile.fixed_multiplier(terrain)?);
        let Some((units, rule)) = &self.units else {
            return Some(own);
        };
        if !units.iter().any(|unit| unit.covers(cell)) {
            return Some(own);
        }
        match rule {
            OtherUnits::Cost(extra) => Some(own.max(u64::from(*extra))),
            _ => {
                let side = self.size as i32;
                let (sx, sy) = (self.start.x, self.start.y);
                let in_start =
                    (sx..sx + side).contains(&cell.x) && (sy..sy + side).contains(&cell.y);
                in_start.then_some(own)
            }
        }
    }

    /// The largest multiplier among the cells the path's steps sweep from anchor `from` to
    /// anchor `to`.
    fn bound(&self, path: &[Cell], from: usize, to: usize) -> u64 {
        (from..to)
            .flat_map(|step| swept(path[step], path[step + 1], self.size))
            .map(|cell| {
                self.multiplier(cell)
                    .unwrap_or_else(|| panic!("the path's step sweeps the forbidden {cell}"))
            })
            .max()
            .unwrap_or(0)
    }

    /// The cells a straight move from the start to `to` sweeps that the rules refuse whatever
    /// the bound: terrain the profile may not enter, and under the block rule cells under a
    /// counted unit outside the start's footprint.
    pub fn refused_on_move(&self, to: Cell) -> Vec<Cell> {
        (swept(self.start, to, self.size).into_iter())
            .filter(|&cell| self.multiplier(cell).is_none())
            .collect()
    }

    /// Whether the straight segment from `path[from]` to `path[to]` keeps the rules.
    pub fn allows(&self, path: &[Cell], from: usize, to: usize) -> bool {
        let bound = self.bound(path, from, to);
        swept(path[from], path[to], self.size)
            .into_iter()
            .all(|cell| self.multiplier(cell).is_some_and(|m| m <= bound))
    }

    /// Checks `waypoints` of `path`: a subsequence from the first anchor to the last, every
    /// segment allowed, none droppable, no longer than the path. Returns the waypoints' count.
    pub fn check(&self, path: &[Cell], waypoints: &[Cell], context: &str) -> usize {
        assert!(!path.is_empty(), "{context}: no path");
        assert_eq!(waypoints.first(), path.first(), "{context}: first waypoint");
        assert_eq!(waypoints.last(), path.last(), "{context}: last waypoint");
        let mut at = Vec::new();
        let mut next = 0;
        for waypoint in waypoints {
            let found = (next..path.len()).find(|&i| path[i] == *waypoint);
            let index = found
                .unwrap_or_else(|| panic!("{context}: {waypoint} is not on the path in order"));
            at.push(index);
            next = index + 1;
        }
        assert_eq!(
            at.last(),
            Some(&(path.len() - 1)),
            "{context}: waypoints past the goal"
        );
        for pair in at.windows(2) {
            assert!(
                self.allows(path, pair[0], pair[1]),
                "{context}: segment {} to {} breaks the rules",
                path[pair[0]],
                path[pair[1]]
            );
        }
        for triple in at.windows(3) {
            assert!(
                !self.allows(path, triple[0], triple[2]),
                "{context}: waypoint {} can be dropped",
                path[triple[1]]
            );
        }
        let length = |anchors: &[Cell]| -> f64 {
            anchors
                .windows(2)
                .map(|pair| {
                    f64::from(pair[1].x - pair[0].x).hypot(f64::from(pair[1].y - pair[0].y))
                })
                .sum()
        };
        assert!(
            length(waypoints) <= length(path) + 1e-9,
            "{context}: longer than the path"
        );
        waypoints.len()
    }
}
