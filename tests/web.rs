//! Browser tests: components mount in headless Chromium and render the
//! expected DOM. Run by `scripts/test.sh` through wasm-bindgen-test-runner.
#![cfg(target_arch = "wasm32")]

use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use whichgpu::engine::{rank, Catalog, Offer, Precision, Provider, Snapshot, Source, Workload};
use whichgpu::text::Lang;
use whichgpu::ui::{App, AppProps, OffersTable, Ranked, SnapshotInfo, WorkloadForm};

wasm_bindgen_test_configure!(run_in_browser);

/// A fresh element in the page to mount into.
fn container() -> web_sys::HtmlElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let element = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&element).unwrap();
    element.unchecked_into()
}

fn texts(root: &web_sys::HtmlElement, selector: &str) -> Vec<String> {
    let nodes = root.query_selector_all(selector).unwrap();
    (0..nodes.length()).filter_map(|i| nodes.item(i)).map(|n| n.text_content().unwrap_or_default()).collect()
}

/// Lets the reactive system and pending futures run.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window().unwrap().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50).unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

/// Mounts the workload form editing `workload` into a fresh element.
fn mount_form(workload: RwSignal<Workload>) -> web_sys::HtmlElement {
    let catalog = Catalog::bundled().unwrap();
    let root = container();
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <WorkloadForm catalog=catalog workload=workload unapplied_model=RwSignal::new(None) /> },
    )
    .forget();
    root
}

/// The element matching `selector` under `root`, as a `T`.
fn element<T: JsCast>(root: &web_sys::HtmlElement, selector: &str) -> T {
    root.query_selector(selector).unwrap().unwrap().unchecked_into()
}

fn test_snapshot() -> Snapshot {
    let offer = |instance: &str, count: u32, price: f64| Offer {
        provider: "lambda".into(),
        underlying_cloud: None,
        billed_as: None,
        instance: instance.into(),
        regions: vec!["us-east-1".into(), "us-west-1".into(), "europe-central-1".into()],
        gpu: "h100_sxm".into(),
        gpu_count: count,
        vram_gb: 80.0,
        vcpus: None,
        ram_gb: None,
        price: Some(price),
        spot_price: None,
        source: "s".into(),
    };
    Snapshot {
        schema_version: whichgpu::engine::snapshot::SCHEMA_VERSION,
        snapshot_date: "2026-09".into(),
        sources: vec![Source {
            id: "s".into(),
            name: "t".into(),
            upstream: "t".into(),
            commit: None,
            as_of: "2026-09".into(),
        }],
        providers: vec![Provider {
            id: "lambda".into(),
            name: "Lambda".into(),
            billing_increment_s: Some(60),
            minimum_charge_s: None,
            spot_available: Some(false),
            block_storage_usd_per_gb_month: None,
            egress_usd_per_gb: None,
            network_storage_usd_per_gb_month: None,
            pricing_page: None,
            price_kind: None,
            spot_notice_s: None,
            reserved_discount: None,
            closed: None,
        }],
        fabrics: Vec::new(),
        offers: vec![
            offer("gpu_8x_h100_sxm5", 8, 23.92),
            offer("gpu_1x_h100_sxm5", 1, 3.29),
            offer("gpu_2x_h100_sxm5", 2, 6.38),
        ],
    }
}

#[wasm_bindgen_test]
async fn the_form_lists_every_catalog_model_and_precision_and_selects_the_workload() {
    let catalog = Catalog::bundled().unwrap();
    let workload = RwSignal::new(Workload {
        model: "llama-3.1-70b".into(),
        weight_precision: Precision::Int4,
        ..Workload::default()
    });
    let root = mount_form(workload);
    settle().await;

    let sizable = catalog.models.iter().filter(|m| m.shape().is_some()).count();
    assert!(sizable >= 30, "{sizable}");
    // The model box's list: every model with a transformer shape, then
    // "Custom model…"; the box shows the workload's model by name.
    let options = texts(&root, "#model-list option");
    assert_eq!(options.len(), sizable + 1);
    assert_eq!(options.last().map(String::as_str), Some("Custom model…"));
    assert_eq!(texts(&root, "#wq option").len(), Precision::ALL.len());
    let model: web_sys::HtmlInputElement = element(&root, "#model");
    assert_eq!(model.value(), "Llama 3.1 70B");
    assert_eq!(model.get_attribute("list").as_deref(), Some("model-list"));
    // The task tabs: eight, the workload's chosen.
    assert_eq!(texts(&root, "[role=tab]").len(), 8);
    assert_eq!(texts(&root, "[role=tab][aria-selected=true]"), ["LLM serving"]);
    let precision: web_sys::HtmlSelectElement = element(&root, "#wq");
    assert_eq!(precision.value(), "int4");
    // Every input is labelled.
    assert_eq!(texts(&root, "label[for=model]"), ["Model"]);
    assert_eq!(texts(&root, "label[for=wq]"), ["Weight precision"]);
}

