//! The visitor's own GPU: what the browser reports, mapped to catalog GPUs.
//!
//! The page's WebGPU probe reads the browser once into an [`AdapterReport`];
//! everything here is plain string work, tested natively. What the strings
//! look like, and why the rules below are shaped as they are:
//! - Chrome's WebGL renderer is ANGLE's `GL_RENDERER`, "ANGLE (vendor,
//!   renderer, version)" (ANGLE `src/libANGLE/Context.cpp`,
//!   `initRendererString`). The renderer part depends on the backend: D3D11
//!   "<adapter> (0x<PCI id>) Direct3D11 vs_5_0 ps_5_0" (`Renderer11.cpp`),
//!   Vulkan "Vulkan 1.3.0 (<device> (0x<PCI id>))" with "NVIDIA " put in front
//!   of NVIDIA device names (`RendererVk.cpp`), Metal "ANGLE Metal Renderer:
//!   <MTLDevice.name>" (`DisplayMtl.mm`), OpenGL the driver's own string
//!   ("<name>/PCIe/SSE2" from NVIDIA, "<name> (radeonsi, navi31, ...)" from
//!   Mesa).
//! - Firefox replaces the GPU by a representative older one and appends
//!   ", or similar" (Gecko `dom/canvas/SanitizeRenderer.cpp`: any Apple chip
//!   becomes "Apple M1", an Arc A770 "Arc A750"), so such a name never
//!   identifies a GPU. Safari says "Apple GPU" only.
//! - Chrome's WebGPU `adapter.info` carries vendor and architecture from
//!   Dawn's gpu_info.json (SOURCES.md G7); device and description are filled
//!   only behind the WebGPU developer-features flag (Chromium
//!   `third_party/blink/renderer/modules/webgpu/gpu_adapter.cc`).

use super::catalog::Segment;
use super::{Catalog, Gpu};
use serde::{Deserialize, Serialize};

/// What the browser reports about its GPU, read once by the page's WebGPU probe.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct AdapterReport {
    /// `adapter.info.vendor`, e.g. "nvidia", "amd", "intel", "apple", "google" (may be empty).
    pub vendor: String,
    /// `adapter.info.architecture`, e.g. "lovelace", "rdna-3", "metal-3", "swiftshader" (may be empty).
    pub architecture: String,
    /// `adapter.info.device` (usually empty in Chrome).
    pub device: String,
    /// `adapter.info.description` (usually empty in Chrome; a name in some builds).
    pub description: String,
    /// `adapter.info.isFallbackAdapter` (or the deprecated adapter.isFallbackAdapter).
    pub is_fallback: bool,
    /// `adapter.limits.maxBufferSize`, bytes.
    pub max_buffer_size: Option<f64>,
    /// `adapter.limits.maxStorageBufferBindingSize`, bytes.
    pub max_storage_buffer_binding_size: Option<f64>,
    /// `adapter.features`, e.g. "shader-f16".
    pub features: Vec<String>,
    /// The WebGL `UNMASKED_RENDERER_WEBGL` string where available, e.g.
    /// "ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 (0x00002684) Direct3D11 vs_5_0 ps_5_0, D3D11)".
    pub renderer: Option<String>,
}

/// What the automatic probe found.
#[derive(Debug, Clone, PartialEq)]
pub enum Probe {
    /// No `navigator.gpu`: a browser without WebGPU, or an insecure context.
    NoWebGpu { renderer: Option<String> },
    /// `requestAdapter()` resolved to null: WebGPU exists but offers no
    /// adapter (blocked, or no usable GPU).
    NoAdapter { renderer: Option<String> },
    /// `requestAdapter()` was rejected, with the browser's words.
    Failed { detail: String, renderer: Option<String> },
    /// An adapter, as a plain report.
    Adapter(AdapterReport),
}

/// A measured read bandwidth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bandwidth {
    /// Bytes read per second, the best timed pass.
    pub bytes_per_s: f64,
    /// Bytes read per pass.
    pub buffer_bytes: f64,
    /// Wall-clock milliseconds the timed passes took.
    pub elapsed_ms: f64,
}

/// Which catalog GPU a report is.
#[derive(Debug, Clone, PartialEq)]
pub enum Identification {
    /// The report names one catalog GPU (its id).
    Exact(String),
    /// Vendor and architecture narrow it to these catalog GPU ids, most likely first
    /// (desktop/laptop/workstation/Apple cards before datacenter parts, then larger memory first); the user confirms one.
    Candidates(Vec<String>),
    /// A software renderer (SwiftShader, llvmpipe, lavapipe, Microsoft Basic Render Driver / WARP, or any fallback adapter): not a GPU.
    Software,
    /// An integrated GPU (Intel Iris/UHD/HD Graphics, AMD Radeon APU graphics): it shares the
    /// system's memory, and the catalog has no such rows (gpus.csv reserves segment `integrated`).
    Integrated,
    /// Nothing in the catalog matches; the user picks by hand.
    Unknown,
}

