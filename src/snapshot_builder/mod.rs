//! The snapshot builder behind `whichgpu snapshot`: turns the public offer
//! catalogs, GPU specs, model shapes and provider billing rules under
//! `../shared/data` into the files the page loads.
//!
//! Native only. The same inputs always give byte-identical output.

mod audio_models;
mod build_error;
mod csv_table;
mod fabrics;
pub mod fetch;
mod fetched;
mod fsdl;
mod gcp;
mod gpu_names;
mod media_models;
mod model_shape;
mod more_models;
mod offers;
mod skypilot;
mod summary;
mod support_matrix;
mod tpu;
mod vision_models;

pub use build_error::{Anomaly, BuildError};
pub use gpu_names::catalog_gpu_id;

use crate::engine::catalog::{Architecture, AudioGenerator, Catalog, Gpu, ModelKind, Segment, CATALOG_SCHEMA_VERSION};
use crate::engine::hosted_api::{HostedPrice, HostedPrices, PriceSource, HOSTED_SCHEMA_VERSION};
use crate::engine::snapshot::{PriceKind, Provider, Snapshot, Source, SCHEMA_VERSION};
use crate::units::BILLION;
use csv_table::CsvTable;
use offers::{Collected, GpuMemory, SourceSpec, UnderlyingCloud};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which offer files to read, their format, provider and freshness.
const OFFER_SOURCES_CSV: &str = include_str!("../../data/offer_sources.csv");
/// Accelerators that offers name but gpus.csv lacks, and cells it leaves empty.
const GPUS_EXTRA_CSV: &str = include_str!("../../data/gpus_extra.csv");
/// Providers that offers name but providers.csv lacks.
const PROVIDERS_EXTRA_CSV: &str = include_str!("../../data/providers_extra.csv");
/// Model facts models.csv lacks (sliding-window attention).
const MODELS_EXTRA_CSV: &str = include_str!("../../data/models_extra.csv");
/// Billing rules providers.csv leaves empty, each with its quote and source.
const PROVIDER_RULES_CSV: &str = include_str!("../../data/provider_rules.csv");
/// Providers that stopped selling their offers publicly, dated and sourced.
const PROVIDER_CLOSURES_CSV: &str = include_str!("../../data/provider_closures.csv");
/// Hosted APIs' prices for the catalog's models, from a pinned LiteLLM
/// release (issue 39), and that release.
const HOSTED_API_ALIASES_CSV: &str = include_str!("../../data/hosted_api_aliases.csv");
const HOSTED_API_SOURCE_CSV: &str = include_str!("../../data/hosted_api_source.csv");
const HOSTED_API_PROVIDERS_CSV: &str = include_str!("../../data/hosted_api_providers.csv");
/// Resellers that pass their underlying cloud's billing rules through, and
/// how they name each cloud.
const BILLING_PASSTHROUGH_CSV: &str = include_str!("../../data/billing_passthrough.csv");
/// Known upstream errors, corrected with a stated reason.
const OFFER_CORRECTIONS_CSV: &str = include_str!("../../data/offer_corrections.csv");

/// What the builder produces.
#[derive(Debug)]
pub struct Built {
    pub snapshot: Snapshot,
    pub catalog: Catalog,
    pub hosted: HostedPrices,
    pub summary: String,
    pub anomalies: Vec<Anomaly>,
}

/// Reads one offer source of a known format.
fn read_source(
    spec: &SourceSpec,
    tables: &[CsvTable],
    json: Option<&str>,
    catalog: &Catalog,
    collected: &mut Collected,
) -> Result<(), BuildError> {
    match spec.format.as_str() {
        "skypilot" => {
            for table in tables {
                skypilot::read(spec, table, catalog, collected)?;
            }
        }
        "gcp" => gcp::read(spec, tables, catalog, collected)?,
        "gpuhunt_tpu" => tpu::read(spec, json.unwrap_or(""), catalog, collected)?,
        "fsdl" => {
            for table in tables {
                fsdl::read(spec, table, catalog, collected)?;
            }
        }
        other => {
            return Err(BuildError::Csv {
                path: "data/offer_sources.csv".into(),
                line: 0,
                message: format!("unknown format \"{other}\" for source {}", spec.id),
            })
        }
    }
    collected.finish_source();
    Ok(())
}

