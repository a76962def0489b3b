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
//! none). The label is stored inverted (bitwise not), so the array starts as zeros (allocated
//! zeroed: a bounded field touches memory only where it searches) that read as the greatest
//! cost and steps there are. A greater stored label then means a better (cost, steps,
//! direction), and one integer comparison decides both whether an offer is better and the tie
//! on equal cost and steps. Labels are `u64` when every cost the search can form fits beside
//! the step count (see `fits_u64`); otherwise `u128`, the same code.
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
//! that 0 means not reached; `u64` labels are converted in place) and directions; anchors
//! offered a cost but not settled are not reached. Every offered anchor neighbours a settled
//! one, so only the rows around the settled anchors are converted.

use crate::cost::DIAGONAL_STEP;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{OPPOSITE, STEP_LENGTHS, STRAIGHT_DIRECTIONS};
use std::ops::{BitAnd, BitOr, Not, Range, Shl, Shr};

/// Bits of a move mask for the straight directions, which come first.
const STRAIGHT_MASK: u8 = (1 << STRAIGHT_DIRECTIONS) - 1;
/// Bits of a label that hold the direction of the first step plus 1 (0: none; at most 8).
const NEXT_BITS: u32 = 4;
/// Label bit (before inversion) above the direction: the anchor has its final cost.
const SETTLED: u64 = 1 << NEXT_BITS;
/// Where the step count starts in a label, above the direction and `SETTLED`.
const KEY_SHIFT: u32 = NEXT_BITS + 1;

/// An unsigned integer that holds a label: `u64` when every cost and step count the search can
/// form fits (nearly always), else `u128`.
pub(super) trait Word:
    Copy
    + Ord
    + Default
    + From<u64>
    + Not<Output = Self>
    + BitOr<Output = Self>
    + BitAnd<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// An open entry: a label's (cost, steps) and the anchor, ordered by all three.
    type Entry: Copy + Ord + Default;
    /// Bits for the step count in a label of this width, given the bits the map needs.
    fn hop_bits(needed: u32) -> u32;
    fn entry(key: Self, anchor: usize) -> Self::Entry;
    fn entry_parts(entry: Self::Entry) -> (Self, usize);
    /// Greater than every entry: the front of an empty queue.
    fn empty() -> Self::Entry;
    fn low_bits(self) -> u64;
    /// The field's costs from the final labels, converted in `range` only (0 elsewhere), in
    /// place where the widths allow.
    fn into_costs(
        labels: Vec<Self>,
        range: Range<usize>,
        convert: impl FnMut(usize, Self) -> u64,
    ) -> Vec<u64>;
}

impl Word for u64 {
    type Entry = u128;

    fn hop_bits(needed: u32) -> u32 {
        needed
    }

    fn entry(key: u64, anchor: usize) -> u128 {
        (u128::from(key) << 32) | anchor as u128
    }

    fn entry_parts(entry: u128) -> (u64, usize) {
        ((entry >> 32) as u64, entry as u32 as usize)
    }

    fn empty() -> u128 {
        u128::MAX
    }

    fn low_bits(self) -> u64 {
        self
    }

    fn into_costs(
        mut labels: Vec<u64>,
        range: Range<usize>,
        mut convert: impl FnMut(usize, u64) -> u64,
    ) -> Vec<u64> {
        for index in range {
            labels[index] = convert(index, labels[index]);
        }
        labels
    }
}

impl Word for u128 {
    type Entry = (u128, u32);

    fn hop_bits(_: u32) -> u32 {
        32
    }

    fn entry(key: u128, anchor: usize) -> (u128, u32) {
        (key, anchor as u32)
    }

    fn entry_parts(entry: (u128, u32)) -> (u128, usize) {
        (entry.0, entry.1 as usize)
    }

    fn empty() -> (u128, u32) {
        (u128::MAX, u32::MAX)
    }

    fn low_bits(self) -> u64 {
        self as u64
    }

