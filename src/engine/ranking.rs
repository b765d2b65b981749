//! Ranking: which offers hold the workload, cheapest first, and why the
//! others were left out.

use super::memory::{weights_bytes, BYTES_PER_GB};
use super::{Catalog, Error, Offer, Snapshot, Workload};
use serde::Serialize;
use std::cmp::Ordering;

/// An offer that holds the workload. `offer` indexes `Snapshot::offers`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedOffer {
    pub offer: usize,
    /// On-demand USD per hour for the instance.
    pub price_per_hour: f64,
}

/// An offer left out, with the reason a user reads.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Exclusion {
    pub offer: usize,
    pub reason: String,
}

/// The engine's answer for one workload against one snapshot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Bytes of the model weights at the chosen precision.
    pub weights_bytes: f64,
    /// Offers that hold the workload, cheapest $/h first.
    pub results: Vec<RankedOffer>,
    pub excluded: Vec<Exclusion>,
}

/// Formats a size in GB the way the reasons show it.
pub fn format_gb(gb: f64) -> String {
    if gb >= 100.0 || gb.fract() == 0.0 {
        format!("{gb:.0} GB")
    } else {
        format!("{gb:.1} GB")
    }
}

/// Sizes `workload` and ranks every offer of `snapshot` for it.
pub fn rank(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot) -> Result<Report, Error> {
    let model = catalog.model(&workload.model)?;
    let weights = weights_bytes(model, workload.weight_precision);
    let needed_gb = weights / BYTES_PER_GB;

    let mut results = Vec::new();
    let mut excluded = Vec::new();
    for (index, offer) in snapshot.offers.iter().enumerate() {
        match fit(offer, needed_gb) {
            Ok(price_per_hour) => results.push(RankedOffer {
                offer: index,
                price_per_hour,
            }),
            Err(reason) => excluded.push(Exclusion {
                offer: index,
                reason,
            }),
        }
    }
    results.sort_by(|a, b| {
        a.price_per_hour
            .partial_cmp(&b.price_per_hour)
            .unwrap_or(Ordering::Equal)
            .then_with(|| {
                offer_key(&snapshot.offers[a.offer]).cmp(&offer_key(&snapshot.offers[b.offer]))
            })
    });
    Ok(Report {
        weights_bytes: weights,
        results,
        excluded,
    })
}

fn fit(offer: &Offer, needed_gb: f64) -> Result<f64, String> {
    let has_gb = offer.total_vram_gb();
    if has_gb < needed_gb {
        return Err(format!(
            "needs {}, has {}",
            format_gb(needed_gb),
            format_gb(has_gb)
        ));
    }
    offer
        .price
        .ok_or_else(|| "no on-demand price in the snapshot".to_string())
}

/// Stable tie-break so equal prices always list in the same order.
fn offer_key(offer: &Offer) -> (&str, &str, &[String]) {
    (&offer.provider, &offer.instance, &offer.regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Precision, Provider, Source};

    fn offer(instance: &str, gpu_count: u32, vram_gb: f64, price: Option<f64>) -> Offer {
        Offer {
            provider: "lambda".into(),
            underlying_cloud: None,
            instance: instance.into(),
            regions: vec!["us-east-1".into()],
            gpu: "h100_sxm".into(),
            gpu_count,
            vram_gb,
            vcpus: None,
            ram_gb: None,
            price,
            spot_price: None,
            source: "s".into(),
        }
    }

    fn snapshot(offers: Vec<Offer>) -> Snapshot {
        Snapshot {
            schema_version: 1,
            snapshot_date: "2026-09-20".into(),
            sources: vec![Source {
                id: "s".into(),
                name: "test".into(),
                upstream: "test".into(),
                commit: None,
                as_of: "2026".into(),
            }],
            providers: vec![Provider {
                id: "lambda".into(),
                name: "Lambda".into(),
                billing_increment_s: None,
                minimum_charge_s: None,
                spot_available: None,
                block_storage_usd_per_gb_month: None,
                egress_usd_per_gb: None,
                pricing_page: None,
            }],
            offers,
        }
    }

    #[test]
    fn offers_that_hold_the_weights_are_listed_cheapest_first() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_8x_h100_sxm5", 8, 80.0, Some(23.92)),
            offer("gpu_1x_a10", 1, 24.0, Some(0.75)),
            offer("gpu_1x_h100_sxm5", 1, 80.0, Some(3.29)),
            offer("gpu_2x_h100_sxm5", 2, 80.0, Some(6.38)),
        ]);
        // Llama 3.1 70B in BF16 is 131.4 GiB: it needs two 80 GB cards (product brief).
        let workload = Workload {
            model: "llama-3.1-70b".into(),
            weight_precision: Precision::Bf16,
        };
        let report = rank(&workload, catalog, &snapshot).unwrap();
        let listed: Vec<&str> = report
            .results
            .iter()
            .map(|r| snapshot.offers[r.offer].instance.as_str())
            .collect();
        assert_eq!(listed, ["gpu_2x_h100_sxm5", "gpu_8x_h100_sxm5"]);
        let reasons: Vec<&str> = report.excluded.iter().map(|e| e.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["needs 131 GB, has 24 GB", "needs 131 GB, has 80 GB"]
        );
    }

    #[test]
    fn quantized_7b_to_13b_fits_a_24_gb_card() {
        // Product brief rule of thumb: quantized 7B–13B inference → a 24 GB card.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("gpu_1x_a10", 1, 24.0, Some(0.75))]);
        for model in ["llama-2-13b", "llama-3.1-8b", "mistral-7b-v0.3"] {
            let workload = Workload {
                model: model.into(),
                weight_precision: Precision::Int8,
            };
            let report = rank(&workload, catalog, &snapshot).unwrap();
            assert_eq!(report.results.len(), 1, "{model}");
        }
    }

    #[test]
    fn an_offer_without_an_on_demand_price_is_excluded_with_that_reason() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("spot_only", 1, 80.0, None)]);
        let report = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        assert_eq!(
            report.excluded[0].reason,
            "no on-demand price in the snapshot"
        );
    }

    #[test]
    fn an_unknown_model_is_an_error_not_an_empty_list() {
        let catalog = Catalog::bundled().unwrap();
        let workload = Workload {
            model: "gpt-7".into(),
            ..Workload::default()
        };
        assert_eq!(
            rank(&workload, catalog, &snapshot(vec![])),
            Err(Error::UnknownModel("gpt-7".into()))
        );
    }
}
