//! LLM serving speed: prefill is compute-bound, decode streams weights and
//! the KV cache through memory until the batch is large enough for the
//! arithmetic to take over (the roofline), and tensor parallelism adds two
//! all-reduces per layer. A group whose GPUs cannot split the attention
//! heads evenly runs as pipeline stages instead (`Runtime::split`).

use super::{bandwidth_of, peak_of, Bound, Figures, ServingSpeed, Speed};
use crate::engine::catalog::{Architecture, RoutedExperts, Shape};
use crate::engine::fabric::{Network, Placement};
use crate::engine::hardware::{
    compute_precision, fp16_accumulate_peak, has_int8_mma, has_matrix_units, link, sm_cycles_per_s, ComputePrecision,
    Link,
};
use crate::engine::memory::{weights_bytes, Fit};
use crate::engine::{Error, Gpu, Model, Precision, Runtime, Workload};
use crate::msg;
use crate::text::{phrases, Arg};

/// How a serving runtime turns peak figures into achieved ones. Calibrated
/// on calibration/llm_decode.csv (llama.cpp, 10 GPUs) and llm_serving.csv
/// (TensorRT-LLM on H100); see speed/tests.rs for the per-case errors.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RuntimeSpeed {
    /// Share of peak memory bandwidth reached streaming 16- and 8-bit weights.
    pub weight_bandwidth: f64,
    /// The same for formats dequantized block by block inside the kernel
    /// (GGUF k-quants, 4- to 6-bit formats): the unpacking costs time.
    pub packed_weight_bandwidth: f64,
    /// Share of peak bandwidth reached reading the KV cache in attention.
    pub kv_bandwidth: f64,
    /// Scale on the shares above for HBM cards, whose bandwidth per SM is
    /// about twice GDDR cards': kernels that keep few loads in flight per SM
    /// cannot saturate it.
    pub hbm_scale: f64,
    /// Scale on the weight shares above for quantized formats (4-bit
    /// packed, 8-bit integer, FP8) on NVIDIA's HBM cards, where the
    /// runtime's kernels reach a smaller share of the bandwidth at one token
    /// than its 16-bit GEMMs do (`MARLIN_HBM_SHARE`); 1 where they do not.
    pub quantized_hbm_scale: QuantizedShares,
    /// Share of peak tensor throughput in prefill and large batches.
    pub compute: f64,
    /// Attention's arithmetic relative to the GEMMs': 1 where its kernels
    /// run as fast as the GEMMs (FlashAttention, or plain GEMMs on the
    /// scores); lower for slower kernels.
    pub attention: f64,
    /// Bytes moved per attention score in prefill where the runtime writes
    /// the score matrix to memory and reads it back (0 when fused, as in
    /// FlashAttention, where "the scores never leave the chip").
    pub score_bytes: f64,
    /// GEMMs on F16 data accumulate in FP16 (llama.cpp's cuBLAS calls), which
    /// GeForce cards run at twice their FP32-accumulate rate.
    pub fp16_accumulate: bool,
    /// Tokens per batch handed to the GPUs at once, for llama.cpp's
    /// pipelined prompt processing across layer-split GPUs (`n_batch` 2048,
    /// split into `n_ubatch` passes).
    pub batch_tokens: f64,
    /// Fixed time per dense layer per forward pass (kernel launches, small
    /// ops); a mixture-of-experts layer runs `MOE_EXTRA_KERNELS` kernels more.
    pub per_layer_s: f64,
    /// Host time per decode step: scheduling the batch, preparing its
    /// inputs, sampling and handing the tokens back.
    pub step_s: f64,
    /// The host prepares step n + 1 while the GPU runs step n, so a step
    /// takes the longer of `step_s` and the GPU's time, not their sum
    /// (vLLM's async scheduling; TensorRT-LLM's overlap scheduler).
    pub step_overlapped: bool,
    /// Eager PyTorch: the host dispatches each layer's ops one by one
    /// (`per_layer_s` of Python and dispatcher time) while the GPU runs the
    /// ones already queued, so a pass takes the longer of the two, not their
    /// sum; with CUDA graphs the launches are replayed and only the GPU's
    /// own per-kernel floor remains (`per_layer_s`, added).
    pub host_dispatch: bool,
    /// Host dispatch per layer with quantized weights relative to 16-bit
    /// ones, for formats whose linear module wraps its kernel in Python ops
    /// of its own (unpacking, reshapes, the kernel call around the matmul;
    /// `wraps_its_kernel`).
    pub packed_dispatch: f64,
    /// Passes over the KV cache per decode step: 1 to read it; HF
    /// transformers' `DynamicCache.update` appends with `torch.cat`, which
    /// writes a new copy of each layer's whole cache every step (a read and
    /// a write more).
    pub kv_passes: f64,
    /// Attention copies the cache's KV heads once per query head that
    /// shares them before attending (HF transformers before 4.48:
    /// `repeat_kv` in its SDPA attention and Qwen2's FlashAttention-2
    /// path, removed when the attention refactor passed the cache to the
    /// kernels as it is): with n query heads per KV head, a decode step
    /// reads the cache once more, writes n copies and reads those instead.
    pub repeats_kv_heads: bool,
    /// Multi-GPU splits the layers over the GPUs, run one after another,
    /// rather than tensor parallelism (`Runtime::splits_by_layer`).
    pub layer_split: bool,
    /// FP32 ALU FLOPs per weight of a packed format (GGUF k-quants) where
    /// the decode kernels dequantize to floats on the vector ALUs:
    /// llama.cpp's Metal backend (`kernel_mul_mv_q4_K_f32`). Its CUDA kernels
    /// multiply integers four at a time (`__dp4a` on Q8_1-quantized
    /// activations), cheap enough to hide under the memory traffic.
    pub vector_dequant_flops: f64,
    /// Operations per SM cycle of llama.cpp's MMQ kernels, which multiply
    /// quantized weights by int8-quantized activations in the tensor cores
    /// (`mul_mat_q`; used for every GGUF quantization on NVIDIA GPUs with
    /// int8 `mma`, Turing and newer, since llama.cpp PRs 7676 and 8075, June
    /// 2024: `ggml_cuda_should_use_mmq` returns true when
    /// `turing_mma_available`); 0 where a runtime has none.
    pub mmq_ops_per_sm_cycle: f64,
    /// Most sequences batched at once: vLLM's `max_num_seqs` (256),
    /// TensorRT-LLM's `max_batch_size` (2048), llama.cpp server's one slot
    /// per `--parallel` (default 1), HF transformers whatever is asked.
    pub max_batch: Option<u32>,
}

