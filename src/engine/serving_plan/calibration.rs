//! The queueing model against published serving results that state their
//! load (a Poisson request rate, or closed-loop clients) and their latency
//! percentiles or means (issue 39): `data/calibration/serving_load.csv` and
//! `serving_latency.csv`, each source as it ran (its runtime's release,
//! GPU, model, formats, mean prompt and output lengths).
//!
//! The simulation has no constant of its own: each step is the engine's
//! per-step time (calibrated on other sources), the scheduler's limits are
//! the runtime's defaults. So every source is held out by construction, and
//! its error here is its held-out error.

use super::simulate::{simulate, Arrivals, Limits, Load, Run};
use super::{BETWEEN_TOKENS_FAMILY, FIRST_TOKEN_FAMILY};
use crate::engine::memory::{fit, runtime_memory};
use crate::engine::speed::calibration::Family;
use crate::engine::speed::llm::{self, ReplicaSteps};
use crate::engine::speed::tests::vllm_as_run;
use crate::engine::{Catalog, KvPrecision, Precision, Runtime, Workload};

/// How one source ran, as its rows and sources file state it.
struct Setting {
    source: &'static str,
    /// Rows of the source this setting covers: the `software` cell starts
    /// with this, and the `model` cell holds `model_words`.
    software: &'static str,
    model_words: &'static str,
    runtime: Runtime,
    /// The runtime's kernels as that release ran them.
    kernels: llm::RuntimeSpeed,
    gpu: &'static str,
    gpus: u32,
    model: &'static str,
    weights: Precision,
    kv: KvPrecision,
    /// Mean prompt and output tokens per request, as the source states
    /// them (or its totals over its requests).
    prompt: u32,
    output: u32,
    /// Read from the row: `true` for a Poisson `request_rate`, `false` for
    /// closed-loop `concurrency`.
    poisson: bool,
}

fn settings() -> Vec<Setting> {
    let vllm = |version| vllm_as_run(version);
    vec![
        // DigitalOcean's GTC 2026 sweep: 300 ShareGPT requests, "avg 207"
        // prompt and "~198" output tokens; ModelOpt FP8 weights, FP8 cache.
        Setting {
            source: "SLD-A-do-gtc2026-vllm-h200",
            software: "vLLM",
            model_words: "70B",
            runtime: Runtime::Vllm,
            kernels: vllm("0.14.1"),
            gpu: "h200_sxm",
            gpus: 1,
            model: "llama-3.1-70b",
            weights: Precision::Fp8,
            kv: KvPrecision::Fp8,
            prompt: 207,
            output: 198,
            poisson: true,
        },
        // GPUStack's Qwen3-8B lab, on vLLM and on TensorRT-LLM.
        gpustack("vLLM", Runtime::Vllm, vllm("0.11.0")),
        gpustack("TensorRT-LLM", Runtime::Trtllm, llm::runtime_speed(Runtime::Trtllm)),
        // IOG's vLLM 0.8.5 runs of Llama 3 8B on one H100 PCIe: 41,169
        // prompt and about 40,350 output tokens over 200 requests. Its 70B
        // runs on two are left out: overloaded from 4 requests a second,
        // their tails do not rise with the load (the sources file).
        Setting {
            source: "SLD-C-iog-vllm085-h100pcie",
            software: "vLLM",
            model_words: "Llama-3-8B",
            runtime: Runtime::Vllm,
            kernels: vllm("0.8.5"),
            gpu: "h100_pcie",
            gpus: 1,
            model: "llama-3-8b",
            weights: Precision::Fp16,
            kv: KvPrecision::Fp16,
            prompt: 206,
            output: 202,
            poisson: true,
        },
        // AWS's llm-optimizer runs on a g6.12xlarge: 302,118 prompt and
        // 195,775 output tokens over 1,000 requests; the release is not
        // stated (pip, December 2025: before async scheduling).
        Setting {
            source: "SLD-E-aws-bentoml-llmoptimizer-l4",
            software: "vLLM",
            model_words: "Qwen3-4B",
            runtime: Runtime::Vllm,
            kernels: vllm("2025"),
            gpu: "l4",
            gpus: 4,
            model: "qwen3-4b",
            weights: Precision::Bf16,
            kv: KvPrecision::Bf16,
            prompt: 302,
            output: 196,
            poisson: false,
        },
        // NVIDIA's NIM benchmarking guide: Llama 3.3 70B FP8 on two H100s
        // (TensorRT-LLM inside NIM 1.8.0), 5,000-token prompts and 500
        // tokens out, and 500 and 2,000.
        nim(5000, 500),
        nim(500, 2000),
    ]
}

/// GPUStack's Qwen3-8B lab on one H100 SXM with `software` (`runtime` as
/// `kernels`): 23,260 prompt and 22,061 output tokens over 100 requests.
fn gpustack(software: &'static str, runtime: Runtime, kernels: llm::RuntimeSpeed) -> Setting {
    Setting {
        source: "SLD-B-gpustack-qwen3-8b-h100",
        software,
        model_words: "Qwen3-8B",
        runtime,
        kernels,
        gpu: "h100_sxm",
        gpus: 1,
        model: "qwen3-8b",
        weights: Precision::Bf16,
        kv: KvPrecision::Bf16,
        prompt: 233,
        output: 221,
        poisson: false,
    }
}

