//! Memory sizing: what must sit in VRAM, and whether it fits. One module
//! per family of workload, one entry point ([`estimate`], and [`fit`]
//! against a GPU) that dispatches on the task:
//!
//! - [`llm`]: LLM inference and serving (weights, KV cache, activations);
//! - [`training`]: fine-tuning and pretraining (gradients, optimizer state,
//!   adapters, activations under checkpointing, ZeRO sharding);
//! - [`diffusion`]: image and video generation (denoiser, text encoders,
//!   VAE, the peak phase);
//! - [`speech`]: speech-to-text (Whisper's encoder and beam-search decoder);
//! - [`breakdown`]: the parts they all report, and the shared sizes.

pub mod audio_gen;
mod breakdown;
pub mod diffusion;
pub mod llm;
pub mod speech;
pub mod training;
pub mod vision;

pub use breakdown::{runtime_memory, weights_bytes, MemoryBreakdown, RuntimeMemory};
pub use llm::{inference_memory, kv_cache_bytes};

use crate::engine::catalog::{Family, Segment};
use crate::engine::fabric::Placement;
use crate::engine::{Error, Gpu, Model, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use crate::units::BYTES_PER_GB;
use serde::Serialize;

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

/// Share of a GPU's memory that compute may use. Apple's unified memory is
/// shared with macOS: Metal's `recommendedMaxWorkingSetSize`, which llama.cpp
/// honours, is about 75% of RAM on 64 GB and larger Macs (ggml-metal logs
/// 49,152 MB of 64 GB). The gpus.csv `vram_gb` of an Apple row is the RAM.
fn gpu_share(gpu: &Gpu) -> f64 {
    if gpu.segment == Some(Segment::Apple) {
        0.75
    } else {
        1.0
    }
}

/// Sizes any workload on `gpu_count` GPUs: the one entry point the page,
/// the CLI and the ranking use, so they never disagree about a task.
///
/// `placement` is a GPU count for one node, or the nodes of a cluster:
/// serving keeps tensor parallelism inside a node; training shards over
/// every GPU.
pub fn estimate(workload: &Workload, model: &Model, placement: impl Into<Placement>) -> Result<MemoryBreakdown, Error> {
    let workload = &*workload.as_sized();
    let placement = placement.into();
    let gpu_count = placement.total_gpus();
    let shape_kv = |shape: &crate::engine::catalog::Shape| (shape.kv_heads, shape.head_dim);
    match model.family(workload.task)? {
        Family::Serving(shape) => {
            let mut memory =
                inference_memory(&workload.with_image_tokens(shape.vision.as_ref()), model, shape, placement)?;
            if let Some(tower) = &shape.vision {
                vision::add_vision(&mut memory, workload, tower, shape_kv(shape), true);
            }
            Ok(memory)
        }
        // Training spreads over the GPUs at hand as data parallelism.
        Family::Training(shape) => {
            let mut memory =
                training::training_memory(&Workload { gpus: gpu_count.max(1), ..workload.clone() }, model, shape)?;
            if let Some(tower) = &shape.vision {
                vision::add_vision(&mut memory, workload, tower, shape_kv(shape), false);
            }
            Ok(memory)
        }
        Family::Diffusion(pipeline) => diffusion::diffusion_memory(workload, pipeline, gpu_count),
        Family::Speech(speech) => speech::speech_memory(workload, model, speech, gpu_count),
        Family::AudioGen(generator) => audio_gen::audio_gen_memory(workload, generator, gpu_count),
    }
}

/// Sizes `workload` on the GPUs of `placement` (a count for one node) of
/// `gpu` and says whether it fits.
pub fn fit(workload: &Workload, model: &Model, gpu: &Gpu, placement: impl Into<Placement>) -> Result<Fit, Error> {
    let workload = &*workload.as_sized();
    let placement = placement.into();
    let gpu_count = placement.total_gpus();
    let memory = estimate(workload, model, placement)?;
    let serving = workload.task == Task::Infer;
    // A serving runtime reserves part of VRAM; a training process may use it all.
    let runtime_share = if serving { runtime_memory(workload.serving_runtime()).usable_share } else { 1.0 };
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
        estimate(&Workload { concurrency, ..workload.clone() }, model, placement).map(|m| m.per_gpu_bytes)
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
        estimate(&Workload { input_tokens, ..workload.clone() }, model, placement).map(|m| m.per_gpu_bytes)
    };
    let (short, longer) = (with_prompt(1)?, with_prompt(1025)?);
    let per_token = ((longer - short) / 1024.0).max(1e-9);
    let output = f64::from(workload.output_tokens);
    let longest = if short > usable { 0.0 } else { 1.0 + output + ((usable - short) / per_token).floor() };
    let window = model.shape().and_then(|s| s.max_context).map_or(f64::INFINITY, f64::from);
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
