extends "res://tests/check_base.gd"
## The verifier's checks of bad input: every method and property refuses what it must, says
## so, and changes nothing; good edits apply and signal.

func check_bad_queries() -> Variant:
	var pf := _map(["....", "....", "...."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var before := _snapshot(pf)
	var cases := [
		[Vector2i(0, 0), Vector2i(3, 2), 0, &"unit", "INVALID_AGENT_SIZE"],
		[Vector2i(0, 0), Vector2i(3, 2), -1, &"unit", "INVALID_AGENT_SIZE"],
		[Vector2i(0, 0), Vector2i(3, 2), 256, &"unit", "INVALID_AGENT_SIZE"],
		[Vector2i(-9, 0), Vector2i(99, 2), 0, &"nobody", "INVALID_AGENT_SIZE"],
		[Vector2i(-9, 0), Vector2i(99, 2), 1, &"nobody", "UNKNOWN_PROFILE"],
		[Vector2i(0, 0), Vector2i(3, 2), 1, &"", "UNKNOWN_PROFILE"],
		[Vector2i(-1, 0), Vector2i(99, 2), 1, &"unit", "START_OUT_OF_BOUNDS"],
		[Vector2i(0, 3), Vector2i(3, 2), 1, &"unit", "START_OUT_OF_BOUNDS"],
		[Vector2i(0, 0), Vector2i(4, 2), 1, &"unit", "GOAL_OUT_OF_BOUNDS"],
		[Vector2i(0, 0), Vector2i(0, -1), 1, &"unit", "GOAL_OUT_OF_BOUNDS"],
		[Vector2i(0, 0), Vector2i(3, 2), 255, &"unit", "START_CLEARANCE_INSUFFICIENT"],
	]
	for query: Array in cases:
		var result := pf.find_path(query[0], query[1], query[2], query[3])
		_expect_eq([result.ok, result.code, result.path, result.expanded, result.total_cost],
			[false, query[4], [], 0, 0.0], "find_path%s" % [query.slice(0, 4)])
	var nan_start := pf.find_path_world(Vector2(NAN, 0), Vector2(8, 8), 1, &"unit")
	_expect_eq([nan_start.code, nan_start.points], ["START_OUT_OF_BOUNDS", PackedVector2Array()], "NaN start position")
	var inf_goal := pf.find_path_world(Vector2(8, 8), Vector2(INF, 8), 1, &"unit")
	_expect_eq(inf_goal.code, "GOAL_OUT_OF_BOUNDS", "infinite goal position")
	# A node scaled to 0 cannot place world positions: out of bounds, not a guess at a cell.
	pf.scale = Vector2.ZERO
	var flat := pf.find_path_world(Vector2(8, 8), Vector2(24, 8), 1, &"unit")
	_expect_eq([flat.code, flat.points], ["START_OUT_OF_BOUNDS", PackedVector2Array()], "find_path_world on a node scaled to 0")
	pf.scale = Vector2.ONE
	_expect_eq(_snapshot(pf), before, "map and profiles unchanged by bad queries")
	pf.free()
	return ""


func check_bad_edits() -> Variant:
	var pf := _map(["....", ".#..", "...."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	var before := _snapshot(pf)
	var query_before := pf.find_path(Vector2i(0, 0), Vector2i(3, 2), 1, &"unit")
	var cell_good := Vector2i(0, 0)
	_expect(not pf.set_cell_terrain(Vector2i(-1, 0), WALL), "set_cell_terrain left of the map")
	_expect(not pf.set_cell_terrain(Vector2i(4, 0), WALL), "set_cell_terrain right of the map")
	_expect(not pf.set_cell_terrain(Vector2i(0, 3), WALL), "set_cell_terrain below the map")
	_expect(not pf.set_cell_terrain(cell_good, 256), "set_cell_terrain terrain 256")
	_expect(not pf.set_cell_terrain(cell_good, -1), "set_cell_terrain terrain -1")
	_expect(not pf.fill_rect_terrain(Rect2i(0, 0, 0, 1), WALL), "fill_rect_terrain empty rect")
	_expect(not pf.fill_rect_terrain(Rect2i(2, 2, -2, -2), WALL), "fill_rect_terrain negative size")
	_expect(not pf.fill_rect_terrain(Rect2i(3, 0, 2, 1), WALL), "fill_rect_terrain sticking out")
	_expect(not pf.fill_rect_terrain(Rect2i(-1, -1, 2, 2), WALL), "fill_rect_terrain above-left")
	_expect(not pf.fill_rect_terrain(Rect2i(0, 0, 2, 2), 300), "fill_rect_terrain terrain 300")
	_expect(not pf.load_terrain(PackedByteArray()), "load_terrain empty")
	_expect(not pf.load_terrain(PackedByteArray([0, 0, 0])), "load_terrain too short")
	var long := PackedByteArray()
	long.resize(13)
	_expect(not pf.load_terrain(long), "load_terrain too long")
	var two_cells: Array[Vector2i] = [Vector2i(0, 0), Vector2i(1, 0)]
	_expect(not pf.apply_terrain_batch(two_cells, PackedInt32Array([WALL])), "batch with fewer terrains")
	_expect(not pf.apply_terrain_batch([] as Array[Vector2i], PackedInt32Array([WALL])), "batch with no cells")
	_expect(not pf.apply_terrain_batch(two_cells, PackedInt32Array([WALL, 256])), "batch with terrain 256 last")
	_expect(not pf.apply_terrain_batch(two_cells, PackedInt32Array([-5, WALL])), "batch with terrain -5 first")
	var off_map: Array[Vector2i] = [Vector2i(0, 0), Vector2i(2, 2), Vector2i(9, 9)]
	_expect(not pf.apply_terrain_batch(off_map, PackedInt32Array([WALL, WALL, WALL])), "batch with a cell off the map last")
	_expect_eq(pf.get_cell_terrain(Vector2i(5, 5)), -1, "get_cell_terrain off the map")
	_expect_eq(pf.get_clearance(Vector2i(5, 5), &"unit"), -1, "get_clearance off the map")
	_expect_eq(pf.get_clearance(Vector2i(0, 0), &"nobody"), -1, "get_clearance unknown profile")
	_expect_eq(_snapshot(pf), before, "terrain unchanged after every bad edit")
	_expect_eq(emitted, [] as Array[Rect2i], "map_changed not emitted for bad edits")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(3, 2), 1, &"unit"), query_before, "queries as before")
	pf.free()
	return ""


func check_good_edits() -> Variant:
	var pf := _map(["....", "....", "...."], EIGHT_WAY)
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	_expect(pf.set_cell_terrain(Vector2i(1, 1), WALL), "set_cell_terrain")
	_expect(pf.fill_rect_terrain(Rect2i(2, 0, 2, 2), SWAMP), "fill_rect_terrain")
	var cells: Array[Vector2i] = [Vector2i(0, 2), Vector2i(3, 2)]
	_expect(pf.apply_terrain_batch(cells, PackedInt32Array([ROAD, 255])), "apply_terrain_batch")
	_expect(pf.apply_terrain_batch([] as Array[Vector2i], PackedInt32Array()), "empty batch is valid")
	_expect_eq(pf.get_terrain_data(), PackedByteArray([0, 0, 3, 3, 0, 1, 3, 3, 2, 0, 0, 255]), "terrain after edits")
	_expect_eq(emitted, [Rect2i(1, 1, 1, 1), Rect2i(2, 0, 2, 2), Rect2i(0, 2, 4, 1)] as Array[Rect2i], "map_changed rects")
	var fresh := PackedByteArray([4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4])
	_expect(pf.load_terrain(fresh), "load_terrain")
	_expect_eq([pf.get_terrain_data(), pf.get_cell_terrain(Vector2i(3, 2))], [fresh, 4], "terrain after load")
	_expect_eq(emitted.back(), Rect2i(0, 0, 4, 3), "load_terrain signals the whole map")
	# A handler may call back into the node while it emits (re-entrant, no borrow panic).
	pf.set_profile(&"unit", {4: 1.0})
	var seen_from_handler: Array = []
	pf.map_changed.connect(func(_rect: Rect2i) -> void:
		seen_from_handler.append([pf.get_cell_terrain(Vector2i(0, 0)), pf.find_path(Vector2i(0, 0), Vector2i(3, 2), 1, &"unit").code]))
	_expect(pf.set_cell_terrain(Vector2i(3, 2), WALL), "edit with a re-entrant handler")
	_expect_eq(seen_from_handler, [[4, "GOAL_CLEARANCE_INSUFFICIENT"]], "handler saw the edited map")
	pf.free()
	return ""


func check_bad_profiles() -> Variant:
	var pf := _map(["xrmr"], NEVER)
	pf.set_profile(&"walker", {RUBBLE: 9.0, ROAD: 1.0, MUD: 3.0})
	var before := _snapshot(pf)
	var bad_costs := [{ROAD: NAN}, {ROAD: INF}, {ROAD: -INF}, {ROAD: -1.0}, {ROAD: -0.001},
		{ROAD: 10000.5}, {"2": 1.0}, {2.0: 1.0}, {Vector2i(2, 0): 1.0}, {256: 1.0}, {-1: 1.0},
		{ROAD: "fast"}, {ROAD: null}, {ROAD: 1.0, MUD: NAN}]
	for costs: Dictionary in bad_costs:
		_expect(not pf.set_profile(&"walker", costs), "set_profile(walker, %s) refused" % var_to_str(costs))
		_expect(not pf.set_profile(&"newcomer", costs), "set_profile(newcomer, %s) refused" % var_to_str(costs))
	_expect(not pf.set_profile(&"", {ROAD: 1.0}), "empty name refused")
	_expect(not pf.remove_profile(&"nobody"), "remove_profile of an unknown name")
	_expect_eq(_snapshot(pf), before, "profiles and map unchanged")
	_expect(not pf.has_profile(&"newcomer"), "no profile from a refused set_profile")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 1, &"walker").total_cost, 5.0, "walker costs unchanged")
	_expect(pf.set_profile(&"walker", {RUBBLE: 9, ROAD: 2, MUD: 0}), "int multipliers and 0 accepted")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 1, &"walker").total_cost, 4.0, "replaced profile in force")
	_expect(pf.set_profile(&"boat", {}), "a profile that enters nothing is legal")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["boat", "walker"]), "sorted names")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 1, &"boat").code, "START_CLEARANCE_INSUFFICIENT", "boat cannot stand on land")
	_expect(pf.remove_profile(&"boat") and not pf.has_profile(&"boat"), "remove_profile")
	pf.free()
	return ""


