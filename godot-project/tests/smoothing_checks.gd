extends "res://tests/check_base.gd"
## The verifier's smoothing checks (verify.gd runs them): taut waypoints from `find_path()` in
## every `result_format`, `get_point_path()`, `find_path_world()`, `find_paths()`, requests in
## every format, flow fields made at once or on request and units steered by them, a bad
## `smoothing`, `is_straight_move_clear()` and `smooth_path()`.
## Problems go to the verifier's `Expectations`.

const TAUT := ClearancePathfinder.SMOOTHING_TAUT
const OFF := ClearancePathfinder.SMOOTHING_OFF
## An open field with a wall the waypoints must go round.
const ROWS := [
	"..........",
	"..........",
	"....#.....",
	"....#.....",
	"....#.....",
	"..........",
]
const STARTS: Array[Vector2i] = [Vector2i(0, 0), Vector2i(0, 4), Vector2i(1, 3)]
const GOALS: Array[Vector2i] = [Vector2i(7, 2), Vector2i(8, 3), Vector2i(8, 0)]


func _smoothed_map() -> ClearancePathfinder:
	var pf := _map(ROWS, EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.smoothing = TAUT
	return pf


## `path` or `waypoints` of any result_format as a plain Array of Vector2i or Vector2.
func _entries(value: Variant) -> Array:
	if value is PackedInt32Array:
		var packed: PackedInt32Array = value
		var anchors := []
		for i: int in range(0, packed.size(), 2):
			anchors.append(Vector2i(packed[i], packed[i + 1]))
		return anchors
	if value is PackedVector2Array:
		var points: PackedVector2Array = value
		return Array(points)
	var entries: Array = value
	return entries


## Whether `part` is `whole` with entries left out, in order, first and last kept.
func _is_taut_subsequence(part: Array, whole: Array) -> bool:
	if part.size() < 2 or whole.is_empty() or part[0] != whole[0] or part[-1] != whole[-1]:
		return false
	var at := 0
	for entry in part:
		while at < whole.size() and whole[at] != entry:
			at += 1
		if at == whole.size():
			return false
		at += 1
	return true


## For each result_format and size 1 and 2: `waypoints` start at the start, end at the goal
## (as that format writes them), are a subsequence of `path`, and are fewer on a staircase;
## with smoothing off there are none.
func check_find_path_waypoints() -> Variant:
	var pf := _smoothed_map()
	var fewer := 0
	for format: int in [ClearancePathfinder.RESULT_FORMAT_ANCHORS, ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS, ClearancePathfinder.RESULT_FORMAT_POINTS]:
		pf.result_format = format
		for size: int in [1, 2]:
			for i: int in STARTS.size():
				var start := STARTS[i]
				var goal := GOALS[i]
				var label := "format %d size %d %s to %s" % [format, size, start, goal]
				var result := pf.find_path(start, goal, size, &"unit")
				_expect(result.ok and result.has("waypoints") and result.has("waypoint_length"), label + ": ok with waypoints")
				if not result.has("waypoints"):
					continue
				var path := _entries(result.path)
				var waypoints := _entries(result.waypoints)
				var ends: Array = [start, goal]
				if format == ClearancePathfinder.RESULT_FORMAT_POINTS:
					ends = [pf.footprint_center(start, size), pf.footprint_center(goal, size)]
				_expect_eq([waypoints.front(), waypoints.back()], ends, label + ": waypoints run from start to goal")
				_expect(_is_taut_subsequence(waypoints, path), label + ": waypoints are a subsequence of path")
				_expect(result.waypoint_length > 0.0, label + ": waypoint_length is positive")
				if waypoints.size() < path.size():
					fewer += 1
	pf.result_format = ClearancePathfinder.RESULT_FORMAT_ANCHORS
	var open := pf.find_path(Vector2i(0, 0), Vector2i(3, 1), 1, &"unit")
	var line: Array = open.waypoints
	_expect_eq([line.size(), line.front(), line.back()], [2, Vector2i(0, 0), Vector2i(3, 1)], "an unobstructed staircase is one straight line")
	_expect(absf(open.waypoint_length - sqrt(10.0)) < 1e-9, "its waypoint_length is the straight distance")
	pf.smoothing = OFF
	var plain := pf.find_path(Vector2i(0, 0), Vector2i(7, 2), 1, &"unit")
	_expect(not plain.has("waypoints") and not plain.has("waypoint_length"), "no waypoints with smoothing off")
	pf.free()
	_expect(fewer > 0, "some waypoints skip anchors")
	return "%d results had fewer waypoints than anchors" % fewer


## `get_point_path()` with smoothing gives the footprint centres of the waypoints of
## `get_last_result()`; without, of the path.
func check_point_path_follows_waypoints() -> Variant:
	var pf := _smoothed_map()
	for size: int in [1, 2]:
		var points := pf.get_point_path(Vector2i(0, 0), Vector2i(7, 2), size, &"unit")
		var waypoints: Array = pf.get_last_result().waypoints
		var centres := PackedVector2Array()
		for anchor: Vector2i in waypoints:
			centres.append(pf.footprint_center(anchor, size))
		_expect_eq(points, centres, "size %d: get_point_path gives the waypoints' centres" % size)
		_expect(points.size() < pf.get_last_result().path.size(), "size %d: fewer points than path anchors" % size)
	pf.smoothing = OFF
	var plain := pf.get_point_path(Vector2i(0, 0), Vector2i(7, 2), 1, &"unit")
	_expect_eq(plain.size(), pf.get_last_result().path.size(), "without smoothing, a point per anchor")
	pf.free()
	return ""


## `find_path_world()`'s `points` are the global footprint centres of the waypoints (the node
## moved off the origin, so local and global differ), and `find_paths()` answers each query
## with the waypoints `find_path()` gives.
func check_world_and_batch_waypoints() -> Variant:
	var pf := _smoothed_map()
	pf.position = Vector2(40, 24)
	for size: int in [1, 2]:
		var start := STARTS[0]
		var goal := GOALS[0]
		var world := pf.find_path_world(pf.to_global(pf.footprint_center(start, size)), pf.to_global(pf.footprint_center(goal, size)), size, &"unit")
		_expect(world.ok and world.has("waypoints"), "size %d: find_path_world with waypoints" % size)
		var centres := PackedVector2Array()
		for anchor: Vector2i in world.get("waypoints", []):
			centres.append(pf.to_global(pf.footprint_center(anchor, size)))
		_expect_eq(world.points, centres, "size %d: find_path_world's points are the waypoints' global centres" % size)
		_expect(world.points.size() < world.path.size(), "size %d: fewer points than path anchors" % size)
	var queries: Array[Dictionary] = []
	for i: int in STARTS.size():
		queries.append({"start": STARTS[i], "goal": GOALS[i], "agent_size": 1 + i % 2, "profile": &"unit"})
	var batch := pf.find_paths(queries)
	_expect_eq(batch.size(), queries.size(), "find_paths answers every query")
	for i: int in batch.size():
		var expected := pf.find_path(STARTS[i], GOALS[i], 1 + i % 2, &"unit")
		_expect_eq(batch[i].get("waypoints"), expected.waypoints, "find_paths %d carries find_path's waypoints" % i)
	pf.free()
	return ""


## `request_path()` and `request_paths()` answer with the waypoints `find_path()` gives, in
## every `result_format`.
func check_request_waypoints() -> Variant:
	var pf := _smoothed_map()
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	pf.paths_found.connect(func(id: int, results: Array) -> void: arrived[id] = results)
	for format: int in [ClearancePathfinder.RESULT_FORMAT_ANCHORS, ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS, ClearancePathfinder.RESULT_FORMAT_POINTS]:
		pf.result_format = format
		var expected := pf.find_path(STARTS[0], GOALS[0], 2, &"unit")
		var single := pf.request_path(STARTS[0], GOALS[0], 2, &"unit")
		var batch := pf.request_paths([{"start": STARTS[1], "goal": GOALS[1], "agent_size": 1, "profile": &"unit"}])
		var expected_batch := pf.find_path(STARTS[1], GOALS[1], 1, &"unit")
		for frame: int in 600:
			if arrived.has(single) and arrived.has(batch):
				break
			await tree.process_frame
		_expect_eq(arrived.get(single, {}).get("waypoints"), expected.waypoints, "format %d: request_path carries find_path's waypoints" % format)
		var batch_results: Array = arrived.get(batch, [{}])
		_expect_eq(batch_results[0].get("waypoints"), expected_batch.waypoints, "format %d: request_paths carries find_path's waypoints" % format)
	pf.free()
	return ""


## `request_flow_field()` made with smoothing delivers a field that answers with waypoints, as
## `get_flow_field()` does.
func check_requested_field_waypoints() -> Variant:
	var pf := _smoothed_map()
	var goal := Vector2i(8, 3)
	var arrived := {}
	pf.flow_field_ready.connect(func(request_id: int, delivered: ClearanceFlowField) -> void: arrived[request_id] = delivered)
	var id := pf.request_flow_field([goal], 1, &"unit")
	var at_once := pf.get_flow_field([goal], 1, &"unit")
	for frame: int in 600:
		if arrived.has(id):
			break
		await tree.process_frame
	var field: ClearanceFlowField = arrived.get(id)
	_expect(field != null, "request_flow_field delivered a field")
	if field != null:
		_expect_eq(field.get_smoothing(), TAUT, "the requested field keeps the node's smoothing")
		for start: Vector2i in STARTS:
			var result := field.get_path_from(start)
			_expect(result.has("waypoints"), "%s: requested field's path with waypoints" % start)
			_expect_eq(result.get("waypoints"), at_once.get_path_from(start).get("waypoints"), "%s: the same waypoints as get_flow_field's" % start)
	pf.free()
	return ""


## A field made with smoothing answers `get_path_from()` with waypoints that run from the
## anchor to the goal along its path, and so does a group order; a field made without has none.
func check_flow_field_waypoints() -> Variant:
	var pf := _smoothed_map()
	var goal := Vector2i(8, 3)
	var field := pf.get_flow_field([goal], 1, &"unit")
	_expect_eq(field.get_smoothing(), TAUT, "the field keeps the node's smoothing")
	for start: Vector2i in STARTS:
		var result := field.get_path_from(start)
		_expect(result.ok and result.has("waypoints"), "%s: field path with waypoints" % start)
		if result.has("waypoints"):
			var waypoints: Array = result.waypoints
			_expect_eq([waypoints.front(), waypoints.back()], [start, goal], "%s: waypoints from anchor to goal" % start)
			_expect(_is_taut_subsequence(waypoints, result.path), "%s: waypoints are a subsequence of the field's path" % start)
	var starts: Array[Vector2i] = STARTS
	var orders := pf.find_paths_to(goal, starts, 1, &"unit")
	_expect_eq(orders.size(), starts.size(), "find_paths_to answers every start")
	for i: int in orders.size():
		var order := orders[i]
		_expect(order.ok and order.has("waypoints"), "group order %d: a path with waypoints" % i)
		if order.has("waypoints"):
			_expect(_is_taut_subsequence(order.waypoints, order.path), "group order %d: waypoints are a subsequence of its path" % i)
	pf.smoothing = OFF
	var plain := pf.get_flow_field([goal], 1, &"unit")
	_expect(not plain.get_path_from(STARTS[0]).has("waypoints"), "a field made without smoothing has no waypoints")
	_expect(field.get_path_from(STARTS[0]).has("waypoints"), "an older field keeps its own smoothing")
	pf.free()
	return ""


## A smoothed field's `get_direction_world()` steers from each reached anchor's centre towards
## an anchor of the path `get_path_from()` gives there that `is_straight_move_clear()` passes
## while the anchor after it does not (or the goal), no farther than that call's first
## waypoint, and so off the 45-degree steps where the ground is open; a field made without
## smoothing steers towards the next anchor.
func check_flow_field_steering() -> Variant:
	var pf := _smoothed_map()
	var goal := Vector2i(8, 3)
	var steered := 0
	var off_the_steps := 0
	for size: int in [1, 2]:
		pf.smoothing = TAUT
		var field := pf.get_flow_field([goal], size, &"unit")
		var bytes_before := field.get_memory_bytes()
		pf.smoothing = OFF
		var plain := pf.get_flow_field([goal], size, &"unit")
		for y: int in ROWS.size():
			for x: int in ROWS[0].length():
				var here := Vector2i(x, y)
				if not field.is_reached(here) or here == goal:
					continue
				var position := pf.to_global(pf.footprint_center(here, size))
				var result := field.get_path_from(here)
				var path: Array = result.path
				var waypoints: Array = result.waypoints
				var way := field.get_direction_world(position)
				var target := _steered_towards(pf, path, position, way, size)
				_expect(target >= 1, "size %d, %s: towards an anchor of the path" % [size, here])
				if target < 1:
					continue
				_expect(target <= path.find(waypoints[1]), "size %d, %s: no farther than the first waypoint" % [size, here])
				_expect_eq(field.get_direction_world(position), way, "size %d, %s: the same when asked again" % [size, here])
				_expect(pf.is_straight_move_clear(here, path[target], size, &"unit"), "size %d: %s to %s is clear" % [size, here, path[target]])
				if target + 1 < path.size():
					_expect(not pf.is_straight_move_clear(here, path[target + 1], size, &"unit"), "size %d: %s to %s, past the target, is not" % [size, here, path[target + 1]])
				var step := pf.to_global(pf.footprint_center(plain.get_next_anchor(here), size)) - position
				_expect(plain.get_direction_world(position).is_equal_approx(step.normalized()), "size %d, %s: without smoothing, towards the next anchor" % [size, here])
				if absf(way.x) > 1e-4 and absf(way.y) > 1e-4 and absf(absf(way.x) - absf(way.y)) > 1e-4:
					off_the_steps += 1
				steered += 1
		_expect(field.get_memory_bytes() > bytes_before, "size %d: the waypoints steered towards are counted in the field's bytes" % size)
	_expect(off_the_steps > 0, "some directions are off the 45-degree steps")
	pf.free()
	return "%d anchors steered, %d off the 45-degree steps" % [steered, off_the_steps]


## The position on `path` of the anchor whose footprint centre lies in direction `way` from
## `position`, the farthest along the path of those that do (a straight run's anchors all
## do); -1 if none does.
func _steered_towards(pf: ClearancePathfinder, path: Array, position: Vector2, way: Vector2, size: int) -> int:
	var found := -1
	for i: int in range(1, path.size()):
		var towards := pf.to_global(pf.footprint_center(path[i], size)) - position
		if way.is_equal_approx(towards.normalized()):
			found = i
	return found


## Units steered by fields on generated maps (sizes 1-3, weighted or not, 4- and 8-way), with
## smoothing and without, a fifth of a cell a tick from reached anchors: each arrives at the
## goal, and at every tick the anchor nearest its centre is one the independent reference
## finds legal (a footprint that clipped a wall by more than half a cell would not be).
func check_steered_walks() -> Variant:
	var walks := 0
	var ticks := 0
	for map_index: int in 40:
		var made := GeneratedMap.new(rng, map_index % 2 == 1, Rect2i(16, 12, 10, 6))
		var pf := made.node(tree.root)
		var solver := made.solver()
		var size := 1 + map_index % 3
		var legal: Array[Vector2i] = []
		for y: int in made.height:
			for x: int in made.width:
				if solver.legal(x, y, size):
					legal.append(Vector2i(x, y))
		if legal.is_empty():
			pf.free()
			continue
		var goal := legal[rng.randi_range(0, legal.size() - 1)]
		var goal_centre := pf.to_global(pf.footprint_center(goal, size))
		var origin := pf.footprint_center(Vector2i.ZERO, size)
		var step := pf.cell_size.x * 0.2
		for smoothing: int in [OFF, TAUT]:
			pf.smoothing = smoothing
			var field := pf.get_flow_field([goal], size, &"generated")
			for i: int in 6:
				var start := legal[rng.randi_range(0, legal.size() - 1)]
				if not field.is_reached(start):
					continue
				var position := pf.to_global(pf.footprint_center(start, size))
				var arrived := false
				for tick: int in 3000:
					if position.distance_to(goal_centre) <= step:
						arrived = true
						break
					position += field.get_direction_world(position) * step
					ticks += 1
					var at := (pf.to_local(position) - origin) / pf.cell_size
					var anchor := Vector2i(floori(at.x + 0.5), floori(at.y + 0.5))
					if not solver.legal(anchor.x, anchor.y, size):
						_expect(false, "map %d, size %d, smoothing %d, from %s: the unit reached %s, where it does not fit" % [map_index, size, smoothing, start, anchor])
						break
				_expect(arrived, "map %d, size %d, smoothing %d: the unit from %s arrives at %s" % [map_index, size, smoothing, start, goal])
				walks += 1
		pf.free()
	_expect(walks >= 100, "at least 100 walks (%d)" % walks)
	return "%d walks, %d ticks" % [walks, ticks]


## A `smoothing` value that is no choice is refused (with an error) and changes nothing.
func check_bad_smoothing() -> Variant:
	var pf := _smoothed_map()
	var before := pf.find_path(STARTS[0], GOALS[0], 1, &"unit")
	pf.smoothing = 7
	_expect_eq(pf.smoothing, TAUT, "smoothing 7 refused")
	pf.set_smoothing(-1)
	_expect_eq(pf.smoothing, TAUT, "smoothing -1 refused")
	_expect_eq(pf.find_path(STARTS[0], GOALS[0], 1, &"unit"), before, "results unchanged")
	pf.free()
	return ""


## `is_straight_move_clear()`: every segment between waypoints is clear, a move through the
## wall is not, a blocking unit stops a move unless it is the moving or an exempt unit, and bad
## input is false.
func check_straight_moves() -> Variant:
	var pf := _smoothed_map()
	var segments := 0
	for size: int in [1, 2]:
		for i: int in STARTS.size():
			var waypoints: Array = pf.find_path(STARTS[i], GOALS[i], size, &"unit").waypoints
			for w: int in waypoints.size() - 1:
				_expect(pf.is_straight_move_clear(waypoints[w], waypoints[w + 1], size, &"unit"), "size %d: %s to %s is clear" % [size, waypoints[w], waypoints[w + 1]])
				segments += 1
	_expect(not pf.is_straight_move_clear(Vector2i(0, 3), Vector2i(8, 3), 1, &"unit"), "the wall stops a move across it")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(8, 3), 2, &"unit"), "the wall stops a 2x2 square")
	_expect(pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 1), 1, &"unit"), "above the wall the way is clear")
	pf.add_unit(5, Vector2i(6, 0), 1)
	pf.other_units = ClearancePathfinder.OTHER_UNITS_BLOCK
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"unit"), "a blocking unit stops the move")
	_expect(pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"unit", 5), "the moving unit does not")
	_expect(pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"unit", -1, PackedInt64Array([5])), "nor an exempt one")
	pf.other_units = ClearancePathfinder.OTHER_UNITS_COST
	_expect(pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"unit"), "units that cost do not stop a move")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 0, &"unit"), "agent size 0 is refused")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"tank"), "an unknown profile is refused")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(10, 0), 1, &"unit"), "an anchor off the map is refused")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(9, 0), 1, &"unit", 9), "an unknown moving unit is refused")
	_expect(not pf.is_straight_move_clear(Vector2i(0, 0), Vector2i(4, 3), 1, &"unit"), "an anchor on the wall is refused")
	pf.free()
	return "%d segments between waypoints" % segments


