//! What the speed model reports: the figures of each task, what bounds
//! them, and the job's hours.

use crate::engine::hardware::ComputePrecision;
use crate::msg;
use crate::text::{phrases, Arg, Msg, Phrase};
use serde::Serialize;

/// What limits the speed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// Reading weights and cache from GPU memory.
    Memory,
    /// Tensor-core arithmetic.
    Compute,
    /// Traffic between GPUs.
    Interconnect,
}

impl Bound {
    /// "memory-bound", for the table.
    pub const fn label(self) -> &'static Phrase {
        match self {
            Bound::Memory => &phrases::BOUND_MEMORY,
            Bound::Compute => &phrases::BOUND_COMPUTE,
            Bound::Interconnect => &phrases::BOUND_INTERCONNECT,
        }
    }

    /// Why, in words for the page and the CLI.
    pub const fn explanation(self) -> &'static Phrase {
        match self {
            Bound::Memory => &phrases::WHY_MEMORY_BOUND,
            Bound::Compute => &phrases::WHY_COMPUTE_BOUND,
            Bound::Interconnect => &phrases::WHY_INTERCONNECT_BOUND,
        }
    }
}

/// The speed of one workload on one GPU configuration. Fields that do not
/// apply to the task are `None`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speed {
    pub bound: Bound,
    /// The precision the arithmetic runs in.
    pub compute_precision: ComputePrecision,
    /// Serving: tokens per second each sequence sees while decoding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decode_tokens_per_s: Option<f64>,
    /// Serving: output tokens per second across all running sequences and GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens_per_s: Option<f64>,
    /// Serving: the concurrency actually running, capped by the KV cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_concurrency: Option<u32>,
    /// Serving: GPUs per replica (tensor-parallel or layer-split group), and
    /// data-parallel replicas, in the layout that serves the most tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tensor_parallel: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replicas: Option<u32>,
    /// Serving: pipeline stages per replica, when its GPUs cannot split the
    /// attention heads evenly (`tensor_parallel` / this GPUs split each
    /// layer); absent for one stage and for llama.cpp's layer split.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_stages: Option<u32>,
    /// Serving: the concurrency where decoding turns compute-bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roofline_concurrency: Option<u32>,
    /// Serving: prompt tokens per second while prefilling one request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill_tokens_per_s: Option<f64>,
    /// Serving: seconds to the first token of one request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttft_s: Option<f64>,
    /// Training: tokens per second across all GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub train_tokens_per_s: Option<f64>,
    /// Training: model FLOPs utilisation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mfu: Option<f64>,
    /// Diffusion: denoiser iterations per second (one step of one batch).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps_per_s: Option<f64>,
    /// Image generation: seconds per image across all GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_per_image: Option<f64>,
    /// Video generation: seconds per clip across all GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_per_clip: Option<f64>,
    /// Audio: seconds of processing per second of audio (below 1 is faster
    /// than real time), across all GPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub realtime_factor: Option<f64>,
    /// Where a figure was estimated rather than taken from a datasheet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Msg>,
}

impl Speed {
    /// A speed with nothing filled in yet.
    pub(super) fn new(bound: Bound, compute_precision: ComputePrecision) -> Speed {
        Speed {
            bound,
            compute_precision,
            decode_tokens_per_s: None,
            output_tokens_per_s: None,
            running_concurrency: None,
            tensor_parallel: None,
            replicas: None,
            pipeline_stages: None,
            roofline_concurrency: None,
            prefill_tokens_per_s: None,
            ttft_s: None,
            train_tokens_per_s: None,
            mfu: None,
            steps_per_s: None,
            seconds_per_image: None,
            seconds_per_clip: None,
            realtime_factor: None,
            notes: Vec::new(),
        }
    }
}

