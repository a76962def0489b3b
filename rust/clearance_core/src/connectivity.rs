//! Connected regions of a search graph, so that impossible queries end before they search.
//!
//! Every legal step can be taken both ways (a straight step needs both anchors legal; a
//! diagonal one also needs the same two side anchors, whichever way it is taken), so
//! reachability is symmetric and the anchors fall into disjoint regions. Two anchors in
//! different regions have no path between them: a query can say `NO_PATH` after comparing two
//! labels, with nothing expanded.

use crate::movement::DIRECTIONS;

/// The label of anchors that are not legal for the agent.
pub(crate) const NO_REGION: u32 = u32::MAX;

/// Labels every legal anchor with the number of its region (0, 1, ... in storage order of the
/// regions' first anchors); illegal anchors get [`NO_REGION`].
pub(crate) fn label_regions(moves: &[u8], legal: &[bool], width: usize) -> Vec<u32> {
    let offsets: [isize; 8] = DIRECTIONS.map(|d| d.dy as isize * width as isize + d.dx as isize);
    let mut labels = vec![NO_REGION; moves.len()];
    let mut next_label = 0;
    let mut stack = Vec::new();
    for seed in 0..moves.len() {
        if !legal[seed] || labels[seed] != NO_REGION {
            continue;
        }
        labels[seed] = next_label;
        stack.push(seed);
        while let Some(anchor) = stack.pop() {
            let mut mask = moves[anchor];
            while mask != 0 {
                let direction = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let neighbour = anchor.wrapping_add_signed(offsets[direction]);
                if labels[neighbour] == NO_REGION {
                    labels[neighbour] = next_label;
                    stack.push(neighbour);
                }
            }
        }
        next_label += 1;
    }
    labels
}
