//! Oracles for hostile input (issue 10), shared by the stable property
//! tests and the cargo-fuzz targets in `fuzz/`: each takes any input, runs
//! it through the page's own path, and panics only when a promise breaks.
//!
//! The promises:
//! - a query, whatever it holds, decodes into a workload and notes, and
//!   settles into a clean link that decodes to the same workload;
//! - the engine answers any decoded workload with a report or an error
//!   message, never a panic, and every figure it reports is finite (a NaN
//!   or ∞ would reach the page as "–" or as "NaN" in the exports);
//! - an offer file, whatever its bytes, is either refused with a message or
//!   ranks like any other.

use crate::engine::{local_run, rank, Catalog, Report, Snapshot, Workload};
use crate::export;
use crate::text::Lang;
use crate::url_codec::{decode, encode_link, Decoded};

/// The GPU the oracles compare against, as "Your GPU" would.
const LOCAL_GPU: &str = "rtx_4090";

/// Decodes `query`, checks that it settles into a link that round-trips,
/// ranks it against `snapshot` and checks the report, with the CSV export
/// in the link's language, as its page would download it (the fuzzers vary
/// `lang=` like any other key), or in each where the link names none and
/// the browser's decides.
pub fn check_query(query: &str, catalog: &Catalog, snapshot: &Snapshot) -> Decoded {
    let decoded = check_link(query, catalog);
    check_answer(&decoded, catalog, snapshot);
    decoded
}

/// Ranks what `decoded` asks and checks the report, as `check_query` does
/// once the link has settled. What it checks depends on `answered_by`'s
/// link alone, so a caller that has checked that link may skip it.
pub fn check_answer(decoded: &Decoded, catalog: &Catalog, snapshot: &Snapshot) {
    let stated = decoded.lang.map(|lang| [lang]);
    check_workload(&decoded.workload, catalog, snapshot, stated.as_ref().map_or(&Lang::ALL[..], |lang| &lang[..]));
}

/// The link whose answer `check_answer` checks: the settled workload in
/// its language, whatever offer or GPU the link also names.
pub fn answered_by(decoded: &Decoded) -> String {
    encode_link(&decoded.workload, None, None, decoded.lang)
}

/// Decodes `query` and checks that it settles: its workload encodes to a
/// clean link that decodes to the same workload, offer, GPU and language,
/// and encoding that again changes nothing. Returns the first decoding.
pub fn check_link(query: &str, catalog: &Catalog) -> Decoded {
    let first = decode(query, catalog);
    for note in &first.notes {
        assert_said(&note.message, "a note on the link");
    }
    let link = encode_link(&first.workload, first.offer.as_ref(), first.my_gpu.as_deref(), first.lang);
    let again = decode(&link, catalog);
    assert!(again.notes.is_empty(), "{query} -> {link}: {:?}", again.notes);
    assert_eq!(again.workload, first.workload, "{query} -> {link}");
    assert_eq!((&again.offer, &again.my_gpu, again.lang), (&first.offer, &first.my_gpu, first.lang), "{query}");
    let settled = encode_link(&again.workload, again.offer.as_ref(), again.my_gpu.as_deref(), again.lang);
    assert_eq!(settled, link, "{query}");
    first
}

/// Parses `bytes` as an offer file; a file it accepts must rank the
/// default workload with finite figures.
pub fn check_snapshot_bytes(bytes: &[u8], catalog: &Catalog) {
    match Snapshot::from_bytes(bytes) {
        Ok(snapshot) => check_workload(&Workload::default(), catalog, &snapshot, &Lang::ALL),
        Err(refused) => assert_said(&refused.message(), "a refused offer file"),
    }
}

/// Ranks `workload`, and runs it on the visitor's GPU, checking both, the
/// CSV export in each of `langs`.
pub fn check_workload(workload: &Workload, catalog: &Catalog, snapshot: &Snapshot, langs: &[Lang]) {
    let report = match rank(workload, catalog, snapshot) {
        Ok(report) => report,
        Err(error) => return assert_said(&error.message(), "an error"),
    };
    check_report(&report, snapshot, catalog, langs);
    if let Ok(local) = local_run::run_locally(workload, catalog, snapshot, &report, LOCAL_GPU, None) {
        let mut figures = vec![local.need_bytes, local.usable_bytes, local.price_per_hour];
        figures.extend(local.speed.iter().flat_map(|s| s.figure_list().into_iter().map(|(_, v, _)| v)));
        figures.extend(local.cost.iter().flat_map(costs));
        assert_finite(&figures, "the visitor's GPU");
        for sentence in &local.verdict {
            assert_said(sentence, "the verdict");
        }
    }
}

