//! The CLI's answers for the presets, each task's defaults and a grid of
//! one-configuration estimates, committed under `tests/golden/`: the
//! structure of the engine may change (issue 22), its figures may not,
//! unless the commit that rewrites these files says why.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

use whichgpu::golden;
use whichgpu::presets::PRESETS;

/// What `whichgpu args` prints, or its error message (a refusal is an
/// answer too, and must not change either).
fn whichgpu(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_whichgpu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run whichgpu");
    if output.status.success() {
        String::from_utf8(output.stdout).expect("UTF-8 output")
    } else {
        format!("error: {}", String::from_utf8_lossy(&output.stderr))
    }
}

/// A rank answer cut to what a reader can review: the first 10 rows (what
/// `rank --json` prints by default) and the first 10 excluded offers,
/// beside their counts.
fn readable(whole: &str) -> String {
    let mut json: serde_json::Value = serde_json::from_str(whole).unwrap_or_else(|e| panic!("{e}: {whole}"));
    for list in ["results", "excluded"] {
        let rows = json[list].as_array_mut().expect("a list");
        json[format!("{list}_count")] = rows.len().into();
        json[list].as_array_mut().expect("a list").truncate(10);
    }
    serde_json::to_string_pretty(&json).expect("JSON") + "\n"
}

/// Each task's defaults, and the media models whose own resolution or clip
/// length differs from the defaults (their storage and egress depend on it).
const WORKLOADS: [(&str, &str); 13] = [
    ("infer", "task=infer"),
    ("finetune", "task=finetune"),
    ("pretrain", "task=pretrain"),
    ("image", "task=image"),
    ("video", "task=video"),
    ("audio", "task=audio"),
    ("image-sd15", "task=image&model=sd-1.5"),
    ("video-hunyuan", "task=video&model=hunyuanvideo"),
    ("video-mochi", "task=video&model=mochi-1"),
    ("video-cogvideox", "task=video&model=cogvideox-5b"),
    ("speech", "task=speech"),
    ("music", "task=music"),
    ("vlm-llava", "model=llava-1.5-7b"),
];

/// The reader's day for the prices' age (`rank --today`): fixed, so that an
/// answer does not change with the day the test runs.
const TODAY: &str = "2026-12-01";

/// `rank --json`: the first rows whole, and a fingerprint of the whole
/// answer as printed (every row, the excluded offers, the advice, the order
/// of the keys).
#[test]
fn rank_answers_match_the_golden_files() {
    let presets = PRESETS.iter().enumerate().map(|(i, preset)| (format!("preset-{i}"), preset.query.to_string()));
    let workloads = WORKLOADS.iter().map(|(name, query)| (name.to_string(), query.to_string()));
    let mut fingerprints = String::new();
    for (name, query) in presets.chain(workloads) {
        let whole = whichgpu(&["rank", "--config", &query, "--top", "100000", "--json", "--today", TODAY]);
        golden::check(&format!("tests/golden/rank/{name}.json"), &readable(&whole));
        fingerprints.push_str(&format!("{name} {query}: {}\n", golden::fingerprint(&whole)));
    }
    golden::check("tests/golden/rank/fingerprints.txt", &fingerprints);
}

/// `estimate --json` for each task on GPUs of every segment and vendor,
/// one and several at a time: memory and speed of every family.
#[test]
fn estimates_match_the_golden_file() {
    const QUERIES: [&str; 17] = [
        "model=llama-3.1-8b",
        "model=llama-3.1-70b&conc=32&in=2048&out=512",
        "model=llama-3.1-8b&wq=q4_k_m&runtime=llamacpp&in=1024&out=256",
        "model=mixtral-8x7b&wq=awq&conc=8&runtime=trtllm&kvq=fp8",
        "model=deepseek-v3&wq=fp8&in=8000&conc=4",
        "model=gemma-2-27b&runtime=hf",
        "task=finetune&model=llama-2-13b&method=qlora&tokens=50000000",
        "task=finetune&model=llama-3.1-8b&method=full&opt=adamw8bit&ce=chunked&zero=3&gpus=8",
        "task=pretrain&model=llama-3.1-8b&gpus=8&tp=2",
        "task=image&model=sdxl-base-1.0&n=10000&batch=4",
        "task=image&model=flux.1-dev&offload=model",
        "task=video&model=wan2.1-t2v-14b",
        "task=video&model=hunyuanvideo&res=848x480",
        "task=audio&hours=100&batch=8",
        "model=qwen2-vl-7b&imgs=4&img_px=1344",
        "task=speech&model=parler-tts-mini-v1&batch=8",
        "task=music&model=musicgen-large&secs=20",
    ];
    const GPUS: [(&str, &str); 6] =
        [("rtx_4090", "1"), ("a100_sxm_80gb", "1"), ("h100_sxm", "1"), ("h100_sxm", "8"), ("mi300x", "2"), ("t4", "4")];
    let mut lines = String::new();
    for query in QUERIES {
        for (gpu, count) in GPUS {
            let json = whichgpu(&["estimate", "--config", query, "--gpu", gpu, "--count", count, "--json"]);
            let answer = match serde_json::from_str::<serde_json::Value>(&json) {
                Ok(compact) => compact.to_string(),
                Err(_) => json.trim_end().to_string(),
            };
            lines.push_str(&format!("{query} | {gpu} ×{count}\n{answer}\n"));
        }
    }
    golden::check("tests/golden/estimates.txt", &lines);
}
