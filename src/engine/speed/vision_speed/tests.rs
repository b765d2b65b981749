//! Vision-language models answering one user at a time on vLLM against
//! published measurements (issue 37; `data/calibration/vlm_batch1.csv`,
//! each source's conditions in `speech_vlm_sources.md`): PaddleMIX's
//! benchmark (A800, vLLM column, 128 new tokens), a vLLM issue's trace of
//! Qwen2.5-VL-7B on an H100 (one 1080p image, time to first token) and a
//! vLLM issue's Qwen2.5-VL-7B on an A100 (generation speed), and
//! DashInfer's vLLM 0.6.4 runs (`vlm_vllm_more.csv`). Left out:
//! TinyChat's rows (a runtime the engine does not time), PaddleMIX's Paddle
//! and PyTorch columns, and models or GPUs the catalog does not have
//! (Qwen2-VL-2B, a laptop RTX 3080 Ti).

use super::super::calibration::{rows, Family};
use super::super::tests::{gpu_of, vllm_speed_as_run};
use crate::engine::memory::fit;
use crate::engine::setup::Setup;
use crate::engine::speed::speed;
use crate::engine::{Catalog, Precision, RuntimeChoice, Workload};

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

/// The catalog model a row names.
fn model_of(name: &str) -> Option<&'static str> {
    const MODELS: [(&str, &str); 8] = [
        ("LLaVA1.6 7B", "llava-v1.6-vicuna-7b"),
        ("LLaVA1.6 13B", "llava-v1.6-vicuna-13b"),
        ("Qwen2VL 7B", "qwen2-vl-7b"),
        ("Qwen2.5-VL-7B", "qwen2.5-vl-7b"),
        // Neural Magic's cards name the checkpoints.
        ("Qwen2.5-VL-7B-Instruct", "qwen2.5-vl-7b"),
        ("Qwen2.5-VL-72B-Instruct", "qwen2.5-vl-72b"),
        ("Qwen2-VL-7B-Instruct", "qwen2-vl-7b"),
        ("Qwen2-VL-72B-Instruct", "qwen2-vl-72b"),
    ];
    let name = name.rsplit('/').next().unwrap_or(name);
    let name = name.split("-quantized").next().unwrap_or(name).trim_end_matches("-FP8-Dynamic");
    MODELS.iter().find(|(named, _)| name == *named).map(|(_, id)| *id)
}

/// The weights format a row states, where the engine has it: the base
/// checkpoints in BF16, Neural Magic's w4a16 (4-bit weights through
/// vLLM's Marlin kernels, as GPTQ's) and FP8-Dynamic; not its w8a8, whose
/// INT8 activations the engine does not time.
fn format_of(precision: &str) -> Option<Precision> {
    match precision {
        "bf16" | "" => Some(Precision::Bf16),
        "fp16" => Some(Precision::Fp16),
        _ if precision.starts_with("not stated") => Some(Precision::Bf16),
        "int4 w4a16" => Some(Precision::Gptq),
        "fp8 dynamic" => Some(Precision::Fp8),
        _ => None,
    }
}

