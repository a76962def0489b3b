//! How far a landmark build has come, reported while it runs.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

/// How far a landmark build has come: `done` of `total` units of work, one unit per anchor a
/// Dijkstra sweep settles. `total` is planned before the first sweep (every sweep counted as
/// large as the largest connected region), so `done` may stop short of it until the last
/// report, which always has `done == total`. Reports never go backwards, and a build with
/// no work to do reports nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LandmarkProgress {
    /// Units of work done so far.
    pub done: u64,
    /// Units of work planned.
    pub total: u64,
}

impl LandmarkProgress {
    /// `done / total`, from 0 to 1 (1 for an empty build).
    pub fn fraction(&self) -> f64 {
        if self.total == 0 {
            1.0
        } else {
            self.done as f64 / self.total as f64
        }
    }
}

/// The receiver of a build's progress reports; may be called from any thread of the build.
pub type LandmarkProgressFn<'a> = &'a (dyn Fn(LandmarkProgress) + Sync);

/// Counts settled anchors across the threads of one build and reports them in order.
pub(super) struct Progress<'a> {
    done: AtomicU64,
    total: u64,
    report: LandmarkProgressFn<'a>,
    /// The last `done` reported; reports are made under this lock so they stay in order.
    reported: Mutex<u64>,
}

impl<'a> Progress<'a> {
    pub fn new(total: u64, report: LandmarkProgressFn<'a>) -> Self {
        Progress {
            done: AtomicU64::new(0),
            total,
            report,
            reported: Mutex::new(0),
        }
    }

    /// Records `settled` more anchors settled.
    pub fn advance(&self, settled: u64) {
        let done = (self.done.fetch_add(settled, Ordering::Relaxed) + settled).min(self.total);
        self.report_up_to(done);
    }

    /// Reports the build complete.
    pub fn finish(&self) {
        self.report_up_to(self.total);
    }

    fn report_up_to(&self, done: u64) {
        let mut reported = self.reported.lock().unwrap_or_else(PoisonError::into_inner);
        if done > *reported {
            *reported = done;
            (self.report)(LandmarkProgress {
                done,
                total: self.total,
            });
        }
    }
}
