//! Worker threads for `request_path()`, `request_paths()`, `request_flow_field()` and
//! `request_movement_range()`: the work
//! runs off the main thread on a snapshot of the map, and results wait in a channel until the
//! node collects them on the main thread (Godot objects and signals stay on the main thread).
#![forbid(unsafe_code)]

use clearance_core::{
    Cell, FlowField, FlowFieldOptions, MovementRange, OtherUnits, PathCode, PathMap, PathQuery,
    PathResult, RangeError, RangeOptions, SearchMode, UnitId,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
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
}

/// A flow field to build, with everything it needs to cross to a worker thread.
#[derive(Debug, Clone)]
pub struct FieldOrder {
    pub goals: Vec<Cell>,
    pub agent_size: i64,
    pub profile: String,
    pub options: FlowFieldOptions,
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
    },
    /// The range, or why the core refused it, with the order that asked for it.
    Range {
        order: RangeOrder,
        range: Box<Result<MovementRange, RangeError>>,
    },
}

/// A fixed set of threads taking jobs from one queue.
pub struct Workers {
    jobs: Option<Sender<Job>>,
    finished: Receiver<Finished>,
    /// Set when the pool shuts down: workers drop the rest of their batch.
    stopping: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
    /// The thread count asked for (the pool may hold fewer).
    requested: usize,
}

impl Workers {
    /// Starts `count` threads (at least one), or fewer if the system refuses some; `None` if
    /// it refuses all.
    pub fn start(count: usize) -> Option<Self> {
        let (job_sender, job_receiver) = channel::<Job>();
        let (finished_sender, finished) = channel();
        let queue = Arc::new(Mutex::new(job_receiver));
        let stopping = Arc::new(AtomicBool::new(false));
        let threads = (0..count.max(1))
            .map(|index| {
                let queue = Arc::clone(&queue);
                let finished = finished_sender.clone();
                let stopping = Arc::clone(&stopping);
                std::thread::Builder::new()
                    .name(format!("clearance-pathfinder-{index}"))
                    .spawn(move || work(&queue, &finished, &stopping))
                    .ok()
            })
            .collect::<Vec<_>>();
        let threads: Vec<JoinHandle<()>> = threads.into_iter().flatten().collect();
        if threads.is_empty() {
            return None;
        }
        Some(Workers {
            jobs: Some(job_sender),
            finished,
            stopping,
            threads,
            requested: count.max(1),
        })
    }

    /// The number of threads the pool was started with.
    pub fn requested(&self) -> usize {
        self.requested
    }

    /// Queues a job; returns `false` if the workers are gone (a worker panicked and the queue
    /// closed), in which case the job is dropped.
    pub fn submit(&self, job: Job) -> bool {
        self.jobs
            .as_ref()
            .is_some_and(|jobs| jobs.send(job).is_ok())
    }

    /// The requests finished since the last call, in the order they finished.
    pub fn collect(&self) -> Vec<Finished> {
        self.finished.try_iter().collect()
    }
}

impl Drop for Workers {
    /// Stops the threads and waits for them, so that none outlives the extension library: a
    /// query already running finishes, the rest of its batch and the queued jobs are dropped.
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Relaxed);
        self.jobs = None;
        for thread in self.threads.drain(..) {
            // A worker that panicked has nothing left to clean up.
            let _ = thread.join();
        }
    }
}

fn work(queue: &Mutex<Receiver<Job>>, finished: &Sender<Finished>, stopping: &AtomicBool) {
    loop {
        let job = {
            let queue = queue.lock().unwrap_or_else(PoisonError::into_inner);
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let outcome = match job.work {
            Work::Paths { queries, single } => {
                let mut results = Vec::with_capacity(queries.len());
                for query in &queries {
                    if stopping.load(Ordering::Relaxed) {
                        return;
                    }
                    results.push((job.map.query(&query.as_query()), query.agent_size));
                }
                Outcome::Paths { results, single }
            }
            Work::Field(order) => {
                let field = Box::new(order.build(&job.map));
                Outcome::Field { order, field }
            }
            Work::Range(order) => {
                let range = Box::new(order.build(&job.map));
                Outcome::Range { order, range }
            }
        };
        let done = Finished {
            id: job.id,
            outcome,
        };
        if finished.send(done).is_err() {
            return;
        }
    }
}
