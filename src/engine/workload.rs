//! The workload: what the user wants to run. One type serves the form, the
//! URL codec, the CLI and the JSON; its option enums carry their own
//! spellings (`Display`/`FromStr`), so no parallel string tables exist.

use super::fabric::Placement;
use super::options::choices;
use super::{KvPrecision, Precision, Task};
use crate::msg;
use crate::text::{phrases, Msg};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The model catalog id the page opens with.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

/// The model a task starts with when the current one cannot do it: the
/// usual first choice of each kind in models.csv.
pub const fn default_model(task: Task) -> &'static str {
    match task {
        Task::Infer | Task::Finetune | Task::Pretrain => DEFAULT_MODEL,
        Task::Image => "sdxl-base-1.0",
        Task::Video => "wan2.1-t2v-1.3b",
        Task::Audio => "whisper-large-v3",
        Task::Speech => "parler-tts-mini-v1",
        Task::Music => "musicgen-medium",
    }
}

choices! {
    /// The serving runtime asked for (URL key `runtime`): `auto`, the
    /// default, takes per GPU the first of `Runtime::preferred` that the
    /// support matrix says runs the workload there (`engine::setup`); a named
    /// runtime is honoured and rules out the hardware it does not run on.
    pub enum RuntimeChoice: phrases::OPTION_RUNTIME {
        Auto = "auto", phrases::RUNTIME_AUTO;
        Vllm = "vllm", phrases::RUNTIME_VLLM;
        Trtllm = "trtllm", phrases::RUNTIME_TRTLLM;
        Llamacpp = "llamacpp", phrases::RUNTIME_LLAMACPP;
        Hf = "hf", phrases::RUNTIME_HF;
    }
}

impl RuntimeChoice {
    /// The runtime named, or `None` for `auto`.
    pub const fn fixed(self) -> Option<Runtime> {
        match self {
            RuntimeChoice::Auto => None,
            RuntimeChoice::Vllm => Some(Runtime::Vllm),
            RuntimeChoice::Trtllm => Some(Runtime::Trtllm),
            RuntimeChoice::Llamacpp => Some(Runtime::Llamacpp),
            RuntimeChoice::Hf => Some(Runtime::Hf),
        }
    }
}

/// A serving stack that runs a model. Each reserves and uses memory its own
/// way (see `memory::RuntimeMemory`) and reaches its own share of the
/// hardware's peaks (`speed::llm::RuntimeSpeed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "String")]
pub enum Runtime {
    Vllm,
    Trtllm,
    Llamacpp,
    Hf,
}

impl From<Runtime> for String {
    fn from(runtime: Runtime) -> String {
        runtime.choice().key().to_string()
    }
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.choice().key())
    }
}

impl Runtime {
    pub const ALL: [Runtime; 4] = [Runtime::Vllm, Runtime::Trtllm, Runtime::Llamacpp, Runtime::Hf];

    /// The same runtime as a choice of the form and the link.
    pub const fn choice(self) -> RuntimeChoice {
        match self {
            Runtime::Vllm => RuntimeChoice::Vllm,
            Runtime::Trtllm => RuntimeChoice::Trtllm,
            Runtime::Llamacpp => RuntimeChoice::Llamacpp,
            Runtime::Hf => RuntimeChoice::Hf,
        }
    }

    /// What the page calls it.
    pub const fn label(self) -> &'static crate::text::Phrase {
        self.choice().label()
    }

    /// The runtimes `runtime=auto` tries for weights of `precision`, best
    /// first: GGUF files are llama.cpp's own format (vLLM's GGUF loader is
    /// experimental; transformers dequantizes them to 16 bits on load);
    /// everything else goes to vLLM first, the serving engine with the
    /// widest hardware support (NVIDIA, AMD, TPU, Neuron, Gaudi), then
    /// TensorRT-LLM, llama.cpp (Apple and other GPUs vLLM lacks) and plain
    /// transformers. The support matrix then rules out what cannot run.
    pub const fn preferred(precision: Precision) -> &'static [Runtime] {
        if precision.is_gguf() {
            &[Runtime::Llamacpp, Runtime::Vllm, Runtime::Hf]
        } else {
            &[Runtime::Vllm, Runtime::Trtllm, Runtime::Llamacpp, Runtime::Hf]
        }
    }

    /// Whether several GPUs hold whole layers each and run one after
    /// another: llama.cpp's `--split-mode layer` (its default), and
    /// transformers' `generate` on a model loaded with `device_map="auto"`
    /// (Accelerate's Big Model Inference). vLLM and TensorRT-LLM split each
    /// layer instead (tensor parallelism).
    pub const fn splits_by_layer(self) -> bool {
        matches!(self, Runtime::Llamacpp | Runtime::Hf)
    }

    /// How the GPUs of `placement` share one copy of a model with `heads`
    /// attention heads.
    /// - A layer split is all stages: `tp` 1, `stages` = the GPUs.
    /// - Tensor-parallel ranks must divide the heads (vLLM refuses
    ///   otherwise: "Total number of attention heads (64) must be divisible
    ///   by tensor parallel size (3)", `ModelConfig.
    ///   verify_with_parallel_config`; TensorRT-LLM splits heads alike), so
    ///   the ranks are the largest divisor of both and the rest of the GPUs
    ///   are stages (`--pipeline-parallel-size`): Llama 3.1 70B's 64 heads
    ///   on 3 GPUs run as 3 stages of 1, on 6 as 3 stages of TP2.
    /// - Tensor parallelism stays inside a node, where NVLink carries its
    ///   two all-reduces per layer; nodes are pipeline stages (vLLM's
    ///   multi-node serving: "tensor parallel size the number of GPUs in
    ///   each node, pipeline parallel size the number of nodes").
    pub fn split(self, placement: impl Into<Placement>, heads: u32) -> Split {
        let placement = placement.into();
        let gpus = placement.total_gpus();
        let node = placement.gpus_per_node.clamp(1, gpus);
        let tp = if self.splits_by_layer() {
            1
        } else {
            (1..=node).rev().find(|&t| node.is_multiple_of(t) && heads.max(1).is_multiple_of(t)).unwrap_or(1)
        };
        Split { tp, stages: gpus / tp }
    }

    /// Whether the runtime is a server that batches requests as they come
    /// (continuous batching): vLLM, TensorRT-LLM (in-flight batching) and
    /// llama.cpp's `llama-server` (one slot per `--parallel`, continuous
    /// batching on by default) are; transformers' `generate` runs the batch
    /// it is given.
    pub const fn serves_requests(self) -> bool {
        !matches!(self, Runtime::Hf)
    }

    /// Whether the runtime serves one model across several nodes: vLLM
    /// (Ray or multiprocessing across nodes, "Distributed inference and
    /// serving") and TensorRT-LLM (MPI across nodes) do; llama.cpp's RPC
    /// backend is marked experimental and transformers' `device_map`
    /// spreads a model over one machine's GPUs only.
    pub const fn serves_across_nodes(self) -> bool {
        matches!(self, Runtime::Vllm | Runtime::Trtllm)
    }
}

