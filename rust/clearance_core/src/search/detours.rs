//! Searching round other units by first searching as if they were not there.
//!
//! Other units only remove anchors (`Block`) or raise what entering them costs (`Cost`), so
//! no path with them costs less than the optimum `C0` without them, and **any path with them
//! that costs `C0` is optimal**. Three tries, cheapest first:
//!
//! 1. Search as if alone. A path that enters no anchor under a counted unit and passes none
//!    diagonally is a path with them too, of cost `C0`: done.
//! 2. Otherwise, where the path crosses units, replace each stretch it cannot keep by a
//!    *detour*: a search with the units from a kept anchor some turns before the stretch to a
//!    kept anchor some turns after it. A sub-path of an optimal path is optimal, so the alone
//!    path between the two anchors costs the alone optimum between them; when the detour
//!    costs exactly that, the spliced path still costs `C0` and is optimal. Paths on open
//!    ground have many equal-cost orders of the same steps, so a unit on one of them usually
//!    leaves another; where the stretch round the crossings takes the two directions of one
//!    monotone pair only, such an order is looked for first, without a search
//!    (`reordered.rs`).
//! 3. Otherwise search the whole problem with the units. Where every detour found a path but
//!    some cost more, the spliced path is a path with the units all the same, of some cost
//!    `U > C0`: the whole search then only has to beat it, and drops every arrival that
//!    cannot lead below `U` (`incumbent.rs`). If it finds nothing, the spliced path is
//!    optimal. Where a detour finds nothing or exceeds its budget, the whole search runs
//!    without a bound. It counts at first only the units that the paths it finds run into
//!    (`units_met.rs`).
//!
//! Which anchors a detour joins, and the budget, only decide how often step 2 succeeds (and
//! how tight a bound step 3 gets); what is returned is optimal either way. The spliced path
//! is a chain of legal steps with the units: the kept stretches are clear of them (step 1's
//! test, so each costs what it costs alone) and each detour is a search result on the graph
//! with them (or a walk of legal steps with them, `reordered.rs`), so the spliced path costs
//! `C0` plus what each detour costs more than the alone stretch it replaces. Where multipliers
//! of 0 make cycles free, the splice can close one; it is cut out, which keeps the cost (see
//! `without_cycles`).
//!
//! # Which end the whole search starts from
//!
//! The bound of step 3 cuts arrivals that the units have made dearer than alone, which happens
//! only past the crossings: between the start and the first crossing, a search from the start
//! is held back by its heuristic alone. So where the crossings lie much nearer the goal than
//! the start, step 3 searches from the goal to the start instead, and reverses the path it
//! finds. That is exact wherever the query's graph is *undirected*: units that block (the
//! graph keeps the terrain's steps between the anchors it keeps, the start among them, and a
//! step is legal one way exactly when it is the other way, the corner rule included) on
//! terrain where every anchor costs the same to enter (a step costs its length times that
//! multiplier either way). A path reversed then costs what it did, so every optimum from the
//! goal to the start, reversed, is an optimum from the start to the goal, and the bound of
//! `incumbent.rs` holds with the two ends exchanged, given costs from the goal. A search as
//! if alone from the goal runs first for those, which is why the reversal waits until the
//! first crossing lies in the last stretch of the path ([`NEARER_GOAL`]).
//! Elsewhere (entry costs that differ, or units that cost) a step's cost depends on which way
//! it is taken, and step 3 always starts at the start.

use super::direct::any_monotone_walk;
use super::reordered::monotone_stretch;
use super::units_met::UnitSource;
use super::{search, Incumbent, SearchOptions, SearchOutcome, SearchScratch, UnitsView};
use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};
use crate::graph::AnchorGraph;
use crate::movement::{diagonal_step, step_changes, Movement};
use crate::occupancy::OtherUnits;

/// Turns of the alone path a detour reaches back before, and on after, a stretch it replaces:
/// enough for the diagonal and straight runs on either side to change order.
const TURNS_AROUND: usize = 3;

