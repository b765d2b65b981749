//! The clipboard boundary: the only module that writes to the system
//! clipboard (`navigator.clipboard.writeText`).

/// Asks the clipboard to hold `text`; `None` where this page has no
/// clipboard (`navigator.clipboard` exists only in secure contexts).
fn write(text: &str) -> Option<js_sys::Promise> {
    let window = web_sys::window().filter(|w| w.is_secure_context())?;
    Some(window.navigator().clipboard().write_text(text))
}

/// Copies `text`; `Err` when the browser has no clipboard for this page
/// (an insecure context, a sandboxed frame, a refused permission), and
/// the caller offers the text to copy by hand.
pub async fn copy_text(text: &str) -> Result<(), ()> {
    let written = write(text).ok_or(())?;
    wasm_bindgen_futures::JsFuture::from(written).await.map(|_| ()).map_err(|_| ())
}

/// Asks for `text` to be copied without waiting for the answer: for the
/// crash panel, where the futures executor may be what panicked.
pub fn copy_text_unawaited(text: &str) {
    let _ = write(text);
}

/// Where the browser will not copy: `text` in a read-only field that
/// selects itself when focused, for the visitor to copy by hand.
pub fn by_hand(text: String, testid: &'static str) -> impl leptos::IntoView {
    use leptos::prelude::*;
    view! {
        <input type="text" readonly data-testid=testid value=text on:focus=|ev| {
            if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                input.select();
            }
        } />
    }
}
