//! Generated maps for the smoothing tests (walls, weighted or uniform ground, 4- and 8-way,
//! units of sizes 1 to 3) and the independent checker set up for a query's rules.

use crate::check::likely_legal_anchor;
use crate::generate::{random_cell, random_grid, random_profile, Rng};
use crate::reference::Reference;
use crate::swept::WaypointChecker;
use crate::units::Standing;
use clearance_core::{Cell, Movement, OtherUnits, PathMap, PathQuery, SearchMode, UnitCost};

/// Profile names of generated maps.
pub const NAMES: [&str; 2] = ["scout", "truck"];

/// Multipliers for the cost rule, fixed point (1000 = 1.0): 0, below and above the profiles'.
pub const UNIT_COSTS: [u32; 4] = [0, 500, 2500, 30000];

/// A generated map, 4 to `max_side - 1` cells a side, with the profiles of [`NAMES`] and up to
/// five units of sizes 1 to 3 (their record as the test keeps it).
pub fn random_map(rng: &mut Rng, case: usize, max_side: i64) -> (PathMap, Vec<Standing>) {
    let width = rng.range(4, max_side) as i32;
    let height = rng.range(4, max_side) as i32;
    let walls = *rng.pick(&[0, 5, 12, 25]);
    let movement = if case % 3 == 2 {
        Movement::FourWay
    } else {
        Movement::EightWay
    };
    let mut map = PathMap::new(random_grid(rng, width, height, walls)).with_movement(movement);
    for name in NAMES {
        let mut profile = random_profile(rng, name);
        if case.is_multiple_of(4) {
            // Uniform ground: every terrain the profile enters at one multiplier.
            let kept: Vec<u8> = (0..=255u8)
                .filter(|&t| profile.fixed_multiplier(t).is_some())
                .collect();
            for terrain in kept {
                profile.set_terrain(terrain, 1.0).unwrap();
            }
        }
        map.set_profile(profile).unwrap();
    }
    let mut units = Vec::new();
    for id in 0..rng.range(0, 6) {
        let unit = Standing {
            id,
            anchor: random_cell(rng, map.region()),
            size: rng.range(1, 4) as i32,
        };
        map.place_unit(unit.id, unit.anchor, i64::from(unit.size))
            .unwrap();
        units.push(unit);
    }
    (map, units)
}

/// The checker for `query`'s rules on `map`, with `units` the test's record of the units.
pub fn checker_for<'a>(
    map: &'a PathMap,
    units: &[Standing],
    query: &PathQuery<'_>,
    start: Cell,
) -> WaypointChecker<'a> {
    let counted: Vec<Standing> = (units.iter())
        .filter(|unit| Some(unit.id) != query.moving_unit && !query.exempt_units.contains(&unit.id))
        .copied()
        .collect();
    WaypointChecker {
        grid: map.grid(),
        profile: map.profile(query.profile).unwrap(),
        size: query.agent_size,
        units: (query.other_units != OtherUnits::Ignore).then_some((counted, query.other_units)),
        start,
    }
}

/// A query drawn at random on a map of [`random_map`]: its parts, owned, so that the caller
/// can add to them before asking (see [`query`](Self::query)).
pub struct DrawnQuery {
    pub start: Cell,
    pub goal: Cell,
    pub size: i64,
    pub profile: &'static str,
    pub rule: OtherUnits,
    pub exempt: Vec<i64>,
    pub allow_partial_path: bool,
    pub search: SearchMode,
}

impl DrawnQuery {
    /// A size of 1 to 4, one of [`NAMES`], start and goal most often legal, any rule for the
    /// other units (a cost from [`UNIT_COSTS`]), each of `units` exempt at 15%, partial paths
    /// at 40%, any search mode.
    pub fn draw(rng: &mut Rng, map: &PathMap, units: &[Standing]) -> DrawnQuery {
        let size = rng.range(1, 5);
        let profile = *rng.pick(&NAMES);
        let terrain = Reference::for_map(map, profile, size);
        let start = likely_legal_anchor(rng, map.grid(), &terrain);
        let goal = likely_legal_anchor(rng, map.grid(), &terrain);
        let rule = match rng.range(0, 3) {
            0 => OtherUnits::Ignore,
            1 => OtherUnits::Block,
            _ => OtherUnits::Cost(UnitCost::from_fixed(*rng.pick(&UNIT_COSTS)).unwrap()),
        };
        let exempt = (units.iter())
            .map(|unit| unit.id)
            .filter(|_| rng.chance(15))
            .collect();
        DrawnQuery {
            start,
            goal,
            size,
            profile,
            rule,
            exempt,
            allow_partial_path: rng.chance(40),
            search: *rng.pick(&SearchMode::ALL),
        }
    }

    /// The query.
    pub fn query(&self) -> PathQuery<'_> {
        PathQuery::new(self.start, self.goal, self.size, self.profile)
            .other_units(self.rule)
            .exempt_units(&self.exempt)
            .allow_partial_path(self.allow_partial_path)
            .search(self.search)
    }
}
