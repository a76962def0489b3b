//! What the slot searches keep per anchor, and the queue of their reachability walks.

/// A value per anchor, `T::default()` until set, held in pages allocated when first written.
///
/// A slot search settles a few thousand anchors round the target and its walks visit a few
/// thousand more; zeroing a whole map's worth per size and profile cost more than both (a
/// map-sized `Vec` comes from the heap once the allocator has seen one freed, so it is
/// cleared by hand, not lazily by the operating system).
pub(super) struct LazyPages<T> {
    pages: Vec<Option<Box<[T; PAGE]>>>,
}

/// Anchors per page of [`LazyPages`].
const PAGE: usize = 256;

impl<T: Copy + Default> LazyPages<T> {
    /// Default values for `anchors` anchors, no page allocated yet.
    pub(super) fn new(anchors: usize) -> Self {
        LazyPages {
            pages: (0..anchors.div_ceil(PAGE)).map(|_| None).collect(),
        }
    }

    #[inline]
    pub(super) fn get(&self, anchor: usize) -> T {
        self.pages[anchor / PAGE]
            .as_ref()
            .map_or_else(T::default, |page| page[anchor % PAGE])
    }

    #[inline]
    pub(super) fn set(&mut self, anchor: usize, value: T) {
        let page = self.pages[anchor / PAGE].get_or_insert_with(|| Box::new([T::default(); PAGE]));
        page[anchor % PAGE] = value;
    }

    /// Sets every anchor's value to `merge(own value, other's value)` wherever `other` has
    /// written a page; `merge(own, T::default())` must be `own`, since elsewhere nothing
    /// changes. Works a page at a time, so the loop is one the compiler vectorises.
    pub(super) fn merge_from(&mut self, other: &Self, merge: impl Fn(T, T) -> T) {
        for (mine, theirs) in self.pages.iter_mut().zip(&other.pages) {
            if let Some(theirs) = theirs {
                let mine = mine.get_or_insert_with(|| Box::new([T::default(); PAGE]));
                for (own, &their) in mine.iter_mut().zip(theirs.iter()) {
                    *own = merge(*own, their);
                }
            }
        }
    }
}

/// A queue of anchors by a small whole distance: one stack per distance, popped lowest first
/// (last in, first out among equals).
pub(super) struct Buckets {
    stacks: Vec<Vec<usize>>,
    lowest: usize,
    /// The highest distance pushed since the last [`clear`](Self::clear).
    highest: usize,
}

impl Buckets {
    /// A queue for distances `0..=distances`.
    pub(super) fn new(distances: usize) -> Self {
        Buckets {
            stacks: (0..=distances).map(|_| Vec::new()).collect(),
            lowest: usize::MAX,
            highest: 0,
        }
    }

    /// Empties the queue, touching only the stacks used since the last call.
    pub(super) fn clear(&mut self) {
        if self.lowest <= self.highest {
            for stack in &mut self.stacks[self.lowest..=self.highest] {
                stack.clear();
            }
        }
        self.lowest = usize::MAX;
        self.highest = 0;
    }

    pub(super) fn push(&mut self, distance: usize, anchor: usize) {
        self.stacks[distance].push(anchor);
        self.lowest = self.lowest.min(distance);
        self.highest = self.highest.max(distance);
    }

    pub(super) fn pop(&mut self) -> Option<usize> {
        while self.lowest < self.stacks.len() {
            if let Some(anchor) = self.stacks[self.lowest].pop() {
                return Some(anchor);
            }
            self.lowest += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unwritten_anchors_read_as_default_and_written_ones_as_set() {
        let mut values = LazyPages::<u64>::new(5_000);
        values.set(3, 7);
        values.set(4_999, 9);
        assert_eq!(
            (values.get(3), values.get(4_999), values.get(2_000)),
            (7, 9, 0)
        );
        let mut merged = LazyPages::<u64>::new(5_000);
        merged.set(3, 1);
        merged.set(2_000, 5);
        merged.merge_from(&values, u64::max);
        let read = |values: &LazyPages<u64>| [3, 4, 2_000, 4_999].map(|anchor| values.get(anchor));
        assert_eq!(read(&merged), [7, 0, 5, 9]);
        assert_eq!(read(&values), [7, 0, 0, 9]);
    }
}
