//! Ranking to latency targets over several turns of the event loop (issue
//! 39): planning every offer takes the main thread a few hundred
//! milliseconds in a browser (tests/e2e/bench-rank.mjs), so the ranking
//! goes a step of offers at a time (`engine::Ranking`), and the browser
//! handles input and paints the progress between steps.

use super::ranked::Ranked;
use crate::engine::{Catalog, Ranking, Snapshot, Terms, Workload};
use crate::text::Msg;
use std::sync::Arc;

/// Offers ranked per step, each in one format: a twentieth of the bundled
/// snapshot's 2,465. With targets set, a step took up to 53 ms of
/// Chromium's main thread on the 2-core test machine at 250 offers
/// (tests/e2e/bench-rank.mjs; the first offers of each GPU plan its
/// groupings), past the 50 ms within which a page should answer input
/// (RAIL, web.dev/articles/rail). Offers planned in several formats
/// (`quant=allow`) go as many times fewer a step.
const OFFERS_PER_STEP: usize = 125;

/// Ranks `workload` in steps, telling `go_on` how many offers are done,
/// and of how many, after each. `None` once `go_on` says stop: a newer
/// edit replaced the workload.
pub(crate) async fn rank_in_steps(
    workload: &Workload,
    catalog: &'static Catalog,
    snapshot: &Snapshot,
    terms: &Terms,
    mut go_on: impl FnMut(usize, usize) -> bool,
) -> Option<Result<Ranked, Msg>> {
    let model = match workload.resolve_model(catalog) {
        Ok(model) => model,
        Err(e) => return Some(Err(e.message())),
    };
    let mut ranking = match Ranking::start(workload, &model, catalog, snapshot, terms) {
        Ok(ranking) => ranking,
        Err(e) => return Some(Err(e.message())),
    };
    // Benchmarks and tests read each step's time (`whichgpu:plan-step`).
    let step = (OFFERS_PER_STEP / ranking.formats()).max(1);
    while !super::timing::measure("plan-step", || ranking.advance(step)) {
        let (done, of) = ranking.progress();
        if !go_on(done, of) {
            return None;
        }
        super::next_turn().await;
    }
    Some(Ok(Ranked(Arc::new(ranking.finish()))))
}
