//! The Leptos page (wasm32 only). Each JavaScript boundary lives in one
//! module: `url_state` (location and history), `snapshot_loader` (fetch,
//! and the promises of the page's prefetch script, `prefetch.js`),
//! `timing` (User Timing marks for benchmarks), `download` (files),
//! `document` (the browser's languages, the page's language and title),
//! `clipboard` (copying a link), `embed_host` (height messages to a host
//! page), `gpu_probe` (WebGPU and WebGL: the visitor's GPU), `crash` (the panel
//! that replaces a page stopped by a panic), `offline` (the service worker),
//! `row_cells` (the offers table's cells, written in place), `first_copy`
//! (a link's first result on a phone, written as HTML before the page is
//! built), `cost_chart`
//! (its tip, written in place as the pointer or the focus moves), `roving_focus`
//! (one tab stop and the arrow keys for a group of controls: the chart's
//! points, the task tabs).

mod app;
mod clipboard;
mod clock;
mod cost_chart;
pub mod crash;
mod document;
mod download;
mod embed_host;
mod first_copy;
mod gpu_probe;
pub mod import_worker;
mod lang;
mod later;
mod memory_bar;
mod model_import;
mod offers_table;
mod offline;
mod page_header;
mod paint;
mod planning;
mod ranked;
mod roving_focus;
mod row_cells;
pub mod snapshot_info;
pub mod snapshot_loader;
mod timing;
pub mod url_state;
mod workload_form;
mod your_gpu;

pub use app::{App, AppProps};
pub use lang::use_lang;
pub use memory_bar::MemoryBar;
pub use offers_table::OffersTable;
pub use ranked::Ranked;
pub use snapshot_info::SnapshotInfo;
pub use workload_form::WorkloadForm;

pub(crate) use paint::{after_next_paint, next_paint, next_turn};

/// How long the page waits for the offers' body before it builds the page
/// without it. The offers (41 KB gzip) download beside the module (336 KB
/// gzip), so they are nearly always read first and nothing waits; this
/// bounds the wait on a slow offers server. Half a second of blank page
/// stays well inside the second after which a visitor's flow of thought
/// breaks (RAIL, web.dev/articles/rail).
const OFFERS_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// Mounts the page into `<body>` once the offers' body is read (or after
/// `OFFERS_WAIT`). Reading the body takes the main thread a few turns:
/// started while the module compiled, it used to finish only after the
/// page was built and the form painted, and the parse waited for it
/// (12–22 ms in Long Animation Frame timings). Built after the read, the
/// page paints the form and parses at once: the first result came 20 ms
/// sooner in two runs of 15 and 21 interleaved cold loads (issue 7).
///
/// The catalog (the GPUs and models the form lists) is needed first; it
/// downloads beside the offers and, at 7 KB gzip, is in long before them.
pub fn mount() {
    crash::install();
    wasm_bindgen_futures::spawn_local(async {
        let offers_in = snapshot_loader::prefetch_settled(OFFERS_WAIT).await;
        let catalog = snapshot_loader::load_catalog().await;
        // A page that opens in Spanish waits for its words (downloaded
        // beside the catalog) rather than flash English first.
        use crate::text::{spanish, Lang};
        let wanted = document::page_lang();
        if wanted == Lang::Es && !spanish::installed() {
            snapshot_loader::load_spanish().await;
        }
        let lang = if wanted == Lang::Es && !spanish::installed() { Lang::En } else { wanted };
        // A plain visit shows the first result drawn at build time until the
        // page draws its own (app.rs); a link on a phone, once its offers are
        // in, a copy drawn now (first_copy.rs); any other drops the hidden
        // copy now.
        let copy_shown = match catalog {
            Ok(_) if document::shows_prerender() => true,
            Ok(catalog) if offers_in => first_copy::draw(catalog, lang).await,
            _ => false,
        };
        if copy_shown {
            leptos::prelude::set_timeout(document::remove_prerender, document::PRERENDER_AT_MOST);
        } else {
            document::remove_prerender();
        }
        // Benchmarks read how long building the page took (tests/e2e/bench-snapshot.mjs).
        timing::measure("mount", || {
            document::remove_boot_notice();
            leptos::mount::mount_to_body(move || App(AppProps { catalog }))
        });
    });
}
