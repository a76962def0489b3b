//! Stored rays against rays walked anchor by anchor, on random maps: built, and repaired
//! after edits.

use super::*;
use crate::graph::test_masks;
use crate::test_rng::TestRng;

/// Move masks of a `width x height` map whose open cells `open` lists row by row.
fn move_masks(open: &[bool], width: usize, height: usize) -> PagedVec<u8> {
    test_masks::move_masks(width, height, |x, y| open[y * width + x])
}

/// Multipliers from 0 to 3 on a random map, or none (a uniform-cost graph).
fn random_multipliers(rng: &mut TestRng, cells: usize, weighted: bool) -> Option<PagedVec<u32>> {
    weighted.then(|| (0..cells).map(|_| rng.below(4) as u32).collect())
}

/// The even-cost bits of `multipliers` on the open cells `open` (see
/// `AnchorGraph::even_costs`), for every other weighted case, or none (every anchor tested
/// in full): the table must come out the same either way.
fn even_bits(
    open: &[bool],
    multipliers: Option<&PagedVec<u32>>,
    (width, height): (usize, usize),
    case: usize,
) -> Option<PagedVec<u64>> {
    let multipliers = multipliers.filter(|_| case % 4 == 3)?;
    let mut bits = PagedVec::filled(0, open.len().div_ceil(64));
    let all = Window {
        x0: 0,
        y0: 0,
        x1: width,
        y1: height,
    };
    let mut uneven = open.len();
    let legal = |anchor: usize| open[anchor];
    super::super::mark_even_costs(
        (&mut bits, &mut uneven),
        multipliers,
        legal,
        (width, height),
        all,
    );
    Some(bits)
}

/// The move masks and even-cost bits of a test map (see [`even_bits`]), which a
/// [`RayRule`] borrows.
fn tables(
    open: &[bool],
    multipliers: Option<&PagedVec<u32>>,
    (width, height): (usize, usize),
    movement: Movement,
    case: usize,
) -> (PagedVec<u8>, Option<PagedVec<u64>>) {
    let moves = masks_for(open, width, height, movement);
    (moves, even_bits(open, multipliers, (width, height), case))
}

/// The rule of a test map's tables.
fn rule_of<'a>(
    (moves, even): &'a (PagedVec<u8>, Option<PagedVec<u64>>),
    multipliers: Option<&'a PagedVec<u32>>,
    movement: Movement,
) -> RayRule<'a> {
    RayRule {
        moves,
        multipliers,
        even_costs: even.as_ref(),
        movement,
    }
}

/// The masks of `open` under `movement`.
fn masks_for(open: &[bool], width: usize, height: usize, movement: Movement) -> PagedVec<u8> {
    let moves = move_masks(open, width, height);
    match movement {
        Movement::EightWay => moves,
        Movement::FourWay => moves.iter().map(|&mask| mask & 0b1111).collect(),
    }
}

/// A ray from `anchor` in `direction` walked one anchor at a time, every anchor tested in
/// full: a dead end where the step is illegal, a stop at the first anchor `next` (stepped to
/// from `at`) where `stops(rule, at, next)`.
fn walk(
    rule: RayRule,
    width: usize,
    (anchor, direction): (usize, usize),
    stops: impl Fn(RayRule, usize, usize) -> bool,
) -> StoredRay {
    let rule = RayRule {
        even_costs: None,
        ..rule
    };
    let offset = direction_offsets(width)[direction];
    let (mut at, mut steps) = (anchor, 0);
    loop {
        if rule.moves[at] & 1 << direction == 0 {
            return StoredRay {
                steps,
                stops: false,
            };
        }
        let next = at.wrapping_add_signed(offset);
        steps += 1;
        if stops(rule, at, next) {
            return StoredRay { steps, stops: true };
        }
        at = next;
    }
}

/// The straight ray walked as the search does without a table.
fn walked(rule: RayRule, width: usize, anchor: usize, direction: usize) -> StoredRay {
    let offsets = direction_offsets(width);
    walk(rule, width, (anchor, direction), |rule, at, next| {
        rule.turns_at(at, next, direction, &offsets)
    })
}

/// The diagonal ray walked, trying both straight rays at each anchor.
fn walked_diagonal(rule: RayRule, width: usize, anchor: usize, direction: usize) -> StoredRay {
    let offsets = direction_offsets(width);
    let parts = PARTS[direction];
    walk(rule, width, (anchor, direction), |rule, at, next| {
        rule.turns_at(at, next, direction, &offsets)
            || parts
                .iter()
                .any(|&part| walked(rule, width, next, part).stops)
    })
}

