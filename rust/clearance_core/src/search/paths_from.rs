//! Optimal paths from one anchor to many: one jump-point search that stops at every target,
//! as a group order to one slot per unit needs.

use super::anchor_bits::AnchorBits;
use super::jump::jump_tree;
use super::key_widths::{with_wider_keys, KeyedSearch};
use super::keys::KeyCodec;
use super::moves::{MoveMasks, Unblocked};
use super::scratch::{Layout, SearchScratch};
use super::step_costs::UniformCosts;
use super::{Algorithm, Problem, SearchOptions, TowardsBox, UnitsView};
use crate::graph::{AnchorGraph, EntryCosts};
use crate::movement::{Movement, STEP_LENGTHS};

/// An optimal path found by [`paths_from`]: its cost and its anchors' storage indices.
pub(crate) struct FoundPath {
    pub cost: u64,
    pub path: Vec<usize>,
}

/// Optimal paths from `source` to each of `targets` (storage indices of legal anchors) on a
/// graph whose steps all pay one multiplier ([`EntryCosts::Uniform`]), from one jump-point
/// search guided towards the targets' bounding rectangle that stops at every target
/// (`jump/mod.rs`, "Several targets"). For
/// each target, in order: its cost and the anchors from `source` to it, or `None` if it lies
/// in another region. `None` overall if the graph's costs are not uniform.
pub(crate) fn paths_from(
    scratch: &mut SearchScratch,
    graph: &AnchorGraph,
    movement: Movement,
    width: usize,
    source: usize,
    targets: &[usize],
    units: Option<&UnitsView>,
) -> Option<Vec<Option<FoundPath>>> {
    let EntryCosts::Uniform(multiplier) = graph.entry else {
        return None;
    };
    let costs = UniformCosts(STEP_LENGTHS.map(|length| length * u64::from(multiplier)));
    let mut bits = AnchorBits::spanning(targets);
    let mut wanted = 0;
    for &target in targets {
        if !bits.contains(target) && graph.connected(source, target) {
            bits.insert(target);
            wanted += 1;
        }
    }
    let options = SearchOptions {
        algorithm: Algorithm::Jump,
        max_expansions: u64::MAX,
        landmarks: None,
        direct_first: false,
        units: None,
        incumbent: None,
    };
    if wanted == 0 {
        return Some(targets.iter().map(|_| None).collect());
    }
    let reachable = targets
        .iter()
        .copied()
        .filter(|&target| bits.contains(target));
    let towards = TowardsBox::around(graph, movement, width, reachable);
    let problem = Problem::new(graph, width, (source, source), &towards, &options);
    let stops = (&bits, wanted);
    let found = match (units, movement) {
        (None, Movement::FourWay) => {
            tree_with_fallback::<_, true>(scratch, &problem, &costs, stops, targets)
        }
        (None, Movement::EightWay) => {
            tree_with_fallback::<_, false>(scratch, &problem, &costs, stops, targets)
        }
        (Some(view), movement) => {
            let problem = problem.with_moves(Unblocked {
                terrain: &graph.moves,
                units: view,
            });
            if movement == Movement::FourWay {
                tree_with_fallback::<_, true>(scratch, &problem, &costs, stops, targets)
            } else {
                tree_with_fallback::<_, false>(scratch, &problem, &costs, stops, targets)
            }
        }
    };
    Some(
        found
            .into_iter()
            .map(|found| {
                found.map(|found| FoundPath {
                    cost: found.cost * graph.cost_unit,
                    ..found
                })
            })
            .collect(),
    )
}

/// [`jump_tree`] through [`with_wider_keys`].
fn tree_with_fallback<M: MoveMasks, const FOUR_WAY: bool>(
    scratch: &mut SearchScratch,
    problem: &Problem<TowardsBox, M>,
    costs: &UniformCosts,
    stops: (&AnchorBits, usize),
    targets: &[usize],
) -> Vec<Option<FoundPath>> {
    let tree = TreeSearch::<M, FOUR_WAY> {
        problem,
        costs,
        stops,
        targets,
    };
    with_wider_keys(scratch, problem.moves.len(), &tree)
}

/// [`jump_tree`] as a [`KeyedSearch`].
struct TreeSearch<'a, M, const FOUR_WAY: bool> {
    problem: &'a Problem<'a, TowardsBox, M>,
    costs: &'a UniformCosts,
    stops: (&'a AnchorBits, usize),
    targets: &'a [usize],
}

impl<M: MoveMasks, const FOUR_WAY: bool> KeyedSearch for TreeSearch<'_, M, FOUR_WAY> {
    type Found = Vec<Option<FoundPath>>;
    fn run<L: Layout, K: KeyCodec>(
        &self,
        scratch: &mut SearchScratch,
        keys: K,
    ) -> Option<Self::Found> {
        let Self {
            problem,
            costs,
            stops,
            targets,
        } = *self;
        jump_tree::<L, K, _, _, M, FOUR_WAY>(scratch, problem, costs, keys, stops, targets)
    }
}