/// Every figure of `report` is finite, and its exports (the CSV in each of
/// `langs`) spell no NaN or ∞.
pub fn check_report(report: &Report, snapshot: &Snapshot, catalog: &Catalog, langs: &[Lang]) {
    let memory = &report.memory;
    let mut figures: Vec<f64> = memory.parts().iter().map(|(_, bytes)| *bytes).collect();
    figures.extend([memory.total_bytes, memory.per_gpu_bytes]);
    assert_finite(&figures, "the memory breakdown");
    for ranked in &report.results {
        let mut figures = vec![ranked.price_per_hour, ranked.per_gpu_bytes];
        figures.extend(ranked.speed.iter().flat_map(|s| s.figure_list().into_iter().map(|(_, v, _)| v)));
        figures.extend(ranked.cost.iter().flat_map(costs));
        assert_finite(&figures, &snapshot.offers[ranked.offer].instance);
    }
    for &lang in langs {
        assert_readable(&export::results_csv(report, snapshot, catalog, lang), snapshot, "the CSV export");
    }
    assert_readable(&export::download_json(report, snapshot, catalog), snapshot, "the JSON export");
    for message in report.advice.iter().chain(&report.no_single_node) {
        assert_said(message, "the advice");
    }
    for exclusion in &report.excluded {
        assert_said(&exclusion.reason, "why an offer is excluded");
    }
}

fn costs(cost: &crate::engine::cost::Costed) -> Vec<f64> {
    [cost.price_per_hour, cost.job_hours, cost.billed_hours, cost.gpu_cost, cost.job_cost]
        .into_iter()
        .chain([cost.monthly_cost, cost.cost_per_unit, cost.gpu_hours])
        .chain([cost.storage_cost, cost.egress_cost])
        .collect()
}

/// A message has words, and every number in it is finite. (Its text may
/// quote what the user typed, "inf" included, so the words are not searched.)
fn assert_said(message: &crate::text::Msg, what: &str) {
    let text = message.to_string();
    assert!(!text.trim().is_empty(), "{what} without words");
    assert_finite(&message.figures(), &format!("{what} ({text:.200})"));
}

fn assert_finite(figures: &[f64], what: &str) {
    assert!(figures.iter().all(|x| x.is_finite()), "{what}: a figure that is not finite in {figures:?}");
}

/// No NaN or infinity spelled out, as Rust or JavaScript would print them,
/// except in the words the exports quote from the offer file (an instance
/// may be named "inf", a fuzzed snapshot date hold "1:inf'1").
fn assert_readable(text: &str, snapshot: &Snapshot, what: &str) {
    const SPELLINGS: [&str; 4] = ["NaN", "inf", "Infinity", "∞"];
    // AMD's GPU link, a name the badges say.
    const LINK: &str = "Infinity Fabric";
    let separator = |c: char| !c.is_alphanumeric() && c != '∞';
    // Only where a spelling occurs, and only as a whole word: the fuzzers
    // run this on every input, over exports of hundreds of rows whose
    // "inference" and "InfiniBand" contain "inf". The offer file's words
    // are gathered only once one is needed.
    let mut quoted: Option<Vec<&str>> = None;
    // One pass over the bytes, stopping where a spelling could start.
    let starts = text.bytes().enumerate().filter(|(_, b)| matches!(b, b'N' | b'i' | b'I' | 0xE2));
    for (at, _) in starts {
        let Some(word) = SPELLINGS.into_iter().find(|word| text.as_bytes()[at..].starts_with(word.as_bytes())) else {
            continue;
        };
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        if !before.is_none_or(separator) || !after.is_none_or(separator) || text[at..].starts_with(LINK) {
            continue;
        }
        let quoted = quoted.get_or_insert_with(|| {
            let offers =
                snapshot.offers.iter().flat_map(|o| [&o.provider, &o.instance, &o.gpu].into_iter().chain(&o.regions));
            let fabrics = snapshot.fabrics.iter().flat_map(|f| [&f.fabric, &f.how].into_iter().flatten());
            [&snapshot.snapshot_date]
                .into_iter()
                .chain(offers)
                .chain(fabrics)
                .flat_map(|words| words.split(separator))
                .collect()
        });
        assert!(quoted.contains(&word), "{what} spells {word}: {text:.300}");
    }
}

/// A small deterministic generator (xorshift64*) for the property tests,
/// so they need no crate and fail the same way every run.
#[cfg(test)]
pub(crate) struct Random(pub u64);

#[cfg(test)]
impl Random {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod invariants;
