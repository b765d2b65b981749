//! The model and GPU catalog.
//!
//! It is generated from `../shared/data/{gpus,models}.csv` by
//! `whichgpu snapshot` into `public/data/catalog.json`. The CLI and the tests
//! have it compiled in (`Catalog::bundled`); the page downloads it beside the
//! offers (7 KB gzip the page's module no longer carries) and reads it with
//! `Catalog::from_json`, before it builds the form, so memory sizing still
//! works when the offers cannot be fetched.

pub use super::audio_model::{AudioGenerator, AudioOutput, AudioStage, StageMethod};
pub use super::gpu::{Architecture, ComputeCapability, Gpu, Segment};
use super::json::{self, Fields, FromJson, Json, JsonError};
use super::task::Task;
pub use super::vision::{AttentionWindow, ImageTokens, Vision};
use super::Error;
use crate::text::phrases;
use serde::Serialize;
use std::sync::OnceLock;

/// Version of the catalog file layout; bumped on incompatible changes.
/// 2: the support matrix and GPUs' compute capability (issue 23).
pub const CATALOG_SCHEMA_VERSION: u32 = 2;

/// The catalog as generated into `public/data/catalog.json`.
const BUNDLED_CATALOG_JSON: &str = include_str!("../../public/data/catalog.json");

/// A model, from `models.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(into = "ModelRecord")]
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
    pub active_params: Option<f64>,
    /// The released weights' exact size, where a file header or the Hub's
    /// index gives it (imported models).
    pub checkpoint: Option<Checkpoint>,
    /// Where its weights are published (models.csv `hf_or_repo_id`): a
    /// Hugging Face repo id such as `meta-llama/Llama-3.3-70B-Instruct`,
    /// which a launch command names.
    pub repo: Option<String>,
    /// How the model is built, which decides the family of the engine that
    /// sizes and times it.
    pub kind: ModelKind,
}

/// The exact bytes of a model's released weights, and their format where
/// it is one the engine sizes (GGUF Q4_K_M, BF16 …; `None` for mixes such
/// as gpt-oss's MXFP4 experts beside BF16 attention).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Checkpoint {
    pub bytes: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<super::Precision>,
}

/// How a model is built, as far as the engine can size it: one family's
/// structure, never two. A new family of models is a new variant here, and
/// every `match` on it (the memory and speed entry points, `Model::suits`)
/// says what must learn it.
#[derive(Debug, Clone, PartialEq)]
pub enum ModelKind {
    /// A decoder-only transformer: LLM serving, fine-tuning, pretraining.
    Llm(Shape),
    /// An image or video diffusion pipeline.
    Diffusion(Diffusion),
    /// A speech-to-text encoder-decoder (Whisper).
    Speech(Speech),
    /// A speech or music generator, stage by stage.
    AudioGen(AudioGenerator),
    /// The catalogs name the model but give no structure the engine can
    /// size (Stable Audio Open, Kokoro, most new diffusion pipelines).
    Unsized,
}

