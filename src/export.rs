//! The ranked offers as JSON and CSV: what `whichgpu rank --json` prints
//! and what the page's export buttons download.

use crate::engine::cost::{Assumed, Fallback, Unit};
use crate::engine::fabric::Fabric;
use crate::engine::ranking::Badge;
use crate::engine::serving_plan::SloPlan;
use crate::engine::speed::Speed;
use crate::engine::{Catalog, Offer, PriceKind, RankedOffer, Report, Runtime, Snapshot};
use crate::msg;
use crate::text::{phrases, Arg, Lang, Msg, Phrase};
use serde::Serialize;

/// The region a row names: the first one matching the region filter, or
/// the first listed.
fn region_of<'a>(offer: &'a Offer, filter: &str) -> Option<&'a str> {
    let wanted = filter.to_ascii_lowercase();
    offer
        .regions
        .iter()
        .find(|r| r.to_ascii_lowercase().contains(&wanted))
        .or(offer.regions.first())
        .map(String::as_str)
}

/// One result row as `rank --json` prints it and the page exports it; keys
/// in alphabetical order, as they always were.
#[derive(Debug, Serialize)]
pub struct ResultRow<'a> {
    /// The billing rules the provider does not publish, which the cost
    /// assumes (issue 27); absent when it assumes none.
    #[serde(skip_serializing_if = "Option::is_none")]
    assumed: Option<Assumed>,
    badges: &'a [Badge],
    billed_hours: Option<f64>,
    /// Serving images: USD per 1,000 images described.
    #[serde(skip_serializing_if = "Option::is_none")]
    cost_per_thousand_images: Option<f64>,
    cost_per_unit: Option<f64>,
    egress_cost: Option<f64>,
    /// An unusually low price: the lowest typical USD per GPU-hour any
    /// other provider asks for the GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    far_below: Option<f64>,
    /// A cluster's fabric row (cluster_fabrics.csv), absent on one machine.
    #[serde(skip_serializing_if = "Option::is_none")]
    fabric: Option<&'a Fabric>,
    gpu: &'a str,
    gpu_count: u32,
    gpu_hours: Option<f64>,
    /// The GPU's catalog name, as the page shows it.
    gpu_name: &'a str,
    instance: &'a str,
    instances: Option<u32>,
    /// Gbit/s per node between a cluster's nodes, where the data states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    internode_gbps: Option<f64>,
    job_cost: Option<f64>,
    job_hours: Option<f64>,
    /// Serving to latency targets: the command that starts the plan's
    /// server (issue 39; `slo.launch` says its release).
    #[serde(skip_serializing_if = "Option::is_none")]
    launch: Option<&'a str>,
    max_concurrency: Option<u32>,
    monthly_cost: Option<f64>,
    /// Instances joined into the job's cluster (1: one machine).
    nodes: u32,
    pareto: bool,
    price_per_hour: f64,
    provider: &'a str,
    region: Option<&'a str>,
    regions: &'a [String],
    /// Serving: the runtime that serves it on this offer (issue 23).
    #[serde(skip_serializing_if = "Option::is_none")]
    runtime: Option<Runtime>,
    /// Serving to latency targets: the set-up that meets them (issue 39).
    #[serde(skip_serializing_if = "Option::is_none")]
    slo: Option<&'a SloPlan>,
    /// Whether its replicas can follow the traffic off the peak on this
    /// provider's billing, and about how many the mean hour needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    off_peak: Option<crate::engine::serving_plan::OffPeak>,
    speed: Option<&'a Speed>,
    spot: bool,
    storage_cost: Option<f64>,
    /// GPUs across the nodes.
    total_gpus: u32,
    unit: Option<Unit>,
    vram_gb: f64,
}

