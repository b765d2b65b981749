//! The header of a `.gguf` file (llama.cpp's format) read into a
//! [`CustomModel`].
//!
//! The layout (ggml-org/ggml `docs/gguf.md`, versions 2 and 3,
//! little-endian): the magic `GGUF`, a u32 version, u64 tensor and
//! metadata counts, the metadata key-value pairs, then one info per
//! tensor (name, dimensions, ggml type, offset). The model's numbers come
//! from the metadata (`{arch}.block_count`, ...); its exact bytes and
//! parameters from the tensor infos, sized with ggml's block sizes.
//!
//! The file is hostile until checked: every count and length is checked
//! against the bytes left before anything is read or allocated, arrays
//! nest at most [`MAX_NESTING`] deep, and every element of the loop
//! consumes at least one byte, so the work is bounded by the input.

use super::bounds::{within, within_f64};
use super::imported::{FileFormat, Imported};
use super::ImportError;
use crate::engine::custom_model::{self, CustomModel};
use crate::engine::Precision;
use std::collections::BTreeMap;

const FORMAT: &str = "GGUF";

/// Arrays of arrays deeper than this are refused (no real key nests at
/// all; the spec allows it).
const MAX_NESTING: u32 = 4;

/// Numeric array elements kept per key: enough for a per-layer value of
/// any model within `custom_model::LAYERS`; longer arrays (the
/// tokenizer's scores) are only counted.
const KEPT_ELEMENTS: u64 = 4_096;

/// ggml's `GGML_MAX_DIMS`: no tensor has more dimensions.
const MAX_DIMS: u32 = 4;

/// Whether `bytes` start with the GGUF magic.
pub fn looks_like(bytes: &[u8]) -> bool {
    bytes.starts_with(b"GGUF")
}

/// Reads a GGUF header: `bytes` is the file's beginning, through its
/// tensor infos (the tensor data need not be present).
pub fn read(bytes: &[u8]) -> Result<Imported, ImportError> {
    if bytes.is_empty() {
        return Err(ImportError::Empty);
    }
    let mut r = Reader { bytes, pos: 0 };
    if r.take(4)? != b"GGUF" {
        return Err(ImportError::UnknownFormat);
    }
    let version = r.u32()?;
    if !(2..=3).contains(&version) {
        let detail = if version.swap_bytes() <= 3 {
            "big-endian GGUF files are not read".to_string()
        } else {
            format!("version {version} (versions 2 and 3 are read)")
        };
        return Err(bad_header(detail));
    }
    let tensor_count = r.u64()?;
    let kv_count = r.u64()?;
    // Lower bound of what the counts need: a key-value pair takes at least
    // 13 bytes (key length, type, a 1-byte value), a tensor info 24.
    let least = kv_count.saturating_mul(13).saturating_add(tensor_count.saturating_mul(24));
    r.need(least)?;

    let mut meta = BTreeMap::new();
    for _ in 0..kv_count {
        let key = r.string()?;
        let key = std::str::from_utf8(key).map_err(|_| bad_header("a metadata key is not UTF-8"))?.to_string();
        let value_type = r.u32()?;
        let value = r.value(value_type, 0)?;
        meta.insert(key, value);
    }
    let meta = Metadata(meta);

    r.need(tensor_count.saturating_mul(24))?;
    let mut tensors = Vec::new();
    for _ in 0..tensor_count {
        tensors.push(r.tensor_info()?);
    }
    check_offsets(&mut tensors, meta.uint("general.alignment")?.unwrap_or(32))?;
    model(&meta, &tensors)
}

