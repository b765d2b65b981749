//! What every family's memory is made of: the parts of a breakdown, the
//! bytes of a GB, the weights at their storage format, and what each
//! serving runtime reserves.

use crate::engine::catalog::Shape;
use crate::engine::{Model, Precision, Runtime, TrainingRecipe};
use crate::text::{phrases, Phrase};
use serde::Serialize;

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
    /// Training: how weights and optimizer state are kept, which the sizes
    /// above assume.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<TrainingRecipe>,
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
            recipe: None,
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

/// Parameters in the token embedding and LM head (tied counts once).
fn embedding_params(shape: &Shape) -> f64 {
    let vocab = f64::from(shape.vocab.unwrap_or(0));
    let copies = if shape.tie_embeddings { 1.0 } else { 2.0 };
    vocab * f64::from(shape.hidden) * copies
}

/// Bytes to hold every weight of `model` in `workload.weight_precision`:
/// the checkpoint's exact bytes where the model ships in that format.
/// MoE models keep all experts resident. Formats that quantize only the
/// linear layers (AWQ, GPTQ, NF4, weight-only int/fp) keep embeddings and
/// the LM head in 16-bit.
pub fn weights_bytes(model: &Model, precision: Precision) -> f64 {
    // A file header or the Hub's index gave the released weights' exact
    // size: it holds when they run in the format they ship in.
    if let Some(checkpoint) = model.checkpoint.filter(|c| c.format == Some(precision)) {
        return checkpoint.bytes;
    }
    let bits = precision.bits_per_weight();
    match (model.shape(), precision.covers_embeddings()) {
        (Some(shape), false) => {
            let embeddings = embedding_params(shape).min(model.params);
            (model.params - embeddings) * bits / 8.0 + embeddings * 2.0
        }
        _ => model.params * bits / 8.0,
    }
}