/// How a group of GPUs shares one copy of a model (`Runtime::split`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// GPUs splitting every layer (tensor parallelism).
    pub tp: u32,
    /// Pipeline stages, each holding a share of the layers.
    pub stages: u32,
}

choices! {
    /// How a model is fine-tuned (URL key `method`).
    pub enum FinetuneMethod: phrases::OPTION_METHOD {
        Full = "full", phrases::METHOD_FULL;
        Lora = "lora", phrases::METHOD_LORA;
        /// LoRA on a 4-bit NF4 base (Dettmers et al. 2023).
        Qlora = "qlora", phrases::METHOD_QLORA;
    }
}

choices! {
    /// The optimizer (URL key `opt`).
    pub enum Optimizer: phrases::OPTION_OPTIMIZER {
        Adamw = "adamw", phrases::OPTIMIZER_ADAMW;
        Adamw8bit = "adamw8bit", phrases::OPTIMIZER_ADAMW_8BIT;
        Sgd = "sgd", phrases::OPTIMIZER_SGD;
        Adafactor = "adafactor", phrases::OPTIMIZER_ADAFACTOR;
    }
}

choices! {
    /// How training keeps its weights and optimizer state (URL key
    /// `recipe`). Mixed precision computes in BF16 (FP16 with loss scaling
    /// where the GPU has no BF16) from FP32 master weights with FP32 Adam
    /// moments: the default of HF Trainer and Accelerate (`bf16=True` with
    /// FP32 parameters), DeepSpeed's BF16/FP16 optimizers, Megatron-LM
    /// (`--bf16`, FP32 `main_params`) and torchtitan's FSDP2
    /// `MixedPrecisionPolicy` (FP32 sharded parameters, BF16 compute).
    /// Pure BF16 keeps parameters, gradients and AdamW's moments in BF16:
    /// torchtune's recipes (`dtype: bf16`).
    #[derive(Default)]
    pub enum TrainingRecipe: phrases::OPTION_RECIPE {
        #[default]
        Mixed = "mixed", phrases::RECIPE_MIXED;
        PureBf16 = "bf16", phrases::RECIPE_PURE_BF16;
    }
}

choices! {
    /// What transcribes (URL key `asr`): faster-whisper (CTranslate2), the
    /// default, or the Hugging Face transformers ASR pipeline, which cuts
    /// the audio into 30-second chunks and batches them through an eager
    /// PyTorch model.
    #[derive(Default)]
    pub enum Transcriber: phrases::OPTION_TRANSCRIBER {
        #[default]
        FasterWhisper = "faster-whisper", phrases::TRANSCRIBER_FASTER_WHISPER;
        Transformers = "transformers", phrases::TRANSCRIBER_TRANSFORMERS;
    }
}

impl Transcriber {
    /// Beams per window when none is stated: `beam_size=5` in
    /// faster-whisper's `transcribe` and its batched pipeline (README and
    /// `transcribe.py`); greedy in transformers, whose Whisper generation
    /// configs set no `num_beams` (1).
    pub const fn default_beams(self) -> u32 {
        match self {
            Transcriber::FasterWhisper => 5,
            Transcriber::Transformers => 1,
        }
    }
}

choices! {
    /// How the loss is computed over the vocabulary (URL key `ce`): all logits
    /// at once in FP32 (HF transformers), or chunk by chunk (torchtune's chunked
    /// cross-entropy, Liger's fused kernel), which saves gigabytes at large
    /// vocabularies.
    pub enum CrossEntropy: phrases::OPTION_CROSS_ENTROPY {
        Full = "full", phrases::CE_FULL;
        Chunked = "chunked", phrases::CE_CHUNKED;
    }
}

