extends "res://tests/check_base.gd"
## The verifier's checks of the node in a scene: coordinates and world positions, TileMapLayer
## import, AgentProfile resources and the demo scene's setup.

func check_coordinates() -> Variant:
	var pf := _map(["....", "...."], EIGHT_WAY)
	pf.cell_size = Vector2(10, 20)
	pf.offset = Vector2(5, -5)
	_expect_eq(pf.cell_to_local(Vector2i(2, 3)), Vector2(30, 65), "cell_to_local is the cell centre")
	_expect_eq(pf.footprint_center(Vector2i(2, 3), 2), Vector2(35, 75), "footprint_center of a 2x2")
	_expect_eq(pf.footprint_center(Vector2i(-1, 0), 3), Vector2(10, 25), "footprint_center of a 3x3")
	_expect_eq(pf.local_to_cell(Vector2(30, 65)), Vector2i(2, 3), "local_to_cell of a centre")
	_expect_eq(pf.local_to_cell(Vector2(4.9, -5)), Vector2i(-1, 0), "local_to_cell left of the offset")
	_expect_eq(pf.local_to_cell(Vector2(1e30, -1e30)), Vector2i(2147483647, -2147483648), "far positions clamp")
	_expect_eq(pf.get_footprint_cells(Vector2i(2, 3), 2),
		[Vector2i(2, 3), Vector2i(3, 3), Vector2i(2, 4), Vector2i(3, 4)] as Array[Vector2i], "2x2 footprint cells")
	_expect_eq(pf.get_footprint_cells(Vector2i(-5, 7), 1), [Vector2i(-5, 7)] as Array[Vector2i], "1x1 footprint, off the map")
	pf.free()
	return ""


