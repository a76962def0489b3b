//! Queries: `find_path()`, `find_paths()`, `find_path_world()`, and the asynchronous
//! `request_path()` and `request_paths()` (their delivery is in `requests.rs`).
#![forbid(unsafe_code)]

use super::errors::{agent_size_problem, pathfinder_error};
use super::modes::moving_unit_of;
use super::ClearancePathfinder;
use crate::convert::{cell_of, vector_of};
use crate::frame::GridFrame;
use crate::marshal::{anchors_to_follow, query_from_variant, PathFormat, ResultWriter};
use crate::workers::{OwnedQuery, Work};
use clearance_core::{checked_agent_size, Cell, PathCode, PathQuery, PathResult};
use godot::prelude::*;

/// How a request's answer is written: the node's `result_format`, where it placed cells and
/// its global transform, as they were when the request was made (its signal may come after
/// they changed).
#[derive(Debug, Clone, Copy)]
pub struct AnswerStyle {
    /// `result_format`.
    pub format: PathFormat,
    /// `region`, `cell_size`, `offset` and the cell layout.
    pub frame: GridFrame,
    /// Where a flow field's `get_direction_world()` places the node.
    pub global_transform: Transform2D,
}

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Finds an optimal path for a unit of `agent_size` (1 to 255) that moves by the rules of
    /// the profile called `profile`, from anchor `start` to anchor `goal` (anchors are the
    /// top-left cells of the unit's square footprint).
    ///
    /// Returns a Dictionary:
    /// - `ok` (bool): whether a path to the goal was found.
    /// - `code` (String): `OK`, `INVALID_AGENT_SIZE`, `UNKNOWN_PROFILE`, `START_OUT_OF_BOUNDS`,
    ///   `GOAL_OUT_OF_BOUNDS`, `MEMORY_LIMIT_REACHED`, `START_CLEARANCE_INSUFFICIENT`,
    ///   `GOAL_CLEARANCE_INSUFFICIENT`, `UNKNOWN_UNIT`, `GOAL_OCCUPIED`, `NO_PATH`,
    ///   `SEARCH_LIMIT_REACHED` or `PARTIAL_PATH`, checked in that order (except that
    ///   `MEMORY_LIMIT_REACHED` for the search graph comes after the clearance and unit
    ///   checks).
    /// - `path` (`Array[Vector2i]`): the anchors from start to goal, both included (one anchor
    ///   when start equals goal); with `PARTIAL_PATH`, to the reachable anchor nearest the
    ///   goal; empty otherwise.
    /// - `total_cost` (float): the cost of `path`, 1.0 per straight step at multiplier 1.0;
    ///   the start is never charged.
    /// - `expanded` (int): anchors the search expanded (0 when validation failed).
    /// - `clearance_found`, `clearance_needed` (int): only with the two clearance codes (and a
    ///   partial path for a goal too narrow for the unit), the clearance at the refused anchor
    ///   and the size that needed more.
    /// - `occupied_by` (int): only with `GOAL_OCCUPIED` (and a partial path for a goal another
    ///   unit stands on), the id of a unit in the way.
    /// - `waypoints` (after `path`, in the same form) and `waypoint_length` (float, after
    ///   `total_cost`): only with `smoothing` set to `SMOOTHING_TAUT`, the taut waypoints of
    ///   `path` (empty with it) and their straight-line length in cells.
    ///
    /// With `allow_partial_path` (as in AStarGrid2D's `get_id_path()`), a goal that cannot be
    /// reached (`NO_PATH`, `GOAL_CLEARANCE_INSUFFICIENT`, or `GOAL_OCCUPIED`) gives
    /// `PARTIAL_PATH` and an optimal path to the reachable anchor nearest the goal
    /// (straight-line distance in steps; the lowest row, then column, among equals); `ok`
    /// stays false.
    ///
    /// Registered units count as `other_units` says. `moving_unit` names the unit that moves
    /// (`NO_UNIT`, -1, the default: none): its own footprint never counts against it, so name
    /// it whenever it is registered. `exempt_units` lists further ids that do not count (the
    /// rest of its group, say). A named id that is not registered gives `UNKNOWN_UNIT`.
    ///
    /// An invalid agent size, an unknown profile or an unknown unit also prints an error.
    #[func]
    // GDScript's signature: the optional arguments trail, as in AStarGrid2D.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> VarDictionary {
        let query = Asked {
            start: cell_of(start),
            goal: cell_of(goal),
            agent_size,
            allow_partial_path,
            moving_unit,
            exempt_units: exempt_units.as_slice(),
        };
        self.answer("find_path", query, &profile, |node, result| {
            node.result_dictionary(result, agent_size)
        })
    }

    /// Starts `find_path()` on a worker thread and returns its request id (1, 2, ...) at once,
    /// or -1 with an error if the system refuses to start worker threads;
    /// `path_found(id, result)` (or `request_failed(id, message)`) follows on the main thread, in a later frame, with the result
    /// for the map as it is now: edits made meanwhile do not affect it (subscribe to
    /// `map_changed` to re-plan), and neither do units moved meanwhile: the request counts
    /// the units where they stood when it was made, by the `other_units` of that moment, with
    /// `moving_unit` and `exempt_units` as in `find_path()`. The node must be inside the scene
    /// tree for results to be delivered. An invalid agent size, unknown profile or unknown
    /// unit prints an error, and the result carries its code.
    #[func]
    // GDScript's signature: the optional arguments trail, as in AStarGrid2D.
    #[allow(clippy::too_many_arguments)]
    pub fn request_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> i64 {
        self.ensure_ready();
        let asked = Asked {
            start: cell_of(start),
            goal: cell_of(goal),
            agent_size,
            allow_partial_path,
            moving_unit,
            exempt_units: exempt_units.as_slice(),
        };
        let query = self.owned_query("request_path", asked, &profile);
        self.submit(Work::Paths {
            queries: vec![query],
            single: true,
        })
    }

    /// Starts a batch of queries on a worker thread and returns its request id at once;
    /// `paths_found(id, results)` follows with one result per query, in order. Each entry of
    /// `queries` is a Dictionary with `start` and `goal` (Vector2i), `agent_size` (int),
    /// `profile` (StringName or String), and optionally `allow_partial_path` (bool),
    /// `max_expansions` (int, 0 for no limit; defaults to `search_expansion_limit`),
    /// `moving_unit` (int) and `exempt_units` (an Array of ints or a `PackedInt64Array`), as
    /// `find_path()` takes them; units count as for `request_path()`. If any entry is
    /// malformed, returns -1, prints an error naming it, and starts nothing.
    #[func]
    pub fn request_paths(&mut self, queries: AnyArray) -> i64 {
        self.ensure_ready();
        match self.owned_queries("request_paths", &queries) {
            Some(queries) => self.submit(Work::Paths {
                queries,
                single: false,
            }),
            None => -1,
        }
    }

    /// Answers a batch of queries (entries as in `request_paths()`) now, spread over
    /// `worker_thread_count` threads plus the calling one, and returns one result Dictionary
    /// per query, in order. If any entry is malformed, returns an empty array and prints an
    /// error naming it.
    #[func]
    pub fn find_paths(&mut self, queries: AnyArray) -> Array<VarDictionary> {
        self.ensure_ready();
        let Some(owned) = self.owned_queries("find_paths", &queries) else {
            return Array::new();
        };
        let batch: Vec<_> = owned.iter().map(OwnedQuery::as_query).collect();
        let threads = self.resolved_worker_count() + 1;
        let results = self.map.query_batch(&batch, threads);
        let dictionaries: Vec<VarDictionary> = results
            .iter()
            .zip(&owned)
            .map(|(result, query)| self.result_dictionary(result, query.agent_size))
            .collect();
        Array::from(dictionaries.as_slice())
    }

    /// Forgets request `id`: its signal will not be emitted. Returns `false` if no such request
    /// is pending (already delivered, cancelled, or never made). A request no worker has
    /// started is dropped at once (with its snapshot of the map, which a later edit then need
    /// not copy round), and a batch from `request_paths()` that is running stops before its
    /// next query. A search, flow field, movement range or group order that is already
    /// running finishes on its worker; its result is dropped in the frame it finishes.
    #[func]
    pub fn cancel_request(&mut self, id: i64) -> bool {
        let cancelled = self.pending.remove(&id).is_some();
        let dropped =
            cancelled && (self.workers.as_ref()).is_some_and(|workers| workers.cancel(id));
        if cancelled && !dropped {
            self.cancelled.insert(id);
        }
        self.process_while_requests_run();
        cancelled
    }

    /// Number of requests whose signal has not been emitted yet.
    #[func]
    pub fn get_pending_request_count(&self) -> i64 {
        self.pending.len() as i64
    }

    /// `find_path()` for units placed in the world: `start_position` and `goal_position` are
    /// **global** positions of footprint centres (where a unit's sprite sits), and the anchors
    /// are the cells whose footprint centre is nearest to them.
    ///
    /// Returns `find_path()`'s Dictionary plus `start_anchor` and `goal_anchor` (Vector2i, the
    /// anchors used) and `points` (PackedVector2Array): the **global** positions of the
    /// footprint centres along the path, for a sprite to follow (also for a partial path); with
    /// `smoothing`, of the waypoints. A NaN or infinite position prints an error and counts as
    /// off the map. `moving_unit` and
    /// `exempt_units` are `find_path()`'s.
    #[func]
    // GDScript's signature: the optional arguments trail, as in AStarGrid2D.
    #[allow(clippy::too_many_arguments)]
    pub fn find_path_world(
        &mut self,
        start_position: Vector2,
        goal_position: Vector2,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
        #[opt(default = -1)] moving_unit: i64,
        #[opt(default = &PackedInt64Array::new())] exempt_units: PackedInt64Array,
    ) -> VarDictionary {
        self.ensure_map();
        let size = checked_agent_size(agent_size).unwrap_or(1);
        let start =
            self.anchor_at_global("find_path_world", "start_position", start_position, size);
        let goal = self.anchor_at_global("find_path_world", "goal_position", goal_position, size);
        let query = Asked {
            start,
            goal,
            agent_size,
            allow_partial_path,
            moving_unit,
            exempt_units: exempt_units.as_slice(),
        };
        self.answer("find_path_world", query, &profile, |node, result| {
            let mut dictionary = node.result_dictionary(result, agent_size);
            let points = node.global_footprint_centers(anchors_to_follow(result), size);
            dictionary.set("start_anchor", vector_of(start));
            dictionary.set("goal_anchor", vector_of(goal));
            dictionary.set("points", &points);
            dictionary
        })
    }
}

