//! Profiles, from code (`set_profile()`) and from the `AgentProfile` resources in `profiles`,
//! and their landmark tables.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::ClearancePathfinder;
use crate::marshal::{landmark_dictionary, profile_from_dictionary};
use clearance_core::AgentProfile as CoreProfile;
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Registers (or replaces) the profile called `name` from code. `costs` maps terrain ids
    /// (int keys, 0 to 255) to cost multipliers (int or float values, finite, 0 to 10000); a
    /// terrain not listed is impassable: `set_profile(&"boat", {4: 1.0})`. Returns `false`
    /// and prints an error, changing nothing, for an empty name or any bad key or value. While
    /// an `AgentProfile` of the same name stays in `profiles`, the next registration of the
    /// resources (`reload_profiles()`, an assignment to `profiles`, a `changed` signal of any
    /// of them) puts the resource's back; once no resource has the name, the code's stays.
    #[func]
    pub fn set_profile(&mut self, name: StringName, costs: VarDictionary) -> bool {
        let profile = match profile_from_dictionary(&name.to_string(), &costs) {
            Ok(profile) => profile,
            Err(problem) => {
                pathfinder_error!("set_profile", "{problem}; nothing changed");
                return false;
            }
        };
        self.ensure_ready();
        let version_before = self.map.version();
        if let Err(error) = self.map_mut().set_profile(profile) {
            pathfinder_error!("set_profile", "{error}; nothing changed");
            return false;
        }
        // The profile is the code's now: reloading the resources must not remove it, only
        // replace it if a resource still defines that name.
        let name = name.to_string();
        self.resource_profiles
            .retain(|(registered, _)| *registered != name);
        self.after_rule_change(version_before, Announce::Now);
        true
    }

    /// Unregisters the profile called `name`. Returns `false` and prints an error if there is
    /// none. A profile from `profiles` comes back when the resources are registered again:
    /// `reload_profiles()`, an assignment to `profiles`, or a `changed` signal of one of them.
    #[func]
    pub fn remove_profile(&mut self, name: StringName) -> bool {
        self.ensure_ready();
        let name = name.to_string();
        let version_before = self.map.version();
        if self.map_mut().remove_profile(&name) {
            self.after_rule_change(version_before, Announce::Now);
            true
        } else {
            pathfinder_error!("remove_profile", "no profile called '{name}'");
            false
        }
    }

    /// Whether a profile called `name` is registered.
    #[func]
    pub fn has_profile(&mut self, name: StringName) -> bool {
        self.ensure_ready();
        self.map.profile(&name.to_string()).is_some()
    }

    /// The names of all registered profiles, sorted.
    #[func]
    pub fn get_profile_names(&mut self) -> PackedStringArray {
        self.ensure_ready();
        let mut names: Vec<&str> = self.map.profiles().map(CoreProfile::name).collect();
        names.sort_unstable();
        names.into_iter().map(GString::from).collect()
    }

    /// Registers the AgentProfile resources in `profiles` again (after they were changed in
    /// place), retiring the ones registered from it before. Invalid entries are skipped with an
    /// error each (one registered before keeps its last valid settings); profiles whose
    /// settings did not change keep their caches. Returns `true` if every entry was valid.
    #[func]
    pub fn reload_profiles(&mut self) -> bool {
        self.ensure_map();
        self.register_profile_resources(true, Announce::Now)
    }

    /// Builds the landmark table of `profile` now (on this thread), so that its next query
    /// does not pay for it, and describes it like `get_landmark_stats()`. With
    /// `landmark_count` 0 or an unknown profile, returns `ok` false (an unknown profile also
    /// prints an error).
    #[func]
    pub fn bake_landmarks(&mut self, profile: StringName) -> VarDictionary {
        self.ensure_ready();
        let name = profile.to_string();
        if self.map.profile(&name).is_none() {
            pathfinder_error!("bake_landmarks", "unknown profile '{name}'");
        }
        landmark_dictionary(self.map.bake_landmarks(&name))
    }

    /// Describes the landmark table of `profile` if it is built: `ok` (bool), `landmarks`
    /// (`Array[Vector2i]`, the landmark cells), `bytes` (int, memory held) and
    /// `bytes_per_cell_per_landmark` (float). `ok` is false when no table is built.
    #[func]
    pub fn get_landmark_stats(&mut self, profile: StringName) -> VarDictionary {
        self.ensure_ready();
        landmark_dictionary(self.map.landmark_stats(&profile.to_string()))
    }
}

impl ClearancePathfinder {
    /// The valid resource profiles in `profiles`, and the configuration warnings about them:
    /// none listed, or a message for each invalid entry.
    pub(super) fn profile_warnings(&self) -> (Vec<CoreProfile>, Vec<String>) {
        let (valid, problems) = self.read_profile_resources();
        let valid = valid.into_iter().map(|(profile, _)| profile).collect();
        let mut warnings = Vec::with_capacity(problems.len() + 1);
        if self.profiles.is_empty() {
            warnings.push(
                "No AgentProfile in `profiles`. Add one in the inspector, or register profiles \
                 from code with set_profile() before querying."
                    .to_owned(),
            );
        }
        warnings.extend(problems.into_iter().map(|problem| problem.message));
        (valid, warnings)
    }

