//! The occupancy layer: units registered by id (`add_unit()`, `move_unit()`, `move_units()`,
//! `remove_unit()`...), what the node knows of them, and arrival slots for group orders
//! (`get_arrival_slots()`, `find_paths_to_slots()`, `request_paths_to_slots()`). How queries
//! count the units is `other_units`'s business (`queries.rs`); every rule and check here is
//! the core's.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::modes::NO_UNIT;
use super::ClearancePathfinder;
use crate::convert::{cell_of, vector_of};
use crate::marshal::{
    member_from_variant, moves_of, unit_dictionary, unit_from_variant, ResultWriter,
};
use crate::workers::{slot_requests, SlotsOrder, Work};
use clearance_core::{
    checked_agent_size, footprint, Cell, SlotPath, SlotPathOptions, UnitError, UnitId,
    MAX_AGENT_SIZE,
};
use godot::prelude::*;

#[godot_api(secondary)]
impl ClearancePathfinder {
    /// Registers a unit of `agent_size` (1 to 255) under `id` with its anchor (the top-left
    /// cell of its footprint) at `anchor`, which must lie on the map (the footprint may reach
    /// past its edge). The id is yours to choose (`get_instance_id()`, an index...), any int
    /// but `NO_UNIT` (-1). Terrain is not checked: a unit may stand where no profile could
    /// walk. How other queries count the unit is `other_units`'s choice. Returns `false`,
    /// prints an error and changes nothing for an id already registered, a bad size or an
    /// anchor off the map.
    #[func]
    pub fn add_unit(&mut self, id: i64, anchor: Vector2i, agent_size: i64) -> bool {
        self.place_units("add_unit", &[(id, cell_of(anchor), agent_size)])
    }

    /// Registers several units at once, all or nothing: each entry of `units` is a Dictionary
    /// with `id` (int), `anchor` (Vector2i) and `agent_size` (int), as `get_units()` lists
    /// them. Returns `false`, prints an error naming the first bad entry and registers none if
    /// any entry is malformed or would be refused by `add_unit()`, or if two entries share an
    /// id.
    #[func]
    pub fn add_units(&mut self, units: AnyArray) -> bool {
        let mut placed = Vec::with_capacity(units.len());
        for (index, entry) in units.iter_shared().enumerate() {
            match unit_from_variant(&entry) {
                Ok(unit) => placed.push(unit),
                Err(problem) => {
                    pathfinder_error!("add_units", "units[{index}] {problem}; nothing changed");
                    return false;
                }
            }
        }
        self.place_units("add_units", &placed)
    }

    /// Moves the unit `id` to `anchor` (on the map): cheap whatever its size, and no terrain
    /// cache is touched, so call it as often as the unit steps. The next query that counts
    /// other units (`OTHER_UNITS_BLOCK` or `OTHER_UNITS_COST`) catches its view of them up
    /// with the units moved since (a few microseconds a unit moved, among a thousand units);
    /// after more moves than a quarter of the units, or than 64, it builds the view again, about
    /// 0.1 to 0.2 ms per thousand units.
    /// Returns `false`, prints an error and changes nothing for an unknown id or an anchor off
    /// the map.
    #[func]
    pub fn move_unit(&mut self, id: i64, anchor: Vector2i) -> bool {
        self.apply_moves("move_unit", &[(id, cell_of(anchor))])
    }

    /// Moves several units at once, all or nothing: `moves` maps unit ids (int keys) to their
    /// new anchors (Vector2i values), `{unit.id: anchor, ...}` (a typed
    /// `Dictionary[int, Vector2i]` too). Returns `false`, prints an
    /// error naming the first bad entry and moves none if a key is not an int, a value not a
    /// Vector2i, an id unknown or an anchor off the map. An empty Dictionary is valid and
    /// changes nothing.
    #[func]
    pub fn move_units(&mut self, moves: AnyDictionary) -> bool {
        match moves_of(&moves) {
            Ok(moves) => self.apply_moves("move_units", &moves),
            Err(problem) => {
                pathfinder_error!("move_units", "moves: {problem}; nothing changed");
                false
            }
        }
    }

    /// Unregisters the unit `id`. Returns `false` and prints an error if there is none.
    #[func]
    pub fn remove_unit(&mut self, id: i64) -> bool {
        self.ensure_map();
        let outcome = self.map_mut().remove_unit(id);
        self.report_units_edit("remove_unit", outcome)
    }

