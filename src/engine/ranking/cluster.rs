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

/// The fabric rows of each provider, in file order: built once per ranking,
/// so an offer's row is found among its provider's few.
pub struct FabricIndex<'a> {
    by_provider: Vec<(&'a str, Vec<usize>)>,
    fabrics: &'a [Fabric],
}

impl<'a> FabricIndex<'a> {
    pub fn new(fabrics: &'a [Fabric]) -> FabricIndex<'a> {
        let mut by_provider: Vec<(&str, Vec<usize>)> = Vec::new();
        for (i, fabric) in fabrics.iter().enumerate() {
            match by_provider.iter_mut().find(|(p, _)| *p == fabric.provider) {
                Some((_, rows)) => rows.push(i),
                None => by_provider.push((fabric.provider.as_str(), vec![i])),
            }
        }
        FabricIndex { by_provider, fabrics }
    }

    /// The row that covers `offer` (the first of its provider's that
    /// matches), with its index.
    pub fn fabric_of(&self, offer: &Offer) -> Option<(usize, &'a Fabric)> {
        let (_, rows) = self.by_provider.iter().find(|(p, _)| *p == offer.provider)?;
        rows.iter().map(|&i| (i, &self.fabrics[i])).find(|(_, f)| f.covers(&offer.instance))
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