/// One path query as a GDScript method asked for it, before the node's settings join it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Asked<'a> {
    pub start: Cell,
    pub goal: Cell,
    pub agent_size: i64,
    pub allow_partial_path: bool,
    /// The `moving_unit` argument: `NO_UNIT` for none.
    pub moving_unit: i64,
    pub exempt_units: &'a [i64],
}

impl ClearancePathfinder {
    /// Answers one query now, hands the result to `convert` for the caller, and keeps it for
    /// `get_last_result()` and, if it has a path (even a partial one), the path for the debug
    /// overlay.
    pub(super) fn answer<T>(
        &mut self,
        method: &str,
        asked: Asked<'_>,
        profile: &StringName,
        convert: impl FnOnce(&Self, &PathResult) -> T,
    ) -> T {
        let result = self.query_now(method, asked, profile);
        let answer = convert(self, &result);
        self.last_result = Some((result, asked.agent_size));
        answer
    }

    /// Answers one query now, printing the error of a bad size, profile or unit id.
    fn query_now(&mut self, method: &str, asked: Asked<'_>, profile: &StringName) -> PathResult {
        self.ensure_ready();
        if self.last_profile.0 != *profile {
            self.last_profile = (profile.clone(), profile.to_string());
        }
        let name = &self.last_profile.1;
        let moving_unit = moving_unit_of(asked.moving_unit);
        let query = PathQuery {
            allow_partial_path: asked.allow_partial_path,
            max_expansions: self.expansion_limit(),
            search: self.search(),
            other_units: self.other_units_rule(),
            moving_unit,
            exempt_units: asked.exempt_units,
            smoothing: self.smoothing(),
            ..PathQuery::new(asked.start, asked.goal, asked.agent_size, name)
        };
        let result = self.map.query(&query);
        // Read off the code, so that a good query pays no profile lookup for its checks.
        match result.code {
            PathCode::InvalidAgentSize | PathCode::UnknownProfile => {
                self.report_bad_size_or_profile(method, asked.agent_size, name);
            }
            // Also where an earlier check answered (a start off the map, say): the mistake
            // is the caller's either way.
            _ => self.report_unknown_units(method, moving_unit, asked.exempt_units),
        }
        if !result.path.is_empty() {
            self.last_path.clone_from(&result.path);
            self.last_waypoints.clone_from(&result.waypoints);
            self.last_agent_size = checked_agent_size(asked.agent_size).unwrap_or(1);
            if self.debug_draw_last_path {
                self.base_mut().queue_redraw();
            }
        }
        result
    }

