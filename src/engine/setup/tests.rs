//! The support matrix applied to the cases users hit (issue 23) and their
//! mirror images, each against the documentation the matrix cites
//! (data/support_matrix.csv).

use super::*;
use crate::engine::support::{lookup, Answer, Feature, Stack, Support};
use crate::engine::{Catalog, RuntimeChoice};
use crate::url_codec::decode;

/// How `query` runs on `gpu_id`: the runtime (or "-") and the notes, or
/// the reason it cannot.
fn on(query: &str, gpu_id: &str) -> Result<(String, Vec<String>), String> {
    let catalog = Catalog::bundled().unwrap();
    let workload = decode(query, catalog).workload;
    let model = workload.resolve_model(catalog).unwrap();
    let gpu = catalog.gpu(gpu_id).unwrap();
    match set_up(&workload, &model, gpu, &catalog.support).unwrap() {
        Ok(setup) => Ok((
            setup.runtime.map_or("-".to_string(), |r| r.to_string()),
            setup.notes.iter().map(ToString::to_string).collect(),
        )),
        Err(reason) => Err(reason.to_string()),
    }
}

fn runs_natively(query: &str, gpu_id: &str, runtime: &str) {
    assert_eq!(on(query, gpu_id), Ok((runtime.to_string(), vec![])), "{query} on {gpu_id}");
}

fn refused(query: &str, gpu_id: &str, says: &[&str]) {
    let reason = on(query, gpu_id).expect_err(&format!("{query} must not run on {gpu_id}"));
    for words in says {
        assert!(reason.contains(words), "{query} on {gpu_id}: {reason:?} lacks {words:?}");
    }
}

fn falls_back(query: &str, gpu_id: &str, runtime: &str, note: &str) {
    let (chosen, notes) = on(query, gpu_id).unwrap_or_else(|e| panic!("{query} on {gpu_id}: {e}"));
    assert_eq!(chosen, runtime, "{query} on {gpu_id}");
    assert!(notes.iter().any(|n| n.contains(note)), "{query} on {gpu_id}: {notes:?} lacks {note:?}");
}

/// Issue 40: Wan 2.1 14B was ranked on six Inferentia2 chips, as "diffusers
/// runs on Neuron" was read for every model; Optimum Neuron compiles image
/// pipelines only.
#[test]
fn inferentia2_makes_images_and_no_video() {
    runs_natively("task=image&model=sdxl-base-1.0", "inferentia2", "-");
    runs_natively("task=image&model=flux.1-dev", "inferentia2", "-");
    refused("task=video&model=wan2.1-t2v-14b", "inferentia2", &["video generation pipelines", "Inferentia2"]);
    refused("task=video&model=cogvideox-5b", "trainium", &["video generation pipelines"]);
    // Elsewhere video runs wherever diffusers does.
    runs_natively("task=video&model=wan2.1-t2v-14b", "h100_sxm", "-");
}

#[test]
fn tensorrt_llm_runs_on_nvidia_ampere_and_newer_only() {
    // "TensorRT-LLM runs on NVIDIA GPUs only" (its support matrix).
    refused("model=llama-3.1-70b&wq=fp8&runtime=trtllm", "mi300x", &["TensorRT-LLM does not run on", "AMD CDNA3"]);
    refused("model=llama-3.1-8b&runtime=trtllm", "tpu_v5e", &["TensorRT-LLM", "TPU"]);
    refused("model=llama-3.1-8b&runtime=trtllm", "inferentia2", &["TensorRT-LLM"]);
    // Volta and Turing are not in current releases' matrix.
    refused("model=llama-3.1-8b&wq=bf16&runtime=trtllm", "v100_sxm2_16gb", &["Volta, compute capability 7.0"]);
    refused("model=llama-3.1-8b&runtime=trtllm", "t4", &["compute capability 8.0+"]);
    // Mirror images: it runs on Hopper, with FP8 too.
    runs_natively("model=llama-3.1-8b&runtime=trtllm", "h100_sxm", "trtllm");
    runs_natively("model=llama-3.1-70b&wq=fp8&runtime=trtllm", "h100_sxm", "trtllm");
    runs_natively("model=llama-3.1-70b&wq=fp8&runtime=trtllm", "l40s", "trtllm");
    // FP8 needs Ada or newer in TensorRT-LLM: not on the A100.
    refused("model=llama-3.1-70b&wq=fp8&runtime=trtllm", "a100_sxm_80gb", &["cannot run FP8 (8-bit) weights"]);
}

