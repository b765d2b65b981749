//! "Your GPU" in words: what the browser's report says (no WebGPU, no
//! adapter, a software renderer, the catalog GPU it names or the candidates
//! it narrows to), the bandwidth measured against the datasheet, the
//! picker's groups, and the verdict card. `ui/your_gpu.rs` shows these.

use crate::engine::catalog::Segment;
use crate::engine::local_gpu::{identify, Bandwidth, Identification, Probe};
use crate::engine::local_run::LocalRun;
use crate::engine::Catalog;
use crate::msg;
use crate::present::row::electricity;
use crate::text::{phrases, Arg, Lang, Msg};
use crate::units::BYTES_PER_DECIMAL_GB;

/// Candidates named in the probe's sentence before "…".
const NAMED_CANDIDATES: usize = 4;

/// The probe's state as the page keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct Detected {
    pub probe: Probe,
    pub identification: Option<Identification>,
}

impl Detected {
    pub fn of(probe: Probe, catalog: &Catalog) -> Detected {
        let identification = match &probe {
            Probe::Adapter(report) => Some(identify(report, catalog)),
            // WebGL may still name the card.
            Probe::NoWebGpu { renderer } | Probe::NoAdapter { renderer } | Probe::Failed { renderer, .. } => {
                renderer.as_ref().map(|renderer| {
                    let report = crate::engine::local_gpu::AdapterReport {
                        renderer: Some(renderer.clone()),
                        ..Default::default()
                    };
                    identify(&report, catalog)
                })
            }
        };
        Detected { probe, identification }
    }

    /// The catalog GPU the probe names outright.
    pub fn exact(&self) -> Option<&str> {
        match &self.identification {
            Some(Identification::Exact(id)) => Some(id),
            _ => None,
        }
    }

    /// Whether a measurement would time a real GPU.
    pub fn hardware(&self) -> bool {
        matches!(self.probe, Probe::Adapter(_)) && !matches!(self.identification, Some(Identification::Software))
    }
}

/// What the probe found, in a sentence or two.
pub fn found(detected: &Detected, catalog: &Catalog, lang: Lang) -> Vec<String> {
    let name = |id: &str| catalog.gpu(id).map_or(id.to_string(), |g| g.name.clone());
    let renderer = match &detected.probe {
        Probe::NoWebGpu { renderer } | Probe::NoAdapter { renderer } | Probe::Failed { renderer, .. } => {
            renderer.clone()
        }
        Probe::Adapter(report) => report.renderer.clone(),
    };
    let reported = match &detected.probe {
        Probe::Adapter(report) => report.display_name(),
        _ => renderer.clone(),
    }
    .unwrap_or_else(|| "?".to_string());
    let mut lines = vec![match &detected.probe {
        Probe::NoWebGpu { .. } => msg!(phrases::PROBE_NO_WEBGPU),
        Probe::NoAdapter { .. } => msg!(phrases::PROBE_NO_ADAPTER),
        Probe::Failed { detail, .. } => msg!(phrases::PROBE_FAILED, detail = detail.clone()),
        Probe::Adapter(_) => match &detected.identification {
            Some(Identification::Software) | None => msg!(phrases::PROBE_SOFTWARE, name = reported.clone()),
            Some(Identification::Exact(id)) => msg!(phrases::PROBE_EXACT, reported = reported.clone(), gpu = name(id)),
            Some(Identification::Candidates(ids)) => {
                let mut names: Vec<String> = ids.iter().take(NAMED_CANDIDATES).map(|id| name(id)).collect();
                if ids.len() > NAMED_CANDIDATES {
                    names.push("…".to_string());
                }
                msg!(phrases::PROBE_CANDIDATES, reported = reported.clone(), gpus = names.join(" / "))
            }
            Some(Identification::Integrated) => msg!(phrases::PROBE_INTEGRATED, reported = reported.clone()),
            Some(Identification::Unknown) => msg!(phrases::PROBE_UNKNOWN, reported = reported.clone()),
        },
    }
    .render(lang)];
    // Without an adapter, WebGL's renderer may still name the card.
    if !matches!(detected.probe, Probe::Adapter(_)) {
        if let Some(renderer) = renderer {
            let software = matches!(detected.identification, Some(Identification::Software));
            let said = if software { &phrases::PROBE_RENDERER_SOFTWARE } else { &phrases::PROBE_RENDERER };
            lines.push(Msg::new(said, vec![("name", Arg::Text(renderer))]).render(lang));
        }
    }
    lines
}

/// The measurement, against the datasheet of the compared GPU, and whether
/// the estimate uses it (only a real GPU's figure replaces the datasheet).
pub fn measurement(measured: &Bandwidth, datasheet: Option<f64>, used: bool, lang: Lang) -> String {
    let gbps = measured.bytes_per_s / BYTES_PER_DECIMAL_GB;
    let mut said = vec![msg!(
        phrases::BENCH_MEASURED,
        measured = Arg::Num(gbps, if gbps < 10.0 { 1 } else { 0 }),
        size = Arg::Bytes(measured.buffer_bytes),
        ms = Arg::Num(measured.elapsed_ms, 0)
    )];
    said.extend(datasheet.map(|datasheet| msg!(phrases::BENCH_DATASHEET, datasheet = Arg::Num(datasheet, 0))));
    said.push(Msg::new(if used { &phrases::BENCH_USED } else { &phrases::BENCH_NOT_USED }, Vec::new()));
    said.iter().map(|m| m.render(lang)).collect::<Vec<_>>().join(" ")
}

/// The GPUs the picker lists, in groups: the probe's candidates first,
/// then the catalog by segment, the visitor's likely cards first.
pub fn picker_groups(catalog: &Catalog, candidates: &[String], lang: Lang) -> Vec<(String, Vec<(String, String)>)> {
    let name = |id: &str| catalog.gpu(id).map_or(id.to_string(), |g| g.name.clone());
    let mut groups = Vec::new();
    if !candidates.is_empty() {
        groups.push((
            lang.t(&phrases::PICK_DETECTED).to_string(),
            candidates.iter().map(|id| (id.clone(), name(id))).collect(),
        ));
    }
    for segment in Segment::ALL {
        let mut gpus: Vec<(String, String)> = catalog
            .gpus
            .iter()
            .filter(|g| g.segment == Some(segment))
            .map(|g| (g.id.clone(), g.name.clone()))
            .collect();
        crate::sorting::sort_short_by(&mut gpus, |a, b| a.1.cmp(&b.1));
        if !gpus.is_empty() {
            groups.push((lang.t(segment.label()).to_string(), gpus));
        }
    }
    groups
}

/// The verdict card's words: whether the workload runs on the visitor's
/// GPU (it fits, and some software runs it there), against renting, what
/// its electricity costs, and its unified memory.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    pub fits: bool,
    pub said: String,
    pub electricity: String,
    pub unified: String,
}

pub fn verdict(run: &Result<LocalRun, Msg>, lang: Lang) -> Verdict {
    match run {
        Ok(run) => Verdict {
            fits: run.fits && run.cannot_run.is_none(),
            said: run.verdict.iter().map(|m| m.render(lang)).collect::<Vec<_>>().join(" "),
            electricity: electricity(run, lang),
            unified: if run.unified_memory {
                msg!(phrases::UNIFIED_MEMORY, memory = Arg::Bytes(run.usable_bytes.max(0.0))).render(lang)
            } else {
                String::new()
            },
        },
        Err(problem) => Verdict { said: problem.render(lang), ..Verdict::default() },
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
