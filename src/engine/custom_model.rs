//! A model given by its numbers instead of a catalog id (`model=custom`):
//! typed in by hand, or read from a `config.json`, a safetensors or GGUF
//! header or the Hugging Face Hub (`crate::model_import`). Every number is
//! a link key, so a shared link sizes the same model without the file.

use super::catalog::{Checkpoint, ModelKind, Shape};
use super::Precision;
use crate::units::BILLION;
use serde::{Deserialize, Serialize};

/// The model id that selects [`super::Workload::custom`].
pub const CUSTOM_MODEL: &str = "custom";

/// A transformer described by its numbers. Unset parts follow the usual
/// conventions: 128-wide heads, as many KV heads as heads, no experts, a
/// KV cache in every layer, no sliding window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CustomModel {
    /// Every parameter, all experts included (`params`).
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
    /// The MLP's inner width, per routed expert for MoE (`ffn`); unset, it
    /// is solved from the parameter count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffn: Option<u32>,
    /// Routed experts each token runs through (`topk`; 2 when unset, as
    /// Mixtral).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experts_per_token: Option<u32>,
    /// Total width of the always-on shared experts (`shared_ffn`:
    /// DeepSeek-V3, Qwen2-MoE, Llama 4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_ffn: Option<u32>,
    /// Layers that keep a KV cache (`kv_layers`): the attention layers of
    /// a hybrid (Jamba, Nemotron-H, Qwen3-Next); unset, every layer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_layers: Option<u32>,
    /// Sliding-window (or chunked) attention: the window in tokens
    /// (`window`) and how many of the KV layers use it (`window_layers`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_layers: Option<u32>,
    /// Multi-head latent attention (DeepSeek-V2/V3, Kimi K2): the cached
    /// latent's rank (`kv_lora`) and the decoupled RoPE key width
    /// (`rope_dim`). The cache then holds kv_lora + rope_dim values per
    /// layer and token (DeepSeek-V2 paper, section 2.1.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_lora: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rope_dim: Option<u32>,
    /// Bytes of recurrent state per sequence at 16 bits (`ssm_state`):
    /// Mamba or linear-attention layers, constant whatever the length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state_bytes: Option<f64>,
    /// The longest context the model takes (`ctx`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<u32>,
    /// Input embedding and LM head share one matrix (`tie=1`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tied: bool,
    /// The model's name as its file or repo gives it (`mname`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Exact bytes of the released weights (`wbytes`), in the format
    /// `weight_format` (`wfmt`) where that is one the engine knows; the
    /// weights are sized at these bytes when the workload runs that format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_bytes: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight_format: Option<Precision>,
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
            ffn: None,
            experts_per_token: None,
            shared_ffn: None,
            kv_layers: None,
            window: None,
            window_layers: None,
            kv_lora: None,
            rope_dim: None,
            state_bytes: None,
            context: None,
            tied: false,
            name: None,
            weight_bytes: None,
            weight_format: None,
        }
    }
}

/// Bounds of the custom model's numbers, as (URL key, min, max): from a
/// million to ten trillion parameters, and shapes past any model released.
pub const PARAMS: (&str, f64, f64) = ("params", 1e6, 1e13);
pub const LAYERS: (&str, u32, u32) = ("layers", 1, 2_000);
pub const HIDDEN: (&str, u32, u32) = ("hidden", 64, 131_072);
pub const ACTIVE_PARAMS: (&str, f64, f64) = ("active_params", 1e6, 1e13);
pub const HEADS: (&str, u32, u32) = ("heads", 1, 4_096);
pub const KV_HEADS: (&str, u32, u32) = ("kv_heads", 1, 4_096);
pub const HEAD_DIM: (&str, u32, u32) = ("head_dim", 1, 1_024);
pub const EXPERTS: (&str, u32, u32) = ("experts", 1, 1_024);
pub const VOCAB: (&str, u32, u32) = ("vocab", 1, 2_000_000);
pub const FFN: (&str, u32, u32) = ("ffn", 1, 1_048_576);
pub const EXPERTS_PER_TOKEN: (&str, u32, u32) = ("topk", 1, 1_024);
pub const SHARED_FFN: (&str, u32, u32) = ("shared_ffn", 1, 1_048_576);
pub const KV_LAYERS: (&str, u32, u32) = ("kv_layers", 0, 2_000);
pub const WINDOW: (&str, u32, u32) = ("window", 1, 10_000_000);
pub const WINDOW_LAYERS: (&str, u32, u32) = ("window_layers", 0, 2_000);
pub const KV_LORA: (&str, u32, u32) = ("kv_lora", 1, 65_536);
pub const ROPE_DIM: (&str, u32, u32) = ("rope_dim", 0, 4_096);
/// Up to 100 GB of recurrent state per sequence, past any hybrid's.
pub const STATE_BYTES: (&str, f64, f64) = ("ssm_state", 0.0, 1e11);
pub const CONTEXT: (&str, u32, u32) = ("ctx", 1, 100_000_000);
/// Up to 100 TB of weights.
pub const WEIGHT_BYTES: (&str, f64, f64) = ("wbytes", 1e5, 1e14);
/// Longest model name a link keeps.
pub const NAME_CHARS: usize = 96;

