//! Movement ranges: where a unit can go this turn with its movement points, what each
//! destination costs, and the way there.
//!
//! Built by [`PathMap::movement_range`](crate::PathMap::movement_range) with one forward
//! search from the start (`search/range.rs` gives the search and its proof). The contract is
//! [`find_path`](crate::PathMap::find_path)'s: the cost of every anchor in range is the
//! `cost` `find_path` returns to it, with the same rules for other units, and the path read
//! back is one `find_path` could return at that cost.
//!
//! # The boundary
//!
//! An anchor is in range iff its cost is at most the budget. Costs are fixed-point sums whose
//! diagonal is 3363/2378, about 4.4e-8 longer (relatively) than the square root of 2; so the
//! budget is compared with a relative allowance of 1e-7, which includes an anchor whose cost
//! is exactly the budget (a budget of `1 + sqrt 2` includes the anchor one straight and one
//! diagonal step away) and, for budgets below 10,000, excludes every anchor dearer by a
//! thousandth of a straight step (the finest difference multipliers make; at 10,000 exactly
//! the allowance reaches that thousandth).

use crate::clearance::ClearanceLayer;
use crate::cost::{COST_SCALE, DIAGONAL_STEP, STRAIGHT_STEP};
use crate::grid::{Cell, Region};
use crate::movement::{direction_offsets, Movement};
use crate::occupancy::{unit_on, OtherUnits, Unit, UnitId};
use crate::result::{PathCode, PathResult, StepWeights};
use crate::search::{Reached, Window};
use std::sync::Arc;

/// The relative allowance with which costs are compared with the budget (see the module docs).
pub const BUDGET_TOLERANCE: f64 = 1e-7;

/// The largest budget per turn [`PathMap::movement_range`](crate::PathMap::movement_range)
/// takes.
pub const MAX_BUDGET: f64 = 1e9;

/// The most turns a multi-turn range may count.
pub const MAX_TURNS: u32 = 1000;

/// What a movement range counts besides the budget: turns, and other units.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RangeOptions {
    /// How many turns of the budget to count (1 by default, and 0 counts as 1): anchors are
    /// labelled with the turns they need, up to this many (see [`MovementRange::turns`]).
    pub turns: u32,
    /// How units that are neither the mover nor allies count (enemies): as in a query.
    pub other_units: OtherUnits,
    /// The moving unit: never counts against itself.
    pub moving_unit: Option<UnitId>,
    /// Allies: their footprints may be passed through but not stopped on.
    pub allies: Vec<UnitId>,
}

impl RangeOptions {
    /// One turn, other units ignored.
    pub fn new() -> Self {
        RangeOptions::default()
    }

    /// Builder form of the `turns` field.
    pub fn turns(mut self, turns: u32) -> Self {
        self.turns = turns;
        self
    }

    /// Builder form of the `other_units` field.
    pub fn other_units(mut self, rule: OtherUnits) -> Self {
        self.other_units = rule;
        self
    }

    /// Builder form of the `moving_unit` field.
    pub fn moving_unit(mut self, id: UnitId) -> Self {
        self.moving_unit = Some(id);
        self
    }

    /// Builder form of the `allies` field.
    pub fn allies(mut self, ids: &[UnitId]) -> Self {
        self.allies = ids.to_vec();
        self
    }

    /// The units a range's way may cross, which its waypoints do not count either: the allies
    /// and the moving unit. Pass them as the exempt ids of
    /// [`PathMap::smooth_path`](crate::PathMap::smooth_path), with `other_units`.
    ///
    /// ```
    /// use clearance_core::RangeOptions;
    /// let options = RangeOptions::new().moving_unit(7).allies(&[2, 3]);
    /// assert_eq!(options.uncounted_units(), [2, 3, 7]);
    /// assert!(RangeOptions::new().uncounted_units().is_empty());
    /// ```
    pub fn uncounted_units(&self) -> Vec<UnitId> {
        let mut ids = self.allies.clone();
        ids.extend(self.moving_unit);
        ids
    }
}

