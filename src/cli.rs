//! The native command line: the same engine as the page, for scripts, docs
//! builds and tests.
//!
//! ```text
//! whichgpu snapshot --from ../shared/data --out public/data
//! whichgpu rank --config 'model=llama-3.1-70b&wq=int4' [--top N] [--json] [--offers FILE]
//! ```

use crate::engine::memory::BYTES_PER_GB;
use crate::engine::ranking::format_gb;
use crate::engine::{rank, Catalog, Snapshot};
use crate::url_codec;
use serde_json::json;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
whichgpu: which rented GPU should I use for this generative-AI job?

usage:
  whichgpu snapshot --from DIR --out DIR
      build the offer snapshot and catalog from a copy of ../shared/data
  whichgpu rank --config QUERY [--top N] [--json] [--offers FILE]
      rank offers for a workload; QUERY is the page's URL query string
      (default --offers public/data/offers.json)
";

/// Runs one command; `out` gets results, `err` diagnostics.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> ExitCode {
    let result = match args.first().map(String::as_str) {
        Some("snapshot") => snapshot(&args[1..], out),
        Some("rank") => rank_command(&args[1..], out),
        Some("help" | "--help" | "-h") | None => {
            let _ = out.write_all(USAGE.as_bytes());
            Ok(())
        }
        Some(other) => Err(format!("unknown command \"{other}\"\n\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = writeln!(err, "whichgpu: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Parsed `--flag value` pairs and bare `--switch`es.
struct Flags<'a> {
    args: &'a [String],
}

impl<'a> Flags<'a> {
    fn parse(
        args: &'a [String],
        with_value: &[&str],
        switches: &[&str],
    ) -> Result<Flags<'a>, String> {
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

    fn has(&self, switch: &str) -> bool {
        self.args.iter().any(|a| a == switch)
    }
}

fn snapshot(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let flags = Flags::parse(args, &["--from", "--out"], &[])?;
    let from = flags
        .value("--from")
        .ok_or("snapshot needs --from DIR (e.g. ../shared/data)")?;
    let to = flags
        .value("--out")
        .ok_or("snapshot needs --out DIR (e.g. public/data)")?;
    let built = crate::snapshot_builder::build(Path::new(from)).map_err(|e| e.to_string())?;
    crate::snapshot_builder::write(&built, Path::new(to)).map_err(|e| e.to_string())?;
    let _ = writeln!(
        out,
        "snapshot {}: {} offers from {} providers, {} models, {} GPUs, {} anomalies reported → {to}",
        built.snapshot.snapshot_date,
        built.snapshot.offers.len(),
        built.snapshot.providers.len(),
        built.catalog.models.len(),
        built.catalog.gpus.len(),
        built.anomalies.len(),
    );
    Ok(())
}

fn rank_command(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let flags = Flags::parse(args, &["--config", "--top", "--offers"], &["--json"])?;
    let query = flags.value("--config").unwrap_or("");
    let top = match flags.value("--top") {
        None => 10,
        Some(text) => text
            .parse::<usize>()
            .map_err(|_| format!("--top: \"{text}\" is not a count"))?,
    };
    let offers_path = flags
        .value("--offers")
        .map_or_else(|| PathBuf::from("public/data/offers.json"), PathBuf::from);
    let text = std::fs::read_to_string(&offers_path)
        .map_err(|e| format!("{}: {e}", offers_path.display()))?;
    let snapshot = Snapshot::from_json(&text).map_err(|e| e.to_string())?;
    let catalog = Catalog::bundled().map_err(|e| e.to_string())?;
    let decoded = url_codec::decode(query, catalog);
    let report = rank(&decoded.workload, catalog, &snapshot).map_err(|e| e.to_string())?;

    let results: Vec<_> = report
        .results
        .iter()
        .take(top)
        .map(|ranked| {
            let offer = &snapshot.offers[ranked.offer];
            json!({
                "provider": offer.provider,
                "instance": offer.instance,
                "regions": offer.regions,
                "gpu": offer.gpu,
                "gpu_count": offer.gpu_count,
                "vram_gb": offer.vram_gb,
                "price_per_hour": ranked.price_per_hour,
            })
        })
        .collect();
    if flags.has("--json") {
        let notes: Vec<_> = decoded
            .notes
            .iter()
            .map(|n| json!({"key": n.key, "message": n.message}))
            .collect();
        let document = json!({
            "snapshot": {"date": snapshot.snapshot_date, "offers": snapshot.offers.len()},
            "workload": decoded.workload,
            "memory": {"weights_bytes": report.weights_bytes},
            "fitting": report.results.len(),
            "excluded": report.excluded.len(),
            "results": results,
            "notes": notes,
        });
        let _ = writeln!(out, "{document:#}");
    } else {
        for n in &decoded.notes {
            let _ = writeln!(out, "note: {}", n.message);
        }
        let _ = writeln!(
            out,
            "{} at {}: weights {}; {} of {} offers fit (snapshot {})",
            decoded.workload.model,
            decoded.workload.weight_precision,
            format_gb(report.weights_bytes / BYTES_PER_GB),
            report.results.len(),
            snapshot.offers.len(),
            snapshot.snapshot_date
        );
        for ranked in report.results.iter().take(top) {
            let offer = &snapshot.offers[ranked.offer];
            let _ = writeln!(
                out,
                "  ${:>8.2}/h  {:<10} {:<28} {}× {} ({})",
                ranked.price_per_hour,
                offer.provider,
                offer.instance,
                offer.gpu_count,
                offer.gpu,
                offer.regions_label()
            );
        }
    }
    Ok(())
}