/// Scales on a runtime's weight shares for 4-bit packed, 8-bit integer
/// and FP8 weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuantizedShares {
    pub packed: f64,
    pub eight_bit: f64,
    pub fp8: f64,
}

const UNSCALED: QuantizedShares = QuantizedShares { packed: 1.0, eight_bit: 1.0, fp8: 1.0 };

/// vLLM's quantized GEMMs reading one token's weights from HBM, as a share
/// of what cuBLAS's 16-bit GEMM reaches on the same shape in the same run
/// (`data/calibration/marlin_gemv.csv`;
/// `marlins_share_on_hbm_is_what_the_kernel_tables_measured`). Marlin
/// (GPTQ, AWQ and weight-only INT8 on NVIDIA GPUs) was built around GDDR
/// cards' bandwidth per SM: on an A10 it runs level with FP16 (0.75 and
/// 0.77 of peak, vLLM PR 2497's layer table); on HBM, at one token, it
/// keeps too few loads in flight. 4-bit: 0.57, the middle of four runs on
/// HBM: an H100 with cold L2, Marlin 0.37 of peak against cuBLAS's 0.69
/// (inclusionAI/humming PR 2: 0.54); an A100, Marlin 0.27 against 0.71
/// timed from the host (PR 2497: 0.38); an H100, MLX's CUTLASS
/// mixed-input kernel 0.50 against 0.84 (ml-explore/mlx PR 3160: 0.60); an
/// A100, ONNX Runtime's int4 GEMV 0.46 under ncu against cuBLAS's 0.71
/// (0.65). 8-bit: 0.75, Marlin w8a16 in the H100 run (0.52 against 0.69).
/// FP8 weights with per-token FP8 activations (vLLM's FP8-Dynamic):
/// 0.82, CUTLASS's scaled GEMM with the activations' quantization against
/// BF16 at one token on an H100 (vLLM PR 49363: 0.71 against 0.86 of peak).
pub const MARLIN_HBM_SHARE: QuantizedShares = QuantizedShares { packed: 0.57, eight_bit: 0.75, fp8: 0.82 };

/// Kernels a decoder layer launches in a decode step: "around a hundred
/// separate kernels" for Llama-3.2-1B's 16 layers (Hazy Research, "Look
/// Ma, No Bubbles!", 2025-05-27): norms, the QKV, output and MLP GEMMs,
/// rotary, the cache write, attention, the activation.
const KERNELS_PER_LAYER: f64 = 6.0;

/// Kernels a routed mixture-of-experts MLP launches beyond a dense MLP's
/// (vLLM `fused_moe`: the router GEMM, `topk_softmax`,
/// `moe_align_block_size` and `moe_sum` around the two grouped expert
/// GEMMs and the activation that replace the dense GEMMs).
const MOE_EXTRA_KERNELS: f64 = 4.0;

impl RuntimeSpeed {
    /// The (GPU, host) fixed seconds of `layers` passes through a layer,
    /// `moe_layers` of them with routed experts: the GPU's per-kernel cost,
    /// or the host's dispatch where it runs eagerly (`host_dispatch`).
    fn fixed_costs(&self, layers: f64, moe_layers: f64) -> (f64, f64) {
        let fixed = self.per_layer_s * (layers + moe_layers * MOE_EXTRA_KERNELS / KERNELS_PER_LAYER);
        if self.host_dispatch {
            (0.0, fixed)
        } else {
            (fixed, 0.0)
        }
    }

    /// Whether the host's work runs alongside the GPU's.
    const fn overlapped(&self) -> bool {
        self.host_dispatch || self.step_overlapped
    }
}