/// Expansions a detour may take before the whole problem is searched instead.
const DETOUR_EXPANSIONS: u64 = 1_000;

/// Step 3 searches from the goal when the alone path's first crossing lies at least this
/// share of its steps from the start (see "Which end the whole search starts from"). Only
/// then does the search from the goal, which needs a search as if alone from the goal first,
/// pay for itself: timed both ways on eight placements of units, a rule that reversed with
/// crossings nearer the start made some placements slower (see BENCHMARKS.md).
const NEARER_GOAL: (usize, usize) = (7, 10);

/// A search of one problem with other units counted.
pub(crate) struct RoundUnits<'a> {
    pub graph: &'a AnchorGraph,
    pub movement: Movement,
    pub width: usize,
    /// The search without the units, and with them.
    pub alone: SearchOptions<'a>,
    pub with_units: SearchOptions<'a>,
    /// Where views of some of the units come from, for a whole search that counts only the
    /// units its paths meet (`units_met.rs`).
    pub met: UnitSource<'a>,
}

impl RoundUnits<'_> {
    /// An optimal path from `start` to `goal` with the units (see the module docs), its
    /// expansions those of every search it ran.
    pub(crate) fn search(
        &self,
        scratch: &mut SearchScratch,
        start: usize,
        goal: usize,
    ) -> SearchOutcome {
        // The alone search runs on memory of its own, which the detours leave as it is, so
        // that the whole search, run on it in place, can read its costs.
        let mut alone = (scratch.alone_search.take())
            .unwrap_or_else(|| Box::new(SearchScratch::for_alone_searches()));
        let mut met_view = scratch.units_met.take(self.met.key.agent_size);
        let outcome = self.search_beside(scratch, (&mut alone, &mut met_view), start, goal);
        scratch.alone_search = Some(alone);
        scratch.units_met.put_back(met_view);
        outcome
    }

    /// [`search`](Self::search), with the search as if alone on `alone` and the views of the
    /// units met on `met_view`.
    fn search_beside(
        &self,
        scratch: &mut SearchScratch,
        (alone, met_view): (&mut SearchScratch, &mut UnitsView),
        start: usize,
        goal: usize,
    ) -> SearchOutcome {
        let generation = alone.generation();
        let first = self.run(alone, self.alone, start, goal);
        let Some(units) = self.with_units.units else {
            return first;
        };
        let crossings = units.view.unclear_steps(&first.path, self.width);
        let Some(alone_optimum) = first.cost.filter(|_| !crossings.is_empty()) else {
            return first;
        };
        let mut expanded = first.expanded;
        let mut outcome = match self.detoured(scratch, &first, &crossings, &mut expanded) {
            Some(spliced) if spliced.cost == first.cost => spliced,
            Some(spliced) => {
                // A direct walk answers some alone queries without a search: then there are
                // no costs to read.
                let mut searched = alone.generation() != generation;
                let reversed = searched
                    && self.undirected(units.rule)
                    && nearer_goal(first.path.len() - 1, &crossings);
                if reversed {
                    // Costs from the goal for the bound; a direct walk would leave none.
                    let generation = alone.generation();
                    let from_goal = SearchOptions {
                        direct_first: false,
                        ..self.alone
                    };
                    let back = self.run(alone, from_goal, goal, start);
                    expanded += back.expanded;
                    // The same optimum both ways on an undirected graph; were it not, the
                    // costs read would be no bound, so none is used.
                    searched = alone.generation() != generation && back.cost == first.cost;
                }
                let bound = (spliced.cost.filter(|_| searched)).map(|incumbent| {
                    Incumbent::new(self.graph, units.rule, alone_optimum, incumbent)
                });
                let options = SearchOptions {
                    incumbent: bound.as_ref(),
                    ..self.with_units
                };
                let ends = if reversed {
                    (goal, start)
                } else {
                    (start, goal)
                };
                let found =
                    self.whole_search(alone, met_view, options, ends, (&first.path, &crossings));
                expanded += found.expanded;
                match found.cost {
                    Some(_) => SearchOutcome {
                        expanded: 0,
                        ..found
                    },
                    // Nothing beats the incumbent: it is optimal.
                    None => self.tidied(spliced),
                }
            }
            None => self.whole_search(
                alone,
                met_view,
                self.with_units,
                (start, goal),
                (&first.path, &crossings),
            ),
        };
        outcome.expanded += expanded;
        outcome
    }

    /// Whether the query's graph is undirected, so that a search from the goal answers too
    /// (see "Which end the whole search starts from"): units that block, on terrain of one
    /// multiplier.
    fn undirected(&self, rule: OtherUnits) -> bool {
        rule == OtherUnits::Block && self.graph.uniform_multiplier().is_some()
    }

    pub(super) fn run(
        &self,
        scratch: &mut SearchScratch,
        options: SearchOptions<'_>,
        start: usize,
        goal: usize,
    ) -> SearchOutcome {
        search(
            scratch,
            self.graph,
            self.movement,
            options,
            self.width,
            start,
            goal,
        )
    }

    /// `first` (an optimal alone path whose steps `crossings` are not clear of the units) with
    /// every stretch round its crossings replaced by a detour, at the cost of the path so
    /// spliced, or `None` if a detour finds no path (or costs less than the stretch it
    /// replaces, which an optimal `first` rules out): the whole search answers then. An equal cost to `first`'s means an
    /// optimal path; a path that costs the optimum has its cycles cut. Adds the detours'
    /// expansions to `expanded`.
    fn detoured(
        &self,
        scratch: &mut SearchScratch,
        first: &SearchOutcome,
        crossings: &[usize],
        expanded: &mut u64,
    ) -> Option<SearchOutcome> {
        let path = &first.path;
        let last = path.len() - 1;
        let mut spliced = Vec::with_capacity(path.len() + 16);
        let mut kept_from = 0;
        let mut extra = 0;
        let mut crossings_left = crossings;
        for (from, to) in detour_ends(path, crossings) {
            let within = crossings_left.partition_point(|&step| step < to);
            let (inside, after) = crossings_left.split_at(within);
            crossings_left = after;
            let reordered = monotone_stretch(self.movement, self.width, path, inside, (from, to))
                .and_then(|stretch| {
                    let steps = (stretch.directions, stretch.counts);
                    let walk = any_monotone_walk(
                        self.graph,
                        self.width,
                        path[stretch.first],
                        steps,
                        self.with_units.units,
                    )?;
                    Some((stretch.first, stretch.last, walk))
                });
            if let Some((first, last, walk)) = reordered {
                // Optimal between its ends, as the stretch it replaces is: no extra cost. Its
                // steps count as expansions, as a direct walk's do.
                *expanded += walk.len() as u64 - 1;
                spliced.extend_from_slice(&path[kept_from..first]);
                spliced.extend_from_slice(&walk);
                kept_from = last + 1;
                continue;
            }
            if (from, to) == (0, last) {
                // The detour is the whole problem: step 3 does it.
                return None;
            }
            let with_units = SearchOptions {
                max_expansions: DETOUR_EXPANSIONS,
                ..self.with_units
            };
            let detour = self.run(scratch, with_units, path[from], path[to]);
            *expanded += detour.expanded;
            let detour_cost = detour.cost?;
            // A stretch of an optimal path is optimal between its ends: what it costs is the
            // alone optimum the detour is measured against, so the difference is never
            // negative. Were it ever (a bug upstream), the splice is not trusted: the whole
            // search answers instead of a wrapped cost.
            let alone = stretch_cost(self.graph, self.width, &path[from..=to]);
            debug_assert!(
                detour_cost >= alone,
                "a detour cheaper than an optimal stretch"
            );
            extra += detour_cost.checked_sub(alone)?;
            spliced.extend_from_slice(&path[kept_from..from]);
            spliced.extend_from_slice(&detour.path);
            kept_from = to + 1;
        }
        spliced.extend_from_slice(&path[kept_from..]);
        let outcome = SearchOutcome {
            cost: first.cost.map(|cost| cost + extra),
            path: spliced,
            expanded: 0,
            limit_reached: false,
        };
        Some(if extra == 0 {
            self.tidied(outcome)
        } else {
            outcome
        })
    }

    /// An optimal `outcome` with its cycles cut where they can be free (see
    /// [`without_cycles`]).
    pub(super) fn tidied(&self, mut outcome: SearchOutcome) -> SearchOutcome {
        if self.graph.min_multiplier == 0 {
            outcome.path = without_cycles(std::mem::take(&mut outcome.path));
        }
        outcome
    }
}

