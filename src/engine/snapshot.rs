//! The offer snapshot: cloud GPU offers with their prices, as shipped in
//! `public/data/offers.json` and written by `whichgpu snapshot`.
//!
//! The layout is documented in `docs/snapshot-schema.md`.

use super::fabric::{Fabric, FabricIndex, FabricKind, MultiNode, Network};
use super::json::{self, Fields, FromJson, Json, JsonError};
use crate::msg;
use crate::text::{phrases, Arg, Lang, Msg};
use serde::Serialize;
use std::fmt;

/// Version of the offer file layout. Bump it on any incompatible change;
/// the loader refuses other versions with a message instead of misreading.
pub const SCHEMA_VERSION: u32 = 2;

/// Where a set of offers came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    /// Short key that offers refer to, e.g. `skypilot-v8-lambda`.
    pub id: String,
    /// Human description, e.g. "SkyPilot catalog v8, lambda/vms.csv".
    pub name: String,
    /// Upstream repository and path, or web address.
    pub upstream: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
    /// How fresh the prices are (a date or month), as stated by the source.
    pub as_of: String,
}

/// The billing rules of a cloud, from `providers.csv`. Unknown stays `None`,
/// never zero.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Provider {
    /// `provider_id`, e.g. `aws`.
    pub id: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billing_increment_s: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum_charge_s: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_available: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_storage_usd_per_gb_month: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub egress_usd_per_gb: Option<f64>,
    /// Network (shared) file storage, USD per GB-month: what a cluster's
    /// nodes read their data from and write their checkpoints to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub network_storage_usd_per_gb_month: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pricing_page: Option<String>,
    /// What its catalog prices are: list prices, host-set marketplace
    /// prices, auction floors or another cloud's prices resold
    /// (providers.csv `price_kind`, fourth data pass).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price_kind: Option<PriceKind>,
    /// Seconds of warning before a spot instance is reclaimed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_notice_s: Option<u32>,
    /// The reserved or committed-use discount a source states, as it
    /// states it ("up to 72 (EC2 Instance Savings Plans …)").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserved_discount: Option<String>,
    /// When the provider stopped selling these offers publicly, with its
    /// source (`data/provider_closures.csv`): its offers are left out of
    /// the ranking with that reason.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<Closure>,
}

/// A provider's public platform closing, as its own documents date it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Closure {
    /// `YYYY-MM-DD`.
    pub on: String,
    pub source: String,
}

/// How a provider's catalog price comes about (providers.csv `price_kind`;
/// `../shared/data/SOURCES.md`, "Provider billing rules, fourth data pass").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceKind {
    /// The provider's own list price.
    Fixed,
    /// Each offer's price is set by its host (Vast.ai, Hyperbolic, Lium):
    /// a snapshot of one listing, which may be gone.
    Marketplace,
    /// Bids against a limit or reserve (Mithril): the catalog price is a
    /// floor, not what a job pays, and capacity is not guaranteed.
    Auction,
    /// An aggregator showing another cloud's offer (Shadeform, Prime
    /// Intellect, Spheron).
    Reseller,
}

/// One rentable machine shape at one price, in every region listed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Offer {
    /// Provider id (a key of `Snapshot::providers`).
    pub provider: String,
    /// For a reseller (Shadeform, Spheron, Prime Intellect), the cloud that
    /// runs the machine, as the reseller names it (e.g. `lambdalabs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub underlying_cloud: Option<String>,
    /// For a reseller that passes its underlying cloud's billing rules
    /// through (Shadeform), that cloud's provider id: whose billing step,
    /// storage and egress prices the job pays (data/billing_passthrough.csv).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billed_as: Option<String>,
    /// The provider's instance type, e.g. `p5.48xlarge`.
    pub instance: String,
    /// Regions, as the provider names them, where this shape has these
    /// prices (zones of a region are collapsed); empty when the source
    /// gives none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// Catalog GPU id (`gpu_id` of gpus.csv).
    pub gpu: String,
    pub gpu_count: u32,
    /// Memory per GPU in GB.
    pub vram_gb: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vcpus: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ram_gb: Option<f64>,
    /// On-demand USD per hour for the whole instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub price: Option<f64>,
    /// Spot/preemptible USD per hour for the whole instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spot_price: Option<f64>,
    /// Source id (a key of `Snapshot::sources`).
    pub source: String,
}

