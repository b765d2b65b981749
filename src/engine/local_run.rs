//! The workload on the visitor's own GPU: whether it fits, how fast it
//! runs, what its electricity costs, and the verdict against the best
//! offer to rent. The same sizing, speed and cost code as every offer.

use super::cost::{cost, Costed, Fallback, Rental, Rules};
use super::local_gpu::unified_memory;
use super::memory::fit;
use super::setup::{on_gpu, OnGpu};
use super::speed::{speed, Speed};
use super::{Catalog, Error, Offer, Precision, Provider, Report, Runtime, Snapshot, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use serde::Serialize;

/// USD per kWh of electricity, the default: the US residential average,
/// about 16 ¢/kWh (EIA Electricity Monthly Update: 15.45 ¢ in January 2024,
/// 16.88 ¢ in April 2024; Electric Power Annual 2023 by state, 11–42 ¢).
pub const ELECTRICITY_USD_PER_KWH: f64 = 0.16;

/// The workload on one of the visitor's GPUs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LocalRun {
    /// Catalog GPU id.
    pub gpu: String,
    /// Serving: the runtime that would serve it on this card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<Runtime>,
    /// Why no software the support matrix knows runs the workload as asked
    /// on this card; then it is not timed, whatever its memory.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cannot_run: Option<Msg>,
    pub fits: bool,
    /// Bytes the job needs on the card, and the bytes it may use.
    pub need_bytes: f64,
    pub usable_bytes: f64,
    /// The card shares its memory with the CPU (Apple M-series).
    pub unified_memory: bool,
    /// The memory bandwidth the estimate used, GB/s: measured when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bandwidth_gbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Speed>,
    /// Board power (gpus.csv `tdp_w`); `None` where not published.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watts: Option<f64>,
    /// Electricity, USD per hour, at `ELECTRICITY_USD_PER_KWH` (0 without a
    /// power figure).
    pub price_per_hour: f64,
    /// The job at that price, as an offer's cost (no boot, no download, no
    /// storage or egress charges).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Costed>,
    /// Against renting, in sentences.
    pub verdict: Vec<Msg>,
}

/// The offer a verdict names: "provider instance (8× H100 SXM5)".
fn offer_name(snapshot: &Snapshot, catalog: &Catalog, offer: &Offer) -> Msg {
    let gpu = catalog.gpu_name(&offer.gpu);
    let provider = snapshot.provider(&offer.provider).map_or(offer.provider.clone(), |p| p.name.clone());
    msg!(phrases::EXCLUDED_EXAMPLE, provider = provider, instance = &offer.instance, count = offer.gpu_count, gpu = gpu)
}

