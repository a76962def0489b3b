extends SceneTree
## Godot's AStarGrid2D against ClearancePathfinder, both called from GDScript in one headless
## run, on the same queries:
##
##   godot --headless --path godot-project --script res://bench/astar_bench.gd -- --movingai=DIR [--rounds=3] [--landmarks=8] [--max-queries=300]
##
## Per Moving AI map: AStarGrid2D (DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES, octile heuristics) with
## jumping off and on, and ClearancePathfinder (search_mode auto) without and with landmarks,
## by find_path in each result format and by get_id_path (AStarGrid2D's own call). Maps with more problems than --max-queries use every k-th problem.
## Every path cost is checked against the published optimum. Then short trips on a 64 x 64 open
## map: start equal to goal, a 10-step and a 60-step straight query, 100,000 calls each, and the cost per
## returned anchor of each result format and of get_id_path and get_point_path. Prints Markdown tables; exits 1 on any mismatch
## or when a map or its scenario file is missing, or the file holds no scenarios (with an error naming it).

const MovingAI := preload("res://bench/movingai.gd")
const MAPS: Array[String] = ["arena", "arena2", "AR0011SR", "maze-100-1", "random-100-33", "AcrosstheCape", "maze512-16-0"]
const PROFILE: StringName = MovingAI.PROFILE
const FORMATS: Array[int] = [ClearancePathfinder.RESULT_FORMAT_ANCHORS, ClearancePathfinder.RESULT_FORMAT_PACKED_ANCHORS, ClearancePathfinder.RESULT_FORMAT_POINTS]


func _initialize() -> void:
	var directory: String = MovingAI.argument("movingai", "")
	var rounds: int = int(MovingAI.argument("rounds", "3"))
	var landmarks: int = int(MovingAI.argument("landmarks", "8"))
	var max_queries: int = int(MovingAI.argument("max-queries", "300"))
	if directory.is_empty() or not DirAccess.dir_exists_absolute(directory):
		push_error("pass --movingai=DIR, the folder with the Moving AI maps (got '%s')" % directory)
		quit(2)
		return
	print("Mean microseconds per query (%d rounds).\n" % rounds)
	print("| map | queries | AStarGrid2D | AStarGrid2D jumping | ours find_path | packed anchors | points | ours get_id_path | vs the faster AStarGrid2D | ours with %d landmarks (get_id_path) | vs the faster AStarGrid2D | mismatches |" % landmarks)
	print("|---|---|---|---|---|---|---|---|---|---|---|---|")
	var failures: int = 0
	for name: String in MAPS:
		failures += _bench_map(directory.path_join(name + ".map"), directory.path_join(name + ".map.scen"), name, rounds, landmarks, max_queries)
	_bench_short_trips()
	quit(1 if failures > 0 else 0)


func _bench_map(map_path: String, scen_path: String, name: String, rounds: int, landmarks: int, max_queries: int) -> int:
	var map: MovingAI.Map = MovingAI.read_map(map_path)
	if map == null:
		push_error("no map at %s" % map_path)
		return 1
	var scenarios: MovingAI.Scenarios = MovingAI.required_scenarios(scen_path)
	if scenarios == null:
		return 1
	var starts: Array[Vector2i] = scenarios.starts
	var goals: Array[Vector2i] = scenarios.goals
	var optimal: PackedFloat64Array = scenarios.optimal
	var step: int = ceili(float(starts.size()) / float(max_queries))
	var picked: Array[int] = []
	for i: int in range(0, starts.size(), step):
		picked.append(i)

	var mismatches: int = 0
	var astar_us: Array[float] = []
	for jumping: bool in [false, true]:
		var astar := _astar(map, jumping)
		var timed := _time_astar(astar, starts, goals, picked, rounds)
		astar_us.append(timed[0])
		var lengths: PackedFloat64Array = []
		for path: Array[Vector2i] in timed[1]:
			lengths.append(_length(path))
		mismatches += _mismatches(lengths, picked, optimal)
	var plain: ClearancePathfinder = _pathfinder(map, 0)
	var ours_us: Array[float] = []
	for format: int in FORMATS:
		plain.result_format = format
		var timed := _time_finder(plain, starts, goals, picked, rounds)
		ours_us.append(timed[0])
		mismatches += _mismatches(timed[1], picked, optimal)
	var id_paths := _time_id_paths(plain, starts, goals, picked, rounds)
	mismatches += _mismatches(id_paths[1], picked, optimal)
	var guided: ClearancePathfinder = _pathfinder(map, landmarks)
	var guided_timed := _time_id_paths(guided, starts, goals, picked, rounds)
	mismatches += _mismatches(guided_timed[1], picked, optimal)
	var faster: float = minf(astar_us[0], astar_us[1])
	print("| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | **%.1fx** | %.1f | %.1fx | %d |" % [name, picked.size(), astar_us[0], astar_us[1],
		ours_us[0], ours_us[1], ours_us[2], id_paths[0], faster / id_paths[0], guided_timed[0], faster / guided_timed[0], mismatches])
	plain.free()
	guided.free()
	return mismatches


