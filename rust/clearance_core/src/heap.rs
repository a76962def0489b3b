//! An indexed 4-ary min-heap: every item knows its place, so a key can be lowered in place
//! (decrease-key) instead of pushing a duplicate. Four children sit side by side in memory
//! and a heap of n items is only log4(n) levels deep.

/// A min-heap of `Copy` keys. Every time a key lands in a slot, the heap reports it through a
/// `placed(key, slot)` callback, so the owner can remember where each key is.
#[derive(Debug, Clone)]
pub(crate) struct IndexedHeap<K> {
    items: Vec<K>,
}

const ARITY: usize = 4;

impl<K> Default for IndexedHeap<K> {
    fn default() -> Self {
        IndexedHeap { items: Vec::new() }
    }
}

impl<K: Ord + Copy> IndexedHeap<K> {
    /// Whether `slot` holds a key for which `is_it` says yes.
    #[inline]
    pub fn holds(&self, slot: u32, is_it: impl FnOnce(K) -> bool) -> bool {
        self.items.get(slot as usize).is_some_and(|&key| is_it(key))
    }

    /// The smallest key, without removing it.
    #[inline]
    pub fn peek(&self) -> Option<K> {
        self.items.first().copied()
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Adds `key`.
    #[inline]
    pub fn push(&mut self, key: K, placed: impl FnMut(K, u32)) {
        let hole = self.items.len();
        self.items.push(key);
        self.sift_up(hole, key, placed);
    }

    /// Replaces the key in `slot` by the smaller or equal `key`.
    #[inline]
    pub fn decrease(&mut self, slot: u32, key: K, placed: impl FnMut(K, u32)) {
        debug_assert!(key <= self.items[slot as usize]);
        self.sift_up(slot as usize, key, placed);
    }

    /// Removes the smallest key. Bottom-up: the hole at the root sinks to a leaf along the
    /// smallest children, without comparing against the moved key on the way down; the last
    /// key then rises from there. It usually belongs near the bottom, so this saves about a
    /// quarter of the comparisons of the classic sift-down.
    #[inline]
    pub fn pop(&mut self, mut placed: impl FnMut(K, u32)) -> Option<K> {
        let last = self.items.pop()?;
        let len = self.items.len();
        if len == 0 {
            return Some(last);
        }
        let items = &mut self.items[..];
        let top = items[0];
        let mut hole = 0;
        loop {
            let first = hole * ARITY + 1;
            let smallest = if first + ARITY <= len {
                // Pairwise minima: data-independent control flow, so no mispredicted branches.
                let left = if items[first + 1] < items[first] {
                    first + 1
                } else {
                    first
                };
                let right = if items[first + 3] < items[first + 2] {
                    first + 3
                } else {
                    first + 2
                };
                if items[right] < items[left] {
                    right
                } else {
                    left
                }
            } else if first < len {
                (first + 1..len).fold(first, |best, child| {
                    if items[child] < items[best] {
                        child
                    } else {
                        best
                    }
                })
            } else {
                break;
            };
            items[hole] = items[smallest];
            placed(items[hole], hole as u32);
            hole = smallest;
        }
        self.sift_up(hole, last, placed);
        Some(top)
    }

    /// Moves `key`, placed at `hole`, up past every larger parent.
    #[inline(always)]
    fn sift_up(&mut self, mut hole: usize, key: K, mut placed: impl FnMut(K, u32)) {
        let items = &mut self.items[..];
        while hole > 0 {
            let parent = (hole - 1) / ARITY;
            if items[parent] <= key {
                break;
            }
            items[hole] = items[parent];
            placed(items[hole], hole as u32);
            hole = parent;
        }
        items[hole] = key;
        placed(key, hole as u32);
    }

    pub fn memory_bytes(&self) -> usize {
        self.items.capacity() * std::mem::size_of::<K>()
    }
}

#[cfg(test)]
mod tests {
    use super::IndexedHeap;

    /// Keys are (priority, id); `slots[id]` tracks where each id sits.
    #[test]
    fn pops_in_sorted_order_with_decreases() {
        let mut rng = crate::test_rng::TestRng(0x1234_5678);
        let mut random = move |limit: u64| rng.below(limit);
        let mut heap = IndexedHeap::default();
        let mut slots = vec![u32::MAX; 3000];
        let mut live: Vec<(u64, usize)> = Vec::new();
        for id in 0..3000 {
            let key = (random(10_000), id);
            heap.push(key, |(_, id), slot| slots[id] = slot);
            live.push(key);
            if id % 4 == 0 {
                // Lower a random live key.
                let which = random(live.len() as u64) as usize;
                let (priority, target) = live[which];
                let lowered = (priority / 2, target);
                heap.decrease(slots[target], lowered, |(_, id), slot| slots[id] = slot);
                live[which] = lowered;
            }
            if id % 3 == 0 {
                live.sort_unstable();
                let popped = heap.pop(|(_, id), slot| slots[id] = slot);
                assert_eq!(popped, Some(live.remove(0)));
            }
        }
        live.sort_unstable();
        for key in live {
            assert_eq!(heap.pop(|(_, id), slot| slots[id] = slot), Some(key));
        }
        assert_eq!(heap.pop(|_, _| {}), None);
    }
}
