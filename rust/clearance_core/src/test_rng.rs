//! The generator of the crate's property tests: a linear congruential generator on a fixed
//! seed (Knuth's MMIX constants), so a failing case replays.

use std::fmt::Debug;

/// A fixed-seed pseudo-random generator for tests.
pub(crate) struct TestRng(pub u64);

impl TestRng {
    /// A value in `0..bound` (`bound > 0`), of the bound's own integer type.
    pub(crate) fn below<T>(&mut self, bound: T) -> T
    where
        T: TryInto<u64> + TryFrom<u64>,
        <T as TryInto<u64>>::Error: Debug,
        <T as TryFrom<u64>>::Error: Debug,
    {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let bound: u64 = bound.try_into().expect("a positive bound");
        T::try_from((self.0 >> 33) % bound).expect("below the bound")
    }
}
