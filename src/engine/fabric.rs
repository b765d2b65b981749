//! Clusters: whether a provider joins instances of a type into one job, over
//! which fabric and how fast (`../shared/data/cluster_fabrics.csv`, carried
//! in the snapshot), and where a job sits on them (`Placement`).
//!
//! Unknown stays unknown: an empty bandwidth is timed at the slowest fabric
//! the data states for a multi-node cluster and badged, never assumed fast.

use super::json::{Fields, FromJson, Json, JsonError};
use crate::text::{phrases, Phrase};
use crate::units::BYTES_PER_DECIMAL_GB;
use serde::Serialize;

/// Whether a provider joins instances of a type into a cluster
/// (cluster_fabrics.csv `multi_node`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiNode {
    /// Documented cluster networking (placement groups, InfiniBand or RoCE
    /// clusters, "instant clusters").
    Yes,
    /// Only through sales, support or a contract.
    OnRequest,
    /// The sources say this shape is single-node.
    No,
    /// No source found.
    Unknown,
}

/// The kind of network between nodes, read from the row's `fabric` text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FabricKind {
    #[serde(rename = "infiniband")]
    InfiniBand,
    /// AWS Elastic Fabric Adapter (SRD).
    Efa,
    /// RDMA over Converged Ethernet.
    Roce,
    /// Google's GPUDirect-TCPX/TCPXO over gVNIC.
    Tcpx,
    /// Plain TCP/IP Ethernet.
    Ethernet,
    Unknown,
}

impl FabricKind {
    /// Reads a fabric description ("InfiniBand NDR (Quantum-2 CX7, 8x400)",
    /// "EFA (v2, 32 interfaces)", "RDMA cluster network (RoCE v2)").
    pub fn from_description(text: &str) -> FabricKind {
        let lower = text.to_ascii_lowercase();
        if lower.contains("infiniband") {
            FabricKind::InfiniBand
        } else if lower.contains("efa") {
            FabricKind::Efa
        } else if lower.contains("roce") || lower.contains("rdma cluster network") {
            FabricKind::Roce
        } else if lower.contains("tcpx") {
            FabricKind::Tcpx
        } else if lower.contains("ethernet") {
            FabricKind::Ethernet
        } else {
            FabricKind::Unknown
        }
    }

    /// What a row calls it: "EFA", "InfiniBand".
    pub const fn label(self) -> &'static Phrase {
        match self {
            FabricKind::InfiniBand => &phrases::FABRIC_INFINIBAND,
            FabricKind::Efa => &phrases::FABRIC_EFA,
            FabricKind::Roce => &phrases::FABRIC_ROCE,
            FabricKind::Tcpx => &phrases::FABRIC_TCPX,
            FabricKind::Ethernet => &phrases::FABRIC_ETHERNET,
            FabricKind::Unknown => &phrases::FABRIC_UNKNOWN,
        }
    }

    /// Seconds per hop of a collective between nodes, whatever its size.
    /// NCCL's tuning model (`src/graph/tuning.cc`, `hwLat` network row)
    /// puts a network hop of its Simple protocol, the one large collectives
    /// use, at 14 µs over InfiniBand; EFA's SRD and the TCP paths (Google's
    /// GPUDirect-TCPX, plain sockets) go through more software per message:
    /// estimates. They matter only for small messages.
    pub const fn hop_latency_s(self) -> f64 {
        match self {
            FabricKind::InfiniBand | FabricKind::Roce => 14e-6,
            FabricKind::Efa => 20e-6,
            FabricKind::Tcpx | FabricKind::Ethernet | FabricKind::Unknown => 30e-6,
        }
    }
}

/// One row of cluster_fabrics.csv, with the offers it covers.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Fabric {
    /// Provider id.
    pub provider: String,
    /// The offers' instance types this row covers: names, or patterns where
    /// `*` stands for any run of characters (`gpu_*`). The first row of a
    /// provider that matches an offer holds for it.
    pub instances: Vec<String>,
    pub multi_node: MultiNode,
    pub kind: FabricKind,
    /// The fabric as the source names it ("EFA (v2, 32 interfaces)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fabric: Option<String>,
    /// How clusters are formed ("EFA interfaces in a cluster placement group").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how: Option<String>,
    /// Gbit/s per node between nodes, as stated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internode_gbps: Option<f64>,
    /// GPUDirect RDMA, where a source says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rdma: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_nodes: Option<u32>,
    /// Clusters only on reserved capacity (AWS P6-B200 Capacity Blocks,
    /// Lambda 1-Click Clusters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_only: Option<bool>,
    /// Cluster pricing as the source states it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_note: Option<String>,
    /// Source keys of SOURCES.md.
    pub sources: String,
    pub as_of: String,
}

