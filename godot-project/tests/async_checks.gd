extends "res://tests/check_base.gd"
## The verifier's checks of requests on worker threads and of batches.

func check_async_requests() -> Variant:
	var pf := _map(["..........", "....#.....", "....#.....", "....#....."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var asked := {}
	for i: int in 6:
		var goal := Vector2i(9, i % 4)
		var id := pf.request_path(Vector2i(0, 3), goal, 1 + i % 2, &"unit")
		asked[id] = pf.find_path(Vector2i(0, 3), goal, 1 + i % 2, &"unit")
	var bad_id := pf.request_path(Vector2i(0, 0), Vector2i(1, 1), 0, &"unit")
	asked[bad_id] = {"code": "INVALID_AGENT_SIZE"}
	var partial_id := pf.request_path(Vector2i(0, 3), Vector2i(4, 2), 1, &"unit", true)
	var cancelled := pf.request_path(Vector2i(0, 0), Vector2i(9, 3), 1, &"unit")
	_expect(pf.cancel_request(cancelled), "cancel a pending request")
	_expect(not pf.cancel_request(cancelled), "cancel it twice")
	_expect(not pf.cancel_request(12345), "cancel an unknown id")
	_expect_eq(pf.get_pending_request_count(), 8, "pending requests")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(pf.get_pending_request_count(), 0, "every request delivered within 600 frames")
	for id: int in asked:
		_expect(arrived.has(id), "request %d arrived" % id)
		if arrived.has(id) and asked[id].has("path"):
			_expect_eq(arrived[id], asked[id], "request %d equals find_path" % id)
		elif arrived.has(id):
			_expect_eq(arrived[id].code, asked[id].code, "request %d code" % id)
	_expect(not arrived.has(cancelled), "no signal for the cancelled request")
	_expect_eq(arrived.get(partial_id, {}).get("code"), "PARTIAL_PATH", "async partial path")
	var ids := asked.keys()
	ids.sort()
	_expect_eq(ids, range(ids[0], ids[0] + ids.size()), "ids are consecutive")
	pf.free()
	return "%d results in %d frames" % [arrived.size(), frames]


## A request answers in the result format and cell frame the node had when it was asked, and
## changing `worker_thread_count` between requests loses none of them, finished or queued.
func check_async_requests_keep_their_moment() -> Variant:
	var pf := _map(["..........", "..........", ".........."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.worker_thread_count = 1
	var arrived := {}
	pf.path_found.connect(func(request_id: int, result: Dictionary) -> void: arrived[request_id] = result)
	var asked := {}
	var first := pf.request_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	asked[first] = pf.find_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	# Long enough for the one worker to finish it before the pool is replaced.
	OS.delay_msec(100)
	for i: int in 5:
		var goal := Vector2i(9, i % 3)
		asked[pf.request_path(Vector2i(0, 0), goal, 1, &"unit")] = pf.find_path(Vector2i(0, 0), goal, 1, &"unit")
	pf.worker_thread_count = 2
	var anchors := pf.find_path(Vector2i(0, 2), Vector2i(9, 0), 1, &"unit")
	var last := pf.request_path(Vector2i(0, 2), Vector2i(9, 0), 1, &"unit")
	asked[last] = anchors
	# After the request: the answer is still written as the node wrote it then.
	pf.result_format = ClearancePathfinder.RESULT_FORMAT_POINTS
	pf.cell_size = Vector2(100, 100)
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(pf.get_pending_request_count(), 0, "every request delivered within 600 frames")
	_expect_eq(arrived.size(), asked.size(), "no request lost when the pool was replaced")
	for request_id: int in asked:
		_expect_eq(arrived.get(request_id), asked[request_id], "request %d equals find_path at the time it was asked" % request_id)
	pf.free()
	return "%d requests across two pools" % asked.size()


func check_async_versions() -> Variant:
	var pf := _map(["..........", "..........", ".........."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var before := pf.request_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	# The wall goes up after the first request and before the second.
	_expect(pf.fill_rect_terrain(Rect2i(5, 0, 1, 3), WALL), "wall across the map")
	var after := pf.request_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(arrived.get(before, {}).get("code"), "OK", "the first request saw the open map")
	_expect_eq(arrived.get(before, {}).get("total_cost"), 9.0, "straight across the open map")
	_expect_eq(arrived.get(after, {}).get("code"), "NO_PATH", "the second saw the wall")
	_expect_eq(pf.find_path(Vector2i(0, 1), Vector2i(9, 1), 1, &"unit").code, "NO_PATH", "the node's map has the wall")
	pf.free()
	return ""


func check_batches() -> Variant:
	var pf := _map(["..........", "...##.....", "...##..s..", ".......s.."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0, SWAMP: 3.0})
	var queries: Array = []
	var expected: Array = []
	for i: int in 40:
		var start := Vector2i(rng.randi_range(0, 9), rng.randi_range(0, 3))
		var goal := Vector2i(rng.randi_range(-1, 10), rng.randi_range(0, 3))
		var size := rng.randi_range(1, 2)
		var partial := i % 3 == 0
		queries.append({"start": start, "goal": goal, "agent_size": size, "profile": &"unit", "allow_partial_path": partial})
		expected.append(pf.find_path(start, goal, size, &"unit", partial))
	_expect_eq(pf.find_paths(queries), expected, "find_paths equals find_path one by one")
	var typed: Array[Dictionary] = []
	typed.assign(queries)
	_expect_eq(pf.find_paths(typed), expected, "find_paths takes a typed Array[Dictionary] too")
	_expect_eq(pf.call(&"find_paths", typed), expected, "a dynamic call of find_paths takes a typed Array[Dictionary] too")
	var delivered := []
	pf.paths_found.connect(func(request_id: int, results: Array) -> void: delivered.append([request_id, results]))
	var id := pf.request_paths(queries)
	var empty_id := pf.request_paths([])
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	var by_id := {}
	for entry: Array in delivered:
		by_id[entry[0]] = entry[1]
	_expect_eq(by_id.get(id), expected, "request_paths delivers the same results in order")
	_expect_eq(by_id.get(empty_id), [], "an empty batch is delivered empty")
	pf.free()
	return "%d queries per batch" % queries.size()


## Cancelled requests, queued or running on the one worker, never signal, and the ones left
## arrive as if the cancelled ones had never been asked; once all is delivered the node stops
## its internal processing.
func check_cancelled_requests() -> Variant:
	var rows: Array = []
	for y: int in 48:
		rows.append("".join(range(48).map(func(x: int) -> String: return "#" if x % 12 == 6 and y % 16 != 8 else ".")))
	var pf := _map(rows, EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.worker_thread_count = 1
	var delivered := {}
	pf.paths_found.connect(func(request_id: int, results: Array) -> void: delivered[request_id] = results)
	pf.flow_field_ready.connect(func(request_id: int, _field: Variant) -> void: delivered[request_id] = [])
	var batches: Array[Array] = []
	for order: int in 6:
		var batch: Array = []
		for unit: int in 150:
			batch.append({"start": Vector2i(rng.randi_range(0, 47), rng.randi_range(0, 47)),
				"goal": Vector2i(rng.randi_range(0, 47), rng.randi_range(0, 47)), "agent_size": 1 + unit % 2, "profile": &"unit"})
		batches.append(batch)
	var ids: Array[int] = []
	for order: int in 6:
		ids.append(pf.request_paths(batches[order]))
		if order == 2:
			ids.append(pf.request_flow_field([Vector2i(0, 0)], 1, &"unit"))
	# The first batch is running or done, the rest are queued: all but the last two go.
	var kept: Array[int] = [ids[5], ids[6]]
	for id: int in ids:
		if not kept.has(id):
			_expect(pf.cancel_request(id), "cancel request %d" % id)
	var frames := 0
	while (pf.get_pending_request_count() > 0 or pf.is_processing_internal()) and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(delivered.keys().filter(func(id: int) -> bool: return not kept.has(id)), [], "no cancelled request signals")
	_expect_eq(delivered.get(kept[0]), pf.find_paths(batches[4]), "the fifth batch arrives whole")
	_expect_eq(delivered.get(kept[1]), pf.find_paths(batches[5]), "the last batch arrives whole")
	_expect(not pf.is_processing_internal(), "internal processing stops once nothing runs")
	pf.free()
	return "%d requests cancelled, delivered in %d frames" % [ids.size() - kept.size(), frames]


func check_search_memory() -> Variant:
	var pf := _map(["..........", "....#.....", "....#.....", "....#....."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var asked := pf.find_path(Vector2i(0, 3), Vector2i(9, 3), 1, &"unit")
	var arrived := {}
	pf.path_found.connect(func(request_id: int, result: Dictionary) -> void: arrived[request_id] = result)
	var id := pf.request_path(Vector2i(0, 3), Vector2i(9, 3), 1, &"unit")
	var frames := 0
	while pf.get_pending_request_count() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	var held := pf.get_search_memory_bytes()
	_expect(held > 0, "the searches hold search memory")
	pf.trim_search_memory()
	# Idle workers trim when they wake, soon after the call.
	while pf.get_search_memory_bytes() > 0 and frames < 600:
		await tree.process_frame
		frames += 1
	_expect_eq(pf.get_search_memory_bytes(), 0, "trim_search_memory gives it all back")
	_expect_eq(pf.find_path(Vector2i(0, 3), Vector2i(9, 3), 1, &"unit"), asked, "the same path after a trim")
	_expect_eq(arrived.get(id), asked, "the request found it too")
	pf.free()
	return "%d bytes held before the trim" % held


## A script that extends the node and defines its own `_ready` and `_process` replaces those
## virtual methods; the node's own work runs from notifications, so requests still arrive,
## and the script's `_process` keeps running after they do.
func check_scripted_subclass() -> Variant:
	var script := GDScript.new()
	script.source_code = "\n".join([
		"extends ClearancePathfinder",
		"var readied := false",
		"var processed := 0",
		"func _ready() -> void:",
		"\treadied = true",
		"func _process(_delta: float) -> void:",
		"\tprocessed += 1",
	])
	_expect_eq(script.reload(), OK, "the subclass compiles")
	var pf := ClearancePathfinder.new()
	pf.set_script(script)
	root.add_child(pf)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var arrived := {}
	pf.path_found.connect(func(id: int, result: Dictionary) -> void: arrived[id] = result)
	var id := pf.request_path(Vector2i(0, 0), Vector2i(5, 5), 1, &"unit")
	var cancelled := pf.request_flow_field([Vector2i(9, 9)], 1, &"unit")
	_expect(pf.cancel_request(cancelled), "cancel a request")
	var frames := 0
	while (pf.get_pending_request_count() > 0 or frames < 10) and frames < 600:
		await tree.process_frame
		frames += 1
	_expect(pf.get("readied"), "the script's _ready ran")
	_expect_eq(arrived.get(id, {}).get("code"), "OK", "the request arrived")
	_expect(not arrived.has(cancelled), "no signal for the cancelled request")
	_expect(pf.get("processed") >= frames - 1, "the script's _process ran every frame: %d of %d" % [pf.get("processed"), frames])
	pf.free()
	return "%d frames" % frames
