//! Invariants every estimate keeps, checked over generated workloads of
//! every task (issue 41): a bigger job never takes less time or money on
//! the same offer, a job is billed at least the hours it runs at its
//! hourly price, and sharding training state further never needs more
//! memory per GPU. Seeded and deterministic, a few seconds for the lot.

use super::Random;
use crate::engine::memory::fit;
use crate::engine::snapshot::committed;
use crate::engine::{rank, Catalog, Report, Snapshot, Task, Workload};
use std::collections::HashMap;

fn catalog() -> &'static Catalog {
    Catalog::bundled().unwrap()
}

/// Every 24th offer of the committed snapshot: every GPU shape and most
/// providers turn up, and the test build ranks it in a few milliseconds.
fn thinned() -> Snapshot {
    let mut snapshot = committed();
    snapshot.offers = snapshot.offers.into_iter().step_by(24).collect();
    snapshot
}

const MODELS: [(Task, &[&str]); 8] = [
    (Task::Infer, &["llama-3.1-8b", "qwen2.5-72b", "mixtral-8x7b", "llava-v1.6-vicuna-7b"]),
    (Task::Finetune, &["llama-3.1-8b", "qwen2.5-7b", "llama-3.1-70b"]),
    (Task::Pretrain, &["llama-3.1-8b", "llama-3.1-70b"]),
    (Task::Image, &["sdxl-base-1.0", "flux.1-dev", "sd-1.5"]),
    (Task::Video, &["cogvideox-5b", "hunyuanvideo"]),
    (Task::Audio, &["whisper-large-v3", "distil-large-v3"]),
    (Task::Speech, &[]),
    (Task::Music, &[]),
];

/// A valid workload of `task` with its sizes drawn at random.
fn workload(task: Task, random: &mut Random) -> Workload {
    let mut w = Workload::for_task(task);
    let models = MODELS.iter().find(|(t, _)| *t == task).map_or(&[][..], |(_, m)| *m);
    if !models.is_empty() {
        w.model = random.pick(models).to_string();
    }
    let pick = |random: &mut Random, values: &[u32]| values[random.below(values.len())];
    match task {
        Task::Infer => {
            w.input_tokens = pick(random, &[128, 1024, 8192, 32_000]);
            w.output_tokens = pick(random, &[64, 512, 2048]);
            w.concurrency = pick(random, &[1, 8, 64, 256]);
            w.requests_per_day = pick(random, &[0, 1000, 100_000]);
            w.batch_requests = pick(random, &[0, 0, 10_000]);
        }
        Task::Finetune | Task::Pretrain => {
            w.seq_len = pick(random, &[1024, 2048, 8192]);
            w.micro_batch = pick(random, &[1, 2, 8]);
            w.gpus = pick(random, &[1, 8, 16, 64]);
            w.zero_stage = pick(random, &[0, 1, 2, 3]);
            w.training_tokens = f64::from(pick(random, &[1, 50, 400])) * 1e7;
        }
        Task::Image | Task::Video | Task::Speech | Task::Music => {
            w.items = pick(random, &[1, 100, 10_000]);
            w.batch = pick(random, &[1, 4]);
        }
        Task::Audio => {
            w.audio_hours = f64::from(pick(random, &[1, 100, 5000]));
            w.batch = pick(random, &[1, 8]);
        }
    }
    w
}

/// The same workload with twice the work: tokens to train, items to make,
/// hours to transcribe, or (serving a stated number of requests a day)
/// answers twice as long. An endpoint busy all month (no stated load) is
/// costed per month of uptime whatever it answers: no more work to compare.
fn doubled(w: &Workload) -> Workload {
    let mut more = w.clone();
    match w.task {
        Task::Infer => more.output_tokens *= 2,
        Task::Finetune | Task::Pretrain => more.training_tokens *= 2.0,
        Task::Image | Task::Video | Task::Speech | Task::Music => more.items *= 2,
        Task::Audio => more.audio_hours *= 2.0,
    }
    more
}

/// Each row's (job hours, job cost), by offer and capacity type.
fn rows(report: &Report) -> HashMap<(usize, bool), (f64, f64, u32)> {
    report
        .results
        .iter()
        .filter_map(|r| Some(((r.offer, r.spot), (r.cost.as_ref()?.job_hours, r.cost.as_ref()?.job_cost, r.nodes))))
        .collect()
}

/// Tolerance for rounding in a comparison of two estimates.
const SLACK: f64 = 1e-9;