/// The family of the engine that sizes and times a model for a task, with
/// the model's structure that family reads. The memory and speed entry
/// points match on it once; each family's module takes its own structure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Family<'a> {
    /// LLM inference and serving.
    Serving(&'a Shape),
    /// Fine-tuning and pretraining.
    Training(&'a Shape),
    /// Image and video generation.
    Diffusion(&'a Diffusion),
    /// Speech-to-text.
    Speech(&'a Speech),
    /// Speech and music generation.
    AudioGen(&'a AudioGenerator),
}

impl Model {
    /// The family that sizes `task` for this model, or an error that says
    /// what kind of model the task needs: LLM tasks need a transformer
    /// shape, image and video a diffusion pipeline (video one that
    /// compresses time), audio a speech shape.
    pub fn family(&self, task: Task) -> Result<Family<'_>, Error> {
        let family = match (&self.kind, task) {
            (ModelKind::Llm(shape), Task::Infer) => Some(Family::Serving(shape)),
            (ModelKind::Llm(shape), Task::Finetune | Task::Pretrain) => Some(Family::Training(shape)),
            (ModelKind::Diffusion(pipeline), Task::Image) => {
                (!pipeline.is_video()).then_some(Family::Diffusion(pipeline))
            }
            (ModelKind::Diffusion(pipeline), Task::Video) => pipeline.is_video().then_some(Family::Diffusion(pipeline)),
            (ModelKind::Speech(speech), Task::Audio) => Some(Family::Speech(speech)),
            (ModelKind::AudioGen(generator), Task::Speech) => {
                (generator.output == AudioOutput::Speech).then_some(Family::AudioGen(generator))
            }
            (ModelKind::AudioGen(generator), Task::Music) => {
                (generator.output == AudioOutput::Music).then_some(Family::AudioGen(generator))
            }
            (ModelKind::Llm(_), Task::Image | Task::Video | Task::Audio | Task::Speech | Task::Music)
            | (
                ModelKind::Diffusion(_),
                Task::Infer | Task::Finetune | Task::Pretrain | Task::Audio | Task::Speech | Task::Music,
            )
            | (
                ModelKind::Speech(_),
                Task::Infer | Task::Finetune | Task::Pretrain | Task::Image | Task::Video | Task::Speech | Task::Music,
            )
            | (
                ModelKind::AudioGen(_),
                Task::Infer | Task::Finetune | Task::Pretrain | Task::Image | Task::Video | Task::Audio,
            )
            | (ModelKind::Unsized, _) => None,
        };
        family.ok_or_else(|| Error::InvalidField {
            field: super::keys::MODEL,
            message: crate::msg!(phrases::ERROR_MODEL_KIND, model = &self.name, kind = task.model_kind()),
        })
    }

    /// Whether the engine can size `task` for this model.
    pub fn suits(&self, task: Task) -> bool {
        self.family(task).is_ok()
    }

    /// The transformer shape of an LLM.
    pub fn shape(&self) -> Option<&Shape> {
        match &self.kind {
            ModelKind::Llm(shape) => Some(shape),
            _ => None,
        }
    }

    /// The pipeline of an image or video model.
    pub fn diffusion(&self) -> Option<&Diffusion> {
        match &self.kind {
            ModelKind::Diffusion(pipeline) => Some(pipeline),
            _ => None,
        }
    }

    /// The encoder-decoder of a speech-to-text model.
    pub fn speech(&self) -> Option<&Speech> {
        match &self.kind {
            ModelKind::Speech(speech) => Some(speech),
            _ => None,
        }
    }

    /// The stages of a speech or music generator.
    pub fn audio_generator(&self) -> Option<&AudioGenerator> {
        match &self.kind {
            ModelKind::AudioGen(generator) => Some(generator),
            _ => None,
        }
    }

    /// The vision tower of a vision-language model.
    pub fn vision(&self) -> Option<&Vision> {
        self.shape().and_then(|shape| shape.vision.as_ref())
    }
}

/// A model as `catalog.json` spells it: the kind's structure under its own
/// key (`shape`, `diffusion` or `speech`), at most one.
#[derive(Serialize)]
struct ModelRecord {
    id: String,
    name: String,
    family: String,
    modality: String,
    params: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    active_params: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    checkpoint: Option<Checkpoint>,
    #[serde(skip_serializing_if = "Option::is_none")]
    repo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<Shape>,
    #[serde(skip_serializing_if = "Option::is_none")]
    diffusion: Option<Diffusion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speech: Option<Speech>,
    #[serde(skip_serializing_if = "Option::is_none")]
    audio: Option<AudioGenerator>,
}

impl TryFrom<ModelRecord> for Model {
    type Error = String;

    fn try_from(r: ModelRecord) -> Result<Model, String> {
        let kind = match (r.shape, r.diffusion, r.speech, r.audio) {
            (Some(shape), None, None, None) => ModelKind::Llm(shape),
            (None, Some(pipeline), None, None) => ModelKind::Diffusion(pipeline),
            (None, None, Some(speech), None) => ModelKind::Speech(speech),
            (None, None, None, Some(generator)) => ModelKind::AudioGen(generator),
            (None, None, None, None) => ModelKind::Unsized,
            _ => return Err(format!("model {} has the structure of more than one kind", r.id)),
        };
        let ModelRecord { id, name, family, modality, params, active_params, checkpoint, repo, .. } = r;
        Ok(Model { id, name, family, modality, params, active_params, checkpoint, repo, kind })
    }
}

impl From<Model> for ModelRecord {
    fn from(m: Model) -> ModelRecord {
        let (mut shape, mut diffusion, mut speech, mut audio) = (None, None, None, None);
        match m.kind {
            ModelKind::Llm(s) => shape = Some(s),
            ModelKind::Diffusion(pipeline) => diffusion = Some(pipeline),
            ModelKind::Speech(s) => speech = Some(s),
            ModelKind::AudioGen(generator) => audio = Some(generator),
            ModelKind::Unsized => {}
        }
        ModelRecord {
            id: m.id,
            name: m.name,
            family: m.family,
            modality: m.modality,
            params: m.params,
            active_params: m.active_params,
            checkpoint: m.checkpoint,
            repo: m.repo,
            shape,
            diffusion,
            speech,
            audio,
        }
    }
}

/// How the denoiser is built: a convolutional UNet (SD 1.5, SDXL) or a
/// diffusion transformer over patches (SD3, FLUX, video models).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Denoiser {
    Unet,
    Dit,
}

/// How classifier-free guidance runs: not at all (guidance-distilled
/// models), with the conditional and unconditional inputs in one batch, or
/// as two passes one after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Guidance {
    None,
    Batched,
    Sequential,
}

/// How a DiT normalises its queries and keys before attention, as diffusers
/// implements it: `Layer` is PyTorch's fused LayerNorm kernel; `Rms` is
/// diffusers' `RMSNorm`, a chain of FP32 element-wise kernels in eager mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum QkNorm {
    #[default]
    None,
    Layer,
    Rms,
}

