//! What the snapshot build reports: rows it refused to ship as truth, and
//! the errors that stop it, each with what to fix.

use std::fmt;
use std::path::PathBuf;

/// A source row that was not shipped as truth, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Anomaly {
    pub source: String,
    pub line: u64,
    pub what: String,
}

#[derive(Debug)]
pub enum BuildError {
    Io {
        path: PathBuf,
        message: String,
    },
    Csv {
        path: String,
        line: u64,
        message: String,
    },
    /// GPU names no rule maps to a catalog id: `(source, name, rows)`.
    UnmappedGpus(Vec<(String, String, usize)>),
    /// Offers name a provider that neither providers.csv nor
    /// data/providers_extra.csv describes.
    UnknownProviders(Vec<String>),
    /// Provider ids described more than once (in providers.csv, or there and
    /// in data/providers_extra.csv): which record's billing rules hold would
    /// be a guess.
    DuplicateProviders(Vec<String>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            BuildError::Csv { path, line, message } => write!(f, "{path}:{line}: {message}"),
            BuildError::UnmappedGpus(names) => {
                writeln!(f, "{} GPU name(s) map to no catalog gpu_id; add a rule in src/snapshot_builder/gpu_names.rs or a row in data/gpus_extra.csv:", names.len())?;
                for (source, name, rows) in names {
                    writeln!(f, "  {source}: \"{name}\" ({rows} rows)")?;
                }
                Ok(())
            }
            BuildError::UnknownProviders(ids) => {
                write!(
                    f,
                    "offers name providers with no record; add them to data/providers_extra.csv: {}",
                    ids.join(", ")
                )
            }
            BuildError::DuplicateProviders(ids) => write!(
                f,
                "providers described more than once (providers.csv, data/providers_extra.csv); keep one row each: {}",
                ids.join(", ")
            ),
        }
    }
}

impl std::error::Error for BuildError {}
