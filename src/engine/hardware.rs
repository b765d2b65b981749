//! What a GPU can do per second: memory bandwidth, tensor throughput at a
//! compute precision, and the link between GPUs. Figures come from gpus.csv;
//! where a datasheet figure is missing, the estimate says so.

use super::catalog::{Architecture, Segment};
use super::{Gpu, Precision};
use crate::msg;
use crate::text::{phrases, Arg, Msg};
use crate::units::BYTES_PER_DECIMAL_GB;
use serde::Serialize;

/// The precision matrix multiplies run in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputePrecision {
    Fp32,
    Fp16,
    Fp8,
    Fp4,
}

impl ComputePrecision {
    pub const fn label(self) -> &'static str {
        match self {
            ComputePrecision::Fp32 => "FP32",
            ComputePrecision::Fp16 => "FP16/BF16",
            ComputePrecision::Fp8 => "FP8",
            ComputePrecision::Fp4 => "FP4",
        }
    }
}

/// Architectures with FP8 tensor cores (issue 5; NVIDIA Ada, Hopper and
/// Blackwell whitepapers, AMD CDNA3).
fn has_fp8(gpu: &Gpu) -> bool {
    use Architecture::{AdaLovelace, Blackwell, Cdna3, Hopper};
    matches!(gpu.architecture, Some(AdaLovelace | Hopper | Blackwell | Cdna3)) || gpu.fp8_tflops.is_some()
}

/// The compute precision weights of `precision` run at on `gpu`: FP8 and
/// FP4 compute only where tensor cores do them; other quantized formats are
/// weight-only (dequantized to 16 bits), so they speed up reading weights
/// but not the arithmetic.
pub fn compute_precision(precision: Precision, gpu: &Gpu) -> ComputePrecision {
    match precision {
        Precision::Fp32 => ComputePrecision::Fp32,
        Precision::Fp4 | Precision::Mxfp4 if gpu.fp4_tflops.is_some() => ComputePrecision::Fp4,
        Precision::Fp8 | Precision::Fp4 if has_fp8(gpu) => ComputePrecision::Fp8,
        _ => ComputePrecision::Fp16,
    }
}

/// A peak figure and, when gpus.csv lacks it, how it was estimated.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    pub value: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated: Option<Msg>,
}

/// FP16 tensor throughput per FP32 (non-tensor) TFLOP, for rows without a
/// tensor figure, from gpus.csv rows that state both: GeForce Ampere, Ada
/// and Blackwell accumulate FP16 in FP32 at half rate (RTX 3090: 71 vs 35.58;
/// RTX 4090: 165.2 vs 82.58; RDNA3's WMMA likewise doubles FP32: RX 7900
/// XTX 122.8 vs 61.4 per AMD), workstation and datacenter Ampere/Ada/Blackwell
/// at full rate (RTX A6000: 154.8 vs 38.71; L40S: 362 vs 91.6), Turing
/// (RTX 2080 Ti: 53.8 vs 13.4), Volta (V100 SXM2: 125 vs 15.7). Xe-HPG's
/// XMX engines do 8 FP16 operations per FP32 operation of its vector
/// engines: 512 XMX engines × 128 FP16 operations per clock on the Arc A770
/// (Intel's Xe-HPG architecture brief, as summarised by secondary sources)
/// against 8,192 FP32 operations per clock (19.66 TFLOP/s at 2.4 GHz,
/// gpus.csv); "XMX matrix operations with their 8:1 throughput for
/// FP16/BF16" (tinygrad/tinygrad discussion 790). GPUs without matrix units
/// run at their vector rate (`vector_fp16_rate`).
fn tensor_per_fp32(gpu: &Gpu) -> Option<f64> {
    use Architecture::*;
    let consumer = gpu.segment.is_some_and(Segment::is_consumer);
    match gpu.architecture? {
        Ampere | AdaLovelace | Blackwell if consumer => Some(2.0),
        Ampere | AdaLovelace | Blackwell => Some(4.0),
        Rdna3 | Rdna4 => Some(2.0),
        Turing => Some(4.0),
        Volta => Some(8.0),
        XeHpg => Some(8.0),
        Hopper | Cdna2 | Cdna3 | Cdna4 | Gaudi | Gaudi2 | Gaudi3 | Tpu | NeuronCoreV1 | Inferentia2 | Trainium => None,
        vector => vector_fp16_rate(vector),
    }
}