/// The fabric rows of each provider, in file order, built once (per
/// ranking, per summary) so an offer's row is found among its provider's
/// few: the first that covers the instance holds for it.
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

    /// The row that covers `provider`'s `instance`, with its index.
    pub fn fabric_of(&self, provider: &str, instance: &str) -> Option<(usize, &'a Fabric)> {
        let (_, rows) = self.by_provider.iter().find(|(p, _)| *p == provider)?;
        rows.iter().map(|&i| (i, &self.fabrics[i])).find(|(_, f)| f.covers(instance))
    }
}

/// Gbit/s per node assumed where a cluster's fabric speed is not stated:
/// the slowest multi-node fabric cluster_fabrics.csv states (GCP A2's
/// gVNIC Ethernet and AWS g5/g6/g4dn with one EFA interface, 100 Gbit/s),
/// so an unknown fabric is never timed as a fast one.
pub const UNKNOWN_FABRIC_GBPS: f64 = 100.0;

/// Nodes one cluster may have where the data states no limit: the largest
/// per-cluster limit it states (AWS Capacity Blocks, 64 instances).
pub const UNSTATED_MAX_NODES: u32 = 64;

/// Share of the line rate NCCL collectives reach between nodes: measured
/// all-reduce bus bandwidth against the two-node hierarchical ideal, 78 of
/// 94 GB/s on p4d with 4 EFA (SkyPilot `examples/aws_efa`), ~450 of
/// 750 GB/s on Nebius H100 over 8×400G InfiniBand (SkyPilot
/// `examples/nebius_infiniband`), ~462 of 750 on CoreWeave H200 (SkyPilot
/// `examples/coreweave_infiniband`), all in SOURCES.md.
pub const NETWORK_EFFICIENCY: f64 = 0.68;

