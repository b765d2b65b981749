//! The ranked offers table.

use crate::engine::{Catalog, Report, Snapshot};
use leptos::prelude::*;
use std::sync::Arc;

/// How many rows the table shows before "show more" (issue 7 virtualises).
pub const VISIBLE_ROWS: usize = 50;

/// The offers that hold the workload, cheapest $/h first.
#[component]
pub fn OffersTable(catalog: &'static Catalog, snapshot: Arc<Snapshot>, report: Report) -> impl IntoView {
    let fitting = report.results.len();
    let total = snapshot.offers.len();
    let shown = fitting.min(VISIBLE_ROWS);
    let caption = if fitting == 0 {
        match &report.no_single_node {
            Some(note) => format!("None of the {total} offers holds this workload. {note}"),
            None => format!("None of the {total} offers holds this workload."),
        }
    } else if fitting > shown {
        format!("{fitting} of {total} offers hold this workload; the {shown} cheapest:")
    } else {
        format!("{fitting} of {total} offers hold this workload:")
    };
    let rows = report
        .results
        .iter()
        .take(shown)
        .map(|ranked| {
            let offer = &snapshot.offers[ranked.offer];
            let gpu_name = catalog.gpu(&offer.gpu).map(|g| g.name.clone()).unwrap_or_else(|_| offer.gpu.clone());
            let provider = snapshot.provider(&offer.provider).map_or(offer.provider.clone(), |p| p.name.clone());
            // A reseller's offer names the cloud that runs it.
            let provider = match &offer.underlying_cloud {
                Some(cloud) => format!("{provider} · {cloud}"),
                None => provider,
            };
            view! {
                <tr data-testid="offer-row">
                    <td>{provider}</td>
                    <td>{offer.instance.clone()}</td>
                    <td>{format!("{}× {gpu_name}", offer.gpu_count)}</td>
                    <td class="num">{format!("{:.0} GB", offer.total_vram_gb())}</td>
                    <td title=offer.regions.join(", ")>{offer.regions_label()}</td>
                    <td class="num">{format!("${:.2}", ranked.price_per_hour)}</td>
                    {
                        let (speed, bound) = ranked
                            .speed
                            .as_ref()
                            .map_or((String::from("–"), String::new()), |s| (s.headline(), format!("{:?}", s.bound).to_lowercase()));
                        view! {
                            <td class="speed" data-testid="offer-speed">
                                {speed}
                                {(!bound.is_empty()).then(|| view! { <span class="bound">{format!("{bound}-bound")}</span> })}
                            </td>
                        }
                    }
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll">
        <table class="offers" data-testid="offers-table">
            <caption data-testid="offers-caption">{caption}</caption>
            <thead>
                <tr>
                    <th scope="col">"Provider"</th>
                    <th scope="col">"Instance"</th>
                    <th scope="col">"GPUs"</th>
                    <th scope="col" class="num">"VRAM"</th>
                    <th scope="col">"Regions"</th>
                    <th scope="col" class="num">"$/h on-demand"</th>
                    <th scope="col">"Speed (estimate)"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
        </div>
        {report.results.first().and_then(|r| r.speed.as_ref()).map(|s| {
            view! {
                <p class="estimate-note" data-testid="speed-note">
                    {format!("Speeds are estimates from each GPU's datasheet bandwidth and throughput. The cheapest offer is {}", s.bound.explanation())}
                    "."
                </p>
            }
        })}
    }
}
