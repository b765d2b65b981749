//! Training and fine-tuning throughput: about 6 FLOPs per parameter per
//! token (2 forward, 4 backward), 8 with activation recomputation, 4 for
//! LoRA's frozen base (no weight gradients), at an achievable share of the
//! tensor peak (FP8 for the linear layers only, attention at the share its
//! kernel reaches on the GPU), plus the element-wise work, bound by memory
//! bandwidth; data-parallel gradient and parameter traffic overlaps the
//! arithmetic until it is larger.

use super::collectives::{across, Collective, Group};
use super::llm::FP8_LARGE_GEMM_SHARE;
use super::{bandwidth_of, peak_of, Bound, Figures, Speed, TrainingSpeed};
use crate::engine::catalog::{Architecture, Shape};
use crate::engine::fabric::Placement;
use crate::engine::hardware::{compute_precision, link, ComputePrecision};
use crate::engine::workload::TrainingRecipe;
use crate::engine::{Error, FinetuneMethod, Gpu, Model, Precision, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg};

/// Share of the tensor peak large training GEMMs reach. Fitted with
/// `SMALL_GEMM_HIDDEN` on llm-foundry's A100 table (calibration/
/// training.csv, LLMFOUNDRY_BENCH, MPT-125M to 70B, 139 rows), the
/// element-wise traffic below fixed from its sources (issue 28: median
/// |error| 6.7% → 4.8%; multi-node 10.9% → 7.1%; torchtune by README
/// version 12.9% → 7.0% and 12.5% → 9.5%).
const TRAINING_EFFICIENCY: f64 = 0.68;

/// Hidden size at which a transformer's GEMMs lose half their efficiency
/// to their small size (tiles and waves that do not fill the GPU, kernel
/// launches): utilisation h / (h + SMALL_GEMM_HIDDEN). Fitted with
/// `TRAINING_EFFICIENCY`.
const SMALL_GEMM_HIDDEN: f64 = 200.0;

/// The share of the tensor peak a transformer's GEMMs reach at `hidden`
/// width: `TRAINING_EFFICIENCY` less what small GEMMs lose.
pub(super) fn transformer_gemm_share(hidden: f64) -> f64 {
    TRAINING_EFFICIENCY * hidden / (hidden + SMALL_GEMM_HIDDEN)
}

/// Bytes of memory traffic per token, per layer and per unit of hidden
/// size, of a training step's element-wise work (norms, activations,
/// residual adds, dropout, rotary embeddings): memory-bound kernels whose
/// time grows with tokens × hidden while the GEMMs' grows with hidden², so
/// they weigh most on small models and on GPUs whose arithmetic outgrew
/// their bandwidth (H100: 3× the A100's BF16 peak, 1.6× its bandwidth).
/// Matrix multiplies are 99.8% of a BERT layer's FLOPs but 61% of its
/// runtime; normalisations 0.17% of the FLOPs and ~25% of the time (Ivanov
/// et al. 2021, Data Movement Is All You Need, Table I). A layer keeps 34
/// bytes of such activations per token per hidden unit (Korthikanti et al.
/// 2022, eq. 1, the sbh·34 term): written and read back once forward, read
/// again backward, where their gradients are written and read: 5 passes.
const ELEMENTWISE_BYTES: f64 = 5.0 * 34.0;

/// Transformer Engine's FP8 GEMMs cast their inputs, BF16 activations
/// forward and gradients backward, to FP8 first ("both the input and weights
/// are cast to FP8 before the computation", TE fp8_primer): reading 2 bytes
/// and writing 1 for each of about 20 × hidden values per token and layer
/// (the four linear layers' inputs and output gradients with a SwiGLU MLP
/// 3.5 × hidden wide: 9 h + 3 × 3.5 h).
const FP8_CAST_BYTES: f64 = 3.0 * 20.0;

/// FlashAttention-2, the kernel PyTorch's SDPA and llm-foundry use, reaches
/// 335 TFLOP/s forward and backward on the H100 (Dao 2023, FlashAttention-2,
/// §4.1: "using no special instructions to make use of new features such as
/// TMA and 4th-gen Tensor Cores"), 34% of its peak, against up to 73%
/// forward and 63% backward on the A100, where the calibration has it
/// keep pace with the GEMMs; FlashAttention-3 names it "35% vs. 80-90%" of
/// Hopper's GEMMs (Shah et al. 2024, §1). Relative to the GEMMs' share:
/// 0.34 / 0.63.
pub(super) const FA2_ON_HOPPER: f64 = 0.54;

