//! Serving to latency targets (issue 39): on one offer's GPUs, the set-up
//! that meets a time to first token and an inter-token latency at a
//! percentile while the stated peak traffic arrives, and the instances it
//! takes.
//!
//! For each way to group the instance's GPUs into replicas (1, 2, 4, 8 GPUs
//! each, tensor-parallel as the runtime splits them):
//! 1. the group must hold the model with room for one request (`memory::fit`);
//! 2. one request alone must meet the targets (else no traffic can);
//! 3. an analytical screen, the steady state of continuous batching by
//!    Little's law, gives the most requests per second a replica takes with
//!    its mean inter-token gap within the target, and so the fewest replicas
//!    worth simulating;
//! 4. a seeded simulation of the replica's scheduler (`simulate`) at the
//!    peak rate shared by that many replicas measures the latencies at the
//!    percentile, and the replicas grow until the targets hold.
//!
//! The offer then needs enough instances for the replicas; the grouping
//! with the fewest instances wins, the smallest group on a tie.

mod curve;
pub mod formats;
mod launch;
pub mod simulate;

pub use curve::CurvePoint;
pub use launch::{launch, Launch};

use self::simulate::{simulate, Arrivals, Limits, Load, Outcome, Run};
use super::catalog::Shape;
use super::fabric::Placement;
use super::memory::{fit, runtime_memory};
use super::speed::accuracy::{band_of, Band};
use super::speed::llm::{runtime_speed, Chunk, ReplicaSteps};
use super::{Gpu, KvPrecision, Model, Precision, Runtime, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use serde::Serialize;

/// The calibration families whose errors are the plans' latency bands
/// (`speed::accuracy::BANDS`, measured by this module's calibration test).
pub const FIRST_TOKEN_FAMILY: &str = "serving time to first token under load";
pub const BETWEEN_TOKENS_FAMILY: &str = "serving inter-token latency under load";

/// Replicas a plan grows to at most on one offer before it says the
/// traffic is too much for it.
pub const MOST_REPLICAS: u32 = 512;

/// What the endpoint must meet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Targets {
    pub ttft_s: Option<f64>,
    pub itl_s: Option<f64>,
    pub percentile: u32,
    /// Requests per second at the peak: the link's `rps`, else the stated
    /// requests a day spread evenly over it (0: one request at a time).
    pub peak_rps: f64,
}

impl Targets {
    /// The targets `workload` sets: an endpoint, not a batch job, with a
    /// time to first token or an inter-token latency to meet.
    pub fn of(workload: &Workload) -> Option<Targets> {
        let stated = workload.ttft_target_s.is_some() || workload.itl_target_s.is_some();
        (workload.is_endpoint() && stated).then(|| Targets {
            ttft_s: workload.ttft_target_s,
            itl_s: workload.itl_target_s,
            percentile: workload.latency_percentile,
            peak_rps: workload.peak_rate(),
        })
    }

    fn percentile(&self) -> f64 {
        f64::from(self.percentile)
    }

    /// Which target `outcome` misses first, if any: the time to first token,
    /// then the inter-token latency.
    fn missed(&self, outcome: &Outcome) -> Option<Limit> {
        let p = self.percentile();
        if self.ttft_s.is_some_and(|t| outcome.ttft(p) > t) {
            Some(Limit::FirstToken)
        } else if self.itl_s.is_some_and(|t| outcome.itl(p) > t) {
            Some(Limit::InterToken)
        } else {
            None
        }
    }
}

/// A latency at the targets' percentile and at the median, in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Latency {
    pub at_percentile: f64,
    pub p50: f64,
}

/// What sets the number of replicas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limit {
    /// One replica meets the targets at this traffic.
    OneReplica,
    /// With one replica fewer, the time to first token at the percentile
    /// would miss its target (requests queue, or prompts wait for the step
    /// budget).
    FirstToken,
    /// With one replica fewer, the running batch would make the
    /// inter-token latency miss its target.
    InterToken,
}

