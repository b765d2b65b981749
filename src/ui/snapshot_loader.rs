//! Fetching the data that ships beside the page, the offer snapshot and
//! the GPU and model catalog (`public/data/`), or taking the downloads the
//! page's prefetch script started (src/ui/prefetch.js).

use crate::engine::hosted_api::HostedPrices;
use crate::engine::{Catalog, Snapshot};
use crate::msg;
use crate::text::{phrases, Arg, Msg, Phrase};
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Relative to the page, so the app works from `/` and from a sub-path.
pub const OFFERS_URL: &str = "data/offers.json";
/// The catalog the page reads (`whichgpu snapshot` writes it beside the
/// offers); the CLI has the same file compiled in (`Catalog::bundled`).
pub const CATALOG_URL: &str = "data/catalog.json";

/// Heap the parse of the snapshot touches: the offers, their strings and
/// serde's buffers peak at 1.7 MiB for 2,470 offers (measured natively with
/// a counting allocator); 4 MiB leaves room for growth and for ranking.
const PARSE_HEAP_BYTES: usize = 4 << 20;

/// The page's Spanish (`text::spanish`), fetched when a visitor reads it.
pub const SPANISH_URL: &str = "data/es.json";

/// The hosted APIs' prices (`engine::hosted_api`), fetched by the second
/// module when the workload is serving.
pub const HOSTED_URL: &str = "data/hosted.json";

/// The window properties where the page's prefetch script
/// (src/ui/prefetch.js) leaves its promises.
const OFFERS_PREFETCH: &str = "whichgpuOffers";
const CATALOG_PREFETCH: &str = "whichgpuCatalog";
const SPANISH_PREFETCH: &str = "whichgpuSpanish";

/// Downloads the page's Spanish and installs it; whether it is in. Until
/// then, and where it fails (the page offline before a Spanish visit, a
/// file from another build: said in the console), the page reads in English.
pub async fn load_spanish() -> bool {
    let loaded = match download(SPANISH_PREFETCH, SPANISH_URL, &phrases::DOWNLOAD_FAILED).await {
        Ok(bytes) => crate::text::spanish::install(&bytes),
        Err(message) => Err(message.to_string()),
    };
    if let Err(why) = &loaded {
        web_sys::console::warn_1(&format!("Spanish not loaded, the page reads in English: {why}").into());
    }
    loaded.is_ok()
}

/// Downloads and reads the hosted APIs' prices, once for the page's life;
/// the error is a message to show.
pub async fn load_hosted() -> Result<&'static HostedPrices, Msg> {
    static LOADED: std::sync::OnceLock<&'static HostedPrices> = std::sync::OnceLock::new();
    if let Some(prices) = LOADED.get() {
        return Ok(prices);
    }
    // No prefetch script starts this one: the first result does not wait for it.
    let bytes = download("whichgpuHosted", HOSTED_URL, &phrases::HOSTED_DOWNLOAD_FAILED).await?;
    let prices = HostedPrices::from_bytes(&bytes).map_err(|why| msg!(phrases::HOSTED_DOWNLOAD_FAILED, detail = why))?;
    Ok(*LOADED.get_or_init(|| Box::leak(Box::new(prices))))
}

/// Downloads and reads the catalog, once for the page's life; the error is a
/// message to show. The prefetch script started the download while the
/// module loaded.
pub async fn load_catalog() -> Result<&'static Catalog, Msg> {
    let bytes = download(CATALOG_PREFETCH, CATALOG_URL, &phrases::CATALOG_DOWNLOAD_FAILED).await?;
    // Leaked once: the page holds one catalog for its whole life, as the
    // CLI's compiled-in one.
    super::timing::measure("parse-catalog", || Catalog::from_bytes(&bytes))
        .map(|catalog| &*Box::leak(Box::new(catalog)))
        .map_err(|e| e.message())
}

/// Downloads and validates the snapshot; the error is a message to show.
///
/// The first load takes the download the prefetch script started while the
/// module loaded, or the snapshot read for the first result's copy
/// (`read_for_copy`); a later one (Retry), or a page without the script,
/// downloads anew.
pub async fn load_snapshot() -> Result<Arc<Snapshot>, Msg> {
    if let Some(read) = READ_FOR_COPY.with_borrow_mut(Option::take) {
        return read;
    }
    let bytes = download_offers().await?;
    // The form goes on screen in a frame of its own before the parse and the
    // first ranking; the page was built once the body was read
    // (`prefetch_settled`), so the parse starts as soon as that frame is
    // painted.
    super::next_paint().await;
    parse_offers(&bytes)
}

