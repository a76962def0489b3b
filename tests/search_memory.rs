//! Search memory grows with the searches, not with the map: a scratch reused for short
//! queries on a large map holds a small fraction of a byte per anchor, gives it all back on a
//! trim, and answers exactly as a fresh scratch does, whatever it searched before. Small maps,
//! and maps a search covered a quarter of, are searched on flat arrays: the same answers. The
//! searches as if alone of queries round other units start on pages even there.

use clearance_core::{
    AgentProfile, Cell, OtherUnits, PathMap, PathQuery, PathResult, Region, SearchMode,
    SearchScratch, TerrainGrid,
};
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};

const SIDE: i32 = 1024;
const MODES: [SearchMode; 3] = [SearchMode::Plain, SearchMode::Jump, SearchMode::Auto];
const GROUND: u8 = 0;
const WALL: u8 = 1;
const SWAMP: u8 = 3;

/// A `SIDE x SIDE` map of ground with one cell in ten a wall and scattered swamp patches,
/// with a profile that keeps out of swamp (`a`) and one that pays 2.5 for it (`b`); and a
/// small generated map with a random profile `a`.
fn maps(rng: &mut Rng) -> (PathMap, PathMap) {
    let mut grid = TerrainGrid::new(Region::new(0, 0, SIDE, SIDE), GROUND).unwrap();
    for _ in 0..SIDE * SIDE / 64 {
        let (x, y) = (rng.range(0, 1020) as i32, rng.range(0, 1020) as i32);
        let (w, h) = (rng.range(1, 4) as i32, rng.range(1, 4) as i32);
        grid.fill_rect(Region::new(x, y, w, h), SWAMP).unwrap();
    }
    for index in 0..(SIDE * SIDE) as usize {
        if rng.chance(10) {
            grid.set_cell(grid.cell_at(index), WALL).unwrap();
        }
    }
    let mut large = PathMap::new(grid);
    large
        .set_profile(AgentProfile::new("a").with_terrain(GROUND, 1.0).unwrap())
        .unwrap();
    let swamp_walker = AgentProfile::new("b")
        .with_terrain(GROUND, 1.0)
        .and_then(|profile| profile.with_terrain(SWAMP, 2.5))
        .unwrap();
    large.set_profile(swamp_walker).unwrap();
    let mut small = PathMap::new(random_grid(rng, 60, 45, 15));
    small.set_profile(random_profile(rng, "a")).unwrap();
    (large, small)
}

/// A query for profile `a` from near the top-left corner of the large map to near the
/// bottom-right one (the first anchors along the diagonal where it fits).
fn across(map: &PathMap) -> PathQuery<'static> {
    let fits = |cell: &Cell| map.clearance(*cell, "a").unwrap_or(0) >= 1;
    let first_fit = |from: i32, step: i32| {
        (0..)
            .map(|k| Cell::new(from + k * step, from + k * step))
            .find(fits)
            .unwrap()
    };
    PathQuery::new(first_fit(5, 1), first_fit(SIDE - 6, -1), 1, "a")
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
    assert!(fresh.iter().any(|result| result.expanded > 40));

    // One scratch for all of them, between searches of another map and a long one.
    let mut scratch = SearchScratch::new();
    let small_queries = short_queries(&mut rng, &small, 30, 60);
    let small_first = answers(&small, &mut scratch, &small_queries);
    let across = across(&large);
    let long = large.query_with(&mut scratch, &across);
    assert!(long.is_ok());
    assert_eq!(answers(&large, &mut scratch, &queries), fresh);
    assert_eq!(answers(&small, &mut scratch, &small_queries), small_first);
    assert_eq!(large.query_with(&mut scratch, &across), long);
    scratch.trim();
    assert_eq!(answers(&large, &mut scratch, &queries), fresh);
}

