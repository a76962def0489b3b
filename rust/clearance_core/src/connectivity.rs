//! Connected regions of a search graph, so that impossible queries end before they search.
//!
//! Every legal step can be taken both ways (a straight step needs both anchors legal; a
//! diagonal one also needs the same two side anchors, whichever way it is taken), so
//! reachability is symmetric and the anchors fall into disjoint regions. Two anchors in
//! different regions have no path between them: a query can say `NO_PATH` after comparing two
//! labels, with nothing expanded.
//!
//! After an edit the regions are repaired rather than relabelled. Opened moves join regions
//! (a union-find over labels). Closed moves may split one: the anchors that lost a move are
//! searched from, within a budget, and either all turn out to be still connected, or a small
//! cut-off pocket is found and relabelled, or the budget runs out and the whole graph is
//! labelled afresh. Each outcome leaves exactly the partition a full labelling would give.

use crate::map::Table;
use crate::movement::{direction_offsets, directions_in};
use crate::paged::PagedVec;
use std::collections::VecDeque;

/// The label of anchors that are not legal for the agent.
pub(crate) const NO_REGION: u32 = u32::MAX;

/// A split check may visit one anchor per this many anchors of the graph (and at least
/// `SPLIT_CHECK_BASE_VISITS`): a visit costs a hash-table entry, about what relabelling this
/// many anchors costs, so past it relabelling the whole graph is about as cheap. A budget
/// that grows with the map rather than with the edit matters because searches from the two
/// sides of a new wall must walk round it (and round what stands near it) to meet.
const ANCHORS_PER_SPLIT_CHECK_VISIT: usize = 4;
const SPLIT_CHECK_BASE_VISITS: usize = 4096;

/// The region of every anchor of one search graph.
///
/// Both tables are paged ([`PagedVec`]) and written only where a value changes, so a copy of
/// the regions (a snapshot's) shares every page a repair leaves as it was.
#[derive(Debug, Clone)]
pub(crate) struct Regions {
    /// The label of each anchor (`NO_REGION` if illegal).
    labels: PagedVec<u32>,
    /// The representative of each label: labels joined by an edit share one. Kept flat (every
    /// entry is its own representative's representative) between edits.
    roots: PagedVec<u32>,
}

impl Regions {
    /// Labels every anchor for which `legal` holds, following the move masks `moves`.
    pub fn label(moves: &PagedVec<u8>, legal: impl Fn(usize) -> bool, width: usize) -> Self {
        let (labels, count) = fresh_labels(moves, legal, width);
        Regions {
            labels: PagedVec::from(labels),
            roots: (0..count).collect(),
        }
    }

    /// Labels every anchor afresh, as [`label`](Self::label) does, keeping the pages of labels
    /// that come out as they were shared.
    pub fn relabel(&mut self, moves: &PagedVec<u8>, legal: impl Fn(usize) -> bool, width: usize) {
        let (labels, count) = fresh_labels(moves, legal, width);
        self.labels.assign(&labels);
        self.roots = (0..count).collect();
    }

    /// The region of `anchor`, or `NO_REGION` if it is illegal. Equal regions mean connected.
    pub fn region_of(&self, anchor: usize) -> u32 {
        match self.labels[anchor] {
            NO_REGION => NO_REGION,
            label => self.roots[label as usize],
        }
    }

    /// Whether two legal anchors lie in the same region.
    pub fn connected(&self, from: usize, to: usize) -> bool {
        self.region_of(from) == self.region_of(to)
    }

    /// Whether `anchor` was legal when the regions were last brought up to date.
    pub fn is_labelled(&self, anchor: usize) -> bool {
        self.labels[anchor] != NO_REGION
    }

    /// Number of distinct labels ever handed out since the last full labelling.
    pub fn label_count(&self) -> usize {
        self.roots.len()
    }

    /// Bytes held.
    pub fn memory_bytes(&self) -> usize {
        self.labels.memory_bytes() + self.roots.memory_bytes()
    }

    /// Marks `anchor` illegal.
    pub fn remove(&mut self, anchor: usize) {
        self.labels.set(anchor, NO_REGION);
    }

