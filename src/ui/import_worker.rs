//! The model import's Web Worker boundary (issue 27), both sides. The
//! readers of config.json, safetensors and GGUF headers are about 36 KB
//! gzip of WebAssembly that the first result never needs, so they live in
//! their own module (the `import_worker` binary, `src/bin/import_worker.rs`),
//! which the page starts only when the user imports a model.
//!
//! The worker says it is ready (a message arriving before its module has
//! set its handler would be lost); the page then posts `[known_as | null,
//! file, file, …]` (`Uint8Array`s), and the worker answers `[link | null,
//! sets_format, English, Spanish]` (`present::import_answer::ImportAnswer`):
//! the model as link keys, which the page already reads, and what to say.

use crate::model_import::ImportError;
use crate::present::import_answer::{self, ImportAnswer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The worker's script beside the page: Trunk's loader shim for the
/// `import_worker` binary (index.html).
const SCRIPT: &str = "./import_worker_loader.js";

/// The worker's side: answers each message with the reading of its files.
pub fn serve() {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
        let request = js_sys::Array::from(&event.data());
        let known_as = request.get(0).as_string();
        let files: Vec<Vec<u8>> =
            (1..request.length()).map(|i| js_sys::Uint8Array::new(&request.get(i)).to_vec()).collect();
        let slices: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
        let answer = import_answer::read(&slices, known_as.as_deref());
        let link = answer.link.as_deref().map_or(JsValue::NULL, JsValue::from_str);
        let message = js_sys::Array::of4(
            &link,
            &JsValue::from_bool(answer.sets_format),
            &JsValue::from_str(&answer.en),
            &JsValue::from_str(&answer.es),
        );
        let _ = reply.post_message(&message);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}

/// What the worker says once it listens.
const READY: &str = "ready";

/// The worker's next message, or its error's words.
async fn next_message(worker: &web_sys::Worker) -> Result<JsValue, JsValue> {
    let message = js_sys::Promise::new(&mut |resolve, reject| {
        let answer = Closure::once_into_js(move |event: web_sys::MessageEvent| {
            let _ = resolve.call1(&JsValue::NULL, &event.data());
        });
        // An ErrorEvent with a message when the worker throws; a plain
        // Event when its script cannot load.
        let error = Closure::once_into_js(move |event: JsValue| {
            let message = js_sys::Reflect::get(&event, &JsValue::from_str("message")).unwrap_or(JsValue::UNDEFINED);
            let _ = reject.call1(&JsValue::NULL, &message);
        });
        worker.set_onmessage(Some(answer.unchecked_ref()));
        worker.set_onerror(Some(error.unchecked_ref()));
    });
    JsFuture::from(message).await
}

/// The page's side: reads `files` in a worker started for this reading and
/// ended after it. A worker that cannot start or stops is said as such.
pub async fn read(files: &[Vec<u8>], known_as: Option<&str>) -> ImportAnswer {
    let failed = |detail: String| ImportAnswer::refused(&ImportError::ReaderFailed { detail });
    let worker = match web_sys::Worker::new(SCRIPT) {
        Ok(worker) => worker,
        Err(error) => return failed(said(&error)),
    };
    let request = js_sys::Array::new();
    request.push(&known_as.map_or(JsValue::NULL, JsValue::from_str));
    for file in files {
        request.push(&js_sys::Uint8Array::from(file.as_slice()));
    }
    let answer = match next_message(&worker).await {
        Ok(_ready) => match worker.post_message(&request) {
            Ok(()) => next_message(&worker).await,
            Err(error) => Err(error),
        },
        Err(error) => Err(error),
    };
    worker.terminate();
    match answer {
        Ok(answer) => {
            let answer = js_sys::Array::from(&answer);
            ImportAnswer {
                link: answer.get(0).as_string(),
                sets_format: answer.get(1).is_truthy(),
                en: answer.get(2).as_string().unwrap_or_default(),
                es: answer.get(3).as_string().unwrap_or_default(),
            }
        }
        Err(error) => failed(said(&error)),
    }
}

/// A JavaScript error's words, or a failed script's plain event.
fn said(error: &JsValue) -> String {
    error.as_string().filter(|s| !s.is_empty()).unwrap_or_else(|| String::from("the worker stopped"))
}