impl Offer {
    pub fn total_vram_gb(&self) -> f64 {
        self.vram_gb * f64::from(self.gpu_count)
    }

    /// The regions for a table cell: "us-east-1", "us-east-1, us-west-2",
    /// or "asia-northeast-1 +16 more".
    pub fn regions_label(&self, lang: Lang) -> String {
        match self.regions.as_slice() {
            [] => "—".to_string(),
            [one] => one.clone(),
            [a, b] => format!("{a}, {b}"),
            [first, rest @ ..] => msg!(phrases::REGIONS_MORE, first = first, more = rest.len()).render(lang),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    pub schema_version: u32,
    /// How fresh the prices are: the newest source's `as_of` (YYYY-MM or YYYY-MM-DD).
    pub snapshot_date: String,
    pub sources: Vec<Source>,
    pub providers: Vec<Provider>,
    pub offers: Vec<Offer>,
    /// Which offers join into multi-node clusters, and over what
    /// (cluster_fabrics.csv, resolved to the offers' instance types).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fabrics: Vec<Fabric>,
}

/// What an offer file may say before it is refused as damaged. Not facts:
/// bounds far beyond any real offer, so that a broken or hostile file
/// cannot make the ranking slow (a 4-billion-GPU node) or a total infinite
/// (1e308 $/h). The committed snapshot's largest values, for scale: 16
/// GPUs, 288 GB each, $127.82/h, billing by 60 s with a 3600 s minimum,
/// storage $0.10/GB-month, egress $0.12/GB (public/data/offers.json).
struct Limits {
    gpu_count: u32,
    vram_gb: f64,
    usd_per_hour: f64,
    billing_s: f64,
    usd_per_gb: f64,
    internode_gbps: f64,
    nodes: u32,
}

const LIMITS: Limits = Limits {
    gpu_count: 1024,
    vram_gb: 4096.0,
    usd_per_hour: 100_000.0,
    billing_s: 2_592_000.0,
    usd_per_gb: 1_000.0,
    internode_gbps: 1e6,
    nodes: 100_000,
};

/// `0 ≤ x ≤ max`.
fn within(x: f64, max: f64) -> bool {
    (0.0..=max).contains(&x)
}

/// Why an offer file could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum SnapshotError {
    /// Not JSON, truncated, or fields of the wrong type.
    Malformed(String),
    /// Written for another version of the app.
    WrongVersion { found: u64 },
    /// Parsed, but inconsistent (a dangling reference, a negative price…).
    Invalid(String),
}

impl Provider {
    /// A provider whose billing, storage and egress rules are not known
    /// (data/providers_extra.csv's rows): its use is billed as is, and
    /// results say so.
    pub fn without_rules(id: &str, name: &str) -> Provider {
        Provider {
            id: id.to_string(),
            name: name.to_string(),
            billing_increment_s: None,
            minimum_charge_s: None,
            spot_available: None,
            block_storage_usd_per_gb_month: None,
            egress_usd_per_gb: None,
            network_storage_usd_per_gb_month: None,
            pricing_page: None,
            price_kind: None,
            spot_notice_s: None,
            reserved_discount: None,
            closed: None,
        }
    }
}

impl SnapshotError {
    /// What went wrong, to render in the reader's language; the parser's
    /// and the validation's details stay in English.
    pub fn message(&self) -> Msg {
        let detail = match self {
            SnapshotError::Malformed(detail) => Arg::from(msg!(phrases::SNAPSHOT_DAMAGED, detail = detail)),
            SnapshotError::WrongVersion { found } => {
                Arg::from(msg!(phrases::SNAPSHOT_VERSION, found = *found, expected = SCHEMA_VERSION))
            }
            SnapshotError::Invalid(detail) => Arg::from(detail),
        };
        msg!(phrases::SNAPSHOT_UNREADABLE, detail = detail)
    }
}

impl fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

impl std::error::Error for SnapshotError {}

impl Snapshot {
    /// Parses and validates an offer file.
    pub fn from_json(text: &str) -> Result<Snapshot, SnapshotError> {
        Snapshot::from_bytes(text.as_bytes())
    }

