//! What can be wrong with a model file, as values the page and the CLI
//! say in the reader's language (`ImportError::message`).

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
}