/// Reads everything under `from` (a copy of `../shared/data`).
pub fn build(from: &Path) -> Result<Built, BuildError> {
    build_with(from, None)
}

/// Reads the offer files `data/offer_sources.csv` names under `offers`
/// (when given, else under `from`), and everything else under `from`. When
/// `offers` holds a `FETCHED.json` (`snapshot --fetch`), each source it
/// pinned to a commit is dated by that commit (`commit`, `as_of`).
pub fn build_with(from: &Path, offers: Option<&Path>) -> Result<Built, BuildError> {
    let offer_root = offers.unwrap_or(from);
    let fetched = match offers {
        Some(dir) => fetched::Manifest::read(dir)?,
        None => None,
    };
    let catalog = build_catalog(from)?;
    let providers = build_providers(from)?;
    let manifest = CsvTable::from_text("data/offer_sources.csv", OFFER_SOURCES_CSV)?;

    let mut collected = Collected::default();
    for row in CsvTable::from_text("data/offer_corrections.csv", OFFER_CORRECTIONS_CSV)?.rows() {
        let count = row.number("gpu_count")?.unwrap_or(0.0) as u32;
        collected.corrections.insert(
            (row.text("source")?.to_string(), row.text("instance")?.to_string()),
            (count, row.text("reason")?.to_string()),
        );
    }

    let mut sources = Vec::new();
    for row in manifest.rows() {
        let spec = SourceSpec {
            id: row.text("id")?.to_string(),
            format: row.text("format")?.to_string(),
            provider: row.optional("provider").unwrap_or("").to_string(),
            gpu_memory: match row.text("gpu_memory")? {
                "mib" => GpuMemory::Mib,
                "gb" => GpuMemory::Gb,
                "mib_total" => GpuMemory::MibTotal,
                _ => GpuMemory::None,
            },
            underlying: match row.optional("underlying_cloud") {
                None => UnderlyingCloud::None,
                Some(rule) => match rule.split_once(':') {
                    Some(("instance_prefix", separator)) => UnderlyingCloud::InstancePrefix(separator.to_string()),
                    Some(("column", column)) => UnderlyingCloud::Column(column.to_string()),
                    _ => {
                        return Err(BuildError::Csv {
                            path: "data/offer_sources.csv".into(),
                            line: row.line,
                            message: format!("underlying_cloud \"{rule}\" is not instance_prefix:SEP or column:NAME"),
                        })
                    }
                },
            },
        };
        let pinned = match &fetched {
            Some(manifest) => fetched::pinned_version(manifest, offer_root, &row)?,
            None => None,
        };
        let mut tables = Vec::new();
        let mut json = None;
        for file in row.text("file")?.split(';') {
            let path = offer_root.join(file);
            if file.ends_with(".json") {
                json =
                    Some(std::fs::read_to_string(&path).map_err(|e| BuildError::Io { path, message: e.to_string() })?);
            } else {
                tables.push(CsvTable::read(&path)?);
            }
        }
        read_source(&spec, &tables, json.as_deref(), &catalog, &mut collected)?;
        sources.push(Source {
            id: spec.id.clone(),
            name: row.text("file")?.to_string(),
            upstream: row.text("upstream")?.to_string(),
            commit: match &pinned {
                Some((commit, _)) => Some(commit.clone()),
                None => row.optional("commit").map(str::to_string),
            },
            as_of: match pinned {
                Some((_, date)) => date,
                None => row.text("as_of")?.to_string(),
            },
        });
    }
    if !collected.unmapped.is_empty() {
        let mut names: Vec<_> =
            std::mem::take(&mut collected.unmapped).into_iter().map(|((s, n), rows)| (s, n, rows)).collect();
        names.sort();
        return Err(BuildError::UnmappedGpus(names));
    }

    // A reseller that passes its cloud's billing rules through: each offer
    // is billed as that cloud (issue 27).
    let mut passthrough = BTreeMap::new();
    for row in CsvTable::from_text("data/billing_passthrough.csv", BILLING_PASSTHROUGH_CSV)?.rows() {
        let key = (row.text("reseller")?.to_string(), row.text("underlying_cloud")?.to_string());
        passthrough.insert(key, row.text("provider_id")?.to_string());
    }
    for offer in &mut collected.offers {
        if let Some(cloud) = &offer.underlying_cloud {
            offer.billed_as = passthrough.get(&(offer.provider.clone(), cloud.clone())).cloned();
        }
    }
    let used: BTreeSet<&str> = collected
        .offers
        .iter()
        .flat_map(|o| std::iter::once(o.provider.as_str()).chain(o.billed_as.as_deref()))
        .collect();
    let known: BTreeSet<&str> = providers.iter().map(|p| p.id.as_str()).collect();
    let unknown: Vec<String> = used.difference(&known).map(|id| id.to_string()).collect();
    if !unknown.is_empty() {
        return Err(BuildError::UnknownProviders(unknown));
    }
    let providers: Vec<Provider> = providers.into_iter().filter(|p| used.contains(p.id.as_str())).collect();

    // Sorted, so the output does not depend on the order sources are listed.
    collected.offers.sort_by(|a, b| {
        (&a.provider, &a.instance, &a.underlying_cloud, &a.regions, &a.source).cmp(&(
            &b.provider,
            &b.instance,
            &b.underlying_cloud,
            &b.regions,
            &b.source,
        ))
    });
    // The freshest dated source is the snapshot's date of record.
    let snapshot_date =
        sources.iter().map(|s| s.as_of.clone()).filter(|d| d.starts_with("20")).max().unwrap_or_default();
    let mut anomalies = std::mem::take(&mut collected.anomalies);
    anomalies.sort();
    let offers = std::mem::take(&mut collected.offers);
    let fabrics =
        fabrics::read(from, &offers)?.into_iter().filter(|f| providers.iter().any(|p| p.id == f.provider)).collect();
    let snapshot = Snapshot { schema_version: SCHEMA_VERSION, snapshot_date, sources, providers, offers, fabrics };
    let summary = summary::render(&snapshot, &anomalies, &collected.rows_read, &collected.skipped);
    let hosted = hosted_prices(&catalog)?;
    Ok(Built { snapshot, catalog, hosted, summary, anomalies })
}