/// A diffusion pipeline's components and latent geometry
/// (data/diffusion_models.csv, each row with its sources).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diffusion {
    pub denoiser: Denoiser,
    pub denoiser_params: f64,
    /// All text encoders together.
    pub text_encoder_params: f64,
    /// `None` where the sources give no count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vae_params: Option<f64>,
    pub latent_channels: u32,
    /// Pixels per latent cell along each side (8 for every VAE here).
    pub spatial_compression: u32,
    /// Frames per latent frame; 1 for images.
    pub temporal_compression: u32,
    /// Latent cells per transformer token along each side (1 for UNets).
    pub patch: u32,
    /// Transformer blocks of a DiT (`None` for UNets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<u32>,
    /// Channels of the denoiser's widest-resolution stage (DiT hidden size).
    pub width: u32,
    /// The MLP's inner width at that stage.
    pub ffn_width: u32,
    /// Channels per attention head of a DiT (`None` for UNets, whose
    /// attention the GEMMs' rate covers): FlashAttention runs slower at 64
    /// than at 128 (`speed::media::flash_head_dim_share`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    /// Text tokens the denoiser attends to with the image tokens.
    pub text_tokens: u32,
    pub guidance: Guidance,
    /// The VAE decodes in FP32 when the pipeline runs in FP16 (SDXL's VAE
    /// overflows in FP16; diffusers upcasts it).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub vae_fp32_under_fp16: bool,
    pub default_width: u32,
    pub default_height: u32,
    pub default_frames: u32,
    pub default_steps: u32,
    /// Frames per second of the clips a video model renders (`None` for
    /// images): how long a clip of its frames plays.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fps: Option<u32>,
    /// A DiT's query and key normalisation.
    #[serde(skip_serializing_if = "is_no_qk_norm")]
    pub qk_norm: QkNorm,
    /// Whether a DiT rotates its queries and keys (RoPE), which diffusers'
    /// `apply_rotary_emb` does in FP32 element-wise kernels.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rope: bool,
    /// The runtime that spreads one sample's tokens over several GPUs
    /// (sequence parallelism: xDiT's Ulysses and ring attention), `None`
    /// where none does: then each GPU renders samples of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sequence_parallel: Option<String>,
}

fn is_no_qk_norm(norm: &QkNorm) -> bool {
    *norm == QkNorm::None
}

impl Diffusion {
    /// The runtime that splits one clip over `gpus` GPUs, where the job is
    /// a video and a runtime can: images run one per GPU, and a clip of a
    /// pipeline no runtime splits runs whole on one GPU.
    pub fn clip_split_by(&self, task: crate::engine::Task, gpus: u32) -> Option<&str> {
        (task == crate::engine::Task::Video && gpus > 1).then_some(self.sequence_parallel.as_deref()).flatten()
    }

    pub fn is_video(&self) -> bool {
        self.temporal_compression > 1
    }

    /// Pipelines that render at once on `gpus` GPUs: one where a runtime
    /// splits each clip over them all; else one per GPU, as many as the job
    /// of `items` in batches of `batch` has batches for. diffusers renders
    /// each image on one GPU, so one image on eight GPUs keeps seven idle.
    pub fn pipelines_at_once(&self, task: crate::engine::Task, gpus: u32, items: u32, batch: u32) -> u32 {
        if self.clip_split_by(task, gpus).is_some() {
            1
        } else {
            gpus.max(1).min(items.max(1).div_ceil(batch.max(1)))
        }
    }
}