/// A metadata value, as much of it as sizing needs.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i128),
    Float(f64),
    Bool(bool),
    /// Strings longer than a name are not kept (chat templates).
    Str(Option<String>),
    /// An array's length, and its numbers (booleans as 0 and 1) when
    /// short and numeric.
    Array {
        len: u64,
        numbers: Vec<i128>,
    },
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// Fails unless `n` more bytes are there.
    fn need(&self, n: u64) -> Result<(), ImportError> {
        let available = self.bytes.len() as u64;
        let needed = (self.pos as u64).saturating_add(n);
        if needed > available {
            return Err(ImportError::Truncated { format: FORMAT, needed, available });
        }
        Ok(())
    }

    fn take(&mut self, n: u64) -> Result<&'a [u8], ImportError> {
        self.need(n)?;
        // `need` bounds `pos + n` by the slice's length.
        let end = self.pos + n as usize;
        let out = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ImportError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N as u64)?);
        Ok(out)
    }

    fn u32(&mut self) -> Result<u32, ImportError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, ImportError> {
        Ok(u64::from_le_bytes(self.array()?))
    }

    /// A GGUF string: u64 length, then that many bytes.
    fn string(&mut self) -> Result<&'a [u8], ImportError> {
        let len = self.u64()?;
        self.take(len)
    }

    /// Bytes of one value of a fixed-size type, None for strings and
    /// arrays (value types of `docs/gguf.md`, `gguf_metadata_value_type`).
    fn fixed_size(value_type: u32) -> Option<u64> {
        match value_type {
            0 | 1 | 7 => Some(1),
            2 | 3 => Some(2),
            4..=6 => Some(4),
            10..=12 => Some(8),
            _ => None,
        }
    }

    fn value(&mut self, value_type: u32, depth: u32) -> Result<Value, ImportError> {
        Ok(match value_type {
            0 => Value::Int(self.array::<1>()?[0].into()),
            1 => Value::Int(i8::from_le_bytes(self.array()?).into()),
            2 => Value::Int(u16::from_le_bytes(self.array()?).into()),
            3 => Value::Int(i16::from_le_bytes(self.array()?).into()),
            4 => Value::Int(self.u32()?.into()),
            5 => Value::Int(i32::from_le_bytes(self.array()?).into()),
            6 => Value::Float(f32::from_le_bytes(self.array()?).into()),
            7 => match self.array::<1>()?[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                b => return Err(bad_header(format!("a boolean is {b}"))),
            },
            8 => {
                let s = self.string()?;
                let kept = (s.len() <= 4 * custom_model::NAME_CHARS).then(|| String::from_utf8_lossy(s).into_owned());
                Value::Str(kept)
            }
            9 => {
                if depth >= MAX_NESTING {
                    return Err(bad_header("arrays nest too deep"));
                }
                let elem_type = self.u32()?;
                let len = self.u64()?;
                // Each element takes at least its fixed size, or the 8-byte
                // length of a string or the 12-byte head of an array.
                let least = Self::fixed_size(elem_type).unwrap_or(if elem_type == 9 { 12 } else { 8 });
                self.need(len.saturating_mul(least))?;
                let mut numbers = Vec::new();
                for i in 0..len {
                    match self.value(elem_type, depth + 1)? {
                        Value::Int(n) if i < KEPT_ELEMENTS => numbers.push(n),
                        Value::Bool(b) if i < KEPT_ELEMENTS => numbers.push(b.into()),
                        _ => {}
                    }
                }
                Value::Array { len, numbers }
            }
            10 => Value::Int(self.u64()?.into()),
            11 => Value::Int(i64::from_le_bytes(self.array()?).into()),
            12 => Value::Float(f64::from_le_bytes(self.array()?)),
            t => return Err(bad_header(format!("unknown metadata value type {t}"))),
        })
    }

    fn tensor_info(&mut self) -> Result<TensorInfo, ImportError> {
        let name = String::from_utf8_lossy(self.string()?).into_owned();
        let n_dims = self.u32()?;
        if n_dims > MAX_DIMS {
            return Err(bad_header(format!("tensor {name} has {n_dims} dimensions")));
        }
        let mut dims = Vec::with_capacity(n_dims as usize);
        for _ in 0..n_dims {
            // ggml's sizes are int64: a u64 past i64::MAX is a negative one.
            let d = self.u64()?;
            if d > i64::MAX as u64 {
                return Err(bad_header(format!("tensor {name} has a negative dimension")));
            }
            dims.push(d);
        }
        let ggml_type = self.u32()?;
        let offset = self.u64()?;
        let elements = dims
            .iter()
            .try_fold(1u64, |n, &d| n.checked_mul(d))
            .ok_or_else(|| bad_header(format!("tensor {name}: dimensions {dims:?} overflow")))?;
        let (block, block_bytes) =
            block_size(ggml_type).ok_or_else(|| bad_header(format!("tensor {name}: unknown ggml type {ggml_type}")))?;
        // ggml quantizes rows: the first dimension is a whole number of blocks.
        if dims.first().is_some_and(|&d| d % block != 0) {
            return Err(bad_header(format!("tensor {name}: rows of {dims:?} are not whole blocks of {block}")));
        }
        let bytes = (elements / block)
            .checked_mul(block_bytes)
            .ok_or_else(|| bad_header(format!("tensor {name}: {elements} elements overflow")))?;
        Ok(TensorInfo { name, dims, ggml_type, offset, elements, bytes })
    }
}

struct TensorInfo {
    name: String,
    /// ggml order: `dims[0]` is the row length (a weight's input width).
    dims: Vec<u64>,
    ggml_type: u32,
    offset: u64,
    elements: u64,
    bytes: u64,
}

/// (elements per block, bytes per block) of a ggml type: the
/// `type_traits` table of ggml-org/llama.cpp `ggml/src/ggml.c`, whose
/// block sizes are the `block_*` structs of `ggml/src/ggml-common.h`
/// (e.g. block_q4_K: 2 halves + 12 scale bytes + 128 quant bytes = 144
/// for 256 weights). Type ids are `enum ggml_type` in `ggml/include/ggml.h`.
fn block_size(ggml_type: u32) -> Option<(u64, u64)> {
    Some(match ggml_type {
        0 => (1, 4),      // F32
        1 => (1, 2),      // F16
        2 => (32, 18),    // Q4_0
        3 => (32, 20),    // Q4_1
        6 => (32, 22),    // Q5_0
        7 => (32, 24),    // Q5_1
        8 => (32, 34),    // Q8_0
        9 => (32, 36),    // Q8_1
        10 => (256, 84),  // Q2_K
        11 => (256, 110), // Q3_K
        12 => (256, 144), // Q4_K
        13 => (256, 176), // Q5_K
        14 => (256, 210), // Q6_K
        15 => (256, 292), // Q8_K
        16 => (256, 66),  // IQ2_XXS
        17 => (256, 74),  // IQ2_XS
        18 => (256, 98),  // IQ3_XXS
        19 => (256, 50),  // IQ1_S
        20 => (32, 18),   // IQ4_NL
        21 => (256, 110), // IQ3_S
        22 => (256, 82),  // IQ2_S
        23 => (256, 136), // IQ4_XS
        24 => (1, 1),     // I8
        25 => (1, 2),     // I16
        26 => (1, 4),     // I32
        27 => (1, 8),     // I64
        28 => (1, 8),     // F64
        29 => (256, 56),  // IQ1_M
        30 => (1, 2),     // BF16
        34 => (256, 54),  // TQ1_0
        35 => (256, 66),  // TQ2_0
        39 => (32, 17),   // MXFP4: an E8M0 scale + 16 bytes of nibbles
        40 => (64, 36),   // NVFP4: 4 E4M3 scales + 32 bytes of nibbles
        41 => (128, 18),  // Q1_0: a half + 16 bytes of bits
        _ => return None,
    })
}