/// Writes `offers.json`, `catalog.json`, `hosted.json` (hosted APIs'
/// prices), `es.json` (the page's Spanish, loaded on demand:
/// `text::spanish`) and `SUMMARY.md` into `out`.
pub fn write(built: &Built, out: &Path) -> Result<(), BuildError> {
    let io = |path: &Path, e: std::io::Error| BuildError::Io { path: path.to_path_buf(), message: e.to_string() };
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let files = [
        ("offers.json", to_json(&built.snapshot)),
        ("catalog.json", to_json(&built.catalog)),
        ("hosted.json", to_json(&built.hosted)),
        ("es.json", crate::text::spanish::table_json()),
        ("SUMMARY.md", built.summary.clone()),
    ];
    for (name, text) in files {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// The hosted APIs' prices (`data/hosted_api_aliases.csv`) with their
/// source (`data/hosted_api_source.csv`), for the models the catalog holds
/// (the CSV matches `models_more.csv` rows the catalog may leave out).
fn hosted_prices(catalog: &Catalog) -> Result<HostedPrices, BuildError> {
    let sources = CsvTable::from_text("data/hosted_api_source.csv", HOSTED_API_SOURCE_CSV)?;
    let row = sources.rows().next().ok_or_else(|| BuildError::Csv {
        path: "data/hosted_api_source.csv".into(),
        line: 2,
        message: "no row".into(),
    })?;
    let source = PriceSource {
        package: row.text("package")?.into(),
        version: row.text("version")?.into(),
        published: row.text("published")?.into(),
        file: row.text("file")?.into(),
        json_sha256: row.text("json_sha256")?.into(),
    };
    // Providers' names as LiteLLM shows them (scripts/hosted-api-prices.py writes and checks them).
    let names = CsvTable::from_text("data/hosted_api_providers.csv", HOSTED_API_PROVIDERS_CSV)?;
    let mut provider_names = std::collections::BTreeMap::new();
    for row in names.rows() {
        provider_names.insert(row.text("provider")?.to_string(), row.text("name")?.to_string());
    }
    let table = CsvTable::from_text("data/hosted_api_aliases.csv", HOSTED_API_ALIASES_CSV)?;
    let mut prices = Vec::new();
    for row in table.rows() {
        let model = row.text("model_id")?;
        if catalog.model(model).is_err() {
            continue;
        }
        let price = |column: &str| match row.number(column)? {
            Some(usd) if usd > 0.0 => Ok(usd),
            _ => Err(row.invalid(format!("{column} must be a price above 0"))),
        };
        let provider = row.text("provider")?;
        let provider_name = provider_names
            .get(provider)
            .ok_or_else(|| row.invalid(format!("provider {provider} has no name in data/hosted_api_providers.csv")))?;
        prices.push(HostedPrice {
            model: model.into(),
            provider: provider.into(),
            provider_name: provider_name.clone(),
            key: row.text("litellm_key")?.into(),
            input_usd_per_mtok: price("input_usd_per_mtok")?,
            output_usd_per_mtok: price("output_usd_per_mtok")?,
            deprecated_on: row.optional("deprecation_date").unwrap_or_default().into(),
        });
    }
    Ok(HostedPrices { schema_version: HOSTED_SCHEMA_VERSION, source, prices })
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Serializing plain structs of strings and numbers cannot fail.
    let mut text = serde_json::to_string(value).unwrap_or_default();
    text.push('\n');
    text
}

fn gpu_from_row(row: &csv_table::Row<'_>) -> Result<Gpu, BuildError> {
    let model = row.text("model")?;
    let name = match row.optional("variant") {
        Some(variant) => format!("{model} {variant}"),
        None => model.to_string(),
    };
    Ok(Gpu {
        id: row.text("gpu_id")?.to_string(),
        vendor: row.text("vendor")?.to_string(),
        name,
        vram_gb: row.number("vram_gb")?.unwrap_or(0.0),
        memory_type: row.optional("memory_type").map(str::to_string),
        mem_bandwidth_gbps: row.number("mem_bandwidth_gbps")?,
        segment: match row.optional("segment") {
            Some(text) => Some(text.parse::<Segment>().map_err(|e| row.invalid(e.to_string()))?),
            None => None,
        },
        architecture: match row.optional("architecture") {
            Some(name) => Some(Architecture::from_name(name).ok_or_else(|| {
                row.invalid(format!(
                    "architecture \"{name}\" is not one of engine::catalog::Architecture; add it there"
                ))
            })?),
            None => None,
        },
        fp32_tflops: row.number("fp32_tflops")?,
        fp16_tflops: row.number("fp16_tflops_dense")?,
        bf16_tflops: row.number("bf16_tflops_dense")?,
        fp8_tflops: row.number("fp8_tflops_dense")?,
        int8_tops: row.number("int8_tops_dense")?,
        fp4_tflops: row.number("fp4_tflops_dense")?,
        interconnect: row.optional("interconnect").map(str::to_string),
        link_gbps: match row.number("p2p_bw_gbps_unidir")? {
            Some(p2p) => Some(p2p),
            None => row.number("all2all_bw_gbps_unidir")?,
        },
        pcie_gen: row.number("pcie_gen")?.map(|g| g as u32),
        tdp_w: row.number("tdp_w")?,
        compute_capability: match row.optional("compute_capability") {
            Some(text) => Some(text.parse().map_err(|e: String| row.invalid(e))?),
            None => None,
        },
        webgpu_architecture: row.optional("webgpu_architecture").map(str::to_string),
    })
}

fn build_catalog(from: &Path) -> Result<Catalog, BuildError> {
    let mut gpus: BTreeMap<String, Gpu> = BTreeMap::new();
    for row in CsvTable::read(&from.join("gpus.csv"))?.rows() {
        let gpu = gpu_from_row(&row)?;
        gpus.insert(gpu.id.clone(), gpu);
    }
    // A row of data/gpus_extra.csv adds a GPU, or fills cells gpus.csv
    // leaves empty (e.g. TPU v6e memory); it never overwrites a value.
    for row in CsvTable::from_text("data/gpus_extra.csv", GPUS_EXTRA_CSV)?.rows() {
        let extra = gpu_from_row(&row)?;
        match gpus.get_mut(&extra.id) {
            Some(gpu) => {
                if gpu.vram_gb == 0.0 {
                    gpu.vram_gb = extra.vram_gb;
                }
                gpu.memory_type = gpu.memory_type.take().or(extra.memory_type);
                gpu.mem_bandwidth_gbps = gpu.mem_bandwidth_gbps.or(extra.mem_bandwidth_gbps);
                gpu.architecture = gpu.architecture.take().or(extra.architecture);
                gpu.fp32_tflops = gpu.fp32_tflops.or(extra.fp32_tflops);
                gpu.fp16_tflops = gpu.fp16_tflops.or(extra.fp16_tflops);
                gpu.bf16_tflops = gpu.bf16_tflops.or(extra.bf16_tflops);
                gpu.fp8_tflops = gpu.fp8_tflops.or(extra.fp8_tflops);
                gpu.int8_tops = gpu.int8_tops.or(extra.int8_tops);
                gpu.fp4_tflops = gpu.fp4_tflops.or(extra.fp4_tflops);
                gpu.interconnect = gpu.interconnect.take().or(extra.interconnect);
                gpu.link_gbps = gpu.link_gbps.or(extra.link_gbps);
                gpu.pcie_gen = gpu.pcie_gen.or(extra.pcie_gen);
                gpu.tdp_w = gpu.tdp_w.or(extra.tdp_w);
                gpu.compute_capability = gpu.compute_capability.or(extra.compute_capability);
                gpu.webgpu_architecture = gpu.webgpu_architecture.take().or(extra.webgpu_architecture);
            }
            None => {
                gpus.insert(extra.id.clone(), extra);
            }
        }
    }

    // model_id → (window, share of layers) from data/models_extra.csv.
    let mut sliding = BTreeMap::new();
    for row in CsvTable::from_text("data/models_extra.csv", MODELS_EXTRA_CSV)?.rows() {
        let window = row.number("sliding_window")?.map(|w| w as u32);
        let share = row.number("sliding_window_layer_share")?;
        sliding.insert(row.text("model_id")?.to_string(), (window, share));
    }
    let diffusion = media_models::diffusion_models()?;
    let speech = media_models::speech_models()?;
    let towers = vision_models::vision_models()?;
    let generators = audio_models::audio_models()?;
    let mut models = Vec::new();
    for row in CsvTable::read(&from.join("models.csv"))?.rows() {
        let id = row.text("model_id")?;
        let pipeline = diffusion.get(id).cloned();
        let generator = generators.get(id).cloned();
        // Sizing needs a parameter count: the config's, the name's, for a
        // diffusion pipeline or an audio generator the sum of its
        // components, or for a vision-language model the one its tower's
        // row gives (its decoder's, attached with the tower).
        let params = match (row.number("params_computed_total")?, row.number("params_total_b")?, &pipeline) {
            _ if generator.is_some() => generator.as_ref().map_or(0.0, AudioGenerator::params),
            (Some(exact), _, _) => exact,
            (None, Some(billions), _) => billions * BILLION,
            (None, None, Some(d)) => d.denoiser_params + d.text_encoder_params + d.vae_params.unwrap_or(0.0),
            (None, None, None) if towers.contains_key(id) => 0.0,
            (None, None, None) => continue,
        };
        let shape = model_shape::model_shape(&row, &sliding)?;
        let kind = match (shape, pipeline, speech.get(id).cloned(), generator) {
            (Some(shape), None, None, None) => ModelKind::Llm(shape),
            (None, Some(pipeline), None, None) => ModelKind::Diffusion(pipeline),
            (None, None, Some(speech), None) => ModelKind::Speech(speech),
            (None, None, None, Some(generator)) => ModelKind::AudioGen(generator),
            (None, None, None, None) => ModelKind::Unsized,
            _ => {
                return Err(row.invalid(format!("{id} has the structure of more than one kind of model")));
            }
        };
        models.push(model_shape::model(&row, params, kind)?);
    }
    models.extend(more_models::more_models(&from.join("models_more.csv"), &sliding, &towers, &generators, &speech)?);
    // A generator for a model neither catalog lists would silently vanish.
    for id in generators.keys() {
        if !models.iter().any(|m| &m.id == id) {
            return Err(BuildError::Csv {
                path: "data/audio_models.csv".to_string(),
                line: 0,
                message: format!("model_id \"{id}\" is not in models.csv or models_more.csv"),
            });
        }
    }
    vision_models::attach(&mut models, towers)?;
    // A fact about a model models.csv does not list would silently vanish.
    for id in diffusion.keys().chain(speech.keys()) {
        if !models.iter().any(|m| &m.id == id) {
            return Err(BuildError::Csv {
                path: "data/diffusion_models.csv or data/speech_models.csv".to_string(),
                line: 0,
                message: format!("model_id \"{id}\" is not in models.csv"),
            });
        }
    }
    models.sort_by(|a, b| a.id.cmp(&b.id));
    let gpus: Vec<Gpu> = gpus.into_values().collect();
    let support = support_matrix::support_matrix(&gpus)?;
    Ok(Catalog { schema_version: CATALOG_SCHEMA_VERSION, gpus, models, support })
}

fn build_providers(from: &Path) -> Result<Vec<Provider>, BuildError> {
    let mut providers = Vec::new();
    for row in CsvTable::read(&from.join("providers.csv"))?.rows() {
        let whole_seconds =
            |column: &str| -> Result<Option<u32>, BuildError> { Ok(row.number(column)?.map(|s| s.round() as u32)) };
        providers.push(Provider {
            id: row.text("provider_id")?.to_string(),
            name: row.text("display_name")?.to_string(),
            billing_increment_s: whole_seconds("billing_increment_s")?,
            minimum_charge_s: whole_seconds("minimum_charge_s")?,
            spot_available: match row.optional("spot_available") {
                Some("yes") => Some(true),
                Some("no") => Some(false),
                _ => None,
            },
            block_storage_usd_per_gb_month: row.number("block_storage_usd_per_gb_month")?,
            egress_usd_per_gb: row.number("egress_usd_per_gb")?,
            network_storage_usd_per_gb_month: row.number("network_storage_usd_per_gb_month")?,
            pricing_page: row.optional("pricing_page").map(str::to_string),
            price_kind: match row.optional("price_kind") {
                None => None,
                Some("fixed") => Some(PriceKind::Fixed),
                Some("marketplace") => Some(PriceKind::Marketplace),
                Some("auction") => Some(PriceKind::Auction),
                Some("reseller") => Some(PriceKind::Reseller),
                Some(other) => {
                    return Err(BuildError::Csv {
                        path: from.join("providers.csv").display().to_string(),
                        line: row.line,
                        message: format!("price_kind \"{other}\" is not fixed, marketplace, auction or reseller"),
                    })
                }
            },
            spot_notice_s: whole_seconds("spot_interruption_notice_s")?,
            reserved_discount: row.optional("reserved_discount_pct_typical").map(str::to_string),
            closed: None,
        });
    }
    for row in CsvTable::from_text("data/providers_extra.csv", PROVIDERS_EXTRA_CSV)?.rows() {
        providers.push(Provider {
            pricing_page: row.optional("pricing_page").map(str::to_string),
            ..Provider::without_rules(row.text("provider_id")?, row.text("display_name")?)
        });
    }
    fill_rules(&mut providers, &CsvTable::from_text("data/provider_rules.csv", PROVIDER_RULES_CSV)?)?;
    mark_closures(&mut providers, &CsvTable::from_text("data/provider_closures.csv", PROVIDER_CLOSURES_CSV)?)?;
    providers.sort_by(|a, b| a.id.cmp(&b.id));
    let duplicates = duplicate_provider_ids(&providers);
    if !duplicates.is_empty() {
        return Err(BuildError::DuplicateProviders(duplicates));
    }
    Ok(providers)
}

/// Fills the billing rules `providers.csv` leaves empty from
/// `data/provider_rules.csv` (one sourced cell per row). A cell that
/// providers.csv fills, an unknown provider or column, or a value out of
/// its unit's range fails the build: the shared data stays the reference.
/// A row with `replaces` is a newer dated source that contradicts a stated
/// cell (OVHcloud's per-second billing of 2026): it takes the cell's place
/// only while providers.csv still states the value it replaces, so a later
/// edit of the shared data fails the build rather than being overwritten.
fn fill_rules(providers: &mut [Provider], rules: &CsvTable) -> Result<(), BuildError> {
    for row in rules.rows() {
        let failed =
            |message: String| BuildError::Csv { path: "data/provider_rules.csv".into(), line: row.line, message };
        let id = row.text("provider_id")?;
        let column = row.text("column")?;
        let value = row.number("value")?.filter(|v| v.is_finite() && *v >= 0.0);
        let value = value.ok_or_else(|| failed(format!("{id} {column}: the value is not a number of 0 or more")))?;
        row.text("source")?;
        let replaces = row.number("replaces")?;
        let provider = providers
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| failed(format!("no provider \"{id}\" in providers.csv")))?;
        // Fills an empty cell; a stated one is providers.csv's, unless the
        // row replaces exactly what it states.
        fn set<T: Copy + Into<f64>>(cell: &mut Option<T>, value: T, replaces: Option<f64>) -> Result<(), String> {
            match (*cell, replaces) {
                (None, None) => {}
                (Some(stated), Some(old)) if stated.into() == old => {}
                (Some(stated), Some(old)) => {
                    return Err(format!("replaces {old}, but providers.csv states {}", stated.into()))
                }
                (Some(_), None) => return Err("providers.csv already states it".into()),
                (None, Some(old)) => return Err(format!("replaces {old}, but providers.csv states nothing")),
            }
            *cell = Some(value);
            Ok(())
        }
        let seconds = value.round() as u32;
        let result = match column {
            "billing_increment_s" => set(&mut provider.billing_increment_s, seconds, replaces),
            "minimum_charge_s" => set(&mut provider.minimum_charge_s, seconds, replaces),
            "spot_interruption_notice_s" => set(&mut provider.spot_notice_s, seconds, replaces),
            "block_storage_usd_per_gb_month" => set(&mut provider.block_storage_usd_per_gb_month, value, replaces),
            "network_storage_usd_per_gb_month" => set(&mut provider.network_storage_usd_per_gb_month, value, replaces),
            "egress_usd_per_gb" => set(&mut provider.egress_usd_per_gb, value, replaces),
            other => return Err(failed(format!("column \"{other}\" is not a billing rule this file may fill"))),
        };
        result.map_err(|why| failed(format!("{id} {column}: {why}")))?;
    }
    Ok(())
}

/// Marks the providers `data/provider_closures.csv` says no longer sell
/// their offers publicly, with the date and source (issue 41: Cudo closed
/// its public on-demand platform on 2026-03-31). An unknown provider or an
/// undated row fails the build.
fn mark_closures(providers: &mut [Provider], closures: &CsvTable) -> Result<(), BuildError> {
    for row in closures.rows() {
        let id = row.text("provider_id")?;
        let on = row.text("closed_on")?;
        row.text("quote")?;
        let source = row.text("source")?;
        let failed =
            |message: String| BuildError::Csv { path: "data/provider_closures.csv".into(), line: row.line, message };
        if crate::engine::freshness::parse_date(on).is_none() {
            return Err(failed(format!("{id}: closed_on \"{on}\" is not a date (YYYY-MM-DD)")));
        }
        let provider = providers
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| failed(format!("no provider \"{id}\" in providers.csv")))?;
        provider.closed = Some(crate::engine::snapshot::Closure { on: on.to_string(), source: source.to_string() });
    }
    Ok(())
}

