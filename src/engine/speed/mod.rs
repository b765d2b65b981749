//! How fast a workload runs on `gpu_count` GPUs of one kind, from the
//! hardware's physics: token generation streams weights and the KV cache
//! through memory; prefill, training and denoising are bound by tensor
//! throughput; tensor parallelism pays for all-reduces over the link.
//! A few named efficiency constants per runtime, calibrated on
//! `../shared/data/calibration/`, turn peaks into achievable rates.
//! Every figure is an estimate.

// Calibration tables read ../shared/data with the native-only csv crate.
pub mod accuracy;
mod audio_gen;
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) mod calibration;
pub mod collectives;
mod datasheet;
pub mod llm;
mod media;
mod result;
mod training;
mod vision_speed;

pub use accuracy::FigureBand;
pub(crate) use datasheet::{bandwidth_of, peak_of};
pub use result::{
    AudioGenSpeed, Bound, Figures, ImageSpeed, Job, ServingSpeed, SpeechSpeed, Speed, TrainingSpeed, VideoSpeed,
};
pub use training::AttentionKernel;

use super::catalog::{Denoiser, Family};
use super::fabric::Placement;
use super::memory::Fit;
use super::setup::Setup;
use super::workload::Compilation;
use super::{Error, Gpu, Model, Runtime, Task, Workload};
use crate::units::SECONDS_PER_HOUR;

/// The speed of `workload` on the GPUs of `placement` (a count for one
/// node, or the nodes of a cluster) of `gpu`, given its memory
/// fit (serving needs it to cap the running concurrency) and the software
/// set-up that runs it there (`engine::setup`: `workload` already names its
/// runtime; the set-up's fallbacks become notes).
pub fn speed(
    workload: &Workload,
    model: &Model,
    gpu: &Gpu,
    placement: impl Into<Placement>,
    fit: &Fit,
    setup: &Setup,
) -> Result<Speed, Error> {
    let placement = placement.into();
    let gpu_count = placement.total_gpus();
    let family = model.family(workload.task)?;
    let mut speed = match family {
        Family::Serving(shape) => {
            let timed = workload.as_timed();
            let text = timed.with_image_tokens(shape.vision.as_ref());
            let speed = llm::serving_speed(&text, model, shape, gpu, placement, fit)?;
            match &shape.vision {
                Some(tower) => vision_speed::with_encoding(speed, &timed, shape, tower, gpu),
                None => Ok(speed),
            }
        }
        Family::Training(shape) => training::training_speed(
            workload,
            model,
            shape,
            gpu,
            placement,
            AttentionKernel::with_flash_attention(setup.flash_attention),
        ),
        Family::Diffusion(pipeline) => media::diffusion_speed(workload, pipeline, gpu, gpu_count),
        Family::Speech(speech) => media::speech_speed(workload, speech, gpu, gpu_count),
        Family::AudioGen(generator) => audio_gen::audio_gen_speed(workload, generator, gpu, gpu_count),
    }?;
    speed.notes.extend(setup.notes.iter().cloned());
    speed.error_bands = error_bands(workload, &family, gpu, &speed.figures);
    Ok(speed)
}

