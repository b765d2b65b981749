use super::*;
use crate::engine::memory::fit;
use crate::engine::setup::Setup;
use crate::engine::speed::speed;
use crate::engine::{Catalog, Offer, Provider};
use crate::units::BYTES_PER_GB;

fn provider(increment: Option<u32>, minimum: Option<u32>) -> Provider {
    Provider {
        network_storage_usd_per_gb_month: None,
        id: "p".into(),
        name: "P".into(),
        billing_increment_s: increment,
        minimum_charge_s: minimum,
        spot_available: Some(true),
        block_storage_usd_per_gb_month: Some(0.10),
        egress_usd_per_gb: Some(0.09),
        pricing_page: None,
        price_kind: None,
        spot_notice_s: None,
        reserved_discount: None,
        closed: None,
    }
}

/// A provider's rules with the bundled snapshot's fallback for what it does
/// not publish: per hour, $0.20/GB-month, $0.12/GB.
fn rules(provider: &Provider) -> Rules {
    Rules::of(Some(provider), &FALLBACK)
}

const FALLBACK: Fallback = Fallback { increment_s: 3600.0, storage_usd_per_gb_month: 0.20, egress_usd_per_gb: 0.12 };

fn offer(gpu: &str, count: u32, price: f64, spot: Option<f64>) -> Offer {
    Offer {
        provider: "p".into(),
        underlying_cloud: None,
        billed_as: None,
        instance: "i".into(),
        regions: vec!["r".into()],
        gpu: gpu.into(),
        gpu_count: count,
        vram_gb: 80.0,
        vcpus: None,
        ram_gb: None,
        price: Some(price),
        spot_price: spot,
        source: "s".into(),
    }
}

#[test]
fn billing_rounds_up_to_the_increment_and_the_minimum() {
    // Product brief: a 10-minute job on per-hour billing pays an hour; on
    // per-second billing with a 60 s minimum it pays 10 minutes.
    let billed = |seconds, increment, minimum| rules(&provider(increment, minimum)).billed_seconds(seconds);
    assert_eq!(billed(600.0, Some(3600), Some(3600)), 3600.0);
    assert_eq!(billed(600.0, Some(1), Some(60)), 600.0);
    assert_eq!(billed(20.0, Some(1), Some(60)), 60.0);
    // Per-minute billing rounds 10.5 minutes up to 11.
    assert_eq!(billed(630.0, Some(60), None), 660.0);
    // Unpublished rules (issue 27): billed per started hour, the coarsest
    // published rule, and said so; an unpublished minimum is not assumed.
    assert_eq!(billed(600.0, None, None), 3600.0);
    assert!(rules(&provider(None, None)).assumed.billing);
    assert!(!rules(&provider(Some(60), None)).assumed.billing);
}

#[cfg(not(target_arch = "wasm32"))] // the committed snapshot is read from disk
#[test]
fn the_fallback_is_the_least_favourable_rule_a_provider_publishes() {
    let snapshot = crate::engine::snapshot::committed();
    let fallback = Fallback::of(&snapshot.providers);
    // providers.csv, fourth data pass: OVHcloud bills per started hour,
    // Lambda's filesystem is $0.20/GB-month, Google Cloud's egress $0.12/GB.
    assert_eq!(fallback, FALLBACK);
    // With nothing published at all, per hour and no storage or egress charge.
    let bare = Provider::without_rules("x", "X");
    let none = Fallback::of(std::slice::from_ref(&bare));
    assert_eq!((none.increment_s, none.storage_usd_per_gb_month, none.egress_usd_per_gb), (3600.0, 0.0, 0.0));
    // Lambda sells no block storage: one machine keeps its data on the filesystem.
    let lambda = Rules::of(snapshot.provider("lambda"), &fallback);
    assert_eq!((lambda.storage_usd_per_gb_month, lambda.assumed.storage), (0.20, false));
}

/// Costs `workload` on one offer the way the ranking does.
fn costed(workload: &Workload, offer: &Offer, provider: &Provider, spot: bool) -> Costed {
    let catalog = Catalog::bundled().unwrap();
    let model = workload.resolve_model(catalog).unwrap();
    let gpu = catalog.gpu(&offer.gpu).unwrap();
    let sized = fit(workload, &model, gpu, offer.gpu_count).unwrap();
    let timed = speed(workload, &model, gpu, offer.gpu_count, &sized, &Setup::default()).unwrap();
    let startup_s = rented_startup_s(workload, &model);
    cost(
        workload,
        &model,
        &sized.memory,
        &timed,
        offer,
        &rules(provider),
        Rental { spot, nodes: 1, startup_s, instances: None },
    )
    .unwrap()
}

