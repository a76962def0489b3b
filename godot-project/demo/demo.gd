extends Node2D
## Clearance Pathfinder demo: six units of sizes 1, 2 and 3 on one map of ground, walls, road,
## swamp and water. Infantry wades through swamp and water; vehicles keep to land, prefer the
## road and avoid swamp. Every unit is registered on the pathfinder's occupancy layer (add_unit)
## and moved there as it walks (move_units), and the units block each other's paths
## (OTHER_UNITS_BLOCK; the unit that moves, and its group, are exempt). Keys 1-6 or a click on a
## unit select it, a drag selects every unit in the box; a click elsewhere sends the selection
## there: one unit by find_path_world, a group spread over arrival slots round the click
## and each sent to its own in one call (find_paths_to_slots), timed on the HUD. A right click
## builds or removes a wall, and every unit on its way re-plans off the main thread
## (request_path / path_found); H toggles the clearance heat map of the selected profile, U the
## units' footprints, F the flow field to the last group order's target, S smoothing (units
## walk straight between taut waypoints rather than along every anchor of the grid path; the
## lines drawn ahead of them show which), T opens the tactics demo (movement ranges,
## tactics.tscn).
##
## Command-line user args (after `--`): `--quit-after-frames=N`, `--screenshot=PATH`,
## `--heat-map`, `--scripted-edits` (walls the east end of the upper bridge at frame 5, as two
## right clicks would, and takes one wall down at frame 60), `--scripted-group-order` (at frame 3, drags a box round every unit and
## sends them to the south-east field, showing the units' footprints), `--scripted-blocker` (at
## frame 10 the second scout stops on the first scout's path, and the first must re-plan round
## it), `--smooth` (starts with smoothing on, as the S key turns it on).

const GROUND := 0
const WALL := 1
const ROAD := 2
const SWAMP := 3
const WATER := 4
const TERRAIN_COLOURS: Array[Color] = [
	Color("6b8f47"), Color("34343c"), Color("c9b48a"), Color("56633a"), Color("3574b5"),
]
const SPEED := 120.0
const SCREENSHOT_FRAME := 45
## A drag shorter than this (in pixels) is a click.
const DRAG_THRESHOLD := 8.0
## How long a unit blocked by another waits before it asks for a way round again.
const BLOCKED_RETRY_MS := 500


class Unit:
	## The unit's id on the pathfinder's occupancy layer.
	var id: int
	var title: String
	var agent_size: int
	var profile: StringName
	var colour: Color
	var position: Vector2
	## Where the occupancy layer has the unit (the anchor nearest to `position`).
	var anchor := Vector2i.ZERO
	## The units sent with this one (exempt from blocking it), empty for a single order.
	var group := PackedInt64Array()
	var points := PackedVector2Array()
	var goal := Vector2i.ZERO
	var has_goal := false
	## The re-plan request whose answer this unit waits for (0: none).
	var request := 0
	## When a unit found blocked may ask again (milliseconds since start).
	var retry_at := 0
	## Why the unit asked again ("after an edit", "round Scout 2"), for the log.
	var replan_reason := ""
	var status := "waiting for orders"

	func _init(unit_id: int, unit_title: String, size: int, profile_name: StringName, tint: Color) -> void:
		id = unit_id
		title = unit_title
		agent_size = size
		profile = profile_name
		colour = tint


@onready var pathfinder: ClearancePathfinder = $Pathfinder
@onready var overlay: Node2D = $Overlay
@onready var status_label: Label = $Hud/Status
@onready var help_label: Label = $Hud/Help

var units: Array[Unit] = []
var selected: Array[int] = [0]
## Where the left button went down, while it is held.
var drag_from := Vector2.ZERO
var dragging := false
var last_group_order := "none yet"
## The cell the last group order was sent to.
var group_target := Vector2i(-1, -1)
var frame := 0
var quit_after_frames := -1
var screenshot_path := ""
var last_refusal := "none yet"
var scripted_edits := false
var scripted_group_order := false
var scripted_blocker := false
var replans := 0
## The terrain each wall the player built stands on, put back when it comes down.
var terrain_under_walls: Dictionary[Vector2i, int] = {}


