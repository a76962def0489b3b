//! Differential target: a small map (up to 12x12, a handful of terrain ids), 1-3 profiles and
//! a sequence of edits and queries, all decoded from the input.
//!
//! Checks, after every operation:
//! * terrain equals an independent mirror (plain bytes, edits re-implemented here), so a
//!   rejected edit left the grid bit-identical and an accepted one wrote what it should;
//! * each call's Ok/Err matches what the mirror predicts;
//! * every registered profile's clearance layer equals `ClearanceLayer::build` on the current
//!   grid (the map may repair layers incrementally), also on a clone taken earlier (which
//!   shares cached layers with the map it was cloned from);
//! * every query agrees with the reference solver (`clearance_fuzz::check_query`), and the
//!   taut waypoints of its path pass the independent checker of `clearance_tests::swept`.
#![no_main]

use clearance_core::{
    AgentProfile, Cell, LandmarkPlacement, Movement, PathMap, Region, TerrainEdit, TerrainGrid,
    DIAGONAL_STEP, MAX_LANDMARKS,
};
use clearance_fuzz::{check_estimate, check_layers, check_query};
use clearance_tests::reference::Reference;
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// With `FUZZ_TRACE=1` in the environment, every operation is printed to stderr as Rust-like
/// calls, to turn a crashing input into a test (`scripts/fuzz.sh replay differential FILE`).
fn tracing() -> bool {
    static TRACE: OnceLock<bool> = OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("FUZZ_TRACE").is_some_and(|v| v == "1"))
}

macro_rules! trace {
    ($($arg:tt)*) => {
        if tracing() {
            eprintln!($($arg)*);
        }
    };
}

/// Profile names: three real ones, the empty name (rejected) and one never registered.
const NAMES: [&str; 5] = ["p0", "p1", "p2", "", "missing"];
const TERRAINS: [u8; 6] = [0, 1, 2, 3, 4, 255];
const MULTIPLIERS: [f64; 12] = [
    0.0, -0.0, 0.001, 0.0015, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 9.0, 10_000.0,
];
const BAD_MULTIPLIERS: [f64; 5] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 10_000.5];
const SIZES: [i64; 10] = [1, 1, 2, 2, 3, 4, 0, -1, 5, 256];
const MAX_SIDE: i32 = 12;
const MAX_OPS: usize = 48;

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});

/// The greatest common divisor of `a` and `b` (`gcd(0, b) = b`).
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The terrain as the harness expects it, edited by its own code.
#[derive(Clone)]
struct Mirror {
    region: Region,
    cells: Vec<u8>,
    /// The movement last set: the reference reads the map's, so the harness keeps its own.
    movement: Movement,
}

impl Mirror {
    fn encloses(&self, rect: Region) -> bool {
        let r = self.region;
        let (x0, y0) = (i64::from(r.x), i64::from(r.y));
        let (x1, y1) = (x0 + i64::from(r.width), y0 + i64::from(r.height));
        rect.width >= 1
            && rect.height >= 1
            && i64::from(rect.x) >= x0
            && i64::from(rect.y) >= y0
            && i64::from(rect.x) + i64::from(rect.width) <= x1
            && i64::from(rect.y) + i64::from(rect.height) <= y1
    }

    fn fill(&mut self, rect: Region, terrain: u8) {
        let width = i64::from(self.region.width);
        for y in 0..i64::from(rect.height) {
            for x in 0..i64::from(rect.width) {
                let column = i64::from(rect.x) + x - i64::from(self.region.x);
                let row = i64::from(rect.y) + y - i64::from(self.region.y);
                self.cells[(row * width + column) as usize] = terrain;
            }
        }
    }

    fn contains(&self, cell: Cell) -> bool {
        self.encloses(Region::new(cell.x, cell.y, 1, 1))
    }

    /// The terrain at `cell`, by the harness's own record; `None` off the map.
    fn terrain(&self, cell: Cell) -> Option<u8> {
        let column = i64::from(cell.x) - i64::from(self.region.x);
        let row = i64::from(cell.y) - i64::from(self.region.y);
        self.contains(cell)
            .then(|| self.cells[(row * i64::from(self.region.width) + column) as usize])
    }
}

