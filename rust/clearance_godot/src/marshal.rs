//! Results and dictionaries in and out: the result and landmark Dictionaries, anchor arrays,
//! batch entries, profile Dictionaries, and the unit Dictionaries of the occupancy layer and
//! group orders.
#![forbid(unsafe_code)]

use crate::convert::{cell_of, vector_of};
use crate::frame::GridFrame;
use crate::profile::{ProfileBuilder, TerrainProblem};
use crate::workers::OwnedQuery;
use clearance_core::{
    checked_agent_size, AgentProfile as CoreProfile, Cell, FieldValue, LandmarkStats, OtherUnits,
    PathCode, PathResult, ResultField, SearchMode, Smoothing, Unit, UnitId,
};
use godot::prelude::*;

/// `cells` as a typed Array.
///
/// Made one by one, each element costs two calls across the extension boundary (a Variant
/// made, a placeholder dropped), each with gdext's thread check, which costs more than the
/// element itself. So longer lists go through the engine in bulk: written into a
/// `PackedVector2Array` (one copy), made an untyped Array and assigned to the typed one, which
/// converts every element to `Vector2i` inside the engine. A float holds every coordinate
/// below 2^24 exactly; a list with a coordinate beyond that, and short lists, take the direct
/// way. (Tried and slower: the engine decoding the list from its binary serialization.)
pub fn anchor_array(cells: &[Cell]) -> Array<Vector2i> {
    const EXACT_IN_FLOAT: u32 = 1 << 24;
    const BULK_FROM: usize = 16;
    let exact = |value: i32| value.unsigned_abs() < EXACT_IN_FLOAT;
    if cells.len() < BULK_FROM || !cells.iter().all(|cell| exact(cell.x) && exact(cell.y)) {
        let vectors: Vec<Vector2i> = cells.iter().map(|&cell| vector_of(cell)).collect();
        return Array::from(vectors.as_slice());
    }
    let mut points = PackedVector2Array::new();
    points.resize(cells.len());
    for (point, cell) in points.as_mut_slice().iter_mut().zip(cells) {
        *point = Vector2::new(cell.x as f32, cell.y as f32);
    }
    let untyped = points.to_var_array();
    let typed = Array::<Vector2i>::new();
    // Arrays are shared by reference: `assign` on the Variant fills `typed` itself.
    typed.to_variant().call("assign", &[untyped.to_variant()]);
    typed
}

/// The anchors in `array` (typed `Array[Vector2i]` or untyped), or what is wrong with the
/// first entry that is not a Vector2i (as `"[2] is ..."`, to follow the argument's name).
pub fn anchors_of(array: &AnyArray) -> Result<Vec<Cell>, String> {
    array
        .iter_shared()
        .enumerate()
        .map(|(index, value)| {
            exact_anchor(&value).ok_or_else(|| format!("[{index}] is {value}, not a Vector2i"))
        })
        .collect()
}

/// The Dictionary `bake_landmarks()` and `get_landmark_stats()` return.
pub fn landmark_dictionary(stats: Option<LandmarkStats>) -> VarDictionary {
    let mut dictionary = VarDictionary::new();
    dictionary.set("ok", stats.is_some());
    let stats = stats.unwrap_or(LandmarkStats {
        landmarks: Vec::new(),
        bytes: 0,
        bytes_per_cell_per_landmark: 0.0,
    });
    dictionary.set("landmarks", &anchor_array(&stats.landmarks));
    dictionary.set("bytes", stats.bytes as i64);
    dictionary.set(
        "bytes_per_cell_per_landmark",
        stats.bytes_per_cell_per_landmark,
    );
    dictionary
}

/// The form of a result's `path` entry: the node's `result_format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathFormat {
    /// `Array[Vector2i]` of anchors (the default).
    Anchors,
    /// `PackedInt32Array` of anchor coordinates, `x0, y0, x1, y1, ...`.
    PackedAnchors,
    /// `PackedVector2Array` of footprint centres in the node's local coordinates.
    Points,
}

/// The result Dictionary's keys and the code names as Variants, built once per node, so
/// that writing a result allocates no strings.
pub struct ResultKeys {
    /// Indexed like [`ResultField::ALL`].
    fields: Vec<Variant>,
    /// Indexed like [`PathCode::ALL`].
    codes: Vec<Variant>,
    /// The same names as StringNames, for `get_last_code()`.
    code_names: Vec<StringName>,
}

impl ResultKeys {
    /// Every key and code name, converted once.
    pub fn new() -> Self {
        ResultKeys {
            fields: ResultField::ALL
                .iter()
                .map(|field| field.name().to_variant())
                .collect(),
            codes: PathCode::ALL
                .iter()
                .map(|code| code.as_str().to_variant())
                .collect(),
            code_names: PathCode::ALL
                .iter()
                .map(|code| StringName::from(code.as_str()))
                .collect(),
        }
    }

