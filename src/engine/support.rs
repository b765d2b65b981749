//! The support matrix: which software runs on which hardware, and which
//! weight formats, KV caches and arithmetic it runs there natively, through
//! a fallback, or not at all. The facts are data (`data/support_matrix.csv`,
//! each row citing the software's own documentation or release notes),
//! carried in the catalog the page downloads; this module only reads them.
//! `engine::setup` turns them into what one workload needs on one GPU.

use super::gpu::{Architecture, ComputeCapability};
use super::options::choices;
use super::{Gpu, KvPrecision, Precision};
use crate::msg;
use crate::text::{phrases, Msg};
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

choices! {
    /// A piece of software that runs work on accelerators: the serving
    /// runtimes (as `Runtime` names them), the training stack and the
    /// libraries it leans on, and the media pipelines.
    pub enum Stack: phrases::OPTION_STACK {
        Vllm = "vllm", phrases::RUNTIME_VLLM;
        Trtllm = "trtllm", phrases::RUNTIME_TRTLLM;
        Llamacpp = "llamacpp", phrases::RUNTIME_LLAMACPP;
        Hf = "hf", phrases::RUNTIME_HF;
        /// PyTorch training (full fine-tuning, LoRA, pretraining; DeepSpeed
        /// ZeRO and FSDP run wherever it does).
        Pytorch = "pytorch", phrases::STACK_PYTORCH;
        /// NF4 weights for QLoRA and 8-bit optimizers.
        Bitsandbytes = "bitsandbytes", phrases::STACK_BITSANDBYTES;
        /// FP8 training (NVIDIA Transformer Engine and its ports).
        TransformerEngine = "transformer_engine", phrases::STACK_TRANSFORMER_ENGINE;
        Diffusers = "diffusers", phrases::STACK_DIFFUSERS;
        /// Whisper on CTranslate2.
        FasterWhisper = "faster_whisper", phrases::STACK_FASTER_WHISPER;
    }
}

/// What a workload asks of its software on a GPU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The software runs on the hardware at all.
    Runs,
    /// It loads and runs weights in this format.
    Weights(Precision),
    /// It keeps the KV cache in this format.
    Kv(KvPrecision),
    /// BF16 arithmetic (tensor cores or their equivalent).
    ComputeBf16,
    /// FP8 matrix multiplies in training.
    ComputeFp8,
    /// 8-bit optimizer states (bitsandbytes' AdamW8bit).
    Optimizer8bit,
    /// FlashAttention-class fused attention kernels.
    FlashAttention,
    /// Video generation pipelines (Wan, HunyuanVideo, CogVideoX), where
    /// a port of the image pipelines stops short of them (AWS Neuron).
    VideoPipelines,
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Feature::Runs => f.write_str("runs"),
            Feature::Weights(p) => write!(f, "weights:{p}"),
            Feature::Kv(k) => write!(f, "kv:{k}"),
            Feature::ComputeBf16 => f.write_str("compute:bf16"),
            Feature::ComputeFp8 => f.write_str("compute:fp8"),
            Feature::Optimizer8bit => f.write_str("optimizer:adamw8bit"),
            Feature::FlashAttention => f.write_str("attention:flash"),
            Feature::VideoPipelines => f.write_str("pipelines:video"),
        }
    }
}

