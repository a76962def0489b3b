extends "res://tests/check_base.gd"
## The verifier's flow-field checks (verify.gd runs them): fields and group orders against
## `find_path()` and the independent reference, the asynchronous request, steering by world
## position, and bad input. Problems go to the verifier's `Expectations`.

func _near(a: float, b: float) -> bool:
	return a == b or absf(a - b) <= 1e-6 * maxf(1.0, absf(b))


## A generated map as a node and as the reference sees it.
func _generated_map(weighted: bool) -> Array:
	var map := GeneratedMap.new(rng, weighted, Rect2i(12, 9, 8, 5))
	return [map.node(tree.root), map.solver()]


func _legal_anchors(solver: Reference, size: int) -> Array[Vector2i]:
	var legal: Array[Vector2i] = []
	for y: int in solver.height:
		for x: int in solver.width:
			if solver.legal(x, y, size):
				legal.append(Vector2i(x, y))
	return legal


## For sampled anchors of generated maps (sizes 1-3, one or two goals, weighted or not, 4- and
## 8-way): the field's cost is the reference's optimum to the nearest goal and the least
## `find_path()` cost over the goals; its path is legal on the raw grid, costs that much and
## ends at a goal; following `get_next_anchor()` walks the same path.
func check_fields_match_reference() -> Variant:
	var compared := 0
	var unreached := 0
	for map_index: int in 8:
		var made := _generated_map(map_index % 2 == 1)
		var pf: ClearancePathfinder = made[0]
		var solver: Reference = made[1]
		var size := 1 + map_index % 3
		var legal := _legal_anchors(solver, size)
		if legal.size() < 3:
			pf.free()
			continue
		var goals: Array[Vector2i] = [legal[rng.randi_range(0, legal.size() - 1)]]
		if map_index % 4 >= 2:
			goals.append(legal[rng.randi_range(0, legal.size() - 1)])
		var field := pf.get_flow_field(goals, size, &"generated")
		_expect(field != null and field.is_ok(), "map %d: field built" % map_index)
		if field == null:
			pf.free()
			continue
		_expect(field.is_complete(), "map %d: an unbounded field is complete" % map_index)
		_expect_eq(field.get_map_version(), pf.get_map_version(), "map %d: field version" % map_index)
		for sample: int in 12:
			var anchor := legal[rng.randi_range(0, legal.size() - 1)]
			var label := "map %d size %d from %s to %s" % [map_index, size, anchor, goals]
			var best := INF
			var best_found := INF
			for goal: Vector2i in goals:
				best = minf(best, solver.shortest_cost(anchor, goal, size))
				var found := pf.find_path(anchor, goal, size, &"generated")
				if found.ok:
					best_found = minf(best_found, found.total_cost)
			var cost := field.get_cost(anchor)
			_expect(_near(cost, best), "%s: field cost %s, reference %s" % [label, cost, best])
			_expect(_near(cost, best_found), "%s: field cost %s, find_path %s" % [label, cost, best_found])
			var result := field.get_path_from(anchor)
			if best == INF:
				unreached += 1
				_expect_eq([result.code, field.is_reached(anchor), field.get_next_anchor(anchor)], ["NO_PATH", false, anchor], label + " unreached")
				continue
			compared += 1
			var path: Array = result.path
			_expect_eq(result.code, "OK", label)
			_expect(goals.has(path.back()), label + ": the path ends at a goal")
			_expect(_near(solver.path_cost(path, size), cost), label + ": the path costs what the field says")
			_expect(_near(result.total_cost, cost), label + ": total_cost")
			var walked: Array[Vector2i] = [anchor]
			while walked.size() <= path.size() and not goals.has(walked.back()):
				walked.append(field.get_next_anchor(walked.back()))
			_expect_eq(str(walked), str(path), label + ": next anchors walk the path")
		pf.free()
	_expect(compared >= 40, "at least 40 reached anchors compared (%d)" % compared)
	return "%d anchors compared, %d unreached" % [compared, unreached]


## `find_paths_to()` gives each start what `find_path()` gives: the same code, cost and ends.
func check_group_orders() -> Variant:
	var orders := 0
	for map_index: int in 4:
		var made := _generated_map(map_index % 2 == 0)
		var pf: ClearancePathfinder = made[0]
		var solver: Reference = made[1]
		var size := 1 + map_index % 3
		var legal := _legal_anchors(solver, size)
		if legal.is_empty():
			pf.free()
			continue
		var goal := legal[rng.randi_range(0, legal.size() - 1)]
		var starts: Array = [Vector2i(-1, 0), goal]
		for i: int in 10:
			starts.append(Vector2i(rng.randi_range(0, solver.width - 1), rng.randi_range(0, solver.height - 1)))
		var results := pf.find_paths_to(goal, starts, size, &"generated")
		_expect_eq(results.size(), starts.size(), "map %d: one result per start" % map_index)
		for i: int in mini(results.size(), starts.size()):
			var alone := pf.find_path(starts[i], goal, size, &"generated")
			var label := "map %d size %d %s->%s" % [map_index, size, starts[i], goal]
			_expect_eq(results[i].code, alone.code, label + " code")
			_expect(_near(results[i].total_cost, alone.total_cost), "%s cost %s, find_path %s" % [label, results[i].total_cost, alone.total_cost])
			if alone.ok:
				_expect(results[i].path.front() == starts[i] and results[i].path.back() == goal, label + " ends")
			orders += 1
		pf.free()
	_expect(orders >= 24, "at least 24 starts compared (%d)" % orders)
	return "%d starts" % orders