/// Tensors' data must not overlap, and each must start on the file's
/// alignment (`general.alignment`, 32 by default; docs/gguf.md).
fn check_offsets(tensors: &mut [TensorInfo], alignment: u64) -> Result<(), ImportError> {
    if alignment == 0 || !alignment.is_power_of_two() {
        return Err(bad_header(format!("general.alignment is {alignment}")));
    }
    if let Some(t) = tensors.iter().find(|t| t.offset % alignment != 0) {
        return Err(bad_header(format!("tensor {} is not aligned to {alignment} bytes", t.name)));
    }
    tensors.sort_by_key(|t| t.offset);
    for pair in tensors.windows(2) {
        if pair[0].offset.checked_add(pair[0].bytes).is_none_or(|end| end > pair[1].offset) {
            return Err(bad_header(format!("tensors {} and {} overlap", pair[0].name, pair[1].name)));
        }
    }
    Ok(())
}

struct Metadata(BTreeMap<String, Value>);

impl Metadata {
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    fn string(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Value::Str(Some(s))) => Some(s),
            _ => None,
        }
    }

    /// A non-negative integer; None when absent; BadValue when of another
    /// type or negative.
    fn uint(&self, key: &str) -> Result<Option<u64>, ImportError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Int(n)) => u64::try_from(*n).map(Some).map_err(|_| bad_value(key, format!("{n} is negative"))),
            Some(other) => Err(bad_value(key, format!("{other:?} is not a whole number"))),
        }
    }

    /// An integer given once or per layer (head_count_kv of hybrids, the
    /// FFN width of OpenELM): the per-layer values, or None when absent.
    fn per_layer(&self, key: &str, layers: u64) -> Result<Option<PerLayer>, ImportError> {
        match self.get(key) {
            Some(Value::Array { len, numbers }) => {
                if *len != numbers.len() as u64 || *len != layers {
                    return Err(bad_value(key, format!("{len} values for {layers} layers")));
                }
                let values = numbers
                    .iter()
                    .map(|&n| u64::try_from(n).map_err(|_| bad_value(key, format!("{n} is negative"))))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Some(PerLayer::Each(values)))
            }
            _ => Ok(self.uint(key)?.map(PerLayer::All)),
        }
    }
}

enum PerLayer {
    All(u64),
    Each(Vec<u64>),
}

impl PerLayer {
    fn max(&self) -> u64 {
        match self {
            PerLayer::All(v) => *v,
            PerLayer::Each(v) => v.iter().copied().max().unwrap_or(0),
        }
    }
}

/// The custom model the metadata and tensors describe.
fn model(meta: &Metadata, tensors: &[TensorInfo]) -> Result<Imported, ImportError> {
    use custom_model::*;
    let arch = meta
        .string("general.architecture")
        .ok_or_else(|| ImportError::MissingField { architecture: "GGUF".into(), field: "general.architecture".into() })?
        .to_string();
    let key = |name: &str| format!("{arch}.{name}");
    let required = |name: &str| -> Result<u64, ImportError> {
        meta.uint(&key(name))?.ok_or_else(|| ImportError::MissingField { architecture: arch.clone(), field: key(name) })
    };

    let layers = required("block_count")?;
    let mut model = CustomModel {
        layers: within(layers, LAYERS, &key("block_count"))?,
        hidden: within(required("embedding_length")?, HIDDEN, &key("embedding_length"))?,
        ..CustomModel::default()
    };
    model.name = meta
        .string("general.name")
        .map(|n| n.trim().chars().take(NAME_CHARS).collect::<String>())
        .filter(|n| !n.is_empty());
    model.context = opt(meta.uint(&key("context_length"))?, CONTEXT, &key("context_length"))?;

    // Attention. Heads may be given per layer; layers with no KV heads
    // are recurrent ones (Jamba, Nemotron-H, LFM2) and keep no cache.
    if let Some(heads) = meta.per_layer(&key("attention.head_count"), layers)? {
        model.heads = opt(Some(heads.max()).filter(|&h| h > 0), HEADS, &key("attention.head_count"))?;
    }
    let kv = meta.per_layer(&key("attention.head_count_kv"), layers)?;
    match &kv {
        Some(PerLayer::Each(per_layer)) => {
            let attention: Vec<u64> = per_layer.iter().copied().filter(|&h| h > 0).collect();
            let kv_layers = attention.len() as u64;
            if kv_layers < layers {
                model.kv_layers = Some(within(kv_layers, KV_LAYERS, "kv_layers")?);
            }
            // Uneven counts (OpenELM): the mean keeps the cache's total.
            if let Some(mean) =
                attention.iter().fold(kv_layers / 2, |sum, &h| sum.saturating_add(h)).checked_div(kv_layers)
            {
                model.kv_heads = Some(within(mean, KV_HEADS, &key("attention.head_count_kv"))?);
            }
        }
        Some(PerLayer::All(h)) => {
            model.kv_heads = opt(Some(*h).filter(|&h| h > 0), KV_HEADS, &key("attention.head_count_kv"))?
        }
        None => {}
    }
    model.head_dim = opt(meta.uint(&key("attention.key_length"))?, HEAD_DIM, &key("attention.key_length"))?;
    if model.heads.is_none() && model.kv_heads.is_none() && arch.starts_with("mamba") {
        model.kv_layers = Some(0);
    }

    // MLA (DeepSeek-V2/V3, Kimi K2): the cache holds the latent and the
    // decoupled RoPE key.
    if let Some(rank) = meta.uint(&key("attention.kv_lora_rank"))?.filter(|&r| r > 0) {
        model.kv_lora = Some(within(rank, KV_LORA, &key("attention.kv_lora_rank"))?);
        model.rope_dim = opt(meta.uint(&key("rope.dimension_count"))?, ROPE_DIM, &key("rope.dimension_count"))?;
        model.kv_heads = model.heads;
    }

    // Experts: the FFN width is per routed expert.
    let experts = meta.uint(&key("expert_count"))?.filter(|&e| e > 0);
    let ffn_key = if experts.is_some() && meta.get(&key("expert_feed_forward_length")).is_some() {
        key("expert_feed_forward_length")
    } else {
        key("feed_forward_length")
    };
    if let Some(ffn) = meta.per_layer(&ffn_key, layers)? {
        model.ffn = opt(Some(ffn.max()).filter(|&f| f > 0), FFN, &ffn_key)?;
    }
    if let Some(experts) = experts {
        model.experts = Some(within(experts, EXPERTS, &key("expert_count"))?);
        model.experts_per_token =
            opt(meta.uint(&key("expert_used_count"))?, EXPERTS_PER_TOKEN, &key("expert_used_count"))?;
        let shared = meta.uint(&key("expert_shared_count"))?.unwrap_or(0);
        let shared_width = match meta.uint(&key("expert_shared_feed_forward_length"))? {
            Some(width) => Some(width),
            None => model.ffn.map(u64::from),
        };
        if let (1.., Some(width)) = (shared, shared_width) {
            model.shared_ffn = Some(within(shared.saturating_mul(width), SHARED_FFN, "shared_ffn")?);
        }
    }

    window(meta, &arch, layers, &mut model)?;
    state(meta, &arch, layers, &kv, &mut model)?;

    // Vocabulary: the tokenizer's list, else the embedding's rows.
    let tokens = match meta.get("tokenizer.ggml.tokens") {
        Some(Value::Array { len, .. }) => Some(*len),
        _ => meta.uint(&key("vocab_size"))?,
    };
    let embedding_rows = tensors.iter().find(|t| t.name == "token_embd.weight").and_then(|t| t.dims.get(1).copied());
    model.vocab = opt(tokens.or(embedding_rows), VOCAB, "vocab")?;
    model.tied = !tensors.is_empty() && !tensors.iter().any(|t| t.name == "output.weight");

    // Sizes from the tensor infos.
    if tensors.is_empty() {
        return Err(ImportError::NoWeights { format: FORMAT });
    }
    let params: u128 = tensors.iter().map(|t| u128::from(t.elements)).sum();
    let bytes: u128 = tensors.iter().map(|t| u128::from(t.bytes)).sum();
    model.params = within_f64(params as f64, PARAMS, "params")?;
    model.weight_bytes = Some(within_f64(bytes as f64, WEIGHT_BYTES, "weight bytes")?);
    model.weight_format = match meta.uint("general.file_type")? {
        Some(file_type) => file_type_format(file_type),
        None => dominant_type(tensors, bytes),
    };
    // Active parameters: all but the routed experts a token skips. The
    // routed experts are the `*_exps` tensors (llama.cpp's LLM_TENSOR_FFN_*_EXPS).
    if let (Some(experts), Some(used)) = (model.experts, model.experts_per_token) {
        let routed: u128 = tensors.iter().filter(|t| t.name.contains("_exps.")).map(|t| u128::from(t.elements)).sum();
        if routed > 0 && used <= experts {
            let skipped = routed as f64 * f64::from(experts - used) / f64::from(experts);
            model.active_params = Some(within_f64(params as f64 - skipped, ACTIVE_PARAMS, "active params")?);
        }
    }

    // A split file (gguf-split) holds part of the tensors: its sizes are
    // that part's.
    let architecture = match meta.uint("split.count")? {
        Some(count @ 2..) => {
            let part = meta.uint("split.no")?.unwrap_or(0) + 1;
            format!("{arch} (part {part} of {count}: that part's weights only)")
        }
        _ => arch,
    };
    Ok(Imported { model, architecture, format: FileFormat::Gguf, text_only: false })
}