impl Feature {
    /// Reads `runs`, `compute:bf16`, `compute:fp8`, `optimizer:adamw8bit`,
    /// `attention:flash`, `pipelines:video`, or a list of one kind: `weights:awq;gptq`, `kv:fp8;int8`.
    pub fn parse_list(text: &str) -> Result<Vec<Feature>, String> {
        let text = text.trim();
        let (kind, values) = text.split_once(':').unwrap_or((text, ""));
        let each = |parse: &dyn Fn(&str) -> Result<Feature, String>| -> Result<Vec<Feature>, String> {
            values.split(';').map(|v| parse(v.trim())).collect()
        };
        match (kind, values) {
            ("runs", "") => Ok(vec![Feature::Runs]),
            ("compute", "bf16") => Ok(vec![Feature::ComputeBf16]),
            ("compute", "fp8") => Ok(vec![Feature::ComputeFp8]),
            ("optimizer", "adamw8bit") => Ok(vec![Feature::Optimizer8bit]),
            ("attention", "flash") => Ok(vec![Feature::FlashAttention]),
            ("pipelines", "video") => Ok(vec![Feature::VideoPipelines]),
            ("weights", _) => each(&|v| v.parse::<Precision>().map(Feature::Weights).map_err(|e| e.to_string())),
            ("kv", _) => each(&|v| v.parse::<KvPrecision>().map(Feature::Kv).map_err(|e| e.to_string())),
            _ => Err(format!(
                "\"{text}\" is not a feature (runs, weights:<formats>, kv:<formats>, compute:bf16, compute:fp8, optimizer:adamw8bit, attention:flash, pipelines:video)"
            )),
        }
    }
}

/// What runs instead when the hardware lacks what was asked. A fallback to
/// a format (FP16, BF16, FP32) applied to weights means the software holds
/// them in that format, with its memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fallback {
    /// BF16 runs as FP16 (no BF16 units: Volta, Turing), the same memory;
    /// training adds loss scaling. Other weights held as FP16 take its memory.
    Fp16,
    /// FP8 or FP4 weights are dequantized inside the kernels and multiplied
    /// in 16 bits (vLLM's Marlin kernels on Ampere).
    WeightOnly,
    /// The format becomes BF16: FP8 training runs in BF16; FP8 or GGUF
    /// weights a runtime cannot run packed are dequantized to BF16 when
    /// loaded, and take BF16's memory.
    Bf16,
    /// Weights are held and multiplied in FP32 (CTranslate2 on GPUs without
    /// fast 8- or 16-bit paths).
    Fp32,
    /// BF16 runs, emulated in software (PyTorch on GPUs without BF16 units):
    /// the same memory, much slower.
    Emulated,
    /// Attention runs in PyTorch's memory-efficient SDPA kernel instead of
    /// FlashAttention: the same memory, slower.
    Sdpa,
}

impl Fallback {
    /// The format a fallback to a format holds weights in.
    pub const fn format(self) -> Option<Precision> {
        match self {
            Fallback::Fp16 => Some(Precision::Fp16),
            Fallback::Bf16 => Some(Precision::Bf16),
            Fallback::Fp32 => Some(Precision::Fp32),
            Fallback::WeightOnly | Fallback::Emulated | Fallback::Sdpa => None,
        }
    }

    pub const ALL: [Fallback; 6] =
        [Fallback::Fp16, Fallback::WeightOnly, Fallback::Bf16, Fallback::Fp32, Fallback::Emulated, Fallback::Sdpa];

    /// The spelling in `data/support_matrix.csv`'s `becomes` column.
    pub const fn key(self) -> &'static str {
        match self {
            Fallback::Fp16 => "fp16",
            Fallback::WeightOnly => "weight_only",
            Fallback::Bf16 => "bf16",
            Fallback::Fp32 => "fp32",
            Fallback::Emulated => "emulated",
            Fallback::Sdpa => "sdpa",
        }
    }
}

/// How a feature runs on some hardware.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Support {
    Native,
    Fallback(Fallback),
    No,
}

impl fmt::Display for Support {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Support::Native => f.write_str("native"),
            Support::Fallback(fallback) => write!(f, "fallback:{}", fallback.key()),
            Support::No => f.write_str("no"),
        }
    }
}

impl FromStr for Support {
    type Err = String;

