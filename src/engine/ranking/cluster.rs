//! Cluster placement for the ranking: how many nodes of an offer a job
//! asks for, whether its provider joins them (cluster_fabrics.csv), and the
//! words for why not.

use crate::engine::fabric::{Fabric, MultiNode, Network, Placement};
use crate::engine::{Offer, Provider, Runtime, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// The nodes of `offer` the user's `gpus` asks for: training spreads over
/// them (`gpus=256` on 8-GPU instances is 32 nodes); everything else starts
/// on one node.
pub fn asked_nodes(workload: &Workload, offer: &Offer) -> u32 {
    match workload.task {
        Task::Finetune | Task::Pretrain if workload.gpus > offer.gpu_count => {
            workload.gpus.div_ceil(offer.gpu_count.max(1))
        }
        _ => 1,
    }
}

/// Whether a deadline applies: jobs that end (training) can be sized to
/// finish in time; an endpoint runs as long as it is up.
pub fn deadline_hours(workload: &Workload) -> Option<f64> {
    match workload.task {
        Task::Finetune | Task::Pretrain => workload.deadline_days.map(|days| days * 24.0),
        _ => None,
    }
}

/// A provider's cluster of `offer`'s instances: the fabric row, its network
/// and its node limits.
#[derive(Debug, Clone, Copy)]
pub struct Joinable<'a> {
    /// Index into `Snapshot::fabrics`.
    pub index: usize,
    pub fabric: &'a Fabric,
    pub network: Network,
    pub min_nodes: u32,
    pub max_nodes: u32,
    pub max_stated: bool,
}

impl Joinable<'_> {
    /// `nodes` of these instances.
    pub fn placement(&self, offer: &Offer, nodes: u32) -> Placement {
        Placement { nodes, gpus_per_node: offer.gpu_count, network: self.network }
    }
}

/// Whether the provider joins `offer`'s instances into a cluster that can
/// run `workload` with `runtime`, and if not, why.
/// `found` is the fabric row that covers the offer (`fabric_of`).
pub fn joinable<'a>(
    found: Option<(usize, &'a Fabric)>,
    offer: &Offer,
    provider: Option<&Provider>,
    workload: &Workload,
    runtime: Option<Runtime>,
) -> Result<Joinable<'a>, Msg> {
    let name = provider.map_or(offer.provider.as_str(), |p| p.name.as_str());
    let (index, fabric) = match found {
        Some((index, fabric)) if fabric.multi_node == MultiNode::Yes => (index, fabric),
        Some((_, fabric)) if fabric.multi_node == MultiNode::No => {
            return Err(msg!(phrases::CLUSTER_NOT_JOINED, provider = name))
        }
        Some((_, fabric)) if fabric.multi_node == MultiNode::OnRequest => {
            return Err(msg!(phrases::CLUSTER_ON_REQUEST, provider = name))
        }
        _ => return Err(msg!(phrases::CLUSTER_UNKNOWN, provider = name)),
    };
    // Serving across nodes needs a runtime that does it.
    if let Some(runtime) = runtime.filter(|r| !r.serves_across_nodes()) {
        return Err(msg!(phrases::CLUSTER_RUNTIME, runtime = runtime.label()));
    }
    // Tensor parallelism stays inside a node.
    let training = matches!(workload.task, Task::Finetune | Task::Pretrain);
    if training && workload.tensor_parallel > offer.gpu_count {
        return Err(msg!(phrases::CLUSTER_TP_SPANS, tp = workload.tensor_parallel, count = offer.gpu_count));
    }
    let (gbps, known) = fabric.timed_gbps();
    let (max_nodes, max_stated) = fabric.node_limit();
    Ok(Joinable {
        index,
        fabric,
        network: Network { gbps, kind: fabric.kind, known },
        min_nodes: fabric.min_nodes.unwrap_or(2).max(2),
        max_nodes,
        max_stated,
    })
}

/// The fewest nodes above `low` for which `holds` gives a shape, given that
/// `high` (its node count and shape) holds: halving, on the premise the
/// ranking's searches share, that what holds for some count holds for
/// more (memory per GPU falls and a job's time shrinks as nodes are
/// added). A few probes, whatever node limit an offer file states.
pub fn fewest_nodes(low: u32, high: (u32, usize), mut holds: impl FnMut(u32) -> Option<usize>) -> (u32, usize) {
    let (mut low, mut high) = (low, high);
    while high.0 - low > 1 {
        let middle = low + (high.0 - low) / 2;
        match holds(middle) {
            Some(at) => high = (middle, at),
            None => low = middle,
        }
    }
    high
}

/// "needs 32 nodes; Mithril joins at most 16 (stated)".
pub fn too_many_nodes(nodes: u32, cluster: &Joinable<'_>, provider: &str) -> Msg {
    let limit = if cluster.max_stated {
        msg!(phrases::CLUSTER_LIMIT_STATED, max = cluster.max_nodes)
    } else {
        msg!(phrases::CLUSTER_LIMIT_ASSUMED, max = cluster.max_nodes)
    };
    msg!(phrases::CLUSTER_TOO_BIG, nodes = nodes, provider = provider, limit = limit)
}

/// "needs 256 GPUs, more than one instance has: Lambda does not join …".
pub fn needs_cluster(need: Msg, why: Msg) -> Msg {
    msg!(phrases::EXCLUDED_NEEDS_CLUSTER, need = need, why = why)
}

/// "even 64 nodes (512 GPUs) take 41 days, past the 30-day deadline".
pub fn deadline_missed(nodes: u32, gpus: u32, hours: f64, deadline_hours: f64) -> Msg {
    msg!(
        phrases::DEADLINE_MISSED,
        nodes = nodes,
        gpus = gpus,
        time = Arg::Hours(hours),
        days = Arg::Num(deadline_hours / 24.0, 1)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fewest_nodes_are_found_by_halving() {
        // Holds from 37 nodes on: found between 4 and 64 in a few probes.
        let mut probes = 0;
        let found = fewest_nodes(4, (64, 640), |n| {
            probes += 1;
            (n >= 37).then_some(n as usize * 10)
        });
        assert_eq!(found, (37, 370));
        assert!(probes <= 6, "{probes}");
        // The limit itself when nothing below holds; nothing probed when
        // there is nothing between.
        assert_eq!(fewest_nodes(5, (6, 1), |_| unreachable!()), (6, 1));
        assert_eq!(fewest_nodes(1, (100_000, 7), |_| None), (100_000, 7));
    }
}
