//! What a model file was read as, and how much of it a reader takes.

use crate::engine::custom_model::CustomModel;

/// The most bytes a caller reads from a weights file: GGUF headers carry
/// the tokenizer's vocabulary (about 3 MB for a 150,000-token one), and
/// safetensors headers of the largest checkpoints' shards a few MB.
pub const HEADER_BYTES: u64 = 32 * 1024 * 1024;

/// The most bytes of JSON (config or index) read: the largest real index
/// files (a 1T-parameter MoE's weight map) are a few MB.
pub const JSON_BYTES: u64 = 16 * 1024 * 1024;

/// What a file was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    ConfigJson,
    SafetensorsIndex,
    Safetensors,
    Gguf,
}

/// A model read from a file: its numbers, and the architecture the file
/// names (`LlamaForCausalLM`, or GGUF's `llama`).
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub model: CustomModel,
    pub architecture: String,
    pub format: FileFormat,
    /// A vision-language config (`vision_config`): only its text decoder
    /// is read, so its tower and images go uncounted.
    pub text_only: bool,
}

/// A name as a link can keep it: the characters a link's `mname` takes,
/// at most `NAME_CHARS` of them; `None` when nothing is left.
pub fn link_name(name: &str) -> Option<String> {
    use crate::engine::custom_model::{is_name_char, NAME_CHARS};
    let kept: String = name.chars().filter(|c| is_name_char(*c)).take(NAME_CHARS).collect();
    let kept = kept.trim();
    (!kept.is_empty()).then(|| kept.to_string())
}
