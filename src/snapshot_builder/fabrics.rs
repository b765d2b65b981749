//! Cluster fabrics: `cluster_fabrics.csv` (per provider and instance family:
//! whether instances join into multi-node clusters, over which fabric, how
//! fast) resolved to the offers' instance types.
//!
//! A row's `instance_pattern` that is an instance name or a `*` pattern
//! covers the offers it matches; a row that describes its instances in
//! words ("gpu_8x_* on-demand instances (e.g. …)") is mapped by
//! `data/cluster_fabric_offers.csv`, each mapping with its reason. The first
//! row (in file order) that covers an offer holds for it; rows that cover no
//! offer of the snapshot are left out.

use super::csv_table::CsvTable;
use super::BuildError;
use crate::engine::fabric::{matches, Fabric, FabricKind, MultiNode};
use crate::engine::Offer;
use std::collections::BTreeMap;
use std::path::Path;

/// Maps rows described in words to the offers' instance types.
const CLUSTER_FABRIC_OFFERS_CSV: &str = include_str!("../../data/cluster_fabric_offers.csv");

/// Reads `cluster_fabrics.csv` under `from` and resolves each row to the
/// instance types of `offers` it covers.
pub fn read(from: &Path, offers: &[Offer]) -> Result<Vec<Fabric>, BuildError> {
    let mut mapped: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for row in CsvTable::from_text("data/cluster_fabric_offers.csv", CLUSTER_FABRIC_OFFERS_CSV)?.rows() {
        row.text("why")?;
        let patterns = row.text("offers")?.split(';').map(|p| p.trim().to_string()).collect();
        mapped.insert((row.text("provider")?.to_string(), row.text("instance_pattern")?.to_string()), patterns);
    }
    let mut used_mappings = 0;
    let mut covered: BTreeMap<(&str, &str), ()> = BTreeMap::new();
    let mut fabrics = Vec::new();
    let table = CsvTable::read(&from.join("cluster_fabrics.csv"))?;
    for row in table.rows() {
        let provider = row.text("provider")?.to_string();
        let pattern = row.text("instance_pattern")?;
        let patterns = match mapped.get(&(provider.clone(), pattern.to_string())) {
            Some(patterns) => {
                used_mappings += 1;
                patterns.clone()
            }
            // An instance name or a `*` pattern; words cover nothing.
            None if !pattern.contains(' ') => vec![pattern.to_string()],
            None => Vec::new(),
        };
        // The offers this row is the first to cover.
        let mut covers = false;
        for offer in offers.iter().filter(|o| o.provider == provider) {
            let key = (offer.provider.as_str(), offer.instance.as_str());
            if !covered.contains_key(&key) && patterns.iter().any(|p| matches(p, &offer.instance)) {
                covered.insert(key, ());
                covers = true;
            }
        }
        let multi_node = match row.text("multi_node")? {
            "yes" => MultiNode::Yes,
            "on_request" => MultiNode::OnRequest,
            "no" => MultiNode::No,
            "unknown" => MultiNode::Unknown,
            other => return Err(row.invalid(format!("multi_node \"{other}\" is not yes, on_request, no or unknown"))),
        };
        let flag = |column: &str| -> Result<Option<bool>, BuildError> {
            match row.optional(column) {
                None | Some("unknown") => Ok(None),
                Some("yes") => Ok(Some(true)),
                Some("no") => Ok(Some(false)),
                Some(other) => Err(row.invalid(format!("{column} \"{other}\" is not yes, no or unknown"))),
            }
        };
        let count = |column: &str| -> Result<Option<u32>, BuildError> {
            Ok(row.number(column)?.filter(|n| *n >= 1.0 && n.fract() == 0.0).map(|n| n as u32))
        };
        let fabric = row.optional("fabric").map(str::to_string);
        if !covers {
            continue;
        }
        fabrics.push(Fabric {
            provider,
            instances: patterns,
            multi_node,
            kind: fabric.as_deref().map_or(FabricKind::Unknown, FabricKind::from_description),
            fabric,
            how: row.optional("how").map(str::to_string),
            internode_gbps: row.number("internode_gbps_per_node")?.filter(|g| *g > 0.0),
            rdma: flag("gpudirect_rdma")?,
            max_nodes: count("max_nodes")?,
            min_nodes: count("min_nodes")?,
            reserved_only: flag("reserved_only")?,
            price_note: row.optional("cluster_price_note").map(str::to_string),
            sources: row.optional("source_ids").unwrap_or_default().to_string(),
            as_of: row.text("as_of")?.to_string(),
        });
    }
    if used_mappings != mapped.len() {
        return Err(BuildError::Csv {
            path: "data/cluster_fabric_offers.csv".into(),
            line: 0,
            message: format!(
                "{} of its rows name no (provider, instance_pattern) of cluster_fabrics.csv",
                mapped.len() - used_mappings
            ),
        });
    }
    Ok(fabrics)
}
