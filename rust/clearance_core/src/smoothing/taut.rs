//! Choosing the waypoints: a greedy search ahead along the path, then a stack pass that drops every
//! waypoint its neighbours make needless (the parent module proves the result taut).

use super::rules::{CellRules, FORBIDDEN};
use super::sweep::{first_sweeping_along, sweeps_cell};
use crate::grid::Cell;
use crate::movement::step_changes;

/// A path to smooth, a chain of legal steps: its cells and their storage indices on the map,
/// which the caller holds already (reading anchors from them as needed spares a copy of the
/// path).
pub(crate) struct PathAnchors<'a> {
    /// The path's cells.
    pub cells: &'a [Cell],
    /// Their storage indices, `y * width + x` counted from the map's origin.
    pub indices: &'a [usize],
    /// The map's origin cell and its width.
    pub origin: Cell,
    pub width: usize,
}

impl PathAnchors<'_> {
    /// Anchor `at`, map-local.
    #[inline]
    pub(crate) fn anchor(&self, at: usize) -> (i64, i64) {
        let cell = self.cells[at];
        (
            i64::from(cell.x) - i64::from(self.origin.x),
            i64::from(cell.y) - i64::from(self.origin.y),
        )
    }

    /// The anchors where the path may change direction, and the last: between two of them
    /// the path is one straight run.
    ///
    /// Read from the storage indices ([`step_changes`]) on a map at least three cells wide; on
    /// narrower maps every anchor counts.
    fn turns_into(&self, turns: &mut Vec<usize>) {
        turns.clear();
        let last = self.indices.len() - 1;
        if self.width < 3 {
            turns.extend(1..=last);
            return;
        }
        let indices = self.indices;
        // Every anchor is written and only turns are kept (the count grows by whether it is
        // one): where a path turns follows the map, so a branch on it is often mispredicted.
        turns.resize(indices.len(), 0);
        let mut count = 0;
        // The two anchors behind, carried along so that each anchor is read once.
        let (mut before, mut at) = (indices[0], indices[1]);
        for (position, &after) in indices.iter().enumerate().skip(2) {
            turns[count] = position - 1;
            count += usize::from(step_changes(before, at, after));
            (before, at) = (at, after);
        }
        turns[count] = last;
        turns.truncate(count + 1);
    }
}

/// Memory a smoothing call works in, kept between calls (in a search scratch) so that a
/// smoothed query allocates nothing but its result.
#[derive(Debug, Clone, Default)]
pub(crate) struct WaypointMemory {
    /// The path's turns.
    turns: Vec<usize>,
    /// The greedy waypoints, each with its witness, then the stack pass's survivors.
    greedy: Vec<(usize, Option<(i64, i64)>)>,
}

impl WaypointMemory {
    /// Bytes held.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.turns.capacity() * std::mem::size_of::<usize>()
            + self.greedy.capacity() * std::mem::size_of::<(usize, Option<(i64, i64)>)>()
    }
}

/// The indices into `path` of its taut waypoints, first and last included; none for an empty
/// path. Works in `memory`, which holds them when this returns.
pub(crate) fn taut_waypoints<'m>(
    path: &PathAnchors<'_>,
    rules: &CellRules<'_>,
    memory: &'m mut WaypointMemory,
) -> impl Iterator<Item = usize> + 'm {
    let WaypointMemory { turns, greedy } = memory;
    greedy.clear();
    match path.indices.len() {
        0 => {}
        1 => greedy.push((0, None)),
        _ => {
            path.turns_into(turns);
            let kept = taut_in(path, rules, turns, greedy);
            greedy.truncate(kept);
        }
    }
    greedy.iter().map(|&(waypoint, _)| waypoint)
}