    /// The query as the worker threads take it, with the node's expansion limit, search mode,
    /// `other_units` rule and `smoothing` as they are now. Off-map, too narrow and unreachable are
    /// outcomes a game meets in play (a click off the map); a bad size, an unknown profile or
    /// an unknown unit is a programming mistake, so it also prints an error.
    fn owned_query(&self, method: &str, asked: Asked<'_>, profile: &StringName) -> OwnedQuery {
        let name = profile.to_string();
        let moving_unit = moving_unit_of(asked.moving_unit);
        self.report_query_mistakes(
            method,
            asked.agent_size,
            &name,
            moving_unit,
            asked.exempt_units,
        );
        OwnedQuery {
            start: asked.start,
            goal: asked.goal,
            agent_size: asked.agent_size,
            profile: name,
            allow_partial_path: asked.allow_partial_path,
            max_expansions: self.expansion_limit(),
            search: self.search(),
            other_units: self.other_units_rule(),
            moving_unit,
            exempt_units: asked.exempt_units.to_vec(),
            smoothing: self.smoothing(),
        }
    }

    /// Prints the errors a query's programming mistakes get: an invalid agent size or an
    /// unknown profile, else a moving or exempt unit that is not registered.
    pub(super) fn report_query_mistakes(
        &self,
        method: &str,
        agent_size: i64,
        profile: &str,
        moving_unit: Option<i64>,
        exempt_units: &[i64],
    ) {
        if let Some(problem) = self.query_mistake(agent_size, profile, moving_unit, exempt_units) {
            pathfinder_error!(method, "{problem}");
        }
    }

