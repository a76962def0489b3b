//! The search graph of one agent size and profile, precomputed from a clearance layer.
//!
//! Searching straight on the clearance layer would test up to eight clearances (and twelve for
//! the corner rule) at every expansion. Instead each anchor stores a bit mask of its legal moves
//! and, unless all of the profile's terrains cost the same, the multiplier paid on entering it.
//! It also labels connected regions. Built once per (profile, agent size) and cached by the map.

use crate::clearance::ClearanceLayer;
use crate::connectivity::label_regions;
use crate::grid::TerrainGrid;
use crate::movement::{Movement, DIRECTIONS};
use crate::profile::AgentProfile;

/// Legal moves and entry multipliers of every anchor, for one profile and agent size.
#[derive(Debug, Clone)]
pub(crate) struct AnchorGraph {
    /// Bit `d` set: the step in `DIRECTIONS[d]` from this anchor is legal.
    pub moves: Vec<u8>,
    /// Entry multipliers per anchor, in units of `cost_unit`; `EntryCosts::Uniform` when every
    /// terrain costs the same.
    pub entry: EntryCosts,
    /// The smallest multiplier any step can pay, in units of `cost_unit`; scales the heuristic.
    pub min_multiplier: u32,
    /// The greatest common divisor of the profile's fixed-point multipliers (1 if all are 0).
    /// Every cost in this graph is a multiple of it, so the search counts in units of it:
    /// exactly the same comparisons, with numbers small enough for compact open-list keys.
    pub cost_unit: u64,
    /// The connected region of each anchor (`NO_REGION` if illegal).
    pub regions: Vec<u32>,
}

/// The fixed-point multiplier paid for entering each anchor.
#[derive(Debug, Clone)]
pub(crate) enum EntryCosts {
    /// Every legal anchor costs the same.
    Uniform(u32),
    /// The largest multiplier under the footprint of each anchor (meaningful on legal anchors).
    PerAnchor(Vec<u32>),
}

impl AnchorGraph {
    pub fn build(
        grid: &TerrainGrid,
        clearance: &ClearanceLayer,
        profile: &AgentProfile,
        agent_size: u8,
        movement: Movement,
    ) -> Self {
        let (width, height) = (grid.width(), grid.height());
        let legal: Vec<bool> = clearance
            .values()
            .iter()
            .map(|&value| value >= agent_size)
            .collect();
        let legal_at = |x: i64, y: i64| -> bool {
            x >= 0
                && y >= 0
                && (x as usize) < width
                && (y as usize) < height
                && legal[y as usize * width + x as usize]
        };
        let directions = &DIRECTIONS[..movement.direction_count()];
        let mut moves = vec![0u8; width * height];
        for y in 0..height {
            for x in 0..width {
                if !legal[y * width + x] {
                    continue;
                }
                let (x, y) = (x as i64, y as i64);
                let mut mask = 0u8;
                for (bit, direction) in directions.iter().enumerate() {
                    let (dx, dy) = (i64::from(direction.dx), i64::from(direction.dy));
                    // A diagonal also needs both anchors it passes; for a straight step one of
                    // dx, dy is 0 and these checks repeat the target or the (legal) origin.
                    if legal_at(x + dx, y + dy) && legal_at(x + dx, y) && legal_at(x, y + dy) {
                        mask |= 1 << bit;
                    }
                }
                moves[y as usize * width + x as usize] = mask;
            }
        }

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
            let mut multipliers = footprint_max_multipliers(grid, profile, agent_size);
            for multiplier in &mut multipliers {
                *multiplier /= cost_unit;
            }
            EntryCosts::PerAnchor(multipliers)
        };
        let regions = label_regions(&moves, &legal, width);
        AnchorGraph {
            moves,
            entry,
            min_multiplier,
            cost_unit: u64::from(cost_unit),
            regions,
        }
    }

    pub fn memory_bytes(&self) -> usize {
        let entry = match &self.entry {
            EntryCosts::Uniform(_) => 0,
            EntryCosts::PerAnchor(values) => values.capacity() * std::mem::size_of::<u32>(),
        };
        self.moves.capacity() + entry + self.regions.capacity() * std::mem::size_of::<u32>()
    }

    /// Whether a path may exist between two legal anchors: they lie in the same region.
    pub fn connected(&self, from: usize, to: usize) -> bool {
        self.regions[from] == self.regions[to]
    }
}

fn greatest_common_divisor(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        greatest_common_divisor(b, a % b)
    }
}

/// For every anchor whose `size x size` footprint lies inside the map, the largest multiplier
/// of the cells under the footprint (impassable cells count as 0: they never lie under the
/// footprint of a legal anchor). A separable sliding-window maximum, rows then columns, each
/// window formed from two overlapping power-of-two windows: O(cells * log size).
fn footprint_max_multipliers(grid: &TerrainGrid, profile: &AgentProfile, size: u8) -> Vec<u32> {
    let (width, height) = (grid.width(), grid.height());
    let mut per_terrain = [0u32; 256];
    for (terrain, slot) in per_terrain.iter_mut().enumerate() {
        *slot = profile.fixed_multiplier(terrain as u8).unwrap_or(0);
    }
    let cells: Vec<u32> = grid
        .as_bytes()
        .iter()
        .map(|&terrain| per_terrain[usize::from(terrain)])
        .collect();
    let size = usize::from(size);
    let rows = window_max(&cells, width, height, size, 1, width);
    window_max(&rows, height, width, size, width, 1)
}

/// Sliding maximum over windows of `size` consecutive elements along one axis. The axis has
/// `length` elements at stride `step`; there are `lines` such lines, `line_step` apart. Windows
/// that would run past the end of a line keep the maximum of the elements that exist.
fn window_max(
    values: &[u32],
    length: usize,
    lines: usize,
    size: usize,
    step: usize,
    line_step: usize,
) -> Vec<u32> {
    let mut span = 1;
    let mut current = values.to_vec();
    while span * 2 <= size {
        let mut next = current.clone();
        for line in 0..lines {
            let base = line * line_step;
            for position in 0..length.saturating_sub(span) {
                let here = base + position * step;
                next[here] = current[here].max(current[here + span * step]);
            }
        }
        current = next;
        span *= 2;
    }
    if span == size {
        return current;
    }
    let mut result = current.clone();
    let offset = size - span;
    for line in 0..lines {
        let base = line * line_step;
        for position in 0..length.saturating_sub(offset) {
            let here = base + position * step;
            result[here] = current[here].max(current[here + offset * step]);
        }
    }
    result
}
