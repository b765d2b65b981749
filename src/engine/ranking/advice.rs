//! Advice drawn from the ranked case, following the product brief's rules:
//! one fast card over splitting, billing granularity, spot where it is
//! safe, NVLink once a model spans GPUs, and what bounds the speed.

use super::{Badge, Report};
use crate::engine::cost::hours_label;
use crate::engine::speed::Bound;
use crate::engine::{Catalog, Snapshot, Task, Workload};

pub fn advise(
    workload: &Workload,
    report: &Report,
    catalog: &Catalog,
    snapshot: &Snapshot,
    spot_refused: Option<&'static str>,
) -> Vec<String> {
    let mut advice = Vec::new();
    let Some(best) = report.results.iter().find(|r| r.cost.is_some()) else {
        return advice;
    };
    let offer = |row: &super::RankedOffer| &snapshot.offers[row.offer];
    let gpu_name = |row: &super::RankedOffer| {
        catalog.gpu(&offer(row).gpu).map_or_else(|_| offer(row).gpu.clone(), |g| g.name.clone())
    };

    // One fast card beats splitting.
    let single = report.results.iter().find(|r| offer(r).gpu_count == 1 && r.cost.is_some());
    if offer(best).gpu_count > 1 {
        if let Some(single) = single {
            advice.push(format!(
                "It fits on one GPU ({}): a single fast card is simpler than splitting, and for latency-sensitive serving one card per replica beats tensor parallelism.",
                gpu_name(single)
            ));
        }
    }

    // The model spans GPUs: NVLink.
    let smallest = report.results.iter().map(|r| offer(r).gpu_count).min().unwrap_or(1);
    if smallest > 1 {
        let nvlink = report.results.iter().filter(|r| r.badges.contains(&Badge::Nvlink)).count();
        advice.push(format!(
            "Your model spans at least {smallest} GPUs: choose NVLink ({nvlink} of the {} offers that hold it have it); PCIe-only instances spend part of every step on all-reduces.",
            report.results.len()
        ));
    }

    // Billing granularity, for jobs that end.
    if workload.task != Task::Infer {
        let rounded = report
            .results
            .iter()
            .filter_map(|r| Some((r, r.cost.as_ref()?)))
            .find(|(_, c)| c.billed_hours > 1.2 * c.job_hours);
        if let Some((row, c)) = rounded {
            advice.push(format!(
                "This job of {} is billed as {:.0} hour(s) on {} ({}): {:.1}× its run time. Per-second or per-minute billing protects short jobs.",
                hours_label(c.job_hours),
                c.billed_hours,
                offer(row).provider,
                if row.badges.contains(&Badge::PerHourBilling) { "per-hour billing" } else { "its minimum charge" },
                c.billed_hours / c.job_hours
            ));
        }
    }

    // Spot: what it saves where it is safe, or why it is left out.
    match spot_refused {
        Some(reason) if workload.task == Task::Infer && snapshot.offers.iter().any(|o| o.spot_price.is_some()) => {
            advice.push(format!("Spot prices are left out: {reason}."));
        }
        Some(_) => {}
        None => {
            let cheapest = |spot: bool| {
                report
                    .results
                    .iter()
                    .filter(|r| r.spot == spot)
                    .filter_map(|r| r.cost.as_ref())
                    .map(|c| c.job_cost)
                    .reduce(f64::min)
            };
            if let (Some(spot), Some(on_demand)) = (cheapest(true), cheapest(false)) {
                if spot < on_demand {
                    let why = match workload.task {
                        Task::Finetune | Task::Pretrain => format!(
                            "safe here because you checkpoint every {} minutes (an interruption costs a restart and half an interval)",
                            workload.checkpoint_minutes
                        ),
                        Task::Infer => "accepted because you allowed spot for serving".to_string(),
                        _ => "safe here because batch work resumes where it stopped".to_string(),
                    };
                    advice.push(format!(
                        "Spot saves {:.0}% on the whole job and is {why}.",
                        (1.0 - spot / on_demand) * 100.0
                    ));
                }
            }
        }
    }

    // What bounds the speed of the best offer.
    if let Some(speed) = &best.speed {
        match (workload.task, speed.bound) {
            (Task::Infer, Bound::Memory) => advice.push(
                "Decoding is memory-bound: every token streams the weights and the KV cache, so HBM bandwidth or FP8/INT8 weights and KV cache help more than arithmetic.".to_string(),
            ),
            (_, Bound::Interconnect) => advice.push(
                "GPUs wait on each other: NVLink, fewer GPUs per replica, or more work per step would help.".to_string(),
            ),
            _ => {}
        }
    }

    // Unknown storage and egress prices.
    let unknown = report
        .results
        .iter()
        .take(20)
        .filter(|r| r.cost.as_ref().is_some_and(|c| c.storage_cost.is_none() || c.egress_cost.is_none()))
        .count();
    if unknown > 0 {
        advice.push(format!(
            "Storage or egress prices are unknown for {unknown} of the top 20 offers: their totals count GPU time and the known charges only."
        ));
    }
    advice
}
