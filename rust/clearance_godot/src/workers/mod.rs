//! Worker threads for `request_path()`, `request_paths()`, `request_flow_field()`,
//! `request_movement_range()` and `request_paths_to_slots()`: the work
//! runs off the main thread on a snapshot of the map, and results wait in a channel until the
//! node collects them on the main thread (Godot objects and signals stay on the main thread).
//!
//! Each worker's searches use its thread's search memory (the core keeps it per thread). The
//! workers publish how much they hold after every job, and a trim wakes the idle ones, so the
//! node can report and give back that memory without waiting for more requests.
//!
//! A cancelled request gives its worker back: a job no worker has started leaves the queue
//! (and with it its snapshot of the map, which a later edit would otherwise have to copy
//! round), and a batch of queries that is running stops before its next query. A single search,
//! flow field, range or group order that is running finishes; its answer is dropped.
//!
//! A job that panics (a bug in the pathfinder, never an outcome of input) is caught: its
//! request finishes as [`Outcome::Failed`], which the node answers with `request_failed`
//! (code that listens for it as well as for the request's own signal never waits forever),
//! and the worker goes on with the next job.
#![forbid(unsafe_code)]

use clearance_core::{
    Cell, FlowField, FlowFieldOptions, MovementRange, OtherUnits, PathCode, PathMap, PathQuery,
    PathResult, RangeError, RangeOptions, SearchMode, SlotPath, SlotPathOptions, SlotRequest,
    Smoothing, UnitError, UnitId,
};
use std::any::Any;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// A query that owns its profile name and unit ids, so it can cross to a worker thread. The
/// map it runs on (the [`Job`]'s) is the snapshot taken when the request was made, occupancy
/// included: units moved after the request do not change its answer.
#[derive(Debug, Clone)]
pub struct OwnedQuery {
    pub start: Cell,
    pub goal: Cell,
    pub agent_size: i64,
    pub profile: String,
    pub allow_partial_path: bool,
    pub max_expansions: Option<u64>,
    pub search: SearchMode,
    /// The node's `other_units` rule when the query was made.
    pub other_units: OtherUnits,
    pub moving_unit: Option<UnitId>,
    pub exempt_units: Vec<UnitId>,
    /// The node's `smoothing` when the query was made.
    pub smoothing: Smoothing,
}

impl OwnedQuery {
    pub fn as_query(&self) -> PathQuery<'_> {
        PathQuery {
            start: self.start,
            goal: self.goal,
            agent_size: self.agent_size,
            profile: &self.profile,
            allow_partial_path: self.allow_partial_path,
            max_expansions: self.max_expansions,
            search: self.search,
            other_units: self.other_units,
            moving_unit: self.moving_unit,
            exempt_units: &self.exempt_units,
            smoothing: self.smoothing,
        }
    }
}

/// One request: its id, the map version it was made against, and its work.
pub struct Job {
    pub id: i64,
    pub map: Arc<PathMap>,
    pub work: Work,
}

/// What a request asks for.
pub enum Work {
    /// Queries; `single` if from `request_path()` (one query, one result) rather than
    /// `request_paths()`.
    Paths {
        queries: Vec<OwnedQuery>,
        single: bool,
    },
    /// A flow field, from `request_flow_field()`.
    Field(FieldOrder),
    /// A movement range, from `request_movement_range()`.
    Range(RangeOrder),
    /// A group order sent to arrival slots, from `request_paths_to_slots()`.
    Slots(SlotsOrder),
    /// Panics on the worker: lets the tests show that a panicking job is answered.
    #[cfg(test)]
    Panic,
    /// Meets the test at `started`, then at `release`, then stops as a cancelled batch would
    /// if it was cancelled by then: lets the tests cancel a job while it runs.
    #[cfg(test)]
    Hold {
        started: Arc<std::sync::Barrier>,
        release: Arc<std::sync::Barrier>,
    },
}

