extends SceneTree
## Headless verifier for the Clearance Pathfinder extension:
##   godot --headless --path godot-project --script res://tests/verify.gd
## Runs named checks, prints one line `RECEIPT {json}` listing each check and whether it passed,
## and quits with status 1 if any failed. Expected error messages from bad-input checks are
## printed by the extension along the way; they are part of what is being checked.

const Reference := preload("res://tests/reference.gd")
const FieldChecks := preload("res://tests/field_checks.gd")
const GeneratedMap := preload("res://tests/generated_map.gd")
const Expectations := preload("res://tests/expectations.gd")

const GROUND := 0
const WALL := 1
const ROAD := 2
const SWAMP := 3
const MUD := 4
const RUBBLE := 5
const WATER := 6
const CHARACTERS := {".": GROUND, "#": WALL, "r": ROAD, "s": SWAMP, "m": MUD, "x": RUBBLE, "w": WATER}
const NEVER := ClearancePathfinder.DIAGONAL_MODE_NEVER
const EIGHT_WAY := ClearancePathfinder.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES

var checks: Array[Dictionary] = []
var expectations := Expectations.new()
var problems: Array[String] = expectations.problems
var rng := RandomNumberGenerator.new()


func _initialize() -> void:
	rng.seed = 20260329
	await _run("width_one_gap_passes_1x1_and_sends_2x2_round", _check_gap)
	await _run("road_at_1_beats_swamp_at_3", _check_road_vs_swamp)
	await _run("start_cell_is_never_charged", _check_uncharged_start)
	await _run("multiplier_below_one_takes_longer_cheaper_route", _check_cheap_road)
	await _run("larger_agents_pay_the_dearest_footprint_cell", _check_footprint_cost)
	await _run("diagonals_never_cut_corners", _check_corners)
	await _run("goal_and_start_clearance_codes", _check_clearance_codes)
	await _run("bad_queries_get_their_codes_in_order", _check_bad_queries)
	await _run("bad_terrain_edits_return_false_and_change_nothing", _check_bad_edits)
	await _run("good_terrain_edits_apply_and_signal", _check_good_edits)
	await _run("bad_profiles_return_false_and_change_nothing", _check_bad_profiles)
	await _run("bad_properties_are_refused", _check_bad_properties)
	await _run("region_change_rebuilds_and_keeps_profiles", _check_region_rebuild)
	await _run("determinism_same_query_same_path", _check_determinism)
	await _run("coordinates_and_footprints", _check_coordinates)
	await _run("find_path_world_uses_global_footprint_centres", _check_world)
	await _run("tile_map_layer_import", _check_import)
	await _run("tile_map_layer_import_refuses_bad_layers", _check_bad_import)
	await _run("agent_profile_resources", _check_resources)
	await _run("demo_scene_profiles_load_from_resources", _check_demo_scene)
	await _run("generated_size_2_and_3_queries_match_reference", _check_generated.bind(false, 8, 15))
	await _run("generated_weighted_queries_match_reference", _check_generated.bind(true, 8, 10))
	await _run("landmark_queries_agree_with_plain_queries", _check_landmarks)
	await _run("search_mode_changes_no_cost", _check_search_modes)
	await _run("result_formats_and_id_paths_describe_the_same_path", _check_result_formats)
	await _run("edits_between_queries_keep_results_exact", _check_live_edits)
	await _run("partial_paths_end_at_the_nearest_reachable_anchor", _check_partial_paths)
	await _run("expansion_and_memory_limits_are_codes", _check_limits)
	await _run("async_requests_arrive_with_their_ids", _check_async_requests)
	await _run("async_results_belong_to_the_map_version_they_were_asked_on", _check_async_versions)
	await _run("batches_equal_single_queries", _check_batches)
	await _run("every_func_refuses_bad_input_and_changes_nothing", _check_every_func_bad_input)
	var fields := FieldChecks.new(expectations, rng, self)
	await _run("flow_fields_match_find_path_and_reference", fields.check_fields_match_reference)
	await _run("group_orders_equal_find_path_per_start", fields.check_group_orders)
	await _run("async_flow_field_belongs_to_the_version_it_was_asked_on", fields.check_async_field)
	await _run("flow_field_steers_by_world_position", fields.check_steering)
	await _run("flow_field_methods_refuse_bad_input_and_change_nothing", fields.check_bad_input)
	var failed := checks.filter(func(check: Dictionary) -> bool: return not check["pass"]).size()
	var receipt := {
		"suite": "clearance_pathfinder_godot",
		"engine": Engine.get_version_info().string,
		"checks": checks,
		"total": checks.size(),
		"passed": checks.size() - failed,
		"failed": failed,
	}
	print("RECEIPT " + JSON.stringify(receipt))
	quit(1 if failed > 0 else 0)


func _run(check_name: String, check: Callable) -> void:
	problems.clear()
	# Checks that wait for signals are coroutines; awaiting a plain call returns at once.
	var detail: Variant = await check.call()
	var entry := {"name": check_name, "pass": problems.is_empty()}
	if not problems.is_empty():
		entry["problems"] = Array(problems.slice(0, 8))
	elif detail is String and detail != "":
		entry["detail"] = detail
	checks.append(entry)


func _expect(condition: bool, what: String) -> void:
	expectations.expect(condition, what)


func _expect_eq(actual: Variant, expected: Variant, what: String) -> void:
	expectations.expect_eq(actual, expected, what)


## A pathfinder (in the tree, so ready runs) over a map drawn with CHARACTERS.
func _map(rows: Array, diagonal_mode: int) -> ClearancePathfinder:
	var pathfinder := ClearancePathfinder.new()
	root.add_child(pathfinder)
	pathfinder.diagonal_mode = diagonal_mode
	pathfinder.region = Rect2i(0, 0, rows[0].length(), rows.size())
	var data := PackedByteArray()
	for row in rows:
		for character in row:
			data.append(CHARACTERS[character])
	_expect(pathfinder.load_terrain(data), "load_terrain of a well-formed map")
	return pathfinder


