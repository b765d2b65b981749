//! GPU name normalisation: providers spell one accelerator many ways
//! (`A100-80GB`, `A100 80GB SXM4`, `a100-sxm4-80gb`, `H100-SXM`, `RTX4090`…).
//! Every offer must map to a `gpu_id` of gpus.csv (or data/gpus_extra.csv);
//! a name no rule knows fails the build instead of being dropped.

/// Lower-case letters and digits only: "NVIDIA A100-80GB SXM4" → "nvidiaa10080gbsxm4".
fn compact(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Maps an offer's accelerator to a catalog `gpu_id`.
///
/// `name` is the source's accelerator name, `memory_gib` the per-GPU memory
/// the source states (if any), and `instance` the instance type, which often
/// carries the form factor (`gpu_1x_h100_pcie`, `a2-ultragpu-1g`).
pub fn catalog_gpu_id(name: &str, memory_gib: Option<f64>, instance: &str) -> Option<&'static str> {
    let name = compact(name);
    let name = name.strip_prefix("nvidia").unwrap_or(&name);
    let name = name.strip_prefix("tesla").unwrap_or(name);
    let hints = format!("{name}{}", compact(instance));
    let pcie = hints.contains("pcie");
    let nvl = hints.contains("nvl");
    // Memory from the name ("80gb") wins over the source's GpuInfo field,
    // which some catalogs fill in GB, others in MiB or per instance.
    let memory = if name.contains("80g") || name.contains("80gb") {
        Some(80.0)
    } else if name.contains("40g") {
        Some(40.0)
    } else if name.contains("32g") {
        Some(32.0)
    } else {
        memory_gib
    };
    let at_least = |gib: f64| memory.is_some_and(|m| m >= gib);

    let id = if name.starts_with("gh200") {
        // GH200 ships with 96 GB HBM3 or 144 GB HBM3e (gpus.csv).
        if at_least(120.0) {
            "gh200_144gb"
        } else {
            "gh200_96gb"
        }
    } else if name.starts_with("gb200") {
        "gb200"
    } else if name.starts_with("b200") {
        "b200_sxm"
    } else if name.starts_with("h200") {
        "h200_sxm"
    } else if name.starts_with("h100") {
        if nvl {
            "h100_nvl"
        } else if pcie {
            "h100_pcie"
        } else {
            // Unqualified "H100" in cloud catalogs is the SXM5 board of HGX
            // servers (AWS p5, GCP a3, Lambda gpu_Nx_h100_sxm5).
            "h100_sxm"
        }
    } else if name.starts_with("a100") {
        // Lambda's gpu_{1,2,4}x_a100 are the 40 GB PCIe card; its 8-GPU
        // HGX shape and the SXM4 shapes are SXM4 (lambda.ai instance list).
        let lambda_pcie = ["gpu_1x_a100", "gpu_2x_a100", "gpu_4x_a100"].contains(&instance);
        let pcie = pcie || lambda_pcie;
        match (at_least(70.0), pcie) {
            (true, true) => "a100_pcie_80gb",
            (true, false) => "a100_sxm_80gb",
            (false, true) => "a100_pcie_40gb",
            (false, false) => "a100_sxm_40gb",
        }
    } else if name.starts_with("v100") {
        match (at_least(30.0), pcie) {
            (true, true) => "v100_pcie_32gb",
            (true, false) => "v100_sxm2_32gb",
            (false, true) => "v100_pcie_16gb",
            (false, false) => "v100_sxm2_16gb",
        }
    } else if name == "a10g" {
        "a10g"
    } else if name == "a10" {
        "a10"
    } else if name == "a40" {
        "a40"
    } else if name == "l40s" {
        "l40s"
    } else if name == "l40" {
        "l40"
    } else if name == "l4" {
        "l4"
    } else if name == "t4" || name == "t4g" {
        "t4"
    } else if name == "a6000" || name == "rtxa6000" {
        "rtx_a6000"
    } else if name == "rtx6000ada" || name == "rtx6000adageneration" {
        "rtx_6000_ada"
    } else if name == "rtx6000" || name == "quadrortx6000" {
        // Lambda's RTX6000 is the 24 GB Turing Quadro (24,576 MiB in its
        // GpuInfo), not the 48 GB RTX 6000 Ada.
        if at_least(40.0) {
            "rtx_6000_ada"
        } else {
            "quadro_rtx_6000"
        }
    } else {
        consumer_card(name)?
    };
    Some(id)
}

fn consumer_card(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("geforce").unwrap_or(name);
    Some(match name {
        "rtx5090" => "rtx_5090",
        "rtx4090" => "rtx_4090",
        "rtx4080" => "rtx_4080",
        "rtx3090" => "rtx_3090",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_spellings_map_to_catalog_ids() {
        // (accelerator name, per-GPU MiB/1024 from GpuInfo, instance type, gpu_id)
        // Rows from lambda_vms.csv and aws_vms_p_family_gpu.csv.
        let cases = [
            ("H100", Some(80.0), "gpu_1x_h100_pcie", "h100_pcie"),
            ("H100", Some(80.0), "gpu_8x_h100_sxm5", "h100_sxm"),
            ("H100", Some(80.0), "p5.48xlarge", "h100_sxm"),
            ("H200", Some(141.0), "p5e.48xlarge", "h200_sxm"),
            ("B200", Some(180.0), "p6-b200.48xlarge", "b200_sxm"),
            ("GH200", Some(96.0), "gpu_1x_gh200", "gh200_96gb"),
            ("A100", Some(40.0), "gpu_1x_a100", "a100_pcie_40gb"),
            ("A100", Some(40.0), "gpu_1x_a100_sxm4", "a100_sxm_40gb"),
            ("A100", Some(40.0), "gpu_8x_a100", "a100_sxm_40gb"),
            ("A100", Some(40.0), "p4d.24xlarge", "a100_sxm_40gb"),
            ("A100-80GB", Some(80.0), "p4de.24xlarge", "a100_sxm_80gb"),
            (
                "A100-80GB",
                Some(80.0),
                "gpu_8x_a100_80gb_sxm4",
                "a100_sxm_80gb",
            ),
            ("V100", Some(16.0), "p3.2xlarge", "v100_sxm2_16gb"),
            ("V100-32GB", Some(32.0), "p3dn.24xlarge", "v100_sxm2_32gb"),
            ("A10", Some(24.0), "gpu_1x_a10", "a10"),
            ("A6000", Some(48.0), "gpu_1x_a6000", "rtx_a6000"),
            ("RTX6000", Some(24.0), "gpu_1x_rtx6000", "quadro_rtx_6000"),
        ];
        for (name, gib, instance, expected) in cases {
            assert_eq!(
                catalog_gpu_id(name, gib, instance),
                Some(expected),
                "{name} on {instance}"
            );
        }
    }

    #[test]
    fn an_unknown_accelerator_maps_to_nothing() {
        assert_eq!(
            catalog_gpu_id("Radeon MI25", Some(16.0), "Standard_NV6"),
            None
        );
        assert_eq!(catalog_gpu_id("", None, "cpu_4x_general"), None);
    }
}
