//! Test support: a family of published cases, each from a named source and
//! printed with its error; the family's error on sources the model was not
//! fitted to (leave-one-source-out), which is the band the page shows
//! (`speed::accuracy`, which must equal what is measured here); and the
//! issue's aim for a family (issue 5: median |error| ≤ 20% and 90% of
//! cases within 40%).
//!
//! Leave-one-source-out: a family's fitted constant is, to first order, an
//! efficiency: a scale on every predicted speed (the share of the tensor
//! peak training reaches, of the bandwidth decode reaches, …). For each
//! source, that scale is refitted on the other sources alone (the median
//! log-ratio of measured to predicted), and the held-out source is
//! predicted with it. The errors so made on every source are the band: what
//! a user can expect on a source the constants never saw (issue 37), each
//! source weighing the same however many rows it has, so that one large
//! table cannot hide the sources the engine misses. A
//! family checked on fewer than `accuracy::FEW_SOURCES` independent sources
//! cannot be held out that way: its band is widened to the error families
//! with enough sources make on unseen ones (`accuracy::UNSEEN_FLOOR`), and
//! the page says on how few sources it rests.

use super::accuracy::{Band, FEW_SOURCES, UNSEEN_FLOOR};
use std::collections::HashMap;
use std::path::Path;

/// One published measurement and the model's figure for it.
#[derive(Debug, Clone)]
pub struct Case {
    /// The source it comes from (a `source_id` of the calibration files):
    /// cases of one source share its rig, software and conventions.
    pub source: String,
    pub name: String,
    pub predicted: f64,
    pub measured: f64,
}

/// The cases of one family, and the vendors of the GPUs its cases ran on.
pub struct Family {
    pub name: &'static str,
    pub cases: Vec<Case>,
    vendors: Vec<String>,
}

