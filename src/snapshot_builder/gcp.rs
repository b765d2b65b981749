//! Google Cloud: the SkyPilot catalog prices a GPU VM's host and its GPUs
//! on separate rows, so a VM's price is composed (SOURCES.md §5, "GCP: how
//! a GPU VM price is composed"): host row + accelerator row of the same
//! zone and GPU count, for on-demand and spot alike.

use super::csv_table::CsvTable;
use super::offers::{Collected, RawOffer, SourceSpec};
use super::BuildError;
use crate::engine::Catalog;
use std::collections::BTreeMap;

/// Host machine types with a fixed GPU type and count (SOURCES.md §5).
fn fixed_host_gpus(host: &str) -> Option<(&'static str, u32)> {
    // "-nolssd" variants come without local SSD and carry the same GPUs.
    let host = host.strip_suffix("-nolssd").unwrap_or(host);
    let count_suffix = |prefix: &str| host.strip_prefix(prefix)?.strip_suffix('g')?.parse::<u32>().ok();
    if let Some(n) = count_suffix("a2-highgpu-") {
        return Some(("A100", n));
    }
    if host == "a2-megagpu-16g" {
        return Some(("A100", 16));
    }
    if let Some(n) = count_suffix("a2-ultragpu-") {
        return Some(("A100-80GB", n));
    }
    if let Some(n) = count_suffix("a3-highgpu-") {
        return Some(("H100", n));
    }
    match host {
        "a3-edgegpu-8g" => Some(("H100", 8)),
        "a3-megagpu-8g" => Some(("H100-MEGA", 8)),
        "a3-ultragpu-8g" => Some(("H200", 8)),
        "a4-highgpu-8g" => Some(("B200", 8)),
        "g2-standard-4" | "g2-standard-8" | "g2-standard-12" | "g2-standard-16" | "g2-standard-32" => Some(("L4", 1)),
        "g2-standard-24" => Some(("L4", 2)),
        "g2-standard-48" => Some(("L4", 4)),
        "g2-standard-96" => Some(("L4", 8)),
        _ => None,
    }
}

/// T4, V100, P4 and P100 attach to N1 hosts of any size within GCP's
/// vCPU-per-GPU limits. whichgpu lists one shape per GPU count: an
/// n1-standard host with 8 vCPUs per GPU, which every one of these GPUs
/// allows (V100, the strictest, takes up to 12 vCPUs per GPU).
const N1_VCPUS_PER_GPU: u32 = 8;
const N1_ATTACHED: [&str; 4] = ["T4", "V100", "P4", "P100"];

/// A host VM row: its region, size and prices (without GPUs).
struct Host {
    region: String,
    vcpus: Option<f64>,
    ram_gb: Option<f64>,
    prices: Prices,
}

#[derive(Clone, Copy)]
struct Prices {
    price: Option<f64>,
    spot_price: Option<f64>,
    line: u64,
}

pub fn read(
    spec: &SourceSpec,
    tables: &[CsvTable],
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    // (host, zone) → (region, vcpus, ram, prices) and (gpu, count, zone) → prices.
    let mut hosts: BTreeMap<(String, String), Host> = BTreeMap::new();
    let mut accelerators: BTreeMap<(String, u32, String), Prices> = BTreeMap::new();
    for table in tables {
        for row in table.rows() {
            collected.count_row(&spec.id);
            let zone = row.text("AvailabilityZone")?.to_string();
            let prices = Prices { price: row.number("Price")?, spot_price: row.number("SpotPrice")?, line: row.line };
            match (row.optional("InstanceType"), row.optional("AcceleratorName")) {
                (Some(host), _) => {
                    let region = row.text("Region")?.to_string();
                    let host_row =
                        Host { region, vcpus: row.number("vCPUs")?, ram_gb: row.number("MemoryGiB")?, prices };
                    hosts.insert((host.to_string(), zone), host_row);
                }
                (None, Some(gpu)) => {
                    let count = row.number("AcceleratorCount")?.unwrap_or(0.0) as u32;
                    accelerators.insert((gpu.to_string(), count, zone), prices);
                }
                (None, None) => collected.skip(&spec.id, "row with neither host nor accelerator"),
            }
        }
    }

    let mut raws = Vec::new();
    for ((host, zone), host_row) in &hosts {
        if let Some((gpu, count)) = fixed_host_gpus(host) {
            let Some(gpus) = accelerators.get(&(gpu.to_string(), count, zone.clone())) else {
                collected.skip(&spec.id, "host without a priced accelerator row in its zone");
                continue;
            };
            if host_row.prices.price == Some(0.0) {
                collected.skip(&spec.id, "host VM unpriced in the catalog (a4-highgpu-8g is 0.0/0.0 upstream)");
                continue;
            }
            raws.push(raw(spec, host.clone(), gpu, count, zone, host_row, gpus));
        } else if let Some(vcpus) = host.strip_prefix("n1-standard-").and_then(|n| n.parse::<u32>().ok()) {
            if vcpus % N1_VCPUS_PER_GPU != 0 {
                continue;
            }
            let count = vcpus / N1_VCPUS_PER_GPU;
            for gpu in N1_ATTACHED {
                if let Some(gpus) = accelerators.get(&(gpu.to_string(), count, zone.clone())) {
                    let instance = format!("{host} + {count}x {gpu}");
                    raws.push(raw(spec, instance, gpu, count, zone, host_row, gpus));
                }
            }
        } else {
            collected.skip(&spec.id, "host type without a known GPU pairing");
        }
    }
    for raw in raws {
        collected.add(&spec.id, raw, catalog)?;
    }
    Ok(())
}

