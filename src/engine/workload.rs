//! The workload: what the user wants to run. One type serves the form, the
//! URL codec, the CLI and the JSON; its option enums carry their own
//! spellings (`Display`/`FromStr`), so no parallel string tables exist.

use super::precision::{option_enum, UnknownOption};
use super::{KvPrecision, Precision};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The model catalog id the page opens with.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

/// What the job is (URL key `task`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Task {
    Infer,
    Finetune,
    Pretrain,
    Image,
    Video,
    Audio,
}

impl Task {
    pub const ALL: [Task; 6] = [Task::Infer, Task::Finetune, Task::Pretrain, Task::Image, Task::Video, Task::Audio];

    pub const fn key(self) -> &'static str {
        match self {
            Task::Infer => "infer",
            Task::Finetune => "finetune",
            Task::Pretrain => "pretrain",
            Task::Image => "image",
            Task::Video => "video",
            Task::Audio => "audio",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Task::Infer => "LLM inference / serving",
            Task::Finetune => "Fine-tune",
            Task::Pretrain => "Pretrain",
            Task::Image => "Image generation",
            Task::Video => "Video generation",
            Task::Audio => "Audio",
        }
    }
}

/// The serving stack (URL key `runtime`). Each reserves and uses memory its
/// own way (see `memory::RuntimeMemory`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Runtime {
    Vllm,
    Trtllm,
    Llamacpp,
    Hf,
}

impl Runtime {
    pub const ALL: [Runtime; 4] = [Runtime::Vllm, Runtime::Trtllm, Runtime::Llamacpp, Runtime::Hf];

    pub const fn key(self) -> &'static str {
        match self {
            Runtime::Vllm => "vllm",
            Runtime::Trtllm => "trtllm",
            Runtime::Llamacpp => "llamacpp",
            Runtime::Hf => "hf",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Runtime::Vllm => "vLLM",
            Runtime::Trtllm => "TensorRT-LLM",
            Runtime::Llamacpp => "llama.cpp",
            Runtime::Hf => "HF transformers",
        }
    }
}

/// How a model is fine-tuned (URL key `method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum FinetuneMethod {
    Full,
    Lora,
    /// LoRA on a 4-bit NF4 base (Dettmers et al. 2023).
    Qlora,
}

impl FinetuneMethod {
    pub const ALL: [FinetuneMethod; 3] = [FinetuneMethod::Full, FinetuneMethod::Lora, FinetuneMethod::Qlora];

    pub const fn key(self) -> &'static str {
        match self {
            FinetuneMethod::Full => "full",
            FinetuneMethod::Lora => "lora",
            FinetuneMethod::Qlora => "qlora",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            FinetuneMethod::Full => "Full fine-tune",
            FinetuneMethod::Lora => "LoRA",
            FinetuneMethod::Qlora => "QLoRA (4-bit base)",
        }
    }
}

/// The optimizer (URL key `opt`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Optimizer {
    Adamw,
    Adamw8bit,
    Sgd,
    Adafactor,
}

impl Optimizer {
    pub const ALL: [Optimizer; 4] = [Optimizer::Adamw, Optimizer::Adamw8bit, Optimizer::Sgd, Optimizer::Adafactor];

    pub const fn key(self) -> &'static str {
        match self {
            Optimizer::Adamw => "adamw",
            Optimizer::Adamw8bit => "adamw8bit",
            Optimizer::Sgd => "sgd",
            Optimizer::Adafactor => "adafactor",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            Optimizer::Adamw => "AdamW (states in the weights' precision)",
            Optimizer::Adamw8bit => "AdamW 8-bit",
            Optimizer::Sgd => "SGD with momentum",
            Optimizer::Adafactor => "Adafactor",
        }
    }
}

/// How the loss is computed over the vocabulary (URL key `ce`): all logits
/// at once in FP32 (HF transformers), or chunk by chunk (torchtune's chunked
/// cross-entropy, Liger's fused kernel), which saves gigabytes at large
/// vocabularies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum CrossEntropy {
    Full,
    Chunked,
}

impl CrossEntropy {
    pub const ALL: [CrossEntropy; 2] = [CrossEntropy::Full, CrossEntropy::Chunked];

    pub const fn key(self) -> &'static str {
        match self {
            CrossEntropy::Full => "full",
            CrossEntropy::Chunked => "chunked",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            CrossEntropy::Full => "Full logits (HF default)",
            CrossEntropy::Chunked => "Chunked / fused cross-entropy",
        }
    }
}

option_enum!(CrossEntropy, "cross-entropy mode");
option_enum!(Task, "task");
option_enum!(Runtime, "runtime");
option_enum!(FinetuneMethod, "fine-tuning method");
option_enum!(Optimizer, "optimizer");

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
    pub runtime: Runtime,
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
    /// A model given by its numbers instead of a catalog id (`model=custom`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub custom: Option<CustomModel>,
}

/// The model id that selects [`Workload::custom`].
pub const CUSTOM_MODEL: &str = "custom";

