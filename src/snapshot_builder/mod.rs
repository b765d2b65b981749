//! The snapshot builder behind `whichgpu snapshot`: turns the public offer
//! catalogs, GPU specs, model shapes and provider billing rules under
//! `../shared/data` into the files the page loads.
//!
//! Native only. The same inputs always give byte-identical output.

mod csv_table;
mod gpu_names;
mod offers;
mod summary;

pub use gpu_names::catalog_gpu_id;

use crate::engine::catalog::{Catalog, Gpu, Model, CATALOG_SCHEMA_VERSION};
use crate::engine::snapshot::{Provider, Snapshot, Source, SCHEMA_VERSION};
use csv_table::CsvTable;
use std::fmt;
use std::path::{Path, PathBuf};

/// Which offer files to read, their format, provider and freshness.
const OFFER_SOURCES_CSV: &str = include_str!("../../data/offer_sources.csv");
/// Accelerators that offers name but gpus.csv lacks.
const GPUS_EXTRA_CSV: &str = include_str!("../../data/gpus_extra.csv");

/// What the builder produces.
#[derive(Debug)]
pub struct Built {
    pub snapshot: Snapshot,
    pub catalog: Catalog,
    pub summary: String,
    pub anomalies: Vec<Anomaly>,
}

/// A source row that was not shipped as truth, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Anomaly {
    pub source: String,
    pub line: u64,
    pub what: String,
}

#[derive(Debug)]
pub enum BuildError {
    Io {
        path: PathBuf,
        message: String,
    },
    Csv {
        path: String,
        line: u64,
        message: String,
    },
    /// GPU names no rule maps to a catalog id: `(source, name, rows)`.
    UnmappedGpus(Vec<(String, String, usize)>),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Io { path, message } => write!(f, "{}: {message}", path.display()),
            BuildError::Csv {
                path,
                line,
                message,
            } => write!(f, "{path}:{line}: {message}"),
            BuildError::UnmappedGpus(names) => {
                writeln!(f, "{} GPU name(s) map to no catalog gpu_id; add a rule in src/snapshot_builder/gpu_names.rs or a row in data/gpus_extra.csv:", names.len())?;
                for (source, name, rows) in names {
                    writeln!(f, "  {source}: \"{name}\" ({rows} rows)")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for BuildError {}

/// Reads everything under `from` (a copy of `../shared/data`).
pub fn build(from: &Path) -> Result<Built, BuildError> {
    let catalog = build_catalog(from)?;
    let providers = build_providers(from)?;
    let manifest = CsvTable::from_text("data/offer_sources.csv", OFFER_SOURCES_CSV)?;

    let mut sources = Vec::new();
    let mut collected = offers::Collected::default();
    for row in manifest.rows() {
        let source = Source {
            id: row.text("id")?.to_string(),
            name: format!("{} ({})", row.text("upstream")?, row.text("file")?),
            upstream: row.text("upstream")?.to_string(),
            commit: row.optional("commit").map(str::to_string),
            as_of: row.text("as_of")?.to_string(),
        };
        let path = from.join(row.text("file")?);
        let table = CsvTable::read(&path)?;
        offers::read(
            row.text("format")?,
            row.text("provider")?,
            &source.id,
            &table,
            &catalog,
            &mut collected,
        )?;
        sources.push(source);
    }
    if !collected.unmapped.is_empty() {
        let mut names: Vec<_> = collected
            .unmapped
            .into_iter()
            .map(|((s, n), rows)| (s, n, rows))
            .collect();
        names.sort();
        return Err(BuildError::UnmappedGpus(names));
    }

    let used: std::collections::BTreeSet<&str> = collected
        .offers
        .iter()
        .map(|o| o.provider.as_str())
        .collect();
    let providers: Vec<Provider> = providers
        .into_iter()
        .filter(|p| used.contains(p.id.as_str()))
        .collect();
    // The freshest source month is the snapshot's date of record.
    let snapshot_date = sources
        .iter()
        .map(|s| s.as_of.clone())
        .max()
        .unwrap_or_default();
    let mut anomalies = collected.anomalies;
    anomalies.sort();
    let snapshot = Snapshot {
        schema_version: SCHEMA_VERSION,
        snapshot_date,
        sources,
        providers,
        offers: collected.offers,
    };
    let summary = summary::render(&snapshot, &anomalies, collected.rows_read);
    Ok(Built {
        snapshot,
        catalog,
        summary,
        anomalies,
    })
}

/// Writes `offers.json`, `catalog.json` and `SUMMARY.md` into `out`.
pub fn write(built: &Built, out: &Path) -> Result<(), BuildError> {
    let io = |path: &Path, e: std::io::Error| BuildError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let files = [
        ("offers.json", to_json(&built.snapshot)),
        ("catalog.json", to_json(&built.catalog)),
        ("SUMMARY.md", built.summary.clone()),
    ];
    for (name, text) in files {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    // Serializing plain structs of strings and numbers cannot fail.
    let mut text = serde_json::to_string(value).unwrap_or_default();
    text.push('\n');
    text
}

fn build_catalog(from: &Path) -> Result<Catalog, BuildError> {
    let mut gpus = Vec::new();
    for table in [
        CsvTable::read(&from.join("gpus.csv"))?,
        CsvTable::from_text("data/gpus_extra.csv", GPUS_EXTRA_CSV)?,
    ] {
        for row in table.rows() {
            let model = row.text("model")?;
            let name = match row.optional("variant") {
                Some(variant) => format!("{model} {variant}"),
                None => model.to_string(),
            };
            gpus.push(Gpu {
                id: row.text("gpu_id")?.to_string(),
                vendor: row.text("vendor")?.to_string(),
                name,
                vram_gb: row.number("vram_gb")?.unwrap_or(0.0),
                memory_type: row.optional("memory_type").map(str::to_string),
                mem_bandwidth_gbps: row.number("mem_bandwidth_gbps")?,
                segment: row.optional("segment").map(str::to_string),
            });
        }
    }
    gpus.sort_by(|a, b| a.id.cmp(&b.id));

    let mut models = Vec::new();
    for row in CsvTable::read(&from.join("models.csv"))?.rows() {
        // Issue 2 sizes LLM weights; diffusion, video and audio models need
        // their encoder and VAE counts (issue 4).
        let params = match row.number("params_computed_total")? {
            Some(exact) => exact,
            None => match row.number("params_total_b")? {
                Some(billions) => billions * 1e9,
                None => continue,
            },
        };
        let active_params = match row.number("params_computed_active")? {
            Some(exact) => Some(exact),
            None => row.number("params_active_b")?.map(|b| b * 1e9),
        };
        models.push(Model {
            id: row.text("model_id")?.to_string(),
            name: row.text("model")?.to_string(),
            family: row.text("family")?.to_string(),
            modality: row.text("modality")?.to_string(),
            params,
            active_params,
        });
    }
    models.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Catalog {
        schema_version: CATALOG_SCHEMA_VERSION,
        gpus,
        models,
    })
}

fn build_providers(from: &Path) -> Result<Vec<Provider>, BuildError> {
    let mut providers = Vec::new();
    for row in CsvTable::read(&from.join("providers.csv"))?.rows() {
        let whole_seconds = |column: &str| -> Result<Option<u32>, BuildError> {
            Ok(row.number(column)?.map(|s| s.round() as u32))
        };
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
            pricing_page: row.optional("pricing_page").map(str::to_string),
        });
    }
    providers.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(providers)
}
