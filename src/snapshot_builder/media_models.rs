//! Diffusion and speech models: the structured facts behind models.csv's
//! prose cells, from `data/diffusion_models.csv` and
//! `data/speech_models.csv` (every row cites its sources).

use super::csv_table::{CsvTable, Row};
use super::BuildError;
use crate::engine::catalog::{Denoiser, Diffusion, Guidance, QkNorm, Speech};
use std::collections::BTreeMap;

const DIFFUSION_MODELS_CSV: &str = include_str!("../../data/diffusion_models.csv");
const SPEECH_MODELS_CSV: &str = include_str!("../../data/speech_models.csv");

/// model_id → its diffusion pipeline.
pub fn diffusion_models() -> Result<BTreeMap<String, Diffusion>, BuildError> {
    let mut models = BTreeMap::new();
    for row in CsvTable::from_text("data/diffusion_models.csv", DIFFUSION_MODELS_CSV)?.rows() {
        let denoiser = match row.text("denoiser")? {
            "unet" => Denoiser::Unet,
            "dit" => Denoiser::Dit,
            other => return Err(row.invalid(format!("denoiser \"{other}\" is not unet or dit"))),
        };
        let guidance = match row.text("guidance")? {
            "none" => Guidance::None,
            "batched" => Guidance::Batched,
            "sequential" => Guidance::Sequential,
            other => return Err(row.invalid(format!("guidance \"{other}\" is not none, batched or sequential"))),
        };
        let resolution = row.text("default_resolution")?;
        let (width, height) = resolution
            .split_once('x')
            .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
            .ok_or_else(|| row.invalid(format!("default_resolution \"{resolution}\" is not WIDTHxHEIGHT")))?;
        let diffusion = Diffusion {
            denoiser,
            denoiser_params: required(&row, "denoiser_params")?,
            text_encoder_params: required(&row, "text_encoder_params")?,
            vae_params: row.number("vae_params")?,
            latent_channels: count(&row, "latent_channels")?,
            spatial_compression: count(&row, "spatial_compression")?,
            temporal_compression: count(&row, "temporal_compression")?,
            patch: count(&row, "patch")?,
            blocks: optional_count(&row, "blocks")?,
            width: count(&row, "width")?,
            ffn_width: count(&row, "ffn_width")?,
            head_dim: optional_count(&row, "head_dim")?,
            text_tokens: count(&row, "text_tokens")?,
            guidance,
            vae_fp32_under_fp16: match row.text("vae_fp32_under_fp16")? {
                "yes" => true,
                "no" => false,
                other => return Err(row.invalid(format!("vae_fp32_under_fp16 \"{other}\" is not yes or no"))),
            },
            default_width: width,
            default_height: height,
            default_frames: count(&row, "default_frames")?,
            default_steps: count(&row, "default_steps")?,
            fps: optional_count(&row, "fps")?,
            qk_norm: match row.optional("qk_norm") {
                None | Some("none") => QkNorm::None,
                Some("layer") => QkNorm::Layer,
                Some("rms") => QkNorm::Rms,
                Some(other) => return Err(row.invalid(format!("qk_norm \"{other}\" is not none, layer or rms"))),
            },
            rope: match row.optional("rope") {
                None | Some("no") => false,
                Some("yes") => true,
                Some(other) => return Err(row.invalid(format!("rope \"{other}\" is not yes or no"))),
            },
            sequence_parallel: row.optional("sequence_parallel").map(str::to_string),
        };
        if diffusion.is_video() != diffusion.fps.is_some() {
            return Err(row.invalid("fps: a video model needs its frame rate, an image model has none".to_string()));
        }
        models.insert(row.text("model_id")?.to_string(), diffusion);
    }
    Ok(models)
}

/// model_id → its speech-to-text shape.
pub fn speech_models() -> Result<BTreeMap<String, Speech>, BuildError> {
    let mut models = BTreeMap::new();
    for row in CsvTable::from_text("data/speech_models.csv", SPEECH_MODELS_CSV)?.rows() {
        let speech = Speech {
            encoder_layers: count(&row, "encoder_layers")?,
            decoder_layers: count(&row, "decoder_layers")?,
            d_model: count(&row, "d_model")?,
            heads: count(&row, "heads")?,
            ffn: count(&row, "ffn")?,
            vocab: count(&row, "vocab")?,
            audio_positions: count(&row, "audio_positions")?,
            text_positions: count(&row, "text_positions")?,
        };
        models.insert(row.text("model_id")?.to_string(), speech);
    }
    Ok(models)
}

fn required(row: &Row<'_>, column: &str) -> Result<f64, BuildError> {
    row.number(column)?.ok_or_else(|| row.invalid(format!("empty {column}")))
}

/// A positive whole number.
/// A whole number a row may leave empty.
fn optional_count(row: &Row<'_>, column: &str) -> Result<Option<u32>, BuildError> {
    match row.number(column)? {
        Some(_) => count(row, column).map(Some),
        None => Ok(None),
    }
}

fn count(row: &Row<'_>, column: &str) -> Result<u32, BuildError> {
    let value = required(row, column)?;
    if value >= 1.0 && value.fract() == 0.0 && value <= f64::from(u32::MAX) {
        Ok(value as u32)
    } else {
        Err(row.invalid(format!("{column} {value} is not a positive whole number")))
    }
}
