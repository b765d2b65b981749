//! The ranked offers table. It stays on the page while the workload is
//! edited: one `<tr>` per place on the page, each cell updating its text
//! from the new ranking, so an edit costs text changes rather than a new
//! table (issue 7: an update within a frame).

mod pager;

pub use pager::PAGE_SIZES;

use super::cost_chart::CostChartProps;
use super::later::{later, Later, Offers};
use super::ranked::Ranked;
use super::row_cells;
use crate::engine::local_run::LocalRun;
use crate::engine::{Catalog, Snapshot};
use crate::msg;
use crate::present::row::{Column, RowText};
use crate::present::selection::{caption, names, unlisted};
use crate::text::{phrases, Lang};
use crate::url_codec::OfferRef;
use leptos::prelude::*;
use leptos::tachys::html::attribute::custom::custom_attribute;
use std::sync::Arc;

/// Rows an embedded table shows.
pub const COMPACT_ROWS: usize = 5;

/// The offers that hold the workload, best first for the objective.
#[component]
pub fn OffersTable(
    catalog: &'static Catalog,
    snapshot: Arc<Snapshot>,
    /// The current ranking; the table follows it.
    #[prop(into)]
    report: Signal<Ranked>,
    /// Embedded: the top rows only, without chart, pages, exports or the
    /// offers left out.
    #[prop(optional)]
    compact: bool,
    /// The offer the page points at (URL key `offer`): selecting a point
    /// of the chart sets it, and each ranking shows its row.
    #[prop(optional)]
    selected_offer: Option<RwSignal<Option<OfferRef>>>,
    /// The workload on the visitor's own GPU ("Your GPU"), shown as the
    /// first row, outside the ranking.
    #[prop(optional, into)]
    local: Option<Signal<Option<LocalRun>>>,
) -> impl IntoView {
    let lang = super::use_lang();
    let total = snapshot.offers.len();
    let rows_listed = move || report.with(|r| r.0.results.len());
    // The row the chart selected and the row whose breakdown is open, as
    // indices into the ranking; a new ranking clears both.
    let selected = RwSignal::new(None::<usize>);
    let expanded = RwSignal::new(None::<usize>);
    // Sorting by a column reorders all rows; the table shows one page.
    let sorting = RwSignal::new(None::<(Column, bool)>);
    let page = RwSignal::new(0_usize);
    let page_rows = RwSignal::new(PAGE_SIZES[0]);
    let order = Memo::new(move |_| {
        report.with(|Ranked(report)| {
            let mut order: Vec<usize> = (0..report.results.len()).collect();
            if let Some((column, descending)) = sorting.get() {
                let key = |i: usize| column.sort_key(&report.results[i]).unwrap_or(f64::INFINITY);
                crate::sorting::sort_indices_by(&mut order, &|a, b| {
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
        })
    });
    let chosen = selected_offer.unwrap_or_else(|| RwSignal::new(None));
    let (find_snapshot, name_snapshot) = (Arc::clone(&snapshot), Arc::clone(&snapshot));
    // Each ranking: the chosen offer's row (none when the filters leave it
    // out) on its page, and no breakdown open. Only what changes is set:
    // every set wakes each row.
    Effect::new(move |_| {
        let index = chosen.with(|c| {
            c.as_ref().and_then(|c| report.with(|r| r.0.results.iter().position(|row| names(&find_snapshot, row, c))))
        });
        if selected.get_untracked() != index {
            selected.set(index);
        }
        if expanded.get_untracked().is_some() {
            expanded.set(None);
        }
        let position = index.and_then(|i| order.with_untracked(|o| o.iter().position(|&row| row == i)));
        let first_page = position.map_or(0, |p| p / page_rows.get_untracked());
        if page.get_untracked() != first_page {
            page.set(first_page);
        }
    });
    // A row the chart selects becomes the chosen offer.
    Effect::new(move |_| {
        let Some(row) = selected.get() else { return };
        let offer = report.with_untracked(|r| {
            r.0.results.get(row).map(|ranked| {
                let offer = &name_snapshot.offers[ranked.offer];
                OfferRef::of(offer, &name_snapshot, ranked.spot)
            })
        });
        if offer.is_some() && chosen.with_untracked(|c| *c != offer) {
            chosen.set(offer);
        }
    });
    // A row the chart selects is shown on its page.
    Effect::new(move |_| {
        if let Some(row) = selected.get() {
            if let Some(position) = order.with_untracked(|o| o.iter().position(|&i| i == row)) {
                page.set(position / page_rows.get_untracked());
            }
        }
    });
    let caption_snapshot = Arc::clone(&snapshot);
    let caption = move || {
        // Said first when the selected offer is not listed.
        let note = if selected.get().is_some() {
            None
        } else {
            chosen.with(|c| c.as_ref().and_then(|c| report.with(|Ranked(r)| unlisted(c, r, &caption_snapshot))))
        };
        report.with(|Ranked(report)| caption(report, total, note.as_ref(), lang))
    };
    // The places on this page; each keeps its `<tr>` across rankings.
    let places = move || {
        let shown = if compact { COMPACT_ROWS } else { page_rows.get() };
        let first = page.get() * page_rows.get();
        0..rows_listed().saturating_sub(first).min(shown)
    };
    let row_snapshot = Arc::clone(&snapshot);
    let render_row = move |place: usize| {
        let snapshot = Arc::clone(&row_snapshot);
        // The ranking's row at this place, and what it shows.
        let index = Memo::new(move |_| order.with(|o| o.get(page.get() * page_rows.get() + place).copied()));
        let text = Memo::new(move |_| {
            let i = index.get()?;
            report.with(|r| r.0.results.get(i).map(|ranked| RowText::of(ranked, &snapshot, catalog, lang)))
        });
        let row = NodeRef::<leptos::html::Tr>::new();
        follow(row, text, lang);
        // Brought into view when the chart selects it.
        Effect::new(move |_| {
            if selected.get().is_some() && selected.get() == index.get() {
                if let Some(element) = row.get() {
                    element.scroll_into_view();
                }
            }
        });
        let is_open = move || expanded.get().is_some() && expanded.get() == index.get();
        let detail_snapshot = Arc::clone(&row_snapshot);
        let details = move || {
            let row = index.get()?;
            // Drawn again for each ranking.
            report.track();
            let of = Offers { report, snapshot: Arc::clone(&detail_snapshot), catalog, compact, lang };
            Some(later(Later::Breakdown { of, row }))
        };
        view! {
            <tr
                data-testid="offer-row"
                node_ref=row
                class:pareto=move || text.with(|t| t.as_ref().is_some_and(|t| t.pareto))
                class:selected=move || selected.get().is_some() && selected.get() == index.get()
            >
                <td>
                    <button
                        type="button"
                        class="expand"
                        data-testid="expand-row"
                        aria-expanded=move || if is_open() { "true" } else { "false" }
                        aria-label=lang.t(&phrases::EXPAND_ROW)
                        on:click=move |_| {
                            let here = index.get_untracked();
                            expanded.update(|open| *open = if *open == here { None } else { here });
                        }
                    >
                        {move || if is_open() { "▾" } else { "▸" }}
                    </button>
                    " "
                    <span class="provider"></span>
                </td>
                // The cells are built once; each ranking rewrites the words
                // that changed (`follow`).
                {row_cells::empty(lang)}
            </tr>
            // The breakdown's row comes whole from the second module.
            <Show when=is_open>{details.clone()}</Show>
        }
    };
    let rows = view! { <For each=places key=|place| *place children=render_row /> };
    // "Your GPU" leads the rows, outside the ranking and its pages, while a
    // GPU is compared; its cells then follow each ranking like the others.
    let local_row = local.map(|run| {
        let shown = Memo::new(move |_| run.with(Option::is_some));
        move || {
            shown.get().then(|| {
                let text = Memo::new(move |_| run.with(|r| r.as_ref().map(|r| RowText::of_local(r, catalog, lang))));
                let row = NodeRef::<leptos::html::Tr>::new();
                follow(row, text, lang);
                view! {
                    <tr class="local" data-testid="local-row" node_ref=row>
                        <td><strong>{lang.t(&phrases::YOUR_GPU)}</strong></td>
                        {row_cells::empty(lang)}
                    </tr>
                }
            })
        }
    });
    let pager = pager::pager(page, page_rows, Signal::derive(rows_listed), compact, lang);
    let sortable_header = move |column: Column, sort_id: &'static str| {
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
                    data-testid=format!("sort-{sort_id}")
                    on:click=move |_| {
                        sorting.set(Some((column, state() == Some(false))));
                        page.set(0);
                    }
                >
                    {lang.t(column.label())}
                    <span aria-hidden="true">{move || match state() { Some(true) => " ↓", Some(false) => " ↑", None => "" }}</span>
                </button>
            </th>
        }
    };
    // The chart draws after the frame that shows the table, so the rows
    // show first. Each new ranking redraws it the same way; a later ranking
    // wins.
    let charted = RwSignal::new(None::<Ranked>);
    Effect::new(move |_| {
        let current = report.get();
        super::after_next_paint(move || {
            if report.with_untracked(|now| *now == current) && charted.with_untracked(|c| c.as_ref() != Some(&current))
            {
                charted.set(Some(current));
            }
        });
    });
    let chart_snapshot = Arc::clone(&snapshot);
    let chart = move || {
        charted.get().map(|Ranked(report)| {
            later(Later::Chart(CostChartProps { catalog, report, snapshot: Arc::clone(&chart_snapshot), selected }))
        })
    };
    let advice = move || {
        report
            .with(|r| r.0.advice.clone())
            .into_iter()
            .map(|line| view! { <li>{line.render(lang)}</li> })
            .collect_view()
    };
    let offers = || Offers { report, snapshot: Arc::clone(&snapshot), catalog, compact, lang };
    let exports = later(Later::Exports(offers()));
    let excluded_section = later(Later::Excluded(offers()));
    let speed_note = move || {
        if compact {
            return None;
        }
        report.with(|r| r.0.results.first().and_then(|r| r.speed.as_ref()).map(|s| s.bound)).map(|bound| {
            view! {
                <p class="estimate-note" data-testid="speed-note">
                    {msg!(phrases::SPEED_NOTE, bound = bound.explanation()).render(lang)}
                </p>
            }
        })
    };
    view! {
        <Show when=move || !compact && report.with(|r| !r.0.advice.is_empty())>
            <ul class="advice" data-testid="advice">{advice}</ul>
        </Show>
        // The slot keeps the chart's height while it draws: no layout shift.
        <Show when=move || { !compact && rows_listed() >= 2 }>
            <div class="chart-slot">{chart.clone()}</div>
        </Show>
        <div class="table-scroll" tabindex="0" role="region" aria-label=lang.t(&phrases::TABLE_REGION)>
        <table class="offers" data-testid="offers-table">
            // Element Timing reports when the first result is painted (tests/e2e/bench-snapshot.mjs).
            {view! { <caption data-testid="offers-caption">{caption}</caption> }.add_any_attr(custom_attribute("elementtiming", "offers-caption"))}
            <thead>
                <tr>
                    {Column::ALL
                        .map(|column| match column.sort_id() {
                            Some(sort_id) => sortable_header(column, sort_id).into_any(),
                            None if column.numeric() => {
                                view! { <th scope="col" class="num">{lang.t(column.label())}</th> }.into_any()
                            }
                            None => view! { <th scope="col">{lang.t(column.label())}</th> }.into_any(),
                        })
                        .collect_view()}
                </tr>
            </thead>
            <tbody>{local_row}{rows}</tbody>
        </table>
        </div>
        {pager}
        {exports}
        {excluded_section}
        {speed_note}
    }
}

/// Writes each new `text` into the row's cells once the row is on the
/// page, only the words that changed.
fn follow(row: NodeRef<leptos::html::Tr>, text: Memo<Option<RowText>>, lang: Lang) {
    Effect::new(move |written: Option<Option<RowText>>| {
        let now = text.get().unwrap_or_default();
        let element = row.get()?;
        row_cells::write(&element, written.flatten().as_ref(), &now, lang);
        Some(now)
    });
}