/// One result row.
pub fn row_json<'a>(
    ranked: &'a RankedOffer,
    snapshot: &'a Snapshot,
    catalog: &'a Catalog,
    region_filter: &str,
) -> ResultRow<'a> {
    let offer = &snapshot.offers[ranked.offer];
    let cost = ranked.cost.as_ref();
    ResultRow {
        assumed: cost.map(|c| c.assumed).filter(|a| a.any()),
        badges: &ranked.badges,
        billed_hours: cost.map(|c| c.billed_hours),
        cost_per_thousand_images: cost.and_then(|c| c.cost_per_thousand_images),
        cost_per_unit: cost.map(|c| c.cost_per_unit),
        egress_cost: cost.map(|c| c.egress_cost),
        far_below: ranked.far_below,
        fabric: ranked.fabric.and_then(|i| snapshot.fabrics.get(i)),
        gpu: &offer.gpu,
        gpu_count: offer.gpu_count,
        gpu_hours: cost.map(|c| c.gpu_hours),
        gpu_name: catalog.gpu_name(&offer.gpu),
        instance: &offer.instance,
        instances: cost.map(|c| c.instances),
        internode_gbps: ranked.internode_gbps,
        job_cost: cost.map(|c| c.job_cost),
        job_hours: cost.map(|c| c.job_hours),
        launch: ranked.slo.as_ref().and_then(|p| p.launch.as_ref()).map(|l| l.command.as_str()),
        max_concurrency: ranked.max_concurrency,
        monthly_cost: cost.map(|c| c.monthly_cost),
        nodes: ranked.nodes,
        pareto: ranked.pareto,
        price_per_hour: ranked.price_per_hour,
        provider: &offer.provider,
        region: region_of(offer, region_filter),
        regions: &offer.regions,
        runtime: ranked.runtime,
        slo: ranked.slo.as_ref(),
        off_peak: ranked.slo.as_ref().and_then(|plan| {
            crate::engine::serving_plan::off_peak(
                plan,
                snapshot.billing_provider(offer).and_then(|p| p.billing_increment_s),
            )
        }),
        speed: ranked.speed.as_deref(),
        spot: ranked.spot,
        storage_cost: cost.map(|c| c.storage_cost),
        total_gpus: ranked.total_gpus,
        unit: cost.map(|c| c.unit),
        vram_gb: offer.vram_gb,
    }
}

/// The first `top` rows.
pub fn results_json<'a>(
    report: &'a Report,
    snapshot: &'a Snapshot,
    catalog: &'a Catalog,
    region_filter: &str,
    top: usize,
) -> Vec<ResultRow<'a>> {
    report.results.iter().take(top).map(|ranked| row_json(ranked, snapshot, catalog, region_filter)).collect()
}

/// The snapshot a download came from.
#[derive(Debug, Serialize)]
struct SnapshotSummary<'a> {
    date: &'a str,
    offers: usize,
}

/// The page's JSON download: every row as `rank --json` prints it, the
/// objective, the advice and the snapshot (keys in alphabetical order).
#[derive(Debug, Serialize)]
struct Download<'a> {
    advice: &'a [crate::text::Msg],
    objective: crate::engine::Objective,
    results: Vec<ResultRow<'a>>,
    snapshot: SnapshotSummary<'a>,
}

/// The page's JSON download of `report`.
pub fn download_json(report: &Report, snapshot: &Snapshot, catalog: &Catalog) -> String {
    let download = Download {
        advice: &report.advice,
        objective: report.objective,
        results: results_json(report, snapshot, catalog, "", usize::MAX),
        snapshot: SnapshotSummary { date: &snapshot.snapshot_date, offers: snapshot.offers.len() },
    };
    serde_json::to_string_pretty(&download).unwrap_or_default()
}

