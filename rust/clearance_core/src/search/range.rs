//! Movement ranges: one forward Dijkstra search from a start, bounded by a budget per turn.
//!
//! # What it computes
//!
//! Under the entry-cost convention the cost of reaching `b` from the start is what a path
//! from the start pays, entering `b` last: a forward search, not the backward one of flow
//! fields (the cost from `a` to `b` is not the cost from `b` to `a`).
//!
//! With one turn, every anchor whose optimal cost is at most the budget `B` is labelled with
//! that cost: textbook Dijkstra, bounded at `B`. With several turns a unit spends at most `B`
//! per turn and a step never spans two turns (what is left of a turn is lost). Each anchor
//! then gets the smallest label `(turns, spent)` in lexicographic order, where a step of cost
//! `c` from `(t, u)` goes to `(t, u + c)` if `u + c <= B` and to `(t + 1, c)` otherwise (if
//! `c <= B`). The extension is monotone in the label (a smaller label never extends to a
//! larger one) and never decreases it, so Dijkstra's argument holds over these labels: the
//! first time an anchor is taken off the queue its label is final. With one turn the label
//! is `(1, cost)` and this is the plain search.
//!
//! Labels pack into one integer, `turns * (B + 1) + spent`, which orders them the same way.

use super::moves::MoveMasks;
use crate::cost::STRAIGHT_STEP;
use crate::movement::{direction_offsets, STEP_LENGTHS, STRAIGHT_DIRECTIONS};
use std::ops::Range;

/// One anchor the search reached: its storage index, its packed label, the total cost of the
/// path to it, and the direction of the last step (meaningless for the start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Reached {
    pub anchor: u32,
    pub direction: u8,
    /// The whole turns used before the one it is reached in.
    pub turn: u32,
    /// The fixed-point cost of the path, all turns together.
    pub cost: u64,
}

/// The bounds of one range search: the budget per turn (fixed-point) and how many turns.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub per_turn: u64,
    pub turns: u32,
}

/// What entering an anchor costs in a range search: one multiplier everywhere, or one per
/// anchor (`multiplier(b)`: the fixed-point multiplier of entering `b`), never below
/// `cheapest`.
pub(crate) enum RangeCosts<F> {
    /// Every anchor has this fixed-point multiplier.
    Uniform(u64),
    /// Per anchor, and the least of them.
    PerAnchor { multiplier: F, cheapest: u64 },
}

/// Bytes a range search and its result may hold per place of its window: a move mask, an
/// entry multiplier, a search node, the place in the result and a settled entry (1 + 8 + 16 +
/// 4 + 24), rounded up for the queues' entries. An upper estimate, for the memory limit.
const BYTES_PER_PLACE: usize = 64;

/// What a range search from `start` within `budget` may hold at its peak, its result
/// included (see [`range_search`] for its window), so that a caller can refuse one that
/// would pass a memory limit before anything is allocated.
pub(crate) fn range_search_bytes(
    size: (usize, usize),
    start: usize,
    budget: Budget,
    cheapest: u64,
) -> usize {
    (Window::around(start, size, budget, cheapest).len()).saturating_mul(BYTES_PER_PLACE)
}

/// Every anchor reached from `start` within `budget`, in the order the search settled them
/// (by label). `moves` are the graph's move masks on a `width x height` map.
///
/// The search keeps its per-anchor state in a window round the start that holds every anchor
/// the budget can reach (each step costs at least a straight step at the cheapest
/// multiplier), so its memory follows the range, not the map, and stays in cache; with a
/// cheapest multiplier of 0 the window is the whole map.
pub(crate) fn range_search<M: MoveMasks, F: Fn(usize) -> u64>(
    moves: M,
    costs: RangeCosts<F>,
    size: (usize, usize),
    start: usize,
    budget: Budget,
) -> RangeFound {
    let cheapest = match costs {
        RangeCosts::Uniform(multiplier) => multiplier,
        RangeCosts::PerAnchor { cheapest, .. } => cheapest,
    };
    let window = Window::around(start, size, budget, cheapest);
    let local = Local::copy(moves, costs, size.0, &window);
    match local {
        Local {
            masks,
            costs: LocalCosts::Uniform(multiplier),
        } => search_keyed(masks, multiplier, size.0, start, budget, window),
        Local {
            masks,
            costs: LocalCosts::PerPlace(multipliers),
        } => search_keyed(masks, multipliers, size.0, start, budget, window),
    }
}

