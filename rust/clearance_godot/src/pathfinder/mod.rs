//! The `ClearancePathfinder` node: the struct, its `INode2D` lifecycle, and the primary
//! `#[godot_api]` block with the signals and property setters (gdext takes those only from the
//! primary block, and its macros want it and `init()` beside the struct). Its GDScript API is
//! split by concern:
//!
//! - [`modes`]: the mode properties' values, also the class's constants;
//! - [`properties`]: the setters' work: each value checked, then applied;
//! - [`queries`]: `find_path()`, `find_paths()`, `find_path_world()`, the asynchronous
//!   requests and their delivery;
//! - [`astar_style`]: `get_id_path()` and `get_point_path()`, AStarGrid2D's way of asking,
//!   and the last result;
//! - [`fields`]: flow fields (`get_flow_field()`, `request_flow_field()`) and group orders
//!   (`find_paths_to()`);
//! - [`ranges`]: movement ranges (`get_movement_range()`, `request_movement_range()`);
//! - [`terrain`]: terrain edits and reads, and the TileMapLayer import;
//! - [`profiles`]: profiles from code and from `AgentProfile` resources, and landmarks;
//! - [`units`]: the units registered on the occupancy layer, and arrival slots for group
//!   orders;
//! - [`smoothing`]: `smooth_path()` and `is_straight_move_clear()`, for paths the caller
//!   holds;
//! - [`coords`]: cells, local positions, footprints and clearance;
//! - [`memory`]: search memory, its figure and giving it back;
//! - [`draw`]: the debug overlay;
//! - [`errors`]: the `ClearancePathfinder.<method>: ` prefix of every error, and the input
//!   checks several methods share.
#![forbid(unsafe_code)]

mod astar_style;
mod coords;
mod draw;
mod errors;
mod fields;
mod memory;
mod modes;
mod profiles;
mod properties;
mod queries;
mod ranges;
mod requests;
mod smoothing;
mod terrain;
mod units;

pub(crate) use self::modes::smoothing_value;
use self::modes::{
    CELL_SHAPE_SQUARE, DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES, OTHER_UNITS_IGNORE,
    RESULT_FORMAT_ANCHORS, SEARCH_MODE_AUTO, SMOOTHING_OFF,
};
use self::profiles::Announce;
use self::queries::AnswerStyle;
use crate::convert::rect_of;
use crate::field::ClearanceFlowField;
use crate::frame::CellShape;
use crate::marshal::ResultKeys;
use crate::profile::AgentProfile;
use crate::range::ClearanceMovementRange;
use crate::workers::{Finished, Workers};
use clearance_core::{Cell, PathMap, PathResult, Region, TerrainGrid};
use godot::classes::notify::CanvasItemNotification;
use godot::classes::{INode2D, Node2D};
use godot::prelude::*;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::Arc;

/// Default `max_map_cells`: a 4096 x 4096 map.
const DEFAULT_MAX_MAP_CELLS: i64 = 1 << 24;

