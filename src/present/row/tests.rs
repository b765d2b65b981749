use super::*;
use crate::engine::local_run::run_locally;
use crate::engine::{rank, snapshot::committed, Report};
use crate::url_codec;

fn ranked(query: &str) -> (Report, Snapshot, &'static Catalog) {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = committed();
    let decoded = url_codec::decode(query, catalog);
    assert!(decoded.notes.is_empty(), "{query}: {:?}", decoded.notes);
    (rank(&decoded.workload, catalog, &snapshot).unwrap(), snapshot, catalog)
}

#[test]
fn the_columns_are_one_list_for_the_header_the_cells_and_the_details_row() {
    for (i, column) in Column::ALL.into_iter().enumerate() {
        assert_eq!(column.index(), i);
    }
    assert_eq!(COLUMN_COUNT, 11);
    // A row's cells: the provider's, the nine that `cells` names in order,
    // and the badges'.
    let text = RowText::default();
    let named: Vec<Column> = text.cells(Lang::En).iter().map(|(column, _)| *column).collect();
    assert_eq!(named, Column::ALL[1..COLUMN_COUNT - 1]);
    let sortable: Vec<&str> = Column::ALL.iter().filter_map(|c| c.sort_id()).collect();
    assert_eq!(sortable, ["price", "speed", "job", "cost", "unit"]);
    let labels: std::collections::HashSet<&str> = Column::ALL.iter().map(|c| c.label().en).collect();
    assert_eq!(labels.len(), COLUMN_COUNT);
}

#[test]
fn an_offer_row_names_its_gpu_prices_and_figures_in_the_pages_language() {
    let (report, snapshot, catalog) = ranked("model=llama-3.1-70b&conc=32&in=2048&out=512");
    let ranked = &report.results[0];
    let offer = &snapshot.offers[ranked.offer];
    let cost = ranked.cost.as_ref().unwrap();
    let en = RowText::of(ranked, &snapshot, catalog, Lang::En);
    assert_eq!(en.instance, offer.instance);
    assert_eq!(en.gpus, format!("{}× {}", offer.gpu_count, catalog.gpu_name(&offer.gpu)));
    assert_eq!(en.price, Lang::En.usd(ranked.price_per_hour));
    assert!(en.price.starts_with('$'), "{}", en.price);
    assert_eq!(en.per_unit, Lang::En.usd(cost.cost_per_unit));
    assert_eq!(en.unit, "per 1M output tokens");
    assert_eq!(en.job, Lang::En.hours(cost.job_hours));
    assert!(en.speed.contains("tok/s"), "{}", en.speed);
    assert_eq!(en.bound.as_deref(), Some("memory-bound"));
    // A rule assumed: the total is an upper bound, and says so.
    assert_eq!(en.total.starts_with('≤'), cost.assumed.any());
    assert_eq!(en.badges.len(), ranked.badges.len());
    // Issue 40: every badge says what it means.
    for (text, badge) in en.badges.iter().zip(&ranked.badges) {
        assert_eq!(text.label, Lang::En.t(badge.label()));
        assert_eq!(text.title, Lang::En.t(badge.explanation()));
    }

    let es = RowText::of(ranked, &snapshot, catalog, Lang::Es);
    assert!(es.price.ends_with("US$") && es.price.contains(','), "{}", es.price);
    assert_eq!(es.unit, "por 1 M de tokens de salida");
    assert_eq!((es.instance, es.gpus), (en.instance, en.gpus));
}

#[test]
fn a_spot_row_tags_its_price_and_an_on_demand_row_does_not() {
    let (report, snapshot, catalog) = ranked("task=image&model=sdxl-base-1.0&n=10000&batch=4");
    let spot = report.results.iter().find(|r| r.spot).expect("batch images rank spot offers");
    let on_demand = report.results.iter().find(|r| !r.spot).expect("and on-demand ones");
    let note_of = |row: &RankedOffer| {
        let text = RowText::of(row, &snapshot, catalog, Lang::En);
        let price = text.cells(Lang::En).into_iter().find(|(c, _)| *c == Column::Price).unwrap().1;
        price.note.map(|(class, words)| (class, words.to_string()))
    };
    assert_eq!(note_of(spot), Some(("spot", "spot".to_string())));
    assert_eq!(note_of(on_demand), None);
    let text = RowText::of(spot, &snapshot, catalog, Lang::En);
    assert_eq!(text.unit, "per 1,000 images");
    let job = text.cells(Lang::En).into_iter().find(|(c, _)| *c == Column::JobTime).unwrap().1;
    assert_eq!(job.note, Some(("bound", text.billed.as_str())));
    assert!(text.billed.starts_with("billed "), "{}", text.billed);
}

