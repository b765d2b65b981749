//! What the page draws after its first result, from its second WebAssembly
//! module (issue 38): the chart, a row's breakdown, the exports, the offers
//! left out, "Your GPU" and its probe, the model import's controls, the
//! hosted APIs beside renting and the snapshot's sources. None of them is needed to show the first priced row,
//! so the module the first result waits for leaves them out.
//!
//! With the `split` feature (the page's build, index.html), `draw` is a
//! split point: wasm-split-cli (scripts/split-module.mjs) moves it, and all
//! the code only it reaches, into `later-<hash>.wasm`, which the page fetches
//! once the first result is painted (`result_drawn`; parts asked for before
//! it wait for that frame), so the download never competes with the first
//! result's. Until then each part's place is empty; once the module
//! is in, parts draw at once. Without the feature (the browser tests,
//! clippy's plain wasm32 build) the parts draw in place.

mod curve;
mod excluded;
mod exports;
mod hosted;
mod launch;
mod offers;

pub use hosted::HostedApiProps;
pub use offers::Offers;

use super::cost_chart::{CostChart, CostChartProps};
use super::model_import::{ModelImport, ModelImportProps};
use super::snapshot_info::{SnapshotInfo, SnapshotInfoProps};
use super::your_gpu::{YourGpu, YourGpuProps};
use leptos::prelude::*;

/// A part drawn from the second module, with what it is drawn from.
pub enum Later {
    Chart(CostChartProps),
    YourGpu(YourGpuProps),
    ModelImport(ModelImportProps),
    SnapshotInfo(SnapshotInfoProps),
    /// The CSV and JSON downloads under the table.
    Exports(Offers),
    /// The offers left out, and why.
    Excluded(Offers),
    /// The cheapest hosted API for the model, against renting.
    HostedApi(HostedApiProps),
    /// The cost breakdown of the ranking's `row`: the table row under it.
    Breakdown {
        of: Offers,
        row: usize,
    },
}

/// Whether the page has drawn its first result or its error (`result_drawn`).
#[cfg(feature = "split")]
static RESULT_DRAWN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// How many frames the second module waits for the first result at most:
/// about 3 s at 60 frames a second, as the page waits for slow offers
/// (`document::PRERENDER_AT_MOST`); a page whose offers do not come still
/// gets its model import.
#[cfg(feature = "split")]
const FRAMES_AT_MOST: u32 = 180;

/// Called in the task that draws the page's first result or its error
/// (app.rs): the second module is fetched after that frame.
pub fn result_drawn() {
    #[cfg(feature = "split")]
    RESULT_DRAWN.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// `part`, drawn once the second module is in (at once after that).
pub fn later(part: Later) -> impl IntoView {
    #[cfg(feature = "split")]
    {
        use std::sync::atomic::{AtomicBool, Ordering};
        /// Whether the second module is in (a part was drawn from it).
        static IN: AtomicBool = AtomicBool::new(false);
        Suspend::new(leptos::__reexports::send_wrapper::SendWrapper::new(async move {
            // The first time, once the page has drawn its first result (or
            // its error) and four frames more: that frame has been painted
            // and presented. Parts are asked for before it (the form's
            // model import, as the page is built), and the frame that draws
            // the first result was presented 20 to 55 ms after it was drawn,
            // up to three frames (headless Chromium on loopback, December 2026).
            if !IN.load(Ordering::Relaxed) {
                let mut waited = 0;
                while !RESULT_DRAWN.load(Ordering::Relaxed) && waited < FRAMES_AT_MOST {
                    super::next_paint().await;
                    waited += 1;
                }
                for _ in 0..4 {
                    super::next_paint().await;
                }
            }
            match draw(part).await {
                Ok(view) => {
                    IN.store(true, Ordering::Relaxed);
                    view
                }
                // A module that did not download (offline on a first
                // visit, a dropped connection) leaves the rest of the page
                // working and says so where the part would be.
                Err(_) => {
                    let lang = super::use_lang();
                    view! { <p class="field-error" role="alert" data-testid="later-failed">{lang.t(&crate::text::phrases::LATER_FAILED)}</p> }.into_any()
                }
            }
        }))
    }
    #[cfg(not(feature = "split"))]
    {
        draw_now(part)
    }
}

/// The serving planner that meets latency targets (issue 39), from the
/// second module; `None` where the module could not be fetched.
pub async fn planner() -> Option<crate::engine::Planner> {
    #[cfg(feature = "split")]
    {
        load_planner().await.ok()
    }
    #[cfg(not(feature = "split"))]
    {
        Some(crate::engine::serving_plan::plan)
    }
}

/// The second module's entry for the planner.
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(later, wasm_split_path = ::leptos::wasm_split, fallible)]
fn load_planner() -> Result<crate::engine::Planner, leptos::wasm_split::SplitLoaderError> {
    Ok(crate::engine::serving_plan::plan)
}

/// The split point: the second module's entry for the parts it draws; an
/// error when the module could not be fetched (a later call tries again).
#[cfg(feature = "split")]
#[leptos::wasm_split::wasm_split(later, wasm_split_path = ::leptos::wasm_split, fallible)]
fn draw(part: Later) -> Result<AnyView, leptos::wasm_split::SplitLoaderError> {
    Ok(draw_now(part))
}

fn draw_now(part: Later) -> AnyView {
    use self::{excluded::excluded, exports::exports, hosted::hosted_api};
    match part {
        Later::Chart(props) => CostChart(props).into_any(),
        Later::YourGpu(props) => YourGpu(props).into_any(),
        Later::ModelImport(props) => ModelImport(props).into_any(),
        Later::SnapshotInfo(props) => SnapshotInfo(props).into_any(),
        Later::Exports(offers) => exports(offers).into_any(),
        Later::Excluded(offers) => excluded(offers).into_any(),
        Later::HostedApi(props) => hosted_api(props).into_any(),
        Later::Breakdown { of: Offers { report, snapshot, catalog, lang, .. }, row } => report
            .with_untracked(|r| {
                r.0.results.get(row).map(|ranked| {
                    let plan = ranked.slo.as_ref();
                    let launch = plan.and_then(|p| p.launch.as_ref()).map(|l| l.command.clone());
                    let curve = plan.and_then(|p| crate::present::curve::curve(p, lang));
                    (crate::export::row_breakdown(ranked, &snapshot, catalog, lang), launch, curve)
                })
            })
            .map(|(lines, launch, curve)| {
                let lines =
                    lines.into_iter().map(|(label, value)| view! { <dt>{label}</dt><dd>{value}</dd> }).collect_view();
                view! {
                    <tr class="details" data-testid="row-details">
                        <td colspan=crate::present::row::COLUMN_COUNT.to_string()>
                            <dl class="breakdown">{lines}</dl>
                            {launch.map(|command| launch::copy_launch(command, lang))}
                            {curve.map(|curve| curve::curve_figure(curve, lang))}
                        </td>
                    </tr>
                }
            })
            .into_any(),
    }
}
