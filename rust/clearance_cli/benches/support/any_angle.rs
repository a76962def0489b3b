//! The true any-angle optimum for a square agent on a Moving AI map, by a visibility graph: a
//! yardstick for taut waypoints that shares no code with the engine (it reads the map file
//! itself and tests segments its own way).
//!
//! **The model.** The agent's `k x k` square stands with its top-left corner at a point `p`
//! and covers the open square `(p.x, p.x + k) x (p.y, p.y + k)`. Moving in a straight line
//! from `p` to `q`, it meets the interior of cell `(cx, cy)` iff some point of the segment
//! lies in the open box `(cx - k, cx + 1) x (cy - k, cy + 1)`: the rule the issue states (a
//! cell counts when its interior meets the interior of the sweep; touching does not count).
//! On uniform ground a move is legal iff it meets no blocked cell; both ends' footprints on
//! the map keep the whole sweep on it (the map is convex).
//!
//! **The vertices.** The free space is the plane minus a union of open boxes with integer
//! corners: a closed set whose boundary runs along integer lines, so a shortest path is a
//! polyline that bends only at integer points of that boundary. Such a point is free (its
//! footprint holds no blocked cell) and has some of the four quadrants around it blocked, but
//! not exactly two neighbouring ones (a straight edge, where no shortest path bends). Boxes
//! may touch, leaving corridors of width zero that a square slides along touching walls on
//! both sides, so points with three or four blocked quadrants count too. The quadrant below
//! and to the right of `v` is blocked iff a blocked cell lies in the `(k + 1) x (k + 1)` cells
//! from `v`, and likewise for the others; points where the footprint would leave the map count
//! as blocked. The optimum is a shortest path over the graph of those vertices, the start and
//! the goal, joined where the straight move between them is legal.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::path::Path;

/// A Moving AI map's blocked cells (any but `.`, `G` and `S`), as counts for rectangle
/// queries.
pub struct BlockedMap {
    width: i64,
    height: i64,
    /// `below[x][y]`: blocked cells in column `x` above row `y` (rows `0..y`).
    below: Vec<Vec<u32>>,
    /// `left[y][x]`: blocked cells in row `y` left of column `x`.
    left: Vec<Vec<u32>>,
    /// `area[y][x]`: blocked cells in rows `0..y`, columns `0..x`.
    area: Vec<Vec<u32>>,
}

