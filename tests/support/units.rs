//! The reference solver with other units on the map: a forward Dijkstra over anchors on the
//! raw terrain, where the cells under the units that count are walls (the block rule) or
//! cells of multiplier `max(m, M)` (the cost rule).
//!
//! Like [`Reference`], it shares no clearance, occupancy or search code with the engine: every
//! footprint is read cell by cell, and a cell is "under a unit" when it lies in the unit's
//! square, checked coordinate by coordinate. The anchor a query starts from is never blocked
//! (the unit already stands there), so the search may leave it; nothing else is exempt here:
//! the caller passes only the units that count.

use crate::reference::Reference;
use clearance_core::{
    AgentProfile, Cell, Movement, PathMap, TerrainGrid, DIAGONAL_STEP, MULTIPLIER_SCALE,
    STRAIGHT_STEP,
};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A unit as the tests track it: its id, anchor (top-left cell) and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Standing {
    /// The caller's id.
    pub id: i64,
    /// Top-left cell of its square.
    pub anchor: Cell,
    /// Side of its square.
    pub size: i32,
}

impl Standing {
    /// Whether the unit's square covers `cell`.
    pub fn covers(&self, cell: Cell) -> bool {
        let (x, y) = (i64::from(cell.x), i64::from(cell.y));
        let (ax, ay, side) = (
            i64::from(self.anchor.x),
            i64::from(self.anchor.y),
            i64::from(self.size),
        );
        ax <= x && x < ax + side && ay <= y && y < ay + side
    }
}

/// How the units that count enter the reference's graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitRule {
    /// Cells under a unit are walls.
    Block,
    /// Cells under a unit have multiplier `max(m, M)`, `M` in fixed point.
    Cost(u64),
}

/// The rules of one query with units, evaluated on the terrain and the units' squares.
pub struct UnitsReference<'a> {
    grid: &'a TerrainGrid,
    size: i32,
    eight_way: bool,
    /// Per storage index: the anchor's footprint fits the terrain.
    terrain_legal: Vec<bool>,
    /// Per storage index: the anchor's footprint shares a cell with a counted unit's square.
    overlapped: Vec<bool>,
    /// Per storage index: the cost multiplier of entering the anchor, `None` if it may not be
    /// entered (terrain, or blocked by a unit).
    entry: Vec<Option<u64>>,
}

impl<'a> UnitsReference<'a> {
    /// The rules arrival slots keep for a member of `size` with the profile called `profile`
    /// on `map`: every unit of `outsiders` blocks, and no start is exempt.
    pub fn for_slots(map: &'a PathMap, profile: &str, size: i32, outsiders: &[Standing]) -> Self {
        let profile = map.profile(profile).expect("a registered profile");
        let eight_way = map.movement() == Movement::EightWay;
        Self::new(
            map.grid(),
            profile,
            size,
            eight_way,
            outsiders,
            UnitRule::Block,
            None,
        )
    }

