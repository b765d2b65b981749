//! Errors are values, with messages a user can act on, in the reader's
//! language (`message()`), or in English (`Display`).

use crate::msg;
use crate::text::{phrases, Msg};
use std::fmt;

/// Everything that can go wrong between a workload and a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The workload names a model that is not in the catalog.
    UnknownModel(String),
    /// The workload names a GPU that is not in the catalog.
    UnknownGpu(String),
    /// A field has a value the engine cannot use.
    InvalidField { field: &'static str, message: Msg },
    /// The bundled model and GPU catalog could not be read (a build defect).
    Catalog(String),
}

impl Error {
    /// What went wrong, to render in the reader's language.
    pub fn message(&self) -> Msg {
        match self {
            Error::UnknownModel(id) => msg!(phrases::ERROR_UNKNOWN_MODEL, id = id),
            Error::UnknownGpu(id) => msg!(phrases::ERROR_UNKNOWN_GPU, id = id),
            Error::InvalidField { field, message } => {
                msg!(phrases::ERROR_FIELD, field = *field, problem = message.clone())
            }
            Error::Catalog(detail) => msg!(phrases::ERROR_CATALOG, detail = detail),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

impl std::error::Error for Error {}
