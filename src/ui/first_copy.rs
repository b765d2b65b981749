//! A link's first result on a phone, shown before the page is built (issue
//! 38): once the catalog is read and the offers are in, they are parsed and
//! ranked at once and the result written as HTML (`present::first_result`),
//! which shows in the next frame, inert; the page then builds itself hidden
//! behind it and removes it in the frame that draws its own first result
//! (src/ui/app.rs), the same rows in the same places. Building the page and
//! its results first put the first row a quarter of a second later on the
//! throttled link (CPU 4× slower). A plain visit has the copy drawn at build
//! time instead (scripts/prerender.mjs); a wider screen shows the form
//! open, which the copy does not draw.

use super::{document, snapshot_loader, timing, url_state};
use crate::engine::{Catalog, Terms};
use crate::engine::{Report, Workload};
use crate::present::first_result::{copied, FirstResult};
use crate::text::Lang;
use std::sync::Arc;

/// The copy's ranking, which the page takes rather than rank the same
/// workload again (src/ui/app.rs).
struct Ranked {
    terms: Arc<Terms>,
    workload: Workload,
    report: Report,
}

thread_local! {
    static RANKED: std::cell::RefCell<Option<Ranked>> = const { std::cell::RefCell::new(None) };
}

/// The terms the copy ranked the page's offers with, built once per
/// snapshot: the page's own (it reads the same snapshot,
/// `snapshot_loader::load_snapshot`).
pub fn terms() -> Option<Arc<Terms>> {
    RANKED.with_borrow(|ranked| ranked.as_ref().map(|r| Arc::clone(&r.terms)))
}

/// The copy's ranking of `workload`, taken once: `None` for any other
/// workload, and after the first call.
pub fn take_report(workload: &Workload) -> Option<Report> {
    RANKED.with_borrow_mut(|ranked| {
        let Ranked { report, .. } = ranked.take_if(|r| r.workload == *workload)?;
        Some(report)
    })
}

/// Draws the copy of the first result for the page about to be built in
/// `lang`, when its screen is a phone's and its link one the copy draws as
/// the page does (`present::first_result::copied`), and waits for the frame
/// that shows it; whether it did. The offers read here are the page's
/// (`snapshot_loader::read_for_copy`).
pub async fn draw(catalog: &'static Catalog, lang: Lang) -> bool {
    if !document::narrow_screen() {
        return false;
    }
    let decoded = crate::url_codec::decode(&url_state::current_query(), catalog);
    if !copied(&decoded) {
        return false;
    }
    let workload = decoded.workload;
    let Ok(snapshot) = snapshot_loader::read_for_copy().await else { return false };
    let terms = Arc::new(Terms::of(&snapshot));
    let today = super::clock::days_today();
    let ranked = timing::measure("rank-copy", || FirstResult::rank(&workload, catalog, &snapshot, &terms, lang, today));
    let Some(first) = ranked else { return false };
    document::show_copy(&first.phone_copy(), lang);
    let report = first.into_report();
    RANKED.set(Some(Ranked { terms, workload, report }));
    super::next_paint().await;
    // The frame that shows it is painted by now. Chromium reports the
    // paint of the copy's caption (Element Timing, which the benchmarks
    // read for a copy drawn at build time) only once the frame is
    // presented, which the page's build delays past the copy's removal:
    // the benchmarks read this mark instead (tests/e2e/harness.mjs).
    timing::mark("first-copy-painted");
    document::shows_prerender()
}
