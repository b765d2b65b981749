//! The header of a `.safetensors` file read into a [`CustomModel`].
//!
//! The format (huggingface/safetensors README, "Format"): an 8-byte
//! little-endian u64 N, then N bytes of UTF-8 JSON mapping each tensor's
//! name to its `dtype`, `shape` and `data_offsets` ([begin, end) in the
//! data that follows), plus an optional `__metadata__` of strings. Only
//! the header is read: the exact bytes of the weights are the sum of the
//! offset ranges, and the model's shape is inferred from Hugging Face's
//! tensor names (`model.layers.{i}.self_attn.k_proj.weight`, ...).
//!
//! Parameters are counted per element, except for packed quantized
//! tensors, whose elements hold several weights, and their scales, which
//! are not weights:
//! - MXFP4 (gpt-oss): `*_blocks` U8 hold 2 weights per byte; `*_scales`
//!   are shared exponents.
//! - GPTQ and AWQ: `.qweight` I32 holds 8 4-bit weights (the 4-bit
//!   default; 8-bit GPTQ is counted at half its weights); `.qzeros`,
//!   `.scales` and `.g_idx` are not weights.
//! - compressed-tensors: `.weight_packed` I32 holds 8 weights, U8 2.
//! - bitsandbytes 4-bit: a U8 `.weight` with a `quant_state` sibling holds
//!   2 weights per byte; `absmax`, `quant_map` and `quant_state` are not
//!   weights.
//! - FP8 and NVFP4 scales (`weight_scale`, `weight_scale_inv`,
//!   `input_scale`, `k_scale`, ...) are not weights.
//!
//! What tensor shapes do not give: attention heads (the KV cache width,
//! the K projection's rows, is exact; heads assume 128-wide ones unless a
//! per-head norm gives the width), the routed experts a token uses, and
//! the context length. A config.json gives those.

use super::bounds::{out_of_range, within, within_f64};
use super::imported::{FileFormat, Imported, HEADER_BYTES};
use super::ImportError;
use crate::engine::custom_model::{self, CustomModel};
use crate::engine::Precision;
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashSet};

const FORMAT: &str = "safetensors";

/// Whether `bytes` start like a safetensors file: a header length no
/// longer than the caller reads, then the JSON object's `{`. (Eight
/// bytes of JSON text read as a length are far past that bound.)
pub fn looks_like(bytes: &[u8]) -> bool {
    match header_len(bytes) {
        Some(n) => (2..=HEADER_BYTES).contains(&n) && bytes.get(8) == Some(&b'{'),
        None => false,
    }
}

/// Reads the header at the start of a .safetensors file: `bytes` is the
/// file's beginning (the caller slices at most [`HEADER_BYTES`]; the
/// tensor data need not be present).
pub fn read(bytes: &[u8]) -> Result<Imported, ImportError> {
    if bytes.is_empty() {
        return Err(ImportError::Empty);
    }
    let available = bytes.len() as u64;
    let n = header_len(bytes).ok_or(ImportError::Truncated { format: FORMAT, needed: 8, available })?;
    let needed = n.saturating_add(8);
    if needed > available {
        return Err(ImportError::Truncated { format: FORMAT, needed, available });
    }
    // `needed <= bytes.len()`, so the cast cannot truncate.
    let json = &bytes[8..needed as usize];
    let header: Map<String, Value> =
        serde_json::from_slice(json).map_err(|e| ImportError::NotJson { detail: e.to_string() })?;

    let mut name = None;
    let mut tensors = Vec::with_capacity(header.len());
    for (key, value) in &header {
        if key == "__metadata__" {
            name = model_name(value)?;
        } else {
            tensors.push(Tensor::parse(key, value)?);
        }
    }
    if tensors.is_empty() {
        return Err(ImportError::NoWeights { format: FORMAT });
    }
    check_offsets(&mut tensors)?;
    let names: HashSet<&str> = tensors.iter().map(|t| t.name).collect();

    let mut params: u128 = 0;
    let mut bytes_by_dtype: BTreeMap<&str, u128> = BTreeMap::new();
    for t in &tensors {
        params += u128::from(t.elements) * u128::from(weights_per_element(t, &names));
        *bytes_by_dtype.entry(t.dtype).or_default() += u128::from(t.bytes());
    }
    let weight_bytes: u128 = bytes_by_dtype.values().sum();
    let shape = Shape::infer(&tensors, &names)?;

    let mut model = shape.to_model()?;
    model.params = within_f64(params as f64, custom_model::PARAMS, "params")?;
    model.weight_bytes = Some(within_f64(weight_bytes as f64, custom_model::WEIGHT_BYTES, "weight bytes")?);
    model.weight_format = dominant_format(&bytes_by_dtype, weight_bytes);
    model.name = name;
    let architecture = if shape.complete {
        format!("safetensors ({} tensors)", shape.family)
    } else {
        format!("safetensors shard ({} tensors; this file's part only)", shape.family)
    };
    Ok(Imported { model, architecture, format: FileFormat::Safetensors, text_only: false })
}

fn header_len(bytes: &[u8]) -> Option<u64> {
    let head: [u8; 8] = bytes.get(..8)?.try_into().ok()?;
    Some(u64::from_le_bytes(head))
}

/// The model's name, where the metadata gives one (`name`, or the
/// ModelSpec title some exporters write).
fn model_name(metadata: &Value) -> Result<Option<String>, ImportError> {
    let Value::Object(map) = metadata else {
        return Err(bad_header("__metadata__ is not an object of strings"));
    };
    for key in ["name", "model_name", "modelspec.title"] {
        if let Some(Value::String(name)) = map.get(key) {
            let name: String = name.trim().chars().take(custom_model::NAME_CHARS).collect();
            if !name.is_empty() {
                return Ok(Some(name));
            }
        }
    }
    Ok(None)
}

