extends SceneTree
## What smoothing adds to a query called from GDScript, beside the core's
## `cargo bench -p clearance_cli --bench smoothing` (the same maps, scenarios and sizes):
##
##   godot --headless --path godot-project --script res://bench/smoothing_bench.gd -- --movingai=DIR [--rounds=5] [--chunk=64] [--map=arena2]
##
## On AcrosstheCape and arena2, sizes 1 and 3, every scenario: `find_path` (a Dictionary of
## anchors, with `waypoints` when smoothing) and `get_point_path` (the world points of every
## anchor, or of the waypoints when smoothing), each timed with `smoothing` off and taut after
## one warm-up round. As in the core bench, each round runs the scenarios in chunks of 64
## (`--chunk`), both settings on each chunk, each setting first on every other chunk, so that
## the machine's drift falls on both alike. Prints the mean microseconds per query, their
## ratio, and the time smoothing adds per path found. `--map=NAME` measures one of the two
## maps alone, for a profiler. Exits 2, with an error naming the file, when a map or its
## scenario file is missing or the file holds no scenarios.

const MovingAI := preload("res://bench/movingai.gd")
const MAPS: Array[String] = ["AcrosstheCape", "arena2"]
const SIZES: Array[int] = [1, 3]
const CALLS: Array[String] = ["find_path", "get_point_path"]
const SETTINGS: Array[int] = [ClearancePathfinder.SMOOTHING_OFF, ClearancePathfinder.SMOOTHING_TAUT]
## The settings' order on even chunks and on odd ones (indices into SETTINGS).
const ORDERS: Array[Array] = [[0, 1], [1, 0]]


func _initialize() -> void:
	var directory: String = MovingAI.argument("movingai", "")
	var rounds: int = int(MovingAI.argument("rounds", "5"))
	var chunk: int = maxi(1, int(MovingAI.argument("chunk", "64")))
	print("Mean microseconds per query from GDScript (%d rounds after a warm-up, chunks of %d).\n" % [rounds, chunk])
	print("| map | size | call | off | taut | ratio | added per path |")
	print("|---|---|---|---|---|---|---|")
	var ratio_sums: PackedFloat64Array = [0.0, 0.0]
	var rows: int = 0
	var only: String = MovingAI.argument("map", "")
	for name: String in MAPS:
		if not only.is_empty() and name != only:
			continue
		var map: MovingAI.Map = MovingAI.named_map(directory, name)
		if map == null:
			quit(2)
			return
		var scenarios: MovingAI.Scenarios = MovingAI.named_scenarios(directory, name)
		if scenarios == null:
			quit(2)
			return
		var finder: ClearancePathfinder = MovingAI.pathfinder(map)
		for size: int in SIZES:
			var paths: int = _paths_found(finder, scenarios, size)
			rows += 1
			for call_index: int in CALLS.size():
				var times: Array[float] = _paired(finder, scenarios, size, CALLS[call_index], rounds, chunk)
				var ratio: float = times[1] / times[0]
				ratio_sums[call_index] += ratio
				# Failed queries have no path to smooth, so the time added is spread over the
				# paths found (at least one, as in the core bench).
				var added_us: float = (times[1] - times[0]) * scenarios.starts.size() / maxi(1, paths)
				print("| %s | %d | %s | %.2f | %.2f | %.3fx | %.2f us |" % [name, size, CALLS[call_index], times[0], times[1], ratio, added_us])
		finder.free()
	if rows == 0:
		push_error("--map=%s names none of the maps %s" % [only, MAPS])
		quit(2)
		return
	print("")
	for call_index: int in CALLS.size():
		print("Mean ratio of %s over %d maps and sizes: %.3fx" % [CALLS[call_index], rows, ratio_sums[call_index] / rows])
	quit(0)


## How many of the scenarios have a path for `size` (the ones smoothing has work on).
func _paths_found(finder: ClearancePathfinder, scenarios: MovingAI.Scenarios, size: int) -> int:
	finder.smoothing = ClearancePathfinder.SMOOTHING_OFF
	var found: int = 0
	for i: int in scenarios.starts.size():
		var result: Dictionary = finder.find_path(scenarios.starts[i], scenarios.goals[i], size, MovingAI.PROFILE)
		if result.path.size() >= 2:
			found += 1
	return found


## [microseconds per query with smoothing off, with it taut]: `call_name` on every scenario, in
## chunks of `chunk` scenarios, both settings on each chunk, the first round not timed.
func _paired(finder: ClearancePathfinder, scenarios: MovingAI.Scenarios, size: int, call_name: String, rounds: int, chunk: int) -> Array[float]:
	var total_us: Array[float] = [0.0, 0.0]
	var count: int = scenarios.starts.size()
	for pass_index: int in rounds + 1:
		for first: int in range(0, count, chunk):
			var last: int = mini(first + chunk, count)
			# Each setting goes first on every other chunk, so that neither always finds the
			# caches warmed by the other's run of the same queries.
			@warning_ignore("integer_division")
			var order: Array = ORDERS[(first / chunk) % 2]
			for setting: int in order:
				finder.smoothing = SETTINGS[setting]
				var started: int = Time.get_ticks_usec()
				if call_name == "find_path":
					for i: int in range(first, last):
						finder.find_path(scenarios.starts[i], scenarios.goals[i], size, MovingAI.PROFILE)
				else:
					for i: int in range(first, last):
						finder.get_point_path(scenarios.starts[i], scenarios.goals[i], size, MovingAI.PROFILE)
				if pass_index > 0:
					total_us[setting] += Time.get_ticks_usec() - started
	var queries: float = float(rounds * count)
	return [total_us[0] / queries, total_us[1] / queries]