func _snapshot(pathfinder: ClearancePathfinder) -> Array:
	return [pathfinder.get_terrain_data(), pathfinder.get_profile_names(), pathfinder.region]


func _check_gap() -> void:
	var pf := _map(["........", "........", "####.###", "........", "........", "........",
		"........", "##....##", "........", "........"], NEVER)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var small := pf.find_path(Vector2i(4, 0), Vector2i(4, 3), 1, &"unit")
	_expect_eq(small.code, "OK", "1x1 through the gap")
	_expect_eq(small.total_cost, 3.0, "1x1 cost")
	_expect(small.path.has(Vector2i(4, 2)), "the 1x1 uses the gap")
	var blocked := pf.find_path(Vector2i(3, 0), Vector2i(3, 3), 2, &"unit")
	_expect_eq(blocked.code, "NO_PATH", "2x2 cannot pass the one-cell gap")
	_expect_eq([blocked.ok, blocked.path], [false, []], "NO_PATH has no path")
	var wide := pf.find_path(Vector2i(0, 3), Vector2i(0, 8), 2, &"unit")
	_expect_eq(wide.code, "OK", "2x2 through the wide gap")
	_expect(wide.path.any(func(a: Vector2i) -> bool: return a.y == 6 and a.x >= 2 and a.x <= 4), "2x2 crosses row 7 at the wide gap")
	_expect(wide.total_cost > 5.0, "2x2 had to walk round")
	pf.free()