    /// Unregisters every unit.
    #[func]
    pub fn clear_units(&mut self) {
        self.ensure_map();
        if !self.map.occupancy().is_empty() {
            self.map_mut().clear_units();
            self.after_units_change();
        }
    }

    /// Whether a unit of id `id` is registered.
    #[func]
    pub fn has_unit(&mut self, id: i64) -> bool {
        self.ensure_map();
        self.map.occupancy().contains(id)
    }

    /// The anchor of the unit `id`. For an unknown id, prints an error and returns
    /// `Vector2i(-1, -1)`; that is also a legal anchor on maps whose `region` reaches it, so
    /// ask `has_unit()` first where an id may be unknown.
    #[func]
    pub fn get_unit_anchor(&mut self, id: i64) -> Vector2i {
        self.ensure_map();
        match self.map.unit(id) {
            Some(unit) => vector_of(unit.anchor),
            None => {
                pathfinder_error!("get_unit_anchor", "no unit with id {id} is registered");
                Vector2i::new(-1, -1)
            }
        }
    }

    /// The unit `id` as a Dictionary: `id` (int), `anchor` (Vector2i) and `agent_size` (int).
    /// For an unknown id, prints an error and returns an empty Dictionary.
    #[func]
    pub fn get_unit(&mut self, id: i64) -> VarDictionary {
        self.ensure_map();
        match self.map.unit(id) {
            Some(unit) => unit_dictionary(&unit),
            None => {
                pathfinder_error!("get_unit", "no unit with id {id} is registered");
                VarDictionary::new()
            }
        }
    }

    /// Every registered unit, as `get_unit()` describes it, in order of id.
    #[func]
    pub fn get_units(&mut self) -> Array<VarDictionary> {
        self.ensure_map();
        let mut units = self.map.occupancy().units().to_vec();
        units.sort_unstable_by_key(|unit| unit.id);
        let dictionaries: Vec<VarDictionary> = units.iter().map(unit_dictionary).collect();
        Array::from(dictionaries.as_slice())
    }

    /// The ids of the registered units, but those in `exempt_units`, whose footprints overlap
    /// the footprint a unit of `agent_size` would cover at `anchor`, in order of id: who stands
    /// in the way of a unit stepping there (pass its own id and its group as `exempt_units`).
    /// The footprint may reach past the map's edge. Prints an error and returns an empty
    /// array for a size outside 1 to 255. A call reads only the units standing near the
    /// footprint (they are kept by squares of 16 x 16 cells; "near" reaches as far as the
    /// largest unit registered is wide), so asking before every step of every unit stays cheap
    /// with thousands of units.
    #[func]
    pub fn get_units_at(
        &mut self,
        anchor: Vector2i,
        agent_size: i64,
        exempt_units: PackedInt64Array,
    ) -> PackedInt64Array {
        self.ensure_map();
        let footprint =
            checked_agent_size(agent_size).and_then(|size| footprint(cell_of(anchor), size));
        let Some(footprint) = footprint else {
            pathfinder_error!(
                "get_units_at",
                "agent_size {agent_size} is not between 1 and {MAX_AGENT_SIZE}, or its footprint \
                 at {anchor} leaves the coordinate range"
            );
            return PackedInt64Array::new();
        };
        let mut ids: Vec<i64> = (self
            .map
            .units_overlapping(footprint, exempt_units.as_slice()))
        .iter()
        .map(|unit| unit.id)
        .collect();
        ids.sort_unstable();
        PackedInt64Array::from(ids.as_slice())
    }

    /// How many units are registered.
    #[func]
    pub fn get_unit_count(&mut self) -> i64 {
        self.ensure_map();
        self.map.occupancy().len() as i64
    }

    /// A number that changes with every change to the units (added, moved, removed), never
    /// with the terrain; `get_map_version()` does the opposite. Moving units leaves flow
    /// fields and cached layers valid.
    #[func]
    pub fn get_units_version(&mut self) -> i64 {
        self.ensure_map();
        i64::try_from(self.map.units_version()).unwrap_or(i64::MAX)
    }

