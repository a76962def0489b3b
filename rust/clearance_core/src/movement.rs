//! Movement rules: which steps an agent may take between anchors, how long each step is, and
//! the crow-flies distance they imply.

use crate::cost::{DIAGONAL_STEP, STRAIGHT_STEP};

/// How agents move between anchors.
///
/// With [`Movement::EightWay`], a diagonal step is legal for a size-`k` agent only if both
/// orthogonal neighbours it passes (the anchors one step along each axis) are legal for size
/// `k`: the agent never cuts a corner. For `k = 1` this is exactly the rule of the Moving AI
/// benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Movement {
    /// Up, down, left and right; heuristic: Manhattan distance.
    FourWay,
    /// Also the four diagonals, without cutting corners; heuristic: octile distance.
    #[default]
    EightWay,
}

/// A step direction. The first four are straight, the last four diagonal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Direction {
    pub dx: i32,
    pub dy: i32,
}

/// The eight directions; straight ones first. Bit `d` of a move mask stands for `DIRECTIONS[d]`.
pub(crate) const DIRECTIONS: [Direction; 8] = [
    Direction { dx: 0, dy: -1 },
    Direction { dx: 1, dy: 0 },
    Direction { dx: 0, dy: 1 },
    Direction { dx: -1, dy: 0 },
    Direction { dx: 1, dy: -1 },
    Direction { dx: 1, dy: 1 },
    Direction { dx: -1, dy: 1 },
    Direction { dx: -1, dy: -1 },
];

/// Number of straight directions at the front of [`DIRECTIONS`].
pub(crate) const STRAIGHT_DIRECTIONS: usize = 4;

/// `STEP_LENGTHS[d]`: the fixed-point length of a step in `DIRECTIONS[d]`.
pub(crate) const STEP_LENGTHS: [u64; 8] = {
    let mut lengths = [DIAGONAL_STEP; 8];
    let mut direction = 0;
    while direction < STRAIGHT_DIRECTIONS {
        lengths[direction] = STRAIGHT_STEP;
        direction += 1;
    }
    lengths
};

/// `OPPOSITE[d]` is the direction that undoes `DIRECTIONS[d]`.
pub(crate) const OPPOSITE: [usize; 8] = {
    let mut opposite = [0; 8];
    let mut d = 0;
    while d < 8 {
        let mut e = 0;
        while e < 8 {
            if DIRECTIONS[e].dx == -DIRECTIONS[d].dx && DIRECTIONS[e].dy == -DIRECTIONS[d].dy {
                opposite[d] = e;
            }
            e += 1;
        }
        d += 1;
    }
    opposite
};

/// The index in [`DIRECTIONS`] of the step `(dx, dy)`.
pub(crate) const fn direction_of(dx: i32, dy: i32) -> usize {
    let mut direction = 0;
    while DIRECTIONS[direction].dx != dx || DIRECTIONS[direction].dy != dy {
        direction += 1;
    }
    direction
}

/// For a straight direction `d`: its two sides, each as `(side, diagonal)`, the straight
/// direction at right angles and the diagonal between `d` and it.
pub(crate) const SIDES: [[(usize, usize); 2]; STRAIGHT_DIRECTIONS] = {
    let mut sides = [[(0, 0); 2]; STRAIGHT_DIRECTIONS];
    let mut d = 0;
    while d < STRAIGHT_DIRECTIONS {
        let (dx, dy) = (DIRECTIONS[d].dx, DIRECTIONS[d].dy);
        // Right angles to (dx, dy): (dy, dx) and (-dy, -dx).
        let (ax, ay) = (dy, dx);
        sides[d] = [
            (direction_of(ax, ay), direction_of(dx + ax, dy + ay)),
            (direction_of(-ax, -ay), direction_of(dx - ax, dy - ay)),
        ];
        d += 1;
    }
    sides
};

/// For a straight direction: the bits of its two sides (see [`SIDES`]).
pub(crate) const SIDE_BITS: [u8; 8] = {
    let mut bits = [0; 8];
    let mut d = 0;
    while d < STRAIGHT_DIRECTIONS {
        bits[d] = 1 << SIDES[d][0].0 | 1 << SIDES[d][1].0;
        d += 1;
    }
    bits
};

