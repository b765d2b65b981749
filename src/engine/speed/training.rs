//! Training and fine-tuning throughput: about 6 FLOPs per parameter per
//! token (2 forward, 4 backward), 8 with activation recomputation, 4 for
//! LoRA's frozen base (no weight gradients), at an achievable share of the
//! tensor peak; data-parallel gradient and parameter traffic overlaps the
//! arithmetic until it is larger.

use super::{bandwidth_of, peak_of, Bound, Figures, Speed, TrainingSpeed};
use crate::engine::catalog::{Architecture, Shape};
use crate::engine::hardware::{compute_precision, link, ComputePrecision};
use crate::engine::{Error, FinetuneMethod, Gpu, Model, Precision, Task, Workload};

/// Share of the tensor peak large training GEMMs reach, with the rest of a
/// step (norms, softmax, optimizer) folded in. Calibrated on llm-foundry's
/// A100 MFU table (calibration/training.csv, MPT 1B–7B without activation
/// checkpointing: 0.57–0.64).
const TRAINING_EFFICIENCY: f64 = 0.62;

/// Hidden size at which a transformer's GEMMs reach half their efficiency
/// loss: utilisation ≈ h / (h + 250). llm-foundry's MFU falls from ~0.6 at
/// hidden 2,560 (MPT-3B) to ~0.42 at 768 (MPT-125M).
const SMALL_GEMM_HIDDEN: f64 = 250.0;

/// How much slower attention runs without FlashAttention-2, in PyTorch's
/// memory-efficient SDPA kernel (the xFormers/cutlass design, which PyTorch
/// uses from compute capability 5.0): FlashAttention-2 is "2× faster than
/// FlashAttention" and reaches 50–73% of the A100's peak against the
/// first generation's 25–40% (Dao 2023, FlashAttention-2, abstract and
/// section 4.1), and the memory-efficient kernel runs at the first
/// generation's speed there. The memory is the same: neither keeps the
/// s² score matrix.
pub const NO_FLASH_ATTENTION_SLOWDOWN: f64 = 2.0;

/// GPUs per node: beyond it, data-parallel traffic crosses the network.
const GPUS_PER_NODE: u32 = 8;

/// Network bandwidth per GPU between nodes, bytes/s: one 200 Gb/s HDR
/// InfiniBand adapter per GPU (NVIDIA DGX A100: 8 × 200 Gb/s for 8 GPUs);
/// H100-generation clusters double it (DGX H100: 8 × 400 Gb/s NDR).
fn inter_node_bandwidth(gpu: &Gpu) -> f64 {
    match gpu.architecture {
        Some(Architecture::Hopper | Architecture::Blackwell) => 50e9,
        _ => 25e9,
    }
}

