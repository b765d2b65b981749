//! How fresh the prices are, and where they come from.

use crate::engine::Snapshot;
use leptos::prelude::*;
use std::sync::Arc;

/// The snapshot's date, and per provider its sources and their dates:
/// sources differ in age (Azure and a few others come from an older
/// catalog, the FSDL table from about 2023).
#[component]
pub fn SnapshotInfo(snapshot: Arc<Snapshot>) -> impl IntoView {
    let rows = snapshot
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
        .collect_view();
    view! {
        <section class="snapshot-info" data-testid="snapshot-info">
            <p>
                "Prices as of " <strong data-testid="snapshot-date">{snapshot.snapshot_date.clone()}</strong>
                {format!(" ({} offers, {} providers). ", snapshot.offers.len(), snapshot.providers.len())}
                "Prices change often; all figures are estimates."
            </p>
            <details>
                <summary>"Sources and dates per provider"</summary>
                <table class="freshness" data-testid="provider-freshness">
                    <thead>
                        <tr>
                            <th scope="col">"Provider"</th>
                            <th scope="col">"Prices as of"</th>
                            <th scope="col">"Source"</th>
                        </tr>
                    </thead>
                    <tbody>{rows}</tbody>
                </table>
            </details>
        </section>
    }
}
