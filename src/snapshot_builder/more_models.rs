//! The models people deploy now: `../shared/data/models_more.csv` (160
//! rows, each with its sources; issue 25), read into the catalog beside
//! models.csv's.
//!
//! - Text and vision-language LLMs are sized by their text decoder, with
//!   sliding or chunked attention, MLA, shared experts and the recurrent
//!   state of hybrid and SSM layers as the row gives them.
//! - Whisper-family speech-to-text rows are sized as Whisper.
//! - Diffusion, TTS and audio-generation rows are listed with their size
//!   and no structure yet (the engine does not size them: issue 26).
//! - A row without a parameter count (computed, published, or in the
//!   model's name) is left out, and so is an LLM row without a KV-cache
//!   figure: a model the page would size wrong is worse than one it lacks.

use super::csv_table::{CsvTable, Row};
use super::vision_models::VisionRow;
use super::BuildError;
use crate::engine::catalog::{AudioGenerator, ModelKind, Speech};
use crate::engine::Model;
use crate::units::BILLION;
use std::collections::BTreeMap;
use std::path::Path;

/// Whisper's encoder sees 1,500 positions per 30 s window and its decoder
/// at most 448 tokens (openai/whisper `ModelDimensions`: n_audio_ctx 1500,
/// n_text_ctx 448; models_more.csv `max_context` 448), and its MLP is four
/// times its width (whisper/model.py `n_mlp = n_state * 4`).
const WHISPER_AUDIO_POSITIONS: u32 = 1_500;
const WHISPER_TEXT_POSITIONS: u32 = 448;
const WHISPER_MLP_RATIO: u32 = 4;

/// The models of `path` the catalog can list.
pub fn more_models(
    path: &Path,
    sliding: &BTreeMap<String, (Option<u32>, Option<f64>)>,
    towers: &BTreeMap<String, VisionRow>,
    generators: &BTreeMap<String, AudioGenerator>,
    speech: &BTreeMap<String, Speech>,
) -> Result<Vec<Model>, BuildError> {
    let mut models = Vec::new();
    for row in CsvTable::read(path)?.rows() {
        let id = row.text("model_id")?;
        // An audio generator is sized by its stages' parameters.
        let generator = generators.get(id).filter(|_| matches!(row.optional("kind"), Some("tts" | "audio-gen")));
        let Some(params) =
            generator.map(AudioGenerator::params).map_or_else(|| params(&row, towers.get(id)), |p| Ok(Some(p)))?
        else {
            continue;
        };
        let kind = match row.text("kind")? {
            "llm" | "vlm" => match super::model_shape::model_shape(&row, sliding)? {
                Some(shape) => ModelKind::Llm(shape),
                None => continue,
            },
            // data/speech_models.csv first (Distil-Whisper's cells the row
            // leaves empty), else the row's own Whisper shape.
            "asr" => speech.get(id).cloned().or_else(|| whisper(&row)).map_or(ModelKind::Unsized, ModelKind::Speech),
            "tts" | "audio-gen" => match generator {
                Some(generator) => ModelKind::AudioGen(generator.clone()),
                None => ModelKind::Unsized,
            },
            "image-diffusion" | "video-diffusion" => ModelKind::Unsized,
            other => return Err(row.invalid(format!("kind \"{other}\" is not one models_more.csv lists"))),
        };
        models.push(super::model_shape::model(&row, params, kind)?);
    }
    Ok(models)
}

/// Every parameter: the count computed from the config, else the
/// published one, else the denoiser's, else the size in the model's id ("llava-v1.6-34b"), which
/// the data's notes name as the source where it is the only one.
///
/// A vision-language model with a tower in data/vision_models.csv counts
/// its text decoder here (the tower is sized on its own): the computed
/// count, which models_more.csv makes text-only, else the published or
/// named total less the tower.
fn params(row: &Row<'_>, tower: Option<&VisionRow>) -> Result<Option<f64>, BuildError> {
    if let Some(exact) = row.number("params_computed_total")? {
        if tower.is_some() {
            return Ok(Some(exact));
        }
        // A vision-language model's published count includes its vision
        // tower, which the computed text-only count leaves out.
        let published = row.number("params_total_b")?.map_or(0.0, |b| b * BILLION);
        return Ok(Some(exact.max(published)));
    }
    if let Some(tower) = tower {
        let total = match row.number("params_total_b")? {
            Some(billions) => Some(billions * BILLION),
            None => size_in_name(row.text("model_id")?),
        };
        return Ok(total.map(|t| (t - tower.vision.params).max(0.0)));
    }
    if let Some(billions) = row.number("params_total_b")? {
        return Ok(Some(billions * BILLION));
    }
    // A diffusion pipeline the engine does not size yet is listed by its
    // denoiser, the one component every such row states.
    if let Some(billions) = row.number("denoiser_params_b")? {
        return Ok(Some(billions * BILLION));
    }
    Ok(size_in_name(row.text("model_id")?))
}

/// The size an id states as its last "-<number>b" part ("aya-23-8b" is 8B).
fn size_in_name(id: &str) -> Option<f64> {
    id.rsplit('-').find_map(|part| {
        let number = part.strip_suffix('b')?;
        let billions: f64 = number.parse().ok()?;
        (billions > 0.0).then_some(billions * BILLION)
    })
}

/// A Whisper-shaped encoder-decoder: "32 encoder + 4 decoder" layers of
/// `hidden_size` width. `None` for other speech models (FastConformer,
/// TDT), and for Whisper rows whose cells the data leaves empty.
fn whisper(row: &Row<'_>) -> Option<Speech> {
    if row.optional("family")? != "Whisper" && !row.optional("arch_type")?.contains("Whisper") {
        return None;
    }
    let layers = row.optional("num_layers")?;
    let (encoder, decoder) = layers.split_once('+')?;
    let count = |text: &str, role: &str| -> Option<u32> { text.trim().strip_suffix(role)?.trim().parse().ok() };
    let d_model: u32 = row.optional("hidden_size")?.parse().ok()?;
    Some(Speech {
        encoder_layers: count(encoder, "encoder")?,
        decoder_layers: count(decoder, "decoder")?,
        d_model,
        heads: row.optional("num_attention_heads")?.parse().ok()?,
        ffn: d_model * WHISPER_MLP_RATIO,
        vocab: row.optional("vocab_size")?.parse().ok()?,
        audio_positions: WHISPER_AUDIO_POSITIONS,
        text_positions: WHISPER_TEXT_POSITIONS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_is_read_from_the_ids_last_billions_part() {
        assert_eq!(size_in_name("aya-23-8b"), Some(8e9));
        assert_eq!(size_in_name("llava-v1.6-34b"), Some(34e9));
        assert_eq!(size_in_name("nemotron-h-47b"), Some(47e9));
        assert_eq!(size_in_name("phi-3.5-moe"), None);
        assert_eq!(size_in_name("jamba-v0.1"), None);
    }
}