/// Why a row's price may not be what a job pays (issue 27): an auction
/// floor, a host-set marketplace listing, a price far below every other
/// provider's for the GPU.
pub fn price_notes(ranked: &RankedOffer, snapshot: &Snapshot) -> Vec<Msg> {
    let kind = snapshot.provider(&snapshot.offers[ranked.offer].provider).and_then(|p| p.price_kind);
    let notes = [
        (kind == Some(PriceKind::Auction)).then(|| msg!(phrases::PRICE_AUCTION)),
        (kind == Some(PriceKind::Marketplace)).then(|| msg!(phrases::PRICE_MARKETPLACE)),
        ranked.far_below.map(|others| msg!(phrases::PRICE_FAR_BELOW, others = Arg::Usd(others))),
    ];
    notes.into_iter().flatten().collect()
}

/// A row's whole story in (label, value) pairs in `lang`, for the page's
/// expanded row: what is billed and why, what is unknown, the speed
/// figures and the layout, and the speed's notes. GPUs go by their
/// catalog name, as in the table.
pub fn row_breakdown(
    ranked: &RankedOffer,
    snapshot: &Snapshot,
    catalog: &Catalog,
    lang: Lang,
) -> Vec<(String, String)> {
    let offer = &snapshot.offers[ranked.offer];
    let provider = snapshot.billing_provider(offer);
    let usd = |amount: f64| lang.usd(amount);
    let mut lines: Vec<(String, String)> = Vec::new();
    let mut add = |label: &'static Phrase, value: String| lines.push((lang.t(label).to_string(), value));
    let capacity = if ranked.spot { &phrases::CAPACITY_SPOT } else { &phrases::CAPACITY_ON_DEMAND };
    add(&phrases::ROW_CAPACITY, lang.t(capacity).to_string());
    if ranked.nodes > 1 {
        let nodes = msg!(phrases::CLUSTER_NODES, nodes = ranked.nodes, instance = &offer.instance);
        add(&phrases::ROW_CLUSTER, nodes.render(lang));
        if let Some(fabric) = ranked.fabric.and_then(|i| snapshot.fabrics.get(i)) {
            let label = crate::present::row::fabric_label(fabric, ranked.internode_gbps).render(lang);
            add(&phrases::ROW_FABRIC, label);
        }
    }
    let price = Arg::Usd(ranked.price_per_hour);
    add(
        &phrases::ROW_PRICE,
        msg!(phrases::PRICE_FOR, price = price, count = offer.gpu_count, gpu = catalog.gpu_name(&offer.gpu))
            .render(lang),
    );
    for note in price_notes(ranked, snapshot) {
        add(&phrases::ROW_PRICE_NOTE, note.render(lang));
    }
    let billing = match (provider.and_then(|p| p.billing_increment_s), provider.and_then(|p| p.minimum_charge_s)) {
        (Some(step), Some(0)) => msg!(phrases::BILLING_STEP_NO_MINIMUM, step = step),
        (Some(step), Some(minimum)) => msg!(phrases::BILLING_STEP_MINIMUM, step = step, minimum = minimum),
        (Some(step), None) => msg!(phrases::BILLING_STEP, step = step),
        (None, _) => msg!(phrases::BILLING_ASSUMED),
    };
    let billing = match (&offer.billed_as, provider) {
        (Some(_), Some(cloud)) => msg!(
            phrases::BILLING_PASSED_THROUGH,
            rule = Arg::from(billing),
            cloud = &cloud.name,
            reseller = snapshot.provider(&offer.provider).map_or(offer.provider.as_str(), |p| p.name.as_str())
        ),
        _ => billing,
    };
    add(&phrases::ROW_BILLING, billing.render(lang));
    if let Some(plan) = &ranked.slo {
        slo_lines(plan, ranked.speed.as_ref().map(|s| s.bound), lang, &mut add);
        let step = provider.and_then(|p| p.billing_increment_s);
        if let Some(off) = crate::engine::serving_plan::off_peak(plan, step) {
            let said = if off.can_follow {
                msg!(
                    phrases::OFF_PEAK_FOLLOWS,
                    step = step.unwrap_or(0),
                    mean = off.mean_hour_replicas,
                    replicas = plan.replicas,
                    instances = off.mean_hour_instances,
                    all = plan.instances,
                    share = Arg::Num(off.monthly_share * 100.0, 0),
                    month = Arg::Usd(ranked.cost.as_ref().map_or(0.0, |c| c.monthly_cost) * off.monthly_share)
                )
            } else {
                msg!(phrases::OFF_PEAK_FIXED, step = step.unwrap_or(0))
            };
            add(&phrases::ROW_OFF_PEAK, said.render(lang));
        }
    }
    if let Some(c) = &ranked.cost {
        if c.instances > 1 {
            add(&phrases::ROW_INSTANCES, msg!(phrases::INSTANCES_FOR_LOAD, count = c.instances).render(lang));
        }
        add(&phrases::ROW_JOB_TIME, msg!(phrases::JOB_TIME_WITH_START, hours = Arg::Num(c.job_hours, 2)).render(lang));
        if let Some(goodput) = c.goodput {
            let hours = Arg::Num(goodput.lost_hours, 2);
            let share = msg!(phrases::PERCENT, percent = Arg::Num((1.0 - goodput.share) * 100.0, 1));
            let lost = if goodput.stated {
                msg!(phrases::GOODPUT_STATED, hours = hours, share = share)
            } else {
                msg!(phrases::GOODPUT_MODELLED, hours = hours, share = share, gpus = ranked.total_gpus)
            };
            add(&phrases::ROW_GOODPUT, lost.render(lang));
        }
        let billed =
            msg!(phrases::BILLED_TIME, hours = Arg::Num(c.billed_hours, 2), gpu_hours = Arg::Num(c.gpu_hours, 1));
        add(&phrases::ROW_BILLED_TIME, billed.render(lang));
        add(&phrases::ROW_GPU_TIME, usd(c.gpu_cost));
        // A price the provider does not publish is said with the rate assumed.
        let fallback = Fallback::of(&snapshot.providers);
        let charge = |cost: f64, assumed: bool, phrase: &'static Phrase, rate: f64| {
            if assumed {
                msg!(*phrase, cost = Arg::Usd(cost), rate = Arg::Usd(rate)).render(lang)
            } else {
                usd(cost)
            }
        };
        let storage_rate = fallback.storage_usd_per_gb_month;
        add(
            &phrases::ROW_STORAGE,
            charge(c.storage_cost, c.assumed.storage, &phrases::COST_STORAGE_ASSUMED, storage_rate),
        );
        add(
            &phrases::ROW_EGRESS,
            charge(c.egress_cost, c.assumed.egress, &phrases::COST_EGRESS_ASSUMED, fallback.egress_usd_per_gb),
        );
        add(&phrases::ROW_JOB_COST, usd(c.job_cost));
        if (c.monthly_cost - c.job_cost).abs() > 1e-9 {
            add(&phrases::ROW_MONTH, usd(c.monthly_cost));
        }
        let per_unit = msg!(phrases::COST_PER_UNIT, cost = Arg::Usd(c.cost_per_unit), unit = c.unit.label());
        add(&phrases::ROW_PER_UNIT, per_unit.render(lang));
        if let Some(per_images) = c.cost_per_thousand_images {
            let per_images = msg!(
                phrases::COST_PER_UNIT,
                cost = Arg::Usd(per_images),
                unit = &phrases::UNIT_THOUSAND_IMAGES_DESCRIBED
            );
            add(&phrases::ROW_PER_UNIT, per_images.render(lang));
        }
    }
    // A planned row's speed is its plan's (above): the full-load figures
    // would contradict its latencies; their notes still apply.
    if let Some(s) = ranked.speed.as_ref().filter(|_| ranked.slo.is_some()) {
        if let Some(plan) = &ranked.slo {
            add(&phrases::ROW_ACCURACY, plan.bands().render(lang));
        }
        for note in &s.notes {
            add(&phrases::ROW_NOTE, note.render(lang));
        }
    } else if let Some(s) = &ranked.speed {
        for f in s.figure_lines() {
            let value = msg!(phrases::FIGURE_VALUE, value = Arg::Num(f.value, 3), unit = f.unit).render(lang);
            match f.band {
                Some(band) => add(f.label, format!("{value} ({})", band.short().render(lang))),
                None => add(f.label, value),
            }
        }
        if let Some(training) = s.training() {
            let mfu = msg!(phrases::PERCENT, percent = Arg::Num(training.mfu * 100.0, 0));
            add(&phrases::ROW_MFU, mfu.render(lang));
            add(&phrases::ROW_GLOBAL_BATCH, training.batch().render(lang));
        }
        if let Some(recipe) = ranked.recipe {
            add(&phrases::ROW_RECIPE, lang.t(recipe.label()).to_string());
        }
        if let Some(layout) = s.layout() {
            add(&phrases::ROW_LAYOUT, layout.render(lang));
        }
        if let Some(serving) = s.serving() {
            add(&phrases::ROW_RUNNING, lang.int(i64::from(serving.running_concurrency)));
        }
        add(&phrases::ROW_BOUND, lang.t(s.bound.explanation()).to_string());
        for line in s.accuracy() {
            add(&phrases::ROW_ACCURACY, line.render(lang));
        }
        for note in &s.notes {
            add(&phrases::ROW_NOTE, note.render(lang));
        }
    }
    lines
}

