//! Memory sizing: what must sit in VRAM.

use super::{Model, Precision};

/// Bytes in one "GB" of GPU memory. Card sizes are binary in practice: an
/// "80 GB" H100 or A100 reports 81,920 MiB in the SkyPilot catalogs'
/// GpuInfo (e.g. lambda_vms.csv, aws_vms_p_family_gpu.csv), a "24 GB" A10
/// 24,576 MiB. So every GB this engine shows is 2^30 bytes.
pub const BYTES_PER_GB: f64 = 1_073_741_824.0;

/// Bytes to hold every weight of `model` at `precision`:
/// parameters × bits per weight / 8. MoE models keep all experts resident.
pub fn weights_bytes(model: &Model, precision: Precision) -> f64 {
    model.params * precision.bits_per_weight() / 8.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Catalog;

    fn weights_gb(model_id: &str, precision: Precision) -> f64 {
        let catalog = Catalog::bundled().unwrap();
        weights_bytes(catalog.model(model_id).unwrap(), precision) / BYTES_PER_GB
    }

    #[test]
    fn weights_scale_with_bits_per_weight() {
        // Llama 3.1 8B: 8,030,261,248 parameters (models.csv, computed from the M1 config).
        // 16-bit: 16.06e9 bytes = 14.96 GiB.
        let cases = [
            (Precision::Fp32, 29.915),
            (Precision::Bf16, 14.957),
            (Precision::Fp8, 7.479),
            (Precision::Int4, 3.739),
        ];
        for (precision, expected_gb) in cases {
            let got = weights_gb("llama-3.1-8b", precision);
            assert!((got - expected_gb).abs() < 0.001, "{precision}: {got} GB");
        }
    }

    #[test]
    fn seventy_b_at_16_bit_needs_more_than_one_80_gb_card() {
        // Product brief: "~70B and up: 80 GB-class, or several GPUs".
        // Llama 3.1 70B has 70,553,706,496 parameters → 141.1e9 bytes = 131.4 GiB in BF16.
        let gb = weights_gb("llama-3.1-70b", Precision::Bf16);
        assert!(gb > 80.0 && (gb - 131.418).abs() < 0.01, "{gb}");
    }

    #[test]
    fn moe_models_keep_every_expert_resident() {
        // Mixtral 8x7B: 46.70B total, 12.88B active (models.csv check values)
        // → 93.4e9 bytes = 87.0 GiB in BF16, not the 24 GiB of the active experts.
        let gb = weights_gb("mixtral-8x7b", Precision::Bf16);
        assert!((gb - 87.0).abs() < 0.2, "{gb}");
    }
}
