//! A seeded, deterministic simulation of one replica serving requests
//! that arrive at random (a Poisson process) through a continuous-batching
//! scheduler with chunked prefill, as vLLM V1 and TensorRT-LLM schedule:
//! - every step, each running request decodes one token;
//! - the step's token budget left after the decodes goes to prompts, first
//!   come first served, a prompt split over several steps where it does
//!   not fit (chunked prefill);
//! - a request is admitted while fewer than the cap run and the KV cache
//!   holds its whole sequence, and waits otherwise;
//! - a prompt's last chunk yields the first token at the end of its step.
//!
//! How long a step takes is the caller's (the engine's per-step time for
//! that many decodes and prompt tokens), so the simulation holds no
//! figure of its own.

use crate::engine::speed::llm::Chunk;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// What one replica is asked to serve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Load {
    pub arrivals: Arrivals,
    pub prompt_tokens: u32,
    pub output_tokens: u32,
    /// Tokens of each prompt already in the prefix cache (a system prompt
    /// or a document the requests share): not prefilled again, though
    /// attended to, and still held in the request's cache (shared pages are
    /// not counted as shared: an upper bound on memory).
    pub cached_tokens: u32,
    /// How much prompt and output lengths vary from request to request:
    /// their coefficient of variation (0: every request of the mean
    /// lengths), drawn from a log-normal distribution of those means.
    pub spread: f64,
}

/// How requests arrive.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arrivals {
    /// This many a second, at random (a Poisson process: a load balancer
    /// that spreads a Poisson stream at random over the replicas gives
    /// each one), as users of an endpoint send them and as vLLM's
    /// `--request-rate` benchmarks do.
    Poisson(f64),
    /// This many clients, each sending its next request as soon as its
    /// last one ends (benchmarks' `--max-concurrency`).
    Closed(u32),
}

/// The scheduler's limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Requests running at once at most (vLLM's `--max-num-seqs`).
    pub max_running: u32,
    /// Tokens per step, decodes and prompt chunks together (vLLM's
    /// `--max-num-batched-tokens`).
    pub step_tokens: u32,
    /// Sequences of the request's whole length the KV cache holds.
    pub kv_sequences: u32,
}

/// How many requests a simulation runs, and which it measures: those after
/// the first tenth (the replica starts empty) and before the last tenth
/// (the arrivals stop and the replica drains).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Run {
    pub requests: u32,
    pub seed: u64,
}

impl Run {
    /// Enough requests for a 99th percentile from about 16 of them beyond it.
    pub const DEFAULT: Run = Run { requests: 1_000, seed: 0x5eed_1a7e_9c1e_0001 };
    /// A quarter of that, for searching (a 95th percentile from about 20
    /// beyond it); the count found is confirmed on a `DEFAULT` run.
    pub const SEARCH: Run = Run { requests: 300, seed: 0x5eed_1a7e_9c1e_0002 };

    fn measured(self, index: usize) -> bool {
        let n = self.requests as usize;
        index >= n / 10 && index < n - n / 10
    }
}

/// Latencies of the measured requests, in seconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Time to first token of each request, sorted.
    ttft: Vec<f64>,
    /// (Step seconds, tokens decoded in it): every running request makes a
    /// token per step, so the gap between two of a request's tokens is the
    /// step between them; sorted by seconds.
    gaps: Vec<(f64, u32)>,
    /// Time per output token of each request after its first,
    /// (end-to-end − TTFT) / (output − 1), sorted.
    tpot: Vec<f64>,
    /// The most requests that ran at once.
    pub most_running: u32,
    /// Whether admissions ever waited for the running cap or the KV cache.
    pub capped: bool,
}

impl Outcome {
    /// The time to first token at `percentile` (0–100).
    pub fn ttft(&self, percentile: f64) -> f64 {
        at(&self.ttft, percentile)
    }

