//! Promise: any bytes read as a config.json, a safetensors or a GGUF
//! header give a model or an error, never a panic; a model has finite numbers inside the custom
//! model's bounds (`whichgpu::engine::custom_model`), with parameters,
//! layers and width positive.
//!
//! Run (from the repository root):
//!     cargo +nightly fuzz run model_import -- -max_len=65536

#![no_main]

use libfuzzer_sys::fuzz_target;
use whichgpu::engine::custom_model::{self as bounds, CustomModel};
use whichgpu::model_import::{gguf, safetensors, Imported};

fn within(value: u32, (key, min, max): (&str, u32, u32)) {
    assert!((min..=max).contains(&value), "{key} = {value} outside {min}..={max}");
}

fn within_opt(value: Option<u32>, bounds: (&str, u32, u32)) {
    if let Some(value) = value {
        within(value, bounds);
    }
}

fn within_f64(value: f64, (key, min, max): (&str, f64, f64)) {
    assert!(value.is_finite() && (min..=max).contains(&value), "{key} = {value} outside {min}..={max}");
}

fn check(model: &CustomModel) {
    within_f64(model.params, bounds::PARAMS);
    assert!(model.params > 0.0);
    within(model.layers, bounds::LAYERS);
    assert!(model.layers > 0);
    within(model.hidden, bounds::HIDDEN);
    within_opt(model.heads, bounds::HEADS);
    within_opt(model.kv_heads, bounds::KV_HEADS);
    within_opt(model.head_dim, bounds::HEAD_DIM);
    within_opt(model.experts, bounds::EXPERTS);
    within_opt(model.vocab, bounds::VOCAB);
    within_opt(model.ffn, bounds::FFN);
    within_opt(model.experts_per_token, bounds::EXPERTS_PER_TOKEN);
    within_opt(model.shared_ffn, bounds::SHARED_FFN);
    within_opt(model.kv_layers, bounds::KV_LAYERS);
    within_opt(model.window, bounds::WINDOW);
    within_opt(model.window_layers, bounds::WINDOW_LAYERS);
    within_opt(model.kv_lora, bounds::KV_LORA);
    within_opt(model.rope_dim, bounds::ROPE_DIM);
    within_opt(model.context, bounds::CONTEXT);
    if let Some(active) = model.active_params {
        within_f64(active, bounds::ACTIVE_PARAMS);
    }
    if let Some(state) = model.state_bytes {
        within_f64(state, bounds::STATE_BYTES);
    }
    if let Some(bytes) = model.weight_bytes {
        within_f64(bytes, bounds::WEIGHT_BYTES);
    }
    if let Some(name) = &model.name {
        assert!(name.chars().count() <= bounds::NAME_CHARS);
    }
}

fuzz_target!(|data: &[u8]| {
    // What the page and the CLI call: any of the formats, sniffed.
    if let Ok(Imported { model, .. }) = whichgpu::model_import::import(&[data]) {
        check(&model);
    }
    for result in [safetensors::read(data), gguf::read(data)] {
        if let Ok(Imported { model, .. }) = result {
            check(&model);
        }
    }
    // The sniffs are total too.
    let _ = (safetensors::looks_like(data), gguf::looks_like(data));
});
