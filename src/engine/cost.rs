//! What a whole job costs on one offer: GPU time as the provider bills it
//! (increment and minimum charge, start-up included), spot interruptions,
//! storage and egress where the provider's prices are known, and the cost
//! per unit of output.

use super::memory::diffusion::frame;
use super::memory::MemoryBreakdown;
use super::speed::Speed;
use super::{FinetuneMethod, Model, Offer, Provider, SpotPolicy, Task, Workload};
use crate::text::{phrases, Phrase};
use crate::units::{BYTES_PER_GB, SECONDS_PER_HOUR};
use serde::Serialize;

/// Seconds from asking for an instance to running the job: boot, drivers,
/// container pull. An estimate (cloud GPU VMs typically take 2–5 minutes).
pub const BOOT_S: f64 = 180.0;

/// Bytes per second when downloading weights to a fresh instance (Hugging
/// Face Hub or object storage into a cloud VM). An estimate.
pub const DOWNLOAD_BYTES_PER_S: f64 = 500e6;

/// Spot interruptions per hour of spot capacity: one per 20 hours. An
/// assumption: providers publish no rates for GPU spot capacity (AWS's Spot
/// Instance Advisor gives monthly bands by instance type).
pub const SPOT_INTERRUPTIONS_PER_HOUR: f64 = 0.05;

/// Unexpected interruptions per GPU-hour of a training job: Llama 3 405B's
/// pretraining saw 419 in a 54-day snapshot on 16,384 H100s, 78% of them
/// hardware (Llama 3 paper, §3.3.4 and Table 5), one per 50,700
/// GPU-hours. Any GPU's failure stops a synchronous job, so a 16,384-GPU
/// run stops about every 3 hours and one node of 8 every 9 months. (OPT-175B
/// restarted about 105 times in two months on 992 A100s, Zhang et al. 2022:
/// 3.6 times this rate, on 2021 hardware and software.)
pub const FAILURES_PER_GPU_HOUR: f64 = 419.0 / (54.0 * 24.0 * 16_384.0);

/// Days per month, 365.25 / 12.
pub const DAYS_PER_MONTH: f64 = 30.4375;

/// Hours per month, as storage is priced (GB-month).
const HOURS_PER_MONTH: f64 = DAYS_PER_MONTH * 24.0;

/// Bytes stored per token of a tokenized dataset (32-bit token ids).
const DATASET_BYTES_PER_TOKEN: f64 = 4.0;

/// Bytes of a PNG image per pixel: lossless RGB compresses natural images
/// to about half of 3 bytes per pixel (an estimate).
const IMAGE_BYTES_PER_PIXEL: f64 = 1.5;

/// Bytes per second of video: H.264 at 5 Mbit/s, a common web rate.
const VIDEO_BYTES_PER_SECOND: f64 = 625_000.0;

/// Bytes of transcript per hour of speech: about 9,000 words of ~6 bytes.
const TRANSCRIPT_BYTES_PER_HOUR: f64 = 54_000.0;

/// Bytes per second of generated audio sent back: 16-bit mono PCM at 24
/// kHz, the output rate of Bark, XTTS, F5-TTS, Kokoro and CosyVoice 2
/// (models_more.csv `sample_rate_hz`); MusicGen's 32 kHz and Parler's
/// 44.1 kHz are larger, and compressed formats far smaller.
const GENERATED_AUDIO_BYTES_PER_SECOND: f64 = 48_000.0;

/// Bytes of a generated token returned to the client (JSON, UTF-8).
const RESPONSE_BYTES_PER_TOKEN: f64 = 4.0;

/// The unit of output that costs are quoted per.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    MillionOutputTokens,
    /// A batch job of requests (`Workload::batch_requests`).
    ThousandRequests,
    ThousandImages,
    Clip,
    AudioHour,
    /// Training: a million tokens trained (epochs counted), so that the
    /// column tells runs of different lengths apart rather than repeating
    /// the job's cost (issue 40).
    MillionTrainingTokens,
}

impl Unit {
    /// What `workload`'s costs are quoted per: its task's unit, or for a
    /// batch of requests, a thousand of them.
    pub fn for_workload(workload: &Workload) -> Unit {
        if workload.is_batch() {
            Unit::ThousandRequests
        } else {
            Unit::for_task(workload.task)
        }
    }

