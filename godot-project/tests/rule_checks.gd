extends "res://tests/check_base.gd"
## The verifier's checks of the path rules on small hand-drawn maps: gaps and sizes, costs
## and the entry-cost convention, corners, codes, determinism, partial paths and limits.

func check_gap() -> Variant:
	var pf := _map(["........", "........", "####.###", "........", "........", "........",
		"........", "##....##", "........", "........"], NEVER)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var small := pf.find_path(Vector2i(4, 0), Vector2i(4, 3), 1, &"unit")
	_expect_eq(small.code, "OK", "1x1 through the gap")
	_expect_eq(small.total_cost, 3.0, "1x1 cost")
	_expect(small.path.has(Vector2i(4, 2)), "the 1x1 uses the gap")
	var blocked := pf.find_path(Vector2i(3, 0), Vector2i(3, 3), 2, &"unit")
	_expect_eq(blocked.code, "NO_PATH", "2x2 cannot pass the one-cell gap")
	_expect_eq([blocked.ok, blocked.path], [false, []], "NO_PATH has no path")
	var wide := pf.find_path(Vector2i(0, 3), Vector2i(0, 8), 2, &"unit")
	_expect_eq(wide.code, "OK", "2x2 through the wide gap")
	_expect(wide.path.any(func(a: Vector2i) -> bool: return a.y == 6 and a.x >= 2 and a.x <= 4), "2x2 crosses row 7 at the wide gap")
	_expect(wide.total_cost > 5.0, "2x2 had to walk round")
	pf.free()
	return ""


