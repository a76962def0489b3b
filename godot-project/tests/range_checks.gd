extends "res://tests/check_base.gd"
## The verifier's movement-range checks (verify.gd runs them): ranges against `find_path()`
## (every cost, every path, every anchor left out), the budget's exact boundary and turns,
## allies passed but not stopped on and enemies by `other_units`, the asynchronous request,
## smoothed paths, and bad input. Problems go to the verifier's `Expectations`.

const BLOCK := ClearancePathfinder.OTHER_UNITS_BLOCK
const COST := ClearancePathfinder.OTHER_UNITS_COST
const OFFSETS: Array[Vector2i] = [Vector2i(-1, -1), Vector2i(0, -1), Vector2i(1, -1), Vector2i(-1, 0),
	Vector2i(1, 0), Vector2i(-1, 1), Vector2i(0, 1), Vector2i(1, 1)]


## `a` equals `b` up to the fixed-point rounding of range costs (a relative 1e-6).
func _near(a: float, b: float) -> bool:
	return a == b or absf(a - b) <= 1e-6 * maxf(1.0, absf(b))


## A 14 x 10 map of walls, road, swamp and mud with the profile "walker".
func _terrain_map() -> ClearancePathfinder:
	var pf := _map([
		"..............",
		"..rrrrrrr.....",
		"..r....#r..ss.",
		"..r.##.#r.sss.",
		"..r.##.#rrrrr.",
		".mm....#...ss.",
		".mm.####......",
		"....#.....##..",
		"..ss#..mm.....",
		"..ss...mm.....",
	], EIGHT_WAY)
	pf.set_profile(&"walker", {GROUND: 1.0, ROAD: 0.5, SWAMP: 3.0, MUD: 2.0})
	return pf


