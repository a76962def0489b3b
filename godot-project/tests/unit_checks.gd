extends "res://tests/check_base.gd"
## The verifier's checks of the occupancy layer (verify.gd runs them): registered units block
## or cost what `other_units` says at every query entry point, the moving unit and the exempt
## ones never count, GOAL_OCCUPIED names the unit in the way, requests count the units where
## they stood when asked, arrival slots are legal and apart, and bad input changes nothing.

const IGNORE := ClearancePathfinder.OTHER_UNITS_IGNORE
const BLOCK := ClearancePathfinder.OTHER_UNITS_BLOCK
const COST := ClearancePathfinder.OTHER_UNITS_COST


## An open map of `width` x `height` ground cells with the profile "unit" (ground at 1.0).
func _open(width: int, height: int) -> ClearancePathfinder:
	var pf := _map(_rows_of(width, height, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	return pf


## What the units of `pf` are, and the versions of its units and terrain.
func _units_state(pf: ClearancePathfinder) -> Array:
	return [pf.get_units(), pf.get_units_version(), pf.get_map_version()]


## The target of the slot checks' group order.
const SLOT_TARGET := Vector2i(6, 6)


## Whether the footprints of size `a_size` at `a` and of size `b_size` at `b` share a cell.
func _overlap(a: Vector2i, a_size: int, b: Vector2i, b_size: int) -> bool:
	return a.x < b.x + b_size and b.x < a.x + a_size and a.y < b.y + b_size and b.y < a.y + a_size


## Whether a unit of `size` walking `path` ever overlaps the footprint of `unit_size` at `unit`.
func _crosses(path: Array, size: int, unit: Vector2i, unit_size: int) -> bool:
	return path.any(func(anchor: Vector2i) -> bool: return _overlap(anchor, size, unit, unit_size))


## A copy of `entry` with `key` set to `value`.
func _with(entry: Dictionary, key: String, value: Variant) -> Dictionary:
	var copy := entry.duplicate()
	copy[key] = value
	return copy


## Waits until `pf` has delivered every request (600 frames at most).
func _drain(pf: ClearancePathfinder) -> int:
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(pf.get_pending_request_count(), 0, "every request delivered within 600 frames")
	return frames


func check_blocking() -> Variant:
	var pf := _open(10, 5)
	pf.debug_draw_units = true
	_expect(pf.add_unit(1, Vector2i(0, 2), 1), "add the moving unit")
	_expect(pf.add_unit(2, Vector2i(4, 1), 3), "add a 3x3 in the way")
	_expect_eq(pf.get_units(), [{"id": 1, "anchor": Vector2i(0, 2), "agent_size": 1},
		{"id": 2, "anchor": Vector2i(4, 1), "agent_size": 3}], "get_units lists both by id")
	_expect_eq([pf.get_unit_count(), pf.has_unit(2), pf.get_unit_anchor(2), pf.get_unit(2).agent_size],
		[2, true, Vector2i(4, 1), 3], "what the node knows of unit 2")
	var start := Vector2i(0, 2)
	var goal := Vector2i(9, 2)
	var alone := pf.find_path(start, goal, 1, &"unit", false, 1)
	_expect_eq([alone.code, alone.total_cost], ["OK", 9.0], "OTHER_UNITS_IGNORE (the default) walks through")
	pf.other_units = BLOCK
	var around := pf.find_path(start, goal, 1, &"unit", false, 1)
	_expect_eq(around.code, "OK", "a way round the 3x3")
	_expect(not _crosses(around.path, 1, Vector2i(4, 1), 3), "the path keeps off its footprint")
	_expect(around.total_cost > 9.0, "going round costs more")
	# Every entry point counts the unit alike.
	var from_position := pf.to_global(pf.footprint_center(start, 1))
	var to_position := pf.to_global(pf.footprint_center(goal, 1))
	_expect_eq(pf.find_path_world(from_position, to_position, 1, &"unit", false, 1).path, around.path, "find_path_world")
	_expect_eq(pf.get_id_path(start, goal, 1, &"unit", false, 1), around.path, "get_id_path")
	var points := PackedVector2Array()
	for anchor: Vector2i in around.path:
		points.append(pf.footprint_center(anchor, 1))
	_expect_eq(pf.get_point_path(start, goal, 1, &"unit", false, 1), points, "get_point_path")
	var entry := {"start": start, "goal": goal, "agent_size": 1, "profile": &"unit", "moving_unit": 1}
	_expect_eq(pf.find_paths([entry]), [around], "find_paths")
	# The two layers keep their own versions.
	var versions := [pf.get_map_version(), pf.get_units_version()]
	_expect(pf.move_unit(2, Vector2i(4, 0)), "move the 3x3")
	_expect_eq(pf.get_map_version(), versions[0], "moving a unit keeps the map version")
	_expect(pf.get_units_version() != versions[1], "moving a unit changes the units version")
	versions = [pf.get_map_version(), pf.get_units_version()]
	_expect(pf.set_cell_terrain(Vector2i(0, 0), GROUND), "a terrain edit")
	_expect_eq(pf.get_units_version(), versions[1], "a terrain edit keeps the units version")
	_expect(pf.remove_unit(2), "remove the 3x3")
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1).total_cost, 9.0, "straight again once it is gone")
	# A smaller region drops the units whose anchor it no longer holds.
	_expect(pf.add_unit(3, Vector2i(9, 4), 1), "a unit in the far corner")
	pf.region = Rect2i(0, 0, 5, 5)
	_expect_eq([pf.has_unit(1), pf.has_unit(3)], [true, false], "the region change dropped unit 3 only")
	pf.clear_units()
	_expect_eq(pf.get_unit_count(), 0, "clear_units")
	pf.free()
	return "round the 3x3 at cost %.3f" % around.total_cost