    pub const fn for_task(task: Task) -> Unit {
        match task {
            Task::Infer => Unit::MillionOutputTokens,
            Task::Image => Unit::ThousandImages,
            Task::Video => Unit::Clip,
            Task::Audio | Task::Speech | Task::Music => Unit::AudioHour,
            Task::Finetune | Task::Pretrain => Unit::MillionTrainingTokens,
        }
    }

    pub const fn label(self) -> &'static Phrase {
        match self {
            Unit::MillionOutputTokens => &phrases::UNIT_MILLION_TOKENS,
            Unit::ThousandRequests => &phrases::UNIT_THOUSAND_REQUESTS,
            Unit::ThousandImages => &phrases::UNIT_THOUSAND_IMAGES,
            Unit::Clip => &phrases::UNIT_CLIP,
            Unit::AudioHour => &phrases::UNIT_AUDIO_HOUR,
            Unit::MillionTrainingTokens => &phrases::UNIT_MILLION_TRAINING_TOKENS,
        }
    }
}

/// Share of spot run time a job of `nodes` instances loses to
/// interruptions: any node's interruption stops the whole job, which then
/// restarts (`startup_s`) and, for training, redoes the work since its last
/// checkpoint (half an interval on average).
pub fn spot_lost_share(workload: &Workload, nodes: u32, startup_s: f64) -> f64 {
    let redone = match workload.task {
        Task::Finetune | Task::Pretrain => f64::from(workload.checkpoint_minutes) * 60.0 / 2.0,
        _ => 0.0,
    };
    SPOT_INTERRUPTIONS_PER_HOUR * f64::from(nodes.max(1)) * (startup_s + redone) / SECONDS_PER_HOUR
}

/// How much of a training run's wall-clock time trains: the rest goes to
/// restarts after failures and to redoing the work since the last
/// checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Goodput {
    /// Share of the run that trains (0–1).
    pub share: f64,
    /// Hours of the run lost to failures.
    pub lost_hours: f64,
    /// Whether the user stated the share (`goodput=`) instead of the model.
    pub stated: bool,
}

/// Training time lost to failures per unit of work on `gpus` GPUs: each
/// failure (`FAILURES_PER_GPU_HOUR` per GPU) costs a restart (a replacement
/// instance boots, `BOOT_S`; every rank reloads only its own checkpoint
/// shard, from the cluster's storage in parallel) and half a checkpoint
/// interval of redone work; or what `goodput=` states. On 16,384 GPUs with
/// checkpoints every 30 minutes: 9.7% lost, against Llama 3's "higher than
/// 90% effective training time" (Llama 3 paper, §3.3.4).
pub fn failure_lost_share(workload: &Workload, gpus: u32) -> f64 {
    if !matches!(workload.task, Task::Finetune | Task::Pretrain) {
        return 0.0;
    }
    if let Some(pct) = workload.goodput_pct {
        return 100.0 / pct.clamp(1.0, 100.0) - 1.0;
    }
    let redone = f64::from(workload.checkpoint_minutes) * 60.0 / 2.0;
    FAILURES_PER_GPU_HOUR * f64::from(gpus.max(1)) * (BOOT_S + redone) / SECONDS_PER_HOUR
}

/// Share of its time a spot job may lose to interruptions before it is
/// not worth running on spot: past half, it spends more time restarting
/// than working, and the spot discount no longer pays for that.
pub const SPOT_MAX_LOST_SHARE: f64 = 0.5;

/// Whether spot capacity may run this workload, and if not, why.
pub fn spot_allowed(workload: &Workload) -> Result<(), &'static Phrase> {
    match (workload.spot, workload.task) {
        (SpotPolicy::No, _) => Err(&phrases::SPOT_REFUSED_NO),
        (SpotPolicy::Yes, _) => Ok(()),
        // A batch job restarts its unfinished requests, as an image batch
        // does; an endpoint's users cannot wait for that.
        (SpotPolicy::Auto, _) if workload.is_endpoint() => Err(&phrases::SPOT_REFUSED_ENDPOINT),
        // A pretraining run holds its nodes for weeks: reserved or on-demand
        // capacity (the product guide: "pretrain: … reserved or on-demand
        // capacity"; issue 40: a 27-day run ranked first on spot).
        (SpotPolicy::Auto, Task::Pretrain) => Err(&phrases::SPOT_REFUSED_PRETRAIN),
        (SpotPolicy::Auto, _) => Ok(()),
    }
}

