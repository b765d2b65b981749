use super::phrases::{self, ALL};
use super::*;

/// Phrases that read the same in both languages: product names, units,
/// and patterns made only of arguments.
const SAME_IN_SPANISH: [&str; 61] = [
    "ACCURACY_OF",
    "TRANSCRIBER_FASTER_WHISPER",
    "NAMED_SIZE",
    "METHOD_LORA",
    "OPTIMIZER_ADAFACTOR",
    "PRECISION_FP4",
    "PRECISION_MXFP4",
    "PRECISION_Q8_0",
    "PRECISION_Q6_K",
    "PRECISION_Q5_K_M",
    "PRECISION_Q4_K_M",
    "PRECISION_Q3_K_M",
    "PRECISION_Q2_K",
    "PRECISION_Q5_1",
    "PRECISION_Q5_0",
    "PRECISION_Q4_1",
    "PRECISION_Q4_0",
    "PRECISION_IQ4_XS",
    "PRECISION_IQ3_S",
    "PRECISION_IQ3_XXS",
    "PRECISION_IQ2_XS",
    "PRECISION_IQ2_XXS",
    "PRECISION_NF4",
    "BADGE_HBM",
    "BADGE_FP8",
    "BADGE_NVLINK",
    "BADGE_INFINITY_FABRIC",
    "SPEED_TRAINING",
    "SPEED_CLIP",
    "UNIT_TOKENS_PER_S",
    "UNIT_SECONDS",
    "ERROR_FIELD",
    "ROW_MFU",
    "FIGURE_VALUE",
    "COLUMN_VRAM",
    "COLUMN_PRICE",
    "SPOT_TAG",
    "GPU_COUNT",
    "EXCLUDED_GROUP",
    "EXCLUDED_EXAMPLE",
    "CHART_SPOT",
    "PART_SIZE",
    // The runtimes' and libraries' own names, and "software" (RAE).
    "OPTION_STACK",
    "HARDWARE_NAME",
    "LIST_MORE",
    "STACK_PYTORCH",
    "STACK_BITSANDBYTES",
    "STACK_TRANSFORMER_ENGINE",
    "STACK_DIFFUSERS",
    "STACK_FASTER_WHISPER",
    "RUNTIME_VLLM",
    "RUNTIME_TRTLLM",
    "RUNTIME_LLAMACPP",
    "RUNTIME_HF",
    "FABRIC_INFINIBAND",
    "FABRIC_EFA",
    "FABRIC_ROCE",
    "FABRIC_TCPX",
    "FABRIC_ETHERNET",
    "FABRIC_SPEED",
    "CLUSTER_NODES",
];

#[test]
fn every_phrase_has_the_same_arguments_in_both_languages() {
    for phrase in ALL {
        let (mut en, mut es) = (placeholders(phrase.en), placeholders(phrase.es));
        en.sort_unstable();
        es.sort_unstable();
        assert_eq!(en, es, "{}: {:?} / {:?}", phrase.key, phrase.en, phrase.es);
    }
}

#[test]
fn every_phrase_is_translated() {
    for phrase in ALL {
        let same = SAME_IN_SPANISH.contains(&phrase.key);
        assert_eq!(phrase.en == phrase.es, same, "{}: {:?} / {:?}", phrase.key, phrase.en, phrase.es);
        // Spanish quotes values «así», not "así".
        assert!(!phrase.es.contains('"'), "{}: {}", phrase.key, phrase.es);
    }
    let mut keys: Vec<&str> = ALL.iter().map(|p| p.key).collect();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), ALL.len(), "phrase names are unique");
}

