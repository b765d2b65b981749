//! What the ranking answers: the offers that hold the workload with their
//! badges, speed and cost, the offers left out and why, and the advice.

use crate::engine::cost::Costed;
use crate::engine::memory::MemoryBreakdown;
use crate::engine::serving_plan::SloPlan;
use crate::engine::speed::Speed;
use crate::engine::{Objective, Runtime, Task, TrainingRecipe};
use crate::text::{phrases, Msg, Phrase};
use serde::Serialize;
use std::sync::Arc;

/// What an offer has that matters for the choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Badge {
    /// HBM-class memory bandwidth.
    Hbm,
    /// FP8 tensor cores.
    Fp8,
    /// Several GPUs joined by NVLink (NVIDIA's GPU-to-GPU link).
    Nvlink,
    /// Several GPUs joined by Infinity Fabric (AMD's).
    InfinityFabric,
    /// Several accelerators joined by RoCE ports on the chip (Intel Gaudi).
    ChipRoce,
    /// Several GPUs joined by a GPU-to-GPU link gpus.csv does not name.
    GpuLink,
    /// Several GPUs joined only through PCIe.
    PcieOnly,
    /// Spot capacity, for work that survives interruptions.
    SpotSafe,
    /// Billed by the hour: short jobs pay for the whole hour.
    PerHourBilling,
    /// The workload fits on one GPU of this kind.
    SingleGpuFits,
    /// The provider does not publish its billing step, storage or egress
    /// price: the cost assumes the least favourable published one.
    RulesAssumed,
    /// The price is an auction floor (shown only with `prices=all`).
    Auction,
    /// A host sets the price of this one machine (a marketplace listing).
    Marketplace,
    /// Under half of what any other provider asks for the GPU.
    UnusuallyLow,
    /// Several instances joined into one cluster.
    Cluster,
    /// The cluster's fabric has no stated speed: timed at the slowest.
    FabricUnknown,
    /// Such clusters are sold as reserved capacity only.
    ReservedOnly,
}

impl Badge {
    /// The badge of a GPU-to-GPU link, by the family gpus.csv names it in
    /// `interconnect` ("NVLink 4", "Infinity Fabric (XGMI)", "on-chip RoCE
    /// ports"); `None` without a link faster than PCIe.
    pub fn gpu_link(gpu: &crate::engine::Gpu) -> Option<Badge> {
        gpu.link_gbps?;
        let named = gpu.interconnect.as_deref().unwrap_or("");
        Some(if named.starts_with("NVLink") {
            Badge::Nvlink
        } else if named.starts_with("Infinity Fabric") {
            Badge::InfinityFabric
        } else if named.contains("RoCE") {
            Badge::ChipRoce
        } else {
            Badge::GpuLink
        })
    }

    /// Whether the badge casts doubt on the price as what a job pays: a
    /// host-set marketplace price, an auction floor, a price far below
    /// every other provider's, a total that assumes unpublished rules.
    pub const fn doubts_price(self) -> bool {
        matches!(self, Badge::Marketplace | Badge::Auction | Badge::UnusuallyLow | Badge::RulesAssumed)
    }

    /// Whether the badge says the GPUs talk over a link faster than PCIe.
    pub const fn is_gpu_link(self) -> bool {
        matches!(self, Badge::Nvlink | Badge::InfinityFabric | Badge::ChipRoce | Badge::GpuLink)
    }

