//! The workload form: a tab per task, then the model (searched as the
//! user types), precision, runtime, the load or the job, and the renting.
//! Every field validates through the URL codec's own table
//! (`url_codec::apply`), so the form, the link and the CLI accept exactly
//! the same values; a bad value shows its message and leaves the workload as
//! it was.

use super::roving_focus;
use crate::engine::audio_model::CLIP_SECONDS;
use crate::engine::keys;
use crate::engine::vision::{IMAGES, IMAGE_SIDE};
use crate::engine::workload::{
    Compilation, Offload, Transcriber, AUDIO_HOURS, BATCH, BATCH_REQUESTS, BEAMS, CHECKPOINT_MINUTES, CONCURRENCY,
    CUSTOM_MODEL, DEADLINE_DAYS, EPOCHS, FRAMES, GLOBAL_BATCH, GOODPUT_PCT, GPUS, HEADS, HIDDEN, INPUT_TOKENS, ITEMS,
    ITL_TARGET, KV_HEADS, LATENCY_PERCENTILE, LAYERS, LENGTH_SPREAD_PCT, LORA_RANK, MAX_GPUS, MAX_PRICE_PER_HOUR,
    MICRO_BATCH, OUTPUT_TOKENS, PARAMS, PEAK_FACTOR, PEAK_RPS, PIPELINE_PARALLEL, PREFIX_HIT_PCT, REQUESTS_PER_DAY,
    RUNS_PER_MONTH, SEQ_LEN, STEPS, TENSOR_PARALLEL, TRAINING_TOKENS, TTFT_TARGET, UPTIME_HOURS, ZERO_STAGE,
};
use crate::engine::{
    Catalog, CrossEntropy, FinetuneMethod, KvPrecision, Optimizer, PriceFilter, PriceTrust, Quantize, RuntimeChoice,
    SpotPolicy, Task, TrainingRecipe, Workload,
};
use crate::model_search::{echo, found_elsewhere, search, Entry, Found};
use crate::present::form::{global_batch_hint, model_hints, option_detail, options, ModelHints};
use crate::present::model_facts::model_facts;
use crate::presets::PRESETS;
use crate::text::{phrases, Lang, Msg, Phrase};
use crate::{msg, url_codec};
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
    /// The link's model where it could not be applied, and why
    /// (`url_codec::Decoded::unapplied_model`).
    unapplied_model: RwSignal<Option<(String, Msg)>>,
) -> impl IntoView {
    let lang = super::use_lang();
    // A memo: an edit that keeps the task wakes none of the tabs, the
    // panel's label or the fields' `Show`s.
    let task = Memo::new(move |_| workload.with(|w| w.task));
    // The picker lists the models the engine can size for the task; LLM
    // tasks end with "Custom model…".
    // Memos: a list that did not change does not redraw its options.
    let models = Memo::new(move |_| {
        let task = task.get();
        let mut models: Vec<Entry> = catalog.models.iter().filter(|m| m.suits(task)).map(Entry::of).collect();
        if matches!(task, Task::Infer | Task::Finetune | Task::Pretrain) {
            models.push(Entry::named(CUSTOM_MODEL, lang.t(&phrases::CUSTOM_MODEL)));
        }
        models
    });
    let custom = move || workload.with(|w| w.model == CUSTOM_MODEL);
    let serving = move || task.get() == Task::Infer;
    // A batch of requests is a job: run so many times a month, not an
    // endpoint up so many hours a day for so many requests.
    let batch = Memo::new(move |_| workload.with(Workload::is_batch));
    let endpoint = Memo::new(move |_| workload.with(Workload::is_endpoint));
    let training = move || matches!(task.get(), Task::Finetune | Task::Pretrain);
    let finetuning = move || task.get() == Task::Finetune;
    let generating = move || matches!(task.get(), Task::Image | Task::Video);
    let transcribing = move || task.get() == Task::Audio;
    let video = move || task.get() == Task::Video;
    // The job's size fields, relabelled per task.
    let job = move || crate::present::form::job_fields(task.get());
    // The picked model's image fields and its defaults as hints.
    let hints = Memo::new(move |_| {
        workload.with(|w| w.resolve_model(catalog).map(|m| model_hints(&m, w.task)).unwrap_or_default())
    });
    let hint = move |part: fn(&ModelHints) -> &String| Signal::derive(move || hints.with(|h| part(h).clone()));
    let vision = move || hints.with(|h| h.images);
    let default_side = Signal::derive(|| crate::engine::vision::DEFAULT_IMAGE_SIDE.to_string());
    let (default_res, default_frames) = (hint(|h| &h.resolution), hint(|h| &h.frames));
    let (default_steps, default_clip) = (hint(|h| &h.steps), hint(|h| &h.clip_seconds));
    let default_global_batch = Signal::derive(move || workload.with(|w| global_batch_hint(w, lang)));
    let default_beams = Signal::derive(move || workload.with(|w| w.transcriber.default_beams().to_string()));
    let precisions = move |task| crate::present::form::precision_options(task, catalog, lang);
    // "Task default" leaves `obj` out of the link; serving alone adds
    // latency and bandwidth, and every other task has the same choices
    // (those of fine-tuning, below).
    let objectives = move |task| crate::present::form::objective_options(task, lang);
    // The catalog's vendors, lower case, as the filter compares them.
    let mut vendors = vec![(String::new(), lang.t(&phrases::ANY).to_string())];
    let mut seen: Vec<String> = catalog.gpus.iter().map(|g| g.vendor.to_ascii_lowercase()).collect();
    crate::sorting::sort_short_by(&mut seen, Ord::cmp);
    seen.dedup();
    vendors.extend(seen.into_iter().map(|v| (v.clone(), v)));
    view! {
        <form class="workload-form" on:submit=|ev| ev.prevent_default()>
            <TaskTabs catalog=catalog workload=workload task=task />
            <div role="tabpanel" id="task-panel" aria-labelledby=move || format!("tab-{}", task.get().key())>
            <p class="hint task-hint" data-testid="task-hint">{move || lang.t(task.get().hint())}</p>
            <div class="fields">
            <label for="preset">{lang.t(&phrases::START_FROM)}</label>
            <select
                id="preset"
                data-testid="preset-select"
                on:change=move |ev| {
                    let chosen = event_target_value(&ev);
                    if let Some(preset) = PRESETS.iter().find(|preset| preset.id == chosen) {
                        workload.set(url_codec::decode(preset.query, catalog).workload);
                    }
                }
            >
                <option value="" selected>{lang.t(&phrases::A_PRESET)}</option>
                {PRESETS.iter().map(|preset| view! { <option value=preset.id>{lang.t(preset.label)}</option> }).collect_view()}
            </select>
            <ModelField catalog=catalog workload=workload models=models unapplied=unapplied_model />
            <Show when=move || matches!(task.get(), Task::Infer | Task::Finetune | Task::Pretrain)>
                <ImportFold catalog=catalog workload=workload />
            </Show>
            <Show when=custom>
                <NumberField catalog=catalog workload=workload key=PARAMS.0 label={&phrases::FIELD_PARAMS} />
                <NumberField catalog=catalog workload=workload key=LAYERS.0 label={&phrases::FIELD_LAYERS} />
                <NumberField catalog=catalog workload=workload key=HIDDEN.0 label={&phrases::FIELD_HIDDEN} />
                <NumberField catalog=catalog workload=workload key=HEADS.0 label={&phrases::FIELD_HEADS} />
                <NumberField catalog=catalog workload=workload key=KV_HEADS.0 label={&phrases::FIELD_KV_HEADS} />
            </Show>
            <Show when=move || !training()>
                // The formats the task's software loads, drawn again per task.
                {move || {
                    let options = precisions(task.get());
                    view! { <SelectField catalog=catalog workload=workload key=keys::WEIGHTS label={&phrases::FIELD_WEIGHT_PRECISION} options=options testid="precision-select" /> }
                }}
            </Show>
            <Show when=serving>
                <SelectField catalog=catalog workload=workload key=keys::KV_CACHE label={&phrases::FIELD_KV_CACHE} options={options::<KvPrecision>(lang)} detail={option_detail::<KvPrecision> as fn(&str, Lang) -> Option<String>} testid="kv-select" />
                <SelectField catalog=catalog workload=workload key=keys::RUNTIME label={&phrases::FIELD_RUNTIME} options={options::<RuntimeChoice>(lang)} detail={option_detail::<RuntimeChoice> as fn(&str, Lang) -> Option<String>} testid="runtime-select" />
                <NumberField catalog=catalog workload=workload key=INPUT_TOKENS.0 label={&phrases::FIELD_PROMPT_TOKENS} />
                <NumberField catalog=catalog workload=workload key=OUTPUT_TOKENS.0 label={&phrases::FIELD_OUTPUT_TOKENS} />
                <Show when=move || !batch.get()>
                    <NumberField catalog=catalog workload=workload key=CONCURRENCY.0 label={&phrases::FIELD_CONCURRENCY} />
                </Show>
                <NumberField catalog=catalog workload=workload key=BATCH_REQUESTS.0 label={&phrases::FIELD_BATCH_REQUESTS} />
            </Show>
            <Show when=generating>
                <NumberField catalog=catalog workload=workload key=keys::RESOLUTION label={&phrases::FIELD_RESOLUTION} input_type="text" placeholder=default_res />
                <Show when=video>
                    <NumberField catalog=catalog workload=workload key=FRAMES.0 label={&phrases::FIELD_FRAMES} placeholder=default_frames />
                </Show>
            </Show>
            <Show when=vision>
                <NumberField catalog=catalog workload=workload key=IMAGES.0 label={&phrases::FIELD_IMAGES_PER_REQUEST} placeholder=Signal::derive(|| "1".to_string()) />
                <NumberField catalog=catalog workload=workload key=IMAGE_SIDE.0 label={&phrases::FIELD_IMAGE_SIDE} placeholder=default_side />
            </Show>
            <Show when=move || job().clip>
                <NumberField catalog=catalog workload=workload key=CLIP_SECONDS.0 label={&phrases::FIELD_CLIP_SECONDS} placeholder=default_clip />
            </Show>
            // Denoising steps, or an audio generator's iterative steps.
            <Show when=move || hints.with(|h| !h.steps.is_empty())>
                <NumberField catalog=catalog workload=workload key=STEPS.0 label={&phrases::FIELD_STEPS} placeholder=default_steps />
            </Show>
            <Show when=move || job().batch.is_some()>
                <NumberField catalog=catalog workload=workload key=BATCH.0 label=Signal::derive(move || job().batch.unwrap_or(&phrases::FIELD_BATCH)) />
            </Show>
            <Show when=move || job().items.is_some()>
                <NumberField catalog=catalog workload=workload key=ITEMS.0 label=Signal::derive(move || job().items.unwrap_or(&phrases::FIELD_IMAGES)) />
            </Show>
            <Show when=move || job().hours.is_some()>
                <NumberField catalog=catalog workload=workload key=AUDIO_HOURS.0 label=Signal::derive(move || job().hours.unwrap_or(&phrases::FIELD_AUDIO_HOURS)) />
            </Show>
            <Show when=transcribing>
                <SelectField catalog=catalog workload=workload key=keys::TRANSCRIBER label={&phrases::FIELD_TRANSCRIBER} options={options::<Transcriber>(lang)} detail={option_detail::<Transcriber> as fn(&str, Lang) -> Option<String>} testid="transcriber-select" />
                <NumberField catalog=catalog workload=workload key=BEAMS.0 label={&phrases::FIELD_BEAMS} placeholder=default_beams />
            </Show>
            <Show when=generating>
                <SelectField catalog=catalog workload=workload key=keys::OFFLOAD label={&phrases::FIELD_OFFLOAD} options={options::<Offload>(lang)} detail={option_detail::<Offload> as fn(&str, Lang) -> Option<String>} testid="offload-select" />
                <SelectField catalog=catalog workload=workload key=keys::COMPILE label={&phrases::FIELD_COMPILATION} options={options::<Compilation>(lang)} detail={option_detail::<Compilation> as fn(&str, Lang) -> Option<String>} testid="compile-select" />
            </Show>
            <Show when=training>
                <Show when=finetuning>
                    <SelectField catalog=catalog workload=workload key=keys::METHOD label={&phrases::FIELD_METHOD} options={options::<FinetuneMethod>(lang)} detail={option_detail::<FinetuneMethod> as fn(&str, Lang) -> Option<String>} testid="method-select" />
                    <NumberField catalog=catalog workload=workload key=LORA_RANK.0 label={&phrases::FIELD_LORA_RANK} />
                </Show>
                <SelectField catalog=catalog workload=workload key=keys::OPTIMIZER label={&phrases::FIELD_OPTIMIZER} options={options::<Optimizer>(lang)} detail={option_detail::<Optimizer> as fn(&str, Lang) -> Option<String>} testid="optimizer-select" />
                <SelectField catalog=catalog workload=workload key=keys::RECIPE label={&phrases::FIELD_RECIPE} options={options::<TrainingRecipe>(lang)} detail={option_detail::<TrainingRecipe> as fn(&str, Lang) -> Option<String>} testid="recipe-select" />
                <SelectField catalog=catalog workload=workload key=keys::CROSS_ENTROPY label={&phrases::FIELD_CROSS_ENTROPY} options={options::<CrossEntropy>(lang)} detail={option_detail::<CrossEntropy> as fn(&str, Lang) -> Option<String>} testid="ce-select" />
                <NumberField catalog=catalog workload=workload key=TRAINING_TOKENS.0 label={&phrases::FIELD_TOKENS} />
                <NumberField catalog=catalog workload=workload key=EPOCHS.0 label={&phrases::FIELD_EPOCHS} />
                <NumberField catalog=catalog workload=workload key=SEQ_LEN.0 label={&phrases::FIELD_SEQ_LEN} />
                <NumberField catalog=catalog workload=workload key=MICRO_BATCH.0 label={&phrases::FIELD_MICRO_BATCH} />
                <NumberField catalog=catalog workload=workload key=GLOBAL_BATCH.0 label={&phrases::FIELD_GLOBAL_BATCH} placeholder=default_global_batch />
                <NumberField catalog=catalog workload=workload key=GPUS.0 label={&phrases::FIELD_GPUS} />
                <NumberField catalog=catalog workload=workload key=DEADLINE_DAYS.0 label={&phrases::FIELD_DEADLINE_DAYS} />
                <NumberField catalog=catalog workload=workload key=ZERO_STAGE.0 label={&phrases::FIELD_ZERO} />
                <NumberField catalog=catalog workload=workload key=TENSOR_PARALLEL.0 label={&phrases::FIELD_TENSOR_PARALLEL} />
                <NumberField catalog=catalog workload=workload key=PIPELINE_PARALLEL.0 label={&phrases::FIELD_PIPELINE} />
                <CheckboxField workload=workload label={&phrases::FIELD_CHECKPOINTING} />
                <NumberField catalog=catalog workload=workload key=CHECKPOINT_MINUTES.0 label={&phrases::FIELD_CHECKPOINT_EVERY} />
                <NumberField catalog=catalog workload=workload key=GOODPUT_PCT.0 label={&phrases::FIELD_GOODPUT} placeholder=Signal::derive(move || lang.t(&phrases::PLACEHOLDER_MODELLED).to_string()) />
            </Show>
            </div>
            // Folded on a phone, where its ten fields put the first result
            // 700 px further down (issue 40); open on wider screens.
            <details class="rental-options" open=!super::document::narrow_screen()>
            <summary>{lang.t(&phrases::RENTING)}</summary>
            <fieldset class="rental">
                <legend>{lang.t(&phrases::RENTING)}</legend>
                <Show when=serving fallback=move || view! {
                    <SelectField catalog=catalog workload=workload key=keys::OBJECTIVE label={&phrases::FIELD_OBJECTIVE} options=objectives(Task::Finetune) testid="objective-select" />
                }>
                    <SelectField catalog=catalog workload=workload key=keys::OBJECTIVE label={&phrases::FIELD_OBJECTIVE} options=objectives(Task::Infer) testid="objective-select" />
                </Show>
                <SelectField catalog=catalog workload=workload key=keys::SPOT label={&phrases::FIELD_SPOT} options={options::<SpotPolicy>(lang)} detail={option_detail::<SpotPolicy> as fn(&str, Lang) -> Option<String>} testid="spot-select" />
                <SelectField catalog=catalog workload=workload key=keys::PRICES label={&phrases::FIELD_PRICES} options={options::<PriceFilter>(lang)} detail={option_detail::<PriceFilter> as fn(&str, Lang) -> Option<String>} testid="prices-select" />
                <SelectField catalog=catalog workload=workload key=keys::PRICE_TRUST label={&phrases::FIELD_PRICE_TRUST} options={options::<PriceTrust>(lang)} detail={option_detail::<PriceTrust> as fn(&str, Lang) -> Option<String>} testid="trust-select" />
                <Show when=move || endpoint.get()>
                    <NumberField catalog=catalog workload=workload key=UPTIME_HOURS.0 label={&phrases::FIELD_UPTIME} />
                    <NumberField catalog=catalog workload=workload key=REQUESTS_PER_DAY.0 label={&phrases::FIELD_REQUESTS_PER_DAY} />
                    // Latency targets at a peak rate (issue 39): the traffic, then a
                    // preset of targets, or the user's own.
                    <NumberField catalog=catalog workload=workload key=PEAK_RPS.0 label={&phrases::FIELD_PEAK_RPS} />
                    <NumberField catalog=catalog workload=workload key=PEAK_FACTOR.0 label={&phrases::FIELD_PEAK_FACTOR} />
                    <NumberField catalog=catalog workload=workload key=PREFIX_HIT_PCT.0 label={&phrases::FIELD_PREFIX_HIT} />
                    <NumberField catalog=catalog workload=workload key=LENGTH_SPREAD_PCT.0 label={&phrases::FIELD_LENGTH_SPREAD} />
                    <SelectField catalog=catalog workload=workload key=keys::LATENCY_PRESET label={&phrases::FIELD_LATENCY_PRESET} options=Signal::derive(move || workload.with(|w| crate::present::form::latency_preset_options(w, lang))) detail={crate::present::form::latency_preset_detail as fn(&str, Lang) -> Option<String>} testid="slo-preset" />
                    <NumberField catalog=catalog workload=workload key=TTFT_TARGET.0 label={&phrases::FIELD_TTFT_TARGET} />
                    <NumberField catalog=catalog workload=workload key=ITL_TARGET.0 label={&phrases::FIELD_ITL_TARGET} />
                    <NumberField catalog=catalog workload=workload key=LATENCY_PERCENTILE.0 label={&phrases::FIELD_LATENCY_PERCENTILE} />
                    <SelectField catalog=catalog workload=workload key=keys::QUANTIZE label={&phrases::FIELD_QUANTIZE} options={options::<Quantize>(lang)} detail={option_detail::<Quantize> as fn(&str, Lang) -> Option<String>} testid="quantize-select" />
                </Show>
                <Show when=move || !endpoint.get()>
                    <NumberField catalog=catalog workload=workload key=RUNS_PER_MONTH.0 label={&phrases::FIELD_RUNS} />
                </Show>
                <NumberField catalog=catalog workload=workload key=MAX_PRICE_PER_HOUR.0 label={&phrases::FIELD_MAX_PRICE} />
                <NumberField catalog=catalog workload=workload key=MAX_GPUS.0 label={&phrases::FIELD_MAX_GPUS} />
                <NumberField catalog=catalog workload=workload key=keys::REGION label={&phrases::FIELD_REGION} input_type="text" />
                <NumberField catalog=catalog workload=workload key=keys::PROVIDERS label={&phrases::FIELD_PROVIDERS} input_type="text" />
                <SelectField catalog=catalog workload=workload key=keys::VENDOR label={&phrases::FIELD_VENDOR} options=vendors testid="vendor-select" />
                <NumberField catalog=catalog workload=workload key=keys::GPU label={&phrases::FIELD_GPU_FILTER} input_type="text" />
            </fieldset>
            </details>
            </div>
        </form>
    }
}

