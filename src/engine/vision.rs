//! A vision-language model's image side (issue 26): the vision tower that
//! turns an image into the LLM's tokens, how many tokens an image of a
//! given size becomes, and what encoding it costs. Facts per model come
//! from `data/vision_models.csv`, each row with its sources.

use super::json::{Fields, FromJson, Json, JsonError};
use serde::Serialize;

/// The image side a request's pictures have when the link names none: a
/// one-megapixel square, SDXL's native output (data/diffusion_models.csv
/// `default_resolution` 1024x1024), a middle ground between thumbnails and
/// phone photos. An assumption the link's `img_px` replaces; each model
/// then resizes the image by its own rule (`ImageTokens`).
pub const DEFAULT_IMAGE_SIDE: u32 = 1_024;

/// The link's range for images per request (`imgs`) and their side in
/// pixels (`img_px`): bounds on the link, not model limits (a server caps
/// each model's images itself, vLLM with `--limit-mm-per-prompt`); 8,192 px
/// is a DCI 8K frame's width (8,192 × 4,320).
pub const IMAGES: (&str, u32, u32) = (super::keys::IMAGES, 0, 64);
pub const IMAGE_SIDE: (&str, u32, u32) = (super::keys::IMAGE_SIDE, 64, 8_192);

/// The vision tower of a vision-language model, and how its image tokens
/// reach the language model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Vision {
    /// The encoder with its projector (or merger, or cross-attention
    /// adapter): every weight the text decoder's count leaves out.
    pub params: f64,
    pub layers: u32,
    pub hidden: u32,
    /// Pixels per patch side.
    pub patch: u32,
    /// Patches per image token along each side (2 for a 2×2 merge or pixel
    /// shuffle, 4 for Gemma 3's 4×4 pooling, 1 for LLaVA).
    pub merge: u32,
    pub tokens: ImageTokens,
    /// Llama 3.2 Vision's design: image tokens are not in the text's
    /// self-attention but cross-attended by this many added layers, whose
    /// keys and values over the image tokens are cached per request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cross_attention_layers: Option<u32>,
    /// Qwen2.5-VL's design: most blocks attend within windows, a few over
    /// the whole image; `None` where every block attends over the whole
    /// image (or tile).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attention_window: Option<AttentionWindow>,
}

/// Blocks of a vision tower that attend only within square windows of
/// `side_px` pixels, all but `full_attention_layers` of its layers
/// (data/vision_models.csv, `attention_window_px`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AttentionWindow {
    pub side_px: u32,
    pub full_attention_layers: u32,
}

/// How many LLM tokens an image becomes: the model's own rule. In
/// catalog.json a flat record (`{"rule": "tiles", "side": 448, …}`), which
/// the page reads with far less code than a tagged enum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(into = "TokenRecord")]
pub enum ImageTokens {
    /// Every image is resized to `side` px and gives `tokens` tokens
    /// (LLaVA-1.5: 576 at 336 px; Gemma 3: 256 at 896 px).
    Fixed { side: u32, tokens: u32 },
    /// The image is cut into tiles of `side` px, at most `max_tiles`, each
    /// `tokens` tokens, plus one more tile's worth for a downscaled view of
    /// the whole image when `thumbnail` and it took more than one tile
    /// (InternVL's dynamic tiling, LLaVA-1.6 AnyRes, Llama 3.2/4 Vision).
    Tiles { side: u32, tokens: u32, max_tiles: u32, thumbnail: bool },
    /// One token per `unit` × `unit` pixels of the image at its own size,
    /// between `min` and `max` tokens (Qwen2-VL's 28 × 28, Pixtral's).
    Pixels { unit: u32, min: u32, max: u32 },
}

#[derive(Clone, Copy, Serialize)]
#[serde(rename_all = "lowercase")]
enum Rule {
    Fixed,
    Tiles,
    Pixels,
}

