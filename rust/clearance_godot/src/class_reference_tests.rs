//! The editor's class reference as register-docs hands it to Godot (built without an engine
//! through gdext's `__gather_xml_docs`, the function its registration calls): every `#[func]`
//! and every constant is documented, those in `#[godot_api(secondary)]` blocks included, and
//! the BBCode that the doc comments become has no accidental tags.
#![forbid(unsafe_code)]

/// The class reference XML of `class`.
fn class_reference(class: &str) -> String {
    let opening = format!("<class name=\"{class}\"");
    godot::docs::__gather_xml_docs()
        .find(|xml| xml.contains(&opening))
        .unwrap_or_else(|| panic!("no class reference for {class}"))
}

/// The names of the documented methods in a class reference.
fn method_names(xml: &str) -> Vec<&str> {
    let mut names: Vec<&str> = xml
        .split("<method name=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    names.sort_unstable();
    names
}

/// The tags of `bbcode` outside `[code]` and `[codeblock]` spans, whose text the editor shows
/// as it is.
fn tags_outside_code(bbcode: &str) -> Vec<&str> {
    let mut tags = Vec::new();
    let mut rest = bbcode;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else {
            break;
        };
        let tag = &rest[..close];
        rest = &rest[close + 1..];
        let end = if tag == "code" {
            "[/code]"
        } else if tag == "codeblock" || tag.starts_with("codeblock ") {
            "[/codeblock]"
        } else {
            tags.push(tag);
            continue;
        };
        match rest.find(end) {
            Some(at) => rest = &rest[at + end.len()..],
            None => break,
        }
    }
    tags
}

#[test]
fn every_func_is_documented() {
    let pathfinder = class_reference("ClearancePathfinder");
    assert_eq!(
        method_names(&pathfinder),
        [
            "_on_notification",
            "_on_profile_changed",
            "add_unit",
            "add_units",
            "apply_terrain_batch",
            "bake_landmarks",
            "cancel_request",
            "cell_to_local",
            "clear_units",
            "fill_rect_terrain",
            "find_path",
            "find_path_world",
            "find_paths",
            "find_paths_to",
            "find_paths_to_slots",
            "footprint_center",
            "get_arrival_slots",
            "get_cell_terrain",
            "get_clearance",
            "get_flow_field",
            "get_flow_field_reaching",
            "get_footprint_cells",
            "get_id_path",
            "get_landmark_stats",
            "get_last_code",
            "get_last_result",
            "get_last_total_cost",
            "get_map_version",
            "get_movement_range",
            "get_pending_request_count",
            "get_point_path",
            "get_profile_names",
            "get_search_memory_bytes",
            "get_terrain_data",
            "get_unit",
            "get_unit_anchor",
            "get_unit_count",
            "get_units",
            "get_units_at",
            "get_units_version",
            "has_profile",
            "has_unit",
            "import_tile_map_layer",
            "is_straight_move_clear",
            "load_terrain",
            "local_to_cell",
            "match_tile_map_layer",
            "move_unit",
            "move_units",
            "reload_profiles",
            "remove_profile",
            "remove_unit",
            "request_flow_field",
            "request_flow_field_reaching",
            "request_movement_range",
            "request_path",
            "request_paths",
            "request_paths_to_slots",
            "set_cache_memory_limit_mb",
            "set_cell_shape",
            "set_cell_size",
            "set_cell_terrain",
            "set_debug_draw_clearance",
            "set_debug_draw_last_path",
            "set_debug_draw_last_range",
            "set_debug_draw_units",
            "set_debug_flow_field",
            "set_debug_profile",
            "set_default_terrain",
            "set_diagonal_mode",
            "set_empty_cell_terrain",
            "set_landmark_count",
            "set_max_map_cells",
            "set_offset",
            "set_other_units",
            "set_other_units_cost",
            "set_profile",
            "set_profiles",
            "set_region",
            "set_result_format",
            "set_search_expansion_limit",
            "set_search_mode",
            "set_smoothing",
            "set_worker_thread_count",
            "smooth_path",
            "trim_search_memory",
        ]
    );
    assert_eq!(
        method_names(&class_reference("ClearanceFlowField")),
        [
            "get_agent_size",
            "get_code",
            "get_cost",
            "get_direction_world",
            "get_goals",
            "get_map_version",
            "get_max_cost",
            "get_memory_bytes",
            "get_next_anchor",
            "get_path_from",
            "get_profile",
            "get_reached_count",
            "get_smoothing",
            "get_units_version",
            "is_complete",
            "is_ok",
            "is_reached",
        ]
    );
    assert_eq!(
        method_names(&class_reference("ClearanceMovementRange")),
        [
            "get_agent_size",
            "get_border_cells",
            "get_budget",
            "get_cells",
            "get_cost",
            "get_map_version",
            "get_path_to",
            "get_profile",
            "get_start",
            "get_turn_count",
            "get_turns",
            "get_units_version",
            "is_in_range",
        ]
    );
    assert_eq!(
        method_names(&class_reference("AgentProfile")),
        [
            "get_profile_name",
            "get_validation_error",
            "set_costs",
            "set_profile_name",
            "set_terrains",
        ]
    );
}

