extends RefCounted
## An independent reference for the verifier: Dijkstra over anchors on the raw terrain grid,
## checking every footprint cell directly (no clearance layer, no shared code with the
## extension). Same rules: a step costs its length (1 or sqrt 2) times the highest multiplier
## under the footprint where it arrives; a diagonal step needs both orthogonal anchors it
## passes to be legal; the start is never charged.

var width: int
var height: int
var terrain: PackedByteArray
var multipliers: Dictionary  # terrain id -> multiplier; a terrain not listed is impassable
var eight_way: bool


func _init(map_width: int, map_height: int, data: PackedByteArray, costs: Dictionary, diagonal: bool) -> void:
	width = map_width
	height = map_height
	terrain = data
	multipliers = costs
	eight_way = diagonal


## Whether every cell of the size x size footprint at (x, y) is on the map and enterable.
func legal(x: int, y: int, size: int) -> bool:
	if x < 0 or y < 0 or x + size > width or y + size > height:
		return false
	for dy: int in size:
		for dx: int in size:
			if not multipliers.has(terrain[(y + dy) * width + x + dx]):
				return false
	return true


## The largest size whose footprint is legal at (x, y), by trying each size in turn (0 if
## none is, up to 255).
func clearance(x: int, y: int) -> int:
	var size := 0
	while size < 255 and legal(x, y, size + 1):
		size += 1
	return size


## The cost of one step from anchor `from` to the neighbouring anchor `to`, or INF if illegal.
func step_cost(from: Vector2i, to: Vector2i, size: int) -> float:
	var d := to - from
	if absi(d.x) > 1 or absi(d.y) > 1 or d == Vector2i.ZERO:
		return INF
	var diagonal := d.x != 0 and d.y != 0
	if diagonal and not eight_way:
		return INF
	if not legal(to.x, to.y, size):
		return INF
	if diagonal and not (legal(from.x + d.x, from.y, size) and legal(from.x, from.y + d.y, size)):
		return INF
	var highest := 0.0
	for dy: int in size:
		for dx: int in size:
			highest = maxf(highest, multipliers[terrain[(to.y + dy) * width + to.x + dx]])
	return (sqrt(2.0) if diagonal else 1.0) * highest


## The cost of a whole path of anchors, or INF if any step is illegal.
func path_cost(path: Array, size: int) -> float:
	var total := 0.0
	for i: int in range(1, path.size()):
		total += step_cost(path[i - 1], path[i], size)
	return total


## The cheapest cost from `start` to `goal` (both legal), or INF if the goal is unreachable.
func shortest_cost(start: Vector2i, goal: Vector2i, size: int) -> float:
	var best := PackedFloat64Array()
	best.resize(width * height)
	best.fill(INF)
	best[start.y * width + start.x] = 0.0
	var heap_costs := PackedFloat64Array([0.0])
	var heap_cells := PackedInt32Array([start.y * width + start.x])
	while not heap_costs.is_empty():
		var cost := heap_costs[0]
		var index := heap_cells[0]
		_pop(heap_costs, heap_cells)
		if cost > best[index]:
			continue
		@warning_ignore("integer_division")
		var here := Vector2i(index % width, index / width)
		if here == goal:
			return cost
		for dy: int in range(-1, 2):
			for dx: int in range(-1, 2):
				var next := here + Vector2i(dx, dy)
				var step := step_cost(here, next, size)
				if step == INF:
					continue
				var next_index := next.y * width + next.x
				if cost + step < best[next_index]:
					best[next_index] = cost + step
					_push(heap_costs, heap_cells, cost + step, next_index)
	return INF


func _push(costs: PackedFloat64Array, cells: PackedInt32Array, cost: float, cell: int) -> void:
	costs.append(cost)
	cells.append(cell)
	var i := costs.size() - 1
	while i > 0:
		var parent := (i - 1) >> 1
		if costs[parent] <= costs[i]:
			break
		_swap(costs, cells, i, parent)
		i = parent


func _pop(costs: PackedFloat64Array, cells: PackedInt32Array) -> void:
	var last := costs.size() - 1
	_swap(costs, cells, 0, last)
	costs.resize(last)
	cells.resize(last)
	var i := 0
	while true:
		var smallest := i
		for child: int in [2 * i + 1, 2 * i + 2]:
			if child < last and costs[child] < costs[smallest]:
				smallest = child
		if smallest == i:
			return
		_swap(costs, cells, i, smallest)
		i = smallest


func _swap(costs: PackedFloat64Array, cells: PackedInt32Array, a: int, b: int) -> void:
	var cost := costs[a]
	costs[a] = costs[b]
	costs[b] = cost
	var cell := cells[a]
	cells[a] = cells[b]
	cells[b] = cell
