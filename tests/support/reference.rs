//! The independent reference solver: plain Dijkstra over anchors, with every footprint checked
//! cell by cell on the raw terrain grid.

use clearance_core::{
    AgentProfile, Cell, Movement, PathMap, TerrainGrid, DIAGONAL_STEP, STRAIGHT_STEP,
};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// The rules of one query, evaluated directly on the terrain.
pub struct Reference<'a> {
    grid: &'a TerrainGrid,
    profile: &'a AgentProfile,
    size: i32,
    eight_way: bool,
}

impl<'a> Reference<'a> {
    /// Rules for an agent of `size` with the profile `map` registers as `profile`, on `map`'s
    /// terrain and movement (read as data: nothing of the engine's search is used).
    pub fn for_map(map: &'a PathMap, profile: &str, size: i64) -> Self {
        let eight_way = map.movement() == Movement::EightWay;
        Reference::new(
            map.grid(),
            map.profile(profile).unwrap(),
            size as i32,
            eight_way,
        )
    }

    /// Rules for an agent of `size` with `profile` on `grid`.
    pub fn new(
        grid: &'a TerrainGrid,
        profile: &'a AgentProfile,
        size: i32,
        eight_way: bool,
    ) -> Self {
        Reference {
            grid,
            profile,
            size,
            eight_way,
        }
    }

    /// Whether every cell of the footprint at `anchor` is inside the map and traversable.
    pub fn legal(&self, anchor: Cell) -> bool {
        self.footprint_multiplier(anchor).is_some()
    }

    /// The largest fixed-point multiplier under the footprint at `anchor`, or `None` if the
    /// footprint leaves the map or covers an impassable cell.
    pub fn footprint_multiplier(&self, anchor: Cell) -> Option<u64> {
        let mut largest = 0u64;
        for dy in 0..self.size {
            for dx in 0..self.size {
                // Past `i32::MAX` the footprint has left the map.
                let cell = Cell::new(anchor.x.checked_add(dx)?, anchor.y.checked_add(dy)?);
                let terrain = self.grid.terrain(cell)?;
                largest = largest.max(u64::from(self.profile.fixed_multiplier(terrain)?));
            }
        }
        Some(largest)
    }

    /// The largest clearance at `anchor` by direct expansion: grow the square until it fails.
    pub fn direct_clearance(grid: &TerrainGrid, profile: &AgentProfile, anchor: Cell) -> u8 {
        let mut size = 0;
        while size < 255 {
            let next = size + 1;
            let fits = (0..next).all(|d| {
                // Only the new bottom row and right column need checking.
                [
                    Cell::new(anchor.x + d, anchor.y + size),
                    Cell::new(anchor.x + size, anchor.y + d),
                ]
                .iter()
                .all(|&cell| {
                    grid.terrain(cell)
                        .is_some_and(|terrain| profile.fixed_multiplier(terrain).is_some())
                })
            });
            if !fits {
                break;
            }
            size = next;
        }
        size as u8
    }

