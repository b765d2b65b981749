//! The WebGPU boundary: the only module that talks to `navigator.gpu` (and
//! to WebGL for a renderer name). It reads what the browser already exposes
//! about the visitor's GPU and turns it into a plain `AdapterReport` at
//! once; on request only, it times a short memory-bandwidth kernel.
//! Nothing read here leaves the page.

use crate::engine::local_gpu::AdapterReport;
pub use crate::engine::local_gpu::{Bandwidth, Probe};
use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Reads `object[key]`, `undefined` when it is missing or throws.
fn property(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(object: &JsValue, key: &str) -> String {
    property(object, key).as_string().unwrap_or_default()
}

/// The error a rejected promise carries, as words.
fn detail(error: &JsValue) -> String {
    error.as_string().or_else(|| property(error, "message").as_string()).unwrap_or_else(|| String::from("?"))
}

/// The WebGL renderer string (`WEBGL_debug_renderer_info`), which names the
/// card where WebGPU gives only a vendor and an architecture.
pub fn webgl_renderer() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").ok()?.dyn_into().ok()?;
    let context: web_sys::WebGlRenderingContext = canvas.get_context("webgl").ok()??.dyn_into().ok()?;
    // UNMASKED_RENDERER_WEBGL of the extension (0x9246); without the
    // extension, the masked RENDERER (0x1F01) says little.
    context.get_extension("WEBGL_debug_renderer_info").ok()??;
    let renderer = context.get_parameter(0x9246).ok()?.as_string()?;
    // Free the context now rather than at garbage collection.
    if let Ok(Some(lose)) = context.get_extension("WEBGL_lose_context") {
        let _ = Reflect::get(&lose, &"loseContext".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|f| f.call0(&lose));
    }
    Some(renderer).filter(|r| !r.is_empty())
}

/// `navigator.gpu`, when this browser has WebGPU here.
fn navigator_gpu() -> Option<web_sys::Gpu> {
    let navigator = web_sys::window()?.navigator();
    let gpu = property(&navigator, "gpu");
    (!gpu.is_undefined() && !gpu.is_null()).then(|| gpu.unchecked_into())
}

/// The adapter WebGPU offers, `Ok(None)` when it resolves to null.
async fn adapter(gpu: &web_sys::Gpu) -> Result<Option<web_sys::GpuAdapter>, String> {
    let found = JsFuture::from(gpu.request_adapter()).await.map_err(|e| detail(&e))?;
    Ok((!found.is_null() && !found.is_undefined()).then(|| found.unchecked_into()))
}

/// Probes the visitor's GPU: reads only what the browser exposes.
pub async fn probe() -> Probe {
    let Some(gpu) = navigator_gpu() else {
        return Probe::NoWebGpu { renderer: webgl_renderer() };
    };
    let adapter = match adapter(&gpu).await {
        Ok(Some(adapter)) => adapter,
        Ok(None) => return Probe::NoAdapter { renderer: webgl_renderer() },
        Err(detail) => return Probe::Failed { detail, renderer: webgl_renderer() },
    };
    let info: JsValue = adapter.info().into();
    let limits = adapter.limits();
    let mut features: Vec<String> =
        adapter.features().values().into_iter().filter_map(|f| f.ok().and_then(|f| f.as_string())).collect();
    crate::sorting::sort_short_by(&mut features, Ord::cmp);
    // Chrome moved isFallbackAdapter from the adapter to its info (2024).
    let fallback = |object: &JsValue| property(object, "isFallbackAdapter").as_bool();
    let is_fallback = fallback(&info).or_else(|| fallback(&adapter)).unwrap_or(false);
    Probe::Adapter(AdapterReport {
        vendor: text(&info, "vendor"),
        architecture: text(&info, "architecture"),
        device: text(&info, "device"),
        description: text(&info, "description"),
        is_fallback,
        max_buffer_size: Some(limits.max_buffer_size()).filter(|v| v.is_finite()),
        max_storage_buffer_binding_size: Some(limits.max_storage_buffer_binding_size()).filter(|v| v.is_finite()),
        features,
        renderer: webgl_renderer(),
    })
}

/// Bytes the bandwidth kernel reads per pass at most (about 256 MB asked;
/// the adapter's binding limit may lower it).
const BENCH_MAX_BYTES: f64 = 256.0 * 1024.0 * 1024.0;

/// How long the timed passes may run, in milliseconds (the 1–2 s).
const BENCH_BUDGET_MS: f64 = 1200.0;

/// Invocations per workgroup of the kernel.
const WORKGROUP: u32 = 256;

/// Workgroups dispatched: 256 × 1,024 = 262,144 invocations, each summing a
/// strided share of the buffer, enough to keep any GPU's memory busy.
const WORKGROUPS: u32 = 1024;

