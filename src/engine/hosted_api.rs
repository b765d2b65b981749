//! Hosted APIs beside renting (issue 39): what providers that serve the
//! same open model charge per million input and output tokens, from
//! LiteLLM's maintained price table as a pinned release ships it
//! (`data/hosted_api_aliases.csv`, matched to the catalog's models by hand
//! and re-checked by `scripts/hosted-api-prices.py`; `whichgpu snapshot`
//! writes it to `public/data/hosted.json`), and what the same traffic
//! would cost there.

use super::cost::DAYS_PER_MONTH;
use super::json::{self, Fields, FromJson, Json, JsonError};
use super::{Report, Workload};
use serde::Serialize;
use std::sync::OnceLock;

/// The layout of `hosted.json` this build reads.
pub const HOSTED_SCHEMA_VERSION: u32 = 1;

/// The price table the prices come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PriceSource {
    /// The PyPI package that ships the table, and its version.
    pub package: String,
    pub version: String,
    /// When that version was published (PyPI's upload date).
    pub published: String,
    /// The table's path inside the package, and its SHA-256.
    pub file: String,
    pub json_sha256: String,
}

/// One hosted API's list price for a catalog model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostedPrice {
    /// The catalog model it serves.
    pub model: String,
    /// LiteLLM's provider id (`together_ai`, `groq`, …) and its key for
    /// the model.
    pub provider: String,
    /// The provider's name as LiteLLM shows it ("Together AI";
    /// `data/hosted_api_providers.csv`); empty in files written before it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub provider_name: String,
    pub key: String,
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
    /// The date LiteLLM says the provider retires the model, if any.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub deprecated_on: String,
}

/// Every hosted price, with where they come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostedPrices {
    pub schema_version: u32,
    pub source: PriceSource,
    pub prices: Vec<HostedPrice>,
}

/// The generated file, compiled into the CLI and the tests.
const BUNDLED_HOSTED_JSON: &str = include_str!("../../public/data/hosted.json");

impl HostedPrices {
    pub fn from_json(text: &str) -> Result<HostedPrices, String> {
        HostedPrices::from_bytes(text.as_bytes())
    }

    /// Reads the file as downloaded (UTF-8 bytes).
    pub fn from_bytes(bytes: &[u8]) -> Result<HostedPrices, String> {
        let prices: HostedPrices = json::read(bytes).map_err(|e| e.to_string())?;
        if prices.schema_version != HOSTED_SCHEMA_VERSION {
            return Err(format!("schema_version {} (this build reads {HOSTED_SCHEMA_VERSION})", prices.schema_version));
        }
        Ok(prices)
    }

    /// The prices compiled into this build, parsed once.
    pub fn bundled() -> Result<&'static HostedPrices, String> {
        static BUNDLED: OnceLock<Result<HostedPrices, String>> = OnceLock::new();
        BUNDLED.get_or_init(|| HostedPrices::from_json(BUNDLED_HOSTED_JSON)).as_ref().map_err(Clone::clone)
    }
}

/// The cheapest hosted API for the workload's model, against renting.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HostedApi {
    /// LiteLLM's provider id and the provider's name (its id where the
    /// prices do not name it).
    pub provider: String,
    pub provider_name: String,
    pub key: String,
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
    /// One request of the workload's prompt and output there.
    pub cost_per_request: f64,
    /// The stated traffic there for a month; `None` when none is stated.
    pub monthly_cost: Option<f64>,
    /// The first row's month of renting, the requests a day it is sized
    /// for (planned to latency targets: the stated traffic, whose busiest
    /// hour it meets them at), and the requests a day at which the API
    /// would cost as much: renting wins above it, where that is within what
    /// the row serves.
    pub renting_monthly_cost: Option<f64>,
    pub renting_sized_for_requests_per_day: Option<f64>,
    pub break_even_requests_per_day: Option<f64>,
    /// How many hosted APIs list the model.
    pub providers: usize,
    pub source: PriceSource,
}

/// The cheapest hosted API that lists `workload`'s model and has not
/// retired it by `on` (a `YYYY-MM-DD` date: the snapshot's), priced for the
/// workload's requests; `None` for a model no hosted API lists (a custom
/// model, most fine-tunes) or for work that is not serving.
pub fn compare(workload: &Workload, report: &Report, prices: &HostedPrices, on: &str) -> Option<HostedApi> {
    if !workload.is_endpoint() && !workload.is_batch() {
        return None;
    }
    let per_request = |p: &HostedPrice| {
        (f64::from(workload.input_tokens) * p.input_usd_per_mtok
            + f64::from(workload.output_tokens) * p.output_usd_per_mtok)
            / 1e6
    };
    let listed: Vec<&HostedPrice> = prices
        .prices
        .iter()
        .filter(|p| p.model == workload.model && (p.deprecated_on.is_empty() || p.deprecated_on.as_str() > on))
        .collect();
    let cheapest = listed.iter().copied().min_by(|a, b| per_request(a).total_cmp(&per_request(b)))?;
    let cost_per_request = per_request(cheapest);
    let daily = workload.daily_requests();
    let monthly_cost = (daily > 0.0).then_some(daily * DAYS_PER_MONTH * cost_per_request);
    let renting = report.results.first().and_then(|r| r.cost.as_ref()).map(|c| c.monthly_cost);
    Some(HostedApi {
        provider: cheapest.provider.clone(),
        provider_name: match cheapest.provider_name.as_str() {
            "" => cheapest.provider.clone(),
            name => name.to_string(),
        },
        key: cheapest.key.clone(),
        input_usd_per_mtok: cheapest.input_usd_per_mtok,
        output_usd_per_mtok: cheapest.output_usd_per_mtok,
        cost_per_request,
        monthly_cost,
        renting_monthly_cost: renting.filter(|_| workload.is_endpoint()),
        // Planned to targets, the row is sized for the stated traffic's peak.
        renting_sized_for_requests_per_day: crate::engine::serving_plan::Targets::of(workload).map(|_| daily),
        break_even_requests_per_day: renting
            .filter(|_| workload.is_endpoint() && cost_per_request > 0.0)
            .map(|m| m / (DAYS_PER_MONTH * cost_per_request)),
        providers: listed.len(),
        source: prices.source.clone(),
    })
}

