//! The native command line: the same engine as the page, for scripts, docs
//! builds and tests.
//!
//! ```text
//! whichgpu snapshot --from ../shared/data --out public/data [--offers DIR]
//! whichgpu snapshot --fetch [BASE_URL] [--from DIR] --out public/data [--keep DIR]
//! whichgpu rank --config 'model=llama-3.1-70b&wq=int4' [--top N] [--json] [--offers FILE]
//! whichgpu estimate --config 'model=llama-3.1-70b&conc=32' --gpu h100_sxm [--count N]
//!     [--node-gpus G [--internode-gbps B] [--fabric NAME]] [--json]
//! ```
//!
//! Strict where the page forgives (issue 41): a `--config` value the page
//! would drop or replace (an unknown model or key, a number out of range)
//! ends `rank`, `estimate` and `url` with status 2 and the page's own words
//! for it; `--lenient` (`rank`, `estimate`) answers with the page's
//! fall-backs and prints them as notes.

use crate::engine::cost::failure_lost_share;
use crate::engine::fabric::{FabricKind, Network, Placement, UNKNOWN_FABRIC_GBPS};
use crate::engine::memory::fit;
use crate::engine::setup::{on_gpu, OnGpu};
use crate::engine::speed;
use crate::engine::{rank, Catalog, Snapshot};
use crate::text::Lang;
use crate::units::SECONDS_PER_DAY;
use crate::url_codec;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
whichgpu: which rented GPU should I use for this generative-AI job?

