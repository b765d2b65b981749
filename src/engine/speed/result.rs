//! What the speed model reports: the figures of each task, what bounds
//! them, and the job's hours.

use super::accuracy::{self, FigureBand};
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

/// The speed of one workload on one GPU configuration: what bounds it, the
/// precision it computes in, and its task's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Speed {
    pub bound: Bound,
    /// The precision the arithmetic runs in.
    pub compute_precision: ComputePrecision,
    /// The figures of the task, inline in JSON (`decode_tokens_per_s`, …).
    #[serde(flatten)]
    pub figures: Figures,
    /// Where a figure was estimated rather than taken from a datasheet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Msg>,
    /// How sure each figure is: the error band of the published
    /// measurements of its family and runtime (`speed::accuracy`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub error_bands: Vec<FigureBand>,
}

impl Speed {
    /// A speed whose figures' bands `speed::speed` adds.
    pub fn of(bound: Bound, compute_precision: ComputePrecision, figures: Figures, notes: Vec<Msg>) -> Speed {
        Speed { bound, compute_precision, figures, notes, error_bands: Vec::new() }
    }

    /// The band of the figure `key` (its JSON key), if any was checked.
    pub fn band(&self, key: &str) -> Option<&'static accuracy::Band> {
        self.error_bands.iter().find(|b| b.figure == key).and_then(|b| b.band)
    }
}

/// One figure as the breakdown and the CLI list it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FigureLine {
    pub label: &'static Phrase,
    /// Its key in the JSON.
    pub key: &'static str,
    pub value: f64,
    pub unit: &'static Phrase,
    /// The error band of the measurements that checked it.
    pub band: Option<&'static accuracy::Band>,
}

/// Each family's figures. A new family is a new variant, and the `match`es
/// below say what it must answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Figures {
    Serving(ServingSpeed),
    Training(TrainingSpeed),
    Image(ImageSpeed),
    Video(VideoSpeed),
    Speech(SpeechSpeed),
    AudioGen(AudioGenSpeed),
}

/// LLM serving, in the layout that serves the most tokens.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ServingSpeed {
    /// Tokens per second each sequence sees while decoding.
    pub decode_tokens_per_s: f64,
    /// Output tokens per second across all running sequences and GPUs.
    pub output_tokens_per_s: f64,
    /// The concurrency actually running, capped by the KV cache.
    pub running_concurrency: u32,
    /// GPUs per replica: a tensor-parallel or layer-split group, with its
    /// pipeline stages. JSON keeps the key `tensor_parallel` that links and
    /// scripts read.
    #[serde(rename = "tensor_parallel")]
    pub gpus_per_replica: u32,
    /// Data-parallel replicas of that group.
    pub replicas: u32,
    /// Pipeline stages per replica, when its GPUs cannot split the
    /// attention heads evenly (`gpus_per_replica` / this GPUs split each
    /// layer); absent for one stage and for llama.cpp's layer split.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_stages: Option<u32>,
    /// The concurrency where decoding turns compute-bound.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roofline_concurrency: Option<u32>,
    /// Prompt tokens per second while prefilling one request; `None`
    /// without a throughput figure for the GPU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefill_tokens_per_s: Option<f64>,
    /// Seconds to the first token of one request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttft_s: Option<f64>,
}

impl ServingSpeed {
    /// Output tokens per second each running request gets over its whole
    /// life, its prompt's prefill and the others' included: the total
    /// shared among them, so that each × requests = total.
    pub fn tokens_per_s_each(&self) -> f64 {
        self.output_tokens_per_s / f64::from(self.running_concurrency.max(1))
    }

    /// Seconds a request of `output_tokens` new tokens takes from its
    /// arrival, the only one running: its first token, then a decode step
    /// for each of the others (what a benchmark's end-to-end latency at
    /// concurrency 1 measures); `None` without a first-token figure.
    pub fn lone_request_s(&self, output_tokens: u32) -> Option<f64> {
        Some(self.ttft_s? + f64::from(output_tokens.saturating_sub(1)) / self.decode_tokens_per_s)
    }
}

/// Fine-tuning and pretraining.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrainingSpeed {
    /// Tokens per second across all GPUs.
    pub train_tokens_per_s: f64,
    /// Model FLOPs utilisation.
    pub mfu: f64,
    /// Sequences per optimizer step across all replicas, as timed: the
    /// stated or default global batch, whole micro-batches on every replica.
    pub global_batch_sequences: f64,
    /// Micro-batches each data-parallel replica accumulates per step.
    pub micro_batches_per_step: f64,
    /// Tokens per optimizer step.
    pub global_batch_tokens: f64,
}

