//! The search graph of one agent size and profile, precomputed from a clearance layer.
//!
//! Searching straight on the clearance layer would test up to eight clearances (and twelve for
//! the corner rule) at every expansion. Instead each anchor stores a bit mask of its legal moves
//! and, unless all of the profile's terrains cost the same, the multiplier paid on entering it.
//! It also labels connected regions. Built once per (profile, agent size) and cached by the map.
//!
//! The graph also stores, for every anchor and direction, where a jump-point search's ray from
//! it ends (`stored_rays.rs`): a description of the graph's own moves and costs under the
//! successor rules of `jump_rules.rs`, built and repaired with them. The searches
//! (`crate::search`) read the graph; the graph knows nothing of them.

mod entry_costs;
mod stored_rays;

pub(crate) use stored_rays::{JumpDistances, StoredRay};

use entry_costs::{footprint_max_multipliers, mark_even_costs};
use stored_rays::RayRule;

use crate::clearance::ClearanceLayer;
use crate::connectivity::Regions;
use crate::grid::{TerrainGrid, Window};
use crate::movement::{direction_offsets, Movement, DIRECTIONS};
use crate::paged::PagedVec;
use crate::profile::AgentProfile;

/// Legal moves and entry multipliers of every anchor, for one profile and agent size.
///
/// Every per-anchor array is a [`PagedVec`]: a copy of the graph (a snapshot's) shares every
/// page, and a repair writes, and so copies, only the pages holding values that change.
#[derive(Debug, Clone)]
pub(crate) struct AnchorGraph {
    /// Bit `d` set: the step in `DIRECTIONS[d]` from this anchor is legal.
    pub moves: PagedVec<u8>,
    /// Entry multipliers per anchor, in units of `cost_unit`; `EntryCosts::Uniform` when every
    /// terrain costs the same.
    pub entry: EntryCosts,
    /// The smallest multiplier any step can pay, in units of `cost_unit`; scales the heuristic.
    pub min_multiplier: u32,
    /// The largest multiplier any step can pay, in units of `cost_unit`.
    pub max_multiplier: u32,
    /// The greatest common divisor of the profile's fixed-point multipliers (1 if all are 0).
    /// Every cost in this graph is a multiple of it, so the search counts in units of it:
    /// exactly the same comparisons, with numbers small enough for compact open-list keys.
    pub cost_unit: u64,
    /// The connected region of each anchor.
    pub regions: Regions,
    /// How many anchors have a legal move: with `uneven_anchors`, chooses a search algorithm.
    movable_anchors: usize,
    /// With per-anchor multipliers: bit `a` set when every legal neighbour of anchor `a` costs
    /// what `a` costs to enter, so no cost test can force a turn there (jump-point search
    /// skips the tests). Empty with uniform costs.
    pub even_costs: PagedVec<u64>,
    /// How many legal anchors have their `even_costs` bit clear.
    uneven_anchors: usize,
    /// The rays of jump-point search, stored ahead of the queries (`stored_rays.rs`); `None`
    /// only on a copy whose moves or costs its owner is about to change.
    pub jump_distances: Option<JumpDistances>,
    /// Anchors that lost a move in the repairs of an edit batch, whose regions
    /// [`finish_repairs`](Self::finish_repairs) checks for splits once the batch is done;
    /// empty between batches.
    cut_anchors: Vec<usize>,
    agent_size: u8,
    movement: Movement,
}

/// The fixed-point multiplier paid for entering each anchor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum EntryCosts {
    /// Every legal anchor costs the same.
    Uniform(u32),
    /// The largest multiplier under the footprint of each anchor (meaningful on legal anchors).
    PerAnchor(PagedVec<u32>),
}

impl EntryCosts {
    /// The per-anchor multipliers, unless every anchor costs the same.
    pub fn per_anchor(&self) -> Option<&PagedVec<u32>> {
        match self {
            EntryCosts::Uniform(_) => None,
            EntryCosts::PerAnchor(multipliers) => Some(multipliers),
        }
    }
}

