//! A Hugging Face `config.json`: the architecture's fields read into a
//! [`CustomModel`], with every weight counted as the architecture builds
//! it (the formulas of `../shared/data/SOURCES.md` §2, which reproduce the
//! published counts: Llama 3.1 8B 8,030,261,248; DeepSeek-V3 671.0B;
//! gpt-oss 116.83B and 20.91B).
//!
//! Field names and defaults are those of the `transformers` configuration
//! classes (`LlamaConfig`, `Qwen2MoeConfig`, `DeepseekV3Config`,
//! `Gemma3TextConfig`, `FalconConfig` …), which is what a config that
//! leaves a field out means.

use super::imported::{link_name, FileFormat, Imported, JSON_BYTES};
use super::ImportError;
use crate::engine::custom_model::{self, CustomModel};
use crate::engine::Precision;
use serde_json::{Map, Value};

/// How each architecture lays out a layer. One row per `model_type`;
/// a type not here is refused by name.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Layout {
    /// A gated MLP (SwiGLU/GeGLU: gate, up, down) rather than up, down.
    gated: bool,
    /// Norm weights per layer, in hidden-width vectors (a LayerNorm with a
    /// bias counts two).
    norms_per_layer: f64,
    /// Biases on q, k, v (and o where `output_bias`).
    qkv_bias: bool,
    output_bias: bool,
    /// Biases on the MLP's matrices.
    mlp_bias: bool,
    /// Whether the input embedding and LM head share weights when the
    /// config does not say (the class's `tie_word_embeddings` default).
    tied_by_default: bool,
    /// A norm on q and k of one head's width (Qwen3, Gemma 3), or of the
    /// whole projection (OLMo 2).
    qk_norm: QkNorm,
    /// LayerNorms with a bias (GPT-NeoX, Falcon, StarCoder2), so the final
    /// norm holds two hidden-width vectors.
    layer_norm_bias: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum QkNorm {
    None,
    PerHead,
    Full,
}

const LLAMA: Layout = Layout {
    gated: true,
    norms_per_layer: 2.0,
    qkv_bias: false,
    output_bias: false,
    mlp_bias: false,
    tied_by_default: false,
    qk_norm: QkNorm::None,
    layer_norm_bias: false,
};

/// The layout of a `model_type`, or `None` for one this reader does not
/// size.
fn layout(model_type: &str) -> Option<Layout> {
    Some(match model_type {
        "llama" | "mistral" | "mixtral" | "phi3" | "internlm2" | "granite" | "deepseek_v2" | "deepseek_v3"
        | "kimi_k2" | "llama4_text" | "ministral" => LLAMA,
        // Qwen2 and Qwen2-MoE: biases on q, k and v (Qwen2Attention).
        "qwen2" | "qwen2_moe" => Layout { qkv_bias: true, ..LLAMA },
        "qwen3" | "qwen3_moe" => Layout { qk_norm: QkNorm::PerHead, ..LLAMA },
        // Gemma: tied, four norms per layer from Gemma 2 on.
        "gemma" => Layout { tied_by_default: true, ..LLAMA },
        "gemma2" => Layout { norms_per_layer: 4.0, tied_by_default: true, ..LLAMA },
        "gemma3_text" => Layout { norms_per_layer: 4.0, tied_by_default: true, qk_norm: QkNorm::PerHead, ..LLAMA },
        // OLMo 2: norms after attention and MLP, q/k norms over the full width.
        "olmo2" | "olmo3" => Layout { qk_norm: QkNorm::Full, ..LLAMA },
        // Cohere: one weight-only LayerNorm per parallel block, tied.
        "cohere" | "cohere2" => Layout { norms_per_layer: 1.0, tied_by_default: true, ..LLAMA },
        // GLM-4 MoE (GLM-4.5/4.6/4.7): biases on q, k, v.
        "glm4_moe" => Layout { qkv_bias: true, ..LLAMA },
        "glm" | "glm4" => Layout { qkv_bias: true, ..LLAMA },
        // gpt-oss: biases on every attention projection and expert matrix.
        "gpt_oss" => Layout { qkv_bias: true, output_bias: true, mlp_bias: true, ..LLAMA },
        // GPT-NeoX (Pythia): two LayerNorms with biases, biased linears, a
        // plain GELU MLP, untied.
        "gpt_neox" => Layout {
            gated: false,
            norms_per_layer: 4.0,
            qkv_bias: true,
            output_bias: true,
            mlp_bias: true,
            tied_by_default: false,
            qk_norm: QkNorm::None,
            layer_norm_bias: true,
        },
        // Falcon: one LayerNorm (two with the new decoder), a GELU MLP,
        // tied (FalconConfig tie_word_embeddings default true).
        "falcon" => Layout {
            gated: false,
            norms_per_layer: 2.0,
            qkv_bias: false,
            output_bias: false,
            mlp_bias: false,
            tied_by_default: true,
            qk_norm: QkNorm::None,
            layer_norm_bias: true,
        },
        // StarCoder2: LayerNorms with biases, biased linears, GELU MLP;
        // Starcoder2Config ties by default.
        "starcoder2" => Layout {
            gated: false,
            norms_per_layer: 4.0,
            qkv_bias: true,
            output_bias: true,
            mlp_bias: true,
            tied_by_default: true,
            qk_norm: QkNorm::None,
            layer_norm_bias: true,
        },
        _ => return None,
    })
}