/// The index into `path` of the first waypoint the greedy walk picks after its first anchor:
/// an anchor the segment from the first accepts, whose successor's segment is refused, or the
/// last anchor (0 for a path of one anchor). The stack pass of [`taut_waypoints`] can only
/// drop this waypoint for a later one, never pick a nearer one. Works in `memory`.
///
/// Unless `read_all`, `path` is the part read so far of a longer path: `None` when the walk
/// needs anchors past it; an answer is the one the whole path gives.
pub(crate) fn first_greedy_waypoint(
    path: &PathAnchors<'_>,
    rules: &CellRules<'_>,
    memory: &mut WaypointMemory,
    read_all: bool,
) -> Option<usize> {
    if path.indices.len() < 2 {
        return read_all.then_some(0);
    }
    path.turns_into(&mut memory.turns);
    let segments = Segments::new(path, rules);
    let found = if read_all {
        segments.farthest_ahead::<true>(0, &memory.turns)
    } else {
        segments.farthest_ahead::<false>(0, &memory.turns)
    };
    found.map(|(waypoint, _)| waypoint)
}

/// The taut waypoints of `path` (at least two anchors) with its `turns`: greedy ones pushed
/// onto `greedy`, each with its witness, then the stack pass's survivors moved to its front;
/// returns how many survive.
fn taut_in(
    path: &PathAnchors<'_>,
    rules: &CellRules<'_>,
    turns: &[usize],
    greedy: &mut Vec<(usize, Option<(i64, i64)>)>,
) -> usize {
    let last = path.indices.len() - 1;
    let segments = Segments::new(path, rules);
    // Each greedy waypoint with the cell that refused going one anchor farther from it, when
    // that cell refuses every segment (see `Segments::hard`).
    greedy.push((0, None));
    let mut at = 0;
    while at < last {
        let ahead = &turns[turns.partition_point(|&turn| turn <= at)..];
        let (next, witness) = (segments.farthest_ahead::<true>(at, ahead))
            .expect("a path read to its end needs no more anchors");
        greedy.last_mut().expect("the start is in").1 = witness.filter(|&cell| segments.hard(cell));
        greedy.push((next, None));
        at = next;
    }
    // The stack pass, in place: the stack (the first `kept` entries) never outgrows the
    // greedy waypoints read so far.
    let mut kept = 0;
    for read in 0..greedy.len() {
        let (arrival, witness) = greedy[read];
        while kept >= 2 {
            let (before, seen) = greedy[kept - 2];
            // A hard witness the segment sweeps refuses it without a sweep.
            let refused = seen.is_some_and(|cell| segments.sweeps(before, arrival, cell))
                || !segments.allowed(before, arrival);
            if refused {
                break;
            }
            kept -= 1;
        }
        greedy[kept] = (arrival, witness);
        kept += 1;
    }
    kept
}

/// The segments between anchors of one path, tested against the rules.
struct Segments<'a> {
    path: &'a PathAnchors<'a>,
    rules: &'a CellRules<'a>,
    /// The multiplier bound of every pair of anchors; `None` where the rules are uniform.
    bounds: Option<RangeMax>,
}

impl<'a> Segments<'a> {
    fn new(path: &'a PathAnchors<'a>, rules: &'a CellRules<'a>) -> Self {
        let bounds = (!rules.uniform()).then(|| RangeMax::new(step_bounds(path, rules)));
        Segments {
            path,
            rules,
            bounds,
        }
    }

    /// Whether the straight segment from anchor `from` to anchor `to` (`from < to`) keeps the
    /// rules.
    fn allowed(&self, from: usize, to: usize) -> bool {
        self.refusal(from, to).is_none()
    }

    /// A cell that the straight segment from anchor `from` to anchor `to` (`from < to`) sweeps
    /// and the rules refuse it, or `None` if the segment keeps the rules. A single step always
    /// does.
    ///
    /// The cell also refuses every segment from `from` to an anchor up to `to` that sweeps
    /// it: the bound of such a segment is no higher (a maximum over fewer steps).
    fn refusal(&self, from: usize, to: usize) -> Option<(i64, i64)> {
        if to == from + 1 {
            return None;
        }
        let bound = match &self.bounds {
            Some(bounds) => bounds.max(from, to),
            None => FORBIDDEN - 1,
        };
        (self.rules).first_refused(self.path.anchor(from), self.path.anchor(to), bound)
    }

    /// Whether `cell` refuses every segment that sweeps it, whatever its bound: terrain the
    /// profile may not enter, or a cell under a blocking unit outside the start's footprint.
    fn hard(&self, cell: (i64, i64)) -> bool {
        self.rules.multiplier(cell.0, cell.1) == FORBIDDEN
    }

