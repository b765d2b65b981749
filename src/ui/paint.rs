//! Work that waits for the browser: the first result goes on screen before
//! what follows it is built, and a long ranking gives the browser turns.

use std::time::Duration;

/// Runs `work` once the next frame is painted: a task queued from the next
/// animation frame runs after that frame's paint (an animation frame alone
/// runs before it). The first result goes on screen before what follows it
/// is built (issue 7: the first result within 500 ms).
pub(crate) fn after_next_paint(work: impl FnOnce() + 'static) {
    leptos::prelude::request_animation_frame(move || leptos::prelude::set_timeout(work, Duration::ZERO));
}

/// Resolves once the next frame is painted (`after_next_paint`, awaited).
pub(crate) async fn next_paint() {
    settled(after_next_paint).await;
}

/// Resolves in a task of its own, once the browser has handled the input
/// and the paint that are due: `scheduler.yield()` where the browser has
/// it (Chromium 129 on; it resumes ahead of other queued tasks), else a
/// zero timeout (which browsers run at least 4 ms apart once nested:
/// HTML's timer initialisation steps).
pub(crate) async fn next_turn() {
    if let Some(promise) = scheduler_yield() {
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
        return;
    }
    settled(|resolve| leptos::prelude::set_timeout(resolve, Duration::ZERO)).await;
}

/// `scheduler.yield()`'s promise, where the browser has it.
fn scheduler_yield() -> Option<js_sys::Promise> {
    use wasm_bindgen::JsCast;
    let scheduler = js_sys::Reflect::get(&js_sys::global(), &"scheduler".into()).ok()?;
    let yield_now = js_sys::Reflect::get(&scheduler, &"yield".into()).ok()?.dyn_into::<js_sys::Function>().ok()?;
    yield_now.call0(&scheduler).ok()?.dyn_into::<js_sys::Promise>().ok()
}

/// Resolves once `schedule` runs the callback it is given.
async fn settled(schedule: fn(Box<dyn FnOnce()>)) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        schedule(Box::new(move || {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }))
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}