/// Sliding-window layers. llama.cpp marks layer `il` as windowed when
/// `il % period < period - 1` (`llama_hparams::set_swa_pattern`,
/// src/llama-hparams.cpp), with a period per architecture in its loader
/// (src/llama-model.cpp / src/models/*.cpp): gemma2 2 and gpt-oss 2 (every
/// other layer), cohere2 4, llama4 4 (chunked, 8192 tokens, 3 of 4
/// layers), gemma3 6 (5 of 6). `{arch}.attention.sliding_window_pattern`
/// overrides the period, or lists each layer as a boolean. Other
/// architectures with a window (Mistral 7B v0.1, Phi-3) window every layer.
fn window(meta: &Metadata, arch: &str, layers: u64, model: &mut CustomModel) -> Result<(), ImportError> {
    let window_key = format!("{arch}.attention.sliding_window");
    let mut window = meta.uint(&window_key)?;
    let period = match arch {
        "gemma2" | "gpt-oss" | "gptoss" => Some(2),
        "cohere2" => Some(4),
        "gemma3" | "gemma3n" | "gemma-embedding" => Some(6),
        "llama4" => {
            // Chunked attention with no window key, unless one says 0.
            window = Some(window.unwrap_or(8192));
            Some(4)
        }
        _ => None,
    };
    let Some(window) = window.filter(|&w| w > 0) else { return Ok(()) };
    model.window = Some(within(window, custom_model::WINDOW, &window_key)?);
    let pattern_key = format!("{arch}.attention.sliding_window_pattern");
    let windowed = match meta.get(&pattern_key) {
        Some(Value::Array { .. }) => match meta.per_layer(&pattern_key, layers)? {
            Some(PerLayer::Each(flags)) => Some(flags.iter().filter(|&&f| f != 0).count() as u64),
            _ => None,
        },
        Some(_) => meta.uint(&pattern_key)?.map(|p| windowed_layers(layers, p)),
        None => period.map(|p| windowed_layers(layers, p)),
    };
    if let Some(windowed) = windowed {
        model.window_layers = Some(within(windowed, custom_model::WINDOW_LAYERS, "window_layers")?);
    }
    Ok(())
}

/// Layers `il < layers` with `il % period < period - 1`; period 0 means
/// every layer (llama.cpp's convention).
fn windowed_layers(layers: u64, period: u64) -> u64 {
    match period {
        0 => layers,
        p => layers / p * (p - 1) + (layers % p).min(p - 1),
    }
}