/// The traffic a plan is sized for: its peak rate, and the requests a day
/// it stands for over the hours up with the busiest hour `peak_factor`
/// times the mean (`Workload::peak_rate`, `Workload::daily_requests`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Traffic {
    pub peak_rps: f64,
    pub requests_per_day: f64,
    pub peak_factor: f64,
    pub hours_up: f64,
    /// The share of each prompt the prefix cache holds, in percent.
    pub prefix_hit_pct: u32,
    /// How much lengths vary between requests (coefficient of variation, %).
    pub length_spread_pct: u32,
}

impl Traffic {
    pub fn of(workload: &Workload) -> Traffic {
        Traffic {
            peak_rps: workload.peak_rate(),
            requests_per_day: workload.daily_requests(),
            peak_factor: workload.peak_factor,
            hours_up: workload.uptime_hours,
            prefix_hit_pct: workload.prefix_hit_pct,
            length_spread_pct: workload.length_spread_pct,
        }
    }
}

impl SloPlan {
    /// How far its latencies err on published serving results, as the
    /// row's tooltip and breakdown say it; with a prefix cache hit or
    /// lengths that vary, that those results did not check either (the
    /// calibration's runs state fixed lengths and no prefix cache:
    /// `data/calibration/serving_latency.csv`).
    pub fn bands(&self) -> Msg {
        let pct = |band: Option<&Band>| band.map_or(0, |b| b.median_error_pct);
        let bands = msg!(phrases::SLO_BANDS, ttft = pct(self.ttft_band), itl = pct(self.itl_band));
        match (self.traffic.prefix_hit_pct, self.traffic.length_spread_pct) {
            (0, 0) => bands,
            _ => msg!(phrases::SLO_BANDS_UNCHECKED, bands = bands),
        }
    }
}

/// Replicas that follow the traffic off its peak: whether the provider's
/// billing lets them, and about how many the mean hour needs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OffPeak {
    /// Billed by the hour or finer: replicas can be started and stopped as
    /// the traffic rises and falls.
    pub can_follow: bool,
    /// Replicas at the mean hour: the peak's, scaled down by the peak
    /// factor and rounded up (a replica's capacity is about proportional to
    /// its rate: the steady-state screen), at least one; and the instances
    /// they take, whole instances being what is billed.
    pub mean_hour_replicas: u32,
    pub mean_hour_instances: u32,
    /// The month with instances that follow the traffic, against all of
    /// them all month: about `mean_hour_instances / instances`.
    pub monthly_share: f64,
}

/// Longest billing step that still lets replicas follow the traffic hour
/// by hour.
const FOLLOWS_HOURLY_S: u32 = 3_600;

/// Whether and how far `plan`'s replicas could follow the traffic on a
/// provider that bills in steps of `billing_step_s` (unknown: not said);
/// `None` on one instance, which cannot be fewer while requests come.
pub fn off_peak(plan: &SloPlan, billing_step_s: Option<u32>) -> Option<OffPeak> {
    let step = billing_step_s?;
    if plan.instances <= 1 || plan.replicas == 0 {
        return None;
    }
    let replicas = (f64::from(plan.replicas) / plan.traffic.peak_factor.max(1.0)).ceil().max(1.0) as u32;
    let per_instance = plan.replicas.div_ceil(plan.instances);
    let instances = replicas.div_ceil(per_instance).clamp(1, plan.instances);
    Some(OffPeak {
        can_follow: step <= FOLLOWS_HOURLY_S,
        mean_hour_replicas: replicas.min(plan.replicas),
        mean_hour_instances: instances,
        monthly_share: f64::from(instances) / f64::from(plan.instances),
    })
}

