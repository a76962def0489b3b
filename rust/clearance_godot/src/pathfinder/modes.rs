//! The values of the node's mode properties (`diagonal_mode`, `search_mode`,
//! `result_format`) and what each stands for in the core.
#![forbid(unsafe_code)]

use super::ClearancePathfinder;
use crate::marshal::PathFormat;
use clearance_core::{Movement, SearchMode};

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

/// The path format a `result_format` value stands for, if it is one.
pub(super) fn path_format_of(format: i64) -> Option<PathFormat> {
    match format {
        RESULT_FORMAT_ANCHORS => Some(PathFormat::Anchors),
        RESULT_FORMAT_PACKED_ANCHORS => Some(PathFormat::PackedAnchors),
        RESULT_FORMAT_POINTS => Some(PathFormat::Points),
        _ => None,
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