/// Recurrent state of Mamba layers at 16 bits: the SSM state
/// (inner × state) and the convolution's last kernel − 1 inputs (inner
/// channels, plus B and C for each group in Mamba-2), per layer without a
/// KV cache (the `ssm.*` keys of llama.cpp's LLM_KV_SSM_*).
fn state(
    meta: &Metadata,
    arch: &str,
    layers: u64,
    kv: &Option<PerLayer>,
    model: &mut CustomModel,
) -> Result<(), ImportError> {
    let get = |name: &str| meta.uint(&format!("{arch}.ssm.{name}"));
    let (Some(inner), Some(state), Some(conv)) = (get("inner_size")?, get("state_size")?, get("conv_kernel")?) else {
        return Ok(());
    };
    let groups = get("group_count")?.unwrap_or(0);
    let ssm_layers = match kv {
        Some(PerLayer::Each(per_layer)) => per_layer.iter().filter(|&&h| h == 0).count() as u64,
        _ => layers,
    };
    let conv_channels = (inner as f64) + 2.0 * (groups as f64) * (state as f64);
    let per_layer = (inner as f64) * (state as f64) + (conv.saturating_sub(1) as f64) * conv_channels;
    let bytes = per_layer * ssm_layers as f64 * 2.0;
    model.state_bytes = Some(within_f64(bytes, custom_model::STATE_BYTES, "ssm state")?);
    Ok(())
}

/// The engine's format for a `general.file_type` (`enum llama_ftype` of
/// ggml-org/llama.cpp include/llama.h) where it has one.
fn file_type_format(file_type: u64) -> Option<Precision> {
    // LLAMA_FTYPE_GUESSED (1024) marks a type llama.cpp inferred.
    Some(match file_type & !1024 {
        0 => Precision::Fp32,
        1 => Precision::Fp16,
        2 => Precision::Q4_0,
        3 => Precision::Q4_1,
        7 => Precision::Q8_0,
        8 => Precision::Q5_0,
        9 => Precision::Q5_1,
        10 => Precision::Q2K,
        12 => Precision::Q3KM,
        15 => Precision::Q4KM,
        17 => Precision::Q5KM,
        18 => Precision::Q6K,
        19 => Precision::Iq2Xxs,
        20 => Precision::Iq2Xs,
        23 => Precision::Iq3Xxs,
        26 => Precision::Iq3S,
        30 => Precision::Iq4Xs,
        32 => Precision::Bf16,
        _ => return None,
    })
}

/// Without a file type: the ggml type of at least 90% of the bytes, where
/// the engine has it.
fn dominant_type(tensors: &[TensorInfo], total: u128) -> Option<Precision> {
    [(0, Precision::Fp32), (1, Precision::Fp16), (30, Precision::Bf16), (8, Precision::Q8_0)].into_iter().find_map(
        |(ggml_type, precision)| {
            let bytes: u128 = tensors.iter().filter(|t| t.ggml_type == ggml_type).map(|t| u128::from(t.bytes)).sum();
            (bytes * 10 >= total * 9).then_some(precision)
        },
    )
}

fn opt(value: Option<u64>, bounds: (&str, u32, u32), field: &str) -> Result<Option<u32>, ImportError> {
    value.map(|v| within(v, bounds, field)).transpose()
}

fn bad_header(detail: impl Into<String>) -> ImportError {
    ImportError::BadHeader { format: FORMAT, detail: detail.into() }
}

fn bad_value(field: &str, detail: String) -> ImportError {
    ImportError::BadValue { field: field.to_string(), detail }
}

#[cfg(test)]
mod tests {
    use super::*;

    const F32: u32 = 0;
    const Q4_K: u32 = 12;
    const Q6_K: u32 = 14;

    /// A GGUF v3 header built key by key, tensor by tensor.
    #[derive(Default)]
    struct Gguf {
        kv_count: u64,
        kvs: Vec<u8>,
        tensors: Vec<(String, Vec<u64>, u32)>,
    }

    fn string(out: &mut Vec<u8>, s: &str) {
        out.extend((s.len() as u64).to_le_bytes());
        out.extend(s.as_bytes());
    }

    impl Gguf {
        fn kv(mut self, key: &str, value_type: u32, value: &[u8]) -> Self {
            self.kv_count += 1;
            string(&mut self.kvs, key);
            self.kvs.extend(value_type.to_le_bytes());
            self.kvs.extend(value);
            self
        }

        fn u32(self, key: &str, v: u32) -> Self {
            self.kv(key, 4, &v.to_le_bytes())
        }

        fn str(self, key: &str, v: &str) -> Self {
            let mut value = Vec::new();
            string(&mut value, v);
            self.kv(key, 8, &value)
        }

        fn array(self, key: &str, elem_type: u32, count: u64, elems: &[u8]) -> Self {
            let mut value = elem_type.to_le_bytes().to_vec();
            value.extend(count.to_le_bytes());
            value.extend(elems);
            self.kv(key, 9, &value)
        }

        fn tensor(mut self, name: &str, dims: &[u64], ggml_type: u32) -> Self {
            self.tensors.push((name.to_string(), dims.to_vec(), ggml_type));
            self
        }

        fn bytes(&self) -> Vec<u8> {
            let mut out = b"GGUF".to_vec();
            out.extend(3u32.to_le_bytes());
            out.extend((self.tensors.len() as u64).to_le_bytes());
            out.extend(self.kv_count.to_le_bytes());
            out.extend(&self.kvs);
            let mut offset = 0u64;
            for (name, dims, ggml_type) in &self.tensors {
                string(&mut out, name);
                out.extend((dims.len() as u32).to_le_bytes());
                for d in dims {
                    out.extend(d.to_le_bytes());
                }
                out.extend(ggml_type.to_le_bytes());
                out.extend(offset.to_le_bytes());
                let (block, block_bytes) = block_size(*ggml_type).unwrap();
                // Wrapping: hostile dimensions must reach the reader.
                let elements = dims.iter().fold(1u64, |n, &d| n.wrapping_mul(d));
                offset = offset.wrapping_add((elements / block).wrapping_mul(block_bytes).wrapping_add(31) & !31);
            }
            out
        }
    }