/// Default `other_units_cost`: a cell under another unit costs at least four times a plain one.
const DEFAULT_OTHER_UNITS_COST: f64 = 4.0;

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
/// var result: Dictionary = $ClearancePathfinder.find_path(
///         Vector2i(2, 2), Vector2i(30, 9), 2, &"truck")
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
/// **Coordinates**: cell `(0, 0)`'s tile has the top-left corner of its bounding box at
/// `offset` in the node's local space, each tile is `cell_size` wide, and `cell_shape` lays
/// tiles out as squares or isometric diamonds, as in AStarGrid2D; `match_tile_map_layer()`
/// follows any TileMapLayer's layout (half-offset, stacked isometric, hexagonal...).
/// `cell_to_local()` and `footprint_center()` return local positions; `find_path_world()`
/// works in global positions.
///
/// **Units**: `add_unit()` registers a unit by id on an occupancy layer kept apart from the
/// terrain; `move_unit()` and `move_units()` follow it as it walks (cheap, and no terrain cache
/// is touched). `other_units` says how the other units count in queries, and every query
/// takes an optional `moving_unit` (its own footprint never blocks it) and `exempt_units`:
///
/// ```gdscript
/// pathfinder.other_units = ClearancePathfinder.OTHER_UNITS_BLOCK
/// pathfinder.add_unit(truck_id, Vector2i(4, 4), 2)
/// var result := pathfinder.find_path(anchor, goal, 2, &"truck", false, truck_id)
/// ```
///
/// `get_arrival_slots()` spreads a group order over free anchors round the click.
///
/// **Errors**: bad arguments (an agent size outside 1 to 255, an unknown profile, a terrain
/// outside 0 to 255, a cell or rectangle off the map, arrays of different lengths, NaN
/// weights...) return a failure code, `false`, `-1` or an empty result, print an error that
/// names the method and the problem, and change nothing (unknown unit ids, duplicate ids,
/// anchors off the map included). A query whose start or goal is off
/// the map, too narrow for the unit, or unreachable is a normal outcome, reported by its code
/// only.
#[derive(GodotClass)]
#[class(tool, base = Node2D)]
pub struct ClearancePathfinder {
    // Before `region`: a scene sets its saved properties in this order, and a saved region
    // above the default limit needs the saved limit first.
    /// Largest map accepted, in cells (1 to 268435456): `region` and
    /// `import_tile_map_layer()` refuse anything larger with an error. The default,
    /// 16777216, is a 4096 x 4096 map.
    #[export(range = (1.0, 268435456.0))]
    #[var(set = set_max_map_cells)]
    max_map_cells: i64,

    /// The cells the map covers, like AStarGrid2D's `region`; the origin may be negative.
    /// Width and height must be from 1 to 32768, with at most `max_map_cells` cells (2^24
    /// by default, never more than 2^28); anything else is refused with an error. Changing
    /// it rebuilds the map filled with `default_terrain` (terrain edits are discarded,
    /// profiles kept; units whose anchor falls outside the new region are removed) and emits
    /// `map_changed`.
    #[export]
    #[var(set = set_region)]
    region: Rect2i,

    /// Size of one cell's tile in local units, the box round it for diamonds and hexagons
    /// (both components finite and above 0).
    #[export]
    #[var(set = set_cell_size)]
    cell_size: Vector2,

    /// Local position of the top-left corner of cell `(0, 0)`'s tile (of the box round it for
    /// diamonds and hexagons).
    #[export]
    #[var(set = set_offset)]
    offset: Vector2,

    /// How tiles are laid out, with AStarGrid2D's constants: `CELL_SHAPE_SQUARE` (0, the
    /// default), `CELL_SHAPE_ISOMETRIC_RIGHT` (1) or `CELL_SHAPE_ISOMETRIC_DOWN` (2): diamonds
    /// centred where AStarGrid2D puts its points, as an isometric TileSet in the
    /// `DIAMOND_RIGHT` or `DIAMOND_DOWN` layout puts its tiles. After `match_tile_map_layer()`
    /// it reads `CELL_SHAPE_TILE_SET` (3) for a layout AStarGrid2D has no name for; a scene
    /// saved then loads with the square layout until `match_tile_map_layer()` runs again.
    /// Other values are refused with an error.
    #[export(enum = (Square = 0, IsometricRight = 1, IsometricDown = 2))]
    #[var(set = set_cell_shape)]
    cell_shape: i64,
    /// The layout `cell_shape` stands for: any TileSet's after `match_tile_map_layer()`.
    cell_layout: CellShape,

    /// How units move, with AStarGrid2D's constants: `DIAGONAL_MODE_NEVER` (1) for 4-way
    /// movement, or `DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES` (3, the default) for 8-way movement
    /// where a diagonal step also needs both orthogonal anchors it passes to be legal for the
    /// unit's size (no corner cutting). Other values are refused with an error.
    #[export(enum = (Never = 1, OnlyIfNoObstacles = 3))]
    #[var(set = set_diagonal_mode)]
    diagonal_mode: i64,

