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
    /// The independent sources they come from.
    pub sources: u32,
    /// The vendors of the GPUs they ran on: the band holds for those
    /// (`covers`), not for hardware no case measured.
    #[serde(skip)]
    pub vendors: &'static [&'static str],
}

const NVIDIA: &[&str] = &["NVIDIA"];

const fn band(family: &'static str, median_error_pct: u32, p90_error_pct: u32, cases: u32) -> Band {
    Band { family, median_error_pct, p90_error_pct, cases, sources: 1, vendors: NVIDIA }
}

/// Independent sources a family needs for its error to be measured on
/// sources held out of the fit (issue 37).
pub const FEW_SOURCES: usize = 3;

/// The (median, 90th percentile) |error|, in percent, a family checked on
/// fewer than `FEW_SOURCES` sources carries at least: what the families with
/// enough sources err by on sources held out of their fit, pooled
/// (`calibration`, `the_floor_is_what_families_err_on_unseen_sources`).
pub const UNSEEN_FLOOR: (f64, f64) = (15.0, 45.0);

/// Every family the calibration tests check, with the errors they measure.
/// A change to the speed model that moves a family's error fails its test
/// until the band here is updated, with the error per source in the commit.
pub const BANDS: [Band; 18] = [
    Band { vendors: &["Apple", "NVIDIA"], sources: 7, ..band("llama.cpp decode", 10, 22, 250) },
    Band { vendors: &["Apple", "NVIDIA"], sources: 7, ..band("llama.cpp prefill", 13, 22, 243) },
    Band { sources: 5, ..band("TensorRT-LLM serving", 7, 136, 42) },
    band("TensorRT-LLM static batch", 15, 45, 10),
    Band { sources: 5, ..band("vLLM batch-1 generation", 9, 63, 48) },
    Band { sources: 3, ..band("transformers batch-1 generation", 13, 45, 50) },
    Band { sources: 5, ..band("vLLM vision-language batch 1", 16, 73, 42) },
    Band { sources: 8, ..band("LLM pretraining", 11, 31, 189) },
    Band { sources: 6, ..band("pretraining runs", 16, 45, 10) },
    band("torchtune fine-tuning", 15, 45, 7),
    Band { sources: 3, ..band("diffusers eager it/s", 7, 36, 55) },
    Band { sources: 2, ..band("diffusers torch.compile it/s", 15, 45, 38) },
    Band { sources: 9, ..band("DiT s/item", 13, 21, 25) },
    Band { sources: 6, ..band("DiT torch.compile s/item", 10, 19, 15) },
    Band { sources: 6, ..band("Whisper RTF", 15, 102, 17) },
    band("audio generation RTF", 18, 45, 3),
    Band { sources: 5, ..band("serving time to first token under load", 40, 87, 71) },
    Band { sources: 5, ..band("serving inter-token latency under load", 22, 68, 132) },
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

    /// Whether the band was measured on sources held out of the fit, or
    /// rests on too few sources for that.
    pub const fn held_out(&self) -> bool {
        self.sources as usize >= FEW_SOURCES
    }

    /// "±12% typical on sources the model was not fitted to: …", or for a
    /// family of one or two sources "checked on one source only: …".
    pub fn describe(&self) -> Msg {
        let phrase: &'static crate::text::Phrase = match self.sources {
            _ if self.held_out() => &phrases::BAND,
            1 => &phrases::BAND_ONE_SOURCE,
            _ => &phrases::BAND_FEW_SOURCES,
        };
        msg!(
            *phrase,
            median = self.median_error_pct,
            p90 = self.p90_error_pct,
            cases = self.cases,
            sources = self.sources,
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