/// Whether the crossings (steps of a path with `last` steps) lie so near its end that the
/// whole search should start from the goal ([`NEARER_GOAL`]).
fn nearer_goal(last: usize, crossings: &[usize]) -> bool {
    let (share, of) = NEARER_GOAL;
    crossings
        .first()
        .is_some_and(|&first| first * of >= last * share)
}

/// What the steps of `path` (storage indices of neighbouring anchors on a map `width` wide)
/// cost on `graph`: each step's length times the multiplier of the anchor it enters, as a
/// search counts them.
fn stretch_cost(graph: &AnchorGraph, width: usize, path: &[usize]) -> u64 {
    (path.windows(2))
        .map(|step| {
            let (from, to) = (step[0], step[1]);
            let length = if diagonal_step(from, to, width) {
                DIAGONAL_STEP
            } else {
                STRAIGHT_STEP
            };
            length * graph.entry_multiplier(to)
        })
        .sum()
}

/// `path` with every stretch that leaves an anchor and comes back to it cut out, so no anchor
/// appears twice.
///
/// A spliced path costs the optimum, so any cycle in it costs 0: cutting out a costlier one
/// would leave a path cheaper than the optimum. Cycles of cost 0 do occur where multipliers
/// of 0 make whole areas free (a detour may then wander back through the query's start, whose
/// own unit the query does not count), and a unit should not walk one, so they are cut, which
/// keeps the cost. Each step of the result is a step of `path`.
fn without_cycles(path: Vec<usize>) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::with_capacity(path.len());
    let mut position = std::collections::HashMap::with_capacity(path.len());
    for anchor in path {
        match position.get(&anchor) {
            // Positions cut away by an earlier cycle are stale: check the anchor is still there.
            Some(&at) if at < kept.len() && kept[at] == anchor => kept.truncate(at + 1),
            _ => {
                position.insert(anchor, kept.len());
                kept.push(anchor);
            }
        }
    }
    kept
}