    /// Rules for an agent of `size` with `profile` on `grid`, with the `counted` units
    /// entering by `rule`, for a search from `start` (never blocked; `None` for a search
    /// from several seeds, where nothing is exempt).
    pub fn new(
        grid: &'a TerrainGrid,
        profile: &AgentProfile,
        size: i32,
        eight_way: bool,
        counted: &[Standing],
        rule: UnitRule,
        start: Option<Cell>,
    ) -> Self {
        let terrain = Reference::new(grid, profile, size, eight_way);
        let cells = grid.as_bytes().len();
        // The map's cells under a counted unit. Cells off the map need no mark: a unit's
        // anchor and an agent's both lie on the map, so where their squares share a cell
        // they share the corner (max x, max y) of the overlap, which is on the map too.
        let mut covered = vec![false; cells];
        for unit in counted {
            assert!(
                grid.index_of(unit.anchor).is_some(),
                "{unit:?} is off the map"
            );
            for dy in 0..unit.size {
                for dx in 0..unit.size {
                    let cell = Cell::new(unit.anchor.x + dx, unit.anchor.y + dy);
                    if let Some(index) = grid.index_of(cell) {
                        covered[index] = true;
                    }
                }
            }
        }
        let mut terrain_legal = vec![false; cells];
        let mut overlapped = vec![false; cells];
        let mut entry = vec![None; cells];
        for index in 0..cells {
            let anchor = grid.cell_at(index);
            let footprint: Vec<Cell> = (0..size)
                .flat_map(|dy| (0..size).map(move |dx| Cell::new(anchor.x + dx, anchor.y + dy)))
                .collect();
            let under = |cell: Cell| grid.index_of(cell).is_some_and(|index| covered[index]);
            overlapped[index] = footprint.iter().any(|&cell| under(cell));
            terrain_legal[index] = terrain.legal(anchor);
            if !terrain_legal[index] {
                continue;
            }
            let blocked = rule == UnitRule::Block && overlapped[index] && Some(anchor) != start;
            if blocked {
                continue;
            }
            let mut largest = 0u64;
            for &cell in &footprint {
                let kind = grid.terrain(cell).expect("a legal footprint is on the map");
                let mut multiplier = u64::from(
                    profile
                        .fixed_multiplier(kind)
                        .expect("a legal footprint is traversable"),
                );
                if let UnitRule::Cost(floor) = rule {
                    if under(cell) {
                        multiplier = multiplier.max(floor);
                    }
                }
                largest = largest.max(multiplier);
            }
            entry[index] = Some(largest);
        }
        UnitsReference {
            grid,
            size,
            eight_way,
            terrain_legal,
            overlapped,
            entry,
        }
    }

    /// The agent's size.
    pub fn size(&self) -> i32 {
        self.size
    }

    /// Storage index of `cell`, if it lies on the map.
    pub fn index(&self, cell: Cell) -> Option<usize> {
        self.grid.index_of(cell)
    }

    /// Whether the footprint at `anchor` fits the terrain (units aside).
    pub fn terrain_legal(&self, anchor: Cell) -> bool {
        self.index(anchor)
            .is_some_and(|index| self.terrain_legal[index])
    }

    /// Whether the footprint at `anchor` (an anchor on the map) shares a cell with a counted
    /// unit.
    pub fn overlaps_units(&self, anchor: Cell) -> bool {
        self.index(anchor)
            .is_some_and(|index| self.overlapped[index])
    }

    /// Whether an agent may stand at `anchor`: it fits the terrain and no counted unit
    /// blocks it.
    pub fn legal(&self, anchor: Cell) -> bool {
        self.entry_multiplier(anchor).is_some()
    }

    /// The fixed-point multiplier paid to enter `anchor`, if it may be entered.
    pub fn entry_multiplier(&self, anchor: Cell) -> Option<u64> {
        self.index(anchor).and_then(|index| self.entry[index])
    }

    /// The step from `from` to the adjacent `to`, if legal: whether it is diagonal and the
    /// multiplier it pays. A diagonal needs 8-way movement and both anchors it passes legal.
    pub fn step(&self, from: Cell, to: Cell) -> Option<(bool, u64)> {
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        if dx.abs() > 1 || dy.abs() > 1 || (dx == 0 && dy == 0) || !self.legal(from) {
            return None;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal
            && (!self.eight_way
                || !self.legal(Cell::new(from.x + dx, from.y))
                || !self.legal(Cell::new(from.x, from.y + dy)))
        {
            return None;
        }
        Some((diagonal, self.entry_multiplier(to)?))
    }

    /// The fixed-point cost of the step from `from` to `to`, if legal.
    pub fn step_cost(&self, from: Cell, to: Cell) -> Option<u64> {
        self.step(from, to).map(|(diagonal, multiplier)| {
            multiplier
                * if diagonal {
                    DIAGONAL_STEP
                } else {
                    STRAIGHT_STEP
                }
        })
    }

    /// Optimal costs by storage index from the nearest of `seeds` (each at cost 0; illegal
    /// seeds are left out), `u64::MAX` where no seed reaches.
    pub fn costs_from(&self, seeds: &[Cell]) -> Vec<u64> {
        let mut best = vec![u64::MAX; self.entry.len()];
        let mut queue = BinaryHeap::new();
        for &seed in seeds {
            if let Some(index) = self.index(seed).filter(|_| self.legal(seed)) {
                best[index] = 0;
                queue.push(Reverse((0u64, seed.y, seed.x)));
            }
        }
        let region = self.grid.region();
        while let Some(Reverse((cost, y, x))) = queue.pop() {
            let at = Cell::new(x, y);
            if cost > best[self.index(at).expect("queued anchors are on the map")] {
                continue;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let to = Cell::new(x + dx, y + dy);
                    if !region.contains(to) {
                        continue;
                    }
                    if let Some(step) = self.step_cost(at, to) {
                        let next = cost + step;
                        let slot = &mut best[self.index(to).expect("inside")];
                        if next < *slot {
                            *slot = next;
                            queue.push(Reverse((next, to.y, to.x)));
                        }
                    }
                }
            }
        }
        best
    }