/// How much slower attention runs without FlashAttention-2, in PyTorch's
/// memory-efficient SDPA kernel (the xFormers/cutlass design, which PyTorch
/// uses from compute capability 5.0): FlashAttention-2 is "2× faster than
/// FlashAttention" and reaches 50–73% of the A100's peak against the
/// first generation's 25–40% (Dao 2023, FlashAttention-2, abstract and
/// section 4.1), and the memory-efficient kernel runs at the first
/// generation's speed there. The memory is the same: neither keeps the
/// s² score matrix.
pub const NO_FLASH_ATTENTION_SLOWDOWN: f64 = 2.0;

/// Bytes per token, per layer and per head and key of the sequence, that
/// attention without a fused kernel keeps and moves: the QKᵀ scores (2),
/// the softmax's output (2) and the dropout mask (1), the 5as/h term of a
/// layer's activations beside the 34 of `ELEMENTWISE_BYTES` (Korthikanti et
/// al. 2022, eq. 1), moved in the same 5 passes. FlashAttention keeps none
/// of them ("does not store the large intermediate attention matrix", Dao
/// et al. 2022, §3.1), nor does the memory-efficient kernel.
const SCORE_BYTES: f64 = 5.0 * 5.0;

/// The attention kernel a training stack runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttentionKernel {
    /// FlashAttention-2: PyTorch's SDPA on Ampere and later, llm-foundry,
    /// torchtitan, Transformer Engine.
    Flash2,
    /// PyTorch's memory-efficient SDPA kernel, where FlashAttention-2 does
    /// not run (before Ampere): `NO_FLASH_ATTENTION_SLOWDOWN`.
    MemoryEfficient,
    /// Attention as batched GEMMs around a (fused) softmax, writing the
    /// s × s scores to memory: Megatron-LM before FlashAttention (Narayanan
    /// et al. 2021; MegaScale's Megatron-LM baseline, to which MegaScale
    /// added FlashAttention-2, Jiang et al. 2024, §3.3) and BLOOM's
    /// Megatron-DeepSpeed (2022). Arithmetic at the GEMMs' share, plus
    /// `SCORE_BYTES` of memory traffic.
    Materialised,
}

impl AttentionKernel {
    /// The kernel a set-up runs: FlashAttention-2 where it does
    /// (`Setup::flash_attention`), else PyTorch's memory-efficient one.
    pub fn with_flash_attention(flash_attention: bool) -> AttentionKernel {
        if flash_attention {
            AttentionKernel::Flash2
        } else {
            AttentionKernel::MemoryEfficient
        }
    }
}

/// Share of the step above which waiting for the network makes a job
/// interconnect-bound in the table: a quarter of the time spent waiting
/// (a presentation threshold, not a measurement).
const WAITING_SHARE: f64 = 0.25;

/// A routed mixture of experts as a training micro-batch meets it: each
/// of its tokens picks k of the E experts in every MoE layer.
struct MicroBatchExperts {
    /// The experts' share of the active parameters (0 for a dense model).
    active_share: f64,
    /// Rows each expert's GEMMs get: tokens × k / E.
    rows_per_expert: f64,
    /// An expert's hidden width (its GEMMs' other small side).
    gemm_width: f64,
    /// Parameters the micro-batch's tokens reach: the dense ones and every
    /// expert some token picked (`RoutedExperts::touched_share`).
    touched_params: f64,
}

impl MicroBatchExperts {
    /// `tokens` of one rank's micro-batch, its experts' rows gathered from
    /// `expert_parallel` ranks (at most one expert per rank).
    fn of(model: &Model, shape: &Shape, tokens: f64, expert_parallel: f64) -> MicroBatchExperts {
        let active = model.active_params.unwrap_or(model.params);
        let Some(routed) = model.routed_experts(shape) else {
            return MicroBatchExperts {
                active_share: 0.0,
                rows_per_expert: f64::INFINITY,
                gemm_width: f64::INFINITY,
                touched_params: active,
            };
        };
        let share = routed.per_token / routed.count;
        MicroBatchExperts {
            active_share: (routed.params * share / active.max(1.0)).min(1.0),
            rows_per_expert: tokens * share * expert_parallel.clamp(1.0, routed.count),
            gemm_width: f64::from(shape.ffn.unwrap_or(shape.hidden)),
            touched_params: (model.params - routed.params).max(0.0) + routed.params * routed.touched_share(tokens),
        }
    }
}

