//! Reading offer rows from each source format into the snapshot's `Offer`.

use super::csv_table::{CsvTable, Row};
use super::gpu_names::catalog_gpu_id;
use super::{Anomaly, BuildError};
use crate::engine::{Catalog, Offer};
use std::collections::BTreeMap;

/// Below this on-demand price per GPU-hour a datacenter GPU price is taken
/// for a placeholder, not a price (issue 3; SOURCES.md notes Mithril rows
/// of $0.01–0.08/h that are "placeholder-like").
const IMPLAUSIBLE_DATACENTER_USD_PER_GPU_HOUR: f64 = 0.10;

/// Offers gathered so far, keyed to collapse availability zones.
#[derive(Default)]
pub struct Collected {
    pub offers: Vec<Offer>,
    pub anomalies: Vec<Anomaly>,
    /// (source, GPU name) → rows that no rule maps.
    pub unmapped: BTreeMap<(String, String), usize>,
    pub rows_read: usize,
}

/// Reads one offer file of a known `format` for `provider`.
pub fn read(
    format: &str,
    provider: &str,
    source: &str,
    table: &CsvTable,
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    match format {
        "skypilot" => read_skypilot(provider, source, table, catalog, collected),
        other => Err(BuildError::Csv {
            path: "data/offer_sources.csv".into(),
            line: 0,
            message: format!("unknown format \"{other}\" for {}", table.name()),
        }),
    }
}

/// SkyPilot catalog `vms.csv` (schema v6–v8): one row per instance type and
/// region (and zone), prices in USD per hour per instance.
fn read_skypilot(
    provider: &str,
    source: &str,
    table: &CsvTable,
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    // (instance, region) → offer, so zones of one region collapse into one
    // offer at the cheapest zone's prices.
    let mut by_region: BTreeMap<(String, String), Offer> = BTreeMap::new();
    let mut seen_rows: BTreeMap<String, u64> = BTreeMap::new();
    for row in table.rows() {
        collected.rows_read += 1;
        let Some(accelerator) = row.optional("AcceleratorName") else {
            continue; // a CPU-only shape
        };
        let instance = row.text("InstanceType")?.to_string();
        let region = row.optional("Region").unwrap_or("").to_string();
        let zone = row.optional("AvailabilityZone").unwrap_or("");

        let identity = format!("{instance}|{region}|{zone}");
        if let Some(first) = seen_rows.insert(identity, row.line) {
            collected.anomalies.push(anomaly(
                source,
                &row,
                format!("duplicate of line {first} ({instance} {region} {zone}); dropped"),
            ));
            continue;
        }

        let gpu_count = row.number("AcceleratorCount")?.unwrap_or(0.0);
        let memory_gib = gpu_info_mib(row.optional("GpuInfo")).map(|mib| mib / 1024.0);
        let Some(gpu_id) = catalog_gpu_id(accelerator, memory_gib, &instance) else {
            *collected
                .unmapped
                .entry((source.to_string(), accelerator.to_string()))
                .or_default() += 1;
            continue;
        };
        let gpu = catalog.gpu(gpu_id).map_err(|e| BuildError::Csv {
            path: table.name().to_string(),
            line: row.line,
            message: format!(
                "rule maps \"{accelerator}\" to {gpu_id}, which the catalog lacks: {e}"
            ),
        })?;
        if gpu_count < 1.0 || gpu_count.fract() != 0.0 {
            collected.anomalies.push(anomaly(
                source,
                &row,
                format!("{instance}: {gpu_count} GPUs is not a whole GPU; dropped"),
            ));
            continue;
        }
        let gpu_count = gpu_count as u32;
        let datacenter = gpu.segment.as_deref() == Some("datacenter");

        let mut price = cents_rounded(row.number("Price")?);
        let mut spot_price = cents_rounded(row.number("SpotPrice")?);
        if let Some(p) = price {
            if datacenter && p / f64::from(gpu_count) <= IMPLAUSIBLE_DATACENTER_USD_PER_GPU_HOUR {
                collected.anomalies.push(anomaly(source, &row, format!("{instance} {region}: on-demand ${p}/h for {gpu_count}× {} is implausible; price dropped", gpu.name)));
                price = None;
            }
        }
        if spot_price == Some(0.0) {
            collected.anomalies.push(anomaly(
                source,
                &row,
                format!("{instance} {region}: spot price $0/h; spot dropped"),
            ));
            spot_price = None;
        }
        if price.is_none() && spot_price.is_none() {
            continue;
        }

        let offer = Offer {
            provider: provider.to_string(),
            instance: instance.clone(),
            regions: if region.is_empty() {
                vec![]
            } else {
                vec![region.clone()]
            },
            gpu: gpu.id.clone(),
            gpu_count,
            vram_gb: gpu.vram_gb,
            vcpus: row.number("vCPUs")?,
            ram_gb: row.number("MemoryGiB")?,
            price,
            spot_price,
            source: source.to_string(),
        };
        by_region
            .entry((instance, region))
            .and_modify(|kept| {
                kept.price = min_price(kept.price, offer.price);
                kept.spot_price = min_price(kept.spot_price, offer.spot_price);
            })
            .or_insert(offer);
    }
    collected
        .offers
        .extend(merge_regions(by_region.into_values()));
    Ok(())
}