/// A flow field to build, with everything it needs to cross to a worker thread.
#[derive(Debug, Clone)]
pub struct FieldOrder {
    pub goals: Vec<Cell>,
    pub agent_size: i64,
    pub profile: String,
    pub options: FlowFieldOptions,
    /// The node's `smoothing` when the field was asked for: its paths' waypoints.
    pub smoothing: Smoothing,
}

impl FieldOrder {
    /// Builds the field on `map`, or says which code refused it.
    pub fn build(&self, map: &PathMap) -> Result<FlowField, PathCode> {
        map.flow_field(
            &self.goals,
            self.agent_size,
            &self.profile,
            self.options.clone(),
        )
    }
}

/// A movement range to build, with everything it needs to cross to a worker thread: the
/// arguments as given (checked by the node) and the node's `other_units` rule of the moment.
#[derive(Debug, Clone)]
pub struct RangeOrder {
    pub start: Cell,
    pub agent_size: i64,
    pub profile: String,
    /// Movement points per turn, as given.
    pub budget: f64,
    pub options: RangeOptions,
    /// The node's `smoothing` when the range was asked for: its paths' waypoints.
    pub smoothing: Smoothing,
}

impl RangeOrder {
    /// Builds the range on `map`, or says why the core refused it.
    pub fn build(&self, map: &PathMap) -> Result<MovementRange, RangeError> {
        map.movement_range(
            self.start,
            self.agent_size,
            &self.profile,
            self.budget,
            &self.options,
        )
    }
}

/// A group order to send to arrival slots, with everything it needs to cross to a worker
/// thread: the members as given (checked by the node) and the node's settings of the moment.
#[derive(Debug, Clone)]
pub struct SlotsOrder {
    pub target: Cell,
    /// Per member: id, start, size and profile name.
    pub members: Vec<(UnitId, Cell, i64, String)>,
    pub options: SlotPathOptions,
}

impl SlotsOrder {
    /// Each member's slot and path on `map`, or why the core refused the order.
    pub fn send(&self, map: &PathMap) -> Result<Vec<SlotPath>, UnitError> {
        map.find_paths_to_slots(self.target, &slot_requests(&self.members), &self.options)
    }
}

/// The core's view of `members` (id, start, size, profile name), borrowing their names.
pub fn slot_requests(members: &[(UnitId, Cell, i64, String)]) -> Vec<SlotRequest<'_>> {
    (members.iter())
        .map(|(id, start, agent_size, profile)| SlotRequest {
            id: *id,
            start: *start,
            agent_size: *agent_size,
            profile,
        })
        .collect()
}

/// A finished request.
pub struct Finished {
    pub id: i64,
    pub outcome: Outcome,
}

/// What a finished request delivers.
pub enum Outcome {
    /// Each result with the agent size its query asked for (footprint centres need it).
    Paths {
        results: Vec<(PathResult, i64)>,
        single: bool,
    },
    /// The field, or the code that refused it, with the order that asked for it.
    Field {
        order: FieldOrder,
        field: Box<Result<FlowField, PathCode>>,
        /// The snapshot the field was built on (a smoothed field keeps it for its waypoints).
        map: Arc<PathMap>,
    },
    /// The range, or why the core refused it, with the order that asked for it.
    Range {
        order: RangeOrder,
        range: Box<Result<MovementRange, RangeError>>,
        /// The snapshot the range was built on (a smoothed range keeps it for its waypoints).
        map: Arc<PathMap>,
    },
    /// Each member's slot and path, or why the core refused the order, with the order.
    Slots {
        order: SlotsOrder,
        sent: Result<Vec<SlotPath>, UnitError>,
    },
    /// The work panicked (a bug in the pathfinder), or no pool could run it; why.
    Failed { message: String },
    /// The request was cancelled while its batch ran: the rest was not run. The node forgot the
    /// request when it was cancelled, so this is never delivered.
    Cancelled,
}

/// A fixed set of threads taking jobs from one queue.
pub struct Workers {
    shared: Arc<Shared>,
    finished: Receiver<Finished>,
    threads: Vec<JoinHandle<()>>,
    /// The thread count asked for (the pool may hold fewer).
    requested: usize,
}