    /// Whether the segment from anchor `from` to anchor `to` sweeps `cell`.
    fn sweeps(&self, from: usize, to: usize, cell: (i64, i64)) -> bool {
        sweeps_cell(
            self.path.anchor(from),
            self.path.anchor(to),
            self.rules.size(),
            cell,
        )
    }

    /// The next waypoint after anchor `at` (not the last), given the turns after it (`ahead`,
    /// the last anchor among them): an anchor accepted from `at` whose successor on the path
    /// is refused (or the last anchor), with a cell that refuses the successor.
    ///
    /// Without `READ_ALL`, the path is only the part read so far of a longer one, whose last
    /// anchor is no turn of the whole: `None` when the walk would test it, so that the answer,
    /// when there is one, is the one the whole path gives (every probe before it is of a turn
    /// of the whole path, and the bisections and the run search look at nothing past it).
    ///
    /// The first turn is reached by one straight run, so it is accepted untested; the turns
    /// beyond are galloped over (1, 2, 4, ... turns ahead) to the first refused one and
    /// bisected back to neighbouring turns, one accepted and one refused. Each refused probe
    /// leaves a *witness*, a swept cell the rules refuse, which refuses without a sweep every
    /// nearer probe that sweeps it. Between the two turns the path is a straight run, and the
    /// anchors of a straight run whose segment from `at` sweeps a given cell are consecutive
    /// (the points `p` such that `[at, p]` meets a convex set form a convex set, and a line
    /// meets it in an interval). So the last anchor of the run before the witness's interval
    /// is found by bisection with a constant-time test per anchor, and only it is swept in
    /// full: accepted, it is the answer (its successor sweeps the witness); refused, its own
    /// witness narrows the run again. Each witness's interval covers the anchors from the one
    /// after the candidate it gives to the one it refused, so every anchor of the run past the
    /// answer is refused: the answer is the run's last accepted anchor, whichever witnesses
    /// the sweeps name.
    fn farthest_ahead<const READ_ALL: bool>(
        &self,
        at: usize,
        ahead: &[usize],
    ) -> Option<(usize, Option<(i64, i64)>)> {
        let last_turn = ahead.len() - 1;
        let mut accepted = 0;
        let mut reach = 1;
        let (refused, mut witness) = loop {
            if !READ_ALL && accepted + reach >= last_turn {
                return None;
            }
            if accepted == last_turn {
                return Some((ahead[accepted], None));
            }
            let probe = (accepted + reach).min(last_turn);
            if let Some(cell) = self.refusal(at, ahead[probe]) {
                break (probe, cell);
            }
            accepted = probe;
            reach *= 2;
        };
        // Each witness comes from a probe at or past the turns still to test, so it refuses
        // any of them whose segment sweeps it.
        let (accepted, refused) = bisect(accepted, refused, |turn| {
            if self.sweeps(at, ahead[turn], witness) {
                return false;
            }
            match self.refusal(at, ahead[turn]) {
                None => true,
                Some(cell) => {
                    witness = cell;
                    false
                }
            }
        });
        let (low, mut high) = (ahead[accepted], ahead[refused]);
        loop {
            // `low` does not sweep the witness (it is accepted, and the witness refuses any
            // segment to an anchor up to `high` that sweeps it); `high` does.
            let candidate = self.last_clear_of(at, (low, high), witness);
            if candidate == low {
                return Some((low, Some(witness)));
            }
            match self.refusal(at, candidate) {
                None => return Some((candidate, Some(witness))),
                Some(cell) => (high, witness) = (candidate, cell),
            }
        }
    }

    /// The last anchor from `low` to `high - 1` (a straight run of the path) whose segment
    /// from `at` does not sweep `witness`, given that `low`'s does not and `high`'s does: the
    /// anchor before the first that sweeps it, in closed form where it settles it and by
    /// bisection otherwise.
    fn last_clear_of(&self, at: usize, (low, high): (usize, usize), witness: (i64, i64)) -> usize {
        let run_start = self.path.anchor(low);
        let next = self.path.anchor(low + 1);
        let step = (next.0 - run_start.0, next.1 - run_start.1);
        let last = (high - low) as i64;
        let from = self.path.anchor(at);
        let size = self.rules.size();
        match first_sweeping_along(from, (run_start, step), last, size, witness) {
            Some(first) => low + first as usize - 1,
            None => bisect(low, high, |anchor| !self.sweeps(at, anchor, witness)).0,
        }
    }
}

