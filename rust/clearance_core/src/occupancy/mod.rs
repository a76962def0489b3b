//! Where the units stand: the occupancy layer, kept apart from the terrain.
//!
//! Terrain says where a unit *could* go; occupancy says where other units *are*. A map holds
//! one [`Occupancy`]: every registered unit by id, with its anchor and its size, and the units
//! by the 16 x 16 square of cells their anchor lies in (`buckets.rs`), so that the units over a
//! small rectangle are found among those standing near it. Moving a unit rewrites its entry
//! and, when it crosses into another square, the two squares' lists (O(1) in the map's size and
//! the number of units elsewhere) and never touches the terrain, its caches or
//! [`PathMap::version`](crate::PathMap::version); occupancy has a version of its own
//! ([`PathMap::units_version`](crate::PathMap::units_version)).
//!
//! # How other units count in a query
//!
//! A query chooses with [`OtherUnits`]:
//!
//! * [`Ignore`](OtherUnits::Ignore) (the default): as if the unit were alone on the map.
//! * [`Block`](OtherUnits::Block): an anchor is illegal for an agent of size `k` when its
//!   `k x k` footprint overlaps the footprint of any unit that is not exempt (the moving unit
//!   and the query's exempt list are). The start anchor is never blocked: the unit is already
//!   there, and a unit that overlaps another may always walk out.
//! * [`Cost`](OtherUnits::Cost): a cell under a unit that is not exempt counts with multiplier
//!   `max(terrain multiplier, M)`; so an anchor whose footprint overlaps such a unit costs
//!   `max(its terrain entry multiplier, M)` to enter.
//!
//! Units may overlap (a crowd passes through itself): each unit counts on its own, and a cell
//! under two units counts as under one (blocked once, or `M` once, never `2 M`).

mod buckets;

use crate::cost::{MAX_MULTIPLIER, MULTIPLIER_SCALE};
use crate::error::UnitError;
use crate::footprint::checked_agent_size;
use crate::grid::{Cell, Region};
use crate::map::fresh_version;
use buckets::UnitBuckets;
use std::collections::HashMap;

/// A unit's identifier, chosen by the caller (a Godot instance id, an entity index...).
pub type UnitId = i64;

/// One registered unit: its id, its anchor (the top-left cell of its footprint) and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit {
    /// The caller's id for the unit.
    pub id: UnitId,
    /// Top-left cell of the unit's footprint.
    pub anchor: Cell,
    /// Side of the unit's square footprint, 1 to 255.
    pub agent_size: u8,
}

impl Unit {
    /// The cells the unit covers.
    pub fn footprint(&self) -> Region {
        square_at(self.anchor, self.agent_size)
    }
}

/// How the other units on the map count in a query (see the module docs of
/// [`Occupancy`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum OtherUnits {
    /// As if the moving unit were alone on the map.
    #[default]
    Ignore,
    /// Anchors whose footprint overlaps another unit's are illegal.
    Block,
    /// Cells under another unit count with at least this multiplier; build it with
    /// [`OtherUnits::cost`].
    Cost(UnitCost),
}

/// The multiplier cells under other units count with at least, under [`OtherUnits::Cost`]:
/// from 0 to [`MAX_MULTIPLIER`], kept in fixed point (see [`MULTIPLIER_SCALE`]) as profile
/// multipliers are. Only [`OtherUnits::cost`] and [`UnitCost::from_fixed`] make one, and
/// both check the bound, so every search can rely on it (the costs of the longest paths fit
/// 64 bits only with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitCost(u32);

impl UnitCost {
    /// The multiplier whose fixed-point value is `fixed` (1.0 is [`MULTIPLIER_SCALE`]); an
    /// error above [`MAX_MULTIPLIER`].
    ///
    /// ```
    /// use clearance_core::{OtherUnits, UnitCost};
    /// assert_eq!(UnitCost::from_fixed(4000).map(OtherUnits::Cost), OtherUnits::cost(4.0));
    /// assert!(UnitCost::from_fixed(u32::MAX).is_err());
    /// ```
    pub fn from_fixed(fixed: u32) -> Result<UnitCost, UnitError> {
        let multiplier = f64::from(fixed) / f64::from(MULTIPLIER_SCALE);
        if multiplier <= MAX_MULTIPLIER {
            Ok(UnitCost(fixed))
        } else {
            Err(UnitError::InvalidMultiplier { value: multiplier })
        }
    }