    /// Gives the newly legal `anchor` a region of its own; [`join`](Self::join) connects it.
    pub fn add(&mut self, anchor: usize) {
        self.labels[anchor] = self.fresh_label();
    }

    /// Records that a move joins `a` and `b` (both labelled).
    pub fn join(&mut self, a: usize, b: usize) {
        let (root_a, root_b) = (
            self.find(self.labels[a] as usize),
            self.find(self.labels[b] as usize),
        );
        if root_a != root_b {
            // The lower label represents both, so the outcome does not depend on join order.
            let (low, high) = (root_a.min(root_b), root_a.max(root_b));
            self.roots.set(high as usize, low);
        }
    }

    /// Flattens the joins of an edit so that `region_of` needs one lookup.
    pub fn finish_joins(&mut self) {
        for label in 0..self.roots.len() {
            let root = self.find(label);
            self.roots.set(label, root);
        }
    }

    /// Restores exact regions after moves were closed: `lost` lists the legal anchors that lost
    /// a move. Call after [`finish_joins`](Self::finish_joins); `legal` and `moves` describe the
    /// graph after the edit.
    ///
    /// If a region fell apart, every part holds an anchor that lost a move (the part was joined
    /// to the rest through a closed move, one of whose ends lies in the part). So a search is
    /// grown from each such anchor of the region, one step each in turn. Searches that meet
    /// merge; a search that runs out of anchors has found a whole part, which gets a label of
    /// its own; when one search is left, the rest is still one region. The work is about the
    /// number of searches times the size of the smaller parts, unless the budget runs out and
    /// the whole graph is labelled afresh.
    pub fn split_where_cut(
        &mut self,
        moves: &PagedVec<u8>,
        legal: impl Fn(usize) -> bool,
        width: usize,
        lost: &[usize],
    ) {
        let offsets = direction_offsets(width);
        let budget = SPLIT_CHECK_BASE_VISITS.max(moves.len() / ANCHORS_PER_SPLIT_CHECK_VISIT);
        let mut seeds: Vec<(u32, usize)> = lost
            .iter()
            .map(|&anchor| (self.region_of(anchor), anchor))
            .collect();
        seeds.sort_unstable();
        seeds.dedup();
        let mut visits = 0;
        for group in seeds.chunk_by(|a, b| a.0 == b.0) {
            if group.len() < 2 {
                continue;
            }
            let anchors: Vec<usize> = group.iter().map(|&(_, anchor)| anchor).collect();
            let Some(parts) = grow_until_met(moves, &offsets, &anchors, budget, &mut visits) else {
                self.relabel(moves, legal, width);
                return;
            };
            for part in parts {
                let label = self.fresh_label();
                for anchor in part {
                    self.labels.set(anchor, label);
                }
            }
        }
    }

    fn fresh_label(&mut self) -> u32 {
        let label = self.roots.len() as u32;
        self.roots.push(label);
        label
    }

    fn find(&mut self, mut label: usize) -> u32 {
        while self.roots[label] as usize != label {
            let parent = self.roots[label] as usize;
            let grandparent = self.roots[parent];
            self.roots.set(label, grandparent);
            label = parent;
        }
        label as u32
    }
}

#[cfg(test)]
impl Regions {
    /// Compares both tables with `before`'s page by page (see [`PagedVec::audit`]).
    pub(crate) fn audit_pages(&self, before: &Self, audit: &mut crate::paged::PageAudit) {
        self.labels.audit(&before.labels, "region labels", audit);
        self.roots.audit(&before.roots, "region roots", audit);
    }
}

