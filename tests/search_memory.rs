//! Search memory grows with the searches, not with the map: a scratch reused for short
//! queries on a large map holds a small fraction of a byte per anchor, gives it all back on a
//! trim, and answers exactly as a fresh scratch does, whatever it searched before.

use clearance_core::{Cell, PathMap, PathQuery, PathResult, SearchMode, SearchScratch};
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};

const SIDE: i32 = 1024;
const MODES: [SearchMode; 3] = [SearchMode::Plain, SearchMode::Jump, SearchMode::Auto];

/// A `SIDE x SIDE` generated map with two random profiles, and a small one with one.
fn maps(rng: &mut Rng) -> (PathMap, PathMap) {
    let mut large = PathMap::new(random_grid(rng, SIDE, SIDE, 12));
    large.set_profile(random_profile(rng, "a")).unwrap();
    large.set_profile(random_profile(rng, "b")).unwrap();
    let mut small = PathMap::new(random_grid(rng, 60, 45, 15));
    small.set_profile(random_profile(rng, "a")).unwrap();
    (large, small)
}

/// Queries from random starts to goals at most `reach` cells away on each axis, in every mode.
fn short_queries(
    rng: &mut Rng,
    map: &PathMap,
    count: usize,
    reach: i64,
) -> Vec<PathQuery<'static>> {
    let region = map.grid().region();
    (0..count)
        .map(|index| {
            let start = random_cell(rng, region);
            let goal = Cell::new(
                start.x + rng.range(-reach, reach + 1) as i32,
                start.y + rng.range(-reach, reach + 1) as i32,
            );
            let profile = if index % 2 == 0 { "a" } else { "b" };
            PathQuery::new(start, goal, rng.range(1, 3), profile).search(MODES[index % 3])
        })
        .collect()
}

fn answers(
    map: &PathMap,
    scratch: &mut SearchScratch,
    queries: &[PathQuery<'_>],
) -> Vec<PathResult> {
    queries
        .iter()
        .map(|query| map.query_with(scratch, query))
        .collect()
}

#[test]
fn a_reused_scratch_answers_as_fresh_ones_do() {
    let mut rng = Rng::new(0x5C2A_7C4E);
    let (large, small) = maps(&mut rng);
    let queries = short_queries(&mut rng, &large, 240, 40);
    let fresh: Vec<PathResult> = queries
        .iter()
        .map(|query| large.query_with(&mut SearchScratch::new(), query))
        .collect();
    let found = fresh.iter().filter(|result| result.is_ok()).count();
    assert!(
        found > 100,
        "only {found} paths found: the test needs searches"
    );
    assert!(fresh.iter().any(|result| result.expanded > 200));

    // One scratch for all of them, between searches of another map and a long one.
    let mut scratch = SearchScratch::new();
    let small_queries = short_queries(&mut rng, &small, 30, 60);
    let small_first = answers(&small, &mut scratch, &small_queries);
    let across = PathQuery::new(Cell::new(-15, -15), Cell::new(SIDE - 30, SIDE - 30), 1, "a");
    let long = large.query_with(&mut scratch, &across);
    assert_eq!(answers(&large, &mut scratch, &queries), fresh);
    assert_eq!(answers(&small, &mut scratch, &small_queries), small_first);
    assert_eq!(large.query_with(&mut scratch, &across), long);
    scratch.trim();
    assert_eq!(answers(&large, &mut scratch, &queries), fresh);
}

#[test]
fn short_queries_on_a_large_map_hold_little_and_a_trim_gives_it_back() {
    let mut rng = Rng::new(0x3E3_0A7);
    let (large, _) = maps(&mut rng);
    let queries = short_queries(&mut rng, &large, 300, 25);
    let mut scratch = SearchScratch::new();
    let results = answers(&large, &mut scratch, &queries);
    assert!(results.iter().filter(|result| result.expanded > 20).count() > 100);
    let anchors = (SIDE * SIDE) as usize;
    // One flat array of per-anchor state would hold 16 bytes per anchor, 24 with the jump
    // links; short queries touch a few pages wherever they are.
    let held = scratch.memory_bytes();
    assert!(held > 0);
    assert!(held < anchors, "{held} bytes held for {anchors} anchors");
    scratch.trim();
    assert_eq!(scratch.memory_bytes(), 0);

    // The calling thread's own scratch, used by `query`, trims the same way.
    let on_this_thread: Vec<PathResult> = queries.iter().map(|query| large.query(query)).collect();
    assert_eq!(on_this_thread, results);
    let held = PathMap::thread_search_memory_bytes();
    assert!(held > 0 && held < anchors);
    PathMap::trim_thread_search_memory();
    assert_eq!(PathMap::thread_search_memory_bytes(), 0);
}

#[test]
fn a_thread_holds_what_its_largest_search_reached() {
    // A jump-point search across the map, then short ones in every mode: the memory does not
    // grow past the long search's, and a trim brings it back to what the short ones need.
    let mut rng = Rng::new(0x1A76_E5);
    let (large, _) = maps(&mut rng);
    let mut scratch = SearchScratch::new();
    let across = PathQuery::new(Cell::new(-10, -10), Cell::new(SIDE - 30, SIDE - 30), 1, "a")
        .search(SearchMode::Jump);
    let long = large.query_with(&mut scratch, &across);
    assert!(
        long.is_ok() && long.expanded > 1000,
        "the long search must reach far"
    );
    let after_long = scratch.memory_bytes();
    let queries = short_queries(&mut rng, &large, 100, 20);
    answers(&large, &mut scratch, &queries);
    assert_eq!(scratch.memory_bytes(), after_long);
    scratch.trim();
    answers(&large, &mut scratch, &queries);
    assert!(scratch.memory_bytes() < after_long / 4);
}
