//! Collective operations as NCCL runs them: the ring, and across nodes the
//! hierarchical form (inside each node over NVLink or PCIe, between nodes
//! over the fabric), whichever is faster, as NCCL's tuner picks per size.
//!
//! A ring of n ranks moves each byte of an all-reduce 2(n − 1)/n times over
//! every link (a reduce-scatter then an all-gather), and (n − 1)/n times
//! for an all-gather or a reduce-scatter alone, in that many steps of one
//! latency each (Patarasuk and Yuan 2009; NCCL's `doc/`
//! "Performance": bus bandwidth = algorithm bandwidth × 2(n − 1)/n for
//! all-reduce, × (n − 1)/n for all-gather and reduce-scatter).

use crate::engine::fabric::Network;
use crate::engine::hardware::Link;

/// Which collective.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Collective {
    /// Gradients summed on every rank (DDP).
    AllReduce,
    /// Shards gathered into the whole (ZeRO-3/FSDP parameters).
    AllGather,
    /// The sum scattered in shards (ZeRO/FSDP gradients).
    ReduceScatter,
}

impl Collective {
    /// Passes of the buffer over each link: 2 for an all-reduce, 1 else.
    const fn passes(self) -> f64 {
        match self {
            Collective::AllReduce => 2.0,
            Collective::AllGather | Collective::ReduceScatter => 1.0,
        }
    }
}

/// Seconds for a ring collective of a `bytes` buffer (the whole buffer each
/// rank ends with, or starts with) over `ranks` ranks joined by links of
/// `bandwidth` bytes/s per direction and `latency` seconds per step.
pub fn ring(collective: Collective, bytes: f64, ranks: f64, bandwidth: f64, latency: f64) -> f64 {
    if ranks <= 1.0 {
        return 0.0;
    }
    let passes = collective.passes();
    let steps = passes * (ranks - 1.0);
    steps * latency + passes * (ranks - 1.0) / ranks * bytes / bandwidth
}

/// A data-parallel group laid out on a cluster: `members_per_node` ranks on
/// each of `nodes` nodes; `groups_per_node` such groups share a node's
/// network (tensor-parallel ranks each run their own data-parallel group).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Group {
    pub nodes: f64,
    pub members_per_node: f64,
    pub groups_per_node: f64,
}