#[test]
fn a_short_job_costs_more_on_per_hour_billing() {
    // 200 SDXL images on an H100: minutes of work.
    let w = Workload { items: 200, ..Workload::for_task(Task::Image) };
    let h100 = offer("h100_sxm", 1, 3.0, None);
    let per_second = costed(&w, &h100, &provider(Some(1), Some(60)), false);
    let per_hour = costed(&w, &h100, &provider(Some(3600), Some(3600)), false);
    assert!(per_second.job_hours < 0.5, "{per_second:?}");
    assert_eq!(per_hour.billed_hours, 1.0);
    assert!((per_second.billed_hours - per_second.job_hours).abs() < 1e-3);
    assert!(per_hour.gpu_cost > 2.0 * per_second.gpu_cost);
    // The unit is 1,000 images; start-up (boot and the weights' download) is billed.
    assert_eq!(per_second.unit, Unit::ThousandImages);
    assert!((per_second.cost_per_unit - per_second.job_cost / 0.2).abs() < 1e-9);
    assert!(per_second.job_hours * 3600.0 > BOOT_S);
}

#[test]
fn training_is_quoted_per_million_tokens_trained_not_per_job() {
    // Issue 40: "per unit" no longer repeats the job's cost; two epochs of
    // 50M tokens are 100M tokens trained.
    let w = Workload { task: Task::Finetune, training_tokens: 5e7, epochs: 2, ..Workload::default() };
    let c = costed(&w, &offer("h100_sxm", 1, 3.0, None), &provider(Some(1), Some(60)), false);
    assert_eq!(c.unit, Unit::MillionTrainingTokens);
    assert!((c.cost_per_unit - c.job_cost / 100.0).abs() < 1e-9, "{c:?}");
}

#[test]
fn spot_pays_for_interruptions_with_lost_work_and_restarts() {
    let w = Workload { task: Task::Finetune, training_tokens: 5e8, ..Workload::default() };
    let a100 = offer("a100_sxm_80gb", 1, 2.0, Some(0.8));
    let p = provider(Some(1), Some(60));
    let on_demand = costed(&w, &a100, &p, false);
    let spot = costed(&w, &a100, &p, true);
    // One interruption per 20 hours, each losing a restart and 15 minutes.
    let expected_extra = SPOT_INTERRUPTIONS_PER_HOUR * (on_demand.job_hours - BOOT_S / 3600.0);
    let lost = (spot.job_hours - on_demand.job_hours) / expected_extra;
    assert!(lost > 0.25 && lost < 0.40, "{lost} h lost per interruption");
    assert!(spot.job_cost < 0.5 * on_demand.job_cost);
    // Checkpointing less often loses more.
    let rare = Workload { checkpoint_minutes: 240, ..w };
    assert!(costed(&rare, &a100, &p, true).job_hours > spot.job_hours);
}

#[test]
fn serving_costs_a_month_of_uptime_and_replicas_follow_the_load() {
    let w = Workload { concurrency: 32, ..Workload::default() };
    let h100 = offer("h100_sxm", 1, 2.5, None);
    let p = provider(Some(1), Some(60));
    let always = costed(&w, &h100, &p, false);
    assert_eq!(always.instances, 1);
    assert!((always.gpu_cost - 2.5 * HOURS_PER_MONTH).abs() < 1e-6);
    assert_eq!(always.unit, Unit::MillionOutputTokens);
    // Eight hours a day costs a third, plus a start-up every day.
    let office = Workload { uptime_hours: 8.0, ..w.clone() };
    let part = costed(&office, &h100, &p, false);
    assert!(part.gpu_cost > always.gpu_cost / 3.0 && part.gpu_cost < always.gpu_cost / 3.0 * 1.02);
    // A stated load needs as many replicas as its tokens take.
    let busy = Workload { requests_per_day: 2_000_000, ..w };
    let loaded = costed(&busy, &h100, &p, false);
    assert!(loaded.instances > 1, "{loaded:?}");
    // Storage and egress are counted at the provider's prices, and where it
    // publishes none at the highest a provider publishes, said so (issue 27).
    assert!(loaded.storage_cost > 0.0 && loaded.egress_cost > 0.0);
    assert_eq!(loaded.assumed, Assumed::default());
    let unknown = Provider { block_storage_usd_per_gb_month: None, egress_usd_per_gb: None, ..p };
    let c = costed(&busy, &h100, &unknown, false);
    assert!((c.storage_cost / loaded.storage_cost - 2.0).abs() < 1e-9, "0.20 against 0.10 per GB-month");
    assert!((c.egress_cost / loaded.egress_cost - 0.12 / 0.09).abs() < 1e-9);
    assert_eq!(c.assumed, Assumed { billing: false, storage: true, egress: true });
}