/// One entry of the header.
struct Tensor<'a> {
    name: &'a str,
    dtype: &'a str,
    shape: Vec<u64>,
    elements: u64,
    begin: u64,
    end: u64,
}

impl<'a> Tensor<'a> {
    fn parse(name: &'a str, value: &'a Value) -> Result<Self, ImportError> {
        let field = |key: &str| value.get(key).ok_or_else(|| bad_header(format!("tensor {name}: no \"{key}\"")));
        let dtype =
            field("dtype")?.as_str().ok_or_else(|| bad_header(format!("tensor {name}: dtype is not a string")))?;
        let shape =
            u64s(field("shape")?).ok_or_else(|| bad_header(format!("tensor {name}: shape is not a list of sizes")))?;
        let offsets = u64s(field("data_offsets")?)
            .filter(|o| o.len() == 2 && o[0] <= o[1])
            .ok_or_else(|| bad_header(format!("tensor {name}: data_offsets is not [begin, end]")))?;
        let elements = shape
            .iter()
            .try_fold(1u64, |n, &d| n.checked_mul(d))
            .ok_or_else(|| bad_header(format!("tensor {name}: shape {shape:?} overflows")))?;
        let tensor = Tensor { name, dtype, shape, elements, begin: offsets[0], end: offsets[1] };
        if let Some(bits) = dtype_bits(dtype) {
            let expected = u128::from(elements) * u128::from(bits);
            if expected != u128::from(tensor.bytes()) * 8 {
                return Err(bad_header(format!(
                    "tensor {name}: {} bytes for {elements} {dtype} values",
                    tensor.bytes()
                )));
            }
        }
        Ok(tensor)
    }

    fn bytes(&self) -> u64 {
        self.end - self.begin
    }

    /// The rows of a 2-D weight (its output width), or the length of a
    /// 1-D one.
    fn rows(&self) -> Option<u64> {
        self.shape.first().copied()
    }
}

/// A JSON list of non-negative integers, at most 8 of them (no tensor has
/// more dimensions).
fn u64s(value: &Value) -> Option<Vec<u64>> {
    let list = value.as_array()?;
    if list.len() > 8 {
        return None;
    }
    list.iter().map(Value::as_u64).collect()
}

/// Bits per element of safetensors' dtypes (the `Dtype` enum of
/// huggingface/safetensors `safetensors/src/tensor.rs`); None for any
/// other, whose byte count is then taken as given.
fn dtype_bits(dtype: &str) -> Option<u64> {
    Some(match dtype {
        "F4" => 4,
        "F6_E2M3" | "F6_E3M2" => 6,
        "BOOL" | "U8" | "I8" | "F8_E5M2" | "F8_E4M3" | "F8_E8M0" => 8,
        "I16" | "U16" | "F16" | "BF16" => 16,
        "I32" | "U32" | "F32" => 32,
        "I64" | "U64" | "F64" | "C64" => 64,
        _ => return None,
    })
}

/// The data ranges may come in any order but must not overlap (the
/// README: the byte buffer is entirely indexed, without holes or
/// overlaps; holes are let pass, as they do not change the count).
fn check_offsets(tensors: &mut [Tensor]) -> Result<(), ImportError> {
    tensors.sort_by_key(|t| (t.begin, t.end));
    for pair in tensors.windows(2) {
        if pair[1].begin < pair[0].end {
            return Err(bad_header(format!("tensors {} and {} overlap", pair[0].name, pair[1].name)));
        }
    }
    Ok(())
}

/// How many weights one element of the tensor holds: 0 for scales and
/// zero points, more than 1 for packed 4-bit formats (see the module's
/// notes).
fn weights_per_element(t: &Tensor, names: &HashSet<&str>) -> u64 {
    let name = t.name;
    let not_weights = [
        "_scales",
        ".scales",
        ".qzeros",
        ".g_idx",
        ".weight_scale",
        ".weight_scale_inv",
        ".weight_scale_2",
        ".weight_global_scale",
        ".weight_zero_point",
        ".weight_g_idx",
        ".weight_shape",
        ".input_scale",
        ".input_global_scale",
        ".k_scale",
        ".v_scale",
        ".absmax",
        ".quant_map",
        ".nested_absmax",
        ".nested_quant_map",
    ];
    if not_weights.iter().any(|s| name.ends_with(s)) || name.contains(".quant_state.") {
        return 0;
    }
    match t.dtype {
        "U8" if name.ends_with("_blocks") || name.ends_with(".weight_packed") || is_bnb_4bit(name, names) => 2,
        "I32" if name.ends_with(".qweight") || name.ends_with(".weight_packed") => 8,
        _ => 1,
    }
}

fn is_bnb_4bit(name: &str, names: &HashSet<&str>) -> bool {
    name.ends_with(".weight")
        && ["nf4", "fp4"].iter().any(|q| names.contains(format!("{name}.quant_state.bitsandbytes__{q}").as_str()))
}

/// BF16, FP16, FP32 or FP8 when at least 90% of the bytes are in it.
fn dominant_format(bytes_by_dtype: &BTreeMap<&str, u128>, total: u128) -> Option<Precision> {
    let share = |dtypes: &[&str]| dtypes.iter().filter_map(|d| bytes_by_dtype.get(d)).sum::<u128>() * 10 >= total * 9;
    [
        (&["BF16"][..], Precision::Bf16),
        (&["F16"], Precision::Fp16),
        (&["F32"], Precision::Fp32),
        (&["F8_E4M3", "F8_E5M2"], Precision::Fp8),
    ]
    .into_iter()
    .find(|(dtypes, _)| share(dtypes))
    .map(|(_, p)| p)
}

