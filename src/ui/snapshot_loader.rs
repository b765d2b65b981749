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
    let text = response
        .text()
        .await
        .map_err(|e| format!("offer data could not be downloaded: {e}"))?;
    Snapshot::from_json(&text)
        .map(Arc::new)
        .map_err(|e| e.to_string())
}