impl TrainingSpeed {
    /// "1,024 sequences (4.2M tokens) a step: 128 micro-batches on each
    /// data-parallel replica": the batch the speed assumes.
    pub fn batch(&self) -> Msg {
        msg!(
            phrases::GLOBAL_BATCH_AS_TIMED,
            sequences = Arg::Num(self.global_batch_sequences, 0),
            tokens = Arg::Num(self.global_batch_tokens / 1e6, 1),
            micro = Arg::Num(self.micro_batches_per_step, 0)
        )
    }
}

/// Image generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImageSpeed {
    /// Denoiser iterations per second (one step of one batch).
    pub steps_per_s: f64,
    /// Seconds per image across all GPUs.
    pub seconds_per_image: f64,
}

/// Video generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VideoSpeed {
    /// Denoiser iterations per second (one step of one batch).
    pub steps_per_s: f64,
    /// Seconds per clip across all GPUs.
    pub seconds_per_clip: f64,
}

/// Speech-to-text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpeechSpeed {
    /// Seconds of processing per second of audio (below 1 is faster than
    /// real time), across all GPUs.
    pub realtime_factor: f64,
}

/// Speech and music generation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AudioGenSpeed {
    /// Seconds of work per second of audio generated (below 1 is faster
    /// than real time), across the batch and all GPUs.
    pub realtime_factor: f64,
    /// Seconds from request to a clip, its batch generated together.
    pub seconds_per_clip: f64,
    /// The clip's length in seconds.
    pub clip_seconds: f64,
}

impl Speed {
    /// Serving's figures, for what only serving has.
    pub fn serving(&self) -> Option<&ServingSpeed> {
        match &self.figures {
            Figures::Serving(serving) => Some(serving),
            _ => None,
        }
    }

    /// Training's figures.
    pub fn training(&self) -> Option<&TrainingSpeed> {
        match &self.figures {
            Figures::Training(training) => Some(training),
            _ => None,
        }
    }

    /// Tokens per second each sequence sees while decoding (serving).
    pub fn decode_tokens_per_s(&self) -> Option<f64> {
        self.serving().map(|s| s.decode_tokens_per_s)
    }

    /// Output tokens per second across all sequences and GPUs (serving).
    pub fn output_tokens_per_s(&self) -> Option<f64> {
        self.serving().map(|s| s.output_tokens_per_s)
    }

    /// Tokens trained on per second (training).
    pub fn train_tokens_per_s(&self) -> Option<f64> {
        match &self.figures {
            Figures::Training(training) => Some(training.train_tokens_per_s),
            _ => None,
        }
    }

    /// Denoiser iterations per second (image and video generation).
    pub fn steps_per_s(&self) -> Option<f64> {
        match &self.figures {
            Figures::Image(image) => Some(image.steps_per_s),
            Figures::Video(video) => Some(video.steps_per_s),
            Figures::Serving(_) | Figures::Training(_) | Figures::Speech(_) | Figures::AudioGen(_) => None,
        }
    }

    /// Seconds per image or per clip (image and video generation).
    pub fn seconds_per_item(&self) -> Option<f64> {
        match &self.figures {
            Figures::Image(image) => Some(image.seconds_per_image),
            Figures::Video(video) => Some(video.seconds_per_clip),
            Figures::Serving(_) | Figures::Training(_) | Figures::Speech(_) | Figures::AudioGen(_) => None,
        }
    }

    /// Seconds of work per second of audio (speech-to-text and audio
    /// generation).
    pub fn realtime_factor(&self) -> Option<f64> {
        match &self.figures {
            Figures::Speech(speech) => Some(speech.realtime_factor),
            Figures::AudioGen(generated) => Some(generated.realtime_factor),
            _ => None,
        }
    }
}

