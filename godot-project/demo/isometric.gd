extends Node2D
## Isometric demo: a 2x2 truck and a 1x1 scout on a TileMapLayer of diamonds (TileSet
## TILE_SHAPE_ISOMETRIC, TILE_LAYOUT_DIAMOND_DOWN, 64 x 32 tiles). The pathfinder takes the
## layer's terrain (import_tile_map_layer) and its layout (match_tile_map_layer), so its cells
## are the layer's tiles. A wall crosses the map with a one-tile door and a two-tile gate: the
## scout follows find_path_world's points through the door, the truck, too wide for it, is
## steered through the gate by a flow field (get_direction_world). Each unit's footprint is
## outlined from the layer's own map_to_local(), so a body off its diamond would show. A click
## sends the scout there; S turns smoothing on or off (the scout then follows waypoints, and the
## field steers the truck towards them), sending both again. Esc returns to the main demo.
##
## Command-line user args (after `--`): `--quit-after-frames=N`, `--screenshot=PATH`,
## `--smooth` (starts with smoothing on), `--scripted` (fixed time steps; checks that the
## footprint centres are the layer's, that the truck stands on anchors its field reached and
## that both units arrive, and quits, printing `isometric: scripted walk OK` and how far the
## truck walked, with status 1 if not).

const GROUND := 0
const WALL := 1
const WATER := 2
const TILE_COLOURS: Array[Color] = [Color("7aa35a"), Color("3a3a44"), Color("3f7fc0")]
const TILE_SIZE := Vector2i(64, 32)
## '.' ground, '#' wall, '~' water.
const ROWS: Array[String] = [
	"................",
	"................",
	"......~~~.......",
	".....~~~~~......",
	"......~~~.......",
	"................",
	"................",
	"###.#######..###",
	"................",
	"................",
	"..........~~....",
	".........~~~~...",
	"..........~~....",
	"................",
	"................",
	"................",
]
const SPEED := 150.0
const SCREENSHOT_FRAME := 70


class Unit:
	var title: String
	var agent_size: int
	var colour: Color
	var position: Vector2
	var goal: Vector2i
	var points := PackedVector2Array()
	var arrived := false
	## How far it has been steered, in pixels.
	var steered := 0.0

	func _init(unit_title: String, size: int, body_colour: Color) -> void:
		title = unit_title
		agent_size = size
		colour = body_colour


@onready var layer: TileMapLayer = $Tiles
@onready var pathfinder: ClearancePathfinder = $Pathfinder
@onready var overlay: Node2D = $Overlay
@onready var status_label: Label = $Hud/Status

var scout := Unit.new("Scout", 1, Color("ffd24a"))
var truck := Unit.new("Truck", 2, Color("7fe3ff"))
var field: ClearanceFlowField = null
var frame := 0
var quit_after_frames := -1
var screenshot_path := ""
var scripted := false
var problems: Array[String] = []
var last_refusal := "none yet"


func _ready() -> void:
	for arg: String in OS.get_cmdline_user_args():
		if arg.begins_with("--quit-after-frames="):
			quit_after_frames = int(arg.get_slice("=", 1))
		elif arg.begins_with("--screenshot="):
			screenshot_path = arg.get_slice("=", 1)
		elif arg == "--scripted":
			scripted = true
		elif arg == "--smooth":
			pathfinder.smoothing = ClearancePathfinder.SMOOTHING_TAUT
	layer.tile_set = _tile_set()
	for y: int in ROWS.size():
		for x: int in ROWS[y].length():
			layer.set_cell(Vector2i(x, y), 0, Vector2i(".#~".find(ROWS[y][x]), 0))
	pathfinder.set_profile(&"walker", {GROUND: 1.0})
	if not (pathfinder.import_tile_map_layer(layer, "terrain") and pathfinder.match_tile_map_layer(layer)):
		problems.append("the layer was not taken")
	pathfinder.debug_draw_last_path = true
	_place(scout, Vector2i(1, 1))
	_place(truck, Vector2i(2, 3))
	_check_centres()
	_send_scout(Vector2i(3, 14))
	_send_truck(Vector2i(1, 14))
	overlay.draw.connect(_draw_overlay)
	_update_status()


