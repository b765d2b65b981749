//! A planned row's throughput–interactivity curve under its breakdown
//! (issue 39), as `present::curve` lays it out: each running batch a dot
//! with its figures as a tip, the inter-token target a dashed line.

use crate::present::curve::{Curve, BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH};
use crate::text::{phrases, Lang};
use leptos::prelude::*;

pub fn curve_figure(curve: Curve, lang: Lang) -> impl IntoView {
    let Curve { line, dots, target, x_label, y_label, x_end, y_end, summary } = curve;
    let (x0, y0, x1, y1) = (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, TOP);
    let dots = dots
        .into_iter()
        .map(|d| {
            let class = if d.at_peak { "point at-peak" } else { "point" };
            let r = if d.at_peak { "5" } else { "3.5" };
            view! {
                <circle cx=format!("{:.1}", d.x) cy=format!("{:.1}", d.y) r=r class=class data-testid="curve-point">
                    <title>{d.label}</title>
                </circle>
            }
        })
        .collect_view();
    let target = target.map(|(x, words)| {
        let past_middle = x > (x0 + x1) / 2.0;
        let mark = lang.t(&phrases::CURVE_TARGET_MARK);
        view! {
            <line x1=format!("{x:.1}") y1=y1 x2=format!("{x:.1}") y2=y0 class="target" data-testid="curve-target">
                <title>{words}</title>
            </line>
            // Its short mark beside it, on the side with room.
            <text x=format!("{:.1}", if past_middle { x - 3.0 } else { x + 3.0 }) y=y1 + 10.0 text-anchor=if past_middle { "end" } else { "start" } class="tick-label">{mark}</text>
        }
    });
    view! {
        <figure class="curve" data-testid="curve">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") width="100%" role="img" aria-label=summary.clone()>
                <line x1=x0 y1=y0 x2=x1 y2=y0 class="axis" />
                <line x1=x0 y1=y0 x2=x0 y2=y1 class="axis" />
                <text x=(x0 + x1) / 2.0 y=HEIGHT - 8.0 text-anchor="middle" class="axis-label">{x_label}</text>
                <text x=x0 y=y1 - 4.0 text-anchor="start" class="axis-label">{y_label}</text>
                <text x=x0 y=y0 + 14.0 text-anchor="start" class="tick-label">"0"</text>
                <text x=x1 y=y0 + 14.0 text-anchor="end" class="tick-label">{x_end}</text>
                <text x=x0 - 4.0 y=y1 + 8.0 text-anchor="end" class="tick-label">{y_end}</text>
                {target}
                <polyline points=line class="line" />
                {dots}
            </svg>
            <figcaption>{summary}</figcaption>
        </figure>
    }
}
