//! The values of the node's mode properties (`diagonal_mode`, `search_mode`,
//! `result_format`, `other_units`, `smoothing`, `cell_shape`) and what each stands for in the core (or, for
//! `cell_shape`, in the frame).
#![forbid(unsafe_code)]

use super::ClearancePathfinder;
use crate::frame::CellShape;
use crate::marshal::PathFormat;
use clearance_core::{Movement, OtherUnits, SearchMode, Smoothing};
use godot::prelude::*;

/// AStarGrid2D's `DIAGONAL_MODE_NEVER`: 4-way movement.
pub(super) const DIAGONAL_MODE_NEVER: i64 = 1;
/// AStarGrid2D's `DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES`: 8-way movement without cutting corners.
pub(super) const DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES: i64 = 3;

/// `search_mode`: jump-point search where it pays, plain A* elsewhere.
pub(super) const SEARCH_MODE_AUTO: i64 = 0;
/// `search_mode`: jump-point search.
pub(super) const SEARCH_MODE_JUMP: i64 = 1;
/// `search_mode`: plain A*.
pub(super) const SEARCH_MODE_PLAIN: i64 = 2;

/// `result_format`: `path` as an `Array[Vector2i]` of anchors.
pub(super) const RESULT_FORMAT_ANCHORS: i64 = 0;
/// `result_format`: `path` as a `PackedInt32Array` of anchor coordinates, `x0, y0, x1, y1, ...`.
pub(super) const RESULT_FORMAT_PACKED_ANCHORS: i64 = 1;
/// `result_format`: `path` as a `PackedVector2Array` of footprint centres (local coordinates).
pub(super) const RESULT_FORMAT_POINTS: i64 = 2;

/// `other_units`: other units do not count (each unit plans as if alone on the map).
pub(super) const OTHER_UNITS_IGNORE: i64 = 0;
/// `other_units`: anchors whose footprint overlaps another unit's are illegal.
pub(super) const OTHER_UNITS_BLOCK: i64 = 1;
/// `other_units`: cells under other units cost at least `other_units_cost`.
pub(super) const OTHER_UNITS_COST: i64 = 2;

/// `smoothing`: no waypoints ([`Smoothing::Off`]).
pub(super) const SMOOTHING_OFF: i64 = 0;
/// `smoothing`: taut waypoints ([`Smoothing::Taut`]).
pub(super) const SMOOTHING_TAUT: i64 = 1;

/// AStarGrid2D's `CELL_SHAPE_SQUARE`: square cells in rows and columns.
pub(super) const CELL_SHAPE_SQUARE: i64 = 0;
/// AStarGrid2D's `CELL_SHAPE_ISOMETRIC_RIGHT`: diamonds, x running up and to the right.
pub(super) const CELL_SHAPE_ISOMETRIC_RIGHT: i64 = 1;
/// AStarGrid2D's `CELL_SHAPE_ISOMETRIC_DOWN`: diamonds, x running down and to the right.
pub(super) const CELL_SHAPE_ISOMETRIC_DOWN: i64 = 2;
/// `cell_shape`: a TileSet layout AStarGrid2D has no name for, from `match_tile_map_layer()`.
pub(super) const CELL_SHAPE_TILE_SET: i64 = 3;

/// The unit id the queries' `moving_unit` argument takes for "no moving unit"; refused as the
/// id of a unit.
pub(super) const NO_UNIT: i64 = -1;

/// The values above, as the class's constants: GDScript reads them as
/// `ClearancePathfinder.SMOOTHING_TAUT` and so on.
#[godot_api(secondary)]
impl ClearancePathfinder {
    /// `diagonal_mode` for 4-way movement (same value as AStarGrid2D's).
    #[constant]
    const DIAGONAL_MODE_NEVER: i64 = DIAGONAL_MODE_NEVER;

    /// `diagonal_mode` for 8-way movement without cutting corners (same value as
    /// AStarGrid2D's).
    #[constant]
    const DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES: i64 = DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES;

    /// `cell_shape`: square cells (same value as AStarGrid2D's).
    #[constant]
    const CELL_SHAPE_SQUARE: i64 = CELL_SHAPE_SQUARE;

    /// `cell_shape`: diamonds, x up and to the right (same value as AStarGrid2D's).
    #[constant]
    const CELL_SHAPE_ISOMETRIC_RIGHT: i64 = CELL_SHAPE_ISOMETRIC_RIGHT;

    /// `cell_shape`: diamonds, x down and to the right (same value as AStarGrid2D's).
    #[constant]
    const CELL_SHAPE_ISOMETRIC_DOWN: i64 = CELL_SHAPE_ISOMETRIC_DOWN;

    /// `cell_shape`: a TileSet layout from `match_tile_map_layer()` AStarGrid2D has no name for.
    #[constant]
    const CELL_SHAPE_TILE_SET: i64 = CELL_SHAPE_TILE_SET;