/// [`search_in`] with the narrowest key that holds the search's labels and places.
fn search_keyed<C: PlaceCosts>(
    masks: Vec<u8>,
    costs: C,
    width: usize,
    start: usize,
    budget: Budget,
    window: Window,
) -> RangeFound {
    let span = u128::from(budget.per_turn) + 1;
    // Labels and window indices in one 64-bit key where both fit (nearly always).
    let compact = u128::from(budget.turns) * span < 1 << 32 && window.len() < 1 << 32;
    let local = Local { masks, costs };
    match (compact, budget.turns == 1) {
        (true, true) => search_in::<u64, C, true>(local, width, start, budget, window),
        (true, false) => search_in::<u64, C, false>(local, width, start, budget, window),
        (false, _) => search_in::<u128, C, false>(local, width, start, budget, window),
    }
}

/// A window's move masks and entry costs, copied row by row before the search, so that the
/// search reads a few kilobytes of its own instead of scattered rows of the map's arrays.
/// The margin's places have no moves, and under per-anchor costs a multiplier no budget can
/// pay, so a step onto one is turned away like any step past the budget (under one multiplier
/// the window's reach does that).
struct Local<C> {
    masks: Vec<u8>,
    costs: C,
}

/// The entry costs of a window: one multiplier, or one per place.
enum LocalCosts {
    Uniform(u64),
    PerPlace(Vec<u64>),
}

/// The multiplier of a margin place under per-anchor costs: a step onto it costs more than
/// any budget ([`MAX_BUDGET`](crate::MAX_BUDGET) is below `2^42` fixed-point units) and a sum
/// of two such costs still fits 64 bits.
const BEYOND_BUDGET: u64 = 1 << 44;

impl Local<LocalCosts> {
    fn copy<M: MoveMasks, F: Fn(usize) -> u64>(
        moves: M,
        costs: RangeCosts<F>,
        map_width: usize,
        window: &Window,
    ) -> Self {
        let mut masks = vec![0u8; window.len()];
        for row in 0..window.height {
            let first = (window.y0 + row) * map_width + window.x0;
            let place = window.row_start(row);
            for (column, mask) in masks[place..place + window.width].iter_mut().enumerate() {
                *mask = moves.mask(first + column);
            }
        }
        let costs = match costs {
            RangeCosts::Uniform(multiplier) => LocalCosts::Uniform(multiplier),
            RangeCosts::PerAnchor { multiplier, .. } => {
                let mut multipliers = vec![BEYOND_BUDGET; window.len()];
                for row in 0..window.height {
                    let first = (window.y0 + row) * map_width + window.x0;
                    let place = window.row_start(row);
                    let row_multipliers = &mut multipliers[place..place + window.width];
                    for (column, entered) in row_multipliers.iter_mut().enumerate() {
                        *entered = multiplier(first + column);
                    }
                }
                LocalCosts::PerPlace(multipliers)
            }
        };
        Local { masks, costs }
    }
}

/// The fixed-point multiplier of entering a window place.
trait PlaceCosts {
    fn at(&self, place: usize) -> u64;
}

impl PlaceCosts for u64 {
    #[inline(always)]
    fn at(&self, _: usize) -> u64 {
        *self
    }
}

impl PlaceCosts for Vec<u64> {
    #[inline(always)]
    fn at(&self, place: usize) -> u64 {
        self[place]
    }
}

/// What [`range_search`] found: every anchor reached, in the order settled, and the window
/// they lie in with each window anchor's place in that list (`u32::MAX` where none).
pub(crate) struct RangeFound {
    pub settled: Vec<Reached>,
    pub window: Window,
    pub places: Vec<u32>,
}