pub const fn runtime_speed(runtime: Runtime) -> RuntimeSpeed {
    match runtime {
        // llama.cpp (llama-bench, May 2024): mat-vec kernels reach ~90% of
        // bandwidth on F16 and ~75% on Q4_K_M; attention without FlashAttention
        // reads the cache at about a fifth of peak (tg8192 vs tg512 rows).
        Runtime::Llamacpp => RuntimeSpeed {
            weight_bandwidth: 0.90,
            packed_weight_bandwidth: 0.75,
            kv_bandwidth: 0.20,
            // On the A100 SXM (XDAI rows) llama.cpp decode reaches 33–50% of
            // peak against 60–90% on GDDR cards: its one-row-per-warp
            // mat-vec kernels keep too few bytes in flight for HBM.
            hbm_scale: 0.5,
            quantized_hbm_scale: UNSCALED,
            // llama-bench pp512 on F16 (RTX 3090 4,445 tok/s: 71 TFLOP/s of
            // its 142 FP16-accumulate peak; RTX A6000 and A40 ~45%); 0.48
            // once the score matrix's traffic below is counted, refitted on
            // all XDAI prompt-processing rows (issue 28: median |error|
            // 14.8% → 13% on 180 rows, 16 of them new M2 Ultra rows).
            compute: 0.48,
            // Without `-fa` (off by default in May 2024) llama.cpp computes
            // attention as plain GEMMs on the scores, materialised per
            // micro-batch of 512 tokens against the whole cache so far
            // (llama.cpp `llm_build_kqv`: `ggml_mul_mat(k, q)` to an F32 KQ,
            // `ggml_soft_max_ext` with the F16 mask to a new F32 tensor,
            // `ggml_mul_mat(v, kq)`, whose cuBLAS path first converts the F32
            // scores to F16): KQ written (4 B), read with the mask (4 + 2)
            // and written again (4) by the softmax, read (4) and written and
            // read as F16 (2 + 2) by the last GEMM: 22 bytes per score.
            attention: 1.0,
            score_bytes: 22.0,
            fp16_accumulate: true,
            batch_tokens: 2048.0,
            per_layer_s: 50e-6,
            step_s: 0.0,
            step_overlapped: false,
            host_dispatch: false,
            packed_dispatch: 1.0,
            kv_passes: 1.0,
            repeats_kv_heads: false,
            // XDAI tg rows on Q4_K_M: the M2 Ultra decodes Llama 3 70B at
            // 12.5 tok/s, 921 G weights/s where its 800 GB/s would stream
            // 1,380 G; the M1 Max 8B at 35.7 (304 G weights/s against 650).
            // Both are 27.2 and 10.4 TFLOP/s over about 30 FLOPs a weight,
            // and F16, which needs no unpacking, reaches 78–85% of either
            // chip's bandwidth.
            vector_dequant_flops: 30.0,
            // MMQ's prompt processing runs at about 500 operations per SM
            // cycle whatever the SM's tensor rate: a quarter of a GA102 or
            // AD102 SM's int8 `mma` peak (2,048: the RTX 3090's 284 TOPS over
            // 82 SMs at 1.695 GHz), and the same on GA100 and GH100, whose
            // tensor cores are 2–4 times faster per SM, as the kernel's
            // loading and unpacking of weight tiles sets the pace. Llama 2 7B
            // Q4_0 pp512 (discussion 15013, 2025 builds): 500 on the RTX
            // 4090, 502 on the 3090, 429 on the A100 80GB, 511 on the H100
            // SXM, 464 on the A30, median 500 over 15 boards; Llama 3 8B Q4_0
            // ub 512 on the RTX 4090 (PR 7676's MMQ column) 515; Qwen2.5 7B
            // Q4_K_M on the RTX 4080 (llama-bench's README, build 5163) 583.
            mmq_ops_per_sm_cycle: 500.0,
            layer_split: Runtime::Llamacpp.splits_by_layer(),
            max_batch: Some(1),
        },
        // vLLM with CUDA graphs, FlashAttention and Marlin kernels.
        Runtime::Vllm => RuntimeSpeed {
            weight_bandwidth: 0.85,
            packed_weight_bandwidth: 0.80,
            kv_bandwidth: 0.75,
            hbm_scale: 1.0,
            quantized_hbm_scale: MARLIN_HBM_SHARE,
            compute: 0.60,
            attention: 1.0,
            score_bytes: 0.0,
            fp16_accumulate: false,
            batch_tokens: 0.0,
            // Llama-3.2-1B decoding one sequence on an H100 (Hazy Research,
            // "Look Ma, No Bubbles!", 2025-05-27): a megakernel with no
            // kernel boundaries streams its 2.47 GB at 78% of the 3.35 TB/s
            // (0.95 ms a token) and SGLang, whose overlap scheduler hides
            // the host, takes 1.5 times that, 1.42 ms: 0.55 ms more than the
            // weights at the share above, over 16 layers 34 µs a layer
            // (about 6 kernels of 5.7 µs).
            per_layer_s: 34e-6,
            // The same blog's vLLM (V1, May 2025, host and GPU in turn)
            // takes 2.5 times the megakernel, 2.36 ms: 0.95 ms more than
            // SGLang, the host's scheduling, input preparation and sampling.
            step_s: 0.95e-3,
            // Async scheduling, on by default since vLLM 0.14.0 (January
            // 2026: "overlaps engine core scheduling with GPU execution").
            step_overlapped: true,
            host_dispatch: false,
            packed_dispatch: 1.0,
            kv_passes: 1.0,
            repeats_kv_heads: false,
            vector_dequant_flops: 0.0,
            mmq_ops_per_sm_cycle: 0.0,
            layer_split: Runtime::Vllm.splits_by_layer(),
            max_batch: Some(256),
        },
        Runtime::Trtllm => RuntimeSpeed {
            weight_bandwidth: 0.88,
            packed_weight_bandwidth: 0.82,
            kv_bandwidth: 0.80,
            hbm_scale: 1.0,
            quantized_hbm_scale: UNSCALED,
            compute: 0.65,
            attention: 1.0,
            score_bytes: 0.0,
            fp16_accumulate: false,
            batch_tokens: 0.0,
            per_layer_s: 10e-6,
            // The C++ executor's overlap scheduler prepares step n + 1 while
            // the GPU runs step n (TensorRT-LLM docs, "Overlap Scheduler").
            step_s: 0.0,
            step_overlapped: true,
            host_dispatch: false,
            packed_dispatch: 1.0,
            kv_passes: 1.0,
            repeats_kv_heads: false,
            vector_dequant_flops: 0.0,
            mmq_ops_per_sm_cycle: 0.0,
            layer_split: Runtime::Trtllm.splits_by_layer(),
            max_batch: Some(2048),
        },
        // HF transformers `generate` in eager PyTorch: Python dispatch per op
        // dominates small batches. Decoding one sequence takes about 0.75 ms
        // a layer whatever the model's size until the weights take longer
        // to stream: Qwen2.5 0.5B–14B on an A100 at 21–40 ms a token for
        // 24–48 layers (Qwen2.5 speed benchmark, transformers 4.46),
        // Llama 3.1 8B and Qwen2.5 32B on an H100 at 0.76–0.79 ms a layer
        // (bitsandbytes' benchmarks), Llama 2 13B on an A100 at 0.76 ms
        // (optimum's GPTQ benchmark).
        Runtime::Hf => RuntimeSpeed {
            weight_bandwidth: 0.75,
            packed_weight_bandwidth: 0.50,
            kv_bandwidth: 0.50,
            hbm_scale: 1.0,
            quantized_hbm_scale: UNSCALED,
            compute: 0.50,
            attention: 0.5,
            score_bytes: 0.0,
            fp16_accumulate: false,
            batch_tokens: 0.0,
            per_layer_s: 750e-6,
            step_s: 0.0,
            step_overlapped: false,
            host_dispatch: true,
            // AWQ and GPTQ-Int8 modules take 1.27–1.35 times BF16's 0.88 ms a
            // layer (Qwen2.5 0.5B on an A100, transformers 4.46), bitsandbytes'
            // NF4 1.35 times on an H100 (1.03 against 0.76 ms, Llama 3.1 8B);
            // GPTQ-Int4 through the ExLlama kernels about the same as BF16
            // (`wraps_its_kernel`).
            packed_dispatch: 1.3,
            kv_passes: 3.0,
            repeats_kv_heads: false,
            vector_dequant_flops: 0.0,
            mmq_ops_per_sm_cycle: 0.0,
            layer_split: Runtime::Hf.splits_by_layer(),
            max_batch: None,
        },
    }
}

/// Share of the FP32 ALU peak GEMMs reach on GPUs without matrix units,
/// whatever the runtime: register-blocked FMA kernels keep the vector ALUs
/// busier than tensor-core kernels keep tensor cores fed. llama.cpp's Metal
/// prompt processing on F16 weights reaches 0.7–0.8 of it (XDAI pp512:
/// M1 Max 517 tok/s on Llama 3 8B = 8.3 of 10.4 TFLOP/s; M2 Ultra 147.6
/// tok/s on 70B = 20.7 of 27.2).
const VECTOR_GEMM_SHARE: f64 = 0.75;

