use super::*;
use crate::engine::Catalog;
use crate::engine::Task;
use crate::units::BYTES_PER_GB;

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

/// One published peak: the pipeline's settings, the figure, and whether the
/// figure counts the CUDA context (device-level readings and README claims
/// do; PyTorch's `max_memory_allocated/reserved` do not).
struct Case {
    id: &'static str,
    model: &'static str,
    precision: Precision,
    resolution: Option<(u32, u32)>,
    frames: Option<u32>,
    batch: u32,
    offload: Offload,
    measured_gib: f64,
    with_context: bool,
}

fn predicted_gib(case: &Case) -> f64 {
    let model = catalog().model(case.model).unwrap();
    let task = if model.diffusion().unwrap().is_video() { Task::Video } else { Task::Image };
    let w = Workload {
        model: case.model.into(),
        weight_precision: case.precision,
        resolution: case.resolution.map(|(width, height)| Resolution { width, height }),
        frames: case.frames,
        batch: case.batch,
        offload: case.offload,
        ..Workload::for_task(task)
    };
    let m = diffusion_memory(&w, model.diffusion().unwrap(), 1).unwrap();
    let bytes = if case.with_context { m.per_gpu_bytes } else { m.per_gpu_bytes - m.overhead_bytes };
    bytes / BYTES_PER_GB
}

fn check(cases: &[Case], tolerance: f64) {
    let mut report = Vec::new();
    let mut worst: f64 = 0.0;
    for case in cases {
        let got = predicted_gib(case);
        let error = (got - case.measured_gib) / case.measured_gib;
        worst = worst.max(error.abs());
        report.push(format!("{}: {got:.1} vs {:.1} GiB ({:+.0}%)", case.id, case.measured_gib, error * 100.0));
    }
    println!("{}", report.join("\n"));
    assert!(worst <= tolerance, "{}", report.join("; "));
}

/// Image pipelines in diffusers, no offload unless stated, CFG on.
/// - diffusion-fast (huggingface/diffusion-fast; results in the
///   sayakpaul/sample-datasets CSVs): A100 80GB, batch 1, SDPA, 30 steps,
///   `max_memory_allocated` in GiB.
/// - "Exploring simple optimizations for SDXL" (huggingface/blog
///   simple_sdxl_optimizations.md): A100 40GB, 4 images per prompt, FP16, so
///   the VAE decodes in FP32.
/// - "Diffusers welcomes Stable Diffusion 3" (huggingface/blog sd3.md): A100
///   80GB, FP16, PyTorch 2.3, 1024², 28 steps; and the Quanto blog
///   (quanto-diffusers.md), H100, the same pipeline unquantized.
/// - "Exploring Quantization Backends in Diffusers" (huggingface/blog
///   diffusers-quantization.md): H100, FLUX.1-dev BF16, 1024², 50 steps,
///   `max_memory_reserved`.
///
/// The sources write "GB" for what PyTorch counts in GiB.
#[test]
fn image_pipelines_match_published_peaks() {
    use Offload::{Model, None};
    use Precision::{Bf16, Fp16, Fp32};
    #[rustfmt::skip]
    let cases = [
        Case { id: "SD 1.5 bf16 (diffusion-fast)", model: "sd-1.5", precision: Bf16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 2.616, with_context: false },
        Case { id: "SD 1.5 fp32 (diffusion-fast)", model: "sd-1.5", precision: Fp32, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 4.948, with_context: false },
        Case { id: "SDXL bf16 (diffusion-fast)", model: "sdxl-base-1.0", precision: Bf16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 8.958, with_context: false },
        Case { id: "SDXL fp32 (diffusion-fast)", model: "sdxl-base-1.0", precision: Fp32, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 16.827, with_context: false },
        Case { id: "SDXL fp16 x4 (SDXL blog)", model: "sdxl-base-1.0", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 4, offload: None, measured_gib: 21.72, with_context: false },
        Case { id: "SD3 Medium fp16 (SD3 blog)", model: "sd3-medium", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 18.765, with_context: false },
        Case { id: "SD3 Medium fp16 (Quanto blog)", model: "sd3-medium", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 16.403, with_context: false },
        Case { id: "SD3 Medium model offload (SD3 blog)", model: "sd3-medium", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 1, offload: Model, measured_gib: 12.0645, with_context: false },
        Case { id: "FLUX.1-dev bf16 (quantization blog)", model: "flux.1-dev", precision: Bf16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 36.166, with_context: false },
    ];
    // Issue 4 aims at ±15% for inference.
    check(&cases, 0.15);
}

