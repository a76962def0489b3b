extends SceneTree
## Headless verifier for the Clearance Pathfinder extension:
##   godot --headless --path godot-project --script res://tests/verify.gd
## Runs named checks, prints one line `RECEIPT {json}` listing each check and whether it passed,
## and quits with status 1 if any failed. The bad-input checks make the extension print error
## messages along the way; those are expected and not matched: each such check asserts the
## failure value and that nothing changed. The checks live in one script per concern, each
## extending check_base.gd.

const Expectations := preload("res://tests/expectations.gd")
const RuleChecks := preload("res://tests/rule_checks.gd")
const InputChecks := preload("res://tests/input_checks.gd")
const NodeChecks := preload("res://tests/node_checks.gd")
const GeneratedChecks := preload("res://tests/generated_checks.gd")
const AsyncChecks := preload("res://tests/async_checks.gd")
const FieldChecks := preload("res://tests/field_checks.gd")
const UnitChecks := preload("res://tests/unit_checks.gd")
const RangeChecks := preload("res://tests/range_checks.gd")
const ShapeChecks := preload("res://tests/shape_checks.gd")
const SmoothingChecks := preload("res://tests/smoothing_checks.gd")

var checks: Array[Dictionary] = []
var expectations := Expectations.new()
var problems: Array[String] = expectations.problems
var rng := RandomNumberGenerator.new()


