extends SceneTree
## The live-map stress test: a 1024 x 1024 map, 2 worker threads, 200 path requests in flight
## at all times, and a 4 x 4 wall built or removed every frame for 600 frames. Every answer
## must equal find_path on the map as it was when the request was made (replayed afterwards
## on a second node), and the edit's time per frame is reported. Prints one line
## `STRESS {json}` and quits with status 0 if every answer matched, 1 otherwise.
##
##   godot --headless --path godot-project --script res://tests/live_map_stress.gd

const SIDE := 1024
const FRAMES := 600
const IN_FLIGHT := 200
const CheckBase := preload("res://tests/check_base.gd")
const GROUND := CheckBase.GROUND
const WALL := CheckBase.WALL
const REACH := 96
## Where the walls go up and come down, in turn: wall `f % size()` changes at frame `f`, so
## the map's state is which of them stand (a bit each).
const WALLS := [Vector2i(300, 500), Vector2i(500, 300), Vector2i(700, 500), Vector2i(500, 700)]

var rng := RandomNumberGenerator.new()
## What went wrong, for the STRESS line (a refused edit or map counts too).
var problems: Array[String] = []


func _initialize() -> void:
	rng.seed = 0x57E55
	_run.call_deferred()


func _run() -> void:
	var terrain := _terrain()
	var live := _pathfinder(terrain)
	live.worker_thread_count = 2
	var answers := {}
	live.path_found.connect(func(id: int, result: Dictionary) -> void: answers[id] = result)
	var asked := {}
	var standing := 0
	var edit_usec: Array[int] = []
	for frame: int in FRAMES:
		var wall := frame % WALLS.size()
		standing ^= 1 << wall
		var started := Time.get_ticks_usec()
		var built := live.fill_rect_terrain(_wall_rect(wall), WALL if standing & 1 << wall else GROUND)
		edit_usec.append(Time.get_ticks_usec() - started)
		if not built:
			problems.append("frame %d: the wall edit was refused" % frame)
		while live.get_pending_request_count() < IN_FLIGHT:
			var query := _query()
			asked[live.request_path(query[0], query[1], 1, &"unit")] = [query[0], query[1], standing]
		await process_frame
	var waited := 0
	while live.get_pending_request_count() > 0 and waited < 6000:
		await process_frame
		waited += 1

	if live.get_pending_request_count() > 0:
		problems.append("%d requests still pending" % live.get_pending_request_count())
	var replay := _pathfinder(terrain)
	var checked := 0
	for state: int in 1 << WALLS.size():
		for wall: int in WALLS.size():
			replay.fill_rect_terrain(_wall_rect(wall), WALL if state & 1 << wall else GROUND)
		for id: int in asked:
			var request: Array = asked[id]
			if request[2] != state or not answers.has(id):
				continue
			var expected := replay.find_path(request[0], request[1], 1, &"unit")
			checked += 1
			if answers[id] != expected and problems.size() < 10:
				problems.append("request %d (%s -> %s, walls %d): %s, find_path says %s" % [id, request[0], request[1], state, answers[id].get("code"), expected.get("code")])
	if answers.size() != asked.size():
		problems.append("%d of %d requests answered" % [answers.size(), asked.size()])
	edit_usec.sort()
	var mean := 0.0
	for usec: int in edit_usec:
		mean += usec
	mean /= edit_usec.size()
	var receipt := {
		"frames": FRAMES, "requests": asked.size(), "answered": answers.size(), "checked": checked,
		"mismatches": problems.size(), "problems": problems,
		"edit_ms_mean": mean / 1000.0,
		"edit_ms_p99": edit_usec[int(edit_usec.size() * 0.99)] / 1000.0,
		"edit_ms_worst": edit_usec[-1] / 1000.0,
	}
	print("STRESS " + JSON.stringify(receipt))
	live.free()
	replay.free()
	quit(0 if problems.is_empty() and checked > 0 else 1)


func _wall_rect(wall: int) -> Rect2i:
	return Rect2i(WALLS[wall], Vector2i(4, 4))


## Ground with one cell in twelve a wall, the same for both nodes; where the walls go up and
## come down starts as ground, as it is whenever they are down.
func _terrain() -> PackedByteArray:
	var data := PackedByteArray()
	data.resize(SIDE * SIDE)
	data.fill(GROUND)
	@warning_ignore("integer_division")
	var walls: int = SIDE * SIDE / 12
	for i: int in walls:
		data[rng.randi_range(0, SIDE * SIDE - 1)] = WALL
	for wall: int in WALLS.size():
		var rect := _wall_rect(wall)
		for y: int in range(rect.position.y, rect.end.y):
			for x: int in range(rect.position.x, rect.end.x):
				data[y * SIDE + x] = GROUND
	return data


func _pathfinder(terrain: PackedByteArray) -> ClearancePathfinder:
	var pathfinder := ClearancePathfinder.new()
	root.add_child(pathfinder)
	pathfinder.region = Rect2i(0, 0, SIDE, SIDE)
	if not pathfinder.load_terrain(terrain):
		problems.append("load_terrain refused the stress map")
	pathfinder.set_profile(&"unit", {GROUND: 1.0})
	return pathfinder


## A start anywhere and a goal at most REACH cells away on each axis, kept on the map.
func _query() -> Array[Vector2i]:
	var start := Vector2i(rng.randi_range(0, SIDE - 1), rng.randi_range(0, SIDE - 1))
	var goal := start + Vector2i(rng.randi_range(-REACH, REACH), rng.randi_range(-REACH, REACH))
	var pair: Array[Vector2i] = [start, goal.clamp(Vector2i.ZERO, Vector2i(SIDE - 1, SIDE - 1))]
	return pair
