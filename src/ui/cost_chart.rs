//! Cost against speed for the ranked offers, on log scales, with the Pareto
//! frontier drawn through the offers nothing beats on both. Hovering or
//! focusing a point shows the offer in a tip beside it (Escape hides it);
//! clicking selects its row in the table. From the keyboard the points are
//! one tab stop: the arrow keys go from the fastest to the slowest, and
//! Enter or Space selects.

use super::roving_focus;
use crate::engine::{Catalog, Report, Snapshot, Task};
use crate::msg;
use crate::text::{phrases, Lang};
use leptos::prelude::*;
use std::sync::Arc;

/// Points drawn at most: the best rows for the objective (every point is an
/// element with its label, so this bounds the work after the first result).
const MAX_POINTS: usize = 200;

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 260.0;
const MARGIN: f64 = 48.0;
/// Room left of the cost axis for its labels ("2,30 US$" is the longest).
const LEFT: f64 = 72.0;

/// (cost, time) of a row as the chart plots it, on log scales: positive
/// and finite.
fn point(report: &Report, row: usize) -> Option<(f64, f64)> {
    report.results[row]
        .cost_and_time(report.task)
        .filter(|(c, t)| *c > 0.0 && *t > 0.0 && c.is_finite() && t.is_finite())
}

/// A log-scale axis over `values`, padded a little.
#[derive(Clone, Copy)]
struct Axis {
    low: f64,
    high: f64,
}

impl Axis {
    fn over(values: impl Iterator<Item = f64>) -> Axis {
        let (low, high) = values.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (low, high) = (low.log10() - 0.05, high.log10() + 0.05);
        if high - low < 0.2 {
            Axis { low: low - 0.1, high: high + 0.1 }
        } else {
            Axis { low, high }
        }
    }

    /// 0..1 along the axis.
    fn at(&self, value: f64) -> f64 {
        (value.log10() - self.low) / (self.high - self.low)
    }
}

/// A time with two or three significant digits: "3.5 h", "0.012 s".
fn short(lang: Lang, value: f64, unit: &str) -> String {
    let digits = if value >= 100.0 {
        0
    } else if value >= 1.0 {
        1
    } else {
        3
    };
    format!("{} {unit}", lang.number(value, digits))
}

/// The attribute that marks a point and holds its row, for the chart's
/// listeners.
const POINT_ROW: &str = "data-row";

/// The tip for the point an event reached: its words, and where it is as
/// fractions of the plot's width and height; none off the points.
fn tip_for(ev: &web_sys::Event) -> Option<(String, f64, f64)> {
    let at = |name| roving_focus::item_attribute(ev, POINT_ROW, name);
    let fraction = |name, of: f64| at(name)?.parse::<f64>().ok().map(|v| v / of);
    Some((at("aria-label")?, fraction("cx", WIDTH)?, fraction("cy", HEIGHT)?))
}

/// Shows `found` in the tip, beside its point, or hides the tip: above the
/// point in the lower half of the plot, below it in the upper half; from its
/// left in the left half, from its right in the right half, so it stays in
/// the plot. The position is set on the style object (the page's policy
/// forbids style attributes, not that).
fn place_tip(tip: &web_sys::HtmlElement, found: Option<(String, f64, f64)>) {
    let Some((words, x, y)) = found else {
        tip.set_hidden(true);
        return;
    };
    let (x, y) = (x * 100.0, y * 100.0);
    let side = |at: f64| {
        if at > 50.0 {
            ("auto".to_string(), format!("{:.1}%", 100.0 - at))
        } else {
            (format!("{at:.1}%"), "auto".to_string())
        }
    };
    let ((top, bottom), (left, right)) = (side(y), side(x));
    tip.set_text_content(Some(&words));
    let _ = tip.style().set_property("inset", &format!("{top} {right} {bottom} {left}"));
    tip.set_hidden(false);
}

/// Selects the row of the point an event reached.
fn select(ev: &web_sys::Event, selected: RwSignal<Option<usize>>) {
    if let Some(row) = roving_focus::item_value(ev, POINT_ROW).and_then(|row| row.parse().ok()) {
        selected.set(Some(row));
    }
}

