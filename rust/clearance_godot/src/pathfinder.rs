//! The `ClearancePathfinder` node.
#![forbid(unsafe_code)]

use crate::convert::{
    bounding_rect, cell_of, cell_outside, rect_of, region_of, terrain_id, valid_agent_size,
    vector_of,
};
use crate::profile::AgentProfile;
use crate::workers::{Job, OwnedQuery, Workers};
use clearance_core::{
    AgentProfile as CoreProfile, Cell, LandmarkPlacement, LandmarkStats, Movement, PathMap,
    PathResult, Region, TerrainEdit, TerrainGrid, TerrainId, MAX_LANDMARKS,
};
use godot::classes::{Engine, INode2D, Node2D, Os, TileMapLayer};
use godot::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// AStarGrid2D's `DIAGONAL_MODE_NEVER`: 4-way movement.
const DIAGONAL_MODE_NEVER: i64 = 1;
/// AStarGrid2D's `DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES`: 8-way movement without cutting corners.
const DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES: i64 = 3;

/// The heat map draws one rectangle per cell; above this many cells it is skipped (and a
/// configuration warning says so) to keep the editor and the game responsive.
const MAX_HEAT_MAP_CELLS: u64 = 65_536;

/// Default `max_map_cells`: a 4096 x 4096 map.
const DEFAULT_MAX_MAP_CELLS: i64 = 1 << 24;

/// Grid pathfinding for units of many sizes and terrain rules on one shared map.
///
/// The node holds a map of terrain ids (0 to 255) over `region`, and named profiles (from
/// `AgentProfile` resources in `profiles`, or from code with `set_profile()`) that say which
/// terrains a kind of unit may enter and at what cost. `find_path()` takes the start and goal
/// **anchors** (the top-left cell of the unit's `agent_size` x `agent_size` footprint), the
/// agent size and a profile name, and returns an optimal path or a code that says why there is
/// none:
///
/// ```gdscript
/// var result := $ClearancePathfinder.find_path(Vector2i(2, 2), Vector2i(30, 9), 2, &"truck")
/// if result.ok:
///     follow(result.path)           # Array[Vector2i] of anchors, start and goal included
/// else:
///     print(result.code)            # e.g. "GOAL_CLEARANCE_INSUFFICIENT"
/// ```
///
/// **The map** is built from `region`, filled with `default_terrain`, on ready. Assigning
/// `region` or `default_terrain` later discards the terrain (edits included) and rebuilds the
/// map, filled again, before the next query or edit; profiles are kept. `import_tile_map_layer()`
/// replaces region and terrain at once.
///
/// **Costs** follow the entry-cost convention: a step costs its length (1 straight, sqrt 2
/// diagonal) times the highest multiplier under the footprint where it arrives; the start is
/// never charged. Equal queries on equal maps return equal paths.
///
/// **Coordinates**: cell `(0, 0)` has its top-left corner at `offset` in the node's local
/// space and each cell is `cell_size` wide, as in AStarGrid2D. `cell_to_local()` and
/// `footprint_center()` return local positions; `find_path_world()` works in global positions.
///
/// **Errors**: bad arguments (an agent size outside 1 to 255, an unknown profile, a terrain
/// outside 0 to 255, a cell or rectangle off the map, arrays of different lengths, NaN
/// weights...) return a failure code, `false`, `-1` or an empty result, print an error that
/// names the method and the problem, and change nothing. A query whose start or goal is off
/// the map, too narrow for the unit, or unreachable is a normal outcome, reported by its code
/// only.
#[derive(GodotClass)]
#[class(tool, base = Node2D)]
pub struct ClearancePathfinder {
    /// The cells the map covers, like AStarGrid2D's `region`; the origin may be negative.
    /// Width and height must be from 1 to 32768 (at most 2^28 cells); anything else is
    /// refused with an error. Changing it rebuilds the map filled with `default_terrain`
    /// (terrain edits are discarded, profiles kept) and emits `map_changed`.
    #[export]
    #[var(set = set_region)]
    region: Rect2i,

    /// Size of one cell in local units (both components finite and above 0).
    #[export]
    #[var(set = set_cell_size)]
    cell_size: Vector2,

    /// Local position of the top-left corner of cell `(0, 0)`.
    #[export]
    #[var(set = set_offset)]
    offset: Vector2,

    /// How units move, with AStarGrid2D's constants: `DIAGONAL_MODE_NEVER` (1) for 4-way
    /// movement, or `DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES` (3, the default) for 8-way movement
    /// where a diagonal step also needs both orthogonal anchors it passes to be legal for the
    /// unit's size (no corner cutting). Other values are refused with an error.
    #[export(enum = (Never = 1, OnlyIfNoObstacles = 3))]
    #[var(set = set_diagonal_mode)]
    diagonal_mode: i64,

    /// Terrain id (0 to 255) every cell gets when the map is built or rebuilt. Changing it
    /// rebuilds the map (terrain edits are discarded) and emits `map_changed`.
    #[export(range = (0.0, 255.0))]
    #[var(set = set_default_terrain)]
    default_terrain: i64,

    /// Terrain id (0 to 255) that `import_tile_map_layer()` gives cells without a tile. The
    /// default, 255, is this addon's convention for "blocked": list it in no profile, and no
    /// unit will enter empty cells.
    #[export(range = (0.0, 255.0))]
    #[var(set = set_empty_cell_terrain)]
    empty_cell_terrain: i64,

    /// Landmarks per profile for the differential heuristic (0 to 64; 0 turns them off).
    /// Landmarks make long queries on maps with walls expand several times fewer cells;
    /// results stay optimal. Each profile's table is built on its first query after a change,
    /// or at once by `bake_landmarks()`, and costs 4 bytes per cell per landmark (8 where the
    /// profile's multipliers differ). Edits that only raise costs or close cells keep the
    /// tables; other edits drop them until they are rebuilt.
    #[export(range = (0.0, 64.0))]
    #[var(set = set_landmark_count)]
    landmark_count: i64,

    /// The profiles to register, edited in the inspector. Registered on ready and whenever this
    /// property is assigned or a profile in it emits `changed`; invalid entries are skipped
    /// with an error and listed in the configuration warnings. If you change the array in
    /// place (`profiles.append(p)`), call `reload_profiles()`. A resource profile replaces a
    /// profile of the same name added with `set_profile()`.
    #[export]
    #[var(set = set_profiles)]
    profiles: Array<Option<Gd<AgentProfile>>>,

    /// Draws a heat map of each cell's clearance for `debug_profile`: dark for cells the
    /// profile cannot enter, then red (room for a 1x1) through yellow to green (room for 6x6
    /// and more). Skipped for maps of more than 65,536 cells.
    #[export_group(name = "Debug Overlay", prefix = "debug_")]
    #[export]
    #[var(set = set_debug_draw_clearance)]
    debug_draw_clearance: bool,

    /// The profile whose clearance the heat map shows.
    #[export]
    #[var(set = set_debug_profile)]
    debug_profile: StringName,

    /// Draws the footprints and centre line of the last path `find_path()` or
    /// `find_path_world()` found.
    #[export]
    #[var(set = set_debug_draw_last_path)]
    debug_draw_last_path: bool,

    /// Worker threads for `request_path()` and `request_paths()` (0: one fewer than the
    /// machine's processors, at least 1). Applies from the next request; changing it waits for
    /// running queries to finish and drops queued requests (their signals never come).
    #[export(range = (0.0, 64.0))]
    #[var(set = set_worker_thread_count)]
    worker_thread_count: i64,

    /// Most anchors one query may expand (0: no limit). A query that needs more fails with
    /// `SEARCH_LIMIT_REACHED`; the limit bounds the time any query can take.
    #[export(range = (0.0, 1000000000.0, or_greater))]
    #[var(set = set_search_expansion_limit)]
    search_expansion_limit: i64,

