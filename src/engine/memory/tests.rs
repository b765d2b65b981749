//! Memory sizing against published cases. Each case cites its source.

use super::*;
use crate::engine::{Catalog, KvPrecision, Precision, Runtime, RuntimeChoice};
use crate::text::Lang;
use crate::units::BYTES_PER_GB;

/// LLM serving memory for a model with a shape, as `estimate` hands it.
fn inference_memory(w: &Workload, model: &Model, gpu_count: u32) -> Result<MemoryBreakdown, Error> {
    super::inference_memory(w, model, model.shape().unwrap(), gpu_count.into())
}

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

fn workload(model: &str, precision: Precision) -> Workload {
    Workload { model: model.into(), weight_precision: precision, ..Workload::default() }
}

fn gb(bytes: f64) -> f64 {
    bytes / BYTES_PER_GB
}

#[test]
fn weights_scale_with_bits_per_weight() {
    // Llama 3.1 8B: 8,030,261,248 parameters (models.csv, computed from the M1 config).
    let model = catalog().model("llama-3.1-8b").unwrap();
    let cases = [
        (Precision::Fp32, 29.915),
        (Precision::Bf16, 14.957),
        // Weight-only FP8 quantizes the linear layers; the untied embedding and
        // LM head (2 × 128,256 × 4,096 = 1.05B parameters) stay 16-bit:
        // 6.98e9 + 2.10e9 bytes = 8.46 GiB.
        (Precision::Fp8, 8.457),
        // llama.cpp's quantize: Q4_K_M is 4.58 GiB and Q8_0 7.96 GiB for Llama-3-8B.
        (Precision::Q4KM, 4.58),
        (Precision::Q8_0, 7.96),
        // The legacy types likewise (4.34G, 4.78G, 5.21G, 5.65G); the
        // i-quants by their stated bits per weight (IQ4_XS 4.25 bpw, IQ2_XXS
        // 2.06): 8.03e9 × 4.25 / 8 bytes = 3.97 GiB, 1.93 GiB.
        (Precision::Q4_0, 4.34),
        (Precision::Q4_1, 4.78),
        (Precision::Q5_0, 5.21),
        (Precision::Q5_1, 5.65),
        (Precision::Iq4Xs, 3.973),
        (Precision::Iq2Xxs, 1.926),
    ];
    for (precision, expected_gb) in cases {
        let got = gb(weights_bytes(model, precision));
        assert!((got - expected_gb).abs() / expected_gb < 0.02, "{precision}: {got:.3} GiB, expected {expected_gb:.3}");
    }
}

#[test]
fn awq_keeps_embeddings_in_16_bit() {
    // Llama 3.1 8B: 1.05B of its 8.03B parameters are the untied embedding and
    // LM head (2 × 128,256 × 4,096), which AWQ leaves in FP16. Published AWQ
    // checkpoints of Llama 3.1 8B are 5.7 GB on disk (hugging-quants
    // Meta-Llama-3.1-8B-Instruct-AWQ-INT4): 5.3 GiB.
    let model = catalog().model("llama-3.1-8b").unwrap();
    let got = gb(weights_bytes(model, Precision::Awq));
    assert!((got - 5.3).abs() / 5.3 < 0.05, "{got:.2} GiB");
}

#[test]
fn moe_models_keep_every_expert_resident() {
    // Mixtral 8x7B: 46.70B total, 12.88B active (models.csv check values)
    // → 93.4e9 bytes = 87.0 GiB in BF16, not the 24 GiB of the active experts.
    let got = gb(weights_bytes(catalog().model("mixtral-8x7b").unwrap(), Precision::Bf16));
    assert!((got - 87.0).abs() < 0.2, "{got}");
}

