use super::simulate::Arrivals;
use super::*;
use crate::engine::catalog::Family;
use crate::engine::{Catalog, Task};
use crate::url_codec;

/// The workload of link `query` on the bundled catalog.
fn workload(query: &str) -> Workload {
    let catalog = Catalog::bundled().unwrap();
    let decoded = url_codec::decode(query, catalog);
    assert!(decoded.notes.is_empty(), "{query}: {:?}", decoded.notes);
    decoded.workload
}

/// `query` planned on an instance of `count` GPUs `gpu`.
fn planned(query: &str, gpu: &str, count: u32) -> Result<SloPlan, Msg> {
    let catalog = Catalog::bundled().unwrap();
    let w = workload(query);
    let model = catalog.model(&w.model).unwrap();
    let Ok(Family::Serving(shape)) = model.family(Task::Infer) else { panic!("not an LLM") };
    let targets = Targets::of(&w).expect("targets");
    plan(&w, model, shape, catalog.gpu(gpu).unwrap(), count, &targets, &mut Vec::new())
}

const CHAT_8B: &str = "model=llama-3.1-8b&in=1000&out=300&ttft=1&itl=0.05&pct=95";

#[test]
fn targets_are_read_only_for_an_endpoint_that_states_one() {
    assert_eq!(Targets::of(&workload("model=llama-3.1-8b")), None);
    assert_eq!(Targets::of(&workload("model=llama-3.1-8b&rps=3")), None);
    // Requests a day peak at twice the mean rate (DEFAULT_PEAK_FACTOR), over
    // the hours the endpoint is up.
    let t = Targets::of(&workload("model=llama-3.1-8b&itl=0.04&rpd=86400")).unwrap();
    assert_eq!((t.ttft_s, t.itl_s, t.percentile, t.peak_rps), (None, Some(0.04), 95, 2.0));
    assert_eq!(Targets::of(&workload("model=llama-3.1-8b&itl=0.04&rpd=86400&peakx=1")).unwrap().peak_rps, 1.0);
    assert_eq!(
        Targets::of(&workload("model=llama-3.1-8b&itl=0.04&rpd=86400&uptime=12&peakx=3")).unwrap().peak_rps,
        6.0
    );
    let t = Targets::of(&workload("model=llama-3.1-8b&ttft=2&rps=5&pct=99")).unwrap();
    assert_eq!((t.ttft_s, t.peak_rps, t.percentile), (Some(2.0), 5.0, 99));
    // A stated peak rate is the peak, whatever the factor; the day's
    // requests are that peak over the hours up, divided by the factor.
    let w = workload("model=llama-3.1-8b&ttft=2&rps=5&peakx=4");
    assert_eq!((Targets::of(&w).unwrap().peak_rps, w.daily_requests()), (5.0, 5.0 * 86_400.0 / 4.0));
    // A batch job has no latency to meet.
    assert_eq!(Targets::of(&workload("model=llama-3.1-8b&ttft=2&reqs=1000")), None);
}

#[test]
fn light_traffic_is_one_replica_within_the_targets() {
    let plan = planned(&format!("{CHAT_8B}&rps=1"), "h100_sxm", 1).unwrap();
    assert_eq!((plan.replicas, plan.instances, plan.tensor_parallel, plan.limit), (1, 1, 1, Limit::OneReplica));
    assert!(plan.ttft_s.at_percentile <= 1.0 && plan.itl_s.at_percentile <= 0.05, "{plan:?}");
    assert!(plan.ttft_s.p50 <= plan.ttft_s.at_percentile && plan.itl_s.p50 <= plan.itl_s.at_percentile);
    assert_eq!((plan.percentile, plan.runtime, plan.step_tokens), (95, Runtime::Vllm, 2048));
}

#[test]
fn more_traffic_takes_more_replicas_each_within_the_targets() {
    let mut last = 0;
    for rps in [5, 40, 160] {
        let plan = planned(&format!("{CHAT_8B}&rps={rps}"), "h100_sxm", 8).unwrap();
        assert!(plan.replicas >= last, "{rps}: {plan:?}");
        assert!(plan.ttft_s.at_percentile <= 1.0 && plan.itl_s.at_percentile <= 0.05, "{rps}: {plan:?}");
        assert_eq!(plan.instances, plan.replicas.div_ceil(8 / plan.gpus_per_replica));
        last = plan.replicas;
    }
    assert!(last > 1);
}

