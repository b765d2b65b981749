//! Identifying the visitor's GPU from real browser strings. Each case says
//! where its string, or the format of its string, comes from.

use super::*;
use crate::engine::catalog::Segment;
use crate::engine::Catalog;

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

fn webgl(renderer: &str) -> AdapterReport {
    AdapterReport { renderer: Some(renderer.to_string()), ..AdapterReport::default() }
}

fn webgpu(vendor: &str, architecture: &str) -> AdapterReport {
    AdapterReport { vendor: vendor.to_string(), architecture: architecture.to_string(), ..AdapterReport::default() }
}

fn both(renderer: &str, vendor: &str, architecture: &str) -> AdapterReport {
    AdapterReport { renderer: Some(renderer.to_string()), ..webgpu(vendor, architecture) }
}

/// What a case must identify.
#[derive(Debug)]
enum Expect {
    Exact(&'static str),
    /// Candidates holding these ids in this order (others may sit between).
    CandidatesInOrder(&'static [&'static str]),
    /// Candidates that are exactly these ids, in this order.
    Candidates(&'static [&'static str]),
    /// Every Apple M-series row, and nothing else.
    EveryAppleChip,
    Software,
    Unknown,
    Integrated,
}

/// D3D11 tail that ANGLE's `Renderer11::getRendererDescription`
/// (`src/libANGLE/renderer/d3d/d3d11/Renderer11.cpp`) writes after
/// "<adapter> (0x<PCI device id>)", wrapped by `Context::initRendererString`
/// as "ANGLE (vendor, renderer, version)".
macro_rules! d3d11 {
    ($vendor:literal, $adapter:literal) => {
        concat!("ANGLE (", $vendor, ", ", $adapter, " Direct3D11 vs_5_0 ps_5_0, D3D11)")
    };
}

/// Metal: `DisplayMtl::getRendererDescription` ("ANGLE Metal Renderer: " +
/// MTLDevice.name) and the literal "Unspecified Version" WebGL gets as the
/// version field (ANGLE `src/libANGLE/renderer/metal/DisplayMtl.mm`).
macro_rules! metal {
    ($chip:literal) => {
        concat!("ANGLE (Apple, ANGLE Metal Renderer: ", $chip, ", Unspecified Version)")
    };
}

