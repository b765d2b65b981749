use super::*;
use crate::engine::{rank, snapshot::committed};
use crate::text::{phrases, Lang};
use crate::url_codec;

/// The workload a link describes, ranked on the committed snapshot, run on `gpu`.
fn local(query: &str, gpu: &str, measured: Option<f64>) -> (LocalRun, Report, Snapshot) {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = committed();
    let decoded = url_codec::decode(query, catalog);
    assert!(decoded.notes.is_empty(), "{query}: {:?}", decoded.notes);
    let report = rank(&decoded.workload, catalog, &snapshot).unwrap();
    let run = run_locally(&decoded.workload, catalog, &snapshot, &report, gpu, measured).unwrap();
    (run, report, snapshot)
}

fn said(run: &LocalRun) -> Vec<&'static str> {
    run.verdict.iter().map(|m| m.phrase().key).collect()
}

#[test]
fn an_8b_model_runs_on_an_rtx_4090_and_is_compared_with_the_top_offer() {
    let (run, report, _) = local("model=llama-3.1-8b", "rtx_4090", None);
    // 8.03 B parameters at 2 bytes (models.csv, M1) plus KV cache: under 24 GB.
    assert!(run.fits);
    assert!(run.need_bytes < run.usable_bytes);
    assert!(!run.unified_memory);
    // gpus.csv: the RTX 4090 draws 450 W and streams 1,008 GB/s (S1/G1).
    assert_eq!(run.watts, Some(450.0));
    assert_eq!(run.bandwidth_gbps, Some(1008.0));
    assert!((run.price_per_hour - 0.45 * ELECTRICITY_USD_PER_KWH).abs() < 1e-12);
    let speed = run.speed.as_ref().expect("a speed");
    let decode = speed.decode_tokens_per_s().unwrap();
    // 1,008 GB/s over ~16 GB of weights bounds one sequence near 60 tok/s.
    assert!(decode > 20.0 && decode < 63.0, "{decode}");
    // An always-on endpoint: a month of electricity, nothing else.
    let cost = run.cost.as_ref().unwrap();
    assert!((cost.job_cost - run.price_per_hour * cost.billed_hours).abs() < 1e-9);
    assert_eq!((cost.storage_cost, cost.egress_cost), (0.0, 0.0));
    let kinds = said(&run);
    assert_eq!(kinds[0], phrases::VERDICT_RUNS.key);
    // The comparison names the top offer and its speed ratio.
    let theirs = report.results[0].speed.as_ref().unwrap().seconds_per_unit();
    let factor = speed.seconds_per_unit() / theirs;
    let expected = if factor > 1.1 {
        phrases::VERDICT_RENT_FASTER.key
    } else if factor < 1.0 / 1.1 {
        phrases::VERDICT_LOCAL_FASTER.key
    } else {
        phrases::VERDICT_SAME_SPEED.key
    };
    assert_eq!(kinds[1], expected);
    let text = run.verdict[1].render(Lang::En);
    assert!(!text.contains('{'), "{text}");
}

#[test]
fn a_70b_model_does_not_fit_a_24_gb_card_and_the_verdict_says_what_to_rent() {
    let (run, report, snapshot) = local("model=llama-3.1-70b", "rtx_4090", None);
    assert!(!run.fits);
    assert!(run.speed.is_none() && run.cost.is_none());
    // 70.6 B parameters at 2 bytes need about 141 GB, even 4-bit about 35 GB.
    assert_eq!(said(&run), [phrases::VERDICT_NO_FIT.key, phrases::VERDICT_RENT_INSTEAD.key]);
    let needs = run.verdict[0].render(Lang::En);
    assert!(needs.starts_with("Needs 1") && needs.contains("RTX 4090"), "{needs}");
    let rent = run.verdict[1].render(Lang::En);
    let top = &snapshot.offers[report.results[0].offer];
    assert!(rent.contains(&top.instance), "{rent} should name {}", top.instance);
}

