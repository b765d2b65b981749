//! Numeric formats for weights and for the KV cache, with their storage cost.

use super::options::choices;
use crate::text::phrases;
use crate::units::BYTES_PER_GB;

/// Parameters of Llama-3-8B, the model llama.cpp's quantize tool states its
/// GGUF file sizes for (models.csv, computed from the config).
const LLAMA_3_8B_PARAMS: f64 = 8_030_261_248.0;

/// Effective bits per weight of a GGUF file type: llama.cpp's
/// `tools/quantize/quantize.cpp` QUANT_OPTIONS gives each type's file size
/// for Llama-3-8B in GiB ("Q4_K_M: 4.58G, +0.1754 ppl @ Llama-3-8B"). These
/// sizes include the embedding and output tensors, which the K-quant mixes
/// keep at higher precision, so they are the real cost per weight. For the
/// i-quants QUANT_OPTIONS states bits per weight instead ("IQ4_XS: 4.25 bpw
/// non-linear quantization"), the ggml block's own size (IQ4_XS: 136 bytes
/// per 256 weights); their files keep the output tensor wider, a few
/// percent more.
const fn gguf_bits(gib_for_llama_3_8b: f64) -> f64 {
    gib_for_llama_3_8b * BYTES_PER_GB * 8.0 / LLAMA_3_8B_PARAMS
}

choices! {
    /// The format weights are stored in. One type drives the form's `<select>`,
    /// the URL key `wq`, the CLI and the JSON.
    pub enum Precision: phrases::OPTION_PRECISION {
        Bf16 = "bf16", phrases::PRECISION_BF16;
        Fp16 = "fp16", phrases::PRECISION_FP16;
        Fp32 = "fp32", phrases::PRECISION_FP32;
        Fp8 = "fp8", phrases::PRECISION_FP8;
        Int8 = "int8", phrases::PRECISION_INT8;
        Int4 = "int4", phrases::PRECISION_INT4;
        /// Blackwell NVFP4: 4-bit values with an FP8 scale per 16.
        Fp4 = "fp4", phrases::PRECISION_FP4;
        /// OCP Microscaling MXFP4: gpt-oss's MoE experts.
        Mxfp4 = "mxfp4", phrases::PRECISION_MXFP4;
        Awq = "awq", phrases::PRECISION_AWQ;
        Gptq = "gptq", phrases::PRECISION_GPTQ;
        /// bitsandbytes 4-bit NormalFloat with double quantization (QLoRA).
        Nf4 = "nf4", phrases::PRECISION_NF4;
        Q8_0 = "q8_0", phrases::PRECISION_Q8_0;
        Q6K = "q6_k", phrases::PRECISION_Q6_K;
        Q5KM = "q5_k_m", phrases::PRECISION_Q5_K_M;
        Q4KM = "q4_k_m", phrases::PRECISION_Q4_K_M;
        Q3KM = "q3_k_m", phrases::PRECISION_Q3_K_M;
        Q2K = "q2_k", phrases::PRECISION_Q2_K;
        /// GGUF's legacy block formats: 32 weights with an FP16 scale (and,
        /// for the `_1` types, an FP16 minimum).
        Q5_1 = "q5_1", phrases::PRECISION_Q5_1;
        Q5_0 = "q5_0", phrases::PRECISION_Q5_0;
        Q4_1 = "q4_1", phrases::PRECISION_Q4_1;
        Q4_0 = "q4_0", phrases::PRECISION_Q4_0;
        /// GGUF's i-quants: lattice codebooks over blocks of 256 weights.
        Iq4Xs = "iq4_xs", phrases::PRECISION_IQ4_XS;
        Iq3S = "iq3_s", phrases::PRECISION_IQ3_S;
        Iq3Xxs = "iq3_xxs", phrases::PRECISION_IQ3_XXS;
        Iq2Xs = "iq2_xs", phrases::PRECISION_IQ2_XS;
        Iq2Xxs = "iq2_xxs", phrases::PRECISION_IQ2_XXS;
    }
}

impl Precision {
    /// Whether servers load weights in this format only from a checkpoint
    /// quantized beforehand, not from the published 16-bit one: vLLM
    /// quantizes to FP8 as it loads (`--quantization fp8`) but reads AWQ,
    /// GPTQ, INT4, INT8 (W8A8) and NVFP4 weights from checkpoints that
    /// AutoAWQ, GPTQModel, LLM Compressor or ModelOpt wrote
    /// (docs.vllm.ai/en/latest/features/quantization/), as SGLang and
    /// TensorRT-LLM do.
    pub fn from_quantized_checkpoint(self) -> bool {
        matches!(self, Precision::Awq | Precision::Gptq | Precision::Int4 | Precision::Int8 | Precision::Fp4)
    }

