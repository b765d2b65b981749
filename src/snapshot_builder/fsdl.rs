//! The Full Stack Deep Learning cloud-GPU table (undated, about 2023, no
//! regions). It is older than the SkyPilot catalogs, so whichgpu takes from
//! it only the clouds no other source covers (SOURCES.md §5, FSDL notes).

use super::csv_table::CsvTable;
use super::offers::{Collected, RawOffer, SourceSpec};
use super::BuildError;
use crate::engine::Catalog;

/// FSDL cloud name → provider id, for clouds found nowhere else.
const ONLY_HERE: [(&str, &str); 3] =
    [("Oblivus Cloud", "oblivus"), ("Exoscale", "exoscale"), ("Latitude.sh", "latitude")];

pub fn read(
    spec: &SourceSpec,
    table: &CsvTable,
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    for row in table.rows() {
        collected.count_row(&spec.id);
        let cloud = row.text("Cloud")?;
        let Some((_, provider)) = ONLY_HERE.iter().find(|(name, _)| *name == cloud) else {
            collected.skip(&spec.id, "cloud covered by a newer source");
            continue;
        };
        // "A100 (80 GB)" → name "A100", memory 80 GB.
        let gpu_type = row.text("GPU Type")?;
        let (name, memory_gib) = match gpu_type.split_once('(') {
            Some((name, memory)) => {
                (name.trim(), memory.trim_end_matches(')').trim_end_matches("GB").trim().parse().ok())
            }
            None => (gpu_type, None),
        };
        let count = row.number("GPUs")?.unwrap_or(0.0);
        // Unnamed rows differ only by their host, so the host names them.
        let instance = match row.optional("Name") {
            Some(name) => name.to_string(),
            None => format!(
                "{count}x {name}, {} vCPU, {} GB RAM",
                row.optional("vCPUs").unwrap_or("?"),
                row.optional("RAM").unwrap_or("?")
            ),
        };
        let raw = RawOffer {
            line: row.line,
            provider: provider.to_string(),
            instance,
            accelerator: name.to_string(),
            gpu_count: count,
            memory_gib,
            vcpus: row.number("vCPUs")?,
            ram_gb: row.number("RAM")?,
            price: row.number("On-demand")?,
            spot_price: row.number("Spot")?,
            ..RawOffer::default()
        };
        collected.add(&spec.id, raw, catalog)?;
    }
    Ok(())
}