    /// `search_mode`: jump-point search where it pays, plain A* elsewhere (the default).
    #[constant]
    const SEARCH_MODE_AUTO: i64 = SEARCH_MODE_AUTO;

    /// `search_mode`: always jump-point search.
    #[constant]
    const SEARCH_MODE_JUMP: i64 = SEARCH_MODE_JUMP;

    /// `search_mode`: always plain A*.
    #[constant]
    const SEARCH_MODE_PLAIN: i64 = SEARCH_MODE_PLAIN;

    /// `result_format`: `path` as an `Array[Vector2i]` of anchors (the default).
    #[constant]
    const RESULT_FORMAT_ANCHORS: i64 = RESULT_FORMAT_ANCHORS;

    /// `result_format`: `path` as a `PackedInt32Array`, `x0, y0, x1, y1, ...`.
    #[constant]
    const RESULT_FORMAT_PACKED_ANCHORS: i64 = RESULT_FORMAT_PACKED_ANCHORS;

    /// `result_format`: `path` as a `PackedVector2Array` of footprint centres (local).
    #[constant]
    const RESULT_FORMAT_POINTS: i64 = RESULT_FORMAT_POINTS;

    /// `other_units`: other units do not count (the default).
    #[constant]
    const OTHER_UNITS_IGNORE: i64 = OTHER_UNITS_IGNORE;

    /// `other_units`: anchors whose footprint overlaps another unit's are illegal.
    #[constant]
    const OTHER_UNITS_BLOCK: i64 = OTHER_UNITS_BLOCK;

    /// `other_units`: cells under other units cost at least `other_units_cost`.
    #[constant]
    const OTHER_UNITS_COST: i64 = OTHER_UNITS_COST;

    /// `smoothing`: results carry no waypoints (the default).
    #[constant]
    const SMOOTHING_OFF: i64 = SMOOTHING_OFF;

    /// `smoothing`: results carry taut waypoints besides the path.
    #[constant]
    const SMOOTHING_TAUT: i64 = SMOOTHING_TAUT;

    /// The `moving_unit` argument of the queries for "no moving unit" (the default), -1.
    /// `add_unit()` refuses it as a unit's id.
    #[constant]
    const NO_UNIT: i64 = NO_UNIT;
}

/// The path format a `result_format` value stands for, if it is one.
pub(super) fn path_format_of(format: i64) -> Option<PathFormat> {
    match format {
        RESULT_FORMAT_ANCHORS => Some(PathFormat::Anchors),
        RESULT_FORMAT_PACKED_ANCHORS => Some(PathFormat::PackedAnchors),
        RESULT_FORMAT_POINTS => Some(PathFormat::Points),
        _ => None,
    }
}

/// The smoothing a `smoothing` value stands for, if it is one.
pub(super) fn smoothing_of(value: i64) -> Option<Smoothing> {
    match value {
        SMOOTHING_OFF => Some(Smoothing::Off),
        SMOOTHING_TAUT => Some(Smoothing::Taut),
        _ => None,
    }
}

/// The `smoothing` value that stands for `smoothing`.
pub(crate) fn smoothing_value(smoothing: Smoothing) -> i64 {
    match smoothing {
        Smoothing::Off => SMOOTHING_OFF,
        Smoothing::Taut => SMOOTHING_TAUT,
    }
}

/// The search a `search_mode` value stands for, if it is one.
pub(super) fn search_mode_of(mode: i64) -> Option<SearchMode> {
    match mode {
        SEARCH_MODE_AUTO => Some(SearchMode::Auto),
        SEARCH_MODE_JUMP => Some(SearchMode::Jump),
        SEARCH_MODE_PLAIN => Some(SearchMode::Plain),
        _ => None,
    }
}

impl ClearancePathfinder {
    /// The search every query of this node uses.
    pub(super) fn search(&self) -> SearchMode {
        search_mode_of(self.search_mode).unwrap_or_default()
    }

    /// How other units count in every query of this node: `other_units`, with
    /// `other_units_cost` for `OTHER_UNITS_COST` (both validated by their setters).
    pub(super) fn other_units_rule(&self) -> OtherUnits {
        other_units_of(self.other_units, self.other_units_cost).unwrap_or_default()
    }

    /// The smoothing every path query and flow field of this node asks for (validated by
    /// `set_smoothing()`).
    pub(super) fn smoothing(&self) -> Smoothing {
        smoothing_of(self.smoothing).unwrap_or(Smoothing::Off)
    }

    /// The form of `path` in this node's results.
    pub(super) fn path_format(&self) -> PathFormat {
        path_format_of(self.result_format).unwrap_or(PathFormat::Anchors)
    }
}

