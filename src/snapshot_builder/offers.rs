//! Reading offer rows from each source format into the snapshot's `Offer`.
//!
//! Every format adapter turns its rows into [`RawOffer`]s; [`Collected::add`]
//! then maps the GPU name, rejects implausible prices (reported as
//! anomalies, never shipped as truth), collapses availability zones, and
//! [`Collected::finish_source`] merges regions that share a shape and price.

use super::gpu_names::catalog_gpu_id;
use super::{Anomaly, BuildError};
use crate::engine::{Catalog, Offer};
use std::collections::BTreeMap;

/// At or below this on-demand price per GPU-hour a datacenter GPU price is a
/// placeholder, not a price (issue 3; SOURCES.md notes Mithril rows of
/// $0.01–0.08/h that are "placeholder-like").
const IMPLAUSIBLE_DATACENTER_USD_PER_GPU_HOUR: f64 = 0.10;

/// How a source states per-GPU memory in SkyPilot's `GpuInfo`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuMemory {
    /// `SizeInMiB` is MiB per GPU (most catalogs).
    Mib,
    /// `SizeInMiB` actually holds GB per GPU (RunPod, Shadeform).
    Gb,
    /// `SizeInMiB` is MiB for all GPUs of the instance (Vast, Verda).
    MibTotal,
    /// No usable memory figure (the name or count carries it).
    None,
}

/// Where a reseller names the cloud behind an offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UnderlyingCloud {
    None,
    /// The instance type starts with `<cloud><separator>` (Shadeform `_`,
    /// Prime Intellect `__`).
    InstancePrefix(String),
    /// A column names it (Spheron `Provider`).
    Column(String),
}

/// One row of `data/offer_sources.csv`.
#[derive(Debug, Clone)]
pub struct SourceSpec {
    pub id: String,
    pub format: String,
    pub provider: String,
    pub gpu_memory: GpuMemory,
    pub underlying: UnderlyingCloud,
}

/// An offer as a source states it, before normalisation.
#[derive(Debug, Clone, Default)]
pub struct RawOffer {
    pub line: u64,
    pub provider: String,
    pub instance: String,
    pub region: String,
    pub zone: String,
    pub accelerator: String,
    pub gpu_count: f64,
    pub memory_gib: Option<f64>,
    /// Extra text that may carry the form factor (e.g. RunPod's GpuInfo
    /// name "A100 PCIe").
    pub hints: String,
    pub vcpus: Option<f64>,
    pub ram_gb: Option<f64>,
    pub price: Option<f64>,
    pub spot_price: Option<f64>,
    pub underlying_cloud: Option<String>,
}

/// Offers gathered so far, with what was reported about the rows.
#[derive(Default)]
pub struct Collected {
    pub offers: Vec<Offer>,
    pub anomalies: Vec<Anomaly>,
    /// (source, GPU name) → rows that no rule maps.
    pub unmapped: BTreeMap<(String, String), usize>,
    /// source → rows read.
    pub rows_read: BTreeMap<String, usize>,
    /// (source, reason) → rows deliberately not turned into offers.
    pub skipped: BTreeMap<(String, String), usize>,
    /// `(instance, region, underlying cloud)` → offer of the source being read.
    pending: BTreeMap<(String, String, String), Offer>,
    /// `instance|region|zone` → first line, to report duplicate rows.
    seen: BTreeMap<String, u64>,
    /// `(source, instance)` → corrected GPU count, from data/offer_corrections.csv.
    pub corrections: BTreeMap<(String, String), (u32, String)>,
}

impl Collected {
    /// Counts a source row read, for the summary.
    pub fn count_row(&mut self, source: &str) {
        *self.rows_read.entry(source.to_string()).or_default() += 1;
    }

    pub fn skip(&mut self, source: &str, reason: &str) {
        *self.skipped.entry((source.to_string(), reason.to_string())).or_default() += 1;
    }

    fn anomaly(&mut self, source: &str, line: u64, what: String) {
        self.anomalies.push(Anomaly { source: source.to_string(), line, what });
    }

