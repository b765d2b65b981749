//! The ranked offers table.

use super::cost_chart::{CostChart, CostChartProps};
use crate::engine::cost::hours_label;
use crate::engine::{Catalog, Report, Snapshot};
use leptos::prelude::*;
use std::sync::Arc;

/// How many rows the table shows before "show more" (issue 7 virtualises).
pub const VISIBLE_ROWS: usize = 50;

/// The offers that hold the workload, best first for the objective.
#[component]
pub fn OffersTable(catalog: &'static Catalog, snapshot: Arc<Snapshot>, report: Report) -> impl IntoView {
    let report = Arc::new(report);
    let rows_listed = report.results.len();
    // Offers, not rows: an offer may be listed on-demand and spot.
    let mut offers: Vec<usize> = report.results.iter().map(|r| r.offer).collect();
    offers.sort_unstable();
    offers.dedup();
    let fitting = offers.len();
    let total = snapshot.offers.len();
    let shown = rows_listed.min(VISIBLE_ROWS);
    let by = report.objective.label().to_lowercase();
    let caption = if fitting == 0 {
        match &report.no_single_node {
            Some(note) => format!("None of the {total} offers holds this workload. {note}"),
            None => format!("None of the {total} offers holds this workload."),
        }
    } else if rows_listed > shown {
        format!("{fitting} of {total} offers hold this workload; the {shown} best rows, {by}:")
    } else {
        format!("{fitting} of {total} offers hold this workload, {by}:")
    };
    // The row the chart selected; one past the first rows is shown too.
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
            let (speed, bound) = ranked.speed.as_ref().map_or((String::from("–"), String::new()), |s| {
                (s.headline(), format!("{:?}", s.bound).to_lowercase())
            });
            let cost = ranked.cost.as_ref();
            let job = cost.map_or(String::from("–"), |c| hours_label(c.job_hours));
            let billed = cost.map_or(String::new(), |c| format!("billed {}", hours_label(c.billed_hours)));
            let total = cost.map_or(String::from("–"), |c| {
                let extras = if c.storage_cost.is_none() || c.egress_cost.is_none() { " +?" } else { "" };
                format!("{}{extras}", dollars(c.job_cost))
            });
            let per_unit =
                cost.map_or(String::from("–"), |c| format!("{} / {}", dollars(c.cost_per_unit), c.unit.label()));
            let badges = ranked.badges.iter().map(|b| view! { <span class="badge">{b.label()}</span> }).collect_view();
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
                crate::export::row_breakdown(&detail_report.results[index], &detail_snapshot)
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
                            aria-label="Cost breakdown and reasons"
                            on:click=move |_| expanded.update(|open| *open = if *open == Some(index) { None } else { Some(index) })
                        >
                            {move || if is_open() { "▾" } else { "▸" }}
                        </button>
                        " "
                        <span class="provider">{provider}</span>
                    </td>
                    <td>{offer.instance.clone()}</td>
                    <td>{format!("{}× {gpu_name}", offer.gpu_count)}</td>
                    <td class="num">{format!("{:.0} GB", offer.total_vram_gb())}</td>
                    <td title=offer.regions.join(", ")>{offer.regions_label()}</td>
                    <td class="num" data-testid="offer-price">
                        {format!("${:.2}", ranked.price_per_hour)}
                        {ranked.spot.then(|| view! { <span class="spot">"spot"</span> })}
                    </td>
                    <td class="speed" data-testid="offer-speed">
                        {speed}
                        {(!bound.is_empty()).then(|| view! { <span class="bound">{format!("{bound}-bound")}</span> })}
                    </td>
                    <td class="num" data-testid="offer-job">{job}<span class="bound">{billed}</span></td>
                    <td class="num" data-testid="offer-cost">{total}</td>
                    <td class="num" data-testid="offer-unit-cost">{per_unit}</td>
                    <td class="badges">
                        {ranked.pareto.then(|| view! { <span class="badge pareto" title="Nothing else is both cheaper and faster">"best trade-off"</span> })}
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
    // Sorting by a column reorders all rows, then shows the first ones.
    let sorting = RwSignal::new(None::<(Column, bool)>);
    let sort_report = Arc::clone(&report);
    let rows = move || {
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
        let mut indices: Vec<usize> = order.into_iter().take(shown).collect();
        if let Some(extra) = selected.get().filter(|i| !indices.contains(i) && *i < rows_listed) {
            indices.push(extra);
        }
        indices.into_iter().map(render_row.clone()).collect_view()
    };
    let header = move |column: Column, label: &'static str| {
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
                    on:click=move |_| sorting.set(Some((column, state() == Some(false))))
                >
                    {label}
                    <span aria-hidden="true">{move || match state() { Some(true) => " ↓", Some(false) => " ↑", None => "" }}</span>
                </button>
            </th>
        }
    };
    // The chart draws a frame after the table, so the rows show first.
    let chart_ready = RwSignal::new(false);
    request_animation_frame(move || chart_ready.set(true));
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
    let export_problem = RwSignal::new(None::<String>);
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
    // Offers left out, grouped by reason, the most common first.
    let mut groups: std::collections::BTreeMap<&str, Vec<usize>> = std::collections::BTreeMap::new();
    for exclusion in &report.excluded {
        groups.entry(exclusion.reason.as_str()).or_default().push(exclusion.offer);
    }
    let mut groups: Vec<(String, Vec<usize>)> = groups.into_iter().map(|(r, o)| (r.to_string(), o)).collect();
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    let excluded_count = report.excluded.len();
    let opened = RwSignal::new(false);
    let excluded_snapshot = Arc::clone(&snapshot);
    let excluded = move || {
        groups
            .clone()
            .into_iter()
            .map(|(reason, offers)| {
                let examples: Vec<String> = offers
                    .iter()
                    .take(3)
                    .map(|&i| {
                        let offer = &excluded_snapshot.offers[i];
                        format!("{} {} ({}× {})", offer.provider, offer.instance, offer.gpu_count, offer.gpu)
                    })
                    .collect();
                let more = offers.len().saturating_sub(examples.len());
                let examples =
                    if more > 0 { format!("{} and {more} more", examples.join(", ")) } else { examples.join(", ") };
                view! {
                    <li>
                        <strong>{format!("{} × ", offers.len())}</strong>
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
                {advice.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}
            </ul>
        })}
        // The slot keeps the chart's height while it draws: no layout shift.
        {(rows_listed >= 2).then(|| view! { <div class="chart-slot">{chart.clone()}</div> })}
        <div class="table-scroll" tabindex="0" role="region" aria-label="Ranked offers (scrolls sideways)">
        <table class="offers" data-testid="offers-table">
            <caption data-testid="offers-caption">{caption}</caption>
            <thead>
                <tr>
                    <th scope="col">"Provider"</th>
                    <th scope="col">"Instance"</th>
                    <th scope="col">"GPUs"</th>
                    <th scope="col" class="num">"VRAM"</th>
                    <th scope="col">"Regions"</th>
                    {header(Column::Price, "$/h")}
                    {header(Column::Speed, "Speed (estimate)")}
                    {header(Column::JobTime, "Job time")}
                    {header(Column::JobCost, "Job cost")}
                    {header(Column::PerUnit, "Per unit")}
                    <th scope="col">"Notes"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
        <p class="export">
            <button type="button" data-testid="export-csv" on:click=move |_| {
                if let Err(message) = super::download::download("whichgpu-offers.csv", "text/csv", &csv()) {
                    export_problem.set(Some(message));
                }
            }>"Download CSV"</button>
            " "
            <button type="button" data-testid="export-json" on:click=move |_| {
                if let Err(message) = super::download::download("whichgpu-offers.json", "application/json", &json()) {
                    export_problem.set(Some(message));
                }
            }>"Download JSON"</button>
            <span role="alert">{move || export_problem.get()}</span>
        </p>
        {(excluded_count > 0).then(|| view! {
            // The list is built when first opened: it can run to hundreds of groups.
            <details class="excluded" data-testid="excluded" on:toggle=move |_| opened.set(true)>
                <summary>{format!("{excluded_count} offers left out, and why")}</summary>
                <ul>{move || opened.get().then(&excluded)}</ul>
            </details>
        })}
        {report.results.first().and_then(|r| r.speed.as_ref()).map(|s| {
            view! {
                <p class="estimate-note" data-testid="speed-note">
                    {format!("Speeds are estimates from each GPU's datasheet bandwidth and throughput. The first offer is {}", s.bound.explanation())}
                    "."
                </p>
            }
        })}
    }
}

/// "$0.042", "$3.50", "$1,234".
fn dollars(amount: f64) -> String {
    if amount < 1.0 {
        format!("${amount:.3}")
    } else if amount < 1000.0 {
        format!("${amount:.2}")
    } else {
        let whole = format!("{amount:.0}");
        let mut grouped = String::new();
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                grouped.push(',');
            }
            grouped.push(digit);
        }
        format!("${grouped}")
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
