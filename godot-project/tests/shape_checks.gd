extends "res://tests/check_base.gd"
## The verifier's checks of cell shapes (verify.gd runs them): after `match_tile_map_layer()`,
## cell centres and footprint centres against a real TileMapLayer's `map_to_local()`, cells of
## points against its `local_to_map()`, round trips, on every tile shape, layout and offset
## axis; AStarGrid2D's isometric points; world queries and steering on diamonds; bad input.

const SHAPES: Array[int] = [TileSet.TILE_SHAPE_SQUARE, TileSet.TILE_SHAPE_ISOMETRIC,
	TileSet.TILE_SHAPE_HALF_OFFSET_SQUARE, TileSet.TILE_SHAPE_HEXAGON]
const LAYOUTS: Array[int] = [TileSet.TILE_LAYOUT_STACKED, TileSet.TILE_LAYOUT_STACKED_OFFSET,
	TileSet.TILE_LAYOUT_STAIRS_RIGHT, TileSet.TILE_LAYOUT_STAIRS_DOWN,
	TileSet.TILE_LAYOUT_DIAMOND_RIGHT, TileSet.TILE_LAYOUT_DIAMOND_DOWN]
const AXES: Array[int] = [TileSet.TILE_OFFSET_AXIS_HORIZONTAL, TileSet.TILE_OFFSET_AXIS_VERTICAL]


## A layer (in the tree, moved and scaled) whose TileSet has this shape, layout and axis.
func _shaped_layer(shape: int, layout: int, axis: int, tile_size: Vector2i) -> TileMapLayer:
	var tile_set := TileSet.new()
	tile_set.tile_shape = shape as TileSet.TileShape
	tile_set.tile_layout = layout as TileSet.TileLayout
	tile_set.tile_offset_axis = axis as TileSet.TileOffsetAxis
	tile_set.tile_size = tile_size
	var layer := TileMapLayer.new()
	layer.tile_set = tile_set
	layer.position = Vector2(-20, 30)
	layer.scale = Vector2(2, 1)
	root.add_child(layer)
	return layer


## Where `layer` puts the centre of `cell`, in the local space of `pf`.
func _tile_centre(pf: ClearancePathfinder, layer: TileMapLayer, cell: Vector2i) -> Vector2:
	return pf.to_local(layer.to_global(layer.map_to_local(cell)))


func _near(a: Vector2, b: Vector2) -> bool:
	return a.distance_to(b) <= 1e-3 * maxf(1.0, b.length() / 1000.0)


