//! The backward Dijkstra that builds a flow field (see the parent module for what it computes
//! and its ties).
//!
//! # Open entries
//!
//! Open anchors wait in one first-in-first-out queue per step weight (a straight or a diagonal
//! step, times one of the profile's multipliers) instead of a heap: anchors are settled in
//! order of (cost, steps), and every entry a settled anchor adds to a queue is its own
//! (cost, steps) plus that queue's constant (weight, 1), so each queue only ever grows at the
//! back with keys that do not decrease. The next entry is the least of the queue heads (by
//! cost, steps, then storage index), whether or not it is still current, and each operation
//! takes constant time for a profile with a few multipliers. An improved offer adds a new entry;
//! the outdated one is skipped when it comes up. (Outdated entries still take part in choosing
//! among heads of equal cost and steps; they are kept exactly as before so that the order of
//! settling, and so which anchors a `settle`-bounded field reaches, stays the same.)
//!
//! # Labels
//!
//! Each anchor has one integer label holding, from the top bit down: its cost, the steps of
//! the path that gives it, a "settled" bit and the direction of its first step plus 1 (0 for
//! none). The label is stored inverted (bitwise not), so labels start as zeros that read as
//! the greatest cost and steps there are. A greater stored label then means a better (cost,
//! steps, direction), and one integer comparison decides both whether an offer is better and
//! the tie on equal cost and steps. Labels are `u64` when every cost the search can form fits
//! beside the step count (see `fits_u64`); otherwise `u128`, the same code. They live in one
//! array over the map or, for a bounded field on a larger map, in pages taken on first touch
//! (`labels.rs`: which store, and why both give the same field).
//!
//! # When a bounded search stops
//!
//! `settle` names anchors to settle before stopping. The search keeps them in a list and, after
//! each anchor it settles, reads the label of the first one not yet known to be settled: the
//! whole search makes at most as many such reads as the anchors to settle and the anchors it
//! settles together, and needs no bit per anchor of the map.
//!
//! # Why the offers need no branches
//!
//! An offer from the anchor `b` being settled to a neighbour `a` is `b`'s (cost, steps) plus
//! (weight, 1): strictly greater than `b`'s key, which is at least the key of every anchor
//! settled so far. So an offer never beats nor ties the key of a settled anchor, and the
//! offer loop treats every neighbour alike: it compares, and stores either the offer or what
//! was there (unchanged for settled anchors). A direction that is not a legal move offers to
//! `b` itself, which is settled and takes nothing. The entry is written to the back of its
//! queue unconditionally and kept only if the offer is better. Only the `max_cost` bound asks
//! whether a neighbour is settled (an offer past the bound to an anchor not yet settled means
//! the field is incomplete), and that test runs only when a whole group of offers is past it.
//!
//! For the same reason the keys an anchor is offered strictly decrease while it is open, and
//! entries leave the queues in order of (cost, steps). So an anchor's current entry, the least
//! of its entries, comes up before any outdated one: a popped entry is outdated exactly when
//! its anchor is already settled, which the popped anchor's own label tells.
//!
//! # The field's arrays
//!
//! When the search stops, the labels of settled anchors become the field's costs (plus 1, so
//! that 0 means not reached) and directions; anchors offered a cost but not settled are not
//! reached. On a flat array every offered anchor neighbours a settled one, so only the rows
//! around the settled anchors are converted (`u64` labels in place). On pages the field keeps
//! the search's page table and one page of costs and one of directions per page taken, filled
//! from the list of settled anchors (`arrays.rs`).

use super::arrays::FieldArrays;
use super::labels::{FlatLabels, LabelStore, PagedLabels, Word};
use super::page_table::{offset, PAGE};
use crate::cost::DIAGONAL_STEP;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{OPPOSITE, STEP_LENGTHS, STRAIGHT_DIRECTIONS};