/// One offer per shape and price, listing every region that has it: most
/// clouds price a shape the same everywhere (Lambda in 17 regions, OCI in 44),
/// and a table of identical rows helps nobody. Regions stay, for filtering.
fn merge_regions(offers: impl Iterator<Item = Offer>) -> Vec<Offer> {
    let mut merged: BTreeMap<String, Offer> = BTreeMap::new();
    for offer in offers {
        let key = format!(
            "{}|{}|{}|{}|{:?}|{:?}|{:?}|{:?}",
            offer.instance,
            offer.gpu,
            offer.gpu_count,
            offer.vram_gb,
            offer.price,
            offer.spot_price,
            offer.vcpus,
            offer.ram_gb
        );
        match merged.get_mut(&key) {
            Some(kept) => kept.regions.extend(offer.regions),
            None => {
                merged.insert(key, offer);
            }
        }
    }
    let mut offers: Vec<Offer> = merged.into_values().collect();
    for offer in &mut offers {
        offer.regions.sort();
        offer.regions.dedup();
    }
    offers
}

fn anomaly(source: &str, row: &Row<'_>, what: String) -> Anomaly {
    Anomaly {
        source: source.to_string(),
        line: row.line,
        what,
    }
}

/// The per-GPU `SizeInMiB` of SkyPilot's Python-dict `GpuInfo` string.
fn gpu_info_mib(gpu_info: Option<&str>) -> Option<f64> {
    let text = gpu_info?;
    let start = text.find("SizeInMiB")? + "SizeInMiB".len();
    let digits: String = text[start..]
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().ok()
}

/// Prices to 1/10,000 of a dollar: catalogs carry float noise
/// (0.36979999999999996) that would make the output differ for no reason.
fn cents_rounded(price: Option<f64>) -> Option<f64> {
    price.map(|p| (p * 10_000.0).round() / 10_000.0)
}

fn min_price(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_info_memory_is_read_from_the_python_dict_string() {
        let info = "{'Gpus': [{'Name': 'A100', 'Manufacturer': 'NVIDIA', 'Count': 8, 'MemoryInfo': {'SizeInMiB': 40960}}], 'TotalGpuMemoryInMiB': 327680}";
        assert_eq!(gpu_info_mib(Some(info)), Some(40960.0));
        assert_eq!(gpu_info_mib(Some("A100")), None);
        assert_eq!(gpu_info_mib(None), None);
    }

    #[test]
    fn float_noise_is_rounded_away() {
        assert_eq!(cents_rounded(Some(0.369_799_999_999_999_96)), Some(0.3698));
    }
}