/// FP8 GEMMs gain less than the doubled peak over BF16: "a 1.75x speedup
/// for large matmuls and at least a 1.25x speedup for most other cases
/// compared to the BF16 baseline" (NVIDIA, "Boosting Matrix Multiplication
/// Speed and Flexibility with NVIDIA cuBLAS 12.9", channel- and
/// block-scaled FP8 on Hopper). Prompt passes of thousands of tokens are
/// the large case; a decode step's GEMMs, a few hundred rows at most, the
/// others. Shares of the FP8 peak (twice BF16's).
pub const FP8_LARGE_GEMM_SHARE: f64 = 1.75 / 2.0;
const FP8_SMALL_GEMM_SHARE: f64 = 1.25 / 2.0;

/// The share of the FP8 peak a GEMM of `rows` rows (tokens) reaches: the
/// small case up to 256 rows (two of Hopper's 128-row tiles), the large from
/// 2,048 (a prompt pass), between them by the logarithm of the rows.
fn fp8_gemm_share(rows: f64) -> f64 {
    let t = ((rows.max(1.0) / 256.0).log2() / 3.0).clamp(0.0, 1.0);
    FP8_SMALL_GEMM_SHARE + t * (FP8_LARGE_GEMM_SHARE - FP8_SMALL_GEMM_SHARE)
}

/// The share of peak bandwidth `r`'s GEMMs reach streaming weights of
/// `precision`, on an NVIDIA HBM card or not: 16-bit weights at
/// `weight_bandwidth`, packed ones at `packed_weight_bandwidth`, and on HBM
/// packed, 8-bit and FP8 ones scaled by `quantized_hbm_scale`.
fn weight_share(r: &RuntimeSpeed, precision: Precision, hbm: bool) -> f64 {
    let scale = |kind: fn(&QuantizedShares) -> f64| if hbm { kind(&r.quantized_hbm_scale) } else { 1.0 };
    match (packed_bytes(precision), precision) {
        (Some(_), _) => r.packed_weight_bandwidth * scale(|s| s.packed),
        (None, Precision::Int8) => r.weight_bandwidth * scale(|s| s.eight_bit),
        (None, Precision::Fp8) => r.weight_bandwidth * scale(|s| s.fp8),
        (None, _) => r.weight_bandwidth,
    }
}

/// Whether a format's linear module wraps its kernel in Python ops of its
/// own, which eager PyTorch dispatches one by one (HF transformers):
/// AutoAWQ's `WQLinear_GEMM`, bitsandbytes' `Linear4bit` and 8-bit weights
/// (GPTQ-Int8 through auto-gptq's CUDA `QuantLinear`, as ExLlama's kernels
/// take 4-bit weights only) do; GPTQ-Int4 through ExLlama v2 is one call,
/// as fast as a 16-bit layer in Qwen2.5's benchmark (GPTQ-Int4 at 1.07
/// times BF16's speed for the 0.5B model on an A100 against AWQ's 0.78 and
/// GPTQ-Int8's 0.74; `data/calibration/llm_batch1.csv`, QWEN25-SPEED).
fn wraps_its_kernel(precision: Precision) -> bool {
    match precision {
        Precision::Gptq => false,
        Precision::Int8 => true,
        other => packed_bytes(other).is_some(),
    }
}

/// Formats whose kernels unpack blocks of packed integers: their bytes per
/// weight.
fn packed_bytes(precision: Precision) -> Option<f64> {
    let bits = precision.bits_per_weight();
    (bits < 15.9 && !matches!(precision, Precision::Fp8 | Precision::Fp4 | Precision::Mxfp4 | Precision::Int8))
        .then_some(bits / 8.0)
}

/// The model's numbers the speed model needs.
struct Anatomy {
    layers: f64,
    hidden: f64,
    /// Query width (heads × head_dim), for attention FLOPs.
    q_width: f64,
    active_params: f64,
    /// Bytes of weights every step reads whatever the batch (attention,
    /// dense layers, LM head), and of all routed experts.
    dense_bytes: f64,
    expert_bytes: f64,
    routed: Option<RoutedExperts>,
    /// Layers whose MLP is a routed mixture of experts.
    moe_layers: f64,
    /// Bytes per weight at the weights' precision.
    bytes_per_param: f64,
    /// KV bytes per token of context, all layers, at the cache precision.
    kv_bytes_per_token: f64,
    /// Recurrent state per sequence of state-space layers (16-bit).
    state_bytes: f64,
    /// KV heads split across this many tensor-parallel ranks at most.
    kv_heads: f64,
    /// Attention (query) heads, which tensor parallelism splits evenly.
    heads: u32,
}

fn anatomy(workload: &Workload, model: &Model, shape: &Shape) -> Anatomy {
    let total_bytes = weights_bytes(model, workload.weight_precision);
    let bytes_per_param = total_bytes / model.params;
    // The input embedding table is looked up, not streamed.
    let embedding_bytes = f64::from(shape.vocab.unwrap_or(0)) * f64::from(shape.hidden) * 2.0;
    let streamed = if shape.tie_embeddings { total_bytes } else { (total_bytes - embedding_bytes).max(0.0) };
    let active = model.active_params.unwrap_or(model.params);
    let routed = model.routed_experts(shape);
    let expert_bytes = routed.map_or(0.0, |r| r.params) * bytes_per_param;
    Anatomy {
        layers: f64::from(shape.layers),
        hidden: f64::from(shape.hidden),
        q_width: f64::from(shape.heads * shape.head_dim),
        active_params: active,
        dense_bytes: (streamed - expert_bytes).max(0.0),
        expert_bytes,
        routed,
        moe_layers: if routed.is_some() { f64::from(shape.layers) } else { 0.0 },
        bytes_per_param,
        kv_bytes_per_token: shape.kv_bytes_per_token_16bit * workload.kv_precision.bytes() / 2.0,
        state_bytes: shape.state_bytes_per_sequence_16bit.unwrap_or(0.0),
        kv_heads: f64::from(shape.kv_heads.max(1)),
        heads: shape.heads.max(1),
    }
}

