//! The units every layer converts with, declared once below all of them:
//! the engine, the page's presentation, the CLI and the snapshot builder
//! import from here.

/// Bytes in one "GB" of GPU memory. Card sizes are binary in practice: an
/// "80 GB" H100 or A100 reports 81,920 MiB in the SkyPilot catalogs'
/// GpuInfo (e.g. lambda_vms.csv, aws_vms_p_family_gpu.csv), a "24 GB" A10
/// 24,576 MiB. So every GB of memory whichgpu shows is 2^30 bytes.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// Bytes in one GB of a bandwidth or a link's speed: spec sheets' GB/s and
/// Gbit/s are decimal.
pub const BYTES_PER_DECIMAL_GB: f64 = 1e9;

/// Bytes in a KiB and a MiB (a model's KV cache per token, its state).
pub const BYTES_PER_KIB: f64 = 1024.0;
pub const BYTES_PER_MIB: f64 = 1024.0 * 1024.0;

/// Parameters (or tokens) in a billion: "7B", "1.5T" as 1,500 billions.
pub const BILLION: f64 = 1e9;

pub const SECONDS_PER_HOUR: f64 = 3600.0;
pub const SECONDS_PER_DAY: u64 = 86_400;
pub const MILLISECONDS_PER_DAY: f64 = 86_400_000.0;