/// For a diagonal direction `(dx, dy)`: its straight parts `(dx, 0)` and `(0, dy)`.
pub(crate) const PARTS: [[usize; 2]; 8] = {
    let mut parts = [[0; 2]; 8];
    let mut d = STRAIGHT_DIRECTIONS;
    while d < 8 {
        let (dx, dy) = (DIRECTIONS[d].dx, DIRECTIONS[d].dy);
        parts[d] = [direction_of(dx, 0), direction_of(0, dy)];
        d += 1;
    }
    parts
};

/// Whether a path of single steps changes direction at anchor `at`, given the storage indices
/// `before`, `at` and `after` of three consecutive anchors on a map at least three cells wide.
///
/// Two steps are equal iff they move the storage index by as much (`before + after == 2 at`):
/// a step moves it by `dy * width + dx` with `dx, dy` in `-1..=1`, and two such sums differ by
/// `(dy - dy') width + (dx - dx')`, which is zero only with `dy = dy'` (else its first term is
/// at least 3 in size and the second at most 2), and then `dx = dx'`. One comparison an anchor.
/// On narrower maps two different steps can move the index by as much.
#[inline]
pub(crate) fn step_changes(before: usize, at: usize, after: usize) -> bool {
    before + after != 2 * at
}

/// Whether the single step between neighbouring anchors stored at `from` and `to`, on a map
/// `width` cells wide, is diagonal. On maps three or more cells wide the storage offset tells
/// (a diagonal moves it by `width ± 1` either way, a straight step by `1` or `width`), which
/// spares the divisions; narrower maps compare columns and rows.
#[inline]
pub(crate) fn diagonal_step(from: usize, to: usize, width: usize) -> bool {
    match width {
        0..3 => to % width != from % width && to / width != from / width,
        _ => {
            let offset = to.abs_diff(from);
            offset != 1 && offset != width
        }
    }
}

/// Storage-index offsets of the eight [`DIRECTIONS`] on a grid `width` cells wide (cells are
/// stored row by row): the neighbour of anchor `i` in direction `d` is `i + offsets[d]`.
pub(crate) fn direction_offsets(width: usize) -> [isize; 8] {
    DIRECTIONS.map(|d| d.dy as isize * width as isize + d.dx as isize)
}

/// The directions (indices into [`DIRECTIONS`]) whose bits are set in a move mask, lowest
/// first.
#[inline]
pub(crate) fn directions_in(mut mask: u8) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let direction = (mask != 0).then(|| mask.trailing_zeros() as usize)?;
        mask &= mask - 1;
        Some(direction)
    })
}

impl Movement {
    /// The crow-flies length of the shortest step sequence covering `dx` columns and `dy`
    /// rows on an open map, in fixed-point length units: octile distance for 8-way movement,
    /// Manhattan for 4-way.
    pub(crate) fn distance(self, dx: u64, dy: u64) -> u64 {
        let (straight, diagonal_extra) = self.distance_weights();
        dx.max(dy) * straight + dx.min(dy) * diagonal_extra
    }

    /// The weights `(a, b)` of [`distance`](Self::distance) `= max(dx, dy) * a + min(dx, dy) *
    /// b`. Octile: a diagonal step replaces a straight one, adding `DIAGONAL - STRAIGHT`.
    /// Manhattan: there is no diagonal, so `dx + dy` straight steps remain.
    pub(crate) fn distance_weights(self) -> (u64, u64) {
        match self {
            Movement::FourWay => (STRAIGHT_STEP, STRAIGHT_STEP),
            Movement::EightWay => (STRAIGHT_STEP, DIAGONAL_STEP - STRAIGHT_STEP),
        }
    }

    /// How many of [`DIRECTIONS`] this movement uses.
    pub(crate) fn direction_count(self) -> usize {
        match self {
            Movement::FourWay => STRAIGHT_DIRECTIONS,
            Movement::EightWay => DIRECTIONS.len(),
        }
    }
}