/// A transformer described by its numbers (URL keys `params`, `layers`,
/// `hidden`, `heads`, `kv_heads`, `head_dim`, `experts`, `active_params`,
/// `vocab`). Unset parts follow the usual conventions: 128-wide heads, as
/// many KV heads as heads, no experts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomModel {
    pub params: f64,
    pub layers: u32,
    pub hidden: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heads: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_heads: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_params: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vocab: Option<u32>,
}

impl Default for CustomModel {
    /// Llama-3.1-8B-like numbers, a starting point to edit.
    fn default() -> Self {
        CustomModel {
            params: 8e9,
            layers: 32,
            hidden: 4096,
            heads: None,
            kv_heads: None,
            head_dim: None,
            experts: None,
            active_params: None,
            vocab: None,
        }
    }
}

impl CustomModel {
    /// The catalog-shaped model these numbers describe.
    pub fn to_model(&self) -> super::Model {
        let heads = self.heads.unwrap_or((self.hidden / 128).max(1));
        let kv_heads = self.kv_heads.unwrap_or(heads).min(heads).max(1);
        let head_dim = self.head_dim.unwrap_or((self.hidden / heads).max(1));
        let h = f64::from(self.hidden);
        let experts = f64::from(self.experts.unwrap_or(1).max(1));
        // Per layer: attention 2·h·(q + kv) weights, and a SwiGLU MLP of
        // 3·h·ffn per expert; solve for the MLP width the count implies.
        let q = f64::from(heads * head_dim);
        let kv = f64::from(kv_heads * head_dim);
        let attention = h * (2.0 * q + 2.0 * kv);
        let per_layer = self.params / f64::from(self.layers);
        let ffn = ((per_layer - attention) / (3.0 * h * experts)).max(h);
        super::Model {
            id: CUSTOM_MODEL.to_string(),
            name: format!("Custom {:.1}B model", self.params / 1e9),
            family: "custom".to_string(),
            modality: "text LLM".to_string(),
            params: self.params,
            active_params: self.active_params,
            shape: Some(super::catalog::Shape {
                layers: self.layers,
                hidden: self.hidden,
                heads,
                kv_heads,
                head_dim,
                ffn: Some(ffn as u32),
                vocab: self.vocab,
                max_context: None,
                experts: self.experts,
                experts_per_token: self.experts.map(|_| 2),
                tie_embeddings: false,
                // K and V for every layer and KV head, 16-bit.
                kv_bytes_per_token_16bit: 2.0 * f64::from(self.layers) * kv * 2.0,
                sliding_window: None,
                sliding_window_layer_share: None,
            }),
        }
    }
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            task: Task::Infer,
            model: DEFAULT_MODEL.to_string(),
            weight_precision: Precision::Bf16,
            kv_precision: KvPrecision::Bf16,
            runtime: Runtime::Vllm,
            input_tokens: 2048,
            output_tokens: 512,
            concurrency: 1,
            method: FinetuneMethod::Lora,
            seq_len: 2048,
            micro_batch: 2,
            lora_rank: 16,
            optimizer: Optimizer::Adamw,
            checkpointing: true,
            zero_stage: 0,
            gpus: 1,
            cross_entropy: CrossEntropy::Full,
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
pub const LORA_RANK: (&str, u32, u32) = ("rank", 1, 65_536);
pub const ZERO_STAGE: (&str, u32, u32) = ("zero", 0, 3);
pub const GPUS: (&str, u32, u32) = ("gpus", 1, 100_000);
/// Custom models from a million to ten trillion parameters.
pub const PARAMS: (&str, f64, f64) = ("params", 1e6, 1e13);
pub const LAYERS: (&str, u32, u32) = ("layers", 1, 2_000);
pub const HIDDEN: (&str, u32, u32) = ("hidden", 64, 131_072);
pub const ACTIVE_PARAMS: (&str, f64, f64) = ("active_params", 1e6, 1e13);
pub const HEADS: (&str, u32, u32) = ("heads", 1, 4_096);
pub const KV_HEADS: (&str, u32, u32) = ("kv_heads", 1, 4_096);
pub const HEAD_DIM: (&str, u32, u32) = ("head_dim", 1, 1_024);
pub const EXPERTS: (&str, u32, u32) = ("experts", 1, 1_024);
pub const VOCAB: (&str, u32, u32) = ("vocab", 1, 2_000_000);

impl Workload {
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

    /// The GPUs a job is sized over before an offer fixes them: serving sizes
    /// one replica on one GPU; training spreads over its `gpus`.
    pub fn planned_gpus(&self) -> u32 {
        if self.task == Task::Infer {
            1
        } else {
            self.gpus
        }
    }

    /// Tokens each sequence holds at its longest: prompt plus output.
    pub fn tokens_per_sequence(&self) -> f64 {
        f64::from(self.input_tokens) + f64::from(self.output_tokens)
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
            assert_eq!(runtime.to_string().parse::<Runtime>(), Ok(runtime));
        }
        assert!("ollama".parse::<Runtime>().unwrap_err().to_string().contains("vllm, trtllm, llamacpp, hf"));
    }

    #[test]
    fn a_sequence_holds_its_prompt_and_its_output() {
        assert_eq!(Workload::default().tokens_per_sequence(), 2560.0);
    }
}