    /// A query's first programming mistake, as `report_query_mistakes` prints it, if it has
    /// one.
    fn query_mistake(
        &self,
        agent_size: i64,
        profile: &str,
        moving_unit: Option<i64>,
        exempt_units: &[i64],
    ) -> Option<String> {
        if let Some(problem) = self.size_or_profile_problem(agent_size, profile) {
            return Some(problem);
        }
        let named = [
            ("moving_unit", moving_unit.as_slice()),
            ("exempt_units", exempt_units),
        ];
        self.first_unregistered(&named)
    }

    /// Prints the error `find_path()` prints for an invalid agent size or an unknown profile:
    /// a programming mistake rather than an outcome of play. Returns whether both are fine.
    pub(super) fn report_bad_size_or_profile(
        &self,
        method: &str,
        agent_size: i64,
        profile: &str,
    ) -> bool {
        let problem = self.size_or_profile_problem(agent_size, profile);
        if let Some(problem) = &problem {
            pathfinder_error!(method, "{problem}");
        }
        problem.is_none()
    }

    /// What is wrong with an agent size or a profile name, if either is.
    fn size_or_profile_problem(&self, agent_size: i64, profile: &str) -> Option<String> {
        if checked_agent_size(agent_size).is_none() {
            return Some(agent_size_problem(agent_size));
        }
        (self.map.profile(profile).is_none()).then(|| format!("no profile called '{profile}'"))
    }

