//! The offers table's pages: previous, next, which rows are shown, and how
//! many a page holds.

use crate::msg;
pub use crate::present::row::PAGE_SIZES;
use crate::text::{phrases, Lang};
use leptos::prelude::*;

/// The pager under the table: shown while there is more than the smallest
/// page, so a reader who chose a bigger page can always choose a smaller
/// one again.
pub fn pager(
    page: RwSignal<usize>,
    page_rows: RwSignal<usize>,
    rows_listed: Signal<usize>,
    compact: bool,
    lang: Lang,
) -> impl IntoView {
    // A memo: the pager is drawn again only when the number of pages changes.
    let pages = Memo::new(move |_| rows_listed.get().div_ceil(page_rows.get()).max(1));
    let paged = Memo::new(move |_| !compact && rows_listed.get() > PAGE_SIZES[0]);
    move || {
        paged.get().then(|| {
            let range = move || {
                let first = page.get() * page_rows.get();
                msg!(
                    phrases::PAGE_ROWS,
                    first = first + 1,
                    last = (first + page_rows.get()).min(rows_listed.get()),
                    total = rows_listed.get()
                )
                .render(lang)
            };
            // A new page size keeps the first row shown on screen.
            let resize = move |ev| {
                let Ok(rows) = event_target_value(&ev).parse::<usize>() else { return };
                let first = page.get_untracked() * page_rows.get_untracked();
                page_rows.set(rows);
                page.set(first / rows);
            };
            view! {
                <nav class="pager" data-testid="pager" aria-label=lang.t(&phrases::PAGER_LABEL)>
                    <button type="button" data-testid="page-previous" disabled=move || page.get() == 0 on:click=move |_| page.update(|p| *p = p.saturating_sub(1))>
                        "‹ " {lang.t(&phrases::PAGE_PREVIOUS)}
                    </button>
                    <span data-testid="page-range" aria-live="polite">{range}</span>
                    <button type="button" data-testid="page-next" disabled=move || { page.get() + 1 >= pages.get() } on:click=move |_| page.update(|p| *p = (*p + 1).min(pages.get_untracked() - 1))>
                        {lang.t(&phrases::PAGE_NEXT)} " ›"
                    </button>
                    <label>
                        {lang.t(&phrases::PAGE_SIZE)} " "
                        <select data-testid="page-size" on:change=resize>
                            {PAGE_SIZES.map(|rows| view! { <option value=rows.to_string() selected=move || page_rows.get() == rows>{rows}</option> }).collect_view()}
                        </select>
                    </label>
                </nav>
            }
        })
    }
}