func _check_road_vs_swamp() -> void:
	var pf := _map(["rssssr", "rrrrrr"], NEVER)
	pf.set_profile(&"jeep", {ROAD: 1.0, SWAMP: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep")
	_expect_eq(result.code, "OK", "code")
	_expect_eq(result.total_cost, 7.0, "six road cells and the goal beat four swamp cells")
	_expect(result.path.all(func(a: Vector2i) -> bool: return a.y == 1 or a.x == 0 or a.x == 5), "keeps to the road")
	pf.set_profile(&"jeep", {ROAD: 1.0, SWAMP: 1.0})
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 5.0, "cheap swamp: straight through")
	pf.free()


func _check_uncharged_start() -> void:
	var pf := _map(["xrmr"], NEVER)
	pf.set_profile(&"walker", {RUBBLE: 9.0, ROAD: 1.0, MUD: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 1, &"walker")
	_expect_eq(result.code, "OK", "code")
	_expect_eq(result.total_cost, 5.0, "start on rubble 9.0 uncharged: road 1 + mud 3 + road 1")
	var back := pf.find_path(Vector2i(3, 0), Vector2i(0, 0), 1, &"walker")
	_expect_eq(back.total_cost, 13.0, "backwards the rubble is entered and the first road is not")
	var stay := pf.find_path(Vector2i(0, 0), Vector2i(0, 0), 1, &"walker")
	_expect_eq([stay.code, stay.path, stay.total_cost], ["OK", [Vector2i(0, 0)], 0.0], "start == goal")
	pf.free()


func _check_cheap_road() -> void:
	var pf := _map([".....", "rrrrr"], NEVER)
	pf.set_profile(&"cart", {GROUND: 1.0, ROAD: 0.25})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(4, 0), 1, &"cart")
	_expect_eq(result.total_cost, 2.25, "down, along the 0.25 road and up (not 4.0)")
	_expect_eq(result.path.size(), 7, "path length")
	pf.free()


func _check_footprint_cost() -> void:
	var pf := _map(["..s.", "...."], NEVER)
	pf.set_profile(&"tank", {GROUND: 1.0, SWAMP: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(2, 0), 2, &"tank")
	_expect_eq(result.total_cost, 6.0, "each step's footprint covers the swamp cell")
	pf.free()


func _check_corners() -> void:
	var pf := _map(["#.", ".."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var result := pf.find_path(Vector2i(0, 1), Vector2i(1, 0), 1, &"unit")
	_expect_eq(result.path, [Vector2i(0, 1), Vector2i(1, 1), Vector2i(1, 0)], "goes round the corner")
	_expect_eq(result.total_cost, 2.0, "two straight steps")
	var open := _map(["...", "...", "..."], EIGHT_WAY)
	open.set_profile(&"unit", {GROUND: 1.0})
	var diagonal := open.find_path(Vector2i(0, 0), Vector2i(2, 2), 1, &"unit")
	_expect(absf(diagonal.total_cost - 2.0 * sqrt(2.0)) < 1e-6, "two diagonal steps cost 2 sqrt 2")
	open.diagonal_mode = NEVER
	_expect_eq(open.find_path(Vector2i(0, 0), Vector2i(2, 2), 1, &"unit").total_cost, 4.0, "4-way after switching mode")
	pf.free()
	open.free()


func _check_clearance_codes() -> void:
	var pf := _map(["....", "....", "...#"], EIGHT_WAY)
	pf.set_profile(&"tank", {GROUND: 1.0})
	var goal := pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 2, &"tank")
	_expect_eq([goal.ok, goal.code, goal.clearance_found, goal.clearance_needed, goal.expanded, goal.path],
		[false, "GOAL_CLEARANCE_INSUFFICIENT", 1, 2, 0, []], "goal too narrow")
	var start := pf.find_path(Vector2i(2, 1), Vector2i(0, 0), 2, &"tank")
	_expect_eq([start.code, start.clearance_found, start.clearance_needed, start.expanded],
		["START_CLEARANCE_INSUFFICIENT", 1, 2, 0], "start too narrow")
	var both := pf.find_path(Vector2i(3, 2), Vector2i(3, 0), 2, &"tank")
	_expect_eq([both.code, both.clearance_found], ["START_CLEARANCE_INSUFFICIENT", 0], "start checked before goal")
	_expect(not pf.find_path(Vector2i(0, 0), Vector2i(1, 0), 1, &"tank").has("clearance_found"), "no clearance keys on success")
	_expect_eq([pf.get_clearance(Vector2i(0, 0), &"tank"), pf.get_clearance(Vector2i(2, 1), &"tank"),
		pf.get_clearance(Vector2i(3, 2), &"tank")], [3, 1, 0], "get_clearance")
	pf.free()


func _check_bad_queries() -> void:
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
	for query in cases:
		var result := pf.find_path(query[0], query[1], query[2], query[3])
		_expect_eq([result.ok, result.code, result.path, result.expanded, result.total_cost],
			[false, query[4], [], 0, 0.0], "find_path%s" % [query.slice(0, 4)])
	var nan_start := pf.find_path_world(Vector2(NAN, 0), Vector2(8, 8), 1, &"unit")
	_expect_eq([nan_start.code, nan_start.points], ["START_OUT_OF_BOUNDS", PackedVector2Array()], "NaN start position")
	var inf_goal := pf.find_path_world(Vector2(8, 8), Vector2(INF, 8), 1, &"unit")
	_expect_eq(inf_goal.code, "GOAL_OUT_OF_BOUNDS", "infinite goal position")
	_expect_eq(_snapshot(pf), before, "map and profiles unchanged by bad queries")
	pf.free()


func _check_bad_edits() -> void:
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


func _check_good_edits() -> void:
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


func _check_bad_profiles() -> void:
	var pf := _map(["xrmr"], NEVER)
	pf.set_profile(&"walker", {RUBBLE: 9.0, ROAD: 1.0, MUD: 3.0})
	var before := _snapshot(pf)
	var bad_costs := [{ROAD: NAN}, {ROAD: INF}, {ROAD: -INF}, {ROAD: -1.0}, {ROAD: -0.001},
		{ROAD: 10000.5}, {"2": 1.0}, {2.0: 1.0}, {Vector2i(2, 0): 1.0}, {256: 1.0}, {-1: 1.0},
		{ROAD: "fast"}, {ROAD: null}, {ROAD: 1.0, MUD: NAN}]
	for costs in bad_costs:
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


func _check_bad_properties() -> void:
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
	pf.free()


func _check_region_rebuild() -> void:
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


func _filled(count: int, value: int) -> PackedByteArray:
	var data := PackedByteArray()
	data.resize(count)
	data.fill(value)
	return data


func _check_determinism() -> String:
	var rows: Array[String] = ["............", "..####......", "......#.....", "..s...#..s..",
		"..ss......s.", "........ss..", ".#####......", "............"]
	var pf := _map(rows, EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0, SWAMP: 2.0})
	var first := pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit")
	_expect_eq(pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same query twice")
	for x in 10:
		pf.find_path(Vector2i(x, 0), Vector2i(11 - x, 7), 1 + x % 2, &"unit")
		pf.find_path(Vector2i(x, 7), Vector2i(0, 0), 2, &"unit")
	_expect_eq(pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same after other queries")
	var twin := _map(rows, EIGHT_WAY)
	twin.set_profile(&"unit", {GROUND: 1.0, SWAMP: 2.0})
	_expect_eq(twin.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same on an equal map")
	pf.free()
	twin.free()
	return "path of %d anchors, cost %.6f" % [first.path.size(), first.total_cost]


func _check_coordinates() -> void:
	var pf := _map(["....", "...."], EIGHT_WAY)
	pf.cell_size = Vector2(10, 20)
	pf.offset = Vector2(5, -5)
	_expect_eq(pf.cell_to_local(Vector2i(2, 3)), Vector2(30, 65), "cell_to_local is the cell centre")
	_expect_eq(pf.footprint_center(Vector2i(2, 3), 2), Vector2(35, 75), "footprint_center of a 2x2")
	_expect_eq(pf.footprint_center(Vector2i(-1, 0), 3), Vector2(10, 25), "footprint_center of a 3x3")
	_expect_eq(pf.local_to_cell(Vector2(30, 65)), Vector2i(2, 3), "local_to_cell of a centre")
	_expect_eq(pf.local_to_cell(Vector2(4.9, -5)), Vector2i(-1, 0), "local_to_cell left of the offset")
	_expect_eq(pf.local_to_cell(Vector2(1e30, -1e30)), Vector2i(2147483647, -2147483648), "far positions clamp")
	_expect_eq(pf.get_footprint_cells(Vector2i(2, 3), 2),
		[Vector2i(2, 3), Vector2i(3, 3), Vector2i(2, 4), Vector2i(3, 4)] as Array[Vector2i], "2x2 footprint cells")
	_expect_eq(pf.get_footprint_cells(Vector2i(-5, 7), 1), [Vector2i(-5, 7)] as Array[Vector2i], "1x1 footprint, off the map")
	pf.free()


func _check_world() -> void:
	var pf := _map(["......", "......", "......", "......"], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.position = Vector2(100, 40)
	pf.cell_size = Vector2(10, 10)
	pf.offset = Vector2(5, 5)
	var start := Vector2i(0, 0)
	var goal := Vector2i(4, 2)
	var start_position := pf.to_global(pf.footprint_center(start, 2)) + Vector2(3, -4)
	var goal_position := pf.to_global(pf.footprint_center(goal, 2)) + Vector2(-4.9, 4.9)
	var result := pf.find_path_world(start_position, goal_position, 2, &"unit")
	var direct := pf.find_path(start, goal, 2, &"unit")
	_expect_eq([result.start_anchor, result.goal_anchor], [start, goal], "anchors from footprint centres")
	_expect_eq([result.path, result.total_cost], [direct.path, direct.total_cost], "same path as find_path")
	var expected := PackedVector2Array()
	for anchor: Vector2i in direct.path:
		expected.append(pf.to_global(pf.footprint_center(anchor, 2)))
	_expect_eq(result.points, expected, "points are global footprint centres")
	_expect_eq(result.points[0], Vector2(115, 55), "first point")
	var miss := pf.find_path_world(start_position, Vector2(-1000, 0), 2, &"unit")
	_expect_eq([miss.code, miss.points], ["GOAL_OUT_OF_BOUNDS", PackedVector2Array()], "goal off the map")
	pf.free()


## A TileSet with an int custom data layer "terrain" (and a float one "speed"), three atlas
## tiles: ground (0), wall (1) and one with an out-of-range terrain (300).
func _tile_set() -> TileSet:
	var tile_set := TileSet.new()
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(0, "terrain")
	tile_set.set_custom_data_layer_type(0, TYPE_INT)
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(1, "speed")
	tile_set.set_custom_data_layer_type(1, TYPE_FLOAT)
	var image := Image.create_empty(48, 16, false, Image.FORMAT_RGBA8)
	var atlas := TileSetAtlasSource.new()
	atlas.texture = ImageTexture.create_from_image(image)
	atlas.texture_region_size = Vector2i(16, 16)
	tile_set.add_source(atlas, 0)
	for x in 3:
		atlas.create_tile(Vector2i(x, 0))
		atlas.get_tile_data(Vector2i(x, 0), 0).set_custom_data("terrain", [GROUND, WALL, 300][x])
	return tile_set


func _layer(rows: Array, origin: Vector2i) -> TileMapLayer:
	var layer := TileMapLayer.new()
	layer.tile_set = _tile_set()
	for y in rows.size():
		for x in rows[y].length():
			var tile := " .#!".find(rows[y][x]) - 1
			if tile >= 0:
				layer.set_cell(origin + Vector2i(x, y), 0, Vector2i(tile, 0))
	root.add_child(layer)
	return layer


func _check_import() -> void:
	var layer := _layer([
		"......",
		".####.",
		"....#.",
		"  ..#.",
		"......",
	], Vector2i(-2, 3))
	var pf := ClearancePathfinder.new()
	root.add_child(pf)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	_expect(pf.import_tile_map_layer(layer, "terrain"), "import succeeds")
	_expect_eq(pf.region, Rect2i(-2, 3, 6, 5), "region is the used rect")
	_expect_eq(emitted, [Rect2i(-2, 3, 6, 5)] as Array[Rect2i], "map_changed after import")
	_expect_eq([pf.get_cell_terrain(Vector2i(-2, 3)), pf.get_cell_terrain(Vector2i(-1, 4)),
		pf.get_cell_terrain(Vector2i(-2, 6)), pf.get_cell_terrain(Vector2i(-1, 6))],
		[GROUND, WALL, 255, 255], "tile terrains and empty cells")
	var result := pf.find_path(Vector2i(-2, 5), Vector2i(3, 7), 1, &"unit")
	_expect_eq(result.code, "OK", "query on the imported map")
	_expect(result.path.all(func(a: Vector2i) -> bool: return a != Vector2i(-2, 6) and a != Vector2i(-1, 6)), "empty cells are blocked")
	_expect_eq(pf.get_clearance(Vector2i(-1, 6), &"unit"), 0, "empty cell clearance")
	pf.empty_cell_terrain = GROUND
	_expect(pf.import_tile_map_layer(layer, "terrain"), "import with empty cells as ground")
	_expect_eq(pf.get_cell_terrain(Vector2i(-2, 6)), GROUND, "empty cell is ground now")
	layer.free()
	pf.free()


func _check_bad_import() -> void:
	var pf := _map(["...", "..."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var before := _snapshot(pf)
	var good := _layer(["..", ".#"], Vector2i.ZERO)
	var out_of_range := _layer([".!", ".."], Vector2i.ZERO)
	var empty := _layer([], Vector2i.ZERO)
	var bare := TileMapLayer.new()
	bare.set_cell(Vector2i.ZERO, 0, Vector2i.ZERO)
	root.add_child(bare)
	_expect(not pf.import_tile_map_layer(null, "terrain"), "null layer")
	_expect(not pf.import_tile_map_layer(good, "no_such_layer"), "missing custom data layer")
	_expect(not pf.import_tile_map_layer(good, "speed"), "float custom data layer")
	_expect(not pf.import_tile_map_layer(out_of_range, "terrain"), "terrain 300 in a tile")
	_expect(not pf.import_tile_map_layer(empty, "terrain"), "layer without tiles")
	_expect(not pf.import_tile_map_layer(bare, "terrain"), "layer without a TileSet")
	_expect_eq(_snapshot(pf), before, "map unchanged after refused imports")
	for node: Node in [good, out_of_range, empty, bare, pf]:
		node.free()


func _agent_profile(profile_name: StringName, terrains: Array, costs: Array) -> AgentProfile:
	var profile := AgentProfile.new()
	profile.name = profile_name
	profile.terrains = PackedInt32Array(terrains)
	profile.costs = PackedFloat64Array(costs)
	return profile


func _check_resources() -> void:
	var pf := _map(["rssssr", "rrrrrr"], NEVER)
	var jeep := _agent_profile(&"jeep", [ROAD, SWAMP], [1.0, 3.0])
	var walker := _agent_profile(&"walker", [ROAD, SWAMP], [1.0, 1.0])
	var invalid: Array[AgentProfile] = [
		_agent_profile(&"short", [ROAD, SWAMP], [1.0]),
		_agent_profile(&"wide", [256], [1.0]),
		_agent_profile(&"twice", [ROAD, ROAD], [1.0, 2.0]),
		_agent_profile(&"nan", [ROAD], [NAN]),
		_agent_profile(&"negative", [ROAD], [-2.0]),
		_agent_profile(&"", [ROAD], [1.0]),
	]
	_expect_eq(jeep.get_validation_error(), "", "a valid profile has no validation error")
	for profile in invalid:
		_expect(profile.get_validation_error() != "", "'%s' reports a validation error" % profile.name)
	var list: Array[AgentProfile] = [jeep, walker, null, _agent_profile(&"jeep", [ROAD], [1.0])]
	list.append_array(invalid)
	pf.profiles = list
	_expect(not pf.reload_profiles(), "reload_profiles reports invalid entries")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["jeep", "walker"]), "only the valid, first-named profiles")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 7.0, "jeep from a resource")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"walker").total_cost, 5.0, "walker from a resource")
	jeep.costs = PackedFloat64Array([1.0, 1.25])
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 6.0, "edited resource applies at once")
	pf.set_profile(&"jeep", {ROAD: 1.0})
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 7.0, "code profile replaces it")
	var only_walker: Array[AgentProfile] = [walker]
	pf.profiles = only_walker
	_expect(pf.reload_profiles(), "all valid")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["walker"]), "retired resource profiles are removed")
	pf.free()


