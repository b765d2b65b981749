//! The workload form: model, precision, runtime and the serving load.
//! Every field validates through the URL codec's own table
//! (`url_codec::apply`), so the form, the link and the CLI accept exactly
//! the same values; a bad value shows its message and leaves the workload as
//! it was.

use crate::engine::{Catalog, KvPrecision, Precision, Runtime, Workload};
use crate::url_codec;
use leptos::prelude::*;

/// Edits `workload` in place; every change is live (no submit button).
#[component]
pub fn WorkloadForm(
    /// The models offered in the picker.
    catalog: &'static Catalog,
    /// The workload being edited.
    workload: RwSignal<Workload>,
) -> impl IntoView {
    // Models whose memory the engine can size for serving (an LLM shape).
    let models: Vec<(String, String)> = catalog
        .models
        .iter()
        .filter(|m| m.shape.is_some())
        .map(|m| (m.id.clone(), m.name.clone()))
        .collect();
    let precisions: Vec<(String, String)> = Precision::ALL
        .iter()
        .map(|p| (p.key().to_string(), p.label().to_string()))
        .collect();
    let kv_precisions: Vec<(String, String)> = KvPrecision::ALL
        .iter()
        .map(|p| (p.key().to_string(), p.label().to_string()))
        .collect();
    let runtimes: Vec<(String, String)> = Runtime::ALL
        .iter()
        .map(|r| (r.key().to_string(), r.label().to_string()))
        .collect();
    view! {
        <form class="workload-form" on:submit=|ev| ev.prevent_default()>
            <SelectField catalog=catalog workload=workload key="model" label="Model" options=models testid="model-select" />
            <SelectField catalog=catalog workload=workload key="wq" label="Weight precision" options=precisions testid="precision-select" />
            <SelectField catalog=catalog workload=workload key="kvq" label="KV cache" options=kv_precisions testid="kv-select" />
            <SelectField catalog=catalog workload=workload key="runtime" label="Runtime" options=runtimes testid="runtime-select" />
            <NumberField catalog=catalog workload=workload key="in" label="Prompt tokens" />
            <NumberField catalog=catalog workload=workload key="out" label="Output tokens" />
            <NumberField catalog=catalog workload=workload key="conc" label="Concurrent requests" />
        </form>
    }
}

/// A `<select>` for one workload field, its options as (URL value, label).
#[component]
fn SelectField(
    catalog: &'static Catalog,
    workload: RwSignal<Workload>,
    key: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    testid: &'static str,
) -> impl IntoView {
    let current = move || workload.with(|w| url_codec::value_of(w, key).unwrap_or_default());
    view! {
        <label for=key>{label}</label>
        <select
            id=key
            data-testid=testid
            prop:value=current
            on:change=move |ev| {
                let value = event_target_value(&ev);
                workload.update(|w| {
                    let _ = url_codec::apply(w, key, &value, catalog);
                });
            }
        >
            {options
                .into_iter()
                .map(|(value, text)| {
                    let selected = workload.with_untracked(|w| url_codec::value_of(w, key).as_deref() == Some(value.as_str()));
                    view! { <option value=value selected=selected>{text}</option> }
                })
                .collect_view()}
        </select>
    }
}

/// A number input that validates as the user types, with the message next
/// to the field.
#[component]
fn NumberField(
    catalog: &'static Catalog,
    workload: RwSignal<Workload>,
    key: &'static str,
    label: &'static str,
) -> impl IntoView {
    let problem = RwSignal::new(None::<String>);
    let error_id = format!("{key}-error");
    let initial = workload.with_untracked(|w| url_codec::value_of(w, key).unwrap_or_default());
    view! {
        <label for=key>{label}</label>
        <span class="field">
            <input
                id=key
                type="number"
                inputmode="numeric"
                min="1"
                value=initial
                aria-invalid=move || if problem.with(Option::is_some) { "true" } else { "false" }
                aria-describedby=error_id.clone()
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    let mut edited = workload.get_untracked();
                    match url_codec::apply(&mut edited, key, &value, catalog) {
                        Ok(()) => {
                            problem.set(None);
                            workload.set(edited);
                        }
                        Err(message) => problem.set(Some(message)),
                    }
                }
            />
            <span class="field-error" id=error_id role="alert">{move || problem.get()}</span>
        </span>
    }
}