/// Video pipelines, batch 1, with the VAE decoding in tiles or chunks.
/// - HunyuanVideo README (Tencent/HunyuanVideo): "GPU Peak Memory" 60 GB at
///   1280×720×129 and 45 GB at 960×544×129, the reference script (VAE tiling
///   on by default, `hyvideo/config.py`).
/// - "State of open video generation models in Diffusers" (huggingface/blog
///   video_gen.md): A100 80GB, BF16, 768×512, 121 frames, 50 steps; with
///   VAE tiling 43.58 GB.
/// - diffusers CogVideoX docs: CogVideoX-2b, 720×480, 49 frames, with
///   `enable_model_cpu_offload` and VAE tiling, 11 GB. CogVideo README:
///   SAT FP16 18 GB (2B), SAT BF16 26 GB (5B).
/// - diffusers Mochi docs: the bf16 variant, 848×480, 85 frames, model
///   offload and VAE tiling, 22 GB.
///
/// The READMEs' "GB" are taken as device totals, with the CUDA context.
#[test]
fn video_pipelines_match_published_peaks() {
    use Offload::{Model, None};
    use Precision::{Bf16, Fp16};
    #[rustfmt::skip]
    let cases = [
        Case { id: "HunyuanVideo 720p 129f (README)", model: "hunyuanvideo", precision: Bf16, resolution: Some((1280, 720)), frames: Some(129), batch: 1, offload: None, measured_gib: 60.0, with_context: true },
        Case { id: "HunyuanVideo 544p 129f (README)", model: "hunyuanvideo", precision: Bf16, resolution: Some((960, 544)), frames: Some(129), batch: 1, offload: None, measured_gib: 45.0, with_context: true },
        Case { id: "HunyuanVideo 512p 121f tiled (video_gen blog)", model: "hunyuanvideo", precision: Bf16, resolution: Some((768, 512)), frames: Some(121), batch: 1, offload: None, measured_gib: 43.58, with_context: false },
        Case { id: "CogVideoX-2b offload + tiling (diffusers docs)", model: "cogvideox-2b", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 1, offload: Model, measured_gib: 11.0, with_context: false },
        Case { id: "CogVideoX-2b SAT fp16 (README)", model: "cogvideox-2b", precision: Fp16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 18.0, with_context: true },
        Case { id: "CogVideoX-5b SAT bf16 (README)", model: "cogvideox-5b", precision: Bf16, resolution: Option::None, frames: Option::None, batch: 1, offload: None, measured_gib: 26.0, with_context: true },
        Case { id: "Mochi 1 bf16 85f offload (diffusers docs)", model: "mochi-1", precision: Bf16, resolution: Option::None, frames: Some(85), batch: 1, offload: Model, measured_gib: 22.0, with_context: false },
    ];
    check(&cases, 0.25);
}

#[test]
fn latent_tokens_follow_the_vae_and_the_patch() {
    // Mochi's 44,520 visual tokens (models.csv) at its default 848×480×163.
    let mochi = catalog().model("mochi-1").unwrap().diffusion().unwrap().clone();
    assert_eq!(latent_tokens(Resolution { width: 848, height: 480 }, 163, &mochi), 44_520.0);
    // SD 1.5 at 512²: a 64×64 latent (models.csv).
    let sd = catalog().model("sd-1.5").unwrap().diffusion().unwrap().clone();
    assert_eq!(latent_tokens(Resolution { width: 512, height: 512 }, 1, &sd), 4096.0);
}

#[test]
fn offloading_the_text_encoder_frees_its_weights() {
    let model = catalog().model("flux.1-dev").unwrap();
    let on_gpu = Workload::for_task(Task::Image);
    let on_gpu = Workload { model: "flux.1-dev".into(), ..on_gpu };
    let text_off = Workload { offload: Offload::Text, ..on_gpu.clone() };
    let all = diffusion_memory(&on_gpu, model.diffusion().unwrap(), 1).unwrap();
    let less = diffusion_memory(&text_off, model.diffusion().unwrap(), 1).unwrap();
    // T5-XXL and CLIP-L in BF16: 4.885B × 2 bytes.
    let freed = all.per_gpu_bytes - less.per_gpu_bytes;
    assert!((freed - 4_885_371_136.0 * 2.0).abs() < 1e6, "{freed}");
}

#[test]
fn video_spreads_over_gpus_and_images_replicate() {
    let hunyuan = catalog().model("hunyuanvideo").unwrap();
    let video = Workload { model: "hunyuanvideo".into(), ..Workload::for_task(Task::Video) };
    let one = diffusion_memory(&video, hunyuan.diffusion().unwrap(), 1).unwrap().per_gpu_bytes;
    let eight = diffusion_memory(&video, hunyuan.diffusion().unwrap(), 8).unwrap().per_gpu_bytes;
    assert!(eight < one / 3.0, "{eight} vs {one}");
    let sdxl = catalog().model("sdxl-base-1.0").unwrap();
    let image = Workload::for_task(Task::Image);
    let per_gpu = |n| diffusion_memory(&image, sdxl.diffusion().unwrap(), n).unwrap().per_gpu_bytes;
    assert_eq!(per_gpu(1), per_gpu(4));
}
