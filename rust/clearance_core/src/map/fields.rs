//! Flow fields to one goal or the nearest of several, and group orders: many starts, one goal,
//! answered by one field.

use super::queries::with_thread_scratch;
use super::PathMap;
use crate::flow_field::{FieldSource, FlowField, FlowFieldOptions};
use crate::footprint::checked_agent_size;
use crate::grid::Cell;
use crate::occupancy::{OtherUnits, UnitId};
use crate::query::PathQuery;
use crate::result::{ClearanceShortfall, PathCode, PathResult};
use crate::search::Counted;
use crate::search::{graph_with_units, paths_from, UnitsView};

impl PathMap {
    /// A [`FlowField`] for an agent of `agent_size` moving by the rules of the profile called
    /// `profile`: every anchor's optimal cost to the nearest of `goals`, and the next anchor
    /// on the way, from one backward search (no goals: a field that reaches nothing).
    ///
    /// Refused with the code a query would give, checked in the same order:
    /// `InvalidAgentSize`, `UnknownProfile`, `GoalOutOfBounds` (any goal),
    /// `MemoryLimitReached` (the clearance layer or search graph would pass the cache memory
    /// limit, or the field itself would: while it is built, the map's caches and the field's
    /// estimated size must fit under the limit together), `GoalClearanceInsufficient` (the
    /// unit does not fit at some goal), `UnknownUnit` (an exempt id is not registered) and,
    /// with units blocking, `GoalOccupied` (a unit stands on some goal).
    ///
    /// `options` bound the search: see [`FlowFieldOptions`]. The field records the map's
    /// [`version`](Self::version).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, FlowFieldOptions, PathCode, PathMap, Region, TerrainGrid, COST_SCALE};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 30, 30), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let goal = Cell::new(15, 15);
    ///
    /// // Only as far as a cost of 3: anchors further away are not reached.
    /// let near = map.flow_field(&[goal], 1, "unit", FlowFieldOptions::new().max_cost(3 * COST_SCALE))?;
    /// assert_eq!(near.cost(Cell::new(12, 15)), Some(3 * COST_SCALE));
    /// assert_eq!(near.cost(Cell::new(11, 15)), None);
    /// assert!(!near.is_complete());
    ///
    /// assert_eq!(
    ///     map.flow_field(&[Cell::new(30, 0)], 1, "unit", FlowFieldOptions::new()).err(),
    ///     Some(PathCode::GoalOutOfBounds)
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flow_field(
        &self,
        goals: &[Cell],
        agent_size: i64,
        profile: &str,
        options: FlowFieldOptions,
    ) -> Result<FlowField, PathCode> {
        self.build_flow_field(goals, agent_size, profile, &options)
            .map_err(|failure| failure.code)
    }

    /// [`flow_field`](Self::flow_field), refusing with the whole result a query would give
    /// (with the goal's shortfall).
    fn build_flow_field(
        &self,
        goals: &[Cell],
        agent_size: i64,
        profile: &str,
        options: &FlowFieldOptions,
    ) -> Result<FlowField, PathResult> {
        let size = checked_agent_size(agent_size)
            .ok_or(PathResult::failure(PathCode::InvalidAgentSize))?;
        let found_profile = self
            .profiles
            .get(profile)
            .ok_or(PathResult::failure(PathCode::UnknownProfile))?;
        let mut goal_indices = Vec::with_capacity(goals.len());
        for &goal in goals {
            goal_indices.push(
                self.grid
                    .index_of(goal)
                    .ok_or(PathResult::failure(PathCode::GoalOutOfBounds))?,
            );
        }
        let memory = PathResult::failure(PathCode::MemoryLimitReached);
        let clearance = self
            .clearance_layer_for(&found_profile.capability())
            .ok_or(memory.clone())?;
        let graph = self
            .graph_for(profile, found_profile, size)
            .ok_or(memory.clone())?;
        if !self.fits(FlowField::estimated_bytes(self.grid.as_bytes().len())) {
            return Err(memory);
        }
        for &goal in &goal_indices {
            let found = clearance.at(goal);
            if found < size {
                return Err(PathResult {
                    shortfall: Some(ClearanceShortfall {
                        found,
                        needed: size,
                    }),
                    ..PathResult::failure(PathCode::GoalClearanceInsufficient)
                });
            }
        }
        let counted = self.units_for_field(size, options, &goal_indices)?;
        let patched = counted
            .as_ref()
            .map(|view| graph_with_units(&graph, view, options.other_units));
        let source = FieldSource {
            grid: &self.grid,
            graph: patched.as_ref().unwrap_or(&graph),
            clearance,
            agent_size: size,
            profile_name: profile,
            profile: found_profile,
            version: self.version,
            units_version: counted.is_some().then_some(self.occupancy.version()),
            units_multiplier: match options.other_units {
                OtherUnits::Cost(cost) if counted.is_some() => Some(cost.fixed()),
                _ => None,
            },
        };
        let field = FlowField::build(source, goals, options);
        put_back_units(counted);
        Ok(field)
    }