/// Whether `name` matches `pattern`, where `*` stands for any run of
/// characters. Greedy with one backtrack point (the last star), so a
/// hostile pattern from an offer file costs at most length × length steps,
/// never exponential time.
pub fn matches(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.as_bytes(), name.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == n[j] {
            i += 1;
            j += 1;
        } else if let Some((at, from)) = star {
            // Let the last star take one more character.
            i = at + 1;
            j = from + 1;
            star = Some((at, from + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

impl Fabric {
    /// Whether this row covers instances named `instance`.
    pub fn covers(&self, instance: &str) -> bool {
        self.instances.iter().any(|pattern| matches(pattern, instance))
    }

    /// Gbit/s per node to time a job with, and whether the data states it.
    pub fn timed_gbps(&self) -> (f64, bool) {
        match self.internode_gbps {
            Some(gbps) if gbps > 0.0 => (gbps, true),
            _ => (UNKNOWN_FABRIC_GBPS, false),
        }
    }

    /// The most nodes one cluster of these instances may have, and whether
    /// the data states it.
    pub fn node_limit(&self) -> (u32, bool) {
        match self.max_nodes {
            Some(max) if max > 0 => (max, true),
            _ => (UNSTATED_MAX_NODES, false),
        }
    }
}

/// Where a job runs: `nodes` instances of `gpus_per_node` GPUs, joined by a
/// network of `internode_gbps` per node when there are several.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    pub nodes: u32,
    pub gpus_per_node: u32,
    /// Between nodes; irrelevant for one node.
    pub network: Network,
}

/// The network between the nodes of a cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Network {
    /// Gbit/s per node, as stated or assumed.
    pub gbps: f64,
    pub kind: FabricKind,
    /// Whether the bandwidth is stated by the data.
    pub known: bool,
}

impl Network {
    /// The network of one node: none.
    pub const NONE: Network = Network { gbps: 0.0, kind: FabricKind::Unknown, known: false };

    /// Bytes per second per node that collectives reach.
    pub fn bytes_per_s(self) -> f64 {
        self.gbps * BYTES_PER_DECIMAL_GB / 8.0 * NETWORK_EFFICIENCY
    }
}

impl Placement {
    /// One node of `gpus` GPUs.
    pub const fn node(gpus: u32) -> Placement {
        Placement { nodes: 1, gpus_per_node: gpus, network: Network::NONE }
    }

    pub fn total_gpus(self) -> u32 {
        self.nodes.max(1).saturating_mul(self.gpus_per_node.max(1))
    }

    pub fn multi_node(self) -> bool {
        self.nodes > 1
    }

    /// The part of this placement that `gpus` of its GPUs take: inside one
    /// node, or whole nodes joined by its network.
    pub fn group(self, gpus: u32) -> Placement {
        let node = self.gpus_per_node.max(1);
        if gpus > node {
            Placement { nodes: gpus / node, ..self }
        } else {
            Placement::node(gpus)
        }
    }
}

impl From<u32> for Placement {
    fn from(gpus: u32) -> Placement {
        Placement::node(gpus)
    }
}

crate::json_names!(MultiNode { Yes = "yes", OnRequest = "on_request", No = "no", Unknown = "unknown" });

crate::json_names!(FabricKind {
    InfiniBand = "infiniband",
    Efa = "efa",
    Roce = "roce",
    Tcpx = "tcpx",
    Ethernet = "ethernet",
    Unknown = "unknown",
});

impl FromJson for Fabric {
    fn from_json(value: Json<'_>) -> Result<Fabric, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Fabric {
            provider: f.required("provider")?,
            instances: f.required("instances")?,
            multi_node: f.required("multi_node")?,
            kind: f.required("kind")?,
            fabric: f.optional("fabric")?,
            how: f.optional("how")?,
            internode_gbps: f.optional("internode_gbps")?,
            rdma: f.optional("rdma")?,
            max_nodes: f.optional("max_nodes")?,
            min_nodes: f.optional("min_nodes")?,
            reserved_only: f.optional("reserved_only")?,
            price_note: f.optional("price_note")?,
            sources: f.required("sources")?,
            as_of: f.required("as_of")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_as_globs() {
        assert!(matches("p5.48xlarge", "p5.48xlarge"));
        assert!(!matches("p5.48xlarge", "p5e.48xlarge"));
        assert!(matches("gpu_*", "gpu_8x_h100_sxm5"));
        assert!(matches("*.8x", "h100-80gb.sxm.8x"));
        assert!(!matches("*.8x", "h100-80gb.sxm.8x.big"));
        assert!(matches("gpu-*x8-*", "gpu-h100x8-640gb"));
        assert!(!matches("gpu-*x8-*", "gpu-h100x1-80gb"));
        assert!(matches("*", ""));
        assert!(matches("a*b*c", "aXbYc") && !matches("a*b*c", "aXbY"));
        // A hostile pattern is decided in at most length² steps.
        let pattern = "*a".repeat(200) + "b";
        assert!(!matches(&pattern, &"a".repeat(5000)));
    }

    #[test]
    fn fabric_kinds_are_read_from_the_sources_wording() {
        // cluster_fabrics.csv `fabric` cells.
        for (text, kind) in [
            ("EFA (v2, 32 interfaces)", FabricKind::Efa),
            ("InfiniBand NDR (Quantum-2 CX7, 8x400)", FabricKind::InfiniBand),
            ("RDMA cluster network (RoCE v2)", FabricKind::Roce),
            ("RDMA cluster network", FabricKind::Roce),
            ("GPUDirect-TCPXO over 8x200G NICs", FabricKind::Tcpx),
            ("Ethernet only (gVNIC, no GPUDirect)", FabricKind::Ethernet),
            ("unknown (docs: dedicated high-bandwidth interfaces)", FabricKind::Unknown),
        ] {
            assert_eq!(FabricKind::from_description(text), kind, "{text}");
        }
    }

    #[test]
    fn an_unstated_fabric_is_timed_at_the_slowest_stated_one() {
        let fabric = Fabric {
            provider: "nebius".into(),
            instances: vec![],
            multi_node: MultiNode::Yes,
            kind: FabricKind::InfiniBand,
            fabric: None,
            how: None,
            internode_gbps: None,
            rdma: None,
            max_nodes: None,
            min_nodes: None,
            reserved_only: None,
            price_note: None,
            sources: String::new(),
            as_of: String::new(),
        };
        assert_eq!(fabric.timed_gbps(), (100.0, false));
        assert_eq!(fabric.node_limit(), (64, false));
        let stated = Fabric { internode_gbps: Some(3200.0), max_nodes: Some(8), ..fabric };
        assert_eq!(stated.timed_gbps(), (3200.0, true));
        assert_eq!(stated.node_limit(), (8, true));
        assert_eq!(Placement::node(8).total_gpus(), 8);
        let cluster = Placement { nodes: 32, ..Placement::node(8) };
        assert_eq!(cluster.total_gpus(), 256);
        assert_eq!(cluster.group(4), Placement::node(4));
        assert_eq!(cluster.group(16).nodes, 2);
    }

    #[test]
    fn fabric_names_read_back() {
        use crate::engine::json::assert_names_read_back;
        assert_names_read_back(&[FabricKind::InfiniBand, FabricKind::Efa, FabricKind::Roce, FabricKind::Tcpx]);
        assert_names_read_back(&[FabricKind::Ethernet, FabricKind::Unknown]);
        assert_names_read_back(&[MultiNode::Yes, MultiNode::OnRequest, MultiNode::No, MultiNode::Unknown]);
    }
}