/// FP16 throughput per FP32 TFLOP of the architectures that multiply
/// matrices on their vector ALUs, having no matrix units (issue 28: every
/// GPU gets an estimate); `None` for those with matrix units.
/// - Apple GPUs run FP16 at the FP32 rate.
/// - Kepler, Maxwell and Pascal other than GP100 (P100, whose packed rate
///   gpus_extra.csv states) do FP16 arithmetic at 1/64 of FP32 or not at
///   all (Quadro P4000/GP104: 82.88 GFLOPS FP16 vs 5.3 TFLOPS FP32, TechPowerUp
///   via data/gpus_extra.csv), so runtimes multiply 16-bit weights in FP32:
///   the FP32 rate.
/// - GCN5 (Vega), RDNA1 and RDNA2 pack two FP16 operations per FP32 lane
///   ("Rapid Packed Math"): MI25 24.6 vs 12.29, Radeon Pro V520 14.75 vs
///   7.37, V620 40.55 vs 20.28 TFLOPS (TechPowerUp, data/gpus_extra.csv).
fn vector_fp16_rate(architecture: Architecture) -> Option<f64> {
    use Architecture::*;
    match architecture {
        AppleGpu | Kepler | Maxwell | Pascal => Some(1.0),
        Gcn5 | Rdna1 | Rdna2 => Some(2.0),
        Ampere | AdaLovelace | Blackwell | Rdna3 | Rdna4 | Turing | Volta | XeHpg | Hopper | Cdna2 | Cdna3 | Cdna4
        | Gaudi | Gaudi2 | Gaudi3 | Tpu | NeuronCoreV1 | Inferentia2 | Trainium => None,
    }
}

/// Whether the GPU multiplies matrices in matrix units (tensor cores, XMX,
/// WMMA, MME) rather than its vector ALUs (`vector_fp16_rate`).
pub fn has_matrix_units(gpu: &Gpu) -> bool {
    gpu.architecture.and_then(vector_fp16_rate).is_none()
}

/// Peak dense TFLOP/s at `compute` precision; `None` when gpus.csv has no
/// figure to start from.
pub fn peak_tflops(gpu: &Gpu, compute: ComputePrecision) -> Option<Peak> {
    let stated = |value: f64| Peak { value, estimated: None };
    let fp16 = || -> Option<Peak> {
        if let Some(value) = gpu.fp16_tflops.or(gpu.bf16_tflops) {
            return Some(stated(value));
        }
        let ratio = tensor_per_fp32(gpu)?;
        let fp32 = gpu.fp32_tflops?;
        Some(Peak {
            value: fp32 * ratio,
            estimated: Some(msg!(
                phrases::NOTE_FP16_ESTIMATED,
                gpu = &gpu.name,
                ratio = Arg::Num(ratio, 0),
                fp32 = Arg::Num(fp32, 1)
            )),
        })
    };
    match compute {
        ComputePrecision::Fp32 => gpu.fp32_tflops.map(stated),
        ComputePrecision::Fp16 => fp16(),
        ComputePrecision::Fp8 => match gpu.fp8_tflops {
            Some(value) => Some(stated(value)),
            // FP8 tensor cores run twice the FP16 rate (Hopper, Ada).
            None => fp16().map(|p| Peak {
                value: 2.0 * p.value,
                estimated: Some(msg!(phrases::NOTE_FP8_ESTIMATED, gpu = &gpu.name)),
            }),
        },
        ComputePrecision::Fp4 => gpu.fp4_tflops.map(stated),
    }
}

