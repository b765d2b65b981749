//! Real configs (tests/fixtures/model_configs, each with its source in
//! that folder's SOURCES.md) against the parameter counts their makers
//! publish.

use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/model_configs").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn import(name: &str) -> Imported {
    read(&fixture(name), None).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// (fixture, published total, published active, where it is published).
/// Where the maker gives only the size in the name, the reference is the
/// count ../shared/data computes from the same config with its own
/// formulas (SOURCES.md §2, checked there against published figures).
const PUBLISHED: [(&str, f64, Option<f64>, &str); 25] = [
    ("llama-3.1-8b.json", 8_030_261_248.0, None, "models.csv llama-3.1-8b, computed"),
    ("mistral-7b-instruct-v0.3.json", 7_248_023_552.0, None, "models.csv mistral-7b-v0.3, computed"),
    ("mistral-nemo-base-2407.json", 12.2e9, None, "12.2B total params (fitmygpu.com model page)"),
    ("qwen2.5-7b.json", 7.61e9, None, "Qwen2.5-7B card: 7.61B"),
    ("qwen3-8b.json", 8_190_735_360.0, None, "models_more.csv qwen3-8b, computed"),
    ("qwen3-32b.json", 32.8e9, None, "Qwen3-32B card: 32.8B"),
    ("qwen3-30b-a3b.json", 30.5e9, Some(3.3e9), "Qwen3-30B-A3B card: 30.5B, 3.3B activated"),
    ("qwen1.5-moe-a2.7b-chat.json", 14_315_784_192.0, Some(2.7e9), "models_more.csv computed; A2.7B"),
    // Gemma 2 report: 8,324,201,984 non-embedding + 256,000 × 3,584 embedding.
    ("gemma-2-9b-it.json", 8_324_201_984.0 + 917_504_000.0, None, "Gemma 2 report, table 1"),
    ("gemma-3-1b-it.json", 999_885_952.0, None, "models_more.csv gemma-3-1b, computed"),
    // The text decoder; the SigLIP tower (416,866,032) is the vision side.
    ("gemma-3-4b-it.json", 3_880_099_328.0, None, "models_more.csv gemma-3-4b notes, computed"),
    ("phi-4.json", 14_659_507_200.0, None, "models.csv phi-4-14b, computed"),
    ("deepseek-v2-lite.json", 16e9, None, "DeepSeek-V2 README: 16B total"),
    ("deepseek-v3.json", 671e9, Some(37e9), "DeepSeek-V3 README: 671B total, 37B activated"),
    ("mixtral-8x7b-instruct-v0.1.json", 46.7e9, Some(12.9e9), "Mistral: 46.7B total, 12.9B active"),
    ("mixtral-8x22b-instruct-v0.1.json", 141e9, Some(39e9), "Mistral: 141B, 39B active"),
    // OpenAI's active counts leave the embeddings out; the totals do not.
    ("gpt-oss-20b.json", 20.9e9, None, "gpt-oss model card: 20.9B"),
    ("gpt-oss-120b.json", 116.8e9, None, "gpt-oss model card: 116.8B"),
    ("pythia-6.9b.json", 6_857_302_016.0, None, "Pythia card: 6,857,302,016"),
    ("command-r-08-2024.json", 32_296_476_672.0, None, "models_more.csv command-r-08-2024, computed"),
    // Zhipu's 32B active, like OpenAI's, leaves the embeddings out
    // (33.63B − 2 × 151,552 × 5,120 = 32.08B).
    ("glm-4.7.json", 355e9, None, "GLM-4.5 (same shapes): 355B total"),
    ("olmo-2-1124-13b.json", 13_716_198_400.0, None, "models_more.csv olmo-2-13b, computed"),
    ("internlm2.5-7b-chat.json", 7_737_708_544.0, None, "models_more.csv internlm2.5-7b, computed"),
    ("falcon-7b-instruct.json", 7e9, None, "Falcon-7B card: 7B"),
    ("aya-23-8b.json", 8e9, None, "Aya 23 8B"),
];

#[test]
fn real_configs_of_twenty_architectures_size_within_two_percent_of_their_published_counts() {
    let mut architectures = std::collections::BTreeSet::new();
    for (file, total, active, source) in PUBLISHED {
        let imported = import(file);
        let error = imported.model.params / total - 1.0;
        assert!(
            error.abs() < 0.02,
            "{file}: {:.4e} against {total:.4e} ({source}): {:+.2}%",
            imported.model.params,
            error * 100.0
        );
        if let Some(active) = active {
            let counted = imported.model.active_params.expect("a MoE has active parameters");
            assert!(
                (counted / active - 1.0).abs() < 0.02,
                "{file}: active {counted:.4e} against {active:.4e} ({source})"
            );
        }
        architectures.insert(imported.architecture);
    }
    assert!(architectures.len() >= 20, "{architectures:?}");
}