impl AnchorGraph {
    pub fn build(
        grid: &TerrainGrid,
        clearance: &ClearanceLayer,
        profile: &AgentProfile,
        agent_size: u8,
        movement: Movement,
    ) -> Self {
        let width = grid.width();
        let legal = |index: usize| clearance.at(index) >= agent_size;
        let moves = all_move_masks(clearance, agent_size, movement);

        let cost_unit = profile
            .capability()
            .iter()
            .filter_map(|terrain| profile.fixed_multiplier(terrain))
            .fold(0, greatest_common_divisor)
            .max(1);
        let min_multiplier = profile.min_fixed_multiplier().unwrap_or(0) / cost_unit;
        let max_multiplier = profile.max_fixed_multiplier().unwrap_or(0) / cost_unit;
        let entry = if min_multiplier == max_multiplier {
            EntryCosts::Uniform(min_multiplier)
        } else {
            let mut multipliers =
                footprint_max_multipliers(grid, profile, agent_size, grid.full_window());
            for multiplier in &mut multipliers {
                *multiplier /= cost_unit;
            }
            EntryCosts::PerAnchor(PagedVec::from(multipliers))
        };
        let regions = Regions::label(&moves, legal, width);
        let mut even_costs = PagedVec::new();
        let mut uneven_anchors = 0;
        if let EntryCosts::PerAnchor(multipliers) = &entry {
            // Every bit starts clear, so every anchor starts counted as uneven.
            even_costs = PagedVec::filled(0, multipliers.len().div_ceil(64));
            uneven_anchors = multipliers.len();
            let height = grid.height();
            mark_even_costs(
                (&mut even_costs, &mut uneven_anchors),
                multipliers,
                legal,
                (width, height),
                grid.full_window(),
            );
        }
        let rule = RayRule {
            moves: &moves,
            multipliers: entry.per_anchor(),
            even_costs: Some(&even_costs),
            movement,
        };
        let jump_distances = Some(JumpDistances::build(rule, width));
        AnchorGraph {
            even_costs,
            uneven_anchors,
            jump_distances,
            movable_anchors: moves.iter().filter(|&&mask| mask != 0).count(),
            moves,
            entry,
            min_multiplier,
            max_multiplier,
            cost_unit: u64::from(cost_unit),
            regions,
            cut_anchors: Vec::new(),
            agent_size,
            movement,
        }
    }