    /// The inter-token latency at `percentile`: of all gaps between two
    /// consecutive tokens of a request.
    pub fn itl(&self, percentile: f64) -> f64 {
        let total: u64 = self.gaps.iter().map(|&(_, n)| u64::from(n)).sum();
        if total == 0 {
            return 0.0;
        }
        let rank = (percentile / 100.0 * total as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(seconds, n) in &self.gaps {
            seen += u64::from(n);
            if seen >= rank {
                return seconds;
            }
        }
        self.gaps.last().map_or(0.0, |g| g.0)
    }

    /// Time per output token at `percentile`, over requests.
    pub fn tpot(&self, percentile: f64) -> f64 {
        at(&self.tpot, percentile)
    }

    /// The means of the time to first token, the inter-token latency (over
    /// all gaps) and the time per output token (over requests).
    pub fn means(&self) -> (f64, f64, f64) {
        let mean = |v: &[f64]| if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
        let (sum, count) =
            self.gaps.iter().fold((0.0, 0.0), |(s, c), &(t, n)| (s + t * f64::from(n), c + f64::from(n)));
        (mean(&self.ttft), if count > 0.0 { sum / count } else { 0.0 }, mean(&self.tpot))
    }
}

/// The value at `percentile` of sorted `values` (nearest rank); 0 when empty.
fn at(values: &[f64], percentile: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let rank = (percentile / 100.0 * values.len() as f64).ceil().max(1.0) as usize;
    values[rank.min(values.len()) - 1]
}

/// SplitMix64: a small, seeded generator, so that a plan is the same on
/// every machine and every run.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform in (0, 1]: the top 53 bits, plus one.
    fn uniform(&mut self) -> f64 {
        ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64
    }

    /// An exponential variate of mean `mean`.
    fn exponential(&mut self, mean: f64) -> f64 {
        -self.uniform().ln() * mean
    }

    /// A log-normal variate of mean `mean` and coefficient of variation
    /// `cv` (Box–Muller for its normal), as a whole count of at least one
    /// and at most `LONGEST_DRAW` times the mean; `mean` itself when `cv`
    /// is 0.
    fn length(&mut self, mean: u32, cv: f64) -> u32 {
        if cv <= 0.0 {
            return mean;
        }
        let sigma2 = (1.0 + cv * cv).ln();
        let normal = (-2.0 * self.uniform().ln()).sqrt() * (std::f64::consts::TAU * self.uniform()).cos();
        let x = (f64::from(mean).ln() - sigma2 / 2.0 + sigma2.sqrt() * normal).exp();
        x.round().clamp(1.0, f64::from(LONGEST_DRAW) * f64::from(mean)) as u32
    }
}

/// The longest a drawn length gets, in times its mean: the launch command's
/// longest sequence covers it.
pub const LONGEST_DRAW: u32 = 8;

/// Each request's prompt, output and cached tokens as `load` draws them:
/// from their own seeded stream, so that arrivals do not change with the
/// spread.
struct Lengths {
    random: SplitMix,
    prompt: u32,
    output: u32,
    cached: u32,
    spread: f64,
}

impl Lengths {
    fn of(load: &Load, seed: u64) -> Lengths {
        Lengths {
            random: SplitMix(seed ^ 0x1e9_97d5),
            prompt: load.prompt_tokens.max(1),
            output: load.output_tokens.max(1),
            cached: load.cached_tokens,
            spread: load.spread,
        }
    }

    fn next(&mut self) -> (u32, u32, u32) {
        let prompt = self.random.length(self.prompt, self.spread);
        let output = self.random.length(self.output, self.spread);
        // The shared prefix is the same for all; at most all but the last token.
        (prompt, output, self.cached.min(prompt.saturating_sub(1)))
    }
}

/// A request while it is in the replica.
struct Request {
    arrival: f64,
    /// Tokens of its prefill done: its prompt, and after a preemption the
    /// output it had made too (recomputed).
    prefilled: u32,
    /// Output tokens made so far, the first included; while it decodes,
    /// as of `since`.
    made: u32,
    since: u64,
    first_token: f64,
    /// Bumped when it is preempted, so that its place in the finish queue
    /// lapses.
    epoch: u32,
    /// Whether it is decoding now.
    decoding: bool,
    /// Its prompt and output tokens, and how many of its prompt the prefix
    /// cache holds.
    prompt: u32,
    output: u32,
    cached: u32,
}