    /// Parses and validates an offer file as downloaded (UTF-8 bytes; the
    /// page skips decoding it to a JavaScript string and back).
    pub fn from_bytes(bytes: &[u8]) -> Result<Snapshot, SnapshotError> {
        let malformed = |e: json::JsonError| SnapshotError::Malformed(e.to_string());
        let file = json::parse(bytes).map_err(malformed)?;
        // A file of another version may differ in any field: it is named by
        // its version rather than by the first field that differs.
        match file.version() {
            Some(found) if found != u64::from(SCHEMA_VERSION) => return Err(SnapshotError::WrongVersion { found }),
            _ => {}
        }
        let snapshot = <Snapshot as FromJson>::from_json(file).map_err(malformed)?;
        if snapshot.schema_version != SCHEMA_VERSION {
            return Err(SnapshotError::WrongVersion { found: u64::from(snapshot.schema_version) });
        }
        snapshot.validate()?;
        Ok(snapshot)
    }

    fn validate(&self) -> Result<(), SnapshotError> {
        // A few dozen providers and sources: scanning the lists beats
        // hashing each offer's ids (SipHash took a sixth of the page's parse
        // in a Chromium profile).
        let known_provider = |id: &str| self.providers.iter().any(|p| p.id == id);
        let known_source = |id: &str| self.sources.iter().any(|s| s.id == id);
        for provider in &self.providers {
            let billing = [provider.billing_increment_s, provider.minimum_charge_s].into_iter().flatten();
            let mut charges = [
                provider.block_storage_usd_per_gb_month,
                provider.egress_usd_per_gb,
                provider.network_storage_usd_per_gb_month,
            ]
            .into_iter()
            .flatten();
            if billing.map(f64::from).any(|s| s > LIMITS.billing_s)
                || charges.any(|usd| !within(usd, LIMITS.usd_per_gb))
            {
                return Err(SnapshotError::Invalid(format!("provider {}: billing rules out of range", provider.id)));
            }
        }
        for (i, offer) in self.offers.iter().enumerate() {
            let at = || format!("offer {} ({} {})", i + 1, offer.provider, offer.instance);
            if !known_provider(&offer.provider) || offer.billed_as.as_deref().is_some_and(|id| !known_provider(id)) {
                return Err(SnapshotError::Invalid(format!("{}: unknown provider", at())));
            }
            if !known_source(&offer.source) {
                return Err(SnapshotError::Invalid(format!("{}: unknown source \"{}\"", at(), offer.source)));
            }
            if !(1..=LIMITS.gpu_count).contains(&offer.gpu_count)
                || !within(offer.vram_gb, LIMITS.vram_gb)
                || offer.vram_gb == 0.0
            {
                return Err(SnapshotError::Invalid(format!(
                    "{}: needs 1 to {} GPUs with memory up to {} GiB each",
                    at(),
                    LIMITS.gpu_count,
                    LIMITS.vram_gb
                )));
            }
            for price in [offer.price, offer.spot_price].into_iter().flatten() {
                if !within(price, LIMITS.usd_per_hour) {
                    return Err(SnapshotError::Invalid(format!("{}: price {price} is not a valid $/h", at())));
                }
            }
        }
        for fabric in &self.fabrics {
            let bad_gbps = fabric.internode_gbps.is_some_and(|g| !within(g, LIMITS.internode_gbps));
            let bad_nodes = [fabric.max_nodes, fabric.min_nodes].into_iter().flatten().any(|n| n > LIMITS.nodes);
            if !known_provider(&fabric.provider) || bad_gbps || bad_nodes {
                return Err(SnapshotError::Invalid(format!(
                    "cluster fabric of {}: unknown provider or numbers out of range",
                    fabric.provider
                )));
            }
        }
        Ok(())
    }

