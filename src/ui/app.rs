//! The page: the workload form, the memory it needs, and the offers, in
//! the reader's language.

use super::later::{self, later, Later};
use super::page_header::{page_header, Copied};
use super::ranked::Ranked;
use super::snapshot_info::SnapshotInfoProps;
use super::snapshot_loader::load_snapshot;
use super::workload_form::FieldProblem;
use super::your_gpu::YourGpuProps;
use super::{document, embed_host, url_state, MemoryBar, OffersTable, WorkloadForm};
use crate::engine::freshness::stale_notice;
use crate::engine::local_run::run_locally;
use crate::engine::memory::estimate;
use crate::engine::serving_plan::Targets;
use crate::engine::{rank_with, Catalog, Terms};
use crate::msg;
use crate::present::memory::memory_summary;
use crate::present::support::support_hint;
use crate::present::your_gpu::Detected;
use crate::text::{phrases, Lang, Msg};
use crate::units::BYTES_PER_DECIMAL_GB;
use crate::url_codec;
use leptos::prelude::*;
use std::sync::Arc;

/// How long after the last edit the address bar is updated.
const URL_UPDATE_DELAY: std::time::Duration = std::time::Duration::from_millis(150);

/// How long after the offers load the service worker is registered: its
/// downloads start after the first result is painted and the probe ran.
const OFFLINE_DELAY: std::time::Duration = std::time::Duration::from_millis(1000);

#[component]
pub fn App(
    /// The GPUs and models (`snapshot_loader::load_catalog`), or why they
    /// could not be read.
    catalog: Result<&'static Catalog, Msg>,
) -> impl IntoView {
    match catalog {
        Ok(catalog) => view! { <Calculator catalog=catalog /> }.into_any(),
        Err(message) => {
            // Without a catalog the link cannot be read, save its language.
            let lang = document::page_lang();
            view! {
                <div role="alert" class="error" data-testid="catalog-error">
                    <p>{message.render(lang)}</p>
                    <button type="button" on:click=|_| url_state::reload()>{lang.t(&phrases::RETRY)}</button>
                </div>
            }
            .into_any()
        }
    }
}

/// When a folded form is built if the first result has not come by then.
const FOLDED_FORM_AT_LATEST: std::time::Duration = std::time::Duration::from_millis(2000);

