//! Fetching the offer snapshot that ships beside the page, or taking the
//! download the page's prefetch script started (src/ui/offers_prefetch.js).

use crate::engine::Snapshot;
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Relative to the page, so the app works from `/` and from a sub-path.
pub const OFFERS_URL: &str = "data/offers.json";

/// Heap the parse of the snapshot touches: the offers, their strings and
/// serde's buffers peak at 1.7 MiB for 2,470 offers (measured natively with
/// a counting allocator); 4 MiB leaves room for growth and for ranking.
const PARSE_HEAP_BYTES: usize = 4 << 20;

/// A small valid snapshot, parsed while the real one downloads.
pub const WARM_UP_SNAPSHOT: &str = r#"{"schema_version":1,"snapshot_date":"2026-09","sources":[{"id":"s","name":"n","upstream":"u","commit":"c","as_of":"2026-09"}],"providers":[{"id":"p","name":"P","billing_increment_s":1,"minimum_charge_s":60,"spot_available":true,"block_storage_usd_per_gb_month":0.1,"egress_usd_per_gb":0.1,"pricing_page":"x"}],"offers":[{"provider":"p","underlying_cloud":"c","instance":"i","regions":["r","q"],"gpu":"h100_sxm","gpu_count":8,"vram_gb":80.0,"vcpus":96.0,"ram_gb":1024.0,"price":1.5,"spot_price":0.5,"source":"s"},{"provider":"p","instance":"j","gpu":"rtx_4090","gpu_count":1,"vram_gb":24,"price":0.5,"source":"s"}]}"#;

/// The window property where the page's prefetch script
/// (src/ui/offers_prefetch.js) leaves its promise.
const PREFETCH: &str = "whichgpuOffers";

/// Downloads and validates the snapshot; the error is a message to show.
///
/// The first load takes the download the prefetch script started while the
/// module loaded; a later one (Retry), or a page without the script,
/// downloads anew. Then the parser and the ranking run once on a tiny
/// snapshot: on a slow network, while the download is still in flight
/// (on loopback the prefetch has usually read it already), so the browser
/// compiles their WebAssembly before the real file arrives instead of
/// after (a cold first parse took 2–3× a warm one in
/// tests/e2e/bench-snapshot.mjs, a cold first ranking 4× a warm one in
/// tests/e2e/bench-rank.mjs).
pub async fn load_snapshot() -> Result<Arc<Snapshot>, Msg> {
    let download = |detail: Arg| msg!(phrases::DOWNLOAD_FAILED, detail = detail);
    let window = web_sys::window().ok_or_else(|| download(Arg::Phrase(&phrases::DOWNLOAD_NO_WINDOW)))?;
    let pending = take_prefetch(&window).unwrap_or_else(|| window.fetch_with_str(OFFERS_URL));
    // Ranking the tiny snapshot too runs the sizing, speed and cost code
    // once before the first real ranking needs it compiled.
    if let (Ok(warm), Ok(catalog)) = (Snapshot::from_json(WARM_UP_SNAPSHOT), crate::engine::Catalog::bundled()) {
        let _ = crate::engine::rank(&crate::engine::Workload::default(), catalog, &warm);
    }
    // Grow the WebAssembly heap once, up front, instead of in many small
    // steps in the middle of the parse.
    drop(Vec::<u8>::with_capacity(PARSE_HEAP_BYTES));
    let raw = wasm_bindgen_futures::JsFuture::from(pending)
        .await
        .map_err(|e| download(e.as_string().map_or(Arg::Phrase(&phrases::DOWNLOAD_NETWORK), Arg::Text)))?;
    let bytes = match raw.dyn_into::<js_sys::ArrayBuffer>() {
        // The prefetch read the body already.
        Ok(body) => js_sys::Uint8Array::new(&body).to_vec(),
        Err(raw) => {
            let response: gloo_net::http::Response = raw
                .dyn_into::<web_sys::Response>()
                .map_err(|_| download(Arg::Phrase(&phrases::DOWNLOAD_NOT_HTTP)))?
                .into();
            if !response.ok() {
                let status = format!("{} {}", response.status(), response.status_text());
                return Err(download(msg!(phrases::DOWNLOAD_STATUS, status = status).into()));
            }
            response.binary().await.map_err(|e| download(Arg::Text(e.to_string())))?
        }
    };
    super::timing::measure("parse-offers", || Snapshot::from_bytes(&bytes).map(Arc::new).map_err(|e| e.message()))
}

/// The prefetch script's download, taken once. The property is left
/// `false`: a Retry downloads anew, and a script that runs only now (after
/// the module started) leaves it alone instead of downloading again.
fn take_prefetch(window: &web_sys::Window) -> Option<js_sys::Promise> {
    let key = wasm_bindgen::JsValue::from_str(PREFETCH);
    let pending = js_sys::Reflect::get(window, &key).ok();
    let _ = js_sys::Reflect::set(window, &key, &wasm_bindgen::JsValue::FALSE);
    pending?.dyn_into::<js_sys::Promise>().ok()
}