    /// The optimal cost from `start` to `goal`, if `goal` is reachable.
    pub fn optimal_cost(&self, start: Cell, goal: Cell) -> Option<u64> {
        let costs = self.costs_from(&[start]);
        let cost = costs[self.index(goal)?];
        (cost != u64::MAX).then_some(cost)
    }

    /// The crow-flies distance between two anchors in fixed-point step lengths: octile for
    /// 8-way movement, Manhattan for 4-way.
    pub fn distance(&self, a: Cell, b: Cell) -> u64 {
        let (dx, dy) = (u64::from(a.x.abs_diff(b.x)), u64::from(a.y.abs_diff(b.y)));
        if self.eight_way {
            let (long, short) = (dx.max(dy), dx.min(dy));
            short * DIAGONAL_STEP + (long - short) * STRAIGHT_STEP
        } else {
            (dx + dy) * STRAIGHT_STEP
        }
    }

    /// Among the anchors `costs` reaches, the one nearest to `goal` by
    /// [`distance`](Self::distance), lowest `y` then `x` among equals.
    pub fn nearest_reached(&self, costs: &[u64], goal: Cell) -> Option<Cell> {
        (0..costs.len())
            .filter(|&index| costs[index] != u64::MAX)
            .map(|index| self.grid.cell_at(index))
            .min_by_key(|&cell| (self.distance(cell, goal), cell.y, cell.x))
    }

    /// Checks that `path` runs from `start` to `end` by legal steps; returns the multipliers
    /// it pays summed over its straight steps and over its diagonal steps.
    pub fn path_weights(
        &self,
        path: &[Cell],
        start: Cell,
        end: Cell,
    ) -> Result<(u64, u64), String> {
        if path.first() != Some(&start) || path.last() != Some(&end) {
            return Err(format!(
                "path does not run from {start:?} to {end:?}: {path:?}"
            ));
        }
        let (mut straight, mut diagonal) = (0, 0);
        for pair in path.windows(2) {
            let (is_diagonal, multiplier) = self.step(pair[0], pair[1]).ok_or_else(|| {
                format!("illegal step {:?} -> {:?} in {path:?}", pair[0], pair[1])
            })?;
            if is_diagonal {
                diagonal += multiplier;
            } else {
                straight += multiplier;
            }
        }
        if path.len() == 1 && !self.legal(start) {
            return Err(format!("start {start:?} is not a legal anchor"));
        }
        Ok((straight, diagonal))
    }

    /// The path's cost as a float, step by step: length 1 or the square root of 2 times the
    /// multiplier entered (assumes [`path_weights`](Self::path_weights) accepted the path).
    pub fn float_cost(&self, path: &[Cell]) -> f64 {
        path.windows(2)
            .map(|pair| {
                let (diagonal, multiplier) = self.step(pair[0], pair[1]).expect("legal step");
                let length = if diagonal {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                length * multiplier as f64 / f64::from(MULTIPLIER_SCALE)
            })
            .sum()
    }
}

/// Fixed-point cost of a path whose multipliers sum to `straight` and `diagonal`.
pub fn weights_cost((straight, diagonal): (u64, u64)) -> u64 {
    straight * STRAIGHT_STEP + diagonal * DIAGONAL_STEP
}