    /// Which exact search answers queries: `SEARCH_MODE_AUTO` (0, the default) runs
    /// jump-point search, reading its rays from tables kept with the map, on weighted
    /// terrain too; where other units count by a cost, or block on weighted terrain, it tries
    /// plain A* within a budget that grows with the distance (short trips) and goes on with
    /// jump-point search where that does not suffice (blocking units on terrain whose costs
    /// change at more than one anchor in ten: plain A* only); `SEARCH_MODE_JUMP` (1) and
    /// `SEARCH_MODE_PLAIN` (2) force one. Every mode finds paths of the same optimal cost; they differ in speed
    /// and in which of several equally cheap paths comes back. Other values are refused with an
    /// error.
    #[export(enum = (Auto = 0, Jump = 1, Plain = 2))]
    #[var(set = set_search_mode)]
    search_mode: i64,

    /// The form of `path` (and `waypoints`) in the result Dictionaries of `find_path()`, `find_paths()`,
    /// `find_path_world()` and the request signals. `RESULT_FORMAT_ANCHORS` (0, the default):
    /// an `Array[Vector2i]` of anchors. `RESULT_FORMAT_PACKED_ANCHORS` (1): a
    /// `PackedInt32Array` of the same anchors' coordinates, `x0, y0, x1, y1, ...` (Godot has
    /// no packed Vector2i array), cheaper to build and to hand around. `RESULT_FORMAT_POINTS`
    /// (2): a `PackedVector2Array` of the footprint centres in this node's local coordinates,
    /// as `footprint_center()` gives them, ready for a `Line2D`, a `Curve2D` or a tween.
    /// Every other entry stays as it is. Other values are refused with an error.
    #[export(enum = (Anchors = 0, PackedAnchors = 1, Points = 2))]
    #[var(set = set_result_format)]
    result_format: i64,

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

    /// Most memory, in MiB, the map's cached clearance layers, search graphs and landmark
    /// tables may hold together (1 to 1048576). A query that would need more fails with
    /// `MEMORY_LIMIT_REACHED` instead of exhausting memory; a landmark table that would not fit
    /// is skipped instead (queries stay exact without it), which is what lowering the limit
    /// below `landmark_count`'s tables leads to. (Before `landmark_count` in a saved scene, so
    /// that a scene's landmarks are checked against its own limit.)
    #[export(range = (1.0, 1048576.0))]
    #[var(set = set_cache_memory_limit_mb)]
    cache_memory_limit_mb: i64,

    /// Landmarks per profile for the differential heuristic (0 to 64; 0 turns them off).
    /// Landmarks let long queries on maps with walls expand fewer cells; results stay optimal.
    /// Each profile's table is built on its first query after a change, or at once by
    /// `bake_landmarks()`, and holds 4 bytes per cell per landmark slot (8 where the profile's
    /// multipliers differ), the count rounded up to a power of two (`get_landmark_stats()`
    /// reports the bytes). Edits repair the tables in place; a table is dropped until it is rebuilt
    /// only when an edit closes one of its landmarks, or covers too much of the map to repair
    /// around and lowers some cost.
    #[export(range = (0.0, 64.0))]
    #[var(set = set_landmark_count)]
    landmark_count: i64,

    /// The profiles to register, edited in the inspector. Registered on ready and whenever this
    /// property is assigned or a profile in it emits `changed`; invalid entries are skipped
    /// with an error and listed in the configuration warnings (a resource registered before
    /// whose edit made it invalid keeps its last valid settings). If you change the array in
    /// place (`profiles.append(p)`), call `reload_profiles()`. A resource profile replaces a
    /// profile of the same name added with `set_profile()`.
    #[export]
    #[var(set = set_profiles)]
    profiles: Array<Option<Gd<AgentProfile>>>,

    /// How the units registered with `add_unit()` count in path queries (`find_path()`,
    /// `find_path_world()`, `get_id_path()`, `get_point_path()`, `find_paths()`,
    /// `request_path()` and `request_paths()`), flow fields and `find_paths_to()`:
    ///
    /// - `OTHER_UNITS_IGNORE` (0, the default): as if the moving unit were alone on the map.
    /// - `OTHER_UNITS_BLOCK` (1): an anchor whose footprint overlaps another unit's footprint
    ///   is illegal. The start never is (a unit may always walk out of a crowd); a goal under
    ///   another unit gives `GOAL_OCCUPIED`, with that unit's id in `occupied_by`.
    /// - `OTHER_UNITS_COST` (2): a cell under another unit counts with a multiplier of at least
    ///   `other_units_cost`, so paths go round crowds where that is cheaper.
    ///
    /// The unit a query names as `moving_unit`, and those in its `exempt_units`, never count
    /// (flow fields and `find_paths_to()` take `exempt_units` only: exempt the group).
    /// Name the moving unit whenever it is registered: otherwise its own footprint counts
    /// against it (with `OTHER_UNITS_BLOCK`, a unit of size 2 or more then cannot step at
    /// all). Other values are refused with an error.
    #[export(enum = (Ignore = 0, Block = 1, Cost = 2))]
    #[var(set = set_other_units)]
    other_units: i64,

