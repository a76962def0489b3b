//! The units' view against definitions read neighbour by neighbour.

use super::*;
use crate::grid::Cell;
use crate::movement::{PARTS, STRAIGHT_DIRECTIONS};
use crate::occupancy::Unit;

#[test]
fn diagonal_rays_stop_at_the_same_step_by_steps_and_by_bands() {
    let (width, height) = (31usize, 23usize);
    let mut view = UnitsView::default();
    let (mut stops, mut runs) = (0, 0);
    for seed in 0..12u64 {
        let mix = |a: u64, b: u64| {
            (a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
                .rotate_left(29)
                .wrapping_mul(0x1656_67B1_9E37_79F9)
                >> 33
        };
        let units: Vec<Unit> = (0..seed % 7 + 1)
            .map(|i| Unit {
                id: i as UnitId,
                anchor: Cell::new(
                    (mix(seed, i) % width as u64) as i32,
                    (mix(seed, i + 100) % height as u64) as i32,
                ),
                agent_size: (mix(seed, i + 200) % 3) as u8 + 1,
            })
            .collect();
        let key = ViewKey {
            units_version: seed,
            agent_size: (seed % 2) as u8 + 1,
            shape: (width, height),
            origin: (0, 0),
        };
        view.update(key, &units, |_| true, usize::MAX);
        // Straight parts of pseudo-random length that stay on the map.
        let part_steps = |anchor: usize, part: usize| {
            let (x, y) = (anchor % width, anchor / width);
            let room = match part {
                0 => y,
                1 => width - 1 - x,
                2 => height - 1 - y,
                _ => x,
            };
            (mix(anchor as u64, part as u64 + seed) % (room as u64 + 1)) as usize
        };
        for from in 0..width * height {
            let (x, y) = (from % width, from / width);
            for direction in STRAIGHT_DIRECTIONS..8 {
                let Direction { dx, dy } = DIRECTIONS[direction];
                let room_x = if dx > 0 { width - 1 - x } else { x };
                let room_y = if dy > 0 { height - 1 - y } else { y };
                for steps in 1..=room_x.min(room_y) {
                    let ray = DiagonalRay::new(from, direction, steps, width, PARTS[direction]);
                    let by_steps = view.diagonal_by_steps(&ray, part_steps);
                    let by_bands = view.diagonal_by_bands(&ray, part_steps);
                    assert_eq!(
                        by_steps, by_bands,
                        "seed {seed}, from ({x}, {y}), {direction}, {steps}"
                    );
                    stops += usize::from(by_steps.is_some());
                    runs += 1;
                }
            }
        }
    }
    // Both outcomes are common, so the comparison tests something.
    assert!(
        stops > runs / 10 && stops < runs * 9 / 10,
        "{stops} of {runs}"
    );
}

#[test]
fn moves_round_units_match_a_neighbour_by_neighbour_reading_on_and_off_the_edges() {
    let shape = (9usize, 7usize);
    let mut view = UnitsView::default();
    for seed in 0..40u64 {
        let units: Vec<Unit> = (0..4 + seed % 5)
            .map(|i| {
                let mix = seed.wrapping_mul(2654435761).wrapping_add(i * 40503);
                Unit {
                    id: i as UnitId,
                    anchor: Cell::new((mix % 9) as i32, (mix / 9 % 7) as i32),
                    agent_size: (mix / 63 % 2) as u8 + 1,
                }
            })
            .collect();
        let key = ViewKey {
            units_version: seed,
            agent_size: 1,
            shape,
            origin: (0, 0),
        };
        view.update(key, &units, |_| true, usize::MAX);
        let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x < 9 && y < 7;
        for anchor in 0..shape.0 * shape.1 {
            let (x, y) = ((anchor % 9) as i64, (anchor / 9) as i64);
            let at = |dx: i64, dy: i64| {
                inside(x + dx, y + dy) && !view.is_blocked(((y + dy) * 9 + x + dx) as usize)
            };
            // An open terrain mask: every step onto the map, diagonals by the corner rule.
            let mut terrain = 0u8;
            let mut expected = 0u8;
            for (bit, direction) in DIRECTIONS.iter().enumerate() {
                let (dx, dy) = (i64::from(direction.dx), i64::from(direction.dy));
                if !inside(x + dx, y + dy) {
                    continue;
                }
                terrain |= 1 << bit;
                let parts_free = dx == 0 || dy == 0 || (at(dx, 0) && at(0, dy));
                if at(dx, dy) && parts_free {
                    expected |= 1 << bit;
                }
            }
            assert_eq!(
                view.steps_to_unblocked(anchor, terrain),
                expected,
                "seed {seed}, anchor ({x}, {y})"
            );
        }
    }
}

#[test]
fn a_step_is_clear_when_its_anchor_and_the_two_it_passes_are_unblocked_on_any_width() {
    let mut unclear = 0;
    for (seed, shape) in [(1usize, 5usize), (2, 5), (3, 4), (9, 7), (16, 5)]
        .into_iter()
        .enumerate()
    {
        let (width, height) = shape;
        let mut view = UnitsView::default();
        let units: Vec<Unit> = (0..3u64)
            .map(|i| {
                let mix = (seed as u64 + 1).wrapping_mul(2654435761) ^ (i * 40503);
                Unit {
                    id: i as UnitId,
                    anchor: Cell::new(
                        (mix % width as u64) as i32,
                        (mix / 7 % height as u64) as i32,
                    ),
                    agent_size: 1,
                }
            })
            .collect();
        let key = ViewKey {
            units_version: seed as u64,
            agent_size: 1,
            shape,
            origin: (0, 0),
        };
        view.update(key, &units, |_| true, usize::MAX);
        let free = |x: i64, y: i64| !view.is_blocked(y as usize * width + x as usize);
        for from in 0..width * height {
            let (x, y) = ((from % width) as i64, (from / width) as i64);
            for direction in DIRECTIONS {
                let (dx, dy) = (i64::from(direction.dx), i64::from(direction.dy));
                let (tx, ty) = (x + dx, y + dy);
                if tx < 0 || ty < 0 || tx >= width as i64 || ty >= height as i64 {
                    continue;
                }
                let to = ty as usize * width + tx as usize;
                let clear = free(tx, ty) && (dx == 0 || dy == 0 || free(tx, y) && free(x, ty));
                let steps = view.unclear_steps(&[from, to], width);
                assert_eq!(
                    steps.is_empty(),
                    clear,
                    "{shape:?}, ({x}, {y}) + ({dx}, {dy})"
                );
                unclear += usize::from(!clear);
            }
        }
    }
    assert!(unclear > 20, "only {unclear} unclear steps");
}