    /// Storage per weight in bits, scales and zero points included.
    pub fn bits_per_weight(self) -> f64 {
        match self {
            // IEEE binary32/binary16, bfloat16 and OCP FP8 by definition;
            // int8 with per-channel scales (negligible per weight).
            Precision::Fp32 => 32.0,
            Precision::Bf16 | Precision::Fp16 => 16.0,
            Precision::Fp8 | Precision::Int8 => 8.0,
            // Round-to-nearest int4 with an FP16 scale per group of 128.
            Precision::Int4 => 4.0 + 16.0 / 128.0,
            // NVFP4: E2M1 values + one E4M3 scale per 16 (NVIDIA Blackwell docs).
            Precision::Fp4 => 4.0 + 8.0 / 16.0,
            // MXFP4: E2M1 values + one E8M0 scale per 32 (OCP Microscaling
            // Formats spec v1.0, section 5.3).
            Precision::Mxfp4 => 4.0 + 8.0 / 32.0,
            // AWQ and GPTQ: 4-bit, group size 128, FP16 scale and 4-bit zero
            // per group (AutoAWQ / AutoGPTQ default packing).
            Precision::Awq | Precision::Gptq => 4.0 + (16.0 + 4.0) / 128.0,
            // NF4 with double quantization: 4 bits + 0.127 bits of constants
            // per parameter (Dettmers et al. 2023, QLoRA, section 3).
            Precision::Nf4 => 4.127,
            Precision::Q8_0 => gguf_bits(7.96),
            Precision::Q6K => gguf_bits(6.14),
            Precision::Q5KM => gguf_bits(5.33),
            Precision::Q4KM => gguf_bits(4.58),
            Precision::Q3KM => gguf_bits(3.74),
            Precision::Q2K => gguf_bits(2.96),
            Precision::Q5_1 => gguf_bits(5.65),
            Precision::Q5_0 => gguf_bits(5.21),
            Precision::Q4_1 => gguf_bits(4.78),
            Precision::Q4_0 => gguf_bits(4.34),
            Precision::Iq4Xs => 4.25,
            Precision::Iq3S => 3.44,
            Precision::Iq3Xxs => 3.06,
            Precision::Iq2Xs => 2.31,
            Precision::Iq2Xxs => 2.06,
        }
    }

    /// Whether the format is one of GGUF's quantization types (llama.cpp's
    /// own file format).
    pub const fn is_gguf(self) -> bool {
        matches!(
            self,
            Precision::Q8_0
                | Precision::Q6K
                | Precision::Q5KM
                | Precision::Q4KM
                | Precision::Q3KM
                | Precision::Q2K
                | Precision::Q5_1
                | Precision::Q5_0
                | Precision::Q4_1
                | Precision::Q4_0
                | Precision::Iq4Xs
                | Precision::Iq3S
                | Precision::Iq3Xxs
                | Precision::Iq2Xs
                | Precision::Iq2Xxs
        )
    }

    /// Whether the format's stated size already covers the embedding and
    /// output layers (GGUF files and plain formats). AWQ, GPTQ, NF4 and the
    /// weight-only int/fp formats quantize the transformer's linear layers
    /// and keep embeddings and the LM head in 16-bit (gpt-oss's MXFP4
    /// checkpoints too: its config's `modules_to_not_convert`).
    pub const fn covers_embeddings(self) -> bool {
        !matches!(
            self,
            Precision::Awq
                | Precision::Gptq
                | Precision::Nf4
                | Precision::Int4
                | Precision::Int8
                | Precision::Fp8
                | Precision::Fp4
                | Precision::Mxfp4
        )
    }
}

choices! {
    /// The format of the KV cache (URL key `kvq`).
    pub enum KvPrecision: phrases::OPTION_KV_PRECISION {
        Bf16 = "bf16", phrases::KV_BF16;
        Fp16 = "fp16", phrases::KV_FP16;
        Fp8 = "fp8", phrases::KV_FP8;
        Int8 = "int8", phrases::KV_INT8;
    }
}

impl KvPrecision {
    /// Bytes per cached element.
    pub const fn bytes(self) -> f64 {
        match self {
            KvPrecision::Bf16 | KvPrecision::Fp16 => 2.0,
            KvPrecision::Fp8 | KvPrecision::Int8 => 1.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_round_trips_through_its_key() {
        for p in Precision::ALL {
            assert_eq!(p.key().parse::<Precision>(), Ok(p));
            assert_eq!(p.to_string(), p.key());
        }
        for k in KvPrecision::ALL {
            assert_eq!(k.key().parse::<KvPrecision>(), Ok(k));
        }
    }

    #[test]
    fn spellings_are_case_insensitive_and_unknown_ones_are_named() {
        assert_eq!("BF16".parse::<Precision>(), Ok(Precision::Bf16));
        assert_eq!("Q4_K_M".parse::<Precision>(), Ok(Precision::Q4KM));
        let err = "fp7".parse::<Precision>().unwrap_err();
        assert!(err.to_string().contains("\"fp7\""), "{err}");
        assert!(err.to_string().contains("q4_k_m"), "{err}");
    }

    #[test]
    fn gguf_formats_cost_their_published_bits_per_weight() {
        // Q8_0 stores 32 int8 weights with one FP16 scale: 34 bytes per 32 = 8.5 bpw
        // (ggml block_q8_0); the published 7.96 GiB for Llama-3-8B agrees within 0.2%.
        assert!((Precision::Q8_0.bits_per_weight() - 8.5).abs() < 0.02);
        // Q6_K is 210 bytes per 256 weights = 6.5625 bpw (ggml block_q6_K).
        assert!((Precision::Q6K.bits_per_weight() - 6.5625).abs() < 0.02);
        // Q4_K_M mixes Q4_K (4.5 bpw) with Q6_K tensors: 4.90 bpw on Llama-3-8B.
        assert!((Precision::Q4KM.bits_per_weight() - 4.90).abs() < 0.01);
        let ordered: Vec<f64> =
            [Precision::Q8_0, Precision::Q6K, Precision::Q5KM, Precision::Q4KM, Precision::Q3KM, Precision::Q2K]
                .iter()
                .map(|p| p.bits_per_weight())
                .collect();
        assert!(ordered.windows(2).all(|w| w[0] > w[1]), "{ordered:?}");
    }
}
