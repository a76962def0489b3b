extends "res://tests/check_base.gd"
## The verifier's checks against the independent reference (`reference.gd`) on generated
## maps: every size and weight, every search mode and result format, landmarks, live edits.

## Random maps of rectangles of ground, wall, road, swamp and water; queries between anchors
## (mostly legal ones) compared with the reference Dijkstra, and each returned path checked
## step by step on the raw grid.
func check_generated(weighted: bool, maps: int, queries_per_map: int) -> Variant:
	var counts := {"OK": 0, "NO_PATH": 0, "START_CLEARANCE_INSUFFICIENT": 0, "GOAL_CLEARANCE_INSUFFICIENT": 0}
	var queries := 0
	for map_index: int in maps:
		var map := GeneratedMap.new(rng, weighted, Rect2i(14, 10, 10, 8))
		var pf := map.node(root)
		var solver := map.solver()
		var eight_way := map.eight_way
		for query: int in queries_per_map:
			var size := rng.randi_range(2, 3) if not weighted else rng.randi_range(1, 3)
			var start := _pick_anchor(solver, size)
			var goal := _pick_anchor(solver, size)
			var result := pf.find_path(start, goal, size, &"generated")
			var label := "map %d %s size %d %s->%s" % [map_index, "8-way" if eight_way else "4-way", size, start, goal]
			_compare(solver, result, start, goal, size, label)
			counts[result.code] = counts.get(result.code, 0) + 1
			queries += 1
		pf.free()
	_expect(counts.OK * 2 >= queries, "at least half the generated queries found a path: %s" % counts)
	return "%d queries: %s" % [queries, JSON.stringify(counts)]


func check_search_modes() -> Variant:
	var modes := [ClearancePathfinder.SEARCH_MODE_AUTO, ClearancePathfinder.SEARCH_MODE_JUMP, ClearancePathfinder.SEARCH_MODE_PLAIN]
	var compared := 0
	for map_index: int in 6:
		var width := rng.randi_range(16, 28)
		var height := rng.randi_range(12, 20)
		var data := _filled(width * height, GROUND)
		for i: int in rng.randi_range(8, 16):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 5), rng.randi_range(1, 4))
			var terrain: int = [WALL, ROAD, SWAMP, WATER][rng.randi_range(0, 3)]
			for y: int in range(rect.position.y, mini(rect.end.y, height)):
				for x: int in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = terrain
		var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 3.0, WATER: 7.5}
		var pf := ClearancePathfinder.new()
		root.add_child(pf)
		pf.region = Rect2i(0, 0, width, height)
		pf.load_terrain(data)
		pf.set_profile(&"generated", costs)
		var solver := Reference.new(width, height, data, costs, true)
		for query: int in 12:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(solver, size)
			var goal := _pick_anchor(solver, size)
			var first: Dictionary = {}
			for mode: int in modes:
				pf.search_mode = mode
				var result := pf.find_path(start, goal, size, &"generated")
				var label := "map %d mode %d size %d %s->%s" % [map_index, mode, size, start, goal]
				_compare(solver, result, start, goal, size, label)
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
func check_result_formats() -> Variant:
	var compared := 0
	for map_index: int in 4:
		var width := rng.randi_range(16, 24)
		var height := rng.randi_range(12, 18)
		var data := _filled(width * height, GROUND)
		for i: int in rng.randi_range(6, 12):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 5), rng.randi_range(1, 4))
			for y: int in range(rect.position.y, mini(rect.end.y, height)):
				for x: int in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = [WALL, SWAMP][rng.randi_range(0, 1)]
		var pf := ClearancePathfinder.new()
		root.add_child(pf)
		pf.region = Rect2i(0, 0, width, height)
		pf.cell_size = Vector2(8, 12)
		pf.offset = Vector2(3, -5)
		pf.load_terrain(data)
		pf.set_profile(&"generated", {GROUND: 1.0, SWAMP: 2.5})
		for query: int in 20:
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


