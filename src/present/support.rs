//! Beside the weights and runtime fields: when no GPU in the offers runs
//! the workload as asked (the support matrix, `engine::setup`), the form
//! says so, and what would run instead (issue 23).

use crate::engine::keys;
use crate::engine::setup::set_up;
use crate::engine::{Catalog, Gpu, Model, Precision, Runtime, Snapshot, Task, Workload};
use crate::msg;
use crate::text::{phrases, Msg};

/// The most alternatives a hint lists.
const MOST_LISTED: usize = 5;

/// Whether `gpu` runs `workload` as asked.
fn runs_on(workload: &Workload, model: &Model, gpu: &Gpu, catalog: &Catalog) -> bool {
    matches!(set_up(workload, model, gpu, &catalog.support), Ok(Ok(_)))
}

/// Whether some GPU of `gpus` runs `workload` as asked.
fn runs_somewhere(workload: &Workload, model: &Model, gpus: &[&Gpu], catalog: &Catalog) -> bool {
    gpus.iter().any(|gpu| runs_on(workload, model, gpu, catalog))
}

/// The field to speak beside, and what to say, when nothing in `snapshot`
/// runs `workload` as asked; `None` when something does (or the model
/// cannot be sized, which the memory line already says).
pub fn support_hint(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot) -> Option<(&'static str, Msg)> {
    let model = workload.resolve_model(catalog).ok()?;
    // The offers' kinds of GPU, each checked once, stopping at the first
    // that runs it: on every edit this is usually the first offer.
    let mut gpus: Vec<&Gpu> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for offer in &snapshot.offers {
        if seen.last() == Some(&offer.gpu.as_str()) || seen.contains(&offer.gpu.as_str()) {
            continue;
        }
        seen.push(&offer.gpu);
        let Ok(gpu) = catalog.gpu(&offer.gpu) else { continue };
        if runs_on(workload, &model, gpu, catalog) {
            return None;
        }
        gpus.push(gpu);
    }
    if gpus.is_empty() {
        return None;
    }
    let format = workload.weight_precision.label();
    // Other weights formats that would run with the same runtime.
    let formats: Vec<&str> = Precision::ALL
        .into_iter()
        .filter(|&p| p != workload.weight_precision)
        .filter(|&p| runs_somewhere(&Workload { weight_precision: p, ..workload.clone() }, &model, &gpus, catalog))
        .take(MOST_LISTED)
        .map(|p| p.key())
        .collect();
    let serving = workload.task == Task::Infer;
    let fixed = workload.runtime.fixed().filter(|_| serving);
    let Some(runtime) = fixed else {
        let hint = if formats.is_empty() {
            msg!(phrases::HINT_NOTHING_RUNS)
        } else {
            msg!(phrases::HINT_OTHER_FORMATS, format = format, formats = formats.join(", "))
        };
        return Some((keys::WEIGHTS, hint));
    };
    // Other runtimes that would run these weights.
    let runtimes: Vec<&str> = Runtime::ALL
        .into_iter()
        .filter(|&r| r != runtime)
        .filter(|&r| runs_somewhere(&Workload { runtime: r.choice(), ..workload.clone() }, &model, &gpus, catalog))
        .map(|r| r.label().en)
        .collect();
    let hint = match (runtimes.is_empty(), formats.is_empty()) {
        (false, _) => msg!(
            phrases::HINT_OTHER_RUNTIMES,
            format = format,
            runtime = runtime.label(),
            runtimes = runtimes.join(", ")
        ),
        (true, false) => msg!(
            phrases::HINT_RUNTIME_FORMATS,
            format = format,
            runtime = runtime.label(),
            formats = formats.join(", ")
        ),
        (true, true) => msg!(phrases::HINT_NOTHING_RUNS),
    };
    Some((keys::RUNTIME, hint))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::snapshot::committed;
    use crate::text::Lang;
    use crate::url_codec::decode;

    fn hint(query: &str) -> Option<(&'static str, String, String)> {
        let catalog = Catalog::bundled().unwrap();
        let workload = decode(query, catalog).workload;
        support_hint(&workload, catalog, &committed()).map(|(key, m)| (key, m.render(Lang::En), m.render(Lang::Es)))
    }

    #[test]
    fn a_runtime_that_runs_nothing_in_the_offers_is_said_beside_its_field_with_what_would() {
        // NVFP4 runs natively only on Blackwell in TensorRT-LLM; the offers
        // hold Blackwell, so it runs there: no hint.
        assert_eq!(hint("model=llama-3.1-8b&wq=fp4&runtime=trtllm"), None);
        // GGUF files are llama.cpp's: TensorRT-LLM loads none of them.
        let (key, en, es) = hint("model=llama-3.1-8b&wq=q4_k_m&runtime=trtllm").expect("a hint");
        assert_eq!(key, keys::RUNTIME);
        assert!(en.starts_with("No GPU in these offers runs GGUF Q4_K_M weights with TensorRT-LLM"), "{en}");
        assert!(en.contains("llama.cpp"), "{en}");
        assert!(es.starts_with("Ninguna GPU de estas ofertas"), "{es}");
        // The automatic runtime with a format nothing runs for the task:
        // Whisper in GGUF is not a faster-whisper format.
        let (key, en, _) = hint("task=audio&wq=q4_k_m").expect("a hint");
        assert_eq!(key, keys::WEIGHTS);
        assert!(en.contains("fp16") && en.contains("int8"), "{en}");
        // What runs somewhere says nothing.
        assert_eq!(hint("model=llama-3.1-8b"), None);
        assert_eq!(hint("model=llama-3.1-8b&runtime=trtllm"), None);
    }
}