func check_self_exemption() -> Variant:
	var pf := _open(8, 2)
	pf.other_units = BLOCK
	_expect(pf.add_unit(7, Vector2i(0, 0), 2), "a 2x2 filling the corridor's height")
	var unnamed := pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit")
	_expect_eq(unnamed.code, "NO_PATH", "not named, its own footprint hems it in")
	var named := pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit", false, 7)
	_expect_eq([named.code, named.total_cost], ["OK", 6.0], "named as moving_unit, it walks")
	var listed := pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit", false, ClearancePathfinder.NO_UNIT, [7])
	_expect_eq(listed.total_cost, 6.0, "listed in exempt_units, it walks too")
	# A second member of its group stands in the corridor: exempt, it does not count.
	_expect(pf.add_unit(8, Vector2i(3, 0), 2), "a second 2x2 in the way")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit", false, 7).code, "NO_PATH", "the other one blocks")
	var group: Array[int] = [7, 8]
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit", false, 7, group).total_cost, 6.0, "the group exempt (Array[int])")
	_expect_eq(pf.get_id_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit", false, 7, PackedInt64Array([8])).size(), 7, "the group exempt (PackedInt64Array)")
	var world := pf.find_path_world(pf.to_global(pf.footprint_center(Vector2i(0, 0), 2)),
		pf.to_global(pf.footprint_center(Vector2i(6, 0), 2)), 2, &"unit", false, 7, [8])
	_expect_eq(world.total_cost, 6.0, "find_path_world with the group exempt")
	# Who stands where a 2x2 would step: by footprint overlap, in order of id, bar the exempt.
	_expect_eq(pf.get_units_at(Vector2i(1, 0), 3, PackedInt64Array()), PackedInt64Array([7, 8]), "get_units_at: a 3x3 overlaps both 2x2s")
	_expect_eq(pf.get_units_at(Vector2i(1, 0), 3, PackedInt64Array([7])), PackedInt64Array([8]), "get_units_at: unit 7 exempt")
	_expect_eq(pf.get_units_at(Vector2i(2, 0), 1, PackedInt64Array()), PackedInt64Array(), "get_units_at: the cell between them")
	_expect_eq(pf.get_units_at(Vector2i(5, 0), 1, PackedInt64Array()), PackedInt64Array(), "get_units_at: a free cell")
	_expect_eq(pf.get_units_at(Vector2i(4, 1), 1, PackedInt64Array()), PackedInt64Array([8]), "get_units_at: a covered cell, not the anchor")
	pf.free()
	return ""


## In a crowd of 400 units, get_units_at names exactly the units a pass over get_units() finds
## over the footprint, sorted by id, before and after units move and leave.
func check_units_at_in_a_crowd() -> Variant:
	var rows: Array = []
	for y: int in 120:
		rows.append(".".repeat(120))
	var pf := _map(rows, EIGHT_WAY)
	var crowd: Array = []
	for id: int in 400:
		crowd.append({"id": id, "anchor": Vector2i(rng.randi_range(0, 119), rng.randi_range(0, 119)),
			"agent_size": [1, 1, 2, 3, 7][id % 5]})
	_expect(pf.add_units(crowd), "register the crowd")
	var probes := 0
	var met := 0
	for round: int in 3:
		for probe: int in 200:
			var anchor := Vector2i(rng.randi_range(-8, 124), rng.randi_range(-8, 124))
			var size := rng.randi_range(1, 4)
			var exempt := PackedInt64Array([rng.randi_range(0, 399)])
			var expected := PackedInt64Array()
			for unit: Dictionary in pf.get_units():
				var near: Vector2i = unit.anchor
				var side: int = unit.agent_size
				if near.x < anchor.x + size and anchor.x < near.x + side and near.y < anchor.y + size \
						and anchor.y < near.y + side and not exempt.has(unit.id):
					expected.append(unit.id)
			expected.sort()
			_expect_eq(pf.get_units_at(anchor, size, exempt), expected, "units at %s, size %d, round %d" % [anchor, size, round])
			probes += 1
			met += expected.size()
		var moves := {}
		for id: int in range(round, 400, 3):
			if pf.has_unit(id):
				moves[id] = Vector2i(rng.randi_range(0, 119), rng.randi_range(0, 119))
		_expect(pf.move_units(moves), "move a third of the crowd")
		for id: int in range(round * 40, round * 40 + 40):
			_expect(pf.remove_unit(id), "remove unit %d" % id)
	pf.free()
	return "%d footprints, %d units met" % [probes, met]


func check_goal_occupied() -> Variant:
	var pf := _open(10, 3)
	pf.other_units = BLOCK
	_expect(pf.add_unit(1, Vector2i(0, 1), 1), "the moving unit")
	_expect(pf.add_unit(5, Vector2i(7, 1), 1), "a unit on the goal")
	var onto := pf.find_path(Vector2i(0, 1), Vector2i(7, 1), 1, &"unit", false, 1)
	_expect_eq([onto.ok, onto.code, onto.occupied_by, onto.path, onto.expanded],
		[false, "GOAL_OCCUPIED", 5, [], 0], "GOAL_OCCUPIED with the unit in the way")
	var wide := pf.find_path(Vector2i(0, 0), Vector2i(6, 0), 2, &"unit")
	_expect_eq([wide.code, wide.occupied_by], ["GOAL_OCCUPIED", 5], "a 2x2 goal that overlaps it")
	var partial := pf.find_path(Vector2i(0, 1), Vector2i(7, 1), 1, &"unit", true, 1)
	_expect_eq([partial.ok, partial.code, partial.occupied_by], [false, "PARTIAL_PATH", 5], "a partial path keeps occupied_by")
	var end: Vector2i = partial.path.back() if not partial.path.is_empty() else Vector2i(-9, -9)
	_expect_eq(maxi(absi(end.x - 7), absi(end.y - 1)), 1, "it stops next to the unit")
	_expect_eq(pf.get_last_code(), &"PARTIAL_PATH", "get_last_code")
	_expect_eq(pf.get_last_result().occupied_by, 5, "get_last_result keeps occupied_by")
	var exempt := pf.find_path(Vector2i(0, 1), Vector2i(7, 1), 1, &"unit", false, 1, [5])
	_expect_eq([exempt.code, exempt.has("occupied_by")], ["OK", false], "the unit exempt: no key")
	pf.other_units = COST
	_expect_eq(pf.find_path(Vector2i(0, 1), Vector2i(7, 1), 1, &"unit", false, 1).code, "OK", "under OTHER_UNITS_COST the goal is only dear")
	pf.other_units = IGNORE
	_expect_eq(pf.find_path(Vector2i(0, 1), Vector2i(7, 1), 1, &"unit", false, 1).total_cost, 7.0, "ignored, straight on")
	pf.free()
	return ""


func check_cost_mode() -> Variant:
	var pf := _open(10, 3)
	_expect(pf.add_unit(1, Vector2i(0, 1), 1), "the moving unit")
	_expect(pf.add_unit(9, Vector2i(4, 0), 3), "a 3x3 across the corridor")
	var start := Vector2i(0, 1)
	var goal := Vector2i(9, 1)
	pf.other_units = BLOCK
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1).code, "NO_PATH", "blocking, no way past")
	pf.other_units = COST
	_expect_eq(pf.other_units_cost, 4.0, "the default multiplier")
	var dear := pf.find_path(start, goal, 1, &"unit", false, 1)
	_expect_eq([dear.code, dear.total_cost], ["OK", 18.0], "six cells at 1 and three under the unit at 4")
	pf.other_units_cost = 2.5
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1).total_cost, 13.5, "at 2.5")
	pf.other_units_cost = 0.5
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1).total_cost, 9.0, "below the terrain's 1.0 it changes nothing")
	pf.other_units_cost = 4.0
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1, [9]).total_cost, 9.0, "exempt, it costs nothing")
	var entry := {"start": start, "goal": goal, "agent_size": 1, "profile": &"unit", "moving_unit": 1}
	_expect_eq(pf.find_paths([entry])[0].total_cost, 18.0, "find_paths pays the same")
	pf.other_units = IGNORE
	_expect_eq(pf.find_path(start, goal, 1, &"unit", false, 1).total_cost, 9.0, "ignored: 9")
	pf.free()
	return ""


