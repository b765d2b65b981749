//! A model's facts where it is picked (issue 25): its parameters (and the
//! active ones of a mixture of experts), context, KV cache per token,
//! recurrent state, and the exact size of an imported checkpoint.

use crate::engine::catalog::{ImageTokens, StageMethod};
use crate::engine::Model;
use crate::model_import::{FileFormat, Imported};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use crate::units::{BILLION, BYTES_PER_KIB, BYTES_PER_MIB};

/// The facts, each a short message the page joins with " · ".
pub fn model_facts(model: &Model) -> Vec<Msg> {
    let billions = |count: f64| Arg::Num(count / BILLION, if count < 10.0 * BILLION { 2 } else { 1 });
    let mut facts = vec![msg!(phrases::FACT_PARAMS, params = billions(model.params))];
    if let Some(active) = model.active_params {
        facts.push(msg!(phrases::FACT_ACTIVE, active = billions(active)));
    }
    if let Some(shape) = model.shape() {
        if let Some(context) = shape.max_context {
            facts.push(msg!(phrases::FACT_CONTEXT, context = Arg::Int(i64::from(context))));
        }
        facts.push(msg!(phrases::FACT_KV, kv = Arg::Num(shape.kv_bytes_per_token_16bit / BYTES_PER_KIB, 0)));
        if let Some(window) = shape.sliding_window {
            let share = shape.sliding_window_layer_share.unwrap_or(1.0);
            facts.push(msg!(
                phrases::FACT_WINDOW,
                window = Arg::Int(i64::from(window)),
                share = Arg::Num(share * 100.0, 0)
            ));
        }
        if let Some(state) = shape.state_bytes_per_sequence_16bit {
            facts.push(msg!(phrases::FACT_STATE, state = Arg::Num(state / BYTES_PER_MIB, 1)));
        }
    }
    if let Some(vision) = model.vision() {
        facts.push(msg!(phrases::FACT_VISION, params = billions(vision.params)));
        facts.push(match vision.tokens {
            ImageTokens::Fixed { tokens, .. } => msg!(phrases::FACT_IMAGE_FIXED, tokens = Arg::Int(i64::from(tokens))),
            ImageTokens::Tiles { side, tokens, max_tiles, .. } => msg!(
                phrases::FACT_IMAGE_TILES,
                tokens = Arg::Int(i64::from(tokens)),
                side = Arg::Int(i64::from(side)),
                tiles = Arg::Int(i64::from(max_tiles))
            ),
            ImageTokens::Pixels { unit, .. } => msg!(phrases::FACT_IMAGE_PIXELS, unit = Arg::Int(i64::from(unit))),
        });
        if vision.cross_attention_layers.is_some() {
            facts.push(msg!(phrases::FACT_CROSS_ATTENTION));
        }
    }
    if let Some(generator) = model.audio_generator() {
        for stage in &generator.stages {
            let method = match stage.method {
                StageMethod::Autoregressive => match stage.frames_per_second {
                    Some(rate) => {
                        msg!(phrases::FACT_STAGE_DECODES, stage = stage.name.as_str(), rate = Arg::Num(rate, 1))
                    }
                    None => continue,
                },
                StageMethod::Iterative => msg!(
                    phrases::FACT_STAGE_STEPS,
                    stage = stage.name.as_str(),
                    steps = Arg::Int(i64::from(stage.steps.unwrap_or(1)))
                ),
                StageMethod::Single | StageMethod::Resident => continue,
            };
            facts.push(method);
        }
        if let Some(seconds) = generator.max_seconds {
            facts.push(msg!(phrases::FACT_AUDIO_MAX, seconds = Arg::Num(seconds, 0)));
        }
    }
    if let Some(checkpoint) = model.checkpoint {
        let format = checkpoint.format.map_or_else(|| "?".to_string(), |f| f.to_string());
        facts.push(msg!(phrases::FACT_CHECKPOINT, size = Arg::Bytes(checkpoint.bytes), format = format));
    }
    facts
}

