//! The cost-vs-speed chart in numbers: which offers it plots, where each
//! point sits on the log scales, the Pareto frontier through them, the
//! axes' words and their end labels. `ui/cost_chart.rs` draws this.

use crate::engine::ranking::weighed_as_job;
use crate::engine::{Catalog, Report, Snapshot, Task};
use crate::msg;
use crate::text::{phrases, Lang};

/// Points drawn at most: the best rows for the objective (every point is an
/// element with its label, so this bounds the work after the first result).
pub const MAX_POINTS: usize = 200;

/// The plot's box, in SVG units.
pub const WIDTH: f64 = 640.0;
pub const HEIGHT: f64 = 260.0;
pub const MARGIN: f64 = 48.0;
/// Room left of the cost axis for its labels ("2,30 US$" is the longest).
pub const LEFT: f64 = 72.0;

/// One offer on the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// The row of `report.results` it plots.
    pub row: usize,
    pub x: f64,
    pub y: f64,
    /// On the Pareto frontier: drawn larger.
    pub pareto: bool,
    /// What it is, for its tip and for screen readers.
    pub label: String,
}

/// The chart of one ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct Chart {
    /// Fastest first: the arrow keys' order.
    pub points: Vec<Point>,
    /// The frontier as SVG `points`, cheapest first.
    pub frontier: String,
    pub cost_label: &'static str,
    pub time_label: &'static str,
    /// The time axis's ends (left, right) and the cost axis's (bottom, top).
    pub time_ticks: (String, String),
    pub cost_ticks: (String, String),
}

/// A log-scale axis over `values`, padded a little.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Axis {
    low: f64,
    high: f64,
}