## `request_flow_field()` delivers, in a later frame, the field of the map as it was asked:
## a wall built after the request does not change it, and a refused field says why.
func check_async_field() -> Variant:
	var pf := ClearancePathfinder.new()
	tree.root.add_child(pf)
	pf.region = Rect2i(0, 0, 12, 5)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.flow_field_ready.connect(func(id: int, field: ClearanceFlowField) -> void: arrived[id] = field)
	var open_id := pf.request_flow_field([Vector2i(11, 2)], 1, &"unit")
	pf.fill_rect_terrain(Rect2i(6, 0, 1, 5), WALL)
	var walled_id := pf.request_flow_field([Vector2i(11, 2)], 1, &"unit", 4.0)
	var refused_id := pf.request_flow_field([Vector2i(40, 2)], 1, &"unit")
	var reaching_id := pf.request_flow_field_reaching([Vector2i(11, 2)], [Vector2i(10, 2)], 1, &"unit")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(arrived.size(), 4, "four fields arrived")
	if arrived.size() == 4:
		var reaching: ClearanceFlowField = arrived[reaching_id]
		_expect_eq([reaching.get_cost(Vector2i(10, 2)), reaching.is_reached(Vector2i(7, 2)), reaching.is_complete()], [1.0, false, false], "the reaching field stops once its start is settled")
		var open: ClearanceFlowField = arrived[open_id]
		var walled: ClearanceFlowField = arrived[walled_id]
		_expect_eq(open.get_cost(Vector2i(0, 2)), 11.0, "the first field saw the open map")
		_expect(open.get_map_version() < pf.get_map_version(), "the first field is of an older version")
		_expect_eq(walled.get_cost(Vector2i(0, 2)), INF, "the second saw the wall")
		_expect_eq([walled.get_cost(Vector2i(7, 2)), walled.is_reached(Vector2i(6, 2)), walled.is_complete()], [4.0, false, false], "max_cost bounds the field")
		_expect_eq([arrived[refused_id].is_ok(), arrived[refused_id].get_code()], [false, "GOAL_OUT_OF_BOUNDS"], "a refused field says why")
		var sync := pf.get_flow_field([Vector2i(11, 2)], 1, &"unit", 4.0)
		for x: int in 12:
			_expect_eq(sync.get_cost(Vector2i(x, 2)), walled.get_cost(Vector2i(x, 2)), "async equals sync at x %d" % x)
	pf.free()
	return "4 fields in %d frames" % frames


## `get_direction_world()` points from a unit's global position to the footprint centre of the
## next anchor, also on a moved and scaled node; it is zero at the goal and off the field.
func check_steering() -> Variant:
	var pf := ClearancePathfinder.new()
	tree.root.add_child(pf)
	pf.region = Rect2i(0, 0, 10, 6)
	pf.cell_size = Vector2(20, 10)
	pf.offset = Vector2(5, 5)
	pf.position = Vector2(100, -40)
	pf.scale = Vector2(2, 2)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.fill_rect_terrain(Rect2i(5, 0, 1, 3), WALL)
	var field := pf.get_flow_field_reaching([Vector2i(8, 0)], [Vector2i(0, 0)], 2, &"unit")
	var anchor := Vector2i(1, 1)
	var next := field.get_next_anchor(anchor)
	_expect(next != anchor and (next - anchor).abs().x <= 1 and (next - anchor).abs().y <= 1, "a neighbouring next anchor")
	var here := pf.to_global(pf.footprint_center(anchor, 2))
	var there := pf.to_global(pf.footprint_center(next, 2))
	var way := field.get_direction_world(here)
	_expect(way.is_equal_approx((there - here).normalized()), "direction %s towards %s" % [way, (there - here).normalized()])
	_expect(absf(field.get_direction_world(here + Vector2(3, -3)).length() - 1.0) < 1e-5, "a unit vector off the centre too")
	_expect_eq(field.get_direction_world(pf.to_global(pf.footprint_center(Vector2i(8, 0), 2))), Vector2.ZERO, "zero at the goal")
	_expect_eq(field.get_direction_world(Vector2(-5000, 0)), Vector2.ZERO, "zero off the map")
	_expect_eq(field.get_direction_world(Vector2(NAN, 0)), Vector2.ZERO, "zero for NaN")
	var path := field.get_path_from(Vector2i(0, 0))
	_expect_eq([path.code, path.path.back()], ["OK", Vector2i(8, 0)], "a settled start has its path")
	_expect(field.get_reached_count() > 0 and field.get_memory_bytes() > 0, "reached anchors and memory reported")
	pf.debug_flow_field = field
	_expect_eq(pf.debug_flow_field, field, "the overlay takes the field")
	# A field made while the node is squashed to a line cannot place positions on its map.
	pf.transform = Transform2D(Vector2.ZERO, Vector2(0, 2), Vector2.ZERO)
	var squashed := pf.get_flow_field([Vector2i(8, 0)], 2, &"unit")
	_expect_eq(squashed.get_direction_world(here), Vector2.ZERO, "zero on a field made squashed")
	pf.free()
	return ""


