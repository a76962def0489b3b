//! What entering each anchor costs on weighted terrain: the highest multiplier under its
//! footprint, and which anchors have neighbours that all cost the same (the anchors where
//! jump-point search's cost tests cannot force a turn).

use crate::grid::{TerrainGrid, Window};
use crate::paged::PagedVec;
use crate::profile::AgentProfile;

/// Sets or clears the bit of every anchor in `window` in `bits` (see
/// [`AnchorGraph::even_costs`](super::AnchorGraph::even_costs)): set iff each of its legal
/// neighbours on the `width x height` map has the same multiplier (and for illegal anchors,
/// which no ray reaches); `uneven` counts the clear bits. The cost tests of jump-point search
/// read the multipliers of legal neighbours only.
pub(super) fn mark_even_costs(
    (bits, uneven): (&mut PagedVec<u64>, &mut usize),
    multipliers: &PagedVec<u32>,
    legal: impl Fn(usize) -> bool,
    (width, height): (usize, usize),
    window: Window,
) {
    for y in window.y0..window.y1 {
        let rows = y.saturating_sub(1)..(y + 2).min(height);
        for x in window.x0..window.x1 {
            let anchor = y * width + x;
            let own = multipliers[anchor];
            let columns = x.saturating_sub(1)..(x + 2).min(width);
            let even = !legal(anchor)
                || rows.clone().all(|row| {
                    columns.clone().all(|column| {
                        let neighbour = row * width + column;
                        multipliers[neighbour] == own || !legal(neighbour)
                    })
                });
            let bit = 1u64 << (anchor % 64);
            let word = bits[anchor / 64];
            let was_even = word & bit != 0;
            // Written only when it changes: an unchanged word leaves its page shared.
            bits.set(anchor / 64, if even { word | bit } else { word & !bit });
            *uneven += usize::from(was_even && !even);
            *uneven -= usize::from(!was_even && even);
        }
    }
}

/// For every anchor of `anchors`, the largest multiplier of the cells under its `size x size`
/// footprint (cells beyond the map do not count; impassable cells count as 0, and never lie
/// under the footprint of a legal anchor), row by row. A separable sliding-window maximum,
/// rows then columns, each window formed from two overlapping power-of-two windows:
/// O(cells * log size).
pub(super) fn footprint_max_multipliers(
    grid: &TerrainGrid,
    profile: &AgentProfile,
    size: u8,
    anchors: Window,
) -> Vec<u32> {
    let mut per_terrain = [0u32; 256];
    for (terrain, slot) in per_terrain.iter_mut().enumerate() {
        *slot = profile.fixed_multiplier(terrain as u8).unwrap_or(0);
    }
    let size = usize::from(size);
    // The cells the footprints cover; windows clipped by this box are clipped by the map.
    let cells = anchors.grown(0, size - 1, grid.width(), grid.height());
    let (width, height) = (cells.x1 - cells.x0, cells.y1 - cells.y0);
    let terrain = grid.as_bytes();
    let mut values = Vec::with_capacity(width * height);
    for y in cells.y0..cells.y1 {
        let row = terrain.runs(y * grid.width() + cells.x0..y * grid.width() + cells.x1);
        values.extend(row.flatten().map(|&t| per_terrain[usize::from(t)]));
    }
    let rows = window_max(&values, width, height, size, 1, width);
    let both = window_max(&rows, height, width, size, width, 1);
    let span = anchors.x1 - anchors.x0;
    let mut result = Vec::with_capacity(span * (anchors.y1 - anchors.y0));
    for y in 0..anchors.y1 - anchors.y0 {
        result.extend_from_slice(&both[y * width..y * width + span]);
    }
    result
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
