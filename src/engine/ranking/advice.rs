//! Advice drawn from the ranked case, following the product brief's rules:
//! one fast card over splitting, billing granularity, spot where it is
//! safe, NVLink once a model spans GPUs, and what bounds the speed.

use super::{Badge, Report};
use crate::engine::fabric::FabricKind;
use crate::engine::speed::Bound;
use crate::engine::{Catalog, Snapshot, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg, Phrase};

pub fn advise(
    workload: &Workload,
    report: &Report,
    catalog: &Catalog,
    snapshot: &Snapshot,
    spot_refused: Option<&'static Phrase>,
    spot_left_out_nodes: Option<u32>,
) -> Vec<Msg> {
    let mut advice = Vec::new();
    let Some(best) = report.results.iter().find(|r| r.cost.is_some()) else {
        return advice;
    };
    cluster_advice(workload, report, best, snapshot, spot_left_out_nodes, &mut advice);
    let offer = |row: &super::RankedOffer| &snapshot.offers[row.offer];
    let gpu_name = |row: &super::RankedOffer| catalog.gpu_name(&offer(row).gpu).to_string();

    // One fast card beats splitting; for latency-sensitive serving, one per
    // replica (the brief's rule). A job that ends is not serving.
    // Named with its row, so that advice and ranking agree (issue 40: the
    // advice said "a single card is simpler" beside a 2-GPU first row).
    let single = report.results.iter().position(|r| offer(r).gpu_count == 1 && r.cost.is_some());
    // A plan to latency targets whose replicas are one GPU each already
    // follows the rule, however many GPUs its instance has.
    let split_replicas = best.slo.as_ref().is_none_or(|plan| plan.gpus_per_replica > 1);
    if offer(best).gpu_count > 1 && split_replicas {
        if let Some(at) = single {
            let single = &report.results[at];
            let said =
                if workload.task == Task::Infer { &phrases::ADVICE_ONE_GPU } else { &phrases::ADVICE_ONE_GPU_JOB };
            advice.push(msg!(*said, gpu = gpu_name(single), instance = &offer(single).instance, rank = at as u32 + 1));
        }
    }

    // The model spans GPUs: a GPU-to-GPU link (clusters have their own advice).
    let smallest = report.results.iter().map(|r| offer(r).gpu_count).min().unwrap_or(1);
    if smallest > 1 && best.nodes == 1 {
        let nvlink = report.results.iter().filter(|r| r.badges.iter().any(|b| b.is_gpu_link())).count();
        advice.push(msg!(phrases::ADVICE_NVLINK, count = smallest, nvlink = nvlink, total = report.results.len()));
    }

    // Billing granularity, for jobs that end.
    if workload.task != Task::Infer {
        let rounded = report
            .results
            .iter()
            .filter_map(|r| Some((r, r.cost.as_ref()?)))
            .find(|(_, c)| c.billed_hours > 1.2 * c.job_hours);
        if let Some((row, c)) = rounded {
            advice.push(msg!(
                phrases::ADVICE_BILLING,
                job = Arg::Hours(c.job_hours),
                billed = Arg::Hours(c.billed_hours),
                provider = &offer(row).provider,
                why = if c.assumed.billing {
                    &phrases::BILLING_HOUR_ASSUMED
                } else if row.badges.contains(&Badge::PerHourBilling) {
                    Badge::PerHourBilling.label()
                } else {
                    &phrases::BILLING_MINIMUM
                },
                ratio = Arg::Num(c.billed_hours / c.job_hours, 1)
            ));
        }
    }

    // Spot: what it saves where it is safe, or why it is left out.
    match spot_refused {
        Some(reason)
            if matches!(workload.task, Task::Infer | Task::Pretrain)
                && snapshot.offers.iter().any(|o| o.spot_price.is_some()) =>
        {
            advice.push(msg!(phrases::ADVICE_SPOT_LEFT_OUT, reason = reason));
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
                        _ if workload.is_endpoint() => msg!(phrases::SPOT_ACCEPTED_SERVING),
                        Task::Finetune | Task::Pretrain => {
                            msg!(phrases::SPOT_SAFE_CHECKPOINTS, minutes = workload.checkpoint_minutes)
                        }
                        _ => msg!(phrases::SPOT_SAFE_BATCH),
                    };
                    advice.push(msg!(
                        phrases::ADVICE_SPOT_SAVES,
                        percent = Arg::Num((1.0 - spot / on_demand) * 100.0, 0),
                        why = why
                    ));
                }
            }
        }
    }

    // What bounds the speed of the best offer.
    if let Some(speed) = &best.speed {
        match (workload.task, speed.bound) {
            (Task::Infer, Bound::Memory) => advice.push(msg!(phrases::ADVICE_MEMORY_BOUND)),
            (_, Bound::Interconnect) => advice.push(msg!(phrases::ADVICE_INTERCONNECT)),
            _ => {}
        }
    }

    // Rules assumed, and prices that may not hold, among the top rows.
    let top = || report.results.iter().take(20);
    let assumed = top().filter(|r| r.badges.contains(&Badge::RulesAssumed)).count();
    if assumed > 0 {
        advice.push(msg!(phrases::ADVICE_ASSUMED_RULES, count = assumed));
    }
    let odd = [Badge::Auction, Badge::Marketplace, Badge::UnusuallyLow];
    let odd = top().filter(|r| r.badges.iter().any(|b| odd.contains(b))).count();
    if odd > 0 {
        advice.push(msg!(phrases::ADVICE_ODD_PRICES, count = odd));
    }
    advice
}