/// The characters a model name in a link may hold: a Hub id's and a file
/// name's ("Qwen/Qwen2.5-7B", "Meta-Llama-3-8B.Q4_K_M", "(fine-tune)").
pub fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-_./:+() ".contains(c)
}

impl CustomModel {
    /// Attention heads, KV heads and head width: as given, or 128-wide
    /// heads, as many KV heads as heads, and hidden / heads wide.
    fn attention(&self) -> (u32, u32, u32) {
        let heads = self.heads.unwrap_or((self.hidden / 128).max(1)).max(1);
        let kv_heads = self.kv_heads.unwrap_or(heads).clamp(1, heads);
        let head_dim = self.head_dim.unwrap_or((self.hidden / heads).max(1));
        (heads, kv_heads, head_dim)
    }

    /// KV-cache bytes per token at 16 bits: MLA's latent, or K and V for
    /// every KV head of every layer that keeps a cache.
    pub fn kv_bytes_per_token_16bit(&self) -> f64 {
        let (_, kv_heads, head_dim) = self.attention();
        let kv_layers = f64::from(self.kv_layers.unwrap_or(self.layers).min(self.layers));
        match self.kv_lora {
            Some(rank) => kv_layers * f64::from(rank + self.rope_dim.unwrap_or(0)) * 2.0,
            None => 2.0 * kv_layers * f64::from(kv_heads * head_dim) * 2.0,
        }
    }

    /// The catalog-shaped model these numbers describe.
    pub fn to_model(&self) -> super::Model {
        let (heads, kv_heads, head_dim) = self.attention();
        let h = f64::from(self.hidden);
        let experts = f64::from(self.experts.unwrap_or(1).max(1));
        // Per layer: attention 2·h·(q + kv) weights, and a SwiGLU MLP of
        // 3·h·ffn per expert; without a width, solve for the one the count
        // implies.
        let q = f64::from(heads * head_dim);
        let kv = f64::from(kv_heads * head_dim);
        let attention = h * (2.0 * q + 2.0 * kv);
        let per_layer = self.params / f64::from(self.layers.max(1));
        let ffn = self.ffn.unwrap_or(((per_layer - attention) / (3.0 * h * experts)).max(h) as u32);
        let kv_layers = self.kv_layers.unwrap_or(self.layers).min(self.layers);
        // The window's share of the layers that keep a cache.
        let window_share = match (self.window, self.window_layers) {
            (Some(_), Some(n)) if kv_layers > 0 => Some((f64::from(n) / f64::from(kv_layers)).min(1.0)),
            (Some(_), None) => Some(1.0),
            _ => None,
        };
        let name = match &self.name {
            Some(name) => name.clone(),
            None => format!("Custom {:.1}B model", self.params / BILLION),
        };
        super::Model {
            id: CUSTOM_MODEL.to_string(),
            name,
            family: "custom".to_string(),
            modality: "text LLM".to_string(),
            repo: None,
            params: self.params,
            active_params: self.active_params,
            checkpoint: match (self.weight_bytes, self.weight_format) {
                (Some(bytes), format) => Some(Checkpoint { bytes, format }),
                _ => None,
            },
            kind: ModelKind::Llm(Shape {
                layers: self.layers,
                hidden: self.hidden,
                heads,
                kv_heads,
                head_dim,
                ffn: Some(ffn),
                vocab: self.vocab,
                max_context: self.context,
                experts: self.experts,
                experts_per_token: self.experts.map(|_| self.experts_per_token.unwrap_or(2)),
                shared_ffn: self.shared_ffn,
                tie_embeddings: self.tied,
                kv_bytes_per_token_16bit: self.kv_bytes_per_token_16bit(),
                sliding_window: window_share.and(self.window),
                sliding_window_layer_share: window_share,
                state_bytes_per_sequence_16bit: self.state_bytes.filter(|b| *b > 0.0),
                vision: None,
            }),
        }
    }
}
