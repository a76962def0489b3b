//! A group order sent to arrival slots: each member gets its own slot round the target and
//! the path there, in one call.
//!
//! # The contract
//!
//! [`PathMap::find_paths_to_slots`] is [`PathMap::arrival_slots`] followed, for each member
//! that got a slot, by exactly the query a caller would make by hand:
//!
//! ```text
//! PathQuery::new(member.start, slot, member.agent_size, member.profile)
//!     .other_units(options.other_units)        // Block unless asked otherwise
//!     .moving_unit(member.id)                  // if that id is registered
//!     .exempt_units(&group_ids)                // the registered members' ids
//!     .search(..).smoothing(..).max_expansions(..)
//! ```
//!
//! so each result is what [`PathMap::query`] answers for it: the same code, an optimal path
//! of the same cost. Where several paths are optimal it may be another, and `expanded` may
//! differ (so, under `max_expansions`, may whether a search stops short): when eight or more
//! members of one profile search round other units, their searches share a landmark table
//! with one landmark, on the first of their slots, built for the order. Under
//! [`OtherUnits::Block`] the table's distances are taken with the units the members count
//! blocking, so its bounds see the way round them; otherwise they are the terrain's. Either
//! table keeps every search exact (`landmarks/mod.rs`, and `GivenLandmarks` in `queries.rs`
//! for the table with the units), and one landmark a few steps from every member's goal
//! bounds the rest of each path almost exactly.
//!
//! Under [`OtherUnits::Block`] a member with a slot always gets `OK` (the slots promise a way
//! round the units outside the group), unless `max_expansions` stops its search first.
//! Members' ids that are not registered are left out of the exemptions, since a query refuses
//! an unknown exempt id; they stand nowhere, so there is nothing to exempt.
//!
//! A member with no slot gets no path: `MEMORY_LIMIT_REACHED` if its clearance layer or search
//! graph would pass the cache memory limit (as a query from its start would answer),
//! `START_CLEARANCE_INSUFFICIENT` (with the shortfall) if its footprint does not fit where it
//! stands, `NO_PATH` otherwise (it is cut off from every free anchor round the target, or
//! every one it could reach was taken).

use super::queries::GivenLandmarks;
use super::slots::SlotRequest;
use super::PathMap;
use crate::error::UnitError;
use crate::grid::Cell;
use crate::landmarks::{LandmarkPlacement, LandmarkTable};
use crate::occupancy::{OtherUnits, UnitId};
use crate::query::{PathQuery, SearchMode};
use crate::result::{ClearanceShortfall, PathCode, PathResult};
use crate::search::Counted;
use crate::search::{graph_with_units, UnitsView};
use crate::smoothing::Smoothing;

/// Members of one profile from which a landmark near the target pays for its table (one sweep
/// of the map, about the work of a few long searches; only searches round other units need
/// it: alone, jump-point search is already fast).
const GROUP_FOR_TARGET_LANDMARK: usize = 8;

/// How the paths of [`PathMap::find_paths_to_slots`] are asked for: the options every
/// member's query shares.
///
/// ```
/// use clearance_core::{OtherUnits, SearchMode, SlotPathOptions, Smoothing};
///
/// let options = SlotPathOptions::new().smoothing(Smoothing::Taut).threads(2);
/// assert_eq!(options.other_units, OtherUnits::Block);
/// assert_eq!(options.search, SearchMode::Auto);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotPathOptions {
    /// How units outside the group count on the way ([`OtherUnits::Block`] by default: the
    /// slots are chosen reachable round them).
    pub other_units: OtherUnits,
    /// Which exact search answers each member's query.
    pub search: SearchMode,
    /// Whether each result carries waypoints.
    pub smoothing: Smoothing,
    /// Expand at most this many anchors per member; `None` (the default): no limit.
    pub max_expansions: Option<u64>,
    /// Threads the members' queries are shared over (at least one: the calling thread).
    pub threads: usize,
}

impl Default for SlotPathOptions {
    fn default() -> Self {
        SlotPathOptions {
            other_units: OtherUnits::Block,
            search: SearchMode::Auto,
            smoothing: Smoothing::Off,
            max_expansions: None,
            threads: 1,
        }
    }
}