/// The hardware side: what one GPU does per second, the link, and how the
/// group's GPUs share the model: `tp` GPUs split every layer in each of
/// `stages` pipeline stages (`Runtime::split`).
struct Machine {
    bandwidth: f64,
    /// Share of `bandwidth` the runtime's GEMMs reach streaming the
    /// weights in their format (`RuntimeSpeed::weight_bandwidth` and kin).
    weight_share: f64,
    /// Host dispatch per layer relative to 16-bit weights' in this format
    /// (`RuntimeSpeed::packed_dispatch`, `wraps_its_kernel`).
    dispatch: f64,
    /// Passes over the KV cache per decode step: the runtime's
    /// (`RuntimeSpeed::kv_passes`), and twice the query heads per KV head
    /// more where it repeats the KV heads (`RuntimeSpeed::repeats_kv_heads`).
    kv_passes: f64,
    flops: f64,
    /// Share of `flops` the runtime's GEMMs reach on this GPU.
    compute_share: f64,
    /// FP8 arithmetic, whose skinny GEMMs gain less (`fp8_gemm_share`).
    fp8: bool,
    /// FP32 FLOP/s of the vector ALUs where packed weights are unpacked to
    /// floats there while decoding (Apple GPUs, Metal), else `None`.
    dequant_flops: Option<f64>,
    /// FLOP/s of the runtime's GEMMs on quantized weights where they run in
    /// int8 without unpacking to 16 bits first (llama.cpp's MMQ), else `None`.
    quantized_gemm_flops: Option<f64>,
    link: Link,
    tp: f64,
    stages: f64,
    /// Stage boundaries that cross between nodes, and the network there.
    node_boundaries: f64,
    network: Network,
}

/// Where the seconds of one pass go. Within a kernel, memory traffic and
/// arithmetic overlap (the longer one counts); kernels run one after
/// another, so a pass is the sum over its kernels' phases; the exchange
/// between GPUs and each kernel's fixed cost come on top. The host's work
/// (dispatching the ops, scheduling the step) either waits for the GPU and
/// adds to it, or runs ahead of it, and then counts only where it is the
/// longer of the two.
#[derive(Debug, Clone, Copy, PartialEq)]
struct PassTime {
    /// All memory time and all arithmetic time of the pass.
    memory: f64,
    compute: f64,
    /// The kernels' time: the sum of each phase's longer side.
    kernels: f64,
    interconnect: f64,
    /// The GPU's fixed cost per kernel, whatever its work (each kernel's
    /// start and drain), summed over the pass.
    launches: f64,
    /// The host's time for the pass.
    host: f64,
    /// Whether the host's work overlaps the GPU's
    /// (`RuntimeSpeed::host_dispatch`, `RuntimeSpeed::step_overlapped`).
    overlapped: bool,
}

impl PassTime {
    /// A pass of kernel phases, each (memory seconds, arithmetic seconds).
    fn of_phases(phases: &[(f64, f64)], interconnect: f64, launches: f64, host: f64, overlapped: bool) -> PassTime {
        let sum = |side: fn(&(f64, f64)) -> f64| phases.iter().map(side).sum::<f64>();
        PassTime {
            memory: sum(|p| p.0),
            compute: sum(|p| p.1),
            kernels: phases.iter().map(|(memory, compute)| memory.max(*compute)).sum(),
            interconnect,
            launches,
            host,
            overlapped,
        }
    }

    /// The GPU's own time for the pass.
    fn gpu(self) -> f64 {
        self.kernels + self.interconnect + self.launches
    }

    fn total(self) -> f64 {
        if self.overlapped {
            self.gpu().max(self.host)
        } else {
            self.gpu() + self.host
        }
    }

    /// The host, not the GPU, sets the pace.
    fn host_bound(self) -> bool {
        self.overlapped && self.host > self.gpu()
    }

    fn bound(self) -> Bound {
        if self.interconnect > self.kernels {
            Bound::Interconnect
        } else if self.compute > self.memory {
            Bound::Compute
        } else {
            Bound::Memory
        }
    }
}

/// Seconds for one decode step of `batch` sequences at `context` tokens each.
fn decode_step(a: &Anatomy, m: &Machine, r: &RuntimeSpeed, packed: Option<f64>, batch: f64, context: f64) -> PassTime {
    scheduler_step(a, m, r, packed, batch, context, Chunk::NONE)
}

/// Prompt tokens prefilled in a scheduler step beside the sequences it
/// decodes (chunked prefill: vLLM's `max_num_batched_tokens` budget per
/// step, TensorRT-LLM's `max_num_tokens`), from one prompt or several.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chunk {
    /// Prompt tokens in the step.
    pub tokens: f64,
    /// Token–context pairs their causal attention scores: a chunk of `t`
    /// tokens after `c` of its prompt already cached scores t × (c + t/2).
    pub pairs: f64,
    /// Cache tokens the chunks read or write: each prompt's cache so far
    /// and its chunk.
    pub cache: f64,
}

impl Chunk {
    pub const NONE: Chunk = Chunk { tokens: 0.0, pairs: 0.0, cache: 0.0 };

    /// `tokens` of a prompt after `cached` of it.
    pub fn of(tokens: f64, cached: f64) -> Chunk {
        Chunk { tokens, pairs: tokens * (cached + tokens / 2.0), cache: cached + tokens }
    }

    /// This and `other` in one step.
    pub fn and(self, other: Chunk) -> Chunk {
        Chunk { tokens: self.tokens + other.tokens, pairs: self.pairs + other.pairs, cache: self.cache + other.cache }
    }
}