/// The calculator once the bundled catalog is available.
#[component]
fn Calculator(catalog: &'static Catalog) -> impl IntoView {
    // The URL is the state: start from the link, write every change back.
    let decoded = url_codec::decode(&url_state::current_query(), catalog);
    let notes = decoded.notes;
    // The link's values that could not be applied stay in their fields.
    let unapplied = RwSignal::new(decoded.unapplied);
    provide_context(super::workload_form::UnappliedValues(unapplied));
    // Embedded in another page (`embed=1`): no page chrome, the form
    // folded as the link says, the top offers, and height messages.
    let embed = decoded.embed;
    // The offer the link points at, and then the one the user selects.
    let selected_offer = RwSignal::new(decoded.offer);
    // "Your GPU": the one the visitor chose (URL `mygpu`), what the probe
    // found, and a bandwidth measured on request.
    let my_gpu = RwSignal::new(decoded.my_gpu);
    let detected = RwSignal::new(None::<Detected>);
    let measured = RwSignal::new(None);
    let compared = Signal::derive(move || {
        my_gpu.get().or_else(|| detected.with(|d| d.as_ref().and_then(|d| d.exact().map(String::from))))
    });
    // A measurement times this machine's GPU, so it applies only when the
    // probe found real hardware.
    let measured_gbps = move || {
        let hardware = detected.with(|d| d.as_ref().is_some_and(Detected::hardware));
        measured.with(|m: &Option<Result<super::gpu_probe::Bandwidth, String>>| {
            m.as_ref().and_then(|r| r.as_ref().ok()).filter(|_| hardware).map(|b| b.bytes_per_s / BYTES_PER_DECIMAL_GB)
        })
    };
    let workload = RwSignal::new(decoded.workload);
    let unapplied_model = RwSignal::new(decoded.unapplied_model);
    // The language the link or the switcher chose; else the browser's.
    let chosen = RwSignal::new(decoded.lang);
    let browser = Lang::preferred(document::preferred_languages().iter().map(String::as_str));
    // Spanish shows once its words are in (`text::spanish`): a page opened
    // in Spanish waited for them; a switch to it loads them first.
    let spanish_in = RwSignal::new(crate::text::spanish::installed());
    let lang = Memo::new(move |_| match chosen.get().unwrap_or(browser) {
        Lang::Es if !spanish_in.get() => Lang::En,
        wanted => wanted,
    });
    Effect::new(move |_| {
        if chosen.get().unwrap_or(browser) == Lang::Es && !spanish_in.get_untracked() {
            leptos::task::spawn_local(async move {
                if super::snapshot_loader::load_spanish().await {
                    spanish_in.set(true);
                }
            });
        }
    });
    // The address bar follows a moment after the last edit: replaceState
    // costs a millisecond or two per call, and Chromium limits how often a
    // page may call it, so typing does not pay for it per keystroke.
    // The page's query: the workload, the selected offer and the language.
    // The link's values that could not be applied stay in it until their
    // fields are edited (issue 39).
    let page_query = move || {
        let query = workload.with(|w| {
            selected_offer.with(|o| my_gpu.with(|g| url_codec::encode_link(w, o.as_ref(), g.as_deref(), chosen.get())))
        });
        unapplied_model.with(|model| {
            unapplied
                .with(|kept| url_codec::keep_unapplied(query, model.as_ref().map(|(given, _)| given.as_str()), kept))
        })
    };
    let latest_query = StoredValue::new(0_u64);
    Effect::new(move |_| {
        url_state::schedule(page_query());
        let generation = latest_query.get_value() + 1;
        latest_query.set_value(generation);
        // Tests wait for a `url` measure after the last `url-scheduled` mark.
        super::timing::mark("url-scheduled");
        set_timeout(
            move || {
                if latest_query.get_value() == generation {
                    super::timing::measure("url", url_state::flush);
                }
            },
            URL_UPDATE_DELAY,
        );
    });
    Effect::new(move |_| document::show_language(lang.get()));
    // The full page of this state: "Open in whichgpu", and what an
    // embedded page tells its host.
    let full_link = move || url_state::link_with(&page_query());
    if embed.is_some() {
        embed_host::start();
        Effect::new(move |_| embed_host::set_state_url(full_link()));
    }

    let snapshot = LocalResource::new(load_snapshot);
    // Offline after this visit: the service worker, once the offers are in.
    Effect::new(move |registered: Option<bool>| {
        let loaded = snapshot.with(|s| matches!(s, Some(Ok(_))));
        if loaded && registered != Some(true) {
            set_timeout(super::offline::register, OFFLINE_DELAY);
        }
        loaded || registered == Some(true)
    });
    // The link of what is on screen now, not the address bar, which
    // follows edits a moment later.
    let full_link_now = move || untrack(full_link);
    // "Embed": the iframe and the few lines that size it, for this state,
    // its form folded so that a documentation column shows the offers
    // first (issue 40).
    let snippet_open = RwSignal::new(false);
    let embed_snippet = move || {
        let src = url_state::link_with(
            &workload.with(|w| url_codec::encode_embed(w, chosen.get(), url_codec::Embed { form_open: false })),
        );
        embed_host::snippet(&src)
    };
    // What "Copy link" did: copied, or the link to copy by hand.
    let copied = RwSignal::new(None::<Copied>);
    // An edit makes the copied link old news.
    Effect::new(move |previous: Option<()>| {
        workload.track();
        if previous.is_some() && copied.get_untracked().is_some() {
            copied.set(None);
        }
    });
    let memory =
        Memo::new(move |_| workload.with(|w| w.resolve_model(catalog).and_then(|m| estimate(w, &m, w.planned_gpus()))));
    // A problem with one field also shows beside that field; so does a
    // weights format or runtime nothing in the offers runs (issue 23).
    let field_problem = Memo::new(move |_| {
        memory.with(|m| m.as_ref().err().and_then(|e| e.field().map(|f| (f, e.problem())))).or_else(|| {
            snapshot.with(|s| match s {
                Some(Ok(offers)) => workload.with(|w| support_hint(w, catalog, offers)),
                _ => None,
            })
        })
    });
    provide_context(FieldProblem(field_problem.into()));
    // A folded form (a phone's, an embedded page's) is built once the first
    // result is painted, or when it is opened first: its fields are the
    // largest view the page builds, and folded they show nothing (issue 38).
    let folded = match embed {
        None => super::document::narrow_screen(),
        Some(embedded) => !embedded.form_open,
    };
    let form_built = RwSignal::new(!folded);
    // Once: a signal set again wakes its readers, which would build the
    // form anew on every toggle of its fold.
    let build_form = move || {
        if form_built.try_get_untracked() == Some(false) {
            form_built.set(true);
        }
    };
    if folded {
        Effect::new(move |settled: Option<bool>| {
            if settled == Some(true) {
                return true;
            }
            let settled = snapshot.with(Option::is_some);
            if settled {
                super::after_next_paint(build_form);
            }
            settled
        });
        // Offers that never arrive do not keep the form from the visitor.
        set_timeout(build_form, FOLDED_FORM_AT_LATEST);
    }
    // An open form is built in place, with the page: inserted field by
    // field into an open <details> instead, its slot changed hundreds of
    // times before the first result (a `slotchange` event each, 312 -> 507
    // in a trace of the first load).
    let workload_form = move || {
        let form = move || view! { <WorkloadForm catalog=catalog workload=workload unapplied_model=unapplied_model /> };
        match folded {
            false => form().into_any(),
            true => (move || form_built.get().then(form)).into_any(),
        }
    };

    // Everything below speaks one language; switching it draws the page
    // again from the same workload, so nothing typed is lost.
    move || {
        let lang = lang.get();
        provide_context(lang);
        let notes = notes.clone();
        let form = match embed {
            // Folded on a phone, so that the memory line and the first
            // offers come first; its line says what it holds (issue 40).
            None => view! {
                <details class="workload-fold" open=!folded on:toggle=move |_| build_form()>
                    <summary data-testid="workload-fold">
                        {move || workload.with(|w| crate::present::form::folded_workload(w, catalog, lang))}
                    </summary>
                    {workload_form()}
                </details>
            }
            .into_any(),
            Some(embedded) => view! {
                <details class="embed-form" open=embedded.form_open on:toggle=move |_| build_form()>
                    <summary>{lang.t(&phrases::EMBED_WORKLOAD)}</summary>
                    {workload_form()}
                </details>
            }
            .into_any(),
        };
        view! {
            {embed.is_none().then(|| page_header(lang, copied, snippet_open, chosen, full_link_now))}
            {move || (embed.is_none() && snippet_open.get()).then(|| view! {
                <label class="embed-snippet">
                    {lang.t(&phrases::EMBED_SNIPPET)}
                    <textarea readonly rows="4" data-testid="embed-snippet">{embed_snippet()}</textarea>
                </label>
            })}
            <main class:embedded=embed.is_some()>
                {embed.map(|_| view! {
                    <p class="embed-bar">
                        <strong>"whichgpu"</strong>
                        " "
                        <a href=full_link target="_blank" rel="noopener" data-testid="open-full">{lang.t(&phrases::OPEN_FULL)}</a>
                    </p>
                })}
                {(!notes.is_empty())
                    .then(|| {
                        view! {
                            <ul class="notes" data-testid="url-notes" role="status">
                                {notes.into_iter().map(|n| view! { <li>{n.message.render(lang)}</li> }).collect_view()}
                            </ul>
                        }
                    })}
                {form}
                <p class="memory" data-testid="memory-summary">
                    {move || match memory.get() {
                        Ok(m) => memory_summary(&m, lang),
                        Err(e) => e.message().render(lang),
                    }}
                </p>
                {move || memory.get().ok().filter(|_| embed.is_none()).map(|m| view! { <MemoryBar memory=m /> })}
                <section class="results" data-testid="results" aria-live="polite">
                    {move || match snapshot.get() {
                        None => view! { <p class="loading" data-testid="loading">{lang.t(&phrases::LOADING)}</p> }.into_any(),
                        Some(Err(message)) => {
                            results_drawn();
                            view! {
                                <div role="alert" class="error" data-testid="load-error">
                                    <p>{message.render(lang)}</p>
                                    <button type="button" on:click=move |_| snapshot.refetch()>{lang.t(&phrases::RETRY)}</button>
                                </div>
                            }
                                .into_any()
                        }
                        Some(Ok(snapshot)) => {
                            results_drawn();
                            let (info, table_snapshot, local_snapshot) = (snapshot.clone(), snapshot.clone(), snapshot.clone());
                            // Past 30 days, how old the prices are, above everything
                            // they decide (issue 27).
                            let stale = stale_notice(&snapshot.snapshot_date, super::clock::days_today()).map(|notice| {
                                view! { <p class="stale" role="note" data-testid="stale-prices">{notice.render(lang)}</p> }
                            });
                            // What every ranking of this snapshot shares, built once.
                            // The copy of the first result drawn before the page ranked
                            // these offers already (first_copy.rs).
                            let terms = super::first_copy::terms().unwrap_or_else(|| Arc::new(Terms::of(&snapshot)));
                            // Latency targets are planned by the serving planner, which
                            // comes with the second module (issue 39): a link that sets
                            // them ranks again once it is in.
                            let planner_in = RwSignal::new(terms.plans());
                            let asked = StoredValue::new(false);
                            let planned_terms = terms.clone();
                            Effect::new(move |_| {
                                if workload.with(|w| Targets::of(w).is_some()) && !asked.get_value() {
                                    asked.set_value(true);
                                    let terms = planned_terms.clone();
                                    leptos::task::spawn_local(async move {
                                        if let Some(planner) = later::planner().await {
                                            terms.plan_with(planner);
                                            let _ = planner_in.try_set(true);
                                        }
                                    });
                                }
                            });
                            // Planning every offer to latency targets takes a few hundred
                            // milliseconds in a browser (tests/e2e/bench-rank.mjs): the page
                            // says so in a frame of its own first, then ranks a step of offers
                            // at a time, saying how far it is (`planning`). Other edits rank
                            // at once; the latest edit wins.
                            let to_rank = RwSignal::new(workload.get_untracked());
                            let planned = RwSignal::new(None::<Result<Ranked, Msg>>);
                            let planning = RwSignal::new(None::<(usize, usize)>);
                            let edits = StoredValue::new(0_u64);
                            let (step_snapshot, step_terms) = (snapshot.clone(), terms.clone());
                            Effect::new(move |_| {
                                let next = workload.get();
                                let edit = edits.get_value() + 1;
                                edits.set_value(edit);
                                if !(planner_in.get() && Targets::of(&next).is_some()) {
                                    planning.set(None);
                                    if planned.with_untracked(Option::is_some) {
                                        planned.set(None);
                                    }
                                    // Not the same workload again (the effect's first run):
                                    // the first result is ranked once.
                                    if to_rank.with_untracked(|w| *w != next) {
                                        to_rank.set(next);
                                    }
                                    return;
                                }
                                planning.set(Some((0, step_snapshot.offers.len())));
                                let (snapshot, terms) = (step_snapshot.clone(), step_terms.clone());
                                leptos::task::spawn_local(async move {
                                    let latest = move || edits.try_get_value() == Some(edit);
                                    super::next_paint().await;
                                    if !latest() {
                                        return;
                                    }
                                    let said = |done, of| latest() && planning.try_set(Some((done, of))).is_none();
                                    let Some(result) = super::planning::rank_in_steps(&next, catalog, &snapshot, &terms, said).await else {
                                        return;
                                    };
                                    if latest() {
                                        let _ = planned.try_set(Some(result));
                                        let _ = planning.try_set(None);
                                    }
                                });
                            });
                            // Ranks what `to_rank` holds, unless a ranking planned to
                            // latency targets came in for the workload (above).
                            let ranked = Memo::new(move |_| {
                                if let Some(done) = planned.get() {
                                    return done;
                                }
                                to_rank.with(|w| super::timing::measure("rank", || match super::first_copy::take_report(w) {
                                    Some(report) => Ok(report),
                                    None => rank_with(w, catalog, &snapshot, &terms),
                                }))
                                    .map(|report| Ranked(Arc::new(report)))
                                    .map_err(|e| e.message())
                            });
                            // The table stays while rankings succeed and follows each one.
                            let current = Memo::new(move |_| ranked.with(|r| r.as_ref().ok().cloned()));
                            // The workload on the visitor's GPU (about a tenth of a
                            // millisecond), derived where it is read: three memos,
                            // the table row's words and the verdict card's, and
                            // whether the row shows.
                            let local = Signal::derive(move || {
                                let gpu = compared.get()?;
                                let Ranked(report) = current.get()?;
                                Some(workload.with(|w| {
                                    run_locally(w, catalog, &local_snapshot, &report, &gpu, measured_gbps())
                                        .map_err(|e| e.message())
                                }))
                            });
                            let local_row = Signal::derive(move || local.get().and_then(Result::ok));
                            let ranking_works = Memo::new(move |_| current.with(Option::is_some));
                            let table = move || {
                                ranking_works.get().then(|| {
                                    let report = Signal::derive(move || current.get().unwrap_or_else(Ranked::none));
                                    view! { <OffersTable catalog=catalog snapshot=table_snapshot.clone() report=report compact=embed.is_some() selected_offer=selected_offer local=local_row /> }
                                })
                            };
                            // Said once: when the workload cannot be sized at all,
                            // the memory line above already says why.
                            let failure = move || {
                                if memory.with(Result::is_err) {
                                    return None;
                                }
                                ranked.with(|r| r.as_ref().err().map(|e| e.render(lang)))
                                    .map(|message| view! { <p role="alert" class="error">{message}</p> })
                            };
                            // "Your GPU" is drawn once the first result is on screen:
                            // its picker lists the whole catalog, and its probe waits
                            // for that frame anyway.
                            let your_gpu = embed.is_none().then(|| {
                                let drawn = RwSignal::new(false);
                                super::after_next_paint(move || {
                                    let _ = drawn.try_set(true);
                                });
                                move || drawn.get().then(|| later(Later::YourGpu(YourGpuProps { catalog, chosen: my_gpu, detected, measured, compared, run: local })))
                            });
                            // The cheapest hosted API beside renting (issue 39).
                            let hosted = embed.is_none().then(|| {
                                later(Later::HostedApi(later::HostedApiProps {
                                    workload: workload.into(),
                                    report: current.into(),
                                    catalog,
                                    snapshot_date: info.snapshot_date.clone(),
                                    lang,
                                }))
                            });
                            // Its line is kept while targets are set, so that the table
                            // does not move when it shows.
                            let planning_note = move || workload.with(|w| Targets::of(w).is_some()).then(|| view! {
                                <p class="planning" role="status" data-testid="planning">
                                    {move || planning.get().map(|(done, offers)| match done {
                                        0 => lang.t(&phrases::PLANNING).to_string(),
                                        _ => msg!(phrases::PLANNING_PROGRESS, done = done, offers = offers).render(lang),
                                    })}
                                </p>
                            });
                            view! {
                                {stale}
                                {failure}
                                {planning_note}
                                {table}
                                {hosted}
                                {your_gpu}
                                {later(Later::SnapshotInfo(SnapshotInfoProps { snapshot: info }))}
                            }
                                .into_any()
                        }
                    }}
                </section>
            </main>
        }
    }
}

/// In the task that draws the first result or its error: the copy of the
/// first result drawn at build time goes, in the same frame (document.rs),
/// and the second module may come after that frame (later.rs).
fn results_drawn() {
    document::remove_prerender();
    later::result_drawn();
}
