//! The command that starts a plan's server (issue 39): the runtime's own
//! program with the flags that realise the plan's parallelism, caps and
//! formats, each spelled as the runtime's pinned release defines it
//! (`data/launch_flags.csv`, from its source or versioned docs:
//! `data/launch_flags.md`; a test fails on a flag that release lacks).

use super::SloPlan;
use crate::engine::{KvPrecision, Model, Precision, Runtime, Workload};
use serde::Serialize;

/// How one runtime's server takes each setting, at its pinned release.
struct Server {
    runtime: &'static str,
    version: &'static str,
    /// The program, before the model.
    program: &'static str,
    tensor_parallel: Option<&'static str>,
    pipeline_parallel: Option<&'static str>,
    /// Several replicas in one server, balanced by it.
    data_parallel: Option<&'static str>,
    max_running: &'static str,
    /// Longest sequence (prompt + output) per request.
    max_len: &'static str,
    step_tokens: Option<&'static str>,
    /// The KV cache in FP8: the flag and its value.
    kv_fp8: &'static [(&'static str, &'static str)],
    /// FP8 weights quantized when loading a 16-bit checkpoint.
    fp8_weights: Option<(&'static str, &'static str)>,
    /// The context is shared by the slots (llama.cpp: `--ctx-size` is the
    /// total, each of `--parallel` slots gets its share).
    context_shared_by_slots: bool,
    /// Offload every layer to the GPUs.
    all_layers: Option<(&'static str, &'static str)>,
}

/// vLLM 0.34.0 (`vllm/engine/arg_utils.py`).
const VLLM: Server = Server {
    runtime: "vllm",
    version: "0.34.0",
    program: "vllm serve",
    tensor_parallel: Some("--tensor-parallel-size"),
    pipeline_parallel: Some("--pipeline-parallel-size"),
    data_parallel: Some("--data-parallel-size"),
    max_running: "--max-num-seqs",
    max_len: "--max-model-len",
    step_tokens: Some("--max-num-batched-tokens"),
    kv_fp8: &[("--kv-cache-dtype", "fp8")],
    fp8_weights: Some(("--quantization", "fp8")),
    context_shared_by_slots: false,
    all_layers: None,
};

/// TensorRT-LLM's `trtllm-serve` 1.3.0rc7 (its versioned CLI reference).
const TRTLLM: Server = Server {
    runtime: "trtllm-serve",
    version: "1.3.0rc7",
    program: "trtllm-serve",
    tensor_parallel: Some("--tp_size"),
    pipeline_parallel: Some("--pp_size"),
    data_parallel: None,
    max_running: "--max_batch_size",
    max_len: "--max_seq_len",
    step_tokens: Some("--max_num_tokens"),
    kv_fp8: &[("--kv_cache_dtype", "fp8")],
    fp8_weights: None,
    context_shared_by_slots: false,
    all_layers: None,
};

/// llama.cpp's `llama-server` at commit 0c1e57098 (`common/arg.cpp`).
const LLAMA_SERVER: Server = Server {
    runtime: "llama-server",
    version: "llama.cpp@0c1e57098",
    program: "llama-server --model",
    tensor_parallel: None,
    pipeline_parallel: None,
    data_parallel: None,
    max_running: "--parallel",
    max_len: "--ctx-size",
    step_tokens: None,
    kv_fp8: &[("--cache-type-k", "q8_0"), ("--cache-type-v", "q8_0")],
    fp8_weights: None,
    context_shared_by_slots: true,
    all_layers: Some(("--gpu-layers", "all")),
};

const fn server(runtime: Runtime) -> Option<&'static Server> {
    match runtime {
        Runtime::Vllm => Some(&VLLM),
        Runtime::Trtllm => Some(&TRTLLM),
        Runtime::Llamacpp => Some(&LLAMA_SERVER),
        Runtime::Hf => None,
    }
}

/// How to start a plan's servers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Launch {
    /// One server's command.
    pub command: String,
    /// The runtime's program and the release its flags are checked against.
    pub runtime: &'static str,
    pub version: &'static str,
    /// Servers per instance: one per replica where the runtime does not
    /// balance several itself, each on its own GPUs and port.
    pub servers_per_instance: u32,
}

