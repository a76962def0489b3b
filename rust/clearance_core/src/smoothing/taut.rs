//! Choosing the waypoints: a greedy search ahead along the path, then a stack pass that drops every
//! waypoint its neighbours make needless (the parent module proves the result taut).

use super::rows::first_blocked_swept;
use super::rules::{CellRules, FORBIDDEN};
use super::sweep::{all_swept, sweeps_cell};

/// The indices into `path` (map-local anchors, a chain of legal steps) of its taut waypoints,
/// first and last included; empty for an empty path.
pub(crate) fn taut_waypoints(path: &[(i64, i64)], rules: &CellRules<'_>) -> Vec<usize> {
    let Some(last) = path.len().checked_sub(1) else {
        return Vec::new();
    };
    if last == 0 {
        return vec![0];
    }
    let segments = Segments::new(path, rules);
    // The anchors where the path changes direction, and the last: between two of them the
    // path is one straight run.
    let mut turns = Vec::with_capacity(path.len() / 4 + 1);
    let step = |pair: &[(i64, i64)]| (pair[1].0 - pair[0].0, pair[1].1 - pair[0].1);
    let mut previous = step(path);
    for (at, pair) in path.windows(2).enumerate().skip(1) {
        let next = step(pair);
        if next != previous {
            turns.push(at);
        }
        previous = next;
    }
    turns.push(last);
    // Each greedy waypoint with the cell that refused going one anchor farther from it, when
    // that cell refuses every segment (see `Segments::hard`).
    let mut greedy = vec![(0, None)];
    let mut at = 0;
    while at < last {
        let ahead = &turns[turns.partition_point(|&turn| turn <= at)..];
        let (next, witness) = segments.farthest_ahead(at, ahead);
        greedy.last_mut().expect("the start is in").1 = witness.filter(|&cell| segments.hard(cell));
        greedy.push((next, None));
        at = next;
    }
    let mut taut: Vec<(usize, Option<(i64, i64)>)> = Vec::with_capacity(greedy.len());
    for &(arrival, witness) in &greedy {
        while let [.., (before, seen), _] = taut[..] {
            // A hard witness the segment sweeps refuses it without a sweep.
            let refused = seen.is_some_and(|cell| segments.sweeps(before, arrival, cell))
                || !segments.allowed(before, arrival);
            if refused {
                break;
            }
            taut.pop();
        }
        taut.push((arrival, witness));
    }
    taut.into_iter().map(|(waypoint, _)| waypoint).collect()
}

/// The segments between anchors of one path, tested against the rules.
struct Segments<'a> {
    path: &'a [(i64, i64)],
    rules: &'a CellRules<'a>,
    /// The multiplier bound of every pair of anchors; `None` where the rules are uniform.
    bounds: Option<RangeMax>,
}

impl<'a> Segments<'a> {
    fn new(path: &'a [(i64, i64)], rules: &'a CellRules<'a>) -> Self {
        let bounds = (!rules.uniform()).then(|| {
            let steps = path.windows(2).map(|pair| {
                let mut highest = 0;
                all_swept(pair[0], pair[1], rules.size(), |x, y| {
                    highest = highest.max(rules.multiplier(x, y));
                    true
                });
                highest
            });
            RangeMax::new(steps.collect())
        });
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
        let rules = self.rules;
        let (start, end) = (self.path[from], self.path[to]);
        if let Some(obstacles) = rules.obstacles(bound) {
            return first_blocked_swept(start, end, &obstacles);
        }
        let mut refused = None;
        all_swept(start, end, rules.size(), |x, y| {
            let keeps = rules.multiplier(x, y) <= bound;
            if !keeps {
                refused = Some((x, y));
            }
            keeps
        });
        refused
    }

    /// Whether `cell` refuses every segment that sweeps it, whatever its bound: terrain the
    /// profile may not enter, or a cell under a blocking unit outside the start's footprint.
    fn hard(&self, cell: (i64, i64)) -> bool {
        self.rules.multiplier(cell.0, cell.1) == FORBIDDEN
    }

    /// Whether the segment from anchor `from` to anchor `to` sweeps `cell`.
    fn sweeps(&self, from: usize, to: usize, cell: (i64, i64)) -> bool {
        sweeps_cell(self.path[from], self.path[to], self.rules.size(), cell)
    }

    /// The next waypoint after anchor `at` (not the last), given the turns after it (`ahead`,
    /// the last anchor among them): an anchor accepted from `at` whose successor on the path
    /// is refused (or the last anchor), with a cell that refuses the successor.
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
    /// witness narrows the run again.
    fn farthest_ahead(&self, at: usize, ahead: &[usize]) -> (usize, Option<(i64, i64)>) {
        let last_turn = ahead.len() - 1;
        let mut accepted = 0;
        let mut reach = 1;
        let (refused, mut witness) = loop {
            if accepted == last_turn {
                return (ahead[accepted], None);
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
            let (candidate, _) = bisect(low, high, |anchor| !self.sweeps(at, anchor, witness));
            if candidate == low {
                return (low, Some(witness));
            }
            match self.refusal(at, candidate) {
                None => return (candidate, Some(witness)),
                Some(cell) => (high, witness) = (candidate, cell),
            }
        }
    }
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
