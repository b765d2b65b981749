//! Speed of speech and music generation, stage by stage (issue 26).
//!
//! - An autoregressive stage (MusicGen's or Parler-TTS's decoder over codec
//!   frames, Bark's three GPTs, CosyVoice's speech-token LM) decodes one
//!   step per frame for every clip of the batch at once: each step reads
//!   the stage's weights and the clips' KV caches, or runs their FLOPs,
//!   whichever is slower, plus the host's kernel launches, which eager
//!   PyTorch pays per layer and which dominate small models.
//! - An iterative stage (F5-TTS's flow matching, Stable Audio's diffusion,
//!   MAGNeT's masked decoding) runs its steps as full passes over all the
//!   clip's frames: compute-bound, like an image model's denoiser.
//! - A single stage (vocoder, codec decoder) runs once over the frames.
//!
//! Clips longer than the model generates at once are made segment by
//! segment, so the time follows the clip's length.

use super::media::{bound, tensor_rate, STEP_OVERHEAD_S};
use super::{bandwidth_of, AudioGenSpeed, Figures, Speed};
use crate::engine::audio_model::{AudioGenerator, StageMethod};
use crate::engine::hardware::compute_precision;
use crate::engine::{Error, Gpu, Precision, Workload};
use crate::msg;
use crate::text::{phrases, Arg};

/// Host time per transformer layer per decoding step in eager PyTorch
/// (the ~10 kernels of a layer, launched from Python at ~20–30 µs each):
/// it is why small codec LMs run far below their bandwidth bound.
/// Calibrated on Dia 1.6B's README (RTX 4090, bf16, no torch.compile:
/// 1.5× real time at 86 steps/s, 7.8 ms a step, of which reading the
/// weights takes 3.2 ms); torch.compile's CUDA graphs cut it (2.1× there).
pub const EAGER_LAYER_OVERHEAD_S: f64 = 0.000_25;

/// Seconds per generated clip and the real-time factor of `workload` on
/// `gpu_count` GPUs of `gpu`, each generating `workload.batch` clips at
/// once (replicas: clips are independent).
pub fn audio_gen_speed(
    workload: &Workload,
    generator: &AudioGenerator,
    gpu: &Gpu,
    gpu_count: u32,
) -> Result<Speed, Error> {
    let mut notes = Vec::new();
    let precision = workload.weight_precision;
    let compute = compute_precision(precision, gpu);
    let rate = tensor_rate(gpu, compute, &mut notes)?;
    let bandwidth = bandwidth_of(gpu)?;
    let weight_bytes = precision.bits_per_weight() / 8.0;
    let kv_bytes = if precision == Precision::Fp32 { 4.0 } else { workload.kv_precision.bytes() };
    let batch = f64::from(workload.batch.max(1));
    let clip_s = workload.clip_seconds_for(generator);
    let segment_s = generator.segment_seconds(clip_s);
    let segments = generator.segments(clip_s);

    let (mut tensor_total, mut memory_total, mut segment_total) = (0.0, 0.0, 0.0);
    for stage in &generator.stages {
        let sequences = batch * stage.guidance_factor();
        let frames = stage.frames(generator.stage_seconds(stage, segment_s));
        let (layers, width) = stage.depth_and_width();
        let stage_bytes = stage.params * weight_bytes;
        let (tensor_s, memory_s, overhead_s) = match stage.method {
            StageMethod::Autoregressive => {
                // Each step attends to half the segment on average.
                let cache = sequences * frames / 2.0 * stage.kv_bytes_per_step_16bit() * kv_bytes / 2.0;
                let step_tensor = sequences * 2.0 * stage.params / rate;
                let step_memory = (stage_bytes + cache) / bandwidth;
                (frames * step_tensor, frames * step_memory, frames * layers * EAGER_LAYER_OVERHEAD_S)
            }
            StageMethod::Iterative => {
                let steps = f64::from(workload.steps.or(stage.steps).unwrap_or(1).max(1));
                let pass_flops = sequences * (2.0 * stage.params * frames + 4.0 * layers * frames * frames * width);
                (steps * pass_flops / rate, steps * stage_bytes / bandwidth, steps * STEP_OVERHEAD_S)
            }
            StageMethod::Single => {
                (batch * 2.0 * stage.params * frames / rate, stage_bytes / bandwidth, STEP_OVERHEAD_S)
            }
            StageMethod::Resident => (0.0, 0.0, 0.0),
        };
        tensor_total += tensor_s;
        memory_total += memory_s;
        // A step is as slow as the slower of its arithmetic and its reads.
        segment_total += tensor_s.max(memory_s) + overhead_s;
    }
    let seconds_per_clip = segment_total * segments;
    let realtime_factor = seconds_per_clip / (batch * clip_s) / f64::from(gpu_count.max(1));
    if clip_s > segment_s {
        notes.push(msg!(phrases::NOTE_AUDIO_SEGMENTS, seconds = Arg::Num(segment_s, 0)));
    }
    if !generator.unsized_stages.is_empty() {
        notes.push(msg!(phrases::NOTE_AUDIO_UNSIZED_STAGES, stages = generator.unsized_stages.join(", ")));
    }
    notes.push(msg!(phrases::NOTE_AUDIO_EAGER));
    let figures = Figures::AudioGen(AudioGenSpeed { realtime_factor, seconds_per_clip, clip_seconds: clip_s });
    Ok(Speed::of(bound(tensor_total, memory_total, 0.0), compute, figures, notes))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
