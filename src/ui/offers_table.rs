//! The ranked offers table.

use super::cost_chart::{CostChart, CostChartProps};
use crate::engine::{Catalog, Report, Snapshot};
use crate::msg;
use crate::text::{phrases, Arg, Msg, Phrase};
use leptos::prelude::*;
use leptos::tachys::html::attribute::custom::custom_attribute;
use std::sync::Arc;

/// Rows per page: the table renders one page at a time, so thousands of
/// offers cost no more to draw than fifty.
pub const PAGE_ROWS: usize = 25;

/// The offers that hold the workload, best first for the objective.
#[component]
pub fn OffersTable(catalog: &'static Catalog, snapshot: Arc<Snapshot>, report: Report) -> impl IntoView {
    let lang = super::use_lang();
    let report = Arc::new(report);
    let rows_listed = report.results.len();
    // Offers, not rows: an offer may be listed on-demand and spot.
    let mut offers: Vec<usize> = report.results.iter().map(|r| r.offer).collect();
    offers.sort_unstable();
    offers.dedup();
    let fitting = offers.len();
    let total = snapshot.offers.len();
    let by = lang.t(report.objective.label()).to_lowercase();
    let caption = if fitting == 0 {
        match &report.no_single_node {
            Some(note) => msg!(phrases::CAPTION_NONE_WITH_NOTE, total = total, note = note.clone()),
            None => msg!(phrases::CAPTION_NONE, total = total),
        }
    } else {
        msg!(phrases::CAPTION, fitting = fitting, total = total, by = by)
    }
    .render(lang);
    // The row the chart selected; its page is shown.
    let selected = RwSignal::new(None::<usize>);
    // The row whose cost breakdown is open.
    let expanded = RwSignal::new(None::<usize>);
    let (row_report, row_snapshot) = (Arc::clone(&report), Arc::clone(&snapshot));
    let render_row = move |index: usize| {
        let ranked = &row_report.results[index];
        let snapshot = &row_snapshot;
        {
            let offer = &snapshot.offers[ranked.offer];
            let gpu_name = catalog.gpu(&offer.gpu).map(|g| g.name.clone()).unwrap_or_else(|_| offer.gpu.clone());
            let provider = snapshot.provider(&offer.provider).map_or(offer.provider.clone(), |p| p.name.clone());
            // A reseller's offer names the cloud that runs it.
            let provider = match &offer.underlying_cloud {
                Some(cloud) => format!("{provider} · {cloud}"),
                None => provider,
            };
            let speed =
                ranked.speed.as_ref().and_then(|s| s.headline()).map_or(String::from("–"), |h| h.render(lang));
            let bound = ranked.speed.as_ref().map(|s| lang.t(s.bound.label()));
            let cost = ranked.cost.as_ref();
            let job = cost.map_or(String::from("–"), |c| lang.hours(c.job_hours));
            let billed =
                cost.map_or(String::new(), |c| msg!(phrases::BILLED, time = Arg::Hours(c.billed_hours)).render(lang));
            let total = cost.map_or(String::from("–"), |c| {
                let extras = if c.storage_cost.is_none() || c.egress_cost.is_none() { " +?" } else { "" };
                format!("{}{extras}", lang.usd(c.job_cost))
            });
            let per_unit = cost.map_or(String::from("–"), |c| {
                msg!(phrases::UNIT_COST, cost = Arg::Usd(c.cost_per_unit), unit = c.unit.label()).render(lang)
            });
            let badges =
                ranked.badges.iter().map(|b| view! { <span class="badge">{lang.t(b.label())}</span> }).collect_view();
            let row = NodeRef::<leptos::html::Tr>::new();
            // Brought into view when the chart selects it.
            Effect::new(move |_| {
                if selected.get() == Some(index) {
                    if let Some(element) = row.get() {
                        element.scroll_into_view();
                    }
                }
            });
            let is_open = move || expanded.get() == Some(index);
            let (detail_report, detail_snapshot) = (Arc::clone(&row_report), Arc::clone(snapshot));
            let details = move || {
                crate::export::row_breakdown(&detail_report.results[index], &detail_snapshot, lang)
                    .into_iter()
                    .map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> })
                    .collect_view()
            };
            view! {
                <tr data-testid="offer-row" node_ref=row class:pareto=ranked.pareto class:selected=move || selected.get() == Some(index)>
                    <td>
                        <button
                            type="button"
                            class="expand"
                            data-testid="expand-row"
                            aria-expanded=move || if is_open() { "true" } else { "false" }
                            aria-label=lang.t(&phrases::EXPAND_ROW)
                            on:click=move |_| expanded.update(|open| *open = if *open == Some(index) { None } else { Some(index) })
                        >
                            {move || if is_open() { "▾" } else { "▸" }}
                        </button>
                        " "
                        <span class="provider">{provider}</span>
                    </td>
                    <td>{offer.instance.clone()}</td>
                    <td>{msg!(phrases::GPU_COUNT, count = offer.gpu_count, gpu = gpu_name).render(lang)}</td>
                    <td class="num">{format!("{} GB", lang.number(offer.total_vram_gb(), 0))}</td>
                    <td title=offer.regions.join(", ")>{offer.regions_label(lang)}</td>
                    <td class="num" data-testid="offer-price">
                        {lang.usd(ranked.price_per_hour)}
                        {ranked.spot.then(|| view! { <span class="spot">{lang.t(&phrases::SPOT_TAG)}</span> })}
                    </td>
                    <td class="speed" data-testid="offer-speed">
                        {speed}
                        {bound.map(|bound| view! { <span class="bound">{bound}</span> })}
                    </td>
                    <td class="num" data-testid="offer-job">{job}<span class="bound">{billed}</span></td>
                    <td class="num" data-testid="offer-cost">{total}</td>
                    <td class="num" data-testid="offer-unit-cost">{per_unit}</td>
                    <td class="badges">
                        {ranked.pareto.then(|| view! { <span class="badge pareto" title=lang.t(&phrases::BADGE_PARETO_TITLE)>{lang.t(&phrases::BADGE_PARETO)}</span> })}
                        {badges}
                    </td>
                </tr>
                <Show when=is_open>
                    <tr class="details" data-testid="row-details">
                        <td colspan="11">
                            <dl class="breakdown">{details.clone()}</dl>
                        </td>
                    </tr>
                </Show>
            }
        }
    };
    // Sorting by a column reorders all rows; the table shows one page.
    let sorting = RwSignal::new(None::<(Column, bool)>);
    let page = RwSignal::new(0_usize);
    let sort_report = Arc::clone(&report);
    let order = Memo::new(move |_| {
        let mut order: Vec<usize> = (0..rows_listed).collect();
        if let Some((column, descending)) = sorting.get() {
            let key = |i: usize| column.key(&sort_report.results[i]).unwrap_or(f64::INFINITY);
            order.sort_by(|&a, &b| {
                let (ka, kb) = (key(a), key(b));
                // Rows without the figure stay last either way.
                match (ka.is_finite(), kb.is_finite()) {
                    (true, false) => std::cmp::Ordering::Less,
                    (false, true) => std::cmp::Ordering::Greater,
                    _ if descending => kb.total_cmp(&ka),
                    _ => ka.total_cmp(&kb),
                }
            });
        }
        order
    });
    // A row the chart selects is shown on its page.
    Effect::new(move |_| {
        if let Some(row) = selected.get() {
            if let Some(position) = order.with_untracked(|o| o.iter().position(|&i| i == row)) {
                page.set(position / PAGE_ROWS);
            }
        }
    });
    let pages = rows_listed.div_ceil(PAGE_ROWS).max(1);
    let rows = move || {
        let first = page.get() * PAGE_ROWS;
        order
            .with(|o| o.iter().skip(first).take(PAGE_ROWS).copied().collect::<Vec<_>>())
            .into_iter()
            .map(render_row.clone())
            .collect_view()
    };
    let pager = move || {
        (pages > 1).then(|| {
            let first = page.get() * PAGE_ROWS;
            let range = msg!(
                phrases::PAGE_ROWS,
                first = first + 1,
                last = (first + PAGE_ROWS).min(rows_listed),
                total = rows_listed
            )
            .render(lang);
            view! {
                <nav class="pager" data-testid="pager" aria-label=lang.t(&phrases::PAGER_LABEL)>
                    <button type="button" data-testid="page-previous" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>
                        "‹ " {lang.t(&phrases::PAGE_PREVIOUS)}
                    </button>
                    <span data-testid="page-range" aria-live="polite">{range}</span>
                    <button type="button" data-testid="page-next" disabled=move || { page.get() + 1 >= pages } on:click=move |_| page.update(|p| *p = (*p + 1).min(pages - 1))>
                        {lang.t(&phrases::PAGE_NEXT)} " ›"
                    </button>
                </nav>
            }
        })
    };
    let header = move |column: Column, label: &'static Phrase| {
        let state = move || sorting.get().filter(|(c, _)| *c == column).map(|(_, descending)| descending);
        view! {
            <th
                scope="col"
                class="num"
                aria-sort=move || match state() {
                    Some(true) => "descending",
                    Some(false) => "ascending",
                    None => "none",
                }
            >
                <button
                    type="button"
                    class="sort"
                    data-testid=format!("sort-{}", column.id())
                    on:click=move |_| {
                        sorting.set(Some((column, state() == Some(false))));
                        page.set(0);
                    }
                >
                    {lang.t(label)}
                    <span aria-hidden="true">{move || match state() { Some(true) => " ↓", Some(false) => " ↑", None => "" }}</span>
                </button>
            </th>
        }
    };
    // The chart draws after the frame that shows the table: a task queued
    // from the next animation frame runs once that frame is painted, so the
    // rows show first (an animation frame alone would run before the paint).
    let chart_ready = RwSignal::new(false);
    request_animation_frame(move || set_timeout(move || chart_ready.set(true), std::time::Duration::ZERO));
    let (chart_report, chart_snapshot) = (Arc::clone(&report), Arc::clone(&snapshot));
    let chart = move || {
        chart_ready.get().then(|| {
            CostChart(CostChartProps {
                report: Arc::clone(&chart_report),
                snapshot: Arc::clone(&chart_snapshot),
                selected,
            })
        })
    };
    let advice = report.advice.clone();
    // The exports, made on demand: every row, as CSV and as the CLI's
    // `rank --json` rows.
    let export_problem = RwSignal::new(None::<Msg>);
    let (csv_report, csv_snapshot) = (Arc::clone(&report), Arc::clone(&snapshot));
    let csv = move || crate::export::results_csv(&csv_report, &csv_snapshot);
    let (json_report, json_snapshot) = (Arc::clone(&report), Arc::clone(&snapshot));
    let json = move || {
        serde_json::to_string_pretty(&serde_json::json!({
            "snapshot": {"date": json_snapshot.snapshot_date, "offers": json_snapshot.offers.len()},
            "objective": json_report.objective,
            "results": crate::export::results_json(&json_report, &json_snapshot, "", usize::MAX),
            "advice": json_report.advice,
        }))
        .unwrap_or_default()
    };
    let excluded_count = report.excluded.len();
    let opened = RwSignal::new(false);
    let (excluded_report, excluded_snapshot) = (Arc::clone(&report), Arc::clone(&snapshot));
    // Offers left out, grouped by reason, the most common first; worked out
    // when the list is opened (hundreds of reasons to word).
    let excluded = move || {
        let mut groups: std::collections::BTreeMap<String, Vec<usize>> = std::collections::BTreeMap::new();
        for exclusion in &excluded_report.excluded {
            groups.entry(exclusion.reason.render(lang)).or_default().push(exclusion.offer);
        }
        let mut groups: Vec<(String, Vec<usize>)> = groups.into_iter().collect();
        groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
        groups
            .into_iter()
            .map(|(reason, offers)| {
                let examples: Vec<String> = offers
                    .iter()
                    .take(3)
                    .map(|&i| {
                        let offer = &excluded_snapshot.offers[i];
                        msg!(
                            phrases::EXCLUDED_EXAMPLE,
                            provider = &offer.provider,
                            instance = &offer.instance,
                            count = offer.gpu_count,
                            gpu = &offer.gpu
                        )
                        .render(lang)
                    })
                    .collect();
                let more = offers.len().saturating_sub(examples.len());
                let examples = if more > 0 {
                    msg!(phrases::EXAMPLES_AND_MORE, examples = examples.join(", "), more = more).render(lang)
                } else {
                    examples.join(", ")
                };
                view! {
                    <li>
                        <strong>{msg!(phrases::EXCLUDED_GROUP, count = offers.len()).render(lang)}</strong>
                        {reason}
                        <span class="examples">{format!(": {examples}")}</span>
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        {(!advice.is_empty()).then(|| view! {
            <ul class="advice" data-testid="advice">
                {advice.into_iter().map(|line| view! { <li>{line.render(lang)}</li> }).collect_view()}
            </ul>
        })}
        // The slot keeps the chart's height while it draws: no layout shift.
        {(rows_listed >= 2).then(|| view! { <div class="chart-slot">{chart.clone()}</div> })}
        <div class="table-scroll" tabindex="0" role="region" aria-label=lang.t(&phrases::TABLE_REGION)>
        <table class="offers" data-testid="offers-table">
            // Element Timing reports when the first result is painted (tests/e2e/bench-snapshot.mjs).
            {view! { <caption data-testid="offers-caption">{caption}</caption> }.add_any_attr(custom_attribute("elementtiming", "offers-caption"))}
            <thead>
                <tr>
                    <th scope="col">{lang.t(&phrases::COLUMN_PROVIDER)}</th>
                    <th scope="col">{lang.t(&phrases::COLUMN_INSTANCE)}</th>
                    <th scope="col">{lang.t(&phrases::COLUMN_GPUS)}</th>
                    <th scope="col" class="num">{lang.t(&phrases::COLUMN_VRAM)}</th>
                    <th scope="col">{lang.t(&phrases::COLUMN_REGIONS)}</th>
                    {header(Column::Price, &phrases::COLUMN_PRICE)}
                    {header(Column::Speed, &phrases::COLUMN_SPEED)}
                    {header(Column::JobTime, &phrases::COLUMN_JOB_TIME)}
                    {header(Column::JobCost, &phrases::COLUMN_JOB_COST)}
                    {header(Column::PerUnit, &phrases::COLUMN_PER_UNIT)}
                    <th scope="col">{lang.t(&phrases::COLUMN_NOTES)}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
        {pager}
        <p class="export">
            <button type="button" data-testid="export-csv" on:click=move |_| {
                if let Err(message) = super::download::download("whichgpu-offers.csv", "text/csv", &csv()) {
                    export_problem.set(Some(message));
                }
            }>{lang.t(&phrases::DOWNLOAD_CSV)}</button>
            " "
            <button type="button" data-testid="export-json" on:click=move |_| {
                if let Err(message) = super::download::download("whichgpu-offers.json", "application/json", &json()) {
                    export_problem.set(Some(message));
                }
            }>{lang.t(&phrases::DOWNLOAD_JSON)}</button>
            <span role="alert">{move || export_problem.get().map(|problem| problem.render(lang))}</span>
        </p>
        {(excluded_count > 0).then(|| view! {
            // The list is built when first opened: it can run to hundreds of groups.
            <details class="excluded" data-testid="excluded" on:toggle=move |_| opened.set(true)>
                <summary>{msg!(phrases::EXCLUDED_SUMMARY, count = excluded_count).render(lang)}</summary>
                <ul>{move || opened.get().then(&excluded)}</ul>
            </details>
        })}
        {report.results.first().and_then(|r| r.speed.as_ref()).map(|s| {
            view! {
                <p class="estimate-note" data-testid="speed-note">
                    {msg!(phrases::SPEED_NOTE, bound = s.bound.explanation()).render(lang)}
                </p>
            }
        })}
    }
}

/// The columns the table sorts by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Price,
    Speed,
    JobTime,
    JobCost,
    PerUnit,
}

impl Column {
    fn id(self) -> &'static str {
        match self {
            Column::Price => "price",
            Column::Speed => "speed",
            Column::JobTime => "job",
            Column::JobCost => "cost",
            Column::PerUnit => "unit",
        }
    }

    /// The figure sorted on, smaller first; speed as time per unit of work
    /// (seconds per token for each request, per trained token, per image,
    /// per clip, per second of audio), so faster sorts first.
    fn key(self, row: &crate::engine::RankedOffer) -> Option<f64> {
        let cost = row.cost.as_ref();
        match self {
            Column::Price => Some(row.price_per_hour),
            Column::Speed => {
                let s = row.speed.as_ref()?;
                s.decode_tokens_per_s
                    .or(s.train_tokens_per_s)
                    .map(|rate| 1.0 / rate)
                    .or(s.seconds_per_image)
                    .or(s.seconds_per_clip)
                    .or(s.realtime_factor)
            }
            Column::JobTime => cost.map(|c| c.job_hours),
            Column::JobCost => cost.map(|c| c.job_cost),
            Column::PerUnit => cost.map(|c| c.cost_per_unit),
        }
    }
}