func _check_demo_scene() -> void:
	var scene: PackedScene = load("res://demo/demo.tscn")
	var pf: ClearancePathfinder = scene.instantiate().get_node("Pathfinder")
	var owner_node := pf.get_parent()
	_expect_eq(pf.profiles.size(), 2, "two AgentProfile resources in the scene file")
	_expect(pf.reload_profiles(), "they are valid")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["infantry", "vehicle"]), "names")
	_expect_eq(pf.region, Rect2i(0, 0, 62, 32), "region from the scene")
	owner_node.free()


## Random maps of rectangles of ground, wall, road, swamp and water; queries between anchors
## (mostly legal ones) compared with the reference Dijkstra, and each returned path checked
## step by step on the raw grid.
func _check_generated(weighted: bool, maps: int, queries_per_map: int) -> String:
	var counts := {"OK": 0, "NO_PATH": 0, "START_CLEARANCE_INSUFFICIENT": 0, "GOAL_CLEARANCE_INSUFFICIENT": 0}
	var queries := 0
	for map_index in maps:
		var map := GeneratedMap.new(rng, weighted, Rect2i(14, 10, 10, 8))
		var pf := map.node(root)
		var reference := map.solver()
		var eight_way := map.eight_way
		for query in queries_per_map:
			var size := rng.randi_range(2, 3) if not weighted else rng.randi_range(1, 3)
			var start := _pick_anchor(reference, size)
			var goal := _pick_anchor(reference, size)
			var result := pf.find_path(start, goal, size, &"generated")
			var label := "map %d %s size %d %s->%s" % [map_index, "8-way" if eight_way else "4-way", size, start, goal]
			_compare(reference, pf, result, start, goal, size, label)
			counts[result.code] = counts.get(result.code, 0) + 1
			queries += 1
		pf.free()
	_expect(counts.OK * 2 >= queries, "at least half the generated queries found a path: %s" % counts)
	return "%d queries: %s" % [queries, JSON.stringify(counts)]