choices! {
    /// How a diffusion pipeline's denoiser runs (URL key `compile`): eager
    /// PyTorch, diffusers' default, or `torch.compile` in mode
    /// "reduce-overhead", which replays each pass as a CUDA graph and fuses
    /// the element-wise kernels (diffusers' torch 2.0 optimization guide).
    #[derive(Default)]
    pub enum Compilation: phrases::OPTION_COMPILATION {
        #[default]
        Eager = "eager", phrases::COMPILATION_EAGER;
        Compiled = "compiled", phrases::COMPILATION_COMPILED;
    }
}

choices! {
    /// What a diffusion pipeline keeps off the GPU (URL key `offload`).
    pub enum Offload: phrases::OPTION_OFFLOAD {
        /// Every component stays on the GPU.
        None = "none", phrases::OFFLOAD_NONE;
        /// The text encoders run on the CPU (Wan's `--t5_cpu`), or are freed
        /// once the prompt is encoded.
        Text = "text", phrases::OFFLOAD_TEXT;
        /// Each component moves to the GPU only while it runs (diffusers'
        /// `enable_model_cpu_offload`, Wan's `--offload_model`).
        Model = "model", phrases::OFFLOAD_MODEL;
    }
}

/// An image or video frame size in pixels (URL key `res`, `1024x1024`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub struct Resolution {
    pub width: u32,
    pub height: u32,
}

/// Frame sides from 64 to 16,384 pixels.
pub const RESOLUTION_SIDE: (&str, u32, u32) = (super::keys::RESOLUTION, 64, 16_384);

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Resolution {
    type Err = Msg;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (_, min, max) = RESOLUTION_SIDE;
        let side = |s: &str| s.trim().parse::<u32>().ok().filter(|n| (min..=max).contains(n));
        match text.split_once(['x', 'X', '×']).map(|(w, h)| (side(w), side(h))) {
            Some((Some(width), Some(height))) => Ok(Resolution { width, height }),
            _ => Err(msg!(phrases::ERROR_RESOLUTION, given = text, min = min, max = max)),
        }
    }
}

impl From<Resolution> for String {
    fn from(resolution: Resolution) -> String {
        resolution.to_string()
    }
}

impl TryFrom<String> for Resolution {
    type Error = Msg;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

choices! {
    /// What the ranking puts first (URL key `obj`).
    pub enum Objective: phrases::OPTION_OBJECTIVE {
        /// The cheapest whole job (billed GPU time, storage and egress).
        Cost = "cost", phrases::OBJECTIVE_COST;
        /// The cheapest per unit of output ($/1M tokens, $/1000 images, …).
        Unit = "unit", phrases::OBJECTIVE_UNIT;
        /// The shortest job, or the most output per second.
        Fast = "fast", phrases::OBJECTIVE_FAST;
        /// Serving: the fastest tokens per second for each user.
        Latency = "latency", phrases::OBJECTIVE_LATENCY;
        /// Serving: the most memory bandwidth per dollar.
        Bandwidth = "bandwidth", phrases::OBJECTIVE_BANDWIDTH;
    }
}

impl Objective {
    /// Whether `task` can be ranked by it: latency per user and bandwidth
    /// per dollar are serving's questions (issue 40: training offered
    /// "Lowest latency per user").
    pub const fn suits(self, task: Task) -> bool {
        !matches!(self, Objective::Latency | Objective::Bandwidth) || matches!(task, Task::Infer)
    }

    /// The default for a task: serving is judged per token, every other job
    /// by what the whole of it costs.
    pub const fn for_task(task: Task) -> Objective {
        match task {
            Task::Infer => Objective::Unit,
            _ => Objective::Cost,
        }
    }
}

choices! {
    /// Whether spot (interruptible) capacity may be used (URL key `spot`).
    pub enum SpotPolicy: phrases::OPTION_SPOT {
        /// Where the work survives interruptions: batch generation, and
        /// training that checkpoints; never for an always-on endpoint.
        Auto = "auto", phrases::SPOT_AUTO;
        /// Also for serving: the user accepts interruptions.
        Yes = "yes", phrases::SPOT_YES;
        /// On-demand only.
        No = "no", phrases::SPOT_NO;
    }
}

choices! {
    /// Which kinds of catalog price to rank (URL key `prices`, issue 27).
    pub enum PriceFilter: phrases::OPTION_PRICES {
        /// Prices a job pays: list prices, resold and host-set marketplace
        /// prices (badged); auction floors are listed as left out.
        Payable = "payable", phrases::PRICES_PAYABLE;
        /// Also auction floors: what one bids from, not what one pays.
        All = "all", phrases::PRICES_ALL;
        /// Only prices one can check (issue 40): a provider's own list
        /// price with its billing rules published; marketplace listings,
        /// auction floors, prices far below every other provider's and
        /// totals that assume a rule are left out, each said why.
        Verified = "verified", phrases::PRICES_VERIFIED;
    }
}

choices! {
    /// Whether the rows whose price one can rely on rank before the others
    /// (URL key `rely`, issue 40): a host-set marketplace price, an auction
    /// floor, a price far below every other provider's or a total that
    /// assumes an unpublished billing rule may not be there, or not be what
    /// the job pays, when a long job needs it.
    pub enum PriceTrust: phrases::OPTION_PRICE_TRUST {
        /// For jobs over a day: where the top row's job takes more than 24
        /// hours.
        Auto = "auto", phrases::TRUST_AUTO;
        /// For every job.
        First = "first", phrases::TRUST_FIRST;
        /// Rows by the objective alone.
        Off = "off", phrases::TRUST_OFF;
    }
}

choices! {
    /// Which weight and KV-cache formats the serving planner may choose to
    /// meet latency targets (URL key `quant`, issue 39).
    pub enum Quantize: phrases::OPTION_QUANTIZE {
        /// The workload's own formats.
        Keep = "keep", phrases::QUANTIZE_KEEP;
        /// Also FP8 weights (quantized as the runtime loads them), INT4
        /// (AWQ) weights and an FP8 KV cache, where the runtime runs them
        /// on the GPU and they are smaller than the workload's own.
        Allow = "allow", phrases::QUANTIZE_ALLOW;
    }
}

impl Quantize {
    fn is_default(&self) -> bool {
        *self == Quantize::Keep
    }

