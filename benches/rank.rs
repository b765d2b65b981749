//! Benchmark, not a test (issue 6): ranking the bundled snapshot for one
//! workload of each task, and a synthetic snapshot of 10,000 to 100,000
//! offers to show the cost grows linearly. Prints medians. As the page
//! does, each snapshot's `Terms` (billing rules, price checks) are built
//! once and timed apart; the rankings are what an edit waits for. Also a
//! link with latency targets, every offer planned (issue 39).
//!   cargo bench --bench rank

use std::time::Instant;
use whichgpu::engine::{rank_with, Catalog, Snapshot, Task, Terms, Workload};
use whichgpu::url_codec;

/// Median wall time of `runs` calls, in milliseconds.
fn median_ms(runs: usize, mut work: impl FnMut()) -> f64 {
    work();
    let mut times: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// `offers` offers made from the real ones, each copy in its own made-up
/// region and with its price nudged, so no two are alike.
fn synthetic(real: &Snapshot, offers: usize) -> Snapshot {
    let mut snapshot = real.clone();
    snapshot.offers = (0..offers)
        .map(|i| {
            let mut offer = real.offers[i % real.offers.len()].clone();
            let copy = i / real.offers.len();
            offer.regions = vec![format!("synthetic-{copy}")];
            offer.price = offer.price.map(|p| p * (1.0 + copy as f64 * 0.001));
            offer
        })
        .collect();
    snapshot
}

fn main() {
    let text = std::fs::read_to_string("public/data/offers.json").expect("public/data/offers.json");
    let snapshot = Snapshot::from_json(&text).expect("snapshot");
    let catalog = Catalog::bundled().expect("catalog");
    let terms = Terms::of(&snapshot);
    // `cargo bench --bench rank -- image` ranks only that task, 500 times
    // (for a profiler).
    if let Some(task) = std::env::args().skip(1).find_map(|a| a.parse::<Task>().ok()) {
        let workload = Workload::for_task(task);
        let ms = median_ms(500, || {
            rank_with(&workload, catalog, &snapshot, &terms).expect("rank");
        });
        println!("{task}: median {ms:.2} ms");
        return;
    }
    let ms = median_ms(21, || {
        Terms::of(&snapshot);
    });
    println!("the snapshot's terms, once per snapshot: median {ms:.2} ms");
    println!("ranking {} offers (native, release):", snapshot.offers.len());
    for task in Task::ALL {
        let workload = Workload::for_task(task);
        let ms = median_ms(21, || {
            rank_with(&workload, catalog, &snapshot, &terms).expect("rank");
        });
        println!("  {:<10} median {ms:.2} ms", task.key());
    }
    // Clusters (issue 24): jobs that span nodes, and a deadline that sizes them.
    println!("clusters:");
    let queries = |queries: &[&str], runs: usize, terms: &Terms| {
        for query in queries {
            let workload = url_codec::decode(query, catalog).workload;
            let ms = median_ms(runs, || {
                rank_with(&workload, catalog, &snapshot, terms).expect("rank");
            });
            println!("  {query:<64} median {ms:.2} ms");
        }
    };
    let clusters = [
        "task=pretrain&model=llama-3.1-70b&gpus=256&zero=3&tokens=1e12",
        "task=pretrain&model=llama-3.1-70b&gpus=256&tokens=1e12&days=30",
        "model=llama-3.1-405b&wq=bf16",
    ];
    queries(&clusters, 21, &terms);
    // Serving to latency targets (issue 39: at most 150 ms natively): every
    // offer planned, replicas simulated.
    println!("latency targets:");
    let planning = Terms::of(&snapshot);
    planning.plan_with(whichgpu::engine::serving_plan::plan);
    let targets = [
        "model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95",
        "model=llama-3.1-8b&rps=5&in=1000&out=300&ttft=1&itl=0.05",
        "model=llama-3.1-8b&rps=50&in=1000&out=300&ttft=0.5&itl=0.03",
    ];
    queries(&targets, 7, &planning);
    // Letting the planner choose FP8 or INT4 (`quant=allow`) plans each
    // offer in up to four formats.
    println!("latency targets, formats allowed:");
    let allowed = [
        "model=llama-3.3-70b&wq=bf16&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95&quant=allow",
        "model=llama-3.1-8b&wq=bf16&rps=5&in=1000&out=300&ttft=1&itl=0.05&quant=allow",
    ];
    queries(&allowed, 5, &planning);
    let serving = url_codec::decode("model=llama-3.1-70b&conc=32", catalog).workload;
    println!("synthetic snapshots, {}:", url_codec::encode(&serving));
    let mut per_offer = Vec::new();
    for offers in [10_000, 50_000, 100_000] {
        let big = synthetic(&snapshot, offers);
        let start = Instant::now();
        let big_terms = Terms::of(&big);
        let once = start.elapsed().as_secs_f64() * 1e3;
        let ms = median_ms(5, || {
            rank_with(&serving, catalog, &big, &big_terms).expect("rank");
        });
        per_offer.push(ms / offers as f64 * 1e3);
        println!(
            "  {offers:>7} offers: median {ms:.1} ms ({:.2} µs per offer); its terms {once:.1} ms once",
            ms / offers as f64 * 1e3
        );
    }
    let spread =
        per_offer.iter().cloned().fold(f64::MIN, f64::max) / per_offer.iter().cloned().fold(f64::MAX, f64::min);
    println!("  cost per offer varies {spread:.2}× from 10k to 100k offers (1.0 is perfectly linear)");
}
