//! The units' view against definitions read neighbour by neighbour.

use super::rays::FEW_RECTANGLES;
use super::*;
use crate::grid::Cell;
use crate::movement::{PARTS, STRAIGHT_DIRECTIONS};
use crate::occupancy::Unit;

/// The first step, 1 to `last`, of the diagonal ray `ray` at which the anchor is touched or a
/// straight part (`part_steps` long) reaches the far corner, in its direction, of a touched
/// rectangle among `rects` (`x0, y0, x1, y1`, ends exclusive), or with `any_touched` any
/// touched anchor: the criterion of the band scan, read step by step.
fn by_corners(
    ray: &DiagonalRay,
    view: &UnitsView,
    rects: &[(isize, isize, isize, isize)],
    part_steps: impl Fn(usize, usize) -> usize,
    any_touched: bool,
) -> Option<usize> {
    let [horizontal, vertical] = ray.parts;
    (1..=ray.last).find_map(|k| {
        let anchor = ray.at(k);
        let (x, y) = (ray.x + k * ray.dx, ray.y + k * ray.dy);
        let reaches = |ahead: isize, steps: usize| ahead >= 1 && ahead as usize <= steps;
        if any_touched {
            let touched_along = |(step_x, step_y): (isize, isize), steps: usize| {
                (1..=steps as isize).any(|i| {
                    let (px, py) = (x + i * step_x, y + i * step_y);
                    view.is_touched(py as usize * view.width + px as usize)
                })
            };
            let found = view.is_touched(anchor)
                || touched_along((ray.dx, 0), part_steps(anchor, horizontal))
                || touched_along((0, ray.dy), part_steps(anchor, vertical));
            return found.then_some(k as usize);
        }
        let corner = rects.iter().any(|&(x0, y0, x1, y1)| {
            let far_x = if ray.dx > 0 { x1 - 1 } else { x0 };
            let far_y = if ray.dy > 0 { y1 - 1 } else { y0 };
            ((y == y0 || y == y1 - 1)
                && reaches((far_x - x) * ray.dx, part_steps(anchor, horizontal)))
                || ((x == x0 || x == x1 - 1)
                    && reaches((far_y - y) * ray.dy, part_steps(anchor, vertical)))
        });
        (view.is_touched(anchor) || corner).then_some(k as usize)
    })
}

