//! A fingerprint of names, worked out when compiling (`phrases::FINGERPRINT`).

/// FNV-1a over `names`, each followed by a newline.
pub const fn fnv(names: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < names.len() {
        let bytes = names[i].as_bytes();
        let mut j = 0;
        while j <= bytes.len() {
            let byte = if j < bytes.len() { bytes[j] } else { b'\n' };
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
            j += 1;
        }
        i += 1;
    }
    hash
}