func check_world() -> Variant:
	var pf := _map(["......", "......", "......", "......"], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.position = Vector2(100, 40)
	pf.cell_size = Vector2(10, 10)
	pf.offset = Vector2(5, 5)
	var start := Vector2i(0, 0)
	var goal := Vector2i(4, 2)
	var start_position := pf.to_global(pf.footprint_center(start, 2)) + Vector2(3, -4)
	var goal_position := pf.to_global(pf.footprint_center(goal, 2)) + Vector2(-4.9, 4.9)
	var result := pf.find_path_world(start_position, goal_position, 2, &"unit")
	var direct := pf.find_path(start, goal, 2, &"unit")
	_expect_eq([result.start_anchor, result.goal_anchor], [start, goal], "anchors from footprint centres")
	_expect_eq([result.path, result.total_cost], [direct.path, direct.total_cost], "same path as find_path")
	var expected := PackedVector2Array()
	for anchor: Vector2i in direct.path:
		expected.append(pf.to_global(pf.footprint_center(anchor, 2)))
	_expect_eq(result.points, expected, "points are global footprint centres")
	_expect_eq(result.points[0], Vector2(115, 55), "first point")
	var miss := pf.find_path_world(start_position, Vector2(-1000, 0), 2, &"unit")
	_expect_eq([miss.code, miss.points], ["GOAL_OUT_OF_BOUNDS", PackedVector2Array()], "goal off the map")
	pf.free()
	return ""


## A TileSet with an int custom data layer "terrain" (and a float one "speed"), three atlas
## tiles: ground (0), wall (1) and one with an out-of-range terrain (300).
func _tile_set() -> TileSet:
	var tile_set := TileSet.new()
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(0, "terrain")
	tile_set.set_custom_data_layer_type(0, TYPE_INT)
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(1, "speed")
	tile_set.set_custom_data_layer_type(1, TYPE_FLOAT)
	var image := Image.create_empty(48, 16, false, Image.FORMAT_RGBA8)
	var atlas := TileSetAtlasSource.new()
	atlas.texture = ImageTexture.create_from_image(image)
	atlas.texture_region_size = Vector2i(16, 16)
	tile_set.add_source(atlas, 0)
	for x: int in 3:
		atlas.create_tile(Vector2i(x, 0))
		atlas.get_tile_data(Vector2i(x, 0), 0).set_custom_data("terrain", [GROUND, WALL, 300][x])
	return tile_set


func _layer(rows: Array, origin: Vector2i) -> TileMapLayer:
	var layer := TileMapLayer.new()
	layer.tile_set = _tile_set()
	for y: int in rows.size():
		for x: int in rows[y].length():
			var tile := " .#!".find(rows[y][x]) - 1
			if tile >= 0:
				layer.set_cell(origin + Vector2i(x, y), 0, Vector2i(tile, 0))
	root.add_child(layer)
	return layer


func check_import() -> Variant:
	var layer := _layer([
		"......",
		".####.",
		"....#.",
		"  ..#.",
		"......",
	], Vector2i(-2, 3))
	var pf := ClearancePathfinder.new()
	root.add_child(pf)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	_expect(pf.import_tile_map_layer(layer, "terrain"), "import succeeds")
	_expect_eq(pf.region, Rect2i(-2, 3, 6, 5), "region is the used rect")
	_expect_eq(emitted, [Rect2i(-2, 3, 6, 5)] as Array[Rect2i], "map_changed after import")
	_expect_eq([pf.get_cell_terrain(Vector2i(-2, 3)), pf.get_cell_terrain(Vector2i(-1, 4)),
		pf.get_cell_terrain(Vector2i(-2, 6)), pf.get_cell_terrain(Vector2i(-1, 6))],
		[GROUND, WALL, 255, 255], "tile terrains and empty cells")
	var result := pf.find_path(Vector2i(-2, 5), Vector2i(3, 7), 1, &"unit")
	_expect_eq(result.code, "OK", "query on the imported map")
	_expect(result.path.all(func(a: Vector2i) -> bool: return a != Vector2i(-2, 6) and a != Vector2i(-1, 6)), "empty cells are blocked")
	_expect_eq(pf.get_clearance(Vector2i(-1, 6), &"unit"), 0, "empty cell clearance")
	pf.empty_cell_terrain = GROUND
	_expect(pf.import_tile_map_layer(layer, "terrain"), "import with empty cells as ground")
	_expect_eq(pf.get_cell_terrain(Vector2i(-2, 6)), GROUND, "empty cell is ground now")
	layer.free()
	pf.free()
	return ""


## Every kind of tile a layer can hold (two atlas sources, an alternative tile whose terrain
## differs from its base tile's, empty cells, cells whose source is negative as the layer
## keeps it: -2 given, or 40,000, which the layer's 16 bits keep as -25,536) imports as a lookup
## of each cell's own source and tile data says, near the origin and beyond the -32,768 to
## 32,767 cells that a layer's saved data can place.
func check_import_tile_kinds() -> Variant:
	var tile_set := _tile_set()
	var base: TileSetAtlasSource = tile_set.get_source(0)
	base.create_alternative_tile(Vector2i(0, 0), 1)
	base.get_tile_data(Vector2i(0, 0), 1).set_custom_data("terrain", WALL)
	for source: Array in [[3, Vector2i(1, 0)], [40000, Vector2i(0, 0)]]:
		var atlas := TileSetAtlasSource.new()
		atlas.texture = base.texture
		atlas.texture_region_size = Vector2i(16, 16)
		tile_set.add_source(atlas, source[0])
		atlas.create_tile(source[1])
		atlas.get_tile_data(source[1], 0).set_custom_data("terrain", WATER)
	# Source, atlas coordinates and alternative of each kind; -1 leaves the cell empty.
	var kinds: Array[Array] = [[-1, Vector2i.ZERO, 0], [0, Vector2i(0, 0), 0], [0, Vector2i(1, 0), 0],
		[0, Vector2i(0, 0), 1], [3, Vector2i(1, 0), 0], [-2, Vector2i(0, 0), 0], [40000, Vector2i(0, 0), 0]]
	var size := Vector2i(37, 23)
	var picks: Array[int] = []
	for index: int in size.x * size.y:
		picks.append(rng.randi_range(0, kinds.size() - 1))
	# The used rectangle spans the whole size: its corners hold tiles.
	for corner: int in [0, size.x - 1, size.x * (size.y - 1), size.x * size.y - 1]:
		picks[corner] = 1
	for origin: Vector2i in [Vector2i(-5, 7), Vector2i(40000, -40000)]:
		var layer := TileMapLayer.new()
		layer.tile_set = tile_set
		root.add_child(layer)
		for index: int in picks.size():
			var kind: Array = kinds[picks[index]]
			if kind[0] != -1:
				layer.set_cell(origin + Vector2i(index % size.x, index / size.x), kind[0], kind[1], kind[2])
		var expected := PackedByteArray()
		for index: int in picks.size():
			var cell := origin + Vector2i(index % size.x, index / size.x)
			var no_tile := layer.get_cell_source_id(cell) < 0
			expected.append(255 if no_tile else int(layer.get_cell_tile_data(cell).get_custom_data("terrain")))
		var pf := ClearancePathfinder.new()
		root.add_child(pf)
		_expect(pf.import_tile_map_layer(layer, "terrain"), "import at %s" % origin)
		_expect_eq(pf.region, Rect2i(origin, size), "region at %s" % origin)
		_expect_eq(pf.get_terrain_data(), expected, "each cell's own tile data at %s" % origin)
		layer.free()
		pf.free()
	return ""


func check_bad_import() -> Variant:
	var pf := _map(["...", "..."], EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	var before := _snapshot(pf)
	var good := _layer(["..", ".#"], Vector2i.ZERO)
	var out_of_range := _layer([".!", ".."], Vector2i.ZERO)
	var empty := _layer([], Vector2i.ZERO)
	var bare := TileMapLayer.new()
	bare.set_cell(Vector2i.ZERO, 0, Vector2i.ZERO)
	root.add_child(bare)
	_expect(not pf.import_tile_map_layer(null, "terrain"), "null layer")
	_expect(not pf.import_tile_map_layer(good, "no_such_layer"), "missing custom data layer")
	_expect(not pf.import_tile_map_layer(good, "speed"), "float custom data layer")
	_expect(not pf.import_tile_map_layer(out_of_range, "terrain"), "terrain 300 in a tile")
	_expect(not pf.import_tile_map_layer(empty, "terrain"), "layer without tiles")
	_expect(not pf.import_tile_map_layer(bare, "terrain"), "layer without a TileSet")
	_expect_eq(_snapshot(pf), before, "map unchanged after refused imports")
	for node: Node in [good, out_of_range, empty, bare, pf]:
		node.free()
	return ""


func _agent_profile(profile_name: StringName, terrains: Array, costs: Array) -> AgentProfile:
	var profile := AgentProfile.new()
	profile.name = profile_name
	profile.terrains = PackedInt32Array(terrains)
	profile.costs = PackedFloat64Array(costs)
	return profile


func check_resources() -> Variant:
	var pf := _map(["rssssr", "rrrrrr"], NEVER)
	var jeep := _agent_profile(&"jeep", [ROAD, SWAMP], [1.0, 3.0])
	var walker := _agent_profile(&"walker", [ROAD, SWAMP], [1.0, 1.0])
	var invalid: Array[AgentProfile] = [
		_agent_profile(&"short", [ROAD, SWAMP], [1.0]),
		_agent_profile(&"wide", [256], [1.0]),
		_agent_profile(&"twice", [ROAD, ROAD], [1.0, 2.0]),
		_agent_profile(&"nan", [ROAD], [NAN]),
		_agent_profile(&"negative", [ROAD], [-2.0]),
		_agent_profile(&"", [ROAD], [1.0]),
	]
	_expect_eq(jeep.get_validation_error(), "", "a valid profile has no validation error")
	for profile: AgentProfile in invalid:
		_expect(profile.get_validation_error() != "", "'%s' reports a validation error" % profile.name)
	var list: Array[AgentProfile] = [jeep, walker, null, _agent_profile(&"jeep", [ROAD], [1.0])]
	list.append_array(invalid)
	pf.profiles = list
	_expect(not pf.reload_profiles(), "reload_profiles reports invalid entries")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["jeep", "walker"]), "only the valid, first-named profiles")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 7.0, "jeep from a resource")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"walker").total_cost, 5.0, "walker from a resource")
	jeep.costs = PackedFloat64Array([1.0, 1.25])
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 6.0, "edited resource applies at once")
	# Walker has no second entry of its name to take over: an invalid edit keeps it as it was.
	walker.costs = PackedFloat64Array([1.0, NAN])
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"walker").total_cost, 5.0, "an invalid edit keeps the last valid settings")
	walker.costs = PackedFloat64Array([1.0, 1.0])
	# Another resource of that name, invalid, in its place: the old one is gone, and so is the
	# profile it gave.
	var swapped: Array[AgentProfile] = [jeep, _agent_profile(&"walker", [ROAD], [NAN])]
	pf.profiles = swapped
	_expect(not pf.has_profile(&"walker"), "an invalid resource in another's place keeps nothing of it")
	pf.profiles = list
	_expect(pf.has_profile(&"walker"), "the list restored")
	pf.set_profile(&"jeep", {ROAD: 1.0})
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 7.0, "code profile replaces it")
	var only_walker: Array[AgentProfile] = [walker]
	pf.profiles = only_walker
	_expect(pf.reload_profiles(), "all valid")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["jeep", "walker"]), "the code's jeep stays")
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(5, 0), 1, &"jeep").total_cost, 7.0, "as the code set it")
	pf.profiles = [] as Array[AgentProfile]
	_expect_eq(pf.get_profile_names(), PackedStringArray(["jeep"]), "retired resource profiles are removed")
	pf.free()
	return ""