/// The launch of `plan` for `model` on an instance of `gpu_count` GPUs.
pub fn launch(plan: &SloPlan, model: &Model, workload: &Workload, gpu_count: u32) -> Option<Launch> {
    let s = server(plan.runtime)?;
    let replicas_here = (gpu_count / plan.gpus_per_replica.max(1)).clamp(1, plan.replicas.max(1));
    let mut flags: Vec<(String, String)> = Vec::new();
    let mut flag = |name: &str, value: String| flags.push((name.to_string(), value));
    if let Some(tp) = s.tensor_parallel.filter(|_| plan.tensor_parallel > 1) {
        flag(tp, plan.tensor_parallel.to_string());
    }
    if let Some(pp) = s.pipeline_parallel.filter(|_| plan.pipeline_parallel > 1) {
        flag(pp, plan.pipeline_parallel.to_string());
    }
    let servers_per_instance = match s.data_parallel {
        Some(dp) if replicas_here > 1 => {
            flag(dp, replicas_here.to_string());
            1
        }
        _ => replicas_here,
    };
    // With lengths that vary between requests, the longest the plan was
    // simulated with, within the model's context.
    let mean_length = workload.input_tokens.saturating_add(workload.output_tokens);
    let length = match workload.length_spread_pct {
        0 => mean_length,
        _ => mean_length
            .saturating_mul(crate::engine::serving_plan::simulate::LONGEST_DRAW)
            .min(context_of(model).unwrap_or(u32::MAX).max(mean_length)),
    };
    let context = if s.context_shared_by_slots { length.saturating_mul(plan.max_batch) } else { length };
    flag(s.max_len, context.to_string());
    flag(s.max_running, plan.max_batch.to_string());
    if let Some(step) = s.step_tokens {
        flag(step, plan.step_tokens.to_string());
    }
    if plan.kv_cache == KvPrecision::Fp8 || (plan.kv_cache == KvPrecision::Int8 && s.context_shared_by_slots) {
        for (name, value) in s.kv_fp8 {
            flag(name, value.to_string());
        }
    }
    if let (Some((name, value)), Precision::Fp8) = (s.fp8_weights, plan.weights) {
        flag(name, value.to_string());
    }
    if let Some((name, value)) = s.all_layers {
        flag(name, value.to_string());
    }
    let model_ref = model_reference(model, plan.weights, s.context_shared_by_slots);
    let mut command = format!("{} {model_ref}", s.program);
    for (name, value) in flags {
        command.push(' ');
        command.push_str(&name);
        command.push(' ');
        command.push_str(&value);
    }
    Some(Launch { command, runtime: s.runtime, version: s.version, servers_per_instance })
}

/// The model's longest context, where its catalog entry states it.
fn context_of(model: &Model) -> Option<u32> {
    match model.family(crate::engine::Task::Infer) {
        Ok(crate::engine::catalog::Family::Serving(shape)) => shape.max_context,
        _ => None,
    }
}