func _check_search_modes() -> String:
	var modes := [ClearancePathfinder.SEARCH_MODE_AUTO, ClearancePathfinder.SEARCH_MODE_JUMP, ClearancePathfinder.SEARCH_MODE_PLAIN]
	var compared := 0
	for map_index in 6:
		var width := rng.randi_range(16, 28)
		var height := rng.randi_range(12, 20)
		var data := _filled(width * height, GROUND)
		for i in rng.randi_range(8, 16):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 5), rng.randi_range(1, 4))
			var terrain: int = [WALL, ROAD, SWAMP, WATER][rng.randi_range(0, 3)]
			for y in range(rect.position.y, mini(rect.end.y, height)):
				for x in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = terrain
		var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 3.0, WATER: 7.5}
		var pf := ClearancePathfinder.new()
		root.add_child(pf)
		pf.region = Rect2i(0, 0, width, height)
		pf.load_terrain(data)
		pf.set_profile(&"generated", costs)
		var reference := Reference.new(width, height, data, costs, true)
		for query in 12:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(reference, size)
			var goal := _pick_anchor(reference, size)
			var first: Dictionary = {}
			for mode: int in modes:
				pf.search_mode = mode
				var result := pf.find_path(start, goal, size, &"generated")
				var label := "map %d mode %d size %d %s->%s" % [map_index, mode, size, start, goal]
				_compare(reference, pf, result, start, goal, size, label)
				if first.is_empty():
					first = result
				else:
					_expect_eq(result.code, first.code, label + ": same code in every mode")
					_expect(absf(result.total_cost - first.total_cost) <= 1e-9 * maxf(1.0, first.total_cost), label + ": same cost in every mode")
			compared += 1
		pf.free()
	return "%d queries in 3 modes" % compared


