//! The `AgentProfile` resource: a profile edited in the inspector.
#![forbid(unsafe_code)]

use crate::convert::terrain_id;
use clearance_core::{AgentProfile as CoreProfile, ProfileError, TerrainId, TerrainSet};
use godot::classes::{IResource, Resource};
use godot::prelude::*;
use std::fmt::Display;

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
        let Some(mut builder) = ProfileBuilder::new(&name) else {
            return Err("the profile needs a non-empty name".to_owned());
        };
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
        for (index, (&terrain, &cost)) in terrains.iter().zip(costs).enumerate() {
            let id = builder.terrain(i64::from(terrain)).map_err(|problem| {
                builder.problem(match problem {
                    TerrainProblem::NotAnId => {
                        format!("terrains[{index}] is {terrain}, not a terrain id from 0 to 255")
                    }
                    TerrainProblem::ListedTwice(id) => {
                        format!("terrain {id} is listed twice (terrains[{index}])")
                    }
                })
            })?;
            builder
                .allow(id, cost)
                .map_err(|error| builder.problem(format_args!("costs[{index}]: {error}")))?;
        }
        Ok(builder.build())
    }

    /// The name as a Rust string, for messages.
    pub(crate) fn name_string(&self) -> String {
        self.name.to_string()
    }
}

/// Builds a core profile from what GDScript gives, in either form: an `AgentProfile`
/// resource's parallel arrays ([`AgentProfile::to_core`]) or `set_profile()`'s Dictionary
/// (`marshal::profile_from_dictionary`). The rules live here: a non-empty name, terrain ids
/// from 0 to 255 each listed once, multipliers the core accepts, and `profile '<name>': ` at
/// the start of every problem. The caller says where in its input a bad entry stands.
pub(crate) struct ProfileBuilder {
    profile: CoreProfile,
    listed: TerrainSet,
}

/// Why [`ProfileBuilder::terrain`] refused a terrain.
pub(crate) enum TerrainProblem {
    /// The value is not a terrain id (0 to 255).
    NotAnId,
    /// The terrain was listed before.
    ListedTwice(TerrainId),
}

impl ProfileBuilder {
    /// A builder for the profile called `name`, or `None` if the name is empty.
    pub(crate) fn new(name: &str) -> Option<Self> {
        (!name.is_empty()).then(|| ProfileBuilder {
            profile: CoreProfile::new(name),
            listed: TerrainSet::new(),
        })
    }

    /// `terrain` as the id of a terrain this profile does not list yet.
    pub(crate) fn terrain(&self, terrain: i64) -> Result<TerrainId, TerrainProblem> {
        let id = terrain_id(terrain).ok_or(TerrainProblem::NotAnId)?;
        if self.listed.contains(id) {
            return Err(TerrainProblem::ListedTwice(id));
        }
        Ok(id)
    }

    /// Lets the profile enter `terrain` at `multiplier`, if the core accepts the multiplier.
    pub(crate) fn allow(
        &mut self,
        terrain: TerrainId,
        multiplier: f64,
    ) -> Result<(), ProfileError> {
        self.profile.set_terrain(terrain, multiplier)?;
        self.listed.insert(terrain);
        Ok(())
    }

    /// A problem with this profile, as reported: `profile '<name>': <problem>`.
    pub(crate) fn problem(&self, problem: impl Display) -> String {
        format!("profile '{}': {problem}", self.profile.name())
    }

    /// The profile built so far.
    pub(crate) fn build(self) -> CoreProfile {
        self.profile
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_needs_a_name() {
        assert!(ProfileBuilder::new("").is_none());
        assert!(ProfileBuilder::new("truck").is_some());
    }

    #[test]
    fn terrains_are_ids_listed_once() {
        let mut builder = ProfileBuilder::new("truck").unwrap();
        assert!(matches!(builder.terrain(256), Err(TerrainProblem::NotAnId)));
        assert!(matches!(builder.terrain(-1), Err(TerrainProblem::NotAnId)));
        let road = builder.terrain(2).ok().unwrap();
        builder.allow(road, 0.5).unwrap();
        assert!(matches!(
            builder.terrain(2),
            Err(TerrainProblem::ListedTwice(2))
        ));
        let profile = builder.build();
        assert_eq!(profile.name(), "truck");
        assert_eq!(profile.multiplier(2), Some(0.5));
    }

    #[test]
    fn a_refused_multiplier_leaves_the_terrain_unlisted() {
        let mut builder = ProfileBuilder::new("boat").unwrap();
        let water = builder.terrain(4).ok().unwrap();
        assert!(builder.allow(water, f64::NAN).is_err());
        assert!(builder.terrain(4).is_ok());
    }

    #[test]
    fn problems_name_the_profile() {
        let builder = ProfileBuilder::new("boat").unwrap();
        assert_eq!(
            builder.problem("costs[1]: too dear"),
            "profile 'boat': costs[1]: too dear"
        );
    }
}
