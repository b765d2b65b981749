//! What can be wrong with a model file, as values the page and the CLI
//! say in the reader's language (`ImportError::message`).

use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// Why a model description could not be read. Each variant carries what a
/// user needs to fix it: the field, the architecture, the sizes.
#[derive(Debug, Clone, PartialEq)]
pub enum ImportError {
    /// Nothing was given.
    Empty,
    /// More bytes than a description can need (a pasted weights file).
    TooLarge { bytes: u64, limit: u64 },
    /// Neither a config.json, a safetensors index, a safetensors header nor
    /// a GGUF header.
    UnknownFormat,
    /// The JSON does not parse; `detail` is the parser's words.
    NotJson { detail: String },
    /// A config of an architecture the importer does not size.
    UnsupportedArchitecture { architecture: String },
    /// A field the architecture needs is absent.
    MissingField { architecture: String, field: String },
    /// A field is of the wrong type or past any real model.
    BadValue { field: String, detail: String },
    /// The header says it runs past the bytes read (a truncated file, or a
    /// header longer than any real one).
    Truncated { format: &'static str, needed: u64, available: u64 },
    /// The header contradicts itself or the format (a lying GGUF, a tensor
    /// whose bytes do not match its shape).
    BadHeader { format: &'static str, detail: String },
    /// The file holds no transformer weights the engine can size.
    NoWeights { format: &'static str },
    /// Not a Hugging Face repo id (`owner/name`).
    HubBadId { given: String },
    /// The Hub wants a sign-in: a gated or private repo, or none by this id.
    HubDenied { repo: String },
    /// The repo has no config.json on its main branch.
    HubNotFound { repo: String },
    /// The Hub could not be reached or failed.
    HubUnreachable { detail: String },
    /// The page's model reader (its Web Worker) could not be loaded or
    /// stopped: the browser's words.
    ReaderFailed { detail: String },
}

impl ImportError {
    /// What went wrong, in words that say what to give instead.
    pub fn message(&self) -> Msg {
        match self {
            ImportError::Empty => msg!(phrases::IMPORT_EMPTY),
            ImportError::TooLarge { bytes, limit } => {
                msg!(phrases::IMPORT_TOO_LARGE, size = Arg::Bytes(*bytes as f64), limit = Arg::Bytes(*limit as f64))
            }
            ImportError::UnknownFormat => msg!(phrases::IMPORT_UNKNOWN_FORMAT),
            ImportError::NotJson { detail } => msg!(phrases::IMPORT_NOT_JSON, detail = echo(detail)),
            ImportError::UnsupportedArchitecture { architecture } => {
                msg!(phrases::IMPORT_UNSUPPORTED, architecture = echo(architecture))
            }
            ImportError::MissingField { architecture, field } => {
                msg!(phrases::IMPORT_MISSING_FIELD, architecture = echo(architecture), field = echo(field))
            }
            ImportError::BadValue { field, detail } => {
                msg!(phrases::IMPORT_BAD_VALUE, field = echo(field), detail = echo(detail))
            }
            ImportError::Truncated { format, needed, available } => msg!(
                phrases::IMPORT_TRUNCATED,
                format = *format,
                needed = Arg::Int(i64::try_from(*needed).unwrap_or(i64::MAX)),
                available = Arg::Int(i64::try_from(*available).unwrap_or(i64::MAX))
            ),
            ImportError::BadHeader { format, detail } => {
                msg!(phrases::IMPORT_BAD_HEADER, format = *format, detail = echo(detail))
            }
            ImportError::NoWeights { format } => msg!(phrases::IMPORT_NO_WEIGHTS, format = *format),
            ImportError::HubBadId { given } => msg!(phrases::HUB_BAD_ID, given = echo(given)),
            ImportError::HubDenied { repo } => msg!(phrases::HUB_DENIED, repo = repo.as_str()),
            ImportError::HubNotFound { repo } => msg!(phrases::HUB_NOT_FOUND, repo = repo.as_str()),
            ImportError::HubUnreachable { detail } => msg!(phrases::HUB_UNREACHABLE, detail = echo(detail)),
            ImportError::ReaderFailed { detail } => msg!(phrases::IMPORT_READER_FAILED, detail = echo(detail)),
        }
    }
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.message().fmt(f)
    }
}

/// A file's own words as a message quotes them: at most 40 characters.
fn echo(text: &str) -> String {
    crate::model_search::echo(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Lang;

    #[test]
    fn every_error_says_what_is_wrong_in_both_languages_with_its_figures() {
        let errors = [
            ImportError::Empty,
            ImportError::TooLarge { bytes: 50 << 20, limit: 16 << 20 },
            ImportError::UnknownFormat,
            ImportError::NotJson { detail: "EOF while parsing an object at line 1 column 9".into() },
            ImportError::UnsupportedArchitecture { architecture: "T5ForConditionalGeneration (t5)".into() },
            ImportError::MissingField { architecture: "LlamaForCausalLM".into(), field: "num_hidden_layers".into() },
            ImportError::BadValue { field: "num_hidden_layers".into(), detail: "1e300".into() },
            ImportError::Truncated { format: "GGUF", needed: 4_000_000, available: 1_024 },
            ImportError::BadHeader { format: "safetensors", detail: "tensor x: 10 bytes for 4 BF16 values".into() },
            ImportError::NoWeights { format: "safetensors" },
            ImportError::HubBadId { given: "llama".into() },
            ImportError::HubDenied { repo: "meta-llama/Llama-3.1-8B".into() },
            ImportError::HubNotFound { repo: "a/b".into() },
            ImportError::HubUnreachable { detail: "TypeError: Failed to fetch".into() },
            ImportError::ReaderFailed { detail: "404 import_worker_loader.js".into() },
        ];
        for error in errors {
            let (en, es) = (error.message().render(Lang::En), error.message().render(Lang::Es));
            assert!(!en.contains('{') && !es.contains('{') && en != es, "{en} / {es}");
            match &error {
                ImportError::MissingField { .. } => {
                    assert!(en.contains("LlamaForCausalLM") && en.contains("num_hidden_layers"))
                }
                ImportError::BadValue { .. } => assert!(es.contains("1e300")),
                ImportError::Truncated { .. } => assert!(en.contains("GGUF") && en.contains("1,024")),
                _ => {}
            }
        }
        // A hostile file's words are cut short, not echoed whole.
        let long = ImportError::UnsupportedArchitecture { architecture: "x".repeat(10_000) };
        assert!(long.message().render(Lang::En).len() < 300);
    }
}
