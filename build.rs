//! The page's module keeps the linker's relocations (`--emit-relocs`):
//! wasm-split-cli needs them to cut it in two after the build (issue 38,
//! scripts/split-module.mjs), and the split drops them. Only that binary,
//! only for WebAssembly: the import worker's module would carry them to the
//! page (wasm-bindgen and wasm-opt keep them), and native builds have no
//! use for them.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bin=whichgpu=--emit-relocs");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