    fn default_quantize() -> Quantize {
        Quantize::Keep
    }
}

impl PriceTrust {
    fn is_default(&self) -> bool {
        *self == PriceTrust::Auto
    }

    fn default_trust() -> PriceTrust {
        PriceTrust::Auto
    }
}

impl PriceFilter {
    /// Whether a provider whose prices are of `kind` is ranked.
    pub fn admits(self, kind: Option<super::PriceKind>) -> bool {
        match self {
            PriceFilter::All => true,
            PriceFilter::Payable => super::price_check::payable(kind),
            PriceFilter::Verified => matches!(kind, Some(super::PriceKind::Fixed | super::PriceKind::Reseller)),
        }
    }

    fn is_default(&self) -> bool {
        *self == PriceFilter::Payable
    }

    fn default_filter() -> PriceFilter {
        PriceFilter::Payable
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// URL key `task`.
    pub task: Task,
    /// `model_id` from the catalog. URL key `model`.
    pub model: String,
    /// Precision of the stored weights. URL key `wq`.
    pub weight_precision: Precision,
    /// Precision of the KV cache. URL key `kvq`.
    pub kv_precision: KvPrecision,
    /// URL key `runtime`.
    pub runtime: RuntimeChoice,
    /// Prompt tokens per request. URL key `in`.
    pub input_tokens: u32,
    /// Generated tokens per request. URL key `out`.
    pub output_tokens: u32,
    /// Requests served at once. URL key `conc`.
    pub concurrency: u32,
    /// Fine-tuning method. URL key `method`.
    pub method: FinetuneMethod,
    /// Training sequence length in tokens. URL key `seq`.
    pub seq_len: u32,
    /// Sequences per GPU per step. URL key `mbs`.
    pub micro_batch: u32,
    /// Sequences per optimizer step across all GPUs, the micro-batches
    /// accumulated; `None` for the task's default
    /// (`Workload::global_batch_sequences`). URL key `gbs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub global_batch: Option<u32>,
    /// LoRA rank. URL key `rank`.
    pub lora_rank: u32,
    /// URL key `opt`.
    pub optimizer: Optimizer,
    /// Activation (gradient) checkpointing. URL key `ckpt` (0/1).
    pub checkpointing: bool,
    /// ZeRO / FSDP sharding stage 0–3. URL key `zero`.
    pub zero_stage: u32,
    /// GPUs training together (data parallel). URL key `gpus`.
    pub gpus: u32,
    /// URL key `ce`.
    pub cross_entropy: CrossEntropy,
    /// How weights and optimizer state are kept. URL key `recipe`.
    #[serde(default)]
    pub recipe: TrainingRecipe,
    /// Tensor-parallel degree for training (Megatron-style). URL key `tp`.
    pub tensor_parallel: u32,
    /// Pipeline-parallel stages for training. URL key `pp`.
    pub pipeline_parallel: u32,
    /// Image or frame size; `None` for the model's own. URL key `res`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<Resolution>,
    /// Denoising steps; `None` for the model's default. URL key `steps`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u32>,
    /// Frames per clip; `None` for the model's default. URL key `frames`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<u32>,
    /// Images, clips or 30-second audio windows processed together per GPU.
    /// URL key `batch`.
    pub batch: u32,
    /// Images or clips the job makes. URL key `n`.
    pub items: u32,
    /// Hours of audio to transcribe, or of speech to generate. URL key
    /// `hours`.
    pub audio_hours: f64,
    /// Images per request of a vision-language model; `None` is one for a
    /// model with a vision tower (why one picks it), none otherwise. URL
    /// key `imgs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images: Option<u32>,
    /// The images' side in pixels (`vision::DEFAULT_IMAGE_SIDE` when
    /// unset). URL key `img_px`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_side: Option<u32>,
    /// Seconds per generated speech or music clip
    /// (`audio_model::default_clip_seconds` when unset). URL key `secs`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clip_seconds: Option<f64>,
    /// URL key `offload`.
    pub offload: Offload,
    /// Transcription: what runs it. URL key `asr`.
    #[serde(default)]
    pub transcriber: Transcriber,
    /// Transcription: beams per window; `None` for the transcriber's
    /// default. URL key `beams`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beams: Option<u32>,
    /// URL key `compile`.
    #[serde(default)]
    pub compilation: Compilation,
    /// Training tokens per epoch (the dataset). URL key `tokens`.
    pub training_tokens: f64,
    /// Passes over the dataset. URL key `epochs`.
    pub epochs: u32,
    /// What the ranking puts first; `None` for the task's default. URL key `obj`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<Objective>,
    /// URL key `spot`.
    pub spot: SpotPolicy,
    /// URL key `prices`.
    #[serde(default = "PriceFilter::default_filter", skip_serializing_if = "PriceFilter::is_default")]
    pub prices: PriceFilter,
    /// URL key `rely`.
    #[serde(default = "PriceTrust::default_trust", skip_serializing_if = "PriceTrust::is_default")]
    pub price_trust: PriceTrust,
    /// Minutes between training checkpoints, which bounds the work lost to
    /// a spot interruption. URL key `ckpt_every`.
    pub checkpoint_minutes: u32,
    /// Training: the share of a run's wall-clock time that trains, in
    /// percent, instead of the one modelled from failures and restarts
    /// (`cost::goodput`). URL key `goodput`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goodput_pct: Option<f64>,
    /// Serving: hours a day the endpoint is up. URL key `uptime`.
    pub uptime_hours: f64,
    /// Serving: requests a day the endpoint must answer; 0 when not stated.
    /// URL key `rpd`.
    pub requests_per_day: u32,
    /// Serving to latency targets (issue 39): the peak requests per second
    /// the endpoint must take while meeting them. URL key `rps`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_rps: Option<f64>,
    /// How far the busiest hour's rate is above the day's mean rate over
    /// the hours the endpoint is up: turns requests a day into a peak rate
    /// and a peak rate into requests a day. URL key `peakx`.
    #[serde(default = "default_peak_factor", skip_serializing_if = "is_default_peak_factor")]
    pub peak_factor: f64,
    /// The share of each prompt, in percent, that requests share and the
    /// runtime's prefix cache holds (a system prompt, a document asked
    /// about again): prefilled once, not per request. vLLM, TensorRT-LLM
    /// and llama.cpp's server keep such a cache by default
    /// (`data/launch_flags.md`). URL key `hit`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub prefix_hit_pct: u32,
    /// How much prompt and output lengths vary from request to request, as
    /// their coefficient of variation in percent (0: every request of the
    /// stated lengths; 100: as much as their mean, as chat traffic does).
    /// URL key `spread`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub length_spread_pct: u32,
    /// The time to first token every request must get, in seconds, at
    /// `latency_percentile`. URL key `ttft`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_target_s: Option<f64>,
    /// The inter-token latency, the gap between two consecutive tokens of a
    /// request, in seconds, at `latency_percentile`. URL key `itl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub itl_target_s: Option<f64>,
    /// The percentile the latency targets hold at (95: 95 of 100 requests'
    /// first tokens and token gaps within them). URL key `pct`.
    #[serde(default = "default_percentile", skip_serializing_if = "is_default_percentile")]
    pub latency_percentile: u32,
    /// The formats the planner may choose to meet the latency targets.
    /// URL key `quant`.
    #[serde(default = "Quantize::default_quantize", skip_serializing_if = "Quantize::is_default")]
    pub quantize: Quantize,
    /// Serving as a batch job instead of an endpoint: this many requests run
    /// once (a run; `runs_per_month` of them a month), as many at once as
    /// the runtime and the KV cache take, priced per 1,000 requests; 0 for
    /// an endpoint. URL key `reqs`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub batch_requests: u32,
    /// Batch jobs and training: runs a month (4 for a weekly job). URL key `runs`.
    pub runs_per_month: u32,
    /// Training: finish within this many days; the ranking then sizes each
    /// offer's cluster to the fewest nodes that meet it. URL key `days`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline_days: Option<f64>,
    /// Filters: provider ids, comma-separated (empty: all). URL key `provider`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub providers: String,
    /// Filters: text a region name must contain (empty: all). URL key `region`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub region: String,
    /// Filters: the most USD per hour for an instance. URL key `max_ph`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_price_per_hour: Option<f64>,
    /// Filters: the most GPUs per instance. URL key `max_gpus`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_gpus: Option<u32>,
    /// Filters: the GPU vendor, lower case (empty: all). URL key `vendor`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub vendor: String,
    /// Filters: GPU models, comma-separated and lower case; an offer's GPU id
    /// or name must contain one of them, so `h100` takes every H100 and
    /// `h100_sxm,a100` two kinds (empty: all). URL key `gpu`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub gpu_filter: String,
    /// A model given by its numbers instead of a catalog id (`model=custom`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<CustomModel>,
}

pub use super::custom_model::{
    CustomModel, ACTIVE_PARAMS, CONTEXT, CUSTOM_MODEL, EXPERTS, EXPERTS_PER_TOKEN, FFN, HEADS, HEAD_DIM, HIDDEN,
    KV_HEADS, KV_LAYERS, KV_LORA, LAYERS, NAME_CHARS, PARAMS, ROPE_DIM, SHARED_FFN, STATE_BYTES, VOCAB, WEIGHT_BYTES,
    WINDOW, WINDOW_LAYERS,
};

impl Default for Workload {
    fn default() -> Self {
        Workload {
            task: Task::Infer,
            model: DEFAULT_MODEL.to_string(),
            weight_precision: Precision::Bf16,
            kv_precision: KvPrecision::Bf16,
            runtime: RuntimeChoice::Auto,
            input_tokens: 2048,
            output_tokens: 512,
            concurrency: 1,
            method: FinetuneMethod::Lora,
            seq_len: 2048,
            micro_batch: 2,
            global_batch: None,
            lora_rank: 16,
            optimizer: Optimizer::Adamw,
            checkpointing: true,
            zero_stage: 0,
            gpus: 1,
            cross_entropy: CrossEntropy::Full,
            recipe: TrainingRecipe::Mixed,
            tensor_parallel: 1,
            pipeline_parallel: 1,
            resolution: None,
            steps: None,
            frames: None,
            batch: 1,
            items: 1000,
            audio_hours: 100.0,
            images: None,
            image_side: None,
            clip_seconds: None,
            offload: Offload::None,
            transcriber: Transcriber::FasterWhisper,
            beams: None,
            compilation: Compilation::Eager,
            training_tokens: 1e8,
            epochs: 1,
            objective: None,
            spot: SpotPolicy::Auto,
            prices: PriceFilter::Payable,
            price_trust: PriceTrust::Auto,
            checkpoint_minutes: 30,
            goodput_pct: None,
            uptime_hours: 24.0,
            requests_per_day: 0,
            peak_rps: None,
            peak_factor: DEFAULT_PEAK_FACTOR,
            prefix_hit_pct: 0,
            length_spread_pct: 0,
            ttft_target_s: None,
            itl_target_s: None,
            latency_percentile: DEFAULT_PERCENTILE,
            quantize: Quantize::Keep,
            batch_requests: 0,
            runs_per_month: 1,
            deadline_days: None,
            providers: String::new(),
            region: String::new(),
            max_price_per_hour: None,
            max_gpus: None,
            vendor: String::new(),
            gpu_filter: String::new(),
            custom: None,
        }
    }
}

/// Bounds of the numeric fields, as (URL key, min, max). The maxima are far
/// past any real job (10M-token contexts, 100k concurrent requests) and keep
/// the arithmetic finite.
pub const INPUT_TOKENS: (&str, u32, u32) = ("in", 1, 10_000_000);
pub const OUTPUT_TOKENS: (&str, u32, u32) = ("out", 1, 10_000_000);
pub const CONCURRENCY: (&str, u32, u32) = ("conc", 1, 100_000);
pub const SEQ_LEN: (&str, u32, u32) = ("seq", 1, 10_000_000);
pub const MICRO_BATCH: (&str, u32, u32) = ("mbs", 1, 65_536);
pub const GLOBAL_BATCH: (&str, u32, u32) = ("gbs", 1, 100_000_000);
/// Beams per window: Whisper's own CLI offers up to `--beam_size` 5; 16
/// leaves room.
pub const BEAMS: (&str, u32, u32) = ("beams", 1, 16);
/// From a run that trains a tenth of its time to one that never stops.
pub const GOODPUT_PCT: (&str, f64, f64) = ("goodput", 10.0, 100.0);
pub const LORA_RANK: (&str, u32, u32) = ("rank", 1, 65_536);
pub const ZERO_STAGE: (&str, u32, u32) = ("zero", 0, 3);
pub const GPUS: (&str, u32, u32) = ("gpus", 1, 100_000);
pub const TENSOR_PARALLEL: (&str, u32, u32) = ("tp", 1, 1_024);
pub const PIPELINE_PARALLEL: (&str, u32, u32) = ("pp", 1, 1_024);
pub const STEPS: (&str, u32, u32) = ("steps", 1, 10_000);
/// Up to ten minutes of video at 30 fps, far past any model's clip.
pub const FRAMES: (&str, u32, u32) = ("frames", 1, 18_000);
pub const BATCH: (&str, u32, u32) = ("batch", 1, 4_096);
pub const ITEMS: (&str, u32, u32) = ("n", 1, 1_000_000_000);
/// From a thousand tokens (a smoke test) to a quadrillion, past any
/// pretraining corpus (Llama 3: 15T tokens).
pub const TRAINING_TOKENS: (&str, f64, f64) = ("tokens", 1e3, 1e15);
pub const EPOCHS: (&str, u32, u32) = ("epochs", 1, 10_000);
pub const CHECKPOINT_MINUTES: (&str, u32, u32) = ("ckpt_every", 1, 10_080);
/// From six minutes to the whole day.
pub const UPTIME_HOURS: (&str, f64, f64) = ("uptime", 0.1, 24.0);
pub const REQUESTS_PER_DAY: (&str, u32, u32) = ("rpd", 0, 1_000_000_000);
/// From one request every 17 minutes to a hundred thousand a second.
pub const PEAK_RPS: (&str, f64, f64) = ("rps", 0.001, 100_000.0);
/// From flat traffic to a peak hour twenty times the mean.
pub const PEAK_FACTOR: (&str, f64, f64) = ("peakx", 1.0, 20.0);
/// The busiest hour takes twice the mean hour's requests unless `peakx`
/// says otherwise. Azure's public week-long LLM inference traces of May
/// 2024 (Azure/AzurePublicDataset, AzureLLMInferenceDataset2024.md; 27.3M
/// conversation and 16.8M coding requests) peak at 1.7× (conversation) and
/// 2.8× (coding) the week's mean hour (hourly counts of the raw trace, as
/// ctdunlap32/data-center-flexibility-resource-adequacy computed them), and
/// ten-second counts run about 1.2× their hour's mean (the conversation
/// trace's 10-second counts, cybsbbb/LLM_energy_optimization_rl); BurstGPT's
/// Azure OpenAI logs (121 days) average 1.35× at their busiest hour of the
/// day. 1.7 × 1.2 ≈ 2: data/calibration/peak_factor.md.
pub const DEFAULT_PEAK_FACTOR: f64 = 2.0;
/// Fixed lengths to a spread three times their mean.
pub const LENGTH_SPREAD_PCT: (&str, u32, u32) = ("spread", 0, 300);
/// None of the prompt to all but its last token.
pub const PREFIX_HIT_PCT: (&str, u32, u32) = ("hit", 0, 99);
/// From 10 ms (a cached prompt on a fast GPU) to an hour.
pub const TTFT_TARGET: (&str, f64, f64) = ("ttft", 0.01, 3_600.0);
/// From half a millisecond (2,000 tokens a second) to a minute.
pub const ITL_TARGET: (&str, f64, f64) = ("itl", 0.0005, 60.0);
/// The median up to the 99th percentile.
pub const LATENCY_PERCENTILE: (&str, u32, u32) = ("pct", 50, 99);
/// Latency targets hold for 95 of 100 requests unless `pct` says otherwise:
/// the percentile of the issue's own example (`pct=95`), between the p90
/// and p99 that serving benchmarks print (vLLM's `--metric-percentiles`).
pub const DEFAULT_PERCENTILE: u32 = 95;
pub const RUNS_PER_MONTH: (&str, u32, u32) = ("runs", 1, 1_000);
pub const BATCH_REQUESTS: (&str, u32, u32) = ("reqs", 0, 1_000_000_000);
pub const MAX_PRICE_PER_HOUR: (&str, f64, f64) = ("max_ph", 0.01, 10_000.0);
/// From an hour to ten years.
pub const DEADLINE_DAYS: (&str, f64, f64) = ("days", 0.04, 3_650.0);
pub const MAX_GPUS: (&str, u32, u32) = ("max_gpus", 1, 1_024);
/// From a minute to a million hours of audio.
pub const AUDIO_HOURS: (&str, f64, f64) = ("hours", 0.01, 1e6);

/// Tokens per optimizer step a pretraining run takes by default: 4M, Llama
/// 2's global batch ("a global batch-size of 4M tokens", Touvron et al.
/// 2023, §2.2), which MPT-7B's and Llama 3 8B's also are (llm-foundry's
/// `mpt-7b.yaml`, 1,024 × 2,048... 2,048 × 2,048 tokens; Llama 3 paper §3.4).
pub const PRETRAINING_BATCH_TOKENS: f64 = 4.0 * 1_048_576.0;

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn default_percentile() -> u32 {
    DEFAULT_PERCENTILE
}

fn is_default_percentile(p: &u32) -> bool {
    *p == DEFAULT_PERCENTILE
}

fn default_peak_factor() -> f64 {
    DEFAULT_PEAK_FACTOR
}

fn is_default_peak_factor(x: &f64) -> bool {
    *x == DEFAULT_PEAK_FACTOR
}

impl Workload {
    /// Serving as a batch job of `batch_requests` requests, not an endpoint.
    pub fn is_batch(&self) -> bool {
        self.task == Task::Infer && self.batch_requests > 0
    }