#[test]
fn the_kv_cache_can_rival_the_weights_on_long_chats() {
    // Product brief: the KV cache grows with context × concurrency. Llama 3.1 8B
    // caches 131,072 bytes per token in BF16 (models.csv): 32 chats of 8k tokens
    // hold 32 GiB of KV, twice the 15 GiB of weights.
    let model = catalog().model("llama-3.1-8b").unwrap();
    let w = Workload { input_tokens: 7680, output_tokens: 512, concurrency: 32, ..Workload::default() };
    let memory = inference_memory(&w, model, 1).unwrap();
    assert!((gb(memory.kv_cache_bytes) - 32.0).abs() < 0.01, "{}", gb(memory.kv_cache_bytes));
    assert!(memory.kv_cache_bytes > 2.0 * memory.weights_bytes);
    // An FP8 cache halves it.
    let fp8 = inference_memory(&Workload { kv_precision: KvPrecision::Fp8, ..w }, model, 1).unwrap();
    assert!((fp8.kv_cache_bytes * 2.0 - memory.kv_cache_bytes).abs() < 1.0);
}

#[test]
fn gqa_mqa_mla_and_sliding_windows_shrink_the_cache() {
    let w = Workload { input_tokens: 32_000, output_tokens: 768, ..Workload::default() };
    let kv_gb = |id: &str| gb(inference_memory(&w, catalog().model(id).unwrap(), 1).unwrap().kv_cache_bytes);
    // Llama 2 7B (MHA, 32 KV heads) caches 4× what Llama 3.1 8B (GQA, 8) does.
    assert!((kv_gb("llama-2-7b") / kv_gb("llama-3.1-8b") - 4.0).abs() < 0.01);
    // Falcon 7B (MQA, 1 KV head of 64): 8,192 bytes per token (models.csv).
    assert!((kv_gb("falcon-7b") - 32_768.0 * 8192.0 / BYTES_PER_GB).abs() < 0.01);
    // DeepSeek-V3's MLA latent: 70,272 bytes per token for 61 layers (models.csv),
    // against 61 × 2 × 128 heads × 128 × 2 bytes = 4 MB per token were it MHA.
    assert!((kv_gb("deepseek-v3") - 32_768.0 * 70_272.0 / BYTES_PER_GB).abs() < 0.01);
    // Mistral 7B v0.1 keeps 4,096 tokens per layer (sliding window); v0.3 keeps all 32,768.
    assert!((kv_gb("mistral-7b-v0.3") / kv_gb("mistral-7b-v0.1") - 8.0).abs() < 0.01);
}

#[test]
fn an_mla_cache_is_replicated_across_tensor_parallel_gpus() {
    // vLLM keeps the whole MLA latent on every TP rank; GQA heads are split.
    let w = Workload { input_tokens: 100_000, output_tokens: 1_000, concurrency: 4, ..Workload::default() };
    let per_gpu_kv = |id: &str, n: u32| {
        let model = catalog().model(id).unwrap();
        let m = inference_memory(&w, model, n).unwrap();
        let without_kv =
            inference_memory(&Workload { concurrency: 1, input_tokens: 1, output_tokens: 1, ..w.clone() }, model, n)
                .unwrap();
        m.per_gpu_bytes - without_kv.per_gpu_bytes
    };
    assert!(per_gpu_kv("deepseek-v3", 8) > 0.95 * per_gpu_kv("deepseek-v3", 1));
    assert!(per_gpu_kv("llama-3.1-70b", 8) < 0.2 * per_gpu_kv("llama-3.1-70b", 1));
}

#[test]
fn pipeline_stages_and_layer_splits_hold_the_cache_of_their_own_layers() {
    // Falcon 7B has 71 attention heads and one KV head. vLLM cannot split
    // 71 heads over 2 GPUs, so they run as 2 pipeline stages, each holding
    // the cache of half the layers; llama.cpp's layer split does the same.
    // (Tensor parallelism would have to replicate the one KV head.) With 4
    // GPUs, Llama 3.1 70B's 8 KV heads split 4 ways under vLLM, and its
    // layers 4 ways under llama.cpp.
    let kv_per_gpu = |id: &str, runtime: Runtime, n: u32| {
        let model = catalog().model(id).unwrap();
        let w = Workload {
            model: id.into(),
            runtime: runtime.choice(),
            input_tokens: 1_500,
            concurrency: 64,
            ..Workload::default()
        };
        let at =
            |kv_precision| inference_memory(&Workload { kv_precision, ..w.clone() }, model, n).unwrap().per_gpu_bytes;
        // FP8 halves the cache and nothing else.
        2.0 * (at(KvPrecision::Bf16) - at(KvPrecision::Fp8))
    };
    for (id, n) in [("falcon-7b", 2), ("llama-3.1-70b", 4)] {
        for runtime in [Runtime::Vllm, Runtime::Llamacpp] {
            let share = kv_per_gpu(id, runtime, n) / kv_per_gpu(id, runtime, 1);
            assert!((share - 1.0 / f64::from(n)).abs() < 1e-9, "{id} {runtime:?} on {n}: {share}");
        }
    }
}