impl SlotPathOptions {
    /// The defaults: units outside the group block, automatic search, no waypoints, no
    /// expansion limit, one thread.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builder form of the `other_units` field.
    pub fn other_units(mut self, rule: OtherUnits) -> Self {
        self.other_units = rule;
        self
    }

    /// Builder form of the `search` field.
    pub fn search(mut self, mode: SearchMode) -> Self {
        self.search = mode;
        self
    }

    /// Builder form of the `smoothing` field.
    pub fn smoothing(mut self, smoothing: Smoothing) -> Self {
        self.smoothing = smoothing;
        self
    }

    /// Builder form of the `max_expansions` field.
    pub fn max_expansions(mut self, limit: u64) -> Self {
        self.max_expansions = Some(limit);
        self
    }

    /// Builder form of the `threads` field.
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }
}

/// One member's part of a group order sent to slots.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotPath {
    /// The anchor the member goes to, or `None` if it can reach no free slot.
    pub slot: Option<Cell>,
    /// The path from where it stands to its slot (see the module docs of
    /// `map/slot_orders.rs` for the codes of a member without a slot).
    pub result: PathResult,
}

impl PathMap {
    /// A group order spread over arrival slots: for each member of `group`, in order, the
    /// slot [`arrival_slots`](Self::arrival_slots) chooses for it round `target` and the path
    /// there, each what [`query`](Self::query) answers for the member with the group exempt
    /// (the contract is in the module docs of `map/slot_orders.rs`). Refuses what
    /// `arrival_slots` refuses, and nothing else: a multiplier is checked when
    /// [`OtherUnits::cost`] builds it.
    ///
    /// ```
    /// use clearance_core::{
    ///     AgentProfile, Cell, PathCode, PathMap, Region, SlotPathOptions, SlotRequest, TerrainGrid,
    /// };
    ///
    /// let mut map = PathMap::new(TerrainGrid::new(Region::new(0, 0, 12, 12), 0)?);
    /// map.set_profile(AgentProfile::new("unit").with_terrain(0, 1.0)?)?;
    /// map.place_unit(1, Cell::new(0, 0), 2)?;
    /// map.place_unit(9, Cell::new(6, 6), 1)?; // not in the group: no slot covers it
    /// let group = [
    ///     SlotRequest { id: 1, start: Cell::new(0, 0), agent_size: 2, profile: "unit" },
    ///     SlotRequest { id: 2, start: Cell::new(0, 9), agent_size: 1, profile: "unit" },
    /// ];
    /// let order = map.find_paths_to_slots(Cell::new(6, 6), &group, &SlotPathOptions::new())?;
    /// for member in &order {
    ///     let slot = member.slot.expect("both reach a slot");
    ///     assert_eq!(member.result.code, PathCode::Ok);
    ///     assert_eq!(member.result.path.last(), Some(&slot));
    /// }
    /// assert_ne!(order[0].slot, order[1].slot);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn find_paths_to_slots(
        &self,
        target: Cell,
        group: &[SlotRequest<'_>],
        options: &SlotPathOptions,
    ) -> Result<Vec<SlotPath>, UnitError> {
        let slots = self.arrival_slots(target, group)?;
        let exempt: Vec<UnitId> = (group.iter())
            .map(|member| member.id)
            .filter(|&id| self.unit(id).is_some())
            .collect();
        let mut asked = Vec::new();
        let mut queries = Vec::new();
        for (index, (member, slot)) in group.iter().zip(&slots).enumerate() {
            let Some(goal) = *slot else { continue };
            let mut query = PathQuery::new(member.start, goal, member.agent_size, member.profile)
                .other_units(options.other_units)
                .exempt_units(&exempt)
                .search(options.search)
                .smoothing(options.smoothing);
            query.max_expansions = options.max_expansions;
            query.moving_unit = self.unit(member.id).is_some().then_some(member.id);
            asked.push(index);
            queries.push(query);
        }
        let mut order: Vec<SlotPath> = (group.iter().zip(slots))
            .map(|(member, slot)| SlotPath {
                slot,
                result: match slot {
                    // Replaced below by the member's answer.
                    Some(_) => PathResult::failure(PathCode::NoPath),
                    None => self.no_slot_result(member),
                },
            })
            .collect();
        // Every member's path ends a few steps from the target, so a landmark there bounds
        // what is left of each path almost exactly (units only lengthen paths, so distances
        // without them stay lower bounds). One table per profile; members whose profile gets
        // none use the profile's own.
        let mut profiles: Vec<&str> = queries.iter().map(|query| query.profile).collect();
        profiles.sort_unstable();
        profiles.dedup();
        for profile in profiles {
            let (mine, theirs): (Vec<usize>, Vec<PathQuery<'_>>) = (asked.iter().zip(&queries))
                .filter(|(_, query)| query.profile == profile)
                .map(|(&index, query)| (index, *query))
                .unzip();
            let worth_a_table = options.other_units != OtherUnits::Ignore
                && !self.occupancy.is_empty()
                && theirs.len() >= GROUP_FOR_TARGET_LANDMARK;
            // Not on the target itself, which no unit may be able to enter: the first slot is
            // the nearest legal anchor, clear of every unit the members count.
            let table = worth_a_table
                .then(|| self.target_landmark(theirs[0].goal, profile, options, &exempt))
                .flatten();
            let guide = table.as_ref().map(|(table, with_units)| match with_units {
                true => GivenLandmarks::WithUnits(table),
                false => GivenLandmarks::Terrain(table),
            });
            let answers = self.query_batch_guided(&theirs, options.threads, guide);
            for (index, answer) in mine.into_iter().zip(answers) {
                order[index].result = answer;
            }
        }
        Ok(order)
    }

    /// A landmark table of `profile` with one landmark, on `anchor`, for the members' searches
    /// (if the profile's size-1 graph is built or fits the cache memory limit, and the table
    /// fits the limit too), and whether it was built with the units the members count.
    ///
    /// Under [`OtherUnits::Block`] the table's graph has those units (all but the `exempt`
    /// group) blocking, so its bounds cover the way round them too, which a table of the
    /// terrain alone cannot see (see [`GivenLandmarks::WithUnits`]); otherwise, or if no unit
    /// counts, it is the terrain's.
    fn target_landmark(
        &self,
        anchor: Cell,
        profile: &str,
        options: &SlotPathOptions,
        exempt: &[UnitId],
    ) -> Option<(LandmarkTable, bool)> {
        let found = self.profiles.get(profile)?;
        let terrain = self.graph_for(profile, found, 1)?;
        let index = self.grid.index_of(anchor)?;
        let table_bytes = LandmarkTable::estimated_bytes(self.grid.as_bytes().len(), 1);
        if !self.fits(table_bytes) {
            return None;
        }
        let mut view = UnitsView::default();
        let exempt = Counted::AllBut {
            moving: None,
            listed: exempt,
        };
        let with_units = options.other_units == OtherUnits::Block
            && self.fits(table_bytes.saturating_add(terrain.memory_bytes()))
            && self.count_units(&mut view, 1, usize::MAX, exempt);
        let patched = with_units.then(|| graph_with_units(&terrain, &view, OtherUnits::Block));
        let graph = patched.as_ref().unwrap_or(&terrain);
        let placement = LandmarkPlacement::At(vec![anchor]);
        let table =
            LandmarkTable::build(graph, self.grid.width(), &placement, &[index], 1, &|_| {});
        table.map(|table| (table, with_units))
    }

    /// The result of a member that got no slot.
    fn no_slot_result(&self, member: &SlotRequest<'_>) -> PathResult {
        // `arrival_slots` checked the size, the start and the profile; a query checks the
        // memory limit before the start's clearance.
        if self.prepare(member.profile, member.agent_size) == PathCode::MemoryLimitReached {
            return PathResult::failure(PathCode::MemoryLimitReached);
        }
        let shortfall = u8::try_from(member.agent_size)
            .ok()
            .zip(self.clearance(member.start, member.profile))
            .filter(|&(needed, found)| found < needed)
            .map(|(needed, found)| ClearanceShortfall { found, needed });
        match shortfall {
            Some(shortfall) => PathResult {
                shortfall: Some(shortfall),
                ..PathResult::failure(PathCode::StartClearanceInsufficient)
            },
            None => PathResult::failure(PathCode::NoPath),
        }
    }
}