## Every result format against the default: same code, cost and expansions; packed anchors
## are the default's anchors, points their footprint centres; failures stay empty.
func _check_result_formats() -> String:
	var compared := 0
	for map_index in 4:
		var width := rng.randi_range(16, 24)
		var height := rng.randi_range(12, 18)
		var data := _filled(width * height, GROUND)
		for i in rng.randi_range(6, 12):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 5), rng.randi_range(1, 4))
			for y in range(rect.position.y, mini(rect.end.y, height)):
				for x in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = [WALL, SWAMP][rng.randi_range(0, 1)]
		var pf := ClearancePathfinder.new()
		root.add_child(pf)
		pf.region = Rect2i(0, 0, width, height)
		pf.cell_size = Vector2(8, 12)
		pf.offset = Vector2(3, -5)
		pf.load_terrain(data)
		pf.set_profile(&"generated", {GROUND: 1.0, SWAMP: 2.5})
		for query in 20:
			var size := rng.randi_range(1, 3)
			var start := Vector2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1))
			var goal := Vector2i(rng.randi_range(-2, width + 1), rng.randi_range(0, height - 1))
			var partial := rng.randf() < 0.3
			pf.result_format = ClearancePathfinder.RESULT_FORMAT_ANCHORS
			var anchors: Dictionary = pf.find_path(start, goal, size, &"generated", partial)
			pf.result_format = ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS
			var packed: Dictionary = pf.find_path(start, goal, size, &"generated", partial)
			pf.result_format = ClearancePathfinder.RESULT_FORMAT_POINTS
			var points: Dictionary = pf.find_path(start, goal, size, &"generated", partial)
			var label := "map %d size %d %s->%s partial %s" % [map_index, size, start, goal, partial]
			for other: Dictionary in [packed, points]:
				_expect_eq([other.code, other.total_cost, other.expanded], [anchors.code, anchors.total_cost, anchors.expanded], label)
			_expect(packed.path is PackedInt32Array and points.path is PackedVector2Array, label + " packed types")
			var path: Array = anchors.path
			var expected_packed := PackedInt32Array()
			var expected_points := PackedVector2Array()
			for anchor: Vector2i in path:
				expected_packed.append(anchor.x)
				expected_packed.append(anchor.y)
				expected_points.append(pf.footprint_center(anchor, size))
			_expect_eq(packed.path, expected_packed, label + " packed anchors")
			_expect_eq(points.path, expected_points, label + " footprint centres")
			_expect_eq(pf.get_id_path(start, goal, size, &"generated", partial), anchors.path, label + " get_id_path")
			_expect_eq([pf.get_last_code(), pf.get_last_total_cost()], [StringName(anchors.code), anchors.total_cost], label + " last code and cost")
			_expect_eq(pf.get_point_path(start, goal, size, &"generated", partial), expected_points, label + " get_point_path")
			_expect_eq(pf.get_last_result(), points, label + " get_last_result in the points format")
			compared += 1
		pf.result_format = ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS
		var batch: Array[Dictionary] = pf.find_paths([{"start": Vector2i(0, 0), "goal": Vector2i(width - 1, height - 1), "agent_size": 1, "profile": &"generated"}])
		pf.result_format = ClearancePathfinder.RESULT_FORMAT_ANCHORS
		var single: Dictionary = pf.find_path(Vector2i(0, 0), Vector2i(width - 1, height - 1), 1, &"generated")
		_expect_eq(batch[0].code, single.code, "map %d batch code" % map_index)
		_expect_eq(batch[0].path.size(), single.path.size() * 2, "map %d batch packed path" % map_index)
		pf.free()
	return "%d queries in 3 formats and by get_id_path and get_point_path" % compared


func _check_landmarks() -> String:
	var compared := 0
	var fewer := 0
	for map_index in 6:
		var width := rng.randi_range(20, 32)
		var height := rng.randi_range(16, 24)
		var data := _filled(width * height, GROUND)
		for i in rng.randi_range(8, 16):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 8), rng.randi_range(1, 3))
			var terrain: int = [WALL, WALL, WALL, SWAMP, ROAD][rng.randi_range(0, 4)]
			for y in range(rect.position.y, mini(rect.end.y, height)):
				for x in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = terrain
		var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 3.0} if map_index % 2 == 0 else {GROUND: 1.0, ROAD: 1.0, SWAMP: 1.0}
		var finders: Array[ClearancePathfinder] = []
		for landmarks in [0, 6]:
			var pf := ClearancePathfinder.new()
			root.add_child(pf)
			pf.region = Rect2i(0, 0, width, height)
			pf.diagonal_mode = EIGHT_WAY if map_index < 4 else NEVER
			pf.load_terrain(data)
			pf.set_profile(&"unit", costs)
			pf.landmark_count = landmarks
			finders.append(pf)
		var stats: Dictionary = finders[1].bake_landmarks(&"unit")
		_expect(stats.ok and stats.landmarks.size() >= 1, "map %d: landmarks baked: %s" % [map_index, stats])
		_expect_eq(finders[1].get_landmark_stats(&"unit").ok, true, "stats after baking")
		_expect_eq(finders[0].get_landmark_stats(&"unit").ok, false, "no table without landmarks")
		var reference := Reference.new(width, height, data, costs, map_index < 4)
		for query in 25:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(reference, size)
			var goal := _pick_anchor(reference, size)
			var plain: Dictionary = finders[0].find_path(start, goal, size, &"unit")
			var guided: Dictionary = finders[1].find_path(start, goal, size, &"unit")
			var label := "map %d size %d %s->%s" % [map_index, size, start, goal]
			_expect_eq(guided.code, plain.code, label + " code")
			_expect(is_equal_approx(guided.total_cost, plain.total_cost), "%s cost %s vs %s" % [label, guided.total_cost, plain.total_cost])
			if plain.code == "OK":
				compared += 1
				fewer += 1 if guided.expanded <= plain.expanded else 0
		# Out-of-range counts are refused and change nothing.
		finders[1].landmark_count = -1
		finders[1].landmark_count = 65
		_expect_eq(finders[1].landmark_count, 6, "landmark_count after refused values")
		for pf in finders:
			pf.free()
	_expect(compared >= 60, "enough paths compared: %d" % compared)
	return "%d paths equal in cost; landmarks expanded no more anchors in %d" % [compared, fewer]


## A legal anchor for `size` nine times in ten (when there is one), otherwise any cell.
func _pick_anchor(reference: Reference, size: int) -> Vector2i:
	var legal: Array[Vector2i] = []
	for y in reference.height:
		for x in reference.width:
			if reference.legal(x, y, size):
				legal.append(Vector2i(x, y))
	if legal.is_empty() or rng.randf() < 0.1:
		return Vector2i(rng.randi_range(0, reference.width - 1), rng.randi_range(0, reference.height - 1))
	return legal[rng.randi_range(0, legal.size() - 1)]


