//! Choosing the waypoints: a greedy gallop along the path, then a stack pass that drops every
//! waypoint its neighbours make needless (the parent module proves the result taut).

use super::rules::{CellRules, FORBIDDEN};
use super::sweep::all_swept;

/// The indices into `path` (map-local anchors, a chain of legal steps) of its taut waypoints,
/// first and last included; empty for an empty path.
pub(crate) fn taut_waypoints(path: &[(i64, i64)], rules: &CellRules<'_>) -> Vec<usize> {
    let Some(last) = path.len().checked_sub(1) else {
        return Vec::new();
    };
    let segments = Segments::new(path, rules);
    let mut greedy = vec![0];
    let mut at = 0;
    while at < last {
        at = segments.farthest_ahead(at);
        greedy.push(at);
    }
    let mut taut: Vec<usize> = Vec::with_capacity(greedy.len());
    for &arrival in &greedy {
        while let [.., before, _] = taut[..] {
            if !segments.allowed(before, arrival) {
                break;
            }
            taut.pop();
        }
        taut.push(arrival);
    }
    taut
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
    /// rules. A single step always does.
    fn allowed(&self, from: usize, to: usize) -> bool {
        if to == from + 1 {
            return true;
        }
        let bound = match &self.bounds {
            Some(bounds) => bounds.max(from, to),
            None => FORBIDDEN - 1,
        };
        let rules = self.rules;
        all_swept(self.path[from], self.path[to], rules.size(), |x, y| {
            rules.multiplier(x, y) <= bound
        })
    }

    /// The next waypoint after anchor `at` (not the last): the anchors 2, 4, 8, ... ahead are
    /// tested up to the first refused one (or the last anchor), then the gap before it is
    /// bisected; the farthest accepted anchor found.
    fn farthest_ahead(&self, at: usize) -> usize {
        let last = self.path.len() - 1;
        let mut accepted = at + 1;
        let mut reach = 1;
        let refused = loop {
            if accepted == last {
                return last;
            }
            let probe = (accepted + reach).min(last);
            if !self.allowed(at, probe) {
                break probe;
            }
            accepted = probe;
            reach *= 2;
        };
        let (mut low, mut high) = (accepted, refused);
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            if self.allowed(at, middle) {
                low = middle;
            } else {
                high = middle;
            }
        }
        low
    }
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
