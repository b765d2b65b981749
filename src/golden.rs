//! Golden files: a test's whole output, committed, so that a refactor that
//! must not change a figure proves it did not (issue 22). Native tests only.
//!
//! A mismatch fails with the first line that differs. After a deliberate
//! change, `UPDATE_GOLDEN=1 cargo test` rewrites the files, and the diff
//! shows every figure that moved; the commit says why.

use std::path::Path;

/// Compares `actual` with the committed file at `path` (relative to the
/// crate), or writes it when `UPDATE_GOLDEN` is set or the file is new.
pub fn check(path: &str, actual: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("UPDATE_GOLDEN").is_some() || !file.exists() {
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        std::fs::write(&file, actual).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        // A golden file is written once, then committed: a new one in CI is
        // a file someone forgot to commit.
        assert!(std::env::var_os("CI").is_none(), "{path} was missing: run the tests once and commit it");
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    if expected == actual {
        return;
    }
    let (line, (want, got)) = expected
        .lines()
        .chain(std::iter::repeat(""))
        .zip(actual.lines().chain(std::iter::repeat("")))
        .enumerate()
        .find(|(_, (want, got))| want != got)
        .unwrap_or((0, ("", "")));
    panic!(
        "{path} differs from this output at line {}:\n  golden: {want}\n  now:    {got}\n(UPDATE_GOLDEN=1 cargo test rewrites it after a deliberate change)",
        line + 1
    );
}

/// FNV-1a, 64 bits: a fingerprint of an output too long to commit whole.
pub fn fingerprint(text: &str) -> String {
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x} ({} bytes)", text.len())
}