    /// Serving as an endpoint, up so many hours a day and billed by the
    /// month, not a job billed by its run.
    pub fn is_endpoint(&self) -> bool {
        self.task == Task::Infer && self.batch_requests == 0
    }

    /// Requests an endpoint answers a day: those stated (`rpd`), else the
    /// peak rate (`rps`) over the hours it is up, divided by the peak
    /// factor (`peakx`); 0 when neither is stated.
    pub fn daily_requests(&self) -> f64 {
        match (self.requests_per_day, self.peak_rps) {
            (0, Some(rps)) => rps * self.seconds_up() / self.peak_factor,
            (stated, _) => f64::from(stated),
        }
    }

    /// The requests per second at the busiest hour: the one stated (`rps`),
    /// else the requests a day spread over the hours up, times the peak
    /// factor (`peakx`); 0 when neither is stated.
    pub fn peak_rate(&self) -> f64 {
        self.peak_rps.unwrap_or_else(|| f64::from(self.requests_per_day) / self.seconds_up() * self.peak_factor)
    }

    /// Prompt tokens each request finds in the prefix cache (`hit`).
    pub fn cached_prompt_tokens(&self) -> u32 {
        (u64::from(self.input_tokens) * u64::from(self.prefix_hit_pct) / 100) as u32
    }