/// Which of a provider's rules a cost assumes because the provider
/// publishes none (issue 27): each assumption is the least favourable rule
/// a provider in the snapshot publishes, so the total is an upper bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct Assumed {
    /// The billing increment: billed per started hour.
    pub billing: bool,
    /// The storage price.
    pub storage: bool,
    /// The egress price.
    pub egress: bool,
}

impl Assumed {
    pub const fn any(self) -> bool {
        self.billing || self.storage || self.egress
    }
}

/// What a cost assumes where a provider publishes no rule: the coarsest
/// billing increment and the highest storage and egress prices any
/// provider of the snapshot publishes (2026-09: per hour, OVHcloud;
/// $0.20/GB-month, Lambda's filesystem; $0.12/GB, Google Cloud).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fallback {
    pub increment_s: f64,
    pub storage_usd_per_gb_month: f64,
    pub egress_usd_per_gb: f64,
}

/// The fallback when no provider publishes a rule at all (a snapshot of
/// one marketplace): per hour, the product brief's coarse case.
const FALLBACK_INCREMENT_S: f64 = SECONDS_PER_HOUR;

impl Fallback {
    pub fn of(providers: &[Provider]) -> Fallback {
        let highest = |rate: fn(&Provider) -> Option<f64>| providers.iter().filter_map(rate).fold(0.0, f64::max);
        let increment = highest(|p| p.billing_increment_s.map(f64::from));
        Fallback {
            increment_s: if increment > 0.0 { increment } else { FALLBACK_INCREMENT_S },
            storage_usd_per_gb_month: highest(|p| p.block_storage_usd_per_gb_month)
                .max(highest(|p| p.network_storage_usd_per_gb_month)),
            egress_usd_per_gb: highest(|p| p.egress_usd_per_gb),
        }
    }
}

/// A provider's rules as a job is costed: what it publishes, and the
/// fallback for what it does not.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    pub increment_s: f64,
    /// Zero where none is published: the minimum is not assumed.
    pub minimum_s: f64,
    /// Storage for one machine: block storage, else the provider's network
    /// storage (Lambda sells only filesystems).
    pub storage_usd_per_gb_month: f64,
    /// Storage a cluster's nodes share: network storage, else block.
    pub shared_storage_usd_per_gb_month: f64,
    pub egress_usd_per_gb: f64,
    pub assumed: Assumed,
}

impl Rules {
    pub fn of(provider: Option<&Provider>, fallback: &Fallback) -> Rules {
        let increment = provider.and_then(|p| p.billing_increment_s).filter(|&s| s > 0).map(f64::from);
        let block = provider.and_then(|p| p.block_storage_usd_per_gb_month);
        let network = provider.and_then(|p| p.network_storage_usd_per_gb_month);
        let egress = provider.and_then(|p| p.egress_usd_per_gb);
        let storage = block.or(network);
        Rules {
            increment_s: increment.unwrap_or(fallback.increment_s),
            minimum_s: provider.and_then(|p| p.minimum_charge_s).map_or(0.0, f64::from),
            storage_usd_per_gb_month: storage.unwrap_or(fallback.storage_usd_per_gb_month),
            shared_storage_usd_per_gb_month: network.or(block).unwrap_or(fallback.storage_usd_per_gb_month),
            egress_usd_per_gb: egress.unwrap_or(fallback.egress_usd_per_gb),
            assumed: Assumed { billing: increment.is_none(), storage: storage.is_none(), egress: egress.is_none() },
        }
    }

    /// Seconds billed for `seconds` of use: rounded up to the billing
    /// increment, at least the minimum charge.
    pub fn billed_seconds(&self, seconds: f64) -> f64 {
        ((seconds / self.increment_s).ceil() * self.increment_s).max(self.minimum_s)
    }
}

/// The costed job on one offer, on-demand or spot.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Costed {
    pub spot: bool,
    /// USD per hour for the instance at this capacity type.
    pub price_per_hour: f64,
    /// Instances the job uses (serving: replicas for the stated load).
    pub instances: u32,
    /// Nodes each instance of the job is: more than one for a cluster.
    pub nodes: u32,
    /// Wall-clock hours of one job (serving: one month of uptime),
    /// start-up and expected spot interruptions included.
    pub job_hours: f64,
    /// Hours billed for it per instance.
    pub billed_hours: f64,
    /// The rules the provider does not publish, assumed at their least
    /// favourable.
    pub assumed: Assumed,
    pub gpu_cost: f64,
    pub storage_cost: f64,
    pub egress_cost: f64,
    /// GPU time plus storage and egress.
    pub job_cost: f64,
    /// Batch and training: `runs` jobs a month; serving: the month.
    pub monthly_cost: f64,
    pub cost_per_unit: f64,
    pub unit: Unit,
    /// GPU-hours billed.
    pub gpu_hours: f64,
    /// Training: the share of the run that trains, failures and restarts
    /// taken out, and the hours they cost (within `job_hours`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goodput: Option<Goodput>,
    /// Serving a vision-language model with images: USD per 1,000 images
    /// described, each request's cost shared by its images.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_per_thousand_images: Option<f64>,
}