    /// Whether path results carry taut waypoints besides the grid path, as the path queries
    /// (`find_path()`, `find_path_world()`, `get_id_path()`, `get_point_path()`,
    /// `find_paths()`, `request_path()`, `request_paths()`), group orders (`find_paths_to()`)
    /// and the flow fields made while it is set answer. `SMOOTHING_OFF` (0, the default): no waypoints. `SMOOTHING_TAUT` (1):
    /// each result also has `waypoints`, a subsequence of `path` from its first anchor to its
    /// last (in `result_format`) such that the unit may walk in a straight line from each to
    /// the next, keeping to the terrain, weights and units rules the path keeps to, and none
    /// can be dropped; and `waypoint_length`, their straight-line length in cells (never more
    /// than the path's). `get_point_path()` and `find_path_world()`'s `points` then give the
    /// waypoints' footprint centres, the line a unit follows. Other values are refused with an
    /// error.
    #[export(enum = (Off = 0, Taut = 1))]
    #[var(set = set_smoothing)]
    smoothing: i64,

    /// The multiplier of cells under other units with `OTHER_UNITS_COST` (a cell costs the
    /// larger of its terrain multiplier and this): finite, 0 to 10000, rounded to 1/1000 as
    /// profile multipliers are; 4.0 by default. Other values are refused with an error.
    #[export(range = (0.0, 10000.0, 0.001))]
    #[var(set = set_other_units_cost)]
    other_units_cost: f64,

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

    /// Draws the footprints and centre line of the last path `find_path()`,
    /// `find_path_world()`, `get_id_path()` or `get_point_path()` found, and with `smoothing` the straight lines of its waypoints.
    #[export]
    #[var(set = set_debug_draw_last_path)]
    debug_draw_last_path: bool,

    /// Draws the footprint of every unit registered with `add_unit()` (the part on the map):
    /// what `OTHER_UNITS_BLOCK` keeps other units out of.
    #[export]
    #[var(set = set_debug_draw_units)]
    debug_draw_units: bool,

    /// A flow field to draw, as `get_flow_field()` returned it: each anchor it reached is
    /// tinted by its cost (blue at the goals, through green and yellow, to red at the most
    /// costly) and marked with a line towards its next anchor. `null` (the default) draws
    /// none. Skipped for maps of more than 65,536 cells.
    #[var(set = set_debug_flow_field)]
    debug_flow_field: Option<Gd<ClearanceFlowField>>,

    /// Draws the last movement range `get_movement_range()` made while this is on: each anchor
    /// in range tinted by its cost (blue at the start, through green and yellow, to red at the
    /// budget), its border outlined. Skipped for ranges of more than 65,536 anchors. While it
    /// is off the node keeps no range.
    #[export]
    #[var(set = set_debug_draw_last_range)]
    debug_draw_last_range: bool,

    /// Worker threads for the `request_*()` methods (0: one fewer than the machine's
    /// processors, at least 1). Applies from the next request, which waits for the queries
    /// running on the old threads to finish; no request is lost: those finished arrive with
    /// the next frame's signals, those not started run on the new threads. Freeing the node
    /// (or quitting) also waits for the work running then, a whole flow field or range
    /// included, and drops the requests not started.
    #[export(range = (0.0, 64.0))]
    #[var(set = set_worker_thread_count)]
    worker_thread_count: i64,

    /// Most anchors one path query may expand (0: no limit): `find_path()` and the methods
    /// and requests like it. A query that needs more fails with `SEARCH_LIMIT_REACHED`; the
    /// limit bounds the time such a query can take, and each member's search in
    /// `find_paths_to_slots()` and `request_paths_to_slots()`. Flow fields, `find_paths_to()`
    /// and movement ranges are bounded by their reach and budget instead.
    #[export(range = (0.0, 1000000000.0, or_greater))]
    #[var(set = set_search_expansion_limit)]
    search_expansion_limit: i64,