pub fn training_speed(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    gpu_count: u32,
    flash_attention: bool,
) -> Result<Speed, Error> {
    let mut notes = Vec::new();
    // Training runs in BF16 (FP32 if asked; FP8 with Transformer Engine where
    // the GPU has it).
    let compute = match workload.weight_precision {
        Precision::Fp32 => ComputePrecision::Fp32,
        Precision::Fp8 if workload.task == Task::Pretrain => compute_precision(Precision::Fp8, gpu),
        _ => ComputePrecision::Fp16,
    };
    let peak = peak_of(gpu, compute, &mut notes)?;
    let bandwidth = bandwidth_of(gpu)?;
    let gpus = f64::from(gpu_count.max(1));

    let params = model.active_params.unwrap_or(model.params);
    let full = workload.task == Task::Pretrain || workload.method == FinetuneMethod::Full;
    // FLOPs per token: 2 forward + 4 backward per parameter for full
    // training; LoRA skips the frozen weights' gradients (2 + 2); attention
    // adds 12 × layers × q_width × seq (llm-foundry's MFU formula).
    let q_width = f64::from(shape.heads * shape.head_dim);
    let seq = f64::from(workload.seq_len);
    let attention = 12.0 * f64::from(shape.layers) * q_width * seq;
    let model_flops = if full { 6.0 * params } else { 4.0 * params } + attention;
    // Checkpointing recomputes the forward pass.
    let recompute = if workload.checkpointing { 2.0 * params + attention / 3.0 } else { 0.0 };
    // Without FlashAttention-2 the attention arithmetic takes longer, as if
    // there were more of it.
    let attention_cost = if flash_attention { 0.0 } else { (NO_FLASH_ATTENTION_SLOWDOWN - 1.0) * attention };
    let recompute_cost = if workload.checkpointing { attention_cost / 3.0 } else { 0.0 };
    let hardware_flops = model_flops + recompute + attention_cost + recompute_cost;

    let hidden = f64::from(shape.hidden);
    let utilisation = hidden / (hidden + SMALL_GEMM_HIDDEN);
    let achieved = peak * TRAINING_EFFICIENCY * utilisation;
    // One step of one data-parallel replica (its `tp × pp` GPUs share the
    // arithmetic of one micro-batch).
    let model_parallel = f64::from(workload.tensor_parallel.max(1) * workload.pipeline_parallel.max(1));
    let data_parallel = (gpus / model_parallel).max(1.0);
    let tokens_per_replica_step = seq * f64::from(workload.micro_batch);
    let mut compute_s = tokens_per_replica_step * hardware_flops / (achieved * model_parallel);
    // Pipeline stages idle while the pipeline fills and drains: a bubble of
    // (p − 1)/m of the step with m micro-batches per step (Narayanan et al.
    // 2021, §2.2), taking the common m = 4p.
    let stages = f64::from(workload.pipeline_parallel.max(1));
    compute_s *= 1.0 + (stages - 1.0) / (4.0 * stages);
    // Tensor parallelism all-reduces the activations twice per layer forward
    // and twice backward, inside the node.
    let tp = f64::from(workload.tensor_parallel.max(1));
    let tp_s = if tp > 1.0 {
        let bytes = tokens_per_replica_step / stages * hidden * 2.0;
        4.0 * f64::from(shape.layers) / stages * link(gpu).all_reduce(bytes, tp)
    } else {
        0.0
    };

    // QLoRA dequantizes the NF4 base to 16 bits for every matmul, forward,
    // backward and recompute: reading 0.5 B and writing and reading 2 B per
    // weight each time (bitsandbytes).
    let dequant_s = if !full && workload.method == FinetuneMethod::Qlora {
        let passes = if workload.checkpointing { 3.0 } else { 2.0 };
        passes * params * 4.5 / bandwidth
    } else {
        0.0
    };

    // Data-parallel traffic per step and GPU: gradients all-reduced (or
    // reduce-scattered and parameters all-gathered, ZeRO-1/2: the same
    // 2 × 2 bytes per trained parameter); ZeRO-3 / FSDP also all-gathers the
    // parameters again for the backward pass (3 × 2 bytes). A ring moves
    // (n − 1)/n of it over each GPU's slowest link.
    let trained = if full { params } else { crate::engine::memory::training::trainable_params(workload, model, shape) };
    let per_param = if workload.zero_stage >= 3 { 6.0 } else { 4.0 };
    let slowest = if gpu_count > GPUS_PER_NODE { inter_node_bandwidth(gpu) } else { link(gpu).bandwidth };
    let comm_s = if data_parallel > 1.0 {
        trained / model_parallel * per_param * (data_parallel - 1.0) / data_parallel / slowest
    } else {
        0.0
    };

    let busy_s = compute_s + dequant_s + tp_s;
    let step_s = busy_s.max(comm_s);
    let tokens_per_s = tokens_per_replica_step * data_parallel / step_s;
    let interconnect = comm_s > busy_s || tp_s > compute_s;
    let figures = Figures::Training(TrainingSpeed {
        train_tokens_per_s: tokens_per_s,
        mfu: tokens_per_s / gpus * model_flops / peak,
    });
    let bound = if interconnect { Bound::Interconnect } else { Bound::Compute };
    Ok(Speed { bound, compute_precision: compute, figures, notes })
}
