//! The offline boundary: the only module that talks to the service worker
//! (`sw.js`, written at build time by scripts/post-build.mjs). Once it is
//! installed the page opens without a network, with the offers of the last
//! visit and their date (issue 10).

use wasm_bindgen::JsCast;

/// The worker's script, beside the page.
const WORKER: &str = "sw.js";

/// Registers the worker, once the offers are on screen so that its
/// downloads never compete with theirs. Does nothing where service workers
/// cannot run: an insecure page, or a sandboxed frame (an opaque origin,
/// where even reading `navigator.serviceWorker` throws).
pub fn register() {
    let Some(window) = web_sys::window() else { return };
    if !window.is_secure_context() || window.origin() == "null" {
        return;
    }
    let container = js_sys::Reflect::get(&window.navigator(), &"serviceWorker".into())
        .ok()
        .and_then(|c| c.dyn_into::<web_sys::ServiceWorkerContainer>().ok());
    if let Some(container) = container {
        let registered = container.register(WORKER);
        // A refusal (private mode, a host without the file) leaves the page
        // as it is, without an unhandled rejection in the console.
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(registered).await;
        });
    }
}