    /// Most memory, in MiB, the map's cached clearance layers, search graphs and landmark
    /// tables may hold together (1 to 1048576). A query that would need more fails with
    /// `MEMORY_LIMIT_REACHED` instead of exhausting memory.
    #[export(range = (1.0, 1048576.0))]
    #[var(set = set_cache_memory_limit_mb)]
    cache_memory_limit_mb: i64,

    /// Largest map accepted, in cells (1 to 268435456): `region` and
    /// `import_tile_map_layer()` refuse anything larger with an error. The default,
    /// 16777216, is a 4096 x 4096 map.
    #[export(range = (1.0, 268435456.0))]
    #[var(set = set_max_map_cells)]
    max_map_cells: i64,

    /// The map; shared with worker threads, which see the version current at their request.
    /// Edits copy what a running request still reads (copy on write).
    map: Arc<PathMap>,
    workers: Option<Workers>,
    next_request_id: i64,
    /// Requests whose signal has not been emitted yet.
    pending: HashSet<i64>,
    /// `region` or `default_terrain` changed since the map was built.
    map_stale: bool,
    /// `profiles` changed since its resources were registered.
    profiles_stale: bool,
    /// Names registered from `profiles` last time, so a reload can retire them.
    resource_profile_names: Vec<String>,
    last_path: Vec<Cell>,
    last_agent_size: u8,

    base: Base<Node2D>,
}

#[godot_api]
impl INode2D for ClearancePathfinder {
    fn init(base: Base<Node2D>) -> Self {
        let region = Region::new(0, 0, 32, 32);
        let grid = TerrainGrid::new(region, 0).expect("the constant default region is valid");
        ClearancePathfinder {
            region: rect_of(region),
            cell_size: Vector2::new(16.0, 16.0),
            offset: Vector2::ZERO,
            diagonal_mode: DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES,
            default_terrain: 0,
            empty_cell_terrain: 255,
            landmark_count: 0,
            profiles: Array::new(),
            debug_draw_clearance: false,
            debug_profile: StringName::default(),
            debug_draw_last_path: false,
            worker_thread_count: 0,
            search_expansion_limit: 0,
            cache_memory_limit_mb: (clearance_core::DEFAULT_CACHE_MEMORY_LIMIT >> 20) as i64,
            max_map_cells: DEFAULT_MAX_MAP_CELLS,
            map: Arc::new(PathMap::new(grid)),
            workers: None,
            next_request_id: 1,
            pending: HashSet::new(),
            map_stale: false,
            profiles_stale: true,
            resource_profile_names: Vec::new(),
            last_path: Vec::new(),
            last_agent_size: 1,
            base,
        }
    }

    fn ready(&mut self) {
        self.ensure_map();
        // In the editor, configuration warnings report bad profiles; errors would repeat them.
        let report = !Engine::singleton().is_editor_hint();
        self.register_profile_resources(report);
    }

    fn draw(&mut self) {
        self.ensure_map();
        if self.profiles_stale {
            self.register_profile_resources(false);
        }
        if Engine::singleton().is_editor_hint() {
            let outline = self.cells_rect(self.map.region());
            self.base_mut()
                .draw_rect_ex(outline, Color::from_rgba(1.0, 1.0, 1.0, 0.5))
                .filled(false)
                .width(1.0)
                .done();
        }
        if self.debug_draw_clearance {
            self.draw_heat_map();
        }
        if self.debug_draw_last_path && !self.last_path.is_empty() {
            self.draw_last_path();
        }
    }

    /// Delivers finished requests; processing is on only while requests are pending.
    fn process(&mut self, _delta: f64) {
        self.deliver_finished_requests();
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut warnings = PackedStringArray::new();
        if self.profiles.is_empty() {
            warnings.push(
                "No AgentProfile in `profiles`. Add one in the inspector, or register \
                 profiles from code with set_profile() before querying.",
            );
        }
        let (valid, problems) = self.read_profile_resources();
        for problem in problems {
            warnings.push(problem.as_str());
        }
        if self.debug_draw_clearance {
            let name = self.debug_profile.to_string();
            if name.is_empty() {
                warnings.push("Debug Overlay: set `debug_profile` to the profile to draw.");
            } else if !valid.iter().any(|profile| profile.name() == name) {
                warnings.push(
                    format!(
                        "Debug Overlay: `debug_profile` '{name}' is not one of the AgentProfile \
                         resources (a profile added from code is drawn when the game runs)."
                    )
                    .as_str(),
                );
            }
            if region_of(self.region).area() > MAX_HEAT_MAP_CELLS {
                warnings.push(
                    format!(
                        "Debug Overlay: the clearance heat map is skipped for maps of more than \
                         {MAX_HEAT_MAP_CELLS} cells."
                    )
                    .as_str(),
                );
            }
        }
        warnings
    }
}

#[godot_api]
impl ClearancePathfinder {
    /// `diagonal_mode` for 4-way movement (same value as AStarGrid2D's).
    #[constant]
    const DIAGONAL_MODE_NEVER: i64 = DIAGONAL_MODE_NEVER;

    /// `diagonal_mode` for 8-way movement without cutting corners (same value as
    /// AStarGrid2D's).
    #[constant]
    const DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES: i64 = DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES;

    /// Emitted after every successful terrain change (`set_cell_terrain()`,
    /// `fill_rect_terrain()`, `load_terrain()`, `apply_terrain_batch()`,
    /// `import_tile_map_layer()`, and a new `region` or `default_terrain`), with the rectangle
    /// of cells that may have changed.
    #[signal]
    fn map_changed(rect: Rect2i);

    /// Emitted on the main thread when the request `id` from `request_path()` has finished,
    /// with the Dictionary `find_path()` would have returned for the map as it was when the
    /// request was made.
    #[signal]
    fn path_found(id: i64, result: VarDictionary);

    /// Emitted on the main thread when the batch `id` from `request_paths()` has finished,
    /// with one result Dictionary per query, in the order of the queries.
    #[signal]
    fn paths_found(id: i64, results: VarArray);

    // ---------------------------------------------------------------------------------------
    // Queries