/// A queue key holding a label and a window index, ordered by label, then index.
trait RangeKey: Ord + Copy {
    /// Greater than every key of a label in range.
    const MAX: Self;
    fn new(label: u64, local: usize) -> Self;
    fn local(self) -> usize;
}

impl RangeKey for u64 {
    // Labels of `u64` keys are below `2^32 - 1` (see `range_search`).
    const MAX: Self = u64::MAX;
    #[inline(always)]
    fn new(label: u64, local: usize) -> Self {
        label << 32 | local as u64
    }
    #[inline(always)]
    fn local(self) -> usize {
        self as u32 as usize
    }
}

impl RangeKey for u128 {
    // Labels stay below `MAX_TURNS` times the greatest budget, far below `u64::MAX`.
    const MAX: Self = u128::MAX;
    #[inline(always)]
    fn new(label: u64, local: usize) -> Self {
        u128::from(label) << 64 | local as u128
    }
    #[inline(always)]
    fn local(self) -> usize {
        self as u64 as usize
    }
}

/// [`range_search`] with keys of type `K`; `ONE_TURN` when the budget counts one turn, so
/// that a label is the cost itself.
///
/// # The open entries
///
/// Open anchors wait in one first-in-first-out queue per step weight (a straight or a
/// diagonal step into an anchor of one multiplier) instead of a heap. Anchors are settled in
/// order of label, and an entry a settled anchor adds to a queue has the label that anchor's
/// label extends to across that queue's weight. The extension is monotone in the label, so
/// each queue only grows at the back with labels that do not decrease, and an entry of the
/// least open label is at the head of some queue: the next entry taken is the least of the
/// heads (by label, then window index between heads; within a queue, equal labels come in the
/// order they were pushed), in constant time per operation for a profile with a few
/// multipliers. A lowered label adds a new entry and the
/// old one is skipped when it comes up: the lowered label is strictly lower, so it comes off
/// first and settles its anchor. Anchors of equal label are settled in an order fixed by the
/// input, so equal queries give equal ranges.
fn search_in<K: RangeKey, C: PlaceCosts, const ONE_TURN: bool>(
    local: Local<C>,
    width: usize,
    start: usize,
    budget: Budget,
    window: Window,
) -> RangeFound {
    let mut open = Queues::<K>::default();
    let mut nodes = vec![RangeNode::UNREACHED; window.len()];
    let global_offsets = direction_offsets(width);
    let local_offsets = direction_offsets(window.stride);
    let span = budget.per_turn + 1;
    let last_label = u128::from(budget.turns) * u128::from(span);

    let local_start = window.local(start, width);
    nodes[local_start].label = 0;
    open.first = Some((K::new(0, local_start), start));
    // Room for the anchors of a budget's square of open ground, so that few ranges grow it.
    let mut settled: Vec<Reached> = Vec::with_capacity(window.len().min(1 << 16));
    while let Some((entry, anchor)) = open.pop() {
        let place = entry.local();
        let node = &mut nodes[place];
        if node.place != u32::MAX {
            continue;
        }
        let (label, direction) = (node.label, node.direction);
        node.place = settled.len() as u32;
        let (turn, spent) = if ONE_TURN {
            (0, label)
        } else {
            (label / span, label % span)
        };
        let cost = if ONE_TURN {
            // One turn: nothing is left unspent, so the label is the cost.
            label
        } else if anchor == start {
            0
        } else {
            let parent = place.wrapping_add_signed(-local_offsets[usize::from(direction)]);
            // Settled before its child, so its `place` is set.
            let parent_entry = settled[nodes[parent].place as usize];
            parent_entry.cost + STEP_LENGTHS[usize::from(direction)] * local.costs.at(place)
        };
        settled.push(Reached {
            anchor: anchor as u32,
            direction,
            turn: turn as u32,
            cost,
        });
        // Two passes over the neighbours: the first only compares (a settled neighbour's
        // label is never above a label offered to it, since labels never decrease along a
        // step, so it fails the comparison as an unseen one past the budget does), the
        // second updates the few that improve. Which neighbours improve follows no pattern a
        // branch predictor can learn; one comparison folded into a bit per neighbour costs
        // less than a guessed branch per test.
        let mut offered = [0u64; 8];
        let mut entered = [0u64; 8];
        let mut improved = 0u8;
        let mut mask = local.masks[place];
        while mask != 0 {
            let step = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            // The window's margin holds the place of every neighbour of a window anchor.
            let next_local = place.wrapping_add_signed(local_offsets[step]);
            entered[step] = local.costs.at(next_local);
            let paid = STEP_LENGTHS[step] * entered[step];
            let next_label = if ONE_TURN {
                spent + paid
            } else if spent + paid <= budget.per_turn {
                turn * span + spent + paid
            } else if paid <= budget.per_turn {
                (turn + 1) * span + paid
            } else {
                u64::MAX
            };
            // Past the last turn is out; this also turns away every anchor outside the
            // window.
            let better =
                (next_label < nodes[next_local].label) & (u128::from(next_label) < last_label);
            offered[step] = next_label;
            improved |= u8::from(better) << step;
        }
        while improved != 0 {
            let step = improved.trailing_zeros() as usize;
            improved &= improved - 1;
            let next_local = place.wrapping_add_signed(local_offsets[step]);
            let next = anchor.wrapping_add_signed(global_offsets[step]);
            let node = &mut nodes[next_local];
            node.label = offered[step];
            node.direction = step as u8;
            let diagonal = step >= STRAIGHT_DIRECTIONS;
            open.push(
                entered[step],
                diagonal,
                (K::new(offered[step], next_local), next),
            );
        }
    }
    let places = nodes.iter().map(|node| node.place).collect();
    RangeFound {
        settled,
        window,
        places,
    }
}