func _ready() -> void:
	for arg: String in OS.get_cmdline_user_args():
		if arg.begins_with("--quit-after-frames="):
			quit_after_frames = int(arg.get_slice("=", 1))
		elif arg.begins_with("--screenshot="):
			screenshot_path = arg.get_slice("=", 1)
		elif arg == "--heat-map":
			pathfinder.debug_draw_clearance = true
		elif arg == "--scripted-edits":
			scripted_edits = true
		elif arg == "--scripted-group-order":
			scripted_group_order = true
		elif arg == "--scripted-blocker":
			scripted_blocker = true
		elif arg == "--smooth":
			pathfinder.smoothing = ClearancePathfinder.SMOOTHING_TAUT
	_build_terrain()
	units = [
		Unit.new(1, "Scout", 1, &"infantry", Color("ffd24a")),
		Unit.new(2, "Squad", 2, &"infantry", Color("ff8a3d")),
		Unit.new(3, "Truck", 2, &"vehicle", Color("7fe3ff")),
		Unit.new(4, "Tank", 3, &"vehicle", Color("f25cff")),
		Unit.new(5, "Scout 2", 1, &"infantry", Color("fff27a")),
		Unit.new(6, "Truck 2", 2, &"vehicle", Color("b5f0ff")),
	]
	var starts: Array[Vector2i] = [Vector2i(3, 3), Vector2i(23, 14), Vector2i(21, 10), Vector2i(20, 27),
		Vector2i(5, 9), Vector2i(2, 16)]
	pathfinder.other_units = ClearancePathfinder.OTHER_UNITS_BLOCK
	for i: int in units.size():
		var unit := units[i]
		unit.anchor = starts[i]
		unit.position = pathfinder.to_global(pathfinder.footprint_center(unit.anchor, unit.agent_size))
		pathfinder.add_unit(unit.id, unit.anchor, unit.agent_size)
	overlay.draw.connect(_draw_overlay)
	pathfinder.map_changed.connect(_replan_all)
	pathfinder.path_found.connect(_on_path_found)
	_select([0])
	# Opening orders: the scout slips through a one-cell door, the squad wades the river, the
	# truck squeezes through a two-cell gap, and the tank, too wide for both, goes the long way.
	_order(0, Vector2i(13, 16))
	_order(1, Vector2i(38, 15))
	_order(2, Vector2i(56, 21))
	_order(3, Vector2i(13, 15))  # inside the building: NO_PATH, shown on screen
	_order(3, Vector2i(55, 26))
	_update_status()


func _process(delta: float) -> void:
	for unit: Unit in units:
		var budget := SPEED * delta
		while budget > 0.0 and not unit.points.is_empty():
			var step := unit.position.distance_to(unit.points[0])
			if step <= budget:
				unit.position = unit.points[0]
				unit.points.remove_at(0)
				budget -= step
			else:
				unit.position = unit.position.move_toward(unit.points[0], budget)
				budget = 0.0
	_update_occupancy()
	_replan_blocked()
	overlay.queue_redraw()
	frame += 1
	if scripted_edits and frame == 5:
		for cell: Vector2i in [Vector2i(33, 6), Vector2i(33, 7)]:
			_toggle_wall(cell)
	if scripted_edits and frame == 60:
		var cell := Vector2i(33, 6)
		var built_on: int = terrain_under_walls.get(cell, -1)
		_toggle_wall(cell)
		print("demo: the wall at %s came down to terrain %d, built on %d" % [cell, pathfinder.get_cell_terrain(cell), built_on])
	if scripted_group_order and frame == 3:
		_select_box(Rect2(-1e6, -1e6, 2e6, 2e6))
		_order_selected(pathfinder.to_global(pathfinder.footprint_center(Vector2i(48, 28), 1)))
		pathfinder.debug_draw_units = true
	if scripted_blocker and frame == 10:
		_stop_in_the_way(units[4], units[0])
	if frame == SCREENSHOT_FRAME and screenshot_path != "":
		await RenderingServer.frame_post_draw
		var saved := get_viewport().get_texture().get_image().save_png(screenshot_path)
		print("demo: screenshot %s (%s)" % [screenshot_path, error_string(saved)])
	if quit_after_frames > 0 and frame >= quit_after_frames:
		get_tree().quit()


