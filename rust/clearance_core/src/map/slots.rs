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
//! Each search remembers which anchors are connected to the target's anchors (its *seeds*)
//! and which are cut off: a member's start is judged by a walk towards the target that stops
//! at the first anchor already judged. The first member of each size would walk most of the
//! way, so a size borrows the connections of the next larger size of the same profile. That is
//! sound: a path of legal `k x k` anchors that meets no blocking unit is also such a path for
//! any size `j < k` (each `j x j` footprint, and each side anchor's, lies inside the `k x k`
//! one), and it ends at a larger seed, whose whole `k x k` footprint is free, so every `j x j`
//! anchor inside it is joined to it. So an anchor connected for size `k` is joined for size `j`
//! to that seed, and when the larger seeds are joined among themselves and one of them reaches
//! the smaller size's seeds (one walk, from next to the target), it is connected for size `j`.
//! Anchors cut off for size `k` are not borrowed: a smaller unit may fit where it could not.

use super::tables::Table;
use super::PathMap;
use crate::error::UnitError;
use crate::footprint::checked_agent_size;
use crate::graph::AnchorGraph;
use crate::grid::Cell;
use crate::movement::{direction_offsets, DIRECTIONS, STEP_LENGTHS};
use crate::occupancy::UnitId;
use crate::profile::AgentProfile;
use crate::search::UnitsView;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};
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
    /// `map/slots.rs`, repeated on this crate's README): in the order of `group`, the anchor
    /// each member should go to, or `None` for a member that can reach no free slot.
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
        self.count_units(&mut view, size, usize::MAX, |id| !group.contains(&id));
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
        let split_seeds = !joined_by_steps(&seeds, &graph, &view, width);
        let mut search = SlotSearch {
            split_seeds,
            offsets: direction_offsets(width),
            known: vec![0; height * width],
            best: LazyCosts::new(height * width),
            open: BinaryHeap::new(),
            settled: Vec::new(),
            cursor: 0,
            open_walk: Buckets::new(width + height),
            seed: seeds.first().copied(),
            target: (x, y),
            width,
            size,
            graph,
            view,
        };
        for seed in seeds {
            search.best.set(seed, 1);
            search.open.push(Reverse((0, seed)));
            search.known[seed] = CONNECTED;
        }
        search
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

/// `SlotSearch::known`: what is known of an anchor's connection to the target.
const UNKNOWN: u8 = 0;
const CONNECTED: u8 = 1;
const CUT_OFF: u8 = 2;
/// Being walked through by the current reachability walk.
const VISITING: u8 = 3;

/// A Dijkstra search from the target for one size and profile, resumed as members ask for
/// slots, and what it has learnt about which starts reach the target.
struct SlotSearch {
    /// The target's anchors are not all joined by steps among themselves, so reaching one
    /// says nothing of the others: each slot is then checked against the member's start.
    split_seeds: bool,
    graph: Arc<AnchorGraph>,
    view: UnitsView,
    offsets: [isize; 8],
    width: usize,
    size: u8,
    target: (usize, usize),
    /// Per anchor: [`UNKNOWN`], [`CONNECTED`] to the target's anchors, or [`CUT_OFF`].
    known: Vec<u8>,
    /// Per anchor: 0 if not reached yet, else its best cost so far plus 1.
    best: LazyCosts,
    open: BinaryHeap<Reverse<(u64, usize)>>,
    /// Anchors in the order the search settled them (cheapest first).
    settled: Vec<usize>,
    /// Settled anchors before this one overlap a slot: taken for good.
    cursor: usize,
    /// The open list of [`reaches`](Self::reaches)'s walks, kept between them.
    open_walk: Buckets,
    /// One of the target's anchors the search starts from, if it has any.
    seed: Option<usize>,
}

