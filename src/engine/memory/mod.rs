//! Memory sizing: what must sit in VRAM, and whether it fits.
//!
//! LLM inference and serving for now: weights at their storage format, the
//! KV cache (GQA/MQA through the KV head count, MLA through its compressed
//! latent, sliding windows, KV precision), activations and workspace, and
//! the runtime's own overhead and reserve, on one GPU or tensor-parallel
//! across several.

use super::catalog::Shape;
use super::{Error, Gpu, Model, Runtime, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg, Phrase};
use serde::Serialize;

/// Bytes in one "GB" of GPU memory. Card sizes are binary in practice: an
/// "80 GB" H100 or A100 reports 81,920 MiB in the SkyPilot catalogs'
/// GpuInfo (e.g. lambda_vms.csv, aws_vms_p_family_gpu.csv), a "24 GB" A10
/// 24,576 MiB. So every GB this engine shows is 2^30 bytes.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// How a serving runtime uses GPU memory.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RuntimeMemory {
    /// Share of VRAM the runtime lets itself use. vLLM's
    /// `gpu_memory_utilization` defaults to 0.9 (vLLM docs, "Optimization and
    /// Tuning"); TensorRT-LLM's `free_gpu_memory_fraction` for the KV cache
    /// defaults to 0.9 (TensorRT-LLM KvCacheConfig). llama.cpp and HF
    /// transformers allocate as they go.
    pub usable_share: f64,
    /// Tokens processed per forward pass at most, which sizes activations:
    /// vLLM's `max_num_batched_tokens` (2048 for the OpenAI-compatible server
    /// with chunked prefill), TensorRT-LLM's `max_num_tokens` (8192 default),
    /// llama.cpp's `n_ubatch` (512). HF transformers runs the whole prompt
    /// batch at once (`None`).
    pub tokens_per_pass: Option<f64>,
    /// CUDA context, allocator slack and (vLLM, TensorRT-LLM) CUDA graphs,
    /// per GPU. Engineering estimates, to be calibrated: an idle PyTorch CUDA
    /// context takes about 0.5 GiB on recent GPUs, and vLLM/TensorRT-LLM graph
    /// capture adds about 0.5 GiB; llama.cpp's CUDA backend about 0.3 GiB.
    pub overhead_gb: f64,
}

pub const fn runtime_memory(runtime: Runtime) -> RuntimeMemory {
    match runtime {
        Runtime::Vllm => RuntimeMemory { usable_share: 0.9, tokens_per_pass: Some(2048.0), overhead_gb: 1.0 },
        Runtime::Trtllm => RuntimeMemory { usable_share: 0.9, tokens_per_pass: Some(8192.0), overhead_gb: 1.0 },
        Runtime::Llamacpp => RuntimeMemory { usable_share: 1.0, tokens_per_pass: Some(512.0), overhead_gb: 0.3 },
        Runtime::Hf => RuntimeMemory { usable_share: 1.0, tokens_per_pass: None, overhead_gb: 0.5 },
    }
}

/// Where the bytes go, for the whole job and per GPU.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct MemoryBreakdown {
    pub weights_bytes: f64,
    pub kv_cache_bytes: f64,
    pub activations_bytes: f64,
    pub gradients_bytes: f64,
    pub optimizer_bytes: f64,
    pub adapters_bytes: f64,
    pub overhead_bytes: f64,
    pub total_bytes: f64,
    /// What one GPU must hold when the job spans `gpu_count` GPUs.
    pub per_gpu_bytes: f64,
    pub gpu_count: u32,
}

impl MemoryBreakdown {
    /// An inference job in which each of `gpu_count` GPUs holds the given
    /// weights, cache, activations and overhead (shards or whole replicas);
    /// the parts are totals over the GPUs.
    pub fn each_gpu_holds(weights: f64, kv_cache: f64, activations: f64, overhead: f64, gpu_count: u32) -> Self {
        let n = f64::from(gpu_count.max(1));
        let per_gpu = weights + kv_cache + activations + overhead;
        MemoryBreakdown {
            weights_bytes: weights * n,
            kv_cache_bytes: kv_cache * n,
            activations_bytes: activations * n,
            gradients_bytes: 0.0,
            optimizer_bytes: 0.0,
            adapters_bytes: 0.0,
            overhead_bytes: overhead * n,
            total_bytes: per_gpu * n,
            per_gpu_bytes: per_gpu,
            gpu_count: gpu_count.max(1),
        }
    }

