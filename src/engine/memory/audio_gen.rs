//! Memory of speech and music generation: every stage's weights, the KV
//! cache of the autoregressive stages over one segment of the clips in
//! flight (twice the clips under classifier-free guidance), and the
//! activations of the widest pass.

use super::breakdown::MemoryBreakdown;
use super::speech::SPEECH_OVERHEAD_GB;
use crate::engine::audio_model::{AudioGenerator, StageMethod};
use crate::engine::{Error, Precision, Workload};
use crate::units::BYTES_PER_GB;

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
        let steps = stage.frames(generator.stage_seconds(stage, segment));
        let (_, width) = stage.depth_and_width();
        match stage.method {
            StageMethod::Autoregressive => {
                kv += sequences * steps * stage.kv_bytes_per_step_16bit() * kv_bytes / 2.0;
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
