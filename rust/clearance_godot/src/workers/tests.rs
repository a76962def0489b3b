//! The worker pool's tests: answers, panics, leaving workers and cancelled requests.

use super::*;
use clearance_core::{AgentProfile, Region, TerrainGrid};
use std::time::Duration;

/// A 16 x 16 map of open ground with the profile "walker".
fn open_map() -> Arc<PathMap> {
    let grid = TerrainGrid::new(Region::new(0, 0, 16, 16), 0).expect("a valid region");
    let mut map = PathMap::new(grid);
    let walker = AgentProfile::new("walker").with_terrain(0, 1.0);
    map.set_profile(walker.expect("a valid multiplier"))
        .expect("a new profile");
    Arc::new(map)
}

fn path_job(id: i64, map: &Arc<PathMap>) -> Job {
    let query = OwnedQuery {
        start: Cell::new(0, 0),
        goal: Cell::new(9, 4),
        agent_size: 1,
        profile: "walker".to_owned(),
        allow_partial_path: false,
        max_expansions: None,
        search: SearchMode::default(),
        other_units: OtherUnits::default(),
        moving_unit: None,
        exempt_units: Vec::new(),
        smoothing: Smoothing::default(),
    };
    Job {
        id,
        map: Arc::clone(map),
        work: Work::Paths {
            queries: vec![query],
            single: true,
        },
    }
}

/// The next request `workers` finish, waiting for it (a test that hangs fails).
fn next_finished(workers: &Workers) -> Finished {
    (workers.finished)
        .recv_timeout(Duration::from_secs(60))
        .expect("a request finishes")
}

#[test]
fn a_job_that_panics_is_answered_and_its_worker_goes_on() {
    let map = open_map();
    let workers = Workers::start(1).expect("a thread");
    for id in [1, 3] {
        let panics = Job {
            id,
            map: Arc::clone(&map),
            work: Work::Panic,
        };
        assert!(workers.submit(panics).is_ok());
        assert!(workers.submit(path_job(id + 1, &map)).is_ok());
    }
    for id in 1..=4 {
        let done = next_finished(&workers);
        assert_eq!(done.id, id, "one worker answers in order");
        match done.outcome {
            Outcome::Failed { message } if id % 2 == 1 => {
                assert!(message.ends_with(": a job made to panic"), "{message}");
            }
            Outcome::Paths { results, single } if id % 2 == 0 => {
                assert!(single);
                assert_eq!(results[0].0.code, PathCode::Ok);
                assert_eq!(results[0].0.path.len(), 10);
            }
            _ => panic!("request {id} got the wrong outcome"),
        }
    }
    assert_eq!(workers.shared.running.load(Ordering::Relaxed), 1);
}

#[test]
fn the_last_worker_to_leave_fails_what_is_queued_and_the_pool_takes_no_more() {
    let map = open_map();
    let (sender, receiver) = channel();
    let shared = Arc::new(Shared::new(2));
    shared.running.store(2, Ordering::Relaxed);
    shared.queue().jobs.push_back(path_job(7, &map));
    let leave = || {
        drop(Running {
            shared: &shared,
            finished: &sender,
        })
    };
    leave();
    assert!(
        receiver.try_recv().is_err(),
        "one worker is left to run the job"
    );
    leave();
    let done = receiver.try_recv().expect("the queued job is answered");
    assert_eq!(done.id, 7);
    assert!(matches!(done.outcome, Outcome::Failed { .. }));
    assert!(shared.queue().jobs.is_empty());
    let workers = Workers {
        shared: Arc::clone(&shared),
        finished: receiver,
        threads: Vec::new(),
        requested: 2,
    };
    assert!(
        workers.submit(path_job(8, &map)).is_err(),
        "no worker would run it"
    );
}

#[test]
fn a_cancelled_request_leaves_the_queue_or_stops_where_it_runs() {
    let map = open_map();
    let workers = Workers::start(1).expect("a thread");
    let started = Arc::new(std::sync::Barrier::new(2));
    let release = Arc::new(std::sync::Barrier::new(2));
    let hold = Job {
        id: 1,
        map: Arc::clone(&map),
        work: Work::Hold {
            started: Arc::clone(&started),
            release: Arc::clone(&release),
        },
    };
    assert!(workers.submit(hold).is_ok());
    started.wait();
    for id in [2, 3] {
        assert!(workers.submit(path_job(id, &map)).is_ok());
    }
    // Checked once the held job is released: a failed check before would leave it waiting.
    let cancels = [workers.cancel(2), workers.cancel(2), workers.cancel(1)];
    let snapshots = Arc::strong_count(&map);
    release.wait();
    assert_eq!(
        cancels,
        [true, false, false],
        "a queued request is dropped, once; a running one is not"
    );
    assert_eq!(snapshots, 3, "the dropped request's snapshot went with it");
    let first = next_finished(&workers);
    assert_eq!(first.id, 1);
    assert!(matches!(first.outcome, Outcome::Cancelled), "it stopped");
    // One worker runs the queue in order: request 2 would have come before 3.
    let next = next_finished(&workers);
    assert_eq!(next.id, 3);
    assert!(matches!(next.outcome, Outcome::Paths { .. }));
    // Cancelling a request already finished leaves the next job alone.
    assert!(!workers.cancel(3));
    assert!(workers.submit(path_job(4, &map)).is_ok());
    let last = next_finished(&workers);
    assert_eq!(last.id, 4);
    assert!(
        matches!(last.outcome, Outcome::Paths { .. }),
        "not cancelled"
    );
}

#[test]
fn a_batch_asks_before_each_query_whether_to_stop() {
    let map = open_map();
    let batch = || match path_job(0, &map).work {
        Work::Paths { queries, .. } => Work::Paths {
            queries: vec![queries[0].clone(); 3],
            single: false,
        },
        _ => unreachable!("a path job holds paths"),
    };
    let asked = std::cell::Cell::new(0);
    let asked = &asked;
    let stop_at = |at: usize, why: Stop| {
        asked.set(0);
        move || {
            asked.set(asked.get() + 1);
            (asked.get() == at).then_some(why)
        }
    };
    let whole = run(batch(), Arc::clone(&map), || None);
    assert!(matches!(whole, Some(Outcome::Paths { ref results, .. }) if results.len() == 3));
    let cancelled = run(batch(), Arc::clone(&map), stop_at(3, Stop::Request));
    assert!(matches!(cancelled, Some(Outcome::Cancelled)));
    assert_eq!(
        asked.get(),
        3,
        "asked before each query, and stopped at the third"
    );
    let shut_down = run(batch(), Arc::clone(&map), stop_at(1, Stop::Pool));
    assert!(shut_down.is_none(), "a pool shutting down drops the batch");
}