usage:
  whichgpu snapshot --from DIR --out DIR [--offers DIR]
      build the offer snapshot and catalog from a copy of ../shared/data;
      the offer files data/offer_sources.csv names come from --offers
      (default data/fetched when data/fetched/FETCHED.json exists, else
      --from), dated by its FETCHED.json
  whichgpu snapshot --fetch [BASE_URL] [--from DIR] --out DIR [--keep DIR]
      refresh: download the upstream catalogs data/offer_sources.csv names
      (from BASE_URL, default https://raw.githubusercontent.com, each file
      read at, and its source dated by, the last commit that changed it;
      GITHUB_TOKEN, when set, is sent to GitHub's API), check them against
      the last build in --out, and build with them; the other inputs come
      from --from (default ../shared/data). The offer files and their
      FETCHED.json are kept in --keep (default data/fetched), which later
      builds read; on any failure --out and --keep are unchanged
  whichgpu rank --config QUERY [--top N] [--json] [--offers FILE] [--today YYYY-MM-DD]
      rank offers for a workload; QUERY is the page's URL query string
      (default --offers public/data/offers.json); past 30 days the prices'
      age is said first, on the system clock or on --today's
  whichgpu estimate --config QUERY --gpu GPU_ID [--count N] [--node-gpus G]
                    [--internode-gbps B] [--fabric NAME] [--offers FILE] [--json]
      size a workload on N GPUs of one kind (gpu_id of gpus.csv); N = 1
      by default, split with tensor parallelism; with --node-gpus, N GPUs
      in N/G nodes of G joined by B Gbit/s per node over NAME (InfiniBand,
      EFA, RoCE, TCPX, Ethernet); unstated, the fabric such nodes are
      documented with in --offers (the median of its offers of G of the
      GPU whose provider joins them), else 100, the slowest the data states
  --model-config FILE (rank, estimate, url; may be given twice)
      the model of a Hugging Face config.json (with its
      model.safetensors.index.json for the exact weight bytes), or the
      header of a .safetensors or .gguf file, in place of model=
  whichgpu url --config QUERY [--base URL]
      print the share link for a workload: the page's canonical query
      (defaults left out, keys in order, `v=1`), after URL when given
      (e.g. --base https://example.org/whichgpu/)
  --lenient (rank, estimate)
      a --config value the page cannot apply (an unknown model or a model
      of another task, an unknown key, a number out of range or not a
      number) ends rank, estimate and url with exit status 2 and the page's message
      for it, on standard error, and as {\"error\": ...} on standard
      output with --json, so scripts and docs builds catch typos; with
      --lenient the command answers as the page does, with its fall-backs,
      and prints what it replaced as notes
";

/// Why a command failed.
enum Failure {
    /// Usage, files, the engine: exit status 1.
    Other(String),
    /// A `--config` value the page would not apply as given: exit status 2,
    /// and under `--json` the message as `{"error": ...}` on standard output.
    NotApplied { message: String, json: bool },
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure::Other(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Failure {
        Failure::Other(message.to_string())
    }
}

/// The exit status of a `--config` value the page would not apply.
const NOT_APPLIED: u8 = 2;

/// Answer with the page's fall-backs rather than fail on them.
const LENIENT: &str = "--lenient";

/// Runs one command; `out` gets results, `err` diagnostics.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("snapshot") => snapshot(&args[1..], out).map_err(Failure::from),
        Some("rank") => rank_command(&args[1..], out),
        Some("estimate") => estimate(&args[1..], out),
        Some("url") => url(&args[1..], out),
        Some("help" | "--help" | "-h") | None => {
            let _ = out.write_all(USAGE.as_bytes());
            Ok(())
        }
        Some(other) => Err(format!("unknown command \"{other}\"\n\n{USAGE}").into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Other(message)) => {
            let _ = writeln!(err, "whichgpu: {message}");
            ExitCode::FAILURE
        }
        Err(Failure::NotApplied { message, json }) => {
            if json {
                let _ = writeln!(out, "{:#}", json!({ "error": message }));
            }
            let _ = writeln!(err, "whichgpu: {message}");
            ExitCode::from(NOT_APPLIED)
        }
    }
}

/// Unless `--lenient`, what the page would not apply of `--config` as the
/// command's failure, in the page's words.
fn applied_as_given(decoded: &url_codec::Decoded, flags: &Flags<'_>) -> Result<(), Failure> {
    if decoded.notes.is_empty() || flags.has(LENIENT) {
        return Ok(());
    }
    let problems: Vec<String> = decoded.notes.iter().map(|n| n.message.to_string()).collect();
    Err(Failure::NotApplied {
        message: format!(
            "the config cannot be applied as given: {} (--lenient answers with these fall-backs)",
            problems.join("; ")
        ),
        json: flags.has("--json"),
    })
}

/// Parsed `--flag value` pairs and bare `--switch`es.
struct Flags<'a> {
    args: &'a [String],
}

impl<'a> Flags<'a> {
    fn parse(args: &'a [String], with_value: &[&str], switches: &[&str]) -> Result<Flags<'a>, String> {
        let mut i = 0;
        while i < args.len() {
            let flag = args[i].as_str();
            if with_value.contains(&flag) {
                if args.get(i + 1).is_none() {
                    return Err(format!("{flag} needs a value"));
                }
                i += 2;
            } else if switches.contains(&flag) {
                i += 1;
            } else {
                return Err(format!("unexpected argument \"{flag}\"\n\n{USAGE}"));
            }
        }
        Ok(Flags { args })
    }

    fn value(&self, flag: &str) -> Option<&'a str> {
        let at = self.args.iter().position(|a| a == flag)?;
        self.args.get(at + 1).map(String::as_str)
    }

    /// Every value of a flag given more than once.
    fn values(&self, flag: &str) -> Vec<&'a str> {
        self.args.windows(2).filter(|pair| pair[0] == flag).map(|pair| pair[1].as_str()).collect()
    }

    fn has(&self, switch: &str) -> bool {
        self.args.iter().any(|a| a == switch)
    }
}

/// A model described by its files (issue 25): a config.json (with its
/// model.safetensors.index.json), a .safetensors or a .gguf.
const MODEL_CONFIG: &str = "--model-config";