    /// `native`, `no`, or `fallback:<becomes>`.
    fn from_str(text: &str) -> Result<Self, String> {
        match text.split_once(':') {
            None if text == "native" => Ok(Support::Native),
            None if text == "no" => Ok(Support::No),
            Some(("fallback", becomes)) => {
                Fallback::ALL.into_iter().find(|f| f.key() == becomes).map(Support::Fallback).ok_or_else(|| {
                    format!("fallback \"{becomes}\" is not one of fp16, weight_only, bf16, fp32, emulated, sdpa")
                })
            }
            _ => Err(format!("\"{text}\" is not a support level (native, fallback:<becomes>, no)")),
        }
    }
}

/// Which hardware a row speaks of: a vendor, optionally narrowed to some of
/// its architectures and, for NVIDIA, a range of compute capabilities.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hardware {
    /// gpus.csv `vendor`: NVIDIA, AMD, Intel, Google, AWS, Apple.
    pub vendor: String,
    /// Empty: every architecture of the vendor.
    pub architectures: Vec<Architecture>,
    pub min_cc: Option<ComputeCapability>,
    pub max_cc: Option<ComputeCapability>,
}

impl Hardware {
    /// Whether `gpu` is such hardware. A bound on the compute capability
    /// excludes a GPU whose capability is not known.
    pub fn covers(&self, gpu: &Gpu) -> bool {
        if !gpu.vendor.eq_ignore_ascii_case(&self.vendor) {
            return false;
        }
        if !self.architectures.is_empty() && !gpu.architecture.is_some_and(|a| self.architectures.contains(&a)) {
            return false;
        }
        let cc = gpu.compute_capability;
        let above = self.min_cc.is_none_or(|min| cc.is_some_and(|cc| cc >= min));
        let below = self.max_cc.is_none_or(|max| cc.is_some_and(|cc| cc <= max));
        above && below
    }
}

impl Hardware {
    /// The hardware in words: "NVIDIA (compute capability 8.0+)", "AMD
    /// CDNA2/CDNA3", "Google TPU".
    pub fn words(&self) -> Msg {
        let names: Vec<&str> = self
            .architectures
            .iter()
            .map(|a| a.name())
            .filter(|name| !self.vendor.eq_ignore_ascii_case(name))
            .collect();
        let name = if names.is_empty() { self.vendor.clone() } else { format!("{} {}", self.vendor, names.join("/")) };
        match (self.min_cc, self.max_cc) {
            (Some(min), Some(max)) if min == max => {
                msg!(phrases::HARDWARE_CC_EXACTLY, name = name, cc = min.to_string())
            }
            (Some(min), Some(max)) => {
                msg!(phrases::HARDWARE_CC_RANGE, name = name, min = min.to_string(), max = max.to_string())
            }
            (Some(min), None) => msg!(phrases::HARDWARE_CC_FROM, name = name, cc = min.to_string()),
            (None, Some(max)) => msg!(phrases::HARDWARE_CC_UP_TO, name = name, cc = max.to_string()),
            (None, None) => msg!(phrases::HARDWARE_NAME, name = name),
        }
    }
}

impl fmt::Display for Hardware {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.words().fmt(f)
    }
}

/// One row of the support matrix: how `stack` runs `features` on
/// `hardware`. Rows are read in order and the first that covers a question
/// answers it, so specific rows come before general ones.
///
/// catalog.json spells a row as one line of its cells,
/// `vllm|NVIDIA||7.5|8.8|weights:fp8|fallback:weight_only`: the page then
/// reads the matrix with this parser instead of serde's code for each
/// nested list and option (2.7 KB gzip less WebAssembly).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "String")]
pub struct SupportRow {
    pub stack: Stack,
    pub hardware: Hardware,
    pub features: Vec<Feature>,
    pub support: Support,
}