/// An open entry: its key (label and window index) and the anchor's storage index.
type Entry<K> = (K, usize);

/// The open entries of a range search: one first-in-first-out queue per step weight, each
/// sorted because it only grows with labels that do not decrease (see [`search_in`]).
struct Queues<K> {
    /// The multipliers met so far, in the order met: `queues[2 * m]` holds the entries of
    /// straight steps into anchors of multiplier `multipliers[m]`, `queues[2 * m + 1]` those of
    /// diagonal steps.
    multipliers: Vec<u64>,
    queues: Vec<Fifo<K>>,
    /// The key at the front of each queue (`K::MAX` where it is empty): the next entry is the
    /// least of them.
    fronts: Vec<K>,
    /// The start's entry, reached by no step, until it is popped.
    first: Option<Entry<K>>,
}

impl<K> Default for Queues<K> {
    fn default() -> Self {
        Queues {
            multipliers: Vec::new(),
            queues: Vec::new(),
            fronts: Vec::new(),
            first: None,
        }
    }
}

impl<K: RangeKey> Queues<K> {
    /// Adds `entry`, reached by a step (diagonal or not) into an anchor of `multiplier`.
    #[inline(always)]
    fn push(&mut self, multiplier: u64, diagonal: bool, entry: Entry<K>) {
        // Selects rather than branches, like `pop`: which multiplier a step enters is no
        // pattern either.
        let mut class = usize::MAX;
        for (place, &known) in self.multipliers.iter().enumerate() {
            class = if known == multiplier { place } else { class };
        }
        if class == usize::MAX {
            class = self.add_class(multiplier);
        }
        let index = 2 * class + usize::from(diagonal);
        let queue = &mut self.queues[index];
        if queue.head == queue.entries.len() {
            self.fronts[index] = entry.0;
        }
        queue.entries.push(entry);
    }

    /// Adds the queues of a multiplier not met before; returns its place.
    #[cold]
    fn add_class(&mut self, multiplier: u64) -> usize {
        self.multipliers.push(multiplier);
        for _ in 0..2 {
            // Room for the entries of a typical range, so that few ranges grow them.
            self.queues.push(Fifo {
                entries: Vec::with_capacity(1024),
                head: 0,
            });
            self.fronts.push(K::MAX);
        }
        self.multipliers.len() - 1
    }

