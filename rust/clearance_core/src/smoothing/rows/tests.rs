//! The runs of a sweep against the cell-by-cell definitions of `sweep.rs`.

use super::super::sweep::{all_swept, sweeps_cell};
use super::*;
use crate::blocked_cells::BlockedCells;
use crate::test_rng::TestRng;

/// The cells of a pseudo-random `width x height` map, about one in `one_in` blocked.
fn random_cells(seed: u64, width: i64, height: i64, one_in: u64) -> Vec<bool> {
    let mut rng = TestRng(seed);
    (0..width * height)
        .map(|_| rng.below(one_in) == 0)
        .collect()
}

#[test]
fn the_rows_agree_with_the_cell_by_cell_test() {
    let (width, height) = (70i64, 30i64);
    let (mut accepted, mut refused) = (0, 0);
    for (seed, one_in) in [(1, 7), (2, 19), (3, 60), (4, 400)] {
        let cells = random_cells(seed, width, height, one_in);
        let blocked = BlockedCells::new(width as usize, height as usize, |x, y| {
            cells[y * width as usize + x]
        });
        let free = |x: i64, y: i64| !cells[(y * width + x) as usize];
        for size in 1..=4 {
            for from in (0..=height - size).flat_map(|y| (0..=width - size).map(move |x| (x, y))) {
                if from.0 % 3 != 0 || from.1 % 2 != 0 {
                    continue;
                }
                for to in [
                    (0, 0),
                    (width - size, height - size),
                    (width - size, 0),
                    (0, height - size),
                    (17, 11),
                    (66 - size, 29 - size),
                    (from.0 + 1, from.1),
                    (from.0, from.1 + 1),
                    (from.0 + 1, from.1 + 1),
                    from,
                ] {
                    if to.0 + size > width || to.1 + size > height {
                        continue;
                    }
                    let by_cells = all_swept(from, to, size, free);
                    let obstacles = Obstacles {
                        terrain: &blocked,
                        units: None,
                        size,
                    };
                    let found = first_blocked_swept(from, to, &obstacles);
                    assert_eq!(
                        found.is_none(),
                        by_cells,
                        "seed {seed}, size {size}, {from:?} to {to:?}"
                    );
                    if let Some(cell) = found {
                        assert!(sweeps_cell(from, to, size, cell) && !free(cell.0, cell.1));
                    }
                    accepted += usize::from(by_cells);
                    refused += usize::from(!by_cells);
                }
            }
        }
    }
    assert!(
        accepted > 200 && refused > 200,
        "{accepted} accepted, {refused} refused"
    );
}

#[test]
fn the_runs_with_units_agree_with_the_cell_by_cell_test() {
    let (width, height) = (41i64, 29i64);
    let mut rng = TestRng(17);
    let (mut by_terrain, mut by_units, mut accepted) = (0, 0, 0);
    for round in 0..24u64 {
        let cells = random_cells(100 + round, width, height, 23);
        let blocked = BlockedCells::new(width as usize, height as usize, |x, y| {
            cells[y * width as usize + x]
        });
        let shape = (width as usize, height as usize);
        let (units, view) = super::super::random_unit_cells(&mut rng, shape, 8);
        let under_unit = |x: i64, y: i64| {
            units.iter().any(|unit| {
                let (ux, uy, side) = (
                    i64::from(unit.anchor.x),
                    i64::from(unit.anchor.y),
                    i64::from(unit.agent_size),
                );
                (ux..ux + side).contains(&x) && (uy..uy + side).contains(&y)
            })
        };
        for _ in 0..400 {
            let size = 1 + rng.below(3);
            let mut anchor = || (rng.below(width - size + 1), rng.below(height - size + 1));
            let (from, to) = (anchor(), anchor());
            // Blocking units never refuse the cells of the start's footprint; units counted by
            // a cost above the bound (every other round) refuse them too.
            let start = (round % 2 == 0).then_some(from);
            let in_start = |x: i64, y: i64| {
                start.is_some_and(|start| {
                    (start.0..start.0 + size).contains(&x) && (start.1..start.1 + size).contains(&y)
                })
            };
            let free = |x: i64, y: i64| {
                !cells[(y * width + x) as usize] && (in_start(x, y) || !under_unit(x, y))
            };
            let obstacles = Obstacles {
                terrain: &blocked,
                units: Some((&view, start)),
                size,
            };
            let found = first_blocked_swept(from, to, &obstacles);
            let by_cells = all_swept(from, to, size, free);
            assert_eq!(
                found.is_none(),
                by_cells,
                "round {round}, size {size}, {from:?} to {to:?}"
            );
            match found {
                None => accepted += 1,
                Some(cell) => {
                    assert!(sweeps_cell(from, to, size, cell) && !free(cell.0, cell.1));
                    if cells[(cell.1 * width + cell.0) as usize] {
                        by_terrain += 1;
                    } else {
                        by_units += 1;
                    }
                }
            }
        }
    }
    assert!(
        accepted > 300 && by_terrain > 300 && by_units > 300,
        "{accepted} accepted, {by_terrain} refused by terrain, {by_units} by units"
    );
}

