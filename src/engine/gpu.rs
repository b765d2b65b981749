//! An accelerator as the catalog describes it (gpus.csv): its memory,
//! peak rates, links, who it is made for, its chip generation and, for
//! NVIDIA, its compute capability.

use super::json::{Fields, FromJson, Json, JsonError};
use super::options::choices;
use crate::text::phrases;
use serde::Serialize;

/// An accelerator, from `gpus.csv`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gpu {
    /// `gpu_id` of gpus.csv, e.g. `h100_sxm`.
    pub id: String,
    pub vendor: String,
    /// Model and variant, e.g. "H100 SXM5 80GB".
    pub name: String,
    pub vram_gb: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mem_bandwidth_gbps: Option<f64>,
    /// Who the card is made for (gpus.csv `segment`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment: Option<Segment>,
    /// The chip generation (gpus.csv `architecture`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub architecture: Option<Architecture>,
    /// Peak dense throughputs in TFLOP/s (TOP/s for INT8), as gpus.csv
    /// states them; `None` where the datasheet gives no figure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fp32_tflops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fp16_tflops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bf16_tflops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fp8_tflops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub int8_tops: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fp4_tflops: Option<f64>,
    /// e.g. "NVLink 4", "PCIe Gen4".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<String>,
    /// GPU-to-GPU bandwidth per direction over NVLink / Infinity Fabric, GB/s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_gbps: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pcie_gen: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tdp_w: Option<f64>,
    /// NVIDIA's compute capability (gpus.csv `compute_capability`): which
    /// kernels, formats and software releases the GPU runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compute_capability: Option<ComputeCapability>,
    /// What Chrome's WebGPU `adapter.info.architecture` reports for this
    /// GPU, e.g. "lovelace", "rdna-3", "metal-3" (gpus.csv
    /// `webgpu_architecture`, from Dawn's gpu_info.json: SOURCES.md G7, G8);
    /// `None` where the browser reports an empty string or no entry exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub webgpu_architecture: Option<String>,
}

choices! {
    /// Who a GPU is made for (gpus.csv `segment`), in the order the
    /// visitor's-GPU picker lists them.
    pub enum Segment: phrases::OPTION_SEGMENT {
        Consumer = "consumer", phrases::SEGMENT_CONSUMER;
        Laptop = "laptop", phrases::SEGMENT_LAPTOP;
        Apple = "apple", phrases::SEGMENT_APPLE;
        Workstation = "workstation", phrases::SEGMENT_WORKSTATION;
        Datacenter = "datacenter", phrases::SEGMENT_DATACENTER;
        /// Graphics sharing the system's memory (gpus.csv reserves it; no row has it yet).
        Integrated = "integrated", phrases::SEGMENT_INTEGRATED;
    }
}

impl Segment {
    /// GeForce-class and laptop parts, which datasheets rate differently
    /// from workstation and datacenter parts of the same chip.
    pub const fn is_consumer(self) -> bool {
        matches!(self, Segment::Consumer | Segment::Laptop)
    }
}

/// A GPU's chip generation, as gpus.csv names it. The speed model reads it
/// for the tensor cores a generation has; a name gpus.csv adds fails the
/// snapshot build until it is added here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "String")]
pub enum Architecture {
    Kepler,
    Maxwell,
    Pascal,
    Volta,
    Turing,
    Ampere,
    AdaLovelace,
    Hopper,
    Blackwell,
    Cdna2,
    Cdna3,
    Cdna4,
    Gcn5,
    Rdna1,
    Rdna2,
    Rdna3,
    Rdna4,
    XeHpg,
    AppleGpu,
    /// Intel Gaudi (HPU): the first generation, Gaudi 2 and Gaudi 3.
    Gaudi,
    Gaudi2,
    Gaudi3,
    /// Google TPU, all generations.
    Tpu,
    /// AWS Inferentia (Inf1): NeuronCore-v1.
    NeuronCoreV1,
    /// AWS Inferentia2 (Inf2): NeuronCore-v2, sold for inference.
    Inferentia2,
    /// AWS Trainium (Trn1): NeuronCore-v2, sold for training.
    Trainium,
}

impl Architecture {
    pub const ALL: [Architecture; 26] = [
        Architecture::Kepler,
        Architecture::Maxwell,
        Architecture::Pascal,
        Architecture::Volta,
        Architecture::Turing,
        Architecture::Ampere,
        Architecture::AdaLovelace,
        Architecture::Hopper,
        Architecture::Blackwell,
        Architecture::Cdna2,
        Architecture::Cdna3,
        Architecture::Cdna4,
        Architecture::Gcn5,
        Architecture::Rdna1,
        Architecture::Rdna2,
        Architecture::Rdna3,
        Architecture::Rdna4,
        Architecture::XeHpg,
        Architecture::AppleGpu,
        Architecture::Gaudi,
        Architecture::Gaudi2,
        Architecture::Gaudi3,
        Architecture::Tpu,
        Architecture::NeuronCoreV1,
        Architecture::Inferentia2,
        Architecture::Trainium,
    ];