/// What one decoder layer's tensors give (the first seen of each).
#[derive(Default)]
struct Layer {
    q: Option<u64>,
    k: Option<u64>,
    qkv: Option<u64>,
    k_norm: Option<u64>,
    /// MLA: the query's up-projection, the latent's down-projection
    /// (kv_lora + rope rows), its norm (kv_lora) and up-projection.
    q_b: Option<u64>,
    kv_a: Option<u64>,
    kv_lora: Option<u64>,
    kv_b: Option<u64>,
    gate: Option<u64>,
    gate_up: Option<u64>,
    expert_gate: Option<u64>,
    experts: u64,
    shared_gate: Option<u64>,
}

impl Layer {
    fn has_attention(&self) -> bool {
        self.k.is_some() || self.qkv.is_some() || self.kv_a.is_some()
    }

    fn has_mlp(&self) -> bool {
        self.gate.is_some() || self.gate_up.is_some() || self.expert_gate.is_some()
    }

    /// Records one module of this layer: `module` is the name past
    /// `layers.{i}.`, `t` the tensor that gives its width.
    fn record(&mut self, module: &str, t: &Tensor, rows: u64) {
        let set = |slot: &mut Option<u64>, v: u64| {
            slot.get_or_insert(v);
        };
        let (block, rest) = module.split_once('.').unwrap_or((module, ""));
        match (block, rest) {
            ("self_attn", "q_proj") => set(&mut self.q, rows),
            ("self_attn", "k_proj") => set(&mut self.k, rows),
            ("self_attn", "qkv_proj") => set(&mut self.qkv, rows),
            ("self_attn", "k_norm") => set(&mut self.k_norm, rows),
            ("self_attn", "q_b_proj") => set(&mut self.q_b, rows),
            ("self_attn", "kv_a_proj_with_mqa") => set(&mut self.kv_a, rows),
            ("self_attn", "kv_a_layernorm") => set(&mut self.kv_lora, rows),
            ("self_attn", "kv_b_proj") => set(&mut self.kv_b, rows),
            ("mlp" | "feed_forward", "gate_proj") => set(&mut self.gate, rows),
            ("mlp" | "feed_forward", "gate_up_proj") => set(&mut self.gate_up, rows / 2),
            // The router: one row per routed expert.
            ("mlp" | "feed_forward" | "block_sparse_moe", "gate" | "router") => self.experts = self.experts.max(rows),
            ("mlp" | "feed_forward", "shared_expert.gate_proj" | "shared_experts.gate_proj") => {
                set(&mut self.shared_gate, rows)
            }
            // gpt-oss and Llama 4 keep all experts in one tensor: MXFP4
            // blocks [experts, 2·ffn, ...], or [experts, hidden, 2·ffn].
            ("mlp" | "feed_forward", "experts.gate_up_proj_blocks" | "experts.gate_up_proj") => {
                let ffn = if rest.ends_with("_blocks") { t.shape.get(1) } else { t.shape.get(2) };
                if let (Some(&experts), Some(&ffn), 3..) = (t.shape.first(), ffn, t.shape.len()) {
                    self.experts = self.experts.max(experts);
                    set(&mut self.expert_gate, ffn / 2);
                }
            }
            ("mlp" | "feed_forward" | "block_sparse_moe", rest) => {
                // experts.{e}.gate_proj (Qwen, DeepSeek) or experts.{e}.w1 (Mixtral)
                let Some(expert) = rest.strip_prefix("experts.") else { return };
                let Some((index, proj)) = expert.split_once('.') else { return };
                let Ok(index) = index.parse::<u64>() else { return };
                if proj == "gate_proj" || proj == "w1" {
                    self.experts = self.experts.max(index.saturating_add(1));
                    set(&mut self.expert_gate, rows);
                }
            }
            _ => {}
        }
    }
}

/// The shape the tensor names give.
struct Shape {
    family: &'static str,
    /// The file holds the embedding, the final norm and every layer up to
    /// the last one it names: not one shard of several.
    complete: bool,
    layers: u64,
    hidden: u64,
    vocab: u64,
    tied: bool,
    kv_layers: u64,
    first: Layer,
    experts: u64,
    expert_ffn: Option<u64>,
    dense_ffn: Option<u64>,
    shared_ffn: Option<u64>,
}