#[test]
fn short_queries_on_a_large_map_hold_little_and_a_trim_gives_it_back() {
    let mut rng = Rng::new(0x003E_30A7);
    let (large, _) = maps(&mut rng);
    let queries = short_queries(&mut rng, &large, 300, 25);
    let mut scratch = SearchScratch::new();
    let results = answers(&large, &mut scratch, &queries);
    assert!(results.iter().filter(|result| result.expanded > 5).count() > 100);
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
    let mut rng = Rng::new(0x001A_76E5);
    let (large, _) = maps(&mut rng);
    let mut scratch = SearchScratch::new();
    let across = across(&large).search(SearchMode::Jump);
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

/// Bytes of flat per-anchor state: a node (16) and a jump link (8) per anchor.
const FLAT_BYTES_PER_ANCHOR: usize = 24;

#[test]
fn a_search_over_a_quarter_of_the_map_moves_the_scratch_to_flat_arrays_with_the_same_answers() {
    let mut rng = Rng::new(0x00F1_A7A7);
    let (large, _) = maps(&mut rng);
    let anchors = (SIDE * SIDE) as usize;
    let queries = short_queries(&mut rng, &large, 150, 40);
    let paged: Vec<PathResult> = queries
        .iter()
        .map(|query| large.query_with(&mut SearchScratch::new(), query))
        .collect();
    let mut scratch = SearchScratch::new();
    assert_eq!(answers(&large, &mut scratch, &queries), paged);
    assert!(scratch.memory_bytes() < anchors, "short queries stay paged");

    // Plain A* across the map touches far more than a quarter of its pages: it stops, and
    // runs again on flat arrays.
    let across = across(&large).search(SearchMode::Plain);
    let long = large.query_with(&mut scratch, &across);
    assert!(
        long.is_ok() && long.expanded > 10_000,
        "the long search must reach far"
    );
    let flat = scratch.memory_bytes();
    assert!(
        flat >= FLAT_BYTES_PER_ANCHOR * anchors,
        "{flat} bytes: not flat"
    );
    // Jump-point search across the map, on the flat arrays, and on pages from scratch.
    let jump = across.search(SearchMode::Jump);
    let on_pages = large.query_with(&mut SearchScratch::new(), &jump);
    assert_eq!(large.query_with(&mut scratch, &jump), on_pages);
    assert_eq!(answers(&large, &mut scratch, &queries), paged);
    assert_eq!(large.query_with(&mut scratch, &across), long);
    assert_eq!(scratch.memory_bytes(), flat, "the flat arrays are reused");
    scratch.trim();
    assert_eq!(scratch.memory_bytes(), 0);
}

#[test]
fn small_maps_are_searched_on_flat_arrays_with_the_same_answers() {
    let mut rng = Rng::new(0x05A1_1F1A);
    let (large, small) = maps(&mut rng);
    let anchors = small.grid().width() * small.grid().height();
    let queries = short_queries(&mut rng, &small, 60, 60);
    let mut scratch = SearchScratch::new();
    let on_small = answers(&small, &mut scratch, &queries);
    assert!(scratch.memory_bytes() >= FLAT_BYTES_PER_ANCHOR * anchors);
    // A scratch that holds larger flat arrays answers the same, and one that searched a
    // large map on pages first as well.
    let mut paged_first = SearchScratch::new();
    answers(
        &large,
        &mut paged_first,
        &short_queries(&mut rng, &large, 20, 10),
    );
    assert_eq!(answers(&small, &mut paged_first, &queries), on_small);
    let mut larger = SearchScratch::new();
    large.query_with(&mut larger, &across(&large).search(SearchMode::Plain));
    assert_eq!(answers(&small, &mut larger, &queries), on_small);
}

#[test]
fn queries_round_units_search_as_if_alone_on_pages_in_a_new_scratch() {
    // A query that counts other units keeps its search as if alone in memory of its own. A
    // scratch made for a few queries (a threaded batch makes one per helper thread and call)
    // holds that memory in pages, even on a map whose flat arrays would fit the budget.
    // Answers are those of a fresh scratch all along.
    let mut rng = Rng::new(0x0CC0_5CA7);
    // Flat arrays for it take a few MiB, far more than the pages short queries touch.
    let mut small = PathMap::new(random_grid(&mut rng, 400, 400, 15));
    small.set_profile(random_profile(&mut rng, "a")).unwrap();
    small.set_profile(random_profile(&mut rng, "b")).unwrap();
    let region = small.grid().region();
    let units: Vec<_> = (0..12)
        .map(|id| (id, random_cell(&mut rng, region), rng.range(1, 3)))
        .collect();
    small.place_units(&units).unwrap();
    let anchors = small.grid().width() * small.grid().height();
    let flat = FLAT_BYTES_PER_ANCHOR * anchors;
    let queries: Vec<_> = short_queries(&mut rng, &small, 300, 40)
        .into_iter()
        .map(|query| query.other_units(OtherUnits::Block))
        .collect();
    let fresh: Vec<_> = (queries.iter())
        .map(|query| small.query_with(&mut SearchScratch::new(), query))
        .collect();
    let mut scratch = SearchScratch::new();
    assert_eq!(answers(&small, &mut scratch, &queries[..20]), fresh[..20]);
    let held = scratch.memory_bytes();
    // No flat arrays yet: the searches as if alone ran on pages (and none of these queries
    // crossed a unit, which would have searched the scratch's own memory, flat at once).
    assert!(held < flat, "{held} bytes, flat arrays {flat}");
    assert_eq!(answers(&small, &mut scratch, &queries[20..]), fresh[20..]);
}
