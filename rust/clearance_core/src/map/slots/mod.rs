//! Arrival slots: where each unit of a group order should stop, so that a selection sent to
//! one click spreads out instead of piling on one anchor.
//!
//! # The contract
//!
//! Given a target cell and the members of a group (id, start anchor, size, profile), every
//! member gets an anchor or none, such that:
//!
//! * every slot is legal for its member (its footprint fits the member's profile);
//! * no two slots' footprints overlap, and no slot overlaps a registered unit outside the
//!   group (the members' own registered positions do not count: they are leaving them);
//! * each member can reach its slot, moving round the units outside the group;
//! * the slots are *compact*: measured by cost from the target for the member's size and
//!   profile, no member could take a strictly cheaper anchor that is legal, free of units
//!   outside the group, reachable, and overlaps no other member's slot.
//!
//! The cost from the target is that of an optimal path from the nearest anchor that holds
//! the target: for a unit of size `k`, the legal anchors whose `k x k` footprint contains the
//! target cell all start at cost 0 (the entry-cost convention, other units blocking as in
//! [`OtherUnits::Block`](crate::OtherUnits::Block)); if none is legal, the legal anchor
//! nearest to the target as the crow flies (lowest `y`, then `x`) does. A member whose start
//! is cut off from those anchors gets none.
//!
//! # How they are chosen, and why they are compact
//!
//! Members are placed one at a time, largest first (then in the order given): each takes the
//! cheapest anchor, in the order of a Dijkstra search from the target for its size and
//! profile, that is still free. An anchor cheaper than a member's slot was, when the member
//! chose, either taken by an earlier slot or blocked for good; if it was free then, the member
//! would have taken it, so it is taken now by a later member. Either way it overlaps another
//! slot, which is what compactness allows. Equal queries on equal maps give equal slots.
//!
//! # Who reaches the target
//!
//! Each search remembers which anchors are connected to the target's anchors (its *seeds*) and
//! which are cut off: a member's start is judged by a walk towards the target that stops at the
//! first anchor already judged, taking turns with a walk from a seed towards the start that marks
//! what it visits connected (`search.rs` says why either walk may end it). The first member of each
//! size would walk most of the way, so a size borrows the connections of the next larger size of
//! the same profile. That is sound: a path of legal `k x k` anchors that meets no blocking unit is
//! also such a path for any size `j < k` (each `j x j` footprint, and each side anchor's, lies
//! inside the `k x k` one), and it ends at a larger seed, whose whole `k x k` footprint is free, so
//! every `j x j` anchor inside it is joined to it. So an anchor connected for size `k` is joined
//! for size `j` to that seed, and when the larger seeds are joined among themselves and one of them
//! reaches the smaller size's seeds (one walk, from next to the target), it is connected for size
//! `j`. Anchors cut off for size `k` are not borrowed: a smaller unit may fit where it could not.

mod search;
mod storage;

use super::PathMap;
use crate::error::UnitError;
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::Cell;
use crate::occupancy::UnitId;
use crate::profile::AgentProfile;
use crate::search::Counted;
use crate::search::UnitsView;
use search::SlotSearch;
use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// One member of a group order, for [`PathMap::arrival_slots`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotRequest<'a> {
    /// The member's id: its registered unit, if any, does not count against the group.
    pub id: UnitId,
    /// Where the member stands now.
    pub start: Cell,
    /// Side of its footprint, 1 to 255.
    pub agent_size: i64,
    /// The name of its profile.
    pub profile: &'a str,
}

impl PathMap {
    /// One arrival slot per member of `group` around `target` (see the module docs of
    /// `map/slots/mod.rs`, summed up in the repository's README): in the order of `group`, the
    /// anchor each member should go to, or `None` for a member that can reach no free slot
    /// (or whose search graph would pass the cache memory limit:
    /// [`find_paths_to_slots`](Self::find_paths_to_slots) then answers `MEMORY_LIMIT_REACHED`).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, Region, SlotRequest, TerrainGrid};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 10, 10), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let group = [
    ///     SlotRequest { id: 1, start: Cell::new(0, 0), agent_size: 2, profile: "unit" },
    ///     SlotRequest { id: 2, start: Cell::new(0, 5), agent_size: 1, profile: "unit" },
    ///     SlotRequest { id: 3, start: Cell::new(0, 9), agent_size: 1, profile: "unit" },
    /// ];
    /// let slots = map.arrival_slots(Cell::new(5, 5), &group)?;
    /// assert_eq!(slots[0], Some(Cell::new(4, 4))); // the 2x2 first, on the target
    /// assert!(slots.iter().all(|slot| slot.is_some()));
    /// assert_ne!(slots[1], slots[2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn arrival_slots(
        &self,
        target: Cell,
        group: &[SlotRequest<'_>],
    ) -> Result<Vec<Option<Cell>>, UnitError> {
        let CheckedGroup {
            target: target_index,
            members,
            ids,
        } = self.checked_group(target, group)?;
        let mut classes: HashMap<(&str, u8), Option<SlotSearch>> = HashMap::new();
        let (width, height) = (self.grid.width(), self.grid.height());
        let mut taken = vec![0u64; (width * height).div_ceil(64)];
        let mut order: Vec<usize> = (0..group.len()).collect();
        order.sort_by_key(|&member| Reverse(members[member].0));
        let mut slots = vec![None; group.len()];
        for member in order {
            let (size, start, profile) = members[member];
            let key = (group[member].profile, size);
            if !classes.contains_key(&key) {
                let class = self
                    .graph_for(key.0, profile, size)
                    .map(|graph| self.slot_search(graph, size, &ids, target_index));
                let class = class.map(|mut class| {
                    // Members come largest first, so a larger class of this profile is done.
                    let larger = (classes.iter())
                        .filter(|((name, larger), _)| *name == key.0 && *larger > size)
                        .min_by_key(|((_, larger), _)| *larger)
                        .and_then(|(_, larger)| larger.as_ref());
                    if let Some(larger) = larger {
                        class.borrow_connections(larger);
                    }
                    class
                });
                classes.insert(key, class);
            }
            let Some(search) = classes.get_mut(&key).and_then(Option::as_mut) else {
                continue;
            };
            if !search.reaches(start) {
                continue;
            }
            if let Some(slot) = search.next_free(&taken, start) {
                let side = usize::from(size);
                for row in slot / width..slot / width + side {
                    for column in slot % width..slot % width + side {
                        let cell = row * width + column;
                        taken[cell / 64] |= 1 << (cell % 64);
                    }
                }
                slots[member] = Some(self.grid.cell_at(slot));
            }
        }
        Ok(slots)
    }

