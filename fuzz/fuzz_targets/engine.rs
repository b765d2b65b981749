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
//! Most mutated links settle into a workload an earlier input already
//! asked (an ignored key, a value clamped to its bound): every input's
//! link is checked, and the engine answers each settled workload once
//! (`hardening::answered_by`), as its answer depends on nothing else.
//!
//! Run (from the repository root):
//!     cargo +nightly fuzz run -s none engine fuzz/seeds/engine -- -dict=fuzz/dict/url.dict -max_len=4096
//! or all targets: `scripts/fuzz.sh [seconds-per-target]`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};
use whichgpu::engine::{Catalog, Snapshot};
use whichgpu::hardening::{answered_by, check_answer, check_link};

const OFFERS_JSON: &[u8] = include_bytes!("../../public/data/offers.json");

/// Settled links answered so far; forgotten past this many, to bound memory.
const REMEMBERED: usize = 1 << 20;

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

fn answered() -> &'static Mutex<HashSet<String>> {
    static ANSWERED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    ANSWERED.get_or_init(Mutex::default)
}

fuzz_target!(|data: &[u8]| {
    let query = String::from_utf8_lossy(data);
    let decoded = check_link(&query, catalog());
    let mut answered = answered().lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if answered.len() >= REMEMBERED {
        answered.clear();
    }
    if answered.insert(answered_by(&decoded)) {
        // How many the engine answered, for scripts/fuzz.sh's summary.
        if answered.len().is_power_of_two() || answered.len() % 256 == 0 {
            eprintln!("engine answered {} settled workloads", answered.len());
        }
        drop(answered);
        check_answer(&decoded, catalog(), snapshot());
    }
});