    /// Brings the graph up to date after the terrain of the cells in `edited` changed and,
    /// with it, the clearance of the anchors in `clearance_changed` (already repaired).
    ///
    /// Entry multipliers change only for anchors whose footprint overlaps the edit; moves only
    /// for anchors whose legality changed and their neighbours; regions are repaired as the
    /// `connectivity` module describes, their splits checked by
    /// [`finish_repairs`](Self::finish_repairs) once per batch of edits. After it, the result
    /// equals a fresh [`build`](Self::build).
    pub fn repair(
        &mut self,
        grid: &TerrainGrid,
        clearance: &ClearanceLayer,
        profile: &AgentProfile,
        edited: Window,
        clearance_changed: Option<Window>,
    ) {
        let (width, height) = (grid.width(), grid.height());
        let size = self.agent_size;
        // Where the stored rays may have changed: around new multipliers (a ray's cost tests
        // read multipliers up to two anchors from where it starts), and where masks changed.
        let mut rays_changed: Option<Window> = None;
        if let EntryCosts::PerAnchor(multipliers) = &mut self.entry {
            let anchors = edited.grown(usize::from(size) - 1, 0, width, height);
            let fresh = footprint_max_multipliers(grid, profile, size, anchors);
            let unit = self.cost_unit as u32;
            let span = anchors.x1 - anchors.x0;
            for (row, values) in (anchors.y0..anchors.y1).zip(fresh.chunks_exact(span)) {
                let start = row * width + anchors.x0;
                for (anchor, &value) in (start..start + span).zip(values) {
                    multipliers.set(anchor, value / unit);
                }
            }
            rays_changed = Some(anchors.grown(2, 2, width, height));
            let neighbours = anchors.grown(1, 1, width, height);
            let legal = |index: usize| clearance.at(index) >= size;
            mark_even_costs(
                (&mut self.even_costs, &mut self.uneven_anchors),
                multipliers,
                legal,
                (width, height),
                neighbours,
            );
        }
        let Some(changed) = clearance_changed else {
            self.repair_stored_rays(width, rays_changed);
            return;
        };
        let directions = self.movement.direction_count();
        let offsets = direction_offsets(width);
        let touched = changed.grown(1, 1, width, height);
        let mut gained = Vec::new();
        let mut lost = Vec::new();
        // Clearance changes reach far up and left of an edit on open ground; masks change
        // only where legality for this size did, and the stored rays need only those.
        let mut remasked: Option<Window> = None;
        for y in touched.y0..touched.y1 {
            for x in touched.x0..touched.x1 {
                let anchor = y * width + x;
                let was_legal = self.regions.is_labelled(anchor);
                let is_legal = clearance.at(anchor) >= size;
                let old = self.moves[anchor];
                let new = move_mask(clearance, size, directions, x, y);
                if self.moves.set(anchor, new) {
                    let here = Window {
                        x0: x,
                        y0: y,
                        x1: x + 1,
                        y1: y + 1,
                    };
                    remasked = Some(remasked.map_or(here, |window| window.hull(here)));
                }
                self.movable_anchors -= usize::from(old != 0);
                self.movable_anchors += usize::from(new != 0);
                match (was_legal, is_legal) {
                    (true, false) => self.regions.remove(anchor),
                    (false, true) => self.regions.add(anchor),
                    _ => {}
                }
                if is_legal && new & !old != 0 {
                    gained.push((anchor, new & !old));
                }
                if is_legal && old & !new != 0 {
                    lost.push(anchor);
                }
            }
        }
        for (anchor, mut mask) in gained {
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                self.regions
                    .join(anchor, anchor.wrapping_add_signed(offsets[direction]));
            }
        }
        self.regions.finish_joins();
        // A weighted diagonal ray's cost tests read the mask of the anchor it steps to, which
        // may lie one beyond the remasked ones.
        let remasked = match (&self.entry, remasked) {
            (EntryCosts::PerAnchor(_), Some(masks)) => Some(masks.grown(1, 1, width, height)),
            (_, masks) => masks,
        };
        let rays_changed = match (rays_changed, remasked) {
            (Some(costs), Some(masks)) => Some(costs.hull(masks)),
            (costs, masks) => costs.or(masks),
        };
        let legal = |index: usize| clearance.at(index) >= size;
        if let EntryCosts::PerAnchor(multipliers) = &self.entry {
            // Legality changed here, and with it which neighbours the even-cost bits read.
            let bits = (&mut self.even_costs, &mut self.uneven_anchors);
            mark_even_costs(bits, multipliers, legal, (width, height), touched);
        }
        // The rays' stop tests read the even-cost bits, which are up to date only now.
        self.repair_stored_rays(width, rays_changed);
        // Whether a region fell apart is checked once for the whole batch: a check can visit
        // much of the map, and a batch that closes and opens one passage many times would
        // pay it every time.
        self.cut_anchors.extend(lost);
    }

    /// Restores exact regions after the repairs of a batch of edits: a region whose anchors
    /// the batch disconnected is split.
    ///
    /// The joins of the batch were applied as its repairs went, so a region now holds every
    /// anchor connected to it after the batch and may hold more. If one fell apart, every part
    /// holds an anchor that lost a move during the batch and is still legal: the parts were
    /// joined (before the batch, or by a move the batch opened) through moves the batch
    /// closed, and the end of such a move inside the part lost it. Those anchors are
    /// `cut_anchors`, so one split check from them, as after a single edit, finds every part.
    pub fn finish_repairs(&mut self, clearance: &ClearanceLayer, width: usize) {
        let size = self.agent_size;
        let legal = |index: usize| clearance.at(index) >= size;
        let mut cut = std::mem::take(&mut self.cut_anchors);
        if self.regions.label_count() > self.moves.len() {
            // Labels handed out by many edits: start afresh to keep the table small.
            self.regions.relabel(&self.moves, legal, width);
            return;
        }
        cut.retain(|&anchor| self.regions.is_labelled(anchor));
        if !cut.is_empty() {
            (self.regions).split_where_cut(&self.moves, legal, width, &cut);
        }
    }

    /// Brings the stored rays up to date after the moves or multipliers of the anchors in
    /// `changed`, and of those within two of them, changed.
    fn repair_stored_rays(&mut self, width: usize, changed: Option<Window>) {
        if let (Some(distances), Some(changed)) = (&mut self.jump_distances, changed) {
            let rule = RayRule {
                moves: &self.moves,
                multipliers: self.entry.per_anchor(),
                even_costs: Some(&self.even_costs),
                movement: self.movement,
            };
            distances.repair(rule, width, changed);
        }
    }

    /// Bytes a graph of a map of `cells` cells holds for `profile` (before any relabelling):
    /// a move mask and a region label per anchor, jump-point search's rays (eight entries per
    /// anchor side by side under either `movement`, the diagonal ones unused under 4-way
    /// rules), and unless every terrain costs the same, an entry multiplier and an even-cost
    /// bit per anchor.
    pub fn estimated_bytes(cells: usize, profile: &AgentProfile, _movement: Movement) -> usize {
        let uniform = profile.min_fixed_multiplier() == profile.max_fixed_multiplier();
        let costs = if uniform {
            0
        } else {
            cells.saturating_mul(4).saturating_add(cells.div_ceil(8))
        };
        cells
            .saturating_mul(1 + 4)
            .saturating_add(JumpDistances::estimated_bytes(cells))
            .saturating_add(costs)
    }

    pub fn memory_bytes(&self) -> usize {
        let entry = match &self.entry {
            EntryCosts::Uniform(_) => 0,
            EntryCosts::PerAnchor(values) => values.memory_bytes(),
        };
        self.moves.memory_bytes()
            + entry
            + self.even_costs.memory_bytes()
            + self.regions.memory_bytes()
            + self
                .jump_distances
                .as_ref()
                .map_or(0, JumpDistances::memory_bytes)
    }

    /// Whether jump-point search is expected to beat plain A* on this graph: unless
    /// per-anchor costs change so often that more than one legal anchor in ten has a
    /// neighbour of another cost. There a ray is stopped for cost tests at nearly every
    /// anchor, and A* does less work per anchor.
    pub fn suits_jump_search(&self) -> bool {
        self.uneven_anchors * 10 <= self.movable_anchors
    }

    /// The fixed-point multiplier every legal anchor costs to enter, if they all cost the same.
    pub(crate) fn uniform_multiplier(&self) -> Option<u64> {
        match &self.entry {
            EntryCosts::Uniform(multiplier) => Some(self.cost_unit * u64::from(*multiplier)),
            EntryCosts::PerAnchor(_) => None,
        }
    }

    /// The fixed-point multiplier paid on entering `anchor` (meaningful on legal anchors).
    pub fn entry_multiplier(&self, anchor: usize) -> u64 {
        self.cost_unit
            * u64::from(match &self.entry {
                EntryCosts::Uniform(multiplier) => *multiplier,
                EntryCosts::PerAnchor(multipliers) => multipliers[anchor],
            })
    }

    /// A copy of this graph without its stored rays, which describe this graph's moves only:
    /// for a caller about to change the moves or costs of the copy (other units, say).
    pub fn without_stored_rays(&self) -> AnchorGraph {
        AnchorGraph {
            moves: self.moves.clone(),
            entry: self.entry.clone(),
            min_multiplier: self.min_multiplier,
            max_multiplier: self.max_multiplier,
            cost_unit: self.cost_unit,
            regions: self.regions.clone(),
            movable_anchors: self.movable_anchors,
            even_costs: self.even_costs.clone(),
            uneven_anchors: self.uneven_anchors,
            jump_distances: None,
            cut_anchors: Vec::new(),
            agent_size: self.agent_size,
            movement: self.movement,
        }
    }

    /// Whether a path may exist between two legal anchors: they lie in the same region.
    pub fn connected(&self, from: usize, to: usize) -> bool {
        self.regions.connected(from, to)
    }

    /// Whether this graph describes the same moves, costs and regions as `other` (region
    /// labels may differ; the partitions must not).
    pub fn same_as(&self, other: &AnchorGraph) -> bool {
        if self.moves != other.moves
            || self.entry != other.entry
            || self.min_multiplier != other.min_multiplier
            || self.max_multiplier != other.max_multiplier
            || self.cost_unit != other.cost_unit
            || self.movable_anchors != other.movable_anchors
            || self.even_costs != other.even_costs
            || self.uneven_anchors != other.uneven_anchors
            || self.jump_distances != other.jump_distances
            || self.cut_anchors != other.cut_anchors
        {
            return false;
        }
        // Equal partitions: the map between the two labellings is a bijection.
        let mut forward = std::collections::HashMap::new();
        let mut backward = std::collections::HashMap::new();
        (0..self.moves.len()).all(|anchor| {
            let (mine, theirs) = (
                self.regions.region_of(anchor),
                other.regions.region_of(anchor),
            );
            *forward.entry(mine).or_insert(theirs) == theirs
                && *backward.entry(theirs).or_insert(mine) == mine
        })
    }
}

