//! Memory of speech and music generation: every stage's weights, the KV
//! cache of the autoregressive stages over one segment of the clips in
//! flight (twice the clips under classifier-free guidance), and the
//! activations of the widest pass.

use super::breakdown::{MemoryBreakdown, BYTES_PER_GB};
use super::speech::SPEECH_OVERHEAD_GB;
use crate::engine::audio_model::{AudioGenerator, AudioStage, StageMethod};
use crate::engine::{Error, Precision, Workload};

/// A transformer stage's depth and width where the sources give only its
/// parameters: 12 × layers × width² parameters (attention 4 w², MLP 8 w²)
/// at about 64 width per layer, the aspect of GPT-2 medium (24 × 1,024)
/// and MusicGen medium (48 × 1,536 is 32 per layer; large 48 × 2,048, 43).
/// Used only for stages without a `layers`/`hidden` in the data.
const WIDTH_PER_LAYER: f64 = 64.0;

/// (layers, width) of `stage`, from the data or else from its parameters.
pub fn depth_and_width(stage: &AudioStage) -> (f64, f64) {
    match (stage.layers, stage.hidden) {
        (Some(layers), Some(hidden)) => (f64::from(layers), f64::from(hidden)),
        (layers, hidden) => {
            let width = hidden.map_or((stage.params * WIDTH_PER_LAYER / 12.0).cbrt(), f64::from);
            let layers = layers.map_or((stage.params / (12.0 * width * width)).max(1.0), f64::from);
            (layers, width)
        }
    }
}

/// KV-cache bytes per decoded step of one sequence at 16 bits.
pub fn kv_bytes_per_step_16bit(stage: &AudioStage) -> f64 {
    stage.kv_bytes_per_step_16bit().unwrap_or_else(|| {
        let (layers, width) = depth_and_width(stage);
        2.0 * layers * width * 2.0
    })
}

/// Decoder steps of an autoregressive stage, or frames of a pass, over
/// `seconds` of audio.
pub fn frames(stage: &AudioStage, seconds: f64) -> f64 {
    stage.frames_per_second.unwrap_or(0.0) * seconds + f64::from(stage.extra_steps)
}

/// Sizes `workload.batch` clips generated together on each of `gpu_count`
/// GPUs (replicas: clips are independent).
pub fn audio_gen_memory(
    workload: &Workload,
    generator: &AudioGenerator,
    gpu_count: u32,
) -> Result<MemoryBreakdown, Error> {
    let precision = workload.weight_precision;
    let weight_bytes = precision.bits_per_weight() / 8.0;
    let value_bytes = if precision == Precision::Fp32 { 4.0 } else { 2.0 };
    let kv_bytes = if precision == Precision::Fp32 { 4.0 } else { workload.kv_precision.bytes() };
    let batch = f64::from(workload.batch.max(1));
    let segment = generator.segment_seconds(workload.clip_seconds_for(generator));

    let weights = generator.params() * weight_bytes;
    let mut kv = 0.0;
    let mut activations: f64 = 0.0;
    for stage in &generator.stages {
        let sequences = batch * stage.guidance_factor();
        let steps = frames(stage, generator.stage_seconds(stage, segment));
        let (_, width) = depth_and_width(stage);
        match stage.method {
            StageMethod::Autoregressive => {
                kv += sequences * steps * kv_bytes_per_step_16bit(stage) * kv_bytes / 2.0;
                // One step's residual stream, MLP and codebook logits.
                activations = activations.max(sequences * 12.0 * width * value_bytes);
            }
            // One layer at a time over every frame: the residual stream,
            // its normalised copy and the MLP's 4×-wide tensor, with
            // memory-efficient attention that keeps no score matrix.
            StageMethod::Iterative | StageMethod::Single => {
                activations = activations.max(sequences * steps * 6.0 * width * value_bytes);
            }
            StageMethod::Resident => {}
        }
    }
    let overhead = SPEECH_OVERHEAD_GB * BYTES_PER_GB;
    Ok(MemoryBreakdown::each_gpu_holds(weights, kv, activations, overhead, gpu_count))
}