func _unhandled_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key and key.pressed and not key.echo:
		if key.keycode >= KEY_1 and key.keycode < KEY_1 + units.size():
			_select([key.keycode - KEY_1])
		elif key.keycode == KEY_H:
			pathfinder.debug_draw_clearance = not pathfinder.debug_draw_clearance
		elif key.keycode == KEY_U:
			pathfinder.debug_draw_units = not pathfinder.debug_draw_units
		elif key.keycode == KEY_F:
			_toggle_group_field()
		elif key.keycode == KEY_S:
			_toggle_smoothing()
		elif key.keycode == KEY_T:
			get_tree().change_scene_to_file("res://demo/tactics.tscn")
	if event is InputEventMouseMotion and dragging:
		overlay.queue_redraw()
	var click := event as InputEventMouseButton
	if click and click.pressed and click.button_index == MOUSE_BUTTON_RIGHT:
		_toggle_wall(pathfinder.local_to_cell(pathfinder.to_local(get_global_mouse_position())))
	if click and click.button_index == MOUSE_BUTTON_LEFT:
		var target := get_global_mouse_position()
		if click.pressed:
			drag_from = target
			dragging = true
			return
		dragging = false
		if drag_from.distance_to(target) > DRAG_THRESHOLD:
			_select_box(Rect2(drag_from, Vector2.ZERO).expand(target))
			return
		for i: int in units.size():
			if _body(units[i]).has_point(target):
				_select([i])
				return
		_order_selected(target)


func _select(indices: Array[int]) -> void:
	selected = indices
	pathfinder.debug_profile = units[indices[0]].profile
	_update_status()


## Selects the units whose bodies touch `box` (keeps the selection if there are none).
func _select_box(box: Rect2) -> void:
	var inside: Array[int] = []
	for i: int in units.size():
		if box.intersects(_body(units[i])):
			inside.append(i)
	if not inside.is_empty():
		_select(inside)


## Sends the selection towards `target` (a global position): one unit by one search; a group
## spread over arrival slots round the target cell, each member to its own in one call
## (find_paths_to_slots), with the units outside the group blocking.
func _order_selected(target: Vector2) -> void:
	if selected.size() == 1:
		_order_world(selected[0], target)
		return
	var cell := pathfinder.local_to_cell(pathfinder.to_local(target))
	if not pathfinder.region.has_point(cell):
		last_group_order = "%s is off the map" % cell
		_update_status()
		return
	var began := Time.get_ticks_usec()
	var members: Array[Dictionary] = []
	var group := PackedInt64Array()
	for i: int in selected:
		var unit := units[i]
		members.append({"id": unit.id, "anchor": unit.anchor, "agent_size": unit.agent_size, "profile": unit.profile})
		group.append(unit.id)
	var orders := pathfinder.find_paths_to_slots(cell, members)
	var slotted := 0
	var arrived := 0
	var anchors := 0
	var followed := 0
	for j: int in orders.size():
		var unit := units[selected[j]]
		var order := orders[j]
		unit.request = 0
		unit.group = group
		if not order.slot is Vector2i:
			unit.status = "group order: no free slot it can reach"
			continue
		slotted += 1
		if order.ok:
			unit.goal = order.slot
			unit.has_goal = true
			var way := _anchors_to_follow(order)
			_follow(unit, way)
			anchors += order.path.size()
			followed += way.size()
			unit.status = "group order: slot %s, cost %.2f" % [unit.goal, order.total_cost]
			arrived += 1
		else:
			unit.status = "group order: " + order.code
	group_target = cell
	_refresh_group_field()
	var elapsed := (Time.get_ticks_usec() - began) / 1000.0
	last_group_order = "%d units, %d slots, %.2f ms (%d with a path)" % [selected.size(), slotted, elapsed, arrived]
	print("demo: group order: %s; %d anchors on the paths, %d followed" % [last_group_order, anchors, followed])
	_update_status()