    /// The fabric clusters of nodes of `per_node` × `gpu` are documented
    /// with: the median Gbit/s per node over this snapshot's offers of that
    /// shape whose provider joins them into clusters and states the speed,
    /// with the kind of fabric at the median, and how many offers that is;
    /// `None` where no such offer exists.
    pub fn documented_network(&self, gpu: &str, per_node: u32) -> Option<(Network, usize)> {
        let index = FabricIndex::new(&self.fabrics);
        let mut stated: Vec<(f64, FabricKind)> = self
            .offers
            .iter()
            .filter(|o| o.gpu == gpu && o.gpu_count == per_node)
            .filter_map(|o| index.fabric_of(&o.provider, &o.instance))
            .filter(|(_, f)| f.multi_node == MultiNode::Yes)
            .filter_map(|(_, f)| f.internode_gbps.filter(|g| *g > 0.0).map(|g| (g, f.kind)))
            .collect();
        if stated.is_empty() {
            return None;
        }
        stated.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (gbps, kind) = stated[stated.len() / 2];
        Some((Network { gbps, kind, known: true }, stated.len()))
    }

    /// Whose billing rules a job on `offer` pays: the cloud a reseller
    /// passes them through from, else the offer's provider.
    pub fn billing_provider(&self, offer: &Offer) -> Option<&Provider> {
        self.provider(offer.billed_as.as_deref().unwrap_or(&offer.provider))
    }

    /// Providers that sell at least one offer: the snapshot also holds the
    /// clouds whose billing rules a reseller passes through.
    pub fn selling_providers(&self) -> usize {
        self.providers.iter().filter(|p| self.offers.iter().any(|o| o.provider == p.id)).count()
    }

    pub fn provider(&self, id: &str) -> Option<&Provider> {
        self.providers.iter().find(|p| p.id == id)
    }

    /// Each provider with the sources its offers come from, so the page can
    /// say how fresh every provider's prices are (sources differ in age).
    pub fn provider_sources(&self) -> Vec<(&Provider, Vec<&Source>)> {
        // (provider, source) pairs in use: a few dozen, so a list will do.
        let mut used: Vec<(&str, &str)> = Vec::new();
        for offer in &self.offers {
            let pair = (offer.provider.as_str(), offer.source.as_str());
            if !used.contains(&pair) {
                used.push(pair);
            }
        }
        self.providers
            .iter()
            .filter(|provider| used.iter().any(|(p, _)| *p == provider.id))
            .map(|provider| {
                let uses = |source: &&Source| used.contains(&(provider.id.as_str(), source.id.as_str()));
                (provider, self.sources.iter().filter(uses).collect())
            })
            .collect()
    }
}

/// The snapshot committed in `public/data`, for native tests that rank real
/// offers.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub fn committed() -> Snapshot {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/public/data/offers.json"))
        .expect("public/data/offers.json");
    Snapshot::from_json(&text).expect("the committed snapshot parses")
}

impl FromJson for Source {
    fn from_json(value: Json<'_>) -> Result<Source, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Source {
            id: f.required("id")?,
            name: f.required("name")?,
            upstream: f.required("upstream")?,
            commit: f.optional("commit")?,
            as_of: f.required("as_of")?,
        })
    }
}

impl FromJson for Provider {
    fn from_json(value: Json<'_>) -> Result<Provider, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Provider {
            id: f.required("id")?,
            name: f.required("name")?,
            billing_increment_s: f.optional("billing_increment_s")?,
            minimum_charge_s: f.optional("minimum_charge_s")?,
            spot_available: f.optional("spot_available")?,
            block_storage_usd_per_gb_month: f.optional("block_storage_usd_per_gb_month")?,
            egress_usd_per_gb: f.optional("egress_usd_per_gb")?,
            network_storage_usd_per_gb_month: f.optional("network_storage_usd_per_gb_month")?,
            pricing_page: f.optional("pricing_page")?,
            price_kind: f.optional("price_kind")?,
            spot_notice_s: f.optional("spot_notice_s")?,
            reserved_discount: f.optional("reserved_discount")?,
            closed: f.optional("closed")?,
        })
    }
}

impl FromJson for Closure {
    fn from_json(value: Json<'_>) -> Result<Closure, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Closure { on: f.required("on")?, source: f.required("source")? })
    }
}

crate::json_names!(PriceKind { Fixed = "fixed", Marketplace = "marketplace", Auction = "auction", Reseller = "reseller" });