#[test]
fn nvfp4_runs_natively_only_on_blackwell() {
    for runtime in ["trtllm", "hf"] {
        let query = format!("model=llama-3.1-8b&wq=fp4&runtime={runtime}");
        refused(&query, "h100_sxm", &["FP4"]);
        runs_natively(&query, "b200_sxm", runtime);
    }
    // vLLM runs NVFP4 checkpoints before Blackwell as weight-only (Marlin).
    falls_back("model=llama-3.1-8b&wq=fp4&runtime=vllm", "h100_sxm", "vllm", "weight-only");
    runs_natively("model=llama-3.1-8b&wq=fp4&runtime=vllm", "b200_sxm", "vllm");
}

#[test]
fn fp8_is_w8a8_from_ada_and_weight_only_before_in_vllm() {
    runs_natively("model=llama-3.1-8b&wq=fp8", "h100_sxm", "vllm");
    runs_natively("model=llama-3.1-8b&wq=fp8", "l40s", "vllm");
    // "FP8 models will run on compute capability >= 7.5 (Turing) as
    // weight-only W8A16, utilizing FP8 Marlin" (vLLM's FP8 page).
    falls_back("model=llama-3.1-8b&wq=fp8", "a100_sxm_80gb", "vllm", "dequantizes them in its kernels (weight-only)");
    falls_back("model=llama-3.1-8b&wq=fp8", "t4", "vllm", "weight-only");
    // AMD: FP8 on MI300-class (CDNA3), not on MI250X (CDNA2).
    runs_natively("model=llama-3.1-8b&wq=fp8&runtime=vllm", "mi300x", "vllm");
    refused("model=llama-3.1-8b&wq=fp8&runtime=vllm", "mi250x", &["vLLM", "FP8"]);
}

#[test]
fn bf16_falls_back_to_fp16_where_the_gpu_has_none() {
    falls_back(
        "model=llama-3.1-8b&wq=bf16&runtime=vllm",
        "t4",
        "vllm",
        "has no BF16: vLLM runs it in FP16, same memory",
    );
    // Current vLLM needs compute capability 7.5: the V100 is served by
    // llama.cpp when the runtime is automatic.
    refused("model=llama-3.1-8b&runtime=vllm", "v100_sxm2_16gb", &["vLLM does not run on", "7.5+"]);
    runs_natively("model=llama-3.1-8b", "v100_sxm2_16gb", "llamacpp");
    // Training on Turing: FP16 with loss scaling, and no FlashAttention-2.
    let (_, notes) = on("task=finetune&model=llama-3.1-8b", "t4").unwrap();
    assert!(notes.iter().any(|n| n.contains("trains in FP16 with loss scaling")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("no FlashAttention-2")), "{notes:?}");
    runs_natively("task=finetune&model=llama-3.1-8b", "a100_sxm_80gb", "-");
    // Diffusers on Turing alike.
    falls_back("task=image&model=sdxl-base-1.0", "t4", "-", "has no BF16: diffusers runs it in FP16");
}

#[test]
fn the_automatic_runtime_picks_what_runs_on_each_kind_of_hardware() {
    runs_natively("model=llama-3.1-8b", "h100_sxm", "vllm");
    runs_natively("model=llama-3.1-8b", "mi300x", "vllm");
    runs_natively("model=llama-3.1-8b", "tpu_v5e", "vllm");
    runs_natively("model=llama-3.1-8b", "inferentia2", "vllm");
    // GGUF is llama.cpp's own format; Apple GPUs run llama.cpp (Metal).
    runs_natively("model=llama-3.1-8b&wq=q4_k_m", "h100_sxm", "llamacpp");
    runs_natively("model=llama-3.1-8b", "apple_m2_max", "llamacpp");
    runs_natively("model=llama-3.1-8b&wq=q4_k_m&runtime=llamacpp", "mi300x", "llamacpp");
    // Inferentia (NeuronCore-v1) has no serving runtime of the four.
    refused("model=llama-3.1-8b", "inferentia", &["none of vLLM, TensorRT-LLM, llama.cpp, HF transformers runs on"]);
    // An explicit runtime is honoured: llama.cpp has no TPU backend.
    refused("model=llama-3.1-8b&runtime=llamacpp", "tpu_v5e", &["llama.cpp does not run on"]);
    // The automatic runtime is the default and stays out of links.
    assert_eq!(Workload::default().runtime, RuntimeChoice::Auto);
}

#[test]
fn the_legacy_gguf_types_and_the_i_quants_run_where_their_kernels_exist() {
    // Issue 41: llama.cpp runs them natively on every backend it has; vLLM's
    // GGUF loader has their kernels (STANDARD and IMATRIX quant types);
    // TensorRT-LLM reads no GGUF at all.
    for format in ["q4_0", "q4_1", "q5_0", "q5_1", "iq4_xs", "iq3_s", "iq3_xxs", "iq2_xs", "iq2_xxs"] {
        runs_natively(&format!("model=llama-3.1-8b&wq={format}"), "rtx_4090", "llamacpp");
        runs_natively(&format!("model=llama-3.1-8b&wq={format}"), "apple_m2_max", "llamacpp");
        runs_natively(&format!("model=llama-3.1-8b&wq={format}&runtime=vllm"), "h100_sxm", "vllm");
        refused(&format!("model=llama-3.1-8b&wq={format}&runtime=trtllm"), "h100_sxm", &["TensorRT-LLM"]);
    }
}