    /// Normalises one raw offer of `source` into the pending offers.
    pub fn add(&mut self, source: &str, mut raw: RawOffer, catalog: &Catalog) -> Result<(), BuildError> {
        let (instance, spot_marked) = without_spot_marker(&raw.instance);
        raw.instance = instance;
        if spot_marked && raw.price.is_some() && raw.spot_price.is_none() {
            // A row marked spot that carries its price in the on-demand column.
            raw.spot_price = raw.price.take();
        }

        let identity = format!(
            "{}|{}|{}|{}|{}",
            raw.instance,
            raw.region,
            raw.zone,
            spot_marked,
            raw.underlying_cloud.as_deref().unwrap_or("")
        );
        if let Some(first) = self.seen.insert(identity, raw.line) {
            self.anomaly(
                source,
                raw.line,
                format!("{} {} {}: duplicate of line {first}; dropped", raw.instance, raw.region, raw.zone),
            );
            return Ok(());
        }

        let Some(gpu_id) = catalog_gpu_id(&raw.accelerator, raw.memory_gib, &format!("{} {}", raw.instance, raw.hints))
        else {
            *self.unmapped.entry((source.to_string(), raw.accelerator.clone())).or_default() += 1;
            return Ok(());
        };
        let gpu = catalog.gpu(gpu_id).map_err(|e| BuildError::Csv {
            path: source.to_string(),
            line: raw.line,
            message: format!("rule maps \"{}\" to {gpu_id}, which the catalog lacks: {e}", raw.accelerator),
        })?;

        if let Some((count, reason)) = self.corrections.get(&(source.to_string(), raw.instance.clone())).cloned() {
            if raw.gpu_count != f64::from(count) {
                self.anomaly(
                    source,
                    raw.line,
                    format!("{}: {} GPUs corrected to {count} ({reason})", raw.instance, raw.gpu_count),
                );
                raw.gpu_count = f64::from(count);
            }
        }
        if raw.gpu_count < 1.0 || raw.gpu_count.fract() != 0.0 {
            self.skip(source, "fractional GPU shares (e.g. AWS g6f, 1/8 of an L4) are not modelled");
            return Ok(());
        }
        let gpu_count = raw.gpu_count as u32;

        let mut price = rounded(raw.price);
        let mut spot_price = rounded(raw.spot_price);
        let datacenter = gpu.segment == Some(crate::engine::catalog::Segment::Datacenter);
        let mut placeholder_row = false;
        if let Some(p) = price {
            if p <= 0.0 || (datacenter && p / f64::from(gpu_count) <= IMPLAUSIBLE_DATACENTER_USD_PER_GPU_HOUR) {
                placeholder_row = true;
                self.anomaly(
                    source,
                    raw.line,
                    format!(
                        "{} {}: on-demand ${p}/h for {gpu_count}× {} is implausible; price dropped",
                        raw.instance, raw.region, gpu.name
                    ),
                );
                price = None;
            }
        }
        if let Some(s) = spot_price {
            // Spot can be legitimately cheap (an AWS inf1 chip, an Azure K80),
            // so only zero is taken for a placeholder (Vast lists 0.00 everywhere).
            if s <= 0.0 {
                self.anomaly(
                    source,
                    raw.line,
                    format!("{} {}: spot ${s}/h is not a price; spot dropped", raw.instance, raw.region),
                );
                spot_price = None;
            } else if placeholder_row && s / f64::from(gpu_count) <= IMPLAUSIBLE_DATACENTER_USD_PER_GPU_HOUR {
                // The row's on-demand price was a placeholder: its spot price
                // at the same level is one too (Mithril lists both at
                // $0.01/GPU-hour).
                self.anomaly(
                    source,
                    raw.line,
                    format!(
                        "{} {}: spot ${s}/h on a placeholder row is implausible; spot dropped",
                        raw.instance, raw.region
                    ),
                );
                spot_price = None;
            } else if price.is_some_and(|p| s >= p) {
                self.anomaly(
                    source,
                    raw.line,
                    format!(
                        "{} {}: spot ${s}/h is not below on-demand ${}/h; spot dropped",
                        raw.instance,
                        raw.region,
                        price.unwrap_or_default()
                    ),
                );
                spot_price = None;
            }
        }
        if price.is_none() && spot_price.is_none() {
            self.skip(source, "no usable price");
            return Ok(());
        }

        let offer = Offer {
            provider: raw.provider.clone(),
            underlying_cloud: raw.underlying_cloud.clone(),
            billed_as: None,
            instance: raw.instance.clone(),
            regions: region_name(&raw.region).map(str::to_string).into_iter().collect(),
            gpu: gpu.id.clone(),
            gpu_count,
            vram_gb: gpu.vram_gb,
            vcpus: raw.vcpus,
            ram_gb: raw.ram_gb,
            price,
            spot_price,
            source: source.to_string(),
        };
        // Zones of one region collapse into one offer at the cheapest zone's prices.
        let key = (raw.instance, raw.region, raw.underlying_cloud.unwrap_or_default());
        match self.pending.get_mut(&key) {
            Some(kept) => {
                kept.price = min_price(kept.price, offer.price);
                kept.spot_price = min_price(kept.spot_price, offer.spot_price);
            }
            None => {
                self.pending.insert(key, offer);
            }
        }
        Ok(())
    }

