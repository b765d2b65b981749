//! Memory of LLM inference and serving: weights at their storage format,
//! the KV cache (GQA/MQA through the KV head count, MLA through its
//! compressed latent, sliding windows, KV precision), activations and
//! workspace, and the runtime's own overhead and reserve, on one GPU or
//! split across several.

use super::breakdown::{runtime_memory, weights_bytes, MemoryBreakdown};
use crate::engine::catalog::Shape;
use crate::engine::fabric::Placement;
use crate::engine::{Error, Model, Workload};
use crate::units::BYTES_PER_GB;

/// Whether the KV cache is a compressed latent shared by all heads (MLA,
/// DeepSeek-V3/R1): far smaller than 2 × layers × heads × head_dim would be.
/// Tensor parallelism cannot split it; every GPU holds all of it.
fn is_latent_kv(shape: &Shape) -> bool {
    let per_head_cache = 2.0 * f64::from(shape.layers) * f64::from(shape.kv_heads) * f64::from(shape.head_dim) * 2.0;
    shape.kv_bytes_per_token_16bit < 0.5 * per_head_cache
}

/// KV-cache bytes for the workload's sequences, across all GPUs, with the
/// recurrent state of a hybrid's or SSM's state-space layers.
pub fn kv_cache_bytes(shape: &Shape, workload: &Workload) -> f64 {
    let tokens = workload.tokens_per_sequence();
    // Sliding-window layers keep at most `window` tokens.
    let held = match (shape.sliding_window, shape.sliding_window_layer_share) {
        (Some(window), Some(share)) => share * tokens.min(f64::from(window)) + (1.0 - share) * tokens,
        _ => tokens,
    };
    let per_token = shape.kv_bytes_per_token_16bit * workload.kv_precision.bytes() / 2.0;
    // Mamba and linear-attention layers keep a fixed state per sequence
    // instead, at the model's 16 bits: vLLM's `mamba_ssm_cache_dtype`
    // defaults to the model's dtype, not the KV cache's.
    let state = shape.state_bytes_per_sequence_16bit.unwrap_or(0.0);
    (per_token * held + state) * f64::from(workload.concurrency)
}

/// Sizes an LLM inference workload on the GPUs of `placement`, one
/// replica split across them (`Runtime::split`).
pub fn inference_memory(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    placement: Placement,
) -> Result<MemoryBreakdown, Error> {
    let gpu_count = placement.total_gpus();
    let n = f64::from(gpu_count);
    let runtime = runtime_memory(workload.serving_runtime());

    let weights = weights_bytes(model, workload.weight_precision);
    let kv = kv_cache_bytes(shape, workload);
    // Each pipeline stage (or layer-split GPU) holds the cache of its own
    // layers; within a stage, KV heads split across the tensor-parallel
    // ranks (replicated past their count), and an MLA latent is replicated
    // on every rank.
    let split = workload.serving_runtime().split(placement, shape.heads);
    let per_stage = if is_latent_kv(shape) { 1 } else { split.tp.min(shape.kv_heads.max(1)) };
    let kv_shards = f64::from(per_stage * split.stages);

    // Activations of one forward pass: the MLP's gate and up projections
    // (2 × ffn, × experts routed per token for MoE) and about four hidden-
    // width tensors (residual, norm, attention in/out), 16-bit, for the
    // tokens in flight; plus FP32 logits for each running sequence.
    let hidden = f64::from(shape.hidden);
    let ffn = shape.active_ffn();
    let concurrency = f64::from(workload.concurrency);
    let tokens_in_flight = runtime.tokens_per_pass.unwrap_or(f64::from(workload.input_tokens) * concurrency);
    let pass_bytes = tokens_in_flight * (2.0 * ffn + 4.0 * hidden) * 2.0;
    let logits_bytes = concurrency * f64::from(shape.vocab.unwrap_or(0)) * 4.0;
    let activations = pass_bytes + logits_bytes;

    let overhead = runtime.overhead_gb * BYTES_PER_GB * n;
    let total = weights + kv + activations + overhead;
    let per_gpu = weights / n + kv / kv_shards + pass_bytes / n + logits_bytes + runtime.overhead_gb * BYTES_PER_GB;
    Ok(MemoryBreakdown {
        weights_bytes: weights,
        kv_cache_bytes: kv,
        activations_bytes: activations,
        gradients_bytes: 0.0,
        optimizer_bytes: 0.0,
        adapters_bytes: 0.0,
        overhead_bytes: overhead,
        total_bytes: total,
        per_gpu_bytes: per_gpu,
        gpu_count: gpu_count.max(1),
        recipe: None,
    })
}