struct State {
    map: PathMap,
    mirror: Mirror,
    profiles: BTreeMap<String, AgentProfile>,
    /// A clone taken earlier, with the terrain it must still have.
    snapshot: Option<(PathMap, Mirror)>,
}

impl State {
    fn check(&self) {
        check_map(&self.map, &self.mirror);
        assert_eq!(self.map.profiles().count(), self.profiles.len());
        for (name, profile) in &self.profiles {
            assert_eq!(self.map.profile(name), Some(profile), "profile {name:?}");
        }
        if let Some((snapshot, mirror)) = &self.snapshot {
            check_map(snapshot, mirror);
        }
    }
}

fn check_map(map: &PathMap, mirror: &Mirror) {
    assert_eq!(map.region(), mirror.region);
    assert_eq!(map.movement(), mirror.movement);
    assert_eq!(map.grid().region(), mirror.region);
    assert!(
        map.grid().as_bytes() == mirror.cells.as_slice(),
        "terrain differs from the mirror\nmap:    {:?}\nmirror: {:?}",
        map.grid().as_bytes(),
        mirror.cells
    );
    check_layers(map);
}

fn coordinate(base: i32, offset: i64) -> i32 {
    (i64::from(base) + offset).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A region for a new map: small, origin near zero or at the edges of the i32 range.
fn map_region(u: &mut Unstructured) -> Result<Region> {
    let width = u.int_in_range(1..=MAX_SIDE)?;
    let height = u.int_in_range(1..=MAX_SIDE)?;
    let origin = |u: &mut Unstructured, side: i32| -> Result<i32> {
        Ok(match u.int_in_range(0..=7u8)? {
            0 => i32::MIN,
            1 => i32::MAX - side, // far edge exactly at i32::MAX
            _ => u.int_in_range(-4..=4)?,
        })
    };
    let x = origin(u, width)?;
    let y = origin(u, height)?;
    Ok(Region::new(x, y, width, height))
}

fn terrain(u: &mut Unstructured) -> Result<u8> {
    Ok(*u.choose(&TERRAINS)?)
}

fn terrain_data(u: &mut Unstructured, len: usize) -> Result<Vec<u8>> {
    (0..len).map(|_| terrain(u)).collect()
}

/// A cell in or near the map (up to 2 cells outside), or rarely far outside.
fn cell(u: &mut Unstructured, region: Region) -> Result<Cell> {
    if u.int_in_range(0..=15u8)? == 0 {
        return Ok(Cell::new(
            *u.choose(&[i32::MIN, -1, 0, i32::MAX])?,
            *u.choose(&[i32::MIN, -1, 0, i32::MAX])?,
        ));
    }
    let dx = u.int_in_range(-2..=i64::from(region.width) + 1)?;
    let dy = u.int_in_range(-2..=i64::from(region.height) + 1)?;
    Ok(Cell::new(
        coordinate(region.x, dx),
        coordinate(region.y, dy),
    ))
}

/// A rectangle: mostly inside the map, sometimes empty, negative, sticking out or overflowing.
fn rect(u: &mut Unstructured, region: Region) -> Result<Region> {
    match u.int_in_range(0..=9u8)? {
        0 => {
            let pick = [i32::MIN, -1, 0, 1, i32::MAX];
            Ok(Region::new(
                *u.choose(&pick)?,
                *u.choose(&pick)?,
                *u.choose(&pick)?,
                *u.choose(&pick)?,
            ))
        }
        1 => Ok(region),
        _ => {
            let at = cell(u, region)?;
            let width = u.int_in_range(-1..=region.width + 1)?;
            let height = u.int_in_range(-1..=region.height + 1)?;
            Ok(Region::new(at.x, at.y, width, height))
        }
    }
}

fn profile(u: &mut Unstructured, name: &str) -> Result<AgentProfile> {
    let mut profile = AgentProfile::new(name);
    for &terrain in &TERRAINS {
        match u.int_in_range(0..=5u8)? {
            0 | 1 => {}
            2 => {
                // A rejected multiplier leaves the profile as it was.
                let before = profile.clone();
                let bad = *u.choose(&BAD_MULTIPLIERS)?;
                assert!(profile.set_terrain(terrain, bad).is_err(), "{bad} accepted");
                assert_eq!(profile, before);
            }
            _ => profile
                .set_terrain(terrain, *u.choose(&MULTIPLIERS)?)
                .expect("valid multiplier"),
        }
    }
    if u.int_in_range(0..=7u8)? == 0 {
        profile.forbid_terrain(terrain(u)?);
    }
    Ok(profile)
}

fn edit(u: &mut Unstructured, region: Region) -> Result<TerrainEdit> {
    Ok(if u.arbitrary::<bool>()? {
        TerrainEdit::Cell {
            cell: cell(u, region)?,
            terrain: terrain(u)?,
        }
    } else {
        TerrainEdit::Rect {
            rect: rect(u, region)?,
            terrain: terrain(u)?,
        }
    })
}

fn landmarks(u: &mut Unstructured, region: Region) -> Result<LandmarkPlacement> {
    Ok(match u.int_in_range(0..=7u8)? {
        0 => LandmarkPlacement::None,
        1 => LandmarkPlacement::Farthest(*u.choose(&[0, MAX_LANDMARKS, MAX_LANDMARKS + 1])?),
        2 => {
            let count = u.int_in_range(0..=3usize)?;
            LandmarkPlacement::At((0..count).map(|_| cell(u, region)).collect::<Result<_>>()?)
        }
        3 => LandmarkPlacement::At(vec![Cell::new(region.x, region.y); MAX_LANDMARKS + 1]),
        _ => LandmarkPlacement::Farthest(u.int_in_range(1..=4)?),
    })
}

fn run(u: &mut Unstructured) -> Result<()> {
    let region = map_region(u)?;
    let data = terrain_data(u, region.area() as usize)?;
    let grid = TerrainGrid::from_bytes(region, &data).expect("valid generated region");
    let movement = if u.arbitrary::<bool>()? {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    trace!("let grid = TerrainGrid::from_bytes({region:?}, &{data:?});");
    trace!("let mut map = PathMap::new(grid).with_movement({movement:?});");
    let mut map = PathMap::new(grid).with_movement(movement);
    if u.arbitrary::<bool>()? {
        let placement = LandmarkPlacement::Farthest(u.int_in_range(1..=4)?);
        trace!("map.set_landmarks({placement:?});");
        map.set_landmarks(placement).expect("at most MAX_LANDMARKS");
    }
    let mut state = State {
        map,
        mirror: Mirror {
            region,
            cells: data,
            movement,
        },
        profiles: BTreeMap::new(),
        snapshot: None,
    };
    let profile_count = u.int_in_range(1..=3usize)?;
    for name in &NAMES[..profile_count] {
        let profile = profile(u, name)?;
        trace!("map.set_profile({profile:?});");
        state
            .map
            .set_profile(profile.clone())
            .expect("non-empty name");
        state.profiles.insert(name.to_string(), profile);
    }
    state.check();

    for _ in 0..MAX_OPS {
        if u.is_empty() {
            break;
        }
        let region = state.mirror.region;
        match u.int_in_range(0..=15u8)? {
            // Queries: the most common operation.
            0..=4 => {
                let start = cell(u, region)?;
                let goal = if u.int_in_range(0..=7u8)? == 0 {
                    start
                } else {
                    cell(u, region)?
                };
                let size = *u.choose(&SIZES)?;
                let name = *u.choose(&NAMES)?;
                let probe = cell(u, region)?;
                let on_snapshot = u.int_in_range(0..=3u8)? == 0;
                let map = match &state.snapshot {
                    Some((snapshot, _)) if on_snapshot => snapshot,
                    _ => &state.map,
                };
                let which = if std::ptr::eq(map, &state.map) {
                    "map"
                } else {
                    "snapshot"
                };
                trace!("{which}.find_path({start:?}, {goal:?}, {size}, {name:?});");
                check_query(map, start, goal, size, name);
                trace!("{which}.estimate_cost({probe:?}, {goal:?}, {size}, {name:?});");
                check_estimate(map, probe, goal, size, name);
            }
            5 | 6 => {
                let at = cell(u, region)?;
                let terrain = terrain(u)?;
                let expected = state.mirror.contains(at);
                trace!("map.set_cell({at:?}, {terrain});");
                let outcome = state.map.set_cell(at, terrain);
                assert_eq!(outcome.is_ok(), expected, "set_cell {at:?}: {outcome:?}");
                if expected {
                    state.mirror.fill(Region::new(at.x, at.y, 1, 1), terrain);
                }
            }
            7 | 8 => {
                let rect = rect(u, region)?;
                let terrain = terrain(u)?;
                let expected = state.mirror.encloses(rect);
                trace!("map.fill_rect({rect:?}, {terrain});");
                let outcome = state.map.fill_rect(rect, terrain);
                assert_eq!(outcome.is_ok(), expected, "fill_rect {rect:?}: {outcome:?}");
                if expected {
                    state.mirror.fill(rect, terrain);
                }
            }
            9 | 10 => {
                let count = u.int_in_range(0..=4usize)?;
                let edits: Vec<TerrainEdit> =
                    (0..count).map(|_| edit(u, region)).collect::<Result<_>>()?;
                let expected = edits.iter().all(|edit| state.mirror.encloses(edit.rect()));
                trace!("map.apply_edits(&{edits:?});");
                let outcome = state.map.apply_edits(&edits);
                assert_eq!(
                    outcome.is_ok(),
                    expected,
                    "apply_edits {edits:?}: {outcome:?}"
                );
                if expected {
                    for edit in &edits {
                        state.mirror.fill(edit.rect(), edit.terrain());
                    }
                }
            }
            11 => {
                let cells = state.mirror.cells.len();
                let len = match u.int_in_range(0..=5u8)? {
                    0 => cells - 1,
                    1 => cells + 1,
                    _ => cells,
                };
                let data = terrain_data(u, len)?;
                trace!("map.load_terrain(&{data:?});");
                let outcome = state.map.load_terrain(&data);
                assert_eq!(outcome.is_ok(), len == cells, "load_terrain: {outcome:?}");
                if len == cells {
                    state.mirror.cells = data;
                }
            }
            12 => match u.int_in_range(0..=5u8)? {
                0 => {
                    trace!("map.set_movement(Movement::FourWay);");
                    state.map.set_movement(Movement::FourWay);
                    state.mirror.movement = Movement::FourWay;
                }
                1 => {
                    trace!("map.set_movement(Movement::EightWay);");
                    state.map.set_movement(Movement::EightWay);
                    state.mirror.movement = Movement::EightWay;
                }
                2 => {
                    trace!("let snapshot = map.clone();");
                    state.snapshot = Some((state.map.clone(), state.mirror.clone()))
                }
                3 => {
                    // A new grid, possibly of another size and origin.
                    let region = map_region(u)?;
                    let data = terrain_data(u, region.area() as usize)?;
                    let grid = TerrainGrid::from_bytes(region, &data).expect("valid region");
                    let expected = match state.map.landmark_placement() {
                        LandmarkPlacement::At(cells) => LandmarkPlacement::At(
                            cells
                                .iter()
                                .copied()
                                .filter(|&c| region.contains(c))
                                .collect(),
                        ),
                        other => other.clone(),
                    };
                    trace!("map.replace_grid(TerrainGrid::from_bytes({region:?}, &{data:?}));");
                    state.map.replace_grid(grid);
                    assert_eq!(state.map.landmark_placement(), &expected);
                    state.mirror = Mirror {
                        region,
                        cells: data,
                        movement: state.mirror.movement,
                    };
                }
                _ => {
                    let name = *u.choose(&NAMES)?;
                    trace!("map.bake_landmarks({name:?});");
                    let enterable = |profile: &AgentProfile, cell: Cell| {
                        (state.mirror.terrain(cell))
                            .is_some_and(|t| profile.multiplier(t).is_some())
                    };
                    match (state.map.bake_landmarks(name), state.map.profile(name)) {
                        (Some(stats), Some(profile)) => {
                            assert!(!stats.landmarks.is_empty());
                            assert!(stats.landmarks.len() <= MAX_LANDMARKS);
                            // A table kept through edits that only raised costs (lower
                            // bounds, not exact) may name landmarks closed since.
                            if state.map.landmarks_exact(name) == Some(true) {
                                assert!(stats.landmarks.iter().all(|&c| enterable(profile, c)));
                            }
                        }
                        (Some(_), None) => panic!("landmarks baked for unknown profile {name:?}"),
                        (None, None) => {}
                        (None, Some(profile)) => {
                            // A table is only missing for a reason the caller can see: no
                            // landmarks asked for, none placeable (no cell the profile may
                            // enter among those given), or every step free.
                            // Farthest placement gives landmarks to regions of at least 64
                            // anchors only (`LandmarkPlacement::Farthest`'s docs): the cells
                            // of such regions, by the reference.
                            let eight_way = state.mirror.movement == Movement::EightWay;
                            let rules = Reference::new(state.map.grid(), profile, 1, eight_way);
                            let in_large_region = |cell: Cell| {
                                rules.legal(cell) && rules.reachable_from(cell).len() >= 64
                            };
                            let candidates: Vec<Cell> = match state.map.landmark_placement() {
                                LandmarkPlacement::None | LandmarkPlacement::Farthest(0) => {
                                    Vec::new()
                                }
                                LandmarkPlacement::Farthest(_) => {
                                    region.cells().filter(|&c| in_large_region(c)).collect()
                                }
                                LandmarkPlacement::At(cells) => cells.clone(),
                            };
                            let every_step_free = (0..=u8::MAX)
                                .filter_map(|t| profile.multiplier(t))
                                .all(|multiplier| multiplier == 0.0);
                            // Distances are stored in 32 bits, counted in the greatest common
                            // divisor of the multipliers: a dear terrain beside a nearly free
                            // one can pass that on the smallest map.
                            let fixed: Vec<u64> = (0..=u8::MAX)
                                .filter_map(|t| profile.fixed_multiplier(t))
                                .map(u64::from)
                                .collect();
                            let unit = fixed.iter().fold(0, |a, &b| gcd(a, b)).max(1);
                            let dearest = fixed.iter().max().copied().unwrap_or(0) / unit;
                            let longest = (dearest * DIAGONAL_STEP).saturating_mul(region.area());
                            let may_overflow = longest >= u64::from(u32::MAX);
                            assert!(
                                every_step_free
                                    || may_overflow
                                    || !candidates.iter().any(|&c| enterable(profile, c)),
                                "no landmarks baked for {name:?} though {:?} holds cells it may enter",
                                state.map.landmark_placement()
                            );
                        }
                    }
                }
            },
            13 => {
                let placement = landmarks(u, region)?;
                let before = state.map.landmark_placement().clone();
                let expected = match &placement {
                    LandmarkPlacement::None => true,
                    LandmarkPlacement::Farthest(count) => *count <= MAX_LANDMARKS,
                    LandmarkPlacement::At(cells) => {
                        cells.len() <= MAX_LANDMARKS
                            && cells.iter().all(|&c| state.mirror.contains(c))
                    }
                };
                trace!("map.set_landmarks({placement:?});");
                let outcome = state.map.set_landmarks(placement.clone());
                assert_eq!(
                    outcome.is_ok(),
                    expected,
                    "set_landmarks {placement:?}: {outcome:?}"
                );
                let now = state.map.landmark_placement();
                assert_eq!(now, if expected { &placement } else { &before });
            }
            // Profiles: replace, add, remove; the empty name is rejected.
            _ => {
                let name = *u.choose(&NAMES)?;
                if u.int_in_range(0..=3u8)? == 0 {
                    trace!("map.remove_profile({name:?});");
                    let removed = state.map.remove_profile(name);
                    assert_eq!(removed, state.profiles.remove(name).is_some());
                } else {
                    let profile = profile(u, name)?;
                    trace!("map.set_profile({profile:?});");
                    let outcome = state.map.set_profile(profile.clone());
                    assert_eq!(outcome.is_ok(), !name.is_empty(), "set_profile {name:?}");
                    if outcome.is_ok() {
                        state.profiles.insert(name.to_string(), profile);
                    }
                }
            }
        }
        state.check();
    }
    Ok(())
}