    /// Ends a source: one offer per shape and price, listing every region
    /// that has it. Most clouds price a shape the same everywhere (Lambda in
    /// 17 regions, OCI in 44), and a table of identical rows helps nobody.
    pub fn finish_source(&mut self) {
        let mut merged: BTreeMap<String, Offer> = BTreeMap::new();
        for offer in std::mem::take(&mut self.pending).into_values() {
            let key = format!(
                "{}|{:?}|{}|{}|{:?}|{:?}|{:?}|{:?}",
                offer.instance,
                offer.underlying_cloud,
                offer.gpu,
                offer.gpu_count,
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
        for mut offer in merged.into_values() {
            offer.regions.sort();
            offer.regions.dedup();
            self.offers.push(offer);
        }
        self.seen.clear();
    }
}

/// `…__SPOT` (Prime Intellect) and `…-spot__…` (Spheron) mark the spot twin
/// of an on-demand shape; without the marker both rows merge into one offer.
fn without_spot_marker(instance: &str) -> (String, bool) {
    if let Some(base) = instance.strip_suffix("__SPOT") {
        return (base.to_string(), true);
    }
    if let Some(at) = instance.find("-spot") {
        return (format!("{}{}", &instance[..at], &instance[at + "-spot".len()..]), true);
    }
    (instance.to_string(), false)
}

/// Prices to 1/10,000 of a dollar: catalogs carry float noise
/// (0.36979999999999996) that would make the output differ for no reason.
pub fn rounded(price: Option<f64>) -> Option<f64> {
    price.map(|p| (p * 10_000.0).round() / 10_000.0)
}

fn min_price(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A region as a reader should see it: Vast.ai's listings name a machine's
/// place as "city, country, continent", with the city left empty where the
/// host did not say (", US, NA"); the empty parts go (issue 40).
fn region_name(raw: &str) -> Option<&str> {
    let name = raw.trim().trim_start_matches(|c: char| c == ',' || c.is_whitespace());
    let name = name.trim_end_matches(|c: char| c == ',' || c.is_whitespace());
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::region_name;

    #[test]
    fn a_region_without_its_city_reads_as_its_country() {
        assert_eq!(region_name(", US, NA"), Some("US, NA"));
        assert_eq!(region_name("Oklahoma, US, NA"), Some("Oklahoma, US, NA"));
        assert_eq!(region_name(" , "), None);
        assert_eq!(region_name(""), None);
        assert_eq!(region_name("us-east-1"), Some("us-east-1"));
    }

    use super::*;

    #[test]
    fn float_noise_is_rounded_away() {
        assert_eq!(rounded(Some(0.369_799_999_999_999_96)), Some(0.3698));
    }

    #[test]
    fn spot_twins_lose_their_marker() {
        assert_eq!(
            without_spot_marker("datacrunch__1xA100_80GB__22__120__SPOT"),
            ("datacrunch__1xA100_80GB__22__120".into(), true)
        );
        assert_eq!(without_spot_marker("n3-A100x1-spot__CANADA-1"), ("n3-A100x1__CANADA-1".into(), true));
        assert_eq!(without_spot_marker("p5.48xlarge"), ("p5.48xlarge".into(), false));
    }

    fn catalog() -> &'static Catalog {
        Catalog::bundled().unwrap()
    }

    fn raw(line: u64, zone: &str, price: Option<f64>, spot_price: Option<f64>) -> RawOffer {
        RawOffer {
            line,
            provider: "aws".into(),
            instance: "p5.48xlarge".into(),
            region: "us-east-1".into(),
            zone: zone.into(),
            accelerator: "H100".into(),
            gpu_count: 8.0,
            price,
            spot_price,
            ..RawOffer::default()
        }
    }

    #[test]
    fn zones_collapse_to_the_cheapest_and_duplicates_are_reported() {
        let mut collected = Collected::default();
        collected.add("s", raw(2, "use1-az1", Some(55.04), Some(30.0)), catalog()).unwrap();
        collected.add("s", raw(3, "use1-az2", Some(55.04), Some(25.1)), catalog()).unwrap();
        collected.add("s", raw(4, "use1-az2", Some(55.04), Some(25.1)), catalog()).unwrap();
        collected.finish_source();
        assert_eq!(collected.offers.len(), 1);
        assert_eq!(collected.offers[0].spot_price, Some(25.1));
        assert_eq!(collected.anomalies.len(), 1);
        assert!(collected.anomalies[0].what.contains("duplicate of line 3"), "{:?}", collected.anomalies);
    }

    #[test]
    fn placeholder_and_zero_prices_are_reported_and_not_shipped() {
        let mut collected = Collected::default();
        // Mithril-like placeholder: $0.08/h for 8 H100s; Vast-like zero spot.
        collected.add("s", raw(2, "a", Some(0.08), Some(0.0)), catalog()).unwrap();
        // A cheap but real spot price stays.
        collected.add("s", raw(5, "d", Some(55.04), Some(0.09)), catalog()).unwrap();
        collected.add("s", raw(3, "b", Some(55.04), Some(0.0)), catalog()).unwrap();
        collected.add("s", raw(4, "c", Some(55.04), Some(60.0)), catalog()).unwrap();
        // Mithril lists both prices at $0.01/GPU-hour: both are placeholders.
        collected.add("s", raw(6, "e", Some(0.08), Some(0.08)), catalog()).unwrap();
        collected.finish_source();
        let whats: Vec<&str> = collected.anomalies.iter().map(|a| a.what.as_str()).collect();
        assert!(whats[0].contains("implausible; price dropped"), "{whats:?}");
        assert!(whats.iter().filter(|w| w.contains("spot $0/h is not a price")).count() == 2, "{whats:?}");
        assert!(whats.iter().any(|w| w.contains("not below on-demand")), "{whats:?}");
        assert!(whats.iter().any(|w| w.contains("spot $0.08/h on a placeholder row is implausible")), "{whats:?}");
        assert_eq!(collected.skipped.values().sum::<usize>(), 2, "the all-placeholder rows are skipped");
        assert_eq!(collected.offers.len(), 1);
        assert_eq!((collected.offers[0].price, collected.offers[0].spot_price), (Some(55.04), Some(0.09)));
    }

    #[test]
    fn unmapped_gpu_names_are_counted_not_dropped_silently() {
        let mut collected = Collected::default();
        let mut row = raw(2, "a", Some(1.0), None);
        row.accelerator = "Voodoo5".into();
        collected.add("s", row, catalog()).unwrap();
        assert_eq!(collected.unmapped.get(&("s".to_string(), "Voodoo5".to_string())), Some(&1));
    }
}