impl BlockedMap {
    /// Reads a Moving AI `.map` file (`type octile`, `height`, `width`, `map`, then rows).
    pub fn read(path: &Path) -> Self {
        let text = std::fs::read_to_string(path).expect("the map file reads");
        let mut lines = text.lines();
        let mut size = (0, 0);
        for line in lines.by_ref() {
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("height"), Some(value)) => size.1 = value.parse().expect("a height"),
                (Some("width"), Some(value)) => size.0 = value.parse().expect("a width"),
                (Some("map"), None) => break,
                _ => {}
            }
        }
        let (width, height) = size;
        let blocked: Vec<Vec<bool>> = lines
            .take(height)
            .map(|row| {
                let row: Vec<bool> = row
                    .bytes()
                    .map(|c| !matches!(c, b'.' | b'G' | b'S'))
                    .collect();
                assert_eq!(row.len(), width, "a row of the map is {width} cells");
                row
            })
            .collect();
        assert_eq!(blocked.len(), height, "the map has {height} rows");
        let mut below = vec![vec![0u32; height + 1]; width];
        let mut left = vec![vec![0u32; width + 1]; height];
        let mut area = vec![vec![0u32; width + 1]; height + 1];
        for y in 0..height {
            for x in 0..width {
                let one = u32::from(blocked[y][x]);
                below[x][y + 1] = below[x][y] + one;
                left[y][x + 1] = left[y][x] + one;
                area[y + 1][x + 1] = area[y][x + 1] + area[y + 1][x] - area[y][x] + one;
            }
        }
        BlockedMap {
            width: width as i64,
            height: height as i64,
            below,
            left,
            area,
        }
    }

    /// Whether any cell of `x0..=x1` by `y0..=y1` is blocked; cells off the map count as
    /// blocked.
    fn any_blocked(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> bool {
        if x0 < 0 || y0 < 0 || x1 >= self.width || y1 >= self.height {
            return true;
        }
        let (x0, y0, x1, y1) = (x0 as usize, y0 as usize, x1 as usize + 1, y1 as usize + 1);
        self.area[y1][x1] + self.area[y0][x0] > self.area[y0][x1] + self.area[y1][x0]
    }

    /// Whether cells `first..=last` of column `x` (or, `transposed`, of row `x`) hold a
    /// blocked one; rows off the map count as blocked.
    fn line_blocked(&self, transposed: bool, x: i64, first: i64, last: i64) -> bool {
        let (counts, length) = if transposed {
            (&self.left[x as usize], self.width)
        } else {
            (&self.below[x as usize], self.height)
        };
        if first < 0 || last >= length {
            return true;
        }
        counts[last as usize + 1] > counts[first as usize]
    }

    /// Whether a `size x size` square with its top-left corner at `(x, y)` stands on free
    /// cells of the map.
    pub fn fits(&self, size: i64, (x, y): (i64, i64)) -> bool {
        !self.any_blocked(x, y, x + size - 1, y + size - 1)
    }

    /// Whether the straight move of a `size x size` square from `p` to `q` meets no blocked
    /// cell (see the module docs), both ends fitting.
    ///
    /// Walked across the axis the move changes less, one line of cells at a time: for a move
    /// with `|dx| >= |dy|` row by row (the walk below with the axes exchanged), else column by
    /// column. Write the move as
    /// `p + t d`, `d = q - p`, `t` in `[0, 1]`, with `d.x >= 0` (exchanging the ends sweeps the
    /// same region). Column `cx` is met for the open set of `t` with `cx - k < p.x + t d.x <
    /// cx + 1`; over it (when it is an interval of positive length) `y` runs over an interval
    /// whose ends are `p.y + t d.y` at its ends, and cell `cy` of the column is met iff the
    /// open `(cy - k, cy + 1)` meets that interval's closure: `floor(y_low) <= cy <=
    /// ceil(y_high) + k - 1` (for `d.y = 0`, the point `p.y`: `cy` in `p.y..p.y + k`). For
    /// `d.x = 0` the move runs along its `k` lines, from the lower end to the higher one.
    pub fn move_is_clear(&self, size: i64, p: (i64, i64), q: (i64, i64)) -> bool {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        if dy.abs() <= dx.abs() {
            let exchange = |(x, y): (i64, i64)| (y, x);
            return self.clear_by_lines(true, size, exchange(p), exchange(q));
        }
        self.clear_by_lines(false, size, p, q)
    }

    /// The walk of [`move_is_clear`](Self::move_is_clear) by lines `x` (columns, or rows when
    /// `transposed`, with the coordinates already exchanged).
    fn clear_by_lines(&self, transposed: bool, k: i64, p: (i64, i64), q: (i64, i64)) -> bool {
        let (p, q) = if q.0 < p.0 { (q, p) } else { (p, q) };
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        if dx == 0 {
            let (low, high) = (p.1.min(q.1), p.1.max(q.1));
            return (p.0..p.0 + k).all(|x| !self.line_blocked(transposed, x, low, high + k - 1));
        }
        // The sweep spans lines p.x to q.x + k - 1.
        for x in p.0..q.0 + k {
            // t from (x - k - p.x) / dx to (x + 1 - p.x) / dx, clipped to [0, 1]: numerators
            // over dx.
            let low = (x - k - p.0).max(0);
            let high = (x + 1 - p.0).min(dx);
            if low >= high {
                continue;
            }
            // y = p.y + t dy at both ends, times dx.
            let at_low = p.1 * dx + low * dy;
            let at_high = p.1 * dx + high * dy;
            let (smaller, larger) = (at_low.min(at_high), at_low.max(at_high));
            let (first, last) = (smaller.div_euclid(dx), ceiling(larger, dx) + k - 1);
            if self.line_blocked(transposed, x, first, last) {
                return false;
            }
        }
        true
    }

    /// The points a shortest path may bend at, for agents of `size` (see the module docs).
    pub fn corners(&self, size: i64) -> Vec<(i64, i64)> {
        let k = size;
        let mut corners = Vec::new();
        for y in 0..=self.height - k {
            for x in 0..=self.width - k {
                if !self.fits(k, (x, y)) {
                    continue;
                }
                // Of the four quadrants next to the point, the one to the right (and below)
                // lies in the box of cell `cx` iff `x <= cx <= x + k`, the one to the left iff
                // `x - 1 <= cx <= x + k - 1`; likewise for rows. The line to the right of it
                // (at height `y` exactly) lies in the boxes of the cells `x..=x + k` by
                // `y..=y + k - 1`, and likewise for the other three lines.
                let blocked = |x0: i64, y0: i64, across: i64, down: i64| {
                    self.any_blocked(x0, y0, x0 + across, y0 + down)
                };
                let (right_down, left_down) = (blocked(x, y, k, k), blocked(x - 1, y, k, k));
                let (right_up, left_up) = (blocked(x, y - 1, k, k), blocked(x - 1, y - 1, k, k));
                let count = [right_down, left_down, right_up, left_up]
                    .iter()
                    .filter(|&&blocked| blocked)
                    .count();
                // Two neighbouring quadrants and the line between them blocked make a straight
                // edge, where no shortest path bends.
                let edge = count == 2
                    && match (right_down, left_down, right_up, left_up) {
                        (true, true, false, false) => blocked(x, y, k - 1, k),
                        (false, false, true, true) => blocked(x, y - 1, k - 1, k),
                        (true, false, true, false) => blocked(x, y, k, k - 1),
                        (false, true, false, true) => blocked(x - 1, y, k, k - 1),
                        _ => false,
                    };
                if count > 0 && !edge {
                    corners.push((x, y));
                }
            }
        }
        corners
    }
}