/// Seconds for one scheduler step of continuous batching: `batch` sequences
/// each decode a token at `context` tokens, and `chunk` of a prompt is
/// prefilled in the same forward pass, whose GEMMs take every token of the
/// step at once (vLLM V1's unified batch of prefill and decode tokens,
/// TensorRT-LLM's in-flight batching), so the chunk shares the step's one
/// read of the weights.
fn scheduler_step(
    a: &Anatomy,
    m: &Machine,
    r: &RuntimeSpeed,
    packed: Option<f64>,
    batch: f64,
    context: f64,
    chunk: Chunk,
) -> PassTime {
    let tokens = batch + chunk.tokens;
    // Tensor parallelism splits weights, KV heads and arithmetic. llama.cpp's
    // layer split runs the GPUs one after another, so one step sees one
    // GPU's bandwidth for all. Pipeline stages (vLLM) work on different
    // micro-batches at once: they share the arithmetic and the cache, but
    // every micro-batch streams every stage's weights, so for the weights
    // a step sees the bandwidth of one stage's `tp` GPUs.
    // Fewer sequences than stages leave some stages idle.
    let busy = m.stages.min(tokens.max(1.0));
    let (weight_split, kv_split, compute_split) =
        if r.layer_split { (1.0, 1.0, 1.0) } else { (m.tp, m.tp.min(a.kv_heads) * busy, m.tp * busy) };
    // Experts touched by a batch: each of E is missed by all B tokens' k
    // picks with probability (1 − k/E)^B.
    let touched = a.routed.map_or(0.0, |r| r.touched_share(tokens));
    let weight_bytes = a.dense_bytes + a.expert_bytes * touched;
    // A state-space layer reads its state and writes it back every step.
    // A chunk reads the cache of its prompt so far once and writes its own.
    let chunk_kv = if chunk.tokens > 0.0 { chunk.cache * a.kv_bytes_per_token + 2.0 * a.state_bytes } else { 0.0 };
    let kv_bytes = batch * (context * a.kv_bytes_per_token * m.kv_passes + 2.0 * a.state_bytes) + chunk_kv;
    // Two kinds of kernels, run one after the other in every layer: the
    // GEMMs stream the weights and do 2 FLOPs per active parameter per
    // token, compute-bound once the batch is large; attention reads each
    // sequence's own cache and does QK and AV over the context (2 × 2 ×
    // q_width per layer per context token), so it stays memory-bound at any
    // batch ("the attention layers ... remain memory-bound" even at large
    // batch: Recasens et al. 2025, Mind the Memory Gap, arXiv:2503.08311).
    // A step is the sum of the two, not the larger of their totals.
    let skinny = if m.fp8 { fp8_gemm_share(tokens) / FP8_LARGE_GEMM_SHARE } else { 1.0 };
    let speed = m.flops * m.compute_share * skinny;
    // Unpacking each weight read, once per step whatever the batch.
    let unpack = match (packed, m.dequant_flops) {
        (Some(_), Some(alu)) => weight_bytes / a.bytes_per_param * r.vector_dequant_flops / weight_split / alu,
        _ => 0.0,
    };
    // A chunk's pass unpacks packed weights to 16 bits as a prompt's does
    // (`prefill_time`): read the packed weight, write and read back its copy.
    let chunk_unpack = match (packed, m.quantized_gemm_flops) {
        (Some(bytes), None) if chunk.tokens > 0.0 => a.active_params * (bytes + 4.0) / weight_split / m.bandwidth,
        _ => 0.0,
    };
    let gemms = (
        weight_bytes / weight_split / (m.bandwidth * m.weight_share),
        (tokens * 2.0 * a.active_params / compute_split / speed).max(unpack) + chunk_unpack,
    );
    // A chunk's causal attention: each of its tokens over its prompt so far.
    let chunk_attention = 4.0 * a.layers * a.q_width * chunk.pairs / r.attention;
    let attention = (
        kv_bytes / kv_split / (m.bandwidth * r.kv_bandwidth),
        (batch * 4.0 * a.layers * a.q_width * context + chunk_attention) / compute_split / speed,
    );
    let (launches, host) = r.fixed_costs(a.layers * m.dispatch, a.moe_layers);
    PassTime::of_phases(&[gemms, attention], exchange_time(a, m, tokens), launches, host + r.step_s, r.overlapped())
}

/// What the GPUs exchange for `tokens` × hidden 16-bit values: one
/// hand-over of the hidden state per stage boundary, and within a stage two
/// all-reduces per layer (after attention and after the MLP).
fn exchange_time(a: &Anatomy, m: &Machine, tokens: f64) -> f64 {
    let (tp, stages) = (m.tp, m.stages);
    let bytes = tokens * a.hidden * 2.0;
    // Boundaries inside a node hand over on the GPUs' link; those between
    // nodes over the fabric, one GPU's share of the node's network.
    let across = m.node_boundaries.min((stages - 1.0).max(0.0));
    let per_gpu = m.network.bytes_per_s() / m.tp.max(1.0);
    let handovers = if stages > 1.0 {
        (stages - 1.0 - across) * (m.link.latency + bytes / m.link.bandwidth)
            + across * (m.network.kind.hop_latency_s() + bytes / per_gpu.max(1.0))
    } else {
        0.0
    };
    let all_reduces = if tp > 1.0 { 2.0 * a.layers * m.link.all_reduce(bytes, tp) } else { 0.0 };
    handovers + all_reduces
}

/// Seconds to prefill one prompt of `prompt` tokens: compute-bound GEMMs
/// (2 × active parameters per token) and causal attention over the prompt
/// (2 × layers × q_width × prompt² FLOPs), but never faster than reading the
/// weights once per pass of `pass_tokens` tokens; packed formats also
/// unpack every weight to 16 bits once per pass.
/// `Prefill::Alone`: one prompt's time to its first token. `Prefill::Among`:
/// its share of the group's time among others being served, where vLLM's
/// pipeline stages each work on a different request at once.
fn prefill_time(
    a: &Anatomy,
    m: &Machine,
    r: &RuntimeSpeed,
    packed: Option<f64>,
    prompt: f64,
    pass_tokens: f64,
    prefill: Prefill,
) -> PassTime {
    let stages = m.stages;
    let split = if r.layer_split { 1.0 } else { m.tp };
    let gemm_flops = 2.0 * a.active_params * prompt;
    let attention_flops = 2.0 * a.layers * a.q_width * prompt * prompt;
    // Quantized weights multiplied in int8 where the runtime can (MMQ):
    // at that rate, and with no 16-bit copy of the weights to make.
    let int8_gemm = packed.and(m.quantized_gemm_flops);
    let gemm_s = match int8_gemm {
        Some(rate) => gemm_flops / split / rate,
        None => gemm_flops / split / (m.flops * m.compute_share),
    };
    let mut compute = gemm_s + attention_flops / r.attention / split / (m.flops * m.compute_share);
    let passes = (prompt / pass_tokens).ceil().max(1.0);
    // A materialised score matrix: each pass of `pass_tokens` scores its
    // tokens against the cache so far, a triangle of about prompt ×
    // (prompt + pass) / 2 scores per head and layer, moved through memory in
    // kernels of its own between the GEMMs.
    let scores = a.layers * f64::from(a.heads) * prompt * (prompt + pass_tokens.min(prompt)) / 2.0;
    compute += scores * r.score_bytes / split / m.bandwidth;
    let mut memory = passes * (a.dense_bytes + a.expert_bytes) / split / (m.bandwidth * m.weight_share);
    if let (Some(bytes_per_weight), None) = (packed, int8_gemm) {
        // Read the packed weight, write and read back its 16-bit copy.
        compute += passes * a.active_params * (bytes_per_weight + 4.0) / split / m.bandwidth;
    }
    if stages > 1.0 {
        // llama.cpp pipelines the passes of each `n_batch`: a batch of k
        // passes takes (k + n − 1) stage times of 1/n of a pass each.
        // vLLM's stages never work on two chunks of one prompt at once (a
        // prompt goes through every stage in turn), but each works on a
        // different request at the same time.
        let per_batch = (r.batch_tokens / pass_tokens).max(1.0);
        let batches = (passes / per_batch).ceil();
        let in_batch = passes.min(per_batch);
        let pipelined = match (r.layer_split, prefill) {
            (true, _) => batches * (in_batch + stages - 1.0) / stages / passes,
            (false, Prefill::Alone) => 1.0,
            (false, Prefill::Among) => 1.0 / stages,
        };
        compute *= pipelined;
        if !r.layer_split {
            memory *= pipelined;
        }
    }
    let interconnect = passes * exchange_time(a, m, pass_tokens.min(prompt));
    // Prefill's kernels are all compute-bound: one phase whose weight reads
    // hide under the arithmetic.
    let (launches, host) = r.fixed_costs(passes * a.layers, passes * a.moe_layers);
    PassTime::of_phases(&[(memory, compute)], interconnect, launches, host, r.overlapped())
}