#[test]
fn more_work_never_takes_less_time_or_money_on_the_same_offer() {
    let (catalog, snapshot) = (catalog(), thinned());
    let mut random = Random(0x1A7E_5000_0000_0041);
    let mut compared = 0;
    for case in 0..120 {
        let task = Task::ALL[random.below(Task::ALL.len())];
        let w = workload(task, &mut random);
        if task == Task::Infer && w.requests_per_day == 0 && !w.is_batch() {
            continue;
        }
        let (Ok(less), Ok(more)) = (rank(&w, catalog, &snapshot), rank(&doubled(&w), catalog, &snapshot)) else {
            continue;
        };
        let more = rows(&more);
        for (key, (hours, cost, nodes)) in rows(&less) {
            // The same offer on the same cluster: a bigger job may take more
            // nodes to meet a deadline, which is another answer.
            let Some(&(more_hours, more_cost, more_nodes)) = more.get(&key) else { continue };
            if more_nodes != nodes {
                continue;
            }
            let what = format!("case {case} {task} offer {}: {hours} h ${cost} -> {more_hours} h ${more_cost}", key.0);
            // An endpoint is costed per month of uptime, whatever the answers'
            // length; a batch of requests by its run.
            if task != Task::Infer || w.is_batch() {
                assert!(more_hours >= hours * (1.0 - SLACK), "{what}");
            }
            assert!(more_cost >= cost * (1.0 - SLACK), "{what}");
            compared += 1;
        }
    }
    assert!(compared > 2000, "{compared} rows compared");
}

#[test]
fn a_job_is_billed_at_least_the_hours_it_runs_at_its_hourly_price() {
    let (catalog, snapshot) = (catalog(), thinned());
    let mut random = Random(0xB111_ED00_0000_0041);
    let mut checked = 0;
    for case in 0..120 {
        let task = Task::ALL[random.below(Task::ALL.len())];
        let Ok(report) = rank(&workload(task, &mut random), catalog, &snapshot) else { continue };
        for row in &report.results {
            let Some(cost) = &row.cost else { continue };
            let what = format!("case {case} {task} {}: {cost:?}", snapshot.offers[row.offer].instance);
            assert!(cost.billed_hours >= cost.job_hours * (1.0 - SLACK), "{what}");
            let floor = cost.price_per_hour * cost.job_hours * f64::from(cost.instances * cost.nodes);
            assert!(cost.gpu_cost >= floor * (1.0 - SLACK), "{what}");
            assert!(cost.job_cost >= cost.gpu_cost * (1.0 - SLACK), "{what}");
            checked += 1;
        }
    }
    assert!(checked > 5000, "{checked} rows checked");
}

#[test]
fn a_higher_sharding_stage_never_needs_more_memory_per_gpu() {
    let catalog = catalog();
    let gpu = catalog.gpu("h100_sxm").unwrap();
    let mut random = Random(0x2E50_0000_0000_0041);
    for case in 0..300 {
        let task = if random.below(2) == 0 { Task::Finetune } else { Task::Pretrain };
        let mut w = workload(task, &mut random);
        let gpus = [1, 2, 8][random.below(3)];
        let model = w.resolve_model(catalog).unwrap().into_owned();
        let mut last = f64::INFINITY;
        for stage in 0..=3 {
            w.zero_stage = stage;
            let Ok(sized) = fit(&w, &model, gpu, gpus) else { continue };
            let per_gpu = sized.memory.per_gpu_bytes;
            assert!(
                per_gpu <= last * (1.0 + SLACK),
                "case {case} {task} {} on {gpus}: ZeRO-{stage} {per_gpu} > {last}",
                w.model
            );
            last = per_gpu;
        }
    }
}

/// What the exports are checked for: a NaN or an infinity spelled as a
/// word is caught wherever it stands; words that contain one ("inference",
/// "InfiniBand"), AMD's "Infinity Fabric" and an instance the offer file
/// itself names "inf" are not.
#[test]
fn an_export_spelling_nan_or_infinity_is_caught_and_ordinary_words_are_not() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    let caught = |text: &str, snapshot: &Snapshot| {
        catch_unwind(AssertUnwindSafe(|| super::assert_readable(text, snapshot, "a test"))).is_err()
    };
    let snapshot = thinned();
    for bad in ["1,NaN,2", "cost: inf $", "\"x\":Infinity}", "∞", "(-inf)", "NaN"] {
        assert!(caught(bad, &snapshot), "{bad}");
    }
    for fine in ["inference on InfiniBand", "Infinity Fabric, 8 GPUs", "NaNo", "∞∞x", ""] {
        assert!(!caught(fine, &snapshot), "{fine}");
    }
    let mut quoting = snapshot.clone();
    quoting.offers[0].instance = String::from("gpu.inf.1");
    assert!(!caught("gpu.inf.1,3.20", &quoting));
}

/// The engine fuzzer ranks each settled workload once: two links that
/// settle into the same workload and language share what is checked,
/// whatever offer or GPU they also name, and any other difference does not.
#[test]
fn links_that_settle_alike_are_answered_alike() {
    use super::{answered_by, check_link};
    let answer = |query: &str| answered_by(&check_link(query, catalog()));
    assert_eq!(answer("model=llama-3.1-8b&conc=8"), answer("conc=8&model=llama-3.1-8b&conc=8&nonsense=1"));
    assert_eq!(answer("conc=8&lang=es"), answer("conc=8&lang=es&mygpu=h100_sxm"));
    assert_ne!(answer("conc=8"), answer("conc=9"));
    assert_ne!(answer("conc=8"), answer("conc=8&gpu=h100_sxm"));
    assert_ne!(answer("conc=8&lang=es"), answer("conc=8&lang=en"));
    assert_ne!(answer("conc=8&lang=es"), answer("conc=8"));
}