/// A plan's lines in a row's breakdown (issue 39): its latencies at the
/// percentile and the median, its replicas, its traffic, what limits it
/// and its launch command.
fn slo_lines(
    plan: &SloPlan,
    bound: Option<crate::engine::speed::Bound>,
    lang: Lang,
    add: &mut impl FnMut(&'static Phrase, String),
) {
    let pct = plan.percentile;
    let seconds = |l: crate::engine::serving_plan::Latency| {
        msg!(phrases::SLO_AT, pct = pct, at = Arg::Num(l.at_percentile, 3), p50 = Arg::Num(l.p50, 3)).render(lang)
    };
    add(&phrases::ROW_SLO_TTFT, format!("{} s", seconds(plan.ttft_s)));
    add(&phrases::ROW_SLO_ITL, format!("{} s", seconds(plan.itl_s)));
    add(&phrases::ROW_SLO_TPOT, format!("{} s", seconds(plan.tpot_s)));
    let replicas = msg!(
        phrases::SLO_REPLICAS,
        replicas = plan.replicas,
        gpus = plan.gpus_per_replica,
        tp = plan.tensor_parallel,
        rps = Arg::Num(plan.requests_per_s_per_replica, 2),
        instances = plan.instances
    );
    add(&phrases::ROW_SLO_REPLICAS, replicas.render(lang));
    let formats = msg!(phrases::SLO_FORMATS, weights = plan.weights.label(), kv = plan.kv_cache.label());
    add(&phrases::ROW_SLO_FORMATS, formats.render(lang));
    let t = plan.traffic;
    let traffic = msg!(
        phrases::SLO_TRAFFIC,
        rps = Arg::Num(t.peak_rps, 2),
        daily = Arg::Int(t.requests_per_day.round() as i64),
        hours = Arg::Num(t.hours_up, 0),
        factor = Arg::Num(t.peak_factor, 1)
    );
    let mut traffic = traffic.render(lang);
    if t.prefix_hit_pct > 0 {
        traffic = format!("{traffic}; {}", msg!(phrases::SLO_PREFIX_HIT, pct = t.prefix_hit_pct).render(lang));
    }
    if t.length_spread_pct > 0 {
        traffic = format!("{traffic}; {}", msg!(phrases::SLO_SPREAD, pct = t.length_spread_pct).render(lang));
    }
    add(&phrases::ROW_SLO_TRAFFIC, traffic);
    add(&phrases::ROW_SLO_LIMITS, limits(plan, bound).iter().map(|m| m.render(lang)).collect::<Vec<_>>().join("; "));
    if let Some(launch) = &plan.launch {
        let said = msg!(
            phrases::SLO_LAUNCH,
            command = launch.command.as_str(),
            runtime = launch.runtime,
            version = launch.version,
            servers = launch.servers_per_instance
        );
        add(&phrases::ROW_SLO_LAUNCH, said.render(lang));
    }
}

/// What limits a plan, most binding first: the target that sets its
/// replicas; its KV cache or the runtime's running cap, where requests
/// waited for either at the peak rate; queueing, where the first token at the percentile is
/// more than half as long again as a lone request's; and what each step
/// waits on.
fn limits(plan: &SloPlan, bound: Option<crate::engine::speed::Bound>) -> Vec<Msg> {
    use crate::engine::serving_plan::Limit;
    let mut said = vec![match plan.limit {
        Limit::OneReplica => msg!(phrases::LIMIT_ONE_REPLICA),
        Limit::FirstToken => msg!(phrases::LIMIT_FIRST_TOKEN),
        Limit::InterToken => msg!(phrases::LIMIT_BETWEEN_TOKENS),
    }];
    if plan.waited && plan.kv_sequences < plan.max_batch {
        said.push(msg!(phrases::LIMIT_KV_WAITED, n = plan.kv_sequences));
    } else if plan.waited {
        said.push(msg!(phrases::LIMIT_CAP_WAITED, n = plan.max_batch));
    }
    let at = plan.ttft_s.at_percentile;
    if at > 1.5 * plan.alone_ttft_s {
        let (at, alone) = (Arg::Num(at, 2), Arg::Num(plan.alone_ttft_s, 2));
        said.push(msg!(phrases::LIMIT_QUEUEING, pct = plan.percentile, at = at, alone = alone));
    }
    if let Some(bound) = bound {
        said.push(msg!(phrases::LIMIT_STEP, bound = bound.label()));
    }
    said
}

/// The rules a cost assumes, as the CSV's `assumed` cell: `billing`,
/// `storage`, `egress`, `;`-separated.
fn assumed_keys(assumed: Assumed) -> String {
    let keys = [(assumed.billing, "billing"), (assumed.storage, "storage"), (assumed.egress, "egress")];
    keys.iter().filter(|(on, _)| *on).map(|(_, key)| *key).collect::<Vec<_>>().join(";")
}

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn number(value: Option<f64>) -> String {
    value.map(|v| format!("{v}")).unwrap_or_default()
}

/// Every result row as CSV, one line per row, with a header: the keys and
/// numbers as `rank --json` spells them (a dot for decimals), the words
/// (speed, unit, badges) in `lang`, and each GPU by its id and its name.
pub fn results_csv(report: &Report, snapshot: &Snapshot, catalog: &Catalog, lang: Lang) -> String {
    let mut out = String::from(
        "provider,instance,regions,gpu,gpu_name,gpu_count,spot,price_per_hour,speed,bound,job_hours,billed_hours,job_cost,storage_cost,egress_cost,cost_per_unit,unit,badges,pareto,runtime,nodes,total_gpus,fabric,internode_gbps,assumed,far_below\n",
    );
    for ranked in &report.results {
        let offer = &snapshot.offers[ranked.offer];
        let cost = ranked.cost.as_ref();
        let speed = ranked.speed.as_ref();
        let badges: Vec<&str> = ranked.badges.iter().map(|b| lang.t(b.label())).collect();
        let cells = [
            field(&offer.provider),
            field(&offer.instance),
            field(&offer.regions.join(" ")),
            field(&offer.gpu),
            field(catalog.gpu_name(&offer.gpu)),
            offer.gpu_count.to_string(),
            ranked.spot.to_string(),
            format!("{}", ranked.price_per_hour),
            field(&speed.map(|s| s.headline().render(lang)).unwrap_or_default()),
            speed.map(|s| format!("{:?}", s.bound).to_ascii_lowercase()).unwrap_or_default(),
            number(cost.map(|c| c.job_hours)),
            number(cost.map(|c| c.billed_hours)),
            number(cost.map(|c| c.job_cost)),
            number(cost.map(|c| c.storage_cost)),
            number(cost.map(|c| c.egress_cost)),
            number(cost.map(|c| c.cost_per_unit)),
            field(cost.map(|c| lang.t(c.unit.label())).unwrap_or_default()),
            field(&badges.join("; ")),
            ranked.pareto.to_string(),
            ranked.runtime.map(|r| r.to_string()).unwrap_or_default(),
            ranked.nodes.to_string(),
            ranked.total_gpus.to_string(),
            field(
                ranked
                    .fabric
                    .and_then(|i| snapshot.fabrics.get(i))
                    .and_then(|f| f.fabric.as_deref())
                    .unwrap_or_default(),
            ),
            number(ranked.internode_gbps),
            field(&cost.map(|c| assumed_keys(c.assumed)).unwrap_or_default()),
            number(ranked.far_below),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, Catalog, Task, Workload};

    #[test]
    fn the_csv_has_a_line_per_row_and_quotes_what_needs_it() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        let report = rank(&Workload::for_task(Task::Image), catalog, &snapshot).unwrap();
        let csv = results_csv(&report, &snapshot, catalog, Lang::En);
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let headers = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), report.results.len());
        let unit = headers.iter().position(|h| h == "unit").unwrap();
        // Rows on GPUs without the figures a speed needs have no cost.
        let costed = report.results.iter().filter(|r| r.cost.is_some()).count();
        assert!(costed * 10 > rows.len() * 9, "{costed} of {}", rows.len());
        assert_eq!(rows.iter().filter(|r| &r[unit] == "1,000 images").count(), costed);
        assert_eq!(field("a,b \"c\""), "\"a,b \"\"c\"\"\"");
        // Each GPU by its id and its catalog name.
        let (gpu, gpu_name) =
            (headers.iter().position(|h| h == "gpu").unwrap(), headers.iter().position(|h| h == "gpu_name").unwrap());
        for (row, ranked) in rows.iter().zip(&report.results) {
            let id = &snapshot.offers[ranked.offer].gpu;
            assert_eq!((&row[gpu], &row[gpu_name]), (id.as_str(), catalog.gpu_name(id)));
        }
        assert!(rows.iter().any(|r| r[gpu] != r[gpu_name]));
        // A Spanish page's words are Spanish; its numbers stay machine-readable.
        let spanish = results_csv(&report, &snapshot, catalog, Lang::Es);
        let mut reader = csv::Reader::from_reader(spanish.as_bytes());
        assert_eq!(reader.headers().unwrap(), &headers);
        let es: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(es.iter().filter(|r| &r[unit] == "1000 imágenes").count(), costed, "{:?}", &es[0]);
        let price = headers.iter().position(|h| h == "price_per_hour").unwrap();
        assert_eq!(es[0][price], rows[0][price]);
        let speed = headers.iter().position(|h| h == "speed").unwrap();
        assert_ne!(es[0][speed], rows[0][speed]);
        let json = serde_json::to_value(results_json(&report, &snapshot, catalog, "", 3)).unwrap();
        assert_eq!(json.as_array().unwrap().len(), 3);
        assert_eq!(json[0]["unit"], "thousand_images");
        // Keys in alphabetical order as written (a `Value` sorts them
        // anyway), as `rank --json` always printed them: each key's first
        // place in the row's text, before the nested `speed` object.
        let mut keys: Vec<&String> = json[0].as_object().unwrap().keys().collect();
        keys.sort();
        let text = serde_json::to_string(&results_json(&report, &snapshot, catalog, "", 1)[0]).unwrap();
        let at: Vec<usize> = keys.iter().map(|k| text.find(&format!("\"{k}\":")).unwrap()).collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{keys:?} written at {at:?}");
        // The page's download holds every row, the objective and the snapshot.
        let download: serde_json::Value = serde_json::from_str(&download_json(&report, &snapshot, catalog)).unwrap();
        assert_eq!(download["results"].as_array().unwrap().len(), report.results.len());
        assert_eq!(download["snapshot"]["offers"], snapshot.offers.len());
        assert_eq!(download["objective"], serde_json::to_value(report.objective).unwrap());
    }

    #[test]
    fn an_expanded_row_tells_what_is_billed_and_what_is_unknown() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        let report = rank(&Workload::for_task(Task::Image), catalog, &snapshot).unwrap();
        for ranked in report.results.iter().filter(|r| r.cost.is_some()).take(20) {
            let lines = row_breakdown(ranked, &snapshot, catalog, Lang::En);
            let labels: Vec<&str> = lines.iter().map(|(l, _)| l.as_str()).collect();
            for wanted in [
                "Capacity",
                "Price",
                "Billing",
                "Job time",
                "Billed time",
                "GPU time",
                "Storage",
                "Egress",
                "Job cost",
                "Per unit",
                "Per image",
                "Bound",
            ] {
                assert!(labels.contains(&wanted), "{wanted} missing: {labels:?}");
            }
            // The GPU by its catalog name, as the table says it.
            let gpu = &snapshot.offers[ranked.offer].gpu;
            let price = &lines.iter().find(|(l, _)| l == "Price").unwrap().1;
            assert!(
                price.ends_with(&format!("× {}", catalog.gpu_name(gpu))) && !price.contains(gpu.as_str()),
                "{price}"
            );
            let cost = ranked.cost.as_ref().unwrap();
            let value = |label: &str| &lines.iter().find(|(l, _)| l == label).unwrap().1;
            // What the provider does not publish is said to be assumed (issue 27).
            assert_eq!(value("Storage").contains("not published"), cost.assumed.storage, "{}", value("Storage"));
            assert_eq!(value("Egress").contains("not published"), cost.assumed.egress, "{}", value("Egress"));
            assert_eq!(value("Billing").starts_with("not published"), cost.assumed.billing, "{}", value("Billing"));
        }
    }

    #[test]
    fn a_row_says_why_its_price_may_not_hold() {
        // Issue 27's query: Mithril's 8× H200 auction floor is left out by
        // default, listed with its reason and badge under prices=all; a
        // marketplace row says who sets its price.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        let query = Workload { model: "llama-3.1-405b".into(), concurrency: 8, ..Workload::default() };
        let payable = rank(&query, catalog, &snapshot).unwrap();
        let mithril = |o: usize| snapshot.offers[o].provider == "mithril";
        assert!(!payable.results.iter().any(|r| mithril(r.offer)));
        let left_out = payable.excluded.iter().find(|e| mithril(e.offer)).expect("the floor is listed as left out");
        let reason = left_out.reason.render(Lang::En);
        assert!(reason.contains("auction reserve price"), "{reason}");
        let all = Workload { prices: crate::engine::PriceFilter::All, ..query };
        let report = rank(&all, catalog, &snapshot).unwrap();
        let floor = report.results.iter().find(|r| mithril(r.offer)).expect("listed with prices=all");
        assert!(floor.badges.contains(&Badge::Auction));
        let notes: Vec<String> = price_notes(floor, &snapshot).iter().map(|m| m.render(Lang::En)).collect();
        assert!(notes.iter().any(|n| n.starts_with("auction reserve price: you bid")), "{notes:?}");
        let lines = row_breakdown(floor, &snapshot, catalog, Lang::Es);
        assert!(lines.iter().any(|(l, v)| l == "Sobre este precio" && v.contains("subasta")), "{lines:?}");
        let vast = payable.results.iter().find(|r| snapshot.offers[r.offer].provider == "vast").unwrap();
        assert!(vast.badges.contains(&Badge::Marketplace));
        assert!(price_notes(vast, &snapshot)[0].render(Lang::En).contains("set by the host"));
    }
}
