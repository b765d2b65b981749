//! The `whichgpu` command line, run as a user runs it.
#![cfg(not(target_arch = "wasm32"))]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn whichgpu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_whichgpu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run whichgpu")
}

fn shared_data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Runs `args`, which must fail with a message containing `expected`.
fn assert_fails_with(args: &[&str], expected: &str) {
    let output = whichgpu(args);
    assert!(!output.status.success(), "{args:?}");
    assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn rank_takes_the_pages_query_and_answers_in_json() {
    let output = whichgpu(&["rank", "--config", "v=1&model=llama-3.1-70b&wq=bf16", "--top", "3", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["workload"]["model"], "llama-3.1-70b");
    // 70,553,706,496 parameters × 2 bytes (models.csv).
    assert_eq!(json["memory"]["weights_bytes"], 141_107_412_992.0);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    // Serving ranks by $/1M output tokens by default.
    assert_eq!(json["objective"], "unit");
    let per_unit: Vec<f64> = results.iter().map(|r| r["cost_per_unit"].as_f64().unwrap()).collect();
    assert!(per_unit.windows(2).all(|w| w[0] <= w[1]), "{per_unit:?}");
    for result in results {
        assert_eq!(result["unit"], "million_output_tokens");
        assert_eq!(result["spot"], false);
        for key in
            ["provider", "instance", "region", "gpu", "job_hours", "billed_hours", "job_cost", "badges", "pareto"]
        {
            assert!(!result[key].is_null(), "{key} missing in {result}");
        }
    }
    assert!(json["advice"].as_array().unwrap().len() >= 2);
    let excluded = json["excluded"].as_array().unwrap();
    assert!(excluded.iter().any(|e| e["reason"].as_str().unwrap().starts_with("needs ")));
    for result in results {
        let total = result["vram_gb"].as_f64().unwrap() * result["gpu_count"].as_f64().unwrap();
        assert!(total * 1_073_741_824.0 >= 141_107_412_992.0, "{result}");
    }
    assert!(json["snapshot"]["date"].as_str().unwrap().starts_with("20"));
}

#[test]
fn rank_says_when_no_single_node_holds_the_workload() {
    // A 2-trillion-parameter custom model in FP32 (7.3 TiB) exceeds every
    // node: only clusters serve it, with vLLM (issue 24)…
    let query = "model=custom&params=2e12&layers=200&hidden=32768&wq=fp32";
    let output = whichgpu(&["rank", "--config", query, "--json", "--top", "1000"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let results = json["results"].as_array().unwrap();
    assert!(!results.is_empty());
    for row in results {
        assert!(row["nodes"].as_u64().unwrap() > 1, "{row}");
        assert_eq!(
            row["total_gpus"].as_u64().unwrap(),
            row["nodes"].as_u64().unwrap() * row["gpu_count"].as_u64().unwrap()
        );
        assert!(row["fabric"]["multi_node"] == "yes", "{row}");
    }
    // …and nothing serves it with llama.cpp, which does not span nodes.
    let output = whichgpu(&["rank", "--config", &format!("{query}&runtime=llamacpp"), "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["fitting"], 0);
    let note = json["no_single_node"].as_str().unwrap();
    assert!(note.starts_with("No single node holds this workload: even "), "{note}");
    let reasons: Vec<&str> = json["excluded"].as_array().unwrap().iter().filter_map(|e| e["reason"].as_str()).collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.ends_with("llama.cpp does not serve one model across nodes (vLLM and TensorRT-LLM do)")),
        "{reasons:?}"
    );
}

#[test]
fn rank_under_lenient_reports_bad_query_values_and_still_answers() {
    let output = whichgpu(&["rank", "--config", "wq=fp7", "--lenient"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("note: wq: unknown precision \"fp7\""), "{text}");
    assert!(text.contains("llama-3.1-8b at bf16"), "{text}");
}

#[test]
fn a_config_value_the_page_would_not_apply_ends_the_command_with_status_2() {
    // Issue 41: a script gets no confident answer to a question nobody
    // asked. The page's own words say what it would have done instead.
    let cases: [(&[&str], &str); 6] = [
        (&["rank", "--config", "model=not-a-model"], "model: unknown model \"not-a-model\" (nearest: "),
        (&["rank", "--config", "model=llama-3.1-7b"], "(nearest: llama-3.1-8b, llama-3.1-70b, "),
        (&["rank", "--config", "conc=-5"], "conc: -5 is out of range (1 to 100,000); using 1"),
        (&["rank", "--config", "in=abc"], "in: \"abc\" is not a whole number (1 to 10,000,000); using 2048"),
        (&["estimate", "--config", "task=video&model=cogvideox1.5-5b", "--gpu", "h100_sxm"], "model: "),
        (&["url", "--config", "model=llama-3.1-70b&foo=1"], "unknown setting \"foo\" ignored"),
    ];
    for (args, expected) in cases {
        let output = whichgpu(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains(expected), "{args:?}: {}", stderr(&output));
        assert!(stderr(&output).contains("--lenient"), "{args:?}: {}", stderr(&output));
        assert_eq!(stdout(&output), "", "{args:?}");
    }
    // Under --json the error is the document on standard output.
    let output = whichgpu(&["rank", "--config", "model=not-a-model", "--json"]);
    assert_eq!(output.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(json["error"].as_str().unwrap().contains("unknown model \"not-a-model\""), "{json}");
    // Other failures keep status 1.
    assert_eq!(whichgpu(&["rank", "--top", "many"]).status.code(), Some(1));
}

#[test]
fn estimate_gives_the_memory_breakdown_and_the_fit_as_json() {
    // Llama 3.1 70B in BF16 on 2× H100 under vLLM: 131 GiB of weights split in
    // two fits the 72 GiB each GPU may use (product brief: 70B → 80 GB × 2).
    let query = "model=llama-3.1-70b&wq=bf16&in=4096&out=1024&conc=4";
    let output = whichgpu(&["estimate", "--config", query, "--gpu", "h100_sxm", "--count", "2", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let memory = &json["memory"];
    for key in [
        "weights_bytes",
        "kv_cache_bytes",
        "activations_bytes",
        "gradients_bytes",
        "optimizer_bytes",
        "adapters_bytes",
        "overhead_bytes",
        "total_bytes",
        "per_gpu_bytes",
    ] {
        assert!(memory[key].as_f64().is_some_and(f64::is_finite), "memory.{key}: {memory}");
    }
    assert_eq!(memory["weights_bytes"], 141_107_412_992.0);
    // 327,680 bytes per token (models.csv) × 5,120 tokens × 4 sequences.
    assert_eq!(memory["kv_cache_bytes"], 327_680.0 * 5120.0 * 4.0);
    assert_eq!(json["fits"], true);
    // Little room is left beside 66 GiB of weights per GPU: a handful of
    // 5k-token chats, not dozens.
    let max = json["max_concurrency"].as_u64().unwrap();
    assert!((4..16).contains(&max), "{max}");

    let one = whichgpu(&["estimate", "--config", query, "--gpu", "h100_sxm", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&one)).unwrap();
    assert_eq!(json["fits"], false);
    assert!(json["reason"].as_str().unwrap().starts_with("needs 1"), "{json}");
}

#[test]
fn estimate_refuses_unknown_gpus_and_impossible_counts() {
    for (args, expected) in [
        (&["estimate", "--gpu", "rtx_9999"][..], "unknown GPU \"rtx_9999\""),
        (&["estimate", "--gpu", "h100_sxm", "--count", "0"][..], "--count: \"0\" is not a GPU count"),
        (&["estimate", "--gpu", "h100_sxm", "--count", "-2"][..], "--count: \"-2\" is not a GPU count"),
        (&["estimate"][..], "estimate needs --gpu"),
        (&["estimate", "--gpu", "h100_sxm", "--count", "2048"][..], "one node holds at most 1024 GPUs"),
        (&["estimate", "--gpu", "h100_sxm", "--count", "20", "--node-gpus", "8"][..], "not a whole number of nodes"),
        (
            &["estimate", "--gpu", "h100_sxm", "--count", "16", "--node-gpus", "8", "--internode-gbps", "fast"][..],
            "--internode-gbps: \"fast\" is not a bandwidth",
        ),
    ] {
        assert_fails_with(args, expected);
    }
}

#[test]
fn estimate_times_a_cluster_by_its_fabric() {
    // Llama 3.1 70B pretraining with FSDP on 256 H100s in 32 nodes (issue
    // 24): over p5's 3,200 Gbit/s EFA it is compute-bound and takes days.
    // With the fabric unstated it is timed over the fabric 8 × H100 nodes are
    // documented with in the offers (issue 37); nodes no offer documents
    // (8 × RTX 4090) are timed at 100 Gbit/s, interconnect-bound, and say so.
    let run_on = |gpu: &'static str, extra: &[&str]| {
        let mut args = vec!["estimate", "--config", "task=pretrain&model=llama-3.1-70b&zero=3&tokens=1e11"];
        args.extend(["--gpu", gpu, "--count", "256", "--node-gpus", "8", "--json"]);
        args.extend(extra);
        let output = whichgpu(&args);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str::<serde_json::Value>(&stdout(&output)).unwrap()
    };
    let run = |extra: &[&str]| run_on("h100_sxm", extra);
    let efa = run(&["--internode-gbps", "3200", "--fabric", "EFA"]);
    assert_eq!(efa["nodes"], 32);
    assert_eq!(efa["internode_gbps"], 3200.0);
    assert_eq!(efa["speed"]["bound"], "compute");
    let days = efa["job"]["hours"].as_f64().unwrap() / 24.0;
    assert!((0.1..5.0).contains(&days), "{days}");
    assert!(efa["internode_documented_by_offers"].is_null());
    let documented = run(&[]);
    let gbps = documented["internode_gbps"].as_f64().unwrap();
    assert!((400.0..=3200.0).contains(&gbps), "{gbps}");
    assert!(documented["internode_documented_by_offers"].as_u64().unwrap() >= 5, "{documented}");
    assert!(!documented["speed"]["notes"].to_string().contains("timed at 100 Gbit/s"));
    let unstated = run_on("rtx_4090", &[]);
    assert_eq!(unstated["speed"]["bound"], "interconnect");
    assert!(unstated["internode_gbps"].is_null());
    let notes = unstated["speed"]["notes"].to_string();
    assert!(notes.contains("timed at 100 Gbit/s per node"), "{notes}");
    // Slower fabric, longer job: documented nodes between the stated EFA and 100 Gbit/s.
    let at_100 = run(&["--internode-gbps", "100"]);
    let hours = |v: &serde_json::Value| v["job"]["hours"].as_f64().unwrap();
    assert!(hours(&at_100) > 5.0 * hours(&efa));
    assert!(hours(&documented) >= hours(&efa) && hours(&documented) < hours(&at_100));
}

#[test]
fn usage_errors_name_the_problem_and_fail() {
    for (args, expected) in [
        (&["frobnicate"][..], "unknown command \"frobnicate\""),
        (&["rank", "--top", "many"][..], "--top: \"many\" is not a count"),
        (&["rank", "--config"][..], "--config needs a value"),
        (&["snapshot", "--out", "x"][..], "snapshot needs --from"),
        (&["rank", "--offers", "/nonexistent/offers.json"][..], "/nonexistent/offers.json"),
    ] {
        assert_fails_with(args, expected);
    }
}

#[test]
fn a_damaged_offer_file_gives_the_loaders_message() {
    let dir = std::env::temp_dir().join(format!("whichgpu-cli-damaged-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("offers.json");
    std::fs::write(&file, r#"{"schema_version": 1, "offers": ["#).unwrap();
    let output = whichgpu(&["rank", "--offers", file.to_str().unwrap()]);
    assert!(!output.status.success());
    assert!(stderr(&output).contains("offer data could not be read: the file is damaged"), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_snapshot_builder_is_deterministic_and_matches_the_committed_data() {
    // As the README says to build it, from the repository's root: the offer
    // files a merged refresh committed (data/fetched, when it holds
    // FETCHED.json), else ../shared/data's.
    let base = std::env::temp_dir().join(format!("whichgpu-cli-snapshot-{}", std::process::id()));
    let (a, b) = (base.join("a"), base.join("b"));
    let mut said = String::new();
    for out in [&a, &b] {
        let output = whichgpu(&["snapshot", "--from", shared_data().to_str().unwrap(), "--out", out.to_str().unwrap()]);
        assert!(output.status.success(), "{}", stderr(&output));
        said = stdout(&output);
        assert!(said.contains("offers from") && said.contains("(offer files from "), "{said}");
    }
    let offers = said.rsplit("(offer files from ").next().unwrap_or_default().trim().trim_end_matches(')');
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("public/data");
    for file in ["offers.json", "catalog.json", "es.json", "SUMMARY.md"] {
        let first = std::fs::read(a.join(file)).unwrap();
        // Compared as booleans: a failing assert_eq! would print megabytes.
        assert!(first == std::fs::read(b.join(file)).unwrap(), "{file} differs between two runs");
        assert!(
            first == std::fs::read(committed.join(file)).unwrap(),
            "public/data/{file} is stale (built with the offer files from {offers}): run \
             `cargo run -- snapshot --from ../shared/data --out public/data` from the repository's root"
        );
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn the_committed_snapshot_follows_its_documented_json_schema() {
    // Every key the builder writes is described in docs/offers.schema.json, and
    // every key the schema requires is written.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("docs/offers.schema.json")).unwrap()).unwrap();
    let snapshot: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("public/data/offers.json")).unwrap()).unwrap();
    let check = |value: &serde_json::Value, object_schema: &serde_json::Value, what: &str| {
        let properties = object_schema["properties"].as_object().unwrap();
        let object = value.as_object().unwrap();
        for key in object.keys() {
            assert!(properties.contains_key(key), "{what} key \"{key}\" is not in the schema");
        }
        for key in object_schema["required"].as_array().unwrap() {
            assert!(object.contains_key(key.as_str().unwrap()), "{what} lacks required \"{key}\"");
        }
    };
    check(&snapshot, &schema, "snapshot");
    for list in ["sources", "providers", "offers", "fabrics"] {
        let item_schema = &schema["properties"][list]["items"];
        for item in snapshot[list].as_array().unwrap() {
            check(item, item_schema, list);
        }
    }
    assert_eq!(snapshot["schema_version"], schema["properties"]["schema_version"]["const"]);
}

#[test]
fn the_snapshot_covers_every_provider_of_the_catalogs() {
    // Issue 3: 25+ providers, with resellers' clouds named.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("public/data/offers.json")).unwrap();
    let snapshot = whichgpu::engine::Snapshot::from_json(&text).unwrap();
    let providers: std::collections::BTreeSet<&str> = snapshot.offers.iter().map(|o| o.provider.as_str()).collect();
    for expected in ["aws", "gcp", "azure", "oci", "runpod", "lambda", "vast", "nebius", "shadeform", "spheron"] {
        assert!(providers.contains(expected), "no offers from {expected}");
    }
    assert!(providers.len() >= 25, "{} providers: {providers:?}", providers.len());
    let behind_shadeform: std::collections::BTreeSet<&str> = snapshot
        .offers
        .iter()
        .filter(|o| o.provider == "shadeform")
        .filter_map(|o| o.underlying_cloud.as_deref())
        .collect();
    assert!(behind_shadeform.contains("lambdalabs") && behind_shadeform.contains("nebius"), "{behind_shadeform:?}");
}

#[test]
fn an_unknown_gpu_name_fails_the_build_with_the_list_of_names() {
    // Copy ../shared/data, slip an accelerator no rule knows into one catalog,
    // and the builder must refuse, naming it, rather than drop the row.
    let base = std::env::temp_dir().join(format!("whichgpu-cli-unmapped-{}", std::process::id()));
    copy_dir(&shared_data(), &base);
    let lambda = base.join("offers/skypilot_v8/lambda_vms.csv");
    let mut text = std::fs::read_to_string(&lambda).unwrap();
    text.push_str("gpu_1x_voodoo,Voodoo5-6000,1.0,4.0,16.0,0.5,us-east-1,,\n");
    std::fs::write(&lambda, text).unwrap();
    let out = base.join("out");
    // The edited copy's own offer files, even where a refresh keeps its own
    // in data/fetched.
    let from = base.to_str().unwrap();
    let output = whichgpu(&["snapshot", "--from", from, "--offers", from, "--out", out.to_str().unwrap()]);
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(message.contains("skypilot-v8-lambda: \"Voodoo5-6000\" (1 rows)"), "{message}");
    assert!(message.contains("gpu_names.rs"), "{message}");
    assert!(!out.join("offers.json").exists(), "nothing is written on failure");
    std::fs::remove_dir_all(&base).unwrap();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
            // ../shared is read-only; the copy must be writable.
            let mut permissions = std::fs::metadata(&target).unwrap().permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            permissions.set_readonly(false);
            std::fs::set_permissions(&target, permissions).unwrap();
        }
    }
}

#[test]
fn estimate_sizes_image_video_and_audio_jobs() {
    let estimate = |config: &str, gpu: &str| -> serde_json::Value {
        let output = whichgpu(&["estimate", "--config", config, "--gpu", gpu, "--json"]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    // FLUX.1-dev in BF16: 16,870,599,139 parameters × 2 bytes of weights
    // (models.csv components), more than a 24 GB card holds; with the text
    // encoders offloaded and FP8 weights it fits.
    let flux = estimate("task=image&model=flux.1-dev", "rtx_4090");
    assert_eq!(flux["memory"]["weights_bytes"], 33_741_198_278.0);
    assert_eq!(flux["fits"], false);
    assert!(flux["reason"].as_str().unwrap().starts_with("needs 3"), "{flux}");
    let small = estimate("task=image&model=flux.1-dev&wq=fp8&offload=text", "rtx_4090");
    assert_eq!(small["fits"], true, "{small}");
    // HunyuanVideo at 720p fits one 80 GB card, and spreads over eight.
    let video = estimate("task=video&model=hunyuanvideo&res=1280x720&frames=129", "h100_sxm");
    assert_eq!(video["fits"], true);
    let output = whichgpu(&[
        "estimate",
        "--config",
        "task=video&model=hunyuanvideo",
        "--gpu",
        "h100_sxm",
        "--count",
        "8",
        "--json",
    ]);
    let eight: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(eight["memory"]["per_gpu_bytes"].as_f64() < video["memory"]["per_gpu_bytes"].as_f64());
    // Whisper large-v3 fits a 16 GB T4 with room to spare; its KV cache is counted.
    let whisper = estimate("task=audio&batch=8", "t4");
    assert_eq!(whisper["fits"], true);
    assert!(whisper["memory"]["kv_cache_bytes"].as_f64().unwrap() > 1e9, "{whisper}");
    // A model of the wrong kind is named: an error, or under --lenient the
    // task's own model, said.
    let wrong_kind = "Whisper large (v3 is the current 'large') is not a text LLM; using llama-3.1-8b";
    let output = whichgpu(&["estimate", "--config", "model=whisper-large-v3", "--gpu", "h100_sxm"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(wrong_kind), "{}", stderr(&output));
    let output = whichgpu(&["estimate", "--config", "model=whisper-large-v3", "--gpu", "h100_sxm", "--lenient"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains(wrong_kind), "{}", stdout(&output));
}

#[test]
fn estimate_reports_speed_and_the_jobs_hours() {
    let estimate = |config: &str, gpu: &str, count: &str| -> serde_json::Value {
        let output = whichgpu(&["estimate", "--config", config, "--gpu", gpu, "--count", count, "--json"]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    // One sequence of Llama 3.1 8B in BF16 on an H100: memory-bound decode
    // (16 GB of weights per token at 3.35 TB/s is at most ~200 tokens/s).
    let serving = estimate("model=llama-3.1-8b", "h100_sxm", "1");
    let speed = &serving["speed"];
    assert_eq!(speed["bound"], "memory");
    let decode = speed["decode_tokens_per_s"].as_f64().unwrap();
    assert!((80.0..210.0).contains(&decode), "{decode}");
    assert_eq!(speed["running_concurrency"], 1);
    assert!(speed["prefill_tokens_per_s"].as_f64().unwrap() > 10.0 * decode);
    assert!(speed["ttft_s"].as_f64().unwrap() > 0.0);
    assert!(serving["job"]["hours"].as_f64().unwrap() > 0.0);
    // More concurrency raises the total, not the per-sequence speed (each
    // sequence's 0.3 GB of cache is read every step too).
    let busy = estimate("model=llama-3.1-8b&conc=64", "h100_sxm", "1");
    assert!(busy["speed"]["output_tokens_per_s"].as_f64().unwrap() > 10.0 * decode);
    assert!(busy["speed"]["decode_tokens_per_s"].as_f64().unwrap() < decode);
    // Training reports tokens/s over all GPUs, MFU and the job's hours for
    // tokens × epochs.
    let training = estimate("task=finetune&method=lora&tokens=1e8&epochs=2", "a100_sxm_80gb", "1");
    let tokens_per_s = training["speed"]["train_tokens_per_s"].as_f64().unwrap();
    let mfu = training["speed"]["mfu"].as_f64().unwrap();
    assert!((0.2..0.7).contains(&mfu), "{mfu}");
    let hours = training["job"]["hours"].as_f64().unwrap();
    assert!((hours - 2e8 / tokens_per_s / 3600.0).abs() < 1e-6, "{hours}");
    assert_eq!(training["job"]["epochs"], 2);
    let eight = estimate("task=finetune&method=lora&gpus=8", "a100_sxm_80gb", "8");
    assert!(eight["speed"]["train_tokens_per_s"].as_f64().unwrap() > 6.0 * tokens_per_s);
    // Images: seconds per image, and the job's hours for n images; eight
    // GPUs run eight pipelines.
    let image = estimate("task=image&n=1000", "rtx_4090", "1");
    let per_image = image["speed"]["seconds_per_image"].as_f64().unwrap();
    assert!(image["speed"]["steps_per_s"].as_f64().unwrap() > 0.0);
    assert!((image["job"]["hours"].as_f64().unwrap() - 1000.0 * per_image / 3600.0).abs() < 1e-6);
    assert_eq!(image["job"]["n"], 1000);
    let eight_cards = estimate("task=image&n=1000", "rtx_4090", "8");
    assert!((eight_cards["speed"]["seconds_per_image"].as_f64().unwrap() * 8.0 - per_image).abs() < 1e-6 * per_image);
    // Audio: a real-time factor well below 1 on a datacenter GPU, and hours
    // of processing for the hours of audio.
    let audio = estimate("task=audio&hours=100", "a100_sxm_80gb", "1");
    let factor = audio["speed"]["realtime_factor"].as_f64().unwrap();
    assert!(factor > 0.0 && factor < 0.2, "{factor}");
    assert!((audio["job"]["hours"].as_f64().unwrap() - 100.0 * factor).abs() < 1e-6);
    assert_eq!(audio["job"]["audio_hours"], 100.0);
}

#[test]
fn rank_ranks_a_batch_job_by_its_whole_cost_with_spot_and_filters() {
    let output =
        whichgpu(&["rank", "--config", "task=image&model=sdxl-base-1.0&n=10000&max_ph=5", "--top", "20", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(json["objective"], "cost");
    let results = json["results"].as_array().unwrap();
    let costs: Vec<f64> = results.iter().map(|r| r["job_cost"].as_f64().unwrap()).collect();
    assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
    // Batch generation may use spot capacity, and the unit is 1,000 images.
    assert!(results.iter().any(|r| r["spot"] == true));
    assert!(results.iter().all(|r| r["unit"] == "thousand_images" && r["price_per_hour"].as_f64().unwrap() <= 5.0));
    for r in results {
        let per_unit = r["cost_per_unit"].as_f64().unwrap();
        assert!((per_unit - r["job_cost"].as_f64().unwrap() / 10.0).abs() < 1e-6 * per_unit.max(1.0));
    }
    assert!(results.iter().any(|r| r["pareto"] == true));
    let over = json["excluded"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["reason"] == "outside your filters: more than $5.00/h")
        .count();
    assert!(over > 100, "{over}");
}

#[test]
fn rank_keeps_only_the_gpus_the_gpu_filter_names() {
    let output = whichgpu(&["rank", "--config", "gpu=H100,mi300x", "--top", "500", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let gpus: Vec<&str> = json["results"].as_array().unwrap().iter().map(|r| r["gpu"].as_str().unwrap()).collect();
    assert!(gpus.iter().any(|g| g.starts_with("h100")) && gpus.contains(&"mi300x"), "{gpus:?}");
    assert!(gpus.iter().all(|g| g.starts_with("h100") || *g == "mi300x"), "{gpus:?}");
    let reason = "outside your filters: a GPU matching none of \"h100, mi300x\"";
    assert!(json["excluded"].as_array().unwrap().iter().any(|e| e["reason"] == reason));
}

#[test]
fn url_prints_the_canonical_share_link_for_docs() {
    // Keys in the page's order, defaults left out, the language kept.
    let output = whichgpu(&[
        "url",
        "--config",
        "conc=32&lang=es&model=llama-3.1-70b&wq=bf16",
        "--base",
        "https://example.org/whichgpu/",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "https://example.org/whichgpu/?v=1&model=llama-3.1-70b&conc=32&lang=es\n");
    // The default workload is the bare page.
    assert_eq!(stdout(&whichgpu(&["url", "--config", "", "--base", "https://example.org/"])), "https://example.org/\n");
    assert_eq!(stdout(&whichgpu(&["url", "--config", "task=image&n=10000"])), "?v=1&task=image&n=10000\n");
    // A link that would drop a setting is an error naming it.
    assert_fails_with(&["url", "--config", "conc=-3&model=llama-3.1-70b"], "conc: -3 is out of range");
    assert_fails_with(&["url", "--config", "wq=fp7"], "wq: unknown precision \"fp7\"");
}

#[test]
fn rank_compares_the_visitors_gpu_with_renting() {
    // The same verdict the page's "Your GPU" shows, in text and as `local`.
    let output = whichgpu(&["rank", "--config", "model=llama-3.1-8b&mygpu=rtx_4090", "--top", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let verdict = text.lines().last().unwrap();
    assert!(verdict.starts_with("your GPU (rtx_4090): Runs on your GeForce RTX 4090"), "{verdict}");
    let output = whichgpu(&["rank", "--config", "model=llama-3.1-70b&mygpu=rtx_4090", "--top", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let local = &json["local"];
    assert_eq!((local["gpu"].as_str(), local["fits"].as_bool()), (Some("rtx_4090"), Some(false)));
    // gpus.csv: 450 W at the default $0.16/kWh.
    assert!((local["price_per_hour"].as_f64().unwrap() - 0.072).abs() < 1e-9);
    assert!(local["verdict"][0].as_str().unwrap().starts_with("Needs "), "{local}");
    // Without `mygpu` there is no comparison.
    let output = whichgpu(&["rank", "--config", "model=llama-3.1-8b", "--top", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(json["local"].is_null());
}

/// Issue 25: a model file sizes the same as the link it makes, so a
/// shared link needs no file.
#[test]
fn a_model_file_and_the_link_it_makes_size_the_same() {
    for config in ["qwen3-30b-a3b.json", "deepseek-v3.json", "gemma-2-9b-it.json", "gpt-oss-120b.json"] {
        let path = format!("tests/fixtures/model_configs/{config}");
        let link = whichgpu(&["url", "--model-config", &path]);
        assert!(link.status.success(), "{config}: {}", stderr(&link));
        let query = stdout(&link).trim().trim_start_matches('?').to_string();
        assert!(query.contains("model=custom"), "{query}");
        let from_file = whichgpu(&["estimate", "--model-config", &path, "--gpu", "h200_sxm", "--count", "8", "--json"]);
        let from_link = whichgpu(&["estimate", "--config", &query, "--gpu", "h200_sxm", "--count", "8", "--json"]);
        assert!(from_file.status.success(), "{config}: {}", stderr(&from_file));
        assert_eq!(stdout(&from_file), stdout(&from_link), "{config}");
    }
    // gpt-oss ships MXFP4 experts: its weights are sized as such unless `wq` says otherwise.
    let oss = whichgpu(&["url", "--model-config", "tests/fixtures/model_configs/gpt-oss-120b.json"]);
    assert!(stdout(&oss).contains("wq=mxfp4"), "{}", stdout(&oss));
    let asked =
        whichgpu(&["url", "--config", "wq=bf16", "--model-config", "tests/fixtures/model_configs/gpt-oss-120b.json"]);
    assert!(!stdout(&asked).contains("wq=mxfp4"), "{}", stdout(&asked));
    // A file that is not a model says so, and what to give.
    assert_fails_with(&["url", "--model-config", "README.md"], "not valid JSON");
    assert_fails_with(&["url", "--model-config", "no/such/file.json"], "no/such/file.json");
}

/// Issue 26's two queries: an audio link with MusicGen ranks music
/// generation, and LLaVA 1.5 ranks as a vision-language model with its
/// tower, its image's 576 tokens and a cost per 1,000 images described;
/// twice the clip is about twice the work.
#[test]
fn vision_language_and_audio_generation_rank_what_was_asked() {
    let rank = |config: &str| -> serde_json::Value {
        let output = whichgpu(&["rank", "--config", config, "--json", "--top", "3"]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    let music = rank("task=audio&model=musicgen-large");
    assert_eq!(music["workload"]["task"], "music", "{}", music["workload"]);
    assert_eq!(music["workload"]["model"], "musicgen-large");
    assert!(music["notes"].as_array().is_none_or(|n| n.is_empty()), "{}", music["notes"]);
    let best = &music["results"][0];
    assert_eq!(best["unit"], "audio_hour", "{best}");
    assert!(best["speed"]["realtime_factor"].as_f64().unwrap() > 0.0, "{best}");

    let llava = rank("model=llava-1.5-7b");
    assert!(llava["notes"].as_array().is_none_or(|n| n.is_empty()), "{}", llava["notes"]);
    // Llama-2-7B shape with 32,064 tokens (6,738,939,904) and CLIP ViT-L/14-336
    // with its projector (324,487,168), at 2 bytes each.
    assert_eq!(llava["memory"]["weights_bytes"].as_f64().unwrap(), (6_738_939_904.0 + 324_487_168.0) * 2.0);
    let best = &llava["results"][0];
    assert!(best["cost_per_thousand_images"].as_f64().unwrap() > 0.0, "{best}");

    let estimate = |config: &str| -> serde_json::Value {
        let output = whichgpu(&["estimate", "--config", config, "--gpu", "l40s", "--json"]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str(&stdout(&output)).unwrap()
    };
    let seconds = |config: &str| estimate(config)["speed"]["seconds_per_clip"].as_f64().unwrap();
    let ratio = seconds("task=music&model=musicgen-large&secs=20") / seconds("task=music&model=musicgen-large&secs=10");
    assert!((1.9..2.1).contains(&ratio), "{ratio}");
    // More images, more KV cache and a longer first token.
    let one = estimate("model=qwen2-vl-7b&imgs=1");
    let four = estimate("model=qwen2-vl-7b&imgs=4");
    assert!(four["memory"]["kv_cache_bytes"].as_f64() > one["memory"]["kv_cache_bytes"].as_f64());
    assert!(four["speed"]["ttft_s"].as_f64() > one["speed"]["ttft_s"].as_f64());
}

#[test]
fn rank_says_first_how_old_the_prices_are_past_thirty_days() {
    // Issue 27: 90 days after the snapshot's date (2026-09 reads as
    // 2026-09-01) the prices are three months old; 20 days after, nothing
    // is said. The committed snapshot's own date, so a refresh keeps this true.
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("public/data/offers.json")).unwrap();
    let date =
        serde_json::from_str::<serde_json::Value>(&committed).unwrap()["snapshot_date"].as_str().unwrap().to_string();
    let day = whichgpu::engine::freshness::parse_date(&date).expect("a dated snapshot");
    let on = |days: i64| whichgpu::engine::freshness::date_of(day + days);
    let query = "model=llama-3.1-405b&wq=bf16&conc=8";
    let old = whichgpu(&["rank", "--config", query, "--top", "3", "--today", &on(90)]);
    assert!(old.status.success(), "{}", stderr(&old));
    let text = stdout(&old);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with(&format!("note: These prices are 3 months old (snapshot {date})")), "{first}");
    assert!(first.contains("whichgpu snapshot --fetch"), "{first}");
    let fresh = stdout(&whichgpu(&["rank", "--config", query, "--top", "3", "--today", &on(20)]));
    assert!(!fresh.contains("months old") && !fresh.contains("days old"), "{fresh}");
    let json = whichgpu(&["rank", "--config", query, "--top", "1", "--json", "--today", &on(90)]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(json["snapshot"]["age_days"], 90);
    assert!(json["snapshot"]["stale"].as_str().is_some_and(|s| s.contains("3 months old")), "{}", json["snapshot"]);
    assert_fails_with(&["rank", "--config", query, "--today", "yesterday"], "--today: \"yesterday\" is not a date");
}

#[test]
fn rank_leaves_auction_floors_out_and_says_why_odd_prices_may_not_hold() {
    // Issue 27's query put Mithril's 8× H200 at $8.00/h (an auction floor,
    // providers.csv price_kind) first. By default it is left out with its
    // reason; with prices=all it is listed with its badge and reason.
    let query = "model=llama-3.1-405b&wq=bf16&conc=8";
    let output = whichgpu(&["rank", "--config", query, "--top", "500", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let results = json["results"].as_array().unwrap();
    assert!(!results.iter().any(|r| r["provider"] == "mithril"));
    let excluded = json["excluded"].as_array().unwrap();
    let floor = excluded.iter().find(|e| e["provider"] == "mithril").expect("listed as left out");
    assert!(floor["reason"].as_str().unwrap().starts_with("auction reserve price"), "{floor}");
    let all = stdout(&whichgpu(&["rank", "--config", &format!("{query}&prices=all"), "--top", "500"]));
    let row = all.lines().position(|l| l.contains("mithril")).expect("listed with prices=all");
    let next = all.lines().nth(row + 1).unwrap();
    assert!(next.trim_start().starts_with("! auction reserve price: you bid, and may not get it"), "{next}");
}

#[test]
fn estimate_says_which_training_recipe_its_memory_assumes() {
    // A full fine-tune of Llama 3.1 8B with AdamW: 16 B per parameter in the
    // default mixed precision does not fit one H100; torchtune's pure BF16 does.
    let run = |query: &str| {
        let output = whichgpu(&["estimate", "--config", query, "--gpu", "h100_sxm", "--count", "1", "--json"]);
        assert!(output.status.success(), "{}", stderr(&output));
        serde_json::from_str::<serde_json::Value>(&stdout(&output)).unwrap()
    };
    let mixed = run("task=finetune&model=llama-3.1-8b&method=full");
    assert_eq!(mixed["memory"]["recipe"], "mixed");
    assert_eq!(mixed["fits"], false);
    let pure = run("task=finetune&model=llama-3.1-8b&method=full&recipe=bf16");
    assert_eq!(pure["memory"]["recipe"], "bf16");
    assert_eq!(pure["fits"], true);
    let text = whichgpu(&["estimate", "--config", "task=finetune&method=full", "--gpu", "h100_sxm", "--count", "1"]);
    assert!(stdout(&text).contains("recipe       Mixed precision: FP32 master weights"), "{}", stdout(&text));
}

/// Issue 39's command: only set-ups that meet the targets, each with its
/// plan and month, and the cheapest hosted API beside them.
#[test]
fn rank_to_latency_targets_lists_only_plans_that_meet_them_and_the_hosted_api() {
    let query = "model=llama-3.3-70b&rps=2&in=1000&out=300&ttft=1&itl=0.05&pct=95";
    let output = whichgpu(&["rank", "--config", query, "--top", "50", "--json"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let json: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    let results = json["results"].as_array().unwrap();
    assert!(results.len() >= 10, "{}", results.len());
    let mut last = 0.0;
    for row in results {
        let slo = &row["slo"];
        assert_eq!(slo["percentile"], 95);
        assert!(slo["ttft_s"]["at_percentile"].as_f64().unwrap() <= 1.0, "{row}");
        assert!(slo["itl_s"]["at_percentile"].as_f64().unwrap() <= 0.05, "{row}");
        assert!(slo["ttft_s"]["p50"].as_f64().unwrap() <= slo["ttft_s"]["at_percentile"].as_f64().unwrap());
        for key in ["replicas", "tensor_parallel", "max_batch", "weights", "kv_cache"] {
            assert!(!slo[key].is_null(), "{key}: {row}");
        }
        // The replicas fit the instances rented.
        let per_instance = row["gpu_count"].as_u64().unwrap() / slo["gpus_per_replica"].as_u64().unwrap();
        assert_eq!(slo["instances"].as_u64().unwrap(), slo["replicas"].as_u64().unwrap().div_ceil(per_instance));
        assert_eq!(row["instances"], slo["instances"]);
        // Ranked by the cost of the stated traffic.
        let per_unit = row["cost_per_unit"].as_f64().unwrap();
        assert!(per_unit >= last && row["monthly_cost"].as_f64().unwrap() > 0.0);
        last = per_unit;
    }
    // Offers that cannot meet them are left out, saying why.
    let excluded = json["excluded"].as_array().unwrap();
    assert!(excluded.iter().any(|e| e["reason"].as_str().unwrap().contains("even with one request at a time")));
    let api = &json["hosted_api"];
    assert_eq!(api["source"]["package"], "litellm");
    assert!(api["input_usd_per_mtok"].as_f64().unwrap() > 0.0 && api["output_usd_per_mtok"].as_f64().unwrap() > 0.0);
    assert!(api["break_even_requests_per_day"].as_f64().unwrap() > 0.0);
    assert!(!api["provider"].as_str().unwrap().is_empty());
    // The text says the same, as the page does.
    let text = stdout(&whichgpu(&["rank", "--config", query, "--top", "1"]));
    let hosted: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("hosted API: ")).collect();
    assert_eq!(hosted.len(), 4, "{text}");
    // Named as LiteLLM names the provider (data/hosted_api_providers.csv), not by its id.
    let (provider, name) = (api["provider"].as_str().unwrap(), api["provider_name"].as_str().unwrap());
    assert!(!name.is_empty() && name != provider && name.chars().any(char::is_uppercase), "{name} ({provider})");
    assert!(
        hosted[0].starts_with(&format!("The cheapest hosted API for Llama 3.3 70B Instruct is {name}: ")),
        "{}",
        hosted[0]
    );
    assert!(hosted[1].starts_with("Your traffic (86,400 requests a day) costs $"), "{}", hosted[1]);
    // Each row says what its plan gets, and how sure that is.
    let plan = text.lines().find(|l| l.trim_start().starts_with("first token ")).unwrap_or_default();
    assert!(plan.contains(" ms between tokens (p95), ") && plan.ends_with(" GPU per replica"), "{text}");
    assert!(text.contains("how sure: Latencies from a simulation"), "{text}");
    // Replicas of one GPU each already follow the one-card rule: no advice to move to one.
    let first_replica_gpus = json["results"][0]["slo"]["gpus_per_replica"].as_u64().unwrap();
    assert!(first_replica_gpus > 1 || !text.contains("the best single-card offer"), "{text}");
}