/// Which prefill time `prefill_time` gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prefill {
    /// One prompt's, to its first token (TTFT).
    Alone,
    /// Its share of the group's time while others are served.
    Among,
}

/// One serving layout timed: a tensor-parallel (or layer-split) group of
/// GPUs running `running` sequences.
struct Timed {
    step: PassTime,
    step_s: f64,
    prefill_s: f64,
    running: u32,
    kv_capped: bool,
    output_tokens_per_s: f64,
}

/// Times one replica of `m`'s GPUs with `offered` requests, of which the
/// KV cache holds `kv_cap`.
fn time_replica(
    w: &Workload,
    a: &Anatomy,
    m: &Machine,
    r: &RuntimeSpeed,
    packed: Option<f64>,
    offered: u32,
    kv_cap: u32,
) -> Timed {
    // The concurrency actually running: what was offered, capped by the KV
    // cache that fits and by the runtime's batch limit.
    let running = offered.min(kv_cap).min(r.max_batch.unwrap_or(u32::MAX)).max(1);
    let batch = f64::from(running);
    // Decoding walks from the prompt to its end: the average context.
    let context = f64::from(w.input_tokens) + f64::from(w.output_tokens) / 2.0;
    let step = decode_step(a, m, r, packed, batch, context);
    let step_s = step.total();
    let pass_tokens =
        crate::engine::memory::runtime_memory(w.serving_runtime()).tokens_per_pass.unwrap_or(f64::from(w.input_tokens));
    let prompt = f64::from(w.input_tokens);
    let prefill_s = prefill_time(a, m, r, packed, prompt, pass_tokens, Prefill::Alone).total();
    // Steady state of continuous batching: each sequence's prompt is
    // prefilled once per `out` decode steps, so prefill takes its share of
    // the GPU time.
    let output = f64::from(w.output_tokens);
    // Only vLLM's stages serve others' prompts meanwhile.
    let pipelined = !r.layer_split && m.stages > 1.0;
    let prefill_share_s =
        if pipelined { prefill_time(a, m, r, packed, prompt, pass_tokens, Prefill::Among).total() } else { prefill_s };
    let cycle_s = output * step_s + batch * prefill_share_s;
    Timed {
        step,
        step_s,
        prefill_s,
        running,
        kv_capped: kv_cap < offered.min(r.max_batch.unwrap_or(u32::MAX)),
        output_tokens_per_s: batch * output / cycle_s,
    }
}

/// What timing a model's passes on one kind of GPU with one runtime's
/// kernels reads, whatever the group of GPUs: the model's anatomy, the
/// GPU's arithmetic at the weights' precision, and the shares of its
/// bandwidth the kernels reach.
struct PassTimer<'w> {
    r: RuntimeSpeed,
    workload: &'w Workload,
    gpu: &'w Gpu,
    a: Anatomy,
    compute: ComputePrecision,
    /// Peak FLOP/s at `compute`; without the figure decode is still timed
    /// by memory alone, and prefill is not estimated.
    flops: Result<f64, ()>,
    fp8: bool,
    hbm: bool,
    weight_share: f64,
    dispatch: f64,
    kv_passes: f64,
    packed: Option<f64>,
}

impl<'w> PassTimer<'w> {
    /// The timer, with what it could not find said in `notes`.
    fn new(
        r: &RuntimeSpeed,
        workload: &'w Workload,
        model: &Model,
        shape: &Shape,
        gpu: &'w Gpu,
        notes: &mut Vec<crate::text::Msg>,
    ) -> PassTimer<'w> {
        let compute = compute_precision(workload.weight_precision, gpu);
        let flops = peak_of(gpu, compute, notes).map(|peak| match (compute, r.fp16_accumulate) {
            (ComputePrecision::Fp16, true) => fp16_accumulate_peak(gpu, peak),
            (ComputePrecision::Fp8, _) => peak * FP8_LARGE_GEMM_SHARE,
            _ => peak,
        });
        let flops = flops.map_err(|e| notes.push(e.message()));
        let hbm = gpu.memory_type.as_deref().is_some_and(|t| t.starts_with("HBM"));
        let a = anatomy(workload, model, shape);
        let shared = f64::from(a.heads) / a.kv_heads;
        PassTimer {
            r: *r,
            workload,
            gpu,
            compute,
            flops,
            fp8: compute == ComputePrecision::Fp8,
            hbm,
            // The quantized kernels' shares were measured on NVIDIA's HBM
            // GPUs (Marlin and CUTLASS are CUDA kernels); other vendors' keep
            // the runtime's own.
            weight_share: weight_share(r, workload.weight_precision, hbm && gpu.vendor == "NVIDIA"),
            dispatch: if wraps_its_kernel(workload.weight_precision) { r.packed_dispatch } else { 1.0 },
            kv_passes: r.kv_passes + if r.repeats_kv_heads && shared > 1.0 { 2.0 * shared } else { 0.0 },
            packed: packed_bytes(workload.weight_precision),
            a,
        }
    }

    /// A group of `gpus` GPUs of `placement`: inside one node, or whole
    /// nodes of the cluster (stages across them).
    fn machine(&self, placement: Placement, gpus: u32) -> Result<Machine, Error> {
        let (r, gpu) = (&self.r, self.gpu);
        let within = placement.group(gpus);
        let split = self.workload.serving_runtime().split(within, self.a.heads);
        let flops = self.flops.ok();
        Ok(Machine {
            bandwidth: bandwidth_of(gpu)? * if self.hbm { r.hbm_scale } else { 1.0 },
            weight_share: self.weight_share,
            dispatch: self.dispatch,
            kv_passes: self.kv_passes,
            flops: flops.unwrap_or(f64::INFINITY),
            compute_share: if has_matrix_units(gpu) { r.compute } else { VECTOR_GEMM_SHARE },
            fp8: self.fp8,
            // llama.cpp runs on Apple GPUs through Metal, the only backend
            // here that unpacks k-quants to floats in its mat-vec kernels.
            dequant_flops: (gpu.architecture == Some(Architecture::AppleGpu) && r.vector_dequant_flops > 0.0)
                .then_some(flops)
                .flatten(),
            quantized_gemm_flops: (r.mmq_ops_per_sm_cycle > 0.0 && has_int8_mma(gpu))
                .then(|| sm_cycles_per_s(gpu).map(|cycles| cycles * r.mmq_ops_per_sm_cycle))
                .flatten(),
            link: link(gpu),
            tp: f64::from(split.tp),
            stages: f64::from(split.stages),
            node_boundaries: f64::from(within.nodes - 1),
            network: within.network,
        })
    }
}