## A TileSet of isometric diamonds, one tile per terrain, with an int custom data layer
## "terrain"; the tiles' texture is drawn here.
func _tile_set() -> TileSet:
	var tile_set := TileSet.new()
	tile_set.tile_shape = TileSet.TILE_SHAPE_ISOMETRIC
	tile_set.tile_layout = TileSet.TILE_LAYOUT_DIAMOND_DOWN
	tile_set.tile_size = TILE_SIZE
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(0, "terrain")
	tile_set.set_custom_data_layer_type(0, TYPE_INT)
	var image := Image.create_empty(TILE_SIZE.x * TILE_COLOURS.size(), TILE_SIZE.y, false, Image.FORMAT_RGBA8)
	var half := Vector2(TILE_SIZE) / 2.0
	for terrain: int in TILE_COLOURS.size():
		for y: int in TILE_SIZE.y:
			for x: int in TILE_SIZE.x:
				var reach := absf(x + 0.5 - half.x) / half.x + absf(y + 0.5 - half.y) / half.y
				if reach <= 1.0:
					var colour := TILE_COLOURS[terrain].darkened(0.25 if reach > 0.9 else 0.0)
					image.set_pixel(terrain * TILE_SIZE.x + x, y, colour)
	var atlas := TileSetAtlasSource.new()
	atlas.texture = ImageTexture.create_from_image(image)
	atlas.texture_region_size = TILE_SIZE
	tile_set.add_source(atlas, 0)
	for terrain: int in TILE_COLOURS.size():
		atlas.create_tile(Vector2i(terrain, 0))
		atlas.get_tile_data(Vector2i(terrain, 0), 0).set_custom_data("terrain", terrain)
	return tile_set


func _place(unit: Unit, anchor: Vector2i) -> void:
	unit.position = pathfinder.to_global(pathfinder.footprint_center(anchor, unit.agent_size))


## Where the layer itself centres the footprint of `size` at `anchor`: the mean of its
## tiles' map_to_local(), in global coordinates.
func _layer_centre(anchor: Vector2i, size: int) -> Vector2:
	var sum := Vector2.ZERO
	for y: int in size:
		for x: int in size:
			sum += layer.map_to_local(anchor + Vector2i(x, y))
	return layer.to_global(sum / float(size * size))


## Every footprint centre of both sizes on the map is the layer's.
func _check_centres() -> void:
	for size: int in [1, 2]:
		for y: int in ROWS.size() - size + 1:
			for x: int in ROWS[0].length() - size + 1:
				var anchor := Vector2i(x, y)
				var ours := pathfinder.to_global(pathfinder.footprint_center(anchor, size))
				if ours.distance_to(_layer_centre(anchor, size)) > 1e-3:
					problems.append("%dx%d at %s: %s, the layer says %s" % [size, size, anchor, ours, _layer_centre(anchor, size)])


## Sends the scout to `goal`; where it finds no way, it keeps its last order and the status
## line says why.
func _send_scout(goal: Vector2i) -> void:
	var target := pathfinder.to_global(pathfinder.footprint_center(goal, 1))
	var result := pathfinder.find_path_world(scout.position, target, 1, &"walker")
	if not result.ok:
		last_refusal = "the scout found no way to %s: %s" % [goal, result.code]
		problems.append(last_refusal)
		_update_status()
		return
	scout.goal = goal
	scout.arrived = false
	scout.points = result.points


## The truck follows a flow field to `goal`; its path is only drawn (the node's last path).
func _send_truck(goal: Vector2i) -> void:
	field = pathfinder.get_flow_field([goal], 2, &"walker")
	truck.goal = goal
	var target := pathfinder.to_global(pathfinder.footprint_center(goal, 2))
	var result := pathfinder.find_path_world(truck.position, target, 2, &"walker")
	if not (field.is_ok() and result.ok):
		problems.append("the truck found no way to %s: %s" % [goal, field.get_code()])


func _process(delta: float) -> void:
	var step := SPEED * (1.0 / 60.0 if scripted else delta)
	_walk_points(scout, step)
	_steer(truck, step)
	overlay.queue_redraw()
	_update_status()
	frame += 1
	if frame == SCREENSHOT_FRAME and screenshot_path != "":
		await RenderingServer.frame_post_draw
		var saved := get_viewport().get_texture().get_image().save_png(screenshot_path)
		print("isometric: screenshot %s (%s)" % [screenshot_path, error_string(saved)])
	if scripted and scout.arrived and truck.arrived:
		_finish()
	elif quit_after_frames > 0 and frame >= quit_after_frames:
		if scripted:
			problems.append("after %d frames: scout arrived %s, truck arrived %s" % [frame, scout.arrived, truck.arrived])
			_finish()
		else:
			get_tree().quit()


func _walk_points(unit: Unit, budget: float) -> void:
	while budget > 0.0 and not unit.points.is_empty():
		var step := unit.position.distance_to(unit.points[0])
		if step <= budget:
			unit.position = unit.points[0]
			unit.points.remove_at(0)
			budget -= step
		else:
			unit.position = unit.position.move_toward(unit.points[0], budget)
			budget = 0.0
	unit.arrived = unit.points.is_empty() and pathfinder.local_to_cell(pathfinder.to_local(unit.position)) == unit.goal