    /// Whether [`arrival_slots`](Self::arrival_slots) would take this group order: the
    /// error it would refuse it with, or `Ok`. Checks only the arguments, in the order
    /// `arrival_slots` does (the target, then each member's id, size, start and profile).
    ///
    /// ```
    /// use clearance_core::{AgentProfile, Cell, PathMap, Region, SlotRequest, TerrainGrid, UnitError};
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 8, 8), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// let member = SlotRequest { id: 1, start: Cell::new(0, 0), agent_size: 1, profile: "unit" };
    /// assert_eq!(map.check_group_order(Cell::new(4, 4), &[member]), Ok(()));
    /// assert_eq!(
    ///     map.check_group_order(Cell::new(4, 4), &[member, member]),
    ///     Err(UnitError::DuplicateInBatch { id: 1 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_group_order(
        &self,
        target: Cell,
        group: &[SlotRequest<'_>],
    ) -> Result<(), UnitError> {
        self.checked_group(target, group).map(|_| ())
    }

    /// The group order's arguments checked and looked up: the one home of its checks.
    fn checked_group<'a>(
        &'a self,
        target: Cell,
        group: &[SlotRequest<'_>],
    ) -> Result<CheckedGroup<'a>, UnitError> {
        let target = self
            .grid
            .index_of(target)
            .ok_or(UnitError::TargetOutOfBounds { target })?;
        let mut members = Vec::with_capacity(group.len());
        let mut ids = HashSet::with_capacity(group.len());
        for member in group {
            let id = member.id;
            if !ids.insert(id) {
                return Err(UnitError::DuplicateInBatch { id });
            }
            let size =
                checked_agent_size(member.agent_size).ok_or(UnitError::InvalidAgentSize {
                    id,
                    size: member.agent_size,
                })?;
            let start = (self.grid.index_of(member.start)).ok_or(UnitError::AnchorOutOfBounds {
                id,
                anchor: member.start,
            })?;
            let profile =
                self.profiles
                    .get(member.profile)
                    .ok_or_else(|| UnitError::UnknownProfile {
                        id,
                        profile: member.profile.to_owned(),
                    })?;
            members.push((size, start, profile));
        }
        Ok(CheckedGroup {
            target,
            members,
            ids,
        })
    }

    /// The search from `target` for one size and profile, with every registered unit outside
    /// `group` blocking.
    fn slot_search(
        &self,
        graph: Arc<AnchorGraph>,
        size: u8,
        group: &HashSet<UnitId>,
        target: usize,
    ) -> SlotSearch {
        let (width, height) = (self.grid.width(), self.grid.height());
        let mut view = UnitsView::default();
        let outside_group = |id| !group.contains(&id);
        self.count_units(
            &mut view,
            size,
            usize::MAX,
            Counted::Accepted(&outside_group),
        );
        let legal = |anchor: usize| graph.regions.is_labelled(anchor) && !view.is_blocked(anchor);
        let (x, y) = (target % width, target / width);
        let reach = usize::from(size) - 1;
        let mut seeds: Vec<usize> = (y.saturating_sub(reach)..=y)
            .flat_map(|row| (x.saturating_sub(reach)..=x).map(move |column| row * width + column))
            .filter(|&anchor| legal(anchor))
            .collect();
        if seeds.is_empty() {
            seeds.extend(self.nearest_anchor(target, legal));
        }
        SlotSearch::new((graph, view), (width, height), size, (x, y), &seeds)
    }
}

/// A group order whose arguments passed every check.
struct CheckedGroup<'a> {
    /// The target's storage index.
    target: usize,
    /// Per member, in the group's order: its size, its start's storage index, its profile.
    members: Vec<(u8, usize, &'a Arc<AgentProfile>)>,
    /// The members' ids.
    ids: HashSet<UnitId>,
}