/// Software rasterizers as they name themselves: SwiftShader (Chrome's
/// fallback; Dawn reports vendor "google", architecture "swiftshader"), Mesa's
/// llvmpipe ("llvmpipe (LLVM 15.0.6, 256 bits)", `lp_screen.c`), lavapipe and
/// softpipe, and Windows' WARP adapter. WARP is matched as a whole word.
const SOFTWARE_RENDERERS: [&str; 5] =
    ["swiftshader", "llvmpipe", "lavapipe", "softpipe", "microsoft basic render driver"];

/// Words of GPU names that tell no model apart: brands, "(R)", "(TM)" and
/// product-line padding. Dropped from browser names and catalog ids alike.
const FILLER_WORDS: [&str; 16] = [
    "nvidia",
    "geforce",
    "tesla",
    "amd",
    "ati",
    "radeon",
    "instinct",
    "intel",
    "mesa",
    "r",
    "tm",
    "graphics",
    "gpu",
    "generation",
    "workstation",
    "edition",
];

impl AdapterReport {
    /// The most specific name the browser gave, for display: the GPU named in the renderer string
    /// (e.g. "NVIDIA GeForce RTX 4090" out of the ANGLE wrapper), else description, else device, else
    /// "vendor architecture"; `None` when everything is empty. A software WebGL renderer is skipped
    /// when WebGPU describes its own adapter.
    pub fn display_name(&self) -> Option<String> {
        let webgpu_said = [&self.vendor, &self.architecture, &self.device, &self.description]
            .iter()
            .any(|field| !field.trim().is_empty());
        let renderer = self.renderer.as_deref().filter(|r| !(webgpu_said && software(r)));
        if let Some(named) = renderer.and_then(NamedGpu::parse) {
            return Some(if named.masked { format!("{}, or similar", named.name) } else { named.name });
        }
        let vendor_architecture = format!("{} {}", self.vendor.trim(), self.architecture.trim());
        let names = [self.description.trim(), self.device.trim(), vendor_architecture.trim()];
        names.iter().find(|name| !name.is_empty()).map(|name| name.to_string())
    }

    /// A software renderer, by WebGPU's own fields; WebGL's renderer counts
    /// only when WebGPU said nothing. A browser may run WebGL on SwiftShader
    /// (a blocklisted driver, headless Chromium) while WebGPU has the card.
    fn is_software(&self) -> bool {
        let fields = [&self.vendor, &self.architecture, &self.device, &self.description];
        let webgpu = fields.map(|field| field.as_str()).join(" ");
        self.is_fallback
            || software(&webgpu)
            || (webgpu.trim().is_empty() && self.renderer.as_deref().is_some_and(software))
    }
}

/// Integrated GPUs by name: every Intel GPU but Arc (Iris, UHD and HD
/// Graphics), and AMD's APU graphics ("AMD Radeon(TM) Graphics", Radeon
/// 610M–890M).
fn integrated_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    if name.contains("intel") || name.contains("iris") || name.contains("hd graphics") {
        return !words(&name).any(|word| word == "arc");
    }
    name.contains("radeon(tm) graphics")
        || name.contains("radeon graphics")
        || words(&name).any(|word| matches!(word, "610m" | "660m" | "680m" | "760m" | "780m" | "880m" | "890m"))
}

/// Intel's integrated architectures as Dawn names them (SOURCES.md G7:
/// "gen-9", "gen-11", "gen-12lp", …); Arc's are the "hp" ones ("gen-12hp").
fn integrated_architecture(report: &AdapterReport) -> bool {
    let architecture = report.architecture.trim().to_ascii_lowercase();
    report.vendor.trim().eq_ignore_ascii_case("intel")
        && architecture.starts_with("gen-")
        && !architecture.ends_with("hp")
}

/// Whether `text` names a software renderer.
fn software(text: &str) -> bool {
    let text = text.to_ascii_lowercase();
    SOFTWARE_RENDERERS.iter().any(|name| text.contains(name)) || words(&text).any(|word| word == "warp")
}

