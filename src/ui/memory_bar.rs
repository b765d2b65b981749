//! The memory one GPU needs, as a stacked bar against common card sizes.

use crate::engine::memory::MemoryBreakdown;
use crate::msg;
use crate::text::{phrases, Arg, Phrase};
use crate::units::BYTES_PER_GB;
use leptos::prelude::*;

/// Card sizes the bar is measured against (GB): 24 (RTX 4090, L4, A10),
/// 48 (L40S, A6000), 80 (A100, H100), 141 (H200), 192 (B200, MI300X).
const CARD_SIZES_GB: [f64; 5] = [24.0, 48.0, 80.0, 141.0, 192.0];

/// The class that colours part `i` (in `MemoryBreakdown::parts` order) in
/// the bar and its legend swatch (style/main.css `.part-0` …): a class, not
/// an inline style, which the page's Content-Security-Policy refuses. The
/// legend names every part with its size, so colour is never the only signal.
fn part_class(i: usize) -> String {
    format!("part part-{i}")
}

#[component]
pub fn MemoryBar(memory: MemoryBreakdown) -> impl IntoView {
    let lang = super::use_lang();
    let per_gpu_gb = memory.per_gpu_bytes / BYTES_PER_GB;
    // The parts are totals over the GPUs; scale them to one GPU's share.
    let scale = if memory.total_bytes > 0.0 { memory.per_gpu_bytes / memory.total_bytes } else { 0.0 };
    let parts: Vec<(usize, &'static Phrase, f64)> = memory
        .parts()
        .into_iter()
        .enumerate()
        .filter(|(_, (_, bytes))| *bytes > 0.0)
        .map(|(i, (name, bytes))| (i, name, bytes * scale / BYTES_PER_GB))
        .collect();
    // The axis reaches the first card size past the need (or the need).
    let axis_gb = CARD_SIZES_GB.iter().copied().find(|size| *size >= per_gpu_gb).unwrap_or(per_gpu_gb).max(24.0) * 1.05;
    let x = |gb: f64| gb / axis_gb * 100.0;
    let mut offset = 0.0;
    let segments = parts
        .iter()
        .map(|&(i, name, gb)| {
            let start = offset;
            offset += gb;
            view! {
                <rect x=format!("{:.2}%", x(start)) y="4" width=format!("{:.2}%", x(gb)) height="24" class=part_class(i)>
                    <title>{msg!(phrases::PART_SIZE, part = name, size = Arg::Bytes(gb * BYTES_PER_GB)).render(lang)}</title>
                </rect>
            }
        })
        .collect_view();
    let sizes: Vec<f64> = CARD_SIZES_GB.iter().copied().filter(|size| *size <= axis_gb).collect();
    let ticks = sizes
        .iter()
        .zip(crate::present::memory::tick_labels(&sizes, lang))
        .map(|(&size, label)| {
            view! {
                <line x1=format!("{:.2}%", x(size)) x2=format!("{:.2}%", x(size)) y1="0" y2="34" class="tick" />
                <text x=format!("{:.2}%", x(size)) y="48" text-anchor="middle" class="tick-label">{label}</text>
            }
        })
        .collect_view();
    let legend = parts
        .iter()
        .map(|&(i, name, gb)| {
            view! {
                <li>
                    <span class=format!("swatch {}", part_class(i)) aria-hidden="true"></span>
                    {msg!(phrases::NAMED_SIZE, name = name, size = Arg::Bytes(gb * BYTES_PER_GB)).render(lang)}
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="memory-bar" data-testid="memory-bar">
            <svg width="100%" height="52" role="img" aria-label=msg!(phrases::MEMORY_BAR_LABEL, need = Arg::Bytes(memory.per_gpu_bytes)).render(lang)>
                {segments}
                {ticks}
            </svg>
            <figcaption>
                <ul class="legend">{legend}</ul>
            </figcaption>
        </figure>
    }
}
