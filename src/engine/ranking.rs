//! Ranking: which offers hold the workload, cheapest first, and why the
//! others were left out.

use super::memory::{estimate, fit, Fit, MemoryBreakdown};
use super::speed::{speed, Speed};
use super::{Catalog, Error, Offer, Snapshot, Workload};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;

/// An offer that holds the workload. `offer` indexes `Snapshot::offers`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RankedOffer {
    pub offer: usize,
    /// On-demand USD per hour for the instance.
    pub price_per_hour: f64,
    /// Bytes each of the instance's GPUs holds, the model split across all.
    pub per_gpu_bytes: f64,
    /// Serving: concurrent sequences of the requested length the instance holds.
    pub max_concurrency: Option<u32>,
    /// How fast it runs there; `None` where the GPU lacks the figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed: Option<Speed>,
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
    /// The memory one serving replica needs on a single GPU, or a training
    /// job on its GPUs.
    pub memory: MemoryBreakdown,
    /// Offers that hold the workload, cheapest $/h first.
    pub results: Vec<RankedOffer>,
    pub excluded: Vec<Exclusion>,
    /// When no offer holds the workload: what even the largest node would
    /// need, so the user knows to shrink the job or go multi-node.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_single_node: Option<String>,
}

/// One GPU shape's fit, and its speed when it fits.
type Sized = (Fit, Option<Speed>);

/// Sizes `workload` and ranks every offer of `snapshot` for it.
pub fn rank(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot) -> Result<Report, Error> {
    let model = workload.resolve_model(catalog)?;
    let model = model.as_ref();
    let memory = estimate(workload, model, workload.planned_gpus())?;
    // Offers repeat GPU shapes (the same 8× H100 at many clouds): size each once.
    let mut fits: HashMap<(&str, u32), Result<Sized, String>> = HashMap::new();
    let mut results = Vec::new();
    let mut excluded = Vec::new();
    for (index, offer) in snapshot.offers.iter().enumerate() {
        let sized =
            fits.entry((offer.gpu.as_str(), offer.gpu_count)).or_insert_with(|| match catalog.gpu(&offer.gpu) {
                Ok(gpu) => match fit(workload, model, gpu, offer.gpu_count) {
                    // Speed only for what fits; sizing errors are the reason.
                    Ok(f) => {
                        let timed = f.fits.then(|| speed(workload, model, gpu, offer.gpu_count, &f).ok()).flatten();
                        Ok((f, timed))
                    }
                    Err(e) => Err(e.to_string()),
                },
                Err(e) => Err(e.to_string()),
            });
        let verdict = match sized {
            Err(reason) => Err(reason.clone()),
            Ok((f, _)) if !f.fits => Err(f.reason.clone().unwrap_or_default()),
            Ok((f, timed)) => match offer.price {
                Some(price) => Ok(RankedOffer {
                    offer: index,
                    price_per_hour: price,
                    per_gpu_bytes: f.memory.per_gpu_bytes,
                    max_concurrency: f.max_concurrency,
                    speed: timed.clone(),
                }),
                None => Err("no on-demand price in the snapshot".to_string()),
            },
        };
        match verdict {
            Ok(ranked) => results.push(ranked),
            Err(reason) => excluded.push(Exclusion { offer: index, reason }),
        }
    }
    results.sort_by(|a, b| {
        a.price_per_hour
            .partial_cmp(&b.price_per_hour)
            .unwrap_or(Ordering::Equal)
            .then_with(|| offer_key(&snapshot.offers[a.offer]).cmp(&offer_key(&snapshot.offers[b.offer])))
    });
    let no_single_node =
        if results.is_empty() { largest_node_shortfall(workload, model, catalog, snapshot) } else { None };
    Ok(Report { memory, results, excluded, no_single_node })
}

/// "No single node holds this workload: even 8× B300 SXM (2304 GB) would need
/// 310 GB per GPU." The node with the most GPU memory in the snapshot is the
/// best any single instance can do.
fn largest_node_shortfall(
    workload: &Workload,
    model: &super::Model,
    catalog: &Catalog,
    snapshot: &Snapshot,
) -> Option<String> {
    let largest = snapshot
        .offers
        .iter()
        .max_by(|a, b| a.total_vram_gb().partial_cmp(&b.total_vram_gb()).unwrap_or(Ordering::Equal))?;
    let gpu = catalog.gpu(&largest.gpu).ok()?;
    let sized = fit(workload, model, gpu, largest.gpu_count).ok()?;
    (!sized.fits).then(|| {
        format!(
            "No single node holds this workload: even {}× {} ({:.0} GB) would need {} per GPU. Use a smaller precision, fewer concurrent requests, or several nodes.",
            largest.gpu_count,
            gpu.name,
            largest.total_vram_gb(),
            super::memory::format_gb(sized.memory.per_gpu_bytes)
        )
    })
}

