//! The clipboard boundary: the only module that writes to the system
//! clipboard (`navigator.clipboard.writeText`).

/// Copies `text`; `Err` when the browser has no clipboard for this page
/// (an insecure context, a sandboxed frame, a refused permission), and
/// the caller offers the text to copy by hand.
pub async fn copy_text(text: &str) -> Result<(), ()> {
    let window = web_sys::window().ok_or(())?;
    // `navigator.clipboard` exists only in secure contexts.
    if !window.is_secure_context() {
        return Err(());
    }
    let written = window.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(written).await.map(|_| ()).map_err(|_| ())
}

/// Asks for `text` to be copied without waiting for the answer: for the
/// crash panel, where the futures executor may be what panicked.
pub fn copy_text_unawaited(text: &str) {
    if let Some(window) = web_sys::window().filter(|w| w.is_secure_context()) {
        let _ = window.navigator().clipboard().write_text(text);
    }
}