    fn into_costs(
        labels: Vec<u128>,
        range: Range<usize>,
        mut convert: impl FnMut(usize, u128) -> u64,
    ) -> Vec<u64> {
        let mut costs = vec![0; labels.len()];
        for index in range {
            costs[index] = convert(index, labels[index]);
        }
        costs
    }
}

/// Whether the labels of a search over `anchors` anchors with multipliers of at most
/// `max_multiplier` (in units of the graph's `cost_unit`) fit in a `u64`. An optimal path
/// visits no anchor twice, so it has fewer than `anchors` steps and every cost is at most
/// `(anchors - 1) * DIAGONAL_STEP * max_multiplier`; an offer adds one step to such a cost.
/// Step counts take at most as many bits as `anchors`.
pub(super) fn fits_u64(anchors: usize, max_multiplier: u64) -> bool {
    let hop_bits = usize::BITS - anchors.leading_zeros();
    let largest = anchors as u128 * u128::from(DIAGONAL_STEP) * u128::from(max_multiplier);
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
    /// Per anchor: cost to the nearest goal plus 1, in units of the graph's `cost_unit`; 0
    /// where not reached.
    pub costs: Vec<u64>,
    /// Per anchor: the direction of its next step plus 1; 0 where there is none.
    pub next: Vec<u8>,
    /// The largest of `costs`.
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

impl Plan<'_> {
    /// Runs the search with labels of type `W`; `multipliers` are the profile's distinct
    /// multipliers in units of the graph's `cost_unit`, ascending.
    pub fn run<W: Word>(&self, multipliers: Vec<u64>) -> Found {
        let mut search = Search::<W>::new(self.graph, self.offsets, self.bound, multipliers);
        for &anchor in self.pending {
            search.add_pending(anchor);
        }
        search.start(self.goals);
        search.run(self.settle_bounded);
        search.finish()
    }
}

/// The backward Dijkstra's state.
struct Search<'a, W: Word> {
    graph: &'a AnchorGraph,
    offsets: [isize; 8],
    layout: Layout,
    /// `max_cost` in units of the graph's `cost_unit` (`u64::MAX`: no bound).
    bound: u64,
    /// Per anchor: its label, inverted (see the module documentation).
    labels: Vec<W>,
    /// Bit per anchor: one of the anchors to settle before stopping (empty if none).
    pending: Vec<u64>,
    /// The profile's distinct multipliers in units of `cost_unit`, ascending: every legal
    /// anchor's entry multiplier is one of them.
    multipliers: Vec<u64>,
    /// `queues[2 * m + 1]` holds the offers across diagonal steps into anchors of multiplier
    /// `multipliers[m]`, `queues[2 * m]` across straight ones.
    queues: Vec<Queue<W::Entry>>,
    /// Whether `bound` turned an offer away.
    cut: bool,
    reached: usize,
    /// How many anchors of `pending` are not settled yet.
    remaining: usize,
    /// The least and greatest settled anchors (storage indices).
    settled_span: (usize, usize),
}

impl<'a, W: Word> Search<'a, W> {
    /// A search over `graph` with no anchor reached yet; `multipliers` are the profile's
    /// distinct multipliers in units of the graph's `cost_unit`, ascending.
    fn new(
        graph: &'a AnchorGraph,
        offsets: [isize; 8],
        bound: Option<u64>,
        multipliers: Vec<u64>,
    ) -> Self {
        let anchors = graph.moves.len();
        let hop_bits = W::hop_bits(usize::BITS - anchors.leading_zeros());
        Search {
            graph,
            offsets,
            layout: Layout {
                cost_shift: KEY_SHIFT + hop_bits,
                hop_mask: (1 << hop_bits) - 1,
            },
            bound: bound.unwrap_or(u64::MAX),
            labels: vec![W::default(); anchors],
            pending: Vec::new(),
            queues: (0..2 * multipliers.len()).map(|_| Queue::new()).collect(),
            multipliers,
            cut: false,
            reached: 0,
            remaining: 0,
            settled_span: (usize::MAX, 0),
        }
    }