#[test]
fn qlora_needs_bitsandbytes_where_it_has_a_backend() {
    runs_natively("task=finetune&model=llama-2-13b&method=qlora", "a10g", "-");
    runs_natively("task=finetune&model=llama-2-13b&method=qlora", "mi300x", "-");
    refused("task=finetune&model=llama-2-13b&method=qlora", "tpu_v5e", &["bitsandbytes does not run on"]);
    refused("task=finetune&model=llama-2-13b&method=qlora", "trainium", &["bitsandbytes"]);
    // 8-bit AdamW is bitsandbytes too: not on Gaudi.
    refused("task=finetune&model=llama-3.1-8b&method=full&opt=adamw8bit", "gaudi2", &["8-bit AdamW"]);
}

#[test]
fn fp8_pretraining_needs_transformer_engine_fp8() {
    runs_natively("task=pretrain&model=llama-3.1-8b&wq=fp8", "h100_sxm", "-");
    falls_back("task=pretrain&model=llama-3.1-8b&wq=fp8", "a100_sxm_80gb", "-", "trains in BF16");
    refused("task=pretrain&model=llama-3.1-8b&wq=fp8", "v100_sxm2_16gb", &["Transformer Engine"]);
    // Training on Inferentia2 is not documented; on Trainium it is.
    refused("task=pretrain&model=llama-3.1-8b", "inferentia2", &["PyTorch does not run on"]);
    runs_natively("task=pretrain&model=llama-3.1-8b", "trainium", "-");
}

#[test]
fn transcription_runs_where_ctranslate2_has_a_gpu_backend() {
    runs_natively("task=audio", "t4", "-");
    runs_natively("task=audio&wq=int8", "a10g", "-");
    // CTranslate2's ROCm wheels cover Radeon, not Instinct.
    refused("task=audio", "mi300x", &["faster-whisper does not run on"]);
    // BF16 before Ampere runs as FP32, with FP32's memory.
    falls_back("task=audio&wq=bf16", "t4", "-", "as FP32");
}

#[test]
fn a_fallback_to_a_format_sizes_the_weights_in_it() {
    let catalog = Catalog::bundled().unwrap();
    let workload = decode("model=llama-3.1-8b&wq=fp8&runtime=hf", catalog).workload;
    let model = workload.resolve_model(catalog).unwrap();
    // Transformers dequantizes FP8 to BF16 below compute capability 8.9.
    let setup = set_up(&workload, &model, catalog.gpu("a100_sxm_80gb").unwrap(), &catalog.support).unwrap().unwrap();
    assert_eq!(setup.weights_as, Some(Precision::Bf16));
    assert_eq!(setup.apply(&workload).weight_precision, Precision::Bf16);
    let native = set_up(&workload, &model, catalog.gpu("h100_sxm").unwrap(), &catalog.support).unwrap().unwrap();
    assert_eq!(native.apply(&workload).weight_precision, Precision::Fp8);
}

/// A small deterministic generator (64-bit LCG, Knuth's MMIX constants):
/// the same workloads every run.
struct Lcg(u64);

impl Lcg {
    fn pick<T: Copy>(&mut self, from: &[T]) -> T {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        from[((self.0 >> 33) as usize) % from.len()]
    }
}

/// Whether the matrix lets `stack` do `feature` on `gpu` (natively or by a
/// fallback).
fn allowed(catalog: &Catalog, stack: Stack, gpu: &Gpu, feature: Feature) -> bool {
    matches!(lookup(&catalog.support, stack, gpu, feature), Answer::Listed(s, _) if s != Support::No)
}

