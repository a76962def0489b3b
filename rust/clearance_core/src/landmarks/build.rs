//! Building a landmark table: placement, and the sweeps spread over several threads.
//!
//! A table needs one sweep per landmark and stored direction (two directions where steps
//! cost differently each way). Farthest-point placement is a chain: each landmark is the
//! anchor farthest from those before it, so its forward sweep must finish before the next
//! landmark is known. The calling thread runs that chain; helper threads take every other
//! task as soon as it exists: a landmark's backward sweep as soon as the landmark is chosen
//! (it needs nothing of the forward one), the forward sweep of the last landmark (no landmark
//! is placed from it), and storing finished columns into the interleaved table. Given
//! landmarks have no chain, and every thread takes sweeps.
//!
//! The tables are built in the pages they are kept in, and finished columns are written
//! [`STORE_GROUP`] at a time: an anchor's slots share a cache line, so one pass per column
//! would read and write the whole table once per landmark.
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
use crate::map::MAX_THREADS;
use crate::paged::{PagedVec, PAGE_LEN};
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

/// How many finished columns of one table are written in one pass over it. Each slot of an
/// anchor lies in the same cache line as its other slots, so writing columns one at a time
/// would read and write every line of a table as large as the map once per column.
const STORE_GROUP: usize = 4;

/// One table being built, in the pages it will be kept in (the first write to each copies
/// it out of the one page they all share at the start), and the finished columns not yet
/// written into it.
struct TableInProgress {
    table: Mutex<PagedVec<u32>>,
    pending: Mutex<Vec<(usize, Vec<u32>)>>,
}

impl TableInProgress {
    fn new(len: usize) -> Self {
        TableInProgress {
            table: Mutex::new(PagedVec::filled(UNREACHABLE, len)),
            pending: Mutex::new(Vec::new()),
        }
    }
}