/// Bits of a move mask for the straight directions, which come first.
const STRAIGHT_MASK: u8 = (1 << STRAIGHT_DIRECTIONS) - 1;
/// Bits of a label that hold the direction of the first step plus 1 (0: none; at most 8).
const NEXT_BITS: u32 = 4;
/// Label bit (before inversion) above the direction: the anchor has its final cost.
const SETTLED: u64 = 1 << NEXT_BITS;
/// Where the step count starts in a label, above the direction and `SETTLED`.
const KEY_SHIFT: u32 = NEXT_BITS + 1;

/// Whether the labels of a search over `anchors` anchors with multipliers of at most
/// `max_multiplier` (in units of the graph's `cost_unit`) and costs bounded by `bound` (if
/// any, in the same units) fit in a `u64`. An optimal path visits no anchor twice, so it has
/// fewer than `anchors` steps and every cost is at most `(anchors - 1) * DIAGONAL_STEP *
/// max_multiplier`; an offer adds one step to such a cost, and no offer above `bound` is
/// packed. Step counts take at most as many bits as `anchors`.
pub(super) fn fits_u64(anchors: usize, max_multiplier: u64, bound: Option<u64>) -> bool {
    let hop_bits = usize::BITS - anchors.leading_zeros();
    let worst = anchors as u128 * u128::from(DIAGONAL_STEP) * u128::from(max_multiplier);
    let largest = bound.map_or(worst, |bound| worst.min(u128::from(bound)));
    largest < 1 << (64 - KEY_SHIFT - hop_bits)
}

/// A first-in-first-out queue of entries with spare slots at the back, so that an offer can be
/// written unconditionally and kept by moving `tail` only if it won.
struct Queue<E> {
    entries: Vec<E>,
    head: usize,
    tail: usize,
}

impl<E: Copy + Default> Queue<E> {
    fn new() -> Self {
        Queue {
            entries: Vec::new(),
            head: 0,
            tail: 0,
        }
    }

    /// Makes room for `slots` more entries.
    #[inline(always)]
    fn reserve(&mut self, slots: usize) {
        if self.tail + slots > self.entries.len() {
            self.make_room(slots);
        }
    }

    /// Makes room for `slots` more entries: first by moving the open entries to the front when
    /// at least as many popped ones lie before them (each entry is moved at most once per pop
    /// before it, so this costs constant time per entry), else by growing.
    #[cold]
    fn make_room(&mut self, slots: usize) {
        if self.head >= self.tail - self.head {
            self.entries.copy_within(self.head..self.tail, 0);
            self.tail -= self.head;
            self.head = 0;
        }
        if self.tail + slots > self.entries.len() {
            let length = (2 * self.entries.len()).max(self.tail + slots).max(256);
            self.entries.resize(length, E::default());
        }
    }

    /// The entry at the front, or `W::empty()` (greater than any entry) if there is none.
    fn front<W: Word<Entry = E>>(&self) -> E {
        if self.head < self.tail {
            self.entries[self.head]
        } else {
            W::empty()
        }
    }

    fn open_entries(&self) -> &[E] {
        &self.entries[self.head..self.tail]
    }
}

/// What the search found: the field's per-anchor arrays and counts.
pub(super) struct Found {
    pub arrays: FieldArrays,
    /// The largest stored cost.
    pub largest: u64,
    pub reached: usize,
    pub complete: bool,
}

/// How (cost, steps, first step) pack into a label (see the module documentation).
#[derive(Clone, Copy)]
struct Layout {
    /// Where the cost starts: above the step count and the direction.
    cost_shift: u32,
    hop_mask: u64,
}

impl Layout {
    fn pack<W: Word>(self, cost: u64, steps: u32, next: u8) -> W {
        (W::from(cost) << self.cost_shift)
            | (W::from(u64::from(steps)) << KEY_SHIFT)
            | W::from(u64::from(next))
    }

    fn cost<W: Word>(self, packed: W) -> u64 {
        (packed >> self.cost_shift).low_bits()
    }

    fn steps<W: Word>(self, packed: W) -> u32 {
        ((packed >> KEY_SHIFT).low_bits() & self.hop_mask) as u32
    }
}