#[test]
fn spot_is_refused_for_an_always_on_endpoint_unless_the_user_insists() {
    assert!(spot_allowed(&Workload::default()).unwrap_err().en.contains("always-on endpoint"));
    assert!(spot_allowed(&Workload { spot: SpotPolicy::Yes, ..Workload::default() }).is_ok());
    assert!(spot_allowed(&Workload::for_task(Task::Image)).is_ok());
    assert!(spot_allowed(&Workload { spot: SpotPolicy::No, ..Workload::for_task(Task::Image) }).is_err());
}

/// Issue 40: 100,000 document pages through a vision-language model, run
/// once as a batch job, not a month of an endpoint: sized for one request,
/// timed with as many at once as vLLM and the KV cache take, billed for its
/// run, quoted per 1,000 requests, and allowed on spot.
#[test]
fn a_batch_of_requests_is_a_job_priced_per_thousand_requests() {
    let batch = Workload {
        model: "qwen2.5-vl-7b".into(),
        batch_requests: 100_000,
        input_tokens: 600,
        output_tokens: 300,
        ..Workload::default()
    };
    let endpoint = Workload { batch_requests: 0, ..batch.clone() };
    let h100 = offer("h100_sxm", 1, 2.5, Some(1.0));
    let p = provider(Some(1), Some(60));
    let job = costed(&batch, &h100, &p, false);
    assert_eq!(job.unit, Unit::ThousandRequests);
    assert!((job.cost_per_unit - job.job_cost / 100.0).abs() < 1e-9, "{job:?}");
    // Its hours are its requests' tokens at the throughput of a full batch,
    // far more than one user's: a few hours, not the month an endpoint bills.
    let catalog = Catalog::bundled().unwrap();
    let model = batch.resolve_model(catalog).unwrap();
    let gpu = catalog.gpu("h100_sxm").unwrap();
    let sized = fit(&batch, &model, gpu, 1).unwrap();
    let timed = speed(&batch, &model, gpu, 1, &sized, &Setup::default()).unwrap();
    let serving = timed.serving().unwrap();
    assert!(serving.running_concurrency > 32, "{serving:?}");
    let hours = 100_000.0 * 300.0 / timed.output_tokens_per_s().unwrap() / 3600.0;
    assert!(job.job_hours > hours && job.job_hours < hours + 0.5, "{} {hours}", job.job_hours);
    assert!(job.job_hours < 24.0 && (job.gpu_cost - 2.5 * job.billed_hours).abs() < 1e-9);
    // Its memory holds one request; the endpoint's, its one user's too.
    assert_eq!(sized.memory.per_gpu_bytes, fit(&endpoint, &model, gpu, 1).unwrap().memory.per_gpu_bytes);
    // Two runs a month cost twice; the endpoint's month is its own.
    let twice = costed(&Workload { runs_per_month: 2, ..batch.clone() }, &h100, &p, false);
    assert!((twice.monthly_cost - 2.0 * twice.job_cost).abs() < 1e-9);
    assert!(costed(&endpoint, &h100, &p, false).job_hours > 700.0);
    // Per 1,000 images described: one image a request.
    assert!((job.cost_per_thousand_images.unwrap() - job.cost_per_unit).abs() < 1e-9);
    // A batch resumes on spot; an endpoint's users cannot wait.
    assert!(spot_allowed(&batch).is_ok() && spot_allowed(&endpoint).is_err());
}

