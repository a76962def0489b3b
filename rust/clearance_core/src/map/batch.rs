//! Many queries at once, on several threads that share one map version.

use super::queries::with_thread_scratch;
use super::queries::GivenLandmarks;
use super::PathMap;
use crate::query::PathQuery;
use crate::result::PathResult;
use crate::search::SearchScratch;

/// The most threads one call starts (a batch of queries, a landmark build); a larger count
/// counts as this. Past the cores of any machine this runs on, more threads only wait for
/// each other while each holds its own search memory, and a count from a caller's bug must
/// not try to start millions.
pub const MAX_THREADS: usize = 64;

impl PathMap {
    /// Answers many queries on `threads` threads (at least one, at most [`MAX_THREADS`] and
    /// one per query; the calling thread is one of them), each with its own scratch; results
    /// come back in the order of `queries`. Every query sees this same map version. If the
    /// system refuses to start a thread, the others (at least the calling one) answer its
    /// share.
    pub fn query_batch(&self, queries: &[PathQuery<'_>], threads: usize) -> Vec<PathResult> {
        self.query_batch_guided(queries, threads, None)
    }

    /// [`query_batch`](Self::query_batch), every query with `landmarks` for its heuristic
    /// instead of its profile's own table (see `query_guided`).
    pub(super) fn query_batch_guided(
        &self,
        queries: &[PathQuery<'_>],
        threads: usize,
        landmarks: Option<GivenLandmarks<'_>>,
    ) -> Vec<PathResult> {
        let threads = threads.clamp(1, queries.len().clamp(1, MAX_THREADS));
        // A scratch keeps views of other units for the last few agent sizes only: queries are
        // answered grouped by size (each in its place in the result all the same), so that
        // many sizes in one batch do not take turns evicting each other's views.
        let mut order: Vec<usize> = (0..queries.len()).collect();
        order.sort_by_key(|&index| queries[index].agent_size);
        // Threads take the next unanswered query, so slow queries do not hold up a share.
        let next = std::sync::atomic::AtomicUsize::new(0);
        let answer = |scratch: &mut SearchScratch| {
            let mut answered = Vec::new();
            loop {
                let taken = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&index) = order.get(taken) else {
                    return answered;
                };
                let query = &queries[index];
                answered.push((index, self.query_guided(scratch, query, landmarks)));
            }
        };
        let mut answered: Vec<(usize, PathResult)> = if threads == 1 {
            with_thread_scratch(|scratch| answer(scratch))
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads)
                    .filter_map(|_| {
                        let helper = || answer(&mut SearchScratch::new());
                        std::thread::Builder::new().spawn_scoped(scope, helper).ok()
                    })
                    .collect();
                // The calling thread keeps its own scratch, warm from earlier queries.
                let mut all = with_thread_scratch(|scratch| answer(scratch));
                for helper in helpers {
                    match helper.join() {
                        Ok(answers) => all.extend(answers),
                        Err(panic) => std::panic::resume_unwind(panic),
                    }
                }
                all
            })
        };
        answered.sort_unstable_by_key(|&(index, _)| index);
        answered.into_iter().map(|(_, result)| result).collect()
    }
}