impl SupportRow {
    /// A row from its cells as data/support_matrix.csv and catalog.json
    /// write them: architectures `;`-separated by their gpus.csv names,
    /// bounds as `major.minor`, empty cells for none.
    pub fn from_cells(
        stack: &str,
        vendor: &str,
        architectures: &str,
        min_cc: &str,
        max_cc: &str,
        features: &str,
        support: &str,
    ) -> Result<SupportRow, String> {
        let mut names = Vec::new();
        for name in architectures.split(';').map(str::trim).filter(|n| !n.is_empty()) {
            names.push(
                Architecture::from_name(name)
                    .ok_or_else(|| format!("architecture \"{name}\" is not one of engine::gpu::Architecture"))?,
            );
        }
        let bound = |text: &str| -> Result<Option<ComputeCapability>, String> {
            let text = text.trim();
            if text.is_empty() {
                Ok(None)
            } else {
                text.parse().map(Some)
            }
        };
        let mut parsed = Vec::new();
        for list in features.split(',') {
            parsed.extend(Feature::parse_list(list)?);
        }
        Ok(SupportRow {
            stack: stack.parse().map_err(|e: super::options::UnknownOption| e.to_string())?,
            hardware: Hardware {
                vendor: vendor.trim().to_string(),
                architectures: names,
                min_cc: bound(min_cc)?,
                max_cc: bound(max_cc)?,
            },
            features: parsed,
            support: support.trim().parse()?,
        })
    }
}

impl fmt::Display for SupportRow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let h = &self.hardware;
        let architectures: Vec<&str> = h.architectures.iter().map(|a| a.name()).collect();
        let bound = |cc: Option<ComputeCapability>| cc.map_or(String::new(), |cc| cc.to_string());
        let features: Vec<String> = self.features.iter().map(ToString::to_string).collect();
        write!(
            f,
            "{}|{}|{}|{}|{}|{}|{}",
            self.stack,
            h.vendor,
            architectures.join(";"),
            bound(h.min_cc),
            bound(h.max_cc),
            features.join(","),
            self.support
        )
    }
}

impl From<SupportRow> for String {
    fn from(row: SupportRow) -> String {
        row.to_string()
    }
}

impl TryFrom<String> for SupportRow {
    type Error = String;

    fn try_from(line: String) -> Result<Self, String> {
        match line.split('|').collect::<Vec<_>>()[..] {
            [stack, vendor, architectures, min_cc, max_cc, features, support] => {
                SupportRow::from_cells(stack, vendor, architectures, min_cc, max_cc, features, support)
            }
            _ => Err(format!("support row \"{line}\" does not have 7 cells")),
        }
    }
}

/// The answer for one question, with the row that gave it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer<'a> {
    Listed(Support, &'a SupportRow),
    /// No row covers it: the documentation read does not say it runs.
    Unlisted,
}

/// Whether software that runs on some hardware runs `feature` there unless
/// a row says otherwise: a model's own 16- and 32-bit weights, a 16-bit KV
/// cache and BF16 arithmetic are what every runtime loads by default, so
/// the documentation lists where they do not run (Volta, Turing), not
/// every place they do; so are diffusers' video pipelines wherever its
/// PyTorch runs, listed where a port leaves them out.
const fn implied_by_running(feature: Feature) -> bool {
    matches!(
        feature,
        Feature::Weights(Precision::Bf16 | Precision::Fp16 | Precision::Fp32)
            | Feature::Kv(KvPrecision::Bf16 | KvPrecision::Fp16)
            | Feature::ComputeBf16
            | Feature::VideoPipelines
    )
}

/// Whether `stack` loads weights in `precision` anywhere: a row says it
/// does (natively or by a fallback), or the format is one every runtime
/// loads by default.
pub fn loads_anywhere(rows: &[SupportRow], stack: Stack, precision: Precision) -> bool {
    let feature = Feature::Weights(precision);
    implied_by_running(feature)
        || rows.iter().any(|row| row.stack == stack && row.features.contains(&feature) && row.support != Support::No)
}

