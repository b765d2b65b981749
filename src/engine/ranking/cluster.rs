//! Cluster placement for the ranking: how many nodes of an offer a job
//! asks for, whether its provider joins them (cluster_fabrics.csv), the
//! fewest that hold the job in time, and the words for why not.

use super::shape::{shape_index, OnThisGpu, Shape, ShapeKey};
use crate::engine::fabric::{Fabric, MultiNode, Network, Placement};
use crate::engine::{Offer, Provider, Runtime, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// Why one machine does not do: the sentence, and whether memory alone
/// is the reason (then a provider the data says nothing about is not
/// tried).
pub struct Need {
    pub why: Msg,
    pub memory: bool,
}

/// The cluster a row runs on, for the row and its badges.
pub struct OnCluster<'a> {
    pub nodes: u32,
    pub joinable: Option<Joinable<'a>>,
}

/// The largest clusters seen, for the note when nothing runs the job: the
/// fastest that missed the deadline (hours, nodes, offer) and the largest
/// any provider joins (GPUs, nodes, offer).
#[derive(Default)]
pub struct Limits {
    pub fastest_missed: Option<(f64, u32, usize)>,
    pub largest: Option<(u32, u32, usize)>,
}

/// An offer (`index` in the snapshot) that one machine does not do, its
/// provider's fabric row for it (`FabricIndex::fabric_of`), and the job as
/// set up on its GPU.
pub struct Cluster<'a, 'o> {
    pub index: usize,
    pub offer: &'o Offer,
    pub provider: Option<&'o Provider>,
    pub found: Option<(usize, &'a Fabric)>,
    pub here: &'o OnThisGpu<'o>,
}

impl<'a> Cluster<'a, '_> {
    /// The job on a cluster of the offer's nodes, where one machine does
    /// not do (`need`): the fewest nodes its provider joins that hold the
    /// job and, with a deadline of `deadline` hours, finish in time. The
    /// index of their shape in `shapes`; or why no cluster does.
    pub fn place(
        &self,
        workload: &Workload,
        deadline: Option<f64>,
        shapes: &mut Vec<(ShapeKey, Shape)>,
        limits: &mut Limits,
        need: Need,
    ) -> Result<(usize, OnCluster<'a>), Msg> {
        let (index, offer, provider) = (self.index, self.offer, self.provider);
        // An instance too small for the model, at a provider the data says
        // nothing about: the size is the reason.
        if need.memory && self.found.is_none_or(|(_, f)| f.multi_node == MultiNode::Unknown) {
            return Err(need.why);
        }
        let serving_runtime = (workload.task == Task::Infer).then_some(self.here.setup.runtime).flatten();
        let joinable = match joinable(self.found, offer, provider, workload, serving_runtime) {
            Ok(joinable) => joinable,
            Err(why) => return Err(needs_cluster(need.why, why)),
        };
        let (min, max) = (asked_nodes(workload, offer).max(joinable.min_nodes), joinable.max_nodes);
        let most = max * offer.gpu_count;
        if limits.largest.is_none_or(|(gpus, _, _)| most > gpus) {
            limits.largest = Some((most, max, index));
        }
        if min > max {
            let name = provider.map_or(offer.provider.as_str(), |p| p.name.as_str());
            return Err(needs_cluster(need.why, too_many_nodes(min, &joinable, name)));
        }
        let on = Nodes { offer, joinable: &joinable, here: self.here };
        let held = on.fewest_holding(shapes, min, max, workload.gpus)?;
        let (nodes, at) = match deadline {
            Some(limit) => on.fewest_in_time(shapes, held, max, limit).map_err(|(slowest, why)| {
                if limits.fastest_missed.is_none_or(|(h, _, _)| slowest < h) {
                    limits.fastest_missed = Some((slowest, max, index));
                }
                why
            })?,
            None => held,
        };
        Ok((at, OnCluster { nodes, joinable: Some(joinable) }))
    }
}

/// Counts of `offer`'s nodes on a cluster, sized and timed as the job is
/// set up `here`.
struct Nodes<'o> {
    offer: &'o Offer,
    joinable: &'o Joinable<'o>,
    here: &'o OnThisGpu<'o>,
}