/// What every thread of one build shares.
struct Shared<'a> {
    sweeper: Sweeper<'a>,
    progress: Progress<'a>,
    /// Slots per anchor in the tables.
    stride: usize,
    from_landmark: TableInProgress,
    to_landmark: Option<TableInProgress>,
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

    fn table(&self, sweep: Sweep) -> &TableInProgress {
        match sweep {
            Sweep::FromSource => &self.from_landmark,
            Sweep::ToSource => self.to_landmark.as_ref().expect("asymmetric tables"),
        }
    }

    /// Queues `column` for its table, and writes the queued columns once there are
    /// [`STORE_GROUP`] of them.
    fn store(&self, slot: usize, sweep: Sweep, column: Vec<u32>) {
        let target = self.table(sweep);
        let group = {
            let mut pending = target
                .pending
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            pending.push((slot, column));
            if pending.len() < STORE_GROUP {
                return;
            }
            std::mem::take(&mut *pending)
        };
        {
            let mut table = target.table.lock().unwrap_or_else(PoisonError::into_inner);
            let pages: Vec<&mut [u32]> = table.pages_mut().collect();
            write_columns(pages, 0, self.stride, &group);
        }
        if let Some(spare) = self.sweeper.spare {
            for (_, column) in group {
                spare.give(column);
            }
        }
    }

    /// Writes every column still queued, the pages shared out over `threads` threads.
    fn flush(&self, threads: usize) {
        for target in std::iter::once(&self.from_landmark).chain(&self.to_landmark) {
            let group = std::mem::take(
                &mut *target
                    .pending
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner),
            );
            if group.is_empty() {
                continue;
            }
            let mut table = target.table.lock().unwrap_or_else(PoisonError::into_inner);
            let mut pages: Vec<&mut [u32]> = table.pages_mut().collect();
            let share = pages.len().div_ceil(threads.max(1)).max(1);
            // The parts wait in a queue that every thread, the calling one too, takes from, so
            // a helper the system refuses to start leaves no part unwritten.
            let mut parts = Vec::new();
            let mut first_page = 0;
            while !pages.is_empty() {
                let rest = pages.split_off(share.min(pages.len()));
                let part = std::mem::replace(&mut pages, rest);
                let first_anchor = first_page * PAGE_LEN / self.stride;
                first_page += part.len();
                parts.push((first_anchor, part));
            }
            let parts = Mutex::new(parts);
            let write = || loop {
                let next = parts.lock().unwrap_or_else(PoisonError::into_inner).pop();
                let Some((first_anchor, part)) = next else {
                    return;
                };
                write_columns(part, first_anchor, self.stride, &group);
            };
            std::thread::scope(|scope| {
                for _ in 1..threads {
                    // A refused helper is no loss: the others and the calling thread write.
                    let _ = std::thread::Builder::new().spawn_scoped(scope, write);
                }
                write();
            });
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
    /// calling one among them; 0 counts as 1, and a count above [`MAX_THREADS`] as
    /// that), reporting to `progress`. Distances are in the graph's cost units (see
    /// `AnchorGraph::cost_unit`), which every size of the profile shares. Returns `None` if no landmark can be placed, if every step is free, or if some
    /// distance does not fit the 32-bit storage (on paths of millions of steps, or of a few
    /// where the dearest multiplier is millions of times the graph's cost unit).
    pub fn build(
        graph: &AnchorGraph,
        width: usize,
        placement: &LandmarkPlacement,
        given: &[usize],
        threads: usize,
        progress: LandmarkProgressFn,
    ) -> Option<Self> {
        let threads = threads.clamp(1, MAX_THREADS);
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
            stride: stride_for(count),
            from_landmark: TableInProgress::new(cells * stride_for(count)),
            to_landmark: (!symmetric).then(|| TableInProgress::new(cells * stride_for(count))),
            overflow: AtomicBool::new(false),
        };
        let (sender, receiver) = channel();
        let receiver = Mutex::new(receiver);
        let landmarks = std::thread::scope(|scope| {
            // A helper the system refuses to start is one fewer; without any, the calling
            // thread runs every task itself.
            let helpers = (1..threads)
                .filter(|_| {
                    let helper = || shared.work(&receiver);
                    std::thread::Builder::new()
                        .spawn_scoped(scope, helper)
                        .is_ok()
                })
                .count();
            let landmarks = match placement {
                LandmarkPlacement::Farthest(count) => {
                    // Alone, the calling thread runs each task at once rather than queue
                    // columns it would store only after the last sweep.
                    let dispatch = |task: Task| match helpers > 0 {
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
        if landmarks.is_empty() || shared.overflow.load(Ordering::Relaxed) {
            shared.progress.finish();
            return None;
        }
        shared.flush(threads);
        shared.progress.finish();
        // Fewer landmarks than asked for may fit a narrower stride.
        let (built_stride, stride) = (shared.stride, stride_for(landmarks.len()));
        let take = |target: TableInProgress| {
            let table = (target.table.into_inner()).unwrap_or_else(PoisonError::into_inner);
            lay_out(table, built_stride, landmarks.len(), stride)
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

/// Writes `columns` (slot, distances of every anchor) into `pages`, consecutive pages of a
/// table with `stride` slots per anchor whose first anchor is `first_anchor`, in one pass.
fn write_columns(
    pages: Vec<&mut [u32]>,
    first_anchor: usize,
    stride: usize,
    columns: &[(usize, Vec<u32>)],
) {
    let mut anchor = first_anchor;
    for page in pages {
        for slots in page.chunks_exact_mut(stride) {
            for (slot, column) in columns {
                slots[*slot] = column[anchor];
            }
            anchor += 1;
        }
    }
}

/// `table`, with `stride` slots per anchor, laid out with `used` of them per anchor
/// followed by unused ones up to `new_stride`.
fn lay_out(table: PagedVec<u32>, stride: usize, used: usize, new_stride: usize) -> PagedVec<u32> {
    if stride == new_stride {
        return table;
    }
    let unused = std::iter::repeat_n(UNREACHABLE, new_stride - used);
    let slots = table.to_vec();
    slots
        .chunks_exact(stride)
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
/// first anchor. Forward columns are stored, and backward sweeps and the last forward one
/// run, by `dispatch`. Returns the landmarks in order (empty if a distance does not fit the
/// storage).
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
        let slot = landmarks.len();
        landmarks.push(landmark);
        let sweep_elsewhere = |sweep: Sweep| {
            let anchor = landmark;
            dispatch(Task::Sweep {
                slot,
                anchor,
                sweep,
            })
        };
        // The backward sweep needs only the landmark: it runs beside the forward one.
        if shared.to_landmark.is_some() {
            sweep_elsewhere(Sweep::ToSource);
        }
        if landmarks.len() == count {
            // No landmark is placed from the last forward column: any thread may sweep it.
            sweep_elsewhere(Sweep::FromSource);
            break;
        }
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
