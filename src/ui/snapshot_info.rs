//! How fresh the prices are, and where they come from.

use crate::engine::Snapshot;
use crate::msg;
use crate::text::phrases;
use leptos::prelude::*;
use std::sync::Arc;

/// The snapshot's date, and per provider its sources and their dates:
/// sources differ in age (Azure and a few others come from an older
/// catalog, the FSDL table from about 2023).
#[component]
pub fn SnapshotInfo(snapshot: Arc<Snapshot>) -> impl IntoView {
    let lang = super::use_lang();
    // The sources table is built when first opened: the first result on
    // screen does not wait for it.
    let opened = RwSignal::new(false);
    let (date, counts) = (
        snapshot.snapshot_date.clone(),
        msg!(phrases::SNAPSHOT_COUNTS, offers = snapshot.offers.len(), providers = snapshot.selling_providers())
            .render(lang),
    );
    let rows = move || {
        snapshot
            .provider_sources()
            .into_iter()
            .map(|(provider, sources)| {
                let as_of = sources.iter().map(|s| s.as_of.clone()).collect::<Vec<_>>().join("; ");
                let upstream = sources.iter().map(|s| s.upstream.clone()).collect::<Vec<_>>().join("; ");
                view! {
                    <tr>
                        <th scope="row">{provider.name.clone()}</th>
                        <td>{as_of}</td>
                        <td>{upstream}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <section class="snapshot-info" data-testid="snapshot-info">
            <p>
                {lang.t(&phrases::PRICES_AS_OF)} <strong data-testid="snapshot-date">{date}</strong>
                {counts}
                {lang.t(&phrases::ESTIMATES_NOTICE)}
            </p>
            <details on:toggle=move |_| opened.set(true)>
                <summary>{lang.t(&phrases::SOURCES_SUMMARY)}</summary>
                {move || opened.get().then(|| view! {
                <table class="freshness" data-testid="provider-freshness">
                    <thead>
                        <tr>
                            <th scope="col">{lang.t(&phrases::COLUMN_PROVIDER)}</th>
                            <th scope="col">{lang.t(&phrases::COLUMN_AS_OF)}</th>
                            <th scope="col">{lang.t(&phrases::COLUMN_SOURCE)}</th>
                        </tr>
                    </thead>
                    <tbody>{rows.clone()}</tbody>
                </table>
                })}
            </details>
        </section>
    }
}
