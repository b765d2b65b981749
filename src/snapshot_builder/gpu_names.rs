//! GPU name normalisation: providers spell one accelerator many ways
//! (`A100-80GB`, `A100_80G_SXM4`, `a100-sxm4-80gb`, `H100-SXM`, `H100_NVL`,
//! `RTX4090`, `RTX6000-Ada`…). Every offer must map to a `gpu_id` of gpus.csv
//! or data/gpus_extra.csv; a name no rule knows fails the build with a list,
//! instead of being dropped.

/// Lower-case letters and digits only: "NVIDIA A100-80GB SXM4" → "nvidiaa10080gbsxm4".
fn compact(text: &str) -> String {
    text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// The board's form factor, when a name or hint states it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Form {
    Sxm,
    Pcie,
    /// H100 NVL / H200 NVL: PCIe cards sold in NVLink-bridged pairs.
    Nvl,
}

fn form_in(text: &str) -> Option<Form> {
    let text = text.replace("nvlink", "");
    if text.contains("nvl") {
        Some(Form::Nvl)
    } else if text.contains("sxm") || text.contains("mega") || text.contains("hgx") || text.contains("dgx") {
        Some(Form::Sxm)
    } else if text.contains("pcie") || text.contains("pci") {
        Some(Form::Pcie)
    } else {
        None
    }
}

/// Maps an offer's accelerator to a catalog `gpu_id`.
///
/// `name` is the source's accelerator name, `memory_gib` the per-GPU memory
/// the source states (if any), and `hints` the instance type plus any other
/// text that may carry the form factor (`gpu_1x_h100_pcie`, RunPod's GpuInfo
/// name "A100 PCIe"). The name's own form factor wins over the hints.
pub fn catalog_gpu_id(name: &str, memory_gib: Option<f64>, hints: &str) -> Option<&'static str> {
    let full = compact(name);
    let mut name = full.as_str();
    for prefix in ["nvidia", "tesla", "geforce", "quadro", "radeon", "amd", "instinct"] {
        name = name.strip_prefix(prefix).unwrap_or(name);
    }
    let hints = compact(hints);
    // Azure's NC-series VMs carry PCIe cards (NCsv3: V100 PCIe; NCads A100 v4:
    // A100 80GB PCIe) and NCads H100 v5 the H100 NVL; ND-series carry SXM
    // boards (Azure VM size docs). The catalog names only the GPU.
    let azure_nc =
        hints.starts_with("standardnc").then(|| if name.starts_with("h100") { Form::Nvl } else { Form::Pcie });
    let form = form_in(name).or_else(|| form_in(&hints)).or(azure_nc);
    // Memory in the name ("80gb", "_80G_") wins over GpuInfo, which catalogs
    // fill in MiB, GB or per instance.
    let stated = if name.contains("80g") {
        Some(80.0)
    } else if name.contains("40g") {
        Some(40.0)
    } else if name.contains("32g") {
        Some(32.0)
    } else {
        memory_gib
    };
    let at_least = |gib: f64| stated.is_some_and(|m| m >= gib);

    let id = if name.starts_with("tpuv5e") || name.starts_with("tpuv5lite") {
        "tpu_v5e"
    } else if name.starts_with("tpuv5p") {
        "tpu_v5p"
    } else if name.starts_with("tpuv6e") {
        "tpu_v6e"
    } else if name.starts_with("gh200") {
        // GH200 ships with 96 GB HBM3 or 144 GB HBM3e (gpus.csv).
        if at_least(120.0) {
            "gh200_144gb"
        } else {
            "gh200_96gb"
        }
    } else if name.starts_with("gb300") {
        "gb300"
    } else if name.starts_with("gb200") {
        "gb200"
    } else if name.starts_with("b300") {
        "b300_sxm"
    } else if name.starts_with("b200") {
        "b200_sxm"
    } else if name.starts_with("h200") {
        if form == Some(Form::Nvl) {
            "h200_nvl"
        } else {
            "h200_sxm"
        }
    } else if name.starts_with("h100") {
        match form {
            Some(Form::Nvl) => "h100_nvl",
            Some(Form::Pcie) => "h100_pcie",
            // Unqualified "H100" in cloud catalogs is the SXM5 board of HGX
            // servers (AWS p5, GCP a3, Lambda gpu_Nx_h100_sxm5, Nebius gpu-h100-sxm).
            _ => "h100_sxm",
        }
    } else if name.starts_with("a100") {
        // Lambda's gpu_{1,2,4}x_a100 are the 40 GB PCIe card; its 8-GPU HGX
        // shape is SXM4 (lambda.ai instance list).
        let lambda_pcie = ["gpu1xa100", "gpu2xa100", "gpu4xa100"]
            .iter()
            .any(|shape| hints.starts_with(shape) && !hints.contains("sxm"));
        let pcie = form == Some(Form::Pcie) || lambda_pcie;
        match (at_least(70.0), pcie) {
            (true, true) => "a100_pcie_80gb",
            (true, false) => "a100_sxm_80gb",
            (false, true) => "a100_pcie_40gb",
            (false, false) => "a100_sxm_40gb",
        }
    } else if name.starts_with("a800") {
        "a800_pcie_80gb"
    } else if name.starts_with("v100") {
        match (at_least(30.0), form == Some(Form::Pcie)) {
            (true, true) => "v100_pcie_32gb",
            (true, false) => "v100_sxm2_32gb",
            (false, true) => "v100_pcie_16gb",
            (false, false) => "v100_sxm2_16gb",
        }
    } else if let Some(id) = by_family(name) {
        id
    } else if name.starts_with("rtx6000") || name == "rtx6000" {
        // "RTX6000" alone is the 24 GB Turing Quadro (Lambda and Seeweb report
        // 24,576 MiB), not the 48 GB RTX 6000 Ada.
        if name.contains("ada") || at_least(40.0) {
            "rtx_6000_ada"
        } else {
            "quadro_rtx_6000"
        }
    } else {
        return None;
    };
    Some(id)
}