/// The formulas reproduce the exact counts the data checks against
/// published figures (SOURCES.md §2): not just within 2%.
#[test]
fn exact_counts_match_the_datas_to_the_parameter() {
    for (file, total, active) in [
        ("llama-3.1-8b.json", 8_030_261_248.0, None),
        ("mixtral-8x7b-instruct-v0.1.json", 46_702_792_704.0, Some(12_879_925_248.0)),
        ("qwen3-30b-a3b.json", 30_532_122_624.0, Some(3_353_032_704.0)),
        ("qwen2.5-7b.json", 7_615_616_512.0, None),
        ("deepseek-v3.json", 671_026_419_200.0, None),
        // OpenAI: 116.83B and 20.91B, matched exactly by the data's formula.
        ("gpt-oss-120b.json", 116_829_156_672.0, Some(5_711_982_912.0)),
        ("gpt-oss-20b.json", 20_914_757_184.0, Some(4_187_440_704.0)),
        ("pythia-6.9b.json", 6_857_302_016.0, None),
    ] {
        let model = import(file).model;
        assert_eq!(model.params, total, "{file}");
        if active.is_some() {
            assert_eq!(model.active_params, active, "{file}");
        }
    }
}

#[test]
fn the_kv_cache_per_token_follows_gqa_mla_and_the_windows() {
    // (file, KV bytes per token at 16 bits, window, layers that use it)
    for (file, kv, window, window_layers) in [
        // 2 × 32 layers × 8 KV heads × 128 × 2 bytes (models.csv).
        ("llama-3.1-8b.json", 131_072.0, None, None),
        // MLA: 61 layers × (512 latent + 64 RoPE) × 2 bytes (models.csv).
        ("deepseek-v3.json", 70_272.0, None, None),
        // gpt-oss: layer_types alternate a 128-token window with full attention.
        ("gpt-oss-120b.json", 73_728.0, Some(128), Some(18)),
        // Gemma 2 alternates local and global layers.
        ("gemma-2-9b-it.json", 344_064.0, Some(4_096), Some(21)),
        // Gemma 3: five local layers in six; the multimodal config's text
        // part takes Gemma3TextConfig's heads (8 Q, 4 KV of 256).
        ("gemma-3-4b-it.json", 139_264.0, Some(1_024), Some(29)),
        // Qwen2 configs state a window but switch it off.
        ("qwen2.5-7b.json", 57_344.0, None, None),
    ] {
        let model = import(file).model;
        assert_eq!(model.kv_bytes_per_token_16bit(), kv, "{file}");
        assert_eq!((model.window, model.window_layers), (window, window_layers), "{file}");
    }
}

#[test]
fn the_release_format_comes_from_the_quantization_or_the_dtype() {
    assert_eq!(import("deepseek-v3.json").model.weight_format, Some(Precision::Fp8));
    assert_eq!(import("llama-3.1-8b.json").model.weight_format, Some(Precision::Bf16));
    assert_eq!(import("pythia-6.9b.json").model.weight_format, Some(Precision::Fp16));
    // gpt-oss: MXFP4 experts beside BF16 attention and embeddings.
    assert_eq!(import("gpt-oss-120b.json").model.weight_format, Some(Precision::Mxfp4));
    // The fixture reconstructed from MaxText has neither a
    // quantization_config nor a dtype: the workload's format stands.
    assert_eq!(import("gpt-oss-20b.json").model.weight_format, None);
}

#[test]
fn an_index_gives_the_exact_weight_bytes() {
    // Llama 3.1 8B in BF16: 16,060,522,496 bytes, 2 per parameter.
    let index = br#"{"metadata": {"total_size": 16060522496}, "weight_map": {"lm_head.weight": "model-00004-of-00004.safetensors"}}"#;
    let imported = read(&fixture("llama-3.1-8b.json"), Some(index)).unwrap();
    assert_eq!(imported.model.weight_bytes, Some(16_060_522_496.0));
    assert_eq!(imported.model.weight_bytes.unwrap(), 2.0 * imported.model.params);
    // Dropped together in either order, the pair reads the same.
    let config = fixture("llama-3.1-8b.json");
    assert_eq!(super::super::import(&[index, &config]).unwrap(), imported);
    assert_eq!(super::super::import(&[&config, index]).unwrap(), imported);
    // An index alone says what else it needs.
    let alone = super::super::import(&[index]).unwrap_err();
    assert!(matches!(&alone, ImportError::MissingField { field, .. } if field == "config.json"), "{alone:?}");
    let bad = br#"{"metadata": {"total_size": "lots"}, "weight_map": {}}"#;
    assert!(matches!(index_total_size(bad), Err(ImportError::BadValue { .. })));
}