/// Runs `workload` on one `gpu_id` of the visitor's, against the best
/// offer of `report` (the ranking for the same workload). A measured
/// bandwidth (GB/s) replaces the datasheet's.
pub fn run_locally(
    workload: &Workload,
    catalog: &Catalog,
    snapshot: &Snapshot,
    report: &Report,
    gpu_id: &str,
    measured_gbps: Option<f64>,
) -> Result<LocalRun, Error> {
    let model = workload.resolve_model(catalog)?;
    let model = model.as_ref();
    let mut gpu = catalog.gpu(gpu_id)?.clone();
    if let Some(measured) = measured_gbps.filter(|m| m.is_finite() && *m > 0.0) {
        gpu.mem_bandwidth_gbps = Some(measured);
    }
    // The software that runs it on this card, as on any offer (issue 23).
    let OnGpu { setup, workload: runs } = on_gpu(workload, model, &gpu, &catalog.support)?;
    let workload = &runs;
    let sized = fit(workload, model, &gpu, 1)?;
    let watts = gpu.tdp_w.filter(|w| w.is_finite() && *w > 0.0);
    let price_per_hour = watts.map_or(0.0, |w| w / 1000.0 * ELECTRICITY_USD_PER_KWH);
    let timed = match &setup {
        Ok(setup) if sized.fits => Some(speed(workload, model, &gpu, 1, &sized, setup)),
        _ => None,
    };
    // The visitor's machine as an offer: one GPU, billed by the second,
    // with nothing to store or send.
    let own = Provider {
        id: String::new(),
        name: String::new(),
        billing_increment_s: Some(1),
        minimum_charge_s: Some(0),
        spot_available: Some(false),
        block_storage_usd_per_gb_month: Some(0.0),
        egress_usd_per_gb: Some(0.0),
        network_storage_usd_per_gb_month: Some(0.0),
        pricing_page: None,
        price_kind: None,
        spot_notice_s: None,
        reserved_discount: None,
        closed: None,
    };
    let rules = Rules::of(Some(&own), &Fallback::of(std::slice::from_ref(&own)));
    let offer = Offer {
        provider: String::new(),
        underlying_cloud: None,
        billed_as: None,
        instance: gpu.name.clone(),
        regions: Vec::new(),
        gpu: gpu.id.clone(),
        gpu_count: 1,
        vram_gb: gpu.vram_gb,
        vcpus: None,
        ram_gb: None,
        price: Some(price_per_hour),
        spot_price: None,
        source: String::new(),
    };
    let speed_found = timed.as_ref().and_then(|t| t.as_ref().ok());
    let cost = speed_found.and_then(|s| {
        cost(
            workload,
            model,
            &sized.memory,
            s,
            &offer,
            &rules,
            Rental { spot: false, nodes: 1, startup_s: 0.0, instances: None },
        )
    });

    let mut verdict = Vec::new();
    let best = report.results.first();
    let best_name = best.map(|b| offer_name(snapshot, catalog, &snapshot.offers[b.offer]));
    let job_cost = |c: Option<&Costed>| c.map_or(Arg::Text("–".into()), |c| Arg::Usd(c.job_cost));
    let rent_instead = best.zip(best_name.clone()).map(|(best, name)| {
        msg!(
            phrases::VERDICT_RENT_INSTEAD,
            offer = name,
            price = Arg::Usd(best.price_per_hour),
            cost = job_cost(best.cost.as_ref())
        )
    });
    match timed.as_ref().map(Result::as_ref) {
        None if setup.is_err() => {
            if let Err(reason) = &setup {
                verdict.push(msg!(phrases::VERDICT_CANNOT_RUN, gpu = &gpu.name, reason = reason.clone()));
            }
            verdict.extend(rent_instead);
        }
        None => {
            verdict.push(msg!(
                phrases::VERDICT_NO_FIT,
                need = Arg::Bytes(sized.memory.per_gpu_bytes),
                gpu = &gpu.name,
                has = Arg::Bytes(sized.usable_bytes_per_gpu)
            ));
            // LLM weights at 4 bits, where they are not already that small.
            let four_bit = Workload { weight_precision: Precision::Int4, ..workload.clone() };
            if matches!(workload.task, Task::Infer | Task::Finetune)
                && workload.weight_precision.bits_per_weight() > 4.5
                && fit(&four_bit, model, &gpu, 1).is_ok_and(|f| f.fits)
            {
                verdict.push(msg!(phrases::VERDICT_TRY_4BIT));
            }
            verdict.extend(rent_instead);
        }
        Some(Err(e)) => {
            verdict.push(msg!(phrases::VERDICT_NO_SPEED, gpu = &gpu.name, reason = e.message()));
        }
        Some(Ok(local)) => {
            verdict.push(msg!(phrases::VERDICT_RUNS, gpu = &gpu.name, speed = local.headline()));
            let theirs = best.and_then(|b| b.speed.as_ref()).map(|s| s.seconds_per_unit());
            let mine = local.seconds_per_unit();
            if let (Some(best), Some(name), Some(theirs)) = (best, best_name, theirs) {
                let (price, rented, electricity) =
                    (Arg::Usd(best.price_per_hour), job_cost(best.cost.as_ref()), job_cost(cost.as_ref()));
                let factor = mine / theirs;
                verdict.push(if factor > 1.1 {
                    msg!(
                        phrases::VERDICT_RENT_FASTER,
                        offer = name,
                        factor = Arg::Num(factor, 1),
                        price = price,
                        cost = rented,
                        local = electricity
                    )
                } else if factor < 1.0 / 1.1 {
                    msg!(phrases::VERDICT_LOCAL_FASTER, factor = Arg::Num(1.0 / factor, 1), offer = name, price = price)
                } else {
                    msg!(phrases::VERDICT_SAME_SPEED, offer = name, price = price, cost = rented, local = electricity)
                });
            }
            // Serving a stated load: one card may carry only part of it.
            if let Some(replicas) = cost.as_ref().map(|c| c.instances).filter(|r| *r > 1) {
                verdict.push(msg!(phrases::VERDICT_LOAD_SHARE, percent = Arg::Num(100.0 / f64::from(replicas), 0)));
            }
        }
    }
    Ok(LocalRun {
        gpu: gpu.id.clone(),
        runtime: setup.as_ref().ok().and_then(|s| s.runtime),
        cannot_run: setup.err(),
        fits: sized.fits,
        need_bytes: sized.memory.per_gpu_bytes,
        usable_bytes: sized.usable_bytes_per_gpu,
        unified_memory: unified_memory(&gpu),
        bandwidth_gbps: gpu.mem_bandwidth_gbps,
        speed: speed_found.cloned(),
        watts,
        price_per_hour,
        cost,
        verdict,
    })
}

// Native only: they rank the committed snapshot, read from disk.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
