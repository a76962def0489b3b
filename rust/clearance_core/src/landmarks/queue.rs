//! The priority queues of the landmark sweeps: monotone queues, whose keys never fall below
//! the last key popped (Dijkstra's algorithm with step costs that are not negative).
//!
//! # Buckets as wide as the cheapest step
//!
//! Where every step costs at least `w > 0`, and the costliest no more than a few thousand
//! times that (see [`MAX_RING`]), the sweeps use a [`BucketQueue`]: bucket `b`
//! holds the keys in `[b W, (b + 1) W)` for a width `W <= w` (a power of two, so a key's
//! bucket is a shift), and buckets are emptied in order, each in the order it was filled.
//! That is still Dijkstra's algorithm: when bucket `b` comes up, every key below `b W` is
//! settled, and an anchor labelled in bucket `b` cannot be lowered by another of bucket `b`,
//! whose steps add at least `w >= W` to a key of at least `b W`. So an anchor's first entry
//! taken from its bucket carries its distance, whatever the order inside the bucket; the
//! sweeps only compute distances. Taking a bucket in the order it was filled keeps
//! neighbouring anchors together (each bucket is the neighbours of the one before, in that
//! one's order), which is what a sweep over a map far larger than the caches needs: a radix
//! queue takes equal keys from all round the frontier at once. A key is never pushed to the
//! bucket being emptied (it is at least `W` above the key that pushed it) nor more than the
//! costliest step ahead of it, so a ring of buckets a little longer than that suffices.
//!
//! # Radix queues
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

/// The most buckets a [`BucketQueue`]'s ring may have. The ring must reach the costliest step
/// ahead of the key being popped, so where steps differ in cost by a large factor it would be
/// long and mostly empty, and walking its empty buckets would cost more than a radix queue's
/// moves (a multiplier of 10,000 beside one of 0.001 made a ring of 2^25 buckets).
const MAX_RING: u64 = 1 << 12;

/// A min-queue of `(key, item)` whose keys never fall below the last key popped.
pub(super) trait MonotoneQueue {
    /// Adds `item` with `key`, which must not be below the last key popped.
    fn push(&mut self, key: u64, item: u32);
    /// Removes an item of the smallest key, or (a [`BucketQueue`]) any item whose key cannot
    /// be lowered any more (see the module docs).
    fn pop(&mut self) -> Option<(u64, u32)>;
}

/// A ring of buckets as wide as the cheapest step allows (see the module docs).
pub(super) struct BucketQueue {
    /// A key's bucket is `key >> shift`.
    shift: u32,
    /// `buckets[b & mask]` holds bucket `b`.
    mask: u64,
    buckets: Vec<Vec<(u64, u32)>>,
    /// The bucket being emptied, taken out of the ring, and how far it has been read.
    draining: Vec<(u64, u32)>,
    read: usize,
    /// The next bucket to take.
    next: u64,
    len: usize,
}

impl BucketQueue {
    /// A queue for steps that cost from `cheapest` to `costliest`; `None` if `cheapest` is
    /// 0 (no bucket width can serve) or the ring would need more than [`MAX_RING`] buckets.
    pub fn for_steps(cheapest: u64, costliest: u64) -> Option<Self> {
        if cheapest == 0 {
            return None;
        }
        let shift = 63 - cheapest.leading_zeros();
        // A key is pushed at most `ahead` buckets past the one being emptied.
        let ahead = (costliest >> shift).saturating_add(1);
        // `MAX_RING` is a power of two, so this is the ring staying within it.
        if ahead >= MAX_RING {
            return None;
        }
        let ring = (ahead + 1).next_power_of_two();
        Some(BucketQueue {
            shift,
            mask: ring - 1,
            buckets: (0..ring).map(|_| Vec::new()).collect(),
            draining: Vec::new(),
            read: 0,
            next: 0,
            len: 0,
        })
    }
}

impl MonotoneQueue for BucketQueue {
    #[inline]
    fn push(&mut self, key: u64, item: u32) {
        let bucket = key >> self.shift;
        debug_assert!(bucket >= self.next && bucket < self.next + self.mask);
        self.buckets[(bucket & self.mask) as usize].push((key, item));
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
        loop {
            if let Some(&entry) = self.draining.get(self.read) {
                self.read += 1;
                self.len -= 1;
                return Some(entry);
            }
            if self.len == 0 {
                return None;
            }
            // The emptied bucket's storage goes back into the ring for a later bucket.
            self.draining.clear();
            self.read = 0;
            let slot = (self.next & self.mask) as usize;
            std::mem::swap(&mut self.draining, &mut self.buckets[slot]);
            self.next += 1;
        }
    }
}

/// A radix heap (see the module docs).
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
}

impl MonotoneQueue for RadixQueue {
    #[inline]
    fn push(&mut self, key: u64, item: u32) {
        debug_assert!(key >= self.last, "radix queues are monotone");
        let bucket = self.bucket_of(key);
        self.buckets[bucket].push((key, item));
        self.len += 1;
    }

    #[inline]
    fn pop(&mut self) -> Option<(u64, u32)> {
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
    use super::{BucketQueue, MonotoneQueue, RadixQueue};
    use std::collections::BinaryHeap;

    #[test]
    fn buckets_pop_no_key_a_bucket_above_one_still_queued() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |bound: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) % bound
        };
        for (cheapest, costliest) in [(1, 1), (5, 9), (4756, 16_815), (3, 400)] {
            let mut queue = BucketQueue::for_steps(cheapest, costliest).unwrap();
            let width = 1u64 << (63 - cheapest.leading_zeros());
            assert!(width <= cheapest && 2 * width > cheapest);
            let mut queued: Vec<u64> = Vec::new();
            queue.push(0, 0);
            queued.push(0);
            let mut popped = 0;
            while let Some((key, _)) = queue.pop() {
                // No key left in the queue lies in a lower bucket than the one popped.
                let at = queued
                    .iter()
                    .position(|&k| k == key)
                    .expect("pushed before");
                queued.swap_remove(at);
                assert!(queued.iter().all(|&k| k / width >= key / width), "{key}");
                popped += 1;
                // As a sweep does: pushes at least one cheapest step above the popped key.
                for _ in 0..1 + next(3) {
                    if popped + queued.len() < 5_000 {
                        let pushed = key + cheapest + next(costliest - cheapest + 1);
                        queue.push(pushed, 0);
                        queued.push(pushed);
                    }
                }
            }
            assert!(queued.is_empty() && popped > 100, "{popped}");
        }
        assert!(BucketQueue::for_steps(0, 10).is_none());
        // Steps of very different costs: a radix queue serves instead of a long ring.
        assert!(BucketQueue::for_steps(1000, 1000 * (super::MAX_RING / 4)).is_some());
        assert!(BucketQueue::for_steps(1000, 1000 * super::MAX_RING).is_none());
        assert!(BucketQueue::for_steps(1, u64::MAX).is_none());
    }

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
