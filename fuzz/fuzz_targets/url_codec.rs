//! Promise: any query string, whatever it holds, decodes into a workload
//! and notes that have words and only finite numbers, and settles into a
//! clean link that decodes to the same workload, offer, GPU and language
//! (`whichgpu::hardening::check_link`, issue 10).
//!
//! Run (from the repository root):
//!     cargo +nightly fuzz run url_codec fuzz/seeds/url_codec -- -dict=fuzz/dict/url.dict -max_len=4096
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
    let query = String::from_utf8_lossy(data);
    whichgpu::hardening::check_link(&query, catalog());
});