/// The set-up that meets the targets on an offer: the JSON's `slo`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SloPlan {
    pub percentile: u32,
    /// The targets it meets at that percentile.
    pub ttft_target_s: Option<f64>,
    pub itl_target_s: Option<f64>,
    /// The traffic it meets them at.
    pub traffic: Traffic,
    /// Time to first token, queueing included.
    pub ttft_s: Latency,
    /// Inter-token latency: the gap between two consecutive tokens of a
    /// request, over all such gaps.
    pub itl_s: Latency,
    /// Time per output token: (end-to-end − time to first token) /
    /// (output − 1), over requests.
    pub tpot_s: Latency,
    pub replicas: u32,
    pub gpus_per_replica: u32,
    pub tensor_parallel: u32,
    pub pipeline_parallel: u32,
    /// Instances of the offer the replicas take.
    pub instances: u32,
    /// Requests running at once at most (`--max-num-seqs`): the runtime's
    /// cap, or llama.cpp's slots; the KV cache may hold fewer, as many as
    /// its pages allow.
    pub max_batch: u32,
    /// Tokens per scheduler step, decodes and prompt chunks together
    /// (`--max-num-batched-tokens`).
    pub step_tokens: u32,
    pub weights: Precision,
    pub kv_cache: KvPrecision,
    pub runtime: Runtime,
    /// The peak rate each replica takes.
    pub requests_per_s_per_replica: f64,
    pub limit: Limit,
    /// The most requests the simulation saw running at once on a replica.
    pub most_running: u32,
    /// Whole sequences a replica's KV cache holds, and whether requests
    /// waited for room (the running cap or the cache) at the peak rate.
    pub kv_sequences: u32,
    pub waited: bool,
    /// A lone request's time to first token: what queueing adds to it.
    pub alone_ttft_s: f64,
    /// How to start it (`launch`); `None` for a runtime without a server.
    pub launch: Option<Launch>,
    /// A replica's throughput against interactivity as its running batch
    /// grows (`curve::curve`).
    pub curve: Vec<CurvePoint>,
    /// How far the latencies above err on published serving results
    /// (time to first token; inter-token latency and time per token).
    pub ttft_band: Option<&'static Band>,
    pub itl_band: Option<&'static Band>,
}

/// Why a replica grouping cannot meet the targets, with what one request
/// alone gets on it where it holds the model at all.
#[derive(Debug, Clone, PartialEq)]
pub struct Miss {
    pub reason: Msg,
    pub alone: Option<Alone>,
}

/// The latencies of one request alone on a replica of `gpus` GPUs: the
/// best any traffic gets there.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alone {
    pub gpus: u32,
    pub ttft_s: f64,
    pub itl_s: f64,
}

impl From<Msg> for Miss {
    fn from(reason: Msg) -> Miss {
        Miss { reason, alone: None }
    }
}

/// What one replica grouping of a GPU kind gives, planned once for the
/// offers of that kind (`plan` keeps one per group size).
pub type Planned = Vec<(u32, Result<ReplicaPlan, Miss>)>;

/// The fewest latencies a lone request gets on any grouping `planned`
/// tried, measured against `targets` (the largest of its two ratios to
/// them): the set-up that comes closest when none meets them.
pub fn closest(planned: &Planned, targets: &Targets) -> Option<(Alone, f64)> {
    let ratio = |a: &Alone| {
        let over = |got: f64, target: Option<f64>| target.map_or(0.0, |t| got / t);
        over(a.ttft_s, targets.ttft_s).max(over(a.itl_s, targets.itl_s))
    };
    planned
        .iter()
        .filter_map(|(_, made)| made.as_ref().err().and_then(|m| m.alone))
        .map(|a| (a, ratio(&a)))
        .min_by(|x, y| x.1.total_cmp(&y.1))
}

/// One replica grouping, planned: what offers of one GPU kind share
/// (`plan` keeps one per group size and catalog GPU).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaPlan {
    gpus: u32,
    split: (u32, u32),
    replicas: u32,
    rate: f64,
    limits: Limits,
    outcome: Outcome,
    limit: Limit,
    curve: Vec<CurvePoint>,
    alone_ttft_s: f64,
}

/// Group sizes tried on an instance of `gpu_count` GPUs: powers of two
/// that divide it.
fn group_sizes(gpu_count: u32) -> impl Iterator<Item = u32> {
    (0..8).map(|k| 1u32 << k).filter(move |&g| g <= gpu_count && gpu_count.is_multiple_of(g))
}

