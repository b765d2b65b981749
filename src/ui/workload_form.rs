//! The workload form: model, precision, runtime and the serving load.
//! Every field validates through the URL codec's own table
//! (`url_codec::apply`), so the form, the link and the CLI accept exactly
//! the same values; a bad value shows its message and leaves the workload as
//! it was.

use crate::engine::workload::{Offload, CUSTOM_MODEL};
use crate::engine::{
    Catalog, CrossEntropy, FinetuneMethod, KvPrecision, Objective, Optimizer, Precision, Runtime, SpotPolicy, Task,
    Workload,
};
use crate::presets::PRESETS;
use crate::text::{phrases, Lang, Msg, Phrase};
use crate::url_codec;
use leptos::prelude::*;

/// The engine's problem with one field of the workload (its URL key), such
/// as a parallel layout that does not divide the GPUs; the page provides
/// it, and the field shows it beside itself.
#[derive(Clone, Copy)]
pub struct FieldProblem(pub Signal<Option<(&'static str, Msg)>>);

/// Edits `workload` in place; every change is live (no submit button).
#[component]
pub fn WorkloadForm(
    /// The models offered in the picker.
    catalog: &'static Catalog,
    /// The workload being edited.
    workload: RwSignal<Workload>,
) -> impl IntoView {
    let lang = super::use_lang();
    let task = move || workload.with(|w| w.task);
    // The picker lists the models the engine can size for the task; LLM
    // tasks end with "Custom model…".
    // Memos: a list that did not change does not redraw its options.
    let models = Memo::new(move |_| {
        let task = task();
        let mut models: Vec<(String, String)> =
            catalog.models.iter().filter(|m| m.suits(task)).map(|m| (m.id.clone(), m.name.clone())).collect();
        if matches!(task, Task::Infer | Task::Finetune | Task::Pretrain) {
            models.push((CUSTOM_MODEL.to_string(), lang.t(&phrases::CUSTOM_MODEL).to_string()));
        }
        models
    });
    let custom = move || workload.with(|w| w.model == CUSTOM_MODEL);
    let tasks = options(lang, &Task::ALL.map(|t| (t.key(), t.label())));
    let serving = move || task() == Task::Infer;
    let training = move || matches!(task(), Task::Finetune | Task::Pretrain);
    let finetuning = move || task() == Task::Finetune;
    let generating = move || matches!(task(), Task::Image | Task::Video);
    let video = move || task() == Task::Video;
    let audio = move || task() == Task::Audio;
    let items_label = move || if video() { &phrases::FIELD_CLIPS } else { &phrases::FIELD_IMAGES };
    // Empty media fields mean the model's own default, shown as the hint.
    let pipeline = move || workload.with(|w| catalog.model(&w.model).ok().and_then(|m| m.diffusion.clone()));
    let default_res =
        Memo::new(move |_| pipeline().map(|d| format!("{}x{}", d.default_width, d.default_height)).unwrap_or_default());
    let default_steps = Memo::new(move |_| pipeline().map(|d| d.default_steps.to_string()).unwrap_or_default());
    let default_frames = Memo::new(move |_| pipeline().map(|d| d.default_frames.to_string()).unwrap_or_default());
    let precisions = options(lang, &Precision::ALL.map(|p| (p.key(), p.label())));
    // "Task default" leaves `obj` out of the link.
    let mut objectives = vec![(String::new(), lang.t(&phrases::OBJECTIVE_TASK_DEFAULT).to_string())];
    objectives.extend(options(lang, &Objective::ALL.map(|o| (o.key(), o.label()))));
    // The catalog's vendors, lower case, as the filter compares them.
    let mut vendors = vec![(String::new(), lang.t(&phrases::ANY).to_string())];
    let mut seen: Vec<String> = catalog.gpus.iter().map(|g| g.vendor.to_ascii_lowercase()).collect();
    crate::sorting::sort_short_by(&mut seen, Ord::cmp);
    seen.dedup();
    vendors.extend(seen.into_iter().map(|v| (v.clone(), v)));
    view! {
        <form class="workload-form" on:submit=|ev| ev.prevent_default()>
            <div class="fields">
            <label for="preset">{lang.t(&phrases::START_FROM)}</label>
            <select
                id="preset"
                data-testid="preset-select"
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    if let Some((_, query)) = PRESETS.iter().find(|(label, _)| label.key == chosen) {
                        workload.set(url_codec::decode(query, catalog).workload);
                    }
                }
            >
                <option value="" selected>{lang.t(&phrases::A_PRESET)}</option>
                {PRESETS.iter().map(|(label, _)| view! { <option value=label.key>{lang.t(label)}</option> }).collect_view()}
            </select>
            <SelectField catalog=catalog workload=workload key="task" label={&phrases::FIELD_TASK} options=tasks testid="task-select" />
            <SelectField catalog=catalog workload=workload key="model" label={&phrases::FIELD_MODEL} options=models testid="model-select" />
            <Show when=custom>
                <NumberField catalog=catalog workload=workload key="params" label={&phrases::FIELD_PARAMS} />
                <NumberField catalog=catalog workload=workload key="layers" label={&phrases::FIELD_LAYERS} />
                <NumberField catalog=catalog workload=workload key="hidden" label={&phrases::FIELD_HIDDEN} />
                <NumberField catalog=catalog workload=workload key="heads" label={&phrases::FIELD_HEADS} />
                <NumberField catalog=catalog workload=workload key="kv_heads" label={&phrases::FIELD_KV_HEADS} />
            </Show>
            <Show when=move || !training()>
                <SelectField catalog=catalog workload=workload key="wq" label={&phrases::FIELD_WEIGHT_PRECISION} options=precisions.clone() testid="precision-select" />
            </Show>
            <Show when=serving>
                <SelectField catalog=catalog workload=workload key="kvq" label={&phrases::FIELD_KV_CACHE} options=options(lang, &KvPrecision::ALL.map(|p| (p.key(), p.label()))) testid="kv-select" />
                <SelectField catalog=catalog workload=workload key="runtime" label={&phrases::FIELD_RUNTIME} options=options(lang, &Runtime::ALL.map(|r| (r.key(), r.label()))) testid="runtime-select" />
                <NumberField catalog=catalog workload=workload key="in" label={&phrases::FIELD_PROMPT_TOKENS} />
                <NumberField catalog=catalog workload=workload key="out" label={&phrases::FIELD_OUTPUT_TOKENS} />
                <NumberField catalog=catalog workload=workload key="conc" label={&phrases::FIELD_CONCURRENCY} />
            </Show>
            <Show when=generating>
                <NumberField catalog=catalog workload=workload key="res" label={&phrases::FIELD_RESOLUTION} input_type="text" placeholder=default_res />
                <Show when=video>
                    <NumberField catalog=catalog workload=workload key="frames" label={&phrases::FIELD_FRAMES} placeholder=default_frames />
                </Show>
                <NumberField catalog=catalog workload=workload key="steps" label={&phrases::FIELD_STEPS} placeholder=default_steps />
                <NumberField catalog=catalog workload=workload key="batch" label={&phrases::FIELD_BATCH} />
                <NumberField catalog=catalog workload=workload key="n" label=items_label />
                <SelectField catalog=catalog workload=workload key="offload" label={&phrases::FIELD_OFFLOAD} options=options(lang, &Offload::ALL.map(|o| (o.key(), o.label()))) testid="offload-select" />
            </Show>
            <Show when=audio>
                <NumberField catalog=catalog workload=workload key="batch" label={&phrases::FIELD_WINDOWS} />
                <NumberField catalog=catalog workload=workload key="hours" label={&phrases::FIELD_AUDIO_HOURS} />
            </Show>
            <Show when=training>
                <Show when=finetuning>
                    <SelectField catalog=catalog workload=workload key="method" label={&phrases::FIELD_METHOD} options=options(lang, &FinetuneMethod::ALL.map(|m| (m.key(), m.label()))) testid="method-select" />
                    <NumberField catalog=catalog workload=workload key="rank" label={&phrases::FIELD_LORA_RANK} />
                </Show>
                <SelectField catalog=catalog workload=workload key="opt" label={&phrases::FIELD_OPTIMIZER} options=options(lang, &Optimizer::ALL.map(|o| (o.key(), o.label()))) testid="optimizer-select" />
                <SelectField catalog=catalog workload=workload key="ce" label={&phrases::FIELD_CROSS_ENTROPY} options=options(lang, &CrossEntropy::ALL.map(|c| (c.key(), c.label()))) testid="ce-select" />
                <NumberField catalog=catalog workload=workload key="tokens" label={&phrases::FIELD_TOKENS} />
                <NumberField catalog=catalog workload=workload key="epochs" label={&phrases::FIELD_EPOCHS} />
                <NumberField catalog=catalog workload=workload key="seq" label={&phrases::FIELD_SEQ_LEN} />
                <NumberField catalog=catalog workload=workload key="mbs" label={&phrases::FIELD_MICRO_BATCH} />
                <NumberField catalog=catalog workload=workload key="gpus" label={&phrases::FIELD_GPUS} />
                <NumberField catalog=catalog workload=workload key="zero" label={&phrases::FIELD_ZERO} />
                <NumberField catalog=catalog workload=workload key="tp" label={&phrases::FIELD_TENSOR_PARALLEL} />
                <NumberField catalog=catalog workload=workload key="pp" label={&phrases::FIELD_PIPELINE} />
                <CheckboxField workload=workload label={&phrases::FIELD_CHECKPOINTING} />
                <NumberField catalog=catalog workload=workload key="ckpt_every" label={&phrases::FIELD_CHECKPOINT_EVERY} />
            </Show>
            </div>
            <fieldset class="rental">
                <legend>{lang.t(&phrases::RENTING)}</legend>
                <SelectField catalog=catalog workload=workload key="obj" label={&phrases::FIELD_OBJECTIVE} options=objectives testid="objective-select" />
                <SelectField catalog=catalog workload=workload key="spot" label={&phrases::FIELD_SPOT} options=options(lang, &SpotPolicy::ALL.map(|p| (p.key(), p.label()))) testid="spot-select" />
                <Show when=serving>
                    <NumberField catalog=catalog workload=workload key="uptime" label={&phrases::FIELD_UPTIME} />
                    <NumberField catalog=catalog workload=workload key="rpd" label={&phrases::FIELD_REQUESTS_PER_DAY} />
                </Show>
                <Show when=move || !serving()>
                    <NumberField catalog=catalog workload=workload key="runs" label={&phrases::FIELD_RUNS} />
                </Show>
                <NumberField catalog=catalog workload=workload key="max_ph" label={&phrases::FIELD_MAX_PRICE} />
                <NumberField catalog=catalog workload=workload key="max_gpus" label={&phrases::FIELD_MAX_GPUS} />
                <NumberField catalog=catalog workload=workload key="region" label={&phrases::FIELD_REGION} input_type="text" />
                <NumberField catalog=catalog workload=workload key="provider" label={&phrases::FIELD_PROVIDERS} input_type="text" />
                <SelectField catalog=catalog workload=workload key="vendor" label={&phrases::FIELD_VENDOR} options=vendors testid="vendor-select" />
            </fieldset>
        </form>
    }
}

/// (URL value, label) pairs for a `<select>`, labels in `lang`.
fn options(lang: Lang, pairs: &[(&'static str, impl Label)]) -> Vec<(String, String)> {
    pairs.iter().map(|(key, label)| (key.to_string(), label.in_lang(lang).to_string())).collect()
}

/// An option's label: a phrase, or a name that is the same in every
/// language (runtimes).
trait Label {
    fn in_lang(&self, lang: Lang) -> &'static str;
}

impl Label for &'static Phrase {
    fn in_lang(&self, lang: Lang) -> &'static str {
        lang.t(self)
    }
}

impl Label for &'static str {
    fn in_lang(&self, _: Lang) -> &'static str {
        self
    }
}