/// The bands of `figures`, as `workload` runs them (its runtime, its task)
/// on `gpu`: a band holds for the hardware its measurements ran on.
fn error_bands(workload: &Workload, family: &Family<'_>, gpu: &Gpu, figures: &Figures) -> Vec<FigureBand> {
    let named = |name: &str| accuracy::band_of(name).filter(|band| band.covers(&gpu.vendor));
    let pair = |figure, band| FigureBand { figure, band };
    match figures {
        Figures::Serving(serving) => {
            // vLLM's and transformers' published rows generate for one user;
            // a batch of several has not been compared.
            let one_user = serving.running_concurrency <= 1;
            let (generation, prompt) = match workload.serving_runtime() {
                Runtime::Llamacpp => (named("llama.cpp decode"), named("llama.cpp prefill")),
                Runtime::Trtllm => (named("TensorRT-LLM serving"), None),
                Runtime::Vllm if one_user => (named("vLLM batch-1 generation"), None),
                Runtime::Hf if one_user => (named("transformers batch-1 generation"), None),
                Runtime::Vllm | Runtime::Hf => (None, None),
            };
            // A vision-language model's first token waits for its images'
            // encoding: vLLM's published requests of one user time it.
            let vision = matches!(family, Family::Serving(shape) if shape.vision.is_some());
            let first_token = match workload.serving_runtime() {
                Runtime::Vllm if one_user && vision => named("vLLM vision-language batch 1"),
                _ => prompt,
            };
            vec![
                pair("decode_tokens_per_s", generation),
                pair("output_tokens_per_s", generation),
                pair("prefill_tokens_per_s", prompt),
                pair("ttft_s", first_token),
            ]
        }
        Figures::Training(_) => {
            let name = match workload.task {
                Task::Pretrain => "LLM pretraining",
                _ => "torchtune fine-tuning",
            };
            vec![pair("train_tokens_per_s", named(name))]
        }
        Figures::Image(_) | Figures::Video(_) => {
            let unet = matches!(family, Family::Diffusion(p) if p.denoiser == Denoiser::Unet);
            let band = match (unet, workload.compilation) {
                (true, Compilation::Eager) => named("diffusers eager it/s"),
                (true, Compilation::Compiled) => named("diffusers torch.compile it/s"),
                (false, Compilation::Eager) => named("DiT s/item"),
                (false, Compilation::Compiled) => named("DiT torch.compile s/item"),
            };
            let item = if matches!(figures, Figures::Image(_)) { "seconds_per_image" } else { "seconds_per_clip" };
            vec![pair("steps_per_s", band), pair(item, band)]
        }
        Figures::Speech(_) => vec![pair("realtime_factor", named("Whisper RTF"))],
        Figures::AudioGen(_) => {
            let band = named("audio generation RTF");
            vec![pair("realtime_factor", band), pair("seconds_per_clip", band)]
        }
    }
}

/// The job's hours at `speed`: the requests' output tokens for serving are
/// not a job (an endpoint runs as long as it is up), so serving reports the
/// hours to generate one request's output for every running sequence once.
pub fn job(workload: &Workload, speed: &Speed) -> Option<Job> {
    let hours = |seconds: f64| (seconds.is_finite() && seconds >= 0.0).then_some(seconds / SECONDS_PER_HOUR);
    match workload.task {
        Task::Infer => {
            let tokens = f64::from(workload.output_tokens) * f64::from(speed.serving()?.running_concurrency);
            Some(Job {
                n: None,
                tokens: Some(tokens),
                epochs: None,
                audio_hours: None,
                hours: hours(tokens / speed.output_tokens_per_s()?)?,
            })
        }
        Task::Finetune | Task::Pretrain => {
            let tokens = workload.training_tokens * f64::from(workload.epochs);
            Some(Job {
                n: None,
                tokens: Some(workload.training_tokens),
                epochs: Some(workload.epochs),
                audio_hours: None,
                hours: hours(tokens / speed.train_tokens_per_s()?)?,
            })
        }
        Task::Image | Task::Video => {
            let per_item = speed.seconds_per_item()?;
            Some(Job {
                n: Some(workload.items),
                tokens: None,
                epochs: None,
                audio_hours: None,
                hours: hours(per_item * f64::from(workload.items))?,
            })
        }
        Task::Audio | Task::Speech => Some(Job {
            n: None,
            tokens: None,
            epochs: None,
            audio_hours: Some(workload.audio_hours),
            hours: hours(workload.audio_hours * SECONDS_PER_HOUR * speed.realtime_factor()?)?,
        }),
        Task::Music => {
            let clip_s = match &speed.figures {
                Figures::AudioGen(generated) => generated.clip_seconds,
                _ => return None,
            };
            let audio_s = f64::from(workload.items) * clip_s;
            Some(Job {
                n: Some(workload.items),
                tokens: None,
                epochs: None,
                audio_hours: Some(audio_s / SECONDS_PER_HOUR),
                hours: hours(audio_s * speed.realtime_factor()?)?,
            })
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) mod tests;
