extends RefCounted
## What the benches share: a Moving AI map and its scenarios read from `--movingai=DIR`, a
## ClearancePathfinder set up on them, and the command line's `--key=value` arguments.

const OPEN: int = 0
const BLOCKED: int = 1
const PROFILE: StringName = &"movingai"


## A map's cells, row by row: OPEN where the Moving AI format says the ground is passable
## ('.', 'G' and 'S'), BLOCKED elsewhere.
class Map:
	var size: Vector2i
	var terrain: PackedByteArray


## A scenario file's problems, in its order, with the published optimal lengths.
class Scenarios:
	var starts: Array[Vector2i] = []
	var goals: Array[Vector2i] = []
	var optimal: PackedFloat64Array = []


## The map at `path`, or null when there is no such file.
static func read_map(path: String) -> Map:
	if not FileAccess.file_exists(path):
		return null
	var lines: PackedStringArray = FileAccess.get_file_as_string(path).split("\n")
	var map := Map.new()
	var row: int = 0
	while not lines[row].begins_with("map"):
		var words: PackedStringArray = lines[row].split(" ")
		if words[0] == "height":
			map.size.y = int(words[1])
		elif words[0] == "width":
			map.size.x = int(words[1])
		row += 1
	map.terrain.resize(map.size.x * map.size.y)
	for y: int in map.size.y:
		var text: String = lines[row + 1 + y]
		for x: int in map.size.x:
			map.terrain[y * map.size.x + x] = OPEN if ".GS".contains(text[x]) else BLOCKED
	return map


## The map called `name` in the folder `directory`; null, with an error that says to pass
## `--movingai=DIR`, when it is not there.
static func named_map(directory: String, name: String) -> Map:
	var map: Map = read_map(directory.path_join(name + ".map"))
	if map == null:
		push_error("pass --movingai=DIR, the folder with the Moving AI maps (no %s.map in '%s')" % [name, directory])
	return map


## The problems of the scenario file at `path` (empty when there is no such file).
static func read_scenarios(path: String) -> Scenarios:
	var scenarios := Scenarios.new()
	for line: String in FileAccess.get_file_as_string(path).split("\n").slice(1):
		var fields: PackedStringArray = line.replace("\t", " ").split(" ", false)
		if fields.size() < 9:
			continue
		scenarios.starts.append(Vector2i(int(fields[4]), int(fields[5])))
		scenarios.goals.append(Vector2i(int(fields[6]), int(fields[7])))
		scenarios.optimal.append(float(fields[8]))
	return scenarios


## The problems of the scenario file at `path`; null, with an error naming the file, when it
## is missing or holds no problems (a bench on no queries would print NaN timings as results).
static func required_scenarios(path: String) -> Scenarios:
	if not FileAccess.file_exists(path):
		push_error("no scenario file at %s (pass --movingai=DIR, the folder with the Moving AI maps and their .map.scen files)" % path)
		return null
	var scenarios: Scenarios = read_scenarios(path)
	if scenarios.starts.is_empty():
		push_error("no scenarios in %s" % path)
		return null
	return scenarios


## The scenarios of the Moving AI map `name` in `directory` (its `.map.scen`), or null after an
## error, as required_scenarios() says.
static func named_scenarios(directory: String, name: String) -> Scenarios:
	return required_scenarios(directory.path_join(name + ".map.scen"))


## A pathfinder on `map` with the benchmarks' rules: 8-way moves that never cut a blocked
## corner, and the profile PROFILE entering OPEN ground at cost 1.
static func pathfinder(map: Map) -> ClearancePathfinder:
	var finder := ClearancePathfinder.new()
	finder.region = Rect2i(Vector2i.ZERO, map.size)
	finder.diagonal_mode = AStarGrid2D.DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES
	finder.load_terrain(map.terrain)
	finder.set_profile(PROFILE, {OPEN: 1.0})
	return finder


## The value of `--key=value` among the arguments after `--`, or `fallback`.
static func argument(key: String, fallback: String) -> String:
	for given: String in OS.get_cmdline_user_args():
		if given.begins_with("--" + key + "="):
			return given.get_slice("=", 1)
	return fallback