/// The activation-checkpointing switch (URL key `ckpt`).
#[component]
fn CheckboxField(workload: RwSignal<Workload>, label: &'static Phrase) -> impl IntoView {
    view! {
        <label for="ckpt">{super::use_lang().t(label)}</label>
        <input
            id="ckpt"
            type="checkbox"
            prop:checked=move || workload.with(|w| w.checkpointing)
            on:change=move |ev| {
                let checked = event_target_checked(&ev);
                workload.update(|w| w.checkpointing = checked);
            }
        />
    }
}

/// A `<select>` for one workload field, its options as (URL value, label).
#[component]
fn SelectField(
    catalog: &'static Catalog,
    workload: RwSignal<Workload>,
    key: &'static str,
    label: &'static Phrase,
    #[prop(into)] options: Signal<Vec<(String, String)>>,
    testid: &'static str,
) -> impl IntoView {
    let current = move || workload.with(|w| url_codec::value_of(w, key).unwrap_or_default());
    view! {
        <label for=key>{super::use_lang().t(label)}</label>
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
            {move || {
                options
                    .get()
                    .into_iter()
                    .map(|(value, text)| {
                        let selected = workload.with_untracked(|w| url_codec::value_of(w, key).as_deref() == Some(value.as_str()));
                        view! { <option value=value selected=selected>{text}</option> }
                    })
                    .collect_view()
            }}
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
    #[prop(into)] label: Signal<&'static Phrase>,
    /// `number`, or `text` for values like `1024x1024`.
    #[prop(default = "number")]
    input_type: &'static str,
    /// Shown while the field is empty (the model's own default).
    #[prop(optional, into)]
    placeholder: Signal<String>,
) -> impl IntoView {
    let lang = super::use_lang();
    let problem = RwSignal::new(None::<String>);
    // What is typed comes first; else what the engine says of this field.
    let engine = use_context::<FieldProblem>();
    let shown = Memo::new(move |_| {
        problem.get().or_else(|| {
            let FieldProblem(engine) = engine?;
            engine.with(|p| p.as_ref().filter(|(field, _)| *field == key).map(|(_, problem)| problem.render(lang)))
        })
    });
    let error_id = format!("{key}-error");
    let initial = workload.with_untracked(|w| url_codec::value_of(w, key).unwrap_or_default());
    // The same range the codec enforces.
    let bounds = url_codec::bounds_of(key);
    // When the workload changes from elsewhere (a preset, another field),
    // show its value, unless what is typed already means that value.
    let input = NodeRef::<leptos::html::Input>::new();
    Effect::new(move |previous: Option<String>| {
        let value = workload.with(|w| url_codec::value_of(w, key).unwrap_or_default());
        // The first run only records the value the input started with.
        if previous.is_some_and(|before| before != value) {
            if let Some(element) = input.get() {
                let typed = element.value();
                let mut probe = workload.get_untracked();
                let same = url_codec::apply(&mut probe, key, &typed, catalog).is_ok()
                    && url_codec::value_of(&probe, key).as_deref() == Some(value.as_str());
                if !same {
                    element.set_value(&value);
                    problem.set(None);
                }
            }
        }
        value
    });
    view! {
        <label for=key>{move || lang.t(label.get())}</label>
        <span class="field">
            <input
                node_ref=input
                id=key
                type=input_type
                inputmode=if input_type == "number" { "numeric" } else { "text" }
                placeholder=placeholder
                min=bounds.map(|(min, _)| min.to_string())
                max=bounds.map(|(_, max)| max.to_string())
                value=initial
                aria-invalid=move || if shown.with(Option::is_some) { "true" } else { "false" }
                aria-describedby=error_id.clone()
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    let mut edited = workload.get_untracked();
                    match url_codec::apply(&mut edited, key, &value, catalog) {
                        Ok(()) => {
                            problem.set(None);
                            workload.set(edited);
                        }
                        Err(message) => problem.set(Some(message.render(lang))),
                    }
                }
            />
            <span class="field-error" id=error_id role="alert">{move || shown.get()}</span>
        </span>
    }
}
