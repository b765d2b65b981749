//! How fast a workload runs on `gpu_count` GPUs of one kind, from the
//! hardware's physics: token generation streams weights and the KV cache
//! through memory; prefill, training and denoising are bound by tensor
//! throughput; tensor parallelism pays for all-reduces over the link.
//! A few named efficiency constants per runtime, calibrated on
//! `../shared/data/calibration/`, turn peaks into achievable rates.
//! Every figure is an estimate.

// Calibration tables read ../shared/data with the native-only csv crate.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod calibration;
pub mod llm;
mod media;
mod training;

use super::hardware::ComputePrecision;
use super::memory::Fit;
use super::{Error, Gpu, Model, Task, Workload};
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
    /// Why, in words for the page and the CLI.
    pub const fn explanation(self) -> &'static str {
        match self {
            Bound::Memory => {
                "memory-bound: each step streams the weights and KV cache from GPU memory, so faster memory (HBM) or fewer bytes per weight help, and the arithmetic units sit mostly idle"
            }
            Bound::Compute => "compute-bound: tensor-core arithmetic limits it, so a faster GPU or FP8 helps",
            Bound::Interconnect => {
                "interconnect-bound: GPUs wait on each other, so NVLink, fewer GPUs per replica or more work per step help"
            }
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
    pub notes: Vec<String>,
}

impl Speed {
    /// A speed with nothing filled in yet.
    fn new(bound: Bound, compute_precision: ComputePrecision) -> Speed {
        Speed {
            bound,
            compute_precision,
            decode_tokens_per_s: None,
            output_tokens_per_s: None,
            running_concurrency: None,
            tensor_parallel: None,
            replicas: None,
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
    /// The figures that apply, as (label, value, unit), in the order the
    /// CLI and the page's breakdown list them.
    pub fn figures(&self) -> Vec<(&'static str, f64, &'static str)> {
        [
            ("Decode per request", self.decode_tokens_per_s, "tokens/s"),
            ("Output, all requests", self.output_tokens_per_s, "tokens/s"),
            ("Prefill", self.prefill_tokens_per_s, "tokens/s"),
            ("Time to first token", self.ttft_s, "s"),
            ("Training", self.train_tokens_per_s, "tokens/s"),
            ("Denoiser steps", self.steps_per_s, "per s"),
            ("Per image", self.seconds_per_image, "s"),
            ("Per clip", self.seconds_per_clip, "s"),
            ("Real-time factor", self.realtime_factor, "s per s of audio"),
        ]
        .into_iter()
        .filter_map(|(label, value, unit)| value.map(|v| (label, v, unit)))
        .collect()
    }

    /// The figure that matters most for the task, in words: decode speed and
    /// throughput for serving, tokens/s for training, seconds per image or
    /// clip, the real-time factor for audio.
    pub fn headline(&self) -> String {
        let round = |value: f64| {
            if value >= 100.0 {
                format!("{value:.0}")
            } else if value >= 10.0 {
                format!("{value:.1}")
            } else {
                format!("{value:.2}")
            }
        };
        if let (Some(decode), Some(total)) = (self.decode_tokens_per_s, self.output_tokens_per_s) {
            return format!("{} tok/s each, {} total", round(decode), round(total));
        }
        if let Some(tokens) = self.train_tokens_per_s {
            return format!("{} tok/s", round(tokens));
        }
        if let Some(seconds) = self.seconds_per_image {
            return format!("{} s/image", round(seconds));
        }
        if let Some(seconds) = self.seconds_per_clip {
            return format!("{} s/clip", round(seconds));
        }
        if let Some(factor) = self.realtime_factor {
            return format!("{}× real time", round(1.0 / factor));
        }
        String::new()
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

/// The speed of `workload` on `gpu_count` GPUs of `gpu`, given its memory
/// fit (serving needs it to cap the running concurrency).
pub fn speed(workload: &Workload, model: &Model, gpu: &Gpu, gpu_count: u32, fit: &Fit) -> Result<Speed, Error> {
    match workload.task {
        Task::Infer => llm::serving_speed(workload, model, gpu, gpu_count, fit),
        Task::Finetune | Task::Pretrain => training::training_speed(workload, model, gpu, gpu_count),
        Task::Image | Task::Video => media::diffusion_speed(workload, model, gpu, gpu_count),
        Task::Audio => media::speech_speed(workload, model, gpu, gpu_count),
    }
}

/// The job's hours at `speed`: the requests' output tokens for serving are
/// not a job (an endpoint runs as long as it is up), so serving reports the
/// hours to generate one request's output for every running sequence once.
pub fn job(workload: &Workload, speed: &Speed) -> Option<Job> {
    let hours = |seconds: f64| (seconds.is_finite() && seconds >= 0.0).then_some(seconds / 3600.0);
    match workload.task {
        Task::Infer => {
            let tokens = f64::from(workload.output_tokens) * f64::from(speed.running_concurrency?);
            Some(Job {
                n: None,
                tokens: Some(tokens),
                epochs: None,
                audio_hours: None,
                hours: hours(tokens / speed.output_tokens_per_s?)?,
            })
        }
        Task::Finetune | Task::Pretrain => {
            let tokens = workload.training_tokens * f64::from(workload.epochs);
            Some(Job {
                n: None,
                tokens: Some(workload.training_tokens),
                epochs: Some(workload.epochs),
                audio_hours: None,
                hours: hours(tokens / speed.train_tokens_per_s?)?,
            })
        }
        Task::Image | Task::Video => {
            let per_item = speed.seconds_per_image.or(speed.seconds_per_clip)?;
            Some(Job {
                n: Some(workload.items),
                tokens: None,
                epochs: None,
                audio_hours: None,
                hours: hours(per_item * f64::from(workload.items))?,
            })
        }
        Task::Audio => Some(Job {
            n: None,
            tokens: None,
            epochs: None,
            audio_hours: Some(workload.audio_hours),
            hours: hours(workload.audio_hours * 3600.0 * speed.realtime_factor?)?,
        }),
    }
}

/// The GPU's memory bandwidth in bytes/s, or an error naming what is missing.
fn bandwidth_of(gpu: &Gpu) -> Result<f64, Error> {
    super::hardware::memory_bandwidth(gpu).ok_or_else(|| Error::InvalidField {
        field: "gpu",
        message: format!("gpus.csv gives no memory bandwidth for the {}, so its speed cannot be estimated", gpu.name),
    })
}

/// Peak FLOP/s at `compute`, at the clock the board's power sustains,
/// noting an estimate; an error naming what is missing.
fn peak_of(gpu: &Gpu, compute: ComputePrecision, notes: &mut Vec<String>) -> Result<f64, Error> {
    let peak = super::hardware::peak_tflops(gpu, compute).ok_or_else(|| Error::InvalidField {
        field: "gpu",
        message: format!(
            "gpus.csv gives no {} throughput for the {}, so its compute speed cannot be estimated",
            compute.label(),
            gpu.name
        ),
    })?;
    if let Some(note) = peak.estimated {
        notes.push(note);
    }
    let share = match super::hardware::sustained_clock(gpu) {
        Some((share, note)) => {
            notes.push(note);
            share
        }
        None => 1.0,
    };
    Ok(peak.value * 1e12 * share)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
