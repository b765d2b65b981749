//! Speed of image and video diffusion and of speech-to-text.
//!
//! A denoising step is one forward pass of the denoiser over the latent
//! tokens of the batch (twice that batch, or two passes, with
//! classifier-free guidance). Eager PyTorch runs it as three kinds of kernel
//! time, one after the other: the matrix multiplies and convolutions on the
//! tensor cores (or the weights streaming through them, whichever is
//! slower), the normalisations and activations that stream activations
//! through memory, and the fixed cost of launching the kernels. Whisper
//! encodes each 30-second window once and then decodes its transcript one
//! token at a time, every step reading the decoder's weights and the
//! window's cross-attention cache.
//!
//! The constants are calibrated on `../shared/data/calibration/diffusion.csv`
//! (diffusers' PyTorch 2.0 benchmark) and on faster-whisper's README
//! timings; `media/tests.rs` prints every case.

use super::training::{transformer_gemm_share, FA2_ON_HOPPER};
use super::{bandwidth_of, peak_of, Bound, Figures, ImageSpeed, SpeechSpeed, Speed, VideoSpeed};
use crate::engine::catalog::Speech;
use crate::engine::catalog::{Architecture, Denoiser, Diffusion, Guidance, QkNorm};
use crate::engine::hardware::{compute_precision, link, pcie_bandwidth, sustained_clock, ComputePrecision};
use crate::engine::memory::diffusion::{frame, latent_tokens};
use crate::engine::memory::speech::TRANSCRIPT_TOKENS_PER_WINDOW;
use crate::engine::workload::{Compilation, Offload, Transcriber};
use crate::engine::{Error, Gpu, Precision, Runtime, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// FP32 (SIMT) work on the CUDA cores per tensor-core FLOP: the
/// normalisations, activations, softmax, address arithmetic and epilogues
/// that share the SMs with the matrix units. It is why datacenter chips,
/// whose tensor units are 8–16 times their FP32 rate (A100 312 vs 19.5
/// TFLOP/s), reach a smaller share of their tensor peak in diffusers than
/// GeForce chips at 2 times (RTX 3090 71 vs 35.6; RTX 4090 165 vs 83): in
/// calibration/diffusion.csv SD 1.5 at batch 16 runs at 25% of the A100's
/// peak and 61% of the RTX 3090's. Calibrated there (DIF-0076 to DIF-0147,
/// no torch.compile).
const SIMT_FLOPS_PER_TENSOR_FLOP: f64 = 0.06;

/// Host time per denoiser forward pass: Python dispatch and kernel launches
/// for the ~1,000 kernels of a diffusers UNet, which the GPU cannot hide at
/// small batches. The batch-1 intercepts in calibration/diffusion.csv
/// (RTX 3090, RTX 4090, T4: 6–8 ms; V100: 14 ms; A100: 33 ms, a slow host)
/// give 6–14 ms; torch.compile's CUDA graphs remove most of it.
pub(super) const STEP_OVERHEAD_S: f64 = 0.008;

/// The share of eager diffusers' activation traffic left under
/// `torch.compile`: Inductor fuses chains of element-wise kernels (norm,
/// activation, residual add) into single kernels that read and write each
/// feature map once. Calibrated on the compiled rows of
/// calibration/diffusion.csv (DIFFUSERS_TORCH2, 28 rows on five GPUs):
/// median |error| 11% and 90th percentile 26%, against 14% and 29% for the
/// flat 1.15× the tests applied before. Compiling does not remove the
/// per-pass overhead there: its speed-up is the same 1.1–1.2× at batch 1 as
/// at 16 on every GPU but the A100, whose slow host it spared (2.0×), so
/// that overhead is GPU time, not only Python's.
const COMPILED_ACTIVATION_SHARE: f64 = 0.7;

/// A UNet's FLOPs per latent position at its full width, in units of
/// width²: the convolutions and attention of the full-resolution level run
/// on every position. With [`UNET_DEEP_FLOPS_PER_PARAM`] it reproduces a
/// layer-by-layer count of the diffusers UNets: SD 1.5, 0.80 TFLOPs per
/// 64×64 latent (width 320; 857M parameters counted, 859.5M published) and
/// SDXL, 6.76 TFLOPs per 128×128 latent (2,559M counted, 2,567M published).
const UNET_FULL_WIDTH_FLOPS: f64 = 850.0;

/// A UNet's FLOPs per latent position per parameter: most of its weights
/// sit in the deeper levels (SD's 1,280-channel blocks at a quarter of the
/// latent's side), where each runs on about 1/16 of the positions: 2 FLOPs
/// per multiply-add × 1/16.
const UNET_DEEP_FLOPS_PER_PARAM: f64 = 2.0 / 16.0;

/// Activation traffic of a UNet forward pass, in passes over a
/// full-resolution, full-width tensor: GroupNorm, SiLU, residual adds, skip
/// concatenations and layout copies each read and write whole feature maps.
/// About 2,000 such passes per sample (5 GB for SD 1.5 at 512×512); a rough
/// count of the diffusers SD 1.5 UNet's elementwise kernels gives 2.5–5 GB.
/// Calibrated on calibration/diffusion.csv.
const UNET_ACTIVATION_PASSES: f64 = 2000.0;

/// Activation traffic of one DiT block in eager PyTorch, in passes over a
/// tokens × width tensor of 16-bit values, counted from diffusers'
/// transformer blocks (`FluxTransformerBlock`, `JointTransformerBlock`):
/// two adaLN-modulated LayerNorms (norm, scale, shift: 6 each), Q, K and V
/// written (3), attention reading them and writing its output (4), the
/// heads transposed back (2), the output projection written (1), two gated
/// residuals (gate 2, add 3: 5 each), the MLP's 4×-wide up-projection
/// written (4) and its GELU (8), the down-projection written (1): 45. The
/// queries' and keys' normalisation and rotation add theirs
/// (`QK_RMS_NORM_PASSES`, `QK_LAYER_NORM_PASSES`, `ROPE_PASSES`).
const DIT_BLOCK_PASSES: f64 = 45.0;

/// diffusers' `RMSNorm` on a 16-bit tensor, eager: `to(float32)` (read 2,
/// write 4 bytes), `pow(2)` (4, 4), `mean` (4), the product with
/// `rsqrt(variance)` promoted to FP32 (2, 4), `to(bf16)` (4, 2) and the
/// weight (2, 2): 34 bytes per value, 17 passes, for each of Q and K.
const QK_RMS_NORM_PASSES: f64 = 2.0 * 17.0;

/// PyTorch's fused LayerNorm on Q and K (CogVideoX): read and write each.
const QK_LAYER_NORM_PASSES: f64 = 2.0 * 2.0;

/// diffusers' `apply_rotary_emb` (Flux, CogVideoX, HunyuanDiT), eager:
/// the strided reshape copied (read 2, write 2 bytes), the negated half
/// (1, 1), the stack (2, 2), `x.float()` (2, 4), `* cos` (4, 4),
/// `x_rotated.float()` (2, 4), `* sin` (4, 4), the sum (8, 4), `to(dtype)`
/// (4, 2): 56 bytes per value, 28 passes, for each of Q and K.
const ROPE_PASSES: f64 = 2.0 * 28.0;

/// The share of peak memory bandwidth eager PyTorch's element-wise kernels
/// reach on a DiT's activations (tens of MB each): `maximum` on FP16
/// tensors of 8, 21 and 42 MB on an H200 at 1.83, 2.79 and 3.37 of its 4.8
/// TB/s (TileOPs issue 512: 38%, 58%, 70%), LayerNorm on a 2,048 × 2,048
/// matrix on an A100 at 715 GB/s (WeatherGenerator issue 1546: 45%, as it
/// converts to FP32 unfused); the median, 0.58. Inductor's fused kernels
/// stream at the rate the model gives all other traffic.
const EAGER_ELEMENTWISE_BANDWIDTH: f64 = 0.58;

/// The same block under `torch.compile`: Inductor fuses each chain of
/// element-wise kernels between two matrix or attention kernels into one
/// that reads its inputs and writes its output once: the adaLN norms with
/// their modulation (2 each), the Q/K normalisation with the rotation (2
/// each of Q and K, where either is there), the gates with their residual
/// adds (3 each); the GEMMs' and attention's reads and writes stay.
const DIT_COMPILED_BLOCK_PASSES: f64 = 2.0 * 2.0 + 3.0 + 4.0 + 2.0 + 1.0 + 2.0 * 3.0 + 4.0 + 8.0 + 1.0;

/// What fusing Q and K's normalisation and rotation leaves under
/// `torch.compile`: one read and one write of each.
const QK_COMPILED_PASSES: f64 = 2.0 * 2.0;

/// FLOPs of the VAE decoder per output pixel, counted for SD's
/// AutoencoderKL decoder (block channels 512, 512, 256, 128 from the 1/8
/// latent up to full resolution, three ResNet blocks and an upsampling
/// convolution per level): 1.16 T multiply-adds for a 512×512 image, 8.9
/// MFLOPs per pixel. SD3's and FLUX's 16-channel VAEs share the decoder.
const VAE_DECODE_FLOPS_PER_PIXEL: f64 = 8.9e6;

/// Video VAEs decode with 3×3×3 convolutions (Wan-VAE, HunyuanVideo's 884
/// VAE, CogVideoX's 3D VAE): three times the 2-D kernels' work per pixel at
/// the same widths.
const VIDEO_VAE_KERNEL_FACTOR: f64 = 3.0;

/// Audio seconds per Whisper window.
const WINDOW_S: f64 = 30.0;

/// Fixed time per decoding step of a batch and decoder layer, besides
/// reading the weights and caches: the launches of the decoder's ~30
/// kernels per layer with the beam search's gathers and reorderings
/// between them, and the re-decodes of windows that fail faster-whisper's
/// compression or log-probability checks. Calibrated on faster-whisper's
/// README (large-v2, 32 decoder layers, beam 5, 13 minutes of audio: 63 s
/// on an RTX 3070 Ti, 54 s on a V100S, fp16, batch 1), where reading the
/// weights takes only 3–5 ms of a 18.5 ms step. Per layer, so the 4-layer
/// decoders of tiny and large-v3-turbo and distil-large-v3's 2 pay what
/// their kernels cost (Whisper README: turbo about 8× large's speed;
/// distil-whisper README: distil-large-v3 6.3× large-v3's).
const DECODE_LAYER_OVERHEAD_S: f64 = 0.0185 / 32.0;

/// Host time per hypothesis (window × beam) and decoding step in
/// transformers' Whisper generation: its `WhisperTimeStampLogitsProcessor`
/// walks the batch in Python twice a step, and each row synchronises with
/// the GPU (`tolist()`, boolean indexing, a tensor comparison in an `if`),
/// so the rows run one after another whatever the GPU. The sources imply
/// 2.1–2.4 ms a row (insanely-fast-whisper's README: large-v3 and
/// distil-large-v2 in batches of 24 on an A100, whose step times barely
/// differ although one has 32 decoder layers and the other 2) and 3.5 ms
/// (faster-whisper's README: transformers at beam 5 on an RTX 3070 Ti).
const TRANSFORMERS_TIMESTAMP_ROW_S: f64 = 2.5e-3;

/// The rate tensor work runs at on `gpu` in FLOP/s: the tensor peak at
/// `compute`, slowed by the SIMT work that comes with each tensor FLOP,
/// both at the clock the board's power sustains (`peak_of` applies it to
/// the tensor peak). FP32 work runs on the CUDA cores themselves.
pub(super) fn tensor_rate(gpu: &Gpu, compute: ComputePrecision, notes: &mut Vec<Msg>) -> Result<f64, Error> {
    let peak = peak_of(gpu, compute, notes)?;
    let clock = sustained_clock(gpu).map_or(1.0, |(share, _)| share);
    Ok(match gpu.fp32_tflops.filter(|simt| *simt > 0.0) {
        Some(simt) if compute != ComputePrecision::Fp32 => {
            1.0 / (1.0 / peak + SIMT_FLOPS_PER_TENSOR_FLOP / (simt * 1e12 * clock))
        }
        _ => peak,
    })
}

/// The work of one denoiser forward pass over one sample.
struct DenoiserPass {
    /// Tensor FLOPs of the weights' GEMMs (a UNet's attention folded in).
    flops: f64,
    /// Tensor FLOPs of a DiT's attention scores and weighted sums, which
    /// run in the attention kernel rather than the GEMMs.
    attention_flops: f64,
    /// Activation values read or written by the non-matrix kernels, eager
    /// and under `torch.compile`.
    activation_values: f64,
    compiled_activation_values: f64,
    /// The share of the memory bandwidth eager PyTorch's element-wise
    /// kernels reach on this pass's activations.
    eager_bandwidth_share: f64,
    /// Transformer blocks, for sequence parallelism's all-to-alls; `None`
    /// for a UNet, which is not split that way.
    blocks: Option<f64>,
    /// Tokens attended over (latent and joint text tokens).
    tokens: f64,
}

/// FlashAttention-2's forward pass at head dimension 64 against 128, the
/// size the attention rates here stand for (`FA2_ON_HOPPER` is the
/// FlashAttention-2 paper's head-dimension-128 figure). Non-causal, long
/// sequences: on an A100, PyTorch's SDPA flash backend (FlashAttention-2) at
/// 4,096 tokens, BF16: 171.9 TFLOP/s at 64 against 183.2 at 128 (PyTorch PR
/// 126122); on an H100 SXM, flash-attn 2.5.8 at 8k to 16k tokens, FP16: 322
/// to 324 against 370 (FlashAttention-3 paper, Shah et al. 2024, Fig. 5).
/// Conditions in data/calibration/attention_head_dim_sources.md.
const FA2_HEAD_DIM_64_SHARE: f64 = 171.9 / 183.2;
const FA2_HEAD_DIM_64_SHARE_HOPPER: f64 = 323.0 / 370.0;

/// PyTorch's SDPA runs cuDNN's attention first on Hopper where the cuDNN it
/// links is newer than 9.15 (`check_prefer_cudnn_attention` in ATen's
/// `sdp_utils.cpp`, in PyTorch 2.10, after PR 162073 made cuDNN the default
/// for SM 9.0 and 10.0; the wheels bundle such a cuDNN from 2.11:
/// transformers PR 48163, 2026-08-31, "on recent torch the default is
/// already cuDNN", which it measured 1.7–2.3× faster than FlashAttention-2
/// on Hopper and slower on Ampere, Ada and Blackwell). cuDNN's forward pass
/// on an H100 SXM against FlashAttention-2's at head dimension 128,
/// non-causal, 8k and 16k tokens (FlashAttention-3 paper, Fig. 5, cuDNN
/// 9.1.1): 600 and 595 TFLOP/s at 128 and 412 and 413 at 64, against 370.
const CUDNN_HOPPER_128: f64 = 597.5 / 370.0;
const CUDNN_HOPPER_64: f64 = 412.5 / 370.0;

/// A DiT's attention rate as a share of its GEMMs' rate: FlashAttention-2
/// keeps their pace on Ampere and Ada and reaches `FA2_ON_HOPPER` of it on
/// Hopper, at heads of 128 (`flash_head_dim_share` for smaller heads);
/// cuDNN's kernel on Hopper that figure times its own gain, measured at 64
/// and 128 and straight between them.
fn attention_share(kernel: DitAttention, head_dim: u32, hopper: bool) -> f64 {
    match (kernel, hopper) {
        (DitAttention::Sdpa, true) => FA2_ON_HOPPER * by_head_dim(head_dim, CUDNN_HOPPER_64, CUDNN_HOPPER_128),
        (_, true) => FA2_ON_HOPPER * flash_head_dim_share(head_dim, true),
        (_, false) => flash_head_dim_share(head_dim, false),
    }
}

/// The share of its head-dimension-128 rate FlashAttention-2 reaches at
/// `head_dim`.
fn flash_head_dim_share(head_dim: u32, hopper: bool) -> f64 {
    by_head_dim(head_dim, if hopper { FA2_HEAD_DIM_64_SHARE_HOPPER } else { FA2_HEAD_DIM_64_SHARE }, 1.0)
}

/// A kernel's figure at `head_dim` from its figures at 64 and 128, where
/// both are measured: straight between them, and no more than 64's below
/// it (no DiT here has fewer) nor 128's above.
fn by_head_dim(head_dim: u32, at_64: f64, at_128: f64) -> f64 {
    let toward_128 = ((f64::from(head_dim) - 64.0) / 64.0).clamp(0.0, 1.0);
    at_64 + (at_128 - at_64) * toward_128
}

/// One forward pass of `pipeline`'s denoiser over `latent` tokens.
///
/// DiTs: each token passes through one block's attention (4 w²) and MLP
/// (2 w × ffn) weights per block: 2 FLOPs per weight, plus 4 × w × tokens²
/// per block for the attention scores and their weighted sum over latent
/// and text tokens together. The depth is the catalog's
/// (data/diffusion_models.csv); without it, it comes from the parameters,
/// an adaLN-Zero block (Peebles & Xie 2023) holding attention, MLP and the
/// modulation that regresses six w-wide vectors (6 w²). Dual-stream MMDiTs
/// keep separate text weights per block, so that estimate overstates their
/// depth: FLUX.1 (57 blocks) would come out at 70, SD3 Medium (24) at 48.
///
/// UNets: see [`UNET_FULL_WIDTH_FLOPS`] and [`UNET_DEEP_FLOPS_PER_PARAM`].
/// Their attention grows with the square of the latent; the constants fold
/// it in at the default resolutions.
fn denoiser_pass(pipeline: &Diffusion, latent: f64) -> DenoiserPass {
    let width = f64::from(pipeline.width);
    match pipeline.denoiser {
        Denoiser::Unet => DenoiserPass {
            flops: latent
                * (UNET_FULL_WIDTH_FLOPS * width * width + UNET_DEEP_FLOPS_PER_PARAM * pipeline.denoiser_params),
            attention_flops: 0.0,
            activation_values: UNET_ACTIVATION_PASSES * latent * width,
            compiled_activation_values: COMPILED_ACTIVATION_SHARE * UNET_ACTIVATION_PASSES * latent * width,
            // The UNet's passes are an effective count, fitted with the
            // bandwidth its kernels reach folded in.
            eager_bandwidth_share: 1.0,
            blocks: None,
            tokens: latent,
        },
        Denoiser::Dit => {
            let per_token_weights = 4.0 * width * width + 2.0 * width * f64::from(pipeline.ffn_width);
            let blocks =
                pipeline.blocks.map_or(pipeline.denoiser_params / (per_token_weights + 6.0 * width * width), f64::from);
            let tokens = latent + f64::from(pipeline.text_tokens);
            DenoiserPass {
                flops: tokens * 2.0 * blocks * per_token_weights,
                attention_flops: 4.0 * blocks * width * tokens * tokens,
                activation_values: dit_block_passes(pipeline, false) * blocks * tokens * width,
                compiled_activation_values: dit_block_passes(pipeline, true) * blocks * tokens * width,
                eager_bandwidth_share: EAGER_ELEMENTWISE_BANDWIDTH,
                blocks: Some(blocks),
                tokens,
            }
        }
    }
}

/// Passes over a tokens × width tensor one of `pipeline`'s DiT blocks
/// makes outside its matrix and attention kernels, eager or compiled.
fn dit_block_passes(pipeline: &Diffusion, compiled: bool) -> f64 {
    let qk = pipeline.qk_norm != QkNorm::None || pipeline.rope;
    if compiled {
        return DIT_COMPILED_BLOCK_PASSES + if qk { QK_COMPILED_PASSES } else { 0.0 };
    }
    let norm = match pipeline.qk_norm {
        QkNorm::None => 0.0,
        QkNorm::Layer => QK_LAYER_NORM_PASSES,
        QkNorm::Rms => QK_RMS_NORM_PASSES,
    };
    DIT_BLOCK_PASSES + norm + if pipeline.rope { ROPE_PASSES } else { 0.0 }
}

/// Denoiser steps per second, seconds per image or clip, across `gpu_count` GPUs.
///
/// Images run one whole pipeline per GPU (data-parallel replicas), so the
/// seconds per image divide by the GPU count. A video clip spreads over the
/// GPUs where a runtime provides sequence parallelism for the pipeline
/// (`Diffusion::sequence_parallel`: xDiT, which Wan's `--ulysses_size` with
/// `--dit_fsdp` and HunyuanVideo's parallel inference use): each GPU
/// computes 1/n of the tokens, gathers each block's weights from the
/// others (FSDP) and swaps heads for tokens around attention with four
/// all-to-alls per block (Ulysses), over the GPUs' link. Every GPU runs the
/// text encoder and the VAE whole. Without such a runtime, clips run one
/// per GPU, as images do.
pub fn diffusion_speed(workload: &Workload, pipeline: &Diffusion, gpu: &Gpu, gpu_count: u32) -> Result<Speed, Error> {
    diffusion_speed_with(DitAttention::Sdpa, workload, pipeline, gpu, gpu_count)
}

/// The attention kernel a DiT pipeline runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DitAttention {
    /// PyTorch's SDPA as diffusers calls it today: cuDNN's kernel first on
    /// Hopper (`CUDNN_HOPPER_128`), FlashAttention-2 elsewhere. A clip xDiT
    /// splits over GPUs is counted at the same rate.
    Sdpa,
    /// FlashAttention-2 on every GPU: SDPA before PyTorch 2.11, which the
    /// calibration's sources ran (only the native calibration tests
    /// construct it).
    #[allow(dead_code)]
    Flash2,
}

