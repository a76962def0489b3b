//! The whole search round other units, counting only the units its paths meet.
//!
//! A search that counts other units pays for them at every ray it casts (`jump/units.rs`):
//! each ray scans the units' bits beside it, and the more units a map holds, the more rays
//! stop at one. Yet the units that decide a query are usually a handful: those in the way of
//! its cheap paths. So the whole search of `detours.rs` (step 3) first counts only the units
//! that the path as if alone runs into, and adds units only as its own paths run into them.
//! (The detours of step 2 count every unit: they are short, and a view of a few units, made
//! for each, cost them more than it saved.)
//!
//! # Why the answer is the same
//!
//! Write `G` for the query's graph with every counted unit, and `G_S` for the graph with only
//! a subset `S` of them. Under [`OtherUnits::Block`] a unit removes the anchors it blocks (the
//! start kept), and a step is legal exactly when the anchors it enters and passes are kept;
//! under [`OtherUnits::Cost`] a unit raises what entering its anchors costs to `max(m, M)`.
//! Either way every path on `G` is a path on `G_S`, costing there no more than on `G`, and it
//! costs the same on both when none of its steps enters or passes an anchor of a unit outside
//! `S`. So the optimum on `G_S` is at most the optimum on `G`, and a search on `G_S`:
//!
//! * finding nothing cheaper than an incumbent (a path on `G` in hand, `incumbent.rs`; or, with
//!   no incumbent, finding no path at all) shows that nothing on `G` is cheaper either;
//! * finding a path none of whose steps enters or passes an anchor of a unit outside `S` has
//!   found an optimum on `G`: the path costs on `G` what it costs on `G_S`, the optimum there,
//!   which is no more than the optimum on `G`.
//!
//! Otherwise the units whose anchors the path found enters or passes join `S`, and the search
//! runs again. Each round adds at least one unit, so this ends; after [`MET_ROUNDS`] rounds
//! the search counts every unit, as it did before. The bound of `incumbent.rs` holds on `G_S`
//! as on `G` (its proof needs only that units never make a step cheaper), and so does the
//! search from the goal of `detours.rs`, which runs only where `G` is undirected, and `G_S`
//! is then too. (Under `Cost` a step that only passes a unit's anchor costs the same on both
//! graphs: adding its unit is not needed, only harmless.)
//!
//! [`OtherUnits::Block`]: crate::OtherUnits::Block
//! [`OtherUnits::Cost`]: crate::OtherUnits::Cost

use super::detours::RoundUnits;
use super::{
    Counted, SearchOptions, SearchOutcome, SearchScratch, UnitsInSearch, UnitsView, ViewKey,
};
use crate::occupancy::Occupancy;

/// Searches on some of the units before the search counts them all (see the module docs).
const MET_ROUNDS: usize = 3;

/// Where views of some of a query's units come from: the map's units, the key the query's
/// view was built for, and its start (never blocked). Which units count is read from the
/// query's view: only units it counts are ever met.
#[derive(Clone, Copy)]
pub(crate) struct UnitSource<'a> {
    pub occupancy: &'a Occupancy,
    pub key: ViewKey,
    pub start: usize,
}

impl RoundUnits<'_> {
    /// The whole search with the units of `options` from `ends.0` to `ends.1` (the start and
    /// the goal, either way round), its path from the start (`alone_path[0]`) to the goal,
    /// given the path as if alone `alone_path` and the steps of it that cross units
    /// (`crossings`), counting the units met first (see the module docs). `met_view` is memory for their views.
    ///
    /// It runs on `alone`, the memory of the search as if alone from `ends.0` (the last search
    /// there), whose nodes its first search keeps in place: the bound of `incumbent.rs` reads
    /// them, and they are warm.
    pub(super) fn whole_search(
        &self,
        alone: &mut SearchScratch,
        met_view: &mut UnitsView,
        options: SearchOptions<'_>,
        (from, to): (usize, usize),
        (alone_path, crossings): (&[usize], &[usize]),
    ) -> SearchOutcome {
        let scratch = alone;
        scratch.keep_in_place();
        let mut outcome = 'search: {
            let source = self.met;
            let Some(all) = options.units else {
                break 'search self.run(scratch, options, from, to);
            };
            let mut met = Vec::new();
            all.view.units_met_on(alone_path, crossings, &mut met);
            let mut expanded = 0;
            for _ in 0..MET_ROUNDS {
                met_view.update(
                    source.key,
                    source.occupancy,
                    Counted::Only(&met),
                    source.start,
                );
                let some_units = SearchOptions {
                    units: Some(UnitsInSearch {
                        view: met_view,
                        rule: all.rule,
                    }),
                    ..options
                };
                let mut found = self.run(scratch, some_units, from, to);
                expanded += found.expanded;
                let before = met.len();
                if found.cost.is_some() {
                    all.view.units_met(&found.path, &mut met);
                }
                if met.len() == before {
                    found.expanded = expanded;
                    break 'search found;
                }
            }
            let mut found = self.run(scratch, options, from, to);
            found.expanded += expanded;
            found
        };
        scratch.forget_in_place();
        if alone_path.first() != Some(&from) {
            outcome.path.reverse();
        }
        outcome
    }
}