/// Where one unit can go within its budget: see the module docs.
#[derive(Debug, Clone)]
pub struct MovementRange {
    pub(crate) region: Region,
    pub(crate) width: usize,
    pub(crate) movement: Movement,
    pub(crate) start: usize,
    pub(crate) agent_size: u8,
    pub(crate) budget: u64,
    pub(crate) turns: u32,
    /// Every anchor reached, in the order the search settled them.
    pub(crate) reached: Vec<Reached>,
    /// The anchors the search could reach, and each one's entry in `reached`.
    pub(crate) window: Window,
    pub(crate) places: Vec<u32>,
    /// Per entry of `reached`: an ally stands there, so it may be passed but not stopped on.
    pub(crate) passable_only: Vec<bool>,
    /// Under [`OtherUnits::Block`], the units that block (neither the mover nor allies), in
    /// the map's order: the one on a goal is named as a query names it.
    pub(crate) blockers: Vec<Unit>,
    /// The allies, in the map's order, to name the one on a goal.
    pub(crate) allies: Vec<Unit>,
    /// The profile's clearance layer on the map the range was found on, to say where the
    /// unit does not fit as a query says it (shared with the map: an `Arc` of paged values).
    pub(crate) clearance: Arc<ClearanceLayer>,
    pub(crate) version: u64,
    pub(crate) units_version: u64,
}

impl MovementRange {
    fn entry(&self, cell: Cell) -> Option<usize> {
        let (x, y) = self.region.local(cell)?;
        let place = self.places[self.window.place_of(x, y)?];
        (place != u32::MAX).then_some(place as usize)
    }