impl Speed {
    /// Serving: how the GPUs are laid out ("2 replica(s) of 4 GPU(s)", and
    /// the pipeline stages when a replica has them).
    pub fn layout(&self) -> Option<Msg> {
        let (group, replicas) = (self.tensor_parallel?, self.replicas?);
        Some(match self.pipeline_stages {
            Some(stages) => msg!(
                phrases::LAYOUT_PIPELINE,
                replicas = replicas,
                group = group,
                stages = stages,
                tp = group / stages.max(1)
            ),
            None => msg!(phrases::LAYOUT, replicas = replicas, group = group),
        })
    }

    /// The figures that apply, as (label, value, unit), in the order the
    /// CLI and the page's breakdown list them.
    pub fn figures(&self) -> Vec<(&'static Phrase, f64, &'static Phrase)> {
        [
            (&phrases::FIGURE_DECODE, self.decode_tokens_per_s, &phrases::UNIT_TOKENS_PER_S),
            (&phrases::FIGURE_OUTPUT, self.output_tokens_per_s, &phrases::UNIT_TOKENS_PER_S),
            (&phrases::FIGURE_PREFILL, self.prefill_tokens_per_s, &phrases::UNIT_TOKENS_PER_S),
            (&phrases::FIGURE_TTFT, self.ttft_s, &phrases::UNIT_SECONDS),
            (&phrases::FIGURE_TRAINING, self.train_tokens_per_s, &phrases::UNIT_TOKENS_PER_S),
            (&phrases::FIGURE_DENOISER, self.steps_per_s, &phrases::UNIT_PER_SECOND),
            (&phrases::FIGURE_PER_IMAGE, self.seconds_per_image, &phrases::UNIT_SECONDS),
            (&phrases::FIGURE_PER_CLIP, self.seconds_per_clip, &phrases::UNIT_SECONDS),
            (&phrases::FIGURE_REALTIME, self.realtime_factor, &phrases::UNIT_SECONDS_PER_AUDIO_SECOND),
        ]
        .into_iter()
        .filter_map(|(label, value, unit)| value.map(|v| (label, v, unit)))
        .collect()
    }

    /// Seconds per unit of work, the figure speeds compare by (smaller is
    /// faster): per token each request sees while decoding, per trained
    /// token, per image, per clip, per second of audio.
    pub fn seconds_per_unit(&self) -> Option<f64> {
        self.decode_tokens_per_s
            .or(self.train_tokens_per_s)
            .map(|rate| 1.0 / rate)
            .or(self.seconds_per_image)
            .or(self.seconds_per_clip)
            .or(self.realtime_factor)
    }

    /// The figure that matters most for the task: decode speed and
    /// throughput for serving, tokens/s for training, seconds per image or
    /// clip, the real-time factor for audio. Three significant figures or so.
    pub fn headline(&self) -> Option<Msg> {
        let round = |value: f64| {
            let decimals = if value >= 100.0 {
                0
            } else if value >= 10.0 {
                1
            } else {
                2
            };
            Arg::Num(value, decimals)
        };
        if let (Some(decode), Some(total)) = (self.decode_tokens_per_s, self.output_tokens_per_s) {
            return Some(msg!(phrases::SPEED_SERVING, each = round(decode), total = round(total)));
        }
        if let Some(tokens) = self.train_tokens_per_s {
            return Some(msg!(phrases::SPEED_TRAINING, rate = round(tokens)));
        }
        if let Some(seconds) = self.seconds_per_image {
            return Some(msg!(phrases::SPEED_IMAGE, seconds = round(seconds)));
        }
        if let Some(seconds) = self.seconds_per_clip {
            return Some(msg!(phrases::SPEED_CLIP, seconds = round(seconds)));
        }
        self.realtime_factor.map(|factor| msg!(phrases::SPEED_REALTIME, factor = round(1.0 / factor)))
    }
}

/// The whole job's size and its hours at this speed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Job {
    /// Images or clips to make.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<u32>,
    /// Tokens: generated (serving) or trained on per epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epochs: Option<u32>,
    /// Hours of audio to transcribe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audio_hours: Option<f64>,
    /// Wall-clock hours of the job on these GPUs.
    pub hours: f64,
}
