//! The browser's address bar: where the workload lives between visits.
//! The only module that touches `window.location` and `window.history`.

/// The current query string, without `?`; empty when unavailable.
pub fn current_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .map(|search| search.trim_start_matches('?').to_string())
        .unwrap_or_default()
}

thread_local! {
    /// The query the page means to write a moment from now (`schedule`).
    static PENDING: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Remembers `query` as the next to write; `flush` writes it. The page
/// writes a moment after the last edit, and a crash at once (`stop`).
pub fn schedule(query: String) {
    PENDING.with(|pending| {
        if let Ok(mut pending) = pending.try_borrow_mut() {
            *pending = Some(query);
        }
    });
}

/// Set once the page has stopped (`stop`): the address bar is not written again.
static STOPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// For a crash: writes the scheduled query now, so the crash panel, which
/// quotes the address bar, holds the last edit too; then nothing moves the
/// address bar again.
pub fn stop() {
    flush();
    STOPPED.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Writes the scheduled query, if any.
pub fn flush() {
    let query = PENDING.with(|pending| pending.try_borrow_mut().ok().and_then(|mut p| p.take()));
    if let Some(query) = query {
        replace_query(&query);
    }
}

/// Replaces the query in the address bar without adding a history entry or
/// reloading; the path (e.g. a `/whichgpu/` sub-path) and hash are kept.
/// After `stop` the address bar stays as the crash panel quotes it.
pub fn replace_query(query: &str) {
    if STOPPED.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let location = window.location();
    let path = location.pathname().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let url = if query.is_empty() { format!("{path}{hash}") } else { format!("{path}?{query}{hash}") };
    let current = format!("{path}{}{hash}", location.search().unwrap_or_default());
    if url == current {
        return;
    }
    if let Ok(history) = window.history() {
        // Failing to update the address bar must not break the page.
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The full address of this page with `query`: what a shared link is.
/// Built from `location.href`, which holds the real address even in a
/// sandboxed frame, whose `location.origin` is "null".
pub fn link_with(query: &str) -> String {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
    let base = href.split(['?', '#']).next().unwrap_or_default();
    if query.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{query}")
    }
}

/// Loads the page again from its link (the Retry of a page that could not
/// start).
pub fn reload() {
    if let Some(window) = web_sys::window() {
        let _ = window.location().reload();
    }
}
