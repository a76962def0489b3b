//! The `AgentProfile` resource: a profile edited in the inspector.
#![forbid(unsafe_code)]

use crate::convert::terrain_id;
use clearance_core::{AgentProfile as CoreProfile, TerrainSet};
use godot::classes::{IResource, Resource};
use godot::prelude::*;

/// The movement rules of one kind of unit, editable in the inspector: which terrains it may
/// enter and the cost multiplier of each.
///
/// `terrains` and `costs` are parallel arrays: the unit may enter `terrains[i]` at multiplier
/// `costs[i]`. A terrain that is not listed is impassable for the unit. Terrain ids run from
/// 0 to 255 and mean whatever the game decides (0 = ground, 1 = wall, ...). A multiplier is a
/// finite number from 0 to 10000; a step costs its length (1 straight, about 1.414 diagonal)
/// times the highest multiplier under the unit's footprint where it arrives.
///
/// Add profiles to `ClearancePathfinder.profiles`. The pathfinder validates them when it
/// registers them (on ready, when `profiles` is assigned, after a profile emits `changed`,
/// and on `ClearancePathfinder.reload_profiles()`); an invalid profile is skipped with an
/// error naming the problem, and is listed among the node's configuration warnings.
///
/// ```gdscript
/// var truck := AgentProfile.new()
/// truck.name = &"truck"
/// truck.terrains = PackedInt32Array([0, 2])      # ground, road
/// truck.costs = PackedFloat64Array([1.0, 0.5])   # road is twice as fast
/// ```
#[derive(GodotClass)]
#[class(tool, base = Resource)]
pub struct AgentProfile {
    /// The name queries use to pick this profile, as in `find_path(start, goal, 2, &"truck")`.
    /// Must not be empty. (Unrelated to `resource_name`.)
    #[export]
    #[var(get = get_profile_name, set = set_profile_name)]
    name: StringName,

    /// Terrain ids (0 to 255) the unit may enter, each listed once; `costs[i]` belongs to
    /// `terrains[i]`.
    #[export]
    #[var(set = set_terrains)]
    terrains: PackedInt32Array,

    /// Cost multiplier of each entry of `terrains` (same length): finite, from 0 to 10000,
    /// kept to 1/1000. 1.0 is normal speed, 3.0 a third of it, 0.5 twice it. 64-bit so that
    /// every multiplier up to 10000 keeps its thousandths.
    #[export]
    #[var(set = set_costs)]
    costs: PackedFloat64Array,

    base: Base<Resource>,
}

#[godot_api]
impl IResource for AgentProfile {
    fn init(base: Base<Resource>) -> Self {
        AgentProfile {
            name: StringName::default(),
            terrains: PackedInt32Array::new(),
            costs: PackedFloat64Array::new(),
            base,
        }
    }
}

#[godot_api]
impl AgentProfile {
    /// The profile's name (the `name` property).
    #[func]
    pub fn get_profile_name(&self) -> StringName {
        self.name.clone()
    }

    /// Sets the profile's name (the `name` property) and emits `changed`.
    #[func]
    pub fn set_profile_name(&mut self, name: StringName) {
        self.name = name;
        self.base_mut().emit_changed();
    }

    /// Sets the terrain ids (the `terrains` property) and emits `changed`.
    #[func]
    pub fn set_terrains(&mut self, terrains: PackedInt32Array) {
        self.terrains = terrains;
        self.base_mut().emit_changed();
    }

    /// Sets the multipliers (the `costs` property) and emits `changed`.
    #[func]
    pub fn set_costs(&mut self, costs: PackedFloat64Array) {
        self.costs = costs;
        self.base_mut().emit_changed();
    }

    /// Why this profile cannot be registered, or an empty string if it can: an empty name,
    /// arrays of different lengths, a terrain outside 0 to 255 or listed twice, or a
    /// multiplier that is NaN, infinite, negative or above 10000.
    #[func]
    pub fn get_validation_error(&self) -> GString {
        match self.to_core() {
            Ok(_) => GString::new(),
            Err(problem) => GString::from(problem.as_str()),
        }
    }
}

impl AgentProfile {
    /// The core profile this resource describes, or why it describes none.
    pub(crate) fn to_core(&self) -> Result<CoreProfile, String> {
        let name = self.name.to_string();
        if name.is_empty() {
            return Err("the profile needs a non-empty name".to_owned());
        }
        let terrains = self.terrains.as_slice();
        let costs = self.costs.as_slice();
        if terrains.len() != costs.len() {
            return Err(format!(
                "profile '{name}' has {} terrains but {} costs; they are parallel arrays and \
                 need the same length",
                terrains.len(),
                costs.len()
            ));
        }
        let mut profile = CoreProfile::new(name.as_str());
        let mut listed = TerrainSet::new();
        for (index, (&terrain, &cost)) in terrains.iter().zip(costs).enumerate() {
            let Some(id) = terrain_id(i64::from(terrain)) else {
                return Err(format!(
                    "profile '{name}': terrains[{index}] is {terrain}, not a terrain id from 0 \
                     to 255"
                ));
            };
            if listed.contains(id) {
                return Err(format!(
                    "profile '{name}': terrain {id} is listed twice (terrains[{index}])"
                ));
            }
            listed.insert(id);
            profile
                .set_terrain(id, cost)
                .map_err(|error| format!("profile '{name}': costs[{index}]: {error}"))?;
        }
        Ok(profile)
    }

    /// The name as a Rust string, for messages.
    pub(crate) fn name_string(&self) -> String {
        self.name.to_string()
    }
}
