//! SkyPilot's catalog format (`catalogs/v6–v8/<cloud>/vms.csv`): one row
//! per instance type and region (and zone).

use super::csv_table::CsvTable;
use super::offers::{Collected, GpuMemory, RawOffer, SourceSpec, UnderlyingCloud};
use super::BuildError;
use crate::engine::Catalog;

/// SkyPilot catalog `vms.csv` (schema v6–v8): one row per instance type and
/// region (and zone), prices in USD per hour per instance. Column order
/// differs between clouds, so cells are read by name.
pub fn read(
    spec: &SourceSpec,
    table: &CsvTable,
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    for row in table.rows() {
        collected.count_row(&spec.id);
        let Some(accelerator) = row.optional("AcceleratorName") else {
            collected.skip(&spec.id, "no accelerator named (CPU shapes, or GPU shapes the source leaves unnamed)");
            continue;
        };
        let instance = row.text("InstanceType")?.to_string();
        let gpu_count = row.number("AcceleratorCount")?.unwrap_or(0.0);
        let gpu_info = row.optional("GpuInfo").unwrap_or("");
        let size = gpu_info_size(gpu_info);
        let memory_gib = match spec.gpu_memory {
            GpuMemory::Mib => size.map(|mib| mib / 1024.0),
            GpuMemory::Gb => size,
            GpuMemory::MibTotal => size.filter(|_| gpu_count >= 1.0).map(|mib| mib / 1024.0 / gpu_count),
            GpuMemory::None => None,
        };
        let underlying_cloud = match &spec.underlying {
            UnderlyingCloud::None => None,
            UnderlyingCloud::InstancePrefix(separator) => {
                instance.split_once(separator.as_str()).map(|(cloud, _)| cloud.to_string())
            }
            UnderlyingCloud::Column(column) => row.optional(column).map(str::to_string),
        };
        let raw = RawOffer {
            line: row.line,
            provider: spec.provider.clone(),
            instance,
            region: row.optional("Region").unwrap_or("").to_string(),
            zone: row.optional("AvailabilityZone").unwrap_or("").to_string(),
            accelerator: accelerator.to_string(),
            gpu_count,
            memory_gib,
            hints: gpu_info_name(gpu_info).unwrap_or_default(),
            vcpus: row.number("vCPUs")?,
            ram_gb: row.number("MemoryGiB")?,
            price: row.number("Price")?,
            spot_price: row.number("SpotPrice")?,
            underlying_cloud,
        };
        collected.add(&spec.id, raw, catalog)?;
    }
    Ok(())
}

/// The per-GPU `SizeInMiB` of SkyPilot's `GpuInfo` (a Python-dict or JSON
/// string), in the source's own unit.
fn gpu_info_size(gpu_info: &str) -> Option<f64> {
    let start = gpu_info.find("SizeInMiB")? + "SizeInMiB".len();
    let digits: String = gpu_info[start..]
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    digits.parse().ok()
}

/// The GPU `Name` inside `GpuInfo`, e.g. RunPod's "A100 PCIe".
fn gpu_info_name(gpu_info: &str) -> Option<String> {
    let start = gpu_info.find("Name")? + "Name".len();
    let rest = gpu_info[start..].trim_start_matches(['\'', '"', ':', ' ']);
    let end = rest.find(['\'', '"'])?;
    Some(rest[..end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpu_info_memory_and_name_are_read_from_python_dict_and_json_strings() {
        let python = "{'Gpus': [{'Name': 'A100 PCIe', 'Manufacturer': 'Nvidia', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 80}}], 'TotalGpuMemoryInMiB': 80}";
        assert_eq!(gpu_info_size(python), Some(80.0));
        assert_eq!(gpu_info_name(python).as_deref(), Some("A100 PCIe"));
        let json = r#"{"Gpus": [{"Name": "H100_SXM5", "Count": 1.0, "MemoryInfo": {"SizeInMiB": 81920}}]}"#;
        assert_eq!(gpu_info_size(json), Some(81920.0));
        assert_eq!(gpu_info_name(json).as_deref(), Some("H100_SXM5"));
        assert_eq!(gpu_info_size("A100"), None);
    }
}