## Moves every unit whose nearest anchor changed on the occupancy layer, in one batch.
func _update_occupancy() -> void:
	var moves := {}
	for unit: Unit in units:
		var anchor := _anchor_at(unit.position, unit.agent_size)
		if anchor != unit.anchor:
			unit.anchor = anchor
			moves[unit.id] = anchor
	if not moves.is_empty():
		pathfinder.move_units(moves)


## Every unit whose next step or next two points would overlap a unit outside its group (one
## that stopped on its path after it planned) asks again, off the main thread, at most once per
## BLOCKED_RETRY_MS.
func _replan_blocked() -> void:
	var now := Time.get_ticks_msec()
	for unit: Unit in units:
		if unit.points.is_empty() or unit.request != 0 or now < unit.retry_at:
			continue
		var in_the_way := _unit_in_the_way(unit)
		if in_the_way < 0:
			continue
		var blocker := _unit_with_id(in_the_way).title
		unit.retry_at = now + BLOCKED_RETRY_MS
		unit.status = "blocked by %s: re-planning" % blocker
		unit.replan_reason = "round " + blocker
		print("demo: %s is blocked by %s and re-plans" % [unit.title, blocker])
		unit.request = pathfinder.request_path(unit.anchor, unit.goal, unit.agent_size, unit.profile,
			true, unit.id, unit.group)


## The id of a unit outside `unit`'s group that the footprint of its next step, or of its next
## two points, would overlap; -1 if none.
func _unit_in_the_way(unit: Unit) -> int:
	var heading := (unit.points[0] - unit.position).normalized()
	var ahead: Array[Vector2i] = [_anchor_at(unit.position + heading * pathfinder.cell_size.x, unit.agent_size)]
	for point: Vector2 in unit.points.slice(0, 2):
		ahead.append(_anchor_at(point, unit.agent_size))
	var exempt := unit.group.duplicate()
	exempt.append(unit.id)
	for anchor: Vector2i in ahead:
		if anchor != unit.anchor:
			var ids := pathfinder.get_units_at(anchor, unit.agent_size, exempt)
			if not ids.is_empty():
				return ids[0]
	return -1


## --scripted-blocker: `blocker` (1x1, as `walker`) stops on the anchor after the one `walker` is
## walking to, as a unit that arrived there after `walker` planned would.
func _stop_in_the_way(blocker: Unit, walker: Unit) -> void:
	var at := walker.points[mini(1, walker.points.size() - 1)]
	blocker.points.clear()
	blocker.has_goal = false
	blocker.anchor = _anchor_at(at, blocker.agent_size)
	blocker.position = pathfinder.to_global(pathfinder.footprint_center(blocker.anchor, blocker.agent_size))
	blocker.status = "stopped in %s's way" % walker.title
	pathfinder.move_unit(blocker.id, blocker.anchor)
	print("demo: %s stops at %s in %s's way" % [blocker.title, blocker.anchor, walker.title])


## Shows the flow field to the last group order's target for the lead unit of the selection,
## or hides it.
func _toggle_group_field() -> void:
	if pathfinder.debug_flow_field != null or group_target.x < 0:
		pathfinder.debug_flow_field = null
		return
	_show_group_field()


## Draws the field to the last group order's target for the selection's lead unit, for the
## map and units as they are now.
func _show_group_field() -> void:
	var lead := units[selected[0]]
	pathfinder.debug_flow_field = pathfinder.get_flow_field([group_target], lead.agent_size, lead.profile, INF, lead.group)


## A field on screen is a snapshot: after an edit or a new group order, it is drawn again.
func _refresh_group_field() -> void:
	if pathfinder.debug_flow_field != null and group_target.x >= 0:
		_show_group_field()


## The unit registered under `id`: the units are numbered from 1 in the order of `units`.
func _unit_with_id(id: int) -> Unit:
	return units[id - 1]


## The anchor of a unit of `agent_size` whose footprint centre is nearest to the global
## `position`.
func _anchor_at(position: Vector2, agent_size: int) -> Vector2i:
	var shift := pathfinder.cell_size * (agent_size - 1) / 2.0
	return pathfinder.local_to_cell(pathfinder.to_local(position) - shift)


## The anchors a unit walks through along `result`: its waypoints with smoothing, else its
## path.
func _anchors_to_follow(result: Dictionary) -> Array:
	return result.get("waypoints", result.path)