func check_async_units() -> Variant:
	var pf := _open(10, 3)
	pf.other_units = BLOCK
	_expect(pf.add_unit(1, Vector2i(0, 1), 1), "the moving unit")
	_expect(pf.add_unit(9, Vector2i(5, 1), 1), "a unit in the middle row")
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var batches := {}
	pf.paths_found.connect(func(id: int, results: Array) -> void: batches[id] = results)
	var start := Vector2i(0, 1)
	var goal := Vector2i(9, 1)
	var around := pf.find_path(start, goal, 1, &"unit", false, 1)
	_expect(not _crosses(around.path, 1, Vector2i(5, 1), 1), "now the path steps round unit 9")
	var before := pf.request_path(start, goal, 1, &"unit", false, 1)
	var onto := pf.request_path(start, Vector2i(5, 1), 1, &"unit", false, 1)
	var entry := {"start": start, "goal": goal, "agent_size": 1, "profile": &"unit", "moving_unit": 1}
	var batch := pf.request_paths([entry, _with(entry, "exempt_units", [9])])
	var unknown := pf.request_path(start, goal, 1, &"unit", false, 404)
	# After the requests, unit 9 steps out of the middle row: the answers above must not see it.
	_expect(pf.move_unit(9, Vector2i(5, 0)), "unit 9 steps aside")
	var after := pf.request_path(start, goal, 1, &"unit", false, 1)
	var onto_after := pf.request_path(start, Vector2i(5, 1), 1, &"unit", false, 1)
	# And the rule changes: requests keep the rule they were made under.
	pf.other_units = IGNORE
	var frames: int = await _drain(pf)
	_expect_eq(arrived.get(before), around, "the request before the move equals find_path then")
	_expect_eq([arrived.get(onto, {}).get("code"), arrived.get(onto, {}).get("occupied_by")], ["GOAL_OCCUPIED", 9], "the goal was occupied when asked")
	_expect_eq(batches.get(batch, [{}, {}])[0], around, "request_paths counts the unit where it stood")
	_expect_eq(batches.get(batch, [{}, {}])[1].get("total_cost"), 9.0, "a batch entry's exempt_units")
	_expect_eq(arrived.get(unknown, {}).get("code"), "UNKNOWN_UNIT", "an unknown moving unit")
	_expect_eq(arrived.get(after, {}).get("total_cost"), 9.0, "the request after the move goes straight")
	_expect_eq(arrived.get(onto_after, {}).get("code"), "OK", "the old goal is free after the move")
	_expect_eq(pf.find_path(start, Vector2i(5, 0), 1, &"unit", false, 1).code, "OK", "the node now ignores units")
	pf.free()
	return "%d answers in %d frames" % [arrived.size() + batches.size(), frames]