/// What the command loads: the model's published repo (or its id); for a
/// GGUF server the file of that repo's weights in the plan's format; and
/// for weights a server cannot quantize as it loads them
/// (`Precision::from_quantized_checkpoint`), a checkpoint in that format,
/// named as such for the user to pick.
fn model_reference(model: &Model, weights: Precision, gguf_file: bool) -> String {
    let repo = model.repo.as_deref().unwrap_or(&model.id);
    if gguf_file {
        let name = repo.rsplit('/').next().unwrap_or(repo);
        return format!("{name}-{}.gguf", weights.to_string().to_uppercase());
    }
    if weights.from_quantized_checkpoint() {
        format!("<{}-checkpoint-of-{repo}>", weights.to_string().to_uppercase())
    } else {
        repo.to_string()
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::super::{Latency, Limit};
    use super::*;
    use crate::engine::Catalog;

    /// The flags `data/launch_flags.csv` lists for `runtime` at `version`,
    /// with their other spellings.
    fn defined(runtime: &str, version: &str) -> Vec<String> {
        let table = include_str!("../../../data/launch_flags.csv");
        let mut reader = csv::Reader::from_reader(table.as_bytes());
        let mut flags = Vec::new();
        for record in reader.records() {
            let record = record.unwrap();
            if &record[0] == runtime && &record[1] == version {
                flags.push(record[2].to_string());
                flags.extend(record[3].split(';').filter(|a| !a.is_empty()).map(String::from));
            }
        }
        assert!(!flags.is_empty(), "no flags for {runtime} {version}");
        flags
    }

    fn plan(runtime: Runtime, tp: u32, pp: u32, replicas: u32, weights: Precision, kv: KvPrecision) -> SloPlan {
        let latency = Latency { at_percentile: 0.5, p50: 0.2 };
        SloPlan {
            percentile: 95,
            ttft_target_s: Some(1.0),
            itl_target_s: Some(0.05),
            traffic: super::super::Traffic::of(&Workload::default()),
            ttft_s: latency,
            itl_s: latency,
            tpot_s: latency,
            replicas,
            gpus_per_replica: tp * pp,
            tensor_parallel: tp,
            pipeline_parallel: pp,
            instances: 1,
            max_batch: 48,
            step_tokens: 2048,
            weights,
            kv_cache: kv,
            runtime,
            requests_per_s_per_replica: 1.0,
            limit: Limit::FirstToken,
            most_running: 20,
            kv_sequences: 64,
            waited: false,
            alone_ttft_s: 0.1,
            launch: None,
            curve: Vec::new(),
            ttft_band: None,
            itl_band: None,
        }
    }

    #[test]
    fn every_flag_of_every_command_is_one_the_pinned_release_defines() {
        let catalog = Catalog::bundled().unwrap();
        let model = catalog.model("llama-3.3-70b").unwrap();
        let workload = Workload { input_tokens: 1000, output_tokens: 300, ..Workload::default() };
        let mut checked = 0;
        for runtime in [Runtime::Vllm, Runtime::Trtllm, Runtime::Llamacpp] {
            let s = server(runtime).unwrap();
            let known = defined(s.runtime, s.version);
            for (tp, pp, replicas) in [(1, 1, 1), (2, 1, 4), (4, 2, 1), (1, 1, 8)] {
                for (weights, kv) in [
                    (Precision::Bf16, KvPrecision::Bf16),
                    (Precision::Fp8, KvPrecision::Fp8),
                    (Precision::Q4KM, KvPrecision::Int8),
                ] {
                    let launch = launch(&plan(runtime, tp, pp, replicas, weights, kv), model, &workload, 8).unwrap();
                    for word in launch.command.split(' ').filter(|w| w.starts_with('-')) {
                        assert!(known.iter().any(|f| f == word), "{word} is not a flag of {} {}", s.runtime, s.version);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100);
    }

    #[test]
    fn vllm_serves_the_plan_as_the_issue_spells_it() {
        let catalog = Catalog::bundled().unwrap();
        let model = catalog.model("llama-3.3-70b").unwrap();
        let workload = Workload { input_tokens: 3000, output_tokens: 1096, ..Workload::default() };
        let p = plan(Runtime::Vllm, 2, 1, 1, Precision::Bf16, KvPrecision::Fp8);
        let two = launch(&p, model, &workload, 2).unwrap();
        assert_eq!(
            two.command,
            "vllm serve meta-llama/Llama-3.3-70B-Instruct --tensor-parallel-size 2 --max-model-len 4096 \
             --max-num-seqs 48 --max-num-batched-tokens 2048 --kv-cache-dtype fp8"
        );
        assert_eq!((two.version, two.servers_per_instance), ("0.34.0", 1));
        // Four replicas of 2 GPUs on an 8-GPU instance: one server balances them.
        let four = launch(&plan(Runtime::Vllm, 2, 1, 4, Precision::Bf16, KvPrecision::Bf16), model, &workload, 8);
        assert!(four.unwrap().command.contains("--data-parallel-size 4"));
        // TensorRT-LLM runs one server per replica.
        let trt = launch(&plan(Runtime::Trtllm, 2, 1, 4, Precision::Bf16, KvPrecision::Bf16), model, &workload, 8);
        assert_eq!(trt.unwrap().servers_per_instance, 4);
    }

    #[test]
    fn weights_quantized_beforehand_are_loaded_from_a_checkpoint_in_their_format() {
        let catalog = Catalog::bundled().unwrap();
        let model = catalog.model("llama-3.3-70b").unwrap();
        let workload = Workload { input_tokens: 1000, output_tokens: 300, ..Workload::default() };
        let served = |weights| launch(&plan(Runtime::Vllm, 1, 1, 1, weights, KvPrecision::Fp8), model, &workload, 1);
        let awq = served(Precision::Awq).unwrap().command;
        assert!(awq.starts_with("vllm serve <AWQ-checkpoint-of-meta-llama/Llama-3.3-70B-Instruct> "), "{awq}");
        // FP8 is quantized as the server loads the published weights.
        let fp8 = served(Precision::Fp8).unwrap().command;
        assert!(fp8.starts_with("vllm serve meta-llama/Llama-3.3-70B-Instruct ") && fp8.contains("--quantization fp8"));
    }

    #[test]
    fn llama_server_shares_its_context_among_its_slots() {
        let catalog = Catalog::bundled().unwrap();
        let model = catalog.model("llama-3.1-8b").unwrap();
        let workload = Workload { input_tokens: 1000, output_tokens: 24, ..Workload::default() };
        let slots = launch(&plan(Runtime::Llamacpp, 1, 1, 1, Precision::Q4KM, KvPrecision::Bf16), model, &workload, 1);
        assert_eq!(
            slots.unwrap().command,
            "llama-server --model Llama-3.1-8B-Q4_K_M.gguf --ctx-size 49152 --parallel 48 --gpu-layers all"
        );
    }

    /// Lengths that vary: the longest sequence covers the longest the plan
    /// was simulated with, within the model's context.
    #[test]
    fn a_length_spread_launches_with_room_for_the_longest_request() {
        let catalog = Catalog::bundled().unwrap();
        let model = catalog.model("llama-3.3-70b").unwrap();
        let p = plan(Runtime::Vllm, 2, 1, 1, Precision::Bf16, KvPrecision::Bf16);
        let varied = Workload { input_tokens: 1000, output_tokens: 300, length_spread_pct: 100, ..Workload::default() };
        assert!(launch(&p, model, &varied, 2).unwrap().command.contains("--max-model-len 10400 "));
        let long = Workload { input_tokens: 60_000, output_tokens: 4_000, ..varied };
        let context = context_of(model).unwrap();
        assert!(launch(&p, model, &long, 2).unwrap().command.contains(&format!("--max-model-len {context} ")));
    }
}
