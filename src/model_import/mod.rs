//! Model ingestion: a Hugging Face `config.json` (with or without its
//! `model.safetensors.index.json`), a `.safetensors` or `.gguf` header, or
//! the Hub's copy of those for a repo id, read into the numbers of a
//! [`CustomModel`], which the link carries (issue 25).
//!
//! Pure Rust with no web crates: the page reads the file or the Hub's
//! answer in the browser and hands the bytes here; the CLI reads the file
//! from disk. Only headers are read: a `.safetensors` or `.gguf` file is
//! sliced to its first [`HEADER_BYTES`] bytes by the caller.

mod bounds;
pub mod config_json;
mod error;
pub mod gguf;
pub mod hub;
mod imported;
pub mod safetensors;

pub use error::ImportError;
pub use imported::{link_name, FileFormat, Imported, HEADER_BYTES, JSON_BYTES};

/// Reads what the user gave: one file, or a `config.json` with its
/// `model.safetensors.index.json` (dropped or picked together, in any
/// order). A `.safetensors` or `.gguf` header stands alone.
pub fn import(files: &[&[u8]]) -> Result<Imported, ImportError> {
    let (mut config, mut index) = (None, None);
    for bytes in files {
        if gguf::looks_like(bytes) {
            return gguf::read(bytes);
        }
        if safetensors::looks_like(bytes) {
            return safetensors::read(bytes);
        }
        if is_index(bytes) {
            index = Some(*bytes);
        } else if config.is_none() {
            config = Some(*bytes);
        }
    }
    match (config, index) {
        (Some(config), index) => config_json::read(config, index),
        // An index alone gives the size but not the architecture.
        (None, Some(index)) => {
            config_json::index_total_size(index)?;
            Err(ImportError::MissingField {
                architecture: "model.safetensors.index.json".into(),
                field: "config.json".into(),
            })
        }
        (None, None) => Err(ImportError::Empty),
    }
}

/// Whether JSON bytes are a safetensors index (`weight_map` beside
/// `metadata`) rather than a config: a cheap look at the text, which the
/// reader then parses in full.
fn is_index(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    let text = String::from_utf8_lossy(head);
    text.contains("\"weight_map\"") || (text.contains("\"total_size\"") && !text.contains("\"model_type\""))
}

/// Whether a file of `full_size` bytes whose first bytes are `head` can be
/// read from them: a weights file needs only its header; a JSON file
/// larger than [`JSON_BYTES`] is refused by its size, not read cut short.
pub fn check_size(head: &[u8], full_size: u64) -> Result<(), ImportError> {
    if gguf::looks_like(head) || safetensors::looks_like(head) || full_size <= JSON_BYTES {
        Ok(())
    } else {
        Err(ImportError::TooLarge { bytes: full_size, limit: JSON_BYTES })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_what_a_link_takes() {
        assert_eq!(link_name("Qwen/Qwen2.5-Coder-32B-Instruct"), Some("Qwen/Qwen2.5-Coder-32B-Instruct".into()));
        assert_eq!(link_name("<script>x</script>"), Some("scriptx/script".into()));
        assert_eq!(link_name("ñññ"), None);
        assert_eq!(link_name(&"a".repeat(500)).map(|n| n.len()), Some(96));
    }

    #[test]
    fn a_big_json_file_is_refused_by_its_size_and_a_weights_file_by_nothing() {
        assert_eq!(check_size(b"{}", 1_000), Ok(()));
        assert_eq!(
            check_size(b"{\"a\": ", 50 << 20),
            Err(ImportError::TooLarge { bytes: 50 << 20, limit: JSON_BYTES })
        );
        assert_eq!(check_size(b"GGUF\x03\0\0\0", 40 << 30), Ok(()));
    }
}
