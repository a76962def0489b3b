//! How the node reports bad input: every error it prints starts with
//! `ClearancePathfinder.<method>: `, and the checks shared by several methods print theirs
//! here.
#![forbid(unsafe_code)]

use crate::convert::terrain_id;
use clearance_core::{checked_agent_size, TerrainId, MAX_AGENT_SIZE};

/// Prints a Godot error naming where it comes from: `pathfinder_error!("find_path", ...)`
/// prints `ClearancePathfinder.find_path: ...`, for the method, property or argument-taking
/// helper the caller names; `pathfinder_error!(node, ...)` prints `ClearancePathfinder: ...`,
/// for the node's own upkeep (worker threads, map rebuilds, profile registration). The
/// message takes `format!` arguments.
macro_rules! pathfinder_error {
    (node, $($message:tt)+) => {
        ::godot::global::godot_error!("ClearancePathfinder: {}", format_args!($($message)+))
    };
    ($method:expr, $($message:tt)+) => {
        ::godot::global::godot_error!(
            "ClearancePathfinder.{}: {}",
            $method,
            format_args!($($message)+)
        )
    };
}
pub(super) use pathfinder_error;

/// `terrain` as a terrain id, or `None` after printing an error that names `method` and
/// `argument`.
pub(super) fn terrain_or_error(method: &str, argument: &str, terrain: i64) -> Option<TerrainId> {
    let id = terrain_id(terrain);
    if id.is_none() {
        pathfinder_error!(
            method,
            "{argument} must be a terrain id from 0 to 255, got {terrain}; nothing changed"
        );
    }
    id
}

/// `agent_size` as a byte if it is a legal size (the core's rule, [`checked_agent_size`]), or
/// `None` after printing an error that names `method`.
pub(super) fn agent_size_or_error(method: &str, agent_size: i64) -> Option<u8> {
    let size = checked_agent_size(agent_size);
    if size.is_none() {
        pathfinder_error!(method, "{}", agent_size_problem(agent_size));
    }
    size
}

/// What is wrong with `agent_size`, an illegal size.
pub(super) fn agent_size_problem(agent_size: i64) -> String {
    format!("agent_size must be from 1 to {MAX_AGENT_SIZE}, got {agent_size}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The node takes the core's agent sizes, 1 to 255, and no others.
    #[test]
    fn agent_sizes_run_from_1_to_255() {
        assert_eq!(MAX_AGENT_SIZE, 255);
        assert_eq!(checked_agent_size(1), Some(1));
        assert_eq!(checked_agent_size(255), Some(255));
        assert_eq!(checked_agent_size(0), None);
        assert_eq!(checked_agent_size(256), None);
        assert_eq!(checked_agent_size(i64::MIN), None);
    }
}