/// The workload of `--config`, with the model of `--model-config` files
/// where given: the same numbers the page reads from them, so `url`
/// prints the link that sizes it without the files.
fn workload(flags: &Flags<'_>, catalog: &Catalog) -> Result<url_codec::Decoded, String> {
    let query = flags.value("--config").unwrap_or("");
    let mut decoded = url_codec::decode(query, catalog);
    let paths = flags.values(MODEL_CONFIG);
    if paths.is_empty() {
        return Ok(decoded);
    }
    let mut files = Vec::new();
    for path in &paths {
        // Only a header is read: a 100 GB .gguf costs its first bytes.
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::Read::take(file, crate::model_import::HEADER_BYTES), &mut bytes)
            .map_err(|e| format!("{path}: {e}"))?;
        files.push(bytes);
    }
    let slices: Vec<&[u8]> = files.iter().map(Vec::as_slice).collect();
    let imported = crate::model_import::import(&slices).map_err(|e| format!("{}: {e}", paths.join(", ")))?;
    let given_format = query
        .trim_start_matches('?')
        .split('&')
        .any(|pair| pair.split('=').next() == Some(crate::engine::keys::WEIGHTS));
    // The weights run in the format they ship in, unless `wq` says otherwise.
    if let (Some(format), false) = (imported.model.weight_format, given_format) {
        decoded.workload.weight_precision = format;
    }
    decoded.workload.model = crate::engine::custom_model::CUSTOM_MODEL.to_string();
    decoded.workload.custom = Some(imported.model);
    Ok(decoded)
}

/// "LLM inference / serving, bf16" or "Fine-tune, qlora".
fn workload_label(workload: &crate::engine::Workload) -> String {
    use crate::engine::Task;
    match workload.task {
        Task::Infer => format!("{}, {}", workload.task.label(), workload.weight_precision),
        Task::Finetune => format!("{}, {}", workload.task.label(), workload.method.label()),
        other => other.label().to_string(),
    }
}

/// What the query could not apply, as JSON.
fn notes_json(decoded: &url_codec::Decoded) -> serde_json::Value {
    decoded.notes.iter().map(|n| json!({"key": n.key, "message": n.message})).collect()
}

/// Days since 1970-01-01 on the system clock (UTC).
fn days_today() -> i64 {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    (seconds / SECONDS_PER_DAY) as i64
}

/// What the query could not apply, as lines a person reads.
fn print_notes(decoded: &url_codec::Decoded, out: &mut dyn Write) {
    for n in &decoded.notes {
        let _ = writeln!(out, "note: {}", n.message);
    }
}

/// The share link for `--config`: what the page would put in its address
/// bar for the same workload and language.
fn url(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    // A link is always what the page would apply: no `--lenient`.
    let flags = Flags::parse(args, &["--config", "--base", MODEL_CONFIG], &[])?;
    let catalog = Catalog::bundled().map_err(|e| e.to_string())?;
    let decoded = workload(&flags, catalog)?;
    applied_as_given(&decoded, &flags)?;
    let query =
        url_codec::encode_link(&decoded.workload, decoded.offer.as_ref(), decoded.my_gpu.as_deref(), decoded.lang);
    let base = flags.value("--base").unwrap_or("");
    let link = match (query.is_empty(), base.is_empty()) {
        (true, true) => "?".to_string(),
        (true, false) => base.to_string(),
        (false, _) => format!("{base}?{query}"),
    };
    let _ = writeln!(out, "{link}");
    Ok(())
}