func _initialize() -> void:
	rng.seed = 20260329
	var rules := RuleChecks.new(expectations, rng, self)
	var inputs := InputChecks.new(expectations, rng, self)
	var nodes := NodeChecks.new(expectations, rng, self)
	var generated := GeneratedChecks.new(expectations, rng, self)
	var requests := AsyncChecks.new(expectations, rng, self)
	await _run("width_one_gap_passes_1x1_and_sends_2x2_round", rules.check_gap)
	await _run("road_at_1_beats_swamp_at_3", rules.check_road_vs_swamp)
	await _run("start_cell_is_never_charged", rules.check_uncharged_start)
	await _run("multiplier_below_one_takes_longer_cheaper_route", rules.check_cheap_road)
	await _run("larger_agents_pay_the_dearest_footprint_cell", rules.check_footprint_cost)
	await _run("diagonals_never_cut_corners", rules.check_corners)
	await _run("goal_and_start_clearance_codes", rules.check_clearance_codes)
	await _run("bad_queries_get_their_codes_in_order", inputs.check_bad_queries)
	await _run("bad_terrain_edits_return_false_and_change_nothing", inputs.check_bad_edits)
	await _run("good_terrain_edits_apply_and_signal", inputs.check_good_edits)
	await _run("bad_profiles_return_false_and_change_nothing", inputs.check_bad_profiles)
	await _run("bad_properties_are_refused", inputs.check_bad_properties)
	await _run("region_change_rebuilds_and_keeps_profiles", inputs.check_region_rebuild)
	await _run("determinism_same_query_same_path", rules.check_determinism)
	await _run("coordinates_and_footprints", nodes.check_coordinates)
	await _run("find_path_world_uses_global_footprint_centres", nodes.check_world)
	await _run("tile_map_layer_import", nodes.check_import)
	await _run("tile_map_layer_import_every_tile_kind", nodes.check_import_tile_kinds)
	await _run("tile_map_layer_import_refuses_bad_layers", nodes.check_bad_import)
	await _run("agent_profile_resources", nodes.check_resources)
	await _run("demo_scene_profiles_load_from_resources", nodes.check_demo_scene)
	await _run("saved_scenes_restore_every_setting", nodes.check_saved_settings)
	await _run("profile_and_diagonal_changes_signal_the_whole_map", nodes.check_rule_changes_signal)
	await _run("generated_size_2_and_3_queries_match_reference", generated.check_generated.bind(false, 8, 15))
	await _run("generated_weighted_queries_match_reference", generated.check_generated.bind(true, 8, 10))
	await _run("landmark_queries_agree_with_plain_queries", generated.check_landmarks)
	await _run("search_mode_changes_no_cost", generated.check_search_modes)
	await _run("result_formats_and_id_paths_describe_the_same_path", generated.check_result_formats)
	await _run("edits_between_queries_keep_results_exact", generated.check_live_edits)
	await _run("partial_paths_end_at_the_nearest_reachable_anchor", rules.check_partial_paths)
	await _run("expansion_and_memory_limits_are_codes", rules.check_limits)
	await _run("async_requests_arrive_with_their_ids", requests.check_async_requests)
	await _run("async_results_belong_to_the_map_version_they_were_asked_on", requests.check_async_versions)
	await _run("async_requests_keep_their_format_and_survive_a_new_pool", requests.check_async_requests_keep_their_moment)
	await _run("batches_equal_single_queries", requests.check_batches)
	await _run("cancelled_requests_never_signal_and_the_rest_arrive_whole", requests.check_cancelled_requests)
	await _run("search_memory_is_reported_and_trimmed", requests.check_search_memory)
	await _run("a_script_extending_the_node_keeps_its_requests", requests.check_scripted_subclass)
	await _run("every_func_refuses_bad_input_and_changes_nothing", inputs.check_every_func_bad_input)
	var fields := FieldChecks.new(expectations, rng, self)
	await _run("flow_fields_match_find_path_and_reference", fields.check_fields_match_reference)
	await _run("group_orders_equal_find_path_per_start", fields.check_group_orders)
	await _run("async_flow_field_belongs_to_the_version_it_was_asked_on", fields.check_async_field)
	await _run("flow_field_steers_by_world_position", fields.check_steering)
	await _run("flow_field_methods_refuse_bad_input_and_change_nothing", fields.check_bad_input)
	var units := UnitChecks.new(expectations, rng, self)
	await _run("registered_units_block_paths_at_every_entry_point", units.check_blocking)
	await _run("the_moving_unit_and_its_group_never_block_it", units.check_self_exemption)
	await _run("units_at_a_footprint_in_a_crowd_match_a_pass_over_every_unit", units.check_units_at_in_a_crowd)
	await _run("goal_occupied_names_the_unit_in_the_way", units.check_goal_occupied)
	await _run("other_units_cost_raises_total_cost", units.check_cost_mode)
	await _run("async_requests_count_units_where_they_stood", units.check_async_units)
	await _run("flow_fields_and_group_orders_count_units", units.check_fields_and_group_orders)
	await _run("arrival_slots_are_legal_reachable_and_apart_and_sent_to", units.check_arrival_slots)
	await _run("group_orders_to_slots_on_request_answer_for_their_moment", units.check_slot_requests)
	await _run("unit_methods_refuse_bad_input_and_change_nothing", units.check_bad_input)
	var ranges := RangeChecks.new(expectations, rng, self)
	await _run("movement_ranges_match_find_path", ranges.check_ranges_match_find_path)
	await _run("movement_range_boundary_and_turns", ranges.check_boundary_and_turns)
	await _run("movement_ranges_pass_allies_and_count_enemies", ranges.check_allies_and_enemies)
	await _run("async_movement_range_belongs_to_the_map_it_was_asked_on", ranges.check_async_range)
	await _run("movement_range_paths_carry_waypoints", ranges.check_smoothed_paths)
	await _run("movement_range_methods_refuse_bad_input", ranges.check_bad_input)
	var shapes := ShapeChecks.new(expectations, rng, self)
	await _run("cell_shapes_follow_every_tile_set_layout", shapes.check_tile_set_layouts)
	await _run("isometric_cell_shapes_match_astar_grid_2d", shapes.check_isometric_cell_shapes)
	await _run("isometric_world_queries_and_steering", shapes.check_isometric_queries)
	await _run("bad_layers_and_cell_shapes_are_refused", shapes.check_bad_shapes)
	var smoothing := SmoothingChecks.new(expectations, rng, self)
	await _run("find_path_waypoints_in_every_result_format", smoothing.check_find_path_waypoints)
	await _run("get_point_path_follows_the_waypoints", smoothing.check_point_path_follows_waypoints)
	await _run("world_points_and_batches_follow_the_waypoints", smoothing.check_world_and_batch_waypoints)
	await _run("requests_answer_with_waypoints_in_every_format", smoothing.check_request_waypoints)
	await _run("requested_flow_fields_are_smoothed", smoothing.check_requested_field_waypoints)
	await _run("flow_field_paths_are_smoothed", smoothing.check_flow_field_waypoints)
	await _run("smoothed_flow_fields_steer_towards_waypoints", smoothing.check_flow_field_steering)
	await _run("units_steered_by_fields_arrive_on_legal_anchors", smoothing.check_steered_walks)
	await _run("bad_smoothing_is_refused_and_changes_nothing", smoothing.check_bad_smoothing)
	await _run("straight_moves_keep_the_waypoints_rule", smoothing.check_straight_moves)
	await _run("smooth_path_gives_a_querys_waypoints", smoothing.check_smooth_path)
	var failed := checks.filter(func(check: Dictionary) -> bool: return not check["pass"]).size()
	var receipt := {
		"suite": "clearance_pathfinder_godot",
		"engine": Engine.get_version_info().string,
		"checks": checks,
		"total": checks.size(),
		"passed": checks.size() - failed,
		"failed": failed,
	}
	print("RECEIPT " + JSON.stringify(receipt))
	quit(1 if failed > 0 else 0)


## Runs one check and records it. A check returns a String (its detail, or ""); a check that
## stops on a script error returns null instead (see check_base.gd) and fails, whatever it had
## found by then.
func _run(check_name: String, check: Callable) -> void:
	problems.clear()
	# Checks that wait for signals are coroutines; awaiting a plain call returns at once.
	var detail: Variant = await check.call()
	if detail == null:
		# First, so that the receipt's first eight problems include it.
		problems.push_front("the check stopped on a script error (it returned null, not a String)")
	var entry := {"name": check_name, "pass": problems.is_empty()}
	if not problems.is_empty():
		entry["problems"] = Array(problems.slice(0, 8))
	elif detail is String and detail != "":
		entry["detail"] = detail
	checks.append(entry)