#[test]
fn the_fewest_replicas_are_found_one_fewer_misses_a_target() {
    let query = format!("{CHAT_8B}&rps=60");
    let plan = planned(&query, "l40s", 1).unwrap();
    assert!(plan.replicas > 1 && matches!(plan.limit, Limit::FirstToken | Limit::InterToken), "{plan:?}");
    // One replica fewer, simulated as the plan does, misses.
    let catalog = Catalog::bundled().unwrap();
    let w = workload(&query);
    let model = catalog.model(&w.model).unwrap();
    let Ok(Family::Serving(shape)) = model.family(Task::Infer) else { panic!() };
    let targets = Targets::of(&w).unwrap();
    let steps =
        ReplicaSteps::with_kernels(&runtime_speed(Runtime::Vllm), &w, model, shape, catalog.gpu("l40s").unwrap(), 1)
            .unwrap();
    let limits = Limits { max_running: 256, step_tokens: 2048, kv_sequences: plan.max_batch.max(1) };
    let load = Load {
        arrivals: Arrivals::Poisson(60.0 / f64::from(plan.replicas - 1)),
        prompt_tokens: 1000,
        output_tokens: 300,
        cached_tokens: 0,
        spread: 0.0,
    };
    let fewer = simulate(load, limits, Run::DEFAULT, |n, c, k| steps.step_s(n, c, k));
    assert!(targets.missed(&fewer).is_some());
}

#[test]
fn targets_one_request_alone_misses_say_so_with_the_figures() {
    let err = planned(&format!("{CHAT_8B}&itl=0.001&rps=1"), "h100_sxm", 1).unwrap_err();
    let said = err.render(crate::text::Lang::En);
    assert!(said.starts_with("inter-token latency") && said.contains("> 1.0 ms") && said.contains("1× H100"), "{said}");
    let err = planned("model=llama-3.1-8b&in=100000&ttft=0.5&rps=1", "h100_sxm", 1).unwrap_err();
    assert!(err.render(crate::text::Lang::En).starts_with("first token after"), "{err:?}");
}

#[test]
fn a_model_one_gpu_cannot_hold_is_planned_on_groups_of_the_instance() {
    let plan = planned("model=llama-3.3-70b&in=1000&out=300&ttft=1&itl=0.05&rps=2", "h100_sxm", 8).unwrap();
    assert!(plan.gpus_per_replica >= 2 && plan.tensor_parallel == plan.gpus_per_replica, "{plan:?}");
    assert_eq!(plan.instances, 1);
    assert!(planned("model=llama-3.3-70b&in=1000&out=300&ttft=1&itl=0.05&rps=2", "h100_sxm", 1).is_err());
}

#[test]
fn plans_are_the_same_on_every_run() {
    let query = format!("{CHAT_8B}&rps=30");
    assert_eq!(planned(&query, "a100_sxm_80gb", 4), planned(&query, "a100_sxm_80gb", 4));
}

#[test]
fn hf_transformers_is_not_planned_as_a_server() {
    let err = planned(&format!("{CHAT_8B}&rps=1&runtime=hf"), "h100_sxm", 1).unwrap_err();
    assert!(err.render(crate::text::Lang::En).contains("does not batch requests"));
}