fn snapshot(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    use crate::snapshot_builder::fetch;
    // `--fetch` takes an optional BASE_URL: alone, it reads GitHub.
    let mut args = args.to_vec();
    if let Some(at) = args.iter().position(|a| a == "--fetch") {
        if args.get(at + 1).is_none_or(|next| next.starts_with("--")) {
            args.insert(at + 1, fetch::DEFAULT_BASE_URL.to_string());
        }
    }
    let flags = Flags::parse(&args, &["--from", "--out", "--fetch", "--keep", "--offers"], &[])?;
    let base_url = flags.value("--fetch");
    let from = match base_url {
        Some(_) => flags.value("--from").unwrap_or("../shared/data"),
        None => flags.value("--from").ok_or("snapshot needs --from DIR (e.g. ../shared/data)")?,
    };
    let to = flags.value("--out").ok_or("snapshot needs --out DIR (e.g. public/data)")?;
    let (built, offers) = match base_url {
        Some(_) if flags.value("--offers").is_some() => {
            return Err("--offers goes without --fetch: a refresh builds with the offer files it keeps in --keep".into())
        }
        Some(base_url) => {
            let keep = flags.value("--keep").unwrap_or(fetch::DEFAULT_KEEP);
            let commits_api = fetch::commits_api_for(base_url);
            let token = std::env::var("GITHUB_TOKEN").ok().filter(|token| !token.trim().is_empty());
            let options = fetch::FetchOptions {
                base_url,
                commits_api,
                api_token: commits_api.and(token.as_deref()),
                from: Path::new(from),
                out: Path::new(to),
                keep: Path::new(keep),
            };
            let refreshed = fetch::refresh(&options).map_err(|e| {
                format!("refresh failed, the snapshot in {to} and the offers in {keep} are unchanged: {e}")
            })?;
            let manifest = &refreshed.manifest;
            let _ = writeln!(
                out,
                "fetched {} files ({} bytes) from {} at {}; offer files kept in {keep}/ ({})",
                manifest.files.len(),
                manifest.files.iter().map(|f| f.bytes).sum::<usize>(),
                manifest.base_url,
                manifest.fetched_at,
                fetch::MANIFEST,
            );
            (refreshed.built, keep.to_string())
        }
        None if flags.value("--keep").is_some() => return Err("--keep goes with --fetch".into()),
        None => {
            // A refresh's offer files, once kept in the repository, are the
            // offers' inputs; without them, --from's.
            let offers = match flags.value("--offers") {
                Some(dir) if !Path::new(dir).is_dir() => return Err(format!("--offers {dir}: no such directory")),
                Some(dir) => dir,
                None if Path::new(fetch::DEFAULT_KEEP).join(fetch::MANIFEST).is_file() => fetch::DEFAULT_KEEP,
                None => from,
            };
            let built = crate::snapshot_builder::build_with(Path::new(from), Some(Path::new(offers)))
                .map_err(|e| e.to_string())?;
            crate::snapshot_builder::write(&built, Path::new(to)).map_err(|e| e.to_string())?;
            (built, offers.to_string())
        }
    };
    let _ = writeln!(
        out,
        "snapshot {}: {} offers from {} providers, {} models, {} GPUs, {} anomalies reported → {to} \
         (offer files from {})",
        built.snapshot.snapshot_date,
        built.snapshot.offers.len(),
        built.snapshot.selling_providers(),
        built.catalog.models.len(),
        built.catalog.gpus.len(),
        built.anomalies.len(),
        Path::new(&offers).display(),
    );
    Ok(())
}

