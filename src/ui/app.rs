//! The page: the workload form, the memory it needs, and the offers.

use super::snapshot_loader::load_snapshot;
use super::{url_state, MemoryBar, OffersTable, SnapshotInfo, WorkloadForm};
use crate::engine::memory::{estimate, format_gb};
use crate::engine::{rank, Catalog};
use crate::url_codec;
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    match Catalog::bundled() {
        Ok(catalog) => view! { <Calculator catalog=catalog /> }.into_any(),
        Err(e) => view! { <p role="alert" class="error">{e.to_string()}</p> }.into_any(),
    }
}

/// The calculator once the bundled catalog is available.
#[component]
fn Calculator(catalog: &'static Catalog) -> impl IntoView {
    // The URL is the state: start from the link, write every change back.
    let decoded = url_codec::decode(&url_state::current_query(), catalog);
    let notes = decoded.notes;
    let workload = RwSignal::new(decoded.workload);
    Effect::new(move |_| url_state::replace_query(&workload.with(url_codec::encode)));

    let snapshot = LocalResource::new(load_snapshot);
    let memory = move || workload.with(|w| w.resolve_model(catalog).and_then(|m| estimate(w, &m, w.planned_gpus())));

    view! {
        <header>
            <h1>"whichgpu"</h1>
            <p class="tagline">"Which rented GPU should I use for this generative-AI job?"</p>
        </header>
        <main>
            {(!notes.is_empty())
                .then(|| {
                    view! {
                        <ul class="notes" data-testid="url-notes" role="status">
                            {notes.into_iter().map(|n| view! { <li>{n.message}</li> }).collect_view()}
                        </ul>
                    }
                })}
            <WorkloadForm catalog=catalog workload=workload />
            <p class="memory" data-testid="memory-summary">
                {move || match memory() {
                    Ok(m) => {
                        // The parts this task has (training has no KV cache, serving no optimizer).
                        let parts: Vec<String> = m
                            .parts()
                            .into_iter()
                            .filter(|(_, bytes)| *bytes > 0.0)
                            .map(|(name, bytes)| format!("{name} {}", format_gb(bytes)))
                            .collect();
                        let per = if m.gpu_count > 1 { format!("per GPU of {}", m.gpu_count) } else { "on one GPU".to_string() };
                        format!("Memory {per}: {} ({})", format_gb(m.per_gpu_bytes), parts.join(", "))
                    }
                    Err(e) => e.to_string(),
                }}
            </p>
            {move || memory().ok().map(|m| view! { <MemoryBar memory=m /> })}
            <section class="results" data-testid="results" aria-live="polite">
                {move || match snapshot.get() {
                    None => view! { <p class="loading" data-testid="loading">"Loading offers…"</p> }.into_any(),
                    Some(Err(message)) => {
                        view! {
                            <div role="alert" class="error" data-testid="load-error">
                                <p>{message}</p>
                                <button type="button" on:click=move |_| snapshot.refetch()>"Retry"</button>
                            </div>
                        }
                            .into_any()
                    }
                    Some(Ok(snapshot)) => {
                        let info = snapshot.clone();
                        let table = move || match workload.with(|w| super::timing::measure("rank", || rank(w, catalog, &snapshot))) {
                            Ok(report) => view! { <OffersTable catalog=catalog snapshot=snapshot.clone() report=report /> }.into_any(),
                            Err(e) => view! { <p role="alert" class="error">{e.to_string()}</p> }.into_any(),
                        };
                        view! {
                            {table}
                            <SnapshotInfo snapshot=info />
                        }
                            .into_any()
                    }
                }}
            </section>
        </main>
    }
}