fn random_open(rng: &mut TestRng, cells: usize, walls_in_ten: usize) -> Vec<bool> {
    (0..cells).map(|_| rng.below(10) >= walls_in_ten).collect()
}

#[test]
fn every_stored_ray_is_the_walked_ray() {
    let mut rng = TestRng(0x51DE_0A75);
    for case in 0..600 {
        let (width, height) = (1 + rng.below(24), 1 + rng.below(24));
        let open = random_open(&mut rng, width * height, case % 6);
        let movement = [Movement::EightWay, Movement::FourWay][case / 2 % 2];
        let multipliers = random_multipliers(&mut rng, width * height, case % 2 == 1);
        let map = tables(&open, multipliers.as_ref(), (width, height), movement, case);
        let rule = rule_of(&map, multipliers.as_ref(), movement);
        let moves = rule.moves;
        let distances = JumpDistances::build(rule, width);
        for anchor in 0..moves.len() {
            // Under 4-way rules vertical rays try both sides at every anchor and read
            // only the horizontal entries.
            for direction in 0..STRAIGHT_DIRECTIONS {
                if movement == Movement::FourWay && jump_rules::VERTICAL[direction] {
                    continue;
                }
                assert_eq!(
                    distances.ray(anchor, direction),
                    walked(rule, width, anchor, direction),
                    "case {case}: {width}x{height}, anchor {anchor}, direction {direction}"
                );
            }
            for direction in STRAIGHT_DIRECTIONS..8 {
                let expected = (movement == Movement::EightWay)
                    .then(|| walked_diagonal(rule, width, anchor, direction));
                assert_eq!(
                    distances.diagonal_ray(anchor, direction),
                    expected,
                    "case {case}: {width}x{height}, anchor {anchor}, direction {direction}"
                );
            }
        }
    }
}

#[test]
fn four_way_tables_keep_no_diagonal_rays() {
    let open = vec![true; 9];
    let moves = move_masks(&open, 3, 3);
    let rule = RayRule {
        moves: &moves,
        multipliers: None,
        even_costs: None,
        movement: Movement::FourWay,
    };
    let distances = JumpDistances::build(rule, 3);
    assert_eq!(distances.diagonal_ray(4, 4), None);
    assert_eq!(distances.memory_bytes(), JumpDistances::estimated_bytes(9));
}

#[test]
fn a_repaired_table_equals_a_rebuild() {
    let mut rng = TestRng(0xED17_5EED);
    for case in 0..600 {
        let (width, height) = (1 + rng.below(20), 1 + rng.below(20));
        let mut open = random_open(&mut rng, width * height, case % 5);
        let movement = [Movement::EightWay, Movement::FourWay][case / 2 % 2];
        let weighted = case % 2 == 1;
        let mut multipliers = random_multipliers(&mut rng, width * height, weighted);
        let map = tables(&open, multipliers.as_ref(), (width, height), movement, case);
        let mut distances =
            JumpDistances::build(rule_of(&map, multipliers.as_ref(), movement), width);
        for edit in 0..6 {
            // Mostly single cells, as games edit; sometimes a rectangle.
            let (x0, y0) = (rng.below(width), rng.below(height));
            let (x1, y1) = if edit % 3 == 0 {
                (
                    x0 + 1 + rng.below(width - x0),
                    y0 + 1 + rng.below(height - y0),
                )
            } else {
                (x0 + 1, y0 + 1)
            };
            for y in y0..y1 {
                for x in x0..x1 {
                    open[y * width + x] = rng.below(2) == 0;
                    if let Some(multipliers) = &mut multipliers {
                        multipliers.set(y * width + x, rng.below(4) as u32);
                    }
                }
            }
            // Masks change up to one anchor around the edited cells, and a weighted
            // ray's tests read multipliers up to two anchors away (see the module docs)
            // and the mask of the anchor one step on.
            let grown = if weighted { 2 } else { 1 };
            let changed = Window { x0, y0, x1, y1 }.grown(grown, grown, width, height);
            let map = tables(&open, multipliers.as_ref(), (width, height), movement, case);
            let rule = rule_of(&map, multipliers.as_ref(), movement);
            distances.repair(rule, width, changed);
            assert_eq!(
                distances,
                JumpDistances::build(rule, width),
                "case {case}, edit {edit}: {width}x{height}, cells {x0}..{x1} x {y0}..{y1}"
            );
        }
    }
}