fn rank_command(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    let flags = Flags::parse(args, &["--config", "--top", "--offers", "--today", MODEL_CONFIG], &["--json", LENIENT])?;
    let today = match flags.value("--today") {
        None => days_today(),
        Some(text) => crate::engine::freshness::parse_date(text)
            .ok_or_else(|| format!("--today: \"{text}\" is not a date (YYYY-MM-DD)"))?,
    };
    let top = match flags.value("--top") {
        None => 10,
        Some(text) => text.parse::<usize>().map_err(|_| format!("--top: \"{text}\" is not a count"))?,
    };
    let offers_path = flags.value("--offers").map_or_else(|| PathBuf::from("public/data/offers.json"), PathBuf::from);
    let text = std::fs::read_to_string(&offers_path).map_err(|e| format!("{}: {e}", offers_path.display()))?;
    let snapshot = Snapshot::from_json(&text).map_err(|e| e.to_string())?;
    let catalog = Catalog::bundled().map_err(|e| e.to_string())?;
    let decoded = workload(&flags, catalog)?;
    applied_as_given(&decoded, &flags)?;
    let report = rank(&decoded.workload, catalog, &snapshot).map_err(|e| e.to_string())?;
    let stale = crate::engine::freshness::stale_notice(&snapshot.snapshot_date, today);

    let results = crate::export::results_json(&report, &snapshot, catalog, &decoded.workload.region, top);
    // `mygpu=`: the same workload on the visitor's own GPU, against renting.
    let local = match &decoded.my_gpu {
        Some(gpu) => Some(
            crate::engine::local_run::run_locally(&decoded.workload, catalog, &snapshot, &report, gpu, None)
                .map_err(|e| e.to_string())?,
        ),
        None => None,
    };
    // The cheapest hosted API for the same model and traffic (issue 39).
    let hosted = crate::engine::hosted_api::HostedPrices::bundled().map_err(|e| format!("hosted.json: {e}"))?;
    let hosted_api = crate::engine::hosted_api::compare(&decoded.workload, &report, hosted, &snapshot.snapshot_date);
    if flags.has("--json") {
        let excluded: Vec<_> = report
            .excluded
            .iter()
            .map(|e| {
                let offer = &snapshot.offers[e.offer];
                json!({"provider": offer.provider, "instance": offer.instance, "gpu": offer.gpu, "gpu_count": offer.gpu_count, "reason": e.reason})
            })
            .collect();
        let document = json!({
            "snapshot": {
                "date": snapshot.snapshot_date,
                "offers": snapshot.offers.len(),
                "age_days": crate::engine::freshness::age_days(&snapshot.snapshot_date, today),
                "stale": stale,
            },
            "workload": decoded.workload,
            "objective": report.objective,
            "memory": report.memory,
            "fitting": report.results.len(),
            "results": results,
            "excluded": excluded,
            "advice": report.advice,
            "reliable_first": report.reliable_first,
            "no_single_node": report.no_single_node,
            "local": local,
            "hosted_api": hosted_api,
            "notes": notes_json(&decoded),
        });
        let _ = writeln!(out, "{document:#}");
    } else {
        if let Some(stale) = &stale {
            let _ = writeln!(out, "note: {stale}");
        }
        print_notes(&decoded, out);
        let _ = writeln!(
            out,
            "{} at {}: {} {} (weights {}); {} rows from {} offers (snapshot {}), by {}:",
            decoded.workload.model,
            decoded.workload.weight_precision,
            Lang::En.gb(report.memory.per_gpu_bytes),
            match report.memory.gpu_count {
                1 => String::from("on one GPU"),
                n => format!("per GPU of {n}"),
            },
            Lang::En.gb(report.memory.weights_bytes),
            report.results.len(),
            snapshot.offers.len(),
            snapshot.snapshot_date,
            report.objective.label().en.to_lowercase()
        );
        for ranked in report.results.iter().take(top) {
            let offer = &snapshot.offers[ranked.offer];
            let figures = ranked.cost.as_ref().map_or_else(String::new, |c| {
                let images = c.cost_per_thousand_images.map_or_else(String::new, |per| {
                    format!(", ${} per {}", significant(per), crate::text::phrases::UNIT_THOUSAND_IMAGES_DESCRIBED)
                });
                format!(
                    "${} job, ${} per {}{images}, {} h",
                    significant(c.job_cost),
                    significant(c.cost_per_unit),
                    c.unit.label(),
                    significant(c.job_hours)
                )
            });
            let runtime = ranked.runtime.map_or_else(String::new, |r| format!(" on {}", r.label().en));
            // A cluster: "32 × p5.48xlarge … 256× h100_sxm, EFA 3200 Gbit/s".
            let (instance, fabric) = match ranked.fabric.and_then(|i| snapshot.fabrics.get(i)) {
                Some(fabric) if ranked.nodes > 1 => (
                    format!("{} × {}", ranked.nodes, offer.instance),
                    format!(", {}", crate::present::row::fabric_label(fabric, ranked.internode_gbps)),
                ),
                _ => (offer.instance.clone(), String::new()),
            };
            let _ = writeln!(
                out,
                "  ${:>7.2}/h{} {:<10} {:<28} {}× {}{runtime}{fabric} ({}){}  {figures}",
                ranked.hourly_price(),
                if ranked.spot { " spot" } else { "     " },
                offer.provider,
                instance,
                ranked.total_gpus,
                offer.gpu,
                offer.regions_label(Lang::En),
                if ranked.pareto { " *" } else { "" },
            );
            for note in crate::export::price_notes(ranked, &snapshot) {
                let _ = writeln!(out, "            ! {note}");
            }
            // Planned to latency targets: what it gets, on how many replicas.
            if let Some(plan) = &ranked.slo {
                let (got, shape) = (crate::present::row::slo_headline(plan), crate::present::row::slo_shape(plan));
                let _ = writeln!(out, "            {}, {}", got.render(Lang::En), shape.render(Lang::En));
            }
        }
        // How sure the first row's speed is; other rows on the same runtime
        // share it. A plan's latencies have their own bands.
        let first = report.results.first();
        let sure = match first.and_then(|r| r.slo.as_ref()) {
            Some(plan) => vec![plan.bands()],
            None => first.and_then(|r| r.speed.as_ref()).map(|s| s.accuracy()).unwrap_or_default(),
        };
        for line in sure {
            let _ = writeln!(out, "how sure: {line}");
        }
        if let Some(note) = &report.no_single_node {
            let _ = writeln!(out, "note: {note}");
        }
        for line in &report.advice {
            let _ = writeln!(out, "advice: {line}");
        }
        if let Some(api) = &hosted_api {
            let name = catalog
                .model(&decoded.workload.model)
                .map_or_else(|_| decoded.workload.model.clone(), |m| m.name.clone());
            let targets = crate::engine::serving_plan::Targets::of(&decoded.workload).is_some();
            for line in crate::present::hosted_api::lines(api, &name, targets) {
                let _ = writeln!(out, "hosted API: {}", line.render(Lang::En));
            }
        }
        if let Some(run) = &local {
            let verdict: Vec<String> = run.verdict.iter().map(ToString::to_string).collect();
            let _ = writeln!(out, "your GPU ({}): {}", run.gpu, verdict.join(" "));
        }
    }
    Ok(())
}