## Short trips on a 64 x 64 open map: the cost of a call before any search, and per anchor.
func _bench_short_trips() -> void:
	var open := MovingAI.Map.new()
	open.size = Vector2i(64, 64)
	open.terrain.resize(64 * 64)
	var astar := _astar(open, false)
	var finder: ClearancePathfinder = _pathfinder(open, 0)
	var here := Vector2i(2, 5)
	print("\nShort trips on a 64 x 64 open map, 100,000 calls each (microseconds per call).\n")
	print("| query | AStarGrid2D get_id_path | AStarGrid2D get_point_path | ours find_path | packed anchors | points | ours get_id_path | ours get_point_path | get_id_path vs AStarGrid2D | ours get_id_path, every argument | vs AStarGrid2D |")
	print("|---|---|---|---|---|---|---|---|---|---|---|")
	var no_units := PackedInt64Array()
	var per_format: Dictionary = {}
	for trip: Array in [["start equals goal", here], ["10 straight steps", here + Vector2i(10, 0)], ["60 straight steps", here + Vector2i(60, 0)]]:
		var goal: Vector2i = trip[1]
		var started: int = Time.get_ticks_usec()
		for _call: int in 100000:
			astar.get_id_path(here, goal)
		var astar_us: float = float(Time.get_ticks_usec() - started) / 100000.0
		started = Time.get_ticks_usec()
		for _call: int in 100000:
			astar.get_point_path(here, goal)
		var astar_points_us: float = float(Time.get_ticks_usec() - started) / 100000.0
		var ours: Array[float] = []
		for format: int in FORMATS:
			finder.result_format = format
			started = Time.get_ticks_usec()
			for _call: int in 100000:
				finder.find_path(here, goal, 1, PROFILE)
			ours.append(float(Time.get_ticks_usec() - started) / 100000.0)
		started = Time.get_ticks_usec()
		for _call: int in 100000:
			finder.get_id_path(here, goal, 1, PROFILE)
		ours.append(float(Time.get_ticks_usec() - started) / 100000.0)
		started = Time.get_ticks_usec()
		for _call: int in 100000:
			finder.get_point_path(here, goal, 1, PROFILE)
		ours.append(float(Time.get_ticks_usec() - started) / 100000.0)
		# A call that leaves out optional arguments is a Variant call in GDScript; one that gives
		# every argument is a validated call, which skips converting each argument.
		started = Time.get_ticks_usec()
		for _call: int in 100000:
			finder.get_id_path(here, goal, 1, PROFILE, false, ClearancePathfinder.NO_UNIT, no_units)
		var every_argument_us: float = float(Time.get_ticks_usec() - started) / 100000.0
		per_format[trip[0]] = ours
		print("| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2fx | %.2f | %.2fx |" % [trip[0], astar_us, astar_points_us, ours[0], ours[1], ours[2], ours[3], ours[4], astar_us / ours[3], every_argument_us, astar_us / every_argument_us])
	var short: Array = per_format["10 straight steps"]
	var long: Array = per_format["60 straight steps"]
	var per_anchor: PackedStringArray = []
	for column: int in 5:
		per_anchor.append("%.1f" % ((long[column] - short[column]) * 1000.0 / 50.0))
	print("\nReturned anchors cost (60-step minus 10-step call, per extra anchor, ns): find_path anchors %s, packed anchors %s, points %s; get_id_path %s, get_point_path %s." % Array(per_anchor))
	finder.free()