/// Whether a stored (inverted) label is settled: offered, with `SETTLED` set.
fn is_settled<W: Word>(stored: W) -> bool {
    stored != W::default() && stored & W::from(SETTLED) == W::default()
}

fn next_of<W: Word>(packed: W) -> u8 {
    (packed.low_bits() & ((1 << NEXT_BITS) - 1)) as u8
}

/// What to search: the graph, the bounds, the goals and the anchors to settle.
pub(super) struct Plan<'a> {
    pub graph: &'a AnchorGraph,
    pub offsets: [isize; 8],
    /// `max_cost` in units of the graph's `cost_unit`.
    pub bound: Option<u64>,
    /// Storage indices of the goals (duplicates allowed).
    pub goals: &'a [usize],
    /// Anchors to settle before stopping (legal and able to reach a goal; duplicates allowed).
    pub pending: &'a [usize],
    /// Whether to stop once every pending anchor is settled.
    pub settle_bounded: bool,
}

/// Maps of at most this many anchors are searched on flat labels, whatever the bounds: their
/// pages would be too few for paging to pay.
const FLAT_ANCHORS: usize = 16 * PAGE;

/// Pages a goal takes at the start, about: its own and those of the rows above and below.
const GOAL_PAGES: usize = 3;

impl Plan<'_> {
    /// Runs the search with labels of type `W`; `multipliers` are the profile's distinct
    /// multipliers in units of the graph's `cost_unit`, ascending. A bounded search on a map
    /// of more than [`FLAT_ANCHORS`] anchors starts on pages and moves to flat labels if it
    /// overflows them (see `labels.rs`); an unbounded one, which reaches every anchor it can,
    /// runs flat.
    pub fn run<W: Word>(&self, multipliers: Vec<u64>) -> Found {
        let anchors = self.graph.moves.len();
        let bounded = self.settle_bounded || self.bound.is_some();
        // Goals alone taking more pages than the store allows before moving: flat at once.
        let few_goals =
            self.goals.len().saturating_mul(GOAL_PAGES) <= PagedLabels::<W>::limit_for(anchors);
        if !bounded || anchors <= FLAT_ANCHORS || !few_goals {
            let mut search = Search::new(self, FlatLabels::<W>::new(anchors), multipliers);
            search.start(self.goals);
            search.run(self.settle_bounded);
            return search.finish_flat();
        }
        let mut search = Search::new(self, PagedLabels::<W>::new(anchors), multipliers);
        search.start(self.goals);
        if search.run(self.settle_bounded) {
            return search.finish_paged();
        }
        let mut search = search.into_flat(anchors);
        search.run(self.settle_bounded);
        search.finish_flat()
    }
}

/// The backward Dijkstra's state, its labels held by `S`.
struct Search<'a, W: Word, S> {
    graph: &'a AnchorGraph,
    offsets: [isize; 8],
    layout: Layout,
    /// `max_cost` in units of the graph's `cost_unit` (`u64::MAX`: no bound).
    bound: u64,
    /// Per anchor: its label, inverted (see the module documentation).
    labels: S,
    /// The anchors to settle before stopping (duplicates allowed); those before `settled_to`
    /// are settled.
    pending: &'a [usize],
    settled_to: usize,
    /// The profile's distinct multipliers in units of `cost_unit`, ascending: every legal
    /// anchor's entry multiplier is one of them.
    multipliers: Vec<u64>,
    /// `queues[2 * m + 1]` holds the offers across diagonal steps into anchors of multiplier
    /// `multipliers[m]`, `queues[2 * m]` across straight ones.
    queues: Vec<Queue<W::Entry>>,
    /// Whether `bound` turned an offer away.
    cut: bool,
    reached: usize,
    /// The least and greatest settled anchors (storage indices).
    settled_span: (usize, usize),
}