/// Names that identify one catalog GPU whatever the suffix (`_PCIE`,
/// `_BAREMETAL`, `-WK`, `s`…). Longer prefixes come first.
fn by_family(name: &str) -> Option<&'static str> {
    const PREFIXES: [(&str, &str); 38] = [
        ("a10g", "a10g"),
        ("a10", "a10"),
        ("a16", "a16"),
        ("a30", "a30"),
        ("a4000", "rtx_a4000"),
        ("a40", "a40"),
        ("l40s", "l40s"),
        ("l40", "l40"),
        ("l4", "l4"),
        ("t4", "t4"),
        ("p4000", "quadro_p4000"),
        ("p100", "p100_16gb"),
        ("p4", "p4"),
        ("k80", "k80"),
        ("m60", "m60"),
        ("m4000", "quadro_m4000"),
        ("mi355x", "mi355x"),
        ("mi325x", "mi325x"),
        ("mi300x", "mi300x"),
        ("mi25", "mi25"),
        ("prov520", "radeon_pro_v520"),
        ("prov620", "radeon_pro_v620"),
        ("gaudihl205", "gaudi1"),
        ("gaudi2", "gaudi2"),
        ("gaudi3", "gaudi3"),
        ("inferentia2", "inferentia2"),
        ("inferentia", "inferentia"),
        ("trainium", "trainium"),
        ("rtxpro6000", "rtx_pro_6000_blackwell"),
        ("rtxa6000", "rtx_a6000"),
        ("a6000", "rtx_a6000"),
        ("rtxa5000", "rtx_a5000"),
        ("a5000", "rtx_a5000"),
        ("rtxa4500", "rtx_a4500"),
        ("rtxa4000", "rtx_a4000"),
        ("rtx2000ada", "rtx_2000_ada"),
        ("rtx4000ada", "rtx_4000_ada"),
        ("rtx5000ada", "rtx_5000_ada"),
    ];
    const CONSUMER: [(&str, &str); 8] = [
        ("rtx5090", "rtx_5090"),
        ("rtx4090", "rtx_4090"),
        ("rtx4080", "rtx_4080"),
        ("rtx3090", "rtx_3090"),
        ("rtx3070", "rtx_3070"),
        ("rtx3060", "rtx_3060_12gb"),
        // FSDL's "RTX4000 (8 GB)" and "RTX5000 (16 GB)" are the Turing Quadros.
        ("rtx4000", "quadro_rtx_4000"),
        ("rtx5000", "quadro_rtx_5000"),
    ];
    PREFIXES.iter().chain(CONSUMER.iter()).find(|(prefix, _)| name.starts_with(prefix)).map(|(_, id)| *id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_spellings_map_to_catalog_ids() {
        // (accelerator name, per-GPU GiB, instance type and other hints, gpu_id), from the
        // offer files under ../shared/data/offers.
        let cases = [
            ("H100", Some(80.0), "gpu_1x_h100_pcie", "h100_pcie"),
            ("H100", Some(80.0), "gpu_8x_h100_sxm5", "h100_sxm"),
            ("H100", Some(80.0), "p5.48xlarge", "h100_sxm"),
            ("H100-SXM", None, "sapphire-rapids-h100_1x2v4gb", "h100_sxm"),
            ("H100-NVL", None, "1x_H100-NVL_SECURE", "h100_nvl"),
            ("H100_NVL", None, "n3-H100x8-NVLink__CANADA-1", "h100_nvl"),
            ("H100-NVLINK", None, "H100_NVLINK_80GB::8", "h100_sxm"),
            ("H100-80G-PCIe-NVLink", None, "n3-H100x8-NVLink", "h100_pcie"),
            ("H100-MEGA", None, "a3-megagpu-8g", "h100_sxm"),
            ("H100", None, "1x-H100_NVL-32-65536", "h100_nvl"),
            ("H200", Some(141.0), "p5e.48xlarge", "h200_sxm"),
            ("NVIDIA-H200-NVL", None, "1x_NVIDIA-H200-NVL_SECURE", "h200_nvl"),
            ("B200", Some(180.0), "p6-b200.48xlarge", "b200_sxm"),
            ("B300", None, "1B300.30V", "b300_sxm"),
            ("GB300", None, "BM.GPU.GB300.4", "gb300"),
            ("GH200", Some(96.0), "gpu_1x_gh200", "gh200_96gb"),
            ("A100", Some(40.0), "gpu_1x_a100", "a100_pcie_40gb"),
            ("A100", Some(40.0), "gpu_1x_a100_sxm4", "a100_sxm_40gb"),
            ("A100", Some(40.0), "gpu_8x_a100", "a100_sxm_40gb"),
            ("A100", Some(40.0), "p4d.24xlarge", "a100_sxm_40gb"),
            ("A100-80GB", Some(80.0), "p4de.24xlarge", "a100_sxm_80gb"),
            ("A100-80GB", Some(80.0), "1x_A100-80GB_SECURE A100 PCIe", "a100_pcie_80gb"),
            ("A100-80GB-SXM", None, "1x_A100-80GB-SXM_SECURE", "a100_sxm_80gb"),
            ("A100-80G-PCIe", None, "n3-A100x1", "a100_pcie_80gb"),
            ("A100_80G_SXM4", None, "A100_sxm4_80Gx8", "a100_sxm_80gb"),
            ("A100-80GB-640GB", None, "8A100.176V", "a100_sxm_80gb"),
            ("A100", Some(40.0), "epyc-genoa-a100-pcie_1x2v4gb", "a100_pcie_40gb"),
            ("V100", Some(16.0), "p3.2xlarge", "v100_sxm2_16gb"),
            ("V100-32GB", Some(32.0), "p3dn.24xlarge", "v100_sxm2_32gb"),
            ("V100_32G_PCIE", None, "V100_32G_x", "v100_pcie_32gb"),
            ("Tesla-V100", None, "1V100.6V", "v100_sxm2_16gb"),
            ("A10", Some(24.0), "gpu_1x_a10", "a10"),
            ("A10G", Some(24.0), "g5.xlarge", "a10g"),
            ("A6000", Some(48.0), "gpu_1x_a6000", "rtx_a6000"),
            ("A6000_PCIE_LOW_RAM", None, "gpu_1x_a6000_low_ram", "rtx_a6000"),
            ("RTX-A6000", None, "n3-RTX-A6000x1", "rtx_a6000"),
            ("RTXA4000", None, "1x_RTXA4000_SECURE", "rtx_a4000"),
            ("RTX6000", Some(24.0), "gpu_1x_rtx6000", "quadro_rtx_6000"),
            ("RTX6000-Ada", None, "1x_RTX6000-Ada_SECURE", "rtx_6000_ada"),
            ("RTX6000ADA_PCIE", None, "RTX6000Ada_x", "rtx_6000_ada"),
            ("RTXPRO6000-WK", None, "RTXPRO6000-WK_1x", "rtx_pro_6000_blackwell"),
            ("RTXPRO6000WS", None, "1x-RTX_PRO_6000_WS", "rtx_pro_6000_blackwell"),
            ("RTX4000-Ada", None, "1x_RTX4000-Ada_SECURE", "rtx_4000_ada"),
            ("RTX2000-Ada", None, "1x_RTX2000-Ada_SECURE", "rtx_2000_ada"),
            ("RTX4090", None, "1x_RTX4090_SECURE", "rtx_4090"),
            ("RTX5090_PCIE_BAREMETAL", None, "RTX5090x8", "rtx_5090"),
            ("RTX 3070", None, "GPU-3070-S", "rtx_3070"),
            ("RTX3060", None, "1x-RTX_3060", "rtx_3060_12gb"),
            ("L40s", None, "ECS1GPU", "l40s"),
            ("L40S_PCIE_BAREMETAL", None, "L40Sx8", "l40s"),
            ("L40_PCIE", None, "L40_x", "l40"),
            ("L4_PCIE", None, "L4_x", "l4"),
            ("T4g", None, "g5g.xlarge", "t4"),
            ("Radeon Pro V520", None, "g4ad.xlarge", "radeon_pro_v520"),
            ("Radeon MI25", None, "Standard_NV4as_v4", "mi25"),
            ("MI300X", None, "BM.GPU.MI300X.8", "mi300x"),
            ("Gaudi HL-205", None, "dl1.24xlarge", "gaudi1"),
            ("Inferentia2", None, "inf2.xlarge", "inferentia2"),
            ("Trainium", None, "trn1.32xlarge", "trainium"),
            ("K80", None, "Standard_NC6", "k80"),
            ("A100-80GB", None, "Standard_NC24ads_A100_v4", "a100_pcie_80gb"),
            ("A100-80GB", None, "Standard_ND96amsr_A100_v4", "a100_sxm_80gb"),
            ("H100", None, "Standard_NC40ads_H100_v5", "h100_nvl"),
            ("H100", None, "Standard_ND96isr_H100_v5", "h100_sxm"),
            ("V100", None, "Standard_NC6s_v3", "v100_pcie_16gb"),
            ("V100-32GB", None, "Standard_ND40rs_v2", "v100_sxm2_32gb"),
            ("Quadro RTX 6000", Some(24.0), "", "quadro_rtx_6000"),
            ("RTX5000", Some(16.0), "", "quadro_rtx_5000"),
            ("TPU v5e", None, "v5litepod-4", "tpu_v5e"),
        ];
        for (name, gib, hints, expected) in cases {
            assert_eq!(catalog_gpu_id(name, gib, hints), Some(expected), "{name} on {hints}");
        }
    }

    #[test]
    fn an_unknown_accelerator_maps_to_nothing() {
        assert_eq!(catalog_gpu_id("Voodoo5 6000", Some(0.1), "pc"), None);
        assert_eq!(catalog_gpu_id("", None, "cpu_4x_general"), None);
    }
}