/// Days past which a job on a cluster is usually run on reserved capacity:
/// a week, the shortest term most providers reserve clusters for (AWS
/// Capacity Blocks from 1 day, Lambda 1-Click Clusters in weeks, Mithril
/// reservations up to 2 weeks; cluster_fabrics.csv sources).
const RESERVED_AFTER_DAYS: f64 = 7.0;

/// Days past which a job on one node is long enough to want a deadline.
const LONG_JOB_DAYS: f64 = 30.0;

/// Advice for jobs across nodes, following the guide: NVLink inside the
/// node and InfiniBand/EFA between nodes; reserved capacity for long runs;
/// spot only where an interruption does not stop the job too often.
fn cluster_advice(
    workload: &Workload,
    report: &Report,
    best: &super::RankedOffer,
    snapshot: &Snapshot,
    spot_left_out_nodes: Option<u32>,
    advice: &mut Vec<Msg>,
) {
    let days = best.cost.as_ref().map_or(0.0, |c| c.job_hours / 24.0);
    if best.nodes > 1 {
        let slow = report
            .results
            .iter()
            .filter(|r| r.nodes > 1)
            .filter(|r| r.fabric.and_then(|i| snapshot.fabrics.get(i)).is_some_and(|f| !fast_fabric(f.kind)))
            .count();
        advice.push(msg!(phrases::ADVICE_CLUSTER_FABRIC, slow = slow));
        if days > RESERVED_AFTER_DAYS {
            advice.push(msg!(phrases::ADVICE_RESERVED_CLUSTER, time = Arg::Hours(days * 24.0), nodes = best.nodes));
        }
    } else if matches!(workload.task, Task::Finetune | Task::Pretrain)
        && workload.deadline_days.is_none()
        && days > LONG_JOB_DAYS
    {
        advice.push(msg!(phrases::ADVICE_SET_DEADLINE, time = Arg::Hours(days * 24.0)));
    }
    if let Some(nodes) = spot_left_out_nodes {
        advice.push(msg!(phrases::ADVICE_SPOT_CLUSTER, nodes = nodes));
    }
}

/// Fabrics built for collectives between nodes: InfiniBand, EFA, RoCE
/// (RDMA); GPUDirect-TCPX and plain Ethernet go through TCP.
const fn fast_fabric(kind: FabricKind) -> bool {
    matches!(kind, FabricKind::InfiniBand | FabricKind::Efa | FabricKind::Roce)
}