/// The anchors (indices into `path`) each detour joins, in order and apart: for each run of
/// neighbouring crossing steps (step `i` goes from anchor `i` to `i + 1`), from the
/// [`TURNS_AROUND`]th turn before its first step (or the start) to the [`TURNS_AROUND`]th
/// turn after its last (or the end), merged where they overlap. The first anchor of a
/// crossing run is kept (the step into it is clear, or it is the start); the last ends past
/// the run unless the run ends the path.
pub(super) fn detour_ends(path: &[usize], crossings: &[usize]) -> Vec<(usize, usize)> {
    let last = path.len() - 1;
    // Any test works here (the ends only steer how often a detour succeeds), so on maps
    // narrower than three cells the turns read from the storage indices are a guess.
    let turns_at =
        |at: usize| at > 0 && at < last && step_changes(path[at - 1], path[at], path[at + 1]);
    let mut ends: Vec<(usize, usize)> = Vec::new();
    let mut run = 0;
    while run < crossings.len() {
        let mut end = run;
        while end + 1 < crossings.len() && crossings[end + 1] == crossings[end] + 1 {
            end += 1;
        }
        let mut from = crossings[run];
        let mut turns = 0;
        while from > 0 && turns < TURNS_AROUND {
            from -= 1;
            turns += usize::from(turns_at(from));
        }
        let mut to = crossings[end] + 1;
        let mut turns = 0;
        while to < last && turns < TURNS_AROUND {
            to += 1;
            turns += usize::from(turns_at(to));
        }
        match ends.last_mut() {
            Some(previous) if previous.1 >= from => previous.1 = previous.1.max(to),
            _ => ends.push((from, to)),
        }
        run = end + 1;
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::TestRng;

    #[test]
    fn cutting_cycles_leaves_each_anchor_once_and_only_steps_of_the_path() {
        let mut rng = TestRng(21);
        let mut cut = 0;
        for _ in 0..2_000 {
            // Walks on a small set of anchors, so that they come back often.
            let length = 1 + rng.below(40usize);
            let path: Vec<usize> = (0..length).map(|_| rng.below(12usize)).collect();
            let kept = without_cycles(path.clone());
            let steps: Vec<(usize, usize)> = path.windows(2).map(|w| (w[0], w[1])).collect();
            assert_eq!(kept.first(), path.first());
            assert_eq!(kept.last(), path.last());
            let mut seen = std::collections::HashSet::new();
            assert!(kept.iter().all(|anchor| seen.insert(*anchor)), "{kept:?}");
            assert!(
                kept.windows(2).all(|w| steps.contains(&(w[0], w[1]))),
                "{path:?} -> {kept:?}"
            );
            cut += usize::from(kept.len() < path.len());
        }
        assert!(cut > 1_000, "only {cut} walks had a cycle");
        // A path without a cycle is kept as it is.
        assert_eq!(without_cycles(vec![4, 9, 2, 7]), vec![4, 9, 2, 7]);
    }

    #[test]
    fn detours_cover_every_crossing_and_join_kept_anchors_in_order() {
        let mut rng = TestRng(20);
        // Wide enough that a walk from the middle stays on the map.
        let width = 1_000usize;
        let mut partial = 0;
        for _ in 0..2_000 {
            // A walk of king's steps that keeps its direction for a while, on a wide map.
            let mut path = vec![500 * width + 500];
            let mut step: isize = 1;
            let length = 2 + rng.below(120usize);
            while path.len() < length {
                if rng.below(8) == 0 {
                    let (dx, dy) = (rng.below(3isize) - 1, rng.below(3isize) - 1);
                    if (dx, dy) != (0, 0) {
                        step = dy * width as isize + dx;
                    }
                }
                let next = path[path.len() - 1].wrapping_add_signed(step);
                path.push(next);
            }
            let steps = path.len() - 1;
            let mut crossings: Vec<usize> = (0..steps).filter(|_| rng.below(30) == 0).collect();
            if crossings.is_empty() {
                crossings.push(rng.below(steps));
            }
            let ends = detour_ends(&path, &crossings);
            let last = path.len() - 1;
            // In order and apart, so the kept stretches between them splice.
            for pair in ends.windows(2) {
                assert!(pair[0].1 < pair[1].0, "{ends:?}");
            }
            for &(from, to) in &ends {
                assert!(from < to && to <= last, "{ends:?}");
            }
            // Every crossing step lies inside a detour, which starts no later than the step
            // and ends past the anchor it enters unless that is the last.
            for &crossing in &crossings {
                let (from, to) = *ends
                    .iter()
                    .find(|&&(from, to)| from <= crossing && crossing < to)
                    .unwrap_or_else(|| panic!("step {crossing} not covered: {ends:?}"));
                assert!(from <= crossing && (to > crossing + 1 || to == last));
            }
            partial += usize::from(ends != [(0, last)]);
        }
        // Most cases keep part of the path, as real ones do.
        assert!(partial > 600, "only {partial} cases keep part of the path");
    }
}