func check_landmarks() -> Variant:
	var compared := 0
	var fewer := 0
	for map_index: int in 6:
		var width := rng.randi_range(20, 32)
		var height := rng.randi_range(16, 24)
		var data := _filled(width * height, GROUND)
		for i: int in rng.randi_range(8, 16):
			var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 8), rng.randi_range(1, 3))
			var terrain: int = [WALL, WALL, WALL, SWAMP, ROAD][rng.randi_range(0, 4)]
			for y: int in range(rect.position.y, mini(rect.end.y, height)):
				for x: int in range(rect.position.x, mini(rect.end.x, width)):
					data[y * width + x] = terrain
		var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 3.0} if map_index % 2 == 0 else {GROUND: 1.0, ROAD: 1.0, SWAMP: 1.0}
		var finders: Array[ClearancePathfinder] = []
		for landmarks: int in [0, 6]:
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
		var solver := Reference.new(width, height, data, costs, map_index < 4)
		for query: int in 25:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(solver, size)
			var goal := _pick_anchor(solver, size)
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
		for pf: ClearancePathfinder in finders:
			pf.free()
	_expect(compared >= 60, "enough paths compared: %d" % compared)
	return "%d paths equal in cost; landmarks expanded no more anchors in %d" % [compared, fewer]


## A legal anchor for `size` nine times in ten (when there is one), otherwise any cell.
func _pick_anchor(solver: Reference, size: int) -> Vector2i:
	var legal: Array[Vector2i] = []
	for y: int in solver.height:
		for x: int in solver.width:
			if solver.legal(x, y, size):
				legal.append(Vector2i(x, y))
	if legal.is_empty() or rng.randf() < 0.1:
		return Vector2i(rng.randi_range(0, solver.width - 1), rng.randi_range(0, solver.height - 1))
	return legal[rng.randi_range(0, legal.size() - 1)]


func _compare(solver: Reference, result: Dictionary, start: Vector2i,
		goal: Vector2i, size: int, label: String) -> void:
	if not solver.legal(start.x, start.y, size):
		_expect_eq([result.code, result.clearance_needed, result.expanded], ["START_CLEARANCE_INSUFFICIENT", size, 0], label)
		_expect_eq(result.get("clearance_found"), solver.clearance(start.x, start.y), label + " clearance found")
		return
	if not solver.legal(goal.x, goal.y, size):
		_expect_eq([result.code, result.clearance_needed, result.expanded], ["GOAL_CLEARANCE_INSUFFICIENT", size, 0], label)
		return
	var best := solver.shortest_cost(start, goal, size)
	if best == INF:
		_expect_eq(result.code, "NO_PATH", label + " unreachable")
		return
	_expect_eq(result.code, "OK", label + " reachable")
	if result.code != "OK":
		return
	var path: Array = result.path
	_expect(path.front() == start and path.back() == goal, label + " path runs from start to goal")
	var walked := solver.path_cost(path, size)
	_expect(walked != INF, label + " every step of the path is legal on the raw grid")
	_expect(absf(result.total_cost - best) <= 1e-6 * maxf(1.0, best), "%s cost %.9f, reference %.9f" % [label, result.total_cost, best])
	_expect(absf(walked - result.total_cost) <= 1e-6 * maxf(1.0, walked), "%s reported cost %.9f, walked %.9f" % [label, result.total_cost, walked])


## Random cell, rectangle and batch edits between queries; every query is compared with the
## reference on the terrain as it is after the edits.
func check_live_edits() -> Variant:
	var width := 20
	var height := 14
	var pf := _map(_rows_of(width, height, "."), EIGHT_WAY)
	var costs := {GROUND: 1.0, ROAD: 0.5, SWAMP: 2.0}
	pf.set_profile(&"generated", costs)
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	var edits := 0
	var compared := 0
	for round_index: int in 40:
		for edit: int in 3:
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
		var solver := Reference.new(width, height, pf.get_terrain_data(), costs, true)
		for query: int in 3:
			var size := rng.randi_range(1, 3)
			var start := _pick_anchor(solver, size)
			var goal := _pick_anchor(solver, size)
			var result := pf.find_path(start, goal, size, &"generated")
			_compare(solver, result, start, goal, size, "round %d size %d %s->%s" % [round_index, size, start, goal])
			compared += 1
	_expect_eq(emitted.size(), edits, "one map_changed per edit")
	pf.free()
	return "%d edits, %d queries compared" % [edits, compared]