    fn seconds_up(&self) -> f64 {
        self.uptime_hours * crate::units::SECONDS_PER_HOUR
    }

    /// The workload whose memory is sized: a batch job needs room for one
    /// request (the runtime runs as many at once as the rest of the memory
    /// holds, `memory::Fit::max_concurrency`), an endpoint for its
    /// concurrent requests.
    pub fn as_sized(&self) -> std::borrow::Cow<'_, Workload> {
        if self.is_batch() {
            std::borrow::Cow::Owned(Workload { concurrency: 1, batch_requests: 0, ..self.clone() })
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// The workload whose speed is timed: a batch job offers all its
    /// requests at once, and the runtime runs as many as its batch cap and
    /// the KV cache take (vLLM's offline `generate` over a list of prompts,
    /// up to `max_num_seqs`); an endpoint its concurrent requests.
    pub fn as_timed(&self) -> std::borrow::Cow<'_, Workload> {
        if self.is_batch() {
            let concurrency = self.batch_requests.min(CONCURRENCY.2);
            std::borrow::Cow::Owned(Workload { concurrency, batch_requests: 0, ..self.clone() })
        } else {
            std::borrow::Cow::Borrowed(self)
        }
    }

    /// Sequences per optimizer step across `data_parallel` replicas: the
    /// stated global batch, else 4M tokens for pretraining
    /// (`PRETRAINING_BATCH_TOKENS`) and one micro-batch per replica for a
    /// fine-tune (HF Trainer's and torchtune's default of no gradient
    /// accumulation); never less than one micro-batch per replica.
    pub fn global_batch_sequences(&self, data_parallel: f64) -> f64 {
        let one_each = f64::from(self.micro_batch.max(1)) * data_parallel.max(1.0);
        let default = match self.task {
            Task::Pretrain => (PRETRAINING_BATCH_TOKENS / f64::from(self.seq_len.max(1))).ceil(),
            _ => one_each,
        };
        self.global_batch.map_or(default, f64::from).max(one_each)
    }