/// The text tokens of a prompt the source states in its settings ("64
/// text prompt tokens + image").
fn stated_prompt(settings: &str) -> Option<u32> {
    let at = settings.find(" text prompt tokens")?;
    settings[..at].rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// The square side with a `width` × `height` image's pixels, as the
/// engine sizes images by one side.
fn side_of(width: f64, height: f64) -> u32 {
    (width * height).sqrt().round() as u32
}

/// The side of `images` equal square images whose tokens, with a one-line
/// question's 32, make a stated prompt of `prompt` tokens (DashInfer's
/// benchmark states its prompts' length, images included, not their
/// images' sizes).
fn side_from_prompt(tower: &crate::engine::vision::Vision, images: u32, prompt: u32) -> u32 {
    let per_image = prompt.saturating_sub(32) / images.max(1);
    (28..=4096).step_by(4).min_by_key(|side| tower.tokens_per_image(*side).abs_diff(per_image)).unwrap()
}

pub(crate) fn vlm_batch_one_family() -> Family {
    let mut family = Family::new("vLLM vision-language batch 1");
    add_more_rows(&mut family);
    for row in rows("project:vlm_batch1.csv") {
        let (Some(gpu_id), Some(model_id)) = (gpu_of(&row["hardware"]), model_of(&row["model"])) else { continue };
        if !row["software"].starts_with("vLLM") {
            continue;
        }
        // What each source states, and for what it does not: one image of
        // the engine's default side and a one-line question (32 tokens)
        // where the prompt is not stated; the trace's 1080p image as the
        // square of its pixels, its 2,718 prompt tokens less the image's.
        let model = catalog().model(model_id).unwrap();
        let tower = model.shape().and_then(|s| s.vision.as_ref()).unwrap();
        let Some(weight_precision) = format_of(&row["precision"]) else { continue };
        let stated_size = row["image_size"].split_once('x').and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)));
        let (image_side, input_tokens) = match (row["image_size"].as_str(), stated_size) {
            ("1080p", _) => {
                let side = side_of(1920.0, 1080.0);
                let prompt: u32 = row["input_tokens"].parse().unwrap();
                (side, prompt.saturating_sub(tower.tokens_per_image(side)).max(1))
            }
            (_, Some((width, height))) => {
                (side_of(width, height), stated_prompt(&row["settings"]).unwrap_or(32).max(1))
            }
            _ => (crate::engine::vision::DEFAULT_IMAGE_SIDE, 32),
        };
        let count: u32 = row["gpu_count"].parse().unwrap_or(1);
        let output_tokens: u32 = row["output_tokens"].parse().unwrap_or(256).max(1);
        let w = Workload {
            model: model_id.into(),
            runtime: RuntimeChoice::Vllm,
            weight_precision,
            images: Some(1),
            image_side: Some(image_side),
            input_tokens,
            output_tokens,
            concurrency: 1,
            ..Workload::default()
        };
        let gpu = catalog().gpu(gpu_id).unwrap();
        // vLLM as each source's release ran it (`vllm_as_run`).
        let s = vllm_speed_as_run(&row["software_version"], &w, model, gpu_id, count);
        let serving = s.serving().unwrap();
        let ttft = serving.ttft_s.unwrap();
        let value: f64 = row["value"].parse().unwrap();
        // Every figure as a rate, so that one scale means "faster" for all
        // (the held-out refit): requests a second for a latency.
        let (predicted, measured) = match row["metric"].as_str() {
            // Time to the last of the new tokens: the first, then one per step.
            "e2e_latency_s" => (1.0 / serving.lone_request_s(output_tokens).unwrap(), 1.0 / value),
            "ttft_ms" => (1.0 / ttft, 1e3 / value),
            "generation_throughput" => (serving.decode_tokens_per_s, value),
            _ => continue,
        };
        let case = format!(
            "{} {model_id} {} {gpu_id}×{count} image {image_side}px prompt {input_tokens} out {output_tokens} {} (per s)",
            row["id"],
            weight_precision.key(),
            row["metric"]
        );
        family.add(&row["source_id"], case, gpu, predicted, measured);
    }
    family
}

/// `vlm_vllm_more.csv`'s requests with images (`vlm_vllm_more_sources.md`):
/// DashInfer's benchmark of vLLM 0.6.4 (Qwen2-VL 7B on one A100 and 72B on
/// four, FP16, three images and 2,807 prompt tokens a request, 120 new
/// tokens, one request at a time), each a request's whole time.
fn add_more_rows(family: &mut Family) {
    for row in rows("project:vlm_vllm_more.csv") {
        let images: u32 = row["images"].parse().unwrap_or(0);
        let (Some(gpu_id), Some(model_id), Some(weight_precision)) =
            (gpu_of(&row["hardware"]), model_of(&row["model"]), format_of(&row["precision"]))
        else {
            continue;
        };
        if images == 0 || row["metric"] != "e2e_latency_s" {
            continue;
        }
        let model = catalog().model(model_id).unwrap();
        let tower = model.shape().and_then(|s| s.vision.as_ref()).unwrap();
        let prompt: u32 = row["input_tokens"].parse().unwrap();
        let side = side_from_prompt(tower, images, prompt);
        let output_tokens: u32 = row["output_tokens"].parse().unwrap();
        let w = Workload {
            model: model_id.into(),
            runtime: RuntimeChoice::Vllm,
            weight_precision,
            images: Some(images),
            image_side: Some(side),
            input_tokens: 32,
            output_tokens,
            concurrency: 1,
            ..Workload::default()
        };
        let count: u32 = row["gpu_count"].parse().unwrap();
        let s = vllm_speed_as_run(&row["software_version"], &w, model, gpu_id, count);
        let serving = s.serving().unwrap();
        let seconds = serving.lone_request_s(output_tokens).unwrap();
        let value: f64 = row["value"].parse().unwrap();
        let case = format!(
            "{} {model_id} {} {gpu_id}×{count} {images} images {side}px out {output_tokens} e2e_latency_s (per s)",
            row["id"],
            weight_precision.key()
        );
        family.add(&row["source_id"], case, catalog().gpu(gpu_id).unwrap(), 1.0 / seconds, 1.0 / value);
    }
}