## Switches the pathfinder's smoothing; orders from now on follow it.
func _toggle_smoothing() -> void:
	var taut := pathfinder.smoothing == ClearancePathfinder.SMOOTHING_TAUT
	pathfinder.smoothing = ClearancePathfinder.SMOOTHING_OFF if taut else ClearancePathfinder.SMOOTHING_TAUT
	_update_status()


## Sets `unit` on its way along the anchors of `path`.
func _follow(unit: Unit, path: Array) -> void:
	unit.points.clear()
	for anchor: Vector2i in path:
		unit.points.append(pathfinder.to_global(pathfinder.footprint_center(anchor, unit.agent_size)))


## Sends unit `index` to the goal anchor `goal`.
func _order(index: int, goal: Vector2i) -> void:
	var unit := units[index]
	_order_world(index, pathfinder.to_global(pathfinder.footprint_center(goal, unit.agent_size)))


## Sends unit `index` so that its footprint centre ends near `target` (a global position).
func _order_world(index: int, target: Vector2) -> void:
	var unit := units[index]
	unit.group = PackedInt64Array()
	var result := pathfinder.find_path_world(unit.position, target, unit.agent_size, unit.profile, false, unit.id)
	unit.request = 0
	if result.ok:
		unit.goal = result.goal_anchor
		unit.has_goal = true
		unit.points = result.points
		unit.status = "OK, cost %.2f, %d steps" % [result.total_cost, result.path.size() - 1]
	else:
		unit.status = result.code
		if result.has("clearance_found"):
			unit.status += " (clearance %d, needs %d)" % [result.clearance_found, result.clearance_needed]
		if result.has("occupied_by"):
			unit.status += " (%s stands there)" % _unit_with_id(result.occupied_by).title
		last_refusal = "%s to %s: %s" % [unit.title, result.goal_anchor, unit.status]
		print("demo: refused: " + last_refusal)
	_update_status()


## Builds a wall on `cell`, or removes the wall there (back to the terrain it was built on);
## `map_changed` then re-plans the units. No wall goes up under a unit.
func _toggle_wall(cell: Vector2i) -> void:
	var terrain := pathfinder.get_cell_terrain(cell)
	if terrain < 0:
		return
	if terrain == WALL:
		pathfinder.set_cell_terrain(cell, terrain_under_walls.get(cell, GROUND))
		terrain_under_walls.erase(cell)
	else:
		var standing := pathfinder.get_units_at(cell, 1, PackedInt64Array())
		if not standing.is_empty():
			last_refusal = "wall at %s: %s stands there" % [cell, _unit_with_id(standing[0]).title]
			_update_status()
			return
		terrain_under_walls[cell] = terrain
		pathfinder.set_cell_terrain(cell, WALL)
	queue_redraw()


## Every unit still on its way asks again, from where it stands, on a worker thread, round the
## units outside its group; a goal cut off by the edit gives a partial path, as close as the
## unit can get.
func _replan_all(_rect: Rect2i) -> void:
	_refresh_group_field()
	for unit: Unit in units:
		if unit.has_goal and not unit.points.is_empty():
			unit.replan_reason = "after an edit"
			unit.request = pathfinder.request_path(unit.anchor, unit.goal, unit.agent_size, unit.profile,
				true, unit.id, unit.group)


func _on_path_found(id: int, result: Dictionary) -> void:
	for unit: Unit in units:
		if unit.request != id:
			continue
		unit.request = 0
		replans += 1
		if result.path.is_empty():
			unit.points.clear()
			unit.status = "%s after the map changed" % result.code
			break
		_follow(unit, _anchors_to_follow(result))
		unit.status = "re-planned %s: %s, cost %.2f" % [unit.replan_reason, result.code, result.total_cost]
		print("demo: %s re-planned %s: %s" % [unit.title, unit.replan_reason, result.code])
	_update_status()