impl Nodes<'_> {
    /// The shape of `nodes` nodes, in `shapes`.
    fn shape(&self, shapes: &mut Vec<(ShapeKey, Shape)>, nodes: u32) -> usize {
        let key = ShapeKey { count: self.offer.gpu_count, nodes, fabric: self.joinable.index };
        shape_index(shapes, key, || self.here.shape(self.joinable.placement(self.offer, nodes)))
    }

    /// The fewest nodes from `min` to `max` that hold the job. Memory per
    /// GPU falls as nodes are added (sharded training, pipelined serving),
    /// so after a few tries one at the limit says whether any count does,
    /// and halving finds the fewest.
    fn fewest_holding(
        &self,
        shapes: &mut Vec<(ShapeKey, Shape)>,
        min: u32,
        max: u32,
        gpus: u32,
    ) -> Result<(u32, usize), Msg> {
        let mut fits = |nodes: u32, last_reason: &mut Option<Msg>| -> Option<usize> {
            let at = self.shape(shapes, nodes);
            match &shapes[at].1.fit {
                Ok(f) if f.fits => Some(at),
                Ok(f) => {
                    *last_reason = f.reason.clone();
                    None
                }
                Err(reason) => {
                    *last_reason = Some(reason.clone());
                    None
                }
            }
        };
        let mut last_reason = None;
        let tries = min.saturating_add(4).min(max);
        for nodes in min..=tries {
            if let Some(at) = fits(nodes, &mut last_reason) {
                return Ok((nodes, at));
            }
        }
        if tries < max {
            if let Some(at) = fits(max, &mut last_reason) {
                return Ok(fewest_nodes(tries, (max, at), |n| fits(n, &mut None)));
            }
        }
        let reason = last_reason.unwrap_or_else(|| msg!(phrases::NEEDS_GPUS, gpus = gpus));
        Err(msg!(phrases::CLUSTER_MEMORY, nodes = max, reason = reason))
    }

    /// The fewest nodes from `held` to `max` that finish within `limit`
    /// hours. A job's time falls as nodes are added (or stays, where the
    /// fabric bounds it), so the largest cluster says whether any does, and
    /// halving between finds the fewest: a few probes, whatever the limit.
    /// When none does: the largest cluster's hours, and why.
    fn fewest_in_time(
        &self,
        shapes: &mut Vec<(ShapeKey, Shape)>,
        held: (u32, usize),
        max: u32,
        limit: f64,
    ) -> Result<(u32, usize), (f64, Msg)> {
        let spot_only = self.offer.price.is_none();
        let mut hours = |n: u32| -> (usize, f64) {
            let at = self.shape(shapes, n);
            (at, self.here.hours(&shapes[at].1, n, spot_only).unwrap_or(f64::INFINITY))
        };
        if hours(held.0).1 <= limit {
            return Ok(held);
        }
        let (at_max, slowest) = hours(max);
        if slowest > limit {
            return Err((slowest, deadline_missed(max, max * self.offer.gpu_count, slowest, limit)));
        }
        Ok(fewest_nodes(held.0, (max, at_max), |n| {
            let (at, h) = hours(n);
            (h <= limit).then_some(at)
        }))
    }
}

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
        Task::Finetune | Task::Pretrain => {
            workload.deadline_days.or(sized_to_unstated_deadline(workload).then_some(UNSTATED_DEADLINE_DAYS))
        }
        _ => None,
    }
    .map(|days| days * 24.0)
}

/// The days a pretraining run with neither a deadline nor a GPU count is
/// sized to finish in (issue 40: 70B on 15T tokens ranked "9,094 days on one
/// node" first): each offer gets the fewest nodes that finish within a
/// quarter, and the advice says so. Published runs of that size took weeks
/// to a few months: Llama 3 405B 54 days of pretraining on 16,384 H100s,
/// DeepSeek-V3 2.788M H800-hours on 2,048 GPUs (about 57 days), BLOOM
/// about 3.5 months on 384 A100s (data/calibration/pretraining_runs.csv).
pub const UNSTATED_DEADLINE_DAYS: f64 = 90.0;

/// Whether `workload` is a pretraining run that states neither a deadline
/// nor its GPU count, and so is sized to `UNSTATED_DEADLINE_DAYS`.
pub fn sized_to_unstated_deadline(workload: &Workload) -> bool {
    workload.task == Task::Pretrain && workload.deadline_days.is_none() && workload.gpus <= 1
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
