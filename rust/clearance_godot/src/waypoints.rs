//! Waypoints for paths found outside a query: a group order's, and those a flow field or a
//! movement range gives after it was made, by the rules and the map snapshot of its order.
#![forbid(unsafe_code)]

use clearance_core::{Cell, FlowField, OtherUnits, PathMap, PathResult, Smoothing, UnitId};
use godot::prelude::*;
use std::sync::Arc;

/// Gives `result`, a path a flow field, movement range or group order found on `map` for a
/// unit of `agent_size` by `rules` (profile name, other units, exempt ids), the waypoints
/// `smoothing` asks for, as a query with that smoothing would carry them
/// ([`PathMap::add_waypoints`]).
pub fn add_waypoints(
    map: &PathMap,
    result: &mut PathResult,
    smoothing: Smoothing,
    agent_size: i64,
    (profile, other_units, exempt_units): (&str, OtherUnits, &[UnitId]),
) {
    if smoothing == Smoothing::Off {
        result.smoothing = smoothing;
        result.waypoints = Vec::new();
        return;
    }
    if let Err(error) = map.add_waypoints(result, agent_size, profile, other_units, exempt_units) {
        // Those paths keep the map's rules, so this does not happen; the path itself is
        // always a valid sequence of waypoints.
        godot_error!("Clearance Pathfinder: smoothing a path: {error}; its waypoints are the path");
        result.smoothing = smoothing;
        result.waypoints = result.path.clone();
    }
}

/// What a flow field or a movement range keeps to smooth the paths it gives later, when its
/// order asked for smoothing: the map it was built on and the rules of the order.
pub struct PathSmoother {
    map: Arc<PathMap>,
    smoothing: Smoothing,
    agent_size: i64,
    profile: String,
    other_units: OtherUnits,
    not_counted: Vec<UnitId>,
}

impl PathSmoother {
    /// The smoother for an order of `smoothing` by a unit of `agent_size` with `profile`, the
    /// units but `not_counted` counted by `other_units`, on `map`; `None` without smoothing.
    pub fn new(
        map: &Arc<PathMap>,
        (smoothing, agent_size): (Smoothing, i64),
        profile: &str,
        other_units: OtherUnits,
        not_counted: Vec<UnitId>,
    ) -> Option<Self> {
        (smoothing != Smoothing::Off).then(|| PathSmoother {
            map: Arc::clone(map),
            smoothing,
            agent_size,
            profile: profile.to_owned(),
            other_units,
            not_counted,
        })
    }

    /// Gives `result`, a path found for the order, its waypoints (see [`add_waypoints`]).
    pub fn add_waypoints(&self, result: &mut PathResult) {
        let rules = (&self.profile[..], self.other_units, &self.not_counted[..]);
        add_waypoints(&self.map, result, self.smoothing, self.agent_size, rules);
    }

    /// Where a unit on anchor `here`, which `field` (built on this smoother's map) reached,
    /// heads in a straight line: the first waypoint of the greedy walk along the field's path
    /// from there, read only as far as the walk needs ([`PathMap::first_waypoint`]).
    pub fn first_waypoint(&self, field: &FlowField, here: Cell) -> Cell {
        let anchors = field.anchors_from(here);
        let (profile, rule, exempt) = (&self.profile[..], self.other_units, &self.not_counted[..]);
        match (self.map).first_waypoint(anchors, self.agent_size, profile, rule, exempt) {
            Ok(waypoint) => waypoint,
            Err(error) => {
                // The field's paths keep the map's rules, so this does not happen; the next
                // anchor is always a move the unit may make.
                godot_error!("Clearance Pathfinder: steering by a flow field: {error}");
                field.next_anchor(here).unwrap_or(here)
            }
        }
    }
}
