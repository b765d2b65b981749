//! One binary, two faces: the Leptos page when built for wasm32 by Trunk,
//! the `whichgpu` command line natively.

#[cfg(target_arch = "wasm32")]
fn main() {
    whichgpu::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    whichgpu::cli::run(&args, &mut std::io::stdout(), &mut std::io::stderr())
}