/// Hybrids of attention and state-space or linear-attention layers: named
/// so the refusal says what they are (their configs lay layers out per
/// index, which this reader does not size yet; the catalog has them).
const HYBRIDS: [&str; 6] = ["jamba", "nemotron_h", "qwen3_next", "mamba", "mamba2", "falcon_h1"];

/// Reads a `config.json` (or the Hub's copy of one). `index` is the
/// repo's `model.safetensors.index.json` where there is one: its
/// `metadata.total_size` is the weights' exact size.
pub fn read(config: &[u8], index: Option<&[u8]>) -> Result<Imported, ImportError> {
    let value = parse_json(config)?;
    let Value::Object(top) = &value else {
        return Err(ImportError::BadValue { field: "config.json".into(), detail: "not a JSON object".into() });
    };
    let architecture = top
        .get("architectures")
        .and_then(|a| a.get(0))
        .and_then(Value::as_str)
        .or_else(|| top.get("model_type").and_then(Value::as_str))
        .unwrap_or("?")
        .chars()
        .take(80)
        .collect::<String>();
    // A multimodal model keeps its language model's config under
    // `text_config` (Gemma 3, Llama 4, Mistral 3, LLaVA).
    let text = match top.get("text_config") {
        Some(Value::Object(text)) => text,
        _ => top,
    };
    let model_type = text
        .get("model_type")
        .and_then(Value::as_str)
        .or_else(|| top.get("model_type").and_then(Value::as_str))
        .unwrap_or_default();
    // Gemma 3's multimodal config names its text part `gemma3` where the
    // text-only one says `gemma3_text`: one layout.
    let model_type = if model_type == "gemma3" { "gemma3_text" } else { model_type };
    if HYBRIDS.contains(&model_type) {
        return Err(ImportError::UnsupportedArchitecture { architecture: format!("{architecture} (hybrid)") });
    }
    let layout = layout(model_type).ok_or_else(|| ImportError::UnsupportedArchitecture {
        architecture: if model_type.is_empty() {
            architecture.clone()
        } else {
            format!("{architecture} ({model_type})")
        },
    })?;
    let fields = Fields { map: text, architecture: &architecture, defaults: defaults(model_type) };
    let mut model = count(&fields, model_type, layout)?;
    model.weight_format = weight_format(top);
    model.name = top.get("_name_or_path").and_then(Value::as_str).and_then(link_name);
    if let Some(index) = index {
        model.weight_bytes = Some(index_total_size(index)?);
    }
    let text_only = top.contains_key("vision_config");
    Ok(Imported { model, architecture, format: FileFormat::ConfigJson, text_only })
}