impl Request {
    /// Tokens its prefill covers: the prompt, and what it had made before a
    /// preemption.
    fn to_prefill(&self) -> u32 {
        self.prompt + self.made
    }

    /// Its whole sequence once done.
    fn length(&self) -> u32 {
        self.prompt + self.output
    }
}

/// The replica's clock, its KV cache and the requests it is decoding.
struct Replica {
    now: f64,
    step: u64,
    /// Requests decoding, and the sum of their contexts.
    decoding: u32,
    context_sum: f64,
    /// Decoding requests by when they started (the last is preempted
    /// first), with their epoch; entries of requests gone lapse.
    started: Vec<(usize, u32)>,
    /// When each decoding request makes its last token (by step number).
    finishes: BinaryHeap<Reverse<(u64, usize, u32)>>,
    /// Tokens the KV cache holds, and how many it can.
    kv_used: f64,
    kv_tokens: f64,
    done: usize,
}

impl Replica {
    fn mean_context(&self) -> f64 {
        if self.decoding > 0 {
            self.context_sum / f64::from(self.decoding)
        } else {
            0.0
        }
    }

    /// Starts decoding request `r` (its prefill just yielded a token).
    fn start(&mut self, requests: &mut [Request], r: usize) {
        let request = &mut requests[r];
        let (prompt, output) = (request.prompt, request.output);
        request.made += 1;
        request.since = self.step;
        self.kv_used += 1.0;
        if request.made >= output {
            self.kv_used -= f64::from(prompt + request.made);
            self.done += 1;
            return;
        }
        request.decoding = true;
        self.decoding += 1;
        self.context_sum += f64::from(prompt + request.made);
        self.started.push((r, request.epoch));
        self.finishes.push(Reverse((self.step + u64::from(output - request.made), r, request.epoch)));
    }

    /// Runs `steps` steps of `seconds` each, in which every decoding
    /// request makes a token; returns the requests whose last token came,
    /// and leaves them out.
    fn advance(&mut self, requests: &mut [Request], steps: u64, seconds: f64) -> Vec<usize> {
        self.now += seconds * steps as f64;
        self.step += steps;
        let grown = f64::from(self.decoding) * steps as f64;
        self.context_sum += grown;
        self.kv_used += grown;
        let mut finished = Vec::new();
        while let Some(&Reverse((last, r, epoch))) = self.finishes.peek() {
            if last > self.step {
                break;
            }
            self.finishes.pop();
            if requests[r].epoch != epoch {
                continue;
            }
            requests[r].decoding = false;
            let length = f64::from(requests[r].length());
            self.decoding -= 1;
            self.context_sum -= length;
            self.kv_used -= length;
            self.done += 1;
            finished.push(r);
        }
        finished
    }

    /// While the cache holds more than it can, preempts the request that
    /// started decoding last: its cache is freed and it waits to be
    /// prefilled again, what it had made included (vLLM's recompute
    /// preemption); returns them, first preempted first.
    fn preempt(&mut self, requests: &mut [Request]) -> Vec<usize> {
        let mut preempted = Vec::new();
        while self.kv_used > self.kv_tokens && self.decoding > 0 {
            let Some((r, epoch)) = self.started.pop() else { break };
            let request = &mut requests[r];
            // A request that finished, or one already preempted, has left.
            let running =
                request.epoch == epoch && self.finishes.iter().any(|Reverse((_, f, e))| *f == r && *e == epoch);
            if !running {
                continue;
            }
            request.made += (self.step - request.since) as u32;
            request.epoch += 1;
            // Its shared prefix is still in the cache.
            request.prefilled = request.cached;
            let context = f64::from(request.prompt + request.made);
            self.decoding -= 1;
            self.context_sum -= context;
            self.kv_used -= context;
            preempted.push(r);
        }
        preempted
    }
}

/// A closed client whose request ended at `now` sends its next, until
/// `n` have been sent.
fn next_request(requests: &mut Vec<Request>, arrivals: Arrivals, lengths: &mut Lengths, n: usize, now: f64) {
    if matches!(arrivals, Arrivals::Closed(_)) && requests.len() < n {
        requests.push(Request::arriving(now, lengths.next()));
    }
}