/// NVIDIA NIM 1.8.0's Llama 3.3 70B FP8 profile on two H100s, with
/// `prompt` and `output` tokens per request; its KV cache's format is not
/// stated (BF16, the model's).
fn nim(prompt: u32, output: u32) -> Setting {
    Setting {
        source: "S02-nvidia-nim-benchmarking",
        software: "NVIDIA NIM",
        model_words: "70B",
        runtime: Runtime::Trtllm,
        kernels: llm::runtime_speed(Runtime::Trtllm),
        gpu: "h100_sxm",
        gpus: 2,
        model: "llama-3.3-70b",
        weights: Precision::Fp8,
        kv: KvPrecision::Bf16,
        prompt,
        output,
        poisson: false,
    }
}

/// Which latency a row measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Latency {
    FirstToken,
    BetweenTokens,
}

/// A row's metric: the latency, and the percentile (`None`: the mean).
fn metric(name: &str) -> Option<(Latency, &'static str, Option<f64>)> {
    let (kind, stat) = name.split_once("_ms_")?;
    let latency = match kind {
        "ttft" => (Latency::FirstToken, "ttft"),
        "itl" => (Latency::BetweenTokens, "itl"),
        "tpot" => (Latency::BetweenTokens, "tpot"),
        _ => return None,
    };
    let percentile = match stat {
        "mean" => None,
        "median" => Some(50.0),
        p => Some(p.strip_prefix('p')?.parse().ok()?),
    };
    Some((latency.0, latency.1, percentile))
}

/// The leading number of a cell ("0.50 (Poisson)", "8", "no cap (…)").
fn leading(cell: &str) -> Option<f64> {
    cell.split(|c: char| !(c.is_ascii_digit() || c == '.')).next()?.parse().ok()
}

/// Each compared row: (source, latency, measured s, estimated s, what, GPU).
fn compared() -> Vec<(&'static str, Latency, f64, f64, String, &'static str)> {
    let catalog = Catalog::bundled().unwrap();
    let mut out = Vec::new();
    for file in [
        include_str!("../../../data/calibration/serving_load.csv"),
        include_str!("../../../data/calibration/serving_latency.csv"),
    ] {
        let mut reader = csv::Reader::from_reader(file.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
        let (source, software, model_cell, input) =
            (column("source_id"), column("software"), column("model"), column("input_tokens"));
        let (conc, rate, metric_cell, value) =
            (column("concurrency"), column("request_rate"), column("metric"), column("value"));
        for record in reader.records() {
            let row = record.unwrap();
            let Some((latency, kind, percentile)) = metric(&row[metric_cell]) else { continue };
            let Some(s) = settings().into_iter().find(|s| {
                s.source == &row[source]
                    && row[software].starts_with(s.software)
                    && row[model_cell].contains(s.model_words)
                    // NIM's two length settings, told apart by the prompt.
                    && (!row[input].starts_with(|c: char| c.is_ascii_digit()) || leading(&row[input]) == Some(f64::from(s.prompt)))
            }) else {
                continue;
            };
            let arrivals = if s.poisson {
                Arrivals::Poisson(leading(&row[rate]).unwrap())
            } else {
                Arrivals::Closed(leading(&row[conc]).unwrap() as u32)
            };
            let w = Workload {
                model: s.model.into(),
                runtime: s.runtime.choice(),
                weight_precision: s.weights,
                kv_precision: s.kv,
                input_tokens: s.prompt,
                output_tokens: s.output,
                ..Workload::default()
            };
            let model = catalog.model(s.model).unwrap();
            let gpu = catalog.gpu(s.gpu).unwrap();
            let shape = model.shape().unwrap();
            let steps = ReplicaSteps::with_kernels(&s.kernels, &w, model, shape, gpu, s.gpus).unwrap();
            let kv_sequences = fit(&w, model, gpu, s.gpus).unwrap().max_concurrency.unwrap();
            let limits = Limits {
                max_running: s.kernels.max_batch.unwrap_or(kv_sequences),
                step_tokens: runtime_memory(s.runtime).tokens_per_pass.unwrap() as u32,
                kv_sequences,
            };
            let load =
                Load { arrivals, prompt_tokens: s.prompt, output_tokens: s.output, cached_tokens: 0, spread: 0.0 };
            let outcome = simulate(load, limits, Run::DEFAULT, |n, c, k| steps.step_s(n, c, k));
            let (ttft_mean, itl_mean, tpot_mean) = outcome.means();
            let estimate = match (kind, percentile) {
                ("ttft", Some(p)) => outcome.ttft(p),
                ("itl", Some(p)) => outcome.itl(p),
                ("tpot", Some(p)) => outcome.tpot(p),
                ("ttft", None) => ttft_mean,
                ("itl", None) => itl_mean,
                _ => tpot_mean,
            };
            let measured = leading(&row[value]).unwrap() / 1e3;
            let what = format!(
                "{} {} {:?} {}",
                &row[software][..row[software].len().min(12)],
                &row[metric_cell],
                arrivals,
                s.prompt
            );
            out.push((s.source, latency, measured, estimate, what, s.gpu));
        }
    }
    out
}

#[test]
fn the_queueing_model_holds_on_each_source() {
    let catalog = Catalog::bundled().unwrap();
    let mut first = Family::new(FIRST_TOKEN_FAMILY);
    let mut between = Family::new(BETWEEN_TOKENS_FAMILY);
    for (source, latency, measured, estimate, what, gpu) in compared() {
        let family = if latency == Latency::FirstToken { &mut first } else { &mut between };
        family.add(source, what, catalog.gpu(gpu).unwrap(), estimate, measured);
    }
    // Each measures the engine as it stands: no constant of the queueing
    // model was fitted, so every source is unseen.
    first.report();
    between.report();
    assert!(first.sources().len() >= 5 && between.sources().len() >= 5);
}