    /// Beams per transcription window: the stated count, else the
    /// transcriber's default.
    pub fn beams_per_window(&self) -> f64 {
        f64::from(self.beams.unwrap_or(self.transcriber.default_beams()).max(1))
    }

    /// The objective in effect: the user's, or the task's default.
    pub fn objective(&self) -> Objective {
        self.objective.unwrap_or(Objective::for_task(self.task))
    }

    /// The defaults for `task`, with its default model.
    pub fn for_task(task: Task) -> Workload {
        // A fine-tune runs over a dataset of about 100M tokens; a pretraining
        // run starts at the Chinchilla-optimal 20 tokens per parameter of the
        // default 8B model, 160B tokens (Hoffmann et al. 2022).
        let training_tokens = if task == Task::Pretrain { 1.6e11 } else { 1e8 };
        // Whisper runs in FP16: faster-whisper's converted checkpoints are
        // float16 (its README converts with `--quantization float16`), which
        // CTranslate2 runs natively from Volta on, while BF16 needs Ampere
        // and runs as FP32 before it (support matrix).
        let weight_precision =
            if matches!(task, Task::Audio | Task::Speech | Task::Music) { Precision::Fp16 } else { Precision::Bf16 };
        Workload {
            task,
            model: default_model(task).to_string(),
            training_tokens,
            weight_precision,
            ..Workload::default()
        }
    }

