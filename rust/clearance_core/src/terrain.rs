//! Terrain ids and sets of terrains.
//!
//! Every cell of a map holds one [`TerrainId`]: a small number whose meaning is the game's
//! (0 = ground, 1 = wall, 2 = road, ...). The library gives terrain no meaning of its own; an
//! [`AgentProfile`](crate::AgentProfile) says which terrains an agent may enter and at what cost.
//! The set of terrains a profile may enter is its *capability*, a [`TerrainSet`]; profiles with
//! the same capability share one clearance layer.

use std::fmt;

/// The terrain stored in a cell: any value from 0 to 255.
pub type TerrainId = u8;

/// A set of terrain ids (a bit set over all 256 possible ids).
///
/// ```
/// use clearance_core::TerrainSet;
///
/// let land: TerrainSet = [0, 2, 3].into_iter().collect();
/// assert!(land.contains(2));
/// assert!(!land.contains(1));
/// assert_eq!(land.len(), 3);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TerrainSet {
    words: [u64; 4],
}

impl TerrainSet {
    /// The empty set.
    pub const EMPTY: TerrainSet = TerrainSet { words: [0; 4] };

    /// Returns the empty set.
    pub const fn new() -> Self {
        Self::EMPTY
    }

    /// Adds `terrain` to the set.
    pub fn insert(&mut self, terrain: TerrainId) {
        self.words[usize::from(terrain >> 6)] |= 1 << (terrain & 63);
    }

    /// Removes `terrain` from the set.
    pub fn remove(&mut self, terrain: TerrainId) {
        self.words[usize::from(terrain >> 6)] &= !(1 << (terrain & 63));
    }

    /// Whether `terrain` is in the set.
    pub fn contains(&self, terrain: TerrainId) -> bool {
        self.words[usize::from(terrain >> 6)] & (1 << (terrain & 63)) != 0
    }

    /// Number of terrains in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words == [0; 4]
    }

    /// The terrains in the set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = TerrainId> + '_ {
        (0..=TerrainId::MAX).filter(move |&terrain| self.contains(terrain))
    }
}

impl FromIterator<TerrainId> for TerrainSet {
    fn from_iter<I: IntoIterator<Item = TerrainId>>(iter: I) -> Self {
        let mut set = TerrainSet::new();
        for terrain in iter {
            set.insert(terrain);
        }
        set
    }
}

impl fmt::Debug for TerrainSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