#[wasm_bindgen_test]
async fn choosing_a_precision_in_the_form_updates_the_workload() {
    let workload = RwSignal::new(Workload::default());
    let root = mount_form(workload);
    let precision: web_sys::HtmlSelectElement = element(&root, "#wq");
    precision.set_value("fp8");
    precision.dispatch_event(&web_sys::Event::new("change").unwrap()).unwrap();
    settle().await;
    assert_eq!(workload.get_untracked().weight_precision, Precision::Fp8);
}

#[wasm_bindgen_test]
async fn typing_a_model_name_or_one_model_s_words_picks_it() {
    let workload = RwSignal::new(Workload::default());
    let root = mount_form(workload);
    let model: web_sys::HtmlInputElement = element(&root, "#model");
    let type_in = |text: &str, event: &str| {
        model.set_value(text);
        model.dispatch_event(&web_sys::Event::new(event).unwrap()).unwrap();
    };
    // A whole name picks as it is typed.
    type_in("mixtral 8x7b v0.1", "input");
    settle().await;
    assert_eq!(workload.get_untracked().model, "mixtral-8x7b");
    assert_eq!(model.value(), "Mixtral 8x7B v0.1");
    // Words only one model holds pick it when committed (Enter, leaving);
    // ("qwen 72" alone also finds the Qwen2-VL and Qwen2.5-VL 72B models.)
    type_in("qwen2.5-72", "input");
    settle().await;
    assert_eq!(workload.get_untracked().model, "mixtral-8x7b");
    type_in("qwen2.5-72", "change");
    settle().await;
    assert_eq!(workload.get_untracked().model, "qwen2.5-72b");
    assert_eq!(model.value(), "Qwen2.5 72B");
    assert_eq!(texts(&root, "#model-error"), [""]);
}

#[wasm_bindgen_test]
async fn a_number_field_rejects_bad_input_next_to_the_field_and_keeps_the_workload() {
    let workload = RwSignal::new(Workload::default());
    let root = mount_form(workload);
    let conc: web_sys::HtmlInputElement = element(&root, "#conc");
    assert_eq!(texts(&root, "label[for=conc]"), ["Concurrent requests"]);
    // A text input, so that shorthand ("1.5k") and grouping reach the
    // codec, which holds the range: its message names it (issue 40).
    assert_eq!(conc.type_(), "text");

    conc.set_value("-3");
    conc.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(workload.get_untracked().concurrency, 1);
    assert_eq!(texts(&root, "#conc-error"), ["-3 is out of range (1 to 100,000)"]);
    assert_eq!(conc.get_attribute("aria-invalid").as_deref(), Some("true"));

    conc.set_value("64");
    conc.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(workload.get_untracked().concurrency, 64);
    assert_eq!(texts(&root, "#conc-error"), [""]);

    conc.set_value("1.5k");
    conc.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(workload.get_untracked().concurrency, 1500);
    assert_eq!(texts(&root, "#conc-error"), [""]);
    conc.set_value("200k");
    conc.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(workload.get_untracked().concurrency, 1500);
    assert_eq!(texts(&root, "#conc-error"), ["200k is out of range (1 to 100,000)"]);
}

#[wasm_bindgen_test]
async fn the_table_lists_fitting_offers_cheapest_first() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = Arc::new(test_snapshot());
    // Llama 3.1 70B in BF16 (131 GB) needs two or more 80 GB H100s.
    let workload = Workload { model: "llama-3.1-70b".into(), weight_precision: Precision::Bf16, ..Workload::default() };
    let report = rank(&workload, catalog, &snapshot).unwrap();
    let root = container();
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <OffersTable catalog=catalog snapshot=snapshot report=Ranked(Arc::new(report)) /> },
    )
    .forget();
    // Each row writes its cells once it is on the page.
    settle().await;

    let rows = texts(&root, "tbody tr td:nth-child(2)");
    assert_eq!(rows, ["gpu_2x_h100_sxm5", "gpu_8x_h100_sxm5"]);
    assert_eq!(texts(&root, "tbody tr:first-child td:nth-child(6)"), ["$6.38"]);
    // The speed estimate and its bound, then the job's time, cost and cost per unit.
    let speed = texts(&root, "tbody tr:first-child td:nth-child(7)");
    // One user: what the request gets, prefill included, and while streaming.
    assert!(speed[0].contains(" tok/s (") && speed[0].contains(" while streaming)"), "{speed:?}");
    assert!(speed[0].ends_with("-bound"), "{speed:?}");
    assert_eq!(texts(&root, "tbody tr:first-child td:nth-child(5)"), ["us-east-1 +2 more"]);
    assert_eq!(texts(&root, "caption"), ["2 of 3 offers hold this workload, cheapest per unit of output:"]);
    assert_eq!(texts(&root, "thead th").len(), 11);
}

