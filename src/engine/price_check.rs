//! Prices a person may not be able to pay: auction floors, host-set
//! marketplace listings, and prices far below what every other provider
//! asks for the same GPU (issue 27). The ranking badges them and says why;
//! the snapshot builder lists them in `SUMMARY.md`.

use super::snapshot::{Offer, PriceKind, Snapshot};
use std::collections::BTreeMap;

/// A price is unusually low when it is under this share of the lowest
/// typical price any other provider asks for the same GPU. Chosen with the
/// 2026-09 snapshot: at one half it flags Lium's $0.33 L40 beside $1.00
/// elsewhere, OVHcloud's $0.88 V100 32 GB beside $2.30, Exoscale's P100s
/// and Azure's T4 spot prices; a cluster of cheap providers (V100s at
/// $0.14–0.27 on Verda, Prime Intellect, Vast and Cudo) flags none of
/// them, since each has a peer. At 0.6 it would also flag real list prices
/// (AWS's Graviton T4G at $0.42 beside $0.86). Auction floors are flagged
/// by their provider's price kind whatever their level (Mithril's H200 at
/// $1.00 sits at exactly half of the next provider's $2.00).
pub const FAR_BELOW_SHARE: f64 = 0.5;

/// Other providers a GPU needs before its prices are compared: with fewer,
/// "every other provider" is one provider's catalog.
pub const MIN_OTHER_PROVIDERS: usize = 2;

/// Which capacity a price is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Capacity {
    OnDemand,
    Spot,
}

impl Capacity {
    /// The offer's price at this capacity, per GPU-hour.
    fn per_gpu(self, offer: &Offer) -> Option<f64> {
        let price = match self {
            Capacity::OnDemand => offer.price,
            Capacity::Spot => offer.spot_price,
        }?;
        (price > 0.0 && offer.gpu_count > 0).then(|| price / f64::from(offer.gpu_count))
    }
}

/// The typical per-GPU price of every provider for each (GPU, capacity):
/// the median of its offers, so a cloud that lists one shape in 30 regions
/// counts once.
pub struct PriceCheck<'a> {
    typical: BTreeMap<(&'a str, Capacity), Vec<(&'a str, f64)>>,
}

impl<'a> PriceCheck<'a> {
    pub fn new(snapshot: &'a Snapshot) -> PriceCheck<'a> {
        let mut prices: BTreeMap<(&str, Capacity, &str), Vec<f64>> = BTreeMap::new();
        for offer in &snapshot.offers {
            for capacity in [Capacity::OnDemand, Capacity::Spot] {
                if let Some(price) = capacity.per_gpu(offer) {
                    prices.entry((&offer.gpu, capacity, &offer.provider)).or_default().push(price);
                }
            }
        }
        let mut typical: BTreeMap<(&str, Capacity), Vec<(&str, f64)>> = BTreeMap::new();
        for ((gpu, capacity, provider), mut list) in prices {
            typical.entry((gpu, capacity)).or_default().push((provider, median(&mut list)));
        }
        PriceCheck { typical }
    }

    /// When `offer`'s price at `capacity` is unusually low: the lowest
    /// typical price per GPU-hour any other provider asks.
    pub fn far_below(&self, offer: &Offer, capacity: Capacity) -> Option<f64> {
        let price = capacity.per_gpu(offer)?;
        let others = self.typical.get(&(offer.gpu.as_str(), capacity))?;
        let mut count = 0;
        let mut lowest = f64::INFINITY;
        for &(provider, typical) in others {
            if provider != offer.provider {
                count += 1;
                lowest = lowest.min(typical);
            }
        }
        (count >= MIN_OTHER_PROVIDERS && price < FAR_BELOW_SHARE * lowest).then_some(lowest)
    }
}

/// The median of a non-empty list (sorted in place).
fn median(list: &mut [f64]) -> f64 {
    list.sort_by(f64::total_cmp);
    let mid = list.len() / 2;
    if list.len() % 2 == 1 {
        list[mid]
    } else {
        (list[mid - 1] + list[mid]) / 2.0
    }
}

/// Whether a provider's catalog price is one a job pays: not an auction
/// floor.
pub fn payable(kind: Option<PriceKind>) -> bool {
    kind != Some(PriceKind::Auction)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn offer(provider: &str, gpu: &str, count: u32, price: f64) -> Offer {
        Offer {
            provider: provider.into(),
            underlying_cloud: None,
            billed_as: None,
            instance: format!("{provider}-{count}x"),
            regions: Vec::new(),
            gpu: gpu.into(),
            gpu_count: count,
            vram_gb: 80.0,
            vcpus: None,
            ram_gb: None,
            price: Some(price),
            spot_price: None,
            source: "test".into(),
        }
    }

    fn snapshot(offers: Vec<Offer>) -> Snapshot {
        Snapshot {
            schema_version: 2,
            snapshot_date: "2026-09".into(),
            sources: Vec::new(),
            providers: Vec::new(),
            offers,
            fabrics: Vec::new(),
        }
    }

    #[test]
    fn a_price_under_half_of_every_other_providers_is_flagged_per_gpu() {
        let snap = snapshot(vec![
            offer("a", "h200", 8, 7.2), // $0.90 per GPU-hour
            offer("b", "h200", 8, 16.0),
            offer("c", "h200", 1, 2.5),
            // Many regions of one shape count once: the median.
            offer("c", "h200", 1, 2.5),
            offer("c", "h200", 1, 40.0),
        ]);
        let check = PriceCheck::new(&snap);
        assert_eq!(check.far_below(&snap.offers[0], Capacity::OnDemand), Some(2.0));
        // Exactly half is not under half.
        let half = offer("a", "h200", 8, 8.0);
        assert_eq!(check.far_below(&half, Capacity::OnDemand), None);
        assert_eq!(check.far_below(&snap.offers[1], Capacity::OnDemand), None);
        // No spot price, nothing to compare.
        assert_eq!(check.far_below(&snap.offers[0], Capacity::Spot), None);
    }

    #[test]
    fn one_other_provider_is_not_a_distribution() {
        let snap = snapshot(vec![offer("a", "l40", 1, 0.3), offer("b", "l40", 1, 1.0)]);
        assert_eq!(PriceCheck::new(&snap).far_below(&snap.offers[0], Capacity::OnDemand), None);
    }

    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    #[test]
    fn in_the_bundled_snapshot_the_lone_cheap_listings_and_the_auction_floors_are_flagged() {
        // The 2026-09 snapshot: Lium's L40 at $0.33/GPU-h and OVHcloud's
        // V100 32 GB at $0.88 are far below every other provider; the V100s
        // that several providers sell cheaply are not. Mithril's floors
        // (providers.csv price_kind_notes) are flagged by their kind.
        let snap = crate::engine::snapshot::committed();
        let check = PriceCheck::new(&snap);
        let flagged = |provider: &str, gpu: &str| {
            snap.offers
                .iter()
                .filter(|o| o.provider == provider && o.gpu == gpu)
                .any(|o| check.far_below(o, Capacity::OnDemand).is_some())
        };
        assert!(flagged("lium", "l40"));
        assert!(flagged("ovhcloud", "v100_sxm2_32gb"));
        assert!(!flagged("verda", "v100_sxm2_16gb"));
        assert!(!flagged("lambda", "h100_sxm"));
        let mithril = snap.provider("mithril").unwrap();
        assert!(!payable(mithril.price_kind));
        assert!(payable(snap.provider("vast").unwrap().price_kind));
    }
}