impl Request {
    /// A request of `(prompt, output, cached)` tokens arriving at
    /// `arrival`, the first `cached` of its prompt found in the prefix cache.
    fn arriving(arrival: f64, (prompt, output, cached): (u32, u32, u32)) -> Request {
        Request {
            arrival,
            prefilled: cached,
            made: 0,
            since: 0,
            first_token: 0.0,
            epoch: 0,
            decoding: false,
            prompt,
            output,
            cached,
        }
    }
}

/// Runs `run.requests` requests of `load` through a replica with `limits`,
/// each step taking `step_s(decodes, mean context, prompt chunk)` seconds.
///
/// The KV cache is paged, as vLLM's and TensorRT-LLM's are: a request is
/// admitted when its prompt fits beside what the running ones hold now
/// (`limits.kv_sequences` whole sequences' worth of tokens in all), each
/// decoded token takes one more, and when the cache runs out the request
/// that started last is preempted and recomputed later.
pub fn simulate(load: Load, limits: Limits, run: Run, step_s: impl Fn(u32, f64, Chunk) -> f64) -> Outcome {
    let n = run.requests as usize;
    let (prompt, output) = (load.prompt_tokens.max(1), load.output_tokens.max(1));
    let mut random = SplitMix(run.seed);
    let arrivals: Vec<f64> = match load.arrivals {
        Arrivals::Poisson(rate) => {
            let mut t = 0.0;
            (0..n)
                .map(|_| {
                    t += random.exponential(1.0 / rate.max(f64::MIN_POSITIVE));
                    t
                })
                .collect()
        }
        // The clients' first requests; each ending request sends the next.
        Arrivals::Closed(users) => vec![0.0; (users.max(1) as usize).min(n)],
    };
    let cap = limits.max_running.max(1);
    let budget = limits.step_tokens.max(1);
    let mut lengths = Lengths::of(&load, run.seed);
    let mut requests: Vec<Request> =
        arrivals.iter().map(|&arrival| Request::arriving(arrival, lengths.next())).collect();
    let (mut next_arrival, mut waiting, mut prefilling) = (0usize, VecDeque::new(), VecDeque::new());
    let mut replica = Replica {
        now: 0.0,
        step: 0,
        decoding: 0,
        context_sum: 0.0,
        started: Vec::new(),
        finishes: BinaryHeap::new(),
        kv_used: 0.0,
        kv_tokens: f64::from(limits.kv_sequences.max(1)) * f64::from(prompt + output),
        done: 0,
    };
    let mut outcome = Outcome { ttft: Vec::new(), gaps: Vec::new(), tpot: Vec::new(), most_running: 0, capped: false };
    // The measured requests' span: when the first of them arrives (known
    // from the start for a Poisson stream, once sent for closed clients)
    // until the last of them does.
    let window = |requests: &[Request]| {
        let at = |i: usize| requests.get(i).map_or(f64::INFINITY, |r| r.arrival);
        (at(n / 10), at(n - 1 - n / 10))
    };
    while replica.done < n {
        while next_arrival < requests.len() && requests[next_arrival].arrival <= replica.now {
            waiting.push_back(next_arrival);
            next_arrival += 1;
        }
        // Admit while the cap and the cache allow (a lone request always).
        while let Some(&next) = waiting.front() {
            let prefill = f64::from(requests[next].to_prefill());
            let alone = replica.decoding == 0 && prefilling.is_empty();
            if replica.decoding + prefilling.len() as u32 >= cap
                || (replica.kv_used + prefill > replica.kv_tokens && !alone)
            {
                outcome.capped = true;
                break;
            }
            replica.kv_used += prefill;
            prefilling.push_back(next);
            waiting.pop_front();
        }
        if replica.decoding == 0 && prefilling.is_empty() {
            // Idle until the next request.
            match requests.get(next_arrival) {
                Some(next) => replica.now = replica.now.max(next.arrival),
                None => break,
            }
            continue;
        }
        // Decodes first, then prompts in order with what is left.
        let mut left = budget.saturating_sub(replica.decoding);
        let mut chunk = Chunk::NONE;
        let mut finished_prompts = 0;
        for &r in &prefilling {
            if left == 0 {
                break;
            }
            let request = &mut requests[r];
            let whole = request.to_prefill();
            let take = (whole - request.prefilled).min(left);
            chunk = chunk.and(Chunk::of(f64::from(take), f64::from(request.prefilled)));
            request.prefilled += take;
            left -= take;
            if request.prefilled == whole {
                finished_prompts += 1;
            }
        }
        let seconds = step_s(replica.decoding, replica.mean_context(), chunk);
        // Only decodes until the next arrival, the next request done or the
        // cache full: the steps differ by one token of context each, so they
        // go at once at the step time of the middle one (as many steps, far
        // fewer calls).
        let (steps, seconds) = if prefilling.is_empty() {
            let to_finish =
                replica.finishes.peek().map_or(1, |&Reverse((last, _, _))| last.saturating_sub(replica.step));
            let to_arrival = match requests.get(next_arrival) {
                Some(r) => ((r.arrival - replica.now) / seconds).ceil().max(1.0) as u64,
                None => u64::MAX,
            };
            let to_full = ((replica.kv_tokens - replica.kv_used) / f64::from(replica.decoding)).floor().max(1.0) as u64;
            match to_finish.min(to_arrival).min(to_full).max(1) {
                1 => (1, seconds),
                steps => {
                    (steps, step_s(replica.decoding, replica.mean_context() + (steps - 1) as f64 / 2.0, Chunk::NONE))
                }
            }
        } else {
            (1, seconds)
        };
        let running = replica.decoding;
        outcome.most_running = outcome.most_running.max(running + prefilling.len() as u32);
        let (window_start, window_end) = window(&requests);
        for r in replica.advance(&mut requests, steps, seconds) {
            let output = requests[r].output;
            if run.measured(r) && output > 1 {
                outcome.tpot.push((replica.now - requests[r].first_token) / f64::from(output - 1));
            }
            next_request(&mut requests, load.arrivals, &mut lengths, n, replica.now);
        }
        if running > 0 && replica.now > window_start && replica.now <= window_end {
            outcome.gaps.push((seconds, running.saturating_mul(steps.min(u64::from(u32::MAX)) as u32)));
        }
        // Prompts done this step yield a token and start decoding; the
        // first token of a request is its time to first token.
        for _ in 0..finished_prompts {
            let Some(r) = prefilling.pop_front() else { break };
            if requests[r].made == 0 {
                requests[r].first_token = replica.now;
                if run.measured(r) {
                    outcome.ttft.push(replica.now - requests[r].arrival);
                }
            }
            let done = replica.done;
            replica.start(&mut requests, r);
            if replica.done > done {
                next_request(&mut requests, load.arrivals, &mut lengths, n, replica.now);
            }
        }
        // The cache overflowed: the latest started wait again, first.
        for r in replica.preempt(&mut requests).into_iter().rev() {
            waiting.push_front(r);
        }
    }
    outcome.ttft.sort_unstable_by(f64::total_cmp);
    outcome.tpot.sort_unstable_by(f64::total_cmp);
    outcome.gaps.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step of 10 ms plus 0.1 ms per decode and 0.05 ms per prompt token:
    /// at most 10,000 tokens a second of decode.
    fn linear(decodes: u32, _context: f64, chunk: Chunk) -> f64 {
        0.010 + 0.0001 * f64::from(decodes) + 0.00005 * chunk.tokens
    }

    const LIMITS: Limits = Limits { max_running: 256, step_tokens: 2048, kv_sequences: 1_000 };

    /// 8 requests a second of 500 tokens in, 200 out: about 25 running at
    /// once on `linear`'s replica.
    const BUSY: Load = Load {
        arrivals: Arrivals::Poisson(8.0),
        prompt_tokens: 500,
        output_tokens: 200,
        cached_tokens: 0,
        spread: 0.0,
    };

    #[test]
    fn a_lone_request_waits_for_its_prompt_then_one_step_a_token() {
        // One request an hour, done in about a second: never two at once.
        let load = Load {
            arrivals: Arrivals::Poisson(1.0 / 3600.0),
            prompt_tokens: 1000,
            output_tokens: 101,
            cached_tokens: 0,
            spread: 0.0,
        };
        let outcome = simulate(load, LIMITS, Run { requests: 50, seed: 1 }, linear);
        // The prompt in one step: 10 ms + 50 ms.
        assert!((outcome.ttft(50.0) - 0.060).abs() < 1e-9, "{}", outcome.ttft(50.0));
        assert!((outcome.ttft(99.0) - 0.060).abs() < 1e-9);
        // Then 100 steps of one decode: 10.1 ms each.
        assert!((outcome.itl(50.0) - 0.0101).abs() < 1e-9);
        assert!((outcome.tpot(99.0) - 0.0101).abs() < 1e-9);
        assert_eq!(outcome.most_running, 1);
        assert!(!outcome.capped);
    }

    #[test]
    fn a_prompt_longer_than_the_budget_takes_several_steps() {
        let load = Load {
            arrivals: Arrivals::Poisson(1.0 / 3600.0),
            prompt_tokens: 5000,
            output_tokens: 10,
            cached_tokens: 0,
            spread: 0.0,
        };
        let outcome = simulate(load, LIMITS, Run { requests: 20, seed: 2 }, linear);
        // 2048 + 2048 + 904 tokens: three steps of 10 ms plus 0.25 s of tokens.
        assert!((outcome.ttft(50.0) - (0.030 + 0.25)).abs() < 1e-9, "{}", outcome.ttft(50.0));
    }

    #[test]
    fn the_same_seed_gives_the_same_latencies_and_more_load_gives_longer_ones() {
        let load = |rate| Load {
            arrivals: Arrivals::Poisson(rate),
            prompt_tokens: 500,
            output_tokens: 200,
            cached_tokens: 0,
            spread: 0.0,
        };
        let run = Run { requests: 1_000, seed: 7 };
        let a = simulate(load(2.0), LIMITS, run, linear);
        assert_eq!(a, simulate(load(2.0), LIMITS, run, linear));
        let b = simulate(load(8.0), LIMITS, run, linear);
        assert!(b.itl(50.0) > a.itl(50.0) && b.ttft(90.0) > a.ttft(90.0));
        assert!(b.most_running > a.most_running);
        // Percentiles rise with the percentile asked.
        for o in [&a, &b] {
            assert!(o.ttft(50.0) <= o.ttft(90.0) && o.ttft(90.0) <= o.ttft(99.0));
            assert!(o.itl(50.0) <= o.itl(99.0) && o.tpot(50.0) <= o.tpot(99.0));
        }
    }

    #[test]
    fn a_running_cap_makes_requests_queue() {
        // Eight at once serve about 3.5 a second.
        let run = Run { requests: 1_000, seed: 3 };
        let free = simulate(BUSY, LIMITS, run, linear);
        let capped = simulate(BUSY, Limits { max_running: 8, ..LIMITS }, run, linear);
        assert!(capped.capped && !free.capped);
        assert!(capped.most_running <= 8);
        // Fewer at once: shorter gaps, but a long wait for the first token.
        assert!(capped.itl(50.0) < free.itl(50.0));
        assert!(capped.ttft(90.0) > 10.0 * free.ttft(90.0));
    }

    #[test]
    fn a_full_cache_holds_requests_back_and_preempts_the_last_started() {
        let run = Run { requests: 500, seed: 4 };
        let free = simulate(BUSY, LIMITS, run, linear);
        // Eight whole sequences: 5,600 tokens, eleven prompts at most.
        let small = simulate(BUSY, Limits { kv_sequences: 8, ..LIMITS }, run, linear);
        assert!(small.capped && !free.capped);
        assert!(small.most_running <= 11 && small.most_running > 8, "{}", small.most_running);
        assert!(small.ttft(90.0) > 10.0 * free.ttft(90.0));
        // Requests preempted and made again take longer per token.
        assert!(small.tpot(99.0) > free.tpot(99.0));
    }

    #[test]
    fn closed_clients_keep_as_many_requests_in_flight_as_they_are() {
        let load = Load {
            arrivals: Arrivals::Closed(8),
            prompt_tokens: 500,
            output_tokens: 200,
            cached_tokens: 0,
            spread: 0.0,
        };
        let outcome = simulate(load, LIMITS, Run { requests: 400, seed: 5 }, linear);
        assert_eq!(outcome.most_running, 8);
        // Nobody waits for a place: a first token comes within the two
        // steps the step budget takes for eight prompts sent at once (the
        // clients, started together with requests of one length, stay in
        // step), 0.11 s each.
        assert!(outcome.ttft(99.0) <= 0.2201, "{}", outcome.ttft(99.0));
        // Eight running: steps of about 10.8 ms plus the others' prompts.
        assert!(outcome.itl(50.0) >= 0.0108 - 1e-9 && outcome.itl(50.0) < 0.05, "{}", outcome.itl(50.0));
        let one =
            simulate(Load { arrivals: Arrivals::Closed(1), ..load }, LIMITS, Run { requests: 50, seed: 5 }, linear);
        assert_eq!(one.most_running, 1);
        assert!((one.itl(50.0) - 0.0101).abs() < 1e-9);
    }

    #[test]
    fn arrivals_average_the_rate_asked() {
        let mut random = SplitMix(9);
        let mean: f64 = (0..100_000).map(|_| random.exponential(0.25)).sum::<f64>() / 100_000.0;
        assert!((mean - 0.25).abs() < 0.005, "{mean}");
    }

    /// Prompts the prefix cache mostly holds reach their first token
    /// sooner, and leave more of each step to decodes.
    #[test]
    fn a_prefix_cache_hit_shortens_the_first_token() {
        let run = Run { requests: 400, seed: 3 };
        let cold = simulate(BUSY, LIMITS, run, linear);
        let warm = simulate(Load { cached_tokens: 400, ..BUSY }, LIMITS, run, linear);
        assert!(warm.ttft(50.0) < cold.ttft(50.0) * 0.8, "{} vs {}", warm.ttft(50.0), cold.ttft(50.0));
        assert!(warm.itl(95.0) <= cold.itl(95.0));
        // A lone request prefills the 100 tokens left: one step of 10 ms + 100 × 0.05 ms.
        let lone = Load {
            arrivals: Arrivals::Poisson(1.0 / 3600.0),
            prompt_tokens: 500,
            output_tokens: 2,
            cached_tokens: 400,
            spread: 0.0,
        };
        let alone = simulate(lone, LIMITS, Run { requests: 20, seed: 1 }, linear);
        assert!((alone.ttft(50.0) - 0.015).abs() < 1e-9, "{}", alone.ttft(50.0));
        // A whole prompt cached still computes its last token.
        let all = simulate(Load { cached_tokens: 500, ..lone }, LIMITS, Run { requests: 20, seed: 1 }, linear);
        assert!((all.ttft(50.0) - (0.010 + 0.00005)).abs() < 1e-9, "{}", all.ttft(50.0));
    }

    /// Lengths drawn with a spread keep their mean and vary by about it;
    /// none is zero or past eight times the mean.
    #[test]
    fn lengths_with_a_spread_keep_their_mean_and_vary_by_it() {
        let mut random = SplitMix(7);
        let draws: Vec<f64> = (0..20_000).map(|_| f64::from(random.length(500, 1.0))).collect();
        let mean = draws.iter().sum::<f64>() / draws.len() as f64;
        let sd = (draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / draws.len() as f64).sqrt();
        assert!((mean - 500.0).abs() < 15.0, "{mean}");
        assert!((sd / mean - 1.0).abs() < 0.1, "{}", sd / mean);
        assert!(draws.iter().all(|&x| (1.0..=4000.0).contains(&x)));
        assert_eq!(SplitMix(7).length(500, 0.0), 500);
    }

    /// Requests of varied lengths at the same mean load widen the tail of
    /// the first token (long prompts queue the ones behind them).
    #[test]
    fn varied_lengths_widen_the_first_tokens_tail() {
        let run = Run { requests: 1000, seed: 11 };
        let fixed = simulate(BUSY, LIMITS, run, linear);
        let varied = simulate(Load { spread: 1.0, ..BUSY }, LIMITS, run, linear);
        assert!(varied.ttft(99.0) > fixed.ttft(99.0), "{} vs {}", varied.ttft(99.0), fixed.ttft(99.0));
    }
}