/// The highest multiplier under `rules` among the cells each step of `path` sweeps, step by
/// step.
///
/// A step sweeps its two footprints and, diagonally, the one cell of each side anchor's
/// footprint that neither holds (`sweep.rs`), so each footprint's highest multiplier is read
/// once, for both steps that sweep it, and a diagonal step adds its two corner cells.
fn step_bounds(path: &PathAnchors<'_>, rules: &CellRules<'_>) -> Vec<u32> {
    let size = rules.size();
    let footprint_highest = |(x, y): (i64, i64)| {
        let cells = (y..y + size).flat_map(|cy| (x..x + size).map(move |cx| (cx, cy)));
        cells
            .map(|(cx, cy)| rules.multiplier(cx, cy))
            .max()
            .unwrap_or(0)
    };
    let mut before = footprint_highest(path.anchor(0));
    (1..path.cells.len())
        .map(|to| {
            let (from, to) = (path.anchor(to - 1), path.anchor(to));
            let after = footprint_highest(to);
            let mut highest = before.max(after);
            let (dx, dy) = (to.0 - from.0, to.1 - from.1);
            if dx != 0 && dy != 0 {
                // The side anchors' corner cells: beyond `from`'s footprint on one axis, on
                // its edge nearest the move on the other.
                let (beyond_x, edge_x) = if dx > 0 {
                    (from.0 + size, from.0)
                } else {
                    (from.0 - 1, from.0 + size - 1)
                };
                let (beyond_y, edge_y) = if dy > 0 {
                    (from.1 + size, from.1)
                } else {
                    (from.1 - 1, from.1 + size - 1)
                };
                let corners = rules
                    .multiplier(beyond_x, edge_y)
                    .max(rules.multiplier(edge_x, beyond_y));
                highest = highest.max(corners);
            }
            before = after;
            highest
        })
        .collect()
}

/// Narrows `accepted < refused` to neighbours `(accepted, accepted + 1)` by testing the
/// middle of the gap with `allowed`.
fn bisect(
    mut accepted: usize,
    mut refused: usize,
    mut allowed: impl FnMut(usize) -> bool,
) -> (usize, usize) {
    while refused - accepted > 1 {
        let middle = accepted + (refused - accepted) / 2;
        if allowed(middle) {
            accepted = middle;
        } else {
            refused = middle;
        }
    }
    (accepted, refused)
}

/// The maximum of any run of steps, in constant time: `levels[j][i]` is the maximum of the
/// `2^j` steps from step `i`.
struct RangeMax {
    levels: Vec<Vec<u32>>,
}

impl RangeMax {
    fn new(steps: Vec<u32>) -> Self {
        let mut levels = vec![steps];
        let mut span = 1;
        while 2 * span <= levels[0].len() {
            let below = levels.last().expect("level 0 exists");
            let level = (0..below.len() - span)
                .map(|i| below[i].max(below[i + span]))
                .collect();
            levels.push(level);
            span *= 2;
        }
        RangeMax { levels }
    }

