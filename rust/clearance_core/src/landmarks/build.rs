//! Building a landmark table: placement, and the sweeps spread over several threads.
//!
//! A table needs one sweep per landmark and stored direction (two directions where steps
//! cost differently each way). Farthest-point placement is a chain: each landmark is the
//! anchor farthest from those before it, so its forward sweep must finish before the next
//! landmark is known. The calling thread runs that chain; helper threads take every other
//! task as soon as it exists: the backward sweeps of landmarks already placed, and storing
//! finished columns into the interleaved table. Given landmarks have no chain, and every
//! thread takes sweeps.
//!
//! **Determinism.** Every column holds exact distances, which do not depend on which thread
//! computed them or when, and each lands in the slot of its landmark's place in the order of
//! placement, which the calling thread alone decides. So the table is the same bit for bit
//! for any number of threads.

use super::progress::{LandmarkProgressFn, Progress};
use super::sweep::{packed_moves_and_multipliers, SpareColumns, Sweep, Sweeper};
use super::{
    stride_for, LandmarkPlacement, LandmarkTable, SMALLEST_REGION_FOR_LANDMARK, UNREACHABLE,
};
use crate::connectivity::NO_REGION;
use crate::graph::{AnchorGraph, EntryCosts};
use crate::paged::PagedVec;
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Mutex, PoisonError};

/// Work for any thread of a build.
enum Task {
    /// Sweep from the landmark in `slot` (at `anchor`), then store the column.
    Sweep {
        slot: usize,
        anchor: usize,
        sweep: Sweep,
    },
    /// Store a finished column of the landmark in `slot`.
    Store {
        slot: usize,
        sweep: Sweep,
        column: Vec<u32>,
    },
}

/// What every thread of one build shares.
struct Shared<'a> {
    sweeper: Sweeper<'a>,
    progress: Progress<'a>,
    /// Slots per anchor in the tables.
    count: usize,
    from_landmark: Mutex<Vec<u32>>,
    to_landmark: Option<Mutex<Vec<u32>>>,
    /// Set when some distance does not fit the storage: the build returns no table.
    overflow: AtomicBool,
}

impl Shared<'_> {
    fn run(&self, task: Task) {
        match task {
            Task::Sweep {
                slot,
                anchor,
                sweep,
            } => match self.sweeper.column(anchor, sweep, &self.progress) {
                Some(column) => self.store(slot, sweep, column),
                None => self.overflow.store(true, Ordering::Relaxed),
            },
            Task::Store {
                slot,
                sweep,
                column,
            } => self.store(slot, sweep, column),
        }
    }

    /// Writes `column` into the table, then hands its memory back for a later sweep.
    fn store(&self, slot: usize, sweep: Sweep, column: Vec<u32>) {
        let table = match sweep {
            Sweep::FromSource => &self.from_landmark,
            Sweep::ToSource => self.to_landmark.as_ref().expect("asymmetric tables"),
        };
        {
            let mut table = table.lock().unwrap_or_else(PoisonError::into_inner);
            for (anchor, &distance) in column.iter().enumerate() {
                table[anchor * self.count + slot] = distance;
            }
        }
        if let Some(spare) = self.sweeper.spare {
            spare.give(column);
        }
    }

    /// Runs tasks until the sender is gone and the queue is empty.
    fn work(&self, tasks: &Mutex<Receiver<Task>>) {
        loop {
            let next = tasks.lock().unwrap_or_else(PoisonError::into_inner).recv();
            match next {
                Ok(task) => self.run(task),
                Err(_) => return,
            }
        }
    }
}