/// Reads a `model.safetensors.index.json` on its own: the exact size of
/// the weights, and nothing of the architecture.
pub fn index_total_size(index: &[u8]) -> Result<f64, ImportError> {
    let value = parse_json(index)?;
    let total = value
        .get("metadata")
        .and_then(|m| m.get("total_size"))
        .ok_or(ImportError::NoWeights { format: "model.safetensors.index.json" })?;
    match total.as_f64() {
        Some(bytes) if (custom_model::WEIGHT_BYTES.1..=custom_model::WEIGHT_BYTES.2).contains(&bytes) => Ok(bytes),
        _ => Err(ImportError::BadValue { field: "metadata.total_size".into(), detail: shorten(&total.to_string()) }),
    }
}

fn parse_json(bytes: &[u8]) -> Result<Value, ImportError> {
    if bytes.len() as u64 > JSON_BYTES {
        return Err(ImportError::TooLarge { bytes: bytes.len() as u64, limit: JSON_BYTES });
    }
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ImportError::Empty);
    }
    // serde_json refuses nesting past 128 levels, so hostile depth is an
    // error, not a stack overflow.
    serde_json::from_slice(bytes).map_err(|e| ImportError::NotJson { detail: e.to_string() })
}

/// The format the released weights are stored in: a quantization the
/// config declares, else its `torch_dtype`.
fn weight_format(config: &Map<String, Value>) -> Option<Precision> {
    if let Some(quantization) = config.get("quantization_config") {
        return match quantization.get("quant_method").and_then(Value::as_str)? {
            "fp8" | "compressed-tensors" => Some(Precision::Fp8),
            "awq" => Some(Precision::Awq),
            "gptq" => Some(Precision::Gptq),
            // gpt-oss: MXFP4 experts, the rest in BF16.
            "mxfp4" => Some(Precision::Mxfp4),
            // Other mixes: no single format the engine sizes.
            _ => None,
        };
    }
    let dtype = config.get("torch_dtype").or_else(|| config.get("dtype")).and_then(Value::as_str)?;
    match dtype {
        "bfloat16" => Some(Precision::Bf16),
        "float16" => Some(Precision::Fp16),
        "float32" => Some(Precision::Fp32),
        _ => None,
    }
}

/// Defaults of the `transformers` class where a real config leaves the
/// field out (Gemma 3's multimodal configs give only the fields that
/// differ from `Gemma3TextConfig`).
fn defaults(model_type: &str) -> &'static [(&'static str, f64)] {
    match model_type {
        // transformers Gemma3TextConfig: vocab 262,208, 8 heads, 4 KV heads
        // of 256, 131,072 positions, a 4,096 window on 5 layers of 6.
        "gemma3_text" => &[
            ("vocab_size", 262_208.0),
            ("num_attention_heads", 8.0),
            ("num_key_value_heads", 4.0),
            ("head_dim", 256.0),
            ("max_position_embeddings", 131_072.0),
            ("sliding_window", 4_096.0),
            ("sliding_window_pattern", 6.0),
        ],
        _ => &[],
    }
}

/// A config's fields, read with the names each architecture uses.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    architecture: &'a str,
    defaults: &'static [(&'static str, f64)],
}

impl Fields<'_> {
    /// The first of `names` the config gives (or the class defaults), as a
    /// whole number within `bounds`.
    fn count(&self, names: &[&str], (_, min, max): (&str, u32, u32)) -> Result<Option<u32>, ImportError> {
        for name in names {
            let value = match self.map.get(*name) {
                Some(Value::Null) | None => match self.defaults.iter().find(|(n, _)| n == name) {
                    Some((_, default)) => *default,
                    None => continue,
                },
                Some(value) => value.as_f64().ok_or_else(|| ImportError::BadValue {
                    field: (*name).to_string(),
                    detail: shorten(&value.to_string()),
                })?,
            };
            if value.fract() != 0.0 || value < f64::from(min) || value > f64::from(max) {
                return Err(ImportError::BadValue { field: (*name).to_string(), detail: shorten(&value.to_string()) });
            }
            return Ok(Some(value as u32));
        }
        Ok(None)
    }

    /// As [`Fields::count`], where the architecture cannot be sized without it.
    fn required(&self, names: &[&str], bounds: (&str, u32, u32)) -> Result<u32, ImportError> {
        self.count(names, bounds)?.ok_or_else(|| ImportError::MissingField {
            architecture: self.architecture.to_string(),
            field: names[0].to_string(),
        })
    }

    fn flag(&self, name: &str) -> Option<bool> {
        self.map.get(name).and_then(Value::as_bool)
    }

    fn text(&self, name: &str) -> Option<&str> {
        self.map.get(name).and_then(Value::as_str)
    }
}