/// [`diffusion_speed`] with the attention kernel `attention`: the
/// calibration passes the kernel of the PyTorch a source ran.
pub(crate) fn diffusion_speed_with(
    attention: DitAttention,
    workload: &Workload,
    pipeline: &Diffusion,
    gpu: &Gpu,
    gpu_count: u32,
) -> Result<Speed, Error> {
    let mut notes = Vec::new();
    let precision = workload.weight_precision;
    let compute = compute_precision(precision, gpu);
    let rate = tensor_rate(gpu, compute, &mut notes)?;
    let bandwidth = bandwidth_of(gpu)?;

    let (resolution, frames) = frame(workload, pipeline);
    let steps = f64::from(workload.steps.unwrap_or(pipeline.default_steps).max(1));
    let batch = f64::from(workload.batch.max(1));
    let video = workload.task == Task::Video;
    let split_by = pipeline.clip_split_by(workload.task, gpu_count);
    let split = if split_by.is_some() { f64::from(gpu_count) } else { 1.0 };
    let gpus = Arg::Num(f64::from(gpu_count), 0);
    match split_by {
        Some(runtime) => notes.push(msg!(phrases::NOTE_CLIP_SPLIT, gpus = gpus, runtime = runtime.to_string())),
        None if video && gpu_count > 1 => notes.push(msg!(phrases::NOTE_CLIP_WHOLE, gpus = gpus)),
        None => {}
    }
    // Samples that no runtime splits run one pipeline per GPU, on as many
    // GPUs as the job has batches for.
    let busy = pipeline.pipelines_at_once(workload.task, gpu_count, workload.items, workload.batch);
    if split_by.is_none() && busy < gpu_count {
        notes.push(msg!(phrases::NOTE_GPUS_IDLE, busy = busy, gpus = gpu_count));
    }
    let replicas = f64::from(busy);
    let weight_bytes = precision.bits_per_weight() / 8.0;
    let value_bytes = if precision == Precision::Fp32 { 4.0 } else { 2.0 };

    // One denoiser pass over `samples` samples, on each of the `split` GPUs.
    let (passes, samples) = match pipeline.guidance {
        Guidance::None => (1.0, batch),
        Guidance::Batched => (1.0, 2.0 * batch),
        Guidance::Sequential => (2.0, batch),
    };
    let pass = denoiser_pass(pipeline, latent_tokens(resolution, frames, pipeline));
    let denoiser_bytes = pipeline.denoiser_params * weight_bytes;
    // diffusers' attention is PyTorch's SDPA, and HunyuanVideo's and xDiT's
    // the flash-attn package: FlashAttention-2 either way, which reaches a
    // smaller share of Hopper's peak than its GEMMs do (`FA2_ON_HOPPER`, as in
    // training); video DiTs spend most of a step there, so an H100 gains
    // about 2× over an A100 on them (CogVideo README: 45 s against 90 s for
    // CogVideoX-2B), not its 3× of GEMM peak.
    // A DiT's GEMMs are a transformer's: they reach at least the share of
    // the peak training's do (`training::transformer_gemm_share`, measured
    // on A100s), their norms and activations counted as memory passes of
    // their own. That share carries the A100's FP32 work beside its tensor
    // cores (16 times faster); a GPU whose FP32 units keep closer pace
    // (GeForce: 2 times) loses less to it, as the UNets' model of that work
    // gives (`SIMT_FLOPS_PER_TENSOR_FLOP`, `tensor_rate`), whichever is higher.
    let gemm_rate = match pipeline.denoiser {
        Denoiser::Dit => {
            let transformer =
                peak_of(gpu, compute, &mut Vec::new())? * transformer_gemm_share(f64::from(pipeline.width));
            transformer.max(rate)
        }
        Denoiser::Unet => rate,
    };
    let hopper = gpu.architecture == Some(Architecture::Hopper);
    let attention_rate = gemm_rate * attention_share(attention, pipeline.head_dim.unwrap_or(128), hopper);
    let tensor_s = samples * (pass.flops / gemm_rate + pass.attention_flops / attention_rate) / split;
    let weights_s = denoiser_bytes / bandwidth;
    let compiled = workload.compilation == Compilation::Compiled;
    let (values, share) = if compiled {
        (pass.compiled_activation_values, 1.0)
    } else {
        (pass.activation_values, pass.eager_bandwidth_share)
    };
    let activations_s = samples * values * value_bytes / split / (bandwidth * share);
    let exchange_s = match pass.blocks {
        Some(blocks) if split > 1.0 => {
            let link = link(gpu);
            let n = split;
            let all_to_all =
                4.0 * blocks * samples * pass.tokens * f64::from(pipeline.width) * value_bytes * (n - 1.0) / (n * n);
            let gather = denoiser_bytes * (n - 1.0) / n;
            (all_to_all + gather) / link.bandwidth + 5.0 * blocks * link.latency
        }
        _ => 0.0,
    };
    let pass_s = tensor_s.max(weights_s) + activations_s + exchange_s + STEP_OVERHEAD_S;
    let step_s = passes * pass_s;

    // Per batch: encode the prompts (and the empty negative prompts under
    // guidance), then decode the latents.
    let prompts = if pipeline.guidance == Guidance::None { batch } else { 2.0 * batch };
    let text_bytes = pipeline.text_encoder_params * weight_bytes;
    let text_s = (prompts * 2.0 * pipeline.text_encoder_params * f64::from(pipeline.text_tokens) / rate)
        .max(text_bytes / bandwidth);
    let vae_fp32 = precision == Precision::Fp32 || (pipeline.vae_fp32_under_fp16 && precision == Precision::Fp16);
    let vae_rate = if vae_fp32 { tensor_rate(gpu, ComputePrecision::Fp32, &mut notes)? } else { rate };
    let kernel = if pipeline.is_video() { VIDEO_VAE_KERNEL_FACTOR } else { 1.0 };
    let pixels = f64::from(resolution.width) * f64::from(resolution.height) * f64::from(frames);
    let vae_s = batch * pixels * VAE_DECODE_FLOPS_PER_PIXEL * kernel / vae_rate;
    // Offloading moves weights over PCIe once per pipeline call (a VAE of
    // unknown size counts as nothing: a few percent of those pipelines).
    let vae_bytes = pipeline.vae_params.unwrap_or(0.0) * if vae_fp32 { 4.0 } else { value_bytes };
    let moved = match workload.offload {
        Offload::None => 0.0,
        Offload::Text => text_bytes,
        Offload::Model => text_bytes + denoiser_bytes + vae_bytes,
    };
    let offload_s = moved / pcie_bandwidth(gpu);
    let per_batch_s = steps * step_s + text_s + vae_s + offload_s;

    let steps_per_s = 1.0 / step_s;
    let figures = if video {
        Figures::Video(VideoSpeed { steps_per_s, seconds_per_clip: per_batch_s / batch / replicas })
    } else {
        Figures::Image(ImageSpeed { steps_per_s, seconds_per_image: per_batch_s / batch / replicas })
    };
    if passes * STEP_OVERHEAD_S > 0.3 * step_s {
        notes.push(msg!(phrases::NOTE_LAUNCHES, percent = Arg::Num(passes * STEP_OVERHEAD_S / step_s * 100.0, 0)));
    }
    if pipeline.denoiser == Denoiser::Dit && pipeline.blocks.is_none() {
        notes.push(msg!(phrases::NOTE_DIT_DEPTH));
    }
    let bound = bound(tensor_s, weights_s.max(activations_s), exchange_s);
    Ok(Speed::of(bound, compute, figures, notes))
}