/// `ImageTokens` as catalog.json spells it.
#[derive(Serialize)]
struct TokenRecord {
    rule: Rule,
    #[serde(skip_serializing_if = "Option::is_none")]
    side: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tokens: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_tiles: Option<u32>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    thumbnail: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    unit: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<u32>,
}

impl TryFrom<TokenRecord> for ImageTokens {
    type Error = &'static str;

    fn try_from(r: TokenRecord) -> Result<Self, Self::Error> {
        let missing = "an image-token rule lacks a figure it needs";
        Ok(match r.rule {
            Rule::Fixed => ImageTokens::Fixed { side: r.side.ok_or(missing)?, tokens: r.tokens.ok_or(missing)? },
            Rule::Tiles => ImageTokens::Tiles {
                side: r.side.ok_or(missing)?,
                tokens: r.tokens.ok_or(missing)?,
                max_tiles: r.max_tiles.ok_or(missing)?,
                thumbnail: r.thumbnail,
            },
            Rule::Pixels => ImageTokens::Pixels {
                unit: r.unit.ok_or(missing)?,
                min: r.min.unwrap_or(1),
                max: r.max.unwrap_or(u32::MAX),
            },
        })
    }
}

impl From<ImageTokens> for TokenRecord {
    fn from(tokens: ImageTokens) -> Self {
        let blank = TokenRecord {
            rule: Rule::Fixed,
            side: None,
            tokens: None,
            max_tiles: None,
            thumbnail: false,
            unit: None,
            min: None,
            max: None,
        };
        match tokens {
            ImageTokens::Fixed { side, tokens } => TokenRecord { side: Some(side), tokens: Some(tokens), ..blank },
            ImageTokens::Tiles { side, tokens, max_tiles, thumbnail } => TokenRecord {
                rule: Rule::Tiles,
                side: Some(side),
                tokens: Some(tokens),
                max_tiles: Some(max_tiles),
                thumbnail,
                ..blank
            },
            ImageTokens::Pixels { unit, min, max } => {
                TokenRecord { rule: Rule::Pixels, unit: Some(unit), min: Some(min), max: Some(max), ..blank }
            }
        }
    }
}

impl Vision {
    /// LLM tokens of one square image of `side` px.
    pub fn tokens_per_image(&self, side: u32) -> u32 {
        match self.tokens {
            ImageTokens::Fixed { tokens, .. } => tokens,
            ImageTokens::Tiles { tokens, .. } => self.tiles(side) * tokens,
            ImageTokens::Pixels { unit, min, max } => {
                // Resized to the nearest multiple of the unit on each side
                // (Qwen2-VL's `smart_resize`), then clamped.
                let per_side = (f64::from(side) / f64::from(unit.max(1))).round().max(1.0);
                ((per_side * per_side) as u32).clamp(min, max.max(min))
            }
        }
    }

    /// Tiles the encoder runs on for one image (1 for the other rules).
    fn tiles(&self, side: u32) -> u32 {
        match self.tokens {
            ImageTokens::Tiles { side: tile, max_tiles, thumbnail, .. } => {
                let per_side = side.div_ceil(tile.max(1));
                let tiles = (per_side * per_side).clamp(1, max_tiles.max(1));
                tiles + u32::from(thumbnail && tiles > 1)
            }
            ImageTokens::Fixed { .. } | ImageTokens::Pixels { .. } => 1,
        }
    }

    /// Patches the encoder attends over at once (one tile, or the whole
    /// image for dynamic resolution), and how many such passes an image
    /// takes.
    fn passes(&self, side: u32) -> (f64, f64) {
        let patches_of = |pixels: u32| (f64::from(pixels) / f64::from(self.patch.max(1))).powi(2);
        match self.tokens {
            ImageTokens::Fixed { side: native, .. } => (patches_of(native), 1.0),
            ImageTokens::Tiles { side: tile, .. } => (patches_of(tile), f64::from(self.tiles(side))),
            ImageTokens::Pixels { .. } => {
                let merge = f64::from(self.merge.max(1));
                (f64::from(self.tokens_per_image(side)) * merge * merge, 1.0)
            }
        }
    }