func check_demo_scene() -> Variant:
	var scene: PackedScene = load("res://demo/demo.tscn")
	var pf: ClearancePathfinder = scene.instantiate().get_node("Pathfinder")
	var owner_node := pf.get_parent()
	_expect_eq(pf.profiles.size(), 2, "two AgentProfile resources in the scene file")
	_expect(pf.reload_profiles(), "they are valid")
	_expect_eq(pf.get_profile_names(), PackedStringArray(["infantry", "vehicle"]), "names")
	_expect_eq(pf.region, Rect2i(0, 0, 62, 32), "region from the scene")
	owner_node.free()
	return ""


## A node packed into a scene and instanced again has every setting it was saved with: the
## scene sets them in the order the node lists them, so a region above the default
## `max_map_cells` loads after the raised limit it was saved with. Every property the node
## stores gets a value other than its default; the scene is also saved to a file and loaded.
func check_saved_settings() -> Variant:
	var saved_profiles: Array[AgentProfile] = [
		_agent_profile(&"jeep", [ROAD, SWAMP], [1.0, 3.0]),
		_agent_profile(&"walker", [ROAD, MUD], [1.5, 2.0]),
	]
	# Every property ClearancePathfinder stores in a scene, in the order it lists them. Not
	# among them: `debug_flow_field`, a field made at run time, which is not exported and so is
	# never saved (a loaded scene draws none until one is assigned).
	var saved := {
		"max_map_cells": 1 << 25,
		"region": Rect2i(-10, 0, 5000, 4000),
		"cell_size": Vector2(24, 12),
		"offset": Vector2(3, -2),
		"cell_shape": ClearancePathfinder.CELL_SHAPE_ISOMETRIC_DOWN,
		"diagonal_mode": ClearancePathfinder.DIAGONAL_MODE_NEVER,
		"search_mode": ClearancePathfinder.SEARCH_MODE_PLAIN,
		"result_format": ClearancePathfinder.RESULT_FORMAT_POINTS,
		"default_terrain": MUD,
		"empty_cell_terrain": WATER,
		# 32 slots of 8 bytes on 20 million cells fit the saved limit, not the default 4 GiB:
		# the scene loads only if it sets the limit first.
		"cache_memory_limit_mb": 8192,
		"landmark_count": 32,
		"profiles": saved_profiles,
		"other_units": ClearancePathfinder.OTHER_UNITS_BLOCK,
		"smoothing": ClearancePathfinder.SMOOTHING_TAUT,
		"other_units_cost": 2.5,
		"debug_draw_clearance": true,
		"debug_profile": &"walker",
		"debug_draw_last_path": true,
		"debug_draw_units": true,
		"debug_draw_last_range": true,
		"worker_thread_count": 3,
		"search_expansion_limit": 250000,
	}
	var stored := PackedStringArray()
	for property: Dictionary in ClassDB.class_get_property_list(&"ClearancePathfinder", true):
		if property.usage & PROPERTY_USAGE_STORAGE:
			stored.append(property.name)
	var listed := PackedStringArray(saved.keys())
	stored.sort()
	listed.sort()
	_expect_eq(stored, listed, "the check sets every property ClearancePathfinder stores")
	var fresh := ClearancePathfinder.new()
	var pf := ClearancePathfinder.new()
	for property: String in saved:
		pf.set(property, saved[property])
		_expect(_comparable(fresh.get(property)) != _comparable(saved[property]), "%s: the saved value is not the default" % property)
		_expect_eq(_comparable(pf.get(property)), _comparable(saved[property]), "%s: the node takes the value" % property)
	fresh.free()
	var scene := PackedScene.new()
	_expect_eq(scene.pack(pf), OK, "the node packs")
	var file := OS.get_temp_dir().path_join("clearance_saved_settings_%d.tscn" % OS.get_process_id())
	_expect_eq(ResourceSaver.save(scene, file), OK, "the scene saves to a file")
	var from_file: PackedScene = ResourceLoader.load(file, "PackedScene", ResourceLoader.CACHE_MODE_IGNORE)
	DirAccess.remove_absolute(file)
	_expect(from_file != null, "the saved file loads")
	var loaded: ClearancePathfinder = scene.instantiate()
	var copies := {"the instance": loaded}
	if from_file != null:
		copies["the saved file's instance"] = from_file.instantiate()
	for what: String in copies:
		var copy: ClearancePathfinder = copies[what]
		for property: String in saved:
			_expect_eq(_comparable(copy.get(property)), _comparable(saved[property]), "%s has the saved %s" % [what, property])
		_expect_eq(copy.get_profile_names(), PackedStringArray(["jeep", "walker"]), "%s registers the saved profiles" % what)
	# After match_tile_map_layer() on a layout AStarGrid2D has no name for, the node reads
	# CELL_SHAPE_TILE_SET; its instance loads square, without an error, until matched again.
	var layer := TileMapLayer.new()
	layer.tile_set = TileSet.new()
	layer.tile_set.tile_shape = TileSet.TILE_SHAPE_HEXAGON
	root.add_child(layer)
	root.add_child(pf)
	_expect(pf.match_tile_map_layer(layer), "a hexagonal layer is matched")
	_expect_eq(pf.cell_shape, ClearancePathfinder.CELL_SHAPE_TILE_SET, "a layout without a name")
	_expect_eq(scene.pack(pf), OK, "the matched node packs")
	var reloaded: ClearancePathfinder = scene.instantiate()
	_expect_eq(reloaded.cell_shape, ClearancePathfinder.CELL_SHAPE_SQUARE, "it loads square")
	root.add_child(reloaded)
	_expect(reloaded.match_tile_map_layer(layer), "and is matched again")
	_expect_eq(reloaded.cell_shape, ClearancePathfinder.CELL_SHAPE_TILE_SET, "to the layer's layout")
	for node: Node in [pf, reloaded, layer]:
		node.free()
	for copy: Node in copies.values():
		copy.free()
	return ""