impl FromJson for PriceSource {
    fn from_json(value: Json<'_>) -> Result<PriceSource, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(PriceSource {
            package: f.required("package")?,
            version: f.required("version")?,
            published: f.required("published")?,
            file: f.required("file")?,
            json_sha256: f.required("json_sha256")?,
        })
    }
}

impl FromJson for HostedPrice {
    fn from_json(value: Json<'_>) -> Result<HostedPrice, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(HostedPrice {
            model: f.required("model")?,
            provider: f.required("provider")?,
            provider_name: f.defaulted("provider_name")?,
            key: f.required("key")?,
            input_usd_per_mtok: f.required("input_usd_per_mtok")?,
            output_usd_per_mtok: f.required("output_usd_per_mtok")?,
            deprecated_on: f.defaulted("deprecated_on")?,
        })
    }
}

impl FromJson for HostedPrices {
    fn from_json(value: Json<'_>) -> Result<HostedPrices, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(HostedPrices {
            schema_version: f.required("schema_version")?,
            source: f.required("source")?,
            prices: f.required("prices")?,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, Catalog};
    use crate::url_codec;

    fn compared(query: &str) -> Option<HostedApi> {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = crate::engine::snapshot::committed();
        let workload = url_codec::decode(query, catalog).workload;
        let report = rank(&workload, catalog, &snapshot).unwrap();
        compare(&workload, &report, HostedPrices::bundled().unwrap(), &snapshot.snapshot_date)
    }

    #[test]
    fn the_bundled_prices_name_catalog_models_and_a_pinned_release() {
        let catalog = Catalog::bundled().unwrap();
        let prices = HostedPrices::bundled().unwrap();
        assert_eq!((prices.source.package.as_str(), prices.source.version.as_str()), ("litellm", "1.110.2"));
        assert!(prices.prices.len() > 500);
        for p in &prices.prices {
            assert!(catalog.model(&p.model).is_ok(), "{} is not a catalog model", p.model);
            assert!(p.input_usd_per_mtok > 0.0 && p.output_usd_per_mtok > 0.0, "{p:?}");
        }
    }

    #[test]
    fn the_cheapest_api_prices_the_same_traffic_and_renting_breaks_even_above_it() {
        let api = compared("model=llama-3.3-70b&in=1000&out=300&rps=2&ttft=1&itl=0.05").unwrap();
        let per_request = (1000.0 * api.input_usd_per_mtok + 300.0 * api.output_usd_per_mtok) / 1e6;
        assert!((api.cost_per_request - per_request).abs() < 1e-12);
        // 2 requests a second at the busiest hour, half that on average
        // (DEFAULT_PEAK_FACTOR), a month; the first row is sized for it.
        let monthly = api.monthly_cost.unwrap();
        assert!((monthly - 86_400.0 * DAYS_PER_MONTH * per_request).abs() < 1e-6 * monthly);
        assert_eq!(api.renting_sized_for_requests_per_day, Some(86_400.0));
        let renting = api.renting_monthly_cost.unwrap();
        let even = api.break_even_requests_per_day.unwrap();
        assert!((even * DAYS_PER_MONTH * per_request - renting).abs() < 1e-6 * renting);
        assert!(api.providers > 1);
        // No other listing of the model is cheaper per request.
        let prices = HostedPrices::bundled().unwrap();
        for p in prices.prices.iter().filter(|p| p.model == "llama-3.3-70b" && p.deprecated_on.is_empty()) {
            assert!((1000.0 * p.input_usd_per_mtok + 300.0 * p.output_usd_per_mtok) / 1e6 >= per_request - 1e-15);
        }
    }

    #[test]
    fn a_model_no_api_lists_or_training_has_no_comparison() {
        assert_eq!(compared("model=custom&params=7e9&layers=32&hidden=4096&heads=32"), None);
        assert_eq!(compared("task=finetune&model=llama-3.1-8b"), None);
        // Without stated traffic: the price per request, no month.
        let api = compared("model=llama-3.1-8b").unwrap();
        assert_eq!(api.monthly_cost, None);
        assert!(api.break_even_requests_per_day.is_some());
    }

    #[test]
    fn the_bundled_prices_read_whole() {
        let prices: HostedPrices = crate::engine::json::assert_reads_whole(BUNDLED_HOSTED_JSON.as_bytes());
        assert!(!prices.prices.is_empty());
    }
}