/// An encoder-decoder speech model (Whisper), data/speech_models.csv.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shape {
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    /// KV heads: equal to `heads` for MHA, fewer for GQA, 1 for MQA.
    pub kv_heads: u32,
    pub head_dim: u32,
    /// MLP width (per expert for MoE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ffn: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vocab: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_context: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experts: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub experts_per_token: Option<u32>,
    /// Total MLP width of the always-on shared experts of a MoE.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shared_ffn: Option<u32>,
    pub tie_embeddings: bool,
    /// KV-cache bytes per token at 16 bits, all layers. models.csv computes
    /// it (2 × layers × kv_heads × head_dim × 2 bytes, or MLA's compressed
    /// latent for DeepSeek), so MLA needs no special case here.
    pub kv_bytes_per_token_16bit: f64,
    /// Sliding-window attention: window in tokens, and the share of layers
    /// that use it (data/models_extra.csv).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_window: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sliding_window_layer_share: Option<f64>,
    /// Recurrent state per sequence at 16 bits, whatever its length: the
    /// Mamba or linear-attention layers of a hybrid or SSM model
    /// (models_more.csv `ssm_state_bytes_per_seq_bf16`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_bytes_per_sequence_16bit: Option<f64>,
    /// The vision tower of a vision-language model (data/vision_models.csv).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vision: Option<Vision>,
}

/// A model's routed mixture of experts: `count` experts per layer, each
/// token picking `per_token` of them, holding `params` parameters in all,
/// from the model's total P and active A parameters: P = dense + experts,
/// A = dense + (k/E) × experts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoutedExperts {
    pub count: f64,
    pub per_token: f64,
    pub params: f64,
}

impl RoutedExperts {
    /// The share of the experts `tokens` tokens reach: each expert is
    /// missed by all their picks with probability (1 − k/E)^tokens.
    pub fn touched_share(&self, tokens: f64) -> f64 {
        1.0 - (1.0 - self.per_token / self.count).powf(tokens)
    }
}

impl Model {
    /// The routed experts of a mixture-of-experts `shape`; `None` for a
    /// dense model (or one whose every token runs every expert).
    pub fn routed_experts(&self, shape: &Shape) -> Option<RoutedExperts> {
        let count = f64::from(shape.experts.unwrap_or(1).max(1));
        let per_token = f64::from(shape.experts_per_token.unwrap_or(1).max(1)).min(count);
        if count <= 1.0 || per_token >= count {
            return None;
        }
        let active = self.active_params.unwrap_or(self.params);
        let params = ((self.params - active) / (1.0 - per_token / count)).clamp(0.0, self.params);
        Some(RoutedExperts { count, per_token, params })
    }
}

impl Shape {
    /// The MLP width a token runs through: its routed experts' (4 × hidden
    /// where the data gives no width) and the shared experts'.
    pub fn active_ffn(&self) -> f64 {
        let routed = f64::from(self.ffn.unwrap_or(4 * self.hidden)) * f64::from(self.experts_per_token.unwrap_or(1));
        routed + f64::from(self.shared_ffn.unwrap_or(0))
    }
}

/// GPUs and models the engine knows by id.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Catalog {
    pub schema_version: u32,
    pub gpus: Vec<Gpu>,
    pub models: Vec<Model>,
    /// Which software runs on which hardware (data/support_matrix.csv),
    /// in the matrix's order: the first row that covers a question answers it.
    pub support: Vec<super::support::SupportRow>,
}

impl Catalog {
    /// Parses a catalog file, checking its version.
    pub fn from_json(text: &str) -> Result<Catalog, Error> {
        Catalog::from_bytes(text.as_bytes())
    }