/// Bytes of weights a fresh instance downloads and keeps: every
/// parameter of the model (all pipeline components) at its precision.
fn model_bytes(workload: &Workload, model: &Model) -> f64 {
    model.params * workload.weight_precision.bits_per_weight() / 8.0
}

/// Seconds a fresh rented instance takes before it works: it boots and
/// downloads the weights. The visitor's own machine takes none.
pub fn rented_startup_s(workload: &Workload, model: &Model) -> f64 {
    BOOT_S + model_bytes(workload, model) / DOWNLOAD_BYTES_PER_S
}

/// What one job (serving: one month of uptime) asks of an offer before it
/// is billed.
struct Work {
    /// Seconds of work on each instance.
    seconds: f64,
    /// Bytes kept in storage while it runs.
    stored_bytes: f64,
    /// Bytes sent out of the cloud.
    egress_bytes: f64,
    /// Units of output the cost is quoted per.
    units: f64,
    /// Instances it runs on (serving: replicas for the stated load).
    instances: f64,
}

/// The work `workload` makes at `speed`, from the model's own bytes and
/// the memory it was sized with. `None` when the speed lacks the figure the
/// task needs.
fn work(workload: &Workload, model: &Model, memory: &MemoryBreakdown, speed: &Speed, rental: Rental) -> Option<Work> {
    let weights = model_bytes(workload, model);
    Some(match workload.task {
        Task::Infer if workload.is_batch() => {
            // One instance works through the requests, as many at once as
            // its speed was timed with (`Workload::as_timed`).
            let tokens = f64::from(workload.batch_requests) * f64::from(workload.output_tokens);
            Work {
                seconds: tokens / speed.output_tokens_per_s()?,
                stored_bytes: weights,
                egress_bytes: tokens * RESPONSE_BYTES_PER_TOKEN,
                units: f64::from(workload.batch_requests) / 1000.0,
                instances: 1.0,
            }
        }
        Task::Infer => {
            let per_instance = speed.output_tokens_per_s()?;
            let uptime_s = workload.uptime_hours * SECONDS_PER_HOUR;
            // Replicas for the stated load (or as the latency plan sized
            // them); one when none is stated.
            let daily_tokens = workload.daily_requests() * f64::from(workload.output_tokens);
            let instances = match rental.instances {
                Some(planned) => f64::from(planned.max(1)),
                None if daily_tokens > 0.0 => (daily_tokens / (per_instance * uptime_s)).ceil().max(1.0),
                None => 1.0,
            };
            // Tokens a month: the stated load, else the instances running flat out.
            let monthly_tokens = if daily_tokens > 0.0 {
                daily_tokens * DAYS_PER_MONTH
            } else {
                per_instance * uptime_s * DAYS_PER_MONTH
            };
            let units = monthly_tokens / 1e6;
            Work {
                seconds: uptime_s,
                stored_bytes: weights,
                egress_bytes: monthly_tokens * RESPONSE_BYTES_PER_TOKEN,
                units,
                instances,
            }
        }
        Task::Finetune | Task::Pretrain => {
            let tokens = workload.training_tokens * f64::from(workload.epochs);
            let work = tokens / speed.train_tokens_per_s()?;
            let full = workload.task == Task::Pretrain || workload.method == FinetuneMethod::Full;
            // A checkpoint holds the trained weights and optimizer state.
            let checkpoint = if full {
                memory.weights_bytes + memory.optimizer_bytes
            } else {
                memory.adapters_bytes + memory.optimizer_bytes
            };
            let dataset = workload.training_tokens * DATASET_BYTES_PER_TOKEN;
            let result = if full { memory.weights_bytes } else { memory.adapters_bytes };
            Work {
                seconds: work,
                stored_bytes: weights + checkpoint + dataset,
                egress_bytes: result,
                units: tokens / 1e6,
                instances: 1.0,
            }
        }
        Task::Image | Task::Video => {
            let items = f64::from(workload.items);
            let per_item = speed.seconds_per_item()?;
            // The model's own frame size and clip length unless the
            // workload sets them, as the memory and speed models use.
            let pipeline = model.diffusion()?;
            let (resolution, frames) = frame(workload, pipeline);
            let item_bytes = match pipeline.fps {
                None => f64::from(resolution.width) * f64::from(resolution.height) * IMAGE_BYTES_PER_PIXEL,
                Some(fps) => f64::from(frames) / f64::from(fps) * VIDEO_BYTES_PER_SECOND,
            };
            let out = items * item_bytes;
            let units = if workload.task == Task::Image { items / 1000.0 } else { items };
            // Whole batches: images, and clips no runtime splits, run a
            // batch per busy GPU (replicas); a clip's batch spreads over
            // the GPUs where a runtime splits it. A job of fewer items than
            // the GPUs keeps the others idle (one image on eight GPUs takes
            // one image's time, not an eighth).
            let gpus = memory.gpu_count.max(1);
            let replicas = pipeline.pipelines_at_once(workload.task, gpus, workload.items, workload.batch);
            let per_round = f64::from(workload.batch.max(1)) * f64::from(replicas);
            let seconds = (items / per_round).ceil() * per_round * per_item;
            Work { seconds, stored_bytes: weights + out, egress_bytes: out, units, instances: 1.0 }
        }
        Task::Audio => {
            let audio_s = workload.audio_hours * SECONDS_PER_HOUR;
            let work = audio_s * speed.realtime_factor()?;
            // The audio itself is kept while it is transcribed: 16 kHz 16-bit mono.
            let audio_bytes = audio_s * 32_000.0;
            let transcripts = workload.audio_hours * TRANSCRIPT_BYTES_PER_HOUR;
            Work {
                seconds: work,
                stored_bytes: weights + audio_bytes,
                egress_bytes: transcripts,
                units: workload.audio_hours,
                instances: 1.0,
            }
        }
        Task::Speech | Task::Music => {
            let generator = model.audio_generator()?;
            let audio_s = match workload.task {
                Task::Speech => workload.audio_hours * SECONDS_PER_HOUR,
                _ => f64::from(workload.items) * workload.clip_seconds_for(generator),
            };
            let out = audio_s * GENERATED_AUDIO_BYTES_PER_SECOND;
            Work {
                seconds: audio_s * speed.realtime_factor()?,
                stored_bytes: weights + out,
                egress_bytes: out,
                units: audio_s / SECONDS_PER_HOUR,
                instances: 1.0,
            }
        }
    })
}

