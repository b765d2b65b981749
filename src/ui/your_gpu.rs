//! "Your GPU": what the browser reports about the visitor's GPU, the
//! catalog GPU it maps to (or the picker to choose one), an optional
//! bandwidth measurement, and the verdict against renting.

use super::gpu_probe::{self, Bandwidth, Probe};
use crate::engine::catalog::Segment;
use crate::engine::local_gpu::{identify, Identification};
use crate::engine::local_run::LocalRun;
use crate::engine::Catalog;
use crate::msg;
use crate::present::row::electricity;
use crate::text::{phrases, Arg, Lang, Msg};
use leptos::prelude::*;

/// Candidates named in the probe's sentence before "…".
const NAMED_CANDIDATES: usize = 4;

/// The probe's state as the page keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Detected {
    pub probe: Probe,
    pub identification: Option<Identification>,
}

impl Detected {
    pub fn of(probe: Probe, catalog: &Catalog) -> Detected {
        let identification = match &probe {
            Probe::Adapter(report) => Some(identify(report, catalog)),
            // WebGL may still name the card.
            Probe::NoWebGpu { renderer } | Probe::NoAdapter { renderer } | Probe::Failed { renderer, .. } => {
                renderer.as_ref().map(|renderer| {
                    let report = crate::engine::local_gpu::AdapterReport {
                        renderer: Some(renderer.clone()),
                        ..Default::default()
                    };
                    identify(&report, catalog)
                })
            }
        };
        Detected { probe, identification }
    }

    /// The catalog GPU the probe names outright.
    pub fn exact(&self) -> Option<&str> {
        match &self.identification {
            Some(Identification::Exact(id)) => Some(id),
            _ => None,
        }
    }

    /// Whether a measurement would time a real GPU.
    pub fn hardware(&self) -> bool {
        matches!(self.probe, Probe::Adapter(_)) && !matches!(self.identification, Some(Identification::Software))
    }
}

/// What the probe found, in a sentence or two.
fn found(detected: &Detected, catalog: &Catalog, lang: Lang) -> Vec<String> {
    let name = |id: &str| catalog.gpu(id).map_or(id.to_string(), |g| g.name.clone());
    let renderer = match &detected.probe {
        Probe::NoWebGpu { renderer } | Probe::NoAdapter { renderer } | Probe::Failed { renderer, .. } => {
            renderer.clone()
        }
        Probe::Adapter(report) => report.renderer.clone(),
    };
    let reported = match &detected.probe {
        Probe::Adapter(report) => report.display_name(),
        _ => renderer.clone(),
    }
    .unwrap_or_else(|| "?".to_string());
    let mut lines = vec![match &detected.probe {
        Probe::NoWebGpu { .. } => msg!(phrases::PROBE_NO_WEBGPU),
        Probe::NoAdapter { .. } => msg!(phrases::PROBE_NO_ADAPTER),
        Probe::Failed { detail, .. } => msg!(phrases::PROBE_FAILED, detail = detail.clone()),
        Probe::Adapter(_) => match &detected.identification {
            Some(Identification::Software) | None => msg!(phrases::PROBE_SOFTWARE, name = reported.clone()),
            Some(Identification::Exact(id)) => msg!(phrases::PROBE_EXACT, reported = reported.clone(), gpu = name(id)),
            Some(Identification::Candidates(ids)) => {
                let mut names: Vec<String> = ids.iter().take(NAMED_CANDIDATES).map(|id| name(id)).collect();
                if ids.len() > NAMED_CANDIDATES {
                    names.push("…".to_string());
                }
                msg!(phrases::PROBE_CANDIDATES, reported = reported.clone(), gpus = names.join(" / "))
            }
            Some(Identification::Integrated) => msg!(phrases::PROBE_INTEGRATED, reported = reported.clone()),
            Some(Identification::Unknown) => msg!(phrases::PROBE_UNKNOWN, reported = reported.clone()),
        },
    }
    .render(lang)];
    // Without an adapter, WebGL's renderer may still name the card.
    if !matches!(detected.probe, Probe::Adapter(_)) {
        if let Some(renderer) = renderer {
            let software = matches!(detected.identification, Some(Identification::Software));
            let said = if software { &phrases::PROBE_RENDERER_SOFTWARE } else { &phrases::PROBE_RENDERER };
            lines.push(Msg::new(said, vec![("name", Arg::Text(renderer))]).render(lang));
        }
    }
    lines
}