## Every anchor of the map: in range exactly when find_path costs at most the budget, at the
## range's cost, with a path from get_path_to that find_path could return (same keys, code
## and total_cost, each anchor on it in range at a rising cost); cells by row, then column;
## the border is the cells with a neighbour out of range.
func check_ranges_match_find_path() -> Variant:
	var pf := _terrain_map()
	var compared := 0
	var misfits := 0
	for case: Array in [[Vector2i(0, 0), 1, 7.0], [Vector2i(9, 0), 2, 6.5], [Vector2i(0, 7), 3, 9.0], [Vector2i(3, 1), 1, 0.5]]:
		var start: Vector2i = case[0]
		var size: int = case[1]
		var budget: float = case[2]
		var area := pf.get_movement_range(start, size, &"walker", budget)
		_expect(area != null, "a range from %s for size %d" % [start, size])
		if area == null:
			continue
		_expect_eq([area.get_start(), area.get_agent_size(), area.get_profile(), area.get_budget(), area.get_turn_count()],
			[start, size, &"walker", budget, 1], "what the range was made for")
		_expect_eq([area.get_map_version(), area.get_units_version()], [pf.get_map_version(), pf.get_units_version()], "its versions")
		var expected_cells: Array[Vector2i] = []
		for y: int in pf.region.size.y:
			for x: int in pf.region.size.x:
				var anchor := Vector2i(x, y)
				var direct := pf.find_path(start, anchor, size, &"walker")
				var reachable: bool = direct.ok and direct.total_cost <= budget * (1.0 + 1e-7)
				_expect_eq(area.is_in_range(anchor), reachable, "%s size %d: in range iff find_path costs at most %s" % [anchor, size, budget])
				if not reachable:
					_expect_eq(area.get_cost(anchor), INF, "%s out of range costs INF" % anchor)
					if not direct.ok:
						var refused := area.get_path_to(anchor)
						_expect_eq([refused.code, refused.get("clearance_found"), refused.get("clearance_needed")],
							[direct.code, direct.get("clearance_found"), direct.get("clearance_needed")],
							"%s size %d: get_path_to fails as find_path does" % [anchor, size])
						misfits += int(direct.code == "GOAL_CLEARANCE_INSUFFICIENT")
					continue
				expected_cells.append(anchor)
				compared += 1
				_expect(_near(area.get_cost(anchor), direct.total_cost), "%s size %d: cost %s, find_path %s" % [anchor, size, area.get_cost(anchor), direct.total_cost])
				_expect_eq(area.get_turns(anchor), 1, "%s is reached this turn" % anchor)
				var way := area.get_path_to(anchor)
				_expect_eq(way.keys(), direct.keys(), "%s: get_path_to has find_path's keys" % anchor)
				_expect_eq([way.ok, way.code, way.expanded], [true, "OK", 0], "%s: get_path_to is OK" % anchor)
				_expect(_near(way.total_cost, direct.total_cost), "%s: get_path_to costs %s, find_path %s" % [anchor, way.total_cost, direct.total_cost])
				var path: Array = way.path
				_expect(path.size() > 0 and path[0] == start and path[-1] == anchor, "%s: the path runs from the start to it" % anchor)
				var last := -1.0
				for step: Vector2i in path:
					var cost := area.get_cost(step)
					_expect(area.is_in_range(step) and cost >= last, "%s: %s on the way is in range at a rising cost" % [anchor, step])
					last = cost
				_expect(_near(last, way.total_cost), "%s: the path's last cost is its total_cost" % anchor)
		_expect_eq(area.get_cells(), expected_cells, "get_cells from %s size %d, by row then column" % [start, size])
		var border: Array[Vector2i] = []
		for anchor: Vector2i in expected_cells:
			if OFFSETS.any(func(offset: Vector2i) -> bool: return not area.is_in_range(anchor + offset)):
				border.append(anchor)
		_expect_eq(area.get_border_cells(), border, "get_border_cells from %s size %d" % [start, size])
	# The path takes the node's result_format of the moment.
	pf.result_format = ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS
	var packed := pf.get_movement_range(Vector2i(0, 0), 1, &"walker", 7.0)
	var found := pf.find_path(Vector2i(0, 0), Vector2i(8, 2), 1, &"walker")
	_expect_eq(typeof(packed.get_path_to(Vector2i(8, 2)).path), TYPE_PACKED_INT32_ARRAY, "packed anchors")
	_expect_eq(packed.get_path_to(Vector2i(8, 2)).path.size(), found.path.size(), "as long as find_path's")
	_expect_eq(pf.get_movement_range(Vector2i(0, 0), 1, &"walker", 0.0).get_cells(), [Vector2i(0, 0)] as Array[Vector2i], "budget 0: the start alone")
	# Long lists come through the engine in bulk, and are still a typed Array of Vector2i.
	var many := pf.get_movement_range(Vector2i(0, 0), 1, &"walker", 7.0).get_cells()
	_expect(many.size() >= 16 and many.is_typed() and many.get_typed_builtin() == TYPE_VECTOR2I, "get_cells: a typed Array[Vector2i], %d long" % many.size())
	_expect(many.all(func(cell: Variant) -> bool: return typeof(cell) == TYPE_VECTOR2I), "get_cells: every element a Vector2i")
	_expect(misfits >= 40, "%d anchors where the unit does not fit compared" % misfits)
	pf.free()
	return "%d anchors in range compared" % compared