func _update_status() -> void:
	var lines := PackedStringArray()
	for i: int in units.size():
		var unit := units[i]
		lines.append("%s %d %s (%dx%d %s): %s" % [
			">" if selected.has(i) else " ", i + 1, unit.title, unit.agent_size, unit.agent_size,
			unit.profile, unit.status])
	lines.append("Last refused order: " + last_refusal)
	lines.append("Last group order: " + last_group_order)
	var taut := pathfinder.smoothing == ClearancePathfinder.SMOOTHING_TAUT
	lines.append("Smoothing (S): " + ("taut waypoints" if taut else "off, grid paths"))
	status_label.text = "\n".join(lines)
	help_label.text = "\n".join([
		"Keys 1-6 or click a unit: select; drag a box: select a group.",
		"Click the map: send the selection; a group spreads over arrival slots.",
		"Right-click: build or remove a wall; units on the move re-plan.",
		"Units block each other; a unit that finds one in its way re-plans round it.",
		"H: heat map.  U: footprints.  F: group field.  S: smoothing.  T: tactics.",
		"Infantry wades: ground, road 1; swamp 1.5; water 2.",
		"Vehicles keep to land: ground 1; road 0.5; swamp 6.",
	])


func _body(unit: Unit) -> Rect2:
	var side := pathfinder.cell_size * unit.agent_size
	return Rect2(unit.position - side / 2.0, side)


func _draw() -> void:
	var region := pathfinder.region
	var data := pathfinder.get_terrain_data()
	for y: int in region.size.y:
		for x: int in region.size.x:
			var cell := region.position + Vector2i(x, y)
			var corner := pathfinder.cell_to_local(cell) - pathfinder.cell_size / 2.0
			var colour := TERRAIN_COLOURS[data[y * region.size.x + x]]
			draw_rect(Rect2(pathfinder.to_global(corner), pathfinder.cell_size), colour)


func _draw_overlay() -> void:
	var font := ThemeDB.fallback_font
	for i: int in units.size():
		var unit := units[i]
		var side := pathfinder.cell_size * unit.agent_size
		for point: Vector2 in unit.points:
			overlay.draw_rect(Rect2(point - side / 2.0, side), Color(unit.colour, 0.35), false, 1.0)
		if not unit.points.is_empty():
			var line := PackedVector2Array([unit.position])
			line.append_array(unit.points)
			overlay.draw_polyline(line, unit.colour, 2.0)
		var body := _body(unit).grow(-2.0)
		overlay.draw_rect(body, unit.colour)
		overlay.draw_rect(body, Color.WHITE if selected.has(i) else Color.BLACK, false, 2.0)
		overlay.draw_string(font, body.position + Vector2(2, -4), unit.title, HORIZONTAL_ALIGNMENT_LEFT, -1, 13)
	if dragging and drag_from.distance_to(get_global_mouse_position()) > DRAG_THRESHOLD:
		var box := Rect2(drag_from, Vector2.ZERO).expand(get_global_mouse_position())
		overlay.draw_rect(box, Color(1, 1, 1, 0.15))
		overlay.draw_rect(box, Color.WHITE, false, 1.0)


## The map: 62 x 32 cells of ground with a river (two bridges), roads, a walled building with a
## one-cell door, two swamps, and a wall with a two-cell gap.
func _build_terrain() -> void:
	var layout: Array[Array] = [
		[Rect2i(29, 0, 4, 32), WATER],
		[Rect2i(0, 6, 62, 2), ROAD],  # crosses the river on a two-cell bridge
		[Rect2i(22, 22, 25, 4), ROAD],  # and on a four-cell one
		[Rect2i(44, 6, 3, 20), ROAD],
		[Rect2i(8, 12, 11, 1), WALL],
		[Rect2i(8, 20, 11, 1), WALL],
		[Rect2i(8, 12, 1, 9), WALL],
		[Rect2i(18, 12, 1, 9), WALL],
		[Rect2i(18, 16, 1, 1), GROUND],  # the door
		[Rect2i(2, 24, 16, 7), SWAMP],
		[Rect2i(35, 10, 7, 9), SWAMP],
		[Rect2i(52, 10, 1, 22), WALL],
		[Rect2i(52, 19, 1, 2), GROUND],  # the gap
	]
	pathfinder.fill_rect_terrain(pathfinder.region, GROUND)
	for entry: Array in layout:
		if not pathfinder.fill_rect_terrain(entry[0], entry[1]):
			push_error("demo: bad terrain rectangle %s" % entry[0])