    /// The largest multiplier the path's steps sweep from anchor `from` to anchor `to`
    /// (`from < to`): steps `from..to`.
    fn max(&self, from: usize, to: usize) -> u32 {
        let count = to - from;
        let level = (usize::BITS - 1 - count.leading_zeros()) as usize;
        let values = &self.levels[level];
        values[from].max(values[to - (1 << level)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::blocked_cells::BlockedCells;
    use crate::paged::PagedVec;
    use crate::profile::AgentProfile;
    use crate::test_rng::TestRng;

    /// The storage indices of `cells` on a map `width` wide with its origin at `(0, 0)`.
    fn storage_indices(cells: &[Cell], width: i64) -> Vec<usize> {
        let index = |cell: &Cell| i64::from(cell.y) * width + i64::from(cell.x);
        cells.iter().map(|cell| index(cell) as usize).collect()
    }

    /// The path of `cells` with their `indices` on a map `width` wide with its origin at
    /// `(0, 0)`.
    fn from_origin<'a>(cells: &'a [Cell], indices: &'a [usize], width: i64) -> PathAnchors<'a> {
        PathAnchors {
            cells,
            indices,
            origin: Cell::new(0, 0),
            width: width as usize,
        }
    }

    #[test]
    fn turns_from_storage_indices_are_where_the_step_changes() {
        let mut rng = TestRng(21);
        let mut checked_turns = 0;
        for width in 1..=9i32 {
            let height = 7;
            for _ in 0..200 {
                let open = vec![0; (width * height) as usize];
                let cells = legal_walk(&mut rng, &open, i64::from(width), 1);
                if cells.len() < 3 {
                    continue;
                }
                let indices = storage_indices(&cells, i64::from(width));
                let path = from_origin(&cells, &indices, i64::from(width));
                let step_at =
                    |at: usize| (cells[at + 1].x - cells[at].x, cells[at + 1].y - cells[at].y);
                let mut by_steps: Vec<usize> = (1..cells.len() - 1)
                    .filter(|&at| step_at(at) != step_at(at - 1))
                    .collect();
                by_steps.push(cells.len() - 1);
                let mut turns = Vec::new();
                path.turns_into(&mut turns);
                if width >= 3 {
                    assert_eq!(turns, by_steps, "width {width}: {cells:?}");
                    checked_turns += turns.len();
                } else {
                    // Every anchor counts, so every real turn is among them.
                    assert_eq!(turns, (1..cells.len()).collect::<Vec<_>>());
                }
            }
        }
        assert!(checked_turns > 5000, "{checked_turns} turns checked");
    }

    /// A random walk of legal steps for a `size x size` unit on `terrain` (`width` wide; id 1
    /// may not be entered): footprints clear of id 1, and a diagonal step's two side
    /// footprints too. Keeps a direction for a while, so that it has straight runs.
    fn legal_walk(rng: &mut TestRng, terrain: &[u8], width: i64, size: i64) -> Vec<Cell> {
        let height = terrain.len() as i64 / width;
        let legal = |x: i64, y: i64| {
            (0..=width - size).contains(&x)
                && (0..=height - size).contains(&y)
                && (y..y + size)
                    .all(|cy| (x..x + size).all(|cx| terrain[(cy * width + cx) as usize] != 1))
        };
        let mut cells = Vec::new();
        for _ in 0..100 {
            let (x, y) = (rng.below(width), rng.below(height));
            if legal(x, y) {
                cells.push(Cell::new(x as i32, y as i32));
                break;
            }
        }
        let mut step = (0, 0);
        let mut stuck = 0;
        while !cells.is_empty() && cells.len() < 60 && stuck < 50 {
            if step == (0, 0) || rng.below(4) == 0 {
                step = (rng.below(3i64) - 1, rng.below(3i64) - 1);
            }
            let last = cells[cells.len() - 1];
            let (x, y) = (i64::from(last.x) + step.0, i64::from(last.y) + step.1);
            let corners = step.0 == 0
                || step.1 == 0
                || (legal(x, i64::from(last.y)) && legal(i64::from(last.x), y));
            if step != (0, 0) && legal(x, y) && corners {
                cells.push(Cell::new(x as i32, y as i32));
            } else {
                step = (0, 0);
                stuck += 1;
            }
        }
        cells
    }

    #[test]
    fn a_greedy_step_returns_the_last_accepted_anchor_of_its_run() {
        let mut rng = TestRng(53);
        let (width, height) = (24i64, 18i64);
        let profile = AgentProfile::new("unit")
            .with_terrain(0, 1.0)
            .and_then(|profile| profile.with_terrain(2, 3.0))
            .expect("valid multipliers");
        let (mut steps, mut refused_past) = (0, 0);
        for map in 0..500 {
            // Walls (id 1) on every map, dearer ground (id 2) on every other one.
            let terrain: Vec<u8> = (0..width * height)
                .map(|_| match rng.below(12) {
                    0 => 1,
                    1 | 2 if map % 2 == 1 => 2,
                    _ => 0,
                })
                .collect();
            let size = 1 + map % 3;
            let cells = legal_walk(&mut rng, &terrain, width, size);
            if cells.len() < 3 {
                continue;
            }
            let indices = storage_indices(&cells, width);
            let path = from_origin(&cells, &indices, width);
            let paged = PagedVec::from(terrain.clone());
            let blocked = BlockedCells::new(width as usize, height as usize, |x, y| {
                terrain[y * width as usize + x] == 1
            });
            let start = path.anchor(0);
            let rules = CellRules::new(
                (&paged, width as usize),
                Some(&blocked),
                &profile,
                size as u8,
                start,
                None,
            );
            let segments = Segments::new(&path, &rules);
            let mut turns = Vec::new();
            path.turns_into(&mut turns);
            let last = cells.len() - 1;
            let mut at = 0;
            while at < last {
                let ahead = &turns[turns.partition_point(|&turn| turn <= at)..];
                let (next, _) = segments.farthest_ahead::<true>(at, ahead).unwrap();
                assert!(
                    next > at && segments.allowed(at, next),
                    "map {map}: {at} to {next}"
                );
                if next < last {
                    // The turn that ends the run holding `next`, and every anchor after
                    // `next` up to it refused.
                    let end = turns[turns.partition_point(|&turn| turn <= next)];
                    for beyond in next + 1..=end {
                        assert!(
                            !segments.allowed(at, beyond),
                            "map {map}: from {at}, {next} returned but {beyond} accepted"
                        );
                        refused_past += 1;
                    }
                }
                steps += 1;
                at = next;
            }
        }
        assert!(
            steps > 1500 && refused_past > 1500,
            "{steps} steps, {refused_past} refused"
        );
    }

    #[test]
    fn step_bounds_are_the_highest_multiplier_each_step_sweeps() {
        use super::super::sweep::all_swept;
        let mut rng = TestRng(67);
        let (width, height) = (19i64, 15i64);
        let profile = AgentProfile::new("unit")
            .with_terrain(0, 1.0)
            .and_then(|profile| profile.with_terrain(2, 3.0))
            .and_then(|profile| profile.with_terrain(3, 0.5))
            .expect("valid multipliers");
        let mut diagonal_steps = 0;
        for map in 0..300 {
            let terrain: Vec<u8> = (0..width * height)
                .map(|_| [0, 0, 0, 1, 2, 3][rng.below(6) as usize])
                .collect();
            let size = 1 + map % 3;
            let cells = legal_walk(&mut rng, &terrain, width, size);
            if cells.len() < 2 {
                continue;
            }
            let indices = storage_indices(&cells, width);
            let path = from_origin(&cells, &indices, width);
            let paged = PagedVec::from(terrain.clone());
            let start = path.anchor(0);
            let terrain = (&paged, width as usize);
            let rules = CellRules::new(terrain, None, &profile, size as u8, start, None);
            let bounds = step_bounds(&path, &rules);
            assert_eq!(bounds.len(), cells.len() - 1);
            for (step, &bound) in bounds.iter().enumerate() {
                let (from, to) = (path.anchor(step), path.anchor(step + 1));
                let mut highest = 0;
                all_swept(from, to, size, |x, y| {
                    highest = highest.max(rules.multiplier(x, y));
                    true
                });
                assert_eq!(bound, highest, "map {map}, size {size}, {from:?} to {to:?}");
                diagonal_steps += usize::from(from.0 != to.0 && from.1 != to.1);
            }
        }
        assert!(diagonal_steps > 1000, "{diagonal_steps} diagonal steps");
    }

    #[test]
    fn range_maxima_match_a_scan() {
        let steps: Vec<u32> = (0..37u32).map(|i| (i * 7919) % 101).collect();
        let table = RangeMax::new(steps.clone());
        for from in 0..steps.len() {
            for to in from + 1..=steps.len() {
                let scanned = steps[from..to].iter().copied().max();
                assert_eq!(Some(table.max(from, to)), scanned, "{from}..{to}");
            }
        }
    }
}
