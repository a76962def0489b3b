//! The hash tables the map keeps its profiles and caches in.
//!
//! Every query looks up its profile, clearance layer and search graph by key, so the table
//! hash is on the path of the shortest query. The keys are few and chosen by the game, not by
//! an adversary, so a multiply-rotate hash of eight bytes at a time replaces std's SipHash
//! (which resists flooding attacks these tables do not face).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`WordHasher`].
pub(crate) type Table<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;

/// Folds the key eight bytes at a time: rotate, xor, multiply by an odd constant.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WordHasher {
    hash: u64,
}

impl WordHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn equal_keys_hash_equal_and_near_keys_differ() {
        let build = BuildHasherDefault::<WordHasher>::default();
        assert_eq!(
            build.hash_one("truck"),
            build.hash_one(String::from("truck"))
        );
        let names = ["truck", "tank", "tanks", "infantry", "", "a", "b"];
        let hashes: std::collections::HashSet<u64> =
            names.iter().map(|name| build.hash_one(name)).collect();
        assert_eq!(hashes.len(), names.len());
    }
}