fn ceiling(numerator: i64, denominator: i64) -> i64 {
    -((-numerator).div_euclid(denominator))
}

/// The visibility graph of one map and size: its corners and which pairs see each other.
pub struct VisibilityGraph<'a> {
    map: &'a BlockedMap,
    size: i64,
    corners: Vec<(i64, i64)>,
    /// For each corner, the corners it sees and how far they are.
    seen: Vec<Vec<(usize, f64)>>,
}

impl<'a> VisibilityGraph<'a> {
    /// Tests every pair of corners.
    pub fn new(map: &'a BlockedMap, size: i64) -> Self {
        let corners = map.corners(size);
        let mut seen = vec![Vec::new(); corners.len()];
        for a in 0..corners.len() {
            for b in a + 1..corners.len() {
                if map.move_is_clear(size, corners[a], corners[b]) {
                    let length = distance(corners[a], corners[b]);
                    seen[a].push((b, length));
                    seen[b].push((a, length));
                }
            }
        }
        VisibilityGraph {
            map,
            size,
            corners,
            seen,
        }
    }

    /// The map it was built on.
    pub fn map(&self) -> &BlockedMap {
        self.map
    }

    /// How many corners the graph has.
    pub fn corner_count(&self) -> usize {
        self.corners.len()
    }

    /// The length of a shortest any-angle path from `start` to `goal` (anchors whose squares
    /// fit), or `None` if none exists.
    pub fn shortest(&self, start: (i64, i64), goal: (i64, i64)) -> Option<f64> {
        let (map, size) = (self.map, self.size);
        if map.move_is_clear(size, start, goal) {
            return Some(distance(start, goal));
        }
        let count = self.corners.len();
        // Nodes: the corners, then the start; the goal is reached from the corners it sees.
        let to_goal: Vec<Option<f64>> = (self.corners.iter())
            .map(|&corner| {
                map.move_is_clear(size, corner, goal)
                    .then(|| distance(corner, goal))
            })
            .collect();
        let mut best = vec![f64::INFINITY; count];
        let mut heap = BinaryHeap::new();
        for (corner, &at) in self.corners.iter().enumerate() {
            if map.move_is_clear(size, start, at) {
                best[corner] = distance(start, at);
                heap.push(Entry(best[corner] + distance(at, goal), corner));
            }
        }
        let mut answer = f64::INFINITY;
        while let Some(Entry(estimate, corner)) = heap.pop() {
            if estimate >= answer {
                break;
            }
            let here = best[corner];
            if estimate > here + distance(self.corners[corner], goal) + 1e-9 {
                continue;
            }
            if let Some(last) = to_goal[corner] {
                answer = answer.min(here + last);
            }
            for &(next, length) in &self.seen[corner] {
                let through = here + length;
                if through < best[next] {
                    best[next] = through;
                    heap.push(Entry(through + distance(self.corners[next], goal), next));
                }
            }
        }
        answer.is_finite().then_some(answer)
    }
}

fn distance(a: (i64, i64), b: (i64, i64)) -> f64 {
    ((a.0 - b.0) as f64).hypot((a.1 - b.1) as f64)
}

/// A heap entry, the smallest estimate first.
struct Entry(f64, usize);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0)
    }
}
