extends SceneTree
## Importing a TileMapLayer's terrain from GDScript: `import_tile_map_layer` on a layer that
## holds a Moving AI map (a tile per cell, its terrain in the TileSet's custom data layer
## "terrain"), beside what a script would write without it: `get_used_cells`, each cell's
## `get_cell_tile_data().get_custom_data()`, then `load_terrain`.
##
##   godot --headless --path godot-project --script res://bench/import_bench.gd -- --movingai=DIR [--rounds=5] [--map=AcrosstheCape]
##
## Prints the fastest round of each (other work only adds time), the two alternating round by
## round, and checks that both give the map's terrain. Exits 2 when the map is missing or an
## import disagrees with the map.

const MovingAI := preload("res://bench/movingai.gd")
const TERRAIN_LAYER := "terrain"


func _initialize() -> void:
	var directory: String = MovingAI.argument("movingai", "")
	var rounds: int = maxi(1, int(MovingAI.argument("rounds", "5")))
	var map_name: String = MovingAI.argument("map", "AcrosstheCape")
	var map: MovingAI.Map = MovingAI.named_map(directory, map_name)
	if map == null:
		quit(2)
		return
	var layer := _layer_of(map)
	root.add_child(layer)
	var finder := ClearancePathfinder.new()
	root.add_child(finder)
	var fastest := {&"import": INF, &"script": INF}
	for round: int in rounds + 1:
		for way: StringName in fastest:
			var started := Time.get_ticks_usec()
			var imported := finder.import_tile_map_layer(layer, TERRAIN_LAYER) if way == &"import" else _import_by_script(finder, layer)
			var took := float(Time.get_ticks_usec() - started)
			if not imported or finder.get_terrain_data() != map.terrain:
				push_error("%s gave a terrain other than the map's" % way)
				quit(2)
				return
			# The first round warms up.
			if round > 0:
				fastest[way] = minf(fastest[way], took)
	var cells: int = map.size.x * map.size.y
	print("| %s (%d x %d), %d rounds | fastest | per cell |" % [map_name, map.size.x, map.size.y, rounds])
	print("|---|---|---|")
	for way: StringName in fastest:
		var label: String = "import_tile_map_layer" if way == &"import" else "GDScript: get_cell_tile_data per cell, then load_terrain"
		print("| %s | %.1f ms | %.1f ns |" % [label, fastest[way] / 1000.0, fastest[way] * 1000.0 / cells])
	print("\nimport_tile_map_layer takes %.3fx the script's time." % (fastest[&"import"] / fastest[&"script"]))
	finder.free()
	layer.free()
	quit(0)


## A layer with a tile per cell of `map`: atlas tile (0, 0) for OPEN, (1, 0) for BLOCKED,
## whose custom data "terrain" is that terrain id. Filled through `tile_map_data`, one call.
func _layer_of(map: MovingAI.Map) -> TileMapLayer:
	var tile_set := TileSet.new()
	tile_set.add_custom_data_layer()
	tile_set.set_custom_data_layer_name(0, TERRAIN_LAYER)
	tile_set.set_custom_data_layer_type(0, TYPE_INT)
	var atlas := TileSetAtlasSource.new()
	var image := Image.create(32, 16, false, Image.FORMAT_RGBA8)
	atlas.texture = ImageTexture.create_from_image(image)
	atlas.texture_region_size = Vector2i(16, 16)
	tile_set.add_source(atlas, 0)
	for terrain: int in [MovingAI.OPEN, MovingAI.BLOCKED]:
		atlas.create_tile(Vector2i(terrain, 0))
		atlas.get_tile_data(Vector2i(terrain, 0), 0).set_custom_data(TERRAIN_LAYER, terrain)
	# Godot's `tile_map_data` format: a 16-bit format number (0), then 12 bytes a cell.
	var data := PackedByteArray()
	data.resize(2 + 12 * map.size.x * map.size.y)
	var at := 2
	for y: int in map.size.y:
		for x: int in map.size.x:
			data.encode_s16(at, x)
			data.encode_s16(at + 2, y)
			data.encode_u16(at + 4, 0)
			data.encode_u16(at + 6, map.terrain[y * map.size.x + x])
			data.encode_u16(at + 8, 0)
			data.encode_u16(at + 10, 0)
			at += 12
	var layer := TileMapLayer.new()
	layer.tile_set = tile_set
	layer.tile_map_data = data
	return layer


## The terrain a script would read from `layer` cell by cell, loaded into `finder`.
func _import_by_script(finder: ClearancePathfinder, layer: TileMapLayer) -> bool:
	var rect := layer.get_used_rect()
	var terrain := PackedByteArray()
	terrain.resize(rect.size.x * rect.size.y)
	for cell: Vector2i in layer.get_used_cells():
		var value: int = layer.get_cell_tile_data(cell).get_custom_data(TERRAIN_LAYER)
		terrain[(cell.y - rect.position.y) * rect.size.x + cell.x - rect.position.x] = value
	finder.region = rect
	return finder.load_terrain(terrain)
