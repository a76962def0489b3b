extends SceneTree
## Movement ranges from GDScript: `get_movement_range` plus `get_cells`, budget 30, sizes 1
## and 3 on AR0011SR, 20 legal starts drawn with a fixed seed. Prints the mean time per range
## and per anchor in range, to set beside the core's `cargo bench -p clearance_cli --bench
## ranges` (the same map, budget and sizes; its own starts, so compare the per-anchor column).
##
##   godot --headless --path godot-project --script res://bench/range_bench.gd -- --movingai=DIR [--rounds=20]

const PROFILE: StringName = &"movingai"
const OPEN := 0
const BLOCKED := 1
const BUDGET := 30.0
const STARTS := 20


func _initialize() -> void:
	var directory := _argument("movingai", "")
	var rounds := int(_argument("rounds", "20"))
	var finder := _load(directory.path_join("AR0011SR.map"))
	if finder == null:
		push_error("pass --movingai=DIR, the folder with the Moving AI maps")
		quit(2)
		return
	print("| AR0011SR, budget 30, from GDScript | anchors in range | get_movement_range + get_cells | per anchor |")
	print("|---|---|---|---|")
	var rng := RandomNumberGenerator.new()
	for size: int in [1, 3]:
		rng.seed = size * 7 + 1
		var starts: Array[Vector2i] = []
		while starts.size() < STARTS:
			var cell := Vector2i(rng.randi_range(0, 511), rng.randi_range(0, 511))
			if finder.get_clearance(cell, PROFILE) >= size:
				starts.append(cell)
		var cells := 0
		for start in starts:
			cells += finder.get_movement_range(start, size, PROFILE, BUDGET).get_cells().size()
		var started := Time.get_ticks_usec()
		for round in rounds:
			for start in starts:
				var reached := finder.get_movement_range(start, size, PROFILE, BUDGET)
				reached.get_cells()
		var usec := float(Time.get_ticks_usec() - started) / (rounds * STARTS)
		var anchors := float(cells) / STARTS
		print("| size %d | %.0f | %.1f us | %.0f ns |" % [size, anchors, usec, usec * 1000.0 / anchors])
	finder.free()
	quit(0)


func _load(path: String) -> ClearancePathfinder:
	if not FileAccess.file_exists(path):
		return null
	var lines := FileAccess.get_file_as_string(path).split("\n")
	var row := 0
	var size := Vector2i.ZERO
	while not lines[row].begins_with("map"):
		var words := lines[row].split(" ")
		if words[0] == "height":
			size.y = int(words[1])
		elif words[0] == "width":
			size.x = int(words[1])
		row += 1
	var terrain := PackedByteArray()
	terrain.resize(size.x * size.y)
	for y in size.y:
		var text := lines[row + 1 + y]
		for x in size.x:
			terrain[y * size.x + x] = OPEN if ".GS".contains(text[x]) else BLOCKED
	var finder := ClearancePathfinder.new()
	finder.region = Rect2i(Vector2i.ZERO, size)
	finder.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES
	finder.load_terrain(terrain)
	finder.set_profile(PROFILE, {OPEN: 1.0})
	return finder


func _argument(key: String, fallback: String) -> String:
	for argument in OS.get_cmdline_user_args():
		if argument.begins_with("--" + key + "="):
			return argument.get_slice("=", 1)
	return fallback