#[cfg(test)]
impl AnchorGraph {
    /// Compares every per-anchor array with `before`'s page by page (see
    /// [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.moves.audit(&before.moves, "move masks", audit);
        if let (EntryCosts::PerAnchor(mine), EntryCosts::PerAnchor(theirs)) =
            (&self.entry, &before.entry)
        {
            mine.audit(theirs, "entry multipliers", audit);
        }
        self.even_costs
            .audit(&before.even_costs, "even-cost bits", audit);
        self.regions.audit_pages(&before.regions, audit);
        if let (Some(mine), Some(theirs)) = (&self.jump_distances, &before.jump_distances) {
            mine.audit_pages(theirs, audit);
        }
    }
}

/// The move masks of every anchor at once (what [`move_mask`] gives for each), from a copy of
/// the legality of each anchor with a one-anchor border of illegal ones: every neighbour is
/// then a fixed offset away, with no bounds to check. Bits follow [`DIRECTIONS`]: north, east,
/// south and west, then north-east, south-east, south-west and north-west; a diagonal needs
/// both straight neighbours it passes. Builds use this; repairs, which touch few anchors, use
/// [`move_mask`], and `PathMap::verify_caches` (run after every edit in the tests and the
/// differential fuzz target) compares the two.
fn all_move_masks(clearance: &ClearanceLayer, size: u8, movement: Movement) -> PagedVec<u8> {
    let (width, height) = (clearance.width(), clearance.height());
    let stride = width + 2;
    let mut legal = vec![0u8; stride * (height + 2)];
    for y in 0..height {
        let padded = &mut legal[(y + 1) * stride + 1..(y + 1) * stride + 1 + width];
        let row = clearance
            .values()
            .runs(y * width..(y + 1) * width)
            .flatten();
        for (flag, &value) in padded.iter_mut().zip(row) {
            *flag = u8::from(value >= size);
        }
    }
    let diagonals = movement == Movement::EightWay;
    let mut moves = vec![0u8; width * height];
    for y in 0..height {
        for x in 0..width {
            let at = (y + 1) * stride + x + 1;
            if legal[at] == 0 {
                continue;
            }
            let (north, east) = (legal[at - stride], legal[at + 1]);
            let (south, west) = (legal[at + stride], legal[at - 1]);
            let mut mask = north | east << 1 | south << 2 | west << 3;
            if diagonals {
                let north_east = legal[at - stride + 1] & north & east;
                let south_east = legal[at + stride + 1] & south & east;
                let south_west = legal[at + stride - 1] & south & west;
                let north_west = legal[at - stride - 1] & north & west;
                mask |= north_east << 4 | south_east << 5 | south_west << 6 | north_west << 7;
            }
            moves[y * width + x] = mask;
        }
    }
    PagedVec::from(moves)
}