    /// The entries of `reached` by `y`, then `x`, with their anchors (read off the window's
    /// rows: no division per anchor).
    fn in_order(&self) -> impl Iterator<Item = (usize, Cell)> + '_ {
        self.window.rows().flat_map(move |(y, x0, places)| {
            let (x0, y) = (self.region.x + x0 as i32, self.region.y + y as i32);
            (self.places[places].iter().enumerate())
                .filter(|&(_, &entry)| entry != u32::MAX)
                .map(move |(column, &entry)| (entry as usize, Cell::new(x0 + column as i32, y)))
        })
    }

    fn cell_of(&self, index: usize) -> Cell {
        Cell::new(
            self.region.x + (index % self.width) as i32,
            self.region.y + (index / self.width) as i32,
        )
    }

    /// Whether an entry is a destination within the first turn.
    fn in_first_turn(&self, entry: usize) -> bool {
        self.reached[entry].turn == 0 && !self.passable_only[entry]
    }

    /// The anchors in range (reachable this turn, none where an ally stands), by `y` then
    /// `x`; the start is one of them.
    pub fn cells(&self) -> Vec<Cell> {
        // Row by row over plain slices: front ends list every cell of a range, so this loop
        // is on their path as much as the search is.
        let mut cells = Vec::with_capacity(self.reached.len());
        for (y, x0, places) in self.window.rows() {
            let (x0, y) = (self.region.x + x0 as i32, self.region.y + y as i32);
            for (column, &entry) in self.places[places].iter().enumerate() {
                if entry != u32::MAX && self.in_first_turn(entry as usize) {
                    cells.push(Cell::new(x0 + column as i32, y));
                }
            }
        }
        cells
    }

    /// Whether `anchor` is in range.
    pub fn is_in_range(&self, anchor: Cell) -> bool {
        self.entry(anchor)
            .is_some_and(|entry| self.in_first_turn(entry))
    }

    /// The fixed-point cost of reaching `anchor` (see [`COST_SCALE`]), if it is in range.
    pub fn cost(&self, anchor: Cell) -> Option<u64> {
        let entry = self.entry(anchor)?;
        self.in_first_turn(entry).then(|| self.reached[entry].cost)
    }

    /// How many turns `anchor` needs (1: this one), up to the range's turns; `None` beyond
    /// them, off the map, or where an ally stands. Each turn spends at most the budget, and a
    /// step never spans two turns.
    pub fn turns(&self, anchor: Cell) -> Option<u32> {
        let entry = self.entry(anchor)?;
        (!self.passable_only[entry]).then(|| self.reached[entry].turn + 1)
    }

    /// Every anchor reached within the range's turns, but those where an ally stands, by `y`
    /// then `x`: its turns (1: this one) and the fixed-point cost of the path to it, all
    /// turns together.
    pub fn reached(&self) -> impl Iterator<Item = (Cell, u32, u64)> + '_ {
        self.in_order()
            .filter(|&(entry, _)| !self.passable_only[entry])
            .map(|(entry, cell)| {
                let reached = self.reached[entry];
                (cell, reached.turn + 1, reached.cost)
            })
    }

    /// The anchors in range with a neighbour (by the map's movement rule, on the map or not)
    /// that is not: the outline of the range, by `y` then `x`.
    pub fn border_cells(&self) -> Vec<Cell> {
        let directions = self.movement.direction_count();
        let height = self.region.height as i64;
        self.in_order()
            .filter(|&(entry, _)| self.in_first_turn(entry))
            .map(|(entry, _)| self.reached[entry].anchor as usize)
            .filter(|&index| {
                let (x, y) = ((index % self.width) as i64, (index / self.width) as i64);
                crate::movement::DIRECTIONS[..directions]
                    .iter()
                    .any(|step| {
                        let (nx, ny) = (x + i64::from(step.dx), y + i64::from(step.dy));
                        let outside = nx < 0 || ny < 0 || nx >= self.width as i64 || ny >= height;
                        outside
                            || !self
                                .is_in_range(self.cell_of((ny as usize) * self.width + nx as usize))
                    })
            })
            .map(|index| self.cell_of(index))
            .collect()
    }

    /// The way to `anchor`, as [`find_path`](crate::PathMap::find_path) would answer it:
    /// `OK` with the anchors from the start and the cost, if `anchor` is reached within the
    /// range's turns; `GOAL_OUT_OF_BOUNDS` off the map; `GOAL_CLEARANCE_INSUFFICIENT` with
    /// its shortfall where the unit does not fit the terrain; `GOAL_OCCUPIED` with
    /// `occupied_by` where an ally stands, or under [`OtherUnits::Block`] a unit that blocks;
    /// `NO_PATH` otherwise.
    /// (`expanded` is 0.) For its taut waypoints, hand the path to
    /// [`PathMap::smooth_path`](crate::PathMap::smooth_path) with the range's rule for other
    /// units and [`RangeOptions::uncounted_units`] as the exempt ids: the path may cross
    /// allies.
    pub fn path_to(&self, anchor: Cell) -> PathResult {
        let Some(index) = self.region.index_of(anchor) else {
            return PathResult::failure(PathCode::GoalOutOfBounds);
        };
        if let Some(shortfall) = self.clearance.shortfall(index, self.agent_size) {
            return PathResult {
                shortfall: Some(shortfall),
                ..PathResult::failure(PathCode::GoalClearanceInsufficient)
            };
        }
        let on_goal = |units: &[Unit]| unit_on(units, anchor, self.agent_size, |_| true);
        let occupied = |id| PathResult {
            occupied_by: Some(id),
            ..PathResult::failure(PathCode::GoalOccupied)
        };
        let Some(mut entry) = self.entry(anchor) else {
            let standing = on_goal(&self.blockers).or_else(|| on_goal(&self.allies));
            return standing.map_or(PathResult::failure(PathCode::NoPath), occupied);
        };
        if self.passable_only[entry] {
            // An ally stands there (`passable_only` says so), whom the list names.
            return on_goal(&self.allies)
                .map_or(PathResult::failure(PathCode::GoalOccupied), occupied);
        }
        let offsets = direction_offsets(self.width);
        let cost = self.reached[entry].cost;
        let mut path = vec![anchor];
        let mut weights = StepWeights::default();
        while self.reached[entry].anchor as usize != self.start {
            let here = self.reached[entry];
            let direction = usize::from(here.direction);
            let parent = (here.anchor as usize).wrapping_add_signed(-offsets[direction]);
            let parent_entry =
                (self.entry(self.cell_of(parent))).expect("a reached anchor's parent is reached");
            let paid = here.cost - self.reached[parent_entry].cost;
            if direction < crate::movement::STRAIGHT_DIRECTIONS {
                weights.straight += paid / STRAIGHT_STEP;
            } else {
                weights.diagonal += paid / DIAGONAL_STEP;
            }
            path.push(self.cell_of(parent));
            entry = parent_entry;
        }
        path.reverse();
        PathResult {
            code: PathCode::Ok,
            path,
            cost,
            step_weights: weights,
            ..PathResult::failure(PathCode::Ok)
        }
    }

    /// The budget per turn, in fixed-point units ([`COST_SCALE`] per 1.0), allowance included.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// How many turns the range counts.
    pub fn turn_count(&self) -> u32 {
        self.turns
    }

    /// The start anchor.
    pub fn start(&self) -> Cell {
        self.cell_of(self.start)
    }

    /// The agent size it was built for.
    pub fn agent_size(&self) -> u8 {
        self.agent_size
    }

    /// The map's [`version`](crate::PathMap::version) it answers for.
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The map's [`units_version`](crate::PathMap::units_version) it answers for.
    pub fn units_version(&self) -> u64 {
        self.units_version
    }

    /// How many anchors the search reached (all turns, allies' anchors included).
    pub fn reached_count(&self) -> usize {
        self.reached.len()
    }
}

/// The budget `budget` (1.0 per straight step at multiplier 1) in fixed-point units, with the
/// allowance of the module docs; `None` if it is not a number from 0 to [`MAX_BUDGET`].
pub(crate) fn fixed_budget(budget: f64) -> Option<u64> {
    (budget.is_finite() && (0.0..=MAX_BUDGET).contains(&budget))
        .then(|| (budget * COST_SCALE as f64 * (1.0 + BUDGET_TOLERANCE)).floor() as u64)
}
