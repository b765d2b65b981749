use super::*;
use crate::engine::local_gpu::AdapterReport;
use crate::engine::local_run::run_locally;
use crate::engine::{rank, snapshot::committed};
use crate::url_codec;

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

fn adapter(vendor: &str, architecture: &str, renderer: Option<&str>) -> Probe {
    Probe::Adapter(AdapterReport {
        vendor: vendor.into(),
        architecture: architecture.into(),
        renderer: renderer.map(str::to_string),
        ..AdapterReport::default()
    })
}

fn said(probe: Probe, lang: Lang) -> Vec<String> {
    found(&Detected::of(probe, catalog()), catalog(), lang)
}

#[test]
fn the_probe_says_what_it_found_for_every_kind_of_answer() {
    // Chrome's WebGL renderer string for an RTX 4090 under ANGLE/D3D11
    // (local_gpu's cases): the catalog's card by name.
    let exact = Detected::of(
        adapter(
            "nvidia",
            "lovelace",
            Some("ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)"),
        ),
        catalog(),
    );
    assert_eq!(exact.exact(), Some("rtx_4090"));
    assert!(exact.hardware());
    let lines = found(&exact, catalog(), Lang::En);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("Your browser reports ") && lines[0].contains("GeForce RTX 4090"), "{lines:?}");

    // A bare vendor and architecture: candidates to confirm, four named.
    let candidates = said(adapter("nvidia", "lovelace", None), Lang::En);
    assert!(candidates[0].contains("which could be") && candidates[0].contains(" / "), "{candidates:?}");

    // SwiftShader is not a GPU, and a measurement of it would not count.
    let software = Detected::of(adapter("google", "swiftshader", None), catalog());
    assert!(!software.hardware());
    assert!(found(&software, catalog(), Lang::En)[0].starts_with("Software renderer, not a GPU"));

    // No WebGPU, with WebGL's word as a second sentence.
    let none = said(Probe::NoWebGpu { renderer: Some("Apple M2".into()) }, Lang::Es);
    assert_eq!(none.len(), 2);
    assert!(
        none[0].starts_with("Este navegador no ofrece WebGPU") && none[1].starts_with("WebGL la llama"),
        "{none:?}"
    );
    let refused = said(Probe::Failed { detail: "SecurityError".into(), renderer: None }, Lang::En);
    assert_eq!(refused, ["The browser would not describe its GPU (SecurityError): pick yours below."]);
}

#[test]
fn a_measurement_is_set_against_the_datasheet_and_says_whether_it_counts() {
    let measured = Bandwidth { bytes_per_s: 900e9, buffer_bytes: 268_435_456.0, elapsed_ms: 812.0 };
    let used = measurement(&measured, Some(1008.0), true, Lang::En);
    assert_eq!(
        used,
        "Measured 900 GB/s reading 0.2 GiB in 812 ms. The datasheet says 1,008 GB/s. The estimate uses the measurement."
    );
    let slow = Bandwidth { bytes_per_s: 4.2e9, ..measured };
    let kept = measurement(&slow, None, false, Lang::Es);
    assert!(
        kept.starts_with("Medido: 4,2 GB/s") && kept.ends_with("la estimación mantiene la ficha técnica."),
        "{kept}"
    );
}

#[test]
fn the_picker_lists_the_candidates_first_then_every_gpu_by_segment() {
    let groups = picker_groups(catalog(), &["rtx_4090".to_string(), "rtx_4080".to_string()], Lang::En);
    assert_eq!(groups[0].0, "(detected)");
    assert_eq!(groups[0].1[0].0, "rtx_4090");
    let labels: Vec<&str> = groups[1..].iter().map(|(label, _)| label.as_str()).collect();
    assert_eq!(labels, ["Desktop cards", "Laptops", "Apple M-series", "Workstation cards", "Datacenter cards"]);
    let listed: usize = groups[1..].iter().map(|(_, gpus)| gpus.len()).sum();
    assert_eq!(listed, catalog().gpus.iter().filter(|g| g.segment.is_some()).count());
    for (_, gpus) in &groups[1..] {
        assert!(gpus.windows(2).all(|w| w[0].1 <= w[1].1), "by name");
    }
    assert_eq!(picker_groups(catalog(), &[], Lang::Es)[0].0, "Tarjetas de escritorio");
}

#[test]
fn the_verdict_card_says_whether_it_fits_against_renting_and_its_electricity() {
    let snapshot = committed();
    let workload = url_codec::decode("model=llama-3.1-8b", catalog()).workload;
    let report = rank(&workload, catalog(), &snapshot).unwrap();
    let run = run_locally(&workload, catalog(), &snapshot, &report, "apple_m2_ultra", None).unwrap();
    let card = verdict(&Ok(run.clone()), Lang::En);
    assert!(card.fits);
    assert!(card.said.starts_with("Apple M2 Ultra") || card.said.contains("M2 Ultra"), "{}", card.said);
    assert_eq!(card.electricity, electricity(&run, Lang::En));
    assert!(card.unified.starts_with("Unified memory: the "), "{}", card.unified);

    let problem = crate::msg!(phrases::BENCH_FAILED, detail = "lost");
    let failed = verdict(&Err(problem), Lang::En);
    assert_eq!(
        (failed.fits, failed.said.as_str(), failed.unified.as_str()),
        (false, "The measurement failed: lost.", "")
    );
}

#[test]
fn a_card_the_software_does_not_run_on_is_not_shown_as_fitting() {
    // TensorRT-LLM on a Radeon: the model fits its 24 GB, but nothing runs.
    let snapshot = committed();
    let workload = url_codec::decode("model=llama-3.1-8b&runtime=trtllm", catalog()).workload;
    let report = rank(&workload, catalog(), &snapshot).unwrap();
    let run = run_locally(&workload, catalog(), &snapshot, &report, "rx_7900_xtx", None).unwrap();
    assert!(run.fits);
    let card = verdict(&Ok(run.clone()), Lang::Es);
    assert!(!card.fits);
    assert!(card.said.starts_with("No funciona en tu Radeon RX 7900 XTX"), "{}", card.said);
    let row = crate::present::row::RowText::of_local(&run, catalog(), Lang::En);
    assert_eq!(row.badges[0].label, "doesn't run here");
}
