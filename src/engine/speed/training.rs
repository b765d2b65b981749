//! Training and fine-tuning throughput: about 6 FLOPs per parameter per
//! token (2 forward, 4 backward), 8 with activation recomputation, 4 for
//! LoRA's frozen base (no weight gradients), at an achievable share of the
//! tensor peak; data-parallel gradient and parameter traffic overlaps the
//! arithmetic until it is larger.

use super::collectives::{across, Collective, Group};
use super::{bandwidth_of, peak_of, Bound, Figures, Speed, TrainingSpeed};
use crate::engine::catalog::Shape;
use crate::engine::fabric::Placement;
use crate::engine::hardware::{compute_precision, link, ComputePrecision};
use crate::engine::{Error, FinetuneMethod, Gpu, Model, Precision, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg};

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

/// Share of the step above which waiting for the network makes a job
/// interconnect-bound in the table: a quarter of the time spent waiting
/// (a presentation threshold, not a measurement).
const WAITING_SHARE: f64 = 0.25;

pub fn training_speed(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    placement: Placement,
    flash_attention: bool,
) -> Result<Speed, Error> {
    let gpu_count = placement.total_gpus();
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

    // Data-parallel traffic per micro-batch step, 16-bit: DDP all-reduces
    // the gradients; ZeRO-1/2 reduce-scatters them and all-gathers the
    // updated parameters after the optimizer step; ZeRO-3 / FSDP also
    // all-gathers the parameters for the forward and again for the backward
    // pass (Rajbhandari et al. 2019, ZeRO, §7: 2Ψ, 2Ψ and 3Ψ per step).
    let trained = if full { params } else { crate::engine::memory::training::trainable_params(workload, model, shape) };
    let bytes = trained / model_parallel * 2.0;
    let group = data_parallel_group(workload, placement, data_parallel);
    let (link, network) = (link(gpu), placement.network);
    let collective = |kind| if data_parallel > 1.0 { across(kind, bytes, group, link, network) } else { 0.0 };
    // Pipeline stages on different nodes hand over their activations, forward
    // and backward, over the fabric.
    let handover_s = if placement.multi_node() && stages > 1.0 {
        let activations = tokens_per_replica_step / stages * hidden * 2.0;
        let per_gpu = network.bytes_per_s() / f64::from(placement.gpus_per_node.max(1));
        2.0 * (stages - 1.0).min(f64::from(placement.nodes - 1))
            * (activations / per_gpu + network.kind.hop_latency_s())
    } else {
        0.0
    };

    // What overlaps what, as the frameworks schedule it: DDP all-reduces
    // gradient buckets during the backward pass (Li et al. 2020, PyTorch
    // Distributed, §3.2.3); DeepSpeed's ZeRO-1/2 overlap the reduce-scatter
    // with the backward pass and gather the parameters after the step; FSDP
    // prefetches each layer's all-gather during the previous layer's forward
    // and backward, and reduce-scatters during the backward, leaving the
    // first layer's gather exposed.
    let busy_s = compute_s + dequant_s + tp_s + handover_s;
    let forward_flops = 2.0 * params + (attention + attention_cost) / 3.0;
    let forward_s = busy_s * forward_flops / hardware_flops.max(f64::MIN_POSITIVE);
    let backward_s = busy_s - forward_s;
    let step_s = match workload.zero_stage {
        0 => forward_s + backward_s.max(collective(Collective::AllReduce)),
        1 | 2 => forward_s + backward_s.max(collective(Collective::ReduceScatter)) + collective(Collective::AllGather),
        _ => {
            let gather = collective(Collective::AllGather);
            forward_s.max(gather)
                + backward_s.max(gather + collective(Collective::ReduceScatter))
                + gather / f64::from(shape.layers.max(1))
        }
    };
    let tokens_per_s = tokens_per_replica_step * data_parallel / step_s;
    let waiting_s = step_s - busy_s;
    let interconnect = waiting_s > WAITING_SHARE * step_s || tp_s > compute_s;
    if !network.known && placement.multi_node() {
        notes.push(msg!(phrases::NOTE_FABRIC_ASSUMED, gbps = Arg::Num(network.gbps, 0)));
    }
    let figures = Figures::Training(TrainingSpeed {
        train_tokens_per_s: tokens_per_s,
        mfu: tokens_per_s / gpus * model_flops / peak,
    });
    let bound = if interconnect { Bound::Interconnect } else { Bound::Compute };
    Ok(Speed { bound, compute_precision: compute, figures, notes })
}

/// Where a data-parallel group's ranks sit: tensor parallelism inside a
/// node, pipeline stages spread over the nodes first, and the data-parallel
/// replicas of each rank over the rest.
fn data_parallel_group(workload: &Workload, placement: Placement, data_parallel: f64) -> Group {
    let nodes = f64::from(placement.nodes.max(1));
    let stages = f64::from(workload.pipeline_parallel.max(1));
    let node_spans = (nodes / stages.min(nodes)).max(1.0);
    let members_per_node = (data_parallel / node_spans).max(1.0);
    let groups_per_node = (f64::from(placement.gpus_per_node.max(1)) / members_per_node).max(1.0);
    Group { nodes: node_spans, members_per_node, groups_per_node }
}