pub fn training_speed(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    placement: Placement,
    attention_kernel: AttentionKernel,
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
    // Attention, norms and the LM head stay in BF16 under FP8: Transformer
    // Engine "only supports FP8 compute for linear layers" (Peng et al.
    // 2023, FP8-LM, §2), and its attention defaults to BF16 (`fp8_dpa`
    // False in TE's recipe).
    let fp8 = compute == ComputePrecision::Fp8;
    let bf16_peak = if fp8 { peak_of(gpu, ComputePrecision::Fp16, &mut Vec::new())? } else { peak };
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
    let gemm_flops = if full { 6.0 * params } else { 4.0 * params };
    let model_flops = gemm_flops + attention;
    // Checkpointing recomputes the forward pass: a third more of the
    // forward-plus-backward work of everything but the weight gradients.
    let recompute_share = if workload.checkpointing { 1.0 / 3.0 } else { 0.0 };
    let gemm_work = gemm_flops + if workload.checkpointing { 2.0 * params } else { 0.0 };
    // Without FlashAttention-2 the attention arithmetic takes longer, as if
    // there were more of it; FlashAttention-2 on Hopper runs at under half
    // the GEMMs' share of the peak.
    let slowdown = match attention_kernel {
        AttentionKernel::MemoryEfficient => NO_FLASH_ATTENTION_SLOWDOWN,
        AttentionKernel::Flash2 if gpu.architecture == Some(Architecture::Hopper) => 1.0 / FA2_ON_HOPPER,
        AttentionKernel::Flash2 | AttentionKernel::Materialised => 1.0,
    };
    let attention_work = attention * (1.0 + recompute_share) * slowdown;

    // Seconds per token on one GPU of a replica: FP8's linear layers leave
    // the LM head (vocab × hidden) in BF16.
    let hidden = f64::from(shape.hidden);
    let head_params = f64::from(shape.vocab.unwrap_or(0)) * hidden;
    let head_flops = if fp8 { (gemm_work / params.max(1.0) * head_params).min(gemm_work) } else { 0.0 };
    let layers = f64::from(shape.layers);
    let scores = match attention_kernel {
        AttentionKernel::Materialised => SCORE_BYTES * f64::from(shape.heads) * seq / hidden,
        AttentionKernel::Flash2 | AttentionKernel::MemoryEfficient => 0.0,
    };
    let elementwise = (ELEMENTWISE_BYTES + scores) * (1.0 + recompute_share) + if fp8 { FP8_CAST_BYTES } else { 0.0 };
    let gemm_share = transformer_gemm_share(hidden);
    // One step of one data-parallel replica (its `tp × pp` GPUs share the
    // arithmetic of one micro-batch).
    let model_parallel = f64::from(workload.tensor_parallel.max(1) * workload.pipeline_parallel.max(1));
    let data_parallel = (gpus / model_parallel).max(1.0);
    let tokens_per_replica_step = seq * f64::from(workload.micro_batch);
    // Pretraining stacks (Megatron-core) spread the experts over the
    // data-parallel ranks and send each its tokens from all of them (expert
    // parallelism), so an expert multiplies the rows of up to E ranks;
    // fine-tuning stacks (transformers with PEFT, FSDP or ZeRO sharding
    // weights, not experts) run every expert on each rank's own tokens.
    let expert_parallel = if workload.task == Task::Pretrain { data_parallel } else { 1.0 };
    let experts = MicroBatchExperts::of(model, shape, tokens_per_replica_step, expert_parallel);
    // A routed MoE's experts multiply only the rows routed to each: their
    // GEMMs are as small as the smallest of those rows, the hidden size and
    // the expert's width, and reach the share of the peak that size gets.
    let expert_work = gemm_work * experts.active_share;
    let expert_share = transformer_gemm_share(hidden.min(experts.gemm_width).min(experts.rows_per_expert));
    // FP8 GEMMs run 1.75 times BF16's, not twice (`llm::FP8_LARGE_GEMM_SHARE`).
    let linear_peak = if fp8 { peak * FP8_LARGE_GEMM_SHARE } else { peak };
    let token_s = (gemm_work - head_flops - expert_work) / (linear_peak * gemm_share)
        + expert_work / (linear_peak * expert_share)
        + (head_flops + attention_work) / (bf16_peak * gemm_share)
        + elementwise * layers * hidden / bandwidth;
    let hardware_flops = gemm_work + attention_work;
    let mut compute_s = tokens_per_replica_step * token_s / model_parallel;
    // The optimizer step takes the global batch: each replica accumulates
    // `micro_batches` micro-batches' gradients before it.
    let micro_batches = (workload.global_batch_sequences(data_parallel)
        / (f64::from(workload.micro_batch.max(1)) * data_parallel))
        .ceil()
        .max(1.0);
    // Pipeline stages idle while the pipeline fills and drains: a bubble of
    // (p − 1)/m of the step's work with m micro-batches per step
    // (Narayanan et al. 2021, §2.2), so a small batch per replica on many
    // stages wastes most of it. The interleaved schedule gives each stage v
    // chunks of layers, which cuts the bubble v-fold for v times the
    // hand-overs (ibid., §2.2.2).
    let stages = f64::from(workload.pipeline_parallel.max(1));
    let chunks = virtual_stages(shape.layers, workload.pipeline_parallel);
    compute_s *= 1.0 + (stages - 1.0) / (chunks * micro_batches);
    // Tensor parallelism all-reduces the micro-batch's activations (tokens ×
    // hidden, 16-bit) twice per layer forward and twice backward, inside the
    // node, on the critical path (Shoeybi et al. 2019, Megatron-LM, §3,
    // Figure 4: the f and g operators); recomputing the forward repeats its
    // two (Korthikanti et al. 2022, §4). Each stage runs its own layers.
    let tp = f64::from(workload.tensor_parallel.max(1));
    let tp_s = if tp > 1.0 {
        let bytes = tokens_per_replica_step * hidden * 2.0;
        let per_layer = if workload.checkpointing { 6.0 } else { 4.0 };
        per_layer * f64::from(shape.layers) / stages * link(gpu).all_reduce(bytes, tp)
    } else {
        0.0
    };

    // QLoRA dequantizes the NF4 base to 16 bits for every matmul, forward,
    // backward and recompute: reading 0.5 B and writing and reading 2 B per
    // weight each time (bitsandbytes).
    // A routed MoE's micro-batch reaches most experts (`MicroBatchExperts`),
    // each dequantized whole.
    let dequant_s = if !full && workload.method == FinetuneMethod::Qlora {
        let passes = if workload.checkpointing { 3.0 } else { 2.0 };
        passes * experts.touched_params * 4.5 / bandwidth
    } else {
        0.0
    };

    // Data-parallel traffic per micro-batch step: DDP all-reduces the
    // gradients; ZeRO-1/2 reduce-scatters them and all-gathers the updated
    // parameters after the optimizer step; ZeRO-3 / FSDP also all-gathers
    // the parameters for the forward and again for the backward pass
    // (Rajbhandari et al. 2019, ZeRO, §7: 2Ψ, 2Ψ and 3Ψ per step).
    let trained = if full { params } else { crate::engine::memory::training::trainable_params(workload, model, shape) };
    let (param_bytes, grad_bytes) = data_parallel_bytes(workload.recipe);
    let shard = trained / model_parallel;
    let group = data_parallel_group(workload, placement, data_parallel);
    let (link, network) = (link(gpu), placement.network);
    let collective = |kind| {
        let bytes = shard * if kind == Collective::AllGather { param_bytes } else { grad_bytes };
        if data_parallel > 1.0 {
            across(kind, bytes, group, link, network)
        } else {
            0.0
        }
    };
    // Pipeline stages on different nodes hand over their activations, forward
    // and backward, over the fabric, each tensor-parallel rank its 1/tp
    // share (Megatron's scatter/gather, Narayanan et al. 2021, §4.1), once
    // per chunk. Megatron-core's interleaved schedule sends while it
    // computes (`overlap_p2p_comm`, on unless `--no-overlap-p2p-communication`
    // in `megatron/training/arguments.py`), so only what outlasts the
    // arithmetic shows. Older Megatron-LM waited for each send: MegaScale
    // (Jiang et al. 2024, §3.3) lists overlapping them among its changes,
    // and its Megatron-LM baseline and Megatron's 2021 runs are slower than
    // this estimate (the family's golden file).
    let handover_s = if placement.multi_node() && stages > 1.0 {
        let activations = tokens_per_replica_step * hidden * 2.0 / tp;
        let per_gpu = network.bytes_per_s() / f64::from(placement.gpus_per_node.max(1));
        let sends = 2.0
            * chunks
            * (stages - 1.0).min(f64::from(placement.nodes - 1))
            * (activations / per_gpu + network.kind.hop_latency_s());
        if chunks > 1.0 {
            (sends - compute_s).max(0.0)
        } else {
            sends
        }
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
    let forward_flops = 2.0 * params + attention * slowdown / 3.0;
    let forward_s = busy_s * forward_flops / hardware_flops.max(f64::MIN_POSITIVE);
    let backward_s = busy_s - forward_s;
    //
    // Under gradient accumulation DDP and ZeRO-1/2 reduce the gradients
    // once per optimizer step, during the last micro-batch's backward pass
    // (DDP's `no_sync`; DeepSpeed reduces at the accumulation boundary;
    // Megatron's distributed optimizer with `--overlap-grad-reduce`), so the
    // collectives are paid once for `micro_batches` micro-batches. ZeRO-3 /
    // FSDP gathers the sharded parameters again for every micro-batch's
    // forward and backward, and reduce-scatters each micro-batch's gradients
    // (FSDP without `no_sync`, which would hold unsharded gradients).
    let step_s = match workload.zero_stage {
        0 => micro_batches * busy_s + (collective(Collective::AllReduce) - backward_s).max(0.0),
        1 | 2 => {
            micro_batches * busy_s
                + (collective(Collective::ReduceScatter) - backward_s).max(0.0)
                + collective(Collective::AllGather)
        }
        _ => {
            let gather = collective(Collective::AllGather);
            micro_batches
                * (forward_s.max(gather)
                    + backward_s.max(gather + collective(Collective::ReduceScatter))
                    + gather / f64::from(shape.layers.max(1)))
        }
    };
    let tokens_per_s = micro_batches * tokens_per_replica_step * data_parallel / step_s;
    let waiting_s = step_s - micro_batches * busy_s;
    let interconnect = waiting_s > WAITING_SHARE * step_s || tp_s > compute_s;
    if !network.known && placement.multi_node() {
        notes.push(msg!(phrases::NOTE_FABRIC_ASSUMED, gbps = Arg::Num(network.gbps, 0)));
    }
    let figures = Figures::Training(TrainingSpeed {
        train_tokens_per_s: tokens_per_s,
        mfu: tokens_per_s / gpus * model_flops / peak,
        global_batch_sequences: micro_batches * f64::from(workload.micro_batch.max(1)) * data_parallel,
        micro_batches_per_step: micro_batches,
        global_batch_tokens: micro_batches * tokens_per_replica_step * data_parallel,
    });
    let bound = if interconnect { Bound::Interconnect } else { Bound::Compute };
    Ok(Speed::of(bound, compute, figures, notes))
}

/// Bytes per value of the (parameters gathered, gradients reduced) across
/// data-parallel ranks. Parameters travel in BF16. Mixed precision reduces
/// the gradients in FP32: Megatron-LM forces it for BF16 ("bfloat16
/// requires gradient accumulation and all-reduce to be done in fp32",
/// `accumulate_allreduce_grads_in_fp32` in `megatron/training/arguments.py`,
/// unless `--grad-reduce-in-bf16`); torchtitan's FSDP2 policy defaults to
/// `mixed_precision_reduce = "float32"`; PyTorch DDP under autocast
/// all-reduces the FP32 parameters' FP32 gradients. Pure BF16 (torchtune)
/// keeps them in BF16.
fn data_parallel_bytes(recipe: TrainingRecipe) -> (f64, f64) {
    match recipe {
        TrainingRecipe::Mixed => (2.0, 4.0),
        TrainingRecipe::PureBf16 => (2.0, 2.0),
    }
}

/// Layers per chunk of Megatron's interleaved pipeline schedule: NeMo's
/// recipes choose the virtual stages so each chunk holds one to four layers
/// (Llama 2 70B PP 4 × VP 20 and Llama 2 13B PP 4 × VP 10: one; GPT-3 175B
/// PP 8 × VP 6 and Llama 3.1 405B PP 8 × VP 8: two; Llama 3 70B PP 4 × VP
/// 5: four; NeMo 24.07 and Megatron-Bridge 25.11 performance summaries).
const LAYERS_PER_CHUNK: f64 = 2.0;

/// Chunks of layers (virtual stages) each of `stages` pipeline stages runs
/// under the interleaved schedule; 1 without pipeline parallelism.
fn virtual_stages(layers: u32, stages: u32) -> f64 {
    if stages <= 1 {
        return 1.0;
    }
    (f64::from(layers) / (f64::from(stages) * LAYERS_PER_CHUNK)).floor().max(1.0)
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

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests;