/// Where a job runs on an offer: on spot or on-demand capacity, on `nodes`
/// instances joined into one cluster (1 for one machine), each working
/// `startup_s` seconds after it is started (they start together).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rental {
    pub spot: bool,
    pub nodes: u32,
    pub startup_s: f64,
    /// Serving to latency targets: the instances the plan sized
    /// (`serving_plan`), instead of those the stated daily load needs at
    /// full throughput.
    pub instances: Option<u32>,
}

/// A job's wall-clock seconds on a rental, and the seconds of them that
/// failures cost a training run.
struct Run {
    seconds: f64,
    failures_s: f64,
}

/// The work of one job and its run on `rental`: start-up, the work, the
/// work a spot job loses to interruptions (any node's interruption stops a
/// cluster) and the time a training run loses to failures on its GPUs.
fn run(
    workload: &Workload,
    model: &Model,
    memory: &MemoryBreakdown,
    speed: &Speed,
    rental: Rental,
) -> Option<(Work, Run)> {
    let work = work(workload, model, memory, speed, rental)?;
    if !work.seconds.is_finite() || work.seconds < 0.0 {
        return None;
    }
    let lost = if rental.spot { spot_lost_share(workload, rental.nodes, rental.startup_s) } else { 0.0 };
    let failures_s = work.seconds * failure_lost_share(workload, memory.gpu_count);
    let seconds = rental.startup_s + work.seconds * (1.0 + lost) + failures_s;
    Some((work, Run { seconds, failures_s }))
}