/// Mounts a table that follows `report`, once its rows have written their
/// cells (an effect per row, after the rows are on the page).
async fn mount_table_following(report: RwSignal<Ranked>, snapshot: Arc<Snapshot>) -> web_sys::HtmlElement {
    let catalog = Catalog::bundled().unwrap();
    let root = container();
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <OffersTable catalog=catalog snapshot=snapshot report=report /> },
    )
    .forget();
    settle().await;
    root
}

#[wasm_bindgen_test]
async fn a_new_ranking_updates_the_rows_in_place() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = Arc::new(test_snapshot());
    let rank_for = |model: &str| {
        let workload = Workload { model: model.into(), weight_precision: Precision::Bf16, ..Workload::default() };
        Ranked(Arc::new(rank(&workload, catalog, &snapshot).unwrap()))
    };
    // Llama 3.1 70B needs two H100s or more; an 8B fits all three offers.
    let report = RwSignal::new(rank_for("llama-3.1-70b"));
    let root = mount_table_following(report, Arc::clone(&snapshot)).await;
    let first_row: web_sys::Element = element(&root, "tbody tr");
    let before = first_row.text_content().unwrap_or_default();
    assert_eq!(texts(&root, "tbody tr td:nth-child(2)"), ["gpu_2x_h100_sxm5", "gpu_8x_h100_sxm5"]);

    report.set(rank_for("llama-3.1-8b"));
    settle().await;
    // The same row element shows the new best offer; a row was added.
    assert!(first_row.is_connected());
    assert_ne!(first_row.text_content().unwrap_or_default(), before);
    assert_eq!(texts(&root, "tbody tr td:nth-child(2)").len(), 3);
    assert_eq!(texts(&root, "caption"), ["3 of 3 offers hold this workload, cheapest per unit of output:"]);
}

#[wasm_bindgen_test]
async fn a_new_ranking_rewrites_only_the_cells_whose_words_change() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = Arc::new(test_snapshot());
    let rank_for = |concurrency: u32| {
        let workload = Workload {
            model: "llama-3.1-70b".into(),
            weight_precision: Precision::Bf16,
            concurrency,
            ..Workload::default()
        };
        Ranked(Arc::new(rank(&workload, catalog, &snapshot).unwrap()))
    };
    let report = RwSignal::new(rank_for(1));
    let root = mount_table_following(report, Arc::clone(&snapshot)).await;
    let instance: web_sys::Element = element(&root, "tbody tr:first-child td:nth-child(2)");
    let instance_words = instance.first_child().unwrap();
    let speed_before = texts(&root, "tbody tr:first-child td:nth-child(7)");

    // More users: the same offer leads, faster in total.
    report.set(rank_for(8));
    settle().await;
    assert_eq!(texts(&root, "tbody tr:first-child td:nth-child(2)"), ["gpu_2x_h100_sxm5"]);
    assert_ne!(texts(&root, "tbody tr:first-child td:nth-child(7)"), speed_before);
    // The instance did not change, so its words are the same text node.
    assert!(instance.first_child().unwrap().is_same_node(Some(&instance_words)));
}

#[wasm_bindgen_test]
async fn the_table_speaks_spanish_with_spanish_numbers() {
    let catalog = Catalog::bundled().unwrap();
    let snapshot = Arc::new(test_snapshot());
    let workload = Workload { model: "llama-3.1-70b".into(), weight_precision: Precision::Bf16, ..Workload::default() };
    let report = rank(&workload, catalog, &snapshot).unwrap();
    let root = container();
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(Lang::Es);
        view! { <OffersTable catalog=catalog snapshot=snapshot report=Ranked(Arc::new(report)) /> }
    })
    .forget();
    // Each row writes its cells once it is on the page.
    settle().await;
    // CLDR Spanish: decimal comma, the currency after the figure.
    assert_eq!(texts(&root, "tbody tr:first-child td:nth-child(6)"), ["6,38\u{a0}US$"]);
    assert_eq!(texts(&root, "tbody tr:first-child td:nth-child(5)"), ["us-east-1 y 2 más"]);
    let speed = texts(&root, "tbody tr:first-child td:nth-child(7)");
    assert!(speed[0].contains(" al emitir)") && speed[0].contains("limitado por"), "{speed:?}");
    assert_eq!(texts(&root, "caption"), ["2 de 3 ofertas admiten esta carga; orden: más barato por unidad producida:"]);
    assert_eq!(texts(&root, "thead th")[..3], ["Proveedor", "Instancia", "GPU"]);
    assert_eq!(texts(&root, "[data-testid=export-csv]"), ["Descargar CSV"]);
}

