//! The memory one GPU needs, as a stacked bar against common card sizes
//! (`present::memory::MemoryBar` places and names its parts).

use crate::engine::memory::MemoryBreakdown;
use leptos::prelude::*;

#[component]
pub fn MemoryBar(memory: MemoryBreakdown) -> impl IntoView {
    let bar = crate::present::memory::MemoryBar::of(&memory, super::use_lang());
    let segments = bar
        .segments
        .into_iter()
        .map(|segment| {
            view! {
                <rect x=segment.x y="4" width=segment.width height="24" class=segment.class>
                    <title>{segment.title}</title>
                </rect>
            }
        })
        .collect_view();
    let ticks = bar
        .ticks
        .into_iter()
        .map(|tick| {
            view! {
                <line x1=tick.x.clone() x2=tick.x.clone() y1="0" y2="34" class="tick" />
                <text x=tick.x y="48" text-anchor="middle" class="tick-label">{tick.label}</text>
            }
        })
        .collect_view();
    let legend = bar
        .legend
        .into_iter()
        .map(|(class, said)| {
            view! {
                <li>
                    <span class=class aria-hidden="true"></span>
                    {said}
                </li>
            }
        })
        .collect_view();
    view! {
        <figure class="memory-bar" data-testid="memory-bar">
            <svg width="100%" height="52" role="img" aria-label=bar.label>
                {segments}
                {ticks}
            </svg>
            <figcaption>
                <ul class="legend">{legend}</ul>
            </figcaption>
        </figure>
    }
}