    /// The multiplier in fixed point: 1.0 is [`MULTIPLIER_SCALE`].
    ///
    /// ```
    /// use clearance_core::OtherUnits;
    /// let Ok(OtherUnits::Cost(cost)) = OtherUnits::cost(2.5) else { unreachable!() };
    /// assert_eq!(cost.fixed(), 2500);
    /// ```
    pub fn fixed(self) -> u32 {
        self.0
    }

    /// The multiplier, as it was given rounded to 1/1000.
    pub fn multiplier(self) -> f64 {
        f64::from(self.0) / f64::from(MULTIPLIER_SCALE)
    }
}

impl From<UnitCost> for u64 {
    fn from(cost: UnitCost) -> u64 {
        u64::from(cost.0)
    }
}

impl OtherUnits {
    /// Other units count as cells of multiplier at least `multiplier` (0 to
    /// [`MAX_MULTIPLIER`], rounded to 1/1000 as profile multipliers are).
    ///
    /// ```
    /// use clearance_core::OtherUnits;
    /// assert_eq!(OtherUnits::cost(4.0).unwrap().name(), "cost:4");
    /// assert!(OtherUnits::cost(f64::NAN).is_err());
    /// assert!(OtherUnits::cost(-1.0).is_err());
    /// ```
    pub fn cost(multiplier: f64) -> Result<OtherUnits, UnitError> {
        if !multiplier.is_finite() || !(0.0..=MAX_MULTIPLIER).contains(&multiplier) {
            return Err(UnitError::InvalidMultiplier { value: multiplier });
        }
        Ok(OtherUnits::Cost(UnitCost(
            (multiplier * f64::from(MULTIPLIER_SCALE)).round() as u32,
        )))
    }

    /// The rule's stable name, as the CLI spells it: `ignore`, `block`, or `cost:M`.
    ///
    /// ```
    /// use clearance_core::OtherUnits;
    /// for name in ["ignore", "block", "cost:2.5"] {
    ///     assert_eq!(OtherUnits::from_name(name).unwrap().name(), name);
    /// }
    /// assert!(OtherUnits::from_name("cost:-1").is_err());
    /// ```
    pub fn name(&self) -> String {
        match self {
            OtherUnits::Ignore => "ignore".to_owned(),
            OtherUnits::Block => "block".to_owned(),
            OtherUnits::Cost(cost) => format!("cost:{}", cost.multiplier()),
        }
    }

    /// The rule called `name` (see [`name`](Self::name)).
    pub fn from_name(name: &str) -> Result<OtherUnits, UnitError> {
        match name {
            "ignore" => Ok(OtherUnits::Ignore),
            "block" => Ok(OtherUnits::Block),
            _ => match name.strip_prefix("cost:").map(str::parse::<f64>) {
                Some(Ok(multiplier)) => OtherUnits::cost(multiplier),
                _ => Err(UnitError::UnknownRule {
                    name: name.to_owned(),
                }),
            },
        }
    }
}

/// Every unit registered on a map, by id. See the module docs for how queries count them.
///
/// It also keeps its version ([`PathMap::units_version`](crate::PathMap::units_version)) and
/// which units the last few changes touched, so that what was built for an older version (a
/// search's view of the units) can catch up with the changes instead of starting again.
#[derive(Debug, Clone)]
pub struct Occupancy {
    /// Units in the order they were placed (a removal moves the last one into the gap).
    units: Vec<Unit>,
    /// Position of each id in `units`.
    slots: HashMap<UnitId, usize>,
    /// The positions in `units` by where the units stand.
    buckets: UnitBuckets,
    /// A value no other occupancy of this process has had, given anew by every change.
    version: u64,
    /// The units the last few changes placed, moved or removed: `(version before the change,
    /// id)`, oldest first, whole changes only (see [`changed_since`](Self::changed_since)).
    recent: Vec<(u64, UnitId)>,
}

/// At most this many `(version, id)` entries of recent changes are kept: catching up with
/// more costs about what starting again does.
const RECENT_CHANGES: usize = 64;

impl Default for Occupancy {
    /// No unit, and a version no other occupancy has had.
    fn default() -> Self {
        Occupancy {
            units: Vec::new(),
            slots: HashMap::new(),
            buckets: UnitBuckets::default(),
            version: fresh_version(),
            recent: Vec::new(),
        }
    }
}