/// SM cycles per second (SMs × clock) of an NVIDIA GPU, from its FP32
/// figure: each SM runs 64 FP32 FMAs a clock on compute capability 7.x and
/// 8.0 (Volta, Turing, GA100) and 128 on 8.6 and newer (GA10x, Ada,
/// Hopper, Blackwell), per the architecture whitepapers and the CUDA C++
/// Programming Guide's table of arithmetic instruction throughput. `None`
/// for other vendors or without an FP32 figure or compute capability.
pub fn sm_cycles_per_s(gpu: &Gpu) -> Option<f64> {
    let cc = gpu.compute_capability?;
    let lanes = if (cc.major, cc.minor) <= (8, 0) { 64.0 } else { 128.0 };
    Some(gpu.fp32_tflops? * 1e12 / (2.0 * lanes))
}

/// Whether the GPU multiplies int8 matrices in its tensor cores
/// (`mma.sync` int8 shapes: NVIDIA compute capability 7.5, Turing, and
/// newer; llama.cpp's `turing_mma_available`).
pub fn has_int8_mma(gpu: &Gpu) -> bool {
    gpu.vendor == "NVIDIA" && gpu.compute_capability.is_some_and(|cc| (cc.major, cc.minor) >= (7, 5))
}

/// FP16 tensor throughput with FP16 accumulation, for kernels that use it
/// (llama.cpp's cuBLAS GEMMs on F16 data): GeForce cards halve the rate
/// when accumulating in FP32, which is the figure gpus.csv gives, and run
/// FP16 accumulation at twice it (GA102 whitepaper: RTX 3090 142 vs 71
/// TFLOP/s; AD102 whitepaper: RTX 4090 330 vs 165). Workstation and
/// datacenter parts run both at the same rate.
pub fn fp16_accumulate_peak(gpu: &Gpu, fp16: f64) -> f64 {
    use Architecture::{AdaLovelace, Ampere, Blackwell, Turing};
    let geforce = gpu.segment.is_some_and(Segment::is_consumer)
        && matches!(gpu.architecture, Some(Turing | Ampere | AdaLovelace | Blackwell));
    if geforce {
        2.0 * fp16
    } else {
        fp16
    }
}

/// Peak memory bandwidth in bytes per second.
pub fn memory_bandwidth(gpu: &Gpu) -> Option<f64> {
    gpu.mem_bandwidth_gbps.filter(|b| *b > 0.0).map(|gbps| gbps * BYTES_PER_DECIMAL_GB)
}

/// How GPUs of one instance reach each other.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Link {
    /// Bytes per second per direction.
    pub bandwidth: f64,
    /// Seconds per step of a ring collective, whatever its size.
    pub latency: f64,
    pub nvlink: bool,
}

/// PCIe x16 bandwidth per direction between the GPU and the host (or a
/// peer through it), bytes/s: 16 GT/s × 16 lanes × 128/130 ≈ 31.5 GB/s for
/// Gen4 (PCI-SIG), doubling per generation; Gen4 when gpus.csv does not say.
pub fn pcie_bandwidth(gpu: &Gpu) -> f64 {
    31.5e9 * 2f64.powi(gpu.pcie_gen.unwrap_or(4) as i32 - 4)
}

/// Board power below which a datacenter card cannot hold its datasheet
/// clock under sustained tensor load: its tensor and FP32 rates scale by
/// TDP / this. The T4 (70 W) reaches under half its 65 TFLOP/s datasheet
/// peak in diffusers (calibration/diffusion.csv, DIF-0106 to DIF-0117: 12
/// to 16 TFLOP/s of SD 1.5 and SDXL). Calibrated on those rows alone; it
/// also slows the L4 (72 W) and, slightly, the A10 and A10G (150 W).
/// GeForce and workstation datasheets state clocks their boards hold, so
/// they are left alone. An estimate.
pub const SUSTAINED_BOARD_W: f64 = 175.0;