    /// Llama-3-8B's metadata (as llama.cpp's convert_hf_to_gguf.py writes
    /// it) and tensors in a Q4_K_M-like mix: Q6_K for attn_v, ffn_down and
    /// the output, Q4_K for the other matrices, F32 norms.
    fn llama_3_8b_q4_k_m() -> Gguf {
        let tokens: Vec<u8> = (0..128_256u64).flat_map(|_| [1, 0, 0, 0, 0, 0, 0, 0, b't']).collect();
        let mut g = Gguf::default()
            .str("general.architecture", "llama")
            .str("general.name", "Meta Llama 3 8B Instruct")
            .u32("llama.block_count", 32)
            .u32("llama.context_length", 8192)
            .u32("llama.embedding_length", 4096)
            .u32("llama.feed_forward_length", 14_336)
            .u32("llama.attention.head_count", 32)
            .u32("llama.attention.head_count_kv", 8)
            .kv("llama.rope.freq_base", 6, &500_000f32.to_le_bytes())
            .kv("llama.attention.layer_norm_rms_epsilon", 6, &1e-5f32.to_le_bytes())
            .u32("general.file_type", 15)
            .u32("llama.vocab_size", 128_256)
            .u32("llama.rope.dimension_count", 128)
            .str("tokenizer.ggml.model", "gpt2")
            .array("tokenizer.ggml.tokens", 8, 128_256, &tokens)
            .tensor("token_embd.weight", &[4096, 128_256], Q4_K);
        for i in 0..32 {
            let b = format!("blk.{i}");
            g = g
                .tensor(&format!("{b}.attn_norm.weight"), &[4096], F32)
                .tensor(&format!("{b}.attn_q.weight"), &[4096, 4096], Q4_K)
                .tensor(&format!("{b}.attn_k.weight"), &[4096, 1024], Q4_K)
                .tensor(&format!("{b}.attn_v.weight"), &[4096, 1024], Q6_K)
                .tensor(&format!("{b}.attn_output.weight"), &[4096, 4096], Q4_K)
                .tensor(&format!("{b}.ffn_norm.weight"), &[4096], F32)
                .tensor(&format!("{b}.ffn_gate.weight"), &[4096, 14_336], Q4_K)
                .tensor(&format!("{b}.ffn_up.weight"), &[4096, 14_336], Q4_K)
                .tensor(&format!("{b}.ffn_down.weight"), &[14_336, 4096], Q6_K);
        }
        g.tensor("output_norm.weight", &[4096], F32).tensor("output.weight", &[4096, 128_256], Q6_K)
    }

    #[test]
    fn llama_3_8b_q4_k_m_header_gives_its_shape_and_exact_bytes() {
        let bytes = llama_3_8b_q4_k_m().bytes();
        assert!(looks_like(&bytes));
        let imported = read(&bytes).unwrap();
        let m = &imported.model;
        assert_eq!(imported.architecture, "llama");
        assert_eq!(imported.format, FileFormat::Gguf);
        assert_eq!(m.name.as_deref(), Some("Meta Llama 3 8B Instruct"));
        // models.csv: Llama-3-8B has 8,030,261,248 parameters.
        assert_eq!(m.params, 8_030_261_248.0);
        // Per layer, Q4_K (144 bytes per 256 weights): q, k, o, gate, up =
        // 155,189,248 weights = 87,293,952 bytes; Q6_K (210 per 256): v,
        // down = 62,914,560 weights = 51,609,600 bytes; two F32 norms
        // 32,768 bytes: 138,936,320 a layer, 4,445,962,240 for 32. The
        // embedding in Q4_K 295,501,824, the output in Q6_K 430,940,160,
        // its norm 16,384.
        assert_eq!(m.weight_bytes, Some(5_172_420_608.0));
        assert_eq!(m.weight_format, Some(Precision::Q4KM));
        assert_eq!(
            (m.layers, m.hidden, m.ffn, m.vocab, m.context),
            (32, 4096, Some(14_336), Some(128_256), Some(8192))
        );
        assert_eq!((m.heads, m.kv_heads, m.head_dim), (Some(32), Some(8), None));
        assert_eq!((m.experts, m.window, m.kv_lora, m.tied), (None, None, None, false));
    }

    #[test]
    fn every_prefix_of_a_header_is_an_error_and_never_a_panic() {
        let bytes = Gguf::default()
            .str("general.architecture", "llama")
            .u32("llama.block_count", 2)
            .array("llama.attention.head_count_kv", 4, 2, &[8, 0, 0, 0, 8, 0, 0, 0])
            .tensor("token_embd.weight", &[4096, 32_000], Q4_K)
            .tensor("blk.0.attn_k.weight", &[4096, 1024], Q6_K)
            .bytes();
        for len in 0..bytes.len() {
            let result = read(&bytes[..len]);
            assert!(result.is_err(), "prefix of {len} bytes");
            if len >= 24 {
                assert!(matches!(result, Err(ImportError::Truncated { format: FORMAT, .. })), "{len}: {result:?}");
            }
        }
        // Whole, it lacks the embedding width.
        assert!(matches!(read(&bytes), Err(ImportError::MissingField { .. })));
    }