/// llama-bench runs (`tg 1024`, one sequence of 1,024 tokens) that completed
/// or ran out of memory: XiongjieDai/GPU-Benchmarks-on-LLM-Inference overview
/// table (calibration/llm_decode.csv decode rows; memory.csv MEM-0149…0187).
/// Llama 3 shares Llama 3.1's architecture, so the 3.1 catalog rows stand in.
#[test]
fn llama_cpp_runs_and_out_of_memory_cases_are_reproduced() {
    let cases: [(&str, &str, u32, Precision, bool); 26] = [
        ("rtx_3070", "llama-3.1-8b", 1, Precision::Fp16, false), // MEM-0149
        ("rtx_3070", "llama-3.1-8b", 1, Precision::Q4KM, true),
        ("rtx_3070", "llama-3.1-70b", 1, Precision::Q4KM, false), // MEM-0150
        ("rtx_3080_ti", "llama-3.1-8b", 1, Precision::Fp16, false), // MEM-0155
        ("rtx_3080_ti", "llama-3.1-8b", 1, Precision::Q4KM, true),
        ("rtx_4000_ada", "llama-3.1-8b", 1, Precision::Fp16, true),
        ("rtx_4000_ada", "llama-3.1-70b", 1, Precision::Q4KM, false), // MEM-0163
        ("rtx_4000_ada", "llama-3.1-70b", 4, Precision::Q4KM, true),
        ("rtx_4000_ada", "llama-3.1-70b", 4, Precision::Fp16, false), // MEM-0177
        ("rtx_3090", "llama-3.1-8b", 1, Precision::Fp16, true),
        ("rtx_3090", "llama-3.1-70b", 1, Precision::Q4KM, false), // MEM-0165
        ("rtx_3090", "llama-3.1-70b", 2, Precision::Q4KM, true),
        ("rtx_3090", "llama-3.1-70b", 2, Precision::Fp16, false), // MEM-0171
        ("rtx_3090", "llama-3.1-70b", 4, Precision::Fp16, false), // MEM-0181
        ("rtx_3090", "llama-3.1-70b", 6, Precision::Fp16, true),
        ("rtx_a6000", "llama-3.1-70b", 1, Precision::Q4KM, true),
        ("rtx_a6000", "llama-3.1-70b", 1, Precision::Fp16, false), // MEM-0173
        ("rtx_a6000", "llama-3.1-70b", 4, Precision::Fp16, true),
        ("a40", "llama-3.1-70b", 1, Precision::Q4KM, true),
        ("a40", "llama-3.1-70b", 1, Precision::Fp16, false), // MEM-0175
        ("a100_sxm_80gb", "llama-3.1-70b", 1, Precision::Q4KM, true),
        ("a100_sxm_80gb", "llama-3.1-70b", 1, Precision::Fp16, false), // MEM-0179
        ("a100_sxm_80gb", "llama-3.1-70b", 4, Precision::Fp16, true),
        ("apple_m1_max", "llama-3.1-70b", 1, Precision::Q4KM, true),
        ("apple_m1_max", "llama-3.1-70b", 1, Precision::Fp16, false), // MEM-0187
        ("apple_m2_ultra", "llama-3.1-70b", 1, Precision::Fp16, true),
    ];
    for (gpu, model, count, precision, runs) in cases {
        let w = Workload {
            runtime: RuntimeChoice::Llamacpp,
            input_tokens: 1,
            output_tokens: 1024,
            ..workload(model, precision)
        };
        let fit = fit(&w, catalog().model(model).unwrap(), catalog().gpu(gpu).unwrap(), count).unwrap();
        assert_eq!(
            fit.fits,
            runs,
            "{count}× {gpu}, {model} {precision}: needs {} per GPU of {} usable",
            Lang::En.gb(fit.memory.per_gpu_bytes),
            Lang::En.gb(fit.usable_bytes_per_gpu)
        );
    }
}