#[test]
fn four_bit_weights_are_suggested_when_they_would_fit() {
    // Qwen 2.5 14B: about 29.5 GB at 2 bytes, about 8 GB at 4 bits.
    let (run, _, _) = local("model=qwen2.5-14b", "rtx_4090", None);
    assert!(!run.fits);
    assert_eq!(said(&run)[..2], [phrases::VERDICT_NO_FIT.key, phrases::VERDICT_TRY_4BIT.key]);
    // Already 4-bit: no such advice.
    let (run, _, _) = local("model=llama-3.1-70b&wq=int4", "rtx_4090", None);
    assert!(!said(&run).contains(&phrases::VERDICT_TRY_4BIT.key));
}

#[test]
fn a_measured_bandwidth_replaces_the_datasheet_in_the_estimate() {
    let (datasheet, _, _) = local("model=llama-3.1-8b", "rtx_4090", None);
    let (measured, _, _) = local("model=llama-3.1-8b", "rtx_4090", Some(504.0));
    assert_eq!(measured.bandwidth_gbps, Some(504.0));
    let rate = |run: &LocalRun| run.speed.as_ref().unwrap().decode_tokens_per_s().unwrap();
    // Decoding one sequence is memory-bound: half the bandwidth, about half the speed.
    let ratio = rate(&measured) / rate(&datasheet);
    assert!(ratio > 0.45 && ratio < 0.65, "{ratio}");
    // A useless measurement keeps the datasheet.
    let (ignored, _, _) = local("model=llama-3.1-8b", "rtx_4090", Some(f64::NAN));
    assert_eq!(ignored.bandwidth_gbps, Some(1008.0));
}

#[test]
fn an_apple_chip_notes_unified_memory_and_counts_no_electricity_without_a_power_figure() {
    let (run, _, _) = local("model=llama-3.1-8b", "apple_m2_max", None);
    assert!(run.unified_memory);
    assert_eq!((run.watts, run.price_per_hour), (None, 0.0));
    assert!(run.fits);
    assert_eq!(said(&run)[0], phrases::VERDICT_RUNS.key);
}

#[test]
fn an_image_batch_compares_seconds_per_image() {
    let (run, _, _) = local("task=image&n=10000", "rtx_4090", None);
    assert!(run.fits);
    assert!(run.speed.as_ref().unwrap().seconds_per_item().is_some());
    let kinds = said(&run);
    assert_eq!(kinds[0], phrases::VERDICT_RUNS.key);
    assert_eq!(kinds.len(), 2, "{kinds:?}");
}

#[test]
fn an_unknown_gpu_is_an_error_with_a_message() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = committed();
    let workload = Workload::default();
    let report = rank(&workload, catalog, &snapshot).unwrap();
    let error = run_locally(&workload, catalog, &snapshot, &report, "rtx_9999", None).unwrap_err();
    assert!(error.message().render(Lang::En).contains("rtx_9999"));
}

#[test]
fn the_visitors_gpu_gets_the_same_software_verdict_as_any_offer() {
    // TensorRT-LLM runs on NVIDIA GPUs only: a Radeon is not timed, and the
    // card says why and what to rent instead (issue 23).
    let (run, report, _) = local("model=llama-3.1-8b&runtime=trtllm", "rx_7900_xtx", None);
    assert!(run.fits, "the memory fits; the software does not run");
    assert!(run.speed.is_none() && run.cost.is_none());
    let reason = run.cannot_run.as_ref().expect("a reason").to_string();
    assert!(reason.starts_with("TensorRT-LLM does not run on Radeon RX 7900 XTX"), "{reason}");
    assert_eq!(said(&run), ["VERDICT_CANNOT_RUN", "VERDICT_RENT_INSTEAD"]);
    assert!(report.results.first().is_some_and(|best| best.runtime == Some(Runtime::Trtllm)));
    // The automatic runtime serves it on an Apple GPU with llama.cpp.
    let (apple, _, _) = local("model=llama-3.1-8b", "apple_m2_max", None);
    assert_eq!((apple.runtime, apple.cannot_run.is_none()), (Some(Runtime::Llamacpp), true));
    assert!(apple.speed.is_some());
}