/// The cheapest plan for serving `workload` to `targets` on an instance of
/// `gpu_count` GPUs of `gpu`: the grouping that needs the fewest instances.
/// `planned` keeps each group size's replica plan for the offers of the
/// same GPU.
pub fn plan(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    gpu_count: u32,
    targets: &Targets,
    planned: &mut Planned,
) -> Result<SloPlan, Msg> {
    let runtime = workload.serving_runtime();
    if !runtime.serves_requests() {
        return Err(msg!(phrases::SLO_NOT_A_SERVER, runtime = Arg::Phrase(runtime.label())));
    }
    // The fewest instances, and where in `planned` the grouping is.
    let mut best: Option<(u32, usize)> = None;
    let mut first_reason = None;
    for group in group_sizes(gpu_count) {
        // One instance is the fewest: larger groups cannot do better.
        if best.is_some_and(|(instances, _)| instances == 1) {
            break;
        }
        if !planned.iter().any(|(g, _)| *g == group) {
            let made = plan_replicas(workload, model, shape, gpu, group, targets);
            planned.push((group, made));
        }
        let Some(at) = planned.iter().position(|(g, _)| *g == group) else { continue };
        match &planned[at].1 {
            Ok(replicas) => {
                // Groups come smallest first: on a tie, the fewest GPUs per
                // replica, as the guide says ("one fast GPU per replica
                // generally beats splitting a model over many GPUs").
                let instances = replicas.replicas.div_ceil(gpu_count / group);
                if best.is_none_or(|(n, _)| instances < n) {
                    best = Some((instances, at));
                }
            }
            // The largest grouping's reason says the most (a model that
            // needs more GPUs, a target no GPU count meets).
            Err(miss) => first_reason = Some(miss.reason.clone()),
        }
    }
    let Some((instances, at)) = best else {
        return Err(first_reason.unwrap_or_else(|| msg!(phrases::SLO_NO_GROUP, gpus = gpu_count)));
    };
    let Ok(replicas) = &planned[at].1 else { unreachable!("the best grouping was planned") };
    let p = targets.percentile();
    let o = &replicas.outcome;
    let latency = |f: fn(&Outcome, f64) -> f64| Latency { at_percentile: f(o, p), p50: f(o, 50.0) };
    let mut planned = SloPlan {
        percentile: targets.percentile,
        ttft_target_s: targets.ttft_s,
        itl_target_s: targets.itl_s,
        traffic: Traffic::of(workload),
        ttft_s: latency(Outcome::ttft),
        itl_s: latency(Outcome::itl),
        tpot_s: latency(Outcome::tpot),
        replicas: replicas.replicas,
        gpus_per_replica: replicas.gpus,
        tensor_parallel: replicas.split.0,
        pipeline_parallel: replicas.split.1,
        instances,
        max_batch: replicas.limits.max_running,
        step_tokens: replicas.limits.step_tokens,
        weights: workload.weight_precision,
        kv_cache: workload.kv_precision,
        runtime,
        requests_per_s_per_replica: replicas.rate,
        limit: replicas.limit,
        most_running: o.most_running,
        kv_sequences: replicas.limits.kv_sequences,
        waited: o.capped,
        alone_ttft_s: replicas.alone_ttft_s,
        launch: None,
        curve: replicas.curve.clone(),
        ttft_band: band_of(FIRST_TOKEN_FAMILY),
        itl_band: band_of(BETWEEN_TOKENS_FAMILY),
    };
    planned.launch = launch(&planned, model, workload, gpu_count);
    Ok(planned)
}