    /// The parts in the order the page and the CLI list them.
    pub fn parts(&self) -> [(&'static Phrase, f64); 7] {
        [
            (&phrases::PART_WEIGHTS, self.weights_bytes),
            (&phrases::PART_ADAPTERS, self.adapters_bytes),
            (&phrases::PART_KV_CACHE, self.kv_cache_bytes),
            (&phrases::PART_GRADIENTS, self.gradients_bytes),
            (&phrases::PART_OPTIMIZER, self.optimizer_bytes),
            (&phrases::PART_ACTIVATIONS, self.activations_bytes),
            (&phrases::PART_RUNTIME, self.overhead_bytes),
        ]
    }
}

/// Whether a workload fits `gpu_count` GPUs of one kind.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fit {
    pub memory: MemoryBreakdown,
    pub fits: bool,
    /// Bytes per GPU the runtime lets the job use.
    pub usable_bytes_per_gpu: f64,
    /// Why it does not fit, in words a user can act on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Msg>,
    /// Serving only: the most concurrent sequences of this length the GPUs
    /// hold (0 when not even one fits).
    pub max_concurrency: Option<u32>,
    /// Serving only: the longest sequence (prompt + output tokens) that fits
    /// at the requested concurrency, capped by the model's own context
    /// window where models.csv gives one (0 when none fits).
    pub max_context_tokens: Option<u32>,
}

/// Parameters in the token embedding and LM head (tied counts once).
fn embedding_params(shape: &Shape) -> f64 {
    let vocab = f64::from(shape.vocab.unwrap_or(0));
    let copies = if shape.tie_embeddings { 1.0 } else { 2.0 };
    vocab * f64::from(shape.hidden) * copies
}

/// Bytes to hold every weight of `model` in `workload.weight_precision`.
/// MoE models keep all experts resident. Formats that quantize only the
/// linear layers (AWQ, GPTQ, NF4, weight-only int/fp) keep embeddings and
/// the LM head in 16-bit.
pub fn weights_bytes(model: &Model, precision: super::Precision) -> f64 {
    let bits = precision.bits_per_weight();
    match (&model.shape, precision.covers_embeddings()) {
        (Some(shape), false) => {
            let embeddings = embedding_params(shape).min(model.params);
            (model.params - embeddings) * bits / 8.0 + embeddings * 2.0
        }
        _ => model.params * bits / 8.0,
    }
}

/// Whether the KV cache is a compressed latent shared by all heads (MLA,
/// DeepSeek-V3/R1): far smaller than 2 × layers × heads × head_dim would be.
/// Tensor parallelism cannot split it; every GPU holds all of it.
fn is_latent_kv(shape: &Shape) -> bool {
    let per_head_cache = 2.0 * f64::from(shape.layers) * f64::from(shape.kv_heads) * f64::from(shape.head_dim) * 2.0;
    shape.kv_bytes_per_token_16bit < 0.5 * per_head_cache
}

/// KV-cache bytes for the workload's sequences, across all GPUs.
pub fn kv_cache_bytes(shape: &Shape, workload: &Workload) -> f64 {
    let tokens = workload.tokens_per_sequence();
    // Sliding-window layers keep at most `window` tokens.
    let held = match (shape.sliding_window, shape.sliding_window_layer_share) {
        (Some(window), Some(share)) => share * tokens.min(f64::from(window)) + (1.0 - share) * tokens,
        _ => tokens,
    };
    let per_token = shape.kv_bytes_per_token_16bit * workload.kv_precision.bytes() / 2.0;
    per_token * held * f64::from(workload.concurrency)
}

/// Sizes an LLM inference workload on `gpu_count` tensor-parallel GPUs.
pub fn inference_memory(workload: &Workload, model: &Model, gpu_count: u32) -> Result<MemoryBreakdown, Error> {
    let shape = model.shape.as_ref().ok_or_else(|| Error::InvalidField {
        field: "model",
        message: msg!(phrases::ERROR_NO_SHAPE_KV, model = &model.name),
    })?;
    let n = f64::from(gpu_count.max(1));
    let runtime = runtime_memory(workload.runtime);

    let weights = weights_bytes(model, workload.weight_precision);
    let kv = kv_cache_bytes(shape, workload);
    // Each pipeline stage (or layer-split GPU) holds the cache of its own
    // layers; within a stage, KV heads split across the tensor-parallel
    // ranks (replicated past their count), and an MLA latent is replicated
    // on every rank.
    let split = workload.runtime.split(gpu_count, shape.heads);
    let per_stage = if is_latent_kv(shape) { 1 } else { split.tp.min(shape.kv_heads.max(1)) };
    let kv_shards = f64::from(per_stage * split.stages);

    // Activations of one forward pass: the MLP's gate and up projections
    // (2 × ffn, × experts routed per token for MoE) and about four hidden-
    // width tensors (residual, norm, attention in/out), 16-bit, for the
    // tokens in flight; plus FP32 logits for each running sequence.
    let hidden = f64::from(shape.hidden);
    let ffn = f64::from(shape.ffn.unwrap_or(4 * shape.hidden)) * f64::from(shape.experts_per_token.unwrap_or(1));
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
    })
}