/// Wall-clock hours of one job (not serving's month) on `rental`, whatever
/// the price: what a deadline is checked against.
pub fn job_hours(
    workload: &Workload,
    model: &Model,
    memory: &MemoryBreakdown,
    speed: &Speed,
    rental: Rental,
) -> Option<f64> {
    run(workload, model, memory, speed, rental).map(|(_, run)| run.seconds / SECONDS_PER_HOUR)
}

/// Costs `workload` on `offer` at `speed` as `rental` rents it, billed by
/// `rules`. A cluster pays every node for the whole run, and keeps its data
/// and checkpoints once on shared network storage. `None` when the offer
/// has no price of that kind or the speed lacks the figure the task needs.
pub fn cost(
    workload: &Workload,
    model: &Model,
    memory: &MemoryBreakdown,
    speed: &Speed,
    offer: &Offer,
    rules: &Rules,
    rental: Rental,
) -> Option<Costed> {
    let Rental { spot, nodes, .. } = rental;
    let nodes = nodes.max(1);
    let price = if spot { offer.spot_price? } else { offer.price? };
    let unit = Unit::for_workload(workload);
    // An endpoint is billed by the month; a batch of requests, as every
    // other job, by its run.
    let endpoint = workload.is_endpoint();
    let gb = |bytes: f64| bytes / BYTES_PER_GB;
    let storage_rate = if nodes > 1 { rules.shared_storage_usd_per_gb_month } else { rules.storage_usd_per_gb_month };

    let (Work { stored_bytes, egress_bytes, units, instances, .. }, Run { seconds: run_s, failures_s }) =
        run(workload, model, memory, speed, rental)?;

    // An endpoint up all day runs the month through; one up part of the day
    // starts (and pays its minimum charge) every day.
    let billed_s = rules.billed_seconds(run_s);
    let (job_hours, billed_hours) = match endpoint {
        true if workload.uptime_hours >= 24.0 => (HOURS_PER_MONTH, HOURS_PER_MONTH),
        true => (run_s / SECONDS_PER_HOUR * DAYS_PER_MONTH, billed_s / SECONDS_PER_HOUR * DAYS_PER_MONTH),
        false => (run_s / SECONDS_PER_HOUR, billed_s / SECONDS_PER_HOUR),
    };
    let gpu_cost = price * billed_hours * instances * f64::from(nodes);
    // Storage for the job's duration; serving keeps its weights all month.
    let storage_hours = if endpoint { HOURS_PER_MONTH } else { job_hours };
    let storage_cost = gb(stored_bytes) * storage_rate * storage_hours / HOURS_PER_MONTH * instances;
    let egress_cost = gb(egress_bytes) * rules.egress_usd_per_gb;
    let job_cost = gpu_cost + storage_cost + egress_cost;
    let monthly_cost = if endpoint { job_cost } else { job_cost * f64::from(workload.runs_per_month) };
    Some(Costed {
        spot,
        price_per_hour: price,
        instances: instances as u32,
        nodes,
        job_hours,
        billed_hours,
        assumed: rules.assumed,
        gpu_cost,
        storage_cost,
        egress_cost,
        job_cost,
        monthly_cost,
        cost_per_unit: job_cost / units.max(f64::MIN_POSITIVE),
        unit,
        gpu_hours: billed_hours * instances * f64::from(nodes) * f64::from(offer.gpu_count),
        cost_per_thousand_images: per_thousand_images(workload, model, job_cost / units.max(f64::MIN_POSITIVE)),
        goodput: matches!(workload.task, Task::Finetune | Task::Pretrain).then(|| Goodput {
            share: 1.0 - failures_s / run_s.max(f64::MIN_POSITIVE),
            lost_hours: failures_s / SECONDS_PER_HOUR,
            stated: workload.goodput_pct.is_some(),
        }),
    })
}

/// USD per 1,000 images described when each request of a vision-language
/// model carries images: a request costs its output tokens at `per_unit`
/// per million (which already pays for its prefill and encoding), or its
/// share of `per_unit` per 1,000 requests in a batch job.
fn per_thousand_images(workload: &Workload, model: &Model, per_unit: f64) -> Option<f64> {
    let images = f64::from(workload.images_for(model.vision()));
    let per_request = match Unit::for_workload(workload) {
        Unit::ThousandRequests => per_unit / 1000.0,
        _ => per_unit * f64::from(workload.output_tokens) / 1e6,
    };
    (workload.task == Task::Infer && images > 0.0).then(|| per_request * 1000.0 / images)
}

#[cfg(test)]
mod tests;