/// The fewest replicas of `group` GPUs of `gpu` that meet `targets`, or
/// why none do.
fn plan_replicas(
    workload: &Workload,
    model: &Model,
    shape: &Shape,
    gpu: &Gpu,
    group: u32,
    targets: &Targets,
) -> Result<ReplicaPlan, Miss> {
    let sized = fit(workload, model, gpu, Placement::node(group)).map_err(|e| e.message())?;
    let kv_sequences = sized.max_concurrency.unwrap_or(0);
    if !sized.fits || kv_sequences == 0 {
        return Err(sized.reason.unwrap_or_else(|| msg!(phrases::SLO_NO_GROUP, gpus = group)).into());
    }
    let steps =
        ReplicaSteps::with_kernels(&runtime_speed(workload.serving_runtime()), workload, model, shape, gpu, group)
            .map_err(|e| e.message())?;
    if !steps.times_prefill() {
        return Err(msg!(phrases::SLO_NO_FLOPS, gpu = &gpu.name).into());
    }
    let runtime = workload.serving_runtime();
    let (prompt, output) = (workload.input_tokens, workload.output_tokens);
    // What the prefix cache holds of each prompt is not prefilled again.
    let cached = workload.cached_prompt_tokens().min(prompt.saturating_sub(1));
    let limits = Limits {
        // llama.cpp's server runs one request at a time unless launched
        // with more slots (`--parallel`); the plan launches it with as
        // many as its cache holds.
        max_running: steps.runtime_max_batch().filter(|&cap| cap > 1).unwrap_or(kv_sequences),
        step_tokens: runtime_memory(runtime).tokens_per_pass.map_or(prompt, |t| t as u32),
        kv_sequences,
    };
    let step_s = |decodes: u32, context: f64, chunk: Chunk| steps.step_s(decodes, context, chunk);
    let on = |gpus: u32| (gpus, gpu.name.as_str());
    // One request alone: its prompt in chunks of the step budget, then a
    // token a step.
    let alone_ttft = lone_prompt_s(prompt, cached, limits.step_tokens, &step_s);
    let alone_itl = step_s(1, f64::from(prompt) + f64::from(output) / 2.0, Chunk::NONE);
    let alone = Some(Alone { gpus: group, ttft_s: alone_ttft, itl_s: alone_itl });
    let missed = |reason: Msg| Miss { reason, alone };
    if let Some(target) = targets.itl_s.filter(|&t| alone_itl > t) {
        let (gpus, name) = on(group);
        let (ms, target) = (Arg::Num(alone_itl * 1e3, 1), Arg::Num(target * 1e3, 1));
        return Err(missed(msg!(phrases::SLO_ITL_ALONE, ms = ms, target = target, gpus = gpus, gpu = name)));
    }
    if let Some(target) = targets.ttft_s.filter(|&t| alone_ttft > t) {
        let (gpus, name) = on(group);
        let (seconds, target) = (Arg::Num(alone_ttft, 2), Arg::Num(target, 2));
        return Err(missed(msg!(phrases::SLO_TTFT_ALONE, seconds = seconds, target = target, gpus = gpus, gpu = name)));
    }
    // Only a grouping that meets the targets alone gets its curve.
    let curve = curve::curve(prompt, cached, output, limits, group, &step_s);
    let load = |rate: f64| Load {
        arrivals: Arrivals::Poisson(rate),
        prompt_tokens: prompt,
        output_tokens: output,
        cached_tokens: cached,
        spread: f64::from(workload.length_spread_pct) / 100.0,
    };
    let peak = targets.peak_rps;
    // No stated traffic: one request at a time (a request a minute).
    if peak <= 0.0 {
        let rate = 1.0 / 60.0;
        let outcome = simulate(load(rate), limits, Run::DEFAULT, step_s);
        return Ok(ReplicaPlan {
            gpus: group,
            split: steps.split(),
            replicas: 1,
            rate,
            limits,
            outcome,
            limit: Limit::OneReplica,
            curve,
            alone_ttft_s: alone_ttft,
        });
    }
    let simulated = |replicas: u32, run: Run| simulate(load(peak / f64::from(replicas)), limits, run, step_s);
    // The screen: no fewer replicas than the steady state allows.
    let most_per_replica = steady_capacity(prompt, cached, output, limits, targets.itl_s, &step_s);
    let fewest = if most_per_replica > 0.0 { (peak / most_per_replica).ceil().max(1.0) } else { 1.0 };
    let too_many = || {
        let (gpus, name) = on(group);
        let rps = Arg::Num(peak, 2);
        missed(msg!(phrases::SLO_TOO_MANY_REPLICAS, rps = rps, most = MOST_REPLICAS, gpus = gpus, gpu = name))
    };
    if fewest > f64::from(MOST_REPLICAS) {
        return Err(too_many());
    }
    // Searched on short runs, then confirmed on a full one.
    let (mut replicas, mut binding) =
        fewest_meeting(fewest as u32, |r| targets.missed(&simulated(r, Run::SEARCH))).ok_or_else(too_many)?;
    let mut outcome = simulated(replicas, Run::DEFAULT);
    while let Some(why) = targets.missed(&outcome) {
        if replicas >= MOST_REPLICAS {
            return Err(too_many());
        }
        (replicas, binding) = (replicas + 1, why);
        outcome = simulated(replicas, Run::DEFAULT);
    }
    let (rate, limit) = (peak / f64::from(replicas), if replicas == 1 { Limit::OneReplica } else { binding });
    Ok(ReplicaPlan {
        gpus: group,
        split: steps.split(),
        replicas,
        rate,
        limits,
        outcome,
        limit,
        curve,
        alone_ttft_s: alone_ttft,
    })
}