    /// Marks `anchor` as one to settle before stopping (once, however often it is named).
    fn add_pending(&mut self, anchor: usize) {
        if self.pending.is_empty() {
            self.pending = vec![0; self.labels.len() / 64 + 1];
        }
        let (word, bit) = (anchor / 64, 1 << (anchor % 64));
        self.remaining += usize::from(self.pending[word] & bit == 0);
        self.pending[word] |= bit;
    }

    /// Gives `anchor` its final label, which no later offer can change.
    fn settle(&mut self, anchor: usize) {
        if !self.pending.is_empty() {
            self.remaining -= usize::from(self.pending[anchor / 64] >> (anchor % 64) & 1 != 0);
        }
        // Stored inverted: clearing the bit sets it.
        self.labels[anchor] = self.labels[anchor] & !W::from(SETTLED);
        self.reached += 1;
        let (low, high) = &mut self.settled_span;
        *low = (*low).min(anchor);
        *high = (*high).max(anchor);
    }

    /// Settles the goals at cost 0 and offers their neighbours a path through them.
    fn start(&mut self, goals: &[usize]) {
        for &goal in goals {
            if !is_settled(self.labels[goal]) {
                self.labels[goal] = !self.layout.pack::<W>(0, 0, 0);
                self.settle(goal);
            }
        }
        for &goal in goals {
            // Cost 0 in 0 steps.
            self.relax(goal, W::default());
        }
    }

    /// Settles anchors in order until none is open, or, if `settle_bounded`, until every
    /// pending anchor is settled.
    fn run(&mut self, settle_bounded: bool) {
        while !(settle_bounded && self.remaining == 0) {
            let Some((anchor, key)) = self.pop() else {
                break;
            };
            self.settle(anchor);
            self.relax(anchor, key);
        }
    }

    /// Whether `entry` is its anchor's current one (see the module documentation).
    fn is_current(&self, entry: W::Entry) -> bool {
        !is_settled(self.labels[W::entry_parts(entry).1])
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
            if self.labels[anchor] & W::from(SETTLED) != W::default() {
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
        offer::<W, FIRST>(&mut self.labels, (b, mask), &self.offsets, key, queue);
    }

    /// Ends the search: the field's arrays from the labels of settled anchors. If a current
    /// entry is still open, its anchor was offered a cost but never settled, so the field is
    /// not complete.
    fn finish(self) -> Found {
        let open = (self.queues.iter())
            .flat_map(Queue::open_entries)
            .any(|&entry| self.is_current(entry));
        let complete = !self.cut && !open;
        // Every anchor offered a cost neighbours a settled one: convert those rows only.
        let anchors = self.labels.len();
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
        let costs = W::into_costs(self.labels, range, |index, label| {
            if !is_settled(label) {
                return 0;
            }
            next[index] = next_of(!label);
            let cost = layout.cost(!label) + 1;
            largest = largest.max(cost);
            cost
        });
        Found {
            costs,
            next,
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
fn offer<W: Word, const FIRST: usize>(
    labels: &mut [W],
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
        let label = labels[a];
        // The forward step goes from `a` back to `b`.
        let offer = !(key | W::from(OPPOSITE[direction] as u64 + 1));
        let better = offer >> KEY_SHIFT > label >> KEY_SHIFT;
        labels[a] = if offer > label { offer } else { label };
        // `kept` is at most `bit`, below 4: the mask only spares a bounds check.
        slots[kept & (STRAIGHT_DIRECTIONS - 1)] = W::entry(entry_key, a);
        kept += usize::from(better);
    }
    queue.tail += kept;
}

/// Whether any neighbour of `b` in the four directions from `first` whose bits are set in
/// `mask` is not settled yet.
fn any_open<W: Word>(
    labels: &[W],
    (b, first, mask): (usize, usize, u8),
    offsets: &[isize; 8],
) -> bool {
    (0..STRAIGHT_DIRECTIONS).any(|bit| {
        mask >> bit & 1 != 0 && !is_settled(labels[b.wrapping_add_signed(offsets[first + bit])])
    })
}