## `smooth_path()`: the grid path of a smoothed result, smoothed again, gives the result's
## waypoints (units ignored and blocking, the moving unit named), the second half of a path
## smooths to a taut subsequence of it, and bad input gives an empty array and changes nothing.
func check_smooth_path() -> Variant:
	var pf := _smoothed_map()
	pf.add_unit(5, Vector2i(6, 1), 1)
	pf.add_unit(6, Vector2i(2, 1), 1)
	pf.add_unit(7, STARTS[0], 1)
	var compared := 0
	for rule: int in [ClearancePathfinder.OTHER_UNITS_IGNORE, ClearancePathfinder.OTHER_UNITS_BLOCK]:
		pf.other_units = rule
		for size: int in [1, 2]:
			for i: int in STARTS.size():
				var moving := 7 if i == 0 else ClearancePathfinder.NO_UNIT
				var result: Dictionary = pf.find_path(STARTS[i], GOALS[i], size, &"unit", false, moving)
				if not result.ok:
					continue
				var path: Array[Vector2i] = result.path
				var waypoints: Array[Vector2i] = result.waypoints
				var label := "rule %d, size %d, %s to %s" % [rule, size, STARTS[i], GOALS[i]]
				_expect_eq(pf.smooth_path(path, size, &"unit", moving), waypoints, label)
				@warning_ignore("integer_division")
				var tail := path.slice(path.size() / 2)
				_expect(_is_taut_subsequence(pf.smooth_path(tail, size, &"unit", moving), tail), label + ": the second half")
				compared += 1
	_expect(compared >= 8, "most queries found a path (%d)" % compared)
	var versions := [pf.get_map_version(), pf.get_units_version()]
	var none: Array[Vector2i] = []
	_expect_eq(pf.smooth_path([Vector2i(1, 1)], 1, &"unit"), [Vector2i(1, 1)] as Array[Vector2i], "one anchor is its own waypoint")
	_expect_eq(pf.smooth_path([], 1, &"unit"), none, "an empty path is refused")
	_expect_eq(pf.smooth_path([Vector2(0, 0), Vector2i(1, 0)], 1, &"unit"), none, "a Vector2 entry is refused")
	_expect_eq(pf.smooth_path([Vector2i(0, 0), Vector2i(2, 0)], 1, &"unit"), none, "a jump of two cells is refused")
	_expect_eq(pf.smooth_path([Vector2i(9, 0), Vector2i(10, 0)], 1, &"unit"), none, "an anchor off the map is refused")
	_expect_eq(pf.smooth_path([Vector2i(3, 2), Vector2i(4, 2)], 1, &"unit"), none, "an anchor on the wall is refused")
	_expect_eq(pf.smooth_path([Vector2i(5, 1), Vector2i(6, 1)], 1, &"unit"), none, "a step onto a blocking unit is refused")
	_expect_eq(pf.smooth_path([Vector2i(5, 1), Vector2i(6, 1)], 1, &"unit", 5), [Vector2i(5, 1), Vector2i(6, 1)] as Array[Vector2i], "unless it is the moving unit")
	_expect_eq(pf.smooth_path([Vector2i(0, 3), Vector2i(1, 3)], 0, &"unit"), none, "agent size 0 is refused")
	_expect_eq(pf.smooth_path([Vector2i(0, 3), Vector2i(1, 3)], 1, &"tank"), none, "an unknown profile is refused")
	_expect_eq(pf.smooth_path([Vector2i(0, 3), Vector2i(1, 3)], 1, &"unit", 9), none, "an unknown moving unit is refused")
	_expect_eq([pf.get_map_version(), pf.get_units_version()], versions, "nothing changed")
	pf.free()
	return "%d paths smoothed again" % compared
