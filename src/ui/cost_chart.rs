//! Cost against speed for the ranked offers, on log scales, with the Pareto
//! frontier drawn through the offers nothing beats on both. Hovering or
//! focusing a point shows the offer in a tip beside it (Escape hides it);
//! clicking selects its row in the table. From the keyboard the points are
//! one tab stop: the arrow keys go from the fastest to the slowest, and
//! Enter or Space selects.

use super::roving_focus;
use crate::engine::{Catalog, Report, Snapshot};
use crate::present::chart::{Chart, HEIGHT, LEFT, MARGIN, WIDTH};
use crate::text::phrases;
use leptos::prelude::*;
use std::sync::Arc;

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
    let lang = super::use_lang();
    let chart = Chart::of(&report, &snapshot, catalog, lang)?;
    let placed: Vec<(usize, f64, f64)> = chart.points.iter().map(|p| (p.row, p.x, p.y)).collect();
    // The one tab stop: the selected offer's point, else the fastest.
    let stop = selected.get_untracked().filter(|row| placed.iter().any(|p| p.0 == *row)).unwrap_or(chart.points[0].row);
    let points = chart
        .points
        .into_iter()
        .map(|point| {
            let row = point.row;
            view! {
                <circle
                    cx=format!("{:.1}", point.x)
                    cy=format!("{:.1}", point.y)
                    r=if point.pareto { "5" } else { "3" }
                    class=if point.pareto { "point pareto" } else { "point" }
                    data-testid="chart-point"
                    data-row=row
                    tabindex=if row == stop { "0" } else { "-1" }
                    role="button"
                    aria-label=point.label
                />
            }
        })
        .collect_view();
    let (cost_label, time_label) = (chart.cost_label, chart.time_label);
    let (time_low, time_high) = chart.time_ticks;
    let (cost_low, cost_high) = chart.cost_ticks;
    let frontier_path = chart.frontier;
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
                <text x=LEFT y=HEIGHT - MARGIN + 14.0 text-anchor="start" class="tick-label">{time_low}</text>
                <text x=WIDTH - MARGIN y=HEIGHT - MARGIN + 14.0 text-anchor="end" class="tick-label">{time_high}</text>
                <text x=LEFT - 4.0 y=HEIGHT - MARGIN text-anchor="end" class="tick-label">{cost_low}</text>
                <text x=LEFT - 4.0 y=MARGIN + 4.0 text-anchor="end" class="tick-label">{cost_high}</text>
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