    /// The valid resource profiles in `profiles`, and the problem of each invalid entry.
    fn read_profile_resources(&self) -> (Vec<(CoreProfile, InstanceId)>, Vec<ResourceProblem>) {
        let mut valid: Vec<(CoreProfile, InstanceId)> = Vec::new();
        let mut problems = Vec::new();
        for (index, entry) in self.profiles.iter_shared().enumerate() {
            let Some(resource) = entry else {
                problems.push(ResourceProblem {
                    message: format!("profiles[{index}] is empty: assign an AgentProfile"),
                    resource: None,
                });
                continue;
            };
            let id = resource.instance_id();
            let resource = resource.bind();
            match resource.to_core() {
                Ok(profile)
                    if valid
                        .iter()
                        .any(|(other, _)| other.name() == profile.name()) =>
                {
                    problems.push(ResourceProblem {
                        message: format!(
                            "profiles[{index}]: another AgentProfile is already called '{}'",
                            resource.name_string()
                        ),
                        resource: None,
                    });
                }
                Ok(profile) => valid.push((profile, id)),
                Err(problem) => problems.push(ResourceProblem {
                    message: format!("profiles[{index}]: {problem}"),
                    resource: Some(id),
                }),
            }
        }
        (valid, problems)
    }

    /// Registers the valid resource profiles in place of those registered from `profiles`
    /// before; returns whether every entry was valid. A resource whose settings became
    /// invalid keeps its last valid ones registered (refused input changes nothing), and a
    /// profile whose settings did not change keeps its search graphs and landmark table.
    pub(super) fn register_profile_resources(&mut self, report: bool, announce: Announce) -> bool {
        let (valid, problems) = self.read_profile_resources();
        let version_before = self.map.version();
        let mut registered: Vec<(String, InstanceId)> = Vec::new();
        for (name, resource) in std::mem::take(&mut self.resource_profiles) {
            let replaced = valid.iter().any(|(profile, _)| profile.name() == name);
            // The same resource, still in the list but invalid now (edited, or renamed and
            // invalid): its last valid settings stay, under the name they had.
            let invalid_now = (problems.iter()).any(|problem| problem.resource == Some(resource));
            if invalid_now && !replaced && self.map.profile(&name).is_some() {
                registered.push((name, resource));
            } else if !replaced {
                self.map_mut().remove_profile(&name);
            }
        }
        for (profile, resource) in valid {
            let name = profile.name().to_owned();
            if self.map.profile(&name) == Some(&profile) {
                registered.push((name, resource));
                continue;
            }
            match self.map_mut().set_profile(profile) {
                Ok(()) => registered.push((name, resource)),
                Err(error) => pathfinder_error!(node, "profile '{name}': {error}"),
            }
        }
        self.profiles_stale = false;
        if report {
            for problem in &problems {
                let kept = (registered.iter())
                    .find(|(_, resource)| Some(*resource) == problem.resource)
                    .map(|(name, _)| name);
                let message = &problem.message;
                match kept {
                    Some(name) => pathfinder_error!(
                        "profiles",
                        "{message}; its last valid settings stay registered as '{name}'"
                    ),
                    None => pathfinder_error!("profiles", "{message}; that profile is skipped"),
                }
            }
        }
        self.resource_profiles = registered;
        self.after_rule_change(version_before, announce);
        problems.is_empty()
    }

    /// Redraws (the heat map may show a profile), and emits `map_changed` over the whole map
    /// (the `region` set, which a stale map may not cover yet) if the map's version moved on
    /// since `version_before`: a profile set or removed changes what paths cross every cell,
    /// so what a game derived from the map may be stale.
    pub(super) fn after_rule_change(&mut self, version_before: u64, announce: Announce) {
        self.base_mut().queue_redraw();
        if self.map.version() == version_before {
            return;
        }
        let whole = self.region;
        match announce {
            Announce::Now => self.signals().map_changed().emit(whole),
            Announce::Deferred => {
                let arguments = [
                    StringName::from("map_changed").to_variant(),
                    whole.to_variant(),
                ];
                self.base_mut().call_deferred("emit_signal", &arguments);
            }
        }
    }
}

/// When [`ClearancePathfinder::after_rule_change`] emits `map_changed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Announce {
    /// Now: the change was a call the script made.
    Now,
    /// At the end of the frame: the change ran inside another call (resources registered
    /// when first needed, by a query, a draw or the node's ready), so the signal waits until
    /// no call is under way and the scene round the node is ready.
    Deferred,
}

/// An invalid entry of `profiles`: what is wrong, and its resource (if any), so that a
/// profile registered from that resource before can stay.
struct ResourceProblem {
    message: String,
    resource: Option<InstanceId>,
}