/// The (median, 90th percentile) of |errors|, the quantiles the page
/// quotes; (0, 0) for none.
pub fn quantiles(errors: &[f64]) -> (f64, f64) {
    let mut errors: Vec<f64> = errors.iter().map(|e| e.abs()).collect();
    if errors.is_empty() {
        return (0.0, 0.0);
    }
    errors.sort_by(f64::total_cmp);
    let at = |q: f64| errors[((errors.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.9))
}

/// The (median, 90th percentile) of |errors| with each source weighing
/// the same, whatever its number of cases: a source of 140 rows and one of
/// a single row each count as one view of the engine, as a user's job is
/// (each case weighs 1 / its source's cases). (0, 0) for none.
pub fn source_weighted_quantiles(errors: &[(String, f64)]) -> (f64, f64) {
    if errors.is_empty() {
        return (0.0, 0.0);
    }
    let mut counts: HashMap<&str, f64> = HashMap::new();
    for (source, _) in errors {
        *counts.entry(source.as_str()).or_default() += 1.0;
    }
    let mut weighted: Vec<(f64, f64)> = errors.iter().map(|(s, e)| (e.abs(), 1.0 / counts[s.as_str()])).collect();
    weighted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let total: f64 = weighted.iter().map(|(_, w)| w).sum();
    let at = |q: f64| {
        let mut cumulative = 0.0;
        for &(error, weight) in &weighted {
            cumulative += weight;
            if cumulative >= q * total - 1e-9 {
                return error;
            }
        }
        weighted.last().map_or(0.0, |w| w.0)
    };
    (at(0.5), at(0.9))
}

pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n == 0 {
        return 0.0;
    }
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

impl Family {
    pub fn new(name: &'static str) -> Family {
        Family { name, cases: Vec::new(), vendors: Vec::new() }
    }

    /// A case of `source` measured on `gpu`.
    pub fn add(&mut self, source: &str, case: String, gpu: &crate::engine::Gpu, predicted: f64, measured: f64) {
        self.cases.push(Case { source: source.to_string(), name: case, predicted, measured });
        if !self.vendors.contains(&gpu.vendor) {
            self.vendors.push(gpu.vendor.clone());
        }
    }

    /// The independent sources, in the order their cases first came.
    pub fn sources(&self) -> Vec<&str> {
        let mut sources: Vec<&str> = Vec::new();
        for case in &self.cases {
            if !sources.contains(&case.source.as_str()) {
                sources.push(&case.source);
            }
        }
        sources
    }

    /// Each case's relative error as the model predicts it (in-sample).
    pub fn errors(&self) -> Vec<f64> {
        self.cases.iter().map(|c| (c.predicted - c.measured) / c.measured).collect()
    }

    /// The in-sample relative errors of `source`'s cases.
    pub fn errors_of(&self, source: &str) -> Vec<f64> {
        self.cases.iter().filter(|c| c.source == source).map(|c| (c.predicted - c.measured) / c.measured).collect()
    }

    /// Each case's relative error when its source is held out: the
    /// family's scale refitted on the other sources' cases. Empty with one
    /// source, which has no other to fit on.
    pub fn held_out_errors(&self) -> Vec<(String, f64)> {
        let sources = self.sources();
        if sources.len() < 2 {
            return Vec::new();
        }
        let mut held_out = Vec::new();
        for source in sources {
            let mut log_ratios: Vec<f64> =
                self.cases.iter().filter(|c| c.source != source).map(|c| (c.measured / c.predicted).ln()).collect();
            let scale = median(&mut log_ratios).exp();
            for c in self.cases.iter().filter(|c| c.source == source) {
                held_out.push((source.to_string(), (scale * c.predicted - c.measured) / c.measured));
            }
        }
        held_out
    }

    /// The band the page shows for this family: with `FEW_SOURCES` sources
    /// or more, the held-out error, or the error of the engine as it stands
    /// where that is larger (a family no constant was fitted to is unseen
    /// as it is, and the page shows the engine's figures, not refitted
    /// ones); with fewer, the larger of the errors measured and
    /// `UNSEEN_FLOOR`.
    pub fn band(&self) -> (f64, f64) {
        let sources = self.sources().len();
        let held_out = self.held_out_errors();
        let as_is: Vec<(String, f64)> =
            self.cases.iter().map(|c| (c.source.clone(), (c.predicted - c.measured) / c.measured)).collect();
        let (median, p90) = source_weighted_quantiles(&as_is);
        let (held_median, held_p90) =
            if held_out.is_empty() { (median, p90) } else { source_weighted_quantiles(&held_out) };
        if sources >= FEW_SOURCES {
            (held_median.max(median), held_p90.max(p90))
        } else {
            (held_median.max(UNSEEN_FLOOR.0 / 100.0), held_p90.max(UNSEEN_FLOOR.1 / 100.0))
        }
    }

    /// Prints every case; returns the in-sample (median, 90th percentile)
    /// |error|. The printed cases must equal the family's golden file
    /// (`tests/golden/calibration/`): a change to the speed model shows, in
    /// the diff of that file, every case it moved. Prints each source's
    /// error in-sample and held out, and checks that the band the page shows
    /// is the one measured here.
    pub fn report(&self) -> (f64, f64) {
        let mut printed = String::new();
        for c in &self.cases {
            let error = (c.predicted - c.measured) / c.measured * 100.0;
            printed.push_str(&format!(
                "{}: [{}] {}: {:.3} vs {:.3} ({error:+.0}%)\n",
                self.name, c.source, c.name, c.predicted, c.measured
            ));
        }
        let held_out = self.held_out_errors();
        for source in self.sources() {
            let in_sample = self.errors_of(source);
            let out: Vec<f64> = held_out.iter().filter(|(s, _)| s == source).map(|(_, e)| *e).collect();
            let (m, p) = quantiles(&in_sample);
            let line = if out.is_empty() {
                format!("{}: source {source}: {} cases, median |error| {:.0}%, 90th percentile {:.0}% (in-sample only: one source)\n", self.name, in_sample.len(), m * 100.0, p * 100.0)
            } else {
                let (hm, hp) = quantiles(&out);
                format!(
                    "{}: source {source}: {} cases, median |error| {:.0}% in-sample, {:.0}% held out; 90th percentile {:.0}% → {:.0}%\n",
                    self.name,
                    in_sample.len(),
                    m * 100.0,
                    hm * 100.0,
                    p * 100.0,
                    hp * 100.0
                )
            };
            printed.push_str(&line);
        }
        print!("{printed}");
        let file: String =
            self.name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        crate::golden::check(&format!("tests/golden/calibration/{file}.txt"), &printed);
        let (median, p90) = quantiles(&self.errors());
        let (band_median, band_p90) = self.band();
        println!(
            "{}: {} cases from {} sources, in-sample median |error| {:.0}%, 90th percentile {:.0}%; shown: ±{:.0}%, 90th percentile ±{:.0}%",
            self.name,
            self.cases.len(),
            self.sources().len(),
            median * 100.0,
            p90 * 100.0,
            band_median * 100.0,
            band_p90 * 100.0
        );
        // The band the page shows for this family must be what was measured
        // here; it is printed as the page words it. So must the vendors of
        // the GPUs its cases ran on, for which the band holds.
        let shown = super::accuracy::band_of(self.name);
        let mut vendors: Vec<&str> = self.vendors.iter().map(String::as_str).collect();
        vendors.sort_unstable();
        let mut listed: Vec<&str> = shown.map(|b| b.vendors.to_vec()).unwrap_or_default();
        listed.sort_unstable();
        let measured = Band {
            family: self.name,
            median_error_pct: (band_median * 100.0).round() as u32,
            p90_error_pct: (band_p90 * 100.0).round() as u32,
            cases: self.cases.len() as u32,
            sources: self.sources().len() as u32,
            vendors: shown.map_or(&[], |b| b.vendors),
        };
        println!(
            "{}: the page shows {}",
            self.name,
            shown.map_or(String::from("no band"), |b| b.describe().to_string())
        );
        assert_eq!(shown, Some(&measured), "speed::accuracy::BANDS must hold what the calibration measures");
        assert_eq!(listed, vendors, "{}: the GPU vendors its cases ran on", self.name);
        (median, p90)
    }

    pub fn assert_within(&self, median_max: f64, p90_max: f64) {
        assert!(!self.cases.is_empty(), "{}: no cases", self.name);
        let (median, p90) = self.report();
        assert!(median <= median_max && p90 <= p90_max, "{}: median {median:.2}, p90 {p90:.2}", self.name);
    }

    /// The aim, on at least five cases.
    pub fn assert_aim(&self) {
        assert!(self.cases.len() >= 5, "{}: only {} cases", self.name, self.cases.len());
        self.assert_within(0.20, 0.40);
    }
}

/// A calibration file's rows as column → value maps: from
/// `../shared/data/calibration/`, or with `project:` before the name from
/// this project's `data/calibration/` (issue 37's sources).
pub fn rows(file: &str) -> Vec<HashMap<String, String>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = match file.strip_prefix("project:") {
        Some(own) => root.join("data/calibration").join(own),
        None => root.join("../shared/data/calibration").join(file),
    };
    let mut reader = csv::Reader::from_path(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let headers = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|record| {
            let record = record.unwrap();
            headers.iter().zip(record.iter()).map(|(h, v)| (h.to_string(), v.to_string())).collect()
        })
        .collect()
}

/// A calibration file's rows keyed by their `id` column, for tests that
/// name the rows they compare.
pub fn rows_by_id(file: &str) -> HashMap<String, HashMap<String, String>> {
    rows(file).into_iter().map(|r| (r["id"].clone(), r)).collect()
}
