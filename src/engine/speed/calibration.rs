//! Test support: a family of published cases, each printed with its error,
//! the error band the page shows for it (`speed::accuracy`, which must equal
//! what is measured here), and the aim for a family (issue 5: median
//! |error| ≤ 20% and 90% of cases within 40%).

use std::collections::HashMap;
use std::path::Path;

/// (case, predicted, measured) of one family, and the vendors of the GPUs
/// its cases ran on.
pub struct Family {
    pub name: &'static str,
    pub cases: Vec<(String, f64, f64)>,
    vendors: Vec<String>,
}

impl Family {
    pub fn new(name: &'static str) -> Family {
        Family { name, cases: Vec::new(), vendors: Vec::new() }
    }

    /// A case measured on `gpu`.
    pub fn add(&mut self, case: String, gpu: &crate::engine::Gpu, predicted: f64, measured: f64) {
        self.cases.push((case, predicted, measured));
        if !self.vendors.contains(&gpu.vendor) {
            self.vendors.push(gpu.vendor.clone());
        }
    }

    /// Prints every case; returns (median, 90th percentile) |error|. The
    /// printed cases must equal the family's golden file
    /// (`tests/golden/calibration/`): a change to the speed model shows, in
    /// the diff of that file, every case it moved.
    pub fn report(&self) -> (f64, f64) {
        let mut printed = String::new();
        for (case, predicted, measured) in &self.cases {
            let error = (predicted - measured) / measured * 100.0;
            printed.push_str(&format!("{}: {case}: {predicted:.3} vs {measured:.3} ({error:+.0}%)\n", self.name));
        }
        print!("{printed}");
        let file: String =
            self.name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
        crate::golden::check(&format!("tests/golden/calibration/{file}.txt"), &printed);
        let mut errors: Vec<f64> = self.cases.iter().map(|(_, p, m)| ((p - m) / m).abs()).collect();
        errors.sort_by(f64::total_cmp);
        let at = |q: f64| errors[((errors.len() as f64 - 1.0) * q).round() as usize];
        let (median, p90) = (at(0.5), at(0.9));
        println!(
            "{}: {} cases, median |error| {:.0}%, 90th percentile {:.0}%",
            self.name,
            errors.len(),
            median * 100.0,
            p90 * 100.0
        );
        // The band the page shows for this family must be what was measured
        // here; it is printed as the page words it.
        // So must the vendors of the GPUs its cases ran on, for which the
        // band holds.
        let shown = super::accuracy::band_of(self.name);
        let mut vendors: Vec<&str> = self.vendors.iter().map(String::as_str).collect();
        vendors.sort_unstable();
        let mut listed: Vec<&str> = shown.map(|b| b.vendors.to_vec()).unwrap_or_default();
        listed.sort_unstable();
        let measured = super::accuracy::Band {
            family: self.name,
            median_error_pct: (median * 100.0).round() as u32,
            p90_error_pct: (p90 * 100.0).round() as u32,
            cases: errors.len() as u32,
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

/// A calibration file's rows as column → value maps.
pub fn rows(file: &str) -> Vec<HashMap<String, String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/calibration").join(file);
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