/// What limits a step: the largest of its tensor, memory and link times.
pub(super) fn bound(tensor_s: f64, memory_s: f64, exchange_s: f64) -> Bound {
    if exchange_s > tensor_s.max(memory_s) {
        Bound::Interconnect
    } else if memory_s > tensor_s {
        Bound::Memory
    } else {
        Bound::Compute
    }
}

/// Real-time factor of transcription across `gpu_count` GPUs.
///
/// `workload.batch` windows run together (faster-whisper's
/// BatchedInferencePipeline, the transformers pipeline's `batch_size`), each
/// with its beams, and GPUs are replicas that take windows in turn.
/// faster-whisper (CTranslate2) pays a fixed time per decoder layer and step
/// on top of its kernels ([`DECODE_LAYER_OVERHEAD_S`]); the transformers
/// pipeline runs eager PyTorch, whose host dispatches each decoder layer's
/// ops while the GPU runs the ones already queued, as in LLM generation
/// (`llm::runtime_speed(Runtime::Hf).per_layer_s`), so a step takes the
/// longer of the two. openai-whisper's PyTorch loop is 2–5 times slower
/// than faster-whisper (its README: 2m23s against 1m03s on an RTX 3070 Ti;
/// 4m30s against 54 s on a V100S).
pub fn speech_speed(workload: &Workload, speech: &Speech, gpu: &Gpu, gpu_count: u32) -> Result<Speed, Error> {
    let mut notes = Vec::new();
    let precision = workload.weight_precision;
    let compute = compute_precision(precision, gpu);
    let rate = tensor_rate(gpu, compute, &mut notes)?;
    let bandwidth = bandwidth_of(gpu)?;
    let batch = f64::from(workload.batch.max(1));
    let weight_bytes = precision.bits_per_weight() / 8.0;
    let kv_bytes = if precision == Precision::Fp32 { 4.0 } else { workload.kv_precision.bytes() };

    let d = f64::from(speech.d_model);
    let ffn = f64::from(speech.ffn);
    let positions = f64::from(speech.audio_positions);
    let (encoder_layers, decoder_layers) = (f64::from(speech.encoder_layers), f64::from(speech.decoder_layers));
    // Encoder layers: attention 4 d² and MLP 2 d × ffn. Decoder layers add
    // cross-attention (4 d²); the vocabulary embedding doubles as the
    // output projection.
    let encoder_params = encoder_layers * (4.0 * d * d + 2.0 * d * ffn);
    let decoder_params = decoder_layers * (8.0 * d * d + 2.0 * d * ffn) + f64::from(speech.vocab) * d;

    // Per window, once: the encoder over its positions (weights, then
    // attention scores), and the decoder's cross-attention K and V.
    let encoder_flops = 2.0 * encoder_params * positions
        + 4.0 * encoder_layers * d * positions * positions
        + 2.0 * decoder_layers * 2.0 * d * d * positions;
    let encoder_s = (batch * encoder_flops / rate).max(encoder_params * weight_bytes / bandwidth);

    // Per decoding step of the batch: every beam of every window runs the
    // decoder on one token. The weights are read once; each beam's
    // attention reads its window's cross-attention cache (K and V per
    // decoder layer and position) and its own short self-attention cache.
    let beams = workload.beams_per_window();
    let hypotheses = batch * beams;
    let cross_cache = decoder_layers * 2.0 * d * positions * kv_bytes;
    let self_cache = decoder_layers * 2.0 * d * TRANSCRIPT_TOKENS_PER_WINDOW / 2.0 * kv_bytes;
    let step_bytes = decoder_params * weight_bytes + hypotheses * (cross_cache + self_cache);
    let step_flops = hypotheses * (2.0 * decoder_params + 4.0 * decoder_layers * d * positions);
    let (memory_s, tensor_s) = (step_bytes / bandwidth, step_flops / rate);
    let (step_overhead_s, step_s) = match workload.transcriber {
        Transcriber::FasterWhisper => {
            let overhead = DECODE_LAYER_OVERHEAD_S * decoder_layers;
            (overhead, memory_s.max(tensor_s) + overhead)
        }
        Transcriber::Transformers => {
            let dispatch = super::llm::runtime_speed(Runtime::Hf).per_layer_s * decoder_layers;
            let rows = hypotheses * TRANSFORMERS_TIMESTAMP_ROW_S;
            (dispatch + rows, memory_s.max(tensor_s).max(dispatch) + rows)
        }
    };
    let decode_s = TRANSCRIPT_TOKENS_PER_WINDOW * step_s;

    let per_window_s = (encoder_s + decode_s) / batch;
    let tensor_total = encoder_s + TRANSCRIPT_TOKENS_PER_WINDOW * tensor_s;
    let memory_total = TRANSCRIPT_TOKENS_PER_WINDOW * memory_s;
    let figures =
        Figures::Speech(SpeechSpeed { realtime_factor: per_window_s / WINDOW_S / f64::from(gpu_count.max(1)) });
    if TRANSCRIPT_TOKENS_PER_WINDOW * step_overhead_s > 0.5 * (encoder_s + decode_s) {
        notes.push(msg!(
            phrases::NOTE_DECODE_OVERHEAD,
            ms = Arg::Num(step_overhead_s * 1e3, 0),
            percent = Arg::Num(TRANSCRIPT_TOKENS_PER_WINDOW * step_overhead_s / (encoder_s + decode_s) * 100.0, 0)
        ));
    }
    let assumes = match workload.transcriber {
        Transcriber::FasterWhisper => &phrases::NOTE_FASTER_WHISPER,
        Transcriber::Transformers => &phrases::NOTE_TRANSFORMERS_ASR,
    };
    notes.push(msg!(*assumes, beams = Arg::Num(beams, 0), tokens = Arg::Num(TRANSCRIPT_TOKENS_PER_WINDOW, 0)));
    Ok(Speed::of(bound(tensor_total, memory_total, 0.0), compute, figures, notes))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests;
