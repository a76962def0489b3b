extends Node2D
## Tactics demo: two teams take turns; each unit (1x1, 2x2 or 3x3) moves once a turn with its
## movement points. Click one of your units to see its movement range (get_movement_range),
## tinted by cost: where its footprint's centre can stop. Hover to see the way there and its
## cost (get_path_to), click to move. Enemies block (OTHER_UNITS_BLOCK); allies may be passed
## but not stopped on. Forest costs a 3x3 tank more than a soldier, so its range there is
## smaller. Space ends the turn, D toggles the node's own debug tint of the last range, Esc
## returns to the main demo.
##
## Command-line user args (after `--`): `--scripted-turn` plays blue's turn by itself (each unit
## to the dearest anchor in its range), checks it and quits, printing `tactics: scripted turn OK`.

const GROUND := 0
const FOREST := 1
const ROAD := 2
const WALL := 3
const TERRAIN_COLOURS: Array[Color] = [Color("6b8f47"), Color("2f5a2a"), Color("c9b48a"), Color("34343c")]
const TEAM_COLOURS: Array[Color] = [Color("4aa8ff"), Color("ff5a4a")]
const TEAM_NAMES: Array[String] = ["Blue", "Red"]
const SPEED := 240.0


class Unit:
	var id: int
	var title: String
	var team: int
	var agent_size: int
	var profile: StringName
	var moves: float
	var anchor: Vector2i
	var position := Vector2.ZERO
	var points := PackedVector2Array()
	var moved := false

	func _init(unit_id: int, unit_title: String, side: int, size: int, profile_name: StringName, points_per_turn: float, at: Vector2i) -> void:
		id = unit_id
		title = unit_title
		team = side
		agent_size = size
		profile = profile_name
		moves = points_per_turn
		anchor = at


@onready var pathfinder: ClearancePathfinder = $Pathfinder
@onready var overlay: Node2D = $Overlay
@onready var status_label: Label = $Hud/Status

var units: Array[Unit] = []
var team := 0
var selected: Unit = null
var area: ClearanceMovementRange = null
var hover_points := PackedVector2Array()
var hover_cost := 0.0
var turn := 1
var scripted := false


func _ready() -> void:
	scripted = OS.get_cmdline_user_args().has("--scripted-turn")
	pathfinder.fill_rect_terrain(pathfinder.region, GROUND)
	pathfinder.fill_rect_terrain(Rect2i(9, 1, 9, 11), FOREST)
	pathfinder.fill_rect_terrain(Rect2i(0, 13, 32, 3), ROAD)
	pathfinder.fill_rect_terrain(Rect2i(22, 3, 6, 1), WALL)
	pathfinder.fill_rect_terrain(Rect2i(22, 3, 1, 7), WALL)
	pathfinder.set_profile(&"foot", {GROUND: 1.0, FOREST: 2.0, ROAD: 1.0})
	pathfinder.set_profile(&"tracks", {GROUND: 1.0, FOREST: 3.0, ROAD: 0.5})
	pathfinder.other_units = ClearancePathfinder.OTHER_UNITS_BLOCK
	units = [
		Unit.new(1, "Soldier", 0, 1, &"foot", 6.0, Vector2i(11, 4)),
		Unit.new(2, "Squad", 0, 2, &"foot", 5.0, Vector2i(4, 7)),
		Unit.new(3, "Tank", 0, 3, &"tracks", 7.0, Vector2i(12, 6)),
		Unit.new(4, "Raider", 1, 1, &"foot", 6.0, Vector2i(27, 6)),
		Unit.new(5, "Heavy", 1, 3, &"tracks", 7.0, Vector2i(25, 10)),
	]
	for unit: Unit in units:
		pathfinder.add_unit(unit.id, unit.anchor, unit.agent_size)
		unit.position = _centre(unit.anchor, unit.agent_size)
	overlay.draw.connect(_draw_overlay)
	_update_status()
	if scripted:
		_scripted_turn.call_deferred()