/// Storage and egress follow each model's own frame size and clip length
/// (data/diffusion_models.csv), as its memory and speed do: SD 1.5 makes
/// 512² images, HunyuanVideo 129 frames at 24 fps, Mochi 163 at 30 and
/// CogVideoX 49 at 8. Every model was costed as 1024² images or 81 frames
/// at 16 fps before.
#[test]
fn media_storage_and_egress_follow_the_models_own_output() {
    let image = |model: &str| Workload { model: model.into(), items: 1000, ..Workload::for_task(Task::Image) };
    let video = |model: &str| Workload { model: model.into(), items: 10, ..Workload::for_task(Task::Video) };
    let cases = [
        (image("sd-1.5"), 512.0 * 512.0 * IMAGE_BYTES_PER_PIXEL),
        (image("sdxl-base-1.0"), 1024.0 * 1024.0 * IMAGE_BYTES_PER_PIXEL),
        (video("hunyuanvideo"), 129.0 / 24.0 * VIDEO_BYTES_PER_SECOND),
        (video("mochi-1"), 163.0 / 30.0 * VIDEO_BYTES_PER_SECOND),
        (video("cogvideox-5b"), 49.0 / 8.0 * VIDEO_BYTES_PER_SECOND),
        (video("wan2.1-t2v-1.3b"), 81.0 / 16.0 * VIDEO_BYTES_PER_SECOND),
    ];
    let provider = provider(Some(1), Some(60));
    for (workload, item_bytes) in cases {
        let c = costed(&workload, &offer("h100_sxm", 1, 3.0, None), &provider, false);
        let expected = f64::from(workload.items) * item_bytes / BYTES_PER_GB * 0.09;
        let egress = c.egress_cost;
        assert!(
            (egress - expected).abs() < 1e-9 * expected,
            "{}: egress ${egress}, expected ${expected}",
            workload.model
        );
        // The outputs are stored with the weights while the job runs.
        assert!(c.storage_cost > 0.0, "{}", workload.model);
    }
    // A resolution or clip length the user sets wins over the model's.
    let short = Workload { frames: Some(33), ..video("hunyuanvideo") };
    let c = costed(&short, &offer("h100_sxm", 1, 3.0, None), &provider, false);
    let expected = 10.0 * 33.0 / 24.0 * VIDEO_BYTES_PER_SECOND / BYTES_PER_GB * 0.09;
    assert!((c.egress_cost - expected).abs() < 1e-9 * expected);
}

#[test]
fn a_cluster_bills_every_node_keeps_its_data_once_and_loses_more_to_spot() {
    // Pretraining Llama 3.1 8B on 4 nodes of 8 H100s (issue 24): every node
    // is billed for the whole run, the shared data and checkpoints sit once
    // on network storage, and a spot interruption of any node stops all.
    let catalog = Catalog::bundled().unwrap();
    let w = Workload { zero_stage: 3, gpus: 32, ..Workload::for_task(Task::Pretrain) };
    let model = w.resolve_model(catalog).unwrap();
    let gpu = catalog.gpu("h100_sxm").unwrap();
    let network =
        crate::engine::fabric::Network { gbps: 3200.0, kind: crate::engine::fabric::FabricKind::Efa, known: true };
    let placement = crate::engine::fabric::Placement { nodes: 4, gpus_per_node: 8, network };
    let sized = fit(&w, &model, gpu, placement).unwrap();
    let timed = speed(&w, &model, gpu, placement, &sized, &Setup::default()).unwrap();
    let startup_s = rented_startup_s(&w, &model);
    let node = offer("h100_sxm", 8, 30.0, Some(12.0));
    let shared = Provider { network_storage_usd_per_gb_month: Some(0.07), ..provider(Some(1), Some(60)) };
    let on = |spot, nodes, p: &Provider| {
        cost(&w, &model, &sized.memory, &timed, &node, &rules(p), Rental { spot, nodes, startup_s, instances: None })
            .unwrap()
    };
    let cluster = on(false, 4, &shared);
    assert_eq!(cluster.nodes, 4);
    assert!((cluster.gpu_cost - 4.0 * 30.0 * cluster.billed_hours).abs() < 1e-6);
    assert!((cluster.gpu_hours - 32.0 * cluster.billed_hours).abs() < 1e-6);
    // Storage at the network-storage price, once; without one, at the
    // block-storage price (0.10), still once.
    let block = on(false, 4, &provider(Some(1), Some(60)));
    let ratio = cluster.storage_cost / block.storage_cost;
    assert!((ratio - 0.7).abs() < 1e-9, "{ratio}");
    // Spot: four nodes lose four times the share one node loses.
    let one = spot_lost_share(&w, 1, startup_s);
    assert!((spot_lost_share(&w, 4, startup_s) - 4.0 * one).abs() < 1e-12);
    assert!(on(true, 4, &shared).job_hours > on(true, 1, &shared).job_hours);
    // Past half of its time lost, a spot cluster is not worth it: at one
    // interruption per 20 node-hours, 40 nodes checkpointing every 30
    // minutes lose about 60%, 32 nodes just under half.
    assert!(spot_lost_share(&w, 40, startup_s) > SPOT_MAX_LOST_SHARE);
    assert!(spot_lost_share(&w, 32, startup_s) < SPOT_MAX_LOST_SHARE);
}