thread_local! {
    /// The snapshot `read_for_copy` read, until the page's first
    /// `load_snapshot` takes it.
    static READ_FOR_COPY: std::cell::RefCell<Option<Result<Arc<Snapshot>, Msg>>> = const { std::cell::RefCell::new(None) };
}

/// Downloads and validates the snapshot at once, before the page is built,
/// for the copy of its first result (src/ui/first_copy.rs); the page's first
/// `load_snapshot` takes the same, error or not.
pub async fn read_for_copy() -> Result<Arc<Snapshot>, Msg> {
    let read = match download_offers().await {
        Ok(bytes) => parse_offers(&bytes),
        Err(message) => Err(message),
    };
    READ_FOR_COPY.set(Some(read.clone()));
    read
}

async fn download_offers() -> Result<Vec<u8>, Msg> {
    // Grow the WebAssembly heap once, up front, instead of in many small
    // steps in the middle of the parse.
    drop(Vec::<u8>::with_capacity(PARSE_HEAP_BYTES));
    download(OFFERS_PREFETCH, OFFERS_URL, &phrases::DOWNLOAD_FAILED).await
}

fn parse_offers(bytes: &[u8]) -> Result<Arc<Snapshot>, Msg> {
    super::timing::measure("parse-offers", || Snapshot::from_bytes(bytes).map(Arc::new).map_err(|e| e.message()))
}

/// The body of `url`: the prefetch script's download left at the window
/// property `prefetched`, taken once, or a new download (a Retry, or a page
/// without the script). Failures are said with `failed`.
async fn download(prefetched: &str, url: &str, failed: &'static Phrase) -> Result<Vec<u8>, Msg> {
    let download = |detail: Arg| msg!(*failed, detail = detail);
    let window = web_sys::window().ok_or_else(|| download(Arg::Phrase(&phrases::DOWNLOAD_NO_WINDOW)))?;
    let pending = take_prefetch(&window, prefetched).unwrap_or_else(|| window.fetch_with_str(url));
    let raw = wasm_bindgen_futures::JsFuture::from(pending)
        .await
        .map_err(|e| download(e.as_string().map_or(Arg::Phrase(&phrases::DOWNLOAD_NETWORK), Arg::Text)))?;
    match raw.dyn_into::<js_sys::ArrayBuffer>() {
        // The prefetch read the body already.
        Ok(body) => Ok(js_sys::Uint8Array::new(&body).to_vec()),
        Err(raw) => {
            let response: gloo_net::http::Response = raw
                .dyn_into::<web_sys::Response>()
                .map_err(|_| download(Arg::Phrase(&phrases::DOWNLOAD_NOT_HTTP)))?
                .into();
            if !response.ok() {
                let status = format!("{} {}", response.status(), response.status_text());
                return Err(download(msg!(phrases::DOWNLOAD_STATUS, status = status).into()));
            }
            response.binary().await.map_err(|e| download(Arg::Text(e.to_string())))
        }
    }
}

/// Resolves once the prefetch script's download has settled (its body read,
/// or the server's refusal, or a network failure), or after `most`,
/// whichever comes first; without the script, at once. Whether it settled.
/// The download stays for `load_snapshot` to take.
pub async fn prefetch_settled(most: std::time::Duration) -> bool {
    let Some(window) = web_sys::window() else { return false };
    let Some(pending) = prefetch(&window, OFFERS_PREFETCH) else { return false };
    let most = i32::try_from(most.as_millis()).unwrap_or(i32::MAX);
    // The timer resolves to `undefined`; the download to its body or its
    // response, or it rejects.
    let timer = js_sys::Promise::new(&mut |resolve, _| {
        let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, most);
    });
    let first =
        wasm_bindgen_futures::JsFuture::from(js_sys::Promise::race(&js_sys::Array::of2(&pending, &timer))).await;
    first.is_err() || first.is_ok_and(|settled| !settled.is_undefined())
}

/// The prefetch script's download at `property`, taken once. The property
/// is left `false`: a Retry downloads anew, and a script that runs only now
/// (after the module started) leaves it alone instead of downloading again.
fn take_prefetch(window: &web_sys::Window, property: &str) -> Option<js_sys::Promise> {
    let pending = prefetch(window, property);
    let _ = js_sys::Reflect::set(window, &wasm_bindgen::JsValue::from_str(property), &wasm_bindgen::JsValue::FALSE);
    pending
}

/// The prefetch script's download at `property`, when it is still there to take.
fn prefetch(window: &web_sys::Window, property: &str) -> Option<js_sys::Promise> {
    js_sys::Reflect::get(window, &wasm_bindgen::JsValue::from_str(property)).ok()?.dyn_into::<js_sys::Promise>().ok()
}