#[test]
fn numbers_follow_each_language() {
    // CLDR: English groups from 4 digits, Spanish from 5.
    assert_eq!(Lang::En.number(1234.5, 1), "1,234.5");
    assert_eq!(Lang::Es.number(1234.5, 1), "1234,5");
    assert_eq!(Lang::Es.number(12345.678, 2), "12.345,68");
    assert_eq!(Lang::En.number(1_234_567.0, 0), "1,234,567");
    assert_eq!(Lang::En.number(-0.04, 1), "0.0");
    assert_eq!(Lang::En.number(-2.5, 1), "-2.5");
    assert_eq!(Lang::En.number(f64::NAN, 1), "–");
    assert_eq!(Lang::En.usd(0.0421), "$0.042");
    // Below a cent, two significant figures, so cheap units stay apart.
    assert_eq!(Lang::En.usd(0.000741), "$0.00074");
    assert_eq!(Lang::En.usd(0.00189), "$0.0019");
    assert_eq!(Lang::Es.usd(0.000741), "0,00074\u{a0}US$");
    assert_eq!(Lang::En.usd(0.0), "$0.000");
    assert_eq!(Lang::En.usd(0.001), "$0.0010");
    assert_eq!(Lang::En.usd(0.00999), "$0.010");
    assert_eq!(Lang::En.usd(0.000999), "$0.0010");
    assert_eq!(Lang::En.usd(1e-12), "$0.0000000000010");
    assert_eq!(Lang::En.usd(3.5), "$3.50");
    assert_eq!(Lang::En.usd(12_345.4), "$12,345");
    assert_eq!(Lang::Es.usd(3.5), "3,50\u{a0}US$");
    assert_eq!(Lang::Es.usd(12_345.4), "12.345\u{a0}US$");
    assert_eq!(Lang::En.gb(80.0 * 1_073_741_824.0), "80 GiB");
    assert_eq!(Lang::Es.gb(31.44 * 1_073_741_824.0), "31,4 GiB");
    assert_eq!(Lang::En.hours(0.5), "30 min");
    assert_eq!(Lang::Es.hours(3.25), "3,2 h");
    assert_eq!(Lang::Es.hours(100.0), "4,2 días");
}

#[test]
fn languages_come_from_codes_and_browser_preferences() {
    assert_eq!(Lang::from_code("es-MX"), Some(Lang::Es));
    assert_eq!(Lang::from_code("EN_us"), Some(Lang::En));
    assert_eq!(Lang::from_code("fr"), None);
    assert_eq!(Lang::preferred(["fr-FR", "es", "en"]), Lang::Es);
    assert_eq!(Lang::preferred(["de"]), Lang::En);
    assert_eq!(Lang::preferred([]), Lang::En);
}

#[test]
fn messages_render_their_arguments_per_language() {
    let inner =
        msg!(phrases::FIT_NEEDS, need = Arg::Bytes(134.0 * 1_073_741_824.0), has = Arg::Bytes(80.0 * 1_073_741_824.0));
    let note = msg!(phrases::LINK_FALLBACK, key = "conc", problem = inner, default = "1");
    assert_eq!(note.to_string(), "conc: needs 134 GiB, has 80 GiB; using 1");
    assert_eq!(note.render(Lang::Es), "conc: necesita 134 GiB, tiene 80 GiB; se usa 1");
    assert_eq!(serde_json::to_string(&note).unwrap(), "\"conc: needs 134 GiB, has 80 GiB; using 1\"");
    // A missing argument stays visible rather than vanishing.
    assert_eq!(msg!(phrases::LINK_NOT_NUMBER).to_string(), "\"{given}\" is not a number");
    assert_eq!(fill("{unclosed", |_| None), "{unclosed");
}

/// Issue 38: the page's Spanish ships as data/es.json, every phrase's in
/// `phrases::ALL`'s order under a fingerprint of their keys, which changes
/// when a phrase is added, removed or moved.
#[test]
fn the_spanish_file_holds_every_phrase_in_order_under_the_phrases_fingerprint() {
    let file: serde_json::Value = serde_json::from_str(&super::spanish::table_json()).unwrap();
    assert_eq!(file["phrases"], super::spanish::fingerprint());
    let es: Vec<&str> = file["es"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert_eq!(es.len(), phrases::ALL.len());
    for (phrase, text) in phrases::ALL.iter().zip(&es) {
        assert_eq!(phrase.es, *text, "{}", phrase.key);
    }
    assert_eq!(super::spanish::fingerprint().len(), 16);
    // The compiled fingerprint is the phrases' names as `ALL` lists them.
    let names: Vec<&str> = phrases::ALL.iter().map(|p| p.key).collect();
    assert_eq!(phrases::FINGERPRINT, super::fingerprint::fnv(&names));
    assert_ne!(super::fingerprint::fnv(&names[1..]), phrases::FINGERPRINT);
    assert_ne!(super::spanish::fingerprint(), format!("{:016x}", 0xcbf2_9ce4_8422_2325_u64));
    assert!(super::spanish::installed());
    assert_eq!(super::spanish::of(&phrases::RETRY), phrases::RETRY.es);
}