impl LandmarkTable {
    /// Builds the table on `graph`, the size-1 graph of a profile, on `threads` threads (the
    /// calling one among them; 0 counts as 1), reporting to `progress`. Distances are in the
    /// graph's cost units (see `AnchorGraph::cost_unit`), which every size of the profile
    /// shares. Returns `None` if no landmark can be placed, if every step is free, or if some
    /// distance does not fit the 32-bit storage (only on maps with paths of millions of steps).
    pub fn build(
        graph: &AnchorGraph,
        width: usize,
        placement: &LandmarkPlacement,
        given: &[usize],
        threads: usize,
        progress: LandmarkProgressFn,
    ) -> Option<Self> {
        if graph.min_multiplier == 0 && matches!(graph.entry, EntryCosts::Uniform(_)) {
            return None; // every step is free: distances are all 0 and bound nothing
        }
        let symmetric = matches!(graph.entry, EntryCosts::Uniform(_));
        // Every sweep of the build reads the same moves and multipliers: packed once.
        let packed = graph
            .entry
            .per_anchor()
            .map(|multipliers| packed_moves_and_multipliers(&graph.moves, multipliers));
        let spare = SpareColumns::default();
        let sweeper = Sweeper {
            graph,
            width,
            packed: packed.as_deref(),
            spare: Some(&spare),
        };
        let regions = RegionSizes::of(graph);
        let legal_given: Vec<usize> = given
            .iter()
            .copied()
            .filter(|&anchor| graph.regions.region_of(anchor) != NO_REGION)
            .collect();
        let (count, first_sweeps) = match placement {
            LandmarkPlacement::None => return None,
            LandmarkPlacement::At(_) => (legal_given.len(), 0),
            // At most one extra sweep per region that gets a first landmark.
            LandmarkPlacement::Farthest(count) => (*count, regions.sizeable.min(*count)),
        };
        if count == 0 {
            return None;
        }
        let directions = if symmetric { 1 } else { 2 };
        let sweeps = (count * directions + first_sweeps) as u64;
        let cells = graph.moves.len();
        let shared = Shared {
            sweeper,
            progress: Progress::new(sweeps * regions.largest as u64, progress),
            count,
            from_landmark: Mutex::new(vec![UNREACHABLE; cells * count]),
            to_landmark: (!symmetric).then(|| Mutex::new(vec![UNREACHABLE; cells * count])),
            overflow: AtomicBool::new(false),
        };
        let (sender, receiver) = channel();
        let receiver = Mutex::new(receiver);
        let landmarks = std::thread::scope(|scope| {
            for _ in 1..threads.max(1) {
                scope.spawn(|| shared.work(&receiver));
            }
            let landmarks = match placement {
                LandmarkPlacement::Farthest(count) => {
                    // Alone, the calling thread runs each task at once rather than queue
                    // columns it would store only after the last sweep.
                    let dispatch = |task: Task| match threads > 1 {
                        true => sender.send(task).expect("the calling thread receives too"),
                        false => shared.run(task),
                    };
                    farthest_point(&shared, &regions, *count, &dispatch)
                }
                _ => {
                    for (slot, &anchor) in legal_given.iter().enumerate() {
                        for sweep in [Sweep::FromSource, Sweep::ToSource].iter().take(directions) {
                            let sweep = *sweep;
                            let task = Task::Sweep {
                                slot,
                                anchor,
                                sweep,
                            };
                            sender.send(task).expect("the calling thread receives too");
                        }
                    }
                    legal_given
                }
            };
            drop(sender);
            shared.work(&receiver);
            landmarks
        });
        shared.progress.finish();
        if landmarks.is_empty() || shared.overflow.load(Ordering::Relaxed) {
            return None;
        }
        let stride = stride_for(landmarks.len());
        let take = |table: Mutex<Vec<u32>>| {
            let table = table.into_inner().unwrap_or_else(PoisonError::into_inner);
            lay_out(table, count, landmarks.len(), stride)
        };
        Some(LandmarkTable {
            from_landmark: take(shared.from_landmark),
            to_landmark: shared.to_landmark.map(take),
            stride,
            landmarks,
            exact: true,
        })
    }
}

/// The table of `count` slots per anchor laid out in pages with `stride` slots per anchor:
/// its first `used` slots, then unused ones up to the stride.
fn lay_out(table: Vec<u32>, count: usize, used: usize, stride: usize) -> PagedVec<u32> {
    if used == count && count == stride {
        return PagedVec::from(table);
    }
    let unused = std::iter::repeat_n(UNREACHABLE, stride - used);
    table
        .chunks_exact(count)
        .flat_map(|slots| slots[..used].iter().copied().chain(unused.clone()))
        .collect()
}

