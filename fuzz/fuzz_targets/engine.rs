//! Promise: any query string decodes and settles into a clean link (as in
//! the `url_codec` target), and the engine answers the decoded workload
//! with a report or an error message, never a panic, every figure finite
//! and no NaN or infinity spelled in the CSV and JSON exports, for renting
//! and for the visitor's GPU (`whichgpu::hardening::check_query`, issue 10).
//!
//! The offers are the committed `public/data/offers.json`, thinned to every
//! 32nd offer (78 offers: 33 of the 61 GPUs, 19 of the 29 providers)
//! so each run is fast. (`whichgpu::engine::snapshot::committed`
//! is compiled only for the lib's own tests, so the file is embedded here.)
//!
//! Run (from the repository root):
//!     cargo +nightly fuzz run engine fuzz/seeds/engine -- -dict=fuzz/dict/url.dict -max_len=4096
//! or all targets: `scripts/fuzz.sh [seconds-per-target]`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use whichgpu::engine::{Catalog, Snapshot};

const OFFERS_JSON: &[u8] = include_bytes!("../../public/data/offers.json");

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<&'static Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::bundled().expect("the bundled catalog parses"))
}

fn snapshot() -> &'static Snapshot {
    static SNAPSHOT: OnceLock<Snapshot> = OnceLock::new();
    SNAPSHOT.get_or_init(|| {
        let mut snapshot = Snapshot::from_bytes(OFFERS_JSON).expect("the committed snapshot parses");
        snapshot.offers = snapshot.offers.into_iter().step_by(32).collect();
        snapshot
    })
}

fuzz_target!(|data: &[u8]| {
    let query = String::from_utf8_lossy(data);
    whichgpu::hardening::check_query(&query, catalog(), snapshot());
});