#[test]
fn the_visitors_gpu_row_prices_electricity_and_says_whether_it_fits() {
    let (report, snapshot, catalog) = ranked("model=llama-3.1-8b");
    let workload = url_codec::decode("model=llama-3.1-8b", catalog).workload;
    let run = run_locally(&workload, catalog, &snapshot, &report, "rtx_4090", None).unwrap();
    let row = RowText::of_local(&run, catalog, Lang::En);
    assert_eq!(row.provider, "Your GPU");
    assert_eq!(row.instance, "GeForce RTX 4090 PCIe consumer");
    assert_eq!(row.gpus, "1× GeForce RTX 4090 PCIe consumer");
    assert_eq!(row.vram, "24 GiB");
    assert_eq!(row.price, Lang::En.usd(0.45 * ELECTRICITY_USD_PER_KWH));
    assert_eq!(row.regions_title, electricity(&run, Lang::En));
    assert!(row.regions_title.contains("450 W"), "{}", row.regions_title);
    assert_eq!(row.badges[0].label, "fits");

    let big = url_codec::decode("model=llama-3.1-70b&wq=bf16", catalog).workload;
    let report = rank(&big, catalog, &snapshot).unwrap();
    let run = run_locally(&big, catalog, &snapshot, &report, "rtx_4090", None).unwrap();
    let row = RowText::of_local(&run, catalog, Lang::En);
    assert!(row.badges[0].label.starts_with("doesn't fit: needs "), "{:?}", row.badges);
    let es = RowText::of_local(&run, catalog, Lang::Es);
    assert_eq!(es.provider, "Tu GPU");
}

/// Issue 28: the speed cell's tooltip and the breakdown say how sure the
/// figures are, from the calibration bands; a runtime no published
/// measurement has checked says so instead of borrowing a band.
#[test]
fn a_rows_speed_says_how_sure_it_is() {
    let (report, snapshot, catalog) = ranked("model=llama-3.1-8b&runtime=llamacpp&wq=q4_k_m");
    let row = &report.results[0];
    let text = RowText::of(row, &snapshot, catalog, Lang::En);
    let band = |family| crate::engine::speed::accuracy::band_of(family).unwrap();
    let (decode, prefill) = (band("llama.cpp decode"), band("llama.cpp prefill"));
    // llama.cpp's bands rest on four sources: each is the error on sources
    // held out of the fit (issue 37).
    assert_eq!(
        text.speed_title,
        format!(
            "Decode per request, Output, all requests: ±{}% typical on sources the model was not fitted to: the median error against {} published llama.cpp decode measurements from {} sources, each predicted with the others alone or as the engine stands, whichever errs more; 9 in 10 within ±{}%\n\
             Prefill, Time to first token: ±{}% typical on sources the model was not fitted to: the median error against {} published llama.cpp prefill measurements from {} sources, each predicted with the others alone or as the engine stands, whichever errs more; 9 in 10 within ±{}%",
            decode.median_error_pct, decode.cases, decode.sources, decode.p90_error_pct, prefill.median_error_pct, prefill.cases, prefill.sources, prefill.p90_error_pct
        )
    );
    let speed_cell = text.cells(Lang::En).into_iter().find(|(c, _)| *c == Column::Speed).unwrap().1;
    assert_eq!(speed_cell.title, Some(text.speed_title.as_str()));
    let es = RowText::of(row, &snapshot, catalog, Lang::Es);
    assert!(es.speed_title.contains(&format!("±{} % habitual", decode.median_error_pct)), "{}", es.speed_title);
    let lines = crate::export::row_breakdown(row, &snapshot, catalog, Lang::En);
    let decode_line = lines.iter().find(|(label, _)| label == "Decode per request").unwrap();
    assert!(decode_line.1.ends_with(&format!(" tokens/s (±{}%)", decode.median_error_pct)), "{decode_line:?}");
    assert_eq!(lines.iter().filter(|(label, _)| label == "How sure").count(), 2);

    let (report, snapshot, catalog) = ranked("model=llama-3.1-8b&runtime=vllm&conc=16");
    let text = RowText::of(&report.results[0], &snapshot, catalog, Lang::En);
    assert!(text
        .speed_title
        .ends_with(": not yet checked against published measurements of this runtime on this hardware"));

    // Audio generation's band rests on one source: it says so, and carries
    // what families with more sources err by on unseen ones.
    let (report, snapshot, catalog) = ranked("task=music&vendor=nvidia");
    let text = RowText::of(&report.results[0], &snapshot, catalog, Lang::En);
    let one = band("audio generation RTF");
    assert!(
        text.speed_title.contains(&format!(
            ": checked on one source only ({} published audio generation RTF measurements): expect ±{}% typical elsewhere, what families checked on more sources err by on unseen ones; 9 in 10 within ±{}%",
            one.cases, one.median_error_pct, one.p90_error_pct
        )),
        "{}",
        text.speed_title
    );
}

