//! Starting points for common jobs, each a link query, so a preset is
//! exactly what its link would be (issue 7).

/// (label, query) pairs, in the order the page lists them.
pub const PRESETS: [(&str, &str); 6] = [
    ("Chat with Llama 3.1 70B (32 users)", "model=llama-3.1-70b&conc=32&in=2048&out=512"),
    ("A quantized 8B on a budget", "model=llama-3.1-8b&wq=q4_k_m&runtime=llamacpp&in=1024&out=256"),
    ("QLoRA of a 13B", "task=finetune&model=llama-2-13b&method=qlora&tokens=50000000"),
    (
        "Full fine-tune of an 8B",
        "task=finetune&model=llama-3.1-8b&method=full&opt=adamw8bit&ce=chunked&tokens=100000000",
    ),
    ("SDXL batch of 10,000 images", "task=image&model=sdxl-base-1.0&n=10000&batch=4"),
    ("Whisper transcription of 100 hours", "task=audio&hours=100&batch=8"),
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
        for (label, query) in PRESETS {
            let decoded = url_codec::decode(query, catalog);
            assert!(decoded.notes.is_empty(), "{label}: {:?}", decoded.notes);
            let report = rank(&decoded.workload, catalog, &snapshot).unwrap();
            assert!(report.results.len() > 10, "{label}: {} offers", report.results.len());
            assert!(report.results[0].cost.is_some(), "{label}");
        }
    }
}