/// Serving on `gpu_count` GPUs: every split into replicas of a tensor-
/// parallel group that holds the model is timed (8 GPUs as 8 replicas, 4 of
/// TP2, 2 of TP4 or 1 of TP8), and the one with the most output tokens/s
/// wins; data-parallel replicas multiply throughput and pay no all-reduce.
pub fn serving_speed(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    placement: Placement,
    fit: &Fit,
) -> Result<Speed, Error> {
    let r = runtime_speed(workload.serving_runtime());
    serving_speed_in(&r, workload, model, shape, gpu, placement, fit, Layouts::Best)
}

/// Which layouts of the GPUs to consider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layouts {
    /// All GPUs as one group (how a benchmark ran them).
    Whole,
    /// The best split into replicas.
    Best,
}

/// Serving with the runtime's kernels as `r` has them (`runtime_speed` for
/// today's build; the calibration passes an older one where a published
/// measurement ran it), over the `layouts` asked.
#[allow(clippy::too_many_arguments)]
pub fn serving_speed_in(
    r: &RuntimeSpeed,
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    placement: impl Into<Placement>,
    fit: &Fit,
    layouts: Layouts,
) -> Result<Speed, Error> {
    let (r, placement) = (*r, placement.into());
    let gpu_count = placement.total_gpus();
    let mut notes = Vec::new();
    let timer = PassTimer::new(&r, workload, model, shape, gpu, &mut notes);
    let (a, compute, flops) = (&timer.a, timer.compute, timer.flops);
    let machine = |gpus: u32| timer.machine(placement, gpus);
    let packed = timer.packed;
    let count = gpu_count.max(1);
    let offered = workload.concurrency;

    // The whole group as one replica always counts (a workload that does
    // not fit is still timed as one sequence; the ranking says why).
    let whole =
        time_replica(workload, a, &machine(count)?, &r, packed, offered, fit.max_concurrency.unwrap_or(offered).max(1));
    let mut best = (count, 1, whole);
    let smaller_groups = if layouts == Layouts::Best { 1..count } else { 0..0 };
    let node = placement.gpus_per_node.max(1);
    let placeable = |g: &u32| node.is_multiple_of(*g) || g.is_multiple_of(node);
    for group in smaller_groups.filter(|g| count.is_multiple_of(*g) && placeable(g)) {
        let sized = crate::engine::memory::fit(workload, model, gpu, placement.group(group))?;
        let kv_cap = sized.max_concurrency.unwrap_or(0);
        if kv_cap == 0 {
            continue;
        }
        // Requests spread over the replicas; with fewer requests than
        // replicas some stand idle.
        let busy = (count / group).min(offered);
        let timed = time_replica(workload, a, &machine(group)?, &r, packed, offered.div_ceil(busy), kv_cap);
        if f64::from(busy) * timed.output_tokens_per_s > f64::from(best.1) * best.2.output_tokens_per_s * 1.001 {
            best = (group, busy, timed);
        }
    }
    let (group, replicas, timed) = best;
    let m = machine(group)?;
    let stages = (!r.layer_split && m.stages > 1.0).then_some(m.stages as u32);
    if let Some(stages) = stages {
        if group > node {
            notes.push(msg!(phrases::NOTE_PIPELINE_NODES, nodes = group / node, tp = m.tp as u32, stages = stages));
            if !m.network.known {
                notes.push(msg!(phrases::NOTE_FABRIC_ASSUMED, gbps = Arg::Num(m.network.gbps, 0)));
            }
        } else {
            notes.push(msg!(phrases::NOTE_PIPELINE, heads = a.heads, group = group, stages = stages, tp = m.tp as u32));
        }
    }
    let running = (timed.running * replicas).min(offered.max(timed.running));
    if running < offered {
        notes.push(msg!(
            phrases::NOTE_QUEUE,
            running = running,
            offered = offered,
            why = if timed.kv_capped { &phrases::QUEUE_KV_FULL } else { &phrases::QUEUE_BATCH_LIMIT }
        ));
    }

    // Where the roofline turns: the smallest batch whose compute time
    // reaches its memory time.
    let context = f64::from(workload.input_tokens) + f64::from(workload.output_tokens) / 2.0;
    let roofline = (0..=16)
        .map(|power| 2f64.powi(power))
        .find(|&b| {
            let step = decode_step(a, &m, &r, packed, b, context);
            step.compute >= step.memory
        })
        .map(|b| b as u32);
    if roofline.is_none() {
        notes.push(msg!(phrases::NOTE_DECODE_MEMORY_BOUND, context = Arg::Num(context, 0)));
    }
    if timed.step.host_bound() {
        let runtime = workload.serving_runtime().label();
        notes.push(if r.host_dispatch {
            msg!(phrases::NOTE_HOST_BOUND, runtime = runtime, ms = Arg::Num(r.per_layer_s * 1e3, 2))
        } else {
            msg!(phrases::NOTE_HOST_STEP_BOUND, runtime = runtime, ms = Arg::Num(r.step_s * 1e3, 2))
        });
    }
    let prompt = f64::from(workload.input_tokens);
    let prefilled = flops.is_ok();
    let serving = ServingSpeed {
        decode_tokens_per_s: 1.0 / timed.step_s,
        output_tokens_per_s: f64::from(replicas) * timed.output_tokens_per_s,
        running_concurrency: running,
        gpus_per_replica: group,
        replicas,
        pipeline_stages: stages,
        roofline_concurrency: roofline,
        prefill_tokens_per_s: prefilled.then_some(prompt / timed.prefill_s),
        ttft_s: prefilled.then_some(timed.prefill_s + timed.step_s),
    };
    Ok(Speed::of(timed.step.bound(), compute, Figures::Serving(serving), notes))
}

mod replica;
pub use replica::ReplicaSteps;

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(super) mod tests;