    fn field(&self, field: ResultField) -> &Variant {
        let index = ResultField::ALL.iter().position(|&known| known == field);
        &self.fields[index.expect("ALL lists every field")]
    }

    fn code(&self, code: PathCode) -> &Variant {
        &self.codes[Self::code_index(code)]
    }

    /// The name of `code` as a StringName.
    pub fn code_name(&self, code: PathCode) -> StringName {
        self.code_names[Self::code_index(code)].clone()
    }

    fn code_index(code: PathCode) -> usize {
        let index = PathCode::ALL.iter().position(|&known| known == code);
        index.expect("ALL lists every code")
    }
}

/// How result Dictionaries are written: the interned keys, the form of `path`, and where
/// footprint centres lie for [`PathFormat::Points`]. The node writes its results with one,
/// and so does every flow field it hands out.
pub struct ResultWriter<'a> {
    pub keys: &'a ResultKeys,
    pub format: PathFormat,
    pub frame: GridFrame,
}

impl ResultWriter<'_> {
    /// The Dictionary `find_path()` returns for a unit of `agent_size`: one entry per public
    /// field of the result, in the core's order and under its names ([`PathResult::fields`]).
    /// Flags become bools, the code a String, numbers floats, counts ints (saturating at
    /// `i64::MAX`) and unit ids ints; `path` and `waypoints` take the writer's [`PathFormat`].
    pub fn dictionary(&self, result: &PathResult, agent_size: i64) -> VarDictionary {
        let mut dictionary = VarDictionary::new();
        for (field, value) in result.fields() {
            let key = self.keys.field(field);
            match value {
                FieldValue::Flag(flag) => dictionary.set(key, flag),
                FieldValue::Text(_) => dictionary.set(key, self.keys.code(result.code)),
                FieldValue::Anchors(anchors) => {
                    dictionary.set(key, &self.path(anchors, agent_size))
                }
                FieldValue::Number(number) => dictionary.set(key, number),
                FieldValue::Count(count) => {
                    dictionary.set(key, i64::try_from(count).unwrap_or(i64::MAX));
                }
                FieldValue::Id(id) => dictionary.set(key, id),
            }
        }
        dictionary
    }

    /// `anchors` in the writer's format.
    fn path(&self, anchors: &[Cell], agent_size: i64) -> Variant {
        match self.format {
            PathFormat::Anchors => anchor_array(anchors).to_variant(),
            PathFormat::PackedAnchors => packed_anchors(anchors).to_variant(),
            PathFormat::Points => footprint_centers(&self.frame, anchors, agent_size).to_variant(),
        }
    }
}

/// The footprint centres of `anchors` for a unit of `agent_size`, in `frame`'s (the node's
/// local) coordinates: how `path` and `waypoints` read as points, and what `get_point_path()`
/// returns.
pub fn footprint_centers(
    frame: &GridFrame,
    anchors: &[Cell],
    agent_size: i64,
) -> PackedVector2Array {
    // A path exists only for a legal size.
    let size = checked_agent_size(agent_size).unwrap_or(1);
    let points: Vec<Vector2> = anchors
        .iter()
        .map(|&anchor| frame.footprint_center(anchor, size))
        .collect();
    PackedVector2Array::from(points.as_slice())
}

/// The anchors a unit walks through along `result`: its waypoints when the query asked for
/// smoothing (straight lines between them keep the path's rules), else every anchor of its
/// path. What `get_point_path()`, `find_path_world()`'s `points` and the overlay's line follow.
pub fn anchors_to_follow(result: &PathResult) -> &[Cell] {
    if result.smoothing == Smoothing::Off {
        &result.path
    } else {
        &result.waypoints
    }
}

/// `cells` as anchor coordinates in one packed array: `x0, y0, x1, y1, ...`.
pub fn packed_anchors(cells: &[Cell]) -> PackedInt32Array {
    let coordinates: Vec<i32> = cells.iter().flat_map(|cell| [cell.x, cell.y]).collect();
    PackedInt32Array::from(coordinates.as_slice())
}

