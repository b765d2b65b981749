//! Fetching the offer snapshot that ships beside the page.

use crate::engine::Snapshot;
use std::sync::Arc;

/// Relative to the page, so the app works from `/` and from a sub-path.
pub const OFFERS_URL: &str = "data/offers.json";

/// Downloads and validates the snapshot; the error is a sentence to show.
pub async fn load_snapshot() -> Result<Arc<Snapshot>, String> {
    let response = gloo_net::http::Request::get(OFFERS_URL)
        .send()
        .await
        .map_err(|e| format!("offer data could not be downloaded: {e}"))?;
    if !response.ok() {
        return Err(format!(
            "offer data could not be downloaded: the server answered {} {}",
            response.status(),
            response.status_text()
        ));
    }
    let text = response.text().await.map_err(|e| format!("offer data could not be downloaded: {e}"))?;
    let timing = ParseTiming::start();
    let snapshot = Snapshot::from_json(&text).map(Arc::new).map_err(|e| e.to_string());
    timing.finish();
    snapshot
}

/// A User Timing entry, `whichgpu:parse-offers`, around parsing and
/// validating the snapshot, so benchmarks read the parse time in Chromium
/// (`performance.getEntriesByName`). Missing timing APIs are ignored.
struct ParseTiming(Option<web_sys::Performance>);

const PARSE_START: &str = "whichgpu:parse-offers-start";
const PARSE_MEASURE: &str = "whichgpu:parse-offers";

impl ParseTiming {
    fn start() -> ParseTiming {
        let performance = web_sys::window().and_then(|w| w.performance());
        if let Some(p) = &performance {
            let _ = p.mark(PARSE_START);
        }
        ParseTiming(performance)
    }

    fn finish(self) {
        if let Some(p) = self.0 {
            let _ = p.measure_with_str(PARSE_MEASURE, PARSE_START);
        }
    }
}