/// What the pool and its threads share.
struct Shared {
    queue: Mutex<Queue>,
    /// Signalled when a job is queued, a trim is asked for, or the pool shuts down.
    wake: Condvar,
    /// Set when the pool shuts down: workers drop the rest of their batch.
    stopping: AtomicBool,
    /// Set when the pool is replaced: workers finish what they run, then leave.
    retiring: AtomicBool,
    /// Per worker: set when the request it runs is cancelled, cleared when it takes a job.
    cancel_running: Vec<AtomicBool>,
    /// Per worker: the bytes of search memory its thread held after its last job or trim.
    search_memory: Vec<AtomicUsize>,
    /// Workers still running (a panicking one leaves too).
    running: AtomicUsize,
}

/// The jobs waiting, the trims asked for so far (each worker trims once per trim), and the
/// request each worker runs.
struct Queue {
    jobs: VecDeque<Job>,
    trims: u64,
    /// Per worker: the id of the request it runs, if any. Written, like
    /// [`Shared::cancel_running`]'s flags when they are set or cleared, under the queue's lock, so
    /// that a cancel cannot mark a job the worker has already left for another one.
    running_request: Vec<Option<i64>>,
}

impl Shared {
    /// What `count` workers share, none of them running yet.
    fn new(count: usize) -> Self {
        Shared {
            queue: Mutex::new(Queue {
                jobs: VecDeque::new(),
                trims: 0,
                running_request: vec![None; count],
            }),
            wake: Condvar::new(),
            stopping: AtomicBool::new(false),
            retiring: AtomicBool::new(false),
            cancel_running: (0..count).map(|_| AtomicBool::new(false)).collect(),
            search_memory: (0..count).map(|_| AtomicUsize::new(0)).collect(),
            running: AtomicUsize::new(0),
        }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        // A worker that panicked holding the lock left the queue whole (pushes and pops only).
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Counts a worker out of [`Shared::running`] however it leaves, panics included.
struct Running<'a> {
    shared: &'a Shared,
    finished: &'a Sender<Finished>,
}

impl Drop for Running<'_> {
    /// Under the queue's lock, which [`Workers::submit`] holds from its check of `running` to
    /// its push: a job is queued only while a worker is left to take it, and the last worker
    /// to leave fails what is still queued (after a panic outside a job; a pool shutting
    /// down has emptied its queue or drops it), so that no request waits forever.
    fn drop(&mut self) {
        let mut queue = self.shared.queue();
        if self.shared.running.fetch_sub(1, Ordering::Relaxed) == 1 {
            for job in queue.jobs.drain(..) {
                let outcome = Outcome::Failed {
                    message: "every worker thread stopped before it ran".to_owned(),
                };
                // The pool may be gone, and its receiver with it: nothing waits then.
                let _ = self.finished.send(Finished {
                    id: job.id,
                    outcome,
                });
            }
        }
    }
}

impl Workers {
    /// Starts `count` threads (at least one), or fewer if the system refuses some; `None` if
    /// it refuses all.
    pub fn start(count: usize) -> Option<Self> {
        let count = count.max(1);
        let (finished_sender, finished) = channel();
        let shared = Arc::new(Shared::new(count));
        let threads = (0..count)
            .filter_map(|index| {
                let worker_shared = Arc::clone(&shared);
                let finished = finished_sender.clone();
                shared.running.fetch_add(1, Ordering::Relaxed);
                let started = std::thread::Builder::new()
                    .name(format!("clearance-pathfinder-{index}"))
                    .spawn(move || work(&worker_shared, index, &finished));
                if started.is_err() {
                    shared.running.fetch_sub(1, Ordering::Relaxed);
                }
                started.ok()
            })
            .collect::<Vec<_>>();
        if threads.is_empty() {
            return None;
        }
        Some(Workers {
            shared,
            finished,
            threads,
            requested: count,
        })
    }

    /// The number of threads the pool was started with.
    pub fn requested(&self) -> usize {
        self.requested
    }