/// The attribute that marks a task tab, holding the task's URL value.
const TAB_TASK: &str = "data-task";

/// The task tabs: the WAI-ARIA Authoring Practices' tabs with automatic
/// activation (w3.org/WAI/ARIA/apg/patterns/tabs/). The tab list is one
/// tab stop; Left and Right (Up, Down, Home, End too) move among the tabs
/// and choose the one they reach, as a click does. The panel below holds
/// the fields of the chosen task.
#[component]
fn TaskTabs(catalog: &'static Catalog, workload: RwSignal<Workload>, task: Memo<Task>) -> impl IntoView {
    let lang = super::use_lang();
    // From a click, or the focus an arrow key moved; choosing the task
    // already chosen changes nothing.
    // Each tab keeps its own values while the page is open
    // (`present::form::switch_task`).
    let saved = StoredValue::new(Vec::<Workload>::new());
    let choose = move |ev: &web_sys::Event| {
        let Some(key) = roving_focus::item_value(ev, TAB_TASK) else { return };
        let Ok(to) = key.parse::<Task>() else { return };
        if task.get_untracked() == to {
            return;
        }
        let current = workload.get_untracked();
        let next = saved.with_value(|tabs| {
            let kept = tabs.iter().find(|w| w.task == to);
            crate::present::form::switch_task(&current, kept, to, catalog)
        });
        saved.update_value(|tabs| {
            tabs.retain(|w| w.task != current.task);
            tabs.push(current);
        });
        workload.set(next);
    };
    view! {
        <div
            role="tablist"
            class="task-tabs"
            aria-label=lang.t(&phrases::FIELD_TASK)
            on:click=move |ev| choose(&ev)
            on:focusin=move |ev| choose(&ev)
            on:keydown=|ev| roving_focus::move_focus(&ev, TAB_TASK)
        >
            {Task::ALL
                .iter()
                .map(|&tab| {
                    let chosen = move || task.get() == tab;
                    view! {
                        <button
                            type="button"
                            role="tab"
                            id=format!("tab-{}", tab.key())
                            data-task=tab.key()
                            aria-controls="task-panel"
                            aria-selected=move || if chosen() { "true" } else { "false" }
                            tabindex=move || if chosen() { "0" } else { "-1" }
                        >
                            {lang.t(crate::present::form::tab_label(tab))}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// The model picker: a search box over the models the task can use (a
/// native combobox, `<input list>` with a `<datalist>`, so browsers give it
/// their own list, keys and announcements), ending with "Custom model…".
/// - Choosing from the list, or typing a whole name or id, picks the model.
/// - Words that only one model matches pick it on Enter or on leaving the
///   field; a search that matches none, or several on leaving, says so
///   beside the field and keeps the model as it was (`crate::model_search`).
/// - The box empties when it takes the focus, so the browser lists every
///   model, with the current one as the hint; left empty, it shows the
///   current model again.
/// - A link's model that could not be applied stays in the box as the
///   link had it, with why beside it, until a model is picked (issue 41);
///   the page shows the model the notes name.
#[component]
fn ModelField(
    catalog: &'static Catalog,
    workload: RwSignal<Workload>,
    /// The picker's entries for the task.
    models: Memo<Vec<Entry>>,
    /// The link's model text the page could not apply, and why.
    unapplied: RwSignal<Option<(String, Msg)>>,
) -> impl IntoView {
    let lang = super::use_lang();
    let problem = RwSignal::new(unapplied.with_untracked(|kept| kept.as_ref().map(|(_, why)| why.render(lang))));
    // A memo: the box is rewritten only when the model changes, never over
    // a search being typed.
    let name = Memo::new(move |_| {
        workload.with(|w| {
            models
                .with(|entries| entries.iter().find(|e| e.id == w.model).map(|e| e.name.clone()))
                .unwrap_or_else(|| w.model.clone())
        })
    });
    let input = NodeRef::<leptos::html::Input>::new();
    // What the box holds, as it is typed (`done` false), and on Enter or on
    // leaving the field (`done` true):
    // - a whole name or id picks that model, and the box shows its name;
    // - words that only one model matches pick it when done;
    // - words that no model matches say so at once, several when done;
    // - an empty box shows the current model again when done.
    let settle = move |done: bool| {
        let Some(element) = input.get_untracked() else { return };
        let text = element.value();
        let found = models.with_untracked(|entries| search(entries, &text));
        if let Found::Exact(at) | Found::One(at) = found {
            if done || matches!(found, Found::Exact(_)) {
                let Entry { id, name, .. } = models.with_untracked(|entries| entries[at].clone());
                problem.set(None);
                unapplied.set(None);
                element.set_value(&name);
                if workload.with_untracked(|w| w.model != id) {
                    workload.update(|w| {
                        let _ = url_codec::apply(w, keys::MODEL, &id, catalog);
                    });
                }
                return;
            }
        }
        problem.set(match found {
            Found::None => Some(
                found_elsewhere(catalog, &text, workload.with_untracked(|w| w.task))
                    .unwrap_or_else(|| msg!(phrases::MODEL_NO_MATCH, search = echo(&text)))
                    .render(lang),
            ),
            Found::Several(count) if done => {
                Some(msg!(phrases::MODEL_SEVERAL_MATCH, count = count, search = echo(&text)).render(lang))
            }
            _ => None,
        });
        if done && found == Found::Nothing {
            unapplied.set(None);
            element.set_value(&name.get_untracked());
        }
    };
    let error_id = "model-error";
    // The picked model's parameters, context and KV cache per token.
    let facts = move || {
        workload.with(|w| {
            w.resolve_model(catalog)
                .map(|model| {
                    let said: Vec<String> = model_facts(&model).iter().map(|fact| fact.render(lang)).collect();
                    said.join(" · ")
                })
                .unwrap_or_default()
        })
    };
    view! {
        <label for="model">{lang.t(&phrases::FIELD_MODEL)}</label>
        <span class="field model-field">
            <input
                node_ref=input
                id="model"
                type="text"
                list="model-list"
                autocomplete="off"
                prop:value=move || {
                    unapplied.with(|kept| kept.as_ref().map(|(text, _)| text.clone())).unwrap_or_else(|| name.get())
                }
                placeholder=name
                aria-invalid=move || if problem.with(Option::is_some) { "true" } else { "false" }
                aria-describedby=error_id
                on:focus=move |_| {
                    if let Some(element) = input.get_untracked() {
                        if element.value() == name.get_untracked() {
                            element.set_value("");
                        }
                    }
                }
                on:input=move |_| settle(false)
                on:change=move |_| settle(true)
                on:blur=move |_| settle(true)
            />
            <datalist id="model-list">
                {option_list(
                    Signal::derive(move || models.with(|m| m.iter().map(|e| (e.id.clone(), e.name.clone())).collect())),
                    Signal::stored(String::new()),
                )}
            </datalist>
            <span class="field-error" id=error_id role="alert">{move || problem.get()}</span>
            <span class="model-facts" data-testid="model-facts">{facts}</span>
        </span>
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

/// A `<select>` for one workload field, its options as (URL value, label),
/// with the chosen option's whole label under it where the box shows it
/// cut short (`detail`, from `present::form::option_detail`).
#[component]
fn SelectField(
    catalog: &'static Catalog,
    workload: RwSignal<Workload>,
    key: &'static str,
    label: &'static Phrase,
    #[prop(into)] options: Signal<Vec<(String, String)>>,
    testid: &'static str,
    #[prop(optional)] detail: Option<fn(&str, Lang) -> Option<String>>,
) -> impl IntoView {
    let current = move || workload.with(|w| url_codec::value_of(w, key).unwrap_or_default());
    let lang = super::use_lang();
    // What the engine says of this field: a choice nothing in the offers
    // runs, with what would (present::support).
    let engine = use_context::<FieldProblem>();
    let said = move || {
        let FieldProblem(engine) = engine?;
        engine.with(|p| p.as_ref().filter(|(field, _)| *field == key).map(|(_, problem)| problem.render(lang)))
    };
    let note_id = format!("{key}-note");
    view! {
        <label for=key>{lang.t(label)}</label>
        <span class="field">
            <select
                id=key
                data-testid=testid
                prop:value=current
                aria-describedby=note_id.clone()
                on:change=move |ev| {
                    let value = event_target_value(&ev);
                    workload.update(|w| {
                        let _ = url_codec::apply(w, key, &value, catalog);
                    });
                }
            >
                {option_list(options, Signal::derive(current))}
            </select>
            <span class="field-hint" data-testid=format!("{testid}-detail")>
                {move || detail.and_then(|whole| whole(&current(), lang))}
            </span>
            <span class="field-error" id=note_id role="status" data-testid=format!("{testid}-note")>{said}</span>
        </span>
    }
}

/// The `<option>`s of a picker or a search box's list, as (value, label)
/// pairs; the one whose value `chosen` holds is selected. Not generic: the
/// pickers and the model's list share one copy of its code.
fn option_list(options: Signal<Vec<(String, String)>>, chosen: Signal<String>) -> impl IntoView {
    move || {
        let chosen = chosen.get_untracked();
        options
            .get()
            .into_iter()
            .map(|(value, text)| {
                let selected = value == chosen;
                view! { <option value=value selected=selected>{text}</option> }
            })
            .collect_view()
    }
}

/// The link's settings that could not be applied (`Decoded::unapplied`):
/// each number field shows its own as given, with why beside it, instead of
/// dropping it, until it is edited; the page's link keeps it as long
/// (`url_codec::keep_unapplied`).
#[derive(Clone, Copy)]
pub struct UnappliedValues(pub RwSignal<Vec<(String, String)>>);

impl UnappliedValues {
    /// The value the link gave `key`, if it could not be applied.
    fn of(self, key: &str) -> Option<String> {
        self.0.with_untracked(|all| all.iter().find(|(k, _)| k == key).map(|(_, given)| given.clone()))
    }

    /// `key`'s field was edited: the link's value is the user's no longer.
    fn edited(self, key: &str) {
        if self.0.with_untracked(|all| all.iter().any(|(k, _)| k == key)) {
            self.0.update(|all| all.retain(|(k, _)| k != key));
        }
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
    // Numbers show grouped and take shorthand ("2T", "10k"): a text input,
    // as a number input drops both.
    let numeric = input_type == "number";
    let shown_value = move |value: String| if numeric { crate::present::form::grouped(&value) } else { value };
    let unapplied = use_context::<UnappliedValues>();
    let kept = unapplied.and_then(|values| values.of(key));
    let initial = match &kept {
        Some(given) => {
            let mut probe = workload.get_untracked();
            if let Err(message) = url_codec::apply(&mut probe, key, given, catalog) {
                problem.set(Some(message.render(lang)));
            }
            given.clone()
        }
        None => shown_value(workload.with_untracked(|w| url_codec::value_of(w, key).unwrap_or_default())),
    };
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
                    element.set_value(&shown_value(value.clone()));
                    problem.set(None);
                    if let Some(values) = unapplied {
                        values.edited(key);
                    }
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
                type="text"
                placeholder=placeholder
                value=initial
                aria-invalid=move || if shown.with(Option::is_some) { "true" } else { "false" }
                aria-describedby=error_id.clone()
                on:input=move |ev| {
                    let value = event_target_value(&ev);
                    if let Some(values) = unapplied {
                        values.edited(key);
                    }
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

/// The fold "Import a model" in the form: its controls are drawn from the
/// page's second module (`super::later`) when it is first opened, and kept.
#[component]
pub fn ImportFold(catalog: &'static Catalog, workload: RwSignal<Workload>) -> impl IntoView {
    let lang = super::use_lang();
    let opened = RwSignal::new(false);
    view! {
        <details class="model-import" data-testid="model-import" on:toggle=move |_| opened.set(true)>
            <summary>{lang.t(&phrases::IMPORT_TITLE)}</summary>
            {move || opened.get().then(|| super::later::later(super::later::Later::ModelImport(super::model_import::ModelImportProps { catalog, workload })))}
        </details>
    }
}
