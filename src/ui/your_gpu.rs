//! "Your GPU": what the browser reports about the visitor's GPU, the
//! catalog GPU it maps to (or the picker to choose one), an optional
//! bandwidth measurement, and the verdict against renting.

use super::gpu_probe::{self, Bandwidth, Probe};
use crate::engine::local_gpu::Identification;
use crate::engine::local_run::LocalRun;
use crate::engine::Catalog;
use crate::msg;
use crate::present::your_gpu::{found, measurement, picker_groups, verdict, Detected};
use crate::text::{phrases, Msg};
use leptos::prelude::*;

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
