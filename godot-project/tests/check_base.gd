extends RefCounted
## What every group of verifier checks shares: the terrain ids of the hand-drawn maps, the
## expectations that collect problems, the seeded random numbers, the scene tree, and helpers
## that build maps. Each group extends this script; verify.gd runs them.
##
## Every check is declared `-> Variant` and returns a String: a detail for the receipt, or "".
## A function that stops on a script error returns its return type's default: "" for a
## `-> String` function, which would pass for a clean finish, but null for `-> Variant`, which
## verify.gd counts as a failure. (An error inside a helper or lambda the check calls stops only
## that call; the check then goes on.)

const Reference := preload("res://tests/reference.gd")
const GeneratedMap := preload("res://tests/generated_map.gd")
const Expectations := preload("res://tests/expectations.gd")

const GROUND := 0
const WALL := 1
const ROAD := 2
const SWAMP := 3
const MUD := 4
const RUBBLE := 5
const WATER := 6
const CHARACTERS := {".": GROUND, "#": WALL, "r": ROAD, "s": SWAMP, "m": MUD, "x": RUBBLE, "w": WATER}
const NEVER := ClearancePathfinder.DIAGONAL_MODE_NEVER
const EIGHT_WAY := ClearancePathfinder.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES

var expectations: Expectations
var rng: RandomNumberGenerator
var tree: SceneTree
var root: Window


func _init(shared_expectations: Expectations, shared_rng: RandomNumberGenerator, scene_tree: SceneTree) -> void:
	expectations = shared_expectations
	rng = shared_rng
	tree = scene_tree
	root = scene_tree.root


func _expect(condition: bool, what: String) -> void:
	expectations.expect(condition, what)


func _expect_eq(actual: Variant, expected: Variant, what: String) -> void:
	expectations.expect_eq(actual, expected, what)


## A pathfinder (in the tree, so ready runs) over a map drawn with CHARACTERS.
func _map(rows: Array, diagonal_mode: int) -> ClearancePathfinder:
	var pathfinder := ClearancePathfinder.new()
	root.add_child(pathfinder)
	pathfinder.diagonal_mode = diagonal_mode
	pathfinder.region = Rect2i(0, 0, rows[0].length(), rows.size())
	var data := PackedByteArray()
	for row: String in rows:
		for character: String in row:
			data.append(CHARACTERS[character])
	_expect(pathfinder.load_terrain(data), "load_terrain of a well-formed map")
	return pathfinder


func _snapshot(pathfinder: ClearancePathfinder) -> Array:
	return [pathfinder.get_terrain_data(), pathfinder.get_profile_names(), pathfinder.region]


func _filled(count: int, value: int) -> PackedByteArray:
	var data := PackedByteArray()
	data.resize(count)
	data.fill(value)
	return data


func _rows_of(width: int, height: int, character: String) -> Array:
	var rows := []
	for y: int in height:
		rows.append(character.repeat(width))
	return rows