## [mean microseconds per query over `rounds` passes, the paths of the first pass].
func _time_astar(astar: AStarGrid2D, starts: Array[Vector2i], goals: Array[Vector2i], picked: Array[int], rounds: int) -> Array:
	var paths: Array[Array] = []
	var started: int = Time.get_ticks_usec()
	for pass_index: int in rounds:
		for i: int in picked:
			var path: Array[Vector2i] = astar.get_id_path(starts[i], goals[i])
			if pass_index == 0:
				paths.append(path)
	return [float(Time.get_ticks_usec() - started) / float(rounds * picked.size()), paths]


## `get_id_path`, the cost from `get_last_total_cost`: [mean microseconds, first-pass costs].
func _time_id_paths(finder: ClearancePathfinder, starts: Array[Vector2i], goals: Array[Vector2i], picked: Array[int], rounds: int) -> Array:
	var costs: PackedFloat64Array = []
	var started: int = Time.get_ticks_usec()
	for pass_index: int in rounds:
		for i: int in picked:
			finder.get_id_path(starts[i], goals[i], 1, PROFILE)
			if pass_index == 0:
				costs.append(finder.get_last_total_cost())
	return [float(Time.get_ticks_usec() - started) / float(rounds * picked.size()), costs]


## [mean microseconds per query over `rounds` passes, the costs of the first pass].
func _time_finder(finder: ClearancePathfinder, starts: Array[Vector2i], goals: Array[Vector2i], picked: Array[int], rounds: int) -> Array:
	var costs: PackedFloat64Array = []
	var started: int = Time.get_ticks_usec()
	for pass_index: int in rounds:
		for i: int in picked:
			var result: Dictionary = finder.find_path(starts[i], goals[i], 1, PROFILE)
			if pass_index == 0:
				costs.append(result.total_cost)
	return [float(Time.get_ticks_usec() - started) / float(rounds * picked.size()), costs]


func _mismatches(costs: PackedFloat64Array, picked: Array[int], optimal: PackedFloat64Array) -> int:
	var count: int = 0
	for k: int in picked.size():
		if absf(costs[k] - optimal[picked[k]]) > 0.005:
			count += 1
	return count


func _astar(map: MovingAI.Map, jumping: bool) -> AStarGrid2D:
	var astar := AStarGrid2D.new()
	astar.region = Rect2i(Vector2i.ZERO, map.size)
	astar.cell_size = Vector2(1, 1)
	astar.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES
	astar.default_compute_heuristic = AStarGrid2D.HEURISTIC_OCTILE
	astar.default_estimate_heuristic = AStarGrid2D.HEURISTIC_OCTILE
	astar.jumping_enabled = jumping
	astar.update()
	for index: int in map.terrain.size():
		if map.terrain[index] == MovingAI.BLOCKED:
			@warning_ignore("integer_division")
			var cell := Vector2i(index % map.size.x, index / map.size.x)
			astar.set_point_solid(cell, true)
	return astar


func _pathfinder(map: MovingAI.Map, landmarks: int) -> ClearancePathfinder:
	var finder: ClearancePathfinder = MovingAI.pathfinder(map)
	if landmarks > 0:
		finder.landmark_count = landmarks
		finder.bake_landmarks(PROFILE)
	# Build layers outside the timed loop, as AStarGrid2D.update() is.
	finder.find_path(Vector2i.ZERO, Vector2i.ZERO, 1, PROFILE)
	return finder


## The octile length of a path; with jumping on, AStarGrid2D returns only the jump points,
## joined by straight or diagonal lines.
func _length(path: Array[Vector2i]) -> float:
	var total: float = 0.0
	for i: int in range(1, path.size()):
		var step: Vector2i = (path[i] - path[i - 1]).abs()
		total += maxi(step.x, step.y) - mini(step.x, step.y) + sqrt(2.0) * mini(step.x, step.y)
	return total