    /// Parses a catalog file as downloaded (UTF-8 bytes), checking its
    /// version first: a file of another layout is named as such, not by
    /// the first field it lacks. (The page reads it before it builds the
    /// form.)
    pub fn from_bytes(bytes: &[u8]) -> Result<Catalog, Error> {
        let unreadable = |e: json::JsonError| Error::Catalog(e.to_string());
        let file = json::parse(bytes).map_err(unreadable)?;
        match file.version() {
            Some(found) if found != u64::from(CATALOG_SCHEMA_VERSION) => {
                Err(Error::Catalog(format!("schema_version {found} (this build reads {CATALOG_SCHEMA_VERSION})")))
            }
            _ => <Catalog as FromJson>::from_json(file).map_err(unreadable),
        }
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

    /// The ids of up to `count` models for `task` nearest to `given`, a
    /// model id the catalog does not have (a typo, a size it lacks, the
    /// start of an id): ids that begin with it first, then fewest character
    /// edits, then the length nearest the given id's (a changed digit before
    /// an added one), then catalog order. Only the given id's first
    /// `NEAREST_LOOKS_AT` bytes are compared: every id is shorter, and a
    /// pasted paragraph would otherwise cost its length times every id's.
    pub fn nearest_model_ids(&self, given: &str, task: Task, count: usize) -> Vec<&str> {
        let given = given.to_ascii_lowercase();
        let given = &given.as_bytes()[..given.len().min(NEAREST_LOOKS_AT)];
        let mut scored: Vec<(bool, usize, usize, &str)> = self
            .models
            .iter()
            .filter(|m| m.suits(task))
            .map(|m| {
                let id = m.id.as_str();
                (
                    !id.as_bytes().starts_with(given),
                    edit_distance(given, id.as_bytes()),
                    given.len().abs_diff(id.len()),
                    id,
                )
            })
            .collect();
        scored.sort_by_key(|&(prefix, distance, length, _)| (prefix, distance, length));
        scored.into_iter().take(count).map(|(_, _, _, id)| id).collect()
    }

    /// The name a reader sees for the GPU `id` ("T4 PCIe low-profile"), or
    /// the id itself when the catalog has no such GPU.
    pub fn gpu_name<'a>(&'a self, id: &'a str) -> &'a str {
        self.gpu(id).map_or(id, |g| g.name.as_str())
    }
}

/// Bytes of an unknown model id `Catalog::nearest_model_ids` compares:
/// about twice the longest id the catalog holds (today
/// "llama-3.1-nemotron-70b-instruct", 31).
const NEAREST_LOOKS_AT: usize = 64;

/// Levenshtein distance between two ids: insertions, deletions and
/// substitutions of one byte each. Bit-parallel over `a`'s bytes when it
/// has at most 64 (Myers 1999, in Hyyrö's form for the whole-string
/// distance, 2001): one pass of a few word operations per byte of `b`.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    if a.is_empty() || a.len() > 64 {
        return edit_distance_by_rows(a, b);
    }
    let mut equal = [0u64; 256];
    for (i, &c) in a.iter().enumerate() {
        equal[usize::from(c)] |= 1 << i;
    }
    let last = 1u64 << (a.len() - 1);
    let (mut plus, mut minus, mut score) = (u64::MAX, 0u64, a.len());
    for &c in b {
        let eq = equal[usize::from(c)];
        let xv = eq | minus;
        let xh = ((eq & plus).wrapping_add(plus) ^ plus) | eq;
        let mut up = minus | !(xh | plus);
        let mut down = plus & xh;
        if up & last != 0 {
            score += 1;
        } else if down & last != 0 {
            score -= 1;
        }
        // The top row is the distance from the empty string: +1 a byte.
        up = (up << 1) | 1;
        down <<= 1;
        plus = down | !(xv | up);
        minus = up & xv;
    }
    score
}