/// Brackets in text are BBCode to the editor: `Array[Vector2i]` in plain text shows as
/// "ArrayVector2i" with a link. Inside backticks (`[code]`) they show as written.
#[test]
fn the_class_reference_has_no_accidental_tags() {
    const FORMATTING: [&str; 10] = ["b", "/b", "i", "/i", "br", "lb", "rb", "u", "/u", "/url"];
    for class in [
        "ClearancePathfinder",
        "ClearanceFlowField",
        "ClearanceMovementRange",
        "AgentProfile",
    ] {
        let xml = class_reference(class);
        let stray: Vec<&str> = tags_outside_code(&xml)
            .into_iter()
            .filter(|tag| !FORMATTING.contains(tag) && !tag.starts_with("url="))
            .collect();
        assert!(stray.is_empty(), "{class}: stray BBCode tags {stray:?}");
    }
}

#[test]
fn code_spans_keep_their_brackets() {
    assert_eq!(
        tags_outside_code(
            "a [b]b[/b] [code]Array[Vector2i][/code] \
             [codeblock lang=gdscript]x[0][/codeblock] [Node2D]"
        ),
        ["b", "/b", "Node2D"]
    );
}

/// The constants live in a secondary block beside their values (`pathfinder/modes.rs`); the
/// editor still lists every one of them with its description.
#[test]
fn every_constant_is_documented() {
    let pathfinder = class_reference("ClearancePathfinder");
    let mut documented: Vec<(&str, &str)> = pathfinder
        .split("<constant name=\"")
        .skip(1)
        .filter_map(|rest| {
            let name = rest.split('"').next()?;
            let text = rest.split_once('>')?.1.split("</constant>").next()?;
            Some((name, text.trim()))
        })
        .collect();
    documented.sort_unstable();
    let undocumented: Vec<&str> = (documented.iter())
        .filter(|(_, text)| text.is_empty())
        .map(|&(name, _)| name)
        .collect();
    assert!(
        undocumented.is_empty(),
        "constants without a description: {undocumented:?}"
    );
    let names: Vec<&str> = documented.iter().map(|&(name, _)| name).collect();
    assert_eq!(
        names,
        [
            "CELL_SHAPE_ISOMETRIC_DOWN",
            "CELL_SHAPE_ISOMETRIC_RIGHT",
            "CELL_SHAPE_SQUARE",
            "CELL_SHAPE_TILE_SET",
            "DIAGONAL_MODE_NEVER",
            "DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES",
            "NO_UNIT",
            "OTHER_UNITS_BLOCK",
            "OTHER_UNITS_COST",
            "OTHER_UNITS_IGNORE",
            "RESULT_FORMAT_ANCHORS",
            "RESULT_FORMAT_PACKED_ANCHORS",
            "RESULT_FORMAT_POINTS",
            "SEARCH_MODE_AUTO",
            "SEARCH_MODE_JUMP",
            "SEARCH_MODE_PLAIN",
            "SMOOTHING_OFF",
            "SMOOTHING_TAUT",
        ]
    );
}