    /// Removes the least entry (by key: label, then window index).
    #[inline(always)]
    fn pop(&mut self) -> Option<Entry<K>> {
        if let Some(entry) = self.first.take() {
            return Some(entry);
        }
        let (mut index, mut least) = (0, K::MAX);
        for (place, &front) in self.fronts.iter().enumerate() {
            // Selects rather than branches: which queue holds the least front is no pattern.
            let lower = front < least;
            index = if lower { place } else { index };
            least = if lower { front } else { least };
        }
        if least == K::MAX {
            return None;
        }
        let queue = &mut self.queues[index];
        let entry = queue.entries[queue.head];
        queue.head += 1;
        self.fronts[index] = queue.entries.get(queue.head).map_or(K::MAX, |next| next.0);
        Some(entry)
    }
}

/// A first-in-first-out queue: entries are pushed at the back and read from `head` on.
struct Fifo<K> {
    entries: Vec<Entry<K>>,
    head: usize,
}

/// The search state of one anchor of a range.
#[derive(Debug, Clone, Copy)]
struct RangeNode {
    /// The least label offered so far (`u64::MAX`: none).
    label: u64,
    /// Its place in the settled list, once settled (`u32::MAX` until then).
    place: u32,
    /// The step that reached it.
    direction: u8,
}

impl RangeNode {
    const UNREACHED: RangeNode = RangeNode {
        label: u64::MAX,
        place: u32::MAX,
        direction: 0,
    };
}

/// The rectangle of anchors a range can reach, as a grid of its own with a margin: a place
/// before the first row, one row above and below, and one column at the end of each row, so
/// that every neighbour of a window anchor has a place (the margin's places are never settled: those anchors are out
/// of the budget's reach, or off the map).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Window {
    pub x0: usize,
    pub y0: usize,
    pub width: usize,
    pub height: usize,
    /// Places per row: `width` and the margin column.
    stride: usize,
}

impl Window {
    /// The anchors within the budget's reach of `start` on a `width x height` map: no more
    /// than `turns * per_turn / (STRAIGHT_STEP * cheapest)` steps away in either axis (the
    /// whole map if `cheapest` is 0).
    fn around(
        start: usize,
        (width, height): (usize, usize),
        budget: Budget,
        cheapest: u64,
    ) -> Self {
        let total = u128::from(budget.per_turn) * u128::from(budget.turns);
        let reach = match u128::from(STRAIGHT_STEP) * u128::from(cheapest) {
            0 => usize::MAX,
            step => usize::try_from(total / step).unwrap_or(usize::MAX),
        };
        let (x, y) = (start % width, start / width);
        let (x0, y0) = (x.saturating_sub(reach), y.saturating_sub(reach));
        let x1 = x.saturating_add(reach).saturating_add(1).min(width);
        let y1 = y.saturating_add(reach).saturating_add(1).min(height);
        Window {
            x0,
            y0,
            width: x1 - x0,
            height: y1 - y0,
            stride: x1 - x0 + 1,
        }
    }

    /// The number of places, margin included.
    pub fn len(&self) -> usize {
        (self.height + 2) * self.stride + 1
    }

    /// Every row of the window, by `y`: its map-local `y`, the map-local `x` of its first
    /// anchor, and the places of its anchors from `x` on.
    pub fn rows(&self) -> impl Iterator<Item = (usize, usize, Range<usize>)> + '_ {
        (0..self.height).map(move |row| {
            let first = self.row_start(row);
            (self.y0 + row, self.x0, first..first + self.width)
        })
    }

    /// The place of the first anchor of the window's row `row`.
    fn row_start(&self, row: usize) -> usize {
        1 + (row + 1) * self.stride
    }

    /// The place of the anchor at `(x, y)` on the map, if the window holds it.
    pub fn place_of(&self, x: usize, y: usize) -> Option<usize> {
        let inside = (self.x0..self.x0 + self.width).contains(&x)
            && (self.y0..self.y0 + self.height).contains(&y);
        inside.then(|| self.row_start(y - self.y0) + x - self.x0)
    }

    fn local(&self, anchor: usize, map_width: usize) -> usize {
        let (x, y) = (anchor % map_width, anchor / map_width);
        (self.place_of(x, y)).expect("the window holds its own start")
    }
}