/// The measurement, against the datasheet of the compared GPU, and whether
/// the estimate uses it (only a real GPU's figure replaces the datasheet).
fn measurement(measured: &Bandwidth, datasheet: Option<f64>, used: bool, lang: Lang) -> String {
    let gbps = measured.bytes_per_s / 1e9;
    let mut said = vec![msg!(
        phrases::BENCH_MEASURED,
        measured = Arg::Num(gbps, if gbps < 10.0 { 1 } else { 0 }),
        size = Arg::Bytes(measured.buffer_bytes),
        ms = Arg::Num(measured.elapsed_ms, 0)
    )];
    said.extend(datasheet.map(|datasheet| msg!(phrases::BENCH_DATASHEET, datasheet = Arg::Num(datasheet, 0))));
    said.push(Msg::new(if used { &phrases::BENCH_USED } else { &phrases::BENCH_NOT_USED }, Vec::new()));
    said.iter().map(|m| m.render(lang)).collect::<Vec<_>>().join(" ")
}

/// The GPUs the picker lists, in groups: the probe's candidates first,
/// then the catalog by segment, the visitor's likely cards first.
fn picker_groups(catalog: &Catalog, candidates: &[String], lang: Lang) -> Vec<(String, Vec<(String, String)>)> {
    let name = |id: &str| catalog.gpu(id).map_or(id.to_string(), |g| g.name.clone());
    let mut groups = Vec::new();
    if !candidates.is_empty() {
        groups.push((
            lang.t(&phrases::PICK_DETECTED).to_string(),
            candidates.iter().map(|id| (id.clone(), name(id))).collect(),
        ));
    }
    for segment in Segment::ALL {
        let mut gpus: Vec<(String, String)> = catalog
            .gpus
            .iter()
            .filter(|g| g.segment == Some(segment))
            .map(|g| (g.id.clone(), g.name.clone()))
            .collect();
        crate::sorting::sort_short_by(&mut gpus, |a, b| a.1.cmp(&b.1));
        if !gpus.is_empty() {
            groups.push((lang.t(segment.label()).to_string(), gpus));
        }
    }
    groups
}

/// The verdict card's words.
#[derive(Debug, Clone, PartialEq, Default)]
struct Verdict {
    fits: bool,
    said: String,
    electricity: String,
    unified: String,
}

fn verdict(run: &Result<LocalRun, Msg>, lang: Lang) -> Verdict {
    match run {
        Ok(run) => Verdict {
            fits: run.fits,
            said: run.verdict.iter().map(|m| m.render(lang)).collect::<Vec<_>>().join(" "),
            electricity: electricity(run, lang),
            unified: if run.unified_memory {
                msg!(phrases::UNIFIED_MEMORY, memory = Arg::Bytes(run.usable_bytes.max(0.0))).render(lang)
            } else {
                String::new()
            },
        },
        Err(problem) => Verdict { said: problem.render(lang), ..Verdict::default() },
    }
}