/// The sizes of the connected regions of a graph.
struct RegionSizes {
    /// Anchors per region label.
    sizes: Vec<usize>,
    /// Regions large enough to attract a landmark.
    sizeable: usize,
    /// Anchors in the largest region: the most one sweep settles.
    largest: usize,
}

impl RegionSizes {
    fn of(graph: &AnchorGraph) -> Self {
        let mut sizes: Vec<usize> = Vec::new();
        for anchor in 0..graph.moves.len() {
            let region = graph.regions.region_of(anchor);
            if region == NO_REGION {
                continue;
            }
            let region = region as usize;
            if region >= sizes.len() {
                sizes.resize(region + 1, 0);
            }
            sizes[region] += 1;
        }
        let sizeable = sizes
            .iter()
            .filter(|&&size| size >= SMALLEST_REGION_FOR_LANDMARK)
            .count();
        let largest = sizes.iter().copied().max().unwrap_or(0);
        RegionSizes {
            sizes,
            sizeable,
            largest,
        }
    }
}

/// Farthest-point placement on the calling thread: each new landmark is the anchor farthest
/// from those already chosen (lowest index on ties); a sizeable region without a landmark
/// counts as infinitely far, and its landmark goes to the far end of the region from its
/// first anchor. Forward columns are stored, and backward sweeps run, by `dispatch`. Returns the landmarks in order (empty if a distance does not fit the storage).
fn farthest_point(
    shared: &Shared,
    regions: &RegionSizes,
    count: usize,
    dispatch: &dyn Fn(Task),
) -> Vec<usize> {
    let graph = shared.sweeper.graph;
    // Distance from each anchor to the nearest landmark so far; anchors in small regions (and
    // illegal ones) never attract a landmark.
    let mut nearest: Vec<u64> = (0..graph.moves.len())
        .map(|anchor| match graph.regions.region_of(anchor) {
            NO_REGION => 0,
            r if regions.sizes[r as usize] >= SMALLEST_REGION_FOR_LANDMARK => u64::MAX,
            _ => 0,
        })
        .collect();
    let as_distance = |d: u32| match d {
        UNREACHABLE => u64::MAX,
        d => u64::from(d),
    };
    let mut landmarks = Vec::new();
    while landmarks.len() < count {
        let (candidate, &distance) = nearest
            .iter()
            .enumerate()
            .max_by_key(|&(index, &d)| (d, Reverse(index)))
            .expect("maps are not empty");
        if distance == 0 {
            break;
        }
        let landmark = if distance == u64::MAX {
            // A region without a landmark: start from its far end, not its first anchor.
            let far = match shared
                .sweeper
                .column(candidate, Sweep::FromSource, &shared.progress)
            {
                Some(column) => farthest_reached(column.into_iter().map(as_distance)),
                None => farthest_reached(shared.sweeper.distances(candidate, Sweep::FromSource)),
            };
            far.unwrap_or(candidate)
        } else {
            candidate
        };
        let Some(column) = shared
            .sweeper
            .column(landmark, Sweep::FromSource, &shared.progress)
        else {
            shared.overflow.store(true, Ordering::Relaxed);
            return Vec::new();
        };
        for (near, &d) in nearest.iter_mut().zip(&column) {
            *near = (*near).min(as_distance(d));
        }
        nearest[landmark] = 0;
        let slot = landmarks.len();
        landmarks.push(landmark);
        if shared.to_landmark.is_some() {
            let sweep = Sweep::ToSource;
            let anchor = landmark;
            let task = Task::Sweep {
                slot,
                anchor,
                sweep,
            };
            dispatch(task);
        }
        let sweep = Sweep::FromSource;
        let task = Task::Store {
            slot,
            sweep,
            column,
        };
        dispatch(task);
    }
    landmarks
}

/// The reached anchor of the largest distance (lowest index on ties).
fn farthest_reached(distances: impl IntoIterator<Item = u64>) -> Option<usize> {
    distances
        .into_iter()
        .enumerate()
        .filter(|&(_, d)| d != u64::MAX)
        .max_by_key(|&(index, d)| (d, Reverse(index)))
        .map(|(index, _)| index)
}