    /// Queues a job, or hands it back if the workers are gone (every one stopped, which a
    /// job's panic does not do: see the module docs).
    pub fn submit(&self, job: Job) -> Result<(), Box<Job>> {
        let mut queue = self.shared.queue();
        // Read under the lock a leaving worker takes: see `Running`.
        if self.shared.running.load(Ordering::Relaxed) == 0 {
            return Err(Box::new(job));
        }
        queue.jobs.push_back(job);
        drop(queue);
        self.shared.wake.notify_one();
        Ok(())
    }

    /// Cancels request `id`: `true` if no worker had started it (it is dropped, and nothing
    /// will finish for it); `false` otherwise, and a worker running it stops before the next
    /// query of its batch (it then finishes as [`Outcome::Cancelled`]).
    pub fn cancel(&self, id: i64) -> bool {
        let mut queue = self.shared.queue();
        if let Some(at) = queue.jobs.iter().position(|job| job.id == id) {
            let job = queue.jobs.remove(at);
            drop(queue);
            // The snapshot goes after the lock: the last reference frees the map's copy.
            drop(job);
            return true;
        }
        for (worker, running) in queue.running_request.iter().enumerate() {
            if *running == Some(id) {
                self.shared.cancel_running[worker].store(true, Ordering::Relaxed);
            }
        }
        false
    }

    /// Bytes of search memory the worker threads hold, as of each one's last job or trim.
    pub fn search_memory_bytes(&self) -> usize {
        (self.shared.search_memory.iter())
            .map(|bytes| bytes.load(Ordering::Relaxed))
            .sum()
    }

    /// Asks every worker to give back its search memory: an idle one does at once, a busy one
    /// when its job is done.
    pub fn trim_search_memory(&self) {
        self.shared.queue().trims += 1;
        self.shared.wake.notify_all();
    }

    /// The requests finished since the last call, in the order they finished.
    pub fn collect(&self) -> Vec<Finished> {
        self.finished.try_iter().collect()
    }

    /// Stops the pool without losing work, for a pool of another size to take over: the jobs
    /// no worker has started are handed back, the ones running finish (whole batches), and
    /// every request finished and not yet collected comes back with them.
    pub fn retire(mut self) -> (Vec<Finished>, Vec<Job>) {
        let unstarted = self.shut_down(|shared, queue| {
            shared.retiring.store(true, Ordering::Relaxed);
            queue.jobs.drain(..).collect()
        });
        (self.collect(), unstarted)
    }

    /// Runs `signal` under the queue's lock (so that no worker misses the wake-up between its
    /// check and its wait), wakes every worker and waits for all of them to leave; returns
    /// what `signal` returned.
    fn shut_down<T>(&mut self, signal: impl FnOnce(&Shared, &mut Queue) -> T) -> T {
        let signalled = signal(&self.shared, &mut self.shared.queue());
        self.shared.wake.notify_all();
        for thread in self.threads.drain(..) {
            // A worker that panicked has nothing left to hand back or clean up.
            let _ = thread.join();
        }
        signalled
    }
}

impl Drop for Workers {
    /// Stops the threads and waits for them, so that none outlives the extension library: a
    /// query already running finishes, the rest of its batch and the queued jobs are dropped.
    fn drop(&mut self) {
        self.shut_down(|shared, _| shared.stopping.store(true, Ordering::Relaxed));
    }
}

/// What a worker does next.
enum Next {
    Run(Job),
    Trim,
    Stop,
}

/// Waits for the next thing to do; `worker` is this worker's index, `trims_done` the trims
/// it has done.
fn next(shared: &Shared, worker: usize, trims_done: &mut u64) -> Next {
    let mut queue = shared.queue();
    queue.running_request[worker] = None;
    loop {
        if shared.stopping.load(Ordering::Relaxed) {
            return Next::Stop;
        }
        if queue.trims != *trims_done {
            *trims_done = queue.trims;
            return Next::Trim;
        }
        if let Some(job) = queue.jobs.pop_front() {
            queue.running_request[worker] = Some(job.id);
            shared.cancel_running[worker].store(false, Ordering::Relaxed);
            return Next::Run(job);
        }
        if shared.retiring.load(Ordering::Relaxed) {
            return Next::Stop;
        }
        queue = shared
            .wake
            .wait(queue)
            .unwrap_or_else(PoisonError::into_inner);
    }
}

