//! The page's model-import Web Worker (issue 27): reads config.json,
//! safetensors and GGUF headers off the page's main module, which then
//! loads without the readers. Trunk builds it beside the page
//! (index.html, `data-type="worker"`); `src/ui/import_worker.rs` is both
//! sides of its boundary.

#[cfg(target_arch = "wasm32")]
fn main() {
    whichgpu::ui::import_worker::serve();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("import_worker is the page's model-import Web Worker: `trunk build` builds it for the browser.");
    std::process::exit(2);
}
