//! A hash map for the short ids the engine looks up thousands of times.

use std::collections::HashMap;

/// FNV-1a: a fast hash for the short ids the ranking looks up thousands of
/// times (the standard SipHash was a tenth of the ranking's time). The keys
/// come from our own snapshot, so flooding is not a concern.
#[derive(Default)]
pub(crate) struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fnv>>;