/// The movement rule a `diagonal_mode` value stands for, if it is a supported one.
pub(super) fn movement_of(mode: i64) -> Option<Movement> {
    match mode {
        DIAGONAL_MODE_NEVER => Some(Movement::FourWay),
        DIAGONAL_MODE_ONLY_IF_NO_OBSTACLES => Some(Movement::EightWay),
        _ => None,
    }
}

/// The rule an `other_units` value stands for, with `cost` as the multiplier of
/// `OTHER_UNITS_COST`; `None` for a value that is not one of the constants or a cost the core
/// refuses (NaN, infinite, negative, above 10000).
pub(super) fn other_units_of(rule: i64, cost: f64) -> Option<OtherUnits> {
    match rule {
        OTHER_UNITS_IGNORE => Some(OtherUnits::Ignore),
        OTHER_UNITS_BLOCK => Some(OtherUnits::Block),
        OTHER_UNITS_COST => OtherUnits::cost(cost).ok(),
        _ => None,
    }
}

/// The cell shape a `cell_shape` value names, if it names one (`CELL_SHAPE_TILE_SET` names
/// none: it stands for whichever layout `match_tile_map_layer()` read).
pub(super) fn cell_shape_of(value: i64) -> Option<CellShape> {
    match value {
        CELL_SHAPE_SQUARE => Some(CellShape::SQUARE),
        CELL_SHAPE_ISOMETRIC_RIGHT => Some(CellShape::ISOMETRIC_RIGHT),
        CELL_SHAPE_ISOMETRIC_DOWN => Some(CellShape::ISOMETRIC_DOWN),
        _ => None,
    }
}

/// The `cell_shape` value of `shape`: AStarGrid2D's name for it, or `CELL_SHAPE_TILE_SET`.
pub(super) fn cell_shape_value(shape: CellShape) -> i64 {
    [
        CELL_SHAPE_SQUARE,
        CELL_SHAPE_ISOMETRIC_RIGHT,
        CELL_SHAPE_ISOMETRIC_DOWN,
    ]
    .into_iter()
    .find(|&value| cell_shape_of(value) == Some(shape))
    .unwrap_or(CELL_SHAPE_TILE_SET)
}

/// A moving unit as the queries take it: [`NO_UNIT`] for none.
pub(super) fn moving_unit_of(id: i64) -> Option<i64> {
    (id != NO_UNIT).then_some(id)
}

/// The ids a query or smoothing call does not count: `exempt_units` and the moving unit, if
/// one is named.
pub(super) fn not_counted(moving_unit: i64, exempt_units: &[i64]) -> Vec<i64> {
    let mut ids = exempt_units.to_vec();
    ids.extend(moving_unit_of(moving_unit));
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_units_values_stand_for_the_core_rules() {
        assert_eq!(
            other_units_of(OTHER_UNITS_IGNORE, f64::NAN),
            Some(OtherUnits::Ignore)
        );
        assert_eq!(
            other_units_of(OTHER_UNITS_BLOCK, -1.0),
            Some(OtherUnits::Block)
        );
        assert_eq!(
            other_units_of(OTHER_UNITS_COST, 4.0),
            OtherUnits::cost(4.0).ok()
        );
        assert_eq!(other_units_of(OTHER_UNITS_COST, f64::NAN), None);
        assert_eq!(other_units_of(OTHER_UNITS_COST, -0.5), None);
        assert_eq!(other_units_of(3, 4.0), None);
        assert_eq!(moving_unit_of(NO_UNIT), None);
        assert_eq!(moving_unit_of(0), Some(0));
        assert_eq!(not_counted(NO_UNIT, &[3, 4]), [3, 4]);
        assert_eq!(not_counted(7, &[3]), [3, 7]);
        assert_eq!(not_counted(0, &[]), [0]);
    }

    #[test]
    fn smoothing_values_stand_for_every_core_choice_once() {
        assert_eq!(smoothing_of(SMOOTHING_OFF), Some(Smoothing::Off));
        assert_eq!(smoothing_of(SMOOTHING_TAUT), Some(Smoothing::Taut));
        let named: Vec<_> = (-1..4).filter_map(smoothing_of).collect();
        assert_eq!(named, Smoothing::ALL);
    }

    #[test]
    fn cell_shape_values_name_astar_grid_2d_shapes_and_round_trip() {
        for value in [
            CELL_SHAPE_SQUARE,
            CELL_SHAPE_ISOMETRIC_RIGHT,
            CELL_SHAPE_ISOMETRIC_DOWN,
        ] {
            assert_eq!(cell_shape_value(cell_shape_of(value).unwrap()), value);
        }
        assert_eq!(cell_shape_of(CELL_SHAPE_TILE_SET), None);
        assert_eq!(cell_shape_of(-1), None);
        let stacked = CellShape::new(
            crate::frame::TileShape::Isometric,
            crate::frame::TileLayout::Stacked,
            crate::frame::OffsetAxis::Horizontal,
        );
        assert_eq!(cell_shape_value(stacked), CELL_SHAPE_TILE_SET);
    }
}
