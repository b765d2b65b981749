//! The Leptos page (wasm32 only). Each JavaScript boundary lives in one
//! module: `url_state` (location and history), `snapshot_loader` (fetch,
//! and the promise of the page's prefetch script, `offers_prefetch.js`),
//! `timing` (User Timing marks for benchmarks), `download` (files),
//! `document` (the browser's languages, the page's language and title),
//! `clipboard` (copying a link), `embed_host` (height messages to a host
//! page), `gpu_probe` (WebGPU and WebGL: the visitor's GPU), `crash` (the panel
//! that replaces a page stopped by a panic), `offline` (the service worker),
//! `row_cells` (the offers table's cells, written in place), `roving_focus`
//! (one tab stop and the arrow keys for a group of controls).

mod app;
mod clipboard;
mod cost_chart;
pub mod crash;
mod document;
mod download;
mod embed_host;
mod gpu_probe;
mod memory_bar;
mod offers_table;
mod offline;
mod roving_focus;
mod row_cells;
mod snapshot_info;
pub mod snapshot_loader;
mod timing;
pub mod url_state;
mod workload_form;
mod your_gpu;

pub use app::{use_lang, App};
pub use memory_bar::MemoryBar;
pub use offers_table::{OffersTable, Ranked};
pub use snapshot_info::SnapshotInfo;
pub use workload_form::WorkloadForm;

/// Runs `work` once the next frame is painted: a task queued from the next
/// animation frame runs after that frame's paint (an animation frame alone
/// runs before it). The first result goes on screen before what follows it
/// is built (issue 7: the first result within 500 ms).
pub(crate) fn after_next_paint(work: impl FnOnce() + 'static) {
    leptos::prelude::request_animation_frame(move || leptos::prelude::set_timeout(work, std::time::Duration::ZERO));
}

/// Mounts the page into `<body>`.
pub fn mount() {
    crash::install();
    // Benchmarks read how long building the page took (tests/e2e/bench-snapshot.mjs).
    timing::measure("mount", || leptos::mount::mount_to_body(App));
}