    /// The map; shared with worker threads, which see the version current at their request.
    /// Edits copy what a running request still reads (copy on write).
    map: Arc<PathMap>,
    workers: Option<Workers>,
    /// Requests a replaced pool finished, delivered with the next frame's.
    retired: Vec<Finished>,
    next_request_id: i64,
    /// Requests whose signal has not been emitted yet, with how their answers are written:
    /// as the node wrote them when they were asked.
    pending: HashMap<i64, AnswerStyle>,
    /// Requests cancelled while their work still runs: delivery goes on until it finishes.
    cancelled: HashSet<i64>,
    /// `region` or `default_terrain` changed since the map was built.
    map_stale: bool,
    /// `profiles` changed since its resources were registered.
    profiles_stale: bool,
    /// The profiles registered from `profiles` last time, by name and the resource they came
    /// from, so that a reload can retire them, or keep one whose resource became invalid.
    resource_profiles: Vec<(String, InstanceId)>,
    /// The last path found by a synchronous query, for the debug overlay, and its agent size.
    last_path: Vec<Cell>,
    /// The last path's waypoints (empty without smoothing), for the debug overlay.
    last_waypoints: Vec<Cell>,
    last_agent_size: u8,
    /// The last synchronous query's result and agent size, for `get_last_result()`.
    last_result: Option<(PathResult, i64)>,
    /// The last range made by `get_movement_range()` while `debug_draw_last_range` was on.
    last_range: Option<Gd<ClearanceMovementRange>>,
    /// Result keys and code names, converted to Variants once.
    result_keys: Rc<ResultKeys>,
    /// The profile name of the last synchronous query, as a StringName and as the core's
    /// `&str`: unit controllers ask with the same name call after call.
    last_profile: (StringName, String),

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
            cell_shape: CELL_SHAPE_SQUARE,
            cell_layout: CellShape::SQUARE,
            diagonal_mode: DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES,
            search_mode: SEARCH_MODE_AUTO,
            result_format: RESULT_FORMAT_ANCHORS,
            result_keys: Rc::new(ResultKeys::new()),
            last_profile: (StringName::default(), String::new()),
            default_terrain: 0,
            empty_cell_terrain: 255,
            landmark_count: 0,
            profiles: Array::new(),
            other_units: OTHER_UNITS_IGNORE,
            other_units_cost: DEFAULT_OTHER_UNITS_COST,
            smoothing: SMOOTHING_OFF,
            debug_draw_clearance: false,
            debug_profile: StringName::default(),
            debug_draw_last_path: false,
            debug_draw_units: false,
            debug_flow_field: None,
            debug_draw_last_range: false,
            worker_thread_count: 0,
            search_expansion_limit: 0,
            cache_memory_limit_mb: (clearance_core::DEFAULT_CACHE_MEMORY_LIMIT >> 20) as i64,
            max_map_cells: DEFAULT_MAX_MAP_CELLS,
            map: Arc::new(PathMap::new(grid)),
            workers: None,
            retired: Vec::new(),
            next_request_id: 1,
            pending: HashMap::new(),
            cancelled: HashSet::new(),
            map_stale: false,
            profiles_stale: true,
            resource_profiles: Vec::new(),
            last_path: Vec::new(),
            last_waypoints: Vec::new(),
            last_agent_size: 1,
            last_result: None,
            last_range: None,
            base,
        }
    }

    /// The node does its own work on `NOTIFICATION_READY`, `NOTIFICATION_DRAW` and
    /// `NOTIFICATION_INTERNAL_PROCESS` (which it turns on only while requests run), not in
    /// `_ready`, `_draw` and `_process`: a script that extends the node may define those, and
    /// call `set_process()`, without stopping the overlay or the delivery of requests.
    fn on_notification(&mut self, what: CanvasItemNotification) {
        match what {
            // A script's `_ready` runs first, and may have set profiles of its own over the
            // resources' (registering those on its way): they are registered only if still
            // stale.
            CanvasItemNotification::READY => self.ensure_ready(),
            CanvasItemNotification::DRAW => {
                self.ensure_map();
                if self.profiles_stale {
                    self.register_profile_resources(false, Announce::Deferred);
                }
                self.draw_overlay();
            }
            // Internal processing, on only while requests are pending: a script's own
            // `_process` and `set_process` neither stop it nor are stopped by it.
            CanvasItemNotification::INTERNAL_PROCESS => self.deliver_finished_requests(),
            _ => {}
        }
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let (resource_profiles, mut warnings) = self.profile_warnings();
        if self.debug_draw_clearance {
            warnings.extend(self.overlay_warnings(&resource_profiles));
        }
        warnings
            .iter()
            .map(|warning| GString::from(warning.as_str()))
            .collect()
    }
}