## On every TileSet layout: centres, footprint centres (the mean of their cells' centres),
## round trips, and the cells of points near centres as the layer's own `local_to_map()` says.
func check_tile_set_layouts() -> Variant:
	var pf := ClearancePathfinder.new()
	root.add_child(pf)
	pf.position = Vector2(100, 50)
	var layouts := 0
	var compared := 0
	for shape: int in SHAPES:
		for layout: int in LAYOUTS:
			for axis: int in AXES:
				var tile_size := Vector2i(64, 32) if shape == TileSet.TILE_SHAPE_ISOMETRIC else Vector2i(30, 26)
				var layer := _shaped_layer(shape, layout, axis, tile_size)
				var label := "shape %d layout %d axis %d" % [shape, layout, axis]
				_expect(pf.match_tile_map_layer(layer), label + ": matched")
				_expect_eq(pf.cell_size, Vector2(tile_size) * Vector2(2, 1), label + ": cell_size")
				_expect_eq(pf.offset, Vector2(-120, -20), label + ": offset")
				var named := ClearancePathfinder.CELL_SHAPE_TILE_SET
				if shape == TileSet.TILE_SHAPE_SQUARE:
					named = ClearancePathfinder.CELL_SHAPE_SQUARE
				elif shape == TileSet.TILE_SHAPE_ISOMETRIC and layout == TileSet.TILE_LAYOUT_DIAMOND_RIGHT:
					named = ClearancePathfinder.CELL_SHAPE_ISOMETRIC_RIGHT
				elif shape == TileSet.TILE_SHAPE_ISOMETRIC and layout == TileSet.TILE_LAYOUT_DIAMOND_DOWN:
					named = ClearancePathfinder.CELL_SHAPE_ISOMETRIC_DOWN
				_expect_eq(pf.cell_shape, named, label + ": cell_shape")
				for y: int in range(-5, 6):
					for x: int in range(-5, 6):
						var cell := Vector2i(x, y)
						var centre := pf.cell_to_local(cell)
						var expected := _tile_centre(pf, layer, cell)
						_expect(_near(centre, expected), "%s: cell %s at %s, map_to_local %s" % [label, cell, centre, expected])
						_expect_eq(pf.local_to_cell(centre), cell, "%s: round trip of %s" % [label, cell])
						var nudge := Vector2(rng.randf_range(-0.2, 0.2), rng.randf_range(-0.2, 0.2)) * pf.cell_size
						var point := centre + nudge
						var by_layer := layer.local_to_map(layer.to_local(pf.to_global(point)))
						_expect_eq(pf.local_to_cell(point), by_layer, "%s: cell of %s near %s" % [label, point, cell])
						compared += 1
				for anchor: Vector2i in [Vector2i(0, 0), Vector2i(-3, 2), Vector2i(1, -4)]:
					for size: int in [2, 3]:
						var sum := Vector2.ZERO
						for cell: Vector2i in pf.get_footprint_cells(anchor, size):
							sum += _tile_centre(pf, layer, cell)
						var mean := sum / float(size * size)
						var centre := pf.footprint_center(anchor, size)
						_expect(_near(centre, mean), "%s: %dx%d at %s centred at %s, mean of map_to_local %s" % [label, size, size, anchor, centre, mean])
				layer.free()
				layouts += 1
	pf.free()
	return "%d layouts, %d cells against map_to_local and local_to_map" % [layouts, compared]


## `cell_shape` without a layer: AStarGrid2D's point positions (plus the half cell AStarGrid2D
## leaves out only for square cells), and the middle of a 2x2's diamond.
func check_isometric_cell_shapes() -> Variant:
	var pf := ClearancePathfinder.new()
	root.add_child(pf)
	pf.cell_size = Vector2(64, 32)
	pf.offset = Vector2(10, -6)
	for shape: int in [ClearancePathfinder.CELL_SHAPE_ISOMETRIC_RIGHT, ClearancePathfinder.CELL_SHAPE_ISOMETRIC_DOWN]:
		pf.cell_shape = shape
		_expect_eq(pf.cell_shape, shape, "cell_shape %d set" % shape)
		var astar := AStarGrid2D.new()
		astar.region = Rect2i(-4, -3, 9, 7)
		astar.cell_size = pf.cell_size
		astar.offset = pf.offset
		astar.cell_shape = shape as AStarGrid2D.CellShape
		astar.update()
		for y: int in range(-3, 4):
			for x: int in range(-4, 5):
				var cell := Vector2i(x, y)
				_expect(_near(pf.cell_to_local(cell), astar.get_point_position(cell)), "shape %d: %s at %s, AStarGrid2D %s" % [shape, cell, pf.cell_to_local(cell), astar.get_point_position(cell)])
				_expect_eq(pf.local_to_cell(pf.cell_to_local(cell)), cell, "shape %d: round trip of %s" % [shape, cell])
		var corners := pf.cell_to_local(Vector2i(2, 1)) + pf.cell_to_local(Vector2i(3, 2))
		_expect(_near(pf.footprint_center(Vector2i(2, 1), 2), corners / 2.0), "shape %d: a 2x2 is centred between its corner cells" % shape)
	pf.free()
	return ""


