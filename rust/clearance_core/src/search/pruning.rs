//! Steps an expansion may skip without changing the search.

use crate::movement::DIRECTIONS;

/// `REDUNDANT_STEPS[d][m]`: the steps from an anchor `n` that cannot improve anything when `n`
/// was reached in direction `d` from its parent `p`, and `m` is `p`'s move mask.
///
/// `p` was expanded before `n` and then relaxed every neighbour `x` it has a legal step to.
/// If `x` is also a neighbour of `n`, then on a map where every anchor costs the same to
/// enter, the triangle inequality of the step lengths (1 and about sqrt 2) gives
/// `g(p) + cost(p, x) <= g(p) + cost(p, n) + cost(n, x) = g(n) + cost(n, x)`: the step from
/// `n` to `x` is no cheaper than what `x` already has, so it is skipped without changing the
/// search in any way (same expansions, same parents). Stepping back to `p` itself is always
/// redundant. On a straight arrival this skips 5 of 8 steps, on a diagonal one 3.
pub(super) static REDUNDANT_STEPS: [[u8; 256]; 8] = redundant_steps();

const fn redundant_steps() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut arrival = 0;
    while arrival < 8 {
        let mut parent_moves = 0;
        while parent_moves < 256 {
            let mut redundant = 0u8;
            let mut step = 0;
            while step < 8 {
                // Offset from the parent to the neighbour reached by `step` from the anchor.
                let dx = DIRECTIONS[arrival].dx + DIRECTIONS[step].dx;
                let dy = DIRECTIONS[arrival].dy + DIRECTIONS[step].dy;
                if dx == 0 && dy == 0 {
                    redundant |= 1 << step;
                }
                let mut parent_step = 0;
                while parent_step < 8 {
                    if DIRECTIONS[parent_step].dx == dx
                        && DIRECTIONS[parent_step].dy == dy
                        && parent_moves & (1 << parent_step) != 0
                    {
                        redundant |= 1 << step;
                    }
                    parent_step += 1;
                }
                step += 1;
            }
            table[arrival][parent_moves] = redundant;
            parent_moves += 1;
        }
        arrival += 1;
    }
    table
}
