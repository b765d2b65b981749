//! The offers left out and why, grouped by reason (`present::excluded`),
//! folded under the table; open by itself when no offer is left.

use super::offers::Offers;
use crate::msg;
use crate::present::excluded::excluded_groups;
use crate::text::phrases;
use crate::ui::ranked::Ranked;
use leptos::prelude::*;

pub fn excluded(Offers { report, snapshot, catalog, compact, lang }: Offers) -> impl IntoView {
    let excluded_count = move || report.with(|r| r.0.excluded.len());
    let opened = RwSignal::new(false);
    // Worked out when the list is opened (hundreds of reasons to word).
    let groups = move || {
        let Ranked(report) = report.get();
        excluded_groups(&report, &snapshot, catalog, lang)
            .into_iter()
            .map(|group| {
                view! {
                    <li>
                        <strong>{group.count}</strong>
                        {group.reason}
                        <span class="examples">{format!(": {}", group.examples)}</span>
                    </li>
                }
            })
            .collect_view()
    };
    let has_excluded = Memo::new(move |_| !compact && excluded_count() > 0);
    // When no offer is left to list, the reasons are the answer: the list is
    // drawn open, and drawn again folded when offers come back. A memo, so
    // an edit that changes neither leaves a list the reader opened alone.
    let none_listed = Memo::new(move |_| report.with(|r| r.0.results.is_empty()));
    move || {
        let open = none_listed.get();
        has_excluded.get().then(|| {
            let groups = groups.clone();
            view! {
                // The list is built when first opened: it can run to hundreds of groups.
                <details class="excluded" data-testid="excluded" open=open on:toggle=move |_| opened.set(true)>
                    <summary>{move || msg!(phrases::EXCLUDED_SUMMARY, count = excluded_count()).render(lang)}</summary>
                    <ul>{move || opened.get().then(groups.clone())}</ul>
                </details>
            }
        })
    }
}
