//! Starting points for common jobs, each a link query, so a preset is
//! exactly what its link would be (issue 7).

use crate::text::{phrases, Phrase};

/// A starting point: its id (the page's option value, the phrase's name),
/// its label and its link query.
#[derive(Debug)]
pub struct Preset {
    pub id: &'static str,
    pub label: &'static Phrase,
    pub query: &'static str,
}

macro_rules! preset {
    ($label:ident, $query:expr) => {
        Preset { id: stringify!($label), label: &phrases::$label, query: $query }
    };
}

/// The presets, in the order the page lists them.
pub static PRESETS: [Preset; 9] = [
    preset!(PRESET_CHAT_70B, "model=llama-3.1-70b&conc=32&in=2048&out=512"),
    preset!(PRESET_BUDGET_8B, "model=llama-3.1-8b&wq=q4_k_m&runtime=llamacpp&in=1024&out=256"),
    preset!(PRESET_QLORA_13B, "task=finetune&model=llama-2-13b&method=qlora&tokens=50000000"),
    preset!(
        PRESET_FULL_FINETUNE_8B,
        "task=finetune&model=llama-3.1-8b&method=full&opt=adamw8bit&ce=chunked&tokens=100000000"
    ),
    preset!(PRESET_SDXL_BATCH, "task=image&model=sdxl-base-1.0&n=10000&batch=4"),
    preset!(PRESET_WHISPER, "task=audio&hours=100&batch=8"),
    preset!(PRESET_VLM_CHAT, "model=qwen2-vl-7b&imgs=1&img_px=1024&in=256&out=256&conc=16"),
    preset!(PRESET_AUDIOBOOK, "task=speech&model=parler-tts-mini-v1&hours=10&secs=15&batch=8"),
    preset!(PRESET_MUSIC_CLIPS, "task=music&model=musicgen-medium&n=100&secs=30&batch=4"),
];

// Reads the committed snapshot from disk.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, Catalog};
    use crate::url_codec;

    #[test]
    fn every_preset_is_a_clean_link_that_finds_offers() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        for Preset { label, query, .. } in &PRESETS {
            let decoded = url_codec::decode(query, catalog);
            assert!(decoded.notes.is_empty(), "{label}: {:?}", decoded.notes);
            let report = rank(&decoded.workload, catalog, &snapshot).unwrap();
            assert!(report.results.len() > 10, "{label}: {} offers", report.results.len());
            assert!(report.results[0].cost.is_some(), "{label}");
        }
    }

    /// Every message a preset's report carries (advice, reasons left out,
    /// speed notes, breakdowns) has all its arguments in both languages.
    #[test]
    fn every_message_of_every_preset_renders_in_both_languages() {
        use crate::text::Lang;
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        for Preset { label, query, .. } in &PRESETS {
            let report = rank(&url_codec::decode(query, catalog).workload, catalog, &snapshot).unwrap();
            let mut messages: Vec<crate::text::Msg> = report.advice.clone();
            messages.extend(report.excluded.iter().map(|e| e.reason.clone()));
            messages.extend(report.results.iter().filter_map(|r| r.speed.as_ref()).flat_map(|s| s.notes.clone()));
            messages.extend(report.results.iter().filter_map(|r| Some(r.speed.as_ref()?.headline())));
            for lang in Lang::ALL {
                for message in &messages {
                    let text = message.render(lang);
                    assert!(!text.contains('{') && !text.is_empty(), "{}: {label}: {text}", lang.code());
                }
                for row in report.results.iter().take(5) {
                    for (name, value) in crate::export::row_breakdown(row, &snapshot, catalog, lang) {
                        assert!(!value.contains('{'), "{}: {label}: {name}: {value}", lang.code());
                    }
                }
            }
            // Spanish says something different from English.
            let advice = report.advice.first().unwrap();
            assert_ne!(advice.render(Lang::Es), advice.to_string(), "{label}");
        }
    }
}