impl SlotSearch {
    /// The next anchor the search settles, if any is left.
    fn settle_next(&mut self) -> Option<usize> {
        while let Some(Reverse((cost, anchor))) = self.open.pop() {
            if self.best.get(anchor) - 1 < cost {
                continue;
            }
            let mut mask = self.view.unblocked_mask(anchor, self.graph.moves[anchor]);
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = anchor.wrapping_add_signed(self.offsets[direction]);
                let next_cost = cost + STEP_LENGTHS[direction] * self.graph.entry_multiplier(next);
                let best = self.best.get(next);
                if best == 0 || next_cost < best - 1 {
                    self.best.set(next, next_cost + 1);
                    self.open.push(Reverse((next_cost, next)));
                    self.known[next] = CONNECTED;
                }
            }
            // Settled once: a later, dearer entry of the same anchor is skipped above.
            self.settled.push(anchor);
            return Some(anchor);
        }
        None
    }

    /// The cheapest settled anchor whose footprint overlaps no cell of `taken` and that a unit
    /// at `start` reaches, settling more as needed.
    fn next_free(&mut self, taken: &[u64], start: usize) -> Option<usize> {
        let mut at = self.cursor;
        loop {
            while let Some(&anchor) = self.settled.get(at) {
                if !self.fits(anchor, taken) {
                    // Taken for good: later members skip it too.
                    if at == self.cursor {
                        self.cursor += 1;
                    }
                } else if !self.split_seeds || self.joined(start, anchor) {
                    // Its cells are taken next, so no later member fits there.
                    if at == self.cursor {
                        self.cursor += 1;
                    }
                    return Some(anchor);
                }
                at += 1;
            }
            self.settle_next()?;
        }
    }

    /// Whether `from` (where a unit stands, blocked or not) and `to` are joined by steps that
    /// enter no blocked anchor: a flood fill, for the rare split target only.
    fn joined(&self, from: usize, to: usize) -> bool {
        let mut seen: Table<usize, ()> = Table::default();
        seen.insert(from, ());
        let mut pending = vec![from];
        while let Some(anchor) = pending.pop() {
            if anchor == to {
                return true;
            }
            let terrain = self.graph.moves[anchor];
            let mut mask = if anchor == from {
                self.view.steps_to_unblocked(anchor, terrain)
            } else {
                self.view.unblocked_mask(anchor, terrain)
            };
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = anchor.wrapping_add_signed(self.offsets[direction]);
                if seen.insert(next, ()).is_none() {
                    pending.push(next);
                }
            }
        }
        false
    }

    fn fits(&self, anchor: usize, taken: &[u64]) -> bool {
        let side = usize::from(self.size);
        (0..side).all(|row| {
            (0..side).all(|column| {
                let cell = anchor + row * self.width + column;
                taken[cell / 64] >> (cell % 64) & 1 == 0
            })
        })
    }

    /// Takes over what a search for a larger size with the same profile knows to be connected
    /// to the target, when that is sound (see the module docs): `larger` is finished, its
    /// seeds are joined among themselves, and this search reaches one of them.
    fn borrow_connections(&mut self, larger: &SlotSearch) {
        let Some(seed) = larger.seed.filter(|_| !larger.split_seeds) else {
            return;
        };
        if !self.reaches(seed) {
            return;
        }
        for (known, &theirs) in self.known.iter_mut().zip(&larger.known) {
            if *known == UNKNOWN && theirs == CONNECTED {
                *known = CONNECTED;
            }
        }
    }

    /// Whether a unit standing at `start` reaches the target's anchors: a best-first walk
    /// towards the target until it meets an anchor known to be connected (or cut off), all it
    /// visited then known alike.
    fn reaches(&mut self, start: usize) -> bool {
        if !self.graph.regions.is_labelled(start) {
            return false;
        }
        if self.view.is_blocked(start) {
            // Its ways out may lie in different parts: each is asked on its own.
            let offsets = self.offsets;
            let mut mask = self.view.steps_to_unblocked(start, self.graph.moves[start]);
            let mut reached = false;
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                reached |= self.reaches(start.wrapping_add_signed(offsets[direction]));
            }
            return reached;
        }
        let (tx, ty) = self.target;
        let width = self.width;
        let distance = |x: usize, y: usize| x.abs_diff(tx).max(y.abs_diff(ty));
        let mut visited = vec![start];
        // `start` is not blocked here, so every anchor visited shares its part of the map.
        if self.known[start] != UNKNOWN {
            return self.known[start] == CONNECTED;
        }
        self.known[start] = VISITING;
        // Best first by distance to the target, from buckets of equal distance (a step
        // changes the distance by at most one, so the lowest bucket is found at once).
        let open = &mut self.open_walk;
        open.clear();
        open.push(distance(start % width, start / width), start);
        let mut verdict = CUT_OFF;
        'walk: while let Some(anchor) = open.pop() {
            let (x, y) = (anchor % width, anchor / width);
            let mut mask = self.view.unblocked_mask(anchor, self.graph.moves[anchor]);
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next = anchor.wrapping_add_signed(self.offsets[direction]);
                match self.known[next] {
                    UNKNOWN => {
                        self.known[next] = VISITING;
                        visited.push(next);
                        let step = DIRECTIONS[direction];
                        let (nx, ny) = (
                            x.wrapping_add_signed(step.dx as isize),
                            y.wrapping_add_signed(step.dy as isize),
                        );
                        open.push(distance(nx, ny), next);
                    }
                    VISITING => {}
                    known => {
                        verdict = known;
                        break 'walk;
                    }
                }
            }
        }
        for anchor in visited {
            self.known[anchor] = verdict;
        }
        verdict == CONNECTED
    }
}