func _process(delta: float) -> void:
	for unit: Unit in units:
		if not unit.points.is_empty():
			unit.position = unit.position.move_toward(unit.points[0], SPEED * delta)
			if unit.position == unit.points[0]:
				unit.points.remove_at(0)
	overlay.queue_redraw()


func _unhandled_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key and key.pressed and not key.echo:
		if key.keycode == KEY_SPACE:
			_end_turn()
		elif key.keycode == KEY_D:
			pathfinder.debug_draw_last_range = not pathfinder.debug_draw_last_range
		elif key.keycode == KEY_ESCAPE:
			get_tree().change_scene_to_file("res://demo/demo.tscn")
	if event is InputEventMouseMotion and selected != null:
		_hover(_anchor_at(get_global_mouse_position(), selected.agent_size))
	var click := event as InputEventMouseButton
	if click and click.pressed and click.button_index == MOUSE_BUTTON_LEFT and not _busy():
		var clicked := _unit_at(get_global_mouse_position())
		if clicked != null and clicked.team == team and not clicked.moved:
			_select(clicked)
		elif selected != null:
			_move_to(_anchor_at(get_global_mouse_position(), selected.agent_size))


## Shows the range of `unit`: its allies may be passed, the other team blocks.
func _select(unit: Unit) -> void:
	selected = unit
	var allies := PackedInt64Array()
	for other: Unit in units:
		if other.team == unit.team and other != unit:
			allies.append(other.id)
	area = pathfinder.get_movement_range(unit.anchor, unit.agent_size, unit.profile, unit.moves, 1, unit.id, allies)
	hover_points.clear()
	_update_status()


## The way to `anchor` and its cost, if the selected unit can stop there.
func _hover(anchor: Vector2i) -> void:
	hover_points.clear()
	if area == null or not area.is_in_range(anchor):
		return
	var way := area.get_path_to(anchor)
	hover_cost = way.total_cost
	for step: Vector2i in way.path:
		hover_points.append(_centre(step, selected.agent_size))


## Sends the selected unit to `anchor` if it is in range; it has moved for this turn.
func _move_to(anchor: Vector2i) -> bool:
	if area == null or not area.is_in_range(anchor):
		return false
	var unit := selected
	_hover(anchor)
	unit.points = hover_points.duplicate()
	unit.anchor = anchor
	unit.moved = true
	pathfinder.move_unit(unit.id, anchor)
	print("tactics: %s to %s, cost %.2f of %.1f" % [unit.title, anchor, hover_cost, unit.moves])
	selected = null
	area = null
	hover_points.clear()
	if units.all(func(other: Unit) -> bool: return other.team != team or other.moved):
		_end_turn()
	_update_status()
	return true


func _end_turn() -> void:
	team = 1 - team
	turn += 1
	selected = null
	area = null
	hover_points.clear()
	for unit: Unit in units:
		unit.moved = false
	_update_status()


func _busy() -> bool:
	return units.any(func(unit: Unit) -> bool: return not unit.points.is_empty())


func _centre(anchor: Vector2i, size: int) -> Vector2:
	return pathfinder.to_global(pathfinder.footprint_center(anchor, size))


## The anchor of a unit of `size` whose footprint centre is nearest to the global `position`.
func _anchor_at(at: Vector2, size: int) -> Vector2i:
	return pathfinder.local_to_cell(pathfinder.to_local(at) - pathfinder.cell_size * (size - 1) / 2.0)


func _unit_at(at: Vector2) -> Unit:
	for unit: Unit in units:
		if _body(unit).has_point(at):
			return unit
	return null


func _body(unit: Unit) -> Rect2:
	var side := pathfinder.cell_size * unit.agent_size
	return Rect2(unit.position - side / 2.0, side)


func _update_status() -> void:
	var lines := PackedStringArray(["Turn %d: %s to play. Click a unit, then a tinted cell; Space ends the turn, Esc: main demo." % [turn, TEAM_NAMES[team]]])
	for unit: Unit in units:
		lines.append("%s %s %s (%dx%d %s, %.0f points)%s" % [">" if unit == selected else " ", TEAM_NAMES[unit.team],
			unit.title, unit.agent_size, unit.agent_size, unit.profile, unit.moves, " moved" if unit.moved else ""])
	if area != null:
		lines.append("%s can stop on %d anchors." % [selected.title, area.get_cells().size()])
	status_label.text = "\n".join(lines)