#[test]
fn vision_language_models_answer_one_user_as_published() {
    let family = vlm_batch_one_family();
    assert!(family.sources().len() >= 3, "{:?}", family.sources());
    // The H100 trace's first token comes 1.5× later than estimated, its
    // "encoder" time being what the trace leaves unaccounted, more than the
    // host's image preparation the engine adds (vlm_batch1.csv, VLM-0038;
    // `HOST_S_PER_MEGAPIXEL`). Releases before 0.9.2 (PaddleMIX's, Neural
    // Magic's 0.7.2, DashInfer's 0.6.4) prepared images with the slow
    // processors (`SLOW_PROCESSOR_S_PER_MEGAPIXEL`), linear in the pixels:
    // the cards' 3.8-megapixel pages then take 20–36% longer than they
    // measured, their small images 5–20% less.
    family.assert_within(0.30, 0.80);
}

#[test]
fn a_vision_language_models_first_token_carries_the_band_its_requests_measured() {
    let band_of = |model_id: &str, concurrency: u32| {
        let w = Workload {
            model: model_id.into(),
            runtime: RuntimeChoice::Vllm,
            images: Some(1),
            concurrency,
            ..Workload::default()
        };
        let model = catalog().model(model_id).unwrap();
        let gpu = catalog().gpu("h100_sxm").unwrap();
        let sized = fit(&w, model, gpu, 1).unwrap();
        let s = speed(&w, model, gpu, 1, &sized, &Setup::default()).unwrap();
        s.error_bands.iter().find(|b| b.figure == "ttft_s").and_then(|b| b.band).map(|b| b.family)
    };
    assert_eq!(band_of("qwen2.5-vl-7b", 1), Some("vLLM vision-language batch 1"));
    // Under load, and for a text model, no published VLM request covers it.
    assert_eq!(band_of("qwen2.5-vl-7b", 32), None);
    assert_eq!(band_of("qwen2.5-7b", 1), None);
}

/// A request's images are prepared on the host before the tower runs: a
/// 1080p image (2.1 megapixels) delays the first token by tens of
/// milliseconds more than a thumbnail on any GPU, which the GPU's speed
/// does not shorten, and the replica's throughput does not pay for it.
#[test]
fn the_host_prepares_each_image_before_the_first_token() {
    let first_token = |side: u32, gpu_id: &str| {
        let w = Workload {
            model: "qwen2.5-vl-7b".into(),
            runtime: RuntimeChoice::Vllm,
            images: Some(1),
            image_side: Some(side),
            concurrency: 1,
            ..Workload::default()
        };
        let model = catalog().model("qwen2.5-vl-7b").unwrap();
        let gpu = catalog().gpu(gpu_id).unwrap();
        let sized = fit(&w, model, gpu, 1).unwrap();
        let s = speed(&w, model, gpu, 1, &sized, &Setup::default()).unwrap();
        let serving = s.serving().unwrap();
        (serving.ttft_s.unwrap(), s.notes.iter().find(|n| n.to_string().contains("on the CPU")).map(|n| n.to_string()))
    };
    // Against the tower and prefill alone on a B200, which take far less.
    let (small, _) = first_token(224, "b200_sxm");
    let (large, note) = first_token(1440, "b200_sxm");
    let host = super::HOST_S_PER_MEGAPIXEL * (1440.0f64.powi(2) - 224.0f64.powi(2)) / 1e6;
    assert!(host > 0.05, "{host}");
    assert!(large - small > host, "{small} → {large}");
    assert!(note.unwrap().contains("after about 60 ms preparing the images on the CPU"));
}