impl<'a, W: Word, S: LabelStore<W>> Search<'a, W, S> {
    /// The search `plan` asks for, with no anchor reached yet, its labels in `labels` (all
    /// 0); `multipliers` are the profile's distinct multipliers in units of the graph's
    /// `cost_unit`, ascending.
    fn new(plan: &Plan<'a>, labels: S, multipliers: Vec<u64>) -> Self {
        let anchors = plan.graph.moves.len();
        let hop_bits = W::hop_bits(usize::BITS - anchors.leading_zeros());
        Search {
            graph: plan.graph,
            offsets: plan.offsets,
            layout: Layout {
                cost_shift: KEY_SHIFT + hop_bits,
                hop_mask: (1 << hop_bits) - 1,
            },
            bound: plan.bound.unwrap_or(u64::MAX),
            labels,
            pending: plan.pending,
            settled_to: 0,
            queues: (0..2 * multipliers.len()).map(|_| Queue::new()).collect(),
            multipliers,
            cut: false,
            reached: 0,
            settled_span: (usize::MAX, 0),
        }
    }

    /// Gives `anchor` its final label, which no later offer can change.
    fn settle(&mut self, anchor: usize) {
        // Stored inverted: clearing the bit sets it.
        let label = self.labels.slot(anchor);
        *label = *label & !W::from(SETTLED);
        self.labels.note_settled(anchor);
        self.reached += 1;
        let (low, high) = &mut self.settled_span;
        *low = (*low).min(anchor);
        *high = (*high).max(anchor);
    }

    /// Settles the goals at cost 0 and offers their neighbours a path through them.
    fn start(&mut self, goals: &[usize]) {
        for &goal in goals {
            if !is_settled(self.labels.get(goal)) {
                *self.labels.slot(goal) = !self.layout.pack::<W>(0, 0, 0);
                self.settle(goal);
            }
        }
        for &goal in goals {
            // Cost 0 in 0 steps.
            self.relax(goal, W::default());
        }
    }

    /// Whether every pending anchor is settled. Each call reads the labels of the pending
    /// anchors from the first one not yet known to be settled up to the first one that is
    /// not: over a whole search, at most one read per pending anchor and one per call.
    fn pending_settled(&mut self) -> bool {
        while let Some(&anchor) = self.pending.get(self.settled_to) {
            if !is_settled(self.labels.get(anchor)) {
                return false;
            }
            self.settled_to += 1;
        }
        true
    }

    /// Settles anchors in order until none is open, or, if `settle_bounded`, until every
    /// pending anchor is settled: `true` then, `false` if the labels overflowed first (the
    /// search can go on from where it stopped on other labels).
    fn run(&mut self, settle_bounded: bool) -> bool {
        while !(settle_bounded && self.pending_settled()) {
            // Moving is worth it only while there is work left.
            if self.labels.overflowed() && self.queues.iter().any(|queue| queue.head < queue.tail) {
                return false;
            }
            let Some((anchor, key)) = self.pop() else {
                break;
            };
            self.settle(anchor);
            self.relax(anchor, key);
        }
        true
    }

    /// Whether `entry` is its anchor's current one (see the module documentation).
    fn is_current(&self, entry: W::Entry) -> bool {
        !is_settled(self.labels.get(W::entry_parts(entry).1))
    }

    /// The least open entry that is still current, removed from its queue: its anchor and
    /// key.
    fn pop(&mut self) -> Option<(usize, W)> {
        loop {
            let (index, entry) = match &self.queues[..] {
                // The usual case, one multiplier: no loop.
                [straight, diagonal] => {
                    let (first, second) = (straight.front::<W>(), diagonal.front::<W>());
                    if second < first {
                        (1, second)
                    } else {
                        (0, first)
                    }
                }
                queues => (queues.iter().map(Queue::front::<W>).enumerate())
                    .min_by_key(|&(_, entry)| entry)?,
            };
            if entry == W::empty() {
                return None;
            }
            self.queues[index].head += 1;
            let (key, anchor) = W::entry_parts(entry);
            // An anchor with an entry has been offered, so its label is not 0: the bit says it.
            if self.labels.get(anchor) & W::from(SETTLED) != W::default() {
                return Some((anchor, key));
            }
        }
    }

