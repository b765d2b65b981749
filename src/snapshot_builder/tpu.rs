//! Google Cloud TPU prices from dstack's gpuhunt (`tpu_pricing.json`):
//! USD per chip-hour, on-demand and spot, per region.

use super::offers::{Collected, RawOffer, SourceSpec};
use super::BuildError;
use crate::engine::Catalog;
use std::collections::BTreeMap;

/// Single-host slices whichgpu lists, as (gpuhunt key, catalog name,
/// slice name prefix, chip counts). v5e and v6e hosts hold up to 8 chips;
/// a v5p host holds 4 (Google Cloud TPU docs, "TPU versions").
const SLICES: [(&str, &str, &str, &[u32]); 3] = [
    ("TPU v5e", "TPU v5e", "v5litepod-", &[1, 4, 8]),
    ("TPU v6e", "TPU v6e", "v6e-", &[1, 4, 8]),
    ("TPU v5p", "TPU v5p", "v5p-", &[4]),
];

type Prices = BTreeMap<String, BTreeMap<String, serde_json::Value>>;

pub fn read(spec: &SourceSpec, json: &str, catalog: &Catalog, collected: &mut Collected) -> Result<(), BuildError> {
    let error = |message: String| BuildError::Csv { path: spec.id.clone(), line: 0, message };
    let prices: BTreeMap<String, Prices> = serde_json::from_str(json).map_err(|e| error(e.to_string()))?;
    for (generation, regions) in &prices {
        let Some((_, name, prefix, chips)) = SLICES.iter().find(|(key, ..)| key == generation) else {
            collected.skip(&spec.id, &format!("{generation}: not a single-host TPU in the catalog"));
            continue;
        };
        for (region, fields) in regions {
            collected.count_row(&spec.id);
            let per_chip = |field: &str| fields.get(field).and_then(serde_json::Value::as_f64);
            for &count in *chips {
                // v5p slices are named by TensorCores: 2 per chip.
                let slice = if *prefix == "v5p-" { count * 2 } else { count };
                let raw = RawOffer {
                    line: 0,
                    provider: spec.provider.clone(),
                    instance: format!("{prefix}{slice}"),
                    region: region.clone(),
                    accelerator: name.to_string(),
                    gpu_count: f64::from(count),
                    price: per_chip("On Demand (USD)").map(|p| p * f64::from(count)),
                    spot_price: per_chip("Spot (USD)").map(|p| p * f64::from(count)),
                    ..RawOffer::default()
                };
                collected.add(&spec.id, raw, catalog)?;
            }
        }
    }
    Ok(())
}
