//! A model row of models.csv or models_more.csv (same first 32 columns):
//! its names and sizes, and the transformer shape of an LLM.

use super::csv_table::Row;
use super::BuildError;
use crate::engine::catalog::{ModelKind, Shape};
use crate::engine::Model;
use crate::units::BILLION;
use std::collections::BTreeMap;

/// The model of a row, of `params` parameters and built as `kind`: its
/// names, and its active parameters (computed, else published).
pub fn model(row: &Row<'_>, params: f64, kind: ModelKind) -> Result<Model, BuildError> {
    let active_params = match row.number("params_computed_active")? {
        Some(exact) => Some(exact),
        None => row.number("params_active_b")?.map(|b| b * BILLION),
    };
    Ok(Model {
        id: row.text("model_id")?.to_string(),
        name: row.text("model")?.to_string(),
        family: row.text("family")?.to_string(),
        modality: row.text("modality")?.to_string(),
        params,
        active_params,
        checkpoint: None,
        // Only repo ids: some rows name a paper or a GitHub repository.
        repo: row
            .optional("hf_or_repo_id")
            .filter(|id| id.split('/').count() == 2 && !id.contains(' '))
            .map(String::from),
        kind,
    })
}

/// The transformer shape of an LLM row; `None` for rows without one
/// (diffusion, audio, or LLMs whose config the data lacks). The columns
/// of models_more.csv past models.csv's (sliding layers, shared experts,
/// recurrent state) are read where the row has them.
pub fn model_shape(
    row: &Row<'_>,
    sliding: &BTreeMap<String, (Option<u32>, Option<f64>)>,
) -> Result<Option<Shape>, BuildError> {
    // Leading integer of cells like "768 per expert (moe_intermediate_size)"
    // or "18432 (dense layers)"; "128K" contexts.
    let leading = |column: &str| -> Option<u32> {
        let text = row.optional(column)?;
        let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
        let value: u32 = digits.parse().ok()?;
        Some(if text[digits.len()..].starts_with('K') { value * 1024 } else { value })
    };
    let state = row.number("ssm_state_bytes_per_seq_bf16")?.filter(|bytes| *bytes > 0.0);
    let (Some(layers), Some(hidden), Some(kv_bytes)) =
        (leading("num_layers"), leading("hidden_size"), row.number("kv_cache_bytes_per_token_bf16")?)
    else {
        return Ok(None);
    };
    // A pure state-space model (Mamba) has no attention heads; the engine's
    // head count then only splits its layers, at the usual 128 wide.
    let heads = match (leading("num_attention_heads"), state) {
        (Some(heads), _) => heads,
        (None, Some(_)) => (hidden / 128).max(1),
        (None, None) => return Ok(None),
    };
    let head_dim = leading("head_dim").unwrap_or(hidden / heads.max(1));
    // MLA rows leave num_kv_heads empty: their KV bytes come precomputed.
    let kv_heads = leading("num_kv_heads").unwrap_or(heads);
    // The window's share of the layers that keep a cache: models_extra.csv
    // for models.csv's rows, the row's own counts for models_more.csv's.
    let own_window = match (leading("sliding_window"), leading("sliding_layers"), leading("full_attention_layers")) {
        (Some(window), Some(local), Some(global)) if local + global > 0 => {
            (Some(window), Some(f64::from(local) / f64::from(local + global)))
        }
        _ => (None, None),
    };
    let (sliding_window, sliding_window_layer_share) =
        sliding.get(row.text("model_id")?).copied().unwrap_or(own_window);
    Ok(Some(Shape {
        layers,
        hidden,
        heads,
        kv_heads,
        head_dim,
        ffn: leading("moe_intermediate").or_else(|| leading("ffn_size")),
        vocab: leading("vocab_size"),
        max_context: leading("max_context"),
        experts: leading("num_experts"),
        experts_per_token: leading("experts_per_token"),
        shared_ffn: leading("shared_expert_intermediate"),
        tie_embeddings: row.optional("tie_embeddings") == Some("true"),
        kv_bytes_per_token_16bit: kv_bytes,
        sliding_window,
        sliding_window_layer_share,
        state_bytes_per_sequence_16bit: state,
        vision: None,
    }))
}
