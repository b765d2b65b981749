//! Promise: an offer file, whatever its bytes, is either refused with a
//! message (words, finite numbers) or ranks the default workload like any
//! other, every figure finite and the exports free of NaN and infinity
//! (`whichgpu::hardening::check_snapshot_bytes`, issue 10).
//!
//! Run (from the repository root):
//!     cargo +nightly fuzz run snapshot fuzz/seeds/snapshot -- -dict=fuzz/dict/json.dict -max_len=65536
//! or all targets: `scripts/fuzz.sh [seconds-per-target]`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use whichgpu::engine::Catalog;

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<&'static Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::bundled().expect("the bundled catalog parses"))
}

fuzz_target!(|data: &[u8]| {
    whichgpu::hardening::check_snapshot_bytes(data, catalog());
});