    /// Where each unit of a group order should stop, so that a selection sent to one click
    /// spreads out round it instead of piling on one anchor. `units` holds one Dictionary per
    /// member: `id` (int), `anchor` (Vector2i, where it stands now), `agent_size` (int) and
    /// `profile` (StringName or String).
    ///
    /// Returns an Array with one entry per member, in order: the anchor (Vector2i) it should
    /// go to, or `null` for a member that can reach no free slot; test `slots[i] is Vector2i`.
    /// The slots are legal for each member's size and profile, no two overlap, none overlaps a
    /// registered unit outside the group (the members' own registered footprints do not
    /// count: they are leaving them), each member can reach its slot moving round the units
    /// outside the group, and they are as close to `target` (by each member's path cost) as
    /// the others allow; larger members choose first. Send each member to its slot with
    /// `other_units` at `OTHER_UNITS_BLOCK`, the member as `moving_unit` and the group as
    /// `exempt_units`.
    ///
    /// Prints an error and returns an empty Array for a target off the map or a bad member
    /// (malformed, a bad size, an anchor off the map, an unknown profile, an id twice).
    #[func]
    pub fn get_arrival_slots(&mut self, target: Vector2i, units: AnyArray) -> VarArray {
        let method = "get_arrival_slots";
        self.ensure_ready();
        let Some(members) = group_members(method, &units) else {
            return VarArray::new();
        };
        match self
            .map
            .arrival_slots(cell_of(target), &slot_requests(&members))
        {
            Ok(slots) => {
                let slots: Vec<Variant> = slots.iter().map(|&slot| slot_variant(slot)).collect();
                VarArray::from(slots.as_slice())
            }
            Err(error) => {
                pathfinder_error!(method, "{error}; no slots");
                VarArray::new()
            }
        }
    }

    /// A group order spread over arrival slots in one call: `get_arrival_slots()` for
    /// `units` (the same Dictionaries) round `target`, then each member's path to its slot.
    /// Returns one Dictionary per member, in order: `find_path()`'s Dictionary (the same code
    /// and cost; of several optimal paths it may return another) for the member from where
    /// it stands to its slot, with the member as `moving_unit` (if registered),
    /// the group's registered ids as `exempt_units` and the units outside the group counted
    /// as `OTHER_UNITS_BLOCK` (the slots are chosen reachable round them, whatever
    /// `other_units` says), with the node's `search_mode`, `search_expansion_limit`,
    /// `smoothing` and `result_format`; plus `slot`, the member's slot (Vector2i), or `null`
    /// for a member that can reach no free slot, whose Dictionary then has no path and the
    /// code `MEMORY_LIMIT_REACHED` if its search graph would pass `cache_memory_limit_mb`,
    /// `START_CLEARANCE_INSUFFICIENT` if its footprint does not fit where it stands,
    /// `NO_PATH` otherwise. The members' queries run on the calling thread and up to
    /// `worker_thread_count` more, started for the call (as `find_paths()` does).
    ///
    /// Prints an error and returns an empty Array for what `get_arrival_slots()` refuses.
    #[func]
    pub fn find_paths_to_slots(
        &mut self,
        target: Vector2i,
        units: AnyArray,
    ) -> Array<VarDictionary> {
        let method = "find_paths_to_slots";
        self.ensure_ready();
        let Some(members) = group_members(method, &units) else {
            return Array::new();
        };
        let group = slot_requests(&members);
        let options = self.slot_path_options();
        match self
            .map
            .find_paths_to_slots(cell_of(target), &group, &options)
        {
            Ok(order) => {
                let writer = self.result_writer();
                Array::from(
                    self.slot_order_dictionaries(&order, &members, &writer)
                        .as_slice(),
                )
            }
            Err(error) => {
                pathfinder_error!(method, "{error}; no paths");
                Array::new()
            }
        }
    }

    /// `find_paths_to_slots()` off the main thread: starts it on a worker and returns its
    /// request id at once; `paths_found(id, results)` follows with the Array
    /// `find_paths_to_slots()` would have returned for the map and the units as they were when
    /// the request was made. Prints an error, returns -1 and starts nothing for what
    /// `get_arrival_slots()` refuses.
    #[func]
    pub fn request_paths_to_slots(&mut self, target: Vector2i, units: AnyArray) -> i64 {
        let method = "request_paths_to_slots";
        self.ensure_ready();
        let Some(members) = group_members(method, &units) else {
            return -1;
        };
        let target = cell_of(target);
        if let Err(error) = (self.map).check_group_order(target, &slot_requests(&members)) {
            pathfinder_error!(method, "{error}; nothing was started");
            return -1;
        }
        // A worker is already one of the pool's threads: it answers the members itself.
        let options = self.slot_path_options().threads(1);
        self.submit(Work::Slots(SlotsOrder {
            target,
            members,
            options,
        }))
    }
}