impl Shape {
    fn infer(tensors: &[Tensor], names: &HashSet<&str>) -> Result<Shape, ImportError> {
        // The decoder's prefix is its embedding's: `model.`, or
        // `model.language_model.` in multimodal checkpoints, whose vision
        // tower also has `layers.{i}`.
        let embed = tensors
            .iter()
            .filter(|t| t.name.ends_with("embed_tokens.weight") && t.shape.len() == 2)
            .min_by_key(|t| t.name.len())
            .ok_or(ImportError::NoWeights { format: FORMAT })?;
        let prefix = &embed.name[..embed.name.len() - "embed_tokens.weight".len()];
        let (vocab, hidden) = (embed.shape[0], embed.shape[1]);
        let layers_prefix = format!("{prefix}layers.");

        let mut all: BTreeMap<u64, Layer> = BTreeMap::new();
        for t in tensors {
            let Some(rest) = t.name.strip_prefix(layers_prefix.as_str()) else { continue };
            let Some((index, rest)) = rest.split_once('.') else { continue };
            let Ok(index) = index.parse::<u64>() else { continue };
            if index >= u64::from(custom_model::LAYERS.2) {
                return Err(out_of_range("layers", index.saturating_add(1) as f64, custom_model::LAYERS));
            }
            if let Some((module, rows)) = module_rows(t, rest, names) {
                all.entry(index).or_default().record(module, t, rows);
            }
        }
        let count = all.keys().next_back().map_or(0, |last| last + 1);
        let kv_layers = all.values().filter(|l| l.has_attention()).count() as u64;
        let experts = all.values().map(|l| l.experts).max().unwrap_or(0);
        let expert_ffn = all.values().find_map(|l| l.expert_gate);
        let dense_ffn = all.values().find_map(|l| l.gate.or(l.gate_up));
        let shared_ffn = all.values().find_map(|l| l.shared_gate);
        let layers_named = all.len() as u64;
        // The first full layer (attention and MLP) gives the attention's shape.
        let first = all
            .into_values()
            .find(|l| l.has_attention() && l.has_mlp())
            .ok_or(ImportError::NoWeights { format: FORMAT })?;

        let final_norm = names.contains(format!("{prefix}norm.weight").as_str());
        let lm_head = ["lm_head.weight", "language_model.lm_head.weight"].iter().any(|n| names.contains(n))
            || names.contains(format!("{}lm_head.weight", prefix.strip_suffix("model.").unwrap_or(prefix)).as_str());
        let complete = final_norm && layers_named == count;
        let family = match (first.kv_a.is_some(), experts > 0, first.qkv.is_some()) {
            (true, _, _) => "DeepSeek-style MLA",
            (false, true, _) => "mixture-of-experts",
            (false, false, true) => "Phi-3-style fused",
            (false, false, false) => "Llama-style",
        };
        Ok(Shape {
            family,
            complete,
            layers: count,
            hidden,
            vocab,
            // An absent LM head means a tied one only where the file is
            // whole; a shard's head may be in another file.
            tied: complete && !lm_head,
            kv_layers,
            first,
            experts,
            expert_ffn,
            dense_ffn,
            shared_ffn,
        })
    }

    fn to_model(&self) -> Result<CustomModel, ImportError> {
        use custom_model::*;
        let l = &self.first;
        let hidden = within(self.hidden, HIDDEN, "hidden (embedding width)")?;
        let mut model = CustomModel {
            layers: within(self.layers, LAYERS, "layers")?,
            hidden,
            vocab: Some(within(self.vocab, VOCAB, "vocab (embedding rows)")?),
            tied: self.tied,
            ..CustomModel::default()
        };
        if self.kv_layers < self.layers {
            model.kv_layers = Some(within(self.kv_layers, KV_LAYERS, "kv_layers")?);
        }
        if let (Some(kv_a), Some(kv_lora)) = (l.kv_a, l.kv_lora) {
            // MLA caches the latent and the decoupled RoPE key (DeepSeek-V2
            // paper, 2.1.2): kv_a_proj_with_mqa has kv_lora + rope rows.
            let rope =
                kv_a.checked_sub(kv_lora).ok_or_else(|| bad_header("kv_a_proj_with_mqa is narrower than its norm"))?;
            model.kv_lora = Some(within(kv_lora, KV_LORA, "kv_lora")?);
            model.rope_dim = Some(within(rope, ROPE_DIM, "rope_dim")?);
            // Heads: q_b (or q) has heads·(nope + rope) rows and kv_b
            // heads·(nope + v); with v = nope, as in DeepSeek-V2/V3 and
            // Kimi K2, heads = (2·q − kv_b) / (2·rope).
            if let (Some(q), Some(kv_b)) = (l.q_b.or(l.q), l.kv_b) {
                let twice = q
                    .checked_mul(2)
                    .and_then(|q2| q2.checked_sub(kv_b))
                    .filter(|&d| rope > 0 && d > 0 && d % (2 * rope) == 0);
                if let Some(heads) = twice.map(|d| d / (2 * rope)).filter(|&h| q % h == 0) {
                    model.heads = Some(within(heads, HEADS, "heads")?);
                    model.kv_heads = model.heads;
                    model.head_dim = Some(within(q / heads, HEAD_DIM, "head_dim")?);
                }
            }
        } else {
            // Fused QKV (Phi-3): the queries take the model's width.
            let (q, k) = match (l.q, l.k, l.qkv) {
                (Some(q), Some(k), _) => (q, k),
                (_, _, Some(qkv)) if qkv > self.hidden => (self.hidden, (qkv - self.hidden) / 2),
                _ => return Err(ImportError::NoWeights { format: FORMAT }),
            };
            // A per-head K norm (Qwen3, Gemma 3) gives the head width
            // exactly; otherwise assume the usual 128 (64 for small models).
            let head_dim = [l.k_norm.filter(|&d| d <= 1024), Some(128), Some(64)]
                .into_iter()
                .flatten()
                .find(|&d| d > 0 && q % d == 0 && k % d == 0 && k >= d);
            if let Some(head_dim) = head_dim {
                model.heads = Some(within(q / head_dim, HEADS, "heads")?);
                model.kv_heads = Some(within(k / head_dim, KV_HEADS, "kv_heads")?);
                model.head_dim = Some(within(head_dim, HEAD_DIM, "head_dim")?);
            }
        }
        if self.experts > 0 {
            model.experts = Some(within(self.experts, EXPERTS, "experts")?);
            if let Some(ffn) = self.expert_ffn {
                model.ffn = Some(within(ffn, FFN, "ffn (per expert)")?);
            }
            if let Some(shared) = self.shared_ffn {
                model.shared_ffn = Some(within(shared, SHARED_FFN, "shared_ffn")?);
            }
        } else if let Some(ffn) = self.dense_ffn {
            model.ffn = Some(within(ffn, FFN, "ffn")?);
        }
        Ok(model)
    }
}

