//! One map queried from several threads at once.

use clearance_core::{Cell, PathMap};
use clearance_tests::generate::{random_cell, random_grid, random_profile, Rng};
use std::sync::Arc;

#[test]
fn concurrent_queries_agree_with_sequential_ones() {
    let mut rng = Rng::new(0x7417_EAD5);
    let grid = random_grid(&mut rng, 60, 60, 15);
    let mut map = PathMap::new(grid.clone());
    map.set_profile(random_profile(&mut rng, "a")).unwrap();
    map.set_profile(random_profile(&mut rng, "b")).unwrap();
    let queries: Vec<(Cell, Cell, i64, &'static str)> = (0..200)
        .map(|_| {
            (
                random_cell(&mut rng, grid.region()),
                random_cell(&mut rng, grid.region()),
                rng.range(1, 4),
                *rng.pick(&["a", "b"]),
            )
        })
        .collect();
    // Layers are built lazily by whichever thread needs them first: start from a cold map.
    let sequential: Vec<_> = {
        let cold = map.clone();
        queries
            .iter()
            .map(|&(s, g, k, p)| cold.find_path(s, g, k, p))
            .collect()
    };
    let map = Arc::new(map);
    let queries = Arc::new(queries);
    let handles: Vec<_> = (0..4)
        .map(|thread| {
            let map = Arc::clone(&map);
            let queries = Arc::clone(&queries);
            std::thread::spawn(move || {
                // Each thread walks the queries from a different offset.
                (0..queries.len())
                    .map(|i| {
                        let index = (i + thread * 50) % queries.len();
                        let (s, g, k, p) = queries[index];
                        (index, map.find_path(s, g, k, p))
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for handle in handles {
        for (index, result) in handle.join().unwrap() {
            assert_eq!(result, sequential[index], "query {index}");
        }
    }
}