/// The VM: host price + accelerator price of the same zone, for on-demand
/// and spot; unknown when either part is.
fn raw(spec: &SourceSpec, instance: String, gpu: &str, count: u32, zone: &str, host: &Host, gpus: &Prices) -> RawOffer {
    let sum = |a: Option<f64>, b: Option<f64>| Some(a? + b?);
    RawOffer {
        line: gpus.line,
        provider: spec.provider.clone(),
        instance,
        region: host.region.clone(),
        zone: zone.to_string(),
        accelerator: gpu.to_string(),
        gpu_count: f64::from(count),
        vcpus: host.vcpus,
        ram_gb: host.ram_gb,
        price: sum(host.prices.price, gpus.price),
        spot_price: sum(host.prices.spot_price, gpus.spot_price),
        ..RawOffer::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_gcp_shapes_carry_their_gpus() {
        // SOURCES.md §5: a2-highgpu-{1,2,4,8}g ↔ A100 ×N, a3-megagpu-8g ↔ H100-MEGA ×8, g2-standard-24 ↔ L4 ×2.
        assert_eq!(fixed_host_gpus("a2-highgpu-4g"), Some(("A100", 4)));
        assert_eq!(fixed_host_gpus("a2-megagpu-16g"), Some(("A100", 16)));
        assert_eq!(fixed_host_gpus("a2-ultragpu-1g"), Some(("A100-80GB", 1)));
        assert_eq!(fixed_host_gpus("a3-megagpu-8g"), Some(("H100-MEGA", 8)));
        assert_eq!(fixed_host_gpus("a3-ultragpu-8g-nolssd"), Some(("H200", 8)));
        assert_eq!(fixed_host_gpus("g2-standard-24"), Some(("L4", 2)));
        assert_eq!(fixed_host_gpus("n1-standard-8"), None);
    }

    #[test]
    fn a_vm_price_is_host_plus_accelerators_of_the_same_zone() {
        // SOURCES.md §5 example, us-central1-a: a2-highgpu-1g 0.73948 + A100×1 2.93391 = 3.67339 $/h;
        // n1-standard-8 0.38 + V100×1 2.48 = 2.86 $/h.
        let text = "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n\
            a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,0.73948,0.3\n\
            ,,,A100,1.0,40960,us-central1,us-central1-a,2.93391,1.1\n\
            ,,,A100,1.0,40960,us-central1,us-central1-b,9.0,\n\
            n1-standard-8,8.0,30.0,,,,us-central1,us-central1-a,0.38,0.08\n\
            ,,,V100,1.0,16384,us-central1,us-central1-a,2.48,\n";
        let table = CsvTable::from_text("gcp.csv", text).unwrap();
        let spec = SourceSpec {
            id: "gcp".into(),
            format: "gcp".into(),
            provider: "gcp".into(),
            gpu_memory: crate::snapshot_builder::offers::GpuMemory::Mib,
            underlying: crate::snapshot_builder::offers::UnderlyingCloud::None,
        };
        let mut collected = Collected::default();
        read(&spec, &[table], Catalog::bundled().unwrap(), &mut collected).unwrap();
        collected.finish_source();
        let offers: Vec<(String, Option<f64>, Option<f64>)> =
            collected.offers.iter().map(|o| (o.instance.clone(), o.price, o.spot_price)).collect();
        assert_eq!(
            offers,
            [
                ("a2-highgpu-1g".to_string(), Some(3.6734), Some(1.4)),
                ("n1-standard-8 + 1x V100".to_string(), Some(2.86), None),
            ]
        );
    }
}
