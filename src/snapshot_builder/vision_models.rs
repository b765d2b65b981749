//! Vision towers of vision-language models (issue 26): `data/vision_models.csv`,
//! each row with its sources (`data/vision_models.md`), attached to the
//! text decoder's shape in the catalog.

use super::csv_table::CsvTable;
use super::BuildError;
use crate::engine::catalog::{AttentionWindow, ImageTokens, ModelKind, Vision};
use crate::engine::Model;
use std::collections::BTreeMap;

const VISION_MODELS_CSV: &str = include_str!("../../data/vision_models.csv");

/// A row of vision_models.csv: the tower, and what the text decoder needs
/// where the model catalogs lack it.
pub struct VisionRow {
    pub vision: Vision,
    /// A text LLM whose decoder this model's is, shape and all.
    pub text_decoder_of: Option<String>,
    /// The text decoder's exact parameter count.
    pub text_params: Option<f64>,
}

/// model_id → its vision tower.
pub fn vision_models() -> Result<BTreeMap<String, VisionRow>, BuildError> {
    let mut rows = BTreeMap::new();
    for row in CsvTable::from_text("data/vision_models.csv", VISION_MODELS_CSV)?.rows() {
        let whole = |column: &str| row.whole(column);
        let needed = |column: &str| -> Result<u32, BuildError> {
            whole(column)?.filter(|v| *v > 0).ok_or_else(|| row.invalid(format!("empty {column}")))
        };
        let tokens = match row.text("token_rule")? {
            "fixed" => ImageTokens::Fixed { side: needed("image_size")?, tokens: needed("tokens_per_tile")? },
            "tiles" => ImageTokens::Tiles {
                side: needed("image_size")?,
                tokens: needed("tokens_per_tile")?,
                max_tiles: needed("max_tiles")?,
                thumbnail: row.yes_no("thumbnail")?,
            },
            "pixels" => ImageTokens::Pixels {
                unit: needed("token_unit_px")?,
                min: whole("min_tokens")?.unwrap_or(1),
                max: whole("max_tokens")?.unwrap_or(u32::MAX),
            },
            other => return Err(row.invalid(format!("token_rule \"{other}\" is not fixed, tiles or pixels"))),
        };
        let vision = Vision {
            params: row.number("vision_params")?.ok_or_else(|| row.invalid("empty vision_params".into()))?,
            layers: needed("vision_layers")?,
            hidden: needed("vision_hidden")?,
            patch: needed("patch")?,
            merge: whole("merge")?.unwrap_or(1).max(1),
            tokens,
            cross_attention_layers: whole("cross_attention_layers")?,
            attention_window: match (whole("attention_window_px")?, whole("full_attention_layers")?) {
                (Some(side_px), Some(full_attention_layers)) => {
                    Some(AttentionWindow { side_px, full_attention_layers })
                }
                (None, None) => None,
                _ => return Err(row.invalid("attention_window_px and full_attention_layers go together".into())),
            },
        };
        let text_decoder_of = row.optional("text_decoder_of").map(str::to_string);
        let text_params = row.number("text_params")?;
        rows.insert(row.text("model_id")?.to_string(), VisionRow { vision, text_decoder_of, text_params });
    }
    Ok(rows)
}

/// Gives each model of `towers` its vision tower, and a decoder shape or
/// parameter count where the row names one. A tower for a model the
/// catalogs do not list is an error (it would silently vanish).
pub fn attach(models: &mut [Model], towers: BTreeMap<String, VisionRow>) -> Result<(), BuildError> {
    for (id, row) in towers {
        let decoder = match &row.text_decoder_of {
            Some(of) => {
                let text = models.iter().find(|m| &m.id == of).ok_or_else(|| unknown(of))?;
                Some((text.params, text.active_params, text.kind.clone()))
            }
            None => None,
        };
        let model = models.iter_mut().find(|m| m.id == id).ok_or_else(|| unknown(&id))?;
        if let Some((params, active, kind)) = decoder {
            (model.params, model.active_params, model.kind) = (params, active, kind);
        }
        if let Some(params) = row.text_params {
            model.params = params;
        }
        match &mut model.kind {
            ModelKind::Llm(shape) => shape.vision = Some(row.vision),
            _ => return Err(unsized_decoder(&id)),
        }
    }
    Ok(())
}

fn unknown(id: &str) -> BuildError {
    BuildError::Csv {
        path: "data/vision_models.csv".into(),
        line: 0,
        message: format!("model_id \"{id}\" is not in models.csv or models_more.csv"),
    }
}

fn unsized_decoder(id: &str) -> BuildError {
    BuildError::Csv {
        path: "data/vision_models.csv".into(),
        line: 0,
        message: format!("{id} has no text decoder shape to attach a vision tower to"),
    }
}