#[test]
fn the_fixed_point_ends_are_exact_on_the_longest_moves() {
    // Moves as long as a map side allows, where a slope with too few fraction bits puts a
    // run's end one cell off.
    let mut rng = TestRng(41);
    let side = i64::from(crate::grid::MAX_SIDE);
    for case in 0..24 {
        let size = 1 + rng.below(4);
        let from = (rng.below(64), rng.below(64));
        let reach = side - size - 64;
        // Steep and near-diagonal slopes, with and without a common factor.
        let (dx, dy) = match case % 3 {
            0 => (reach - rng.below(reach / 2), reach - rng.below(64)),
            1 => (rng.below(reach), reach - rng.below(8)),
            _ => (reach - 1, reach - 1 - rng.below(3) * 2),
        };
        // Every direction: walked either way, and mirrored left to right.
        let (from, to) = match (case / 3) % 4 {
            0 => (from, (from.0 + dx, from.1 + dy)),
            1 => ((from.0 + dx, from.1 + dy), from),
            mirrored => {
                let mirror = |(x, y): (i64, i64)| (side - size - x, y);
                let (a, b) = (mirror(from), mirror((from.0 + dx, from.1 + dy)));
                if mirrored == 2 {
                    (a, b)
                } else {
                    (b, a)
                }
            }
        };
        let mut runs = Vec::new();
        each_run(from, to, size, |y, first, last| {
            runs.push((y, first, last));
            None::<()>
        });
        // The same runs from the sweep's exact column intervals, read by rows.
        let sweep = super::super::sweep::Sweep::new(from, to, size);
        let mut by_rows = std::collections::BTreeMap::new();
        let (first_column, last_column) = sweep.columns();
        for column in first_column..=last_column {
            let (top, bottom) = sweep.rows(column);
            for row in top..=bottom {
                let (x, y) = sweep.cell(column, row);
                let run = by_rows.entry(y).or_insert((x, x));
                *run = (run.0.min(x), run.1.max(x));
            }
        }
        let expected: Vec<_> = by_rows.into_iter().map(|(y, (a, b))| (y, a, b)).collect();
        runs.sort_unstable();
        assert_eq!(
            runs.len(),
            expected.len(),
            "size {size}, {from:?} to {to:?}"
        );
        for (run, expected) in runs.iter().zip(&expected) {
            assert_eq!(run, expected, "size {size}, {from:?} to {to:?}");
        }
    }
}

#[test]
fn the_rows_hold_exactly_the_swept_cells_either_way() {
    let mut rng = TestRng(7);
    let mut next = |bound: i64| rng.below(bound);
    for _ in 0..3000 {
        let size = 1 + next(4);
        let from = (next(40), next(40));
        let to = (next(40), next(40));
        // Walked from either end, the rows hold the swept cells, each once.
        let walk = |from: (i64, i64), to: (i64, i64)| {
            let mut cells = Vec::new();
            each_run(from, to, size, |y, first, last| {
                cells.extend((first..=last).map(|x| (x, y)));
                None::<()>
            });
            cells.sort_unstable();
            cells
        };
        let (by_rows, backwards) = (walk(from, to), walk(to, from));
        let mut by_cells = Vec::new();
        all_swept(from, to, size, |x, y| {
            by_cells.push((x, y));
            true
        });
        by_cells.sort_unstable();
        assert_eq!(by_rows, by_cells, "size {size}, {from:?} to {to:?}");
        assert_eq!(backwards, by_cells, "backwards: {size}, {from:?} to {to:?}");
    }
}
