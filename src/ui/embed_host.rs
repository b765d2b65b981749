//! The embedding boundary: the only module that talks to a page hosting
//! whichgpu in an iframe. It posts, and never reads: the host's messages
//! are not listened to at all.
//!
//! Whenever the page's height changes, and whenever its state does, it
//! posts to `window.parent` (any origin; nothing in it is secret):
//!
//! ```text
//! { type: "whichgpu:height", height: <CSS pixels of the whole page>, url: "<full-page link of this state>" }
//! ```
//!
//! A host sizes the iframe with:
//!
//! ```text
//! addEventListener("message", (e) => {
//!   if (e.data?.type === "whichgpu:height" && e.source === frame.contentWindow) frame.style.height = e.data.height + "px";
//! });
//! ```

use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The message's `type`.
pub const HEIGHT_MESSAGE: &str = "whichgpu:height";

thread_local! {
    /// The full-page link of the current state, sent with each height.
    static STATE_URL: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The HTML a host pastes to embed the page at `src`: a frame sandboxed
/// with `allow-scripts` only, and the listener that sizes it from this
/// module's messages (only from that frame, only this message type).
pub fn snippet(src: &str) -> String {
    let src = src.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe src=\"{src}\" title=\"whichgpu\" sandbox=\"allow-scripts\" loading=\"lazy\" style=\"width:100%;height:600px;border:0\"></iframe>\n\
         <script>addEventListener(\"message\", (e) => {{ const f = document.querySelector('iframe[title=\"whichgpu\"]'); \
         if (f && e.source === f.contentWindow && e.data?.type === \"{HEIGHT_MESSAGE}\") f.style.height = e.data.height + \"px\"; }});</script>"
    )
}

/// Posts the height now and whenever the page's size changes. Does nothing
/// outside a frame.
pub fn start() {
    let Some(window) = web_sys::window() else { return };
    let framed = window.parent().ok().flatten().is_some_and(|parent| parent != window);
    if !framed {
        return;
    }
    let Some(body) = window.document().and_then(|d| d.body()) else { return };
    let changed = Closure::<dyn FnMut()>::new(post_height);
    if let Ok(observer) = web_sys::ResizeObserver::new(changed.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    // The observer lives as long as the page.
    changed.forget();
}

/// Records the state's full-page link and posts it with the height.
pub fn set_state_url(url: String) {
    STATE_URL.with(|state| *state.borrow_mut() = url);
    post_height();
}

fn post_height() {
    let Some(window) = web_sys::window() else { return };
    let Some(parent) = window.parent().ok().flatten().filter(|parent| *parent != window) else { return };
    let Some(root) = window.document().and_then(|d| d.document_element()) else { return };
    let message = js_sys::Object::new();
    let url = STATE_URL.with(|state| state.borrow().clone());
    for (key, value) in [
        ("type", JsValue::from_str(HEIGHT_MESSAGE)),
        ("height", JsValue::from_f64(f64::from(root.scroll_height()))),
        ("url", JsValue::from_str(&url)),
    ] {
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str(key), &value);
    }
    // Failing to reach the host must not break the page.
    let _ = parent.post_message(&message, "*");
}