/// The share of its datasheet clock `gpu` holds under sustained tensor
/// load, with the sentence that says so; `None` at full clock.
pub fn sustained_clock(gpu: &Gpu) -> Option<(f64, Msg)> {
    let datacenter = gpu.segment == Some(Segment::Datacenter);
    let watts = gpu.tdp_w.filter(|w| datacenter && *w > 0.0 && *w < SUSTAINED_BOARD_W)?;
    let share = watts / SUSTAINED_BOARD_W;
    let note = msg!(
        phrases::NOTE_POWER_CLOCK,
        gpu = &gpu.name,
        watts = Arg::Num(watts, 0),
        percent = Arg::Num(share * 100.0, 0)
    );
    Some((share, note))
}

/// Latency per ring step of an all-reduce: a ring of n GPUs takes
/// 2(n − 1) steps, each paying a few microseconds over NVLink and more
/// through PCIe and the host bridge (NCCL's latency model; nccl-tests
/// small-message all-reduce takes ~20–40 µs on 8 NVLink GPUs).
/// Engineering estimates.
const NVLINK_LATENCY_S: f64 = 3e-6;
const PCIE_LATENCY_S: f64 = 8e-6;

impl Link {
    /// Seconds for a ring all-reduce of `bytes` over `gpus` GPUs.
    pub fn all_reduce(&self, bytes: f64, gpus: f64) -> f64 {
        if gpus <= 1.0 {
            return 0.0;
        }
        let steps = 2.0 * (gpus - 1.0);
        steps * self.latency + steps / gpus * bytes / self.bandwidth
    }
}

/// The link between GPUs of `gpu`: NVLink / Infinity Fabric where gpus.csv
/// gives a GPU-to-GPU bandwidth, else PCIe of its generation (Gen4 when not
/// stated).
pub fn link(gpu: &Gpu) -> Link {
    match gpu.link_gbps {
        Some(gbps) => Link { bandwidth: gbps * BYTES_PER_DECIMAL_GB, latency: NVLINK_LATENCY_S, nvlink: true },
        None => Link { bandwidth: pcie_bandwidth(gpu), latency: PCIE_LATENCY_S, nvlink: false },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Catalog;

    fn gpu(id: &str) -> &'static Gpu {
        Catalog::bundled().unwrap().gpu(id).unwrap()
    }

    #[test]
    fn fp8_compute_only_where_tensor_cores_do_it() {
        // H100: FP8 at 1,979 TFLOP/s dense (gpus.csv); A100 has no FP8, so FP8
        // weights run FP16 arithmetic at 312.
        assert_eq!(compute_precision(Precision::Fp8, gpu("h100_sxm")), ComputePrecision::Fp8);
        assert_eq!(peak_tflops(gpu("h100_sxm"), ComputePrecision::Fp8).unwrap().value, 1979.0);
        assert_eq!(compute_precision(Precision::Fp8, gpu("a100_sxm_80gb")), ComputePrecision::Fp16);
        assert_eq!(compute_precision(Precision::Q4KM, gpu("h100_sxm")), ComputePrecision::Fp16);
        assert_eq!(compute_precision(Precision::Fp4, gpu("b200_sxm")), ComputePrecision::Fp4);
    }

    #[test]
    fn a_missing_tensor_figure_is_estimated_and_says_so() {
        // RTX 3070: 20.31 FP32 TFLOP/s, no FP16 tensor figure in gpus.csv.
        let peak = peak_tflops(gpu("rtx_3070"), ComputePrecision::Fp16).unwrap();
        assert!((peak.value - 40.62).abs() < 1e-9);
        assert!(peak.estimated.unwrap().to_string().contains("no FP16 tensor figure"));
        // A stated figure is used as is.
        assert_eq!(
            peak_tflops(gpu("rtx_3090"), ComputePrecision::Fp16).unwrap(),
            Peak { value: 71.0, estimated: None }
        );
    }

    #[test]
    fn nvlink_is_far_faster_than_pcie() {
        let (nvlink, pcie) = (link(gpu("h100_sxm")), link(gpu("h100_pcie")));
        assert!(nvlink.nvlink && !pcie.nvlink);
        assert_eq!(nvlink.bandwidth, 450e9);
        assert!((pcie.bandwidth - 63e9).abs() < 1e6);
    }
}
