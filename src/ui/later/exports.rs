//! The offers as files: every row as CSV (in the page's language) and as
//! the CLI's `rank --json` rows, made when a button is pressed.

use super::offers::Offers;
use crate::text::{phrases, Msg};
use crate::ui::download::download;
use leptos::prelude::*;
use std::sync::Arc;

pub fn exports(Offers { report, snapshot, catalog, compact, lang }: Offers) -> impl IntoView {
    let export_problem = RwSignal::new(None::<Msg>);
    let csv_snapshot = Arc::clone(&snapshot);
    // With a byte-order mark: Excel reads a CSV without one in the
    // system's legacy code page, which garbles "imágenes" and "×".
    let csv = move || {
        format!("\u{feff}{}", crate::export::results_csv(&report.get_untracked().0, &csv_snapshot, catalog, lang))
    };
    let json = move || crate::export::download_json(&report.get_untracked().0, &snapshot, catalog);
    view! {
        <p class="export" class:hidden=compact>
            <button type="button" data-testid="export-csv" on:click=move |_| {
                if let Err(message) = download("whichgpu-offers.csv", "text/csv", &csv()) {
                    export_problem.set(Some(message));
                }
            }>{lang.t(&phrases::DOWNLOAD_CSV)}</button>
            " "
            <button type="button" data-testid="export-json" on:click=move |_| {
                if let Err(message) = download("whichgpu-offers.json", "application/json", &json()) {
                    export_problem.set(Some(message));
                }
            }>{lang.t(&phrases::DOWNLOAD_JSON)}</button>
            <span role="alert">{move || export_problem.get().map(|problem| problem.render(lang))}</span>
        </p>
    }
}
