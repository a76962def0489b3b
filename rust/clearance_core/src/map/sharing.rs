//! Tests that a snapshot (a clone of the map) and the map edited after it share every page of
//! every cache that the edit did not write: an edit copies only the pages whose values change.

use super::{read, PathMap};
use crate::grid::{Cell, Region, TerrainGrid};
use crate::landmarks::LandmarkPlacement;
use crate::movement::Movement;
use crate::paged::{PageAudit, PAGE_LEN};
use crate::profile::AgentProfile;
use crate::result::PathCode;
use crate::test_rng::TestRng;

const GROUND: u8 = 0;
const WALL: u8 = 1;
const SWAMP: u8 = 2;

/// A `width x height` map of ground with wall blocks and swamp patches, a uniform-cost
/// profile (whose graphs store rays) and a weighted one (whose graphs store multipliers),
/// every layer and graph of sizes 1 to 3 built.
fn warm_map(rng: &mut TestRng, (width, height): (i32, i32), movement: Movement) -> PathMap {
    let mut grid = TerrainGrid::new(Region::new(0, 0, width, height), GROUND).unwrap();
    for (count, terrain) in [(60, SWAMP), (150, WALL)] {
        for _ in 0..count {
            let (x, y) = (rng.below(width), rng.below(height));
            let (w, h) = (1 + rng.below(10), 1 + rng.below(10));
            let rect = Region::new(x, y, w.min(width - x), h.min(height - y));
            grid.fill_rect(rect, terrain).unwrap();
        }
    }
    let mut map = PathMap::new(grid).with_movement(movement);
    let scout = AgentProfile::new("scout")
        .with_terrain(GROUND, 1.0)
        .unwrap();
    let wader = AgentProfile::new("wader")
        .with_terrain(GROUND, 1.0)
        .and_then(|profile| profile.with_terrain(SWAMP, 2.5))
        .unwrap();
    map.set_profile(scout).unwrap();
    map.set_profile(wader).unwrap();
    for profile in ["scout", "wader"] {
        for size in 1..=3 {
            assert_eq!(map.prepare(profile, size), PathCode::Ok);
        }
    }
    // Three landmarks: rows of four slots, one of them unused.
    map.set_landmarks(LandmarkPlacement::Farthest(3)).unwrap();
    for profile in ["scout", "wader"] {
        assert!(map.bake_landmarks(profile).is_some());
    }
    map
}

/// Compares every paged array of `map`'s terrain, layers and graphs with `snapshot`'s.
fn audit(map: &PathMap, snapshot: &PathMap) -> PageAudit {
    let mut audit = PageAudit::default();
    map.grid.audit_pages(&snapshot.grid, &mut audit);
    let before = read(&snapshot.caches.clearance);
    for (capability, layer) in read(&map.caches.clearance).iter() {
        layer.audit_pages(&before[capability], &mut audit);
    }
    let before = read(&snapshot.caches.graphs);
    for (name, by_size) in read(&map.caches.graphs).iter() {
        for (size, graph) in by_size {
            graph.audit_pages(&before[name][size], &mut audit);
        }
    }
    let before = read(&snapshot.caches.landmarks);
    for (name, table) in read(&map.caches.landmarks).iter() {
        if let (Some(table), Some(Some(old))) = (table, before.get(name)) {
            table.audit_pages(old, &mut audit);
        }
    }
    audit
}

#[test]
fn an_edit_after_a_snapshot_copies_only_the_pages_it_writes() {
    let mut rng = TestRng(0x9A6E_D5EE);
    for movement in [Movement::EightWay, Movement::FourWay] {
        let (width, height) = (256, 160);
        let mut map = warm_map(&mut rng, (width, height), movement);
        let pages_per_array = (width * height) as usize / PAGE_LEN;
        let (mut shared, mut written) = (0, 0);
        for edit in 0..300 {
            let snapshot = map.clone();
            let side = if edit % 4 == 3 { 8 } else { 1 };
            let (x, y) = (rng.below(width - side + 1), rng.below(height - side + 1));
            let terrain = [GROUND, WALL, SWAMP][rng.below(3) as usize];
            map.fill_rect(Region::new(x, y, side, side), terrain)
                .unwrap();
            let audit = audit(&map, &snapshot);
            assert!(
                audit.needless.is_empty(),
                "{movement:?}, edit {edit} at ({x}, {y}), side {side}: copied unchanged pages {:?}",
                audit.needless
            );
            // 15 arrays at least (terrain, 2 layers, 6 graphs' masks and labels), each of
            // `pages_per_array` pages or more.
            assert!(audit.shared + audit.written >= 15 * pages_per_array);
            (shared, written) = (shared + audit.shared, written + audit.written);
            if edit % 60 == 0 {
                map.verify_caches().unwrap();
                snapshot.verify_caches().unwrap();
            }
        }
        // Edits write near themselves (clearance changes spread up and to the left), so
        // most pages stay shared.
        assert!(
            shared > written,
            "{movement:?}: {shared} shared, {written} written"
        );
    }
}

#[test]
fn a_snapshot_shares_every_page_until_an_edit() {
    let mut rng = TestRng(0x5A4E_0001);
    let map = warm_map(&mut rng, (200, 100), Movement::EightWay);
    let snapshot = map.clone();
    let audit = audit(&map, &snapshot);
    assert_eq!((audit.written, audit.needless.len()), (0, 0));
    assert!(audit.shared > 0);
}

#[test]
fn what_a_snapshot_builds_serves_the_map_until_either_changes_a_cache() {
    let mut rng = TestRng(0x5A4E_0002);
    let mut map = warm_map(&mut rng, (200, 100), Movement::EightWay);
    map.place_unit(7, Cell::new(0, 0), 1).unwrap();
    // An async request's snapshot, then the game moves a unit: no cache changes.
    let snapshot = map.clone();
    map.move_unit(7, Cell::new(1, 0)).unwrap();
    let before = map.cache_memory_bytes();
    // The request builds a graph the map did not have: the map holds it too.
    assert_eq!(snapshot.prepare("scout", 5), PathCode::Ok);
    assert!(map.cache_memory_bytes() > before);
    assert_eq!(map.cache_memory_bytes(), snapshot.cache_memory_bytes());
    let graph = |on: &PathMap| {
        on.graph_for("scout", on.profile("scout").unwrap(), 5)
            .unwrap()
    };
    assert!(std::sync::Arc::ptr_eq(&graph(&map), &graph(&snapshot)));
    // An edit gives the map its own store: the snapshot keeps the old terrain's caches, and
    // what it builds from now on is its own.
    map.fill_rect(Region::new(10, 10, 3, 3), WALL).unwrap();
    let after_edit = map.cache_memory_bytes();
    assert_eq!(snapshot.prepare("wader", 5), PathCode::Ok);
    assert_eq!(map.cache_memory_bytes(), after_edit);
    map.verify_caches().unwrap();
    snapshot.verify_caches().unwrap();
}
