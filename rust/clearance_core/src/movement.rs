//! Movement rules: which steps an agent may take between anchors.

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

impl Movement {
    /// How many of [`DIRECTIONS`] this movement uses.
    pub(crate) fn direction_count(self) -> usize {
        match self {
            Movement::FourWay => STRAIGHT_DIRECTIONS,
            Movement::EightWay => DIRECTIONS.len(),
        }
    }
}
