//! whichgpu: which rented GPU should I use for this generative-AI job, and
//! what will the whole job cost?
//!
//! - [`engine`]: the pure sizing and ranking engine.
//! - [`url_codec`]: the workload ⇄ URL query string.
//! - [`present`]: what the page shows that is computed: row texts, captions.
//! - [`presets`]: starting points for common jobs, as link queries.
//! - [`model_import`]: a config.json, safetensors or GGUF header read into a model.
//! - [`model_search`]: what the model picker's typed words find.
//! - [`export`]: the ranked offers as JSON and CSV.
//! - [`sorting`]: stable sorts that cost the page little WebAssembly.
//! - [`text`]: the page's words in English and Spanish, and numbers per language.
//! - [`units`]: bytes, seconds and counts, declared once.
//! - `snapshot_builder` and `cli` (native only): `whichgpu snapshot|rank`.
//! - `golden` (native only): committed outputs that refactors must keep.
//! - [`hardening`]: the oracles the property tests and fuzzers check.
//! - `ui` (wasm32 only): the Leptos page.

// Native builds hold no `unsafe`, so the fuzzers run without a sanitizer
// (scripts/fuzz.sh); the page's wasm-bindgen glue generates its own.
#![cfg_attr(not(target_arch = "wasm32"), forbid(unsafe_code))]

pub mod engine;
pub mod export;
pub mod hardening;
pub mod model_import;
pub mod model_search;
pub mod present;
pub mod presets;
pub mod sorting;
pub mod text;
pub mod units;
pub mod url_codec;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;

#[cfg(not(target_arch = "wasm32"))]
#[doc(hidden)]
pub mod golden;

#[cfg(not(target_arch = "wasm32"))]
pub mod snapshot_builder;

#[cfg(target_arch = "wasm32")]
pub mod ui;