#[component]
pub fn YourGpu(
    catalog: &'static Catalog,
    /// The GPU the visitor chose (URL `mygpu`).
    chosen: RwSignal<Option<String>>,
    /// What the probe found, once it has run.
    detected: RwSignal<Option<Detected>>,
    /// The bandwidth measured on request.
    measured: RwSignal<Option<Result<Bandwidth, String>>>,
    /// The GPU compared: the chosen one, else the one the probe names.
    #[prop(into)]
    compared: Signal<Option<String>>,
    /// The workload on the compared GPU.
    #[prop(into)]
    run: Signal<Option<Result<LocalRun, Msg>>>,
) -> impl IntoView {
    let lang = super::use_lang();
    // The probe runs once the first result is on screen: WebGL and WebGPU
    // start-up must not delay it.
    if detected.get_untracked().is_none() {
        super::after_next_paint(move || {
            wasm_bindgen_futures::spawn_local(async move {
                let probe = gpu_probe::probe().await;
                detected.set(Some(Detected::of(probe, catalog)));
            })
        });
    }
    let running = RwSignal::new(false);
    let measure = move |_| {
        running.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            let result = gpu_probe::measure_bandwidth().await;
            measured.set(Some(result));
            running.set(false);
        });
    };
    let status = move || match detected.get() {
        None => lang.t(&phrases::PROBE_RUNNING).to_string(),
        Some(detected) => found(&detected, catalog, lang).join(" "),
    };
    let can_measure = move || detected.with(|d| d.as_ref().is_some_and(|d| matches!(d.probe, Probe::Adapter(_))));
    let datasheet = move || compared.get().and_then(|id| catalog.gpu(&id).ok().and_then(|g| g.mem_bandwidth_gbps));
    let measurement = move || {
        measured.get().map(|result| match result {
            Ok(bandwidth) => measurement(
                &bandwidth,
                datasheet(),
                detected.with(|d| d.as_ref().is_some_and(Detected::hardware)),
                lang,
            ),
            Err(detail) => msg!(phrases::BENCH_FAILED, detail = detail).render(lang),
        })
    };
    // The picker's groups change once, when the probe names candidates.
    let groups = move || {
        let candidates = detected.with(|d| match d.as_ref().and_then(|d| d.identification.as_ref()) {
            Some(Identification::Candidates(ids)) => ids.clone(),
            _ => Vec::new(),
        });
        picker_groups(catalog, &candidates, lang)
    };
    // Worded once per run; five parts of the card read it.
    let card = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| verdict(r, lang))));
    view! {
        <section class="your-gpu" data-testid="your-gpu" aria-labelledby="your-gpu-title">
            <h2 id="your-gpu-title">{lang.t(&phrases::YOUR_GPU)}</h2>
            <p class="privacy" data-testid="your-gpu-privacy">{lang.t(&phrases::YOUR_GPU_PRIVACY)}</p>
            <p data-testid="probe-status" role="status">{status}</p>
            <label>
                {lang.t(&phrases::PICK_GPU)} " "
                <select data-testid="my-gpu-select" on:change=move |ev| {
                    let value = event_target_value(&ev);
                    chosen.set((!value.is_empty()).then_some(value));
                }>
                    <option value="" selected=move || compared.with(Option::is_none)>{lang.t(&phrases::PICK_NONE)}</option>
                    {move || groups().into_iter().map(|(label, gpus)| view! {
                        <optgroup label=label>
                            {gpus.into_iter().map(|(id, name)| {
                                let selected = compared.with_untracked(|c| c.as_deref() == Some(id.as_str()));
                                view! { <option value=id selected=selected>{name}</option> }
                            }).collect_view()}
                        </optgroup>
                    }).collect_view()}
                </select>
            </label>
            <p hidden=move || !can_measure()>
                <button type="button" data-testid="measure-bandwidth" disabled=running on:click=measure>
                    {move || lang.t(if running.get() { &phrases::BENCH_RUNNING } else { &phrases::BENCH_BUTTON })}
                </button>
                " "
                <span data-testid="bandwidth-result" role="status">{measurement}</span>
            </p>
            <div class="verdict" data-testid="local-verdict" hidden=move || card.with(Option::is_none) class:fits=move || card.with(|c| c.as_ref().is_some_and(|c| c.fits))>
                <p>{move || card.with(|c| c.as_ref().map(|c| c.said.clone()))}</p>
                <p class="note">{move || card.with(|c| c.as_ref().map(|c| c.electricity.clone()))}</p>
                <p class="note">{move || card.with(|c| c.as_ref().map(|c| c.unified.clone()))}</p>
            </div>
        </section>
    }
}