    fn head(version: u32, tensors: u64, kvs: u64) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(version.to_le_bytes());
        out.extend(tensors.to_le_bytes());
        out.extend(kvs.to_le_bytes());
        out
    }

    #[test]
    fn hostile_headers_are_refused_before_anything_is_allocated() {
        // Counts and lengths past the bytes: refused at once.
        assert!(matches!(read(&head(3, 1 << 60, 0)), Err(ImportError::Truncated { .. })));
        assert!(matches!(read(&head(3, 0, u64::MAX)), Err(ImportError::Truncated { .. })));
        let mut huge_string = head(3, 0, 1);
        huge_string.extend(1_000_000_000_000u64.to_le_bytes());
        huge_string.extend([0; 16]);
        assert!(matches!(read(&huge_string), Err(ImportError::Truncated { needed, .. }) if needed > 1_000_000_000_000));
        let huge_array = Gguf::default().array("a", 10, u64::MAX / 4, &[]).bytes();
        assert!(matches!(read(&huge_array), Err(ImportError::Truncated { .. })));
        // Arrays of arrays past the nesting limit.
        let mut nested = Vec::new();
        for _ in 0..6 {
            nested.extend(9u32.to_le_bytes());
            nested.extend(1u64.to_le_bytes());
        }
        nested.extend(4u32.to_le_bytes());
        nested.extend(1u64.to_le_bytes());
        nested.extend(7u32.to_le_bytes());
        let deep = Gguf::default().kv("deep", 9, &nested).bytes();
        assert!(matches!(read(&deep), Err(ImportError::BadHeader { .. })), "{:?}", read(&deep));
        // Wrong magic, version 1, big-endian, an unknown value type, a bad bool.
        assert_eq!(read(b"GGUG\x03\0\0\0"), Err(ImportError::UnknownFormat));
        assert!(!looks_like(b"GGML"));
        assert!(matches!(read(&head(1, 0, 0)), Err(ImportError::BadHeader { .. })));
        assert!(matches!(read(&head(3u32.swap_bytes(), 0, 0)), Err(ImportError::BadHeader { .. })));
        assert!(matches!(read(&Gguf::default().kv("k", 13, &[0; 8]).bytes()), Err(ImportError::BadHeader { .. })));
        assert!(matches!(read(&Gguf::default().kv("k", 7, &[2]).bytes()), Err(ImportError::BadHeader { .. })));
        // Tensors: too many dimensions, negative or overflowing ones, an
        // unknown type, rows not whole blocks.
        let bad_tensor = |dims: &[u64], ggml_type: u32| {
            let g = Gguf::default().str("general.architecture", "llama").tensor("t", dims, F32).bytes();
            // Patch the type after building (block_size would refuse it).
            let mut bytes = g;
            let at = bytes.len() - 12;
            bytes[at..at + 4].copy_from_slice(&ggml_type.to_le_bytes());
            read(&bytes)
        };
        assert!(matches!(bad_tensor(&[1; 9], F32), Err(ImportError::BadHeader { .. })));
        assert!(matches!(bad_tensor(&[1; 5], F32), Err(ImportError::BadHeader { .. })));
        assert!(matches!(bad_tensor(&[u64::MAX, 1], F32), Err(ImportError::BadHeader { .. })));
        assert!(matches!(bad_tensor(&[1 << 40, 1 << 40], F32), Err(ImportError::BadHeader { .. })));
        assert!(matches!(bad_tensor(&[256, 2], 99), Err(ImportError::BadHeader { .. })));
        assert!(matches!(bad_tensor(&[100, 2], Q4_K), Err(ImportError::BadHeader { .. })));
        // Overlapping tensors.
        let mut overlap = Gguf::default().tensor("a", &[64], F32).tensor("b", &[64], F32).bytes();
        let at = overlap.len() - 8;
        overlap[at..].copy_from_slice(&32u64.to_le_bytes());
        assert!(matches!(read(&overlap), Err(ImportError::BadHeader { .. })), "{:?}", read(&overlap));
    }

    #[test]
    fn values_past_the_custom_model_bounds_are_bad_values() {
        let g = Gguf::default()
            .str("general.architecture", "llama")
            .u32("llama.block_count", 1_000_000)
            .u32("llama.embedding_length", 4096);
        assert!(
            matches!(read(&g.bytes()), Err(ImportError::BadValue { ref field, .. }) if field == "llama.block_count")
        );
        let negative =
            Gguf::default().str("general.architecture", "llama").kv("llama.block_count", 5, &(-3i32).to_le_bytes());
        assert!(matches!(read(&negative.bytes()), Err(ImportError::BadValue { .. })));
        let no_arch = Gguf::default().u32("llama.block_count", 32);
        assert!(matches!(read(&no_arch.bytes()), Err(ImportError::MissingField { .. })));
    }

    /// A header whose metadata is `base` plus per-layer Q8_0 weights big
    /// enough to pass the parameter bound.
    fn with_weights(g: Gguf, layers: u64, hidden: u64) -> Gguf {
        let mut g = g.tensor("token_embd.weight", &[hidden, 32_000], 8);
        for i in 0..layers {
            g = g.tensor(&format!("blk.{i}.ffn_up.weight"), &[hidden, 4 * hidden], 8);
        }
        g
    }

    #[test]
    fn sliding_window_layers_follow_llama_cpp_swa_patterns() {
        // Gemma 2 9B: 42 layers, every other one local with a 4,096 window.
        let gemma2 = Gguf::default()
            .str("general.architecture", "gemma2")
            .u32("gemma2.block_count", 42)
            .u32("gemma2.embedding_length", 3584)
            .u32("gemma2.attention.sliding_window", 4096);
        let m = read(&with_weights(gemma2, 42, 3584).bytes()).unwrap().model;
        assert_eq!((m.window, m.window_layers, m.tied), (Some(4096), Some(21), true));
        // Gemma 3 27B: 62 layers, 5 of each 6 local (1,024 tokens).
        let gemma3 = Gguf::default()
            .str("general.architecture", "gemma3")
            .u32("gemma3.block_count", 62)
            .u32("gemma3.embedding_length", 5376)
            .u32("gemma3.attention.sliding_window", 1024);
        let m = read(&with_weights(gemma3, 62, 5376).bytes()).unwrap().model;
        assert_eq!((m.window, m.window_layers), (Some(1024), Some(52)));
        // A per-layer boolean pattern counts its trues.
        let listed = Gguf::default()
            .str("general.architecture", "gemma3")
            .u32("gemma3.block_count", 4)
            .u32("gemma3.embedding_length", 2048)
            .u32("gemma3.attention.sliding_window", 512)
            .array("gemma3.attention.sliding_window_pattern", 7, 4, &[1, 1, 1, 0]);
        let m = read(&with_weights(listed, 4, 2048).bytes()).unwrap().model;
        assert_eq!(m.window_layers, Some(3));
        // The rule itself: il % period < period - 1.
        assert_eq!([windowed_layers(24, 2), windowed_layers(7, 6), windowed_layers(5, 0)], [12, 6, 5]);
    }

    #[test]
    fn moe_and_mla_metadata_give_experts_active_params_and_the_latent() {
        // DeepSeek-V3's attention and expert keys, at 2 layers.
        let tokens: Vec<u8> = (0..1000u64).flat_map(|_| [1, 0, 0, 0, 0, 0, 0, 0, b't']).collect();
        let g = Gguf::default()
            .str("general.architecture", "deepseek2")
            .u32("deepseek2.block_count", 2)
            .u32("deepseek2.embedding_length", 7168)
            .u32("deepseek2.feed_forward_length", 18_432)
            .u32("deepseek2.expert_feed_forward_length", 2048)
            .u32("deepseek2.expert_count", 256)
            .u32("deepseek2.expert_used_count", 8)
            .u32("deepseek2.expert_shared_count", 1)
            .u32("deepseek2.attention.head_count", 128)
            .u32("deepseek2.attention.head_count_kv", 128)
            .u32("deepseek2.attention.key_length", 192)
            .u32("deepseek2.attention.value_length", 128)
            .u32("deepseek2.attention.kv_lora_rank", 512)
            .u32("deepseek2.rope.dimension_count", 64)
            .u32("deepseek2.context_length", 163_840)
            .array("tokenizer.ggml.tokens", 8, 1000, &tokens)
            .tensor("token_embd.weight", &[7168, 1000], 8)
            .tensor("blk.1.ffn_gate_exps.weight", &[7168, 2048, 256], 8)
            .tensor("blk.1.ffn_up_exps.weight", &[7168, 2048, 256], 8)
            .tensor("blk.1.ffn_down_exps.weight", &[2048, 7168, 256], 8)
            .tensor("output.weight", &[7168, 1000], 8);
        let m = read(&g.bytes()).unwrap().model;
        assert_eq!((m.kv_lora, m.rope_dim, m.heads, m.kv_heads), (Some(512), Some(64), Some(128), Some(128)));
        assert_eq!((m.experts, m.experts_per_token, m.ffn, m.shared_ffn), (Some(256), Some(8), Some(2048), Some(2048)));
        assert_eq!((m.vocab, m.context, m.tied), (Some(1000), Some(163_840), false));
        let routed = 3.0 * 7168.0 * 2048.0 * 256.0;
        assert_eq!(m.params, routed + 2.0 * 7168.0 * 1000.0);
        assert_eq!(m.active_params, Some(m.params - routed * 248.0 / 256.0));
        assert_eq!(m.weight_format, Some(Precision::Q8_0), "no file type: 90% of the bytes are Q8_0");
    }

    #[test]
    fn hybrid_layers_without_kv_heads_keep_no_cache_and_mamba_keeps_state() {
        let g = Gguf::default()
            .str("general.architecture", "jamba")
            .u32("jamba.block_count", 4)
            .u32("jamba.embedding_length", 4096)
            .u32("jamba.attention.head_count", 32)
            .array("jamba.attention.head_count_kv", 4, 4, &[0, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
            .u32("jamba.ssm.inner_size", 8192)
            .u32("jamba.ssm.state_size", 16)
            .u32("jamba.ssm.conv_kernel", 4);
        let m = read(&with_weights(g, 4, 4096).bytes()).unwrap().model;
        assert_eq!((m.kv_layers, m.kv_heads), (Some(1), Some(8)));
        // 3 Mamba layers of 8,192·16 state + 3·8,192 conv values, 2 bytes each.
        assert_eq!(m.state_bytes, Some(3.0 * (8192.0 * 16.0 + 3.0 * 8192.0) * 2.0));
    }

    #[test]
    fn file_types_map_to_the_engines_formats_where_it_has_them() {
        let cases = [
            (0, Some(Precision::Fp32)),
            (1, Some(Precision::Fp16)),
            (7, Some(Precision::Q8_0)),
            (10, Some(Precision::Q2K)),
            (11, None),
            (12, Some(Precision::Q3KM)),
            (14, None),
            (15, Some(Precision::Q4KM)),
            (17, Some(Precision::Q5KM)),
            (18, Some(Precision::Q6K)),
            (32, Some(Precision::Bf16)),
            // The legacy block types and the i-quants llama.cpp's benchmarks
            // use most (issue 41), each to its own format.
            (2, Some(Precision::Q4_0)),
            (3, Some(Precision::Q4_1)),
            (8, Some(Precision::Q5_0)),
            (9, Some(Precision::Q5_1)),
            (19, Some(Precision::Iq2Xxs)),
            (20, Some(Precision::Iq2Xs)),
            (23, Some(Precision::Iq3Xxs)),
            (26, Some(Precision::Iq3S)),
            (30, Some(Precision::Iq4Xs)),
            (2 | 1024, Some(Precision::Q4_0)),
            // IQ1_S, IQ4_NL, TQ1_0: none.
            (24, None),
            (25, None),
            (36, None),
        ];
        for (file_type, precision) in cases {
            assert_eq!(file_type_format(file_type), precision, "file type {file_type}");
        }
    }
}
