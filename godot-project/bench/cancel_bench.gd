extends SceneTree
## A player who changes a group's order again and again: `--orders` times in a row, a
## `request_paths` batch of `--units` queries from AcrosstheCape's scenarios, each cancelling
## the one before (`cancel_request`), as a game cancels a stale order. Times how long the last
## order's signal takes to arrive from the first request, against the same last order asked
## alone; the other orders only add what the workers still spend on them.
##
##   godot --headless --path godot-project --script res://bench/cancel_bench.gd -- --movingai=DIR [--rounds=5] [--orders=10] [--units=200] [--workers=1]
##
## Prints the fastest round of each. Exits 2 when the map or its scenarios are missing, or the
## last order's results differ from `find_paths` on the same queries.

const MovingAI := preload("res://bench/movingai.gd")

var last_results: Array = []
var arrived_id := -1


func _initialize() -> void:
	var directory: String = MovingAI.argument("movingai", "")
	var rounds: int = maxi(1, int(MovingAI.argument("rounds", "5")))
	var orders: int = maxi(1, int(MovingAI.argument("orders", "10")))
	var units: int = maxi(1, int(MovingAI.argument("units", "200")))
	var map: MovingAI.Map = MovingAI.named_map(directory, "AcrosstheCape")
	var scenarios: MovingAI.Scenarios = MovingAI.named_scenarios(directory, "AcrosstheCape")
	if map == null or scenarios == null:
		quit(2)
		return
	var finder: ClearancePathfinder = MovingAI.pathfinder(map)
	finder.worker_thread_count = maxi(1, int(MovingAI.argument("workers", "1")))
	root.add_child(finder)
	finder.paths_found.connect(func(id: int, results: Array) -> void:
		arrived_id = id
		last_results = results)
	# Order k sends the units from scenarios k * units on: every order is different work.
	var batches: Array[Array] = []
	for order: int in orders:
		var batch: Array = []
		for unit: int in units:
			var at: int = (order * units + unit) % scenarios.starts.size()
			batch.append({"start": scenarios.starts[at], "goal": scenarios.goals[at], "agent_size": 1, "profile": MovingAI.PROFILE})
		batches.append(batch)
	var expected: Array = finder.find_paths(batches[orders - 1])
	var fastest := {&"alone": INF, &"after cancels": INF}
	for round: int in rounds + 1:
		for way: StringName in fastest:
			var started := Time.get_ticks_usec()
			var id := -1
			for order: int in orders:
				if way == &"alone" and order < orders - 1:
					continue
				if id >= 0:
					finder.cancel_request(id)
				id = finder.request_paths(batches[order])
			while arrived_id != id:
				await process_frame
			var took := float(Time.get_ticks_usec() - started)
			if last_results != expected:
				push_error("the last order's results differ from find_paths")
				quit(2)
				return
			# The first round warms up.
			if round > 0:
				fastest[way] = minf(fastest[way], took)
			# Whatever a cancelled order still runs is done before the next way starts.
			while finder.get_pending_request_count() > 0 or finder.is_processing_internal():
				await process_frame
	print("| AcrosstheCape, %d orders of %d units, %d worker(s), %d rounds | fastest, first request to the last order's signal |" % [orders, units, finder.worker_thread_count, rounds])
	print("|---|---|")
	print("| the last order alone | %.1f ms |" % (fastest[&"alone"] / 1000.0))
	print("| after %d orders, each cancelling the one before | %.1f ms |" % [orders - 1, fastest[&"after cancels"] / 1000.0])
	print("\nThe cancelled orders add %.2fx the last order's own time." % ((fastest[&"after cancels"] - fastest[&"alone"]) / fastest[&"alone"]))
	finder.free()
	quit(0)