impl Occupancy {
    /// This occupancy's version: see [`PathMap::units_version`](crate::PathMap::units_version).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The ids of the units placed, moved or removed since this occupancy had version
    /// `version` (in the order changed, an id once per change that named it), if it had that
    /// version recently enough to know; `Some` of nothing for the current version.
    ///
    /// Versions are never handed out twice, so an older occupancy with version `version` (a
    /// snapshot of this one taken then) held exactly the units this one held then.
    pub(crate) fn changed_since(&self, version: u64) -> Option<impl Iterator<Item = UnitId> + '_> {
        let known = if version == self.version {
            self.recent.len()
        } else {
            // Versions grow over a map's history, so the entries are sorted by version.
            let first = self.recent.partition_point(|&(before, _)| before < version);
            match self.recent.get(first) {
                Some(&(before, _)) if before == version => first,
                _ => return None,
            }
        };
        Some(self.recent[known..].iter().map(|&(_, id)| id))
    }

    /// Gives the occupancy a new version, recording that a change named `ids`.
    fn changed(&mut self, ids: impl ExactSizeIterator<Item = UnitId>) {
        let before = self.version;
        self.version = fresh_version();
        if ids.len() > RECENT_CHANGES {
            self.recent.clear();
            return;
        }
        self.recent.extend(ids.map(|id| (before, id)));
        if self.recent.len() > RECENT_CHANGES {
            // Only whole changes are kept: drop the oldest until few enough remain.
            let excess = self.recent.len() - RECENT_CHANGES;
            let cut = self.recent[excess - 1].0;
            let kept = self.recent.partition_point(|&(version, _)| version <= cut);
            self.recent.drain(..kept);
        }
    }

    /// An occupancy of `units` (whose ids differ), for tests that make views of them.
    #[cfg(test)]
    pub(crate) fn holding(units: &[Unit]) -> Occupancy {
        let mut occupancy = Occupancy::default();
        occupancy.insert_checked(units);
        occupancy
    }

    /// The unit with id `id`.
    pub fn get(&self, id: UnitId) -> Option<Unit> {
        self.slots.get(&id).map(|&slot| self.units[slot])
    }

    /// Every unit, in no particular order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// How many units are registered.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether no unit is registered.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// Whether a unit of this id is registered.
    pub fn contains(&self, id: UnitId) -> bool {
        self.slots.contains_key(&id)
    }

    /// The units, other than those in `exempt`, whose footprint overlaps `region`; at most
    /// `limit` of them, in the order the units are kept (placement order, except that a
    /// removal moves the last unit into the removed one's place).
    ///
    /// For a small region this reads the units standing near it, not every unit.
    pub fn overlapping(&self, region: Region, exempt: &[UnitId], limit: usize) -> Vec<Unit> {
        self.overlapping_where(region, limit, |id| !exempt.contains(&id))
    }

    /// The first unit, in the order they are kept, that `counts` accepts and whose footprint
    /// overlaps that of an agent of `size` at `anchor`: who stands on that goal (as
    /// [`unit_on`] finds among a list of units).
    pub(crate) fn unit_on(
        &self,
        anchor: Cell,
        size: u8,
        counts: impl Fn(UnitId) -> bool,
    ) -> Option<UnitId> {
        let found = self.overlapping_where(square_at(anchor, size), 1, counts);
        found.first().map(|unit| unit.id)
    }

    /// The first `limit` units, in the order they are kept, whose footprint overlaps `region`
    /// and that `counts` accepts.
    pub(crate) fn overlapping_where(
        &self,
        region: Region,
        limit: usize,
        counts: impl Fn(UnitId) -> bool,
    ) -> Vec<Unit> {
        let hits = |unit: &&Unit| overlaps(unit.footprint(), region) && counts(unit.id);
        match self.buckets.near(region, self.units.len()) {
            Some(near) => (near.into_iter().map(|slot| &self.units[slot]))
                .filter(hits)
                .take(limit)
                .copied()
                .collect(),
            None => self
                .units
                .iter()
                .filter(hits)
                .take(limit)
                .copied()
                .collect(),
        }
    }

    /// Checks a placement against `region` (the map's): the size is legal and the anchor
    /// lies on the map (the footprint may reach past its edge; only cells on the map count).
    pub(crate) fn check_placement(
        region: Region,
        id: UnitId,
        anchor: Cell,
        agent_size: i64,
    ) -> Result<Unit, UnitError> {
        let size = checked_agent_size(agent_size).ok_or(UnitError::InvalidAgentSize {
            id,
            size: agent_size,
        })?;
        if !region.contains(anchor) {
            return Err(UnitError::AnchorOutOfBounds { id, anchor });
        }
        Ok(Unit {
            id,
            anchor,
            agent_size: size,
        })
    }

    /// Adds checked units whose ids are all new (the caller checked that); a new version if
    /// there are any.
    pub(crate) fn insert_checked(&mut self, units: &[Unit]) {
        if units.is_empty() {
            return;
        }
        for unit in units {
            self.slots.insert(unit.id, self.units.len());
            self.buckets.push(unit);
            self.units.push(*unit);
        }
        self.changed(units.iter().map(|unit| unit.id));
    }

    /// Moves registered units to checked anchors; a new version if there are any.
    pub(crate) fn move_checked(&mut self, moves: &[(UnitId, Cell)]) {
        if moves.is_empty() {
            return;
        }
        for &(id, anchor) in moves {
            let slot = self.slots[&id];
            self.buckets.moved(slot, self.units[slot].anchor, anchor);
            self.units[slot].anchor = anchor;
        }
        self.changed(moves.iter().map(|&(id, _)| id));
    }

    /// Removes a registered unit; a new version.
    pub(crate) fn remove_checked(&mut self, id: UnitId) {
        let slot = self.slots.remove(&id).expect("the caller checked the id");
        let last_anchor = self.units[self.units.len() - 1].anchor;
        self.buckets
            .swap_remove(&self.units[slot], slot, last_anchor);
        self.units.swap_remove(slot);
        if let Some(moved) = self.units.get(slot) {
            self.slots.insert(moved.id, slot);
        }
        self.changed(std::iter::once(id));
    }

    /// Removes every unit; a new version if there were any.
    pub(crate) fn clear(&mut self) {
        if !self.units.is_empty() {
            let ids: Vec<UnitId> = self.units.iter().map(|unit| unit.id).collect();
            self.units.clear();
            self.slots.clear();
            self.buckets = UnitBuckets::default();
            self.changed(ids.into_iter());
        }
    }

    /// Keeps only the units for which `keep` holds; a new version if any was removed.
    pub(crate) fn retain(&mut self, keep: impl Fn(&Unit) -> bool) {
        let removed: Vec<UnitId> = (self.units.iter())
            .filter(|unit| !keep(unit))
            .map(|unit| unit.id)
            .collect();
        if removed.is_empty() {
            return;
        }
        self.units.retain(keep);
        self.slots = (self.units.iter().enumerate())
            .map(|(slot, unit)| (unit.id, slot))
            .collect();
        self.buckets = UnitBuckets::default();
        for unit in &self.units {
            self.buckets.push(unit);
        }
        self.changed(removed.into_iter());
    }
}

/// The first of `units`, in their order, that `counts` accepts and whose footprint overlaps
/// that of an agent of `size` at `anchor`: who stands on that goal.
pub(crate) fn unit_on(
    units: &[Unit],
    anchor: Cell,
    size: u8,
    counts: impl Fn(UnitId) -> bool,
) -> Option<UnitId> {
    let goal = square_at(anchor, size);
    (units.iter())
        .find(|unit| overlaps(unit.footprint(), goal) && counts(unit.id))
        .map(|unit| unit.id)
}

/// The `size x size` square of cells whose top-left cell is `anchor`.
fn square_at(anchor: Cell, size: u8) -> Region {
    let side = i32::from(size);
    Region::new(anchor.x, anchor.y, side, side)
}

/// Whether two regions share a cell.
pub(crate) fn overlaps(a: Region, b: Region) -> bool {
    let right = |r: Region| i64::from(r.x) + i64::from(r.width);
    let bottom = |r: Region| i64::from(r.y) + i64::from(r.height);
    i64::from(a.x) < right(b)
        && i64::from(b.x) < right(a)
        && i64::from(a.y) < bottom(b)
        && i64::from(b.y) < bottom(a)
        && a.width > 0
        && a.height > 0
        && b.width > 0
        && b.height > 0
}
