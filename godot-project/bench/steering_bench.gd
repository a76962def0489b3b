extends SceneTree
## Steering units by a flow field from GDScript: `get_direction_world()` on a field made with
## smoothing off (towards the next anchor) and taut (towards the first waypoint of the greedy
## walk along the path from the nearest anchor, worked out on the first call from an anchor,
## reading the path only as far as the walk needs, and kept with the field).
##
##   godot --headless --path godot-project --script res://bench/steering_bench.gd -- --movingai=DIR [--rounds=5]
##
## On AcrosstheCape and arena2, sizes 1 and 3: one field to the goal of the first scenario
## whose goal fits the unit, and the footprint centres of every scenario start the field
## reached as the units' positions. Each setting gets a new field; the first pass over the
## positions is timed apart (on a taut field, every anchor's first call), then `--rounds`
## passes. Prints mean microseconds per call.

const MovingAI := preload("res://bench/movingai.gd")
const PROFILE: StringName = MovingAI.PROFILE
const MAPS: Array[String] = ["AcrosstheCape", "arena2"]
const SIZES: Array[int] = [1, 3]


func _initialize() -> void:
	var directory: String = MovingAI.argument("movingai", "")
	var rounds: int = maxi(1, int(MovingAI.argument("rounds", "5")))
	print("Mean microseconds per get_direction_world() call from GDScript (first pass; then %d passes).\n" % rounds)
	print("| map | size | units | off, first pass | off | taut, first pass | taut | taut / off |")
	print("|---|---|---|---|---|---|---|---|")
	for name: String in MAPS:
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
			var goal: Vector2i = _first_goal_that_fits(finder, scenarios, size)
			var times: Array[float] = []
			var units: int = 0
			for smoothing: int in [ClearancePathfinder.SMOOTHING_OFF, ClearancePathfinder.SMOOTHING_TAUT]:
				finder.smoothing = smoothing
				var field: ClearanceFlowField = finder.get_flow_field([goal], size, PROFILE)
				var positions: PackedVector2Array = []
				for start: Vector2i in scenarios.starts:
					if field.is_reached(start):
						positions.append(finder.to_global(finder.footprint_center(start, size)))
				units = positions.size()
				times.append(_pass(field, positions))
				var total: float = 0.0
				for round_index: int in rounds:
					total += _pass(field, positions)
				times.append(total / rounds)
			print("| %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.2fx |" % [name, size, units, times[0], times[1], times[2], times[3], times[3] / times[1]])
		finder.free()
	quit(0)


## The goal of the first scenario at which a unit of `size` fits.
func _first_goal_that_fits(finder: ClearancePathfinder, scenarios: MovingAI.Scenarios, size: int) -> Vector2i:
	for goal: Vector2i in scenarios.goals:
		if finder.get_clearance(goal, PROFILE) >= size:
			return goal
	return scenarios.goals[0]


## Mean microseconds per call of one `get_direction_world()` per position.
func _pass(field: ClearanceFlowField, positions: PackedVector2Array) -> float:
	var sum := Vector2.ZERO
	var start: int = Time.get_ticks_usec()
	for position: Vector2 in positions:
		sum += field.get_direction_world(position)
	var spent: int = Time.get_ticks_usec() - start
	# The sum is used, so no call can be skipped.
	if not sum.is_finite():
		push_error("a direction was not finite")
	return float(spent) / maxi(1, positions.size())
