//! What encoding images adds to serving a vision-language model (issue
//! 26). The image tokens' prefill and KV cache are the text decoder's own,
//! through the longer prompt (`Workload::with_image_tokens`); here the
//! vision tower's pass over each request's images is added before the
//! first token, and to the GPU time every request takes.

use super::media::tensor_rate;
use super::{Figures, Speed};
use crate::engine::catalog::Shape;
use crate::engine::hardware::compute_precision;
use crate::engine::vision::Vision;
use crate::engine::{Error, Gpu, Workload};
use crate::msg;
use crate::text::{phrases, Arg};

/// Host (CPU) seconds per megapixel to prepare a request's image before
/// the tower sees it: decoding the file, the image processor's resize,
/// rescale and normalise, handing the pixels to the engine. The median of
/// three statements about current vLLM, 12, 29 and 81 ms per megapixel:
/// Qwen2-VL's processor alone, 12.2 ms for 1024 × 1024 (vLLM PR 50411);
/// Mistral 3's renderer on one thread, 69 ms for 1540 × 1540 (PR 57531);
/// a 1080p request's 167 ms outside its traced model steps (issue 41267,
/// v0.19.1). Releases before 0.9.2 ran the slow Python processor, several
/// times slower (PR 19789; data/calibration/vlm_text_pairs_sources.md).
const HOST_S_PER_MEGAPIXEL: f64 = 0.029;

/// `speed`, the text decoder's serving speed, with `tower` encoding each
/// request's images: on the replica's GPUs (vLLM shards the tower's linear
/// layers with the decoder's), at the rate eager PyTorch reaches (the
/// tower runs outside the decoder's CUDA graphs), bf16 or fp16 whatever
/// the decoder's weight format; the host prepares the images as today's
/// vLLM does (`HOST_S_PER_MEGAPIXEL`).
pub fn with_encoding(
    speed: Speed,
    workload: &Workload,
    shape: &Shape,
    tower: &Vision,
    gpu: &Gpu,
) -> Result<Speed, Error> {
    with_encoding_prepared(speed, workload, shape, tower, gpu, HOST_S_PER_MEGAPIXEL)
}

/// `with_encoding` with the host taking `host_s_per_megapixel` to prepare
/// each megapixel of a request's images, as an earlier release did.
pub fn with_encoding_prepared(
    mut speed: Speed,
    workload: &Workload,
    shape: &Shape,
    tower: &Vision,
    gpu: &Gpu,
    host_s_per_megapixel: f64,
) -> Result<Speed, Error> {
    let images = f64::from(workload.images_for(Some(tower)));
    let Figures::Serving(serving) = &mut speed.figures else { return Ok(speed) };
    if images == 0.0 {
        return Ok(speed);
    }
    let side = workload.image_side();
    let tokens = f64::from(tower.tokens_per_image(side));
    let mut notes = Vec::new();
    let rate = tensor_rate(gpu, compute_precision(crate::engine::Precision::Bf16, gpu), &mut notes)?;
    // A cross-attending design also projects every image token to the
    // added layers' keys and values once per request.
    let cross_flops = tower.cross_kv_bytes_per_image_token_16bit(shape.kv_heads, shape.head_dim).map_or(0.0, |bytes| {
        // bytes / 2 values, each from a hidden-wide dot product: 2 × hidden FLOPs.
        bytes / 2.0 * 2.0 * f64::from(shape.hidden) * tokens
    });
    let flops = images * (tower.encode_flops_per_image(side) + cross_flops);
    let encode_s = flops / rate / f64::from(serving.gpus_per_replica.max(1));
    // The host prepares a request's images while the GPUs serve others: it
    // delays that request's first token, not the replica's throughput.
    let host_s = images * f64::from(side).powi(2) / 1e6 * host_s_per_megapixel;
    if let Some(ttft) = serving.ttft_s.as_mut() {
        *ttft += host_s + encode_s;
    }
    // Each request's images take their encoding time from its replica's
    // GPUs, beside its prefill and decode steps.
    let replicas = f64::from(serving.replicas.max(1));
    let per_request_output = f64::from(workload.output_tokens.max(1));
    serving.output_tokens_per_s =
        1.0 / (1.0 / serving.output_tokens_per_s + encode_s / (replicas * per_request_output));
    speed.notes.push(msg!(
        phrases::NOTE_VISION_ENCODE,
        images = Arg::Num(images, 0),
        tokens = Arg::Num(tokens * images, 0),
        ms = Arg::Num(encode_s * 1e3, 0),
        host = Arg::Num(host_s * 1e3, 0)
    ));
    Ok(speed)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests;