#[test]
fn the_product_briefs_rules_of_thumb_hold_for_serving() {
    let h100 = catalog().gpu("h100_sxm").unwrap();
    let l4 = catalog().gpu("l4").unwrap();
    // Quantized 7B–13B inference → a 24 GB card.
    for model in ["llama-3.1-8b", "llama-2-13b", "mistral-7b-v0.3"] {
        let w = workload(model, Precision::Awq);
        assert!(fit(&w, catalog().model(model).unwrap(), l4, 1).unwrap().fits, "{model} AWQ on a 24 GiB L4");
    }
    // ~70B at 16-bit → 80 GB-class × 2 or more.
    let seventy = catalog().model("llama-3.1-70b").unwrap();
    let w = workload("llama-3.1-70b", Precision::Bf16);
    assert_eq!(smallest_gpu_count(&w, seventy, h100, 8).unwrap(), Some(2));
    // Llama 3.1 405B in BF16 (756 GiB) fits no single 8-GPU node of H100s.
    let big = workload("llama-3.1-405b", Precision::Bf16);
    assert_eq!(smallest_gpu_count(&big, catalog().model("llama-3.1-405b").unwrap(), h100, 8).unwrap(), None);
}

#[test]
fn the_reason_names_the_need_and_the_card() {
    let w = workload("llama-3.1-70b", Precision::Bf16);
    let fit = fit(&w, catalog().model("llama-3.1-70b").unwrap(), catalog().gpu("h100_sxm").unwrap(), 1).unwrap();
    assert!(!fit.fits);
    assert_eq!(fit.reason.map(|r| r.to_string()).as_deref(), Some("needs 134 GiB, has 80 GiB (72 GiB usable)"));
    assert_eq!(fit.max_concurrency, Some(0));
}

#[test]
fn max_concurrency_is_what_the_kv_cache_space_holds() {
    // Llama 3.1 8B BF16 on one H100 under vLLM: 72 GiB usable − 15 GiB weights
    // − ~2 GiB activations and overhead leaves ~55 GiB for KV at 320 MiB per
    // 2,560-token sequence: about 170 sequences.
    let w = workload("llama-3.1-8b", Precision::Bf16);
    let sized = fit(&w, catalog().model("llama-3.1-8b").unwrap(), catalog().gpu("h100_sxm").unwrap(), 1).unwrap();
    let max = sized.max_concurrency.unwrap();
    assert!((150..=180).contains(&max), "{max}");
    let at_max = Workload { concurrency: max, ..w.clone() };
    let beyond = Workload { concurrency: max + 1, ..w };
    let model = catalog().model("llama-3.1-8b").unwrap();
    let h100 = catalog().gpu("h100_sxm").unwrap();
    assert!(super::fit(&at_max, model, h100, 1).unwrap().fits);
    assert!(!super::fit(&beyond, model, h100, 1).unwrap().fits);
}

#[test]
fn training_fits_use_all_of_vram_and_report_no_concurrency() {
    // QLoRA of Llama 2 70B on one 48 GB card (QLoRA paper: 65B on one 48 GB GPU).
    let w = Workload {
        task: crate::engine::Task::Finetune,
        model: "llama-2-70b".into(),
        method: crate::engine::FinetuneMethod::Qlora,
        seq_len: 512,
        micro_batch: 1,
        ..Workload::default()
    };
    let sized = fit(&w, catalog().model("llama-2-70b").unwrap(), catalog().gpu("rtx_a6000").unwrap(), 1).unwrap();
    assert!(sized.fits, "{:?}", sized.reason);
    assert_eq!(sized.usable_bytes_per_gpu, 48.0 * BYTES_PER_GB);
    assert_eq!(sized.max_concurrency, None);
}