fn cases() -> Vec<(AdapterReport, Expect)> {
    use Expect::*;
    vec![
        // Chrome on Windows, D3D11. PCI 0x2684 = RTX 4090 (SOURCES.md G8).
        (webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 4090 (0x00002684)")), Exact("rtx_4090")),
        // 0x2717 = RTX 4090 Laptop GPU (G8); WebGPU says only nvidia/lovelace (G7),
        // the name must still win, and must not become the desktop card.
        (
            both(d3d11!("NVIDIA", "NVIDIA GeForce RTX 4090 Laptop GPU (0x00002717)"), "nvidia", "lovelace"),
            Exact("rtx_4090_laptop"),
        ),
        // 0x2208 = RTX 3080 Ti (G8).
        (webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 3080 Ti (0x00002208)")), Exact("rtx_3080_ti")),
        // 0x2206 = RTX 3080 (G8): no "Ti", the 10 GB row.
        (webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 3080 (0x00002206)")), Exact("rtx_3080_10gb")),
        // 0x2705 = RTX 4070 Ti SUPER (G8): neither the 4070 Ti nor the 4070.
        (webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 4070 Ti SUPER (0x00002705)")), Exact("rtx_4070_ti_super")),
        // 0x2782 = RTX 4070 Ti (G8): not the SUPER.
        (webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 4070 Ti (0x00002782)")), Exact("rtx_4070_ti")),
        // Workstation cards, 0x26B1 = RTX 6000 Ada, 0x2230 = RTX A6000 (G8).
        (webgl(d3d11!("NVIDIA", "NVIDIA RTX 6000 Ada Generation (0x000026B1)")), Exact("rtx_6000_ada")),
        (webgl(d3d11!("NVIDIA", "NVIDIA RTX A6000 (0x00002230)")), Exact("rtx_a6000")),
        // Older ANGLE (no PCI id, driver version in the last field): Firefox's
        // Windows CI machine, mozilla/gecko-dev dom/canvas/gtest/TestSanitizeRenderer.cpp (TestCiWindows).
        (webgl("ANGLE (NVIDIA, NVIDIA Tesla M60 Direct3D11 vs_5_0 ps_5_0, D3D11-23.21.13.9181)"), Exact("m60")),
        // Same file, TestAngle3070 input.
        (
            webgl("ANGLE (NVIDIA, NVIDIA GeForce RTX 3070 Direct3D11 vs_5_0 ps_5_0, D3D11-10.0.22000.1)"),
            Exact("rtx_3070"),
        ),
        // Chrome on Linux, ANGLE's OpenGL backend passes the NVIDIA driver's
        // "<name>/PCIe/SSE2" (the tail Gecko's SanitizeRenderer.cpp strips with kRePcieSse2).
        (
            webgl("ANGLE (NVIDIA Corporation, NVIDIA GeForce RTX 3090/PCIe/SSE2, OpenGL 4.5.0 NVIDIA 535.104.05)"),
            Exact("rtx_3090"),
        ),
        // Chrome on Linux, Vulkan backend: RendererVk.cpp puts "NVIDIA " before a
        // device name that already starts with it. Logged in Kitware/trame-vtklocal#86.
        (
            webgl("ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA GeForce RTX 5080 (0x00002C02)), NVIDIA)"),
            Exact("rtx_5080"),
        ),
        // Firefox with webgl.sanitize-unmasked-renderer off: the driver's raw GL_RENDERER.
        (webgl("NVIDIA GeForce RTX 4070 Ti SUPER/PCIe/SSE2"), Exact("rtx_4070_ti_super")),
        // Firefox on Windows over WGL, no "NVIDIA" prefix (TestSanitizeRenderer.cpp, TestWindows3070 input).
        (webgl("GeForce RTX 3070/PCIe/SSE2"), Exact("rtx_3070")),
        // Firefox's sanitized string for that RTX 3070 (TestAngle3070 expectation):
        // a stand-in GPU, so no identification.
        (webgl("ANGLE (NVIDIA, NVIDIA GeForce GTX 980 Direct3D11 vs_5_0 ps_5_0), or similar"), Unknown),
        // Firefox turns an Arc A770 into "A750 ..., or similar" (TestIntelArcWindowsAngle);
        // WebGPU's intel/gen-12hp (G7) still narrows it.
        (
            both(
                "ANGLE (Intel, Intel(R) Arc(TM) A750 Graphics Direct3D11 vs_5_0 ps_5_0), or similar",
                "intel",
                "gen-12hp",
            ),
            Candidates(&["arc_a770"]),
        ),
        // Firefox reports any Apple chip as "Apple M1, or similar" (TestMacApple): not the M1.
        (webgl("Apple M1, or similar"), EveryAppleChip),
        // AMD, D3D11. 0x744C is Navi 31 for both the XT and the XTX (G8): only the name tells them apart.
        (webgl(d3d11!("AMD", "AMD Radeon RX 7900 XTX (0x0000744C)")), Exact("rx_7900_xtx")),
        (webgl(d3d11!("AMD", "AMD Radeon RX 7900 XT (0x0000744C)")), Exact("rx_7900_xt")),
        // AMD on Linux: Mesa radeonsi's "<name> (<chip>, LLVM ..., DRM ..., <kernel>)",
        // the shape of TestSanitizeRenderer.cpp's TestLinuxRadeon input, behind ANGLE's OpenGL backend.
        (
            webgl("ANGLE (AMD, AMD Radeon RX 7900 XTX (radeonsi, navi31, LLVM 15.0.7, DRM 3.54, 6.5.0), OpenGL 4.6)"),
            Exact("rx_7900_xtx"),
        ),
        // TestLinuxRadeon's own input: an RX 5700, which has no catalog row.
        (webgl("AMD Radeon RX 5700 (NAVI10, DRM 3.35.0, 5.4.0-65-generic, LLVM 11.0.0)"), Unknown),
        // Intel Arc, D3D11; 0x56A0 = Arc A770 (G8).
        (webgl(d3d11!("Intel", "Intel(R) Arc(TM) A770 Graphics (0x000056A0)")), Exact("arc_a770")),
        // Intel Arc over WGL (TestSanitizeRenderer.cpp, TestIntelArcWindowsGl input).
        (webgl("Intel(R) Arc(TM) A770 Graphics"), Exact("arc_a770")),
        // Iris Xe (Tiger Lake): no catalog row, and Dawn's gen-12lp (G7) matches none either.
        (both(d3d11!("Intel", "Intel(R) Iris(R) Xe Graphics (0x00009A49)"), "intel", "gen-12lp"), Integrated),
        // Mesa on Linux (TestLinuxIntel620 input).
        (webgl("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"), Integrated),
        // AMD APU graphics: Phoenix's Radeon 780M (ANGLE D3D11 format as above) and
        // the unnamed "AMD Radeon(TM) Graphics" older APUs report.
        (webgl(d3d11!("AMD", "AMD Radeon 780M Graphics (0x000015BF)")), Integrated),
        (webgl(d3d11!("AMD", "AMD Radeon(TM) Graphics (0x00001638)")), Integrated),
        // WebGPU alone: Dawn's Intel integrated architectures (G7); Arc is gen-12hp.
        (webgpu("intel", "gen-12lp"), Integrated),
        (webgpu("intel", "gen-9"), Integrated),
        // Hybrid laptop: WebGL drew on the Iris Xe, WebGPU got the NVIDIA card.
        (
            both(d3d11!("Intel", "Intel(R) Iris(R) Xe Graphics (0x00009A49)"), "nvidia", "lovelace"),
            CandidatesInOrder(&["rtx_4090", "rtx_4090_laptop", "l4"]),
        ),
        // Chrome on macOS, Metal backend.
        (webgl(metal!("Apple M1")), Exact("apple_m1")),
        (webgl(metal!("Apple M2 Max")), Exact("apple_m2_max")),
        (webgl(metal!("Apple M3 Pro")), Exact("apple_m3_pro")),
        (both(metal!("Apple M4"), "apple", "metal-3"), Exact("apple_m4")),
        // Chrome on macOS over OpenGL: Apple's GL_RENDERER is the bare chip name
        // (TestMacApple input "Apple M1"). "Apple M2" is not the M2 Max.
        (webgl("ANGLE (Apple, Apple M2, OpenGL 4.1)"), Exact("apple_m2")),
        // Firefox unsanitized on macOS: the same bare chip name.
        (webgl("Apple M1 Pro"), Exact("apple_m1_pro")),
        // Safari masks the renderer as "Apple GPU" (WebKit since 2020, gpuweb/gpuweb#2195).
        (webgl("Apple GPU"), EveryAppleChip),
        (both("Apple GPU", "apple", ""), EveryAppleChip),
        // A chip newer than the catalog: metal-3 (G7) keeps every Apple row open.
        (both(metal!("Apple M5 Max"), "apple", "metal-3"), EveryAppleChip),
        // WebGPU only (Chrome without WebGL info). Architecture strings from Dawn's gpu_info.json (G7).
        (webgpu("nvidia", "lovelace"), CandidatesInOrder(&["rtx_4090", "rtx_4080", "rtx_4070", "l40s", "l4"])),
        (
            webgpu("nvidia", "blackwell"),
            Candidates(&["rtx_5090", "rtx_5070_ti", "rtx_5080", "rtx_5070", "rtx_pro_6000_blackwell"]),
        ),
        (
            webgpu("nvidia", "ampere"),
            CandidatesInOrder(&["rtx_3090", "rtx_3070", "rtx_a6000", "a100_pcie_80gb", "a10"]),
        ),
        (webgpu("amd", "rdna-3"), Candidates(&["rx_7900_xtx", "rx_7900_xt", "rx_7800_xt"])),
        (webgpu("intel", "gen-12hp"), Candidates(&["arc_a770"])),
        // WebGL on SwiftShader while WebGPU has the card (a blocklisted GL
        // driver): WebGPU's word wins, and the software renderer names nothing.
        (
            both(
                "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)",
                "nvidia",
                "lovelace",
            ),
            CandidatesInOrder(&["rtx_4090", "rtx_4080", "l4"]),
        ),
        (
            AdapterReport {
                description: "NVIDIA GeForce RTX 4090".into(),
                ..both(
                    "ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)",
                    "nvidia",
                    "lovelace",
                )
            },
            Exact("rtx_4090"),
        ),
        // Only datacenter rows carry these strings (Dawn: MI210/MI250X report
        // "rdna-2", V100 "pascal", G7): a browser there is far more likely on a
        // desktop RX 6800 or GTX 1080, which the catalog lacks.
        (webgpu("amd", "rdna-2"), Unknown),
        (webgpu("nvidia", "pascal"), Unknown),
        (webgpu("apple", "metal-3"), EveryAppleChip),
        // Older macOS or Chrome report the Metal family as common-3 (G7).
        (webgpu("apple", "common-3"), EveryAppleChip),
        // The Metal family alone is enough: Dawn's common-1/2 for older Apple GPUs (G7).
        (webgpu("", "common-2"), EveryAppleChip),
        // Dawn has no architecture for H100/H200/B200 and reports "" (G7).
        (webgpu("nvidia", ""), Unknown),
        // Headless Chromium with --enable-unsafe-webgpu: Dawn's SwiftShader fallback adapter.
        (AdapterReport { is_fallback: true, ..webgpu("google", "swiftshader") }, Software),
        // Its WebGL string (ANGLE's Vulkan backend on SwiftShader, device id 0xC0DE), with no WebGPU.
        (
            webgl("ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)"),
            Software,
        ),
        // Mesa's llvmpipe names itself "llvmpipe (LLVM <version>, <bits> bits)" (lp_screen.c).
        (webgl("llvmpipe (LLVM 15.0.6, 256 bits)"), Software),
        // Windows' WARP adapter under ANGLE (TestSanitizeRenderer.cpp, TestAngleWarp input).
        (
            webgl("ANGLE (Unknown, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11-10.0.22000.1)"),
            Software,
        ),
        // A fallback adapter is software whatever it calls itself
        // (Chromium gpu_adapter.cc: isFallbackAdapter = adapter type CPU).
        (AdapterReport { is_fallback: true, ..webgpu("nvidia", "lovelace") }, Software),
        // Nothing reported.
        (AdapterReport::default(), Unknown),
    ]
}

#[test]
fn real_reports_identify_the_catalog_gpu() {
    let catalog = catalog();
    let apple: Vec<&str> =
        catalog.gpus.iter().filter(|g| g.segment == Some(Segment::Apple)).map(|g| g.id.as_str()).collect();
    assert!(apple.len() >= 12, "the catalog lost its Apple rows");
    let cases = cases();
    assert!(cases.len() >= 25);
    for (report, expect) in cases {
        let got = identify(&report, catalog);
        let ok = match (&expect, &got) {
            (Expect::Exact(id), Identification::Exact(got)) => got == id,
            (Expect::Candidates(ids), Identification::Candidates(got)) => got == ids,
            (Expect::CandidatesInOrder(ids), Identification::Candidates(got)) => {
                let positions: Vec<Option<usize>> = ids.iter().map(|id| got.iter().position(|g| g == id)).collect();
                positions.iter().all(Option::is_some) && positions.windows(2).all(|w| w[0] < w[1])
            }
            (Expect::EveryAppleChip, Identification::Candidates(got)) => {
                let mut got: Vec<&str> = got.iter().map(String::as_str).collect();
                got.sort_unstable();
                let mut apple = apple.clone();
                apple.sort_unstable();
                got == apple
            }
            (Expect::Software, Identification::Software)
            | (Expect::Unknown, Identification::Unknown)
            | (Expect::Integrated, Identification::Integrated) => true,
            _ => false,
        };
        assert!(ok, "{report:?}\nexpected {expect:?}\n     got {got:?}");
    }
}

#[test]
fn software_is_recognised_in_any_field() {
    let catalog = catalog();
    let described = |text: &str| AdapterReport { description: text.to_string(), ..webgpu("", "") };
    // The rule's names other than those in the table above: Mesa's Vulkan and
    // Gallium software drivers, and Direct3D's WARP as a word of its own.
    for text in ["lavapipe", "softpipe", "WARP", "Microsoft Basic Render Driver"] {
        assert_eq!(identify(&described(text), catalog), Identification::Software, "{text}");
    }
    assert_eq!(identify(&webgpu("google", "swiftshader"), catalog), Identification::Software);
    // "warp" inside another word is not WARP.
    assert_eq!(identify(&described("Warpdrive 9000"), catalog), Identification::Unknown);
}

#[test]
fn candidates_put_desk_and_lap_cards_first_then_larger_memory() {
    let catalog = catalog();
    let segments = [Segment::Consumer, Segment::Laptop, Segment::Apple, Segment::Workstation, Segment::Datacenter];
    for (report, _) in cases() {
        let Identification::Candidates(ids) = identify(&report, catalog) else { continue };
        let gpus: Vec<&Gpu> = ids.iter().map(|id| catalog.gpu(id).unwrap()).collect();
        let rank = |g: &Gpu| (segments.iter().position(|s| Some(*s) == g.segment), -g.vram_gb);
        assert!(gpus.windows(2).all(|w| rank(w[0]) <= rank(w[1])), "{report:?}: {ids:?}");
    }
    // Apple: the 192 GB M2 Ultra first, the 16 GB M1 last (gpus.csv).
    let Identification::Candidates(apple) = identify(&webgpu("apple", "metal-3"), catalog) else { panic!() };
    assert_eq!((apple.first().unwrap().as_str(), apple.last().unwrap().as_str()), ("apple_m2_ultra", "apple_m1"));
}

#[test]
fn architecture_candidates_keep_to_the_reported_vendor_and_architecture() {
    let catalog = catalog();
    let Identification::Candidates(ids) = identify(&webgpu("nvidia", "lovelace"), catalog) else { panic!() };
    for id in &ids {
        let gpu = catalog.gpu(id).unwrap();
        assert_eq!((gpu.vendor.as_str(), gpu.webgpu_architecture.as_deref()), ("NVIDIA", Some("lovelace")), "{id}");
    }
    // Every Ada card of the catalog is there (gpus.csv webgpu_architecture).
    let lovelace = catalog.gpus.iter().filter(|g| g.webgpu_architecture.as_deref() == Some("lovelace")).count();
    assert_eq!(ids.len(), lovelace);
    // Vendor case does not matter; a vendor with no such architecture finds nothing.
    assert_eq!(identify(&webgpu("NVIDIA", "lovelace"), catalog), Identification::Candidates(ids));
    assert_eq!(identify(&webgpu("amd", "lovelace"), catalog), Identification::Unknown);
}

#[test]
fn a_name_without_its_variant_leaves_the_variants_open() {
    let catalog = catalog();
    let named =
        |name: &str| identify(&AdapterReport { description: name.to_string(), ..webgpu("nvidia", "") }, catalog);
    let ids = |ids: &[&str]| Identification::Candidates(ids.iter().map(|id| id.to_string()).collect());
    // Board names as the NVIDIA driver spells them (nvidia-smi: "NVIDIA A100-SXM4-80GB").
    assert_eq!(named("NVIDIA A100-SXM4-80GB"), Identification::Exact("a100_sxm_80gb".into()));
    assert_eq!(named("NVIDIA A100-PCIE-40GB"), Identification::Exact("a100_pcie_40gb".into()));
    assert_eq!(named("Tesla V100-SXM2-16GB"), Identification::Exact("v100_sxm2_16gb".into()));
    // A bare model name fits every memory size and form factor: the user confirms one.
    assert_eq!(named("NVIDIA A100"), ids(&["a100_pcie_80gb", "a100_sxm_80gb", "a100_pcie_40gb", "a100_sxm_40gb"]));
    assert_eq!(named("NVIDIA A100 80GB"), ids(&["a100_pcie_80gb", "a100_sxm_80gb"]));
    // A size the catalog lacks names no row (the 12 GB RTX 3080 is not the 10 GB one).
    assert_eq!(named("NVIDIA GeForce RTX 3080 12GB"), Identification::Unknown);
}

#[test]
fn near_names_stay_apart() {
    let catalog = catalog();
    let exact = |name: &str| match identify(&webgl(name), catalog) {
        Identification::Exact(id) => Some(id),
        _ => None,
    };
    assert_eq!(exact("NVIDIA RTX 4000 Ada Generation").as_deref(), Some("rtx_4000_ada"));
    assert_eq!(exact("Quadro RTX 4000").as_deref(), Some("quadro_rtx_4000"));
    assert_eq!(exact("NVIDIA GeForce RTX 4080 SUPER").as_deref(), Some("rtx_4080_super"));
    assert_eq!(exact("NVIDIA GeForce RTX 4080").as_deref(), Some("rtx_4080"));
    assert_eq!(exact("NVIDIA L40S").as_deref(), Some("l40s"));
    assert_eq!(exact("NVIDIA L4").as_deref(), Some("l4"));
    // Models the catalog lacks are not rounded to a neighbour.
    assert_eq!(exact("NVIDIA GeForce RTX 4070 SUPER"), None);
    assert_eq!(exact("NVIDIA GeForce RTX 3080 Laptop GPU"), None);
    assert_eq!(exact("Apple M3 Ultra"), None);
    assert_eq!(exact("AMD Radeon RX 7900 GRE"), None);
}

#[test]
fn display_name_is_the_most_specific_name_given() {
    let name = |report: AdapterReport| report.display_name();
    assert_eq!(
        name(webgl(d3d11!("NVIDIA", "NVIDIA GeForce RTX 4090 (0x00002684)"))).as_deref(),
        Some("NVIDIA GeForce RTX 4090")
    );
    assert_eq!(
        name(webgl("ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA GeForce RTX 5080 (0x00002C02)), NVIDIA)")).as_deref(),
        Some("NVIDIA GeForce RTX 5080")
    );
    assert_eq!(name(webgl(metal!("Apple M2 Max"))).as_deref(), Some("Apple M2 Max"));
    assert_eq!(
        name(webgl("ANGLE (NVIDIA Corporation, NVIDIA GeForce RTX 3090/PCIe/SSE2, OpenGL 4.5.0 NVIDIA 535.104.05)"))
            .as_deref(),
        Some("NVIDIA GeForce RTX 3090")
    );
    assert_eq!(
        name(webgl(d3d11!("Intel", "Intel(R) Iris(R) Xe Graphics (0x00009A49)"))).as_deref(),
        Some("Intel(R) Iris(R) Xe Graphics")
    );
    // Firefox's stand-in keeps its caveat.
    assert_eq!(
        name(webgl("ANGLE (NVIDIA, NVIDIA GeForce GTX 980 Direct3D11 vs_5_0 ps_5_0), or similar")).as_deref(),
        Some("NVIDIA GeForce GTX 980, or similar")
    );
    // Without a renderer: description, then device, then vendor and architecture.
    let described = AdapterReport { description: "Intel(R) Arc(TM) A770 Graphics".into(), ..webgpu("intel", "") };
    assert_eq!(name(described).as_deref(), Some("Intel(R) Arc(TM) A770 Graphics"));
    assert_eq!(name(AdapterReport { device: "0x56a0".into(), ..webgpu("intel", "") }).as_deref(), Some("0x56a0"));
    assert_eq!(name(webgpu("nvidia", "lovelace")).as_deref(), Some("nvidia lovelace"));
    assert_eq!(name(webgpu("apple", "")).as_deref(), Some("apple"));
    assert_eq!(name(AdapterReport { renderer: Some(" ".into()), ..AdapterReport::default() }), None);
    assert_eq!(name(AdapterReport::default()), None);
}

#[test]
fn only_apple_chips_share_memory_with_the_cpu() {
    let catalog = catalog();
    for gpu in &catalog.gpus {
        assert_eq!(unified_memory(gpu), gpu.id.starts_with("apple_"), "{}", gpu.id);
    }
    assert!(unified_memory(catalog.gpu("apple_m2_max").unwrap()));
    assert!(!unified_memory(catalog.gpu("rtx_4090").unwrap()));
}

#[test]
fn a_report_survives_the_trip_through_json() {
    let report = AdapterReport {
        max_buffer_size: Some(4_294_967_296.0),
        features: vec!["shader-f16".into()],
        ..both(metal!("Apple M4"), "apple", "metal-3")
    };
    let json = serde_json::to_string(&report).unwrap();
    assert_eq!(serde_json::from_str::<AdapterReport>(&json).unwrap(), report);
}