/// Issue 40: most badges had no explanation. Each has its own, in each
/// language, longer than its label.
#[test]
fn every_badge_explains_itself_in_both_languages() {
    use crate::engine::ranking::Badge;
    let all = [
        Badge::Hbm,
        Badge::Fp8,
        Badge::Nvlink,
        Badge::InfinityFabric,
        Badge::ChipRoce,
        Badge::GpuLink,
        Badge::PcieOnly,
        Badge::SpotSafe,
        Badge::PerHourBilling,
        Badge::SingleGpuFits,
        Badge::RulesAssumed,
        Badge::Auction,
        Badge::Marketplace,
        Badge::UnusuallyLow,
        Badge::Cluster,
        Badge::FabricUnknown,
        Badge::ReservedOnly,
    ];
    for lang in [Lang::En, Lang::Es] {
        let titles: std::collections::HashSet<&str> = all.iter().map(|b| lang.t(b.explanation())).collect();
        assert_eq!(titles.len(), all.len(), "{lang:?}: one explanation per badge");
        for badge in all {
            assert!(lang.t(badge.explanation()).len() > lang.t(badge.label()).len() + 10, "{badge:?}");
        }
    }
}

/// Serving to latency targets (issue 39): a row says the latencies its
/// plan gets at the percentile, its replicas, and how sure they are; its
/// breakdown the latencies, the replicas and the launch command.
#[test]
fn a_planned_row_shows_its_latencies_replicas_and_launch_in_both_languages() {
    let (report, snapshot, catalog) = ranked("model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95");
    let ranked = &report.results[0];
    let plan = ranked.slo.as_ref().unwrap();
    let en = RowText::of(ranked, &snapshot, catalog, Lang::En);
    let ms = (plan.itl_s.at_percentile * 1e3).round();
    assert!(
        en.speed.starts_with("first token 0.") && en.speed.ends_with(&format!("{ms} ms between tokens (p95)")),
        "{}",
        en.speed
    );
    assert_eq!(
        en.bound.as_deref(),
        Some(format!("{} × {} GPU per replica", plan.replicas, plan.gpus_per_replica).as_str())
    );
    assert!(en.speed_title.contains("±40%") && en.speed_title.contains("±22%"), "{}", en.speed_title);
    let es = RowText::of(ranked, &snapshot, catalog, Lang::Es);
    assert!(es.speed.starts_with("primer token 0,") && es.speed.contains("entre tokens (p95)"), "{}", es.speed);
    let lines = crate::export::row_breakdown(ranked, &snapshot, catalog, Lang::En);
    let line = |label: &str| lines.iter().find(|(l, _)| l == label).map(|(_, v)| v.clone()).unwrap_or_default();
    assert!(line("Time to first token").starts_with("p95 0.") && line("Time to first token").contains("median"));
    assert!(line("Replicas").contains("requests/s each"), "{lines:?}");
    assert!(line("Launch").starts_with("vllm serve meta-llama/Llama-3.3-70B-Instruct"), "{lines:?}");
    assert!(line("Launch").contains("(vllm 0.34.0;"));
    // What limits it: the target that sets its replicas first, what each step waits on last.
    let limits = line("What limits it");
    assert!(
        limits.starts_with(match plan.limit {
            crate::engine::serving_plan::Limit::OneReplica => "one replica meets the targets",
            crate::engine::serving_plan::Limit::FirstToken => "the first-token target",
            crate::engine::serving_plan::Limit::InterToken => "the between-tokens target",
        }),
        "{limits}"
    );
    assert!(limits.ends_with("each step is memory-bound"), "{limits}");
    assert_eq!(limits.contains("the KV cache holds"), plan.waited && plan.kv_sequences < plan.max_batch, "{limits}");
    assert_eq!(
        limits.contains("queueing: the p95 first token"),
        plan.ttft_s.at_percentile > 1.5 * plan.alone_ttft_s,
        "{limits}"
    );
    // Its speed is the plan's: no full-load figures beside its latencies.
    assert!(line("How sure").starts_with("Latencies from a simulation"), "{lines:?}");
    for full_load in ["Requests running at once", "Bound", "Decode per request"] {
        assert!(lines.iter().all(|(l, _)| l != full_load), "{full_load}: {lines:?}");
    }
    // What traffic it was sized for, and what was assumed of it.
    assert_eq!(
        line("Traffic"),
        "2.00 requests/s at the busiest hour: 86,400 a day over 24 h up, the busiest hour 2.0× the mean (peakx)"
    );
}

