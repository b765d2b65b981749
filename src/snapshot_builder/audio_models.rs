//! Speech and music generators (issue 26): `data/audio_models.csv`, one
//! row per stage, each with its sources (`data/audio_models.md`).
//!
//! A model whose stages leave a figure the engine needs empty (the
//! parameters of an autoregressive or iterative stage, its rate, an
//! iterative stage's steps) stays unsized: the page lists it as not
//! covered rather than time it wrong. A codec decoder, vocoder or text
//! encoder of unstated size is left out and named (`unsized_stages`): a
//! few tens of millions of parameters beside a decoder of hundreds.

use super::csv_table::{CsvTable, Row};
use super::BuildError;
use crate::engine::catalog::{AudioGenerator, AudioOutput, AudioStage, StageMethod};
use std::collections::BTreeMap;

const AUDIO_MODELS_CSV: &str = include_str!("../../data/audio_models.csv");

/// model_id → its generator, for the models every stage of which the data
/// sizes.
pub fn audio_models() -> Result<BTreeMap<String, AudioGenerator>, BuildError> {
    let mut generators: BTreeMap<String, Option<AudioGenerator>> = BTreeMap::new();
    for row in CsvTable::from_text("data/audio_models.csv", AUDIO_MODELS_CSV)?.rows() {
        let id = row.text("model_id")?.to_string();
        let output = match row.text("output")? {
            "speech" => AudioOutput::Speech,
            "music" => AudioOutput::Music,
            other => return Err(row.invalid(format!("output \"{other}\" is not speech or music"))),
        };
        let stage = stage(&row)?;
        let max_seconds = row.number("max_seconds")?;
        let entry = generators.entry(id).or_insert_with(|| {
            Some(AudioGenerator { output, stages: Vec::new(), max_seconds: None, unsized_stages: Vec::new() })
        });
        match (entry.as_mut(), stage) {
            (Some(generator), Stage::Sized(stage)) => {
                if generator.output != output {
                    return Err(row.invalid("one model's stages name two outputs".into()));
                }
                generator.stages.push(stage);
                generator.max_seconds = match (generator.max_seconds, max_seconds) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            (Some(generator), Stage::Minor(name)) => generator.unsized_stages.push(name),
            // A stage the data cannot size leaves the model unsized.
            (_, Stage::Unsized) => *entry = None,
            (None, _) => {}
        }
    }
    // The engine times a generator by its decoding or denoising stage; a
    // one-pass model (Kokoro's StyleTTS 2 design, whose LSTM predictors and
    // upsampling decoder its parameters do not describe) is not covered.
    let generates = |g: &AudioGenerator| {
        g.stages.iter().any(|s| matches!(s.method, StageMethod::Autoregressive | StageMethod::Iterative))
    };
    Ok(generators.into_iter().filter_map(|(id, g)| g.filter(generates).map(|g| (id, g))).collect())
}

/// What a row gives of its stage.
enum Stage {
    Sized(AudioStage),
    /// A single or resident stage of unstated size, by its name.
    Minor(String),
    /// A figure the stage's method needs is empty.
    Unsized,
}

/// The stage of `row`.
fn stage(row: &Row<'_>) -> Result<Stage, BuildError> {
    let method = match row.text("method")? {
        "autoregressive" => StageMethod::Autoregressive,
        "iterative" => StageMethod::Iterative,
        "single" => StageMethod::Single,
        "resident" => StageMethod::Resident,
        other => {
            return Err(row.invalid(format!("method \"{other}\" is not autoregressive, iterative, single or resident")))
        }
    };
    let whole = |column: &str| row.whole(column);
    let Some(params) = row.number("params")?.filter(|p| *p > 0.0) else {
        return Ok(match method {
            StageMethod::Single | StageMethod::Resident => Stage::Minor(row.text("stage")?.to_string()),
            StageMethod::Autoregressive | StageMethod::Iterative => Stage::Unsized,
        });
    };
    let frames_per_second = row.number("frames_per_second")?.filter(|f| *f > 0.0);
    let steps = whole("steps")?.filter(|s| *s > 0);
    let complete = match method {
        StageMethod::Autoregressive | StageMethod::Single => frames_per_second.is_some(),
        StageMethod::Iterative => frames_per_second.is_some() && steps.is_some(),
        StageMethod::Resident => true,
    };
    if !complete {
        return Ok(Stage::Unsized);
    }
    let (guidance, fixed_window) = (row.yes_no("guidance")?, row.yes_no("fixed_window")?);
    Ok(Stage::Sized(AudioStage {
        name: row.text("stage")?.to_string(),
        method,
        params,
        layers: whole("layers")?,
        hidden: whole("hidden")?,
        kv_heads: whole("kv_heads")?,
        head_dim: whole("head_dim")?,
        frames_per_second,
        extra_steps: whole("extra_steps")?.unwrap_or(0),
        steps,
        guidance,
        fixed_window,
    }))
}
