//! How sure each speed figure is: the error the speed model makes on the
//! published measurements of its family and runtime
//! (`../shared/data/calibration/` and `data/audio_published.csv`). The
//! calibration tests compute each family's errors and fail unless they
//! equal the band here, which the page, the CLI and the JSON show (issue 28),
//! so what a user reads is what the tests measured.

use crate::msg;
use crate::text::{phrases, Msg};
use serde::Serialize;

/// A family of published measurements and the speed model's error on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Band {
    /// The family's name, as the calibration tests print it.
    pub family: &'static str,
    /// Median |error|, in percent, rounded.
    pub median_error_pct: u32,
    /// 90th percentile |error|, in percent, rounded.
    pub p90_error_pct: u32,
    /// Published measurements compared.
    pub cases: u32,
    /// The vendors of the GPUs they ran on: the band holds for those
    /// (`covers`), not for hardware no case measured.
    #[serde(skip)]
    pub vendors: &'static [&'static str],
}

const NVIDIA: &[&str] = &["NVIDIA"];

const fn band(family: &'static str, median_error_pct: u32, p90_error_pct: u32, cases: u32) -> Band {
    Band { family, median_error_pct, p90_error_pct, cases, vendors: NVIDIA }
}

/// Every family the calibration tests check, with the errors they measure.
/// A change to the speed model that moves a family's error fails its test
/// until the band here is updated, with the error per source in the commit.
pub const BANDS: [Band; 12] = [
    Band { vendors: &["Apple", "NVIDIA"], ..band("llama.cpp decode", 10, 27, 188) },
    Band { vendors: &["Apple", "NVIDIA"], ..band("llama.cpp prefill", 13, 38, 180) },
    band("TensorRT-LLM serving", 7, 20, 37),
    band("TensorRT-LLM static batch", 10, 13, 10),
    band("llm-foundry pretraining", 5, 14, 139),
    band("llm-foundry multi-node", 8, 17, 34),
    band("torchtune fine-tuning", 9, 17, 7),
    band("diffusers eager it/s", 11, 31, 44),
    band("diffusers torch.compile it/s", 11, 26, 28),
    band("DiT s/item", 23, 29, 4),
    band("faster-whisper RTF", 9, 17, 6),
    band("audio generation RTF", 18, 21, 3),
];

/// The band the calibration tests print and check for `family`.
pub fn band_of(family: &str) -> Option<&'static Band> {
    BANDS.iter().find(|b| b.family == family)
}

/// One speed figure, by its JSON key, and the band of the measurements that
/// checked it; `None` where no published measurement of that runtime and
/// figure has been compared yet.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FigureBand {
    pub figure: &'static str,
    pub band: Option<&'static Band>,
}

impl Band {
    /// Whether published measurements on GPUs of `vendor` are among the
    /// band's: an Inferentia chip or an AMD GPU gets no NVIDIA band.
    pub fn covers(&self, vendor: &str) -> bool {
        self.vendors.contains(&vendor)
    }

    /// "±10% typical: the median error against 188 published llama.cpp
    /// decode measurements; 9 in 10 within ±27%".
    pub fn describe(&self) -> Msg {
        msg!(
            phrases::BAND,
            median = self.median_error_pct,
            p90 = self.p90_error_pct,
            cases = self.cases,
            family = self.family
        )
    }

    /// "±10%", beside a figure.
    pub fn short(&self) -> Msg {
        msg!(phrases::BAND_SHORT, median = self.median_error_pct)
    }
}

/// What a figure without a band says instead.
pub fn unchecked() -> Msg {
    msg!(phrases::BAND_UNCHECKED)
}
