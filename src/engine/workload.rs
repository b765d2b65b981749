//! The workload: what the user wants to run. One type serves the form, the
//! URL codec, the CLI and the JSON.

use super::Precision;
use serde::{Deserialize, Serialize};

/// The model catalog id the page opens with.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// `model_id` from the catalog. URL key `model`.
    pub model: String,
    /// Precision of the stored weights. URL key `wq`.
    pub weight_precision: Precision,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            model: DEFAULT_MODEL.to_string(),
            weight_precision: Precision::Bf16,
        }
    }
}