    /// Offers every neighbour `a` of the settled anchor `b` the cost of a path through `b`:
    /// the step `a -> b` enters `b`, so it is charged `m(b)`, whatever `a` costs to enter.
    /// `key` is `b`'s cost and steps as entries hold them.
    fn relax(&mut self, b: usize, key: W) {
        let packed = key << KEY_SHIFT;
        let (cost, steps) = (self.layout.cost(packed), self.layout.steps(packed) + 1);
        let entry = match &self.graph.entry {
            EntryCosts::Uniform(m) => u64::from(*m),
            EntryCosts::PerAnchor(values) => u64::from(values[b]),
        };
        let class = self.multipliers.partition_point(|&m| m < entry);
        let moves = self.graph.moves[b];
        let offered = (cost, steps, entry);
        self.offer_group::<0>(b, moves, offered, 2 * class);
        self.offer_group::<STRAIGHT_DIRECTIONS>(b, moves, offered, 2 * class + 1);
    }

    /// Offers `b`'s cost and steps plus one step of multiplier `entry` to its neighbours in the
    /// four directions from `FIRST` (straight or diagonal) whose bits are set in `moves`;
    /// their entries go to `queues[queue]`.
    #[inline(always)]
    fn offer_group<const FIRST: usize>(
        &mut self,
        b: usize,
        moves: u8,
        (cost, steps, entry): (u64, u32, u64),
        queue: usize,
    ) {
        let mask = (moves >> FIRST) & STRAIGHT_MASK;
        let offered = cost + STEP_LENGTHS[FIRST] * entry;
        if offered > self.bound {
            let group = (b, FIRST, mask);
            self.cut = self.cut || any_open(&self.labels, group, &self.offsets);
            return;
        }
        let key = self.layout.pack::<W>(offered, steps, 0);
        let queue = &mut self.queues[queue];
        offer::<W, S, FIRST>(&mut self.labels, (b, mask), &self.offsets, key, queue);
    }

    /// Whether the search ended with the field complete: if a current entry is still open,
    /// its anchor was offered a cost but never settled.
    fn complete(&self) -> bool {
        let open = (self.queues.iter())
            .flat_map(Queue::open_entries)
            .any(|&entry| self.is_current(entry));
        !self.cut && !open
    }
}

/// A settled label's stored cost (its cost plus 1) and next direction; 0 and 0 for any other.
fn answer<W: Word>(layout: Layout, label: W) -> (u64, u8) {
    if is_settled(label) {
        (layout.cost(!label) + 1, next_of(!label))
    } else {
        (0, 0)
    }
}

impl<'a, W: Word> Search<'a, W, PagedLabels<W>> {
    /// The same search, its labels moved to one flat array over `anchors` anchors.
    fn into_flat(self, anchors: usize) -> Search<'a, W, FlatLabels<W>> {
        Search {
            graph: self.graph,
            offsets: self.offsets,
            layout: self.layout,
            bound: self.bound,
            labels: self.labels.into_flat(anchors),
            pending: self.pending,
            settled_to: self.settled_to,
            multipliers: self.multipliers,
            queues: self.queues,
            cut: self.cut,
            reached: self.reached,
            settled_span: self.settled_span,
        }
    }

    /// Ends the search: the field's arrays from the labels of the settled anchors, in the
    /// pages the search took; only settled anchors are read.
    fn finish_paged(self) -> Found {
        let complete = self.complete();
        let layout = self.layout;
        let PagedLabels {
            table,
            pages,
            settled,
            ..
        } = self.labels;
        let mut costs = vec![[0; PAGE]; pages.len()];
        let mut next = vec![[0; PAGE]; pages.len()];
        let mut largest = 0;
        for anchor in settled {
            let anchor = anchor as usize;
            let place = table
                .place(anchor)
                .expect("a settled anchor's page is taken");
            let offset = offset(anchor);
            let (cost, direction) = answer(layout, pages[place][offset]);
            costs[place][offset] = cost;
            next[place][offset] = direction;
            largest = largest.max(cost);
        }
        Found {
            arrays: FieldArrays::Paged { table, costs, next },
            largest,
            reached: self.reached,
            complete,
        }
    }
}