#[test]
fn every_task_is_sized_and_a_model_of_the_wrong_kind_is_named() {
    use crate::engine::Task;
    let h100 = catalog().gpu("h100_sxm").unwrap();
    for task in Task::ALL {
        let w = Workload::for_task(task);
        let model = catalog().model(&w.model).unwrap();
        // Pretraining 8B in mixed precision holds 16 B per parameter, 128 GB:
        // a node of 8 shards it (FSDP / ZeRO-3); everything else fits one GPU.
        let (w, gpus) = if task == Task::Pretrain { (Workload { zero_stage: 3, ..w }, 8) } else { (w, 1) };
        let sized = fit(&w, model, h100, gpus).unwrap();
        assert!(sized.fits && sized.memory.per_gpu_bytes > 1e9, "{task}: {sized:?}");
    }
    let w = Workload { task: Task::Image, ..Workload::default() };
    let err = fit(&w, catalog().model("llama-3.1-8b").unwrap(), h100, 1).unwrap_err();
    assert!(err.to_string().starts_with("model: Llama 3.1 8B is not a text-to-image model"), "{err}");
}

#[test]
fn a_custom_model_sizes_like_the_catalog_model_it_describes() {
    use crate::engine::workload::CustomModel;
    // Llama 3.1 70B by its numbers: 70.55B parameters, 80 layers, hidden 8,192,
    // 64 heads of 128, 8 KV heads (models.csv).
    let custom = CustomModel {
        params: 70_553_706_496.0,
        layers: 80,
        hidden: 8192,
        heads: Some(64),
        kv_heads: Some(8),
        ..CustomModel::default()
    };
    let w = Workload { model: "custom".into(), custom: Some(custom), concurrency: 8, ..Workload::default() };
    let by_numbers = w.resolve_model(catalog()).unwrap();
    let from_catalog = catalog().model("llama-3.1-70b").unwrap();
    assert_eq!(by_numbers.shape().unwrap().kv_bytes_per_token_16bit, 327_680.0);
    let a = inference_memory(&w, &by_numbers, 2).unwrap();
    let b = inference_memory(&Workload { model: "llama-3.1-70b".into(), custom: None, ..w.clone() }, from_catalog, 2)
        .unwrap();
    assert_eq!(a.weights_bytes, b.weights_bytes);
    assert_eq!(a.kv_cache_bytes, b.kv_cache_bytes);
    // Without the vocabulary the logits buffer is unknown; the rest agrees within 1%.
    assert!((a.per_gpu_bytes - b.per_gpu_bytes).abs() / b.per_gpu_bytes < 0.01);
}

#[test]
fn the_longest_context_that_fits_follows_the_kv_cache_and_the_models_window() {
    // Llama 3.1 8B in BF16 keeps 128 KiB of KV cache per token (models.csv:
    // 131,072 bytes). On a 24 GB RTX 4090 under vLLM (90% usable), about
    // 21.6 − 15 (weights) − 1 (runtime) − 0.5 (activations) ≈ 5 GiB is left:
    // some 40k tokens. An 80 GB H100 would hold far more than the model's
    // 131,072-token window, so the window is the answer.
    let model = catalog().model("llama-3.1-8b").unwrap();
    let w = Workload::default();
    let on = |gpu: &str| fit(&w, model, catalog().gpu(gpu).unwrap(), 1).unwrap().max_context_tokens.unwrap();
    let rtx = on("rtx_4090");
    assert!((35_000..48_000).contains(&rtx), "{rtx}");
    assert_eq!(on("h100_sxm"), 131_072);
    // With an FP8 KV cache the same card holds about twice the tokens.
    let fp8 = Workload { kv_precision: crate::engine::KvPrecision::Fp8, ..w.clone() };
    let rtx_fp8 = fit(&fp8, model, catalog().gpu("rtx_4090").unwrap(), 1).unwrap().max_context_tokens.unwrap();
    assert!((rtx_fp8 as f64 / rtx as f64 - 2.0).abs() < 0.1, "{rtx_fp8} vs {rtx}");
    // Eight concurrent sequences share the room.
    let eight = Workload { concurrency: 8, ..w };
    let per_sequence = fit(&eight, model, catalog().gpu("rtx_4090").unwrap(), 1).unwrap().max_context_tokens.unwrap();
    assert!(per_sequence < rtx / 6, "{per_sequence} vs {rtx}");
}
