//! Memory of image and video diffusion: the denoiser, the text encoders and
//! the VAE at the chosen precision, the denoiser's activations for the
//! latent tokens of resolution × frames × batch, and the VAE decode that
//! turns latents back into pixels.
//!
//! A pipeline runs in three phases (encode the prompt, denoise, decode),
//! and only one phase's activations live at a time. Offloading decides which
//! weights stay on the GPU through all of them.

use super::breakdown::{runtime_memory, MemoryBreakdown};
use crate::engine::catalog::{Denoiser, Diffusion, Guidance};
use crate::engine::workload::{Offload, Resolution};
use crate::engine::{Error, Precision, Runtime, Workload};
use crate::units::BYTES_PER_GB;

/// Bytes of live tensors per output pixel while the VAE decodes, at 16 bits.
/// Derived from the SD AutoencoderKL decoder (block channels 512, 512, 256,
/// 128; diffusers `Decoder`): at full resolution the last up-block's first
/// ResNet holds its 256-channel input, the normalised and activated copies
/// (2 × 256) and the 128-channel convolution output, 896 values per pixel
/// × 2 bytes. The 16-channel and video VAEs here have the same or narrower
/// full-resolution stages.
const VAE_DECODE_BYTES_PER_PIXEL: f64 = 1792.0;

/// VAE parameters where the sources give no count (HunyuanVideo,
/// CogVideoX): the largest video VAE with a known count here is Mochi's
/// 362M (genmo/mochi README); the VAE is at most a few percent of these
/// pipelines' weights either way.
const UNKNOWN_VAE_PARAMS: f64 = 362e6;

/// A phase of the pipeline: the weights it needs and its activations.
struct Phase {
    weights: f64,
    activations: f64,
}

/// The frame size, frame count and step count in effect: the workload's, or
/// the model's defaults.
pub fn frame(workload: &Workload, pipeline: &Diffusion) -> (Resolution, u32) {
    let resolution =
        workload.resolution.unwrap_or(Resolution { width: pipeline.default_width, height: pipeline.default_height });
    let frames = if pipeline.is_video() { workload.frames.unwrap_or(pipeline.default_frames) } else { 1 };
    (resolution, frames)
}

/// Transformer tokens (or UNet latent positions) per image or clip: latent
/// cells grouped into patches, times latent frames. Causal video VAEs keep
/// the first frame and compress each later group of `temporal_compression`
/// frames into one latent frame (Wan-VAE, HunyuanVideo's 884 VAE).
pub fn latent_tokens(resolution: Resolution, frames: u32, pipeline: &Diffusion) -> f64 {
    let cell = f64::from(pipeline.spatial_compression * pipeline.patch);
    let across = (f64::from(resolution.width) / cell).ceil() * (f64::from(resolution.height) / cell).ceil();
    let latent_frames = (f64::from(frames.saturating_sub(1)) / f64::from(pipeline.temporal_compression)).ceil() + 1.0;
    across * if pipeline.is_video() { latent_frames } else { 1.0 }
}

/// Sizes image or video generation on `gpu_count` GPUs. Images run one
/// whole pipeline per GPU (data-parallel replicas). Video spreads over the
/// GPUs where a runtime provides sequence parallelism for the pipeline
/// (`Diffusion::sequence_parallel`: xDiT, whose Wan and HunyuanVideo
/// integrations the models' repos use with `--dit_fsdp --t5_fsdp
/// --ulysses_size`): FSDP shards the transformer and the text encoder,
/// sequence parallelism splits the tokens, and every GPU runs the VAE.
/// Without one, each GPU holds a whole pipeline, as for images.
pub fn diffusion_memory(workload: &Workload, pipeline: &Diffusion, gpu_count: u32) -> Result<MemoryBreakdown, Error> {
    let split = match pipeline.clip_split_by(workload.task, gpu_count) {
        Some(_) => f64::from(gpu_count),
        None => 1.0,
    };
    let (resolution, frames) = frame(workload, pipeline);
    let batch = f64::from(workload.batch);

    let precision = workload.weight_precision;
    let weight_bytes = precision.bits_per_weight() / 8.0;
    // Compute runs in 16 bits unless the user asked for FP32 weights.
    let value_bytes = if precision == Precision::Fp32 { 4.0 } else { 2.0 };
    let vae_bytes = if pipeline.vae_fp32_under_fp16 && precision == Precision::Fp16 { 4.0 } else { value_bytes };

    // Denoising: one block's activations at a time (inference keeps nothing
    // for a backward pass). In attention: the residual stream and its
    // normalised copy, Q, K and V, the normalised and rotated Q and K (RoPE
    // in FP32, so twice the bytes) and the output: 10 × width. In the MLP:
    // the residual stream, its normalised copy, the up-projection and its
    // activation (2 × ffn). Image and text tokens attend jointly with
    // FlashAttention / SDPA, so no score matrix is kept.
    let guidance_batch = if pipeline.guidance == Guidance::Batched { 2.0 } else { 1.0 };
    let tokens = latent_tokens(resolution, frames, pipeline) + f64::from(pipeline.text_tokens);
    let width = f64::from(pipeline.width);
    let per_token = (10.0 * width).max(2.0 * width + 2.0 * f64::from(pipeline.ffn_width)) * value_bytes;
    // A UNet also keeps each down-block's output for its skip connection;
    // at the top level these add about as much again.
    let skips = if pipeline.denoiser == Denoiser::Unet { 2.0 } else { 1.0 };
    let denoise = Phase {
        weights: pipeline.denoiser_params * weight_bytes / split,
        activations: batch * guidance_batch * tokens * per_token * skips / split,
    };

    // Decoding: the whole batch of images at once (diffusers decodes the
    // latents in one call). Video one latent frame's group of frames at a
    // time, as the video models' reference code does (Wan-VAE's causal
    // cache, HunyuanVideo's default VAE tiling); diffusers without VAE
    // tiling decodes whole clips and needs far more (CogVideoX-2b: about
    // 19 GB to decode 49 frames at 720x480, diffusers CogVideoX docs).
    let frames_at_once = if pipeline.is_video() { f64::from(pipeline.temporal_compression.min(frames)) } else { 1.0 };
    let pixels = f64::from(resolution.width) * f64::from(resolution.height);
    let decode = Phase {
        weights: pipeline.vae_params.unwrap_or(UNKNOWN_VAE_PARAMS) * vae_bytes,
        activations: batch * frames_at_once * pixels * VAE_DECODE_BYTES_PER_PIXEL * vae_bytes / 2.0,
    };
    let encode = Phase { weights: pipeline.text_encoder_params * weight_bytes / split, activations: 0.0 };

    // The peak phase, with whatever other weights stay resident.
    let resident = |phase: &Phase| match workload.offload {
        Offload::None => encode.weights + denoise.weights + decode.weights,
        Offload::Text => denoise.weights + decode.weights,
        Offload::Model => phase.weights,
    };
    let peak = [&encode, &denoise, &decode]
        .into_iter()
        .map(|phase| (resident(phase), phase.activations))
        .max_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)))
        .unwrap_or((0.0, 0.0));
    let (weights, activations) = peak;

    // A PyTorch process, as for HF transformers.
    let overhead = runtime_memory(Runtime::Hf).overhead_gb * BYTES_PER_GB;
    Ok(MemoryBreakdown::each_gpu_holds(weights, 0.0, activations, overhead, gpu_count))
}

#[cfg(test)]
mod tests;