fn estimate(args: &[String], out: &mut dyn Write) -> Result<(), Failure> {
    let flags = Flags::parse(
        args,
        &["--config", "--gpu", "--count", "--node-gpus", "--internode-gbps", "--fabric", "--offers", MODEL_CONFIG],
        &["--json", LENIENT],
    )?;
    let catalog = Catalog::bundled().map_err(|e| e.to_string())?;
    let decoded = workload(&flags, catalog)?;
    applied_as_given(&decoded, &flags)?;
    let gpu_id = flags.value("--gpu").ok_or("estimate needs --gpu GPU_ID (a gpu_id of gpus.csv, e.g. h100_sxm)")?;
    let gpu = catalog.gpu(gpu_id).map_err(|e| e.to_string())?;
    let whole = |flag: &str, max: u32| -> Result<Option<u32>, String> {
        match flags.value(flag) {
            None => Ok(None),
            Some(text) => match text.parse::<u32>() {
                Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                _ => Err(format!("{flag}: \"{text}\" is not a GPU count (1 to {max})")),
            },
        }
    };
    // `--count` GPUs in all; `--node-gpus` per node makes them a cluster of
    // count / node-gpus nodes (issue 24), joined by `--internode-gbps` per
    // node over `--fabric` (unstated: timed at the slowest fabric the data
    // states, never assumed fast).
    let count = whole("--count", 100_000)?.unwrap_or(1);
    let per_node = match whole("--node-gpus", 1024)? {
        Some(per_node) => per_node,
        None if count <= 1024 => count,
        None => {
            return Err(format!(
                "--count {count}: one node holds at most 1024 GPUs; name the node size with --node-gpus"
            )
            .into())
        }
    };
    if !count.is_multiple_of(per_node) {
        return Err(format!("--count {count} is not a whole number of nodes of --node-gpus {per_node}").into());
    }
    let mut documented_from = None;
    let kind = FabricKind::from_description(flags.value("--fabric").unwrap_or(""));
    // Unstated, a cluster is timed over the fabric its nodes are documented
    // with in the offers (`--offers`, public/data/offers.json by default),
    // else at the slowest fabric the data states.
    let documented = || {
        let path = flags.value("--offers").unwrap_or("public/data/offers.json");
        let snapshot = Snapshot::from_json(&std::fs::read_to_string(path).ok()?).ok()?;
        snapshot.documented_network(&gpu.id, per_node)
    };
    let network = match flags.value("--internode-gbps") {
        None if count > per_node => match documented() {
            Some((network, offers)) => {
                documented_from = Some(offers);
                network
            }
            None => Network { gbps: UNKNOWN_FABRIC_GBPS, kind, known: false },
        },
        None => Network { gbps: UNKNOWN_FABRIC_GBPS, kind, known: false },
        Some(text) => match text.parse::<f64>() {
            Ok(gbps) if gbps > 0.0 && gbps <= 1e6 => Network { gbps, kind, known: true },
            _ => return Err(format!("--internode-gbps: \"{text}\" is not a bandwidth in Gbit/s per node").into()),
        },
    };
    let placement = Placement { nodes: count / per_node, gpus_per_node: per_node, network };
    let model = decoded.workload.resolve_model(catalog).map_err(|e| e.to_string())?;
    let model = model.as_ref();
    // The software that runs it on this GPU (issue 23): with `runtime=auto`
    // the runtime chosen; where nothing runs it as asked, it is sized but
    // not timed, and the reason is said.
    let OnGpu { setup, workload } =
        on_gpu(&decoded.workload, model, gpu, &catalog.support).map_err(|e| e.to_string())?;
    let sized = fit(&workload, model, gpu, placement).map_err(|e| e.to_string())?;
    // Speed is an estimate on top of the sizing; when it cannot be made
    // (a GPU without the figures it needs) the sizing still stands.
    let speed = match &setup {
        Ok(setup) => speed::speed(&workload, model, gpu, placement, &sized, setup).map_err(|e| e.to_string()),
        Err(reason) => Err(format!("does not run: {reason}")),
    };
    let job = speed.as_ref().ok().and_then(|s| speed::job(&workload, s));
    // A training run on rented GPUs also loses time to failures and restarts,
    // more the more GPUs it spans.
    let lost_share = failure_lost_share(&workload, count);
    let goodput = job.as_ref().filter(|_| lost_share > 0.0).map(|job| {
        json!({"share": 1.0 / (1.0 + lost_share), "lost_hours": job.hours * lost_share, "stated": workload.goodput_pct.is_some()})
    });
    if flags.has("--json") {
        let document = json!({
            "workload": decoded.workload,
            "gpu": {"id": gpu.id, "name": gpu.name, "vram_gb": gpu.vram_gb, "count": count},
            "nodes": placement.nodes,
            "internode_gbps": (placement.multi_node() && network.known).then_some(network.gbps),
            "internode_documented_by_offers": documented_from,
            "runs": setup.is_ok(),
            "cannot_run": setup.as_ref().err(),
            "runtime": setup.as_ref().ok().and_then(|s| s.runtime),
            "memory": sized.memory,
            "usable_bytes_per_gpu": sized.usable_bytes_per_gpu,
            "fits": sized.fits,
            "reason": sized.reason,
            "max_concurrency": sized.max_concurrency,
            "max_context_tokens": sized.max_context_tokens,
            "speed": speed.as_ref().ok(),
            "speed_error": speed.as_ref().err(),
            "job": job,
            "goodput": goodput,
            "notes": notes_json(&decoded),
        });
        let _ = writeln!(out, "{document:#}");
    } else {
        print_notes(&decoded, out);
        let m = &sized.memory;
        let nodes = if placement.multi_node() {
            let basis = documented_from
                .map_or_else(String::new, |offers| format!(", as {offers} offers of such nodes document"));
            format!(" ({} nodes of {per_node}, {} Gbit/s between them{basis})", placement.nodes, network.gbps)
        } else {
            String::new()
        };
        let _ = writeln!(out, "{} ({}) on {count}× {}{nodes}:", model.name, workload_label(&workload), gpu.name);
        if let Ok(Some(runtime)) = setup.as_ref().map(|s| s.runtime) {
            let _ = writeln!(out, "  runtime      {}", runtime.label().en);
        }
        let totals = [("total", m.total_bytes), ("per GPU", m.per_gpu_bytes)];
        for (part, bytes) in m.parts().into_iter().map(|(part, bytes)| (part.en, bytes)).chain(totals) {
            let _ = writeln!(out, "  {part:<12} {}", Lang::En.gb(bytes));
        }
        if let Some(recipe) = m.recipe {
            let _ = writeln!(out, "  recipe       {}", recipe.label().en);
        }
        match &sized.reason {
            None => {
                let _ = match (sized.max_concurrency, sized.max_context_tokens) {
                    (Some(n), Some(tokens)) => writeln!(
                        out,
                        "fits; up to {n} concurrent sequences of this length, or sequences of up to {tokens} tokens at this concurrency (estimate)"
                    ),
                    _ => writeln!(out, "fits (estimate)"),
                };
            }
            Some(reason) => {
                let _ = writeln!(out, "does not fit: {reason}");
            }
        }
        match &speed {
            Ok(s) => print_speed(s, job.as_ref(), lost_share, out),
            Err(e) => {
                let _ = writeln!(out, "speed: {e}");
            }
        }
    }
    Ok(())
}