/// Reads the whole source buffer once per dispatch, 16 bytes per load, and
/// writes one sum per invocation so no load can be optimised away.
const KERNEL: &str = "@group(0) @binding(0) var<storage, read> src: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<f32>>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
  let stride = groups.x * 256u;
  let len = arrayLength(&src);
  var sum = vec4<f32>(0.0);
  for (var i = id.x; i < len; i += stride) { sum += src[i]; }
  dst[id.x] = sum;
}";

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// A plain JavaScript object with `entries` set.
fn object(entries: &[(&str, JsValue)]) -> Object {
    let object = Object::new();
    for (key, value) in entries {
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object
}

/// Runs the kernel once (to warm up and zero the buffer), then times
/// passes until the budget is spent; only on the user's request.
pub async fn measure_bandwidth() -> Result<Bandwidth, String> {
    let gpu = navigator_gpu().ok_or("no navigator.gpu")?;
    let adapter = adapter(&gpu).await?.ok_or("requestAdapter() gave no adapter")?;
    let limits = adapter.limits();
    // Whole vec4s, within both the binding and the buffer limits.
    let limit = limits.max_storage_buffer_binding_size().min(limits.max_buffer_size());
    let bytes = (BENCH_MAX_BYTES.min(limit) / 16.0).floor() * 16.0;
    if bytes < 16.0 * f64::from(WORKGROUP * WORKGROUPS) {
        return Err(format!("the adapter binds at most {limit} bytes"));
    }
    let descriptor = object(&[(
        "requiredLimits",
        object(&[
            ("maxStorageBufferBindingSize", JsValue::from_f64(bytes)),
            ("maxBufferSize", JsValue::from_f64(bytes)),
        ])
        .into(),
    )]);
    let device: web_sys::GpuDevice = JsFuture::from(adapter.request_device_with_descriptor(descriptor.unchecked_ref()))
        .await
        .map_err(|e| detail(&e))?
        .unchecked_into();
    let result = time_kernel(&device, bytes).await;
    device.destroy();
    result
}

async fn time_kernel(device: &web_sys::GpuDevice, bytes: f64) -> Result<Bandwidth, String> {
    // GPUBufferUsage: STORAGE 0x80, COPY_SRC 0x04.
    let buffer = |size: f64| {
        device.create_buffer(&web_sys::GpuBufferDescriptor::new_with_f64(size, 0x80 | 0x04)).map_err(|e| detail(&e))
    };
    let source = buffer(bytes)?;
    let sums = buffer(16.0 * f64::from(WORKGROUP * WORKGROUPS))?;
    let module = device.create_shader_module(&web_sys::GpuShaderModuleDescriptor::new(KERNEL));
    let stage = web_sys::GpuProgrammableStage::new(&module);
    stage.set_entry_point("main");
    let pipeline = device.create_compute_pipeline(
        &web_sys::GpuComputePipelineDescriptor::new_with_gpu_auto_layout_mode(web_sys::GpuAutoLayoutMode::Auto, &stage),
    );
    let entries = [
        web_sys::GpuBindGroupEntry::new_with_gpu_buffer(0, &source),
        web_sys::GpuBindGroupEntry::new_with_gpu_buffer(1, &sums),
    ];
    let bind_group =
        device.create_bind_group(&web_sys::GpuBindGroupDescriptor::new(&entries, &pipeline.get_bind_group_layout(0)));
    let queue = device.queue();
    let pass = |dispatches: u32| -> Result<(), String> {
        let encoder = device.create_command_encoder();
        let compute = encoder.begin_compute_pass();
        compute.set_pipeline(&pipeline);
        compute.set_bind_group(0, Some(&bind_group));
        for _ in 0..dispatches {
            compute.dispatch_workgroups(WORKGROUPS);
        }
        compute.end();
        queue.submit(&[encoder.finish()]);
        Ok(())
    };
    let done = || JsFuture::from(queue.on_submitted_work_done());
    // Warm-up: compiles the pipeline and clears the buffer.
    pass(1)?;
    done().await.map_err(|e| detail(&e))?;
    let started = now_ms();
    let mut best = 0.0_f64;
    let mut dispatches = 1;
    while now_ms() - started < BENCH_BUDGET_MS / 2.0 {
        let t0 = now_ms();
        pass(dispatches)?;
        done().await.map_err(|e| detail(&e))?;
        let seconds = (now_ms() - t0) / 1000.0;
        if seconds > 0.0 {
            best = best.max(bytes * f64::from(dispatches) / seconds);
        }
        // Longer passes time more precisely; stay within the budget.
        if seconds < 0.05 && dispatches < 64 {
            dispatches *= 2;
        }
    }
    source.destroy();
    sums.destroy();
    if best > 0.0 && best.is_finite() {
        Ok(Bandwidth { bytes_per_s: best, buffer_bytes: bytes, elapsed_ms: now_ms() - started })
    } else {
        Err("the timer did not advance".to_string())
    }
}