func check_road_vs_swamp() -> Variant:
	var pf := _map(["rssssr", "rrrrrr"], NEVER)
	pf.set_profile(&"jeep", {ROAD: 1.0, SWAMP: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep")
	_expect_eq(result.code, "OK", "code")
	_expect_eq(result.total_cost, 7.0, "six road cells and the goal beat four swamp cells")
	_expect(result.path.all(func(a: Vector2i) -> bool: return a.y == 1 or a.x == 0 or a.x == 5), "keeps to the road")
	pf.set_profile(&"jeep", {ROAD: 1.0, SWAMP: 1.0})
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 5.0, "cheap swamp: straight through")
	pf.free()
	return ""


func check_uncharged_start() -> Variant:
	var pf := _map(["xrmr"], NEVER)
	pf.set_profile(&"walker", {RUBBLE: 9.0, ROAD: 1.0, MUD: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 1, &"walker")
	_expect_eq(result.code, "OK", "code")
	_expect_eq(result.total_cost, 5.0, "start on rubble 9.0 uncharged: road 1 + mud 3 + road 1")
	var back := pf.find_path(Vector2i(3, 0), Vector2i(0, 0), 1, &"walker")
	_expect_eq(back.total_cost, 13.0, "backwards the rubble is entered and the first road is not")
	var stay := pf.find_path(Vector2i(0, 0), Vector2i(0, 0), 1, &"walker")
	_expect_eq([stay.code, stay.path, stay.total_cost], ["OK", [Vector2i(0, 0)], 0.0], "start == goal")
	pf.free()
	return ""


func check_cheap_road() -> Variant:
	var pf := _map([".....", "rrrrr"], NEVER)
	pf.set_profile(&"cart", {GROUND: 1.0, ROAD: 0.25})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(4, 0), 1, &"cart")
	_expect_eq(result.total_cost, 2.25, "down, along the 0.25 road and up (not 4.0)")
	_expect_eq(result.path.size(), 7, "path length")
	pf.free()
	return ""


func check_footprint_cost() -> Variant:
	var pf := _map(["..s.", "...."], NEVER)
	pf.set_profile(&"tank", {GROUND: 1.0, SWAMP: 3.0})
	var result := pf.find_path(Vector2i(0, 0), Vector2i(2, 0), 2, &"tank")
	_expect_eq(result.total_cost, 6.0, "each step's footprint covers the swamp cell")
	pf.free()
	return ""


func check_corners() -> Variant:
	var pf := _map(["#.", ".."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var result := pf.find_path(Vector2i(0, 1), Vector2i(1, 0), 1, &"unit")
	_expect_eq(result.path, [Vector2i(0, 1), Vector2i(1, 1), Vector2i(1, 0)], "goes round the corner")
	_expect_eq(result.total_cost, 2.0, "two straight steps")
	var open := _map(["...", "...", "..."], EIGHT_WAY)
	open.set_profile(&"unit", {GROUND: 1.0})
	var diagonal := open.find_path(Vector2i(0, 0), Vector2i(2, 2), 1, &"unit")
	_expect(absf(diagonal.total_cost - 2.0 * sqrt(2.0)) < 1e-6, "two diagonal steps cost 2 sqrt 2")
	open.diagonal_mode = NEVER
	_expect_eq(open.find_path(Vector2i(0, 0), Vector2i(2, 2), 1, &"unit").total_cost, 4.0, "4-way after switching mode")
	pf.free()
	open.free()
	return ""


func check_clearance_codes() -> Variant:
	var pf := _map(["....", "....", "...#"], EIGHT_WAY)
	pf.set_profile(&"tank", {GROUND: 1.0})
	var goal := pf.find_path(Vector2i(0, 0), Vector2i(3, 0), 2, &"tank")
	_expect_eq([goal.ok, goal.code, goal.clearance_found, goal.clearance_needed, goal.expanded, goal.path],
		[false, "GOAL_CLEARANCE_INSUFFICIENT", 1, 2, 0, []], "goal too narrow")
	var start := pf.find_path(Vector2i(2, 1), Vector2i(0, 0), 2, &"tank")
	_expect_eq([start.code, start.clearance_found, start.clearance_needed, start.expanded],
		["START_CLEARANCE_INSUFFICIENT", 1, 2, 0], "start too narrow")
	var both := pf.find_path(Vector2i(3, 2), Vector2i(3, 0), 2, &"tank")
	_expect_eq([both.code, both.clearance_found], ["START_CLEARANCE_INSUFFICIENT", 0], "start checked before goal")
	_expect(not pf.find_path(Vector2i(0, 0), Vector2i(1, 0), 1, &"tank").has("clearance_found"), "no clearance keys on success")
	_expect_eq([pf.get_clearance(Vector2i(0, 0), &"tank"), pf.get_clearance(Vector2i(2, 1), &"tank"),
		pf.get_clearance(Vector2i(3, 2), &"tank")], [3, 1, 0], "get_clearance")
	pf.free()
	return ""


func check_determinism() -> Variant:
	var rows: Array[String] = ["............", "..####......", "......#.....", "..s...#..s..",
		"..ss......s.", "........ss..", ".#####......", "............"]
	var pf := _map(rows, EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0, SWAMP: 2.0})
	var first := pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit")
	_expect_eq(pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same query twice")
	for x: int in 10:
		pf.find_path(Vector2i(x, 0), Vector2i(11 - x, 7), 1 + x % 2, &"unit")
		pf.find_path(Vector2i(x, 7), Vector2i(0, 0), 2, &"unit")
	_expect_eq(pf.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same after other queries")
	var twin := _map(rows, EIGHT_WAY)
	twin.set_profile(&"unit", {GROUND: 1.0, SWAMP: 2.0})
	_expect_eq(twin.find_path(Vector2i(0, 7), Vector2i(11, 0), 1, &"unit"), first, "same on an equal map")
	pf.free()
	twin.free()
	return "path of %d anchors, cost %.6f" % [first.path.size(), first.total_cost]


func check_partial_paths() -> Variant:
	# A walled pen in the middle; the goal inside it, or in a gap too narrow for a 2x2.
	var pf := _map([
		"..........",
		"..........",
		"...####...",
		"...#..#...",
		"...####...",
		"..........",
		"#.########",
		"..........",
	], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var plain := pf.find_path(Vector2i(0, 0), Vector2i(4, 3), 1, &"unit")
	_expect_eq(plain.code, "NO_PATH", "without the option")
	var partial := pf.find_path(Vector2i(0, 0), Vector2i(4, 3), 1, &"unit", true)
	_expect_eq([partial.ok, partial.code], [false, "PARTIAL_PATH"], "with the option")
	_expect_eq(partial.path.front(), Vector2i(0, 0), "starts at the start")
	# Nearest reachable anchors to (4, 3) lie one diagonal away, outside the pen's corners and
	# sides; the lowest row wins: (4, 1) is 2 straight steps away, as are none nearer.
	_expect_eq(partial.path.back(), Vector2i(4, 1), "ends at the nearest reachable anchor")
	var solver := Reference.new(10, 8, pf.get_terrain_data(), {GROUND: 1.0}, true)
	_expect(is_equal_approx(partial.total_cost, solver.shortest_cost(Vector2i(0, 0), Vector2i(4, 1), 1)), "optimal to that anchor")
	var narrow := pf.find_path(Vector2i(0, 0), Vector2i(1, 6), 2, &"unit", true)
	_expect_eq([narrow.code, narrow.clearance_needed], ["PARTIAL_PATH", 2], "goal too narrow for a 2x2")
	_expect_eq(narrow.path.back(), Vector2i(1, 4), "the 2x2 stops above the gap")
	var reachable := pf.find_path(Vector2i(0, 0), Vector2i(9, 7), 1, &"unit", true)
	_expect_eq(reachable.code, "OK", "a reachable goal is answered as usual")
	var world := pf.find_path_world(pf.to_global(pf.cell_to_local(Vector2i(0, 0))), pf.to_global(pf.cell_to_local(Vector2i(4, 3))), 1, &"unit", true)
	_expect_eq([world.code, world.points.size()], ["PARTIAL_PATH", partial.path.size()], "find_path_world with a partial path")
	pf.free()
	return "partial path of %d anchors" % partial.path.size()


## `search_expansion_limit` stops a search with `SEARCH_LIMIT_REACHED`; `cache_memory_limit_mb`
## refuses a query whose search graph would not fit with `MEMORY_LIMIT_REACHED` (a flow field
## too), and a higher limit lets it through; a region above `max_map_cells` is refused.
func check_limits() -> Variant:
	var pf := _map(_rows_of(30, 30, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	# Plain A* expands anchor by anchor; jump-point search would cross this open map in two.
	pf.search_mode = ClearancePathfinder.SEARCH_MODE_PLAIN
	pf.search_expansion_limit = 5
	var limited := pf.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit")
	_expect_eq([limited.code, limited.expanded, limited.path], ["SEARCH_LIMIT_REACHED", 5, []], "stopped at 5 expansions")
	pf.search_expansion_limit = 0
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit").code, "OK", "0 means no limit")
	var fresh := _map(_rows_of(30, 30, "."), EIGHT_WAY)
	fresh.set_profile(&"unit", {GROUND: 1.0})
	fresh.cache_memory_limit_mb = 1
	_expect_eq(fresh.find_path(Vector2i(0, 0), Vector2i(29, 29), 1, &"unit").code, "OK", "900 cells fit in 1 MiB")
	# 512 x 512 anchors: the clearance layer (a byte each) fits in 1 MiB, the search graph
	# (over 20 bytes each) does not.
	var large := _map(_rows_of(512, 512, "."), EIGHT_WAY)
	large.set_profile(&"unit", {GROUND: 1.0})
	large.cache_memory_limit_mb = 1
	var refused := large.find_path(Vector2i(0, 0), Vector2i(500, 300), 1, &"unit")
	_expect_eq([refused.code, refused.ok, refused.path], ["MEMORY_LIMIT_REACHED", false, []], "a graph past 1 MiB is refused")
	_expect_eq(large.get_flow_field([Vector2i(500, 300)], 1, &"unit").get_code(), "MEMORY_LIMIT_REACHED", "a field on that graph too")
	large.cache_memory_limit_mb = 64
	_expect_eq(large.find_path(Vector2i(0, 0), Vector2i(500, 300), 1, &"unit").code, "OK", "64 MiB holds it")
	large.free()
	fresh.max_map_cells = 1000
	var region := fresh.region
	fresh.region = Rect2i(0, 0, 40, 40)
	_expect_eq(fresh.region, region, "a region above max_map_cells is refused")
	pf.free()
	fresh.free()
	return ""