impl ClearancePathfinder {
    /// The options of this node's group orders to slots: units outside the group block, and
    /// the node's search mode, expansion limit, smoothing and threads.
    fn slot_path_options(&self) -> SlotPathOptions {
        let mut options = SlotPathOptions::new()
            .search(self.search())
            .smoothing(self.smoothing())
            .threads(self.resolved_worker_count() + 1);
        options.max_expansions = self.expansion_limit();
        options
    }

    /// A group order's answer for GDScript: per member, `find_path()`'s Dictionary with
    /// `slot` besides.
    pub(super) fn slot_order_dictionaries(
        &self,
        order: &[SlotPath],
        members: &[(UnitId, Cell, i64, String)],
        writer: &ResultWriter,
    ) -> Vec<VarDictionary> {
        (order.iter().zip(members))
            .map(|(sent, (_, _, agent_size, _))| {
                let mut dictionary = writer.dictionary(&sent.result, *agent_size);
                dictionary.set("slot", &slot_variant(sent.slot));
                dictionary
            })
            .collect()
    }
}

/// The members of a group order from GDScript's Dictionaries, or `None` after an error
/// naming `method` and the first bad entry.
fn group_members(method: &str, units: &AnyArray) -> Option<Vec<(UnitId, Cell, i64, String)>> {
    let mut members = Vec::with_capacity(units.len());
    for (index, entry) in units.iter_shared().enumerate() {
        match member_from_variant(&entry) {
            Ok(member) => members.push(member),
            Err(problem) => {
                pathfinder_error!(method, "units[{index}] {problem}; nothing was chosen");
                return None;
            }
        }
    }
    Some(members)
}

/// A slot for GDScript: its anchor, or `null` for none.
fn slot_variant(slot: Option<Cell>) -> Variant {
    slot.map_or_else(Variant::nil, |anchor| vector_of(anchor).to_variant())
}

impl ClearancePathfinder {
    /// Registers `units` (id, anchor, size) all or none, reporting for `method`.
    fn place_units(&mut self, method: &str, units: &[(UnitId, Cell, i64)]) -> bool {
        if units.iter().any(|&(id, _, _)| id == NO_UNIT) {
            pathfinder_error!(
                method,
                "{NO_UNIT} is NO_UNIT, which queries take for \"no moving unit\", and cannot be \
                 a unit's id; nothing changed"
            );
            return false;
        }
        self.ensure_map();
        let outcome = self.map_mut().place_units(units);
        self.report_units_edit(method, outcome)
    }

    /// Moves units all or none, reporting for `method`.
    fn apply_moves(&mut self, method: &str, moves: &[(UnitId, Cell)]) -> bool {
        self.ensure_map();
        let outcome = self.map_mut().move_units(moves);
        self.report_units_edit(method, outcome)
    }

    /// Redraws after a change the core accepted and returns `true`; or prints, for `method`,
    /// why the core refused it (it then changed nothing) and returns `false`.
    fn report_units_edit(&mut self, method: &str, outcome: Result<(), UnitError>) -> bool {
        match outcome {
            Ok(()) => {
                self.after_units_change();
                true
            }
            Err(error) => {
                pathfinder_error!(method, "{error}; nothing changed");
                false
            }
        }
    }

    /// Redraws the units' footprints if the overlay shows them.
    fn after_units_change(&mut self) {
        if self.debug_draw_units {
            self.base_mut().queue_redraw();
        }
    }

    /// Prints, for `method`, the first of the ids a query names (its moving unit, then its
    /// exempt list) that is not registered: the query answers `UNKNOWN_UNIT`, unless an
    /// earlier check (a start off the map, say) answered first.
    pub(super) fn report_unknown_units(&self, method: &str, moving: Option<i64>, exempt: &[i64]) {
        let named = [("moving_unit", moving.as_slice()), ("exempt_units", exempt)];
        if let Some(problem) = self.first_unregistered(&named) {
            pathfinder_error!(method, "{problem}");
        }
    }

    /// What is wrong with the first id in `named` (each argument's name with the ids it
    /// gives) that no registered unit has, if one is.
    pub(super) fn first_unregistered(&self, named: &[(&str, &[i64])]) -> Option<String> {
        let occupancy = self.map.occupancy();
        named.iter().find_map(|&(argument, ids)| {
            let id = ids.iter().find(|&&id| !occupancy.contains(id))?;
            Some(format!(
                "{argument} names unit {id}, which is not registered (add_unit())"
            ))
        })
    }
}