func check_bad_properties() -> Variant:
	var pf := _map(["...", "..."], EIGHT_WAY)
	pf.diagonal_mode = 2
	pf.diagonal_mode = 0
	_expect_eq(pf.diagonal_mode, EIGHT_WAY, "diagonal_mode 0 and 2 refused")
	pf.result_format = 3
	pf.result_format = -1
	_expect_eq(pf.result_format, ClearancePathfinder.RESULT_FORMAT_ANCHORS, "result_format 3 and -1 refused")
	pf.search_mode = 3
	pf.search_mode = -1
	_expect_eq(pf.search_mode, ClearancePathfinder.SEARCH_MODE_AUTO, "search_mode 3 and -1 refused")
	var region := pf.region
	pf.region = Rect2i(0, 0, 0, 5)
	pf.region = Rect2i(0, 0, 5, -1)
	pf.region = Rect2i(0, 0, 40000, 1)
	pf.region = Rect2i(2147483000, 0, 1000, 1)
	_expect_eq(pf.region, region, "empty, negative, oversized and overflowing regions refused")
	_expect_eq(pf.get_terrain_data().size(), 6, "map kept")
	pf.cell_size = Vector2(0, 5)
	pf.cell_size = Vector2(NAN, 5)
	pf.cell_size = Vector2(4, -4)
	_expect_eq(pf.cell_size, Vector2(16, 16), "bad cell sizes refused")
	pf.offset = Vector2(INF, 0)
	_expect_eq(pf.offset, Vector2.ZERO, "infinite offset refused")
	pf.default_terrain = 256
	pf.empty_cell_terrain = -1
	_expect_eq([pf.default_terrain, pf.empty_cell_terrain], [0, 255], "out-of-range terrain properties refused")
	_expect_eq(pf.get_footprint_cells(Vector2i(0, 0), 0), [] as Array[Vector2i], "footprint of size 0")
	_expect_eq(pf.get_footprint_cells(Vector2i(0, 0), 256), [] as Array[Vector2i], "footprint of size 256")
	_expect_eq(pf.get_footprint_cells(Vector2i(2147483647, 0), 2), [] as Array[Vector2i], "footprint past the 32-bit range")
	_expect_eq(pf.footprint_center(Vector2i(0, 0), -1), Vector2.ZERO, "footprint_center of size -1")
	_expect_eq(pf.local_to_cell(Vector2(NAN, 1)), Vector2i.ZERO, "local_to_cell of NaN")
	# Landmarks are checked against the region just set, not the map it replaces: 16 slots of
	# 8 bytes on 2048 x 2048 cells need 512 MiB.
	pf.cache_memory_limit_mb = 64
	pf.region = Rect2i(0, 0, 2048, 2048)
	pf.landmark_count = 16
	_expect_eq(pf.landmark_count, 0, "landmarks the new region cannot hold refused")
	pf.landmark_count = 1
	_expect_eq(pf.landmark_count, 1, "one landmark (32 MiB) taken")
	pf.free()
	return ""