/// Seconds for `collective` of a `bytes` buffer per rank across `group`,
/// inside nodes over `link`, between them over `network`. Every group of a
/// node runs at once, so the node's network carries all of them.
///
/// - The ring runs through every rank; its channels spread over the node's
///   network adapters (one per GPU on rail-optimised clusters), so a node
///   sends passes × (n − 1)/n × bytes for each of its groups.
/// - The hierarchical form reduces inside the node: each member exchanges
///   a 1/m share across the nodes, so the node sends passes × (N − 1)/N ×
///   bytes per group; NCCL pipelines the chunks through both levels, so the
///   slower level sets the time.
pub fn across(collective: Collective, bytes: f64, group: Group, link: Link, network: Network) -> f64 {
    let (nodes, m) = (group.nodes.max(1.0), group.members_per_node.max(1.0));
    if nodes <= 1.0 {
        return ring(collective, bytes, m, link.bandwidth, link.latency);
    }
    let node_bandwidth = network.bytes_per_s() / group.groups_per_node.max(1.0);
    let hop = network.kind.hop_latency_s();
    let ranks = nodes * m;
    let flat = ring(collective, bytes, ranks, node_bandwidth, hop);
    // Inside the node: a reduce-scatter before and an all-gather after for
    // an all-reduce; one of them for the others.
    let inside = ring(Collective::ReduceScatter, bytes, m, link.bandwidth, link.latency)
        * if collective == Collective::AllReduce { 2.0 } else { 1.0 };
    let hierarchical = inside.max(ring(collective, bytes, nodes, node_bandwidth, hop));
    flat.min(hierarchical)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fabric::FabricKind;

    const NVLINK: Link = Link { bandwidth: 300e9, latency: 0.0, nvlink: true };

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1e-12)
    }

    #[test]
    fn the_ring_moves_each_byte_the_textbook_number_of_times() {
        // 1 GB over 8 ranks at 100 GB/s, no latency: all-reduce 2·7/8 s/100,
        // all-gather and reduce-scatter 7/8 of that buffer.
        let gb = 1e9;
        assert!(close(ring(Collective::AllReduce, gb, 8.0, 100e9, 0.0), 2.0 * 7.0 / 8.0 * gb / 100e9));
        assert!(close(ring(Collective::AllGather, gb, 8.0, 100e9, 0.0), 7.0 / 8.0 * gb / 100e9));
        assert!(close(ring(Collective::ReduceScatter, gb, 8.0, 100e9, 0.0), 7.0 / 8.0 * gb / 100e9));
        // Latency: 2(n − 1) steps for an all-reduce, n − 1 for the others.
        assert!(close(ring(Collective::AllReduce, 0.0, 8.0, 100e9, 1e-5), 14.0 * 1e-5));
        assert!(close(ring(Collective::AllGather, 0.0, 8.0, 100e9, 1e-5), 7.0 * 1e-5));
        // One rank exchanges nothing.
        assert_eq!(ring(Collective::AllReduce, gb, 1.0, 100e9, 1e-5), 0.0);
    }

    #[test]
    fn across_nodes_the_fabric_carries_the_buffer_once_per_group() {
        // Two 8-GPU nodes, one data-parallel group of 16 with 8 members per
        // node, 3,200 Gbit/s per node (p5.48xlarge): the hierarchical
        // all-reduce sends 2·(2 − 1)/2 × S over the node's fabric at its
        // achievable rate while the reduce-scatter and all-gather inside the
        // node run over NVLink; the slower of the two sets the time, unless
        // the flat ring over all 16 is faster.
        let network = Network { gbps: 3200.0, kind: FabricKind::Efa, known: true };
        let s = 16e9;
        let group = Group { nodes: 2.0, members_per_node: 8.0, groups_per_node: 1.0 };
        let inter = 2.0 * 0.5 * s / network.bytes_per_s() + 2.0 * FabricKind::Efa.hop_latency_s();
        let inside = 2.0 * 7.0 / 8.0 * s / 300e9;
        let flat = 2.0 * 15.0 / 16.0 * s / network.bytes_per_s() + 30.0 * FabricKind::Efa.hop_latency_s();
        assert!(inside > inter && inside < flat);
        assert!(close(across(Collective::AllReduce, s, group, NVLINK, network), inside));
        // Measured: ~450 GB/s of all-reduce bus bandwidth between two 8×H100
        // nodes over 8×400G InfiniBand (SkyPilot examples/nebius_infiniband);
        // with the H100's 450 GB/s NVLink this model gives within 10% of it.
        let h100 = Link { bandwidth: 450e9, latency: 0.0, nvlink: true };
        let ib = Network { gbps: 3200.0, kind: FabricKind::InfiniBand, known: true };
        let bus = 2.0 * 15.0 / 16.0 * s / across(Collective::AllReduce, s, group, h100, ib);
        assert!((bus / 450e9 - 1.0).abs() < 0.10, "{bus}");
        // At 32 nodes the flat ring and the hierarchy both tend to 2 × S per
        // node; whichever is faster is taken.
        let big = Group { nodes: 32.0, ..group };
        let t = across(Collective::AllReduce, s, big, NVLINK, network);
        let flat = ring(Collective::AllReduce, s, 256.0, network.bytes_per_s(), FabricKind::Efa.hop_latency_s());
        assert!(t <= flat && t > 2.0 * 31.0 / 32.0 * s / network.bytes_per_s());
        // Eight tensor-parallel groups share the node's fabric: each gets an
        // eighth of it.
        let tp8 = Group { nodes: 2.0, members_per_node: 1.0, groups_per_node: 8.0 };
        let shard = s / 8.0;
        let expected = ring(Collective::AllReduce, shard, 2.0, network.bytes_per_s() / 8.0, 20e-6);
        assert!(close(across(Collective::AllReduce, shard, tp8, NVLINK, network), expected));
        // One node: the ring over NVLink.
        let one = Group { nodes: 1.0, members_per_node: 8.0, groups_per_node: 1.0 };
        assert!(close(across(Collective::AllGather, s, one, NVLINK, network), 7.0 / 8.0 * s / 300e9));
    }

    #[test]
    fn a_slower_fabric_takes_proportionally_longer() {
        // 100 Gbit/s Ethernet (GCP A2) against 1,600 Gbit/s InfiniBand (Azure
        // ND A100 v4): the same gather takes about 16 times as long.
        let group = Group { nodes: 16.0, members_per_node: 8.0, groups_per_node: 1.0 };
        let fast = Network { gbps: 1600.0, kind: FabricKind::InfiniBand, known: true };
        let slow = Network { gbps: 100.0, kind: FabricKind::InfiniBand, known: true };
        let ratio = across(Collective::AllGather, 130e9, group, NVLINK, slow)
            / across(Collective::AllGather, 130e9, group, NVLINK, fast);
        assert!((ratio - 16.0).abs() < 0.5, "{ratio}");
    }
}
