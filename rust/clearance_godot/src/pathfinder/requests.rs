//! Requests on the worker pool: handing work to the workers, starting or replacing the pool,
//! and delivering finished requests as signals on the main thread.
#![forbid(unsafe_code)]

use super::errors::pathfinder_error;
use super::queries::AnswerStyle;
use super::ClearancePathfinder;
use crate::workers::{Finished, Job, Outcome, Work, Workers};
use godot::classes::Os;
use godot::prelude::*;
use std::sync::Arc;

impl ClearancePathfinder {
    /// Hands `work` to the workers against the current map version (terrain, profiles and
    /// units, shared copy-on-write: later edits and moves copy the map rather than change
    /// this snapshot); returns the request id, or -1 (with an error) if the workers cannot
    /// take it.
    pub(super) fn submit(&mut self, work: Work) -> i64 {
        let id = self.next_request_id;
        self.next_request_id += 1;
        let job = Job {
            id,
            map: Arc::clone(&self.map),
            work,
        };
        if !self.hand_to_workers(job) {
            return -1;
        }
        let style = self.answer_style();
        self.pending.insert(id, style);
        self.process_while_requests_run();
        id
    }

    /// Queues `job` on the pool, starting or replacing the pool as needed; `false` (with an
    /// error) if no pool can take it.
    fn hand_to_workers(&mut self, job: Job) -> bool {
        if !self.start_workers(false) {
            return false;
        }
        let Some(workers) = &self.workers else {
            return false;
        };
        let Err(job) = workers.submit(job) else {
            return true;
        };
        // Every worker stopped (a job's panic does not do that): a new pool takes over what
        // the old one finished or had not started, and this job.
        pathfinder_error!(node, "the worker threads stopped; restarting them");
        if !self.start_workers(true) {
            return false;
        }
        (self.workers.as_ref()).is_some_and(|workers| workers.submit(*job).is_ok())
    }

    /// Makes sure a pool of `worker_thread_count` threads is running, replacing one of another
    /// size (or, if `replace`, any); `false` (with an error) if the system refuses to start
    /// threads.
    fn start_workers(&mut self, replace: bool) -> bool {
        let count = self.resolved_worker_count();
        if !replace && (self.workers.as_ref()).is_some_and(|workers| workers.requested() == count) {
            return true;
        }
        // Replacing the pool loses no request (see `worker_thread_count`): what the old one
        // finished is delivered with the next frame's, and what it had not started moves over.
        let (finished, unstarted) = match self.workers.take() {
            Some(old) => old.retire(),
            None => (Vec::new(), Vec::new()),
        };
        self.retired.extend(finished);
        self.workers = Workers::start(count);
        let Some(workers) = &self.workers else {
            pathfinder_error!(
                node,
                "the system refused to start worker threads; the request was not made{}",
                if unstarted.is_empty() {
                    ""
                } else {
                    ", and the queued ones get request_failed"
                }
            );
            for job in unstarted {
                self.fail_next_frame(job.id, "the system refused to start worker threads");
            }
            return false;
        };
        let refused: Vec<i64> = (unstarted.into_iter())
            .filter_map(|job| workers.submit(job).err().map(|job| job.id))
            .collect();
        for id in refused {
            self.fail_next_frame(id, "the worker threads stopped");
        }
        true
    }

    /// Answers the pending request `id` with `request_failed` in the next frame's delivery:
    /// no pool can run it.
    fn fail_next_frame(&mut self, id: i64, why: &str) {
        let message = format!("{why}; the request was not run");
        self.retired.push(Finished {
            id,
            outcome: Outcome::Failed { message },
        });
    }

    /// The thread count `worker_thread_count` asks for: itself, or for 0 one fewer than the
    /// machine's processors (at least 1).
    pub(super) fn resolved_worker_count(&self) -> usize {
        match usize::try_from(self.worker_thread_count) {
            Ok(count) if count > 0 => count,
            _ => {
                let processors =
                    usize::try_from(Os::singleton().get_processor_count()).unwrap_or(1);
                processors.saturating_sub(1).max(1)
            }
        }
    }

    /// Emits the signals of the requests the workers have finished.
    pub(super) fn deliver_finished_requests(&mut self) {
        // First what a replaced pool finished, then the current pool's.
        let mut finished = std::mem::take(&mut self.retired);
        if let Some(workers) = &self.workers {
            finished.extend(workers.collect());
        }
        for done in finished {
            // A request missing from `pending` was cancelled.
            match self.pending.remove(&done.id) {
                Some(style) => self.emit_finished(done, style),
                None => {
                    self.cancelled.remove(&done.id);
                }
            }
        }
        self.process_while_requests_run();
    }

    /// Internal processing (which delivers) on while a request is pending or a cancelled one
    /// still runs: a cancelled flow field or range is dropped as soon as it finishes, not
    /// held until some later request is delivered.
    pub(super) fn process_while_requests_run(&mut self) {
        let running = !self.pending.is_empty() || !self.cancelled.is_empty();
        self.base_mut().set_process_internal(running);
    }

    /// Emits `path_found`, `paths_found` (for `request_paths()` and `request_paths_to_slots()`),
    /// `flow_field_ready` or `movement_range_ready` for a finished request.
    fn emit_finished(&mut self, done: Finished, style: AnswerStyle) {
        match done.outcome {
            Outcome::Paths { results, single } if single => {
                let result = results
                    .first()
                    .map(|(result, size)| self.writer_for(style).dictionary(result, *size))
                    .unwrap_or_default();
                self.signals().path_found().emit(done.id, &result);
            }
            Outcome::Paths { results, .. } => {
                let results: Vec<Variant> = results
                    .iter()
                    .map(|(result, size)| {
                        self.writer_for(style)
                            .dictionary(result, *size)
                            .to_variant()
                    })
                    .collect();
                self.signals()
                    .paths_found()
                    .emit(done.id, &VarArray::from(results.as_slice()));
            }
            Outcome::Field { order, field, map } => {
                let field = self.field_object(*field, order, &map, style);
                self.signals().flow_field_ready().emit(done.id, &field);
            }
            Outcome::Range { order, range, map } => {
                let writer = self.writer_for(style);
                let range =
                    self.range_object("request_movement_range", *range, order, &map, &writer);
                self.signals()
                    .movement_range_ready()
                    .emit(done.id, range.as_ref());
            }
            Outcome::Failed { message } => {
                pathfinder_error!(node, "request {} failed: {message}", done.id);
                self.signals()
                    .request_failed()
                    .emit(done.id, &GString::from(message.as_str()));
            }
            // Only a cancelled request's batch ends so, and the node forgot the request when
            // it was cancelled: nothing is waiting for it.
            Outcome::Cancelled => {}
            Outcome::Slots { order, sent } => {
                let results: Vec<Variant> = match sent {
                    Ok(sent) => (self
                        .slot_order_dictionaries(&sent, &order.members, &self.writer_for(style))
                        .iter())
                    .map(ToGodot::to_variant)
                    .collect(),
                    // Checked when asked, on the map the worker searched: not expected.
                    Err(error) => {
                        pathfinder_error!("request_paths_to_slots", "{error}; no paths");
                        Vec::new()
                    }
                };
                self.signals()
                    .paths_found()
                    .emit(done.id, &VarArray::from(results.as_slice()));
            }
        }
    }
}