/// The label of every anchor for which `legal` holds (`NO_REGION` elsewhere), following the
/// move masks `moves`, one region after another in storage order; and the number of labels.
fn fresh_labels(
    moves: &PagedVec<u8>,
    legal: impl Fn(usize) -> bool,
    width: usize,
) -> (Vec<u32>, u32) {
    let offsets = direction_offsets(width);
    let mut labels = vec![NO_REGION; moves.len()];
    let mut next_label = 0;
    let mut stack = Vec::new();
    for seed in 0..moves.len() {
        if !legal(seed) || labels[seed] != NO_REGION {
            continue;
        }
        labels[seed] = next_label;
        stack.push(seed);
        while let Some(anchor) = stack.pop() {
            for neighbour in neighbours(moves[anchor], anchor, &offsets) {
                if labels[neighbour] == NO_REGION {
                    labels[neighbour] = next_label;
                    stack.push(neighbour);
                }
            }
        }
        next_label += 1;
    }
    (labels, next_label)
}

/// The anchors one legal move away from `anchor`.
fn neighbours(mask: u8, anchor: usize, offsets: &[isize; 8]) -> impl Iterator<Item = usize> + '_ {
    directions_in(mask).map(move |direction| anchor.wrapping_add_signed(offsets[direction]))
}

/// Grows one breadth-first search from each of `seeds` (anchors of one region), a step each in
/// turn, merging searches that meet. Returns the parts that searches ran out of anchors in
/// (each a whole part of the region, cut off from the rest) before a single search was left,
/// or `None` if more than `budget` anchors were visited in all (`visits` keeps the count).
fn grow_until_met(
    moves: &PagedVec<u8>,
    offsets: &[isize; 8],
    seeds: &[usize],
    budget: usize,
    visits: &mut usize,
) -> Option<Vec<Vec<usize>>> {
    // The search that reached each anchor first, and, per search, the one it merged into.
    let mut owner: Table<usize, usize> = Table::default();
    let mut merged_into: Vec<usize> = (0..seeds.len()).collect();
    let mut queues: Vec<VecDeque<usize>> = Vec::with_capacity(seeds.len());
    let mut members: Vec<Vec<usize>> = Vec::with_capacity(seeds.len());
    for (search, &seed) in seeds.iter().enumerate() {
        owner.insert(seed, search);
        queues.push(VecDeque::from([seed]));
        members.push(vec![seed]);
    }
    let find = |merged_into: &mut Vec<usize>, mut search: usize| {
        while merged_into[search] != search {
            merged_into[search] = merged_into[merged_into[search]];
            search = merged_into[search];
        }
        search
    };
    // The live searches take turns round a ring; a search merged into another is dropped
    // from it when its turn comes, so that turns and merges cost O(1) however many seeds a
    // batch of edits left.
    let mut ring: VecDeque<usize> = (0..seeds.len()).collect();
    let mut live = seeds.len();
    let mut parts = Vec::new();
    while live > 1 {
        let Some(search) = ring.pop_front() else {
            break;
        };
        if merged_into[search] != search {
            continue;
        }
        let Some(anchor) = queues[search].pop_front() else {
            // Ran out: a whole part, cut off from every other search. No other search reaches
            // it later: every neighbour of its anchors is one of its own (moves are legal both
            // ways), so a search that met it merged when this one expanded that anchor.
            parts.push(std::mem::take(&mut members[search]));
            live -= 1;
            continue;
        };
        for neighbour in neighbours(moves[anchor], anchor, offsets) {
            match owner.get(&neighbour) {
                None => {
                    owner.insert(neighbour, search);
                    queues[search].push_back(neighbour);
                    members[search].push(neighbour);
                    *visits += 1;
                    if *visits > budget {
                        return None;
                    }
                }
                Some(&other) => {
                    let other = find(&mut merged_into, other);
                    if other != search {
                        merged_into[other] = search;
                        // The shorter list moves into the longer, so that no anchor moves
                        // more than a logarithmic number of times.
                        if queues[other].len() > queues[search].len() {
                            queues.swap(other, search);
                        }
                        let queue = std::mem::take(&mut queues[other]);
                        queues[search].extend(queue);
                        if members[other].len() > members[search].len() {
                            members.swap(other, search);
                        }
                        let reached = std::mem::take(&mut members[other]);
                        members[search].extend(reached);
                        live -= 1;
                    }
                }
            }
        }
        ring.push_back(search);
    }
    Some(parts)
}