#[test]
fn diagonal_rays_stop_where_a_straight_part_reaches_a_far_corner() {
    let (width, height) = (31usize, 23usize);
    let mut view = UnitsView::default();
    let (mut stops, mut runs, mut later, mut holes) = (0, 0, 0, 0);
    for seed in 0..16u64 {
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
        let agent_size = (seed % 2) as isize + 1;
        let occupancy = crate::occupancy::Occupancy::holding(&units);
        let key = ViewKey {
            units_version: occupancy.version(),
            agent_size: agent_size as u8,
            shape: (width, height),
            origin: (0, 0),
        };
        // Every fourth round starts on the first unit's anchor, inside its blocked rectangle.
        let start = match seed % 4 {
            3 => units[0].anchor.y as usize * width + units[0].anchor.x as usize,
            _ => usize::MAX,
        };
        view.update(key, &occupancy, Counted::Accepted(&|_| true), start);
        // Each unit's touched rectangle from the definition: the anchors within one step of
        // one whose footprint overlaps the unit's, on the map.
        let rects: Vec<_> = (units.iter())
            .map(|unit| {
                let (x, y, side) = (
                    unit.anchor.x as isize,
                    unit.anchor.y as isize,
                    isize::from(unit.agent_size),
                );
                let clip = |low: isize, high: isize, limit: usize| {
                    (low.clamp(0, limit as isize), high.clamp(0, limit as isize))
                };
                let (x0, x1) = clip(x - agent_size, x + side + 1, width);
                let (y0, y1) = clip(y - agent_size, y + side + 1, height);
                (x0, y0, x1, y1)
            })
            .collect();
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
                    let by_bands =
                        view.diagonal_by_bands(&ray, part_steps, !view.start_was_blocked());
                    let context = format!("seed {seed}, from ({x}, {y}), {direction}, {steps}");
                    let hole = view.start_was_blocked();
                    let expected = by_corners(&ray, &view, &rects, part_steps, hole);
                    assert_eq!(by_bands, expected, "{context}");
                    // Step by step, any touched anchor reached counts.
                    let wider = by_corners(&ray, &view, &rects, part_steps, true);
                    assert_eq!(view.diagonal_by_steps(&ray, part_steps), wider, "{context}");
                    if hole {
                        holes += 1;
                    } else {
                        // Every far corner is touched: the wider test stops no later.
                        assert!(wider <= by_bands.or(Some(usize::MAX)), "{context}");
                        later += usize::from(wider != by_bands);
                    }
                    stops += usize::from(by_bands.is_some());
                    runs += 1;
                }
            }
        }
    }
    // Both outcomes are common, the corners stop later than the touched anchors often, and
    // starts inside units were tried, so the comparisons test something.
    assert!(
        stops > runs / 10 && stops < runs * 9 / 10 && later > runs / 20 && holes > 0,
        "{stops} stops, {later} later, {holes} with a hole, of {runs}"
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
        let occupancy = crate::occupancy::Occupancy::holding(&units);
        let key = ViewKey {
            units_version: occupancy.version(),
            agent_size: 1,
            shape,
            origin: (0, 0),
        };
        view.update(key, &occupancy, Counted::Accepted(&|_| true), usize::MAX);
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
        let occupancy = crate::occupancy::Occupancy::holding(&units);
        let key = ViewKey {
            units_version: occupancy.version(),
            agent_size: 1,
            shape,
            origin: (0, 0),
        };
        view.update(key, &occupancy, Counted::Accepted(&|_| true), usize::MAX);
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

#[test]
fn rays_told_apart_from_a_few_units_by_their_rectangles_meet_no_touched_anchor() {
    let (width, height) = (29usize, 21usize);
    let (mut refused, mut tried) = (0, 0);
    for seed in 0..12u64 {
        let mut rng = crate::test_rng::TestRng(seed + 40);
        let units: Vec<Unit> = (0..rng.below(FEW_RECTANGLES as i32) + 1)
            .map(|i| Unit {
                id: UnitId::from(i),
                anchor: Cell::new(rng.below(width as i32), rng.below(height as i32)),
                agent_size: rng.below(3) as u8 + 1,
            })
            .collect();
        let occupancy = crate::occupancy::Occupancy::holding(&units);
        let key = ViewKey {
            units_version: occupancy.version(),
            agent_size: rng.below(3) as u8 + 1,
            shape: (width, height),
            origin: (0, 0),
        };
        let mut view = UnitsView::default();
        view.update(key, &occupancy, Counted::Accepted(&|_| true), usize::MAX);
        assert!(view.few_units());
        let touched = |x: isize, y: isize| {
            (0..width as isize).contains(&x)
                && (0..height as isize).contains(&y)
                && view.is_touched(y as usize * width + x as usize)
        };
        // Every anchor `1..=steps` along `(dx, dy)` from `(x, y)`, and with `parts` every
        // anchor a straight walk from one of those reaches, up to the map's edge.
        let reached = |(x, y): (isize, isize), (dx, dy): (isize, isize), steps: isize, parts| {
            (1..=steps).any(|k| {
                let (ax, ay) = (x + k * dx, y + k * dy);
                let part = |(px, py): (isize, isize)| {
                    (1..(width + height) as isize).any(|i| touched(ax + i * px, ay + i * py))
                };
                touched(ax, ay) || (parts && (part((dx, 0)) || part((0, dy))))
            })
        };
        for from in 0..width * height {
            let (x, y) = (from % width, from / width);
            let at = (x as isize, y as isize);
            for (direction, &Direction { dx, dy }) in DIRECTIONS.iter().enumerate() {
                let (dx, dy) = (dx as isize, dy as isize);
                for steps in 1..=8usize {
                    let (end_x, end_y) = (at.0 + steps as isize * dx, at.1 + steps as isize * dy);
                    let on_map = (0..width as isize).contains(&end_x)
                        && (0..height as isize).contains(&end_y);
                    if !on_map {
                        continue;
                    }
                    let diagonal = dx != 0 && dy != 0;
                    let maybe = if diagonal {
                        let ray = DiagonalRay::new(from, direction, steps, width, PARTS[direction]);
                        view.may_touch_diagonal(&ray)
                    } else {
                        view.may_touch_straight((x, y), direction, steps)
                    };
                    if !maybe {
                        let context = format!("seed {seed}, ({x}, {y}), {direction}, {steps}");
                        assert!(
                            !reached(at, (dx, dy), steps as isize, diagonal),
                            "{context}"
                        );
                        refused += 1;
                    }
                    tried += 1;
                }
            }
        }
    }
    // Most rays miss a few units' rectangles, and some do not.
    assert!(
        refused > tried / 2 && refused < tried,
        "{refused} refused of {tried}"
    );
}