/// Bounds for counts that are not link keys themselves.
const ANY_COUNT: (&str, u32, u32) = ("", 0, 10_000_000);

/// Counts every weight of the architecture and fills the link's numbers.
fn count(f: &Fields<'_>, model_type: &str, layout: Layout) -> Result<CustomModel, ImportError> {
    use custom_model::{CONTEXT, EXPERTS, FFN, HEADS, HEAD_DIM, HIDDEN, KV_HEADS, LAYERS, VOCAB};
    let layers = f.required(&["num_hidden_layers", "n_layer", "num_layers"], LAYERS)?;
    let hidden = f.required(&["hidden_size", "n_embd", "d_model"], HIDDEN)?;
    let heads = f.required(&["num_attention_heads", "n_head"], HEADS)?;
    // Falcon's multi-query attention has one KV head; its newer decoder
    // gives `num_kv_heads`.
    let multi_query = model_type == "falcon" && f.flag("multi_query") == Some(true);
    let kv_heads = match f.count(&["num_key_value_heads", "num_kv_heads", "multi_query_group_num"], KV_HEADS)? {
        Some(n) if !(multi_query && f.flag("new_decoder_architecture") != Some(true)) => n,
        _ if multi_query => 1,
        _ => heads,
    };
    // MLA's query heads are qk_nope + qk_rope wide (192 on DeepSeek-V3),
    // whatever hidden / heads is.
    let mla_head = match (f.count(&["qk_nope_head_dim"], HEAD_DIM)?, f.count(&["qk_rope_head_dim"], HEAD_DIM)?) {
        (Some(nope), Some(rope)) if f.map.contains_key("kv_lora_rank") => Some(nope + rope),
        _ => None,
    };
    // A head width the config does not state (MLA's sum, or hidden /
    // heads) must fit the model's bounds as a stated one does.
    let derived = |width: u32, how: &str| super::bounds::within(u64::from(width), HEAD_DIM, how);
    let head_dim = match (mla_head, f.count(&["head_dim"], HEAD_DIM)?) {
        (Some(width), _) => derived(width, "qk_nope_head_dim + qk_rope_head_dim")?,
        (None, Some(width)) => width,
        (None, None) => derived((hidden / heads.max(1)).max(1), "hidden_size / num_attention_heads")?,
    };
    let vocab = f.required(&["vocab_size", "padded_vocab_size"], VOCAB)?;
    let context = f.count(&["max_position_embeddings", "seq_length", "n_positions", "max_sequence_length"], CONTEXT)?;
    // GPT-NeoX and Falcon default to a 4 × hidden MLP.
    let ffn = match f.count(&["intermediate_size", "ffn_hidden_size", "n_inner"], FFN)? {
        Some(ffn) => ffn,
        None if !layout.gated => 4 * hidden,
        None => {
            return Err(ImportError::MissingField {
                architecture: f.architecture.into(),
                field: "intermediate_size".into(),
            })
        }
    };
    let tied = f.flag("tie_word_embeddings").unwrap_or(layout.tied_by_default);
    let (h, l) = (f64::from(hidden), f64::from(layers));

    // Attention, per layer.
    let kv_lora = f.count(&["kv_lora_rank"], custom_model::KV_LORA)?;
    let q_width = f64::from(heads * head_dim);
    let kv_width = f64::from(kv_heads * head_dim);
    let attention = match kv_lora {
        // Multi-head latent attention (DeepSeek-V2 paper §2.1): q through an
        // optional low-rank, k and v through the cached latent.
        Some(rank) => {
            let nope = f64::from(f.required(&["qk_nope_head_dim"], HEAD_DIM)?);
            let rope = f64::from(f.required(&["qk_rope_head_dim"], HEAD_DIM)?);
            let v = f64::from(f.required(&["v_head_dim"], HEAD_DIM)?);
            let nh = f64::from(heads);
            let rank = f64::from(rank);
            let q = match f.count(&["q_lora_rank"], ANY_COUNT)? {
                Some(q_rank) => {
                    let q_rank = f64::from(q_rank);
                    h * q_rank + q_rank + q_rank * nh * (nope + rope)
                }
                None => h * nh * (nope + rope),
            };
            let kv = h * (rank + rope) + rank + rank * nh * (nope + v);
            q + kv + nh * v * h
        }
        None => {
            let mut attention = h * q_width + 2.0 * h * kv_width + q_width * h;
            // `attention_bias` puts biases on q, k, v and o (LlamaAttention);
            // Qwen2 and GLM bias only q, k and v.
            let said = f.flag("attention_bias");
            let falcon_bias = model_type == "falcon" && f.flag("bias") == Some(true);
            if (layout.qkv_bias && said != Some(false)) || said == Some(true) || falcon_bias {
                attention += q_width + 2.0 * kv_width;
            }
            if layout.output_bias || (said == Some(true) && !layout.qkv_bias) || falcon_bias {
                attention += h;
            }
            attention
        }
    };
    // gpt-oss: a learned attention sink per head.
    let sinks = if model_type == "gpt_oss" { f64::from(heads) } else { 0.0 };
    let qk_norm = match layout.qk_norm {
        QkNorm::PerHead => 2.0 * f64::from(head_dim),
        QkNorm::Full => q_width + kv_width,
        QkNorm::None if f.flag("use_qk_norm") == Some(true) => 2.0 * f64::from(head_dim),
        QkNorm::None => 0.0,
    };
    let norms = layout.norms_per_layer * h;

    // The MLP: dense, or routed experts with shared ones.
    let matrices = if layout.gated { 3.0 } else { 2.0 };
    let dense_mlp = |width: f64| {
        let bias = if layout.mlp_bias { (matrices - 1.0) * width + h } else { 0.0 };
        matrices * h * width + bias
    };
    let experts = f.count(&["num_local_experts", "num_experts", "n_routed_experts", "moe_num_experts"], EXPERTS)?;
    let mut model = CustomModel {
        layers,
        hidden,
        heads: Some(heads),
        kv_heads: Some(kv_heads),
        head_dim: Some(head_dim),
        vocab: Some(vocab),
        context,
        tied,
        kv_lora,
        rope_dim: match kv_lora {
            Some(_) => f.count(&["qk_rope_head_dim"], HEAD_DIM)?,
            None => None,
        },
        ..CustomModel::default()
    };
    let embeddings = f64::from(vocab) * h * if tied { 1.0 } else { 2.0 };
    let final_norm = if layout.layer_norm_bias { 2.0 * h } else { h };
    let per_layer_fixed = attention + sinks + qk_norm + norms;
    let (total, active) = match experts.filter(|e| *e > 1) {
        None => {
            model.ffn = Some(ffn);
            (embeddings + l * (per_layer_fixed + dense_mlp(f64::from(ffn))) + final_norm, None)
        }
        Some(e) => {
            let k = f.required(&["num_experts_per_tok", "experts_per_token", "moe_top_k"], EXPERTS)?.min(e);
            let expert_width = f.count(&["moe_intermediate_size", "expert_intermediate_size"], FFN)?.unwrap_or(ffn);
            // Shared experts: Qwen2-MoE gives their width (and gates them
            // with one H-wide vector); DeepSeek and GLM give their number
            // at the routed width; Llama 4 has one at the expert width.
            let (shared_width, shared_gate) = match (
                f.count(&["shared_expert_intermediate_size"], FFN)?,
                f.count(&["n_shared_experts", "num_shared_experts"], ANY_COUNT)?,
            ) {
                (Some(width), _) if width > 0 => (width, h),
                (_, Some(n)) => (n * expert_width, 0.0),
                _ if model_type == "llama4_text" => (expert_width, 0.0),
                _ => (0, 0.0),
            };
            // Which layers are MoE: the first k dense (DeepSeek, GLM), then
            // every `step`-th (Qwen2-MoE `decoder_sparse_step`, Llama 4
            // `interleave_moe_layer_step`), less Qwen's `mlp_only_layers`.
            let first_dense = f.count(&["first_k_dense_replace"], LAYERS)?.unwrap_or(0).min(layers);
            let step = f
                .count(&["decoder_sparse_step", "moe_layer_freq", "interleave_moe_layer_step"], LAYERS)?
                .unwrap_or(1)
                .max(1);
            let mlp_only = match f.map.get("mlp_only_layers") {
                Some(Value::Array(list)) => list.len().min(layers as usize) as u32,
                _ => 0,
            };
            let moe_layers = (first_dense..layers).filter(|i| (i + 1) % step == 0).count() as u32;
            let moe_layers = moe_layers.saturating_sub(mlp_only);
            let dense_layers = f64::from(layers - moe_layers);
            let dense_width = f.count(&["intermediate_size_mlp"], FFN)?.unwrap_or(ffn);
            let expert = dense_mlp(f64::from(expert_width));
            // The router: H × E, and an expert-score bias (DeepSeek-V3's
            // aux-loss-free balancing, GLM-4.5) or gpt-oss's bias.
            let router_bias = matches!(f.text("topk_method"), Some("noaux_tc"))
                || model_type == "glm4_moe"
                || model_type == "gpt_oss";
            let router = h * f64::from(e) + if router_bias { f64::from(e) } else { 0.0 };
            let shared = if shared_width > 0 { 3.0 * h * f64::from(shared_width) + shared_gate } else { 0.0 };
            let moe_fixed = router + shared;
            let dense_part = dense_layers * dense_mlp(f64::from(dense_width));
            let moe = f64::from(moe_layers);
            let total =
                embeddings + l * per_layer_fixed + dense_part + moe * (moe_fixed + f64::from(e) * expert) + final_norm;
            let active =
                embeddings + l * per_layer_fixed + dense_part + moe * (moe_fixed + f64::from(k) * expert) + final_norm;
            model.ffn = Some(expert_width);
            model.experts = Some(e);
            model.experts_per_token = Some(k);
            model.shared_ffn = (shared_width > 0).then_some(shared_width);
            (total, Some(active))
        }
    };
    model.params = total;
    model.active_params = active;
    let (window, window_layers) = sliding_window(f, model_type, layers)?;
    model.window = window;
    model.window_layers = window_layers;
    for (value, (key, min, max)) in
        [(Some(model.params), custom_model::PARAMS), (model.active_params, custom_model::ACTIVE_PARAMS)]
    {
        if let Some(value) = value.filter(|v| !(min..=max).contains(v)) {
            return Err(ImportError::BadValue { field: key.to_string(), detail: format!("{value:e}") });
        }
    }
    Ok(model)
}