/// Share of a GPU's memory that compute may use. Apple's unified memory is
/// shared with macOS: Metal's `recommendedMaxWorkingSetSize`, which llama.cpp
/// honours, is about 75% of RAM on 64 GB and larger Macs (ggml-metal logs
/// 49,152 MB of 64 GB). The gpus.csv `vram_gb` of an Apple row is the RAM.
fn gpu_share(gpu: &Gpu) -> f64 {
    if gpu.segment.as_deref() == Some("apple") {
        0.75
    } else {
        1.0
    }
}

/// Sizes any workload on `gpu_count` GPUs: the one entry point the page,
/// the CLI and the ranking use, so they never disagree about a task.
pub fn estimate(workload: &Workload, model: &Model, gpu_count: u32) -> Result<MemoryBreakdown, Error> {
    match workload.task {
        Task::Infer => inference_memory(workload, model, gpu_count),
        // Training spreads over the GPUs at hand as data parallelism.
        Task::Finetune | Task::Pretrain => {
            super::training::training_memory(&Workload { gpus: gpu_count.max(1), ..workload.clone() }, model)
        }
        Task::Image | Task::Video => super::diffusion::diffusion_memory(workload, model, gpu_count),
        Task::Audio => super::speech::speech_memory(workload, model, gpu_count),
    }
}

/// Sizes `workload` on `gpu_count` GPUs of `gpu` and says whether it fits.
pub fn fit(workload: &Workload, model: &Model, gpu: &Gpu, gpu_count: u32) -> Result<Fit, Error> {
    let memory = estimate(workload, model, gpu_count)?;
    let serving = workload.task == Task::Infer;
    // A serving runtime reserves part of VRAM; a training process may use it all.
    let runtime_share = if serving { runtime_memory(workload.runtime).usable_share } else { 1.0 };
    let vram = gpu.vram_gb * BYTES_PER_GB;
    let usable = vram * runtime_share.min(gpu_share(gpu));
    let fits = memory.per_gpu_bytes <= usable;
    let reason = (!fits).then(|| not_fitting(&memory, gpu_count, usable, vram));
    if !serving {
        return Ok(Fit {
            memory,
            fits,
            usable_bytes_per_gpu: usable,
            reason,
            max_concurrency: None,
            max_context_tokens: None,
        });
    }

    // Per-GPU need grows linearly with concurrency: find the most that fit.
    let at = |concurrency: u32| {
        estimate(&Workload { concurrency, ..workload.clone() }, model, gpu_count).map(|m| m.per_gpu_bytes)
    };
    let (one, two) = (at(1)?, at(2)?);
    let per_sequence = (two - one).max(1.0);
    let max_concurrency = if one > usable { 0.0 } else { ((usable - one) / per_sequence).floor() + 1.0 };
    let max_concurrency = max_concurrency.min(f64::from(super::workload::CONCURRENCY.2)) as u32;

    // Per-GPU need also grows linearly with the prompt (the KV cache, and
    // for HF transformers the prompt's activations): find the longest
    // sequence that fits. Sliding windows make it flatter past the window,
    // so the line through two short prompts is conservative.
    let with_prompt = |input_tokens: u32| {
        estimate(&Workload { input_tokens, ..workload.clone() }, model, gpu_count).map(|m| m.per_gpu_bytes)
    };
    let (short, longer) = (with_prompt(1)?, with_prompt(1025)?);
    let per_token = ((longer - short) / 1024.0).max(1e-9);
    let output = f64::from(workload.output_tokens);
    let longest = if short > usable { 0.0 } else { 1.0 + output + ((usable - short) / per_token).floor() };
    let window = model.shape.as_ref().and_then(|s| s.max_context).map_or(f64::INFINITY, f64::from);
    let max_context_tokens = longest.min(window).min(f64::from(super::workload::INPUT_TOKENS.2)) as u32;
    Ok(Fit {
        memory,
        fits,
        usable_bytes_per_gpu: usable,
        reason,
        max_concurrency: Some(max_concurrency),
        max_context_tokens: Some(max_context_tokens),
    })
}

/// "needs 134 GB per GPU, has 80 GB (72 GB usable)".
fn not_fitting(memory: &MemoryBreakdown, gpu_count: u32, usable: f64, vram: f64) -> Msg {
    let has = if usable < vram {
        Arg::from(msg!(phrases::FIT_USABLE, size = Arg::Bytes(vram), usable = Arg::Bytes(usable)))
    } else {
        Arg::Bytes(vram)
    };
    let need = Arg::Bytes(memory.per_gpu_bytes);
    if gpu_count > 1 {
        msg!(phrases::FIT_NEEDS_PER_GPU, need = need, has = has)
    } else {
        msg!(phrases::FIT_NEEDS, need = need, has = has)
    }
}

/// The fewest GPUs of `gpu` (up to `max_count`, one node) that hold the
/// workload with tensor parallelism; `None` when no such count exists.
pub fn smallest_gpu_count(workload: &Workload, model: &Model, gpu: &Gpu, max_count: u32) -> Result<Option<u32>, Error> {
    for count in 1..=max_count {
        if fit(workload, model, gpu, count)?.fits {
            return Ok(Some(count));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests;