#[godot_api]
impl ClearancePathfinder {
    /// Emitted after every change that can change an answer, the map's version with it: a
    /// successful terrain change (`set_cell_terrain()`, `fill_rect_terrain()`,
    /// `load_terrain()`, `apply_terrain_batch()`, `import_tile_map_layer()`, and a new
    /// `region` or `default_terrain`), with the rectangle of cells that may have changed; a
    /// profile set, removed or registered anew from `profiles`, or a new `diagonal_mode`, with
    /// the whole region (resources registered inside another call, such as the first query
    /// after `profiles` changed, emit it at the end of the frame). Units moving do not emit
    /// it: queries count them where they stand.
    #[signal]
    fn map_changed(rect: Rect2i);

    /// Emitted on the main thread when the request `id` from `request_path()` has finished,
    /// with the Dictionary `find_path()` would have returned for the map as it was when the
    /// request was made.
    #[signal]
    fn path_found(id: i64, result: VarDictionary);

    /// Emitted on the main thread when the batch `id` from `request_paths()` has finished,
    /// with one result Dictionary per query, in the order of the queries; or the group order
    /// `id` from `request_paths_to_slots()`, with one Dictionary per member (`slot` included),
    /// in the order of the members.
    #[signal]
    fn paths_found(id: i64, results: VarArray);

    /// Emitted on the main thread when the request `id` from `request_flow_field()` has
    /// finished, with the field `get_flow_field()` would have returned for the map as it was
    /// when the request was made.
    #[signal]
    fn flow_field_ready(id: i64, field: Gd<ClearanceFlowField>);

    /// Emitted on the main thread when the request `id` from `request_movement_range()` has
    /// finished, with the range `get_movement_range()` would have returned for the map and
    /// the units as they were when the request was made: `null`, after an error, where the
    /// unit did not fit at the start or the cache memory limit refused it.
    #[signal]
    fn movement_range_ready(id: i64, range: Option<Gd<ClearanceMovementRange>>);

    /// Emitted on the main thread instead of the request's own signal when the request `id`
    /// (from any `request_*()` method) failed: its work panicked inside the pathfinder (a bug
    /// to report, never an outcome of the input) or the system refused the worker threads
    /// that would run it. An error is printed too; `message` says what failed. The node goes
    /// on answering other requests. Code that awaits a request's own signal should also
    /// listen for this one.
    #[signal]
    fn request_failed(id: i64, message: GString);

    // ---------------------------------------------------------------------------------------
    // Property setters: the work is in `properties.rs`.

    /// Sets `region`; see the property.
    #[func]
    pub fn set_region(&mut self, region: Rect2i) {
        self.apply_region(region);
    }

    /// Sets `cell_size`; see the property.
    #[func]
    pub fn set_cell_size(&mut self, cell_size: Vector2) {
        self.apply_cell_size(cell_size);
    }

    /// Sets `offset`; see the property.
    #[func]
    pub fn set_offset(&mut self, offset: Vector2) {
        self.apply_offset(offset);
    }

    /// Sets `cell_shape`; see the property.
    #[func]
    pub fn set_cell_shape(&mut self, shape: i64) {
        self.apply_cell_shape(shape);
    }

    /// Sets `diagonal_mode`; see the property.
    #[func]
    pub fn set_diagonal_mode(&mut self, mode: i64) {
        self.apply_diagonal_mode(mode);
    }

    /// Sets `result_format`; see the property.
    #[func]
    pub fn set_result_format(&mut self, format: i64) {
        self.apply_result_format(format);
    }