/// The profile `set_profile(name, costs)` describes: `costs` maps int terrain ids to int or
/// float multipliers. Built by the same [`ProfileBuilder`] as the `AgentProfile` resource.
pub fn profile_from_dictionary(name: &str, costs: &VarDictionary) -> Result<CoreProfile, String> {
    let Some(mut builder) = ProfileBuilder::new(name) else {
        return Err("a profile needs a non-empty name".to_owned());
    };
    for (key, value) in costs.iter_shared() {
        let terrain = exact_int(&key).ok_or_else(|| {
            builder.problem(format_args!(
                "key {key} is not an int terrain id (keys must be ints from 0 to 255)"
            ))
        })?;
        let id = builder.terrain(terrain).map_err(|problem| {
            builder.problem(match problem {
                TerrainProblem::NotAnId => {
                    format!("key {terrain} is not a terrain id from 0 to 255")
                }
                // Dictionary keys are unique: this cannot happen, but say so if it does.
                TerrainProblem::ListedTwice(id) => format!("key {id} is listed twice"),
            })
        })?;
        let multiplier = number(&value).ok_or_else(|| {
            builder.problem(format_args!(
                "the multiplier for terrain {id} is {value}, not a number"
            ))
        })?;
        builder
            .allow(id, multiplier)
            .map_err(|error| builder.problem(error))?;
    }
    Ok(builder.build())
}

/// `value` if it holds an int (not a float or a numeric String).
fn exact_int(value: &Variant) -> Option<i64> {
    value
        .try_to::<i64>()
        .ok()
        .filter(|_| value.get_type() == VariantType::INT)
}

/// `value` as an anchor if it holds a Vector2i (not a Vector2, which GDScript would convert).
fn exact_anchor(value: &Variant) -> Option<Cell> {
    value
        .try_to::<Vector2i>()
        .ok()
        .filter(|_| value.get_type() == VariantType::VECTOR2I)
        .map(cell_of)
}

/// `value` as a float if it holds an int or a float.
fn number(value: &Variant) -> Option<f64> {
    match value.get_type() {
        VariantType::FLOAT => value.try_to::<f64>().ok(),
        VariantType::INT => value.try_to::<i64>().ok().map(|whole| whole as f64),
        _ => None,
    }
}

/// One entry of a `request_paths()` or `find_paths()` batch, or what is wrong with it (as
/// "has no 'start'", to follow the entry's name). Entries without `max_expansions` take
/// `default_limit`; `moving_unit` (an int, `NO_UNIT` for none) and `exempt_units` (ids, see
/// [`ids_of`]) are optional.
pub fn query_from_variant(
    entry: &Variant,
    default_limit: Option<u64>,
) -> Result<OwnedQuery, String> {
    let Ok(entry) = entry.try_to::<VarDictionary>() else {
        return Err(format!("is {entry}, not a Dictionary"));
    };
    // Checked in this order, so that the first problem reported stays the same.
    let profile = profile_name_field(&entry)?;
    let allow_partial_path = partial_path_field(&entry)?;
    let max_expansions = max_expansions_field(&entry, default_limit)?;
    let moving_unit = match entry.get("moving_unit") {
        None => None,
        Some(value) => Some(int_field(&value, "moving_unit")?),
    };
    let exempt_units = match entry.get("exempt_units") {
        None => Vec::new(),
        Some(value) => ids_of(&value).map_err(|problem| format!("has 'exempt_units' {problem}"))?,
    };
    Ok(OwnedQuery {
        start: anchor_field(&entry, "start")?,
        goal: anchor_field(&entry, "goal")?,
        agent_size: int_field(&required_field(&entry, "agent_size")?, "agent_size")?,
        profile,
        allow_partial_path,
        max_expansions,
        // The node's `search_mode`, `other_units` and `smoothing` apply to every query; the
        // caller sets them, and turns `NO_UNIT` into no moving unit.
        search: SearchMode::Auto,
        other_units: OtherUnits::Ignore,
        moving_unit,
        exempt_units,
        smoothing: Smoothing::Off,
    })
}

/// The entry's `key`, which it must have.
fn required_field(entry: &VarDictionary, key: &str) -> Result<Variant, String> {
    entry.get(key).ok_or_else(|| format!("has no '{key}'"))
}

/// The entry's `key`, a Vector2i, as a cell.
fn anchor_field(entry: &VarDictionary, key: &str) -> Result<Cell, String> {
    let value = required_field(entry, key)?;
    exact_anchor(&value).ok_or_else(|| format!("has '{key}' = {value}, not a Vector2i"))
}

/// `value`, the entry's `key`, if it is an int.
fn int_field(value: &Variant, key: &str) -> Result<i64, String> {
    exact_int(value).ok_or_else(|| format!("has '{key}' = {value}, not an int"))
}

/// The entry's `profile`, a StringName or a String.
fn profile_name_field(entry: &VarDictionary) -> Result<String, String> {
    let profile = required_field(entry, "profile")?;
    match profile.get_type() {
        VariantType::STRING_NAME | VariantType::STRING => Ok(profile.to_string()),
        _ => Err(format!(
            "has 'profile' = {profile}, not a StringName or String"
        )),
    }
}