impl FromJson for Offer {
    fn from_json(value: Json<'_>) -> Result<Offer, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Offer {
            provider: f.required("provider")?,
            underlying_cloud: f.optional("underlying_cloud")?,
            billed_as: f.optional("billed_as")?,
            instance: f.required("instance")?,
            regions: f.defaulted("regions")?,
            gpu: f.required("gpu")?,
            gpu_count: f.required("gpu_count")?,
            vram_gb: f.required("vram_gb")?,
            vcpus: f.optional("vcpus")?,
            ram_gb: f.optional("ram_gb")?,
            price: f.optional("price")?,
            spot_price: f.optional("spot_price")?,
            source: f.required("source")?,
        })
    }
}

impl FromJson for Snapshot {
    fn from_json(value: Json<'_>) -> Result<Snapshot, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Snapshot {
            schema_version: f.required("schema_version")?,
            snapshot_date: f.required("snapshot_date")?,
            sources: f.required("sources")?,
            providers: f.required("providers")?,
            offers: f.required("offers")?,
            fabrics: f.defaulted("fabrics")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = r#"{
        "schema_version": 2,
        "snapshot_date": "2026-09-20",
        "sources": [{"id": "s", "name": "test", "upstream": "here", "as_of": "2026-09"}],
        "providers": [{"id": "lambda", "name": "Lambda"}],
        "offers": [{"provider": "lambda", "instance": "gpu_1x_h100_sxm5", "regions": ["us-east-1"],
                    "gpu": "h100_sxm", "gpu_count": 1, "vram_gb": 80, "price": 3.29, "source": "s"}]
    }"#;

    #[test]
    fn a_valid_file_loads() {
        let snapshot = Snapshot::from_json(TINY).unwrap();
        assert_eq!(snapshot.offers[0].total_vram_gb(), 80.0);
        assert_eq!(snapshot.provider("lambda").unwrap().name, "Lambda");
    }

    #[test]
    fn each_provider_lists_the_sources_of_its_offers() {
        let snapshot = Snapshot::from_json(TINY).unwrap();
        let listed = snapshot.provider_sources();
        assert_eq!(listed.len(), 1);
        assert_eq!((listed[0].0.id.as_str(), listed[0].1[0].as_of.as_str()), ("lambda", "2026-09"));
    }

    #[test]
    fn a_truncated_file_is_reported_as_damaged() {
        for cut in [0, 1, TINY.len() / 2, TINY.len() - 2] {
            let err = Snapshot::from_json(&TINY[..cut]).unwrap_err();
            assert!(matches!(err, SnapshotError::Malformed(_)), "cut at {cut}: {err}");
            assert!(err.to_string().starts_with("offer data could not be read: "));
        }
    }