#[test]
fn hostile_and_foreign_configs_are_refused_with_what_is_wrong() {
    type Expected = fn(&ImportError) -> bool;
    let cases: [(&[u8], Expected); 9] = [
        (b"", |e| *e == ImportError::Empty),
        (b"   \n", |e| *e == ImportError::Empty),
        (b"{\"model_type\": \"llama\", ", |e| matches!(e, ImportError::NotJson { .. })),
        (b"[1, 2, 3]", |e| matches!(e, ImportError::BadValue { .. })),
        // A wrong type names its field.
        (
            br#"{"model_type": "llama", "num_hidden_layers": "many", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008}"#,
            |e| matches!(e, ImportError::BadValue { field, .. } if field == "num_hidden_layers"),
        ),
        // Numbers past any model.
        (
            br#"{"model_type": "llama", "num_hidden_layers": 1e300, "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008}"#,
            |e| matches!(e, ImportError::BadValue { field, .. } if field == "num_hidden_layers"),
        ),
        // A missing field is named with the architecture.
        (
            br#"{"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "vocab_size": 32000, "intermediate_size": 11008}"#,
            |e| {
                matches!(e, ImportError::MissingField { architecture, field }
                    if architecture == "LlamaForCausalLM" && field == "num_hidden_layers")
            },
        ),
        (
            br#"{"architectures": ["T5ForConditionalGeneration"], "model_type": "t5"}"#,
            |e| matches!(e, ImportError::UnsupportedArchitecture { architecture } if architecture.contains("T5")),
        ),
        // Hybrids are refused as such, not sized as transformers.
        (
            br#"{"architectures": ["JambaForCausalLM"], "model_type": "jamba"}"#,
            |e| matches!(e, ImportError::UnsupportedArchitecture { architecture } if architecture.contains("hybrid")),
        ),
    ];
    for (bytes, expected) in cases {
        let error = read(bytes, None).unwrap_err();
        assert!(expected(&error), "{}: {error:?}", String::from_utf8_lossy(bytes));
    }
    // Nested junk 100,000 deep is a parse error, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(matches!(read(deep.as_bytes(), None), Err(ImportError::NotJson { .. })));
    // 50 MB is more than a config can be.
    let huge = vec![b' '; 50 * 1024 * 1024];
    assert!(matches!(read(&huge, None), Err(ImportError::TooLarge { .. })));
}

/// The link carries an imported model: decoding the link the page writes
/// gives the same numbers, so the same figures.
#[test]
fn an_imported_model_round_trips_through_the_link_with_the_same_figures() {
    use crate::engine::{memory, Catalog, Workload};
    use crate::url_codec;
    let catalog = Catalog::bundled().unwrap();
    for (file, _, _, _) in PUBLISHED {
        let imported = import(file);
        let workload = Workload {
            model: crate::engine::custom_model::CUSTOM_MODEL.into(),
            custom: Some(imported.model.clone()),
            weight_precision: imported.model.weight_format.unwrap_or(Precision::Bf16),
            ..Workload::default()
        };
        let query = url_codec::encode(&workload);
        let decoded = url_codec::decode(&query, catalog);
        assert!(decoded.notes.is_empty(), "{file}: {query}");
        assert_eq!(decoded.workload.custom.as_ref(), Some(&imported.model), "{file}: {query}");
        let model = imported.model.to_model();
        let before = memory::estimate(&workload, &model, 1).unwrap();
        let after = memory::estimate(&decoded.workload, &decoded.workload.resolve_model(catalog).unwrap(), 1).unwrap();
        assert_eq!(before, after, "{file}");
    }
}

/// A vision-language config (Gemma 3 4B's, with its `vision_config`) is read
/// for its text decoder and says so; a text model's is not marked.
#[test]
fn a_vision_language_config_is_read_as_its_text_decoder_and_says_so() {
    assert!(import("gemma-3-4b-it.json").text_only);
    assert!(!import("gemma-3-1b-it.json").text_only);
    let said = crate::present::model_facts::imported(&import("gemma-3-4b-it.json")).render(crate::text::Lang::En);
    assert!(said.contains("vision tower and images are not counted"), "{said}");
}

/// Found by a ten-minute run of the model_import fuzzer (issue 41): a
/// config without `head_dim` whose hidden / heads is 1,280 (40,967 / 32)
/// gave a model outside the custom model's head width bound. The derived
/// width is checked as a stated one is, and the message names it.
#[test]
fn a_head_width_derived_from_hidden_and_heads_is_bounded_too() {
    let config = br#"{"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 40967,
        "intermediate_size": 12288, "num_attention_heads": 32, "num_hidden_layers": 36, "vocab_size": 151935}"#;
    let error = read(config, None).expect_err("1,280-wide heads are past the bound");
    assert!(error.to_string().contains("hidden_size / num_attention_heads"), "{error}");
    // Within the bound it is read as before.
    let fine = String::from_utf8_lossy(config).replace("40967", "4096");
    assert_eq!(read(fine.as_bytes(), None).unwrap().model.head_dim, Some(128));
    // The second ten-minute run found MLA's sum past it too (994 + 64).
    let mla = br#"{"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "hidden_size": 7168,
        "intermediate_size": 18432, "kv_lora_rank": 512, "num_attention_heads": 128, "num_hidden_layers": 61,
        "qk_nope_head_dim": 994, "qk_rope_head_dim": 64, "v_head_dim": 128, "vocab_size": 129280}"#;
    let error = read(mla, None).expect_err("1,058-wide MLA heads are past the bound");
    assert!(error.to_string().contains("qk_nope_head_dim + qk_rope_head_dim"), "{error}");
    let fine = String::from_utf8_lossy(mla).replace("994", "128");
    assert_eq!(read(fine.as_bytes(), None).unwrap().model.head_dim, Some(192));
}