/// The same distance row by row, for ids longer than 64 bytes.
fn edit_distance_by_rows(a: &[u8], b: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, &ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

impl FromJson for Checkpoint {
    fn from_json(value: Json<'_>) -> Result<Checkpoint, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Checkpoint { bytes: f.required("bytes")?, format: f.optional("format")? })
    }
}

impl FromJson for Model {
    fn from_json(value: Json<'_>) -> Result<Model, JsonError> {
        let mut f = Fields::of(value)?;
        let record = ModelRecord {
            id: f.required("id")?,
            name: f.required("name")?,
            family: f.required("family")?,
            modality: f.required("modality")?,
            params: f.required("params")?,
            active_params: f.optional("active_params")?,
            checkpoint: f.optional("checkpoint")?,
            repo: f.optional("repo")?,
            shape: f.optional("shape")?,
            diffusion: f.optional("diffusion")?,
            speech: f.optional("speech")?,
            audio: f.optional("audio")?,
        };
        Model::try_from(record).map_err(JsonError::new)
    }
}

crate::json_names!(Denoiser { Unet = "unet", Dit = "dit" });
crate::json_names!(Guidance { None = "none", Batched = "batched", Sequential = "sequential" });
crate::json_names!(QkNorm { None = "none", Layer = "layer", Rms = "rms" });

impl FromJson for Diffusion {
    fn from_json(value: Json<'_>) -> Result<Diffusion, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Diffusion {
            denoiser: f.required("denoiser")?,
            denoiser_params: f.required("denoiser_params")?,
            text_encoder_params: f.required("text_encoder_params")?,
            vae_params: f.optional("vae_params")?,
            latent_channels: f.required("latent_channels")?,
            spatial_compression: f.required("spatial_compression")?,
            temporal_compression: f.required("temporal_compression")?,
            patch: f.required("patch")?,
            blocks: f.optional("blocks")?,
            width: f.required("width")?,
            ffn_width: f.required("ffn_width")?,
            head_dim: f.optional("head_dim")?,
            text_tokens: f.required("text_tokens")?,
            guidance: f.required("guidance")?,
            vae_fp32_under_fp16: f.defaulted("vae_fp32_under_fp16")?,
            default_width: f.required("default_width")?,
            default_height: f.required("default_height")?,
            default_frames: f.required("default_frames")?,
            default_steps: f.required("default_steps")?,
            fps: f.optional("fps")?,
            qk_norm: f.defaulted("qk_norm")?,
            rope: f.defaulted("rope")?,
            sequence_parallel: f.optional("sequence_parallel")?,
        })
    }
}

impl FromJson for Speech {
    fn from_json(value: Json<'_>) -> Result<Speech, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Speech {
            encoder_layers: f.required("encoder_layers")?,
            decoder_layers: f.required("decoder_layers")?,
            d_model: f.required("d_model")?,
            heads: f.required("heads")?,
            ffn: f.required("ffn")?,
            vocab: f.required("vocab")?,
            audio_positions: f.required("audio_positions")?,
            text_positions: f.required("text_positions")?,
        })
    }
}

impl FromJson for Shape {
    fn from_json(value: Json<'_>) -> Result<Shape, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Shape {
            layers: f.required("layers")?,
            hidden: f.required("hidden")?,
            heads: f.required("heads")?,
            kv_heads: f.required("kv_heads")?,
            head_dim: f.required("head_dim")?,
            ffn: f.optional("ffn")?,
            vocab: f.optional("vocab")?,
            max_context: f.optional("max_context")?,
            experts: f.optional("experts")?,
            experts_per_token: f.optional("experts_per_token")?,
            shared_ffn: f.optional("shared_ffn")?,
            tie_embeddings: f.defaulted("tie_embeddings")?,
            kv_bytes_per_token_16bit: f.required("kv_bytes_per_token_16bit")?,
            sliding_window: f.optional("sliding_window")?,
            sliding_window_layer_share: f.optional("sliding_window_layer_share")?,
            state_bytes_per_sequence_16bit: f.optional("state_bytes_per_sequence_16bit")?,
            vision: f.optional("vision")?,
        })
    }
}