    /// Finds an optimal path for a unit of `agent_size` (1 to 255) that moves by the rules of
    /// the profile called `profile`, from anchor `start` to anchor `goal` (anchors are the
    /// top-left cells of the unit's square footprint).
    ///
    /// Returns a Dictionary:
    /// - `ok` (bool): whether a path to the goal was found.
    /// - `code` (String): `OK`, `INVALID_AGENT_SIZE`, `UNKNOWN_PROFILE`, `START_OUT_OF_BOUNDS`,
    ///   `GOAL_OUT_OF_BOUNDS`, `MEMORY_LIMIT_REACHED`, `START_CLEARANCE_INSUFFICIENT`,
    ///   `GOAL_CLEARANCE_INSUFFICIENT`, `NO_PATH`, `SEARCH_LIMIT_REACHED` or `PARTIAL_PATH`,
    ///   checked in that order.
    /// - `path` (Array[Vector2i]): the anchors from start to goal, both included (one anchor
    ///   when start equals goal); with `PARTIAL_PATH`, to the reachable anchor nearest the
    ///   goal; empty otherwise.
    /// - `total_cost` (float): the cost of `path`, 1.0 per straight step at multiplier 1.0;
    ///   the start is never charged.
    /// - `expanded` (int): anchors the search expanded (0 when validation failed).
    /// - `clearance_found`, `clearance_needed` (int): only with the two clearance codes (and a
    ///   partial path for a goal too narrow for the unit), the clearance at the refused anchor
    ///   and the size that needed more.
    ///
    /// With `allow_partial_path` (as in AStarGrid2D's `get_id_path()`), a goal that cannot be
    /// reached (`NO_PATH`, or `GOAL_CLEARANCE_INSUFFICIENT`) gives `PARTIAL_PATH` and an
    /// optimal path to the reachable anchor nearest the goal (straight-line distance in
    /// steps; the lowest row, then column, among equals); `ok` stays false.
    ///
    /// An invalid agent size or an unknown profile also prints an error.
    #[func]
    pub fn find_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
    ) -> VarDictionary {
        let result = self.query(
            "find_path",
            cell_of(start),
            cell_of(goal),
            agent_size,
            &profile,
            allow_partial_path,
        );
        result_dictionary(&result)
    }

    /// Starts `find_path()` on a worker thread and returns its request id (1, 2, ...) at once;
    /// `path_found(id, result)` follows on the main thread, in a later frame, with the result
    /// for the map as it is now: edits made meanwhile do not affect it (subscribe to
    /// `map_changed` to re-plan). The node must be inside the scene tree for results to be
    /// delivered. An invalid agent size or unknown profile prints an error, and the result
    /// carries its code.
    #[func]
    pub fn request_path(
        &mut self,
        start: Vector2i,
        goal: Vector2i,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
    ) -> i64 {
        self.ensure_ready();
        let query = self.owned_query(
            "request_path",
            cell_of(start),
            cell_of(goal),
            agent_size,
            &profile,
            allow_partial_path,
        );
        self.submit(vec![query], true)
    }

    /// Starts a batch of queries on a worker thread and returns its request id at once;
    /// `paths_found(id, results)` follows with one result per query, in order. Each entry of
    /// `queries` is a Dictionary with `start` and `goal` (Vector2i), `agent_size` (int),
    /// `profile` (StringName or String), and optionally `allow_partial_path` (bool) and
    /// `max_expansions` (int, 0 for no limit; defaults to `search_expansion_limit`). If any
    /// entry is malformed, returns -1, prints an error naming it, and starts nothing.
    #[func]
    pub fn request_paths(&mut self, queries: VarArray) -> i64 {
        self.ensure_ready();
        match self.owned_queries("request_paths", &queries) {
            Some(queries) => self.submit(queries, false),
            None => -1,
        }
    }

    /// Answers a batch of queries (entries as in `request_paths()`) now, spread over
    /// `worker_thread_count` threads plus the calling one, and returns one result Dictionary
    /// per query, in order. If any entry is malformed, returns an empty array and prints an
    /// error naming it.
    #[func]
    pub fn find_paths(&mut self, queries: VarArray) -> Array<VarDictionary> {
        self.ensure_ready();
        let Some(owned) = self.owned_queries("find_paths", &queries) else {
            return Array::new();
        };
        let batch: Vec<_> = owned.iter().map(OwnedQuery::as_query).collect();
        let threads = self.resolved_worker_count() + 1;
        let results = self.map.query_batch(&batch, threads);
        let dictionaries: Vec<VarDictionary> = results.iter().map(result_dictionary).collect();
        Array::from(dictionaries.as_slice())
    }

    /// Forgets request `id`: its signal will not be emitted. Returns `false` if no such request
    /// is pending (already delivered, cancelled, or never made). The query itself may still
    /// run to completion on its worker.
    #[func]
    pub fn cancel_request(&mut self, id: i64) -> bool {
        let cancelled = self.pending.remove(&id);
        if self.pending.is_empty() {
            self.base_mut().set_process(false);
        }
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
    /// footprint centres along the path, for a sprite to follow (also for a partial path). A NaN or
    /// infinite position prints an error and counts as off the map.
    #[func]
    pub fn find_path_world(
        &mut self,
        start_position: Vector2,
        goal_position: Vector2,
        agent_size: i64,
        profile: StringName,
        #[opt(default = false)] allow_partial_path: bool,
    ) -> VarDictionary {
        self.ensure_map();
        let size = valid_agent_size(agent_size).unwrap_or(1);
        let start =
            self.anchor_at_global("find_path_world", "start_position", start_position, size);
        let goal = self.anchor_at_global("find_path_world", "goal_position", goal_position, size);
        let result = self.query(
            "find_path_world",
            start,
            goal,
            agent_size,
            &profile,
            allow_partial_path,
        );
        let mut dictionary = result_dictionary(&result);
        let mut points = PackedVector2Array::new();
        for &anchor in &result.path {
            let local = self.footprint_centre(anchor, size);
            points.push(self.base().to_global(local));
        }
        dictionary.set("start_anchor", vector_of(start));
        dictionary.set("goal_anchor", vector_of(goal));
        dictionary.set("points", &points);
        dictionary
    }

    /// The cells a unit of `agent_size` covers at `anchor`, row by row from the anchor (the
    /// top-left cell). Pure geometry: cells off the map are included. An agent size outside 1
    /// to 255 prints an error and returns an empty array.
    #[func]
    pub fn get_footprint_cells(&self, anchor: Vector2i, agent_size: i64) -> Array<Vector2i> {
        let mut cells = Array::new();
        let Some(size) = valid_agent_size(agent_size) else {
            godot_error!(
                "ClearancePathfinder.get_footprint_cells: agent_size must be from 1 to 255, \
                 got {agent_size}"
            );
            return cells;
        };
        let reach = i32::from(size) - 1;
        if anchor.x.checked_add(reach).is_none() || anchor.y.checked_add(reach).is_none() {
            godot_error!(
                "ClearancePathfinder.get_footprint_cells: a footprint of size {size} at \
                 {anchor} reaches beyond the 32-bit coordinate range"
            );
            return cells;
        }
        for dy in 0..=reach {
            for dx in 0..=reach {
                cells.push(Vector2i::new(anchor.x + dx, anchor.y + dy));
            }
        }
        cells
    }

    /// The clearance of `cell` for the profile called `profile`: the side of the largest
    /// square with top-left cell `cell` that the profile may enter entirely (0 if it may not
    /// enter the cell, at most 255). A unit of size k fits at an anchor iff its clearance is at
    /// least k. Returns -1 and prints an error for an unknown profile or a cell off the map.
    #[func]
    pub fn get_clearance(&mut self, cell: Vector2i, profile: StringName) -> i64 {
        self.ensure_ready();
        let name = profile.to_string();
        if self.map.profile(&name).is_none() {
            godot_error!("ClearancePathfinder.get_clearance: no profile called '{name}'");
            return -1;
        }
        match self.map.clearance(cell_of(cell), &name) {
            Some(clearance) => i64::from(clearance),
            None if self.map.grid().index_of(cell_of(cell)).is_some() => {
                godot_error!(
                    "ClearancePathfinder.get_clearance: the clearance layer would exceed \
                     cache_memory_limit_mb ({})",
                    self.cache_memory_limit_mb
                );
                -1
            }
            None => {
                godot_error!(
                    "ClearancePathfinder.get_clearance: cell {cell} lies outside the map region \
                     {}",
                    self.region
                );
                -1
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Coordinates

    /// The cell containing `local_position` (in the node's local space). A NaN or infinite
    /// position prints an error and returns `Vector2i(0, 0)`; very distant positions clamp to
    /// the 32-bit range.
    #[func]
    pub fn local_to_cell(&self, local_position: Vector2) -> Vector2i {
        if !local_position.is_finite() {
            godot_error!(
                "ClearancePathfinder.local_to_cell: position {local_position} is not finite"
            );
            return Vector2i::ZERO;
        }
        vector_of(self.cell_containing(local_position))
    }

    /// The local position of the centre of `cell`.
    #[func]
    pub fn cell_to_local(&self, cell: Vector2i) -> Vector2 {
        self.footprint_centre(cell_of(cell), 1)
    }

    /// The local position of the centre of the footprint of a unit of `agent_size` at `anchor`:
    /// where its sprite belongs. An agent size outside 1 to 255 prints an error and returns
    /// `Vector2(0, 0)`.
    #[func]
    pub fn footprint_center(&self, anchor: Vector2i, agent_size: i64) -> Vector2 {
        match valid_agent_size(agent_size) {
            Some(size) => self.footprint_centre(cell_of(anchor), size),
            None => {
                godot_error!(
                    "ClearancePathfinder.footprint_center: agent_size must be from 1 to 255, \
                     got {agent_size}"
                );
                Vector2::ZERO
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Terrain

    /// Sets the terrain of one cell. Returns `false` and prints an error (changing nothing) if
    /// the cell is off the map or `terrain` is not from 0 to 255.
    #[func]
    pub fn set_cell_terrain(&mut self, cell: Vector2i, terrain: i64) -> bool {
        let Some(id) = checked_terrain("set_cell_terrain", "terrain", terrain) else {
            return false;
        };
        self.ensure_map();
        match self.map_mut().set_cell(cell_of(cell), id) {
            Ok(()) => {
                self.after_terrain_change(Rect2i::new(cell, Vector2i::ONE));
                true
            }
            Err(error) => {
                godot_error!("ClearancePathfinder.set_cell_terrain: {error}; nothing changed");
                false
            }
        }
    }

    /// Sets the terrain of every cell of `rect`, which must be non-empty and lie inside the
    /// map. Returns `false` and prints an error (changing nothing) otherwise, or if `terrain`
    /// is not from 0 to 255.
    #[func]
    pub fn fill_rect_terrain(&mut self, rect: Rect2i, terrain: i64) -> bool {
        let Some(id) = checked_terrain("fill_rect_terrain", "terrain", terrain) else {
            return false;
        };
        self.ensure_map();
        match self.map_mut().fill_rect(region_of(rect), id) {
            Ok(()) => {
                self.after_terrain_change(rect);
                true
            }
            Err(error) => {
                godot_error!("ClearancePathfinder.fill_rect_terrain: {error}; nothing changed");
                false
            }
        }
    }

    /// Replaces the terrain of the whole map: one byte per cell, row by row from the top-left
    /// cell of `region`, so `data.size()` must equal `region.get_area()`. Returns `false` and
    /// prints an error (changing nothing) otherwise. `get_terrain_data()` is the inverse.
    #[func]
    pub fn load_terrain(&mut self, data: PackedByteArray) -> bool {
        self.ensure_map();
        match self.map_mut().load_terrain(data.as_slice()) {
            Ok(()) => {
                let whole = rect_of(self.map.region());
                self.after_terrain_change(whole);
                true
            }
            Err(error) => {
                godot_error!("ClearancePathfinder.load_terrain: {error}; nothing changed");
                false
            }
        }
    }

    /// The terrain of the whole map, one byte per cell, row by row from the top-left cell of
    /// `region` (what `load_terrain()` takes).
    #[func]
    pub fn get_terrain_data(&mut self) -> PackedByteArray {
        self.ensure_map();
        PackedByteArray::from(self.map.grid().as_bytes())
    }

    /// Sets `cells[i]` to `terrains[i]` for every i, all or nothing: every entry is checked
    /// (equal lengths, terrains from 0 to 255, cells on the map) before the first write. On a
    /// bad entry returns `false`, prints an error naming it, and changes nothing. An empty
    /// batch is valid and changes nothing.
    #[func]
    pub fn apply_terrain_batch(
        &mut self,
        cells: Array<Vector2i>,
        terrains: PackedInt32Array,
    ) -> bool {
        if cells.len() != terrains.len() {
            godot_error!(
                "ClearancePathfinder.apply_terrain_batch: {} cells but {} terrains; the arrays \
                 are parallel and need the same length; nothing changed",
                cells.len(),
                terrains.len()
            );
            return false;
        }
        let mut edits = Vec::with_capacity(cells.len());
        let mut changed = Vec::with_capacity(cells.len());
        for (index, (cell, &terrain)) in cells.iter_shared().zip(terrains.as_slice()).enumerate() {
            let Some(id) = terrain_id(i64::from(terrain)) else {
                godot_error!(
                    "ClearancePathfinder.apply_terrain_batch: terrains[{index}] is {terrain}, not \
                     a terrain id from 0 to 255; nothing changed"
                );
                return false;
            };
            let cell = cell_of(cell);
            edits.push(TerrainEdit::Cell { cell, terrain: id });
            changed.push(cell);
        }
        self.ensure_map();
        match self.map_mut().apply_edits(&edits) {
            Ok(()) => {
                if let Some(rect) = bounding_rect(&changed) {
                    self.after_terrain_change(rect);
                }
                true
            }
            Err(error) => {
                godot_error!("ClearancePathfinder.apply_terrain_batch: {error}");
                false
            }
        }
    }

    /// The terrain id of `cell`, or -1 (with an error) if it lies off the map.
    #[func]
    pub fn get_cell_terrain(&mut self, cell: Vector2i) -> i64 {
        self.ensure_map();
        match self.map.grid().terrain(cell_of(cell)) {
            Some(terrain) => i64::from(terrain),
            None => {
                godot_error!(
                    "ClearancePathfinder.get_cell_terrain: cell {cell} lies outside the map \
                     region {}",
                    self.region
                );
                -1
            }
        }
    }

    /// Replaces region and terrain with those of a TileMapLayer: `region` becomes
    /// `layer.get_used_rect()`, and each cell takes the int stored in its tile's custom data
    /// layer named `terrain_layer_name` (0 to 255); cells without a tile get
    /// `empty_cell_terrain`. Returns `false` and prints an error, changing nothing, if the
    /// layer is null or empty, has no TileSet, the TileSet has no int custom data layer of that
    /// name, or a tile's value is out of range. Profiles are kept; `cell_size` and `offset` are
    /// not changed (set them to match the layer's tile size and position).
    #[func]
    pub fn import_tile_map_layer(
        &mut self,
        layer: Option<Gd<TileMapLayer>>,
        terrain_layer_name: GString,
    ) -> bool {
        let Some(layer) = layer else {
            godot_error!("ClearancePathfinder.import_tile_map_layer: the layer is null");
            return false;
        };
        let used = region_of(layer.get_used_rect());
        if used.area() > self.max_map_cells as u64 {
            godot_error!(
                "ClearancePathfinder.import_tile_map_layer: the layer covers {} cells, more than \
                 max_map_cells ({}); nothing changed",
                used.area(),
                self.max_map_cells
            );
            return false;
        }
        let grid = match terrain_from_layer(&layer, &terrain_layer_name, self.empty_cell_terrain) {
            Ok(grid) => grid,
            Err(problem) => {
                godot_error!(
                    "ClearancePathfinder.import_tile_map_layer: {problem}; nothing changed"
                );
                return false;
            }
        };
        let region = grid.region();
        self.replace_grid(grid);
        self.region = rect_of(region);
        self.after_terrain_change(rect_of(region));
        true
    }

    // ---------------------------------------------------------------------------------------
    // Profiles

    /// Registers (or replaces) the profile called `name` from code. `costs` maps terrain ids
    /// (int keys, 0 to 255) to cost multipliers (int or float values, finite, 0 to 10000); a
    /// terrain not listed is impassable: `set_profile(&"boat", {4: 1.0})`. Returns `false`
    /// and prints an error, changing nothing, for an empty name or any bad key or value.
    #[func]
    pub fn set_profile(&mut self, name: StringName, costs: VarDictionary) -> bool {
        let name = name.to_string();
        match profile_from_dictionary(&name, &costs) {
            Ok(profile) => {
                self.ensure_ready();
                match self.map_mut().set_profile(profile) {
                    Ok(()) => {
                        self.after_profile_change();
                        true
                    }
                    Err(error) => {
                        godot_error!("ClearancePathfinder.set_profile: {error}; nothing changed");
                        false
                    }
                }
            }
            Err(problem) => {
                godot_error!("ClearancePathfinder.set_profile: {problem}; nothing changed");
                false
            }
        }
    }

    /// Unregisters the profile called `name`. Returns `false` and prints an error if there is
    /// none. A profile from `profiles` comes back on the next `reload_profiles()`.
    #[func]
    pub fn remove_profile(&mut self, name: StringName) -> bool {
        self.ensure_ready();
        let name = name.to_string();
        if self.map_mut().remove_profile(&name) {
            self.after_profile_change();
            true
        } else {
            godot_error!("ClearancePathfinder.remove_profile: no profile called '{name}'");
            false
        }
    }

    /// Whether a profile called `name` is registered.
    #[func]
    pub fn has_profile(&mut self, name: StringName) -> bool {
        self.ensure_ready();
        self.map.profile(&name.to_string()).is_some()
    }

    /// The names of all registered profiles, sorted.
    #[func]
    pub fn get_profile_names(&mut self) -> PackedStringArray {
        self.ensure_ready();
        let mut names: Vec<&str> = self.map.profiles().map(CoreProfile::name).collect();
        names.sort_unstable();
        names.into_iter().map(GString::from).collect()
    }

    /// Registers the AgentProfile resources in `profiles` again (after they were changed in
    /// place), retiring the ones registered from it before. Invalid entries are skipped with an
    /// error each; returns `true` if every entry was valid.
    #[func]
    pub fn reload_profiles(&mut self) -> bool {
        self.ensure_map();
        self.register_profile_resources(true)
    }

    /// Marks the resource profiles for registration before the next query: connected to the
    /// `changed` signal of each AgentProfile in `profiles`.
    #[func]
    fn _on_profile_changed(&mut self) {
        self.profiles_stale = true;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }

    // ---------------------------------------------------------------------------------------
    // Property setters

    /// Sets `region`; see the property.
    #[func]
    pub fn set_region(&mut self, region: Rect2i) {
        if let Err(error) = region_of(region).validate_as_map() {
            godot_error!("ClearancePathfinder.region: {error}; the region is unchanged");
            return;
        }
        if region_of(region).area() > self.max_map_cells as u64 {
            godot_error!(
                "ClearancePathfinder.region: {region} has {} cells, more than max_map_cells \
                 ({}); the region is unchanged",
                region_of(region).area(),
                self.max_map_cells
            );
            return;
        }
        if region == self.region {
            return;
        }
        self.region = region;
        self.map_stale = true;
        self.last_path.clear();
        self.base_mut().update_configuration_warnings();
        self.after_terrain_change(region);
    }

    /// Sets `cell_size`; see the property.
    #[func]
    pub fn set_cell_size(&mut self, cell_size: Vector2) {
        if !(cell_size.is_finite() && cell_size.x > 0.0 && cell_size.y > 0.0) {
            godot_error!(
                "ClearancePathfinder.cell_size: both components must be finite and above 0, got \
                 {cell_size}; unchanged"
            );
            return;
        }
        self.cell_size = cell_size;
        self.base_mut().queue_redraw();
    }

    /// Sets `offset`; see the property.
    #[func]
    pub fn set_offset(&mut self, offset: Vector2) {
        if !offset.is_finite() {
            godot_error!("ClearancePathfinder.offset: {offset} is not finite; unchanged");
            return;
        }
        self.offset = offset;
        self.base_mut().queue_redraw();
    }

    /// Sets `diagonal_mode`; see the property.
    #[func]
    pub fn set_diagonal_mode(&mut self, mode: i64) {
        let Some(movement) = movement_of(mode) else {
            godot_error!(
                "ClearancePathfinder.diagonal_mode: {mode} is not supported; use \
                 DIAGONAL_MODE_NEVER ({DIAGONAL_MODE_NEVER}) or \
                 DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES ({DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES}); \
                 unchanged"
            );
            return;
        };
        self.diagonal_mode = mode;
        self.map_mut().set_movement(movement);
    }

    /// Sets `default_terrain`; see the property.
    #[func]
    pub fn set_default_terrain(&mut self, terrain: i64) {
        if checked_terrain("default_terrain", "the value", terrain).is_none() {
            return;
        }
        if terrain == self.default_terrain {
            return;
        }
        self.default_terrain = terrain;
        self.map_stale = true;
        let region = self.region;
        self.after_terrain_change(region);
    }

    /// Sets `empty_cell_terrain`; see the property.
    #[func]
    pub fn set_empty_cell_terrain(&mut self, terrain: i64) {
        if checked_terrain("empty_cell_terrain", "the value", terrain).is_some() {
            self.empty_cell_terrain = terrain;
        }
    }

    /// Sets `landmark_count`; see the property. A value outside 0 to 64 is refused with an
    /// error and changes nothing.
    #[func]
    pub fn set_landmark_count(&mut self, count: i64) {
        let placement = match usize::try_from(count) {
            Ok(0) => LandmarkPlacement::None,
            Ok(count) => LandmarkPlacement::Farthest(count),
            Err(_) => {
                godot_error!(
                    "ClearancePathfinder.landmark_count: {count} is not from 0 to {MAX_LANDMARKS}"
                );
                return;
            }
        };
        match self.map_mut().set_landmarks(placement) {
            Ok(()) => self.landmark_count = count,
            Err(error) => godot_error!("ClearancePathfinder.landmark_count: {error}"),
        }
    }

    /// Builds the landmark table of `profile` now (on this thread), so that its next query
    /// does not pay for it, and describes it like `get_landmark_stats()`. With
    /// `landmark_count` 0 or an unknown profile, returns `ok` false (an unknown profile also
    /// prints an error).
    #[func]
    pub fn bake_landmarks(&mut self, profile: StringName) -> VarDictionary {
        self.ensure_ready();
        let name = profile.to_string();
        if self.map.profile(&name).is_none() {
            godot_error!("ClearancePathfinder.bake_landmarks: unknown profile '{name}'");
        }
        landmark_dictionary(self.map.bake_landmarks(&name))
    }

    /// Describes the landmark table of `profile` if it is built: `ok` (bool), `landmarks`
    /// (Array[Vector2i], the landmark cells), `bytes` (int, memory held) and
    /// `bytes_per_cell_per_landmark` (float). `ok` is false when no table is built.
    #[func]
    pub fn get_landmark_stats(&mut self, profile: StringName) -> VarDictionary {
        self.ensure_ready();
        landmark_dictionary(self.map.landmark_stats(&profile.to_string()))
    }

    /// Sets `profiles`; see the property.
    #[func]
    pub fn set_profiles(&mut self, profiles: Array<Option<Gd<AgentProfile>>>) {
        let listener = Callable::from_object_method(&self.to_gd(), "_on_profile_changed");
        for profile in self.profiles.iter_shared().flatten() {
            let mut resource = profile.upcast::<Resource>();
            if resource.is_connected("changed", &listener) {
                resource.disconnect("changed", &listener);
            }
        }
        for profile in profiles.iter_shared().flatten() {
            let mut resource = profile.upcast::<Resource>();
            if !resource.is_connected("changed", &listener) {
                resource.connect("changed", &listener);
            }
        }
        self.profiles = profiles;
        self._on_profile_changed();
    }

    /// Sets `worker_thread_count`; see the property. A value outside 0 to 64 is refused with
    /// an error.
    #[func]
    pub fn set_worker_thread_count(&mut self, count: i64) {
        if !(0..=64).contains(&count) {
            godot_error!(
                "ClearancePathfinder.worker_thread_count: {count} is not from 0 to 64; unchanged"
            );
            return;
        }
        self.worker_thread_count = count;
    }

    /// Sets `search_expansion_limit`; see the property. A negative value is refused with an
    /// error.
    #[func]
    pub fn set_search_expansion_limit(&mut self, limit: i64) {
        if limit < 0 {
            godot_error!(
                "ClearancePathfinder.search_expansion_limit: {limit} is negative (0 means no \
                 limit); unchanged"
            );
            return;
        }
        self.search_expansion_limit = limit;
    }

    /// Sets `cache_memory_limit_mb`; see the property. A value outside 1 to 1048576 is refused
    /// with an error.
    #[func]
    pub fn set_cache_memory_limit_mb(&mut self, megabytes: i64) {
        let Some(bytes) = u32::try_from(megabytes)
            .ok()
            .filter(|&mb| (1..=1 << 20).contains(&mb))
            .and_then(|mb| usize::try_from(u64::from(mb) << 20).ok())
        else {
            godot_error!(
                "ClearancePathfinder.cache_memory_limit_mb: {megabytes} is not from 1 to \
                 1048576; unchanged"
            );
            return;
        };
        self.cache_memory_limit_mb = megabytes;
        self.map_mut().set_cache_memory_limit(bytes);
    }

    /// Sets `max_map_cells`; see the property. A value outside 1 to 268435456 is refused with
    /// an error; the current map is kept even if it is larger.
    #[func]
    pub fn set_max_map_cells(&mut self, cells: i64) {
        if !(1..=clearance_core::MAX_CELLS as i64).contains(&cells) {
            godot_error!(
                "ClearancePathfinder.max_map_cells: {cells} is not from 1 to {}; unchanged",
                clearance_core::MAX_CELLS
            );
            return;
        }
        self.max_map_cells = cells;
    }

    /// Sets `debug_draw_clearance`; see the property.
    #[func]
    pub fn set_debug_draw_clearance(&mut self, enabled: bool) {
        self.debug_draw_clearance = enabled;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }

    /// Sets `debug_profile`; see the property.
    #[func]
    pub fn set_debug_profile(&mut self, profile: StringName) {
        self.debug_profile = profile;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }

    /// Sets `debug_draw_last_path`; see the property.
    #[func]
    pub fn set_debug_draw_last_path(&mut self, enabled: bool) {
        self.debug_draw_last_path = enabled;
        self.base_mut().queue_redraw();
    }
}

impl ClearancePathfinder {
    fn query(
        &mut self,
        method: &str,
        start: Cell,
        goal: Cell,
        agent_size: i64,
        profile: &StringName,
        allow_partial_path: bool,
    ) -> PathResult {
        self.ensure_ready();
        let query = self.owned_query(method, start, goal, agent_size, profile, allow_partial_path);
        let result = self.map.query(&query.as_query());
        if !result.path.is_empty() {
            self.last_path.clone_from(&result.path);
            self.last_agent_size = valid_agent_size(agent_size).unwrap_or(1);
            if self.debug_draw_last_path {
                self.base_mut().queue_redraw();
            }
        }
        result
    }

    /// The query as the worker threads take it, with the node's expansion limit. Off-map, too
    /// narrow and unreachable are outcomes a game meets in play (a click off the map); a bad
    /// size or an unknown profile is a programming mistake, so it also prints an error.
    fn owned_query(
        &self,
        method: &str,
        start: Cell,
        goal: Cell,
        agent_size: i64,
        profile: &StringName,
        allow_partial_path: bool,
    ) -> OwnedQuery {
        let name = profile.to_string();
        if valid_agent_size(agent_size).is_none() {
            godot_error!(
                "ClearancePathfinder.{method}: agent_size must be from 1 to 255, got {agent_size}"
            );
        } else if self.map.profile(&name).is_none() {
            godot_error!("ClearancePathfinder.{method}: no profile called '{name}'");
        }
        OwnedQuery {
            start,
            goal,
            agent_size,
            profile: name,
            allow_partial_path,
            max_expansions: self.expansion_limit(),
        }
    }

    fn expansion_limit(&self) -> Option<u64> {
        u64::try_from(self.search_expansion_limit)
            .ok()
            .filter(|&limit| limit > 0)
    }

    /// The queries of a `request_paths()` or `find_paths()` batch, or `None` (with an error
    /// naming the first bad entry) if any entry is malformed.
    fn owned_queries(&self, method: &str, queries: &VarArray) -> Option<Vec<OwnedQuery>> {
        let mut owned = Vec::with_capacity(queries.len());
        for (index, entry) in queries.iter_shared().enumerate() {
            match query_from_variant(&entry, self.expansion_limit()) {
                Ok(query) => owned.push(query),
                Err(problem) => {
                    godot_error!(
                        "ClearancePathfinder.{method}: queries[{index}] {problem}; nothing was \
                         started"
                    );
                    return None;
                }
            }
        }
        Some(owned)
    }

    /// Hands `queries` to the workers against the current map version; returns the request
    /// id.
    fn submit(&mut self, queries: Vec<OwnedQuery>, single: bool) -> i64 {
        let id = self.next_request_id;
        self.next_request_id += 1;
        let count = self.resolved_worker_count();
        if self
            .workers
            .as_ref()
            .is_none_or(|workers| workers.requested() != count)
        {
            // Replacing the pool drops what it still had queued (see `worker_thread_count`).
            self.pending.clear();
            self.workers = Workers::start(count);
            if self.workers.is_none() {
                godot_error!(
                    "ClearancePathfinder: the system refused to start worker threads; the \
                     request was not made"
                );
                return -1;
            }
        }
        let job = Job {
            id,
            map: Arc::clone(&self.map),
            queries,
            single,
        };
        let accepted = self
            .workers
            .as_ref()
            .is_some_and(|workers| workers.submit(job));
        if !accepted {
            // Only if a worker died: start afresh rather than lose the request.
            godot_error!("ClearancePathfinder: the worker threads stopped; restarting them");
            self.workers = None;
            return -1;
        }
        self.pending.insert(id);
        self.base_mut().set_process(true);
        id
    }

    fn resolved_worker_count(&self) -> usize {
        match usize::try_from(self.worker_thread_count) {
            Ok(count) if count > 0 => count,
            _ => {
                let processors =
                    usize::try_from(Os::singleton().get_processor_count()).unwrap_or(1);
                processors.saturating_sub(1).max(1)
            }
        }
    }

    /// Emits the signals of the requests the workers have finished.
    fn deliver_finished_requests(&mut self) {
        let Some(workers) = &self.workers else {
            return;
        };
        let finished = workers.collect();
        for done in finished {
            if !self.pending.remove(&done.id) {
                continue; // cancelled
            }
            if done.single {
                let result = done
                    .results
                    .first()
                    .map(result_dictionary)
                    .unwrap_or_default();
                self.signals().path_found().emit(done.id, &result);
            } else {
                let results: Vec<Variant> = done
                    .results
                    .iter()
                    .map(|result| result_dictionary(result).to_variant())
                    .collect();
                self.signals()
                    .paths_found()
                    .emit(done.id, &VarArray::from(results.as_slice()));
            }
        }
        if self.pending.is_empty() {
            self.base_mut().set_process(false);
        }
    }

    /// The map, for an edit: copied first if a pending request still reads this version.
    fn map_mut(&mut self) -> &mut PathMap {
        Arc::make_mut(&mut self.map)
    }

    /// Rebuilds the map if `region` or `default_terrain` changed, and registers the resource
    /// profiles if `profiles` changed.
    fn ensure_ready(&mut self) {
        self.ensure_map();
        if self.profiles_stale {
            self.register_profile_resources(!Engine::singleton().is_editor_hint());
        }
    }

    fn ensure_map(&mut self) {
        if !self.map_stale {
            return;
        }
        self.map_stale = false;
        let fill = terrain_id(self.default_terrain).unwrap_or(0);
        match TerrainGrid::new(region_of(self.region), fill) {
            Ok(grid) => self.replace_grid(grid),
            // The setter validated the region; keep the old map rather than trust that here.
            Err(error) => godot_error!("ClearancePathfinder: cannot build the map: {error}"),
        }
    }

    /// Puts `grid` in place of the map's terrain, keeping the movement rule, profiles and
    /// landmark settings.
    fn replace_grid(&mut self, grid: TerrainGrid) {
        self.map_mut().replace_grid(grid);
        self.map_stale = false;
        self.last_path.clear();
    }

    /// The valid resource profiles in `profiles`, and a message for each invalid entry.
    fn read_profile_resources(&self) -> (Vec<CoreProfile>, Vec<String>) {
        let mut valid: Vec<CoreProfile> = Vec::new();
        let mut problems = Vec::new();
        for (index, entry) in self.profiles.iter_shared().enumerate() {
            let Some(resource) = entry else {
                problems.push(format!(
                    "profiles[{index}] is empty: assign an AgentProfile"
                ));
                continue;
            };
            let resource = resource.bind();
            match resource.to_core() {
                Ok(profile) if valid.iter().any(|other| other.name() == profile.name()) => {
                    problems.push(format!(
                        "profiles[{index}]: another AgentProfile is already called '{}'",
                        resource.name_string()
                    ));
                }
                Ok(profile) => valid.push(profile),
                Err(problem) => problems.push(format!("profiles[{index}]: {problem}")),
            }
        }
        (valid, problems)
    }

    /// Registers the valid resource profiles in place of those registered from `profiles`
    /// before; returns whether every entry was valid.
    fn register_profile_resources(&mut self, report: bool) -> bool {
        let (valid, problems) = self.read_profile_resources();
        for name in std::mem::take(&mut self.resource_profile_names) {
            self.map_mut().remove_profile(&name);
        }
        for profile in valid {
            let name = profile.name().to_owned();
            match self.map_mut().set_profile(profile) {
                Ok(()) => self.resource_profile_names.push(name),
                Err(error) => godot_error!("ClearancePathfinder: profile '{name}': {error}"),
            }
        }
        self.profiles_stale = false;
        if report {
            for problem in &problems {
                godot_error!("ClearancePathfinder.profiles: {problem}; that profile is skipped");
            }
        }
        self.base_mut().queue_redraw();
        problems.is_empty()
    }

    fn after_terrain_change(&mut self, rect: Rect2i) {
        self.base_mut().queue_redraw();
        self.signals().map_changed().emit(rect);
    }

    fn after_profile_change(&mut self) {
        self.base_mut().queue_redraw();
    }

    fn cell_containing(&self, local_position: Vector2) -> Cell {
        let relative = (local_position - self.offset) / self.cell_size;
        // `as` saturates: distant positions land on the edge of the 32-bit range.
        Cell::new(relative.x.floor() as i32, relative.y.floor() as i32)
    }

    fn footprint_centre(&self, anchor: Cell, size: u8) -> Vector2 {
        let half = f64::from(size) / 2.0;
        Vector2::new(
            self.offset.x + ((f64::from(anchor.x) + half) * f64::from(self.cell_size.x)) as f32,
            self.offset.y + ((f64::from(anchor.y) + half) * f64::from(self.cell_size.y)) as f32,
        )
    }

    /// The anchor whose footprint centre is nearest to `global_position`.
    fn anchor_at_global(
        &self,
        method: &str,
        argument: &str,
        global_position: Vector2,
        size: u8,
    ) -> Cell {
        if !global_position.is_finite() {
            godot_error!(
                "ClearancePathfinder.{method}: {argument} {global_position} is not finite"
            );
            return cell_outside(self.map.region());
        }
        let local = self.base().to_local(global_position);
        // The footprint centre sits (size - 1) / 2 cells right of and below the anchor's
        // centre; undo that, then take the cell containing the point.
        let shift = (f32::from(size) - 1.0) / 2.0;
        self.cell_containing(local - self.cell_size * shift)
    }

    fn cells_rect(&self, region: Region) -> Rect2 {
        Rect2::new(
            self.offset + Vector2::new(region.x as f32, region.y as f32) * self.cell_size,
            Vector2::new(region.width as f32, region.height as f32) * self.cell_size,
        )
    }

    fn draw_heat_map(&mut self) {
        let region = self.map.region();
        if region.area() > MAX_HEAT_MAP_CELLS {
            return;
        }
        let Some(layer) = self.map.clearance_layer(&self.debug_profile.to_string()) else {
            return;
        };
        let width = region.width.max(1) as usize;
        let cell_size = self.cell_size;
        let offset = self.offset;
        let mut base = self.base_mut();
        for (index, &clearance) in layer.values().iter().enumerate() {
            let cell = Vector2::new(
                (region.x as f32) + (index % width) as f32,
                (region.y as f32) + (index / width) as f32,
            );
            let rect = Rect2::new(offset + cell * cell_size, cell_size);
            base.draw_rect(rect, clearance_colour(clearance));
        }
    }

    fn draw_last_path(&mut self) {
        let size = self.last_agent_size;
        let side = self.cell_size * f32::from(size);
        let footprints: Vec<Rect2> = self
            .last_path
            .iter()
            .map(|&anchor| {
                let corner =
                    self.offset + Vector2::new(anchor.x as f32, anchor.y as f32) * self.cell_size;
                Rect2::new(corner, side)
            })
            .collect();
        let centres: PackedVector2Array = self
            .last_path
            .iter()
            .map(|&anchor| self.footprint_centre(anchor, size))
            .collect();
        let line_width = (self.cell_size.x.min(self.cell_size.y) / 8.0).max(1.0);
        let mut base = self.base_mut();
        for footprint in footprints {
            base.draw_rect_ex(footprint, Color::from_rgba(0.3, 0.85, 1.0, 0.7))
                .filled(false)
                .width(1.0)
                .done();
        }
        if centres.len() > 1 {
            base.draw_polyline_ex(&centres, Color::from_rgba(1.0, 1.0, 1.0, 0.95))
                .width(line_width)
                .done();
        }
        if let (Some(first), Some(last)) = (centres.as_slice().first(), centres.as_slice().last()) {
            base.draw_circle(
                *first,
                line_width * 2.0,
                Color::from_rgba(0.2, 1.0, 0.4, 1.0),
            );
            base.draw_circle(
                *last,
                line_width * 2.0,
                Color::from_rgba(1.0, 0.3, 0.3, 1.0),
            );
        }
    }
}

fn movement_of(mode: i64) -> Option<Movement> {
    match mode {
        DIAGONAL_MODE_NEVER => Some(Movement::FourWay),
        DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES => Some(Movement::EightWay),
        _ => None,
    }
}

fn checked_terrain(method: &str, argument: &str, terrain: i64) -> Option<TerrainId> {
    let id = terrain_id(terrain);
    if id.is_none() {
        godot_error!(
            "ClearancePathfinder.{method}: {argument} must be a terrain id from 0 to 255, got \
             {terrain}; nothing changed"
        );
    }
    id
}

/// Heat-map colour: translucent dark where the profile cannot stand, then red through yellow
/// to green as the clearance grows to 6.
fn clearance_colour(clearance: u8) -> Color {
    if clearance == 0 {
        return Color::from_rgba(0.05, 0.05, 0.08, 0.55);
    }
    let warmth = f64::from(clearance.min(6) - 1) / 5.0;
    Color::from_hsv(warmth / 3.0, 0.85, 0.95).with_alpha(0.4)
}

/// `cells` as a typed Array, built from a slice: gdext sizes the array once and writes the
/// elements in place. Collecting from an iterator pushes element by element, an engine call
/// each, which made long paths dearer to return than to find.
fn anchor_array(cells: &[Cell]) -> Array<Vector2i> {
    let vectors: Vec<Vector2i> = cells.iter().map(|&cell| vector_of(cell)).collect();
    Array::from(vectors.as_slice())
}

/// The Dictionary `bake_landmarks()` and `get_landmark_stats()` return.
fn landmark_dictionary(stats: Option<LandmarkStats>) -> VarDictionary {
    let mut dictionary = VarDictionary::new();
    dictionary.set("ok", stats.is_some());
    let stats = stats.unwrap_or(LandmarkStats {
        landmarks: Vec::new(),
        bytes: 0,
        bytes_per_cell_per_landmark: 0.0,
    });
    dictionary.set("landmarks", &anchor_array(&stats.landmarks));
    dictionary.set("bytes", stats.bytes as i64);
    dictionary.set(
        "bytes_per_cell_per_landmark",
        stats.bytes_per_cell_per_landmark,
    );
    dictionary
}

fn result_dictionary(result: &PathResult) -> VarDictionary {
    let path = anchor_array(&result.path);
    let mut dictionary = VarDictionary::new();
    dictionary.set("ok", result.is_ok());
    dictionary.set("code", result.code.as_str());
    dictionary.set("path", &path);
    dictionary.set("total_cost", result.total_cost());
    dictionary.set(
        "expanded",
        i64::try_from(result.expanded).unwrap_or(i64::MAX),
    );
    if let Some(shortfall) = result.shortfall {
        dictionary.set("clearance_found", i64::from(shortfall.found));
        dictionary.set("clearance_needed", i64::from(shortfall.needed));
    }
    dictionary
}

fn profile_from_dictionary(name: &str, costs: &VarDictionary) -> Result<CoreProfile, String> {
    if name.is_empty() {
        return Err("a profile needs a non-empty name".to_owned());
    }
    let mut profile = CoreProfile::new(name);
    for (key, value) in costs.iter_shared() {
        let terrain = match key.try_to::<i64>() {
            Ok(terrain) if key.get_type() == VariantType::INT => terrain,
            _ => {
                return Err(format!(
                    "profile '{name}': key {key} is not an int terrain id (keys must be ints \
                     from 0 to 255)"
                ))
            }
        };
        let Some(id) = terrain_id(terrain) else {
            return Err(format!(
                "profile '{name}': key {terrain} is not a terrain id from 0 to 255"
            ));
        };
        let multiplier = match value.get_type() {
            VariantType::FLOAT => value.try_to::<f64>().ok(),
            VariantType::INT => value.try_to::<i64>().ok().map(|whole| whole as f64),
            _ => None,
        };
        let Some(multiplier) = multiplier else {
            return Err(format!(
                "profile '{name}': the multiplier for terrain {id} is {value}, not a number"
            ));
        };
        profile
            .set_terrain(id, multiplier)
            .map_err(|error| format!("profile '{name}': {error}"))?;
    }
    Ok(profile)
}

/// The terrain grid a TileMapLayer describes, or why it describes none.
fn terrain_from_layer(
    layer: &Gd<TileMapLayer>,
    terrain_layer_name: &GString,
    empty_cell_terrain: i64,
) -> Result<TerrainGrid, String> {
    let used = layer.get_used_rect();
    let region = region_of(used);
    if region.area() == 0 {
        return Err("the layer has no tiles".to_owned());
    }
    region
        .validate_as_map()
        .map_err(|error| format!("the layer's used rectangle: {error}"))?;
    let Some(tile_set) = layer.get_tile_set() else {
        return Err("the layer has no TileSet".to_owned());
    };
    let data_layer = tile_set.get_custom_data_layer_by_name(terrain_layer_name);
    if data_layer < 0 {
        return Err(format!(
            "the layer's TileSet has no custom data layer named '{terrain_layer_name}'"
        ));
    }
    let data_type = tile_set.get_custom_data_layer_type(data_layer);
    if data_type != VariantType::INT {
        return Err(format!(
            "custom data layer '{terrain_layer_name}' holds {data_type:?}, not int"
        ));
    }
    let empty = terrain_id(empty_cell_terrain).unwrap_or(TerrainId::MAX);
    let mut data = Vec::with_capacity(region.area() as usize);
    for y in used.position.y..used.position.y + used.size.y {
        for x in used.position.x..used.position.x + used.size.x {
            let coords = Vector2i::new(x, y);
            if layer.get_cell_source_id(coords) < 0 {
                data.push(empty);
                continue;
            }
            let Some(tile) = layer.get_cell_tile_data(coords) else {
                return Err(format!(
                    "the tile at {coords} has no tile data (is it a scene tile?)"
                ));
            };
            let value = tile.get_custom_data_by_layer_id(data_layer);
            let terrain = value.try_to::<i64>().ok().and_then(terrain_id);
            let Some(terrain) = terrain else {
                return Err(format!(
                    "the tile at {coords} has '{terrain_layer_name}' = {value}, not a terrain id \
                     from 0 to 255"
                ));
            };
            data.push(terrain);
        }
    }
    TerrainGrid::from_bytes(region, &data).map_err(|error| error.to_string())
}

/// One entry of a `request_paths()` or `find_paths()` batch, or what is wrong with it.
fn query_from_variant(entry: &Variant, default_limit: Option<u64>) -> Result<OwnedQuery, String> {
    let Ok(entry) = entry.try_to::<VarDictionary>() else {
        return Err(format!("is {entry}, not a Dictionary"));
    };
    let field = |key: &str| -> Result<Variant, String> {
        entry.get(key).ok_or_else(|| format!("has no '{key}'"))
    };
    let vector = |key: &str| -> Result<Cell, String> {
        let value = field(key)?;
        value
            .try_to::<Vector2i>()
            .ok()
            .filter(|_| value.get_type() == VariantType::VECTOR2I)
            .map(cell_of)
            .ok_or_else(|| format!("has '{key}' = {value}, not a Vector2i"))
    };
    let integer = |value: &Variant, key: &str| -> Result<i64, String> {
        value
            .try_to::<i64>()
            .ok()
            .filter(|_| value.get_type() == VariantType::INT)
            .ok_or_else(|| format!("has '{key}' = {value}, not an int"))
    };
    let profile = field("profile")?;
    let profile = match profile.get_type() {
        VariantType::STRING_NAME | VariantType::STRING => profile.to_string(),
        _ => {
            return Err(format!(
                "has 'profile' = {profile}, not a StringName or String"
            ))
        }
    };
    let allow_partial_path = match entry.get("allow_partial_path") {
        None => false,
        Some(value) if value.get_type() == VariantType::BOOL => value.to::<bool>(),
        Some(value) => return Err(format!("has 'allow_partial_path' = {value}, not a bool")),
    };
    let max_expansions = match entry.get("max_expansions") {
        None => default_limit,
        Some(value) => match integer(&value, "max_expansions")? {
            0 => None,
            limit => Some(
                u64::try_from(limit)
                    .map_err(|_| format!("has 'max_expansions' = {limit}, below 0"))?,
            ),
        },
    };
    Ok(OwnedQuery {
        start: vector("start")?,
        goal: vector("goal")?,
        agent_size: integer(&field("agent_size")?, "agent_size")?,
        profile,
        allow_partial_path,
        max_expansions,
    })
}
