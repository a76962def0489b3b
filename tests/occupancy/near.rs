//! Finding the units over a rectangle as they are placed, moved, removed and dropped by a
//! smaller map: every unit whose footprint overlaps the rectangle, in the order the occupancy
//! keeps them, against a pass over every unit written here; on maps near the origin and at
//! both ends of the coordinate range, with units up to the largest size.

use super::*;

/// Whether two rectangles share a cell.
fn share_a_cell(a: Region, b: Region) -> bool {
    let span = |start: i32, length: i32| (i64::from(start), i64::from(start) + i64::from(length));
    let ((a_left, a_right), (b_left, b_right)) = (span(a.x, a.width), span(b.x, b.width));
    let ((a_top, a_bottom), (b_top, b_bottom)) = (span(a.y, a.height), span(b.y, b.height));
    a_left < b_right && b_left < a_right && a_top < b_bottom && b_top < a_bottom
}

/// The units of `map`, but those in `exempt`, whose footprints overlap `region`, in the order
/// the occupancy keeps them: every unit tested.
fn overlapping_by_pass(map: &PathMap, region: Region, exempt: &[i64]) -> Vec<Unit> {
    (map.occupancy().units().iter())
        .filter(|unit| {
            let side = i32::from(unit.agent_size);
            let footprint = Region::new(unit.anchor.x, unit.anchor.y, side, side);
            share_a_cell(footprint, region) && !exempt.contains(&unit.id)
        })
        .copied()
        .collect()
}

/// A unit size: mostly 1 to 3, now and then up to `largest`.
fn random_size(rng: &mut Rng, largest: i64) -> i64 {
    if rng.chance(85) {
        rng.range(1, 4)
    } else {
        rng.range(1, largest + 1)
    }
}

/// A rectangle near the map: from a single cell to more than the whole map, partly off it.
fn random_rectangle(rng: &mut Rng, map: &Region) -> Region {
    let sides = [1, 1, 2, 3, 5, 16, 40, map.width.max(map.height) * 2];
    let width = sides[rng.range(0, sides.len() as i64) as usize];
    let height = if rng.chance(70) {
        width
    } else {
        sides[rng.range(0, sides.len() as i64) as usize]
    };
    let mut start = |first: i32, count: i32| {
        let start = rng.range(
            i64::from(first) - 45,
            i64::from(first) + i64::from(count) + 5,
        );
        start.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    };
    let (x, y) = (start(map.x, map.width), start(map.y, map.height));
    // A rectangle may reach past `i32::MAX`: the occupancy must not overflow on it.
    Region::new(x, y, width, height)
}

#[test]
fn units_over_a_rectangle_are_found_as_they_change() {
    let mut rng = Rng::new(0x0b5e_55ed);
    let (mut rectangles, mut found) = (0, 0);
    for case in 0..32 {
        let (width, height) = (rng.range(1, 180) as i32, rng.range(1, 180) as i32);
        // Most maps near the origin; some at the ends of the coordinate range.
        let (x, y) = match case % 8 {
            6 => (i32::MAX - width, i32::MIN),
            7 => (i32::MIN, i32::MAX - height),
            _ => (rng.range(-80, 40) as i32, rng.range(-80, 40) as i32),
        };
        let region = Region::new(x, y, width, height);
        let mut map = PathMap::new(TerrainGrid::new(region, 0).unwrap());
        let largest = [3, 3, 9, 40, 255][case % 5];
        let mut next_id = 0;
        let mut placed = |rng: &mut Rng, map: &PathMap| {
            next_id += 1;
            (
                next_id,
                random_cell(rng, map.region()),
                random_size(rng, largest),
            )
        };
        let crowd: Vec<_> = (0..[0, 7, 80, 600][case % 4])
            .map(|_| placed(&mut rng, &map))
            .collect();
        map.place_units(&crowd).unwrap();
        for step in 0..40 {
            let ids: Vec<i64> = map.occupancy().units().iter().map(|u| u.id).collect();
            let any = |rng: &mut Rng| ids[rng.range(0, ids.len() as i64) as usize];
            match rng.range(0, 20) {
                0..=5 => {
                    let (id, anchor, size) = placed(&mut rng, &map);
                    map.place_unit(id, anchor, size).unwrap();
                }
                6..=9 if !ids.is_empty() => {
                    let id = any(&mut rng);
                    map.move_unit(id, random_cell(&mut rng, map.region()))
                        .unwrap();
                }
                10..=11 if !ids.is_empty() => {
                    let mut moves: Vec<(i64, Cell)> = Vec::new();
                    for _ in 0..rng.range(1, 40) {
                        let id = any(&mut rng);
                        if moves.iter().all(|&(moved, _)| moved != id) {
                            moves.push((id, random_cell(&mut rng, map.region())));
                        }
                    }
                    map.move_units(&moves).unwrap();
                }
                12..=16 if !ids.is_empty() => map.remove_unit(any(&mut rng)).unwrap(),
                17 => {
                    let batch: Vec<_> = (0..30).map(|_| placed(&mut rng, &map)).collect();
                    map.place_units(&batch).unwrap();
                }
                18 => {
                    // A smaller map drops the units anchored off it.
                    let old = map.region();
                    let smaller = Region::new(old.x, old.y, (old.width / 2).max(1), old.height);
                    map.replace_grid(TerrainGrid::new(smaller, 0).unwrap());
                }
                19 if rng.chance(30) => map.clear_units(),
                _ => {}
            }
            for _ in 0..15 {
                let rectangle = random_rectangle(&mut rng, &map.region());
                let exempt: Vec<i64> = if ids.is_empty() {
                    Vec::new()
                } else {
                    (0..rng.range(0, 3)).map(|_| any(&mut rng)).collect()
                };
                let expected = overlapping_by_pass(&map, rectangle, &exempt);
                assert_eq!(
                    map.units_overlapping(rectangle, &exempt),
                    expected,
                    "case {case}, step {step}: units over {rectangle:?}, {exempt:?} exempt"
                );
                rectangles += 1;
                found += expected.len();
            }
        }
    }
    assert!(
        rectangles == 32 * 40 * 15 && found > 5_000,
        "{found} units found"
    );
}