func _compare(reference: Reference, pf: ClearancePathfinder, result: Dictionary, start: Vector2i,
		goal: Vector2i, size: int, label: String) -> void:
	if not reference.legal(start.x, start.y, size):
		_expect_eq([result.code, result.clearance_needed, result.expanded], ["START_CLEARANCE_INSUFFICIENT", size, 0], label)
		_expect_eq(result.get("clearance_found"), pf.get_clearance(start, &"generated"), label + " clearance found")
		return
	if not reference.legal(goal.x, goal.y, size):
		_expect_eq([result.code, result.clearance_needed, result.expanded], ["GOAL_CLEARANCE_INSUFFICIENT", size, 0], label)
		return
	var best := reference.shortest_cost(start, goal, size)
	if best == INF:
		_expect_eq(result.code, "NO_PATH", label + " unreachable")
		return
	_expect_eq(result.code, "OK", label + " reachable")
	if result.code != "OK":
		return
	var path: Array = result.path
	_expect(path.front() == start and path.back() == goal, label + " path runs from start to goal")
	var walked := reference.path_cost(path, size)
	_expect(walked != INF, label + " every step of the path is legal on the raw grid")
	_expect(absf(result.total_cost - best) <= 1e-6 * maxf(1.0, best), "%s cost %.9f, reference %.9f" % [label, result.total_cost, best])
	_expect(absf(walked - result.total_cost) <= 1e-6 * maxf(1.0, walked), "%s reported cost %.9f, walked %.9f" % [label, result.total_cost, walked])


## Random cell, rectangle and batch edits between queries; every query is compared with the
## reference on the terrain as it is after the edits.
func _check_live_edits() -> String:
	var width := 20
	var height := 14
	var pf := _map(_rows_of(width, height, "."), EIGHT_WAY)
	var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 2.0}
	pf.set_profile(&"generated", costs)
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	var edits := 0
	var compared := 0
	for round_index in 40:
		for edit in 3:
			var terrain: int = [WALL, WALL, GROUND, ROAD, SWAMP][rng.randi_range(0, 4)]
			var corner := Vector2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1))
			var kind := rng.randi_range(0, 2)
			if kind == 0:
				_expect(pf.set_cell_terrain(corner, terrain), "set_cell_terrain")
				_expect_eq(emitted.back(), Rect2i(corner, Vector2i.ONE), "map_changed for a cell")
			elif kind == 1:
				var rect := Rect2i(corner, Vector2i(rng.randi_range(1, 4), rng.randi_range(1, 3))).intersection(Rect2i(0, 0, width, height))
				_expect(pf.fill_rect_terrain(rect, terrain), "fill_rect_terrain")
				_expect_eq(emitted.back(), rect, "map_changed for a rectangle")
			else:
				var cells: Array[Vector2i] = [corner, Vector2i(width - 1 - corner.x, corner.y)]
				_expect(pf.apply_terrain_batch(cells, PackedInt32Array([terrain, terrain])), "apply_terrain_batch")
				_expect(emitted.back().has_point(cells[1]) and emitted.back().has_point(cells[0]), "map_changed covers the batch")
			edits += 1
		var reference := Reference.new(width, height, pf.get_terrain_data(), costs, true)
		for query in 3:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(reference, size)
			var goal := _pick_anchor(reference, size)
			var result := pf.find_path(start, goal, size, &"generated")
			_compare(reference, pf, result, start, goal, size, "round %d size %d %s->%s" % [round_index, size, start, goal])
			compared += 1
	_expect_eq(emitted.size(), edits, "one map_changed per edit")
	pf.free()
	return "%d edits, %d queries compared" % [edits, compared]


func _rows_of(width: int, height: int, character: String) -> Array:
	var rows := []
	for y in height:
		rows.append(character.repeat(width))
	return rows