    /// The badge's words, and what it means for its tooltip (issue 40).
    const fn words(self) -> (&'static Phrase, &'static Phrase) {
        match self {
            Badge::Hbm => (&phrases::BADGE_HBM, &phrases::BADGE_HBM_TITLE),
            Badge::Fp8 => (&phrases::BADGE_FP8, &phrases::BADGE_FP8_TITLE),
            Badge::Nvlink => (&phrases::BADGE_NVLINK, &phrases::BADGE_NVLINK_TITLE),
            Badge::InfinityFabric => (&phrases::BADGE_INFINITY_FABRIC, &phrases::BADGE_INFINITY_FABRIC_TITLE),
            Badge::ChipRoce => (&phrases::BADGE_CHIP_ROCE, &phrases::BADGE_CHIP_ROCE_TITLE),
            Badge::GpuLink => (&phrases::BADGE_GPU_LINK, &phrases::BADGE_GPU_LINK_TITLE),
            Badge::PcieOnly => (&phrases::BADGE_PCIE_ONLY, &phrases::BADGE_PCIE_ONLY_TITLE),
            Badge::SpotSafe => (&phrases::BADGE_SPOT_SAFE, &phrases::BADGE_SPOT_SAFE_TITLE),
            Badge::PerHourBilling => (&phrases::BADGE_PER_HOUR, &phrases::BADGE_PER_HOUR_TITLE),
            Badge::SingleGpuFits => (&phrases::BADGE_SINGLE_GPU, &phrases::BADGE_SINGLE_GPU_TITLE),
            Badge::RulesAssumed => (&phrases::BADGE_RULES_ASSUMED, &phrases::BADGE_RULES_ASSUMED_TITLE),
            Badge::Auction => (&phrases::BADGE_AUCTION, &phrases::BADGE_AUCTION_TITLE),
            Badge::Marketplace => (&phrases::BADGE_MARKETPLACE, &phrases::BADGE_MARKETPLACE_TITLE),
            Badge::UnusuallyLow => (&phrases::BADGE_UNUSUALLY_LOW, &phrases::BADGE_UNUSUALLY_LOW_TITLE),
            Badge::Cluster => (&phrases::BADGE_CLUSTER, &phrases::BADGE_CLUSTER_TITLE),
            Badge::FabricUnknown => (&phrases::BADGE_FABRIC_UNKNOWN, &phrases::BADGE_FABRIC_UNKNOWN_TITLE),
            Badge::ReservedOnly => (&phrases::BADGE_RESERVED_ONLY, &phrases::BADGE_RESERVED_ONLY_TITLE),
        }
    }

    pub const fn label(self) -> &'static Phrase {
        self.words().0
    }

    /// What the badge means, for its tooltip.
    pub const fn explanation(self) -> &'static Phrase {
        self.words().1
    }
}

/// An offer that holds the workload, on-demand or spot. `offer` indexes
/// `Snapshot::offers`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedOffer {
    pub offer: usize,
    pub spot: bool,
    /// Serving: the runtime that serves it on this offer's GPUs (the one
    /// asked for, or with `runtime=auto` the best the support matrix says
    /// runs here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runtime: Option<Runtime>,
    /// USD per hour for the instance at this capacity type.
    pub price_per_hour: f64,
    /// Bytes each of the instance's GPUs holds, the model split across all.
    pub per_gpu_bytes: f64,
    /// Training: the recipe that memory assumes on this GPU (pure BF16
    /// runs as mixed precision where the GPU has no BF16).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<TrainingRecipe>,
    /// Serving: concurrent sequences of the requested length the instance holds.
    pub max_concurrency: Option<u32>,
    /// Serving to latency targets: the set-up that meets them on this
    /// offer, and the instances it takes (`serving_plan`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slo: Option<SloPlan>,
    /// How fast it runs there; `None` where the GPU lacks the figures.
    /// Shared by every offer of the same GPU shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Arc<Speed>>,
    /// What the whole job costs there; `None` without a speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Costed>,
    pub badges: Vec<Badge>,
    /// When the price is unusually low: the lowest typical price per
    /// GPU-hour any other provider asks for the GPU at this capacity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub far_below: Option<f64>,
    /// On the cost-vs-speed Pareto frontier: nothing else is both cheaper
    /// and faster.
    pub pareto: bool,
    /// Instances of the offer joined into one cluster (1: one machine).
    pub nodes: u32,
    /// GPUs across those nodes.
    pub total_gpus: u32,
    /// The cluster's fabric: an index of `Snapshot::fabrics`.
    #[serde(skip)]
    pub fabric: Option<usize>,
    /// Gbit/s per node between the nodes, where the data states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internode_gbps: Option<f64>,
}