    #[test]
    fn another_schema_version_is_named_even_when_fields_differ() {
        let err = Snapshot::from_json(r#"{"schema_version": 7, "offers": "columnar"}"#).unwrap_err();
        assert_eq!(err, SnapshotError::WrongVersion { found: 7 });
        assert!(err.to_string().contains("schema version 7"));
        // The previous layout (schema 1, no cluster fabrics) is named too.
        let same_shape = TINY.replacen("\"schema_version\": 2", "\"schema_version\": 1", 1);
        assert_eq!(Snapshot::from_json(&same_shape).unwrap_err(), SnapshotError::WrongVersion { found: 1 });
    }

    /// Property (issue 10): an offer file with any number at its edges
    /// (zero, negative, tiny, 1e308, past u32), or cut short anywhere, is
    /// either refused with a message or ranks with finite figures only.
    #[test]
    fn offer_files_with_numbers_at_their_edges_are_refused_or_rank_cleanly() {
        let template = r#"{"schema_version": 2, "snapshot_date": "2026-09-20",
            "sources": [{"id": "s", "name": "test", "upstream": "here", "as_of": "2026-09"}],
            "providers": [{"id": "aws", "name": "AWS", "billing_increment_s": %, "minimum_charge_s": %,
                           "spot_available": true, "block_storage_usd_per_gb_month": #, "egress_usd_per_gb": #},
                          {"id": "lambda", "name": "Lambda"}],
            "offers": [{"provider": "aws", "instance": "p5", "regions": ["us-east-1"], "gpu": "h100_sxm",
                        "gpu_count": %, "vram_gb": #, "price": #, "spot_price": #, "source": "s"},
                       {"provider": "lambda", "instance": "one", "gpu": "rtx_4090",
                        "gpu_count": %, "vram_gb": #, "vcpus": #, "ram_gb": #, "price": #, "source": "s"}]}"#;
        // `#` is an amount, `%` a count.
        let amounts = ["0", "-0", "1", "-1", "1e-308", "5e-324", "1e308", "1.7e308", "0.5", "3.29", "80"];
        let counts = ["0", "1", "8", "60", "3600", "4294967295", "4294967296", "-1"];
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let mut random = crate::hardening::Random(0x0FFE_5000_0000_0002);
        let mut next = |n: usize| random.below(n);
        let mut ranked = 0;
        for _ in 0..400 {
            let mut text = String::new();
            for piece in template.split_inclusive(['#', '%']) {
                match piece.strip_suffix('#').or(piece.strip_suffix('%')) {
                    Some(before) => {
                        // Mostly ordinary, so that some files load with an edge or two.
                        let edges: &[&str] = if piece.ends_with('#') { &amounts } else { &counts };
                        let ordinary = if piece.ends_with('#') { "3.29" } else { "8" };
                        text.push_str(before);
                        text.push_str(if next(4) == 0 { edges[next(edges.len())] } else { ordinary });
                    }
                    None => text.push_str(piece),
                }
            }
            if next(8) == 0 {
                text.truncate(next(text.len()));
            }
            ranked += usize::from(Snapshot::from_json(&text).is_ok());
            crate::hardening::check_snapshot_bytes(text.as_bytes(), catalog);
        }
        assert!(ranked > 20, "only {ranked} of 400 files loaded");
    }

    /// Found by the snapshot fuzzer (fuzz/fuzz_targets/snapshot.rs): an
    /// offer named "∞" or "inf" is words the exports quote, not a figure
    /// gone infinite; the oracle tells the two apart.
    #[test]
    fn offers_named_like_infinity_are_words_not_figures() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        for name in ["∞", "inf", "NaN", "Infinity"] {
            let text = TINY.replacen("gpu_1x_h100_sxm5", name, 1);
            assert!(Snapshot::from_json(&text).is_ok(), "{name}");
            crate::hardening::check_snapshot_bytes(text.as_bytes(), catalog);
        }
        // And a snapshot date the JSON export quotes as written (found by a
        // ten-minute run of the same fuzzer, issue 41: "…us-east-*1:inf'1e309…").
        let text = TINY.replacen(
            "\"snapshot_date\": \"2026-09-20\"",
            "\"snapshot_date\": \"us-east-*1:inf'1e309 2026-09-20\"",
            1,
        );
        assert!(Snapshot::from_json(&text).is_ok());
        crate::hardening::check_snapshot_bytes(text.as_bytes(), catalog);
    }

    #[test]
    fn inconsistent_offers_are_refused_with_the_offer_named() {
        let cases = [
            ("\"provider\": \"lambda\", \"instance\"", "\"provider\": \"nowhere\", \"instance\"", "unknown provider"),
            ("\"source\": \"s\"}", "\"source\": \"gone\"}", "unknown source"),
            ("\"gpu_count\": 1", "\"gpu_count\": 0", "needs 1 to 1024 GPUs"),
            ("\"gpu_count\": 1", "\"gpu_count\": 4294967295", "needs 1 to 1024 GPUs"),
            ("\"vram_gb\": 80", "\"vram_gb\": 1e308", "up to 4096 GiB"),
            ("\"price\": 3.29", "\"price\": 1e300", "not a valid $/h"),
            ("\"price\": 3.29", "\"price\": -3.29", "not a valid $/h"),
        ];
        for (from, to, expected) in cases {
            let text = TINY.replacen(from, to, 1);
            let err = Snapshot::from_json(&text).unwrap_err().to_string();
            assert!(err.contains(expected) && err.contains("offer 1"), "{to}: {err}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
    #[test]
    fn the_committed_offers_read_whole_and_their_names_read_back() {
        let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/public/data/offers.json")).unwrap();
        let snapshot: Snapshot = crate::engine::json::assert_reads_whole(&bytes);
        assert!(snapshot.offers.len() > 1000 && !snapshot.fabrics.is_empty());
        crate::engine::json::assert_names_read_back(&[
            PriceKind::Fixed,
            PriceKind::Marketplace,
            PriceKind::Auction,
            PriceKind::Reseller,
        ]);
    }
}