    /// FLOPs to encode one image of `side` px: 2 per parameter per patch
    /// (the projector's share counted per patch too, an upper bound where
    /// it runs on merged tokens) and attention's 4 × hidden × patches ×
    /// the patches each attends to (Q·Kᵀ and the weighted sum): all of
    /// them in a full-attention layer, as Qwen2-VL's and the ViTs of CLIP,
    /// SigLIP and InternViT attend in every layer; only its window's in
    /// Qwen2.5-VL's windowed layers.
    pub fn encode_flops_per_image(&self, side: u32) -> f64 {
        let (patches, passes) = self.passes(side);
        let dense = 2.0 * self.params * patches;
        let layers = f64::from(self.layers);
        let attended = match self.attention_window {
            None => layers * patches,
            Some(window) => {
                let full = f64::from(window.full_attention_layers).min(layers);
                let in_window = (f64::from(window.side_px) / f64::from(self.patch.max(1))).powi(2).min(patches);
                full * patches + (layers - full) * in_window
            }
        };
        let attention = 4.0 * patches * attended * f64::from(self.hidden);
        passes * (dense + attention)
    }

    /// Peak activation bytes of encoding one image, at 16 bits: one
    /// layer's residual stream, its normalised copy and the MLP's widest
    /// tensor (about 4 × hidden) over the patches of a pass, with
    /// FlashAttention-style attention that keeps no score matrix.
    pub fn encode_activation_bytes(&self, side: u32) -> f64 {
        let (patches, _) = self.passes(side);
        patches * 6.0 * f64::from(self.hidden) * 2.0
    }

    /// Bytes of the cross-attention layers' keys and values per image token
    /// at 16 bits, for a design that cross-attends (`None` otherwise): as a
    /// text layer's, 2 × KV heads × head width each.
    pub fn cross_kv_bytes_per_image_token_16bit(&self, kv_heads: u32, head_dim: u32) -> Option<f64> {
        self.cross_attention_layers
            .map(|layers| 2.0 * f64::from(layers) * f64::from(kv_heads) * f64::from(head_dim) * 2.0)
    }
}

// Native: the catalog tests read the bundled catalog and data/vision_models.csv.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

impl FromJson for Vision {
    fn from_json(value: Json<'_>) -> Result<Vision, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Vision {
            params: f.required("params")?,
            layers: f.required("layers")?,
            hidden: f.required("hidden")?,
            patch: f.required("patch")?,
            merge: f.required("merge")?,
            tokens: f.required("tokens")?,
            cross_attention_layers: f.optional("cross_attention_layers")?,
            attention_window: f.optional("attention_window")?,
        })
    }
}

impl FromJson for AttentionWindow {
    fn from_json(value: Json<'_>) -> Result<AttentionWindow, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(AttentionWindow {
            side_px: f.required("side_px")?,
            full_attention_layers: f.required("full_attention_layers")?,
        })
    }
}

crate::json_names!(Rule { Fixed = "fixed", Tiles = "tiles", Pixels = "pixels" });

impl FromJson for ImageTokens {
    fn from_json(value: Json<'_>) -> Result<ImageTokens, JsonError> {
        let mut f = Fields::of(value)?;
        let record = TokenRecord {
            rule: f.required("rule")?,
            side: f.optional("side")?,
            tokens: f.optional("tokens")?,
            max_tiles: f.optional("max_tiles")?,
            thumbnail: f.defaulted("thumbnail")?,
            unit: f.optional("unit")?,
            min: f.optional("min")?,
            max: f.optional("max")?,
        };
        ImageTokens::try_from(record).map_err(|e| JsonError::new(e.to_string()))
    }
}