#[test]
fn a_pretraining_runs_gpu_hours_grow_with_its_gpu_count_and_goodput_is_its_own_line() {
    // Llama 3.1 70B on 1T tokens over H100 nodes on a 3,200 Gbit/s fabric:
    // the same work on more GPUs takes more GPU-hours, as published scaling
    // tables show (MegaScale, Table 2: 175B at 53% MFU on 256 GPUs, 41% on
    // 12,288), because the 4M-token global batch leaves fewer micro-batches
    // per replica to hide the gradient reduction and the pipeline's fill, and
    // because failures grow with the GPUs (Llama 3: one per 50,700 GPU-hours).
    let catalog = Catalog::bundled().unwrap();
    let model = catalog.model("llama-3.1-70b").unwrap();
    let gpu = catalog.gpu("h100_sxm").unwrap();
    let network =
        crate::engine::fabric::Network { gbps: 3200.0, kind: crate::engine::fabric::FabricKind::Efa, known: true };
    let node = offer("h100_sxm", 8, 30.0, None);
    let p = provider(Some(1), Some(60));
    let run = |nodes: u32| {
        let w = Workload {
            model: model.id.clone(),
            training_tokens: 1e12,
            gpus: nodes * 8,
            tensor_parallel: 8,
            pipeline_parallel: 4,
            zero_stage: 1,
            micro_batch: 1,
            seq_len: 4096,
            ..Workload::for_task(Task::Pretrain)
        };
        let placement = crate::engine::fabric::Placement { nodes, gpus_per_node: 8, network };
        let sized = fit(&w, model, gpu, placement).unwrap();
        let timed = speed(&w, model, gpu, placement, &sized, &Setup::default()).unwrap();
        let startup_s = rented_startup_s(&w, model);
        cost(
            &w,
            model,
            &sized.memory,
            &timed,
            &node,
            &rules(&p),
            Rental { spot: false, nodes, startup_s, instances: None },
        )
        .unwrap()
    };
    let runs: Vec<Costed> = [32, 128, 512].into_iter().map(run).collect();
    let gpu_hours: Vec<f64> = runs.iter().map(|c| c.gpu_hours).collect();
    assert!(gpu_hours.windows(2).all(|pair| pair[1] > pair[0] * 1.02), "{gpu_hours:?}");
    // Each run says what failures took, within its job time, growing with the GPUs.
    let lost: Vec<f64> = runs.iter().map(|c| 1.0 - c.goodput.unwrap().share).collect();
    println!("GPU-hours at 256, 1,024, 4,096 GPUs: {gpu_hours:?}; share lost to failures: {lost:?}");
    assert!(lost.windows(2).all(|pair| pair[1] > pair[0]), "{lost:?}");
    for c in &runs {
        let goodput = c.goodput.unwrap();
        assert!(goodput.lost_hours > 0.0 && goodput.lost_hours < c.job_hours && !goodput.stated);
    }
    // At 4,096 GPUs about 4% of the run goes to failures, under Llama 3's ">90%" effective time on 16,384.
    assert!((0.02..0.08).contains(&lost[2]), "{lost:?}");
    // A stated goodput replaces the model.
    let w = Workload { goodput_pct: Some(80.0), ..Workload::for_task(Task::Pretrain) };
    assert!((failure_lost_share(&w, 8) - 0.25).abs() < 1e-12);
    // Serving loses nothing to training failures.
    assert_eq!(failure_lost_share(&Workload::default(), 8), 0.0);
    // Llama 3: about 9.7% of a 16,384-GPU run checkpointing every 30 minutes.
    let llama3 = failure_lost_share(&Workload::for_task(Task::Pretrain), 16_384);
    assert!((llama3 - 0.097).abs() < 0.002, "{llama3}");
}

#[test]
fn one_image_is_not_split_across_gpus() {
    // diffusers runs one pipeline per GPU: one image on eight H100s takes
    // one image's time, and eight images take the same; nine take two rounds.
    let h100 = offer("h100_sxm", 1, 3.0, None);
    let eight = offer("h100_sxm", 8, 24.0, None);
    let p = provider(Some(1), Some(1));
    let work_h = |items, on: &Offer| {
        let w = Workload { items, ..Workload::for_task(Task::Image) };
        let c = costed(&w, on, &p, false);
        let startup_h = rented_startup_s(&w, &w.resolve_model(Catalog::bundled().unwrap()).unwrap()) / 3600.0;
        c.job_hours - startup_h
    };
    let single = work_h(1, &h100);
    assert!((work_h(1, &eight) - single).abs() < 1e-9 * single, "{} vs {single}", work_h(1, &eight));
    assert!((work_h(8, &eight) - single).abs() < 1e-9 * single);
    assert!((work_h(9, &eight) - 2.0 * single).abs() < 1e-9 * single);
    // Many images divide over the replicas as before.
    assert!((work_h(8000, &eight) - work_h(8000, &h100) / 8.0).abs() < 1e-6 * work_h(8000, &h100));
}