## A setting as it can be compared: a profile array as each profile's name, terrains and costs
## (a loaded scene's profiles are other resources with the same contents).
func _comparable(value: Variant) -> Variant:
	if value is Array:
		var rows: Array = []
		for profile: AgentProfile in value:
			if profile == null:
				rows.append(null)
			else:
				rows.append([profile.name, profile.terrains, profile.costs])
		return rows
	return value


## A profile set, removed or registered from `profiles`, or a new `diagonal_mode`, changes
## answers over the whole map: each moves the version on and emits `map_changed` with the
## whole region; a refused or unchanged one (the same profile set again) does neither.
func check_rule_changes_signal() -> Variant:
	var pf := _map(["rrrr", "rrrr"], EIGHT_WAY)
	var whole := Rect2i(0, 0, 4, 2)
	var emitted: Array[Rect2i] = []
	pf.map_changed.connect(func(rect: Rect2i) -> void: emitted.append(rect))
	var versions: Array[int] = [pf.get_map_version()]
	_expect(pf.set_profile(&"walker", {ROAD: 1.0}), "set_profile")
	versions.append(pf.get_map_version())
	_expect(not pf.set_profile(&"walker", {ROAD: NAN}), "a refused set_profile")
	_expect(pf.set_profile(&"walker", {ROAD: 1.0}), "the same profile again")
	_expect(not pf.remove_profile(&"nobody"), "removing an unknown profile")
	pf.diagonal_mode = EIGHT_WAY
	_expect_eq([emitted.size(), pf.get_map_version()], [1, versions[1]], "refused and unchanged settings neither signal nor move the version")
	pf.diagonal_mode = NEVER
	versions.append(pf.get_map_version())
	pf.profiles = [_agent_profile(&"jeep", [ROAD], [2.0])] as Array[AgentProfile]
	_expect(pf.reload_profiles(), "a resource profile registers")
	versions.append(pf.get_map_version())
	_expect(pf.remove_profile(&"walker"), "remove_profile")
	versions.append(pf.get_map_version())
	_expect_eq(emitted, [whole, whole, whole, whole] as Array[Rect2i], "each change signals the whole map")
	for i: int in range(1, versions.size()):
		_expect(versions[i] > versions[i - 1], "change %d moves the version on: %s" % [i, versions])
	# Resources registered inside another call (the first query after `profiles` changed)
	# signal at the end of the frame, not in the middle of that call.
	pf.profiles = [_agent_profile(&"jeep", [ROAD], [3.0])] as Array[AgentProfile]
	_expect_eq(pf.find_path(Vector2i(0, 0), Vector2i(3, 1), 1, &"jeep").total_cost, 12.0, "the new resource answers (4 steps at 3.0)")
	_expect_eq(emitted.size(), 4, "no signal inside the query")
	await tree.process_frame
	_expect_eq(emitted, [whole, whole, whole, whole, whole] as Array[Rect2i], "the signal at the end of the frame")
	pf.free()
	return ""