/// Maps a report to catalog GPUs.
pub fn identify(report: &AdapterReport, catalog: &Catalog) -> Identification {
    if report.is_software() {
        return Identification::Software;
    }
    // A software WebGL renderer names no card.
    let renderer = report.renderer.as_deref().filter(|r| !software(r)).unwrap_or_default();
    let named: Vec<NamedGpu> =
        [renderer, &report.description, &report.device].into_iter().filter_map(NamedGpu::parse).collect();
    if let Some(found) = named.iter().filter(|gpu| !gpu.masked).find_map(|gpu| by_name(&gpu.name, catalog)) {
        return found;
    }
    // An integrated GPU, unless WebGPU reports another vendor's card (a
    // hybrid laptop draws WebGL on the iGPU and gives WebGPU the NVIDIA one).
    let webgpu_vendor = report.vendor.trim();
    let same_vendor = |gpu: &NamedGpu| webgpu_vendor.is_empty() || gpu.vendor().eq_ignore_ascii_case(webgpu_vendor);
    if named.iter().any(|gpu| !gpu.masked && integrated_name(&gpu.name) && same_vendor(gpu))
        || integrated_architecture(report)
    {
        return Identification::Integrated;
    }
    let vendor = match report.vendor.trim() {
        "" => named.first().map(NamedGpu::vendor).unwrap_or_default(),
        vendor => vendor.to_ascii_lowercase(),
    };
    by_architecture(&vendor, report.architecture.trim(), catalog)
}

/// Whether this GPU shares memory with the CPU (Apple M-series, integrated GPUs):
/// its `vram_gb` is the whole machine's memory, part of which the OS and apps use.
pub fn unified_memory(gpu: &Gpu) -> bool {
    matches!(gpu.segment, Some(Segment::Apple | Segment::Integrated))
}

/// A GPU name cut out of a renderer string (or a WebGPU description).
struct NamedGpu {
    /// ANGLE's vendor field, e.g. "NVIDIA Corporation".
    vendor: Option<String>,
    /// e.g. "NVIDIA GeForce RTX 4090", "Apple M2 Max".
    name: String,
    /// Firefox's ", or similar" bucket: a stand-in, not the visitor's GPU.
    masked: bool,
}

impl NamedGpu {
    fn parse(text: &str) -> Option<NamedGpu> {
        let text = text.trim();
        let (vendor, mut renderer) = match text.strip_prefix("ANGLE (") {
            Some(rest) => match split_fields(inside_parens(rest)).as_slice() {
                [vendor, renderer, ..] => (Some(*vendor), *renderer),
                [renderer] => (None, *renderer),
                [] => return None,
            },
            None => (None, text),
        };
        if let Some(open) = renderer.strip_prefix("Vulkan").and_then(|_| renderer.find('(')) {
            renderer = inside_parens(&renderer[open + 1..]);
        }
        if let Some(colon) = renderer.rfind(": ") {
            renderer = &renderer[colon + 2..];
        }
        let end = [" (", "/", " Direct3D", " OpenGL Engine", ","]
            .iter()
            .filter_map(|tail| renderer.find(tail))
            .min()
            .unwrap_or(renderer.len());
        let name = without_repeated_first_word(renderer[..end].trim());
        (!name.is_empty()).then(|| NamedGpu {
            vendor: vendor.map(str::to_string),
            name: name.to_string(),
            masked: text.contains("or similar"),
        })
    }

    /// The vendor's first word, lower-case: "nvidia", "apple", "intel".
    fn vendor(&self) -> String {
        let vendor = self.vendor.as_deref().unwrap_or(&self.name).to_ascii_lowercase();
        let first = words(&vendor).next().unwrap_or_default();
        first.to_string()
    }
}

/// The text up to the parenthesis that closes one already open.
fn inside_parens(text: &str) -> &str {
    let mut depth = 1;
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 1 => return &text[..at],
            ')' => depth -= 1,
            _ => {}
        }
    }
    text
}

