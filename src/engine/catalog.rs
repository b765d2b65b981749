//! The model and GPU catalog.
//!
//! It is generated from `../shared/data/{gpus,models}.csv` by
//! `whichgpu snapshot` into `public/data/catalog.json`. The CLI and the tests
//! have it compiled in (`Catalog::bundled`); the page downloads it beside the
//! offers (7 KB gzip the page's module no longer carries) and reads it with
//! `Catalog::from_json`, before it builds the form, so memory sizing still
//! works when the offers cannot be fetched.

use super::task::Task;
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
    /// e.g. "Hopper", "Ada Lovelace", "Apple GPU".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub architecture: Option<String>,
    /// Peak dense throughputs in TFLOP/s (TOP/s for INT8), as gpus.csv
    /// states them; `None` where the datasheet gives no figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp32_tflops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16_tflops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bf16_tflops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp8_tflops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub int8_tops: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp4_tflops: Option<f64>,
    /// e.g. "NVLink 4", "PCIe Gen4".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<String>,
    /// GPU-to-GPU bandwidth per direction over NVLink / Infinity Fabric, GB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie_gen: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tdp_w: Option<f64>,
    /// What Chrome's WebGPU `adapter.info.architecture` reports for this
    /// GPU, e.g. "lovelace", "rdna-3", "metal-3" (gpus.csv
    /// `webgpu_architecture`, from Dawn's gpu_info.json: SOURCES.md G7, G8);
    /// `None` where the browser reports an empty string or no entry exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webgpu_architecture: Option<String>,
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
    /// The pipeline of an image or video diffusion model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diffusion: Option<Diffusion>,
    /// The encoder-decoder shape of a speech-to-text model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speech: Option<Speech>,
}

impl Model {
    /// Whether the engine can size `task` for this model: LLM tasks need a
    /// transformer shape, image and video a diffusion pipeline (video one
    /// that compresses time), audio a speech shape.
    pub fn suits(&self, task: Task) -> bool {
        match task {
            Task::Infer | Task::Finetune | Task::Pretrain => self.shape.is_some(),
            Task::Image => self.diffusion.as_ref().is_some_and(|d| !d.is_video()),
            Task::Video => self.diffusion.as_ref().is_some_and(Diffusion::is_video),
            Task::Audio => self.speech.is_some(),
        }
    }
}

/// How the denoiser is built: a convolutional UNet (SD 1.5, SDXL) or a
/// diffusion transformer over patches (SD3, FLUX, video models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Denoiser {
    Unet,
    Dit,
}

/// How classifier-free guidance runs: not at all (guidance-distilled
/// models), with the conditional and unconditional inputs in one batch, or
/// as two passes one after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Guidance {
    None,
    Batched,
    Sequential,
}

/// A diffusion pipeline's components and latent geometry
/// (data/diffusion_models.csv, each row with its sources).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diffusion {
    pub denoiser: Denoiser,
    pub denoiser_params: f64,
    /// All text encoders together.
    pub text_encoder_params: f64,
    /// `None` where the sources give no count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vae_params: Option<f64>,
    pub latent_channels: u32,
    /// Pixels per latent cell along each side (8 for every VAE here).
    pub spatial_compression: u32,
    /// Frames per latent frame; 1 for images.
    pub temporal_compression: u32,
    /// Latent cells per transformer token along each side (1 for UNets).
    pub patch: u32,
    /// Transformer blocks of a DiT (`None` for UNets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocks: Option<u32>,
    /// Channels of the denoiser's widest-resolution stage (DiT hidden size).
    pub width: u32,
    /// The MLP's inner width at that stage.
    pub ffn_width: u32,
    /// Text tokens the denoiser attends to with the image tokens.
    pub text_tokens: u32,
    pub guidance: Guidance,
    /// The VAE decodes in FP32 when the pipeline runs in FP16 (SDXL's VAE
    /// overflows in FP16; diffusers upcasts it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub vae_fp32_under_fp16: bool,
    pub default_width: u32,
    pub default_height: u32,
    pub default_frames: u32,
    pub default_steps: u32,
    /// Frames per second of the clips a video model renders (`None` for
    /// images): how long a clip of its frames plays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fps: Option<u32>,
}

impl Diffusion {
    pub fn is_video(&self) -> bool {
        self.temporal_compression > 1
    }
}

/// An encoder-decoder speech model (Whisper), data/speech_models.csv.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Speech {
    pub encoder_layers: u32,
    pub decoder_layers: u32,
    pub d_model: u32,
    pub heads: u32,
    pub ffn: u32,
    pub vocab: u32,
    /// Encoder positions per 30 s window.
    pub audio_positions: u32,
    /// The decoder's longest output, in tokens.
    pub text_positions: u32,
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

    /// The catalog compiled into this build, parsed once (the CLI and the
    /// tests; the page, which does not call it, ships without it).
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

    /// The name a reader sees for the GPU `id` ("T4 PCIe low-profile"), or
    /// the id itself when the catalog has no such GPU.
    pub fn gpu_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.gpu(id).map_or(id, |g| g.name.as_str())
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
    fn a_gpu_is_named_by_its_catalog_name_or_else_its_id() {
        let catalog = Catalog::bundled().unwrap();
        // gpus.csv: t4 is the "T4 PCIe low-profile".
        assert_eq!(catalog.gpu_name("t4"), "T4 PCIe low-profile");
        assert_eq!(catalog.gpu_name("not_a_gpu"), "not_a_gpu");
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
