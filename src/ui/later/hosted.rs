//! Hosted APIs beside renting (issue 39): the cheapest hosted API for the
//! workload's model, its month at the stated traffic and where renting the
//! first row wins (`present::hosted_api`). Their prices are downloaded the
//! first time the workload is serving.

use crate::engine::serving_plan::Targets;
use crate::engine::{hosted_api, Catalog, Workload};
use crate::text::{phrases, Lang, Msg};
use crate::ui::ranked::Ranked;
use crate::ui::snapshot_loader::load_hosted;
use leptos::prelude::*;

/// What the comparison reads.
pub struct HostedApiProps {
    pub workload: Signal<Workload>,
    /// The current ranking, whose first row is the renting side.
    pub report: Signal<Option<Ranked>>,
    pub catalog: &'static Catalog,
    /// The snapshot's date: an API that retired the model by then is left out.
    pub snapshot_date: String,
    pub lang: Lang,
}

pub fn hosted_api(HostedApiProps { workload, report, catalog, snapshot_date, lang }: HostedApiProps) -> impl IntoView {
    let serving = move || workload.with(|w| w.is_endpoint() || w.is_batch());
    let prices = RwSignal::new(None::<Result<&'static hosted_api::HostedPrices, Msg>>);
    let asked = StoredValue::new(false);
    Effect::new(move |_| {
        if serving() && !asked.get_value() {
            asked.set_value(true);
            leptos::task::spawn_local(async move {
                let _ = prices.try_set(Some(load_hosted().await));
            });
        }
    });
    let said = Memo::new(move |_| {
        if !serving() {
            return None;
        }
        match prices.get()? {
            Err(problem) => Some(Err(problem)),
            Ok(prices) => {
                let Ranked(report) = report.get()?;
                workload.with(|w| {
                    let api = hosted_api::compare(w, &report, prices, &snapshot_date)?;
                    let name = catalog.model(&w.model).map_or_else(|_| w.model.clone(), |m| m.name.clone());
                    Some(Ok(crate::present::hosted_api::lines(&api, &name, Targets::of(w).is_some())))
                })
            }
        }
    });
    move || {
        said.get().map(|said| match said {
            Ok(lines) => view! {
                <section class="hosted-api" data-testid="hosted-api">
                    <h2>{lang.t(&phrases::HOSTED_HEADING)}</h2>
                    {lines.into_iter().map(|line| view! { <p>{line.render(lang)}</p> }).collect_view()}
                </section>
            }
            .into_any(),
            Err(problem) => {
                view! { <p class="field-error" data-testid="hosted-api-failed">{problem.render(lang)}</p> }.into_any()
            }
        })
    }
}
