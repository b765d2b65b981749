//! Prices a person may not be able to pay: auction floors, host-set
//! marketplace listings, and prices far below what every other provider
//! asks for the same GPU (issue 27). The ranking badges them and says why;
//! the snapshot builder lists them in `SUMMARY.md`.

use super::fast_map::FastMap;
use super::snapshot::{Offer, PriceKind, Snapshot};
use crate::sorting::sort_indices_by;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capacity {
    OnDemand = 0,
    Spot = 1,
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

/// For every offer of a snapshot, at each capacity, whether its price is
/// unusually low: the lowest typical price per GPU-hour any other provider
/// asks for the GPU, where a provider's typical price is the median of its
/// offers (a cloud that lists one shape in 30 regions counts once).
pub struct PriceCheck {
    /// Per offer: [on-demand, spot].
    far_below: Vec<[Option<f64>; 2]>,
}

impl PriceCheck {
    pub fn new(snapshot: &Snapshot) -> PriceCheck {
        let offers = &snapshot.offers;
        // Each offer's GPU and provider as numbers: the sorts below compare
        // integers, not strings (a third of the page's time between reading
        // the offers and ranking them went to comparing these names).
        let gpu_of = numbered(offers, |offer| &offer.gpu);
        let provider_of = numbered(offers, |offer| &offer.provider);
        let mut far_below = vec![[None, None]; offers.len()];
        for (slot, capacity) in [Capacity::OnDemand, Capacity::Spot].into_iter().enumerate() {
            // Offers by GPU, then provider, then price at this capacity (one
            // sort, shared with the ranking's: no B-tree, no sort per type).
            let key = |i: usize| (gpu_of[i], provider_of[i]);
            let price = |i: usize| capacity.per_gpu(&offers[i]);
            let sorted_price = |i: usize| price(i).unwrap_or(0.0);
            let mut order: Vec<usize> = (0..offers.len()).filter(|&i| price(i).is_some()).collect();
            sort_indices_by(&mut order, &|a, b| key(a).cmp(&key(b)).then(sorted_price(a).total_cmp(&sorted_price(b))));
            for gpu in order.chunk_by(|&a, &b| gpu_of[a] == gpu_of[b]) {
                // Each provider's median, in the GPU's block.
                let typical: Vec<(usize, f64)> = gpu
                    .chunk_by(|&a, &b| provider_of[a] == provider_of[b])
                    .map(|group| {
                        let at = |k: usize| sorted_price(group[k]);
                        let mid = group.len() / 2;
                        let median = if group.len() % 2 == 1 { at(mid) } else { (at(mid - 1) + at(mid)) / 2.0 };
                        (provider_of[group[0]], median)
                    })
                    .collect();
                for &i in gpu {
                    let others = typical.iter().filter(|(provider, _)| *provider != provider_of[i]);
                    let (count, lowest) = others.fold((0, f64::INFINITY), |(n, low), (_, t)| (n + 1, low.min(*t)));
                    let unusual =
                        count >= MIN_OTHER_PROVIDERS && price(i).is_some_and(|p| p < FAR_BELOW_SHARE * lowest);
                    far_below[i][slot] = unusual.then_some(lowest);
                }
            }
        }
        PriceCheck { far_below }
    }

    /// When the offer at `index` has an unusually low price at `capacity`:
    /// the lowest typical price per GPU-hour any other provider asks.
    pub fn far_below(&self, index: usize, capacity: Capacity) -> Option<f64> {
        self.far_below.get(index)?[capacity as usize]
    }
}

/// Each offer's `name` as a number, the same for the same name (in the
/// order names first appear).
/// (The map type of the ranking's indices: the page's module holds one copy
/// of its code.)
fn numbered<'a>(offers: &'a [Offer], name: impl Fn(&'a Offer) -> &'a str) -> Vec<usize> {
    let mut numbers: FastMap<&str, usize> = FastMap::default();
    offers
        .iter()
        .map(|offer| {
            let next = numbers.len();
            *numbers.entry(name(offer)).or_insert(next)
        })
        .collect()
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
        assert_eq!(check.far_below(0, Capacity::OnDemand), Some(2.0));
        assert_eq!(check.far_below(1, Capacity::OnDemand), None);
        // No spot price, nothing to compare.
        assert_eq!(check.far_below(0, Capacity::Spot), None);
        // Exactly half is not under half.
        let mut half = snap.clone();
        half.offers[0].price = Some(8.0);
        assert_eq!(PriceCheck::new(&half).far_below(0, Capacity::OnDemand), None);
    }

    #[test]
    fn one_other_provider_is_not_a_distribution() {
        let snap = snapshot(vec![offer("a", "l40", 1, 0.3), offer("b", "l40", 1, 1.0)]);
        assert_eq!(PriceCheck::new(&snap).far_below(0, Capacity::OnDemand), None);
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
            (0..snap.offers.len())
                .filter(|&i| snap.offers[i].provider == provider && snap.offers[i].gpu == gpu)
                .any(|i| check.far_below(i, Capacity::OnDemand).is_some())
        };
        assert!(flagged("lium", "l40"));
        assert!(flagged("ovhcloud", "v100_sxm2_32gb"));
        assert!(!flagged("verda", "v100_sxm2_16gb"));
        assert!(!flagged("lambda", "h100_sxm"));
        let mithril = snap.provider("mithril").unwrap();
        assert!(!payable(mithril.price_kind));
        assert!(payable(snap.provider("vast").unwrap().price_kind));
    }

    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    #[test]
    fn every_offer_is_judged_as_by_its_gpus_and_providers_names() {
        // The definition, written the plain way: each provider's median per
        // GPU by name, and an offer's price against the lowest of the others.
        use std::collections::BTreeMap;
        let snap = crate::engine::snapshot::committed();
        let check = PriceCheck::new(&snap);
        let mut flagged = 0;
        for capacity in [Capacity::OnDemand, Capacity::Spot] {
            let mut prices: BTreeMap<(&str, &str), Vec<f64>> = BTreeMap::new();
            for offer in &snap.offers {
                if let Some(price) = capacity.per_gpu(offer) {
                    prices.entry((offer.gpu.as_str(), offer.provider.as_str())).or_default().push(price);
                }
            }
            let medians: BTreeMap<(&str, &str), f64> = prices
                .into_iter()
                .map(|(key, mut p)| {
                    p.sort_by(f64::total_cmp);
                    let mid = p.len() / 2;
                    (key, if p.len() % 2 == 1 { p[mid] } else { (p[mid - 1] + p[mid]) / 2.0 })
                })
                .collect();
            for (i, offer) in snap.offers.iter().enumerate() {
                let others: Vec<f64> = medians
                    .iter()
                    .filter(|((gpu, provider), _)| *gpu == offer.gpu && *provider != offer.provider)
                    .map(|(_, median)| *median)
                    .collect();
                let lowest = others.iter().copied().fold(f64::INFINITY, f64::min);
                let expected = capacity
                    .per_gpu(offer)
                    .filter(|&p| others.len() >= MIN_OTHER_PROVIDERS && p < FAR_BELOW_SHARE * lowest)
                    .map(|_| lowest);
                assert_eq!(
                    check.far_below(i, capacity),
                    expected,
                    "{} {} {capacity:?}",
                    offer.provider,
                    offer.instance
                );
                flagged += usize::from(expected.is_some());
            }
        }
        assert!(flagged > 10, "only {flagged} prices flagged: the comparison checks little");
    }
}