    /// The model to size: the catalog's, or the custom numbers.
    pub fn resolve_model<'a>(
        &self,
        catalog: &'a super::Catalog,
    ) -> Result<std::borrow::Cow<'a, super::Model>, super::Error> {
        match (&self.custom, self.model.as_str()) {
            (Some(custom), CUSTOM_MODEL) => Ok(std::borrow::Cow::Owned(custom.to_model())),
            _ => catalog.model(&self.model).map(std::borrow::Cow::Borrowed),
        }
    }

    /// The GPUs a job is sized over before an offer fixes them: serving and
    /// generation size one replica on one GPU; training spreads over its
    /// `gpus`.
    pub fn planned_gpus(&self) -> u32 {
        match self.task {
            Task::Finetune | Task::Pretrain => self.gpus,
            Task::Infer | Task::Image | Task::Video | Task::Audio | Task::Speech | Task::Music => 1,
        }
    }

    /// The runtime that serves the workload where no GPU has chosen one
    /// yet: the one named, or for `auto` the first it would try for these
    /// weights. The ranking replaces `auto` per GPU (`engine::setup`).
    pub const fn serving_runtime(&self) -> Runtime {
        match self.runtime.fixed() {
            Some(runtime) => runtime,
            None => Runtime::preferred(self.weight_precision)[0],
        }
    }

    /// Tokens each sequence holds at its longest: prompt plus output.
    pub fn tokens_per_sequence(&self) -> f64 {
        f64::from(self.input_tokens) + f64::from(self.output_tokens)
    }

    /// Images per request for a model with `vision` (none without one).
    pub fn images_for(&self, vision: Option<&super::vision::Vision>) -> u32 {
        match vision {
            Some(_) => self.images.unwrap_or(1),
            None => 0,
        }
    }

    /// The images' side in pixels.
    pub fn image_side(&self) -> u32 {
        self.image_side.unwrap_or(super::vision::DEFAULT_IMAGE_SIDE)
    }

    /// Seconds per generated clip of `generator`.
    pub fn clip_seconds_for(&self, generator: &super::audio_model::AudioGenerator) -> f64 {
        self.clip_seconds.unwrap_or(super::audio_model::default_clip_seconds(generator.output))
    }

    /// The image tokens each request's prompt carries into the text
    /// decoder's own attention: every image's tokens for a model that
    /// puts them in its sequence, none for one that cross-attends to
    /// them (Llama 3.2 Vision) or has no vision tower.
    pub fn image_tokens_in_prompt(&self, vision: Option<&super::vision::Vision>) -> u32 {
        match vision {
            Some(v) if v.cross_attention_layers.is_none() => {
                self.images_for(vision).saturating_mul(v.tokens_per_image(self.image_side()))
            }
            _ => 0,
        }
    }

    /// The workload as the text decoder sees it: its prompt lengthened by
    /// the image tokens it attends to.
    pub fn with_image_tokens(&self, vision: Option<&super::vision::Vision>) -> std::borrow::Cow<'_, Workload> {
        match self.image_tokens_in_prompt(vision) {
            0 => std::borrow::Cow::Borrowed(self),
            tokens => std::borrow::Cow::Owned(Workload {
                input_tokens: self.input_tokens.saturating_add(tokens),
                ..self.clone()
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_round_trip_through_their_keys() {
        for task in Task::ALL {
            assert_eq!(task.key().parse::<Task>(), Ok(task));
        }
        for runtime in Runtime::ALL {
            assert_eq!(runtime.to_string().parse::<RuntimeChoice>(), Ok(runtime.choice()));
            assert_eq!(runtime.choice().fixed(), Some(runtime));
        }
        assert_eq!(RuntimeChoice::Auto.fixed(), None);
        assert!("ollama"
            .parse::<RuntimeChoice>()
            .unwrap_err()
            .to_string()
            .contains("auto, vllm, trtllm, llamacpp, hf"));
    }

    #[test]
    fn a_sequence_holds_its_prompt_and_its_output() {
        assert_eq!(Workload::default().tokens_per_sequence(), 2560.0);
    }
}