/// How `stack` runs `feature` on `gpu`, by the first row that covers it;
/// a feature every runtime has by default follows whether it runs there.
pub fn lookup<'a>(rows: &'a [SupportRow], stack: Stack, gpu: &Gpu, feature: Feature) -> Answer<'a> {
    let first = |feature: Feature| {
        rows.iter().find(|row| row.stack == stack && row.features.contains(&feature) && row.hardware.covers(gpu))
    };
    match first(feature) {
        Some(row) => Answer::Listed(row.support, row),
        None if implied_by_running(feature) => match first(Feature::Runs) {
            Some(row) if row.support != Support::No => Answer::Listed(Support::Native, row),
            Some(row) => Answer::Listed(Support::No, row),
            None => Answer::Unlisted,
        },
        None => Answer::Unlisted,
    }
}

/// Where `stack` runs at all: the hardware of its rows that say it runs,
/// in the matrix's order ("NVIDIA (compute capability 7.0+), AMD CDNA2/CDNA3").
pub fn where_it_runs(rows: &[SupportRow], stack: Stack) -> Msg {
    let mut places: Vec<&Hardware> = Vec::new();
    for row in rows {
        let runs = row.stack == stack && row.features.contains(&Feature::Runs) && row.support != Support::No;
        if runs && !places.contains(&&row.hardware) {
            places.push(&row.hardware);
        }
    }
    let mut words = places.iter().map(|h| h.words());
    let first = words.next().unwrap_or_else(|| msg!(phrases::HARDWARE_NAME, name = "–"));
    words.fold(first, |list, item| msg!(phrases::LIST_MORE, list = list, item = item))
}

/// The hardware of `gpu` as the matrix tells it apart: "Volta, compute
/// capability 7.0", "AMD CDNA3", "Google TPU".
pub fn hardware_of(gpu: &Gpu) -> Msg {
    let name = match gpu.architecture {
        Some(a) if gpu.compute_capability.is_some() || gpu.vendor.eq_ignore_ascii_case(a.name()) => {
            a.name().to_string()
        }
        Some(a) => format!("{} {}", gpu.vendor, a.name()),
        None => gpu.vendor.clone(),
    };
    match gpu.compute_capability {
        Some(cc) => msg!(phrases::HARDWARE_CC, name = name, cc = cc.to_string()),
        None => msg!(phrases::HARDWARE_NAME, name = name),
    }
}

