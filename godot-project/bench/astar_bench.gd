extends SceneTree
## Godot's AStarGrid2D against ClearancePathfinder on the Moving AI benchmark maps, both called
## from GDScript in one headless run, on the same queries:
##
##   godot --headless --path godot-project --script res://bench/astar_bench.gd -- --movingai=DIR [--rounds=3] [--landmarks=8]
##
## AStarGrid2D runs as configured in ../shared/ANCHORS.md: DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES,
## octile compute and estimate heuristics, jumping off. Both engines' path costs are checked
## against the published optimal lengths. Prints a Markdown table; exits 1 on any mismatch.

const MAPS: Array[String] = ["arena", "arena2", "AR0011SR", "maze-100-1", "random-100-33"]
const OPEN: int = 0
const BLOCKED: int = 1


func _initialize() -> void:
	var directory: String = _argument("movingai", "")
	var rounds: int = int(_argument("rounds", "3"))
	var landmarks: int = int(_argument("landmarks", "8"))
	if directory.is_empty() or not DirAccess.dir_exists_absolute(directory):
		push_error("pass --movingai=DIR, the folder with the Moving AI maps (got '%s')" % directory)
		quit(2)
		return
	print("| map | queries | AStarGrid2D us/query | ClearancePathfinder us/query | speed-up | with %d landmarks us/query | speed-up | mismatches |" % landmarks)
	print("|---|---|---|---|---|---|---|---|")
	var failures: int = 0
	for name: String in MAPS:
		failures += _bench_map(directory.path_join(name + ".map"), directory.path_join(name + ".map.scen"), name, rounds, landmarks)
	quit(1 if failures > 0 else 0)


func _bench_map(map_path: String, scen_path: String, name: String, rounds: int, landmarks: int) -> int:
	var lines: PackedStringArray = FileAccess.get_file_as_string(map_path).split("\n")
	var height: int = 0
	var width: int = 0
	var row: int = 0
	while not lines[row].begins_with("map"):
		var words: PackedStringArray = lines[row].split(" ")
		if words[0] == "height":
			height = int(words[1])
		elif words[0] == "width":
			width = int(words[1])
		row += 1
	var terrain := PackedByteArray()
	terrain.resize(width * height)
	for y: int in height:
		var text: String = lines[row + 1 + y]
		for x: int in width:
			terrain[y * width + x] = OPEN if ".GS".contains(text[x]) else BLOCKED

	var astar := AStarGrid2D.new()
	astar.region = Rect2i(0, 0, width, height)
	astar.cell_size = Vector2(1, 1)
	astar.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES
	astar.default_compute_heuristic = AStarGrid2D.HEURISTIC_OCTILE
	astar.default_estimate_heuristic = AStarGrid2D.HEURISTIC_OCTILE
	astar.jumping_enabled = false
	astar.update()
	for index: int in terrain.size():
		if terrain[index] == BLOCKED:
			astar.set_point_solid(Vector2i(index % width, index / width), true)

	var plain: Node = _pathfinder(width, height, terrain, 0)
	var with_landmarks: Node = _pathfinder(width, height, terrain, landmarks)

	var starts: Array[Vector2i] = []
	var goals: Array[Vector2i] = []
	var optimal: PackedFloat64Array = []
	for line: String in FileAccess.get_file_as_string(scen_path).split("\n").slice(1):
		var fields: PackedStringArray = line.replace("\t", " ").split(" ", false)
		if fields.size() < 9:
			continue
		starts.append(Vector2i(int(fields[4]), int(fields[5])))
		goals.append(Vector2i(int(fields[6]), int(fields[7])))
		optimal.append(float(fields[8]))

	var mismatches: int = 0
	for i: int in starts.size():
		var astar_length: float = _length(astar.get_id_path(starts[i], goals[i]))
		var ours: Dictionary = plain.find_path(starts[i], goals[i], 1, &"movingai")
		var ours_landmarks: Dictionary = with_landmarks.find_path(starts[i], goals[i], 1, &"movingai")
		for found: float in [astar_length, float(ours["total_cost"]), float(ours_landmarks["total_cost"])]:
			if absf(found - optimal[i]) > 0.005:
				mismatches += 1

	var astar_us: float = _time_astar(astar, starts, goals, rounds)
	var ours_us: float = _time_pathfinder(plain, starts, goals, rounds)
	var landmarks_us: float = _time_pathfinder(with_landmarks, starts, goals, rounds)
	print("| %s | %d | %.1f | %.1f | %.1fx | %.1f | %.1fx | %d |" % [name, starts.size(), astar_us, ours_us, astar_us / ours_us, landmarks_us, astar_us / landmarks_us, mismatches])
	plain.free()
	with_landmarks.free()
	return mismatches


func _pathfinder(width: int, height: int, terrain: PackedByteArray, landmarks: int) -> Node:
	var finder: Node = ClassDB.instantiate(&"ClearancePathfinder")
	finder.region = Rect2i(0, 0, width, height)
	finder.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES
	finder.load_terrain(terrain)
	finder.set_profile(&"movingai", {OPEN: 1.0})
	if landmarks > 0:
		finder.landmark_count = landmarks
		finder.bake_landmarks(&"movingai")
	# Build layers outside the timed loop, as AStarGrid2D.update() is.
	finder.find_path(Vector2i.ZERO, Vector2i.ZERO, 1, &"movingai")
	return finder


## Mean microseconds per query over `rounds` passes (the correctness pass above warmed up).
func _time_astar(astar: AStarGrid2D, starts: Array[Vector2i], goals: Array[Vector2i], rounds: int) -> float:
	var started: int = Time.get_ticks_usec()
	for _round: int in rounds:
		for i: int in starts.size():
			astar.get_id_path(starts[i], goals[i])
	return float(Time.get_ticks_usec() - started) / float(rounds * starts.size())


func _time_pathfinder(finder: Node, starts: Array[Vector2i], goals: Array[Vector2i], rounds: int) -> float:
	var started: int = Time.get_ticks_usec()
	for _round: int in rounds:
		for i: int in starts.size():
			finder.find_path(starts[i], goals[i], 1, &"movingai")
	return float(Time.get_ticks_usec() - started) / float(rounds * starts.size())


func _length(path: Array[Vector2i]) -> float:
	var total: float = 0.0
	for i: int in range(1, path.size()):
		total += sqrt(2.0) if path[i].x != path[i - 1].x and path[i].y != path[i - 1].y else 1.0
	return total


func _argument(key: String, fallback: String) -> String:
	for argument: String in OS.get_cmdline_user_args():
		if argument.begins_with("--" + key + "="):
			return argument.get_slice("=", 1)
	return fallback
