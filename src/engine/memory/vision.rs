//! What a vision tower adds to an LLM's memory (issue 26): its weights,
//! the cross-attention cache of a model that cross-attends to its image
//! tokens, and the encoder's activations while it encodes an image. The
//! image tokens a model puts in its own sequence are sized by the LLM's
//! KV cache, through the longer prompt (`Workload::with_image_tokens`).

use super::breakdown::MemoryBreakdown;
use crate::engine::vision::Vision;
use crate::engine::Workload;

/// Bytes per vision-tower weight: 16 bits whatever the text decoder's
/// format. Quantization recipes leave the tower alone (llm-compressor's
/// vision-language examples `ignore=["re:vision_tower.*",
/// "re:multi_modal_projector.*"]`; AutoAWQ and GPTQ quantize the
/// decoder's linear layers only), and vLLM loads it in the model's dtype.
pub const VISION_WEIGHT_BYTES: f64 = 2.0;

/// Adds `vision`'s weights, cross-attention cache and encoder activations
/// to `memory`, the text decoder's, over its `memory.gpu_count` GPUs (the
/// tower's weights split with the decoder's under tensor parallelism, as
/// vLLM's Qwen2-VL and LLaVA towers do; its activations are one image's,
/// on every GPU). `shape_kv` is the decoder's (KV heads, head width) for a
/// cross-attending design. Training passes `with_images` false: the tower
/// is loaded, frozen, and fine-tuning here is on text.
pub fn add_vision(
    memory: &mut MemoryBreakdown,
    workload: &Workload,
    vision: &Vision,
    shape_kv: (u32, u32),
    with_images: bool,
) {
    let n = f64::from(memory.gpu_count.max(1));
    let weights = vision.params * VISION_WEIGHT_BYTES;
    let images = if with_images { f64::from(workload.images_for(Some(vision))) } else { 0.0 };
    let side = workload.image_side();
    let cross_kv = vision.cross_kv_bytes_per_image_token_16bit(shape_kv.0, shape_kv.1).map_or(0.0, |per_token| {
        per_token * workload.kv_precision.bytes() / 2.0
            * images
            * f64::from(vision.tokens_per_image(side))
            * f64::from(workload.concurrency)
    });
    let activations = if images > 0.0 { vision.encode_activation_bytes(side) } else { 0.0 };
    memory.weights_bytes += weights;
    memory.kv_cache_bytes += cross_kv;
    memory.activations_bytes += activations;
    memory.total_bytes += weights + cross_kv + activations;
    memory.per_gpu_bytes += (weights + cross_kv) / n + activations;
}