func check_region_rebuild() -> Variant:
	var pf := _map(["##", "##"], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0, SWAMP: 2.0})
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	pf.region = Rect2i(-3, -2, 5, 4)
	_expect_eq(pf.get_cell_terrain(Vector2i(-3, -2)), GROUND, "rebuilt with default_terrain")
	_expect_eq(pf.find_path(Vector2i(-3, -2), Vector2i(1, 1), 1, &"unit").code, "OK", "profiles kept, negative origin")
	pf.default_terrain = SWAMP
	_expect_eq(pf.get_terrain_data(), _filled(20, SWAMP), "default_terrain change refills")
	_expect_eq(pf.find_path(Vector2i(-3, -2), Vector2i(-2, -2), 1, &"unit").total_cost, 2.0, "swamp costs 2")
	_expect_eq(emitted, [Rect2i(-3, -2, 5, 4), Rect2i(-3, -2, 5, 4)] as Array[Rect2i], "map_changed on rebuilds")
	pf.free()
	return ""


## Every method of the node with arguments it must refuse: each returns its failure value,
## prints an error, and leaves the map, profiles and settings as they were.
func check_every_func_bad_input() -> Variant:
	var pf := _map(["....", ".#..", "...."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var before := _snapshot(pf)
	var settings := [pf.region, pf.cell_size, pf.offset, pf.cell_shape, pf.diagonal_mode, pf.default_terrain,
		pf.empty_cell_terrain, pf.landmark_count, pf.worker_thread_count, pf.search_expansion_limit,
		pf.cache_memory_limit_mb, pf.max_map_cells]
	var bad_cell := Vector2i(99, 99)
	# Queries
	_expect_eq(pf.find_path(Vector2i.ZERO, Vector2i.ONE, 0, &"unit").code, "INVALID_AGENT_SIZE", "find_path size 0")
	_expect_eq(pf.find_path(Vector2i.ZERO, Vector2i.ONE, 1, &"nobody", true).code, "UNKNOWN_PROFILE", "find_path unknown profile")
	_expect_eq(pf.find_path_world(Vector2(NAN, NAN), Vector2.ZERO, 300, &"unit").code, "INVALID_AGENT_SIZE", "find_path_world size 300")
	_expect_eq(pf.request_paths([{"start": Vector2i.ZERO}]), -1, "request_paths: missing keys")
	_expect_eq(pf.request_paths([{"start": Vector2(0, 0), "goal": Vector2i.ONE, "agent_size": 1, "profile": &"unit"}]), -1, "request_paths: Vector2 start")
	_expect_eq(pf.request_paths([{"start": Vector2i.ZERO, "goal": Vector2i.ONE, "agent_size": 1.5, "profile": &"unit"}]), -1, "request_paths: float size")
	_expect_eq(pf.request_paths([{"start": Vector2i.ZERO, "goal": Vector2i.ONE, "agent_size": 1, "profile": 7}]), -1, "request_paths: int profile")
	_expect_eq(pf.request_paths([{"start": Vector2i.ZERO, "goal": Vector2i.ONE, "agent_size": 1, "profile": &"unit", "max_expansions": -3}]), -1, "request_paths: negative limit")
	_expect_eq(pf.request_paths([{"start": Vector2i.ZERO, "goal": Vector2i.ONE, "agent_size": 1, "profile": &"unit", "allow_partial_path": 1}]), -1, "request_paths: int flag")
	_expect_eq(pf.request_paths(["not a dictionary"]), -1, "request_paths: a string entry")
	_expect_eq(pf.get_pending_request_count(), 0, "nothing started by refused batches")
	_expect_eq(pf.find_paths([null]), [] as Array[Dictionary], "find_paths: a null entry")
	_expect_eq([pf.get_id_path(Vector2i.ZERO, Vector2i.ONE, 0, &"unit"), pf.get_last_code()], [[] as Array[Vector2i], &"INVALID_AGENT_SIZE"], "get_id_path size 0")
	_expect_eq([pf.get_point_path(Vector2i.ZERO, Vector2i.ONE, 1, &"nobody"), pf.get_last_code()], [PackedVector2Array(), &"UNKNOWN_PROFILE"], "get_point_path unknown profile")
	_expect(not pf.cancel_request(-1), "cancel_request of -1")
	_expect_eq(pf.get_footprint_cells(Vector2i.ZERO, -5), [] as Array[Vector2i], "get_footprint_cells size -5")
	_expect_eq(pf.get_clearance(bad_cell, &"unit"), -1, "get_clearance off the map")
	_expect_eq(pf.footprint_center(Vector2i.ZERO, 0), Vector2.ZERO, "footprint_center size 0")
	_expect_eq(pf.local_to_cell(Vector2(INF, 0)), Vector2i.ZERO, "local_to_cell of INF")
	# Terrain
	_expect(not pf.set_cell_terrain(bad_cell, WALL), "set_cell_terrain off the map")
	_expect(not pf.fill_rect_terrain(Rect2i(0, 0, 2147483647, 2147483647), WALL), "fill_rect_terrain huge")
	_expect(not pf.load_terrain(PackedByteArray([1])), "load_terrain short")
	_expect(not pf.apply_terrain_batch([bad_cell] as Array[Vector2i], PackedInt32Array([WALL])), "apply_terrain_batch off the map")
	_expect_eq(pf.get_cell_terrain(bad_cell), -1, "get_cell_terrain off the map")
	_expect(not pf.import_tile_map_layer(null, "terrain"), "import_tile_map_layer null")
	_expect(not pf.match_tile_map_layer(null), "match_tile_map_layer null")
	# Profiles and landmarks
	_expect(not pf.set_profile(&"unit", {GROUND: NAN}), "set_profile NaN")
	_expect(not pf.remove_profile(&"nobody"), "remove_profile unknown")
	_expect(not pf.has_profile(&"nobody"), "has_profile unknown")
	_expect_eq(pf.bake_landmarks(&"nobody").ok, false, "bake_landmarks unknown profile")
	_expect_eq(pf.get_landmark_stats(&"nobody").ok, false, "get_landmark_stats unknown profile")
	# Properties
	pf.region = Rect2i(0, 0, -1, 4)
	pf.cell_size = Vector2(-1, 1)
	pf.offset = Vector2(NAN, 0)
	pf.cell_shape = 5
	pf.diagonal_mode = 7
	pf.default_terrain = 999
	pf.empty_cell_terrain = -2
	pf.landmark_count = 100
	pf.worker_thread_count = -1
	pf.worker_thread_count = 65
	pf.search_expansion_limit = -1
	pf.cache_memory_limit_mb = 0
	pf.cache_memory_limit_mb = 2000000
	pf.max_map_cells = 0
	pf.max_map_cells = 300000000
	var after := [pf.region, pf.cell_size, pf.offset, pf.cell_shape, pf.diagonal_mode, pf.default_terrain,
		pf.empty_cell_terrain, pf.landmark_count, pf.worker_thread_count, pf.search_expansion_limit,
		pf.cache_memory_limit_mb, pf.max_map_cells]
	_expect_eq(after, settings, "every property kept its value")
	_expect_eq(_snapshot(pf), before, "map and profiles unchanged")
	# Before the node enters the tree: queries and edits work on the default map.
	var loose := ClearancePathfinder.new()
	_expect_eq([loose.get_last_code(), loose.get_last_result()], [&"", {}], "no last result before the first query")
	_expect_eq(loose.find_path(Vector2i.ZERO, Vector2i.ONE, 1, &"unit").code, "UNKNOWN_PROFILE", "query before ready")
	_expect(loose.set_cell_terrain(Vector2i.ZERO, WALL), "edit before ready")
	_expect_eq(loose.get_cell_terrain(Vector2i.ZERO), WALL, "the edit applied")
	loose.free()
	pf.free()
	return ""
