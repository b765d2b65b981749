//! Latency targets for common kinds of endpoint (issue 39), each a
//! published service-level objective taken as its source states it
//! (`data/calibration/latency_presets.md`). URL key `slo` sets the three
//! link keys it stands for (`ttft`, `itl`, `pct`); links are written with
//! those, and the form's picker shows the preset they match.

use super::workload::{Workload, DEFAULT_PERCENTILE};
use crate::text::{phrases, Phrase};

/// One preset: its link spelling, its label and its source, and the
/// targets it sets (`None`: no latency target).
#[derive(Debug)]
pub struct LatencyPreset {
    pub id: &'static str,
    pub label: &'static Phrase,
    pub source: &'static Phrase,
    pub ttft_s: Option<f64>,
    pub itl_s: Option<f64>,
    pub percentile: u32,
}

/// The presets, in the order the form lists them.
pub static LATENCY_PRESETS: [LatencyPreset; 4] = [
    // MLPerf Inference, Llama 2 70B interactive: `llama2-70b-interactive.
    // Server.ttft_latency = 450`, `tpot_latency = 40` (ms), checked at
    // `*.Server.target_latency_percentile = 99` (mlcommons/inference,
    // loadgen/mlperf.conf at 001712e9; loadgen/results.cc checks each at
    // that percentile).
    LatencyPreset {
        id: "chat",
        label: &phrases::SLO_PRESET_CHAT,
        source: &phrases::SLO_PRESET_CHAT_SOURCE,
        ttft_s: Some(0.45),
        itl_s: Some(0.04),
        percentile: 99,
    },
    // DistServe (OSDI'24), code completion on HumanEval: TTFT 0.125 s, TPOT
    // 0.2 s, 90% of requests (LLMServe/DistServe, distserve/evaluation/
    // ae-scripts/e2e/_plot.py, plot_fig9: "opt-66b-humaneval" 0.125, 0.2, 90).
    LatencyPreset {
        id: "code",
        label: &phrases::SLO_PRESET_CODE,
        source: &phrases::SLO_PRESET_CODE_SOURCE,
        ttft_s: Some(0.125),
        itl_s: Some(0.2),
        percentile: 90,
    },
    // MLPerf Inference, Llama 3.1 405B server, its long-context benchmark:
    // `llama3_1-405b.Server.ttft_latency = 6000`, `tpot_latency = 175` (ms)
    // at p99 (the same mlperf.conf).
    LatencyPreset {
        id: "long",
        label: &phrases::SLO_PRESET_LONG,
        source: &phrases::SLO_PRESET_LONG_SOURCE,
        ttft_s: Some(6.0),
        itl_s: Some(0.175),
        percentile: 99,
    },
    // MLPerf's Offline scenario: "Latency Constraint: None"
    // (mlcommons/inference_policies, inference_rules.adoc).
    LatencyPreset {
        id: "none",
        label: &phrases::SLO_PRESET_NONE,
        source: &phrases::SLO_PRESET_NONE_SOURCE,
        ttft_s: None,
        itl_s: None,
        percentile: DEFAULT_PERCENTILE,
    },
];

/// The link spelling of targets no preset matches.
pub const CUSTOM: &str = "custom";

impl LatencyPreset {
    pub fn find(id: &str) -> Option<&'static LatencyPreset> {
        LATENCY_PRESETS.iter().find(|p| p.id == id)
    }

    /// The preset `workload`'s targets are, if any.
    pub fn of(workload: &Workload) -> Option<&'static LatencyPreset> {
        LATENCY_PRESETS.iter().find(|p| {
            p.ttft_s == workload.ttft_target_s
                && p.itl_s == workload.itl_target_s
                && (p.percentile == workload.latency_percentile || p.ttft_s.is_none() && p.itl_s.is_none())
        })
    }

    /// Sets `workload`'s targets to this preset's.
    pub fn apply(&self, workload: &mut Workload) {
        workload.ttft_target_s = self.ttft_s;
        workload.itl_target_s = self.itl_s;
        workload.latency_percentile = self.percentile;
    }
}

/// The `slo` value of `workload`: its preset's id, or `custom`.
pub fn spelling(workload: &Workload) -> &'static str {
    LatencyPreset::of(workload).map_or(CUSTOM, |p| p.id)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::serving_plan::Targets;

    #[test]
    fn each_preset_sets_its_targets_and_is_recognised_from_them() {
        for preset in &LATENCY_PRESETS {
            let mut workload = Workload { ttft_target_s: Some(9.0), latency_percentile: 50, ..Workload::default() };
            preset.apply(&mut workload);
            assert_eq!(LatencyPreset::of(&workload).map(|p| p.id), Some(preset.id));
            assert_eq!(Targets::of(&workload).is_some(), preset.ttft_s.is_some(), "{}", preset.id);
            assert_eq!(LatencyPreset::find(preset.id).map(|p| p.id), Some(preset.id));
        }
        // The default workload has no targets: "none".
        assert_eq!(spelling(&Workload::default()), "none");
        // Targets of one's own are custom, as is a preset's at another percentile.
        let mut own = Workload { ttft_target_s: Some(1.0), ..Workload::default() };
        assert_eq!(spelling(&own), CUSTOM);
        LatencyPreset::find("chat").unwrap().apply(&mut own);
        own.latency_percentile = 95;
        assert_eq!(spelling(&own), CUSTOM);
    }
}