/// Comma-separated fields, leaving commas inside parentheses alone
/// ("AMD Radeon RX 7900 XTX (radeonsi, navi31, ...)" is one field).
fn split_fields(text: &str) -> Vec<&str> {
    let (mut fields, mut depth, mut start) = (Vec::new(), 0, 0);
    for (at, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                fields.push(text[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    fields.push(text[start..].trim());
    fields.retain(|field| !field.is_empty());
    fields
}

/// "NVIDIA NVIDIA GeForce RTX 5080" (ANGLE's Vulkan prefix on a driver name
/// that already says NVIDIA) -> "NVIDIA GeForce RTX 5080".
fn without_repeated_first_word(name: &str) -> &str {
    match name.split_once(' ') {
        Some((first, rest)) if rest.split(' ').next().is_some_and(|second| second.eq_ignore_ascii_case(first)) => rest,
        _ => name,
    }
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|word| !word.is_empty())
}

/// What a GPU name says about the model, compared word by word so that
/// "RTX 4070 Ti" is neither "RTX 4070" nor "RTX 4070 Ti SUPER".
#[derive(Debug, PartialEq)]
struct ModelWords {
    /// Model words, sorted: "RTX 4090 Laptop GPU" -> ["4090", "laptop", "rtx"].
    model: Vec<String>,
    /// Memory size ("80gb") and form factor ("pcie", "sxm"), which only tell
    /// variants of one model apart and may be missing from a browser's name.
    variant: Vec<String>,
}

impl ModelWords {
    fn of(name: &str) -> ModelWords {
        let (mut model, mut variant) = (Vec::new(), Vec::new());
        for word in words(&name.to_ascii_lowercase()) {
            if FILLER_WORDS.contains(&word) || word.starts_with("hbm") {
                continue;
            }
            if word.starts_with("sxm") {
                variant.push("sxm".to_string());
            } else if word == "pcie" || is_memory_size(word) {
                variant.push(word.to_string());
            } else {
                model.push(word.to_string());
            }
        }
        crate::sorting::sort_short_by(&mut model, Ord::cmp);
        model.dedup();
        ModelWords { model, variant }
    }

    /// The same model, and no variant word of `row` contradicted by one of the
    /// same kind here: "A100-SXM4-80GB" fits a100_sxm_80gb only, a bare "A100" all four.
    fn fits(&self, row: &ModelWords) -> bool {
        self.model == row.model
            && row.variant.iter().all(|wanted| {
                self.variant.contains(wanted)
                    || !self.variant.iter().any(|word| is_memory_size(word) == is_memory_size(wanted))
            })
    }
}

fn is_memory_size(word: &str) -> bool {
    word.strip_suffix("gb").is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Catalog rows whose id names the same model as `name` (ids spell model and
/// variant without brand padding: "rtx_4090_laptop", "a100_sxm_80gb").
fn by_name(name: &str, catalog: &Catalog) -> Option<Identification> {
    let named = ModelWords::of(name);
    if named.model.is_empty() {
        return None;
    }
    let mut hits: Vec<&Gpu> = catalog.gpus.iter().filter(|gpu| named.fits(&ModelWords::of(&gpu.id))).collect();
    match hits.len() {
        0 => None,
        1 => hits.pop().map(|gpu| Identification::Exact(gpu.id.clone())),
        _ => Some(most_likely_first(hits)),
    }
}

/// Catalog rows of this vendor whose WebGPU architecture string (gpus.csv
/// `webgpu_architecture`, SOURCES.md G7) is the reported one. Apple chips
/// have no PCI id, so Dawn reports only the Metal family, "metal-3" (or
/// "common-1/2/3" before Chrome's 2025 Dawn and on macOS before 13), and
/// Safari often nothing: every M-series row is a candidate.
fn by_architecture(vendor: &str, architecture: &str, catalog: &Catalog) -> Identification {
    let apple = vendor == "apple" || architecture.starts_with("metal-") || architecture.starts_with("common-");
    let reported = |gpu: &&Gpu| {
        if apple {
            gpu.segment == Some(Segment::Apple)
        } else {
            !architecture.is_empty()
                && gpu.vendor.eq_ignore_ascii_case(vendor)
                && gpu.webgpu_architecture.as_deref().is_some_and(|a| a.eq_ignore_ascii_case(architecture))
        }
    };
    let hits: Vec<&Gpu> = catalog.gpus.iter().filter(reported).collect();
    // Only datacenter parts share the string (Dawn reports "rdna-2" for
    // MI210/MI250X and "pascal" for V100, SOURCES.md G7): the visitor's
    // browser more likely runs on a desktop card of that architecture the
    // catalog lacks (an RX 6800, a GTX 1080), so nothing is guessed.
    if hits.iter().all(|gpu| gpu.segment == Some(Segment::Datacenter)) {
        Identification::Unknown
    } else {
        most_likely_first(hits)
    }
}

/// A visitor's browser runs on a desktop card far more often than on a
/// laptop, a Mac, a workstation card or a datacenter part, in that order
/// (gpus.csv `segment`); within each, larger memory first.
fn most_likely_first(mut gpus: Vec<&Gpu>) -> Identification {
    let rank = |gpu: &Gpu| match gpu.segment {
        Some(Segment::Consumer) => 0,
        Some(Segment::Laptop) => 1,
        Some(Segment::Apple) => 2,
        Some(Segment::Workstation) => 3,
        Some(Segment::Integrated) | None => 4,
        Some(Segment::Datacenter) => 5,
    };
    crate::sorting::sort_short_by(&mut gpus, |a, b| rank(a).cmp(&rank(b)).then(b.vram_gb.total_cmp(&a.vram_gb)));
    Identification::Candidates(gpus.into_iter().map(|gpu| gpu.id.clone()).collect())
}

#[cfg(test)]
mod tests;