    /// The units a field or group order counts for an agent of `size` (all but the exempt
    /// ones), if any: refused with `UnknownUnit` for an exempt id not registered, and under
    /// `Block` with `GoalOccupied` for a goal (storage index) whose footprint overlaps one.
    ///
    /// The view is the one the thread's scratch keeps for `size` (map-sized sets of bits,
    /// caught up when units moved, as queries keep theirs); hand it back with
    /// [`put_back_units`] once done.
    fn units_for_field(
        &self,
        size: u8,
        options: &FlowFieldOptions,
        goals: &[usize],
    ) -> Result<Option<UnitsView>, PathResult> {
        if !(options.exempt_units.iter()).all(|&id| self.occupancy.contains(id)) {
            return Err(PathResult::failure(PathCode::UnknownUnit));
        }
        if options.other_units == OtherUnits::Ignore || self.occupancy.is_empty() {
            return Ok(None);
        }
        let exempt = Counted::AllBut {
            moving: None,
            listed: &options.exempt_units,
        };
        let mut view = with_thread_scratch(|scratch| scratch.units.take(size));
        if !self.count_units(&mut view, size, usize::MAX, exempt) {
            put_back_units(Some(view));
            return Ok(None);
        }
        if options.other_units == OtherUnits::Block {
            if let Some(&goal) = goals.iter().find(|&&goal| view.is_blocked(goal)) {
                put_back_units(Some(view));
                return Err(PathResult {
                    occupied_by: self.unit_on(self.grid.cell_at(goal), size, exempt),
                    ..PathResult::failure(PathCode::GoalOccupied)
                });
            }
        }
        Ok(Some(view))
    }

