//! The model and GPU catalog bundled with the engine.
//!
//! It is generated from `../shared/data/{gpus,models}.csv` by
//! `whichgpu snapshot` and compiled in, so memory sizing works even when the
//! offer snapshot cannot be fetched.

use super::Error;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

/// Version of the catalog file layout; bumped on incompatible changes.
pub const CATALOG_SCHEMA_VERSION: u32 = 1;

/// The catalog as generated into `public/data/catalog.json`.
const BUNDLED_CATALOG_JSON: &str = include_str!("../../public/data/catalog.json");

/// An accelerator, from `gpus.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    /// `gpu_id` of gpus.csv, e.g. `h100_sxm`.
    pub id: String,
    pub vendor: String,
    /// Model and variant, e.g. "H100 SXM5 80GB".
    pub name: String,
    pub vram_gb: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mem_bandwidth_gbps: Option<f64>,
    /// datacenter | workstation | consumer | laptop | apple
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
}

/// A model, from `models.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// `model_id` of models.csv, e.g. `llama-3.1-8b`.
    pub id: String,
    pub name: String,
    pub family: String,
    /// e.g. "text LLM", "vision-language".
    pub modality: String,
    /// Total parameter count (all experts for MoE).
    pub params: f64,
    /// Parameters active per token, for MoE.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_params: Option<f64>,
    /// The architecture, where models.csv states it (LLMs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<Shape>,
}

/// A transformer's shape, from models.csv (configs of the model's authors).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    /// KV heads: equal to `heads` for MHA, fewer for GQA, 1 for MQA.
    pub kv_heads: u32,
    pub head_dim: u32,
    /// MLP width (per expert for MoE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ffn: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vocab: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_context: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experts: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub experts_per_token: Option<u32>,
    #[serde(default)]
    pub tie_embeddings: bool,
    /// KV-cache bytes per token at 16 bits, all layers. models.csv computes
    /// it (2 × layers × kv_heads × head_dim × 2 bytes, or MLA's compressed
    /// latent for DeepSeek), so MLA needs no special case here.
    pub kv_bytes_per_token_16bit: f64,
    /// Sliding-window attention: window in tokens, and the share of layers
    /// that use it (data/models_extra.csv).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sliding_window_layer_share: Option<f64>,
}

/// GPUs and models the engine knows by id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Catalog {
    pub schema_version: u32,
    pub gpus: Vec<Gpu>,
    pub models: Vec<Model>,
}

impl Catalog {
    /// Parses a catalog file, checking its version.
    pub fn from_json(text: &str) -> Result<Catalog, Error> {
        let catalog: Catalog = serde_json::from_str(text).map_err(|e| Error::Catalog(e.to_string()))?;
        if catalog.schema_version != CATALOG_SCHEMA_VERSION {
            return Err(Error::Catalog(format!(
                "schema_version {} (this build reads {CATALOG_SCHEMA_VERSION})",
                catalog.schema_version
            )));
        }
        Ok(catalog)
    }

    /// The catalog compiled into this build, parsed once.
    pub fn bundled() -> Result<&'static Catalog, Error> {
        static BUNDLED: OnceLock<Result<Catalog, Error>> = OnceLock::new();
        BUNDLED.get_or_init(|| Catalog::from_json(BUNDLED_CATALOG_JSON)).as_ref().map_err(Clone::clone)
    }

    pub fn model(&self, id: &str) -> Result<&Model, Error> {
        self.models.iter().find(|m| m.id == id).ok_or_else(|| Error::UnknownModel(id.to_string()))
    }

    pub fn gpu(&self, id: &str) -> Result<&Gpu, Error> {
        self.gpus.iter().find(|g| g.id == id).ok_or_else(|| Error::UnknownGpu(id.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_catalog_parses_and_holds_the_reference_rows() {
        let catalog = Catalog::bundled().expect("bundled catalog");
        // models.csv: Llama 3.1 8B has 8,030,261,248 parameters (computed from its config, M1).
        assert_eq!(catalog.model("llama-3.1-8b").unwrap().params, 8_030_261_248.0);
        // gpus.csv: H100 SXM5 has 80 GB of HBM3 at 3,350 GB/s (S1).
        let h100 = catalog.gpu("h100_sxm").unwrap();
        assert_eq!((h100.vram_gb, h100.mem_bandwidth_gbps), (80.0, Some(3350.0)));
    }

    #[test]
    fn unknown_ids_are_errors_that_name_the_id() {
        let catalog = Catalog::bundled().unwrap();
        let err = catalog.model("llama-9").unwrap_err();
        assert!(err.to_string().contains("\"llama-9\""));
        assert!(catalog.gpu("rtx_9999").is_err());
    }

    #[test]
    fn a_catalog_of_another_version_is_refused() {
        let err = Catalog::from_json(r#"{"schema_version":99,"gpus":[],"models":[]}"#).unwrap_err();
        assert!(err.to_string().contains("schema_version 99"), "{err}");
    }
}