/// Targets no offer meets (issue 39): the advice names the set-up that
/// comes closest and targets it can meet, which then rank rows.
#[test]
fn targets_nothing_meets_name_the_closest_set_up_and_what_it_can_meet() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = crate::engine::snapshot::committed();
    let rank = |query: &str| crate::engine::rank(&workload(query), catalog, &snapshot).unwrap();
    let report = rank("model=llama-3.1-8b&in=1000&out=300&rps=1&itl=0.002&ttft=0.01");
    assert!(report.results.is_empty());
    let said = report.advice[0].render(crate::text::Lang::En);
    assert!(said.starts_with("No offer meets these targets. The closest is "), "{said}");
    let key =
        |name: &str| said.split(&format!("{name}=")).nth(1).unwrap().split([',', ')']).next().unwrap().to_string();
    let (ttft, itl) = (key("ttft"), key("itl"));
    // The targets it names can be met.
    let met = rank(&format!("model=llama-3.1-8b&in=1000&out=300&rps=0.01&itl={itl}&ttft={ttft}"));
    assert!(!met.results.is_empty(), "{said}");
    // Spanish keeps the link's spelling of the numbers.
    let es = report.advice[0].render(crate::text::Lang::Es);
    assert!(es.contains(&format!("ttft={ttft}")) && es.contains(&format!("itl={itl}")), "{es}");
    // Targets a lone request meets, at a rate no offer serves.
    let busy = rank("model=llama-3.1-8b&in=1000&out=300&rps=100000&itl=0.2&ttft=20");
    assert!(busy.results.is_empty());
    assert!(busy.advice[0].render(crate::text::Lang::En).contains("lower the peak rate (rps)"), "{:?}", busy.advice[0]);
}

/// A long prompt most of which the prefix cache holds (a document asked
/// about again) gets its first token sooner on the same replicas, and needs
/// no more of them.
#[test]
fn a_prefix_cache_hit_plans_sooner_first_tokens_on_no_more_replicas() {
    let query = "model=llama-3.1-8b&in=8000&out=200&ttft=2&itl=0.05&rps=4";
    let cold = planned(query, "h100_sxm", 8).unwrap();
    let warm = planned(&format!("{query}&hit=90"), "h100_sxm", 8).unwrap();
    assert!(warm.ttft_s.at_percentile < cold.ttft_s.at_percentile, "{:?} vs {:?}", warm.ttft_s, cold.ttft_s);
    assert!(warm.replicas * warm.gpus_per_replica <= cold.replicas * cold.gpus_per_replica);
    assert_eq!((cold.traffic.prefix_hit_pct, warm.traffic.prefix_hit_pct), (0, 90));
}

/// Off the peak: instances billed by the hour or finer can follow the
/// traffic, about the peak's replicas over the peak factor; whole
/// instances are what is billed; one instance cannot be fewer.
#[test]
fn replicas_follow_the_traffic_where_billing_lets_them() {
    let mut plan = planned(&format!("{CHAT_8B}&rps=1"), "h100_sxm", 1).unwrap();
    (plan.replicas, plan.instances) = (7, 7);
    let hourly = super::off_peak(&plan, Some(3600)).unwrap();
    // Twice the mean at the peak (DEFAULT_PEAK_FACTOR): 4 of 7.
    assert_eq!((hourly.can_follow, hourly.mean_hour_replicas, hourly.mean_hour_instances), (true, 4, 4));
    assert!((hourly.monthly_share - 4.0 / 7.0).abs() < 1e-12);
    // Two replicas an instance: 4 replicas take 2 of 4 instances.
    (plan.replicas, plan.instances) = (8, 4);
    assert_eq!(super::off_peak(&plan, Some(1)).unwrap().mean_hour_instances, 2);
    // Billed by the month: it cannot; unknown billing or one instance: nothing said.
    assert!(!super::off_peak(&plan, Some(2_592_000)).unwrap().can_follow);
    assert_eq!(super::off_peak(&plan, None), None);
    plan.instances = 1;
    assert_eq!(super::off_peak(&plan, Some(1)), None);
}

#[test]
fn bands_say_when_a_prefix_cache_or_varied_lengths_went_unchecked() {
    let plain = planned(CHAT_8B, "h100_sxm", 1).unwrap().bands().to_string();
    assert!(plain.starts_with("Latencies from a simulation") && !plain.contains("neither is checked"), "{plain}");
    for extra in ["&hit=50", "&spread=60"] {
        let said = planned(&format!("{CHAT_8B}{extra}"), "h100_sxm", 1).unwrap().bands().to_string();
        assert!(said.starts_with(&plain) && said.ends_with("so neither is checked"), "{extra}: {said}");
    }
}