/// Whether the anchors of `seeds` are joined by steps among themselves (none entering a
/// blocked anchor): then reaching one of them is reaching them all.
fn joined_by_steps(seeds: &[usize], graph: &AnchorGraph, view: &UnitsView, width: usize) -> bool {
    if seeds.len() <= 1 {
        return true;
    }
    let offsets = direction_offsets(width);
    let mut joined = vec![false; seeds.len()];
    let mut pending = vec![0];
    if let Some(first) = joined.first_mut() {
        *first = true;
    }
    while let Some(index) = pending.pop() {
        let mut mask = view.unblocked_mask(seeds[index], graph.moves[seeds[index]]);
        while mask != 0 {
            let direction = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let next = seeds[index].wrapping_add_signed(offsets[direction]);
            if let Some(other) = seeds.iter().position(|&seed| seed == next) {
                if !joined[other] {
                    joined[other] = true;
                    pending.push(other);
                }
            }
        }
    }
    joined.iter().all(|&joined| joined)
}

/// One `u64` per anchor, 0 until set, held in pages allocated when first written: the slot
/// search settles a few thousand anchors round the target, and zeroing a whole map's worth
/// per size and profile cost more than the search (a map-sized `Vec` comes from the heap
/// once the allocator has seen one freed, so it is cleared by hand, not lazily by the OS).
struct LazyCosts {
    pages: Vec<Option<Box<[u64; COST_PAGE]>>>,
}

/// Anchors per page of [`LazyCosts`].
const COST_PAGE: usize = 1024;

impl LazyCosts {
    fn new(anchors: usize) -> Self {
        LazyCosts {
            pages: (0..anchors.div_ceil(COST_PAGE)).map(|_| None).collect(),
        }
    }

    fn get(&self, anchor: usize) -> u64 {
        self.pages[anchor / COST_PAGE]
            .as_ref()
            .map_or(0, |page| page[anchor % COST_PAGE])
    }

    fn set(&mut self, anchor: usize, value: u64) {
        let page = self.pages[anchor / COST_PAGE].get_or_insert_with(|| Box::new([0; COST_PAGE]));
        page[anchor % COST_PAGE] = value;
    }
}

/// A queue of anchors by a small whole distance: one stack per distance, popped lowest first
/// (last in, first out among equals).
struct Buckets {
    stacks: Vec<Vec<usize>>,
    lowest: usize,
    /// The highest distance pushed since the last [`clear`](Self::clear).
    highest: usize,
}

impl Buckets {
    fn new(distances: usize) -> Self {
        Buckets {
            stacks: (0..=distances).map(|_| Vec::new()).collect(),
            lowest: usize::MAX,
            highest: 0,
        }
    }

    /// Empties the queue, touching only the stacks used since the last call.
    fn clear(&mut self) {
        if self.lowest <= self.highest {
            for stack in &mut self.stacks[self.lowest..=self.highest] {
                stack.clear();
            }
        }
        self.lowest = usize::MAX;
        self.highest = 0;
    }

    fn push(&mut self, distance: usize, anchor: usize) {
        self.stacks[distance].push(anchor);
        self.lowest = self.lowest.min(distance);
        self.highest = self.highest.max(distance);
    }

    fn pop(&mut self) -> Option<usize> {
        while self.lowest < self.stacks.len() {
            if let Some(anchor) = self.stacks[self.lowest].pop() {
                return Some(anchor);
            }
            self.lowest += 1;
        }
        None
    }
}