impl FromJson for Catalog {
    fn from_json(value: Json<'_>) -> Result<Catalog, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Catalog {
            schema_version: f.required("schema_version")?,
            gpus: f.required("gpus")?,
            models: f.required("models")?,
            support: f.required("support")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_model_id_is_answered_with_the_nearest_ids_for_the_task() {
        let catalog = Catalog::bundled().unwrap();
        // A size the family lacks, and a typo.
        assert_eq!(catalog.nearest_model_ids("llama-3.1-7b", Task::Infer, 2), ["llama-3.1-8b", "llama-3.1-70b"]);
        assert_eq!(catalog.nearest_model_ids("Qwen2.5-7B", Task::Infer, 1), ["qwen2.5-7b"]);
        // Only models of the task: an image model for an image link.
        let near = catalog.nearest_model_ids("sdxl", Task::Image, 3);
        assert!(near.iter().all(|id| catalog.model(id).unwrap().suits(Task::Image)), "{near:?}");
        assert_eq!(near[0], "sdxl-base-1.0");
        assert_eq!(
            (edit_distance(b"kitten", b"sitting"), edit_distance(b"", b"abc"), edit_distance(b"same", b"same")),
            (3, 3, 0)
        );
        // Bit-parallel and row by row agree, on every pair of short strings
        // over a small alphabet (where edits interact most) and on ids.
        let alphabet = b"ab-1";
        let strings: Vec<Vec<u8>> =
            (0..400usize).map(|n| (0..n % 9).map(|i| alphabet[(n * 7 + i * i * 3 + n / 9) % 4]).collect()).collect();
        for a in strings.iter().filter(|a| !a.is_empty()) {
            for b in &strings {
                assert_eq!(edit_distance(a, b), edit_distance_by_rows(a, b), "{a:?} {b:?}");
            }
        }
        let long: Vec<u8> = (0..64usize).map(|i| alphabet[(i * i + i / 3) % 4]).collect();
        for b in strings.iter().chain([&long[3..], &long[..60]].map(<[u8]>::to_vec).iter()) {
            assert_eq!(edit_distance(&long, b), edit_distance_by_rows(&long, b), "{b:?}");
        }
        let ids: Vec<&[u8]> = catalog.models.iter().map(|m| m.id.as_bytes()).collect();
        for a in &ids {
            for b in ids.iter().step_by(7) {
                assert_eq!(edit_distance(a, b), edit_distance_by_rows(a, b));
            }
        }
        // A pasted paragraph is compared by its start, which every id is
        // shorter than.
        assert!(catalog.models.iter().all(|m| m.id.len() * 2 <= NEAREST_LOOKS_AT + 2), "raise NEAREST_LOOKS_AT");
        let pasted = format!("llama-3.1-7b {}", "and more words ".repeat(300));
        assert!(catalog.nearest_model_ids(&pasted, Task::Infer, 1)[0].starts_with("llama-3.1-"));
    }

    #[test]
    fn the_bundled_catalog_parses_and_holds_the_reference_rows() {
        let catalog = Catalog::bundled().expect("bundled catalog");
        // models.csv: Llama 3.1 8B has 8,030,261,248 parameters (computed from its config, M1).
        assert_eq!(catalog.model("llama-3.1-8b").unwrap().params, 8_030_261_248.0);
        // gpus.csv: H100 SXM5 has 80 GB of HBM3 at 3,350 GB/s (S1).
        let h100 = catalog.gpu("h100_sxm").unwrap();
        assert_eq!((h100.vram_gb, h100.mem_bandwidth_gbps), (80.0, Some(3350.0)));
    }

    /// A model is resolved for a task in one place: each kind suits its own
    /// tasks, and every other pairing is refused with what the task needs,
    /// by the memory and speed entry points alike.
    #[test]
    fn a_model_suits_the_tasks_of_its_kind_and_is_refused_elsewhere_with_what_the_task_needs() {
        use crate::text::Lang;
        let catalog = Catalog::bundled().unwrap();
        let cases = [
            ("llama-3.1-8b", [true, true, true, false, false, false, false, false]),
            ("sdxl-base-1.0", [false, false, false, true, false, false, false, false]),
            ("wan2.1-t2v-1.3b", [false, false, false, false, true, false, false, false]),
            ("whisper-large-v3", [false, false, false, false, false, true, false, false]),
            ("parler-tts-mini-v1", [false, false, false, false, false, false, true, false]),
            ("musicgen-large", [false, false, false, false, false, false, false, true]),
            // A vision-language model serves and trains as an LLM.
            ("qwen2-vl-7b", [true, true, true, false, false, false, false, false]),
            // Kokoro is one pass of a StyleTTS 2 design the engine does not time.
            ("kokoro-82m", [false; 8]),
        ];
        for (id, suits) in cases {
            let model = catalog.model(id).unwrap();
            for (task, expected) in Task::ALL.into_iter().zip(suits) {
                assert_eq!(model.suits(task), expected, "{id} for {task}");
                match model.family(task) {
                    Ok(Family::Serving(_)) => assert_eq!(task, Task::Infer),
                    Ok(Family::Training(_)) => assert!(matches!(task, Task::Finetune | Task::Pretrain)),
                    Ok(Family::Diffusion(_)) => assert!(matches!(task, Task::Image | Task::Video)),
                    Ok(Family::Speech(_)) => assert_eq!(task, Task::Audio),
                    Ok(Family::AudioGen(_)) => assert!(matches!(task, Task::Speech | Task::Music)),
                    Err(error) => {
                        assert!(!expected);
                        assert_eq!(error.field(), Some("model"));
                        let kind = task.model_kind();
                        let said = error.problem().render(Lang::En);
                        assert_eq!(
                            said,
                            format!(
                                "{} is not a {}, which this task needs; choose one from the list",
                                model.name, kind.en
                            )
                        );
                        assert!(error.problem().render(Lang::Es).contains(kind.es));
                        // The entry point says the same.
                        let workload =
                            crate::engine::Workload { model: id.into(), ..crate::engine::Workload::for_task(task) };
                        let sized = crate::engine::memory::estimate(&workload, model, 1).unwrap_err();
                        assert_eq!(sized, error);
                    }
                }
            }
        }
    }

    /// catalog.json keeps one key per kind of structure; a record with two
    /// is refused rather than read as either.
    #[test]
    fn the_catalog_file_spells_a_kind_under_its_own_key_and_refuses_two() {
        let catalog = Catalog::bundled().unwrap();
        for id in ["llama-3.1-8b", "sd-1.5", "whisper-large-v3", "musicgen-small", "qwen2-vl-7b", "kokoro-82m"] {
            let model = catalog.model(id).unwrap();
            let json = serde_json::to_value(model).unwrap();
            let keys: Vec<&str> =
                ["shape", "diffusion", "speech", "audio"].into_iter().filter(|key| json.get(*key).is_some()).collect();
            assert_eq!(keys.len(), usize::from(model.kind != ModelKind::Unsized), "{id}: {keys:?}");
            assert_eq!(&json::read::<Model>(json.to_string().as_bytes()).unwrap(), model);
        }
        let mut both = serde_json::to_value(catalog.model("llama-3.1-8b").unwrap()).unwrap();
        both["speech"] = serde_json::to_value(catalog.model("whisper-large-v3").unwrap().speech().unwrap()).unwrap();
        let refused = json::read::<Model>(both.to_string().as_bytes()).unwrap_err().to_string();
        assert!(refused.contains("more than one kind"), "{refused}");
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
        // Version 1 had no support matrix: it is named by its version.
        let err = Catalog::from_json(r#"{"schema_version":1,"gpus":[],"models":[]}"#).unwrap_err();
        assert!(err.to_string().contains("schema_version 1 (this build reads 2)"), "{err}");
        // A file that reads whole but says another version is refused too.
        let other = BUNDLED_CATALOG_JSON.replacen("\"schema_version\":2", "\"schema_version\":3", 1);
        let err = Catalog::from_bytes(other.as_bytes()).unwrap_err();
        assert!(err.to_string().contains("schema_version 3 (this build reads 2)"), "{err}");
        // The page's bytes and the CLI's text read the same.
        assert_eq!(Catalog::from_bytes(BUNDLED_CATALOG_JSON.as_bytes()).unwrap(), *Catalog::bundled().unwrap());
    }

    #[test]
    fn the_bundled_catalog_reads_whole_and_its_names_read_back() {
        use crate::engine::json::{assert_names_read_back, assert_reads_whole};
        let catalog: Catalog = assert_reads_whole(BUNDLED_CATALOG_JSON.as_bytes());
        assert!(catalog.models.len() > 100);
        assert_names_read_back(&[Denoiser::Unet, Denoiser::Dit]);
        assert_names_read_back(&[Guidance::None, Guidance::Batched, Guidance::Sequential]);
        assert_names_read_back(&[QkNorm::None, QkNorm::Layer, QkNorm::Rms]);
        assert_eq!(
            json::read::<Denoiser>(b"\"mlp\"").unwrap_err().to_string(),
            "unknown value `mlp`, expected one of `unet`, `dit`"
        );
    }

    /// A damaged download is refused with a message, never a panic: the
    /// catalog cut short anywhere, and with bytes changed here and there.
    #[test]
    fn a_damaged_catalog_is_refused_not_a_panic() {
        let whole = BUNDLED_CATALOG_JSON.as_bytes();
        for cut in (0..whole.len()).step_by(whole.len() / 60) {
            let err = Catalog::from_bytes(&whole[..cut]).unwrap_err().to_string();
            assert!(err.contains("cut short"), "cut at {cut}: {err}");
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..100 {
            let mut damaged = whole.to_vec();
            for _ in 0..3 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = usize::try_from(seed % whole.len() as u64).unwrap();
                damaged[at] = b"{}[]\",:0e-\"\x00\xff"[usize::try_from(seed >> 40).unwrap() % 13];
            }
            // Either reads (a change inside a string or a number may still be
            // a catalog) or says why.
            if let Err(err) = Catalog::from_bytes(&damaged) {
                assert!(!err.to_string().is_empty());
            }
        }
    }
}
