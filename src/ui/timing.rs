//! The User Timing boundary: `whichgpu:<name>` measures around the work
//! benchmarks read in Chromium (`performance.getEntriesByName`). Missing
//! timing APIs are ignored.

/// Runs `work`, recording its duration as the measure `whichgpu:<name>`.
pub fn measure<T>(name: &str, work: impl FnOnce() -> T) -> T {
    let performance = web_sys::window().and_then(|w| w.performance());
    let start = format!("whichgpu:{name}-start");
    if let Some(p) = &performance {
        let _ = p.mark(&start);
    }
    let result = work();
    if let Some(p) = &performance {
        let _ = p.measure_with_str(&format!("whichgpu:{name}"), &start);
    }
    result
}

/// Records the instant `whichgpu:<name>`.
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
        let _ = performance.mark(&format!("whichgpu:{name}"));
    }
}
