//! Errors are values, with messages a user can act on.

use std::fmt;

/// Everything that can go wrong between a workload and a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The workload names a model that is not in the catalog.
    UnknownModel(String),
    /// The workload names a GPU that is not in the catalog.
    UnknownGpu(String),
    /// A field has a value the engine cannot use.
    InvalidField { field: &'static str, message: String },
    /// The bundled model and GPU catalog could not be read (a build defect).
    Catalog(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownModel(id) => {
                write!(f, "unknown model \"{id}\": pick one from the list or enter a custom model")
            }
            Error::UnknownGpu(id) => {
                write!(f, "unknown GPU \"{id}\": use a gpu_id from the catalog")
            }
            Error::InvalidField { field, message } => write!(f, "{field}: {message}"),
            Error::Catalog(message) => {
                write!(f, "the bundled catalog could not be read: {message}")
            }
        }
    }
}

impl std::error::Error for Error {}
