extends SceneTree
## Run in a fresh project that holds nothing but the unzipped package: the addon loads, and a
## ClearancePathfinder answers one query. Prints INSTALL_CHECK OK and exits 0, or exits 1.


func _initialize() -> void:
	var pathfinder: Node = ClassDB.instantiate(&"ClearancePathfinder")
	if pathfinder == null:
		print("INSTALL_CHECK FAILED: ClearancePathfinder is not registered")
		quit(1)
		return
	root.add_child(pathfinder)
	pathfinder.region = Rect2i(0, 0, 8, 4)
	pathfinder.set_profile(&"walker", {0: 1.0})
	var result: Dictionary = pathfinder.find_path(Vector2i(0, 0), Vector2i(7, 3), 1, &"walker")
	# Three diagonal steps and four straight ones.
	var ok: bool = result.code == "OK" and result.path.size() == 8 \
		and is_equal_approx(result.total_cost, 4.0 + 3.0 * sqrt(2.0))
	print("INSTALL_CHECK %s %s" % ["OK" if ok else "FAILED", result])
	pathfinder.free()
	quit(0 if ok else 1)