/// An offer left out, with the reason a user reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exclusion {
    pub offer: usize,
    pub reason: Msg,
}

/// The engine's answer for one workload against one snapshot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The memory one serving replica needs on a single GPU, or a training
    /// job on its GPUs.
    pub memory: MemoryBreakdown,
    /// The task ranked for, which decides what "cost" and "speed" mean.
    pub task: Task,
    pub objective: Objective,
    /// Offers that hold the workload, best first for the objective.
    pub results: Vec<RankedOffer>,
    pub excluded: Vec<Exclusion>,
    /// When no offer holds the workload: what even the largest node would
    /// need, so the user knows to shrink the job or go multi-node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_single_node: Option<Msg>,
    /// Where the rows whose price one can rely on were ranked first
    /// (`Workload::price_trust`), and how many rows that moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reliable_first: Option<ReliableFirst>,
    /// Advice for this case, most useful first.
    pub advice: Vec<Msg>,
}

/// The rows whose price one can rely on ranked first (issue 40).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReliableFirst {
    /// Rows with a doubtful price that ranked below a reliable one.
    pub moved: u32,
    /// For every job (`rely=first`), not only because this one runs over a day.
    pub always: bool,
}

impl RankedOffer {
    /// USD per hour for all its nodes at this capacity type.
    pub fn hourly_price(&self) -> f64 {
        self.price_per_hour * f64::from(self.nodes.max(1))
    }

    /// (cost, time) of a row for the frontier and the chart: an endpoint
    /// weighs $/1M tokens against each user's wait per token; speech and
    /// music generation $ per hour of audio against the seconds each second
    /// of audio takes; other jobs, a batch of requests among them, their
    /// cost against their hours. `None` without a cost or a speed.
    pub fn cost_and_time(&self, task: Task) -> Option<(f64, f64)> {
        let cost = self.cost.as_ref()?;
        match task {
            _ if weighed_as_job(task, cost.unit) => Some((cost.job_cost, cost.job_hours)),
            Task::Speech | Task::Music => Some((cost.cost_per_unit, self.speed.as_ref()?.realtime_factor()?)),
            _ => Some((cost.cost_per_unit, 1.0 / self.speed.as_ref()?.decode_tokens_per_s()?)),
        }
    }
}

/// Whether rows of `task` quoted per `unit` are weighed by their whole
/// job's cost against its hours (`RankedOffer::cost_and_time`, the chart's
/// axes): every job but an endpoint's month and speech or music's rate.
pub fn weighed_as_job(task: Task, unit: crate::engine::cost::Unit) -> bool {
    match task {
        Task::Infer => unit == crate::engine::cost::Unit::ThousandRequests,
        Task::Speech | Task::Music => false,
        Task::Finetune | Task::Pretrain | Task::Image | Task::Video | Task::Audio => true,
    }
}

#[cfg(test)]
mod tests {
    use super::Badge;
    use crate::engine::Catalog;

    #[test]
    fn a_gpu_link_is_badged_by_the_family_its_vendor_names() {
        // Issue 40: AMD's link is Infinity Fabric, not NVLink; Gaudi joins
        // its chips by RoCE ports on the die; a PCIe card has no link badge.
        let catalog = Catalog::bundled().unwrap();
        let link = |id: &str| Badge::gpu_link(catalog.gpu(id).unwrap());
        assert_eq!(link("h100_sxm"), Some(Badge::Nvlink));
        assert_eq!(link("mi300x"), Some(Badge::InfinityFabric));
        assert_eq!(link("gaudi2"), Some(Badge::ChipRoce));
        assert_eq!(link("rtx_4090"), None);
        assert!(Badge::InfinityFabric.is_gpu_link() && !Badge::PcieOnly.is_gpu_link());
    }
}
