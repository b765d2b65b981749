//! The workload form: which model, at which precision.

use crate::engine::{Catalog, Precision, Workload};
use leptos::prelude::*;

/// Edits `workload` in place; every change is live (no submit button).
#[component]
pub fn WorkloadForm(
    /// The models offered in the picker.
    catalog: &'static Catalog,
    /// The workload being edited.
    workload: RwSignal<Workload>,
) -> impl IntoView {
    let models = catalog.models.clone();
    view! {
        <form class="workload-form" on:submit=|ev| ev.prevent_default()>
            <label for="model">"Model"</label>
            <select
                id="model"
                data-testid="model-select"
                prop:value=move || workload.with(|w| w.model.clone())
                on:change=move |ev| {
                    let model = event_target_value(&ev);
                    workload.update(|w| w.model = model);
                }
            >
                {models
                    .into_iter()
                    .map(|m| {
                        let selected = workload.with_untracked(|w| w.model == m.id);
                        view! { <option value=m.id.clone() selected=selected>{m.name.clone()}</option> }
                    })
                    .collect_view()}
            </select>
            <label for="wq">"Weight precision"</label>
            <select
                id="wq"
                data-testid="precision-select"
                prop:value=move || workload.with(|w| w.weight_precision.key())
                on:change=move |ev| {
                    if let Ok(precision) = event_target_value(&ev).parse::<Precision>() {
                        workload.update(|w| w.weight_precision = precision);
                    }
                }
            >
                {Precision::ALL
                    .into_iter()
                    .map(|p| {
                        let selected = workload.with_untracked(|w| w.weight_precision == p);
                        view! { <option value=p.key() selected=selected>{p.label()}</option> }
                    })
                    .collect_view()}
            </select>
        </form>
    }
}