/// The module a layer tensor belongs to and the rows (output width) it
/// gives: `.weight` rows, compressed-tensors' `.weight_packed` rows, or
/// for GPTQ/AWQ the columns of `.scales` ([groups, out] in both, where
/// their `.qweight` layouts differ).
fn module_rows<'a>(t: &Tensor, rest: &'a str, names: &HashSet<&str>) -> Option<(&'a str, u64)> {
    if let Some(module) = rest.strip_suffix(".weight") {
        if t.dtype == "U8" && is_bnb_4bit(t.name, names) {
            return None;
        }
        return Some((module, t.rows()?));
    }
    if let Some(module) = rest.strip_suffix(".weight_packed") {
        return Some((module, t.rows()?));
    }
    if let Some(module) = rest.strip_suffix(".scales") {
        let stem = t.name.strip_suffix(".scales")?;
        if t.shape.len() == 2 && names.contains(format!("{stem}.qweight").as_str()) {
            return Some((module, t.shape[1]));
        }
        return None;
    }
    // gpt-oss's fused experts, named without a `.weight`.
    if rest.ends_with("experts.gate_up_proj_blocks") || rest.ends_with("experts.gate_up_proj") {
        return Some((rest, t.rows()?));
    }
    None
}

fn bad_header(detail: impl Into<String>) -> ImportError {
    ImportError::BadHeader { format: FORMAT, detail: detail.into() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    type Spec = (String, &'static str, Vec<u64>);

    fn t(name: impl Into<String>, dtype: &'static str, shape: &[u64]) -> Spec {
        (name.into(), dtype, shape.to_vec())
    }

    /// A header for these tensors, laid out one after another, as the
    /// file's first bytes (no tensor data).
    fn header(tensors: &[Spec], metadata: Option<Value>) -> Vec<u8> {
        let mut map = Map::new();
        if let Some(metadata) = metadata {
            map.insert("__metadata__".into(), metadata);
        }
        let mut offset = 0u64;
        for (name, dtype, shape) in tensors {
            let bytes = shape.iter().product::<u64>() * dtype_bits(dtype).unwrap() / 8;
            map.insert(name.clone(), json!({"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + bytes]}));
            offset += bytes;
        }
        raw(&serde_json::to_vec(&map).unwrap())
    }

    fn raw(json: &[u8]) -> Vec<u8> {
        let mut out = (json.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(json);
        out
    }

    /// Llama-3.1-8B's tensors and shapes, as in meta-llama/Llama-3.1-8B.
    fn llama_3_1_8b() -> Vec<Spec> {
        let mut out = vec![t("model.embed_tokens.weight", "BF16", &[128_256, 4096])];
        for i in 0..32 {
            let p = format!("model.layers.{i}");
            out.extend([
                t(format!("{p}.self_attn.q_proj.weight"), "BF16", &[4096, 4096]),
                t(format!("{p}.self_attn.k_proj.weight"), "BF16", &[1024, 4096]),
                t(format!("{p}.self_attn.v_proj.weight"), "BF16", &[1024, 4096]),
                t(format!("{p}.self_attn.o_proj.weight"), "BF16", &[4096, 4096]),
                t(format!("{p}.mlp.gate_proj.weight"), "BF16", &[14_336, 4096]),
                t(format!("{p}.mlp.up_proj.weight"), "BF16", &[14_336, 4096]),
                t(format!("{p}.mlp.down_proj.weight"), "BF16", &[4096, 14_336]),
                t(format!("{p}.input_layernorm.weight"), "BF16", &[4096]),
                t(format!("{p}.post_attention_layernorm.weight"), "BF16", &[4096]),
            ]);
        }
        out.push(t("model.norm.weight", "BF16", &[4096]));
        out.push(t("lm_head.weight", "BF16", &[128_256, 4096]));
        out
    }

    #[test]
    fn llama_3_1_8b_header_gives_its_published_parameter_count_and_shape() {
        let imported = read(&header(&llama_3_1_8b(), Some(json!({"format": "pt"})))).unwrap();
        let m = &imported.model;
        // models.csv llama-3.1-8b: params_computed_total 8,030,261,248.
        assert_eq!(m.params, 8_030_261_248.0);
        assert_eq!(m.weight_bytes, Some(2.0 * 8_030_261_248.0));
        assert_eq!(m.weight_format, Some(Precision::Bf16));
        assert_eq!((m.layers, m.hidden, m.vocab, m.ffn), (32, 4096, Some(128_256), Some(14_336)));
        assert_eq!((m.heads, m.kv_heads, m.head_dim), (Some(32), Some(8), Some(128)));
        assert_eq!((m.experts, m.kv_layers, m.kv_lora, m.tied, &m.name), (None, None, None, false, &None));
        assert_eq!(imported.architecture, "safetensors (Llama-style tensors)");
        assert_eq!(imported.format, FileFormat::Safetensors);
        assert!(looks_like(&header(&llama_3_1_8b(), None)));
    }

    #[test]
    fn an_absent_lm_head_is_a_tied_embedding_and_the_metadata_names_the_model() {
        let mut tensors = llama_3_1_8b();
        tensors.pop();
        let m = read(&header(&tensors, Some(json!({"format": "pt", "name": "My tuned 8B"})))).unwrap().model;
        assert!(m.tied);
        assert_eq!(m.params, 8_030_261_248.0 - 128_256.0 * 4096.0);
        assert_eq!(m.name.as_deref(), Some("My tuned 8B"));
    }

    #[test]
    fn mixtral_8x7b_experts_are_counted_from_their_names() {
        let mut tensors = vec![t("model.embed_tokens.weight", "BF16", &[32_000, 4096])];
        for i in 0..32 {
            let p = format!("model.layers.{i}");
            tensors.extend([
                t(format!("{p}.self_attn.q_proj.weight"), "BF16", &[4096, 4096]),
                t(format!("{p}.self_attn.k_proj.weight"), "BF16", &[1024, 4096]),
                t(format!("{p}.self_attn.v_proj.weight"), "BF16", &[1024, 4096]),
                t(format!("{p}.self_attn.o_proj.weight"), "BF16", &[4096, 4096]),
                t(format!("{p}.block_sparse_moe.gate.weight"), "BF16", &[8, 4096]),
                t(format!("{p}.input_layernorm.weight"), "BF16", &[4096]),
                t(format!("{p}.post_attention_layernorm.weight"), "BF16", &[4096]),
            ]);
            for e in 0..8 {
                let p = format!("{p}.block_sparse_moe.experts.{e}");
                tensors.extend([
                    t(format!("{p}.w1.weight"), "BF16", &[14_336, 4096]),
                    t(format!("{p}.w2.weight"), "BF16", &[4096, 14_336]),
                    t(format!("{p}.w3.weight"), "BF16", &[14_336, 4096]),
                ]);
            }
        }
        tensors.push(t("model.norm.weight", "BF16", &[4096]));
        tensors.push(t("lm_head.weight", "BF16", &[32_000, 4096]));
        let imported = read(&header(&tensors, None)).unwrap();
        let m = &imported.model;
        // models.csv mixtral-8x7b: params_computed_total 46,702,792,704.
        assert_eq!(m.params, 46_702_792_704.0);
        assert_eq!((m.experts, m.ffn, m.shared_ffn, m.layers), (Some(8), Some(14_336), None, 32));
        assert_eq!((m.heads, m.kv_heads), (Some(32), Some(8)));
        assert_eq!(imported.architecture, "safetensors (mixture-of-experts tensors)");
    }

    #[test]
    fn qwen3_30b_a3b_head_width_comes_from_its_per_head_norm() {
        let mut tensors = vec![t("model.embed_tokens.weight", "BF16", &[151_936, 2048])];
        for i in 0..48 {
            let p = format!("model.layers.{i}");
            tensors.extend([
                t(format!("{p}.self_attn.q_proj.weight"), "BF16", &[4096, 2048]),
                t(format!("{p}.self_attn.k_proj.weight"), "BF16", &[512, 2048]),
                t(format!("{p}.self_attn.v_proj.weight"), "BF16", &[512, 2048]),
                t(format!("{p}.self_attn.o_proj.weight"), "BF16", &[2048, 4096]),
                t(format!("{p}.self_attn.q_norm.weight"), "BF16", &[128]),
                t(format!("{p}.self_attn.k_norm.weight"), "BF16", &[128]),
                t(format!("{p}.mlp.gate.weight"), "BF16", &[128, 2048]),
                t(format!("{p}.input_layernorm.weight"), "BF16", &[2048]),
                t(format!("{p}.post_attention_layernorm.weight"), "BF16", &[2048]),
            ]);
            for e in 0..128 {
                let p = format!("{p}.mlp.experts.{e}");
                tensors.extend([
                    t(format!("{p}.gate_proj.weight"), "BF16", &[768, 2048]),
                    t(format!("{p}.up_proj.weight"), "BF16", &[768, 2048]),
                    t(format!("{p}.down_proj.weight"), "BF16", &[2048, 768]),
                ]);
            }
        }
        tensors.push(t("model.norm.weight", "BF16", &[2048]));
        tensors.push(t("lm_head.weight", "BF16", &[151_936, 2048]));
        let m = read(&header(&tensors, None)).unwrap().model;
        // models.csv qwen3-30b-a3b: params_computed_total 30,532,122,624.
        assert_eq!(m.params, 30_532_122_624.0);
        assert_eq!((m.heads, m.kv_heads, m.head_dim), (Some(32), Some(4), Some(128)));
        assert_eq!((m.experts, m.ffn, m.layers, m.hidden), (Some(128), Some(768), 48, 2048));
    }

    /// DeepSeek-V3's shapes (deepseek-ai/DeepSeek-V3 config.json) at two
    /// layers, one dense and one MoE, in its FP8 with 128×128 block scales.
    fn deepseek_v3_two_layers() -> Vec<Spec> {
        let fp8 = |name: String, shape: &[u64]| {
            let scales = [shape[0].div_ceil(128), shape[1].div_ceil(128)];
            [t(format!("{name}.weight"), "F8_E4M3", shape), t(format!("{name}.weight_scale_inv"), "F32", &scales)]
        };
        let mut tensors = vec![t("model.embed_tokens.weight", "BF16", &[129_280, 7168])];
        for i in 0..2 {
            let p = format!("model.layers.{i}");
            tensors.extend(fp8(format!("{p}.self_attn.q_a_proj"), &[1536, 7168]));
            tensors.extend(fp8(format!("{p}.self_attn.q_b_proj"), &[24_576, 1536]));
            tensors.extend(fp8(format!("{p}.self_attn.kv_a_proj_with_mqa"), &[576, 7168]));
            tensors.extend(fp8(format!("{p}.self_attn.kv_b_proj"), &[32_768, 512]));
            tensors.extend(fp8(format!("{p}.self_attn.o_proj"), &[7168, 16_384]));
            tensors.extend([
                t(format!("{p}.self_attn.q_a_layernorm.weight"), "BF16", &[1536]),
                t(format!("{p}.self_attn.kv_a_layernorm.weight"), "BF16", &[512]),
                t(format!("{p}.input_layernorm.weight"), "BF16", &[7168]),
                t(format!("{p}.post_attention_layernorm.weight"), "BF16", &[7168]),
            ]);
            let mlp = |p: String, ffn: u64| {
                [
                    fp8(format!("{p}.gate_proj"), &[ffn, 7168]),
                    fp8(format!("{p}.up_proj"), &[ffn, 7168]),
                    fp8(format!("{p}.down_proj"), &[7168, ffn]),
                ]
                .concat()
            };
            if i == 0 {
                tensors.extend(mlp(format!("{p}.mlp"), 18_432));
            } else {
                tensors.push(t(format!("{p}.mlp.gate.weight"), "BF16", &[256, 7168]));
                tensors.push(t(format!("{p}.mlp.gate.e_score_correction_bias"), "F32", &[256]));
                tensors.extend(mlp(format!("{p}.mlp.shared_experts"), 2048));
                for e in 0..256 {
                    tensors.extend(mlp(format!("{p}.mlp.experts.{e}"), 2048));
                }
            }
        }
        tensors.push(t("model.norm.weight", "BF16", &[7168]));
        tensors.push(t("lm_head.weight", "BF16", &[129_280, 7168]));
        tensors
    }

    #[test]
    fn deepseek_v3_latent_attention_gives_kv_lora_rope_dim_and_heads() {
        let imported = read(&header(&deepseek_v3_two_layers(), None)).unwrap();
        let m = &imported.model;
        assert_eq!((m.kv_lora, m.rope_dim), (Some(512), Some(64)));
        assert_eq!((m.heads, m.kv_heads, m.head_dim), (Some(128), Some(128), Some(192)));
        assert_eq!((m.experts, m.ffn, m.shared_ffn), (Some(256), Some(2048), Some(2048)));
        // Scales are not parameters: embedding and head 2·129,280·7,168;
        // attention per layer 1,536·7,168 + 24,576·1,536 + 576·7,168 +
        // 32,768·512 + 7,168·16,384 = 187,105,280, norms 1,536 + 512 +
        // 2·7,168 = 16,384; the dense MLP 3·18,432·7,168, the MoE layer
        // 257·3·2,048·7,168 + the router 256·7,168 and its 256 biases; the
        // final norm 7,168.
        let expected: u64 = 2 * 129_280 * 7168
            + 2 * (187_105_280 + 16_384)
            + 3 * 18_432 * 7168
            + 257 * 3 * 2048 * 7168
            + 256 * 7168
            + 256
            + 7168;
        assert_eq!(m.params, expected as f64);
        // At 2 of 61 layers the BF16 embedding and head are a quarter of
        // the bytes: under the 90% that names a format.
        assert_eq!(m.weight_format, None);
        assert_eq!(imported.architecture, "safetensors (DeepSeek-style MLA tensors)");
    }

    #[test]
    fn mxfp4_blocks_hold_two_weights_a_byte_and_their_scales_none() {
        // One gpt-oss-20b layer's experts (openai/gpt-oss-20b): 32 experts,
        // 2,880 wide, 2,880 per expert, 32-weight MXFP4 blocks of 16 bytes.
        let p = "model.layers.0";
        let mut tensors = vec![
            t("model.embed_tokens.weight", "BF16", &[201_088, 2880]),
            t(format!("{p}.self_attn.q_proj.weight"), "BF16", &[4096, 2880]),
            t(format!("{p}.self_attn.k_proj.weight"), "BF16", &[512, 2880]),
            t(format!("{p}.self_attn.v_proj.weight"), "BF16", &[512, 2880]),
            t(format!("{p}.self_attn.o_proj.weight"), "BF16", &[2880, 4096]),
            t(format!("{p}.mlp.router.weight"), "BF16", &[32, 2880]),
            t(format!("{p}.mlp.experts.gate_up_proj_blocks"), "U8", &[32, 5760, 90, 16]),
            t(format!("{p}.mlp.experts.gate_up_proj_scales"), "U8", &[32, 5760, 90]),
            t(format!("{p}.mlp.experts.down_proj_blocks"), "U8", &[32, 2880, 90, 16]),
            t(format!("{p}.mlp.experts.down_proj_scales"), "U8", &[32, 2880, 90]),
            t("model.norm.weight", "BF16", &[2880]),
        ];
        tensors.push(t("lm_head.weight", "BF16", &[201_088, 2880]));
        let m = read(&header(&tensors, None)).unwrap().model;
        let attention: u64 = 4096 * 2880 * 2 + 512 * 2880 * 2;
        let experts: u64 = 32 * 5760 * 2880 + 32 * 2880 * 2880;
        let expected: u64 = 2 * 201_088 * 2880 + attention + 32 * 2880 + experts + 2880;
        assert_eq!(m.params, expected as f64);
        assert_eq!((m.experts, m.ffn), (Some(32), Some(2880)));
    }

    #[test]
    fn gptq_qweight_holds_eight_weights_and_the_scales_give_the_width() {
        let mut tensors = vec![t("model.embed_tokens.weight", "F16", &[32_000, 4096])];
        for (module, out, inp) in [
            ("self_attn.q_proj", 4096, 4096),
            ("self_attn.k_proj", 1024, 4096),
            ("self_attn.v_proj", 1024, 4096),
            ("self_attn.o_proj", 4096, 4096),
            ("mlp.gate_proj", 14_336, 4096),
            ("mlp.up_proj", 14_336, 4096),
            ("mlp.down_proj", 4096, 14_336),
        ] {
            let p = format!("model.layers.0.{module}");
            tensors.extend([
                t(format!("{p}.qweight"), "I32", &[inp / 8, out]),
                t(format!("{p}.qzeros"), "I32", &[inp / 128, out / 8]),
                t(format!("{p}.scales"), "F16", &[inp / 128, out]),
                t(format!("{p}.g_idx"), "I32", &[inp]),
            ]);
        }
        tensors.push(t("model.norm.weight", "F16", &[4096]));
        tensors.push(t("lm_head.weight", "F16", &[32_000, 4096]));
        let m = read(&header(&tensors, None)).unwrap().model;
        let linear: u64 = 2 * 4096 * 4096 + 2 * 1024 * 4096 + 3 * 14_336 * 4096;
        assert_eq!(m.params, (2 * 32_000 * 4096 + linear + 4096) as f64);
        assert_eq!((m.heads, m.kv_heads, m.ffn), (Some(32), Some(8), Some(14_336)));
    }

    #[test]
    fn a_shard_with_embedding_and_layers_is_read_as_its_part_only() {
        // The first shard of a 4-shard Llama: embedding and layers 0..=8.
        let tensors: Vec<Spec> = llama_3_1_8b().into_iter().take(1 + 9 * 9).collect();
        let imported = read(&header(&tensors, None)).unwrap();
        assert_eq!(imported.model.layers, 9);
        assert!(!imported.model.tied, "the LM head may be in another shard");
        assert!(imported.architecture.contains("shard"), "{}", imported.architecture);
        // A later shard, with no embedding, cannot give the model.
        let later: Vec<Spec> = llama_3_1_8b().into_iter().skip(1 + 9 * 9).collect();
        assert_eq!(read(&header(&later, None)), Err(ImportError::NoWeights { format: FORMAT }));
    }

    #[test]
    fn every_prefix_of_a_header_is_an_error_and_never_a_panic() {
        let bytes = header(&llama_3_1_8b()[..10], None);
        for len in 0..bytes.len() {
            assert!(read(&bytes[..len]).is_err(), "prefix of {len} bytes");
        }
        assert_eq!(read(&[]), Err(ImportError::Empty));
        let needed = bytes.len() as u64;
        assert_eq!(read(&bytes[..100]), Err(ImportError::Truncated { format: FORMAT, needed, available: 100 }));
    }

    #[test]
    fn hostile_headers_are_refused_with_the_reason() {
        let is_bad_header = |json: &str| matches!(read(&raw(json.as_bytes())), Err(ImportError::BadHeader { .. }));
        let tensor = |body: &str| format!(r#"{{"model.embed_tokens.weight": {body}}}"#);
        // Wrong types.
        assert!(is_bad_header(&tensor(r#"{"dtype": 7, "shape": [2], "data_offsets": [0, 4]}"#)));
        assert!(is_bad_header(&tensor(r#"{"dtype": "F16", "shape": "2", "data_offsets": [0, 4]}"#)));
        assert!(is_bad_header(&tensor(r#"{"dtype": "F16", "shape": [-2], "data_offsets": [0, 4]}"#)));
        assert!(is_bad_header(&tensor(r#"{"dtype": "F16", "shape": [2], "data_offsets": [4, 0]}"#)));
        assert!(is_bad_header(&tensor(r#"{"dtype": "F16", "shape": [2]}"#)));
        assert!(is_bad_header(&tensor(r#"[1, 2]"#)));
        assert!(is_bad_header(r#"{"__metadata__": [1]}"#));
        // Bytes that do not match the shape, and a shape that overflows.
        assert!(is_bad_header(&tensor(r#"{"dtype": "F16", "shape": [3], "data_offsets": [0, 4]}"#)));
        let huge = u64::MAX / 2;
        assert!(is_bad_header(&tensor(&format!(r#"{{"dtype": "U8", "shape": [{huge}, 4], "data_offsets": [0, 4]}}"#))));
        // Overlapping tensors.
        assert!(is_bad_header(
            r#"{"a": {"dtype": "F16", "shape": [4], "data_offsets": [0, 8]},
                "b": {"dtype": "F16", "shape": [4], "data_offsets": [4, 12]}}"#
        ));
        // Not JSON, and a length past anything read.
        assert!(matches!(read(&raw(b"{not json")), Err(ImportError::NotJson { .. })));
        let mut claim = u64::MAX.to_le_bytes().to_vec();
        claim.extend_from_slice(b"{}");
        assert!(matches!(read(&claim), Err(ImportError::Truncated { .. })));
        assert!(!looks_like(&claim));
        // JSON text is not a safetensors length.
        assert!(!looks_like(br#"{"text":{"a": 1}}"#));
        // A valid header without transformer tensors.
        assert_eq!(read(&raw(b"{}")), Err(ImportError::NoWeights { format: FORMAT }));
    }

    #[test]
    fn numbers_past_the_custom_model_bounds_are_bad_values() {
        // A layer index past any model's.
        let tensors = vec![
            t("model.embed_tokens.weight", "BF16", &[32_000, 4096]),
            t("model.layers.5000.self_attn.k_proj.weight", "BF16", &[1024, 4096]),
        ];
        assert!(matches!(read(&header(&tensors, None)), Err(ImportError::BadValue { .. })));
        // A toy model under a million parameters.
        let tiny = vec![
            t("model.embed_tokens.weight", "F32", &[100, 64]),
            t("model.layers.0.self_attn.q_proj.weight", "F32", &[64, 64]),
            t("model.layers.0.self_attn.k_proj.weight", "F32", &[64, 64]),
            t("model.layers.0.mlp.gate_proj.weight", "F32", &[128, 64]),
        ];
        assert!(
            matches!(read(&header(&tiny, None)), Err(ImportError::BadValue { ref field, .. }) if field == "params")
        );
    }
}
