//! The weight and KV-cache formats the planner may choose to meet latency
//! targets (issue 39: "keep the model's precision" or "allow FP8/INT4",
//! URL key `quant`). The ranking tries each on every offer, where the
//! support matrix says the runtime runs it on the GPU (`engine::setup`),
//! and keeps the one that serves the stated traffic cheapest.

use super::Targets;
use crate::engine::{KvPrecision, Precision, Quantize, Workload};

/// What `quant=allow` tries besides the workload's own formats, most
/// precise first: an FP8 KV cache (vLLM's `--kv-cache-dtype fp8`, SGLang's
/// and TensorRT-LLM's alike: half the cache's bytes, `data/launch_flags.csv`),
/// then FP8 weights quantized as the runtime loads them (`--quantization
/// fp8`, vLLM's online dynamic FP8), then INT4 weights from an AWQ
/// checkpoint, each with the FP8 cache.
const TRIED: [(Option<Precision>, KvPrecision); 3] =
    [(None, KvPrecision::Fp8), (Some(Precision::Fp8), KvPrecision::Fp8), (Some(Precision::Awq), KvPrecision::Fp8)];

/// The workload in each format `quant=allow` tries that stores its
/// weights and its KV cache in no more bytes than its own; none with
/// `quant=keep` or without latency targets.
pub fn alternatives(workload: &Workload) -> Vec<Workload> {
    if workload.quantize == Quantize::Keep || Targets::of(workload).is_none() {
        return Vec::new();
    }
    let own = (workload.weight_precision, workload.kv_precision);
    let mut tried = vec![own];
    for (weights, kv) in TRIED {
        let pair = (weights.unwrap_or(own.0), kv);
        let smaller = pair.0.bits_per_weight() <= own.0.bits_per_weight() && pair.1.bytes() <= own.1.bytes();
        if smaller && !tried.contains(&pair) {
            tried.push(pair);
        }
    }
    tried[1..]
        .iter()
        .map(|&(weight_precision, kv_precision)| Workload { weight_precision, kv_precision, ..workload.clone() })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Catalog;

    fn formats(query: &str) -> Vec<(Precision, KvPrecision)> {
        let workload = crate::url_codec::decode(query, Catalog::bundled().unwrap()).workload;
        alternatives(&workload).iter().map(|w| (w.weight_precision, w.kv_precision)).collect()
    }

    #[test]
    fn allowed_formats_are_the_smaller_ones_most_precise_first() {
        let targets = "model=llama-3.1-8b&rps=2&ttft=1&itl=0.05&quant=allow";
        assert_eq!(
            formats(&format!("{targets}&wq=bf16")),
            [
                (Precision::Bf16, KvPrecision::Fp8),
                (Precision::Fp8, KvPrecision::Fp8),
                (Precision::Awq, KvPrecision::Fp8)
            ]
        );
        // Already 4-bit: only the cache is made smaller, never the weights larger.
        assert_eq!(formats(&format!("{targets}&wq=awq")), [(Precision::Awq, KvPrecision::Fp8)]);
        assert_eq!(formats(&format!("{targets}&wq=awq&kvq=fp8")), []);
        // Keep (the default), or no targets: nothing else.
        assert_eq!(formats("model=llama-3.1-8b&rps=2&ttft=1&itl=0.05&wq=bf16"), []);
        assert_eq!(formats("model=llama-3.1-8b&quant=allow&wq=bf16"), []);
    }
}