/// The sliding (local) attention window and how many layers use it:
/// - `layer_types` lists each layer's kind (gpt-oss, Gemma 3, Qwen3 in
///   recent configs);
/// - Gemma 2 alternates local and global layers;
/// - Gemma 3 makes every `sliding_window_pattern`-th layer global;
/// - Mistral and Mixtral with a window use it on every layer, Qwen2 only
///   with `use_sliding_window`.
fn sliding_window(f: &Fields<'_>, model_type: &str, layers: u32) -> Result<(Option<u32>, Option<u32>), ImportError> {
    let Some(window) = f.count(&["sliding_window", "attention_window_size"], custom_model::WINDOW)? else {
        return Ok((None, None));
    };
    if let Some(Value::Array(kinds)) = f.map.get("layer_types") {
        let local = kinds.iter().filter(|k| k.as_str() == Some("sliding_attention")).count() as u32;
        return Ok(if local > 0 { (Some(window), Some(local.min(layers))) } else { (None, None) });
    }
    let local = match model_type {
        "gemma2" => layers / 2,
        "gemma3_text" | "cohere2" => {
            let pattern = f.count(&["sliding_window_pattern"], custom_model::LAYERS)?.unwrap_or(6).max(1);
            layers - layers / pattern
        }
        "qwen2" | "qwen2_moe" | "qwen3" | "qwen3_moe" if f.flag("use_sliding_window") != Some(true) => 0,
        _ => layers,
    };
    Ok(if local > 0 { (Some(window), Some(local)) } else { (None, None) })
}

/// A value as a message quotes it: at most 40 characters.
fn shorten(text: &str) -> String {
    crate::model_search::echo(text)
}

#[cfg(test)]
mod tests;
