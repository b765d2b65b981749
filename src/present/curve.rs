//! A planned row's throughput–interactivity curve in numbers (issue 39):
//! each running batch's point (tokens a second per user across, per GPU
//! up), the inter-token target as a vertical line, and the batch the peak
//! rate needs; `ui/later/curve.rs` draws it under the row's breakdown.

use crate::engine::serving_plan::SloPlan;
use crate::msg;
use crate::text::{phrases, Arg, Lang};

/// The plot's box, in SVG units.
pub const WIDTH: f64 = 400.0;
pub const HEIGHT: f64 = 220.0;
pub const LEFT: f64 = 56.0;
pub const RIGHT: f64 = 16.0;
pub const TOP: f64 = 16.0;
pub const BOTTOM: f64 = 40.0;

/// One running batch on the curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Dot {
    pub x: f64,
    pub y: f64,
    /// The batch the peak rate needs: drawn larger.
    pub at_peak: bool,
    pub label: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// The line through the dots, as SVG `points`.
    pub line: String,
    pub dots: Vec<Dot>,
    /// The inter-token target's x, and its words.
    pub target: Option<(f64, String)>,
    pub x_label: &'static str,
    pub y_label: &'static str,
    /// The axes' far ends (both start at 0).
    pub x_end: String,
    pub y_end: String,
    /// What the curve says, for its caption and screen readers.
    pub summary: String,
}

/// The curve of `plan`; `None` with fewer than two batches to compare.
pub fn curve(plan: &SloPlan, lang: Lang) -> Option<Curve> {
    let points = &plan.curve;
    if points.len() < 2 {
        return None;
    }
    let target_x = plan.itl_target_s.filter(|t| *t > 0.0).map(|t| 1.0 / t);
    let x_high = points.iter().map(|p| p.tokens_per_s_per_user).fold(target_x.unwrap_or(0.0), f64::max) * 1.08;
    let y_high = points.iter().map(|p| p.tokens_per_s_per_gpu).fold(0.0, f64::max) * 1.08;
    let x = |v: f64| LEFT + v / x_high * (WIDTH - LEFT - RIGHT);
    let y = |v: f64| HEIGHT - BOTTOM - v / y_high * (HEIGHT - TOP - BOTTOM);
    // The fewest running whose requests a second reach the replica's share
    // of the peak rate (the last batch where none does).
    let peak =
        points.iter().position(|p| p.requests_per_s >= plan.requests_per_s_per_replica).unwrap_or(points.len() - 1);
    let dots: Vec<Dot> = points
        .iter()
        .enumerate()
        .map(|(i, p)| Dot {
            x: x(p.tokens_per_s_per_user),
            y: y(p.tokens_per_s_per_gpu),
            at_peak: i == peak,
            label: msg!(
                phrases::CURVE_POINT,
                running = p.running,
                user = Arg::Num(p.tokens_per_s_per_user, 1),
                gpu = Arg::Num(p.tokens_per_s_per_gpu, 0),
                rps = Arg::Num(p.requests_per_s, 2)
            )
            .render(lang),
        })
        .collect();
    let line = dots.iter().map(|d| format!("{:.1},{:.1}", d.x, d.y)).collect::<Vec<_>>().join(" ");
    let target = target_x.map(|t| {
        let ms = Arg::Num(1e3 / t, 0);
        (x(t), msg!(phrases::CURVE_TARGET, user = Arg::Num(t, 1), ms = ms).render(lang))
    });
    let at = &points[peak];
    let summary = msg!(
        phrases::CURVE_SUMMARY,
        rps = Arg::Num(plan.requests_per_s_per_replica, 2),
        running = at.running,
        user = Arg::Num(at.tokens_per_s_per_user, 1),
        gpu = Arg::Num(at.tokens_per_s_per_gpu, 0)
    )
    .render(lang);
    Some(Curve {
        line,
        dots,
        target,
        x_label: lang.t(&phrases::CURVE_X),
        y_label: lang.t(&phrases::CURVE_Y),
        x_end: lang.number(x_high, 0),
        y_end: lang.number(y_high, 0),
        summary,
    })
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_planned_row_draws_its_curve_with_the_target_and_the_peak_batch() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let query = "model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95";
        let workload = crate::url_codec::decode(query, catalog).workload;
        let report = crate::engine::rank(&workload, catalog, &crate::engine::snapshot::committed()).unwrap();
        let plan = report.results[0].slo.as_ref().unwrap();
        let drawn = curve(plan, Lang::En).unwrap();
        assert_eq!(drawn.dots.len(), plan.curve.len());
        // Across: more running is slower per user; up: more per GPU.
        for pair in drawn.dots.windows(2) {
            assert!(pair[1].x < pair[0].x && pair[1].y < pair[0].y, "{pair:?}");
        }
        for dot in &drawn.dots {
            assert!((LEFT..=WIDTH - RIGHT).contains(&dot.x) && (TOP..=HEIGHT - BOTTOM).contains(&dot.y), "{dot:?}");
        }
        // The 50 ms target is 20 tokens a second per user.
        let (tx, words) = drawn.target.clone().unwrap();
        assert!(
            (tx - (LEFT + 20.0 / (drawn.x_end.replace(',', "").parse::<f64>().unwrap()) * (WIDTH - LEFT - RIGHT)))
                .abs()
                < 3.0
        );
        assert_eq!(words, "target: 20.0 tokens/s each (50 ms between tokens)");
        assert_eq!(drawn.dots.iter().filter(|d| d.at_peak).count(), 1);
        assert!(
            drawn.summary.starts_with(&format!(
                "Each replica's share of the peak, {:.2} requests/s",
                plan.requests_per_s_per_replica
            )),
            "{}",
            drawn.summary
        );
        let es = curve(plan, Lang::Es).unwrap();
        assert!(es.dots[0].label.contains("por GPU"), "{}", es.dots[0].label);
    }
}