    /// The name gpus.csv and catalog.json give it.
    pub const fn name(self) -> &'static str {
        match self {
            Architecture::Kepler => "Kepler",
            Architecture::Maxwell => "Maxwell",
            Architecture::Pascal => "Pascal",
            Architecture::Volta => "Volta",
            Architecture::Turing => "Turing",
            Architecture::Ampere => "Ampere",
            Architecture::AdaLovelace => "Ada Lovelace",
            Architecture::Hopper => "Hopper",
            Architecture::Blackwell => "Blackwell",
            Architecture::Cdna2 => "CDNA2",
            Architecture::Cdna3 => "CDNA3",
            Architecture::Cdna4 => "CDNA4",
            Architecture::Gcn5 => "GCN 5.0 (Vega 10)",
            Architecture::Rdna1 => "RDNA 1.0 (Navi 12)",
            Architecture::Rdna2 => "RDNA 2.0 (Navi 21)",
            Architecture::Rdna3 => "RDNA3",
            Architecture::Rdna4 => "RDNA4",
            Architecture::XeHpg => "Xe-HPG (Alchemist)",
            Architecture::AppleGpu => "Apple GPU",
            Architecture::Gaudi => "Gaudi",
            Architecture::Gaudi2 => "Gaudi 2",
            Architecture::Gaudi3 => "Gaudi 3",
            Architecture::Tpu => "TPU",
            Architecture::NeuronCoreV1 => "NeuronCore-v1",
            Architecture::Inferentia2 => "NeuronCore-v2 (Inferentia2)",
            Architecture::Trainium => "NeuronCore-v2 (Trainium)",
        }
    }

    /// The generation gpus.csv names `name`, exactly as spelled there.
    pub fn from_name(name: &str) -> Option<Architecture> {
        Architecture::ALL.into_iter().find(|a| a.name() == name)
    }
}

/// An NVIDIA GPU's compute capability, `major.minor` ("8.9" for Ada,
/// "10.0" for B200), as CUDA names the instruction set a chip runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "String")]
pub struct ComputeCapability {
    pub major: u8,
    pub minor: u8,
}

impl std::fmt::Display for ComputeCapability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl std::str::FromStr for ComputeCapability {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let bad = || format!("\"{text}\" is not a compute capability (major.minor, e.g. 8.9)");
        let (major, minor) = text.trim().split_once('.').ok_or_else(bad)?;
        Ok(ComputeCapability { major: major.parse().map_err(|_| bad())?, minor: minor.parse().map_err(|_| bad())? })
    }
}

impl From<ComputeCapability> for String {
    fn from(cc: ComputeCapability) -> String {
        cc.to_string()
    }
}

impl TryFrom<String> for ComputeCapability {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        text.parse()
    }
}

impl From<Architecture> for String {
    fn from(architecture: Architecture) -> String {
        architecture.name().to_string()
    }
}

impl TryFrom<String> for Architecture {
    type Error = String;

    fn try_from(name: String) -> Result<Architecture, String> {
        Architecture::from_name(&name).ok_or_else(|| format!("unknown GPU architecture \"{name}\""))
    }
}

crate::json_from_text!(Architecture, ComputeCapability);

impl FromJson for Gpu {
    fn from_json(value: Json<'_>) -> Result<Gpu, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(Gpu {
            id: f.required("id")?,
            vendor: f.required("vendor")?,
            name: f.required("name")?,
            vram_gb: f.required("vram_gb")?,
            memory_type: f.optional("memory_type")?,
            mem_bandwidth_gbps: f.optional("mem_bandwidth_gbps")?,
            segment: f.optional("segment")?,
            architecture: f.optional("architecture")?,
            fp32_tflops: f.optional("fp32_tflops")?,
            fp16_tflops: f.optional("fp16_tflops")?,
            bf16_tflops: f.optional("bf16_tflops")?,
            fp8_tflops: f.optional("fp8_tflops")?,
            int8_tops: f.optional("int8_tops")?,
            fp4_tflops: f.optional("fp4_tflops")?,
            interconnect: f.optional("interconnect")?,
            link_gbps: f.optional("link_gbps")?,
            pcie_gen: f.optional("pcie_gen")?,
            tdp_w: f.optional("tdp_w")?,
            compute_capability: f.optional("compute_capability")?,
            webgpu_architecture: f.optional("webgpu_architecture")?,
        })
    }
}