/// What an import read, said once it is the workload's model.
pub fn imported(imported: &Imported) -> Msg {
    let source = match imported.format {
        FileFormat::ConfigJson => "config.json",
        FileFormat::SafetensorsIndex => "model.safetensors.index.json",
        FileFormat::Safetensors => "safetensors",
        FileFormat::Gguf => "GGUF",
    };
    let phrase = if imported.text_only { &phrases::IMPORT_DONE_TEXT_ONLY } else { &phrases::IMPORT_DONE };
    msg!(*phrase, architecture = imported.architecture.as_str(), source = source)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Catalog;
    use crate::text::Lang;

    fn said(model: &Model, lang: Lang) -> String {
        model_facts(model).iter().map(|m| m.render(lang)).collect::<Vec<_>>().join(" · ")
    }

    #[test]
    fn a_moe_says_its_active_parameters_context_and_kv_per_token() {
        let catalog = Catalog::bundled().unwrap();
        // models.csv: 30,532,122,624 parameters, 3,353,032,704 active, 40,960
        // positions, 2 × 48 × 4 × 128 × 2 = 98,304 KV bytes per token.
        let en = said(catalog.model("qwen3-30b-a3b").unwrap(), Lang::En);
        assert_eq!(en, "30.5 B parameters · 3.35 B active · context 40,960 tokens · KV cache 96 KiB per token");
        let es = said(catalog.model("qwen3-30b-a3b").unwrap(), Lang::Es);
        assert!(es.contains("30,5") && es.contains("40.960"), "{es}");
    }

    #[test]
    fn windows_state_and_checkpoints_are_said_where_the_model_has_them() {
        let catalog = Catalog::bundled().unwrap();
        // models_more.csv: gpt-oss alternates a 128-token window (18 of 36 layers).
        let oss = said(catalog.model("gpt-oss-120b").unwrap(), Lang::En);
        assert!(oss.contains("128-token window on 50% of layers"), "{oss}");
        // Mamba 2.8B: no KV cache, 13,107,200 bytes of state per sequence.
        let mamba = said(catalog.model("mamba-2.8b").unwrap(), Lang::En);
        assert!(mamba.contains("KV cache 0 KiB") && mamba.contains("12.5 MiB of state per sequence"), "{mamba}");
        let custom = crate::engine::custom_model::CustomModel {
            weight_bytes: Some(16_060_522_496.0),
            weight_format: Some(crate::engine::Precision::Bf16),
            ..Default::default()
        };
        let file = said(&custom.to_model(), Lang::En);
        // 16,060,522,496 bytes are 15 GiB, as the page writes every size.
        assert!(file.contains("weights file 15 GiB in bf16"), "{file}");
        for m in model_facts(&custom.to_model()) {
            assert!(m.figures().iter().all(|f| f.is_finite()));
        }
    }

    /// A vision-language model says its tower and its image rule; an audio
    /// generator its decoding and denoising stages (vision_models.csv,
    /// audio_models.csv).
    #[test]
    fn towers_and_generation_stages_are_said() {
        let catalog = Catalog::bundled().unwrap();
        let qwen = said(catalog.model("qwen2-vl-7b").unwrap(), Lang::En);
        assert!(qwen.contains("vision tower 0.68 B") && qwen.contains("1 image token per 28×28 px"), "{qwen}");
        let llava = said(catalog.model("llava-1.5-7b").unwrap(), Lang::En);
        assert!(llava.contains("576 tokens per image"), "{llava}");
        let llama = said(catalog.model("llama-3.2-11b-vision").unwrap(), Lang::En);
        assert!(
            llama.contains("1,601 tokens per 560 px tile, up to 4 tiles") && llama.contains("cross-attention"),
            "{llama}"
        );
        let musicgen = said(catalog.model("musicgen-medium").unwrap(), Lang::En);
        assert!(
            musicgen.contains("lm decodes 50.0 steps per second of audio") && musicgen.contains("30 s at once"),
            "{musicgen}"
        );
        let f5 = said(catalog.model("f5-tts-v1-base").unwrap(), Lang::Es);
        assert!(f5.contains("dit: 32 pasos"), "{f5}");
    }
}