#[test]
fn no_ranked_row_pairs_software_with_hardware_or_a_format_the_matrix_rules_out() {
    use crate::engine::{rank, snapshot::committed, FinetuneMethod, KvPrecision, Optimizer};
    let catalog = Catalog::bundled().unwrap();
    let snapshot = committed();
    let mut random = Lcg(23);
    let mut rows_checked = 0;
    for _ in 0..48 {
        let task = random.pick(&Task::ALL);
        let models: Vec<&str> = catalog.models.iter().filter(|m| m.suits(task)).map(|m| m.id.as_str()).collect();
        let workload = Workload {
            model: random.pick(&models).to_string(),
            weight_precision: random.pick(&Precision::ALL),
            kv_precision: random.pick(&KvPrecision::ALL),
            runtime: random.pick(&RuntimeChoice::ALL),
            method: random.pick(&FinetuneMethod::ALL),
            optimizer: random.pick(&Optimizer::ALL),
            ..Workload::for_task(task)
        };
        let Ok(report) = rank(&workload, catalog, &snapshot) else { continue };
        for row in &report.results {
            let gpu = catalog.gpu(&snapshot.offers[row.offer].gpu).unwrap();
            let ok = |stack, feature| allowed(catalog, stack, gpu, feature);
            let what = format!("{} on {}", crate::url_codec::encode(&workload), gpu.id);
            let wq = workload.weight_precision;
            match task {
                Task::Infer => {
                    let runtime = row.runtime.unwrap_or_else(|| panic!("{what}: a serving row names its runtime"));
                    assert!(workload.runtime.fixed().is_none_or(|asked| asked == runtime), "{what}");
                    let stack = stack_of(runtime);
                    assert!(ok(stack, Feature::Runs), "{what}: {runtime} does not run there");
                    assert!(ok(stack, Feature::Weights(wq)), "{what}: {runtime} cannot load {wq}");
                    assert!(ok(stack, Feature::Kv(workload.kv_precision)), "{what}: {runtime} KV cache");
                }
                Task::Finetune | Task::Pretrain => {
                    assert!(row.runtime.is_none(), "{what}");
                    assert!(ok(Stack::Pytorch, Feature::Runs), "{what}: PyTorch does not run there");
                    if task == Task::Finetune && workload.method == FinetuneMethod::Qlora {
                        assert!(ok(Stack::Bitsandbytes, Feature::Weights(Precision::Nf4)), "{what}: no NF4");
                    }
                    if workload.optimizer == Optimizer::Adamw8bit {
                        assert!(ok(Stack::Bitsandbytes, Feature::Optimizer8bit), "{what}: no 8-bit AdamW");
                    }
                    if task == Task::Pretrain && wq == Precision::Fp8 {
                        assert!(ok(Stack::TransformerEngine, Feature::ComputeFp8), "{what}: no FP8 training");
                    }
                }
                Task::Image => assert!(ok(Stack::Diffusers, Feature::Runs), "{what}: no diffusers"),
                Task::Video => {
                    assert!(ok(Stack::Diffusers, Feature::Runs), "{what}: no diffusers");
                    assert!(ok(Stack::Diffusers, Feature::VideoPipelines), "{what}: no video pipeline");
                }
                Task::Audio => {
                    assert!(ok(Stack::FasterWhisper, Feature::Runs), "{what}: no faster-whisper");
                    assert!(ok(Stack::FasterWhisper, Feature::Weights(wq)), "{what}: faster-whisper cannot run {wq}");
                }
                Task::Speech | Task::Music => {
                    assert!(ok(Stack::Pytorch, Feature::Runs), "{what}: PyTorch does not run there");
                    if wq == Precision::Bf16 {
                        assert!(ok(Stack::Pytorch, Feature::ComputeBf16), "{what}: no bf16");
                    }
                }
            }
            rows_checked += 1;
        }
    }
    // The generator reaches real rankings, not only empty ones.
    assert!(rows_checked > 10_000, "{rows_checked} rows checked");
}

#[test]
fn pure_bf16_training_runs_as_mixed_precision_where_the_gpu_has_no_bf16() {
    // FP16 cannot hold Adam's state: a V100 trains in FP16 from FP32 masters
    // with loss scaling (Micikevicius et al. 2018), so torchtune's pure-BF16
    // recipe is sized as mixed precision there, and says so.
    let catalog = Catalog::bundled().unwrap();
    let query = "task=finetune&model=llama-3.1-8b&method=full&recipe=bf16";
    let workload = decode(query, catalog).workload;
    let model = workload.resolve_model(catalog).unwrap();
    let v100 = catalog.gpu("v100_sxm2_16gb").unwrap();
    let on_v100 = on_gpu(&workload, &model, v100, &catalog.support).unwrap();
    assert_eq!(on_v100.workload.recipe, TrainingRecipe::Mixed);
    let (_, notes) = on(query, "v100_sxm2_16gb").unwrap();
    assert!(notes.iter().any(|n| n.contains("mixed precision (FP16 with FP32 master weights")), "{notes:?}");
    assert!(!notes.iter().any(|n| n.contains("loss scaling, same memory")), "{notes:?}");
    // Where BF16 runs, the recipe is the one asked for.
    let h100 = catalog.gpu("h100_sxm").unwrap();
    assert_eq!(on_gpu(&workload, &model, h100, &catalog.support).unwrap().workload.recipe, TrainingRecipe::PureBf16);
    // Mixed precision on a V100 keeps its memory: only the arithmetic falls back.
    falls_back("task=finetune&model=llama-3.1-8b&method=full", "v100_sxm2_16gb", "-", "loss scaling, same memory");
}