    /// Sets `search_mode`; see the property.
    #[func]
    pub fn set_search_mode(&mut self, mode: i64) {
        self.apply_search_mode(mode);
    }

    /// Sets `other_units`; see the property.
    #[func]
    pub fn set_other_units(&mut self, rule: i64) {
        self.apply_other_units(rule);
    }

    /// Sets `smoothing`; see the property.
    #[func]
    pub fn set_smoothing(&mut self, smoothing: i64) {
        self.apply_smoothing(smoothing);
    }

    /// Sets `other_units_cost`; see the property.
    #[func]
    pub fn set_other_units_cost(&mut self, multiplier: f64) {
        self.apply_other_units_cost(multiplier);
    }

    /// Sets `default_terrain`; see the property.
    #[func]
    pub fn set_default_terrain(&mut self, terrain: i64) {
        self.apply_default_terrain(terrain);
    }

    /// Sets `empty_cell_terrain`; see the property.
    #[func]
    pub fn set_empty_cell_terrain(&mut self, terrain: i64) {
        self.apply_empty_cell_terrain(terrain);
    }

    /// Sets `landmark_count`; see the property. A value outside 0 to 64 is refused with an
    /// error and changes nothing.
    #[func]
    pub fn set_landmark_count(&mut self, count: i64) {
        self.apply_landmark_count(count);
    }

    /// Sets `profiles`; see the property.
    #[func]
    pub fn set_profiles(&mut self, profiles: Array<Option<Gd<AgentProfile>>>) {
        self.apply_profiles(profiles);
    }

    /// Sets `worker_thread_count`; see the property. A value outside 0 to 64 is refused with
    /// an error.
    #[func]
    pub fn set_worker_thread_count(&mut self, count: i64) {
        self.apply_worker_thread_count(count);
    }

    /// Sets `search_expansion_limit`; see the property. A negative value is refused with an
    /// error.
    #[func]
    pub fn set_search_expansion_limit(&mut self, limit: i64) {
        self.apply_search_expansion_limit(limit);
    }

    /// Sets `cache_memory_limit_mb`; see the property. A value outside 1 to 1048576 is refused
    /// with an error.
    #[func]
    pub fn set_cache_memory_limit_mb(&mut self, megabytes: i64) {
        self.apply_cache_memory_limit_mb(megabytes);
    }

    /// Sets `max_map_cells`; see the property. A value outside 1 to 268435456 is refused with
    /// an error; the current map is kept even if it is larger.
    #[func]
    pub fn set_max_map_cells(&mut self, cells: i64) {
        self.apply_max_map_cells(cells);
    }

    /// Sets `debug_draw_clearance`; see the property.
    #[func]
    pub fn set_debug_draw_clearance(&mut self, enabled: bool) {
        self.apply_debug_draw_clearance(enabled);
    }

    /// Sets `debug_profile`; see the property.
    #[func]
    pub fn set_debug_profile(&mut self, profile: StringName) {
        self.apply_debug_profile(profile);
    }

    /// Sets `debug_draw_last_path`; see the property.
    #[func]
    pub fn set_debug_draw_last_path(&mut self, enabled: bool) {
        self.apply_debug_draw_last_path(enabled);
    }

    /// Sets `debug_draw_units`; see the property.
    #[func]
    pub fn set_debug_draw_units(&mut self, enabled: bool) {
        self.apply_debug_draw_units(enabled);
    }

    /// Sets `debug_flow_field`; see the property.
    #[func]
    pub fn set_debug_flow_field(&mut self, field: Option<Gd<ClearanceFlowField>>) {
        self.apply_debug_flow_field(field);
    }

    /// Sets `debug_draw_last_range`; see the property.
    #[func]
    pub fn set_debug_draw_last_range(&mut self, enabled: bool) {
        self.apply_debug_draw_last_range(enabled);
    }

    /// Marks the resource profiles for registration before the next query: connected to the
    /// `changed` signal of each AgentProfile in `profiles`.
    #[func]
    fn _on_profile_changed(&mut self) {
        self.profiles_stale = true;
        self.base_mut().update_configuration_warnings();
        self.base_mut().queue_redraw();
    }
}