impl<W: Word> Search<'_, W, FlatLabels<W>> {
    /// Ends the search: the field's arrays from the labels of the settled anchors. Every
    /// anchor offered a cost neighbours a settled one: only those rows are converted.
    fn finish_flat(self) -> Found {
        let complete = self.complete();
        let anchors = self.labels.0.len();
        let (low, high) = self.settled_span;
        let margin = self.offsets[2].unsigned_abs() + 1;
        let range = if low <= high {
            low.saturating_sub(margin)..(high + margin + 1).min(anchors)
        } else {
            0..0
        };
        let mut next = vec![0; anchors];
        let layout = self.layout;
        let mut largest = 0;
        let costs = W::into_costs(self.labels.0, range, |index, label| {
            let (cost, direction) = answer(layout, label);
            next[index] = direction;
            largest = largest.max(cost);
            cost
        });
        Found {
            arrays: FieldArrays::Flat { costs, next },
            largest,
            reached: self.reached,
            complete,
        }
    }
}

/// Offers `key` (a packed cost and step count) to the neighbours of `b` in the four
/// directions from `FIRST` whose bits are set in `mask`: all straight or all diagonal, so of
/// one step length, and their entries go to one queue. A neighbour takes the offer if it is
/// cheaper, or as cheap in fewer steps, or the same with a lower direction of the step
/// `a -> b`; only the first two change its key and queue an entry. A direction not in `mask`
/// offers to `b` itself, which is settled and so takes nothing: the loop has no branches.
#[inline(always)]
fn offer<W: Word, S: LabelStore<W>, const FIRST: usize>(
    labels: &mut S,
    (b, mask): (usize, u8),
    offsets: &[isize; 8],
    key: W,
    queue: &mut Queue<W::Entry>,
) {
    queue.reserve(STRAIGHT_DIRECTIONS);
    let slots: &mut [W::Entry; STRAIGHT_DIRECTIONS] = (&mut queue.entries
        [queue.tail..queue.tail + STRAIGHT_DIRECTIONS])
        .try_into()
        .expect("four slots reserved");
    let mut kept = 0;
    let entry_key = key >> KEY_SHIFT;
    for bit in 0..STRAIGHT_DIRECTIONS {
        let direction = FIRST + bit;
        // The offset where the move is legal, 0 (back to `b`) where it is not: arithmetic, so
        // that no branch depends on the mask.
        let enabled = isize::from(mask >> bit & 1);
        let a = b.wrapping_add_signed(offsets[direction] & -enabled);
        let slot = labels.slot(a);
        let label = *slot;
        // The forward step goes from `a` back to `b`.
        let offer = !(key | W::from(OPPOSITE[direction] as u64 + 1));
        let better = offer >> KEY_SHIFT > label >> KEY_SHIFT;
        *slot = if offer > label { offer } else { label };
        // `kept` is at most `bit`, below 4: the mask only spares a bounds check.
        slots[kept & (STRAIGHT_DIRECTIONS - 1)] = W::entry(entry_key, a);
        kept += usize::from(better);
    }
    queue.tail += kept;
}

/// Whether any neighbour of `b` in the four directions from `first` whose bits are set in
/// `mask` is not settled yet.
fn any_open<W: Word, S: LabelStore<W>>(
    labels: &S,
    (b, first, mask): (usize, usize, u8),
    offsets: &[isize; 8],
) -> bool {
    (0..STRAIGHT_DIRECTIONS).any(|bit| {
        mask >> bit & 1 != 0 && !is_settled(labels.get(b.wrapping_add_signed(offsets[first + bit])))
    })
}