## Flow fields and group orders count the units as queries do, with the group exempt.
func check_fields_and_group_orders() -> Variant:
	var pf := _open(10, 3)
	_expect(pf.add_unit(1, Vector2i(0, 1), 1), "a member of the group")
	_expect(pf.add_unit(2, Vector2i(0, 2), 1), "another member")
	_expect(pf.add_unit(9, Vector2i(5, 1), 1), "an outsider in the middle row")
	var goal := Vector2i(9, 1)
	var group := PackedInt64Array([1, 2])
	pf.other_units = BLOCK
	var alone := pf.find_path(Vector2i(0, 1), goal, 1, &"unit", false, 1, group)
	_expect(alone.ok and alone.total_cost > 9.0, "find_path goes round the outsider")
	var field := pf.get_flow_field([goal], 1, &"unit", INF, group)
	_expect(field != null and field.is_ok(), "a field with the group exempt")
	if field != null:
		_expect(is_equal_approx(field.get_cost(Vector2i(0, 1)), alone.total_cost), "the field's cost goes round the outsider")
		_expect(not field.is_reached(Vector2i(5, 1)), "the outsider's anchor is not reached")
	var reaching := pf.get_flow_field_reaching([goal], [Vector2i(0, 1)], 1, &"unit", group)
	_expect(reaching != null and is_equal_approx(reaching.get_cost(Vector2i(0, 1)), alone.total_cost), "get_flow_field_reaching")
	var orders := pf.find_paths_to(goal, [Vector2i(0, 1), Vector2i(0, 2)], 1, &"unit", group)
	_expect_eq(orders.size(), 2, "one result per start")
	if orders.size() == 2:
		_expect(is_equal_approx(orders[0].total_cost, alone.total_cost), "find_paths_to goes round the outsider")
		_expect(not _crosses(orders[1].path, 1, Vector2i(5, 1), 1), "and so does the second member")
	_expect_eq(pf.find_paths_to(goal, [Vector2i(0, 1)], 1, &"unit")[0].code, "NO_PATH", "without the group exempt a member cannot leave its anchor")
	var occupied := pf.get_flow_field([Vector2i(5, 1)], 1, &"unit", INF, group)
	_expect_eq(occupied.get_code() if occupied != null else "", "GOAL_OCCUPIED", "a field to the outsider's anchor")
	var unknown := pf.get_flow_field([goal], 1, &"unit", INF, [404])
	_expect_eq(unknown.get_code() if unknown != null else "", "UNKNOWN_UNIT", "an unknown exempt id")
	pf.other_units = IGNORE
	_expect_eq(pf.get_flow_field([goal], 1, &"unit").get_cost(Vector2i(0, 1)), 9.0, "ignored, straight on")
	pf.free()
	return ""


