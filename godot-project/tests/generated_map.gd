extends RefCounted
## A random map for the verifier: ground with rectangles of wall, road, swamp and water, random
## multipliers when weighted (0, below 1 and above), 4- or 8-way; as a node and as the
## independent reference sees it.

const Reference := preload("res://tests/reference.gd")
const GROUND := 0
const WALL := 1
const ROAD := 2
const SWAMP := 3
const WATER := 6

var width: int
var height: int
var data := PackedByteArray()
var costs: Dictionary
var eight_way: bool


func _init(rng: RandomNumberGenerator, weighted: bool, size_range: Rect2i) -> void:
	width = rng.randi_range(size_range.position.x, size_range.end.x)
	height = rng.randi_range(size_range.position.y, size_range.end.y)
	data.resize(width * height)
	data.fill(GROUND)
	for i: int in rng.randi_range(6, 14):
		var rect := Rect2i(rng.randi_range(0, width - 1), rng.randi_range(0, height - 1), rng.randi_range(1, 6), rng.randi_range(1, 4))
		var terrain: int = [WALL, WALL, ROAD, SWAMP, WATER][rng.randi_range(0, 4)]
		for y: int in range(rect.position.y, mini(rect.end.y, height)):
			for x: int in range(rect.position.x, mini(rect.end.x, width)):
				data[y * width + x] = terrain
	costs = {GROUND: 1.0, ROAD: 1.0, SWAMP: 1.0}
	if weighted:
		var choices := [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 7.5]
		costs = {GROUND: choices[rng.randi_range(1, 7)], ROAD: choices[rng.randi_range(0, 7)],
			SWAMP: choices[rng.randi_range(1, 7)], WATER: choices[rng.randi_range(2, 7)]}
	eight_way = rng.randf() < 0.6


## A pathfinder over this map under `parent`, with the profile `generated`.
func node(parent: Node) -> ClearancePathfinder:
	var pf := ClearancePathfinder.new()
	parent.add_child(pf)
	pf.region = Rect2i(0, 0, width, height)
	pf.diagonal_mode = ClearancePathfinder.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES if eight_way else ClearancePathfinder.DIAGONAL_MODE_NEVER
	pf.load_terrain(data)
	pf.set_profile(&"generated", costs)
	return pf


func solver() -> Reference:
	return Reference.new(width, height, data, costs, eight_way)