/// The entry's optional `allow_partial_path`, a bool (false if absent).
fn partial_path_field(entry: &VarDictionary) -> Result<bool, String> {
    match entry.get("allow_partial_path") {
        None => Ok(false),
        Some(value) if value.get_type() == VariantType::BOOL => Ok(value.to::<bool>()),
        Some(value) => Err(format!("has 'allow_partial_path' = {value}, not a bool")),
    }
}

/// The entry's optional `max_expansions`, an int from 0 (no limit) up; `default_limit` if
/// absent.
fn max_expansions_field(
    entry: &VarDictionary,
    default_limit: Option<u64>,
) -> Result<Option<u64>, String> {
    let Some(value) = entry.get("max_expansions") else {
        return Ok(default_limit);
    };
    match int_field(&value, "max_expansions")? {
        0 => Ok(None),
        limit => u64::try_from(limit)
            .map(Some)
            .map_err(|_| format!("has 'max_expansions' = {limit}, below 0")),
    }
}

/// Unit ids: an Array of ints (typed or not), a `PackedInt64Array` or a `PackedInt32Array`;
/// or what is wrong (as `"is ..."`, or `"[2] is ..."`, to follow the argument's name).
pub fn ids_of(value: &Variant) -> Result<Vec<UnitId>, String> {
    let refused = || format!("is {value}, not an Array of int ids or a PackedInt64Array");
    match value.get_type() {
        VariantType::PACKED_INT64_ARRAY => (value.try_to::<PackedInt64Array>())
            .map(|ids| ids.to_vec())
            .map_err(|_| refused()),
        VariantType::PACKED_INT32_ARRAY => (value.try_to::<PackedInt32Array>())
            .map(|ids| ids.as_slice().iter().map(|&id| i64::from(id)).collect())
            .map_err(|_| refused()),
        VariantType::ARRAY => {
            // Typed (`Array[int]`) or not: AnyArray takes both.
            let ids = value.try_to::<AnyArray>().map_err(|_| refused())?;
            (ids.iter_shared().enumerate())
                .map(|(index, id)| {
                    exact_int(&id).ok_or_else(|| format!("[{index}] is {id}, not an int id"))
                })
                .collect()
        }
        _ => Err(refused()),
    }
}

/// The Dictionary describing `unit`, as `get_units()` lists it: `id`, `anchor`, `agent_size`.
pub fn unit_dictionary(unit: &Unit) -> VarDictionary {
    let mut dictionary = VarDictionary::new();
    dictionary.set("id", unit.id);
    dictionary.set("anchor", vector_of(unit.anchor));
    dictionary.set("agent_size", i64::from(unit.agent_size));
    dictionary
}

/// One unit to place, from a Dictionary with `id` (int), `anchor` (Vector2i) and `agent_size`
/// (int), as `get_units()` lists them; or what is wrong with it (as "has no 'id'"). The
/// values are the core's to check.
pub fn unit_from_variant(entry: &Variant) -> Result<(UnitId, Cell, i64), String> {
    unit_fields(&dictionary_of(entry)?)
}

/// One member of a group order for `get_arrival_slots()`: a unit's Dictionary (see
/// [`unit_from_variant`]) with its `profile` (StringName or String) besides.
pub fn member_from_variant(entry: &Variant) -> Result<(UnitId, Cell, i64, String), String> {
    let entry = dictionary_of(entry)?;
    let (id, anchor, agent_size) = unit_fields(&entry)?;
    Ok((id, anchor, agent_size, profile_name_field(&entry)?))
}

/// `entry` as a Dictionary, or what it is instead.
fn dictionary_of(entry: &Variant) -> Result<VarDictionary, String> {
    entry
        .try_to::<VarDictionary>()
        .map_err(|_| format!("is {entry}, not a Dictionary"))
}

/// The `id`, `anchor` and `agent_size` of a unit's Dictionary.
fn unit_fields(entry: &VarDictionary) -> Result<(UnitId, Cell, i64), String> {
    Ok((
        int_field(&required_field(entry, "id")?, "id")?,
        anchor_field(entry, "anchor")?,
        int_field(&required_field(entry, "agent_size")?, "agent_size")?,
    ))
}

/// The moves of `move_units()`: each key an int unit id, each value a Vector2i anchor; or what
/// is wrong with the first entry that is not.
pub fn moves_of(moves: &AnyDictionary) -> Result<Vec<(UnitId, Cell)>, String> {
    moves
        .iter_shared()
        .map(|(id, anchor)| {
            let id = exact_int(&id).ok_or_else(|| format!("key {id} is not an int unit id"))?;
            exact_anchor(&anchor)
                .map(|anchor| (id, anchor))
                .ok_or_else(|| format!("the anchor of unit {id} is {anchor}, not a Vector2i"))
        })
        .collect()
}