#[wasm_bindgen_test]
async fn the_form_validates_in_spanish() {
    let workload = RwSignal::new(Workload::default());
    let catalog = Catalog::bundled().unwrap();
    let root = container();
    leptos::mount::mount_to(root.clone(), move || {
        provide_context(Lang::Es);
        view! { <WorkloadForm catalog=catalog workload=workload unapplied_model=RwSignal::new(None) /> }
    })
    .forget();
    assert_eq!(texts(&root, "label[for=conc]"), ["Peticiones simultáneas"]);
    let conc: web_sys::HtmlInputElement = element(&root, "#conc");
    conc.set_value("-3");
    conc.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    settle().await;
    assert_eq!(texts(&root, "#conc-error"), ["-3 está fuera de rango (1 a 100.000)"]);
    assert_eq!(workload.get_untracked().concurrency, 1);
}

#[wasm_bindgen_test]
async fn without_offer_data_the_app_says_why_and_still_sizes_the_weights() {
    // The test page serves no data/offers.json: the app must show the error
    // with a retry, and the memory sizing must still work.
    let root = container();
    let catalog = Ok(Catalog::bundled().unwrap());
    leptos::mount::mount_to(root.clone(), move || App(AppProps { catalog })).forget();
    assert_eq!(texts(&root, "[data-testid=loading]"), ["Loading offers…"]);
    for _ in 0..40 {
        settle().await;
        if !texts(&root, "[data-testid=load-error]").is_empty() {
            break;
        }
    }
    let error = texts(&root, "[data-testid=load-error] p").join("");
    assert!(error.starts_with("offer data could not be"), "{error}");
    assert_eq!(texts(&root, "[data-testid=load-error] button"), ["Retry"]);
    let memory = texts(&root, "[data-testid=memory-summary]").join("");
    assert!(memory.starts_with("Memory on one GPU: 16.4 GiB (weights 15 GiB"), "{memory}");
}

#[wasm_bindgen_test]
async fn without_a_catalog_the_app_says_why_and_offers_to_retry() {
    let root = container();
    let catalog = Err(whichgpu::engine::Error::Catalog("expected value at line 1 column 1".into()).message());
    leptos::mount::mount_to(root.clone(), move || App(AppProps { catalog })).forget();
    assert_eq!(
        texts(&root, "[data-testid=catalog-error] p"),
        ["the GPU and model catalog could not be read: expected value at line 1 column 1"]
    );
    assert_eq!(texts(&root, "[data-testid=catalog-error] button"), ["Retry"]);
    // Nothing else is built without it.
    assert!(texts(&root, "form, [data-testid=memory-summary]").is_empty());
}

#[wasm_bindgen_test]
async fn the_snapshot_info_shows_the_date_and_each_providers_sources() {
    let snapshot = Arc::new(test_snapshot());
    let root = container();
    leptos::mount::mount_to(root.clone(), move || view! { <SnapshotInfo snapshot=snapshot /> }).forget();
    assert_eq!(texts(&root, "[data-testid=snapshot-date]"), ["2026-09"]);
    // The sources table is built when the list is first opened.
    assert!(texts(&root, "[data-testid=provider-freshness] tbody tr").is_empty());
    element::<web_sys::HtmlElement>(&root, "[data-testid=snapshot-info] summary").click();
    for _ in 0..20 {
        if !texts(&root, "[data-testid=provider-freshness] tbody tr").is_empty() {
            break;
        }
        settle().await;
    }
    let rows = texts(&root, "[data-testid=provider-freshness] tbody tr");
    assert_eq!(rows, ["Lambda2026-09t"]);
}

#[wasm_bindgen_test]
async fn a_resellers_offer_names_the_cloud_behind_it() {
    let catalog = Catalog::bundled().unwrap();
    let mut snapshot = test_snapshot();
    snapshot.offers[1].underlying_cloud = Some("lambdalabs".into());
    let snapshot = Arc::new(snapshot);
    let report = rank(&Workload::default(), catalog, &snapshot).unwrap();
    let root = container();
    leptos::mount::mount_to(
        root.clone(),
        move || view! { <OffersTable catalog=catalog snapshot=snapshot report=Ranked(Arc::new(report)) /> },
    )
    .forget();
    // Each row writes its cells once it is on the page.
    settle().await;
    assert_eq!(texts(&root, "tbody tr:first-child td:first-child .provider"), ["Lambda · lambdalabs"]);
}