## Moves `unit` along the flow field's direction; the last stretch snaps onto the goal's centre.
func _steer(unit: Unit, budget: float) -> void:
	if field == null or unit.arrived:
		return
	var goal_centre := pathfinder.to_global(pathfinder.footprint_center(unit.goal, unit.agent_size))
	if unit.position.distance_to(goal_centre) <= budget:
		unit.position = goal_centre
		unit.arrived = true
		return
	var move := field.get_direction_world(unit.position) * budget
	unit.position += move
	unit.steered += move.length()
	var anchor := _anchor_nearest(unit.position, unit.agent_size)
	if scripted and not field.is_reached(anchor):
		problems.append("frame %d: the %s stands on %s, which its field did not reach" % [frame, unit.title, anchor])


func _finish() -> void:
	if problems.is_empty():
		print("isometric: scripted walk OK (scout at %s, truck at %s; the truck walked %.0f px)" % [scout.goal, truck.goal, truck.steered])
	for problem: String in problems:
		print("isometric: FAILED: " + problem)
	get_tree().quit(0 if problems.is_empty() else 1)


func _unhandled_input(event: InputEvent) -> void:
	var key := event as InputEventKey
	if key and key.pressed and key.keycode == KEY_ESCAPE:
		get_tree().change_scene_to_file("res://demo/demo.tscn")
	elif key and key.pressed and not key.echo and key.keycode == KEY_S:
		var taut := pathfinder.smoothing == ClearancePathfinder.SMOOTHING_TAUT
		pathfinder.smoothing = ClearancePathfinder.SMOOTHING_OFF if taut else ClearancePathfinder.SMOOTHING_TAUT
		_send_scout(scout.goal)
		truck.arrived = false
		_send_truck(truck.goal)
	var click := event as InputEventMouseButton
	if click and click.pressed and click.button_index == MOUSE_BUTTON_LEFT:
		_send_scout(pathfinder.local_to_cell(pathfinder.to_local(get_global_mouse_position())))


## Each unit: its footprint's diamond from the layer's own tiles, and its body at its position
## (the pathfinder's footprint centre while it stands on an anchor).
func _draw_overlay() -> void:
	for unit: Unit in [scout, truck]:
		var diamond := _diamond_of(unit.position, unit.agent_size)
		overlay.draw_colored_polygon(diamond, unit.colour * Color(1, 1, 1, 0.35))
		overlay.draw_polyline(diamond + PackedVector2Array([diamond[0]]), unit.colour, 2.0)
		overlay.draw_circle(unit.position, 8.0 * unit.agent_size, unit.colour)
		overlay.draw_arc(unit.position, 8.0 * unit.agent_size, 0.0, TAU, 32, Color.BLACK, 2.0)


## The diamond the layer's tiles make for the footprint of `size` whose centre is nearest to
## the global `at`.
func _diamond_of(at: Vector2, size: int) -> PackedVector2Array:
	var half := Vector2(TILE_SIZE) / 2.0
	var cell := _anchor_nearest(at, size)
	var corner := size - 1
	return PackedVector2Array([
		layer.to_global(layer.map_to_local(cell) - Vector2(0, half.y)),
		layer.to_global(layer.map_to_local(cell + Vector2i(corner, 0)) + Vector2(half.x, 0)),
		layer.to_global(layer.map_to_local(cell + Vector2i(corner, corner)) + Vector2(0, half.y)),
		layer.to_global(layer.map_to_local(cell + Vector2i(0, corner)) - Vector2(half.x, 0)),
	])


## The anchor of the footprint of `size` whose centre is nearest to the global `at`. In the
## DIAMOND_DOWN layout a k x k footprint's centre lies (k - 1) / 2 tiles straight below its
## anchor's centre, so the anchor is the tile that far above.
func _anchor_nearest(at: Vector2, size: int) -> Vector2i:
	return layer.local_to_map(layer.to_local(at) - Vector2(0, TILE_SIZE.y / 2.0 * (size - 1)))


func _update_status() -> void:
	var lines: Array[String] = [
		"Clearance Pathfinder on an isometric TileMapLayer (diamonds 64 x 32, match_tile_map_layer): cell_shape %d" % pathfinder.cell_shape,
		"Scout (1x1, yellow): find_path_world through the one-tile door%s" % (", arrived" if scout.arrived else ""),
		"Truck (2x2, cyan): steered by a flow field's get_direction_world%s through the two-tile gate%s" % [" towards its waypoints" if pathfinder.smoothing == ClearancePathfinder.SMOOTHING_TAUT else "", ", arrived" if truck.arrived else ""],
		"Outlines: each footprint's diamond from the layer's map_to_local; blue: the node's last path (the truck's, until a click sends the scout).",
		"Click: send the scout. S: smoothing (%s). Esc: main demo." % ("on" if pathfinder.smoothing == ClearancePathfinder.SMOOTHING_TAUT else "off"),
		"Last refused order: " + last_refusal,
	]
	status_label.text = "\n".join(lines)