/// Stable tie-break so equal prices always list in the same order.
fn offer_key(offer: &Offer) -> (&str, &str, &[String]) {
    (&offer.provider, &offer.instance, &offer.regions)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Precision, Provider, Source};

    fn offer(instance: &str, gpu: &str, gpu_count: u32, vram_gb: f64, price: Option<f64>) -> Offer {
        Offer {
            provider: "lambda".into(),
            underlying_cloud: None,
            instance: instance.into(),
            regions: vec!["us-east-1".into()],
            gpu: gpu.into(),
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
            snapshot_date: "2026-09".into(),
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
    fn offers_that_hold_the_workload_are_listed_cheapest_first() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_8x_h100_sxm5", "h100_sxm", 8, 80.0, Some(23.92)),
            offer("gpu_1x_a10", "a10", 1, 24.0, Some(0.75)),
            offer("gpu_1x_h100_sxm5", "h100_sxm", 1, 80.0, Some(3.29)),
            offer("gpu_2x_h100_sxm5", "h100_sxm", 2, 80.0, Some(6.38)),
        ]);
        // Llama 3.1 70B in BF16 is 131 GiB of weights: it needs two 80 GB cards (product brief).
        let workload =
            Workload { model: "llama-3.1-70b".into(), weight_precision: Precision::Bf16, ..Workload::default() };
        let report = rank(&workload, catalog, &snapshot).unwrap();
        let listed: Vec<&str> = report.results.iter().map(|r| snapshot.offers[r.offer].instance.as_str()).collect();
        assert_eq!(listed, ["gpu_2x_h100_sxm5", "gpu_8x_h100_sxm5"]);
        let reasons: Vec<&str> = report.excluded.iter().map(|e| e.reason.as_str()).collect();
        assert_eq!(reasons, ["needs 134 GB, has 24 GB (21.6 GB usable)", "needs 134 GB, has 80 GB (72 GB usable)"]);
        // Eight GPUs hold far more concurrent chats than two.
        let (two, eight) = (report.results[0].max_concurrency.unwrap(), report.results[1].max_concurrency.unwrap());
        assert!(eight > 4 * two, "{two} vs {eight}");
    }

    #[test]
    fn quantized_7b_to_13b_fits_a_24_gb_card() {
        // Product brief rule of thumb: quantized 7B–13B inference → a 24 GB card.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("gpu_1x_a10", "a10", 1, 24.0, Some(0.75))]);
        for model in ["llama-2-13b", "llama-3.1-8b", "mistral-7b-v0.3"] {
            let workload = Workload { model: model.into(), weight_precision: Precision::Int8, ..Workload::default() };
            let report = rank(&workload, catalog, &snapshot).unwrap();
            assert_eq!(report.results.len(), 1, "{model}: {:?}", report.excluded);
        }
    }

    #[test]
    fn an_offer_without_an_on_demand_price_is_excluded_with_that_reason() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![offer("spot_only", "h100_sxm", 1, 80.0, None)]);
        let report = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        assert_eq!(report.excluded[0].reason, "no on-demand price in the snapshot");
    }

    #[test]
    fn a_workload_no_node_holds_says_what_the_largest_would_need() {
        // Llama 3.1 405B in FP32 (1.5 TiB of weights) exceeds an 8× H100 node.
        let catalog = Catalog::bundled().unwrap();
        let snapshot = snapshot(vec![
            offer("gpu_8x_h100_sxm5", "h100_sxm", 8, 80.0, Some(23.92)),
            offer("gpu_1x_h100_sxm5", "h100_sxm", 1, 80.0, Some(3.29)),
        ]);
        let workload =
            Workload { model: "llama-3.1-405b".into(), weight_precision: Precision::Fp32, ..Workload::default() };
        let report = rank(&workload, catalog, &snapshot).unwrap();
        assert!(report.results.is_empty());
        let note = report.no_single_node.unwrap();
        assert!(
            note.starts_with("No single node holds this workload: even 8× H100 SXM5 80GB (640 GB) would need 1"),
            "{note}"
        );
        // When something fits, there is no such note.
        let small = rank(&Workload::default(), catalog, &snapshot).unwrap();
        assert_eq!(small.no_single_node, None);
    }

    #[test]
    fn an_unknown_model_is_an_error_not_an_empty_list() {
        let catalog = Catalog::bundled().unwrap();
        let workload = Workload { model: "gpt-7".into(), ..Workload::default() };
        assert_eq!(rank(&workload, catalog, &snapshot(vec![])), Err(Error::UnknownModel("gpt-7".into())));
    }
}