    /// The cost of the step from `from` to the adjacent anchor `to`, or `None` if the step is
    /// not legal (not adjacent, not allowed by the movement, illegal anchor, or a cut corner).
    pub fn step_cost(&self, from: Cell, to: Cell) -> Option<u64> {
        // In 64 bits: two cells far apart differ by more than an `i32` holds.
        let (dx, dy) = (
            i64::from(to.x) - i64::from(from.x),
            i64::from(to.y) - i64::from(from.y),
        );
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) {
            return None;
        }
        // Adjacent, so each side anchor of a diagonal step is a cell of `i32`s.
        let (dx, dy) = (dx as i32, dy as i32);
        let diagonal = dx != 0 && dy != 0;
        if diagonal
            && (!self.eight_way
                || !self.legal(Cell::new(from.x + dx, from.y))
                || !self.legal(Cell::new(from.x, from.y + dy)))
        {
            return None;
        }
        let length = if diagonal {
            DIAGONAL_STEP
        } else {
            STRAIGHT_STEP
        };
        Some(length * self.footprint_multiplier(to)?)
    }

    /// The optimal cost from `start` to `goal`, or `None` if the goal is unreachable (or either
    /// anchor is illegal).
    pub fn optimal_cost(&self, start: Cell, goal: Cell) -> Option<u64> {
        if !self.legal(start) || !self.legal(goal) {
            return None;
        }
        let best = self.dijkstra(start, Some(goal));
        let cost = best[self.grid.index_of(goal).expect("legal anchors are inside")];
        (cost != u64::MAX).then_some(cost)
    }

    /// Every anchor reachable from `start` (itself included), with its optimal cost.
    pub fn reachable_from(&self, start: Cell) -> Vec<(Cell, u64)> {
        if !self.legal(start) {
            return Vec::new();
        }
        let best = self.dijkstra(start, None);
        (0..best.len())
            .filter(|&index| best[index] != u64::MAX)
            .map(|index| (self.grid.cell_at(index), best[index]))
            .collect()
    }

    /// Every anchor reachable from `start` at a cost of at most `bound`, with its optimal cost:
    /// a Dijkstra that keeps its costs in a hash map, so that its memory and time follow the
    /// costs within the bound rather than the size of the map.
    pub fn reachable_within(&self, start: Cell, bound: u64) -> HashMap<Cell, u64> {
        let mut best = HashMap::new();
        if !self.legal(start) {
            return best;
        }
        let mut queue = BinaryHeap::new();
        best.insert(start, 0);
        queue.push(Reverse((0u64, start.y, start.x)));
        while let Some(Reverse((cost, y, x))) = queue.pop() {
            let at = Cell::new(x, y);
            if cost > best[&at] {
                continue;
            }
            for (to, step) in self.steps_from(at) {
                let next = cost + step;
                if next <= bound && best.get(&to).is_none_or(|&known| next < known) {
                    best.insert(to, next);
                    queue.push(Reverse((next, to.y, to.x)));
                }
            }
        }
        best
    }

    /// Optimal costs from `start` by storage index (`u64::MAX`: not reached), final for every
    /// anchor when `goal` is `None`, and at least for `goal` otherwise.
    fn dijkstra(&self, start: Cell, goal: Option<Cell>) -> Vec<u64> {
        let index = |cell: Cell| self.grid.index_of(cell).expect("inside");
        let mut best = vec![u64::MAX; self.grid.as_bytes().len()];
        let mut queue = BinaryHeap::new();
        best[index(start)] = 0;
        queue.push(Reverse((0u64, start.y, start.x)));
        while let Some(Reverse((cost, y, x))) = queue.pop() {
            let at = Cell::new(x, y);
            if cost > best[index(at)] {
                continue;
            }
            if Some(at) == goal {
                break;
            }
            for (to, step) in self.steps_from(at) {
                let next = cost + step;
                if next < best[index(to)] {
                    best[index(to)] = next;
                    queue.push(Reverse((next, to.y, to.x)));
                }
            }
        }
        best
    }

    /// Every legal step from `at` to a neighbour inside the map, with its cost.
    fn steps_from(&self, at: Cell) -> impl Iterator<Item = (Cell, u64)> + '_ {
        let region = self.grid.region();
        (-1..=1)
            .flat_map(|dy| (-1..=1).map(move |dx| (dx, dy)))
            .filter_map(move |(dx, dy)| {
                // A map may start at `i32::MIN`: its neighbours past the edge do not exist.
                let to = Cell::new(at.x.checked_add(dx)?, at.y.checked_add(dy)?);
                if !region.contains(to) {
                    return None;
                }
                Some((to, self.step_cost(at, to)?))
            })
    }

    /// Checks that `path` runs from `start` to `goal` by legal steps and returns its cost as
    /// the sum of its step costs (the start anchor uncharged).
    pub fn path_cost(&self, path: &[Cell], start: Cell, goal: Cell) -> Result<u64, String> {
        if path.first() != Some(&start) || path.last() != Some(&goal) {
            return Err(format!(
                "path does not run from {start:?} to {goal:?}: {path:?}"
            ));
        }
        if !self.legal(start) {
            return Err(format!("start {start:?} is not a legal anchor"));
        }
        let mut total = 0;
        for pair in path.windows(2) {
            total += self
                .step_cost(pair[0], pair[1])
                .ok_or_else(|| format!("illegal step {:?} -> {:?}", pair[0], pair[1]))?;
        }
        Ok(total)
    }
}