fn work(shared: &Shared, index: usize, finished: &Sender<Finished>) {
    let _running = Running { shared, finished };
    let stopping = &shared.stopping;
    let publish_search_memory = || {
        shared.search_memory[index].store(PathMap::thread_search_memory_bytes(), Ordering::Relaxed)
    };
    let mut trims_done = 0;
    loop {
        let job = match next(shared, index, &mut trims_done) {
            Next::Run(job) => job,
            Next::Trim => {
                PathMap::trim_thread_search_memory();
                publish_search_memory();
                continue;
            }
            Next::Stop => return,
        };
        let Job { id, map, work } = job;
        let cancelled = &shared.cancel_running[index];
        let stop = || {
            if stopping.load(Ordering::Relaxed) {
                Some(Stop::Pool)
            } else if cancelled.load(Ordering::Relaxed) {
                Some(Stop::Request)
            } else {
                None
            }
        };
        let outcome = match catch_unwind(AssertUnwindSafe(|| run(work, map, stop))) {
            Ok(Some(outcome)) => outcome,
            // The pool is shutting down: the rest of the batch is dropped.
            Ok(None) => return,
            Err(panic) => {
                // The search memory may hold a search cut short: start the next job afresh.
                PathMap::trim_thread_search_memory();
                Outcome::Failed {
                    message: format!(
                        "its work panicked inside the pathfinder (a bug; please report it): {}",
                        panic_message(panic.as_ref())
                    ),
                }
            }
        };
        publish_search_memory();
        let done = Finished { id, outcome };
        if finished.send(done).is_err() {
            return;
        }
    }
}

/// Why a batch stops before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// The pool shuts down: the worker leaves.
    Pool,
    /// The request was cancelled: the worker goes on with the next job.
    Request,
}

/// Does `work` on `map`, asking `stop` before each query of a batch; `None` if the pool
/// started shutting down during a batch.
fn run(work: Work, map: Arc<PathMap>, stop: impl Fn() -> Option<Stop>) -> Option<Outcome> {
    Some(match work {
        Work::Paths { queries, single } => {
            let mut results = Vec::with_capacity(queries.len());
            for query in &queries {
                match stop() {
                    Some(Stop::Pool) => return None,
                    Some(Stop::Request) => return Some(Outcome::Cancelled),
                    None => {}
                }
                results.push((map.query(&query.as_query()), query.agent_size));
            }
            Outcome::Paths { results, single }
        }
        Work::Field(order) => {
            let field = Box::new(order.build(&map));
            Outcome::Field { order, field, map }
        }
        Work::Range(order) => {
            let range = Box::new(order.build(&map));
            Outcome::Range { order, range, map }
        }
        Work::Slots(order) => {
            let sent = order.send(&map);
            Outcome::Slots { order, sent }
        }
        #[cfg(test)]
        Work::Panic => panic!("a job made to panic"),
        #[cfg(test)]
        Work::Hold { started, release } => {
            started.wait();
            release.wait();
            match stop() {
                Some(Stop::Request) => Outcome::Cancelled,
                _ => Outcome::Paths {
                    results: Vec::new(),
                    single: false,
                },
            }
        }
    })
}

/// What a caught panic said, when it said it with a string (as `panic!` does).
fn panic_message(panic: &(dyn Any + Send)) -> String {
    if let Some(message) = panic.downcast_ref::<&str>() {
        (*message).to_owned()
    } else if let Some(message) = panic.downcast_ref::<String>() {
        message.clone()
    } else {
        "a panic without a message".to_owned()
    }
}

#[cfg(test)]
mod tests;