/// The speed figures that apply, the bound and why, and the job's hours.
fn print_speed(s: &speed::Speed, job: Option<&speed::Job>, lost_share: f64, out: &mut dyn Write) {
    let _ = writeln!(out, "speed (estimates, {} arithmetic):", s.compute_precision.label());
    for f in s.figure_lines() {
        let band = f.band.map_or_else(String::new, |b| format!("  {}", b.short()));
        let _ = writeln!(out, "  {:<22} {} {}{band}", f.label.to_string(), significant(f.value), f.unit);
    }
    if let Some(training) = s.training() {
        let _ = writeln!(out, "  {:<22} {:.0}%", "MFU", training.mfu * 100.0);
        let _ = writeln!(out, "  global batch: {}", training.batch());
    }
    if let (Some(serving), Some(layout)) = (s.serving(), s.layout()) {
        if serving.gpus_per_replica * serving.replicas > 1 {
            let _ = writeln!(out, "  layout: {layout}");
        }
        if let Some(roofline) = serving.roofline_concurrency {
            let running = serving.running_concurrency;
            let _ = writeln!(out, "  {running} sequences running; decoding turns compute-bound near {roofline}");
        }
    }
    let _ = writeln!(out, "  {}", s.bound.explanation());
    for line in s.accuracy() {
        let _ = writeln!(out, "  how sure: {line}");
    }
    for note in &s.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    if let Some(job) = job {
        let _ = writeln!(out, "job: {} hours on these GPUs (estimate)", significant(job.hours));
        if lost_share > 0.0 {
            let _ = writeln!(
                out,
                "  plus {} hours lost to failures and restarts: {:.1}% of the run trains (goodput)",
                significant(job.hours * lost_share),
                100.0 / (1.0 + lost_share)
            );
        }
    }
}

/// Three significant figures, without exponent notation.
fn significant(value: f64) -> String {
    let magnitude = if value == 0.0 { 0.0 } else { value.abs().log10().floor() };
    let digits = (2.0 - magnitude).clamp(0.0, 6.0) as usize;
    format!("{value:.digits$}")
}