impl Speed {
    /// Serving: how the GPUs are laid out ("2 replica(s) of 4 GPU(s)", and
    /// the pipeline stages when a replica has them).
    pub fn layout(&self) -> Option<Msg> {
        let serving = self.serving()?;
        let (group, replicas) = (serving.gpus_per_replica, serving.replicas);
        Some(match serving.pipeline_stages {
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
    pub fn figure_list(&self) -> Vec<(&'static Phrase, f64, &'static Phrase)> {
        self.figure_lines().into_iter().map(|f| (f.label, f.value, f.unit)).collect()
    }

    /// The figures that apply, each with its JSON key and error band.
    pub fn figure_lines(&self) -> Vec<FigureLine> {
        let tokens = &phrases::UNIT_TOKENS_PER_S;
        let seconds = &phrases::UNIT_SECONDS;
        let figures: Vec<(&'static Phrase, &'static str, Option<f64>, &'static Phrase)> = match &self.figures {
            Figures::Serving(s) => vec![
                (&phrases::FIGURE_DECODE, "decode_tokens_per_s", Some(s.decode_tokens_per_s), tokens),
                (&phrases::FIGURE_OUTPUT, "output_tokens_per_s", Some(s.output_tokens_per_s), tokens),
                (&phrases::FIGURE_PREFILL, "prefill_tokens_per_s", s.prefill_tokens_per_s, tokens),
                (&phrases::FIGURE_TTFT, "ttft_s", s.ttft_s, seconds),
            ],
            Figures::Training(t) => {
                vec![(&phrases::FIGURE_TRAINING, "train_tokens_per_s", Some(t.train_tokens_per_s), tokens)]
            }
            Figures::Image(i) => vec![
                (&phrases::FIGURE_DENOISER, "steps_per_s", Some(i.steps_per_s), &phrases::UNIT_PER_SECOND),
                (&phrases::FIGURE_PER_IMAGE, "seconds_per_image", Some(i.seconds_per_image), seconds),
            ],
            Figures::Video(v) => vec![
                (&phrases::FIGURE_DENOISER, "steps_per_s", Some(v.steps_per_s), &phrases::UNIT_PER_SECOND),
                (&phrases::FIGURE_PER_CLIP, "seconds_per_clip", Some(v.seconds_per_clip), seconds),
            ],
            Figures::Speech(a) => vec![(
                &phrases::FIGURE_REALTIME,
                "realtime_factor",
                Some(a.realtime_factor),
                &phrases::UNIT_SECONDS_PER_AUDIO_SECOND,
            )],
            Figures::AudioGen(g) => vec![
                (
                    &phrases::FIGURE_REALTIME,
                    "realtime_factor",
                    Some(g.realtime_factor),
                    &phrases::UNIT_SECONDS_PER_AUDIO_SECOND,
                ),
                (&phrases::FIGURE_PER_AUDIO_CLIP, "seconds_per_clip", Some(g.seconds_per_clip), seconds),
            ],
        };
        figures
            .into_iter()
            .filter_map(|(label, key, value, unit)| {
                value.map(|value| FigureLine { label, key, value, unit, band: self.band(key) })
            })
            .collect()
    }

    /// How sure the figures are, one line per band: "Decode, Output:
    /// ±10% typical: …", and the figures no published measurement of this
    /// runtime has checked. Empty for a speed timed outside
    /// `speed::speed` (no bands attached).
    pub fn accuracy(&self) -> Vec<Msg> {
        if self.error_bands.is_empty() {
            return Vec::new();
        }
        let lines = self.figure_lines();
        let mut bands: Vec<Option<&'static accuracy::Band>> = Vec::new();
        for line in &lines {
            if !bands.contains(&line.band) {
                bands.push(line.band);
            }
        }
        bands
            .into_iter()
            .map(|band| {
                let named = lines.iter().filter(|l| l.band == band).map(|l| l.label).collect();
                let how = band.map_or_else(accuracy::unchecked, accuracy::Band::describe);
                msg!(phrases::ACCURACY_OF, figures = Arg::List(named), how = how)
            })
            .collect()
    }

    /// Seconds per unit of work, the figure speeds compare by (smaller is
    /// faster): per token each request sees while decoding, per trained
    /// token, per image, per clip, per second of audio.
    pub fn seconds_per_unit(&self) -> f64 {
        match &self.figures {
            Figures::Serving(s) => 1.0 / s.decode_tokens_per_s,
            Figures::Training(t) => 1.0 / t.train_tokens_per_s,
            Figures::Image(i) => i.seconds_per_image,
            Figures::Video(v) => v.seconds_per_clip,
            Figures::Speech(a) => a.realtime_factor,
            Figures::AudioGen(g) => g.realtime_factor,
        }
    }

    /// The figure that matters most for the task: decode speed and
    /// throughput for serving, tokens/s for training, seconds per image or
    /// clip, the real-time factor for audio. Three significant figures or so.
    pub fn headline(&self) -> Msg {
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
        match &self.figures {
            Figures::Serving(s) if s.running_concurrency <= 1 => {
                msg!(
                    phrases::SPEED_SERVING_ONE,
                    each = round(s.tokens_per_s_each()),
                    streaming = round(s.decode_tokens_per_s)
                )
            }
            Figures::Serving(s) => msg!(
                phrases::SPEED_SERVING,
                each = round(s.tokens_per_s_each()),
                streaming = round(s.decode_tokens_per_s),
                total = round(s.output_tokens_per_s)
            ),
            Figures::Training(t) => msg!(phrases::SPEED_TRAINING, rate = round(t.train_tokens_per_s)),
            Figures::Image(i) => msg!(phrases::SPEED_IMAGE, seconds = round(i.seconds_per_image)),
            Figures::Video(v) => msg!(phrases::SPEED_CLIP, seconds = round(v.seconds_per_clip)),
            Figures::Speech(a) => msg!(phrases::SPEED_REALTIME, factor = round(1.0 / a.realtime_factor)),
            Figures::AudioGen(g) => msg!(
                phrases::SPEED_AUDIO_GEN,
                factor = round(1.0 / g.realtime_factor),
                seconds = round(g.seconds_per_clip),
                clip = round(g.clip_seconds)
            ),
        }
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