/// The ids that more than one record describes, once each, of providers
/// sorted by id.
fn duplicate_provider_ids(sorted: &[Provider]) -> Vec<String> {
    let mut duplicates: Vec<String> =
        sorted.windows(2).filter(|pair| pair[0].id == pair[1].id).map(|pair| pair[0].id.clone()).collect();
    duplicates.dedup();
    duplicates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_provider_described_twice_fails_the_build() {
        // The fourth data pass moved eight providers from data/providers_extra.csv
        // into providers.csv (shared/data/SOURCES.md); both copies shipped as two
        // records of one id until this check.
        let provider = |id: &str| Provider::without_rules(id, id);
        let sorted = [provider("aws"), provider("daytona"), provider("daytona"), provider("daytona"), provider("gcp")];
        assert_eq!(duplicate_provider_ids(&sorted), ["daytona"]);
        assert!(duplicate_provider_ids(&sorted[..2]).is_empty());
    }

    #[test]
    fn provider_rules_fill_empty_cells_only_and_say_why_they_refuse() {
        let table =
            |rows: &str| CsvTable::from_text("t.csv", &format!("provider_id,column,value,quote,source,date\n{rows}"));
        let mut providers =
            vec![Provider { billing_increment_s: Some(60), ..Provider::without_rules("nebius", "Nebius") }];
        let filled =
            table("nebius,egress_usd_per_gb,0,Free,NEB,2026\nnebius,minimum_charge_s,59.6,x,S,2026\n").unwrap();
        fill_rules(&mut providers, &filled).unwrap();
        assert_eq!((providers[0].egress_usd_per_gb, providers[0].minimum_charge_s), (Some(0.0), Some(60)));
        for (row, why) in [
            ("nebius,billing_increment_s,1,x,S,2026", "providers.csv already states it"),
            ("nebius,price,1,x,S,2026", "is not a billing rule"),
            ("aws,egress_usd_per_gb,1,x,S,2026", "no provider \"aws\""),
            ("nebius,block_storage_usd_per_gb_month,-1,x,S,2026", "not a number of 0 or more"),
        ] {
            let error = fill_rules(&mut providers, &table(&format!("{row}\n")).unwrap()).unwrap_err().to_string();
            assert!(error.contains(why), "{row}: {error}");
        }
    }

    #[test]
    fn a_closed_platform_is_marked_with_its_date_and_source() {
        let table = |rows: &str| CsvTable::from_text("c.csv", &format!("provider_id,closed_on,quote,source\n{rows}"));
        let mut providers = vec![Provider::without_rules("cudo", "CUDO Compute")];
        mark_closures(&mut providers, &table("cudo,2026-03-31,closed,docs\n").unwrap()).unwrap();
        let closed = providers[0].closed.as_ref().unwrap();
        assert_eq!((closed.on.as_str(), closed.source.as_str()), ("2026-03-31", "docs"));
        for (row, why) in [("aws,2026-03-31,x,y", "no provider \"aws\""), ("cudo,March 2026,x,y", "is not a date")] {
            let error = mark_closures(&mut providers, &table(&format!("{row}\n")).unwrap()).unwrap_err().to_string();
            assert!(error.contains(why), "{row}: {error}");
        }
    }

    #[test]
    fn a_newer_source_replaces_a_stated_rule_only_while_the_shared_data_still_states_it() {
        // OVHcloud moved to per-second billing with a one-minute minimum in
        // 2026; providers.csv still states hourly (issue 41).
        let table = |rows: &str| {
            CsvTable::from_text("t.csv", &format!("provider_id,column,value,quote,source,date,replaces\n{rows}"))
        };
        let hourly = || Provider {
            billing_increment_s: Some(3600),
            minimum_charge_s: Some(3600),
            ..Provider::without_rules("ovhcloud", "OVHcloud")
        };
        let mut providers = vec![hourly()];
        let newer =
            table("ovhcloud,billing_increment_s,1,x,S,2026-08,3600\novhcloud,minimum_charge_s,60,x,S,2026-08,3600\n");
        fill_rules(&mut providers, &newer.unwrap()).unwrap();
        assert_eq!((providers[0].billing_increment_s, providers[0].minimum_charge_s), (Some(1), Some(60)));
        for (row, why) in [
            // The shared data changed since: the build says so.
            ("ovhcloud,billing_increment_s,1,x,S,2026-08,60", "replaces 60, but providers.csv states 3600"),
            ("ovhcloud,egress_usd_per_gb,0,x,S,2026-08,0.01", "replaces 0.01, but providers.csv states nothing"),
        ] {
            let error = fill_rules(&mut [hourly()], &table(&format!("{row}\n")).unwrap()).unwrap_err().to_string();
            assert!(error.contains(why), "{row}: {error}");
        }
    }

    #[test]
    fn the_shared_data_describes_each_provider_once() {
        let providers = build_providers(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data")))
            .expect("providers.csv and data/providers_extra.csv build");
        assert!(duplicate_provider_ids(&providers).is_empty());
        assert!(providers.iter().any(|p| p.id == "daytona" && p.billing_increment_s == Some(1)));
    }
}
