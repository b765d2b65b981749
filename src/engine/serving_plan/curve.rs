//! The throughput–interactivity curve of a replica (issue 39): as the
//! running batch grows, what each request gets (tokens a second, the
//! inverse of its gap between tokens) against what each GPU makes (tokens
//! a second over the replica's GPUs): the curve serving engineers read to
//! see what a latency target costs in throughput.

use super::simulate::Limits;
use crate::engine::speed::llm::Chunk;
use serde::Serialize;

/// One point of the curve: the steady state of continuous batching with
/// `running` requests decoding at once and the prompts of the requests
/// that replace them prefilled in chunks between their tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CurvePoint {
    pub running: u32,
    /// Tokens a second each request gets: one over its mean gap.
    pub tokens_per_s_per_user: f64,
    /// Tokens a second the replica makes, over its GPUs.
    pub tokens_per_s_per_gpu: f64,
    /// Requests a second the replica finishes.
    pub requests_per_s: f64,
}

/// The curve at running batches of 1, 2, 4, … up to the most the replica
/// runs (the runtime's cap, or as many as its KV cache holds), that one
/// included. In a round every running request makes a token and, in the
/// steady state, prompt / output of a prompt's tokens are prefilled per
/// request (each request's prompt, less what the prefix cache holds,
/// spread over its tokens); a round whose
/// tokens exceed the step budget takes as many steps as they fill.
pub fn curve(
    prompt: u32,
    cached: u32,
    output: u32,
    limits: Limits,
    gpus: u32,
    step_s: &impl Fn(u32, f64, Chunk) -> f64,
) -> Vec<CurvePoint> {
    let (prompt, cached, output) = (f64::from(prompt), f64::from(cached), f64::from(output.max(1)));
    let fresh = prompt - cached;
    let context = prompt + output / 2.0;
    let most = limits.max_running.min(limits.kv_sequences).max(1);
    let budget = f64::from(limits.step_tokens.max(1));
    let sizes = (0..32).map(|k| 1u32 << k).take_while(|&n| n < most).chain([most]);
    sizes
        .map(|running| {
            let n = f64::from(running);
            let prefill = n * fresh / output;
            let steps = ((n + prefill) / budget).ceil().max(1.0);
            let per_step = prompt_chunk(prefill / steps, cached, fresh);
            let round = steps * step_s((n / steps).ceil() as u32, context, per_step);
            CurvePoint {
                running,
                tokens_per_s_per_user: 1.0 / round,
                tokens_per_s_per_gpu: n / round / f64::from(gpus.max(1)),
                requests_per_s: n / (output * round),
            }
        })
        .collect()
}

/// `tokens` of prompts prefilled in the steady state, each prompt's
/// `fresh` tokens after its `cached` ones: on average a token attends to
/// the cached ones and half the fresh ones, and the step reads as much
/// cache and writes its own (`Chunk::of` for one chunk).
pub fn prompt_chunk(tokens: f64, cached: f64, fresh: f64) -> Chunk {
    let share = if fresh > 0.0 { tokens / fresh } else { 0.0 };
    Chunk { tokens, pairs: tokens * (cached + fresh / 2.0), cache: tokens * 1.5 + share * cached }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// A step of 10 ms plus 1 ms per running request and 0.1 ms per prompt token.
    fn step(decodes: u32, _context: f64, chunk: Chunk) -> f64 {
        0.010 + 0.001 * f64::from(decodes) + 0.0001 * chunk.tokens
    }

    #[test]
    fn a_larger_batch_makes_more_per_gpu_and_less_per_user() {
        let limits = Limits { max_running: 48, step_tokens: 2048, kv_sequences: 100 };
        let points = curve(1000, 0, 250, limits, 2, &step);
        let running: Vec<u32> = points.iter().map(|p| p.running).collect();
        assert_eq!(running, [1, 2, 4, 8, 16, 32, 48]);
        for pair in points.windows(2) {
            assert!(pair[1].tokens_per_s_per_gpu > pair[0].tokens_per_s_per_gpu, "{pair:?}");
            assert!(pair[1].tokens_per_s_per_user < pair[0].tokens_per_s_per_user, "{pair:?}");
        }
        // One request: 4 prompt tokens a round (1000 / 250) beside its own.
        let one = points[0];
        let round = 0.010 + 0.001 + 0.0004;
        assert!((one.tokens_per_s_per_user - 1.0 / round).abs() < 1e-9);
        assert!((one.tokens_per_s_per_gpu - 1.0 / round / 2.0).abs() < 1e-9);
        assert!((one.requests_per_s - 1.0 / (250.0 * round)).abs() < 1e-12);
    }

    #[test]
    fn a_round_past_the_step_budget_takes_more_steps() {
        // 48 running with 4 prompt tokens each: 240 tokens a round, 100 a step: 3 steps.
        let limits = Limits { max_running: 48, step_tokens: 100, kv_sequences: 48 };
        let last = *curve(1000, 0, 250, limits, 1, &step).last().unwrap();
        let round = 3.0 * (0.010 + 0.001 * 16.0 + 0.0001 * 64.0);
        assert!((last.tokens_per_s_per_user - 1.0 / round).abs() < 1e-9, "{last:?}");
    }
}