/// The legal moves from the anchor at column `x`, row `y` for an agent of `size`: bit `d` is
/// set when the step in `DIRECTIONS[d]` is legal.
fn move_mask(clearance: &ClearanceLayer, size: u8, directions: usize, x: usize, y: usize) -> u8 {
    let (width, height) = (clearance.width() as i64, clearance.height() as i64);
    let legal_at = |x: i64, y: i64| -> bool {
        x >= 0
            && y >= 0
            && x < width
            && y < height
            && clearance.at((y * width + x) as usize) >= size
    };
    let (x, y) = (x as i64, y as i64);
    if !legal_at(x, y) {
        return 0;
    }
    let mut mask = 0u8;
    for (bit, direction) in DIRECTIONS[..directions].iter().enumerate() {
        let (dx, dy) = (i64::from(direction.dx), i64::from(direction.dy));
        // A diagonal also needs both anchors it passes; for a straight step one of dx, dy is 0
        // and these checks repeat the target or the (legal) origin.
        if legal_at(x + dx, y + dy) && legal_at(x + dx, y) && legal_at(x, y + dy) {
            mask |= 1 << bit;
        }
    }
    mask
}

fn greatest_common_divisor(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        greatest_common_divisor(b, a % b)
    }
}

#[cfg(test)]
pub(crate) mod test_masks {
    use crate::movement::DIRECTIONS;

    /// Move masks of a `width x height` map whose open cells `open(x, y)` says, for size 1
    /// and 8-way movement without corner cutting.
    pub(crate) fn move_masks(
        width: usize,
        height: usize,
        open: impl Fn(usize, usize) -> bool,
    ) -> crate::paged::PagedVec<u8> {
        let legal = |x: i64, y: i64| {
            x >= 0
                && y >= 0
                && x < width as i64
                && y < height as i64
                && open(x as usize, y as usize)
        };
        (0..width * height)
            .map(|index| {
                let (x, y) = ((index % width) as i64, (index / width) as i64);
                if !legal(x, y) {
                    return 0;
                }
                DIRECTIONS.iter().enumerate().fold(0u8, |mask, (bit, d)| {
                    let (dx, dy) = (i64::from(d.dx), i64::from(d.dy));
                    let ok = legal(x + dx, y + dy) && legal(x + dx, y) && legal(x, y + dy);
                    mask | u8::from(ok) << bit
                })
            })
            .collect()
    }
}