    /// `search_expansion_limit` as a query takes it: `None` for no limit.
    pub(super) fn expansion_limit(&self) -> Option<u64> {
        u64::try_from(self.search_expansion_limit)
            .ok()
            .filter(|&limit| limit > 0)
    }

    /// The queries of a `request_paths()` or `find_paths()` batch, or `None` (with an error
    /// naming the first bad entry) if any entry is malformed. Entries with a bad size, an
    /// unknown profile or an unknown unit are kept (their results carry the code); the first
    /// gets `find_path()`'s error, naming its entry, and a second line counts the rest.
    fn owned_queries(&self, method: &str, queries: &AnyArray) -> Option<Vec<OwnedQuery>> {
        let mut owned = Vec::with_capacity(queries.len());
        for (index, entry) in queries.iter_shared().enumerate() {
            match query_from_variant(&entry, self.expansion_limit()) {
                Ok(query) => owned.push(OwnedQuery {
                    search: self.search(),
                    other_units: self.other_units_rule(),
                    moving_unit: query.moving_unit.and_then(moving_unit_of),
                    smoothing: self.smoothing(),
                    ..query
                }),
                Err(problem) => {
                    pathfinder_error!(method, "queries[{index}] {problem}; nothing was started");
                    return None;
                }
            }
        }
        // The first mistaken entry's error, and how many more there are: a batch of a
        // thousand units with one wrong profile name prints two lines, not a thousand.
        let mut mistaken = (owned.iter().enumerate()).filter_map(|(index, query)| {
            let problem = self.query_mistake(
                query.agent_size,
                &query.profile,
                query.moving_unit,
                &query.exempt_units,
            )?;
            Some((index, problem))
        });
        if let Some((index, problem)) = mistaken.next() {
            pathfinder_error!(method, "queries[{index}]: {problem}");
            let more = mistaken.count();
            if more > 0 {
                pathfinder_error!(method, "and {more} more entries with such mistakes");
            }
        }
        Some(owned)
    }

    /// How this node writes result Dictionaries now: its keys, `result_format` and frame.
    /// (Not through [`answer_style`](Self::answer_style): a query needs no transform, and
    /// reading it is a call into the engine.)
    pub(super) fn result_writer(&self) -> ResultWriter<'_> {
        ResultWriter {
            keys: &self.result_keys,
            format: self.path_format(),
            frame: self.frame(),
        }
    }

    /// How the node writes answers now, kept with each request until its signal.
    pub(super) fn answer_style(&self) -> AnswerStyle {
        AnswerStyle {
            format: self.path_format(),
            frame: self.frame(),
            global_transform: self.global_transform(),
        }
    }

    /// The node's global transform; outside the tree the engine has none (and prints an error
    /// if asked), so the node's own, the one it will have at the root.
    pub(super) fn global_transform(&self) -> Transform2D {
        if self.base().is_inside_tree() {
            self.base().get_global_transform()
        } else {
            self.base().get_transform()
        }
    }

    /// Writes result Dictionaries in `style`, with this node's keys.
    pub(super) fn writer_for(&self, style: AnswerStyle) -> ResultWriter<'_> {
        ResultWriter {
            keys: &self.result_keys,
            format: style.format,
            frame: style.frame,
        }
    }

    /// The result Dictionary of `result`, for a unit of `agent_size`, with `path` in the
    /// node's `result_format`.
    pub(super) fn result_dictionary(&self, result: &PathResult, agent_size: i64) -> VarDictionary {
        self.result_writer().dictionary(result, agent_size)
    }
}