func _check_partial_paths() -> String:
	# A walled pen in the middle; the goal inside it, or in a gap too narrow for a 2x2.
	var pf := _map([
		"..........",
		"..........",
		"...####...",
		"...#..#...",
		"...####...",
		"..........",
		"#.########",
		"..........",
	], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var plain := pf.find_path(Vector2i(0, 0), Vector2i(4, 3), 1, &"unit")
	_expect_eq(plain.code, "NO_PATH", "without the option")
	var partial := pf.find_path(Vector2i(0, 0), Vector2i(4, 3), 1, &"unit", true)
	_expect_eq([partial.ok, partial.code], [false, "PARTIAL_PATH"], "with the option")
	_expect_eq(partial.path.front(), Vector2i(0, 0), "starts at the start")
	# Nearest reachable anchors to (4, 3) lie one diagonal away, outside the pen's corners and
	# sides; the lowest row wins: (4, 1) is 2 straight steps away, as are none nearer.
	_expect_eq(partial.path.back(), Vector2i(4, 1), "ends at the nearest reachable anchor")
	var reference := Reference.new(10, 8, pf.get_terrain_data(), {GROUND: 1.0}, true)
	_expect(is_equal_approx(partial.total_cost, reference.shortest_cost(Vector2i(0, 0), Vector2i(4, 1), 1)), "optimal to that anchor")
	var narrow := pf.find_path(Vector2i(0, 0), Vector2i(1, 6), 2, &"unit", true)
	_expect_eq([narrow.code, narrow.clearance_needed], ["PARTIAL_PATH", 2], "goal too narrow for a 2x2")
	_expect_eq(narrow.path.back(), Vector2i(1, 4), "the 2x2 stops above the gap")
	var reachable := pf.find_path(Vector2i(0, 0), Vector2i(9, 7), 1, &"unit", true)
	_expect_eq(reachable.code, "OK", "a reachable goal is answered as usual")
	var world := pf.find_path_world(pf.to_global(pf.cell_to_local(Vector2i(0, 0))), pf.to_global(pf.cell_to_local(Vector2i(4, 3))), 1, &"unit", true)
	_expect_eq([world.code, world.points.size()], ["PARTIAL_PATH", partial.path.size()], "find_path_world with a partial path")
	pf.free()
	return "partial path of %d anchors" % partial.path.size()


func _check_limits() -> void:
	var pf := _map(_rows_of(30, 30, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.search_expansion_limit = 5
	var limited := pf.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit")
	_expect_eq([limited.code, limited.expanded, limited.path], ["SEARCH_LIMIT_REACHED", 5, []], "stopped at 5 expansions")
	pf.search_expansion_limit = 0
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit").code, "OK", "0 means no limit")
	var fresh := _map(_rows_of(30, 30, "."), EIGHT_WAY)
	fresh.set_profile(&"unit", {GROUND: 1.0})
	fresh.cache_memory_limit_mb = 1
	_expect_eq(fresh.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit").code, "OK", "900 cells fit in 1 MiB")
	fresh.max_map_cells = 1000
	var region := fresh.region
	fresh.region = Rect2i(0, 0, 40, 40)
	_expect_eq(fresh.region, region, "a region above max_map_cells is refused")
	pf.free()
	fresh.free()


func _check_async_requests() -> String:
	var pf := _map(["..........", "....#.....", "....#.....", "....#....."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var asked := {}
	for i in 6:
		var goal := Vector2i(9, i % 4)
		var id := pf.request_path(Vector2i(0, 3), goal, 1 + i % 2, &"unit")
		asked[id] = pf.find_path(Vector2i(0, 3), goal, 1 + i % 2, &"unit")
	var bad_id := pf.request_path(Vector2i(0, 0), Vector2i(1, 1), 0, &"unit")
	asked[bad_id] = {"code": "INVALID_AGENT_SIZE"}
	var partial_id := pf.request_path(Vector2i(0, 3), Vector2i(4, 2), 1, &"unit", true)
	var cancelled := pf.request_path(Vector2i(0, 0), Vector2i(9, 3), 1, &"unit")
	_expect(pf.cancel_request(cancelled), "cancel a pending request")
	_expect(not pf.cancel_request(cancelled), "cancel it twice")
	_expect(not pf.cancel_request(12345), "cancel an unknown id")
	_expect_eq(pf.get_pending_request_count(), 8, "pending requests")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await process_frame
		frames += 1
	_expect_eq(pf.get_pending_request_count(), 0, "every request delivered within 600 frames")
	for id: int in asked:
		_expect(arrived.has(id), "request %d arrived" % id)
		if arrived.has(id) and asked[id].has("path"):
			_expect_eq(arrived[id], asked[id], "request %d equals find_path" % id)
		elif arrived.has(id):
			_expect_eq(arrived[id].code, asked[id].code, "request %d code" % id)
	_expect(not arrived.has(cancelled), "no signal for the cancelled request")
	_expect_eq(arrived.get(partial_id, {}).get("code"), "PARTIAL_PATH", "async partial path")
	var ids := asked.keys()
	ids.sort()
	_expect_eq(ids, range(ids[0], ids[0] + ids.size()), "ids are consecutive")
	pf.free()
	return "%d results in %d frames" % [arrived.size(), frames]


func _check_async_versions() -> void:
	var pf := _map(["..........", "..........", ".........."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var before := pf.request_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	# The wall goes up after the first request and before the second.
	_expect(pf.fill_rect_terrain(Rect2i(5, 0, 1, 3), WALL), "wall across the map")
	var after := pf.request_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await process_frame
		frames += 1
	_expect_eq(arrived.get(before, {}).get("code"), "OK", "the first request saw the open map")
	_expect_eq(arrived.get(before, {}).get("total_cost"), 9.0, "straight across the open map")
	_expect_eq(arrived.get(after, {}).get("code"), "NO_PATH", "the second saw the wall")
	_expect_eq(pf.find_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit").code, "NO_PATH", "the node's map has the wall")
	pf.free()


func _check_batches() -> String:
	var pf := _map(["..........", "...##.....", "...##..s..", ".......s.."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0, SWAMP: 3.0})
	var queries: Array = []
	var expected: Array = []
	for i in 40:
		var start := Vector2i(rng.randi_range(0, 9), rng.randi_range(0, 3))
		var goal := Vector2i(rng.randi_range(-1, 10), rng.randi_range(0, 3))
		var size := rng.randi_range(1, 2)
		var partial := i % 3 == 0
		queries.append({"start": start, "goal": goal, "agent_size": size, "profile": &"unit", "allow_partial_path": partial})
		expected.append(pf.find_path(start, goal, size, &"unit", partial))
	_expect_eq(pf.find_paths(queries), expected, "find_paths equals find_path one by one")
	var typed: Array[Dictionary] = []
	typed.assign(queries)
	_expect_eq(pf.find_paths(typed), expected, "find_paths takes a typed Array[Dictionary] too")
	var delivered := []
	pf.paths_found.connect(func(id: int, results: Array) -> void: delivered.append([id, results]))
	var id := pf.request_paths(queries)
	var empty_id := pf.request_paths([])
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await process_frame
		frames += 1
	var by_id := {}
	for entry: Array in delivered:
		by_id[entry[0]] = entry[1]
	_expect_eq(by_id.get(id), expected, "request_paths delivers the same results in order")
	_expect_eq(by_id.get(empty_id), [], "an empty batch is delivered empty")
	pf.free()
	return "%d queries per batch" % queries.size()


## Every method of the node with arguments it must refuse: each returns its failure value,
## prints an error, and leaves the map, profiles and settings as they were.
func _check_every_func_bad_input() -> void:
	var pf := _map(["....", ".#..", "...."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var before := _snapshot(pf)
	var settings := [pf.region, pf.cell_size, pf.offset, pf.diagonal_mode, pf.default_terrain,
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
	var after := [pf.region, pf.cell_size, pf.offset, pf.diagonal_mode, pf.default_terrain,
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