/// "What limits it" names the KV cache, or the runtime's cap, when
/// requests waited for room at the peak, and queueing when the first token
/// at the percentile is well past a lone request's; in both languages.
#[test]
fn what_limits_a_plan_names_the_cache_the_cap_and_queueing_when_they_bind() {
    let (report, snapshot, catalog) = ranked("model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95");
    let mut row = report.results[0].clone();
    let said = |row: &crate::engine::RankedOffer, lang: Lang| {
        let label = lang.t(&crate::text::phrases::ROW_SLO_LIMITS);
        crate::export::row_breakdown(row, &snapshot, catalog, lang).into_iter().find(|(l, _)| l == label).unwrap().1
    };
    let plan = row.slo.as_mut().unwrap();
    (plan.waited, plan.kv_sequences, plan.max_batch) = (true, 25, 256);
    (plan.alone_ttft_s, plan.ttft_s.at_percentile) = (0.2, 0.9);
    let en = said(&row, Lang::En);
    assert!(en.contains("; the KV cache holds 25 requests at once per replica, and requests waited for room at the peak; queueing: the p95 first token takes 0.90 s against 0.20 s for a lone request; "), "{en}");
    assert!(said(&row, Lang::Es).contains("la caché KV admite 25 peticiones a la vez"));
    let plan = row.slo.as_mut().unwrap();
    (plan.kv_sequences, plan.ttft_s.at_percentile) = (300, 0.25);
    let en = said(&row, Lang::En);
    assert!(
        en.contains("requests waited at the peak for the runtime's cap of 256 running") && !en.contains("queueing"),
        "{en}"
    );
    row.slo.as_mut().unwrap().waited = false;
    assert!(!said(&row, Lang::En).contains("waited"));
    // Off the peak, on a provider that bills by the second or the hour.
    let off = |row: &crate::engine::RankedOffer, lang: Lang| {
        let label = lang.t(&crate::text::phrases::ROW_OFF_PEAK);
        crate::export::row_breakdown(row, &snapshot, catalog, lang)
            .into_iter()
            .find(|(l, _)| l == label)
            .map(|(_, v)| v)
    };
    let step = snapshot.billing_provider(&snapshot.offers[row.offer]).and_then(|p| p.billing_increment_s).unwrap();
    assert!(step <= 3600, "{step}");
    assert_eq!(off(&row, Lang::En), None, "one instance: nothing to say");
    let plan = row.slo.as_mut().unwrap();
    (plan.replicas, plan.instances) = (8, 4);
    let en = off(&row, Lang::En).unwrap();
    assert!(en.starts_with(&format!("billed per {step} s, instances can follow the traffic: about 4 of the 8 replicas (2 of 4 instances) serve the mean hour, so scaled hour by hour the month comes to about 50% of it")), "{en}");
    assert!(off(&row, Lang::Es).unwrap().contains("(2 de 4 instancias)"));
}
