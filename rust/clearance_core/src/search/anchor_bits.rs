//! A set of anchors kept as one bit each over the words its members span, not over the map: a
//! group order's starts near one another cost what their rows cost, however large the map.

/// Anchors (storage indices) between two bounds fixed when the set is made.
#[derive(Debug, Clone, Default)]
pub(crate) struct AnchorBits {
    /// The word of the lowest anchor the set may hold (`anchor / 64`).
    first_word: usize,
    words: Vec<u64>,
}

impl AnchorBits {
    /// An empty set that may hold the anchors from the least to the greatest of `anchors`
    /// (none if `anchors` is empty).
    pub(crate) fn spanning(anchors: &[usize]) -> Self {
        match (anchors.iter().min(), anchors.iter().max()) {
            (Some(&low), Some(&high)) => AnchorBits {
                first_word: low / 64,
                words: vec![0; high / 64 - low / 64 + 1],
            },
            _ => AnchorBits::default(),
        }
    }

    /// An empty set with the bounds of `other`.
    pub(crate) fn like(other: &AnchorBits) -> Self {
        AnchorBits {
            first_word: other.first_word,
            words: vec![0; other.words.len()],
        }
    }

    /// Whether `anchor` is in the set (never, outside its bounds).
    #[inline(always)]
    pub(crate) fn contains(&self, anchor: usize) -> bool {
        let word = (anchor / 64).wrapping_sub(self.first_word);
        self.words
            .get(word)
            .is_some_and(|bits| bits >> (anchor % 64) & 1 != 0)
    }

    /// Adds `anchor`, which lies within the set's bounds; returns whether it was not in yet.
    pub(crate) fn insert(&mut self, anchor: usize) -> bool {
        let word = &mut self.words[anchor / 64 - self.first_word];
        let bit = 1u64 << (anchor % 64);
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
}

#[cfg(test)]
mod tests {
    use super::AnchorBits;

    #[test]
    fn holds_what_was_inserted_and_nothing_outside_its_bounds() {
        let anchors = [700, 130, 4_000, 131];
        let mut set = AnchorBits::spanning(&anchors);
        assert!(set.insert(700) && set.insert(131) && !set.insert(700));
        for anchor in [0, 63, 64, 130, 132, 699, 701, 4_000, 4_160, usize::MAX] {
            assert!(!set.contains(anchor), "{anchor}");
        }
        assert!(set.contains(700) && set.contains(131));
        let other = AnchorBits::like(&set);
        assert!(!other.contains(700));
        assert!(!AnchorBits::spanning(&[]).contains(0));
    }
}