impl Axis {
    fn over(values: impl Iterator<Item = f64>) -> Axis {
        let (low, high) = values.fold((f64::INFINITY, 0.0_f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (low, high) = (low.log10() - 0.05, high.log10() + 0.05);
        if high - low < 0.2 {
            Axis { low: low - 0.1, high: high + 0.1 }
        } else {
            Axis { low, high }
        }
    }

    /// 0..1 along the axis.
    fn at(&self, value: f64) -> f64 {
        (value.log10() - self.low) / (self.high - self.low)
    }
}

/// A time with two or three significant digits: "3.5 h", "0.012 s".
fn short(lang: Lang, value: f64, unit: &str) -> String {
    let digits = if value >= 100.0 {
        0
    } else if value >= 1.0 {
        1
    } else {
        3
    };
    format!("{} {unit}", lang.number(value, digits))
}

/// (cost, time) of a row as the chart plots it, on log scales: positive
/// and finite.
fn point(report: &Report, row: usize) -> Option<(f64, f64)> {
    report.results[row]
        .cost_and_time(report.task)
        .filter(|(c, t)| *c > 0.0 && *t > 0.0 && c.is_finite() && t.is_finite())
}

impl Chart {
    /// The chart of `report`'s first `MAX_POINTS` rows; `None` with fewer
    /// than two points to compare.
    pub fn of(report: &Report, snapshot: &Snapshot, catalog: &Catalog, lang: Lang) -> Option<Chart> {
        let mut rows: Vec<(usize, f64, f64)> = (0..report.results.len().min(MAX_POINTS))
            .filter_map(|row| point(report, row).map(|(c, t)| (row, c, t)))
            .collect();
        crate::sorting::sort_short_by(&mut rows, |a, b| a.2.total_cmp(&b.2).then(a.1.total_cmp(&b.1)));
        if rows.len() < 2 {
            return None;
        }
        let (cost_axis, time_axis) = (Axis::over(rows.iter().map(|r| r.1)), Axis::over(rows.iter().map(|r| r.2)));
        let x = |time: f64| LEFT + time_axis.at(time) * (WIDTH - LEFT - MARGIN);
        let y = |cost: f64| HEIGHT - MARGIN - cost_axis.at(cost) * (HEIGHT - 2.0 * MARGIN);
        // The axes of the points' own figures (`RankedOffer::cost_and_time`).
        let unit = report.results[rows[0].0].cost.as_ref().map(|c| c.unit);
        let (cost_label, time_label, time_unit) = match report.task {
            _ if unit.is_some_and(|unit| weighed_as_job(report.task, unit)) => {
                (&phrases::CHART_COST_JOB, &phrases::CHART_TIME_JOB, "h")
            }
            Task::Speech | Task::Music => {
                (&phrases::CHART_COST_PER_AUDIO_HOUR, &phrases::CHART_TIME_PER_AUDIO_SECOND, "s")
            }
            _ => (&phrases::CHART_COST_PER_TOKEN, &phrases::CHART_TIME_PER_TOKEN, "s"),
        };
        let mut frontier: Vec<(f64, f64)> =
            rows.iter().filter(|r| report.results[r.0].pareto).map(|&(_, c, t)| (c, t)).collect();
        crate::sorting::sort_short_by(&mut frontier, |a, b| a.0.total_cmp(&b.0));
        let frontier = frontier.iter().map(|&(c, t)| format!("{:.1},{:.1}", x(t), y(c))).collect::<Vec<_>>().join(" ");
        let points = rows
            .iter()
            .map(|&(row, cost, time)| {
                let ranked = &report.results[row];
                let offer = &snapshot.offers[ranked.offer];
                let label = msg!(
                    phrases::CHART_POINT,
                    provider = &offer.provider,
                    instance = &offer.instance,
                    count = offer.gpu_count,
                    gpu = catalog.gpu_name(&offer.gpu),
                    spot = if ranked.spot { lang.t(&phrases::CHART_SPOT) } else { "" },
                    cost = lang.usd(cost),
                    time = short(lang, time, time_unit)
                )
                .render(lang);
                Point { row, x: x(time), y: y(cost), pareto: ranked.pareto, label }
            })
            .collect();
        let end = |axis: Axis| (10f64.powf(axis.low), 10f64.powf(axis.high));
        let ((time_low, time_high), (cost_low, cost_high)) = (end(time_axis), end(cost_axis));
        Some(Chart {
            points,
            frontier,
            cost_label: lang.t(cost_label),
            time_label: lang.t(time_label),
            time_ticks: (short(lang, time_low, time_unit), short(lang, time_high, time_unit)),
            cost_ticks: (lang.usd(cost_low), lang.usd(cost_high)),
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, snapshot::committed};
    use crate::url_codec;

    fn chart(query: &str, lang: Lang) -> (Chart, Report) {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = committed();
        let report = rank(&url_codec::decode(query, catalog).workload, catalog, &snapshot).unwrap();
        (Chart::of(&report, &snapshot, catalog, lang).expect("a chart"), report)
    }

    #[test]
    fn points_sit_inside_the_plot_fastest_first_with_the_frontier_through_the_pareto_rows() {
        for query in ["model=llama-3.1-70b&conc=32", "task=image&model=sdxl-base-1.0&n=10000&batch=4", "task=audio"] {
            let (chart, report) = chart(query, Lang::En);
            assert!(chart.points.len() >= 2 && chart.points.len() <= MAX_POINTS, "{query}");
            for p in &chart.points {
                assert!((LEFT - 1e-9..=WIDTH - MARGIN + 1e-9).contains(&p.x), "{query}: x {}", p.x);
                assert!((MARGIN - 1e-9..=HEIGHT - MARGIN + 1e-9).contains(&p.y), "{query}: y {}", p.y);
                assert_eq!(p.pareto, report.results[p.row].pareto);
            }
            // Left to right is fastest to slowest: x never falls.
            assert!(chart.points.windows(2).all(|w| w[0].x <= w[1].x), "{query}");
            // The frontier joins exactly the Pareto points, cheapest (lowest) first.
            let on_frontier = chart.points.iter().filter(|p| p.pareto).count();
            let vertices: Vec<(f64, f64)> = chart
                .frontier
                .split(' ')
                .map(|xy| xy.split_once(',').map(|(x, y)| (x.parse().unwrap(), y.parse().unwrap())).unwrap())
                .collect();
            assert_eq!(vertices.len(), on_frontier, "{query}");
            assert!(vertices.windows(2).all(|w| w[0].1 >= w[1].1 - 0.1), "{query}: {}", chart.frontier);
        }
    }

    #[test]
    fn the_axes_say_what_they_measure_per_task_and_language() {
        let (serving, _) = chart("model=llama-3.1-8b", Lang::En);
        assert_eq!(
            (serving.cost_label, serving.time_label),
            ("$ per 1M output tokens", "seconds per token for each user (lower is faster)")
        );
        assert!(serving.time_ticks.0.ends_with(" s") && serving.cost_ticks.1.starts_with('$'), "{serving:?}");
        let (job, _) = chart("task=image", Lang::Es);
        assert!(job.time_ticks.1.ends_with(" h") && job.cost_ticks.0.ends_with("US$"), "{job:?}");
        assert_ne!(job.cost_label, chart("task=image", Lang::En).0.cost_label);
        let first = &serving.points[0].label;
        assert!(first.contains("×") && first.contains('$'), "{first}");
        // Speech and music per unit of output: $ per hour of audio against
        // the seconds a second of audio takes.
        let (music, report) = chart("task=music", Lang::En);
        assert_eq!(
            (music.cost_label, music.time_label),
            ("$ per hour of audio", "seconds per second of audio (lower is faster)")
        );
        let best = &report.results[0];
        let (cost, time) = best.cost_and_time(report.task).unwrap();
        assert_eq!(cost, best.cost.as_ref().unwrap().cost_per_unit);
        assert_eq!(time, best.speed.as_ref().unwrap().realtime_factor().unwrap());
    }
}