crate::json_from_text!(SupportRow);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Catalog;

    fn gpu(id: &str) -> &'static Gpu {
        Catalog::bundled().unwrap().gpu(id).unwrap()
    }

    fn row(stack: Stack, hardware: Hardware, features: &str, support: &str) -> SupportRow {
        SupportRow {
            stack,
            hardware,
            features: Feature::parse_list(features).unwrap(),
            support: support.parse().unwrap(),
        }
    }

    fn nvidia(min: Option<&str>, max: Option<&str>) -> Hardware {
        Hardware {
            vendor: "NVIDIA".into(),
            architectures: vec![],
            min_cc: min.map(|c| c.parse().unwrap()),
            max_cc: max.map(|c| c.parse().unwrap()),
        }
    }

    #[test]
    fn features_and_levels_read_back_from_their_spelling() {
        assert_eq!(
            Feature::parse_list("weights:awq;gptq").unwrap(),
            [Feature::Weights(Precision::Awq), Feature::Weights(Precision::Gptq)]
        );
        for text in ["runs", "kv:fp8", "compute:bf16", "compute:fp8", "optimizer:adamw8bit", "attention:flash"] {
            assert_eq!(Feature::parse_list(text).unwrap()[0].to_string(), text);
        }
        assert!(Feature::parse_list("weights:fp7").unwrap_err().contains("fp7"));
        assert!(Feature::parse_list("speed:fast").unwrap_err().contains("is not a feature"));
        for text in ["native", "no", "fallback:fp16", "fallback:weight_only", "fallback:sdpa"] {
            assert_eq!(text.parse::<Support>().unwrap().to_string(), text);
        }
        assert!("fallback:cpu".parse::<Support>().is_err());
    }

    #[test]
    fn a_row_reads_back_from_the_line_catalog_json_spells_it_as() {
        let line = "vllm|AMD|CDNA2;CDNA3||9.9|weights:awq,weights:gptq|fallback:weight_only";
        let row = SupportRow::try_from(line.to_string()).unwrap();
        assert_eq!(row.hardware.architectures, [Architecture::Cdna2, Architecture::Cdna3]);
        assert_eq!(row.features.len(), 2);
        assert_eq!(row.to_string(), line);
        for bad in ["vllm|NVIDIA||7.5||runs", "ollama|NVIDIA||||runs|native", "vllm|NVIDIA||7|||runs|native"] {
            assert!(SupportRow::try_from(bad.to_string()).is_err(), "{bad}");
        }
        // Every row of the bundled matrix survives the trip.
        for row in &Catalog::bundled().unwrap().support {
            assert_eq!(&SupportRow::try_from(row.to_string()).unwrap(), row);
        }
    }

    #[test]
    fn hardware_is_a_vendor_narrowed_by_architecture_and_compute_capability() {
        let ampere_up = nvidia(Some("8.0"), None);
        assert!(ampere_up.covers(gpu("a100_sxm_80gb")) && ampere_up.covers(gpu("b200_sxm")));
        assert!(!ampere_up.covers(gpu("t4")) && !ampere_up.covers(gpu("mi300x")));
        let turing = nvidia(Some("7.5"), Some("7.9"));
        assert!(turing.covers(gpu("t4")) && !turing.covers(gpu("v100_sxm2_16gb")));
        let cdna3 =
            Hardware { vendor: "AMD".into(), architectures: vec![Architecture::Cdna3], min_cc: None, max_cc: None };
        assert!(cdna3.covers(gpu("mi300x")) && !cdna3.covers(gpu("mi250x")));
        assert_eq!(ampere_up.to_string(), "NVIDIA (compute capability 8.0+)");
        assert_eq!(turing.to_string(), "NVIDIA (compute capability 7.5–7.9)");
        assert_eq!(cdna3.to_string(), "AMD CDNA3");
        assert_eq!(hardware_of(gpu("v100_sxm2_16gb")).to_string(), "Volta, compute capability 7.0");
        assert_eq!(hardware_of(gpu("tpu_v5e")).to_string(), "Google TPU");
        assert_eq!(hardware_of(gpu("v100_sxm2_16gb")).render(crate::text::Lang::Es), "Volta, capacidad de cómputo 7.0");
    }

    #[test]
    fn the_first_row_that_covers_a_question_answers_it() {
        let rows = [
            row(Stack::Vllm, nvidia(Some("7.5"), Some("8.8")), "weights:fp8", "fallback:weight_only"),
            row(Stack::Vllm, nvidia(Some("7.5"), None), "runs", "native"),
            row(Stack::Vllm, nvidia(Some("7.5"), None), "weights:fp8;awq", "native"),
        ];
        let answer = |id, feature| match lookup(&rows, Stack::Vllm, gpu(id), feature) {
            Answer::Listed(support, _) => Some(support),
            Answer::Unlisted => None,
        };
        let fp8 = Feature::Weights(Precision::Fp8);
        assert_eq!(answer("a100_sxm_80gb", fp8), Some(Support::Fallback(Fallback::WeightOnly)));
        assert_eq!(answer("h100_sxm", fp8), Some(Support::Native));
        // Not covered at all: unlisted, so not assumed to run.
        assert_eq!(answer("v100_sxm2_16gb", fp8), None);
        assert_eq!(answer("h100_sxm", Feature::Weights(Precision::Nf4)), None);
        // A model's own 16-bit weights and KV cache follow whether it runs.
        assert_eq!(answer("h100_sxm", Feature::Weights(Precision::Bf16)), Some(Support::Native));
        assert_eq!(answer("h100_sxm", Feature::Kv(KvPrecision::Fp16)), Some(Support::Native));
        assert_eq!(answer("v100_sxm2_16gb", Feature::Weights(Precision::Bf16)), None);
        assert_eq!(where_it_runs(&rows, Stack::Vllm).to_string(), "NVIDIA (compute capability 7.5+)");
    }
}