## A budget of exactly 1 + sqrt 2 includes the anchor one straight and one diagonal step away,
## and not two diagonals; 2.0 includes two straight steps and 1.999 does not. Turns label
## anchors further out. The overlay is switched on and a frame passes while it draws the last
## range (what it draws is checked by eye, in the tactics demo).
func check_boundary_and_turns() -> Variant:
	var pf := _map(_rows_of(9, 9, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.debug_draw_last_range = true
	var start := Vector2i(4, 4)
	var area := pf.get_movement_range(start, 1, &"unit", 1.0 + sqrt(2.0))
	_expect_eq([area.is_in_range(Vector2i(6, 5)), area.is_in_range(Vector2i(5, 6)), area.is_in_range(Vector2i(2, 3))], [true, true, true], "one straight and one diagonal step: in range")
	_expect_eq([area.is_in_range(Vector2i(6, 6)), area.is_in_range(Vector2i(7, 4))], [false, false], "two diagonals, three straight steps: out")
	_expect(_near(area.get_cost(Vector2i(6, 5)), 1.0 + sqrt(2.0)), "the cost is 1 + sqrt 2")
	_expect_eq(area.get_cost(start), 0.0, "the start costs 0")
	_expect_eq(area.get_cells().size(), 21, "a 5x5 square without its corners")
	_expect_eq(area.get_border_cells().size(), 16, "its outline: all but the centre and its four straight neighbours")
	await tree.process_frame
	_expect(pf.get_movement_range(start, 1, &"unit", 2.0).is_in_range(Vector2i(6, 4)), "2.0 buys two straight steps")
	_expect(not pf.get_movement_range(start, 1, &"unit", 1.999).is_in_range(Vector2i(6, 4)), "1.999 does not")
	_expect_eq(pf.get_movement_range(start, 1, &"unit", 3.0).get_cost(Vector2i(7, 4)), 3.0, "three straight steps cost 3.0")
	# Four-way: no diagonals at all.
	pf.diagonal_mode = NEVER
	var four := pf.get_movement_range(start, 1, &"unit", 2.0)
	_expect_eq([four.is_in_range(Vector2i(5, 5)), four.get_cells().size()], [true, 13], "four-way: a diamond")
	pf.free()
	# Turns: a corridor, 2.0 a turn, 3 turns.
	var corridor := _map(_rows_of(12, 1, "."), EIGHT_WAY)
	corridor.set_profile(&"unit", {GROUND: 1.0})
	var turns := corridor.get_movement_range(Vector2i(0, 0), 1, &"unit", 2.0, 3)
	var labels: Array[int] = []
	for x: int in 9:
		labels.append(turns.get_turns(Vector2i(x, 0)))
	_expect_eq(labels, [1, 1, 1, 2, 2, 3, 3, 0, 0] as Array[int], "turns along the corridor")
	_expect_eq(turns.get_cells(), [Vector2i(0, 0), Vector2i(1, 0), Vector2i(2, 0)] as Array[Vector2i], "get_cells is this turn's")
	_expect_eq([turns.is_in_range(Vector2i(3, 0)), turns.get_cost(Vector2i(3, 0)), turns.get_turn_count()], [false, INF, 3], "the second turn is not in range")
	var far := turns.get_path_to(Vector2i(6, 0))
	_expect_eq([far.code, far.path.size(), far.total_cost], ["OK", 7, 6.0], "the way three turns out")
	_expect_eq(turns.get_path_to(Vector2i(8, 0)).code, "NO_PATH", "beyond the turns: NO_PATH")
	_expect_eq(turns.get_path_to(Vector2i(20, 0)).code, "GOAL_OUT_OF_BOUNDS", "off the map")
	_expect_eq(turns.get_turns(Vector2i(-1, 0)), 0, "no turns off the map")
	corridor.free()
	return "21 anchors within 1 + sqrt 2"


## Allies may be passed but not stopped on; enemies count as other_units says: blocking,
## costing, or ignored; the moving unit never counts against itself.
func check_allies_and_enemies() -> Variant:
	var pf := _map(_rows_of(8, 1, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.other_units = BLOCK
	_expect(pf.add_unit(1, Vector2i(0, 0), 1), "the mover")
	_expect(pf.add_unit(2, Vector2i(2, 0), 1), "a unit in the corridor")
	var start := Vector2i(0, 0)
	var allied := pf.get_movement_range(start, 1, &"unit", 5.0, 1, 1, PackedInt64Array([2]))
	_expect_eq(allied.get_cells(), [Vector2i(0, 0), Vector2i(1, 0), Vector2i(3, 0), Vector2i(4, 0), Vector2i(5, 0)] as Array[Vector2i], "an ally is passed, not stopped on")
	_expect_eq([allied.is_in_range(Vector2i(2, 0)), allied.get_cost(Vector2i(2, 0)), allied.get_turns(Vector2i(2, 0))], [false, INF, 0], "the ally's anchor")
	var onto_ally := allied.get_path_to(Vector2i(2, 0))
	_expect_eq([onto_ally.code, onto_ally.get("occupied_by")], ["GOAL_OCCUPIED", 2], "the way onto the ally names it")
	var through := allied.get_path_to(Vector2i(4, 0))
	_expect_eq([through.code, through.path, through.total_cost], ["OK", [Vector2i(0, 0), Vector2i(1, 0), Vector2i(2, 0), Vector2i(3, 0), Vector2i(4, 0)], 4.0], "the way through the ally")
	_expect_eq(through, pf.find_path(start, Vector2i(4, 0), 1, &"unit", false, 1, PackedInt64Array([2])).merged({"expanded": 0}, true), "find_path with the ally exempt")
	var enemy := pf.get_movement_range(start, 1, &"unit", 5.0, 1, 1)
	_expect_eq(enemy.get_cells(), [Vector2i(0, 0), Vector2i(1, 0)] as Array[Vector2i], "an enemy blocks")
	_expect_eq(enemy.get_path_to(Vector2i(4, 0)).code, "NO_PATH", "nothing beyond the enemy")
	var onto_enemy := enemy.get_path_to(Vector2i(2, 0))
	var asked := pf.find_path(start, Vector2i(2, 0), 1, &"unit", false, 1)
	_expect_eq([onto_enemy.code, onto_enemy.get("occupied_by")], [asked.code, asked.get("occupied_by")], "the way onto the enemy: GOAL_OCCUPIED naming it, as find_path says")
	_expect_eq(onto_enemy.get("occupied_by"), 2, "the enemy named")
	_expect_eq(pf.get_movement_range(start, 1, &"unit", 5.0).get_cells(), enemy.get_cells(), "without moving_unit: the start is never blocked")
	pf.other_units = COST
	pf.other_units_cost = 3.0
	var costed := pf.get_movement_range(start, 1, &"unit", 5.0, 1, 1)
	var cost_found := pf.find_path(start, Vector2i(3, 0), 1, &"unit", false, 1)
	_expect(_near(costed.get_cost(Vector2i(3, 0)), cost_found.total_cost) and _near(cost_found.total_cost, 5.0), "OTHER_UNITS_COST: the enemy's cell costs 3.0")
	_expect(not costed.is_in_range(Vector2i(4, 0)), "and the budget runs out sooner")
	pf.other_units = ClearancePathfinder.OTHER_UNITS_IGNORE
	_expect_eq(pf.get_movement_range(start, 1, &"unit", 5.0, 1, 1).get_cells().size(), 6, "OTHER_UNITS_IGNORE: the enemy is walked through")
	_expect_eq(pf.get_movement_range(start, 1, &"unit", 5.0, 1, 1, [2]).get_cells().size(), 5, "allies are never stopped on, whatever the rule")
	# A 2x2 ally in a 3-high corridor: a 1x1 passes it, and stops on no anchor it covers.
	var wide := _map(_rows_of(8, 3, "."), EIGHT_WAY)
	wide.set_profile(&"unit", {GROUND: 1.0})
	wide.other_units = BLOCK
	_expect(wide.add_unit(5, Vector2i(3, 0), 2), "a 2x2 ally")
	var small := wide.get_movement_range(Vector2i(0, 0), 1, &"unit", 10.0, 1, ClearancePathfinder.NO_UNIT, [5])
	var covered := [Vector2i(3, 0), Vector2i(4, 0), Vector2i(3, 1), Vector2i(4, 1)]
	_expect(covered.all(func(anchor: Vector2i) -> bool: return not small.is_in_range(anchor)), "no anchor under the 2x2")
	_expect(small.is_in_range(Vector2i(7, 0)) and small.is_in_range(Vector2i(3, 2)), "around and beyond it")
	wide.free()
	pf.free()
	return ""


## request_movement_range answers for the map and the units as they were when asked, with
## the id it returned; refused arguments return -1 and start nothing.
func check_async_range() -> Variant:
	var pf := _map(_rows_of(10, 3, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.other_units = BLOCK
	_expect(pf.add_unit(1, Vector2i(0, 1), 1), "the mover")
	_expect(pf.add_unit(2, Vector2i(3, 0), 1), "an enemy")
	var arrived := {}
	pf.movement_range_ready.connect(func(id: int, area: ClearanceMovementRange) -> void: arrived[id] = area)
	var start := Vector2i(0, 1)
	var sync := pf.get_movement_range(start, 1, &"unit", 4.0, 1, 1)
	var before := pf.request_movement_range(start, 1, &"unit", 4.0, 1, 1)
	var versions := [pf.get_map_version(), pf.get_units_version()]
	_expect(pf.move_unit(2, Vector2i(3, 1)), "the enemy steps into the middle row")
	pf.fill_rect_terrain(Rect2i(2, 0, 1, 1), WALL)
	var after := pf.request_movement_range(start, 1, &"unit", 4.0, 1, 1)
	var refused := pf.request_movement_range(start, 1, &"unit", NAN)
	_expect_eq(refused, -1, "a NaN budget is refused at once")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(arrived.size(), 2, "two ranges arrived")
	_expect(before > 0 and after > before, "request ids")
	if arrived.size() == 2:
		var earlier: ClearanceMovementRange = arrived[before]
		var later: ClearanceMovementRange = arrived[after]
		_expect_eq([earlier.get_map_version(), earlier.get_units_version()], versions, "the first answers for the map as asked")
		_expect_eq(earlier.get_cells(), sync.get_cells(), "and equals the synchronous range then")
		var costs_equal := true
		for anchor: Vector2i in sync.get_cells():
			costs_equal = costs_equal and earlier.get_cost(anchor) == sync.get_cost(anchor)
		_expect(costs_equal, "at the same costs")
		_expect_eq([later.get_map_version(), later.get_units_version()], [pf.get_map_version(), pf.get_units_version()], "the second answers for the map after the edits")
		_expect_eq(later.get_cells(), pf.get_movement_range(start, 1, &"unit", 4.0, 1, 1).get_cells(), "and equals the synchronous range now")
		_expect(later.get_cells() != earlier.get_cells(), "the move and the wall changed the range")
	pf.free()
	return "2 ranges in %d frames" % frames


## Bad arguments print an error and return null (or -1), and change nothing.
func check_bad_input() -> Variant:
	var pf := _map(["....", ".#..", "...."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	_expect(pf.add_unit(1, Vector2i(0, 0), 1), "a unit")
	var before := [_snapshot(pf), pf.get_units(), pf.get_units_version()]
	var cases := [
		[Vector2i.ZERO, 1, &"unit", NAN, 1, -1, [], "a NaN budget"],
		[Vector2i.ZERO, 1, &"unit", -1.0, 1, -1, [], "a negative budget"],
		[Vector2i.ZERO, 1, &"unit", INF, 1, -1, [], "an infinite budget"],
		[Vector2i.ZERO, 1, &"unit", 2e9, 1, -1, [], "a budget above 1e9"],
		[Vector2i.ZERO, 1, &"unit", 2.0, 0, -1, [], "0 turns"],
		[Vector2i.ZERO, 1, &"unit", 2.0, 1001, -1, [], "1001 turns"],
		[Vector2i.ZERO, 0, &"unit", 2.0, 1, -1, [], "agent size 0"],
		[Vector2i.ZERO, 256, &"unit", 2.0, 1, -1, [], "agent size 256"],
		[Vector2i.ZERO, 1, &"nobody", 2.0, 1, -1, [], "an unknown profile"],
		[Vector2i(9, 9), 1, &"unit", 2.0, 1, -1, [], "a start off the map"],
		[Vector2i(-1, 0), 1, &"unit", 2.0, 1, -1, [], "a negative start"],
		[Vector2i(1, 1), 1, &"unit", 2.0, 1, -1, [], "a start in the wall"],
		[Vector2i(0, 0), 2, &"unit", 2.0, 1, -1, [], "a start too narrow for a 2x2"],
		[Vector2i.ZERO, 1, &"unit", 2.0, 1, 404, [], "an unknown moving unit"],
		[Vector2i.ZERO, 1, &"unit", 2.0, 1, 1, [1, 405], "an unknown ally"],
	]
	for case: Array in cases:
		_expect(pf.get_movement_range(case[0], case[1], case[2], case[3], case[4], case[5], PackedInt64Array(case[6])) == null, "get_movement_range: %s gives null" % case[7])
		if case[7].begins_with("a start in") or case[7].begins_with("a start too"):
			continue  # the worker finds these: below
		_expect_eq(pf.request_movement_range(case[0], case[1], case[2], case[3], case[4], case[5], PackedInt64Array(case[6])), -1, "request_movement_range: %s gives -1" % case[7])
	_expect_eq(pf.get_pending_request_count(), 0, "nothing started")
	# A start where the unit does not fit is found on the worker: the signal brings null.
	var arrived := {}
	pf.movement_range_ready.connect(func(id: int, area: ClearanceMovementRange) -> void: arrived[id] = area)
	var narrow := pf.request_movement_range(Vector2i(0, 0), 2, &"unit", 2.0)
	var walled := pf.request_movement_range(Vector2i(1, 1), 1, &"unit", 2.0)
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq([narrow > 0, walled > 0, arrived.size()], [true, true, 2], "both requests delivered")
	_expect(arrived.has(narrow) and arrived[narrow] == null and arrived.has(walled) and arrived[walled] == null, "with null")
	_expect_eq([_snapshot(pf), pf.get_units(), pf.get_units_version()], before, "map, profiles and units unchanged")
	_expect(pf.get_movement_range(Vector2i.ZERO, 1, &"unit", 2.0, 1, 1, [1]) != null, "the mover named as its own ally is fine")
	pf.free()
	return ""


## With `smoothing` set to SMOOTHING_TAUT a range's paths carry `waypoints`: those
## `smooth_path()` gives for the path, by the range's rules (its allies and moving unit not
## counted), made at once or on request; with smoothing off they carry none.
func check_smoothed_paths() -> Variant:
	var pf := _terrain_map()
	pf.smoothing = ClearancePathfinder.SMOOTHING_TAUT
	pf.other_units = BLOCK
	var start := Vector2i(0, 0)
	_expect(pf.add_unit(1, start, 1), "the mover")
	_expect(pf.add_unit(2, Vector2i(1, 1), 1), "an ally beside it")
	var allies := PackedInt64Array([2])
	var area := pf.get_movement_range(start, 1, &"walker", 12.0, 1, 1, allies)
	var requested := pf.request_movement_range(start, 1, &"walker", 12.0, 1, 1, allies)
	var arrived: Array[ClearanceMovementRange] = []
	pf.movement_range_ready.connect(func(_id: int, ready: ClearanceMovementRange) -> void: arrived.append(ready))
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect(requested > 0 and arrived.size() == 1, "the requested range arrived")
	var compared := 0
	var fewer := 0
	for anchor: Vector2i in area.get_cells():
		var way := area.get_path_to(anchor)
		var expected := pf.smooth_path(way.path, 1, &"walker", 1, allies)
		_expect_eq(way.waypoints, expected, "the waypoints to %s" % anchor)
		_expect(way.has("waypoint_length"), "and their length to %s" % anchor)
		if arrived.size() == 1:
			_expect_eq(arrived[0].get_path_to(anchor).waypoints, expected, "the requested range's waypoints to %s" % anchor)
		compared += 1
		if way.waypoints.size() < way.path.size():
			fewer += 1
	_expect(fewer > 10, "many paths are shorter as waypoints (%d)" % fewer)
	pf.smoothing = ClearancePathfinder.SMOOTHING_OFF
	var plain := pf.get_movement_range(start, 1, &"walker", 12.0, 1, 1, allies).get_path_to(Vector2i(9, 4))
	_expect(plain.ok and not plain.has("waypoints"), "without smoothing, no waypoints")
	pf.free()
	return "%d paths, %d with fewer waypoints than anchors" % [compared, fewer]