func _draw() -> void:
	var region := pathfinder.region
	var data := pathfinder.get_terrain_data()
	for y: int in region.size.y:
		for x: int in region.size.x:
			var corner := pathfinder.cell_to_local(Vector2i(x, y)) - pathfinder.cell_size / 2.0
			draw_rect(Rect2(pathfinder.to_global(corner), pathfinder.cell_size), TERRAIN_COLOURS[data[y * region.size.x + x]])


func _draw_overlay() -> void:
	var cell := pathfinder.cell_size
	if area != null:
		for anchor: Vector2i in area.get_cells():
			var warmth := area.get_cost(anchor) / maxf(area.get_budget(), 0.001)
			var tint := Color.from_hsv(0.6 * (1.0 - warmth), 0.8, 1.0, 0.45)
			overlay.draw_rect(Rect2(_centre(anchor, selected.agent_size) - cell / 2.0, cell), tint)
	if hover_points.size() > 1:
		overlay.draw_polyline(hover_points, Color.WHITE, 3.0)
		overlay.draw_string(ThemeDB.fallback_font, hover_points[hover_points.size() - 1] + Vector2(8, -8), "%.2f" % hover_cost)
	for unit: Unit in units:
		var body := _body(unit).grow(-3.0)
		overlay.draw_rect(body, TEAM_COLOURS[unit.team].darkened(0.4 if unit.moved else 0.0))
		overlay.draw_rect(body, Color.WHITE if unit == selected else Color.BLACK, false, 2.0)
		overlay.draw_string(ThemeDB.fallback_font, body.position + Vector2(2, 14), unit.title, HORIZONTAL_ALIGNMENT_LEFT, -1, 12)


## Blue's turn, played and checked: in the forest the tank reaches fewer anchors than the
## soldier; every range keeps off the enemies; each unit goes to the dearest anchor in its
## range, along a path that costs what the range says; then it is red's turn.
func _scripted_turn() -> void:
	var problems: Array[String] = []
	var reached := {}
	for unit: Unit in units.filter(func(other: Unit) -> bool: return other.team == 0):
		_select(unit)
		if area == null:
			problems.append("%s has no range" % unit.title)
			continue
		reached[unit.title] = area.get_cells().size()
		var target := unit.anchor
		for anchor: Vector2i in area.get_cells():
			if area.get_cost(anchor) > area.get_cost(target):
				target = anchor
			for enemy: Unit in units:
				if enemy.team != unit.team and _overlap(anchor, unit.agent_size, enemy.anchor, enemy.agent_size):
					problems.append("%s could stop on %s, on %s" % [unit.title, anchor, enemy.title])
		var cost := area.get_cost(target)
		_hover(target)
		if cost > unit.moves or absf(hover_cost - cost) > 1e-6 * unit.moves:
			problems.append("%s: %s costs %.3f, its path %.3f, of %.1f" % [unit.title, target, cost, hover_cost, unit.moves])
		if not _move_to(target) or pathfinder.get_unit_anchor(unit.id) != target:
			problems.append("%s did not move to %s" % [unit.title, target])
	if reached.get("Tank", 0) >= reached.get("Soldier", 0):
		problems.append("in the forest the tank reaches %d anchors, the soldier %d" % [reached.get("Tank", 0), reached.get("Soldier", 0)])
	if team != 1:
		problems.append("blue's turn did not pass to red")
	if problems.is_empty():
		print("tactics: scripted turn OK: blue moved 3 units (anchors in range: %s), red to play" % reached)
	else:
		push_error("tactics: scripted turn FAILED: " + "; ".join(problems))
	get_tree().quit(0 if problems.is_empty() else 1)


func _overlap(a: Vector2i, a_size: int, b: Vector2i, b_size: int) -> bool:
	return a.x < b.x + b_size and b.x < a.x + a_size and a.y < b.y + b_size and b.y < a.y + a_size
