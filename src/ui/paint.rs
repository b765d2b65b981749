//! Work that waits for the browser to paint: the first result goes on
//! screen before what follows it is built.

/// Runs `work` once the next frame is painted: a task queued from the next
/// animation frame runs after that frame's paint (an animation frame alone
/// runs before it). The first result goes on screen before what follows it
/// is built (issue 7: the first result within 500 ms).
pub(crate) fn after_next_paint(work: impl FnOnce() + 'static) {
    leptos::prelude::request_animation_frame(move || leptos::prelude::set_timeout(work, std::time::Duration::ZERO));
}

/// Resolves once the next frame is painted (`after_next_paint`, awaited).
pub(crate) async fn next_paint() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        after_next_paint(move || {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        })
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
