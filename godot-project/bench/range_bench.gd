extends SceneTree
## Movement ranges from GDScript: `get_movement_range` plus `get_cells`, budget 30, sizes 1
## and 3 on AR0011SR, the core bench's 20 starts (its generator and seeds). Prints the mean
## time per range of the fastest round and per anchor in range, to set beside the core's
## `cargo bench -p clearance_cli --bench ranges` (the same map, budget, sizes and starts: the
## anchors-in-range columns agree).
##
##   godot --headless --path godot-project --script res://bench/range_bench.gd -- --movingai=DIR [--rounds=20]

const MovingAI := preload("res://bench/movingai.gd")
const PROFILE: StringName = MovingAI.PROFILE
const BUDGET := 30.0
const STARTS := 20


func _initialize() -> void:
	var directory := MovingAI.argument("movingai", "")
	var rounds := int(MovingAI.argument("rounds", "20"))
	var map: MovingAI.Map = MovingAI.named_map(directory, "AR0011SR")
	if map == null:
		quit(2)
		return
	var finder: ClearancePathfinder = MovingAI.pathfinder(map)
	print("| AR0011SR, budget 30, from GDScript | anchors in range | get_movement_range | + get_cells | per anchor |")
	print("|---|---|---|---|---|")
	for size: int in [1, 3]:
		# The core bench's starts: its generator and seed, drawn in the same order.
		var state := size * 7 + 1
		var starts: Array[Vector2i] = []
		while starts.size() < STARTS:
			state = _next_state(state)
			var x := _draw(state, 512)
			state = _next_state(state)
			var cell := Vector2i(x, _draw(state, 512))
			if finder.get_clearance(cell, PROFILE) >= size:
				starts.append(cell)
		var cells := 0
		for start: Vector2i in starts:
			cells += finder.get_movement_range(start, size, PROFILE, BUDGET).get_cells().size()
		# The fastest round of each, as the core's bench reports: other work only adds time.
		var alone := INF
		var with_cells := INF
		for _pass_index: int in rounds:
			var started := Time.get_ticks_usec()
			for start: Vector2i in starts:
				finder.get_movement_range(start, size, PROFILE, BUDGET)
			alone = minf(alone, float(Time.get_ticks_usec() - started) / STARTS)
			started = Time.get_ticks_usec()
			for start: Vector2i in starts:
				finder.get_movement_range(start, size, PROFILE, BUDGET).get_cells()
			with_cells = minf(with_cells, float(Time.get_ticks_usec() - started) / STARTS)
		var anchors := float(cells) / STARTS
		print("| size %d | %.0f | %.1f us | %.1f us | %.0f ns |" % [
			size, anchors, alone, with_cells, with_cells * 1000.0 / anchors])
	finder.free()
	quit(0)


## The core bench's linear congruential generator (Knuth's MMIX constants); GDScript's
## integers wrap as the Rust side's `wrapping_mul` and `wrapping_add` do.
func _next_state(state: int) -> int:
	return state * 6364136223846793005 + 1442695040888963407


## The top 31 bits of the state (a logical shift of the unsigned state), below `bound`.
func _draw(state: int, bound: int) -> int:
	return ((state >> 33) & 0x7FFFFFFF) % bound

