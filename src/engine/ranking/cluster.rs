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
pub fn joinable<'a>(
    fabrics: &'a [Fabric],
    offer: &Offer,
    provider: Option<&Provider>,
    workload: &Workload,
    runtime: Option<Runtime>,
) -> Result<Joinable<'a>, Msg> {
    let name = provider.map_or(offer.provider.as_str(), |p| p.name.as_str());
    let found = fabrics.iter().enumerate().find(|(_, f)| f.provider == offer.provider && f.covers(&offer.instance));
    let (index, fabric) = match found {
        Some((index, fabric)) if fabric.multi_node == MultiNode::Yes => (index, fabric),
        Some((_, fabric)) if fabric.multi_node == MultiNode::No => {
            return Err(msg!(phrases::CLUSTER_NOT_JOINED, provider = name, instance = &offer.instance))
        }
        Some((_, fabric)) if fabric.multi_node == MultiNode::OnRequest => {
            return Err(msg!(phrases::CLUSTER_ON_REQUEST, provider = name, instance = &offer.instance))
        }
        _ => return Err(msg!(phrases::CLUSTER_UNKNOWN, provider = name, instance = &offer.instance)),
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