## On diamonds, world queries give global footprint centres and a flow field steers towards the
## next anchor's centre.
func check_isometric_queries() -> Variant:
	var pf := _map(_rows_of(8, 8, "."), EIGHT_WAY)
	pf.set_profile(&"unit", {GROUND: 1.0})
	pf.fill_rect_terrain(Rect2i(3, 0, 1, 5), WALL)
	pf.position = Vector2(300, 20)
	pf.cell_size = Vector2(64, 32)
	pf.cell_shape = ClearancePathfinder.CELL_SHAPE_ISOMETRIC_DOWN
	var start := Vector2i(0, 0)
	var goal := Vector2i(5, 1)
	var start_position := pf.to_global(pf.footprint_center(start, 2)) + Vector2(6, -3)
	var goal_position := pf.to_global(pf.footprint_center(goal, 2)) + Vector2(-5, 3)
	var result := pf.find_path_world(start_position, goal_position, 2, &"unit")
	var direct := pf.find_path(start, goal, 2, &"unit")
	_expect_eq([result.start_anchor, result.goal_anchor, result.code], [start, goal, "OK"], "anchors from positions near footprint centres")
	_expect_eq(result.path, direct.path, "same path as find_path")
	var expected := PackedVector2Array()
	var local := PackedVector2Array()
	for anchor: Vector2i in direct.path:
		expected.append(pf.to_global(pf.footprint_center(anchor, 2)))
		local.append(pf.footprint_center(anchor, 2))
	_expect_eq(result.points, expected, "world points are global footprint centres")
	_expect_eq(pf.get_point_path(start, goal, 2, &"unit"), local, "get_point_path gives local footprint centres")
	var field := pf.get_flow_field([goal], 2, &"unit")
	for anchor: Vector2i in direct.path.slice(0, direct.path.size() - 1):
		var here := pf.to_global(pf.footprint_center(anchor, 2))
		var there := pf.to_global(pf.footprint_center(field.get_next_anchor(anchor), 2))
		var way := field.get_direction_world(here + Vector2(2, 1))
		_expect(way.dot((there - here).normalized()) > 0.9, "at %s the field steers %s, towards %s" % [anchor, way, (there - here).normalized()])
	pf.free()
	return ""


## Bad layers and cell shapes are refused with an error and change nothing.
func check_bad_shapes() -> Variant:
	var pf := ClearancePathfinder.new()
	root.add_child(pf)
	pf.cell_size = Vector2(10, 20)
	pf.offset = Vector2(3, 4)
	var settings := [pf.cell_size, pf.offset, pf.cell_shape]
	var bare := TileMapLayer.new()
	root.add_child(bare)
	var turned := _shaped_layer(TileSet.TILE_SHAPE_ISOMETRIC, TileSet.TILE_LAYOUT_DIAMOND_DOWN, 0, Vector2i(64, 32))
	turned.rotation = 0.5
	var mirrored := _shaped_layer(TileSet.TILE_SHAPE_ISOMETRIC, TileSet.TILE_LAYOUT_DIAMOND_DOWN, 0, Vector2i(64, 32))
	mirrored.scale = Vector2(-1, 1)
	_expect(not pf.match_tile_map_layer(null), "a null layer")
	_expect(not pf.match_tile_map_layer(bare), "a layer without a TileSet")
	_expect(not pf.match_tile_map_layer(turned), "a rotated layer")
	_expect(not pf.match_tile_map_layer(mirrored), "a mirrored layer")
	mirrored.scale = Vector2(1, 1)
	# Setting `scale` to 0 gives a tiny scale instead; the transform itself can be 0.
	pf.transform = Transform2D(Vector2.ZERO, Vector2(0, 1), Vector2.ZERO)
	_expect(not pf.match_tile_map_layer(mirrored), "a node squashed to a line")
	pf.transform = Transform2D.IDENTITY
	mirrored.scale = Vector2(1e38, 1e38)
	_expect(not pf.match_tile_map_layer(mirrored), "a layer whose tiles would be infinitely wide")
	pf.cell_shape = 7
	pf.cell_shape = -1
	pf.cell_shape = ClearancePathfinder.CELL_SHAPE_TILE_SET
	_expect_eq([pf.cell_size, pf.offset, pf.cell_shape], settings, "settings unchanged")
	for node: Node in [bare, turned, mirrored, pf]:
		node.free()
	return ""
