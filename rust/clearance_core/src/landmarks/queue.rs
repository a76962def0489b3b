//! A monotone radix queue: the priority queue of the landmark sweeps.
//!
//! Dijkstra's algorithm never pushes a key below the last key it popped (step costs are not
//! negative), and a *radix heap* (Ahuja, Mehlhorn, Orlin and Tarjan, "Faster algorithms for
//! the shortest path problem", J. ACM 1990) uses that: bucket `b` holds the keys whose highest
//! bit differing from the last popped key is bit `b - 1` (bucket 0: keys equal to it). Popping
//! from an empty bucket 0 finds the first non-empty bucket, makes its smallest key the last
//! popped one and spreads the bucket over lower buckets. Each key moves down at most 64 times,
//! mostly far fewer, and every move is a sequential push: much cheaper than a binary heap's
//! sift through a large array.
//!
//! Keys equal to the last popped key come out in no particular order; the sweeps only compute
//! distances, which do not depend on the order in which equal keys are settled.

/// A min-queue of `(key, item)` whose keys never fall below the last key popped.
pub(super) struct RadixQueue {
    last: u64,
    len: usize,
    buckets: Vec<Vec<(u64, u32)>>,
}

impl RadixQueue {
    pub fn new() -> Self {
        RadixQueue {
            last: 0,
            len: 0,
            buckets: (0..65).map(|_| Vec::new()).collect(),
        }
    }

    fn bucket_of(&self, key: u64) -> usize {
        (64 - (key ^ self.last).leading_zeros()) as usize
    }

    /// Adds `item` with `key`, which must not be below the last key popped.
    #[inline]
    pub fn push(&mut self, key: u64, item: u32) {
        debug_assert!(key >= self.last, "radix queues are monotone");
        let bucket = self.bucket_of(key);
        self.buckets[bucket].push((key, item));
        self.len += 1;
    }

    /// Removes an item of the smallest key.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, u32)> {
        if self.buckets[0].is_empty() {
            if self.len == 0 {
                return None;
            }
            let first = self.buckets.iter().position(|b| !b.is_empty())?;
            let spread = std::mem::take(&mut self.buckets[first]);
            self.last = spread.iter().map(|&(key, _)| key).min()?;
            for &(key, item) in &spread {
                let bucket = self.bucket_of(key);
                self.buckets[bucket].push((key, item));
            }
            // Keep the allocation for the next spread.
            let mut spread = spread;
            spread.clear();
            self.buckets[first] = spread;
        }
        self.len -= 1;
        self.buckets[0].pop()
    }
}

#[cfg(test)]
mod tests {
    use super::RadixQueue;
    use std::collections::BinaryHeap;

    #[test]
    fn pops_in_key_order_like_a_binary_heap() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |bound: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % bound
        };
        let mut queue = RadixQueue::new();
        let mut reference = BinaryHeap::new();
        let mut last = 0;
        for round in 0..20_000u32 {
            if next(3) > 0 {
                let key = last + next(if round % 7 == 0 { 1 << 40 } else { 5000 });
                queue.push(key, round);
                reference.push(std::cmp::Reverse(key));
            } else {
                let popped = queue.pop().map(|(key, _)| key);
                assert_eq!(popped, reference.pop().map(|r| r.0));
                last = popped.unwrap_or(last);
            }
        }
        while let Some(std::cmp::Reverse(key)) = reference.pop() {
            assert_eq!(queue.pop().map(|(k, _)| k), Some(key));
        }
        assert_eq!(queue.pop(), None);
    }
}