#[component]
pub fn CostChart(
    catalog: &'static Catalog,
    report: Arc<Report>,
    snapshot: Arc<Snapshot>,
    /// The selected row of the table (an index into `report.results`).
    selected: RwSignal<Option<usize>>,
) -> impl IntoView {
    // Fastest first: the page's order is the arrow keys' order.
    let mut rows: Vec<(usize, f64, f64)> = (0..report.results.len().min(MAX_POINTS))
        .filter_map(|row| point(&report, row).map(|(c, t)| (row, c, t)))
        .collect();
    crate::sorting::sort_short_by(&mut rows, |a, b| a.2.total_cmp(&b.2).then(a.1.total_cmp(&b.1)));
    if rows.len() < 2 {
        return None;
    }
    let lang = super::use_lang();
    let (cost_axis, time_axis) = (Axis::over(rows.iter().map(|r| r.1)), Axis::over(rows.iter().map(|r| r.2)));
    let x = move |time: f64| LEFT + time_axis.at(time) * (WIDTH - LEFT - MARGIN);
    let y = move |cost: f64| HEIGHT - MARGIN - cost_axis.at(cost) * (HEIGHT - 2.0 * MARGIN);
    let (cost_label, time_label, time_unit) = match report.task {
        Task::Infer => (&phrases::CHART_COST_PER_TOKEN, &phrases::CHART_TIME_PER_TOKEN, "s"),
        _ => (&phrases::CHART_COST_JOB, &phrases::CHART_TIME_JOB, "h"),
    };
    let (cost_label, time_label) = (lang.t(cost_label), lang.t(time_label));
    // The frontier, cheapest first.
    let mut frontier: Vec<(f64, f64)> =
        rows.iter().filter(|r| report.results[r.0].pareto).map(|&(_, c, t)| (c, t)).collect();
    crate::sorting::sort_short_by(&mut frontier, |a, b| a.0.total_cmp(&b.0));
    let frontier_path: String =
        frontier.iter().map(|&(c, t)| format!("{:.1},{:.1}", x(t), y(c))).collect::<Vec<_>>().join(" ");
    let placed: Vec<(usize, f64, f64)> = rows.iter().map(|&(row, cost, time)| (row, x(time), y(cost))).collect();
    // The one tab stop: the selected offer's point, else the fastest.
    let stop = selected.get_untracked().filter(|row| rows.iter().any(|r| r.0 == *row)).unwrap_or(rows[0].0);
    let points = rows
        .iter()
        .map(|&(row, cost, time)| {
            let ranked = &report.results[row];
            let offer = &snapshot.offers[ranked.offer];
            let label = msg!(
                phrases::CHART_POINT,
                provider = &offer.provider,
                instance = &offer.instance,
                count = offer.gpu_count,
                gpu = catalog.gpu_name(&offer.gpu),
                spot = if ranked.spot { lang.t(&phrases::CHART_SPOT) } else { "" },
                cost = lang.usd(cost),
                time = short(lang, time, time_unit)
            )
            .render(lang);
            let pareto = ranked.pareto;
            view! {
                <circle
                    cx=format!("{:.1}", x(time))
                    cy=format!("{:.1}", y(cost))
                    r=if pareto { "5" } else { "3" }
                    class=if pareto { "point pareto" } else { "point" }
                    data-testid="chart-point"
                    data-row=row
                    tabindex=if row == stop { "0" } else { "-1" }
                    role="button"
                    aria-label=label
                />
            }
        })
        .collect_view();
    // The offer under the pointer or the focus, in a tip beside its point
    // (`place_tip`), written in place: no view is built per hover.
    let tip = NodeRef::<leptos::html::Div>::new();
    let show = move |found: Option<(String, f64, f64)>| {
        if let Some(element) = tip.get_untracked() {
            place_tip(&element, found);
        }
    };
    Some(view! {
        <figure class="cost-chart" data-testid="cost-chart">
            <div class="chart-plot">
            <svg
                viewBox=format!("0 0 {WIDTH} {HEIGHT}")
                width="100%"
                role="group"
                aria-label=lang.t(&phrases::CHART_LABEL)
                on:click=move |ev| select(&ev, selected)
                on:keydown=move |ev| {
                    if ev.key() == "Enter" || ev.key() == " " {
                        ev.prevent_default();
                        select(&ev, selected);
                    } else if ev.key() == "Escape" {
                        show(None);
                    } else {
                        roving_focus::move_focus(&ev, POINT_ROW);
                    }
                }
                on:focusin=move |ev| {
                    roving_focus::follow_focus(&ev, POINT_ROW);
                    show(tip_for(&ev));
                }
                on:focusout=move |_| show(None)
                on:mouseover=move |ev| show(tip_for(&ev))
                on:mouseout=move |_| show(None)
            >
                <line x1=LEFT y1=HEIGHT - MARGIN x2=WIDTH - MARGIN y2=HEIGHT - MARGIN class="axis" />
                <line x1=LEFT y1=MARGIN x2=LEFT y2=HEIGHT - MARGIN class="axis" />
                <text x=WIDTH / 2.0 y=HEIGHT - 12.0 text-anchor="middle" class="axis-label">{time_label}</text>
                // The cost axis's words above it, level: turned along the
                // axis, a long one ("$ por 1 M de tokens de salida") ran
                // into the lowest cost's label.
                <text x="4" y=MARGIN - 20.0 text-anchor="start" class="axis-label">{cost_label}</text>
                <text x=LEFT y=HEIGHT - MARGIN + 14.0 text-anchor="start" class="tick-label">{short(lang, 10f64.powf(time_axis.low), time_unit)}</text>
                <text x=WIDTH - MARGIN y=HEIGHT - MARGIN + 14.0 text-anchor="end" class="tick-label">{short(lang, 10f64.powf(time_axis.high), time_unit)}</text>
                <text x=LEFT - 4.0 y=HEIGHT - MARGIN text-anchor="end" class="tick-label">{lang.usd(10f64.powf(cost_axis.low))}</text>
                <text x=LEFT - 4.0 y=MARGIN + 4.0 text-anchor="end" class="tick-label">{lang.usd(10f64.powf(cost_axis.high))}</text>
                <polyline points=frontier_path class="frontier" data-testid="chart-frontier" />
                {points}
                // One ring marks the selected offer, so the points need no
                // reactive state of their own.
                {move || {
                    selected.get().and_then(|row| placed.iter().find(|p| p.0 == row)).map(|&(_, cx, cy)| {
                        view! { <circle cx=format!("{cx:.1}") cy=format!("{cy:.1}") r="8" class="selected-ring" /> }
                    })
                }}
            </svg>
            <div class="chart-tip" role="tooltip" data-testid="chart-tip" hidden node_ref=tip></div>
            </div>
            <figcaption>{lang.t(&phrases::CHART_CAPTION)}</figcaption>
        </figure>
    })
}