## The members of the slot checks' group order: four registered, the fifth walled in.
func _slot_members() -> Array[Dictionary]:
	return [
		{"id": 1, "anchor": Vector2i(0, 0), "agent_size": 2, "profile": &"unit"},
		{"id": 2, "anchor": Vector2i(11, 0), "agent_size": 1, "profile": &"unit"},
		{"id": 3, "anchor": Vector2i(11, 11), "agent_size": 1, "profile": "unit"},
		{"id": 4, "anchor": Vector2i(5, 11), "agent_size": 1, "profile": &"unit"},
		{"id": 5, "anchor": Vector2i(0, 11), "agent_size": 1, "profile": &"unit"},  # walled in
	]


## The slot checks' map: open ground with a walled-in corner, the first four members
## registered, and an outsider (id 50) on SLOT_TARGET itself.
func _slots_map() -> ClearancePathfinder:
	var pf := _map([
		"............",
		"............",
		"............",
		"............",
		"............",
		"............",
		"............",
		"............",
		"............",
		"###.........",
		"..#.........",
		"..#.........",
	], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.other_units = BLOCK
	_expect(pf.add_units(_slot_members().slice(0, 4)), "register four members (add_units ignores profile)")
	_expect(pf.add_unit(50, SLOT_TARGET, 1), "an outsider on the target itself")
	return pf


func check_arrival_slots() -> Variant:
	var pf := _slots_map()
	var target := SLOT_TARGET
	var members := _slot_members()
	var group := PackedInt64Array([1, 2, 3, 4])
	var slots := pf.get_arrival_slots(target, members)
	_expect_eq(slots.size(), members.size(), "one entry per member")
	_expect_eq(slots[4] if slots.size() == 5 else 0, null, "the walled-in member gets null")
	var placed := 0
	var solver := Reference.new(12, 12, pf.get_terrain_data(), {GROUND: 1.0}, true)
	for i: int in mini(slots.size(), 4):
		var slot: Variant = slots[i]
		var member := members[i]
		if not slot is Vector2i:
			_expect(false, "member %d got %s, not a Vector2i" % [member.id, slot])
			continue
		placed += 1
		var size: int = member.agent_size
		_expect(not _overlap(slot, size, target, 1), "member %d's slot keeps off the outsider" % member.id)
		_expect(solver.legal(slot.x, slot.y, size), "member %d's slot is legal" % member.id)
		_expect(maxi(absi(slot.x - target.x), absi(slot.y - target.y)) <= 3, "member %d's slot %s is near the target" % [member.id, slot])
		var way := pf.find_path(member.anchor, slot, size, &"unit", false, member.id, group)
		_expect_eq(way.code, "OK", "member %d reaches its slot round the outsider" % member.id)
		for j: int in range(i + 1, mini(slots.size(), 4)):
			if slots[j] is Vector2i:
				_expect(not _overlap(slot, size, slots[j], members[j].agent_size), "slots %d and %d apart" % [i, j])
	_expect_eq(pf.get_arrival_slots(target, members), slots, "the same slots twice")
	_expect_eq(pf.get_arrival_slots(target, []), [], "no members, no slots")
	# The same order sent in one call: each member's find_path() to its slot, and the slot.
	pf.other_units = IGNORE  # find_paths_to_slots blocks on units outside the group anyway
	var orders := pf.find_paths_to_slots(target, members)
	_expect_eq(orders.size(), members.size(), "find_paths_to_slots: one order per member")
	for i: int in mini(orders.size(), 5):
		var order := orders[i]
		var member := members[i]
		_expect_eq(order.slot, slots[i], "find_paths_to_slots: member %d's slot as get_arrival_slots" % member.id)
		if not slots[i] is Vector2i:
			_expect(order.code == "NO_PATH" and order.path.is_empty(), "find_paths_to_slots: no slot, no path")
			continue
		pf.other_units = BLOCK
		var by_hand := pf.find_path(member.anchor, slots[i], member.agent_size, &"unit", false, member.id, group)
		pf.other_units = IGNORE
		_expect_eq(order.code, "OK", "find_paths_to_slots: member %d reaches its slot" % member.id)
		_expect_eq(order.total_cost, by_hand.total_cost, "find_paths_to_slots: member %d's cost is find_path's" % member.id)
		_expect_eq(order.path[-1] if not order.path.is_empty() else null, slots[i], "find_paths_to_slots: member %d's path ends on its slot" % member.id)
	pf.smoothing = ClearancePathfinder.SMOOTHING_TAUT
	var smoothed := pf.find_paths_to_slots(target, members)
	_expect(smoothed.size() == 5 and smoothed[0].has("waypoints"), "find_paths_to_slots: waypoints with smoothing")
	pf.smoothing = ClearancePathfinder.SMOOTHING_OFF
	pf.free()
	return "%d of %d members placed round %s" % [placed, members.size(), target]


## `request_paths_to_slots()` answers through `paths_found` with what `find_paths_to_slots()`
## gave when it was asked, though the outsider then moves; bad orders start nothing.
func check_slot_requests() -> Variant:
	var pf := _slots_map()
	var members := _slot_members()
	var arrived := {}
	pf.paths_found.connect(func(request_id: int, answers: Array) -> void: arrived[request_id] = answers)
	var expected := pf.find_paths_to_slots(SLOT_TARGET, members)
	var id := pf.request_paths_to_slots(SLOT_TARGET, members)
	_expect(id >= 0, "request_paths_to_slots started")
	var first_slot: Variant = expected[0].slot if not expected.is_empty() else null
	_expect(first_slot is Vector2i and pf.move_unit(50, first_slot), "the outsider moves onto the first slot")
	for frame: int in 600:
		if arrived.has(id):
			break
		await tree.process_frame
	var results: Array = arrived.get(id, [])
	_expect_eq(results.size(), members.size(), "paths_found: one result per member")
	for i: int in mini(results.size(), expected.size()):
		_expect_eq(results[i], expected[i], "member %d as find_paths_to_slots answered when asked" % members[i].id)
	var now := pf.find_paths_to_slots(SLOT_TARGET, members)
	_expect(not now.is_empty() and now[0].slot != first_slot, "a new order keeps off the outsider where it stands now")
	_expect_eq(pf.request_paths_to_slots(Vector2i(99, 99), members), -1, "request_paths_to_slots: a target off the map")
	_expect_eq(pf.request_paths_to_slots(SLOT_TARGET, [members[0], members[0]]), -1, "request_paths_to_slots: a member twice")
	_expect_eq(pf.request_paths_to_slots(SLOT_TARGET, [members[0], 7]), -1, "request_paths_to_slots: an int member")
	_expect_eq(pf.get_pending_request_count(), 0, "nothing started by refused orders")
	pf.free()
	return "%d members answered off the main thread" % results.size()


## Every units method with arguments it must refuse: each returns its failure value and leaves
## the units, the versions and the settings as they were.
func check_bad_input() -> Variant:
	var pf := _open(6, 4)
	_expect(pf.add_unit(1, Vector2i(0, 0), 1), "unit 1")
	_expect(pf.add_unit(2, Vector2i(3, 2), 2), "unit 2")
	var before := _units_state(pf)
	var settings := [pf.other_units, pf.other_units_cost]
	var one := {"id": 3, "anchor": Vector2i(1, 1), "agent_size": 1}
	# Placing
	_expect(not pf.add_unit(1, Vector2i(2, 2), 1), "add_unit: an id already registered")
	_expect(not pf.add_unit(3, Vector2i(1, 1), 0), "add_unit: size 0")
	_expect(not pf.add_unit(3, Vector2i(1, 1), 256), "add_unit: size 256")
	_expect(not pf.add_unit(3, Vector2i(-1, 0), 1), "add_unit: anchor left of the map")
	_expect(not pf.add_unit(3, Vector2i(6, 0), 1), "add_unit: anchor right of the map")
	_expect(not pf.add_unit(ClearancePathfinder.NO_UNIT, Vector2i(1, 1), 1), "add_unit: NO_UNIT as an id")
	_expect(not pf.add_units([one, _with(one, "anchor", Vector2i(2, 1))]), "add_units: an id twice")
	_expect(not pf.add_units([one, {"id": 4, "anchor": Vector2i(2, 1)}]), "add_units: no agent_size")
	_expect(not pf.add_units([one, {"id": 4, "anchor": Vector2i(9, 9), "agent_size": 1}]), "add_units: the last off the map")
	_expect(not pf.add_units([_with(one, "id", 3.0)]), "add_units: a float id")
	_expect(not pf.add_units([one, "unit"]), "add_units: a String entry")
	# Moving and removing
	_expect(not pf.move_unit(99, Vector2i(1, 1)), "move_unit: an unknown id")
	_expect(not pf.move_unit(1, Vector2i(0, 4)), "move_unit: below the map")
	_expect(not pf.move_units({1: Vector2i(1, 1), 99: Vector2i(2, 2)}), "move_units: an unknown id last")
	_expect(not pf.move_units({1: Vector2i(1, 1), 2: Vector2i(-3, 0)}), "move_units: an anchor off the map")
	_expect(not pf.move_units({1: Vector2(1, 1)}), "move_units: a Vector2 anchor")
	_expect(not pf.move_units({"1": Vector2i(1, 1)}), "move_units: a String id")
	_expect(not pf.remove_unit(99), "remove_unit: an unknown id")
	_expect_eq(pf.get_unit_anchor(99), Vector2i(-1, -1), "get_unit_anchor: an unknown id")
	_expect_eq(pf.get_unit(99), {}, "get_unit: an unknown id")
	_expect(not pf.has_unit(99), "has_unit: an unknown id")
	_expect_eq(pf.get_units_at(Vector2i(0, 0), 0, PackedInt64Array()), PackedInt64Array(), "get_units_at: size 0")
	_expect_eq(pf.get_units_at(Vector2i(0, 0), 256, PackedInt64Array()), PackedInt64Array(), "get_units_at: size 256")
	# The rule
	pf.other_units = 3
	pf.other_units = -1
	pf.other_units_cost = NAN
	pf.other_units_cost = -1.0
	pf.other_units_cost = INF
	pf.other_units_cost = 10000.5
	_expect_eq([pf.other_units, pf.other_units_cost], settings, "bad rules and multipliers refused")
	# Queries that name unknown units
	pf.other_units = BLOCK
	var a := Vector2i(0, 0)
	var b := Vector2i(5, 0)
	_expect_eq(pf.find_path(a, b, 1, &"unit", false, 99).code, "UNKNOWN_UNIT", "find_path: an unknown moving unit")
	_expect_eq(pf.find_path(a, b, 1, &"unit", false, 1, [2, 99]).code, "UNKNOWN_UNIT", "find_path: an unknown exempt unit")
	_expect_eq([pf.get_id_path(a, b, 1, &"unit", false, 99), pf.get_last_code()], [[] as Array[Vector2i], &"UNKNOWN_UNIT"], "get_id_path: an unknown moving unit")
	pf.other_units = IGNORE
	_expect_eq(pf.find_path(a, b, 1, &"unit", false, 99).code, "UNKNOWN_UNIT", "unknown even when units are ignored")
	var entry := {"start": a, "goal": b, "agent_size": 1, "profile": &"unit"}
	_expect_eq(pf.find_paths([_with(entry, "moving_unit", 1.5)]), [] as Array[Dictionary], "find_paths: a float moving_unit")
	_expect_eq(pf.request_paths([_with(entry, "exempt_units", "2")]), -1, "request_paths: a String exempt list")
	_expect_eq(pf.request_paths([entry, _with(entry, "exempt_units", [2, "x"])]), -1, "request_paths: a String in the exempt list")
	_expect_eq(pf.get_pending_request_count(), 0, "nothing started by refused batches")
	# Slots
	var member := {"id": 1, "anchor": Vector2i(0, 0), "agent_size": 1, "profile": &"unit"}
	_expect_eq(pf.get_arrival_slots(Vector2i(9, 9), [member]), [], "get_arrival_slots: a target off the map")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [member, member]), [], "get_arrival_slots: a member twice")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [{"id": 1, "anchor": a, "agent_size": 1}]), [], "get_arrival_slots: no profile")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [_with(member, "agent_size", 0)]), [], "get_arrival_slots: size 0")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [_with(member, "profile", &"nobody")]), [], "get_arrival_slots: an unknown profile")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [_with(member, "anchor", Vector2i(7, 0))]), [], "get_arrival_slots: a start off the map")
	_expect_eq(pf.get_arrival_slots(Vector2i(2, 2), [member, 7]), [], "get_arrival_slots: an int member")
	_expect_eq(pf.find_paths_to_slots(Vector2i(9, 9), [member]), [] as Array[Dictionary], "find_paths_to_slots: a target off the map")
	_expect_eq(pf.find_paths_to_slots(Vector2i(2, 2), [member, member]), [] as Array[Dictionary], "find_paths_to_slots: a member twice")
	_expect_eq(pf.find_paths_to_slots(Vector2i(2, 2), [member, 7]), [] as Array[Dictionary], "find_paths_to_slots: an int member")
	_expect_eq(_units_state(pf), before, "units and versions unchanged after every refusal")
	_expect_eq([pf.other_units, pf.other_units_cost], settings, "settings unchanged")
	pf.free()
	return ""