    /// A group order: paths from every one of `starts` to `goal`, one result per start in
    /// order, each what [`find_path`](Self::find_path) would answer (the same codes, checked
    /// in the same order; `OK` with an optimal path listing every anchor, of the same cost;
    /// one anchor when a start is the goal). They come from one search outwards from the
    /// goal, however many units are sent: where every terrain the profile enters costs the
    /// same, a jump-point search that stops at every start (steps then cost the same both
    /// ways, so a path from the goal, reversed, is a path to it of the same cost); otherwise a
    /// [`FlowField`] bounded to settle every legal start. Paths of equal cost may differ from
    /// `find_path`'s; results carry `expanded` 0.
    ///
    /// If the field would pass the cache memory limit, every start that passes the earlier
    /// checks gets `MEMORY_LIMIT_REACHED`.
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathCode, PathMap, Region, TerrainGrid};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 20, 20), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let goal = Cell::new(10, 10);
    /// let starts = [Cell::new(0, 0), Cell::new(19, 3), Cell::new(10, 10), Cell::new(25, 0)];
    /// let results = map.find_paths_to(goal, &starts, 2, "unit");
    /// let codes: Vec<PathCode> = results.iter().map(|result| result.code).collect();
    /// assert_eq!(codes, [PathCode::Ok, PathCode::StartClearanceInsufficient, PathCode::Ok, PathCode::StartOutOfBounds]);
    /// assert_eq!(results[0].cost, map.find_path(starts[0], goal, 2, "unit").cost);
    /// assert_eq!(results[2].path, [goal]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_paths_to(
        &self,
        goal: Cell,
        starts: &[Cell],
        agent_size: i64,
        profile: &str,
    ) -> Vec<PathResult> {
        self.find_paths_to_counting(goal, starts, agent_size, profile, OtherUnits::Ignore, &[])
    }

    /// [`find_paths_to`](Self::find_paths_to) with the units registered on the map counted
    /// by `other_units`, but those in `exempt_units` (the group's own members): each result
    /// is what [`query`](Self::query) would answer with that rule and those exemptions
    /// (an `UNKNOWN_UNIT` exempt id fails every start; under `Block` a goal on a counted unit
    /// gives every start but the goal itself `GOAL_OCCUPIED`, and a start that overlaps a
    /// counted unit is not reached: `NO_PATH`, unless it is the goal).
    pub fn find_paths_to_counting(
        &self,
        goal: Cell,
        starts: &[Cell],
        agent_size: i64,
        profile: &str,
        other_units: OtherUnits,
        exempt_units: &[UnitId],
    ) -> Vec<PathResult> {
        let early = if checked_agent_size(agent_size).is_none() {
            Some(PathCode::InvalidAgentSize)
        } else if !self.profiles.contains_key(profile) {
            Some(PathCode::UnknownProfile)
        } else {
            None
        };
        if let Some(code) = early {
            return vec![PathResult::failure(code); starts.len()];
        }
        let options = FlowFieldOptions::new()
            .settle(starts)
            .other_units(other_units, exempt_units);
        if let Some(results) =
            self.group_order_by_jumps(goal, starts, agent_size, profile, &options)
        {
            return results;
        }
        let field = self.build_flow_field(&[goal], agent_size, profile, &options);
        starts
            .iter()
            .map(|&start| match &field {
                _ if self.grid.index_of(start).is_none() => {
                    PathResult::failure(PathCode::StartOutOfBounds)
                }
                Ok(field) => field.path_from(start),
                // A member already on the goal has arrived, as `query` answers: a unit never
                // blocks the anchor a query starts from.
                Err(failure) if failure.code == PathCode::GoalOccupied && start == goal => {
                    let query = PathQuery::new(start, goal, agent_size, profile)
                        .other_units(other_units)
                        .exempt_units(exempt_units);
                    self.query(&query)
                }
                // The start's own clearance is checked before the goal's.
                Err(failure)
                    if matches!(
                        failure.code,
                        PathCode::GoalClearanceInsufficient
                            | PathCode::UnknownUnit
                            | PathCode::GoalOccupied
                    ) =>
                {
                    match self.start_shortfall(start, agent_size, profile) {
                        Some(shortfall) => PathResult {
                            shortfall: Some(shortfall),
                            ..PathResult::failure(PathCode::StartClearanceInsufficient)
                        },
                        None => failure.clone(),
                    }
                }
                Err(failure) => failure.clone(),
            })
            .collect()
    }

    /// [`find_paths_to`](Self::find_paths_to) by one jump-point search from the goal, on a
    /// graph of uniform costs whose goal is on the map and fits the unit; `None` otherwise
    /// (the field then answers, and reports the goal's codes).
    fn group_order_by_jumps(
        &self,
        goal: Cell,
        starts: &[Cell],
        agent_size: i64,
        profile: &str,
        options: &FlowFieldOptions,
    ) -> Option<Vec<PathResult>> {
        if matches!(options.other_units, OtherUnits::Cost(_)) {
            return None;
        }
        let size = checked_agent_size(agent_size)?;
        let found_profile = self.profiles.get(profile)?;
        let goal_index = self.grid.index_of(goal)?;
        let clearance = self.clearance_layer_for(&found_profile.capability())?;
        if clearance.at(goal_index) < size {
            return None;
        }
        let graph = self.graph_for(profile, found_profile, size)?;
        // Refusals (an unknown exempt id, an occupied goal) are the field's to report.
        let units = self.units_for_field(size, options, &[goal_index]).ok()?;
        let blocked = |index: usize| units.as_ref().is_some_and(|view| view.is_blocked(index));
        let mut results: Vec<Result<usize, PathResult>> = Vec::with_capacity(starts.len());
        for &start in starts {
            results.push(match self.grid.index_of(start) {
                None => Err(PathResult::failure(PathCode::StartOutOfBounds)),
                Some(index) if clearance.at(index) < size => Err(PathResult {
                    shortfall: Some(ClearanceShortfall {
                        found: clearance.at(index),
                        needed: size,
                    }),
                    ..PathResult::failure(PathCode::StartClearanceInsufficient)
                }),
                // A search from the goal never enters a blocked anchor.
                Some(index) if blocked(index) && index != goal_index => {
                    Err(PathResult::failure(PathCode::NoPath))
                }
                Some(index) => Ok(index),
            });
        }
        let targets: Vec<usize> = results
            .iter()
            .filter_map(|r| r.as_ref().ok())
            .copied()
            .collect();
        let width = self.grid.width();
        let found = with_thread_scratch(|scratch| {
            paths_from(
                scratch,
                &graph,
                self.movement,
                width,
                goal_index,
                &targets,
                units.as_ref(),
            )
        });
        put_back_units(units);
        let mut paths = found?.into_iter();
        Some(
            results
                .into_iter()
                .map(|result| match result {
                    Err(failure) => failure,
                    Ok(_) => match paths.next().flatten() {
                        None => PathResult::failure(PathCode::NoPath),
                        Some(found) => {
                            let mut anchors = found.path;
                            anchors.reverse();
                            let (path, step_weights) =
                                self.cells_and_weights(&graph, &anchors, None);
                            PathResult {
                                code: PathCode::Ok,
                                path,
                                cost: found.cost,
                                step_weights,
                                expanded: 0,
                                ..PathResult::failure(PathCode::Ok)
                            }
                        }
                    },
                })
                .collect(),
        )
    }

    /// How far the unit falls short of fitting at `start` (inside the map; size and profile
    /// valid, clearance layer built), if it does not fit.
    fn start_shortfall(
        &self,
        start: Cell,
        agent_size: i64,
        profile: &str,
    ) -> Option<ClearanceShortfall> {
        let needed = checked_agent_size(agent_size)?;
        let found = self.clearance(start, profile)?;
        (found < needed).then_some(ClearanceShortfall { found, needed })
    }
}

/// Hands a view [`PathMap::units_for_field`] took back to the thread's scratch.
fn put_back_units(view: Option<UnitsView>) {
    if let Some(view) = view {
        with_thread_scratch(|scratch| scratch.units.put_back(view));
    }
}