## Bad input to every flow-field method: the failure value, an error, and nothing changed.
func check_bad_input() -> Variant:
	var pf := ClearancePathfinder.new()
	tree.root.add_child(pf)
	pf.region = Rect2i(0, 0, 6, 4)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.fill_rect_terrain(Rect2i(3, 0, 1, 3), WALL)
	var version := pf.get_map_version()
	var terrain := pf.get_terrain_data()
	_expect(pf.get_flow_field([Vector2(1, 1)], 1, &"unit") == null, "get_flow_field: a Vector2 goal")
	_expect(pf.get_flow_field(["a"], 1, &"unit") == null, "get_flow_field: a String goal")
	_expect(pf.get_flow_field([Vector2i.ZERO], 1, &"unit", -1.0) == null, "get_flow_field: negative max_cost")
	_expect(pf.get_flow_field([Vector2i.ZERO], 1, &"unit", NAN) == null, "get_flow_field: NaN max_cost")
	_expect(pf.get_flow_field_reaching([Vector2i.ZERO], [null], 1, &"unit") == null, "get_flow_field_reaching: a null start")
	_expect_eq(pf.request_flow_field([1], 1, &"unit"), -1, "request_flow_field: an int goal")
	_expect_eq(pf.request_flow_field([Vector2i.ZERO], 1, &"unit", -INF), -1, "request_flow_field: -INF")
	_expect_eq(pf.request_flow_field_reaching([Vector2i.ZERO], [Vector2i.ONE, "b"], 1, &"unit"), -1, "request_flow_field_reaching: a String start")
	_expect_eq(pf.get_pending_request_count(), 0, "nothing started")
	_expect_eq(pf.find_paths_to(Vector2i.ZERO, [Vector2i.ZERO, 3.5], 1, &"unit"), [] as Array[Dictionary], "find_paths_to: a float start")
	var codes := []
	for field: ClearanceFlowField in [
			pf.get_flow_field([Vector2i.ZERO], 0, &"unit"),
			pf.get_flow_field([Vector2i.ZERO], 1, &"nobody"),
			pf.get_flow_field([Vector2i(9, 9)], 1, &"unit"),
			pf.get_flow_field([Vector2i(3, 1)], 1, &"unit"),
			pf.get_flow_field([Vector2i(0, 0), Vector2i(2, 2)], 2, &"unit")]:
		codes.append([field.is_ok(), field.get_code(), field.get_path_from(Vector2i.ZERO).code, field.get_cost(Vector2i.ZERO), field.get_next_anchor(Vector2i.ONE)])
	_expect_eq(codes, [
		[false, "INVALID_AGENT_SIZE", "INVALID_AGENT_SIZE", INF, Vector2i.ONE],
		[false, "UNKNOWN_PROFILE", "UNKNOWN_PROFILE", INF, Vector2i.ONE],
		[false, "GOAL_OUT_OF_BOUNDS", "GOAL_OUT_OF_BOUNDS", INF, Vector2i.ONE],
		[false, "GOAL_CLEARANCE_INSUFFICIENT", "GOAL_CLEARANCE_INSUFFICIENT", INF, Vector2i.ONE],
		[false, "GOAL_CLEARANCE_INSUFFICIENT", "GOAL_CLEARANCE_INSUFFICIENT", INF, Vector2i.ONE],
	], "refused fields report their codes")
	var empty := pf.get_flow_field([], 1, &"unit")
	_expect_eq([empty.is_ok(), empty.get_reached_count(), empty.get_path_from(Vector2i.ZERO).code], [true, 0, "NO_PATH"], "no goals: a field that reaches nothing")
	var typed_goals: Array[Vector2i] = [Vector2i(5, 3)]
	_expect(pf.get_flow_field(typed_goals, 1, &"unit").is_ok(), "goals as a typed Array[Vector2i]")
	_expect_eq([pf.get_map_version(), pf.get_terrain_data()], [version, terrain], "the map is unchanged")
	pf.free()
	return ""