/// The fewest replicas, from `start` (the screen's count) to
/// `MOST_REPLICAS`, for which `missed` says no target is missed, and the
/// target one fewer misses (`Limit::OneReplica` for one): doubling from
/// `start` until one count meets them, then halving the gap below it.
/// `None` when even `MOST_REPLICAS` miss.
fn fewest_meeting(start: u32, missed: impl Fn(u32) -> Option<Limit>) -> Option<(u32, Limit)> {
    let (mut low, mut high) = (0u32, start.max(1));
    let mut binding = Limit::OneReplica;
    while let Some(why) = missed(high) {
        if high >= MOST_REPLICAS {
            return None;
        }
        (low, high, binding) = (high, (high * 2).min(MOST_REPLICAS), why);
    }
    if low == 0 {
        // The screen's count meets them; the screen is optimistic, so fewer
        // rarely do, but may (a target it does not screen).
        match (high > 1).then(|| missed(high - 1)) {
            Some(Some(why)) => return Some((high, why)),
            Some(None) => high -= 1,
            None => return Some((1, Limit::OneReplica)),
        }
    }
    while high - low > 1 {
        let mid = (low + high) / 2;
        match missed(mid) {
            Some(why) => (low, binding) = (mid, why),
            None => high = mid,
        }
    }
    Some((high, binding))
}

/// Seconds to a lone prompt's first token: its chunks of `budget` tokens
/// after the `cached` ones, one step each.
fn lone_prompt_s(prompt: u32, cached: u32, budget: u32, step_s: &impl Fn(u32, f64, Chunk) -> f64) -> f64 {
    let (mut done, mut seconds) = (cached, 0.0);
    while done < prompt {
        let take = (prompt - done).min(budget.max(1));
        seconds += step_s(0, 0.0, Chunk::of(f64::from(take), f64::from(done)));
        done += take;
    }
    seconds
}

/// The most requests per second one replica takes in the steady state of
/// continuous batching with its mean inter-token gap within `itl` (any gap
/// without one): at `rate`, a step of t seconds decodes n = rate × output
/// × t running requests (Little's law) and prefills rate × prompt × t
/// prompt tokens, and t is the step time of that batch; the rate is
/// bisected for the largest one whose step stays within the target, the
/// running cap and the step's token budget. An optimistic bound (means, not
/// percentiles), so no fewer replicas are worth simulating.
fn steady_capacity(
    prompt: u32,
    cached: u32,
    output: u32,
    limits: Limits,
    itl: Option<f64>,
    step_s: &impl Fn(u32, f64, Chunk) -> f64,
) -> f64 {
    let (prompt, cached, output) = (f64::from(prompt), f64::from(cached), f64::from(output));
    let context = prompt + output / 2.0;
    let cap = f64::from(limits.max_running.min(limits.kv_sequences));
    let fresh = prompt - cached;
    let steady = |rate: f64| -> Option<f64> {
        let mut t = step_s(1, context, Chunk::NONE);
        for _ in 0..40 {
            let running = rate * output * t;
            let chunk = rate * fresh * t;
            if running > cap || running + chunk > f64::from(limits.step_tokens) {
                return None;
            }
            let prompt_part = curve::prompt_chunk(chunk, cached, fresh);
            let next = step_s(running.ceil().max(1.0) as u32, context, prompt_part);
            if (next - t).abs() < 1e-9 * t {
                break;
            }
            t = next;
        }
        itl.is_none_or(|target| t <= target).then_some(t)
    };
    let (mut low, mut high) = (0.0, 1.0 / (output * step_s(1, context, Chunk::NONE)));
    // Double until the steady state breaks.
    for _ in 0..40 {
        if steady(high).is_none() {
            break;
        }
        low = high;
        high *= 2.0;
    }
    for _ in 0..40 {
        let mid = (low + high) / 2.0;
        if steady(mid).is_some() {
            low = mid;
        } else {
            high = mid;
        }
    }
    low
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod calibration;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
