//! The offers table's caption: how many of the snapshot's offers hold the
//! workload, by what they are ranked, and, when the offer a link selects
//! (URL key `offer`) is not listed, why; and which row that offer is.

use crate::engine::{RankedOffer, Report, Snapshot};
use crate::msg;
use crate::text::{phrases, Lang, Msg};
use crate::url_codec::OfferRef;

/// The caption: "N of the M offers hold this workload, by …", or why none
/// does, after `unlisted`'s note when there is one. Offers, not rows: an
/// offer may be listed on-demand and spot, and then the caption says how
/// many are and how many rows that makes (issue 40: "1,590 offers" beside
/// "Rows 1–10 of 2,244" went unexplained).
pub fn caption(report: &Report, total: usize, unlisted: Option<&Msg>, lang: Lang) -> String {
    let mut counted = vec![false; total];
    let fitting = report
        .results
        .iter()
        .filter(|r| counted.get_mut(r.offer).is_some_and(|seen| !std::mem::replace(seen, true)))
        .count();
    let by = lang.t(report.objective.label()).to_ascii_lowercase();
    let said = if fitting == 0 {
        match &report.no_single_node {
            Some(note) => msg!(phrases::CAPTION_NONE_WITH_NOTE, total = total, note = note.clone()),
            None => msg!(phrases::CAPTION_NONE, total = total),
        }
    } else {
        let rows = report.results.len();
        if rows > fitting {
            msg!(phrases::CAPTION_WITH_SPOT, fitting = fitting, total = total, rows = rows, by = by)
        } else {
            msg!(phrases::CAPTION, fitting = fitting, total = total, by = by)
        }
    }
    .render(lang);
    match unlisted {
        Some(note) => format!("{} {said}", note.render(lang)),
        None => said,
    }
}

/// Why the ranking does not list the offer `chosen` names: its reason for
/// being left out, or that it is gone from these offers. Nothing when it is
/// neither: its other price (on-demand or spot) is the one listed.
pub fn unlisted(chosen: &OfferRef, report: &Report, snapshot: &Snapshot) -> Option<Msg> {
    let same = |i: usize| chosen.names(&snapshot.offers[i]);
    let why = match report.excluded.iter().find(|e| same(e.offer)) {
        Some(exclusion) => exclusion.reason.clone(),
        None if (0..snapshot.offers.len()).any(same) => return None,
        None => msg!(phrases::CHOSEN_GONE, date = snapshot.snapshot_date.clone()),
    };
    Some(msg!(phrases::CHOSEN_NOT_LISTED, offer = chosen.key(), why = why))
}

/// Whether `row` is the offer `chosen` names.
pub fn names(snapshot: &Snapshot, row: &RankedOffer, chosen: &OfferRef) -> bool {
    row.spot == chosen.spot && chosen.names(&snapshot.offers[row.offer])
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, snapshot::committed, Catalog};
    use crate::text::Lang;
    use crate::url_codec;

    fn ranked(query: &str) -> (Report, Snapshot) {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = committed();
        let report = rank(&url_codec::decode(query, catalog).workload, catalog, &snapshot).unwrap();
        (report, snapshot)
    }

    fn chosen(provider: &str, instance: &str, spot: bool) -> OfferRef {
        OfferRef { provider: provider.into(), instance: instance.into(), region: None, spot }
    }

    #[test]
    fn the_caption_counts_offers_not_rows_and_says_the_objective() {
        let (report, snapshot) = ranked("task=image&model=sdxl-base-1.0&n=10000&batch=4");
        let total = snapshot.offers.len();
        let mut offers: Vec<usize> = report.results.iter().map(|r| r.offer).collect();
        offers.sort_unstable();
        offers.dedup();
        // Spot and on-demand rows of one offer are one offer.
        assert!(offers.len() < report.results.len());
        let said = caption(&report, total, None, Lang::En);
        let int = |n: usize| Lang::En.int(n as i64);
        assert_eq!(
            said,
            format!(
                "{} of {} offers hold this workload, in {} rows (an offer's on-demand and spot prices apart), \
                 cheapest whole job:",
                int(offers.len()),
                int(total),
                int(report.results.len())
            )
        );
        let (none, snapshot) = ranked("max_ph=0.01");
        let said = caption(&none, snapshot.offers.len(), None, Lang::Es);
        assert!(said.contains(&Lang::Es.int(snapshot.offers.len() as i64)), "{said}");
        let note = unlisted(&chosen("aws", "p9.gone", false), &none, &snapshot).unwrap();
        let with_note = caption(&none, snapshot.offers.len(), Some(&note), Lang::En);
        assert!(with_note.starts_with("The selected offer, aws:p9.gone, is not listed"), "{with_note}");
    }

    #[test]
    fn a_listed_offer_is_its_row_and_needs_no_caption() {
        let (report, snapshot) = ranked("model=llama-3.1-8b");
        let top = &report.results[0];
        let offer = &snapshot.offers[top.offer];
        let link = chosen(&offer.provider, &offer.instance, top.spot);
        assert!(names(&snapshot, top, &link));
        assert!(!names(&snapshot, top, &OfferRef { spot: !top.spot, ..link.clone() }));
        assert_eq!(unlisted(&link, &report, &snapshot), None);
    }

    /// Issue 40: AWS lists each instance once per region, at its own
    /// price, and `offer=aws:g4dn.12xlarge` could not say which.
    #[test]
    fn an_instance_listed_in_several_regions_is_named_with_its_region() {
        let (report, snapshot) = ranked("model=llama-3.1-8b&provider=aws&gpu=t4");
        let rows: Vec<&RankedOffer> =
            report.results.iter().filter(|r| snapshot.offers[r.offer].instance == "g4dn.12xlarge").collect();
        assert!(rows.len() >= 2, "{}", rows.len());
        let links: Vec<OfferRef> =
            rows.iter().map(|r| OfferRef::of(&snapshot.offers[r.offer], &snapshot, r.spot)).collect();
        for (row, link) in rows.iter().zip(&links) {
            let region = link.region.as_deref().unwrap();
            assert_eq!(Some(region), snapshot.offers[row.offer].regions.first().map(String::as_str));
            assert_eq!(OfferRef::parse(&link.key()).unwrap(), *link);
            // Each link names its own row and no other.
            let named: Vec<_> = report.results.iter().filter(|r| names(&snapshot, r, link)).collect();
            assert_eq!(named.len(), 1, "{}", link.key());
            assert!(std::ptr::eq(named[0], *row));
        }
        // An instance name only one region lists needs none.
        let top = &report.results[0];
        let unique = snapshot.offers.iter().find(|o| {
            snapshot.offers.iter().filter(|other| other.provider == o.provider && other.instance == o.instance).count()
                == 1
        });
        let unique = unique.unwrap();
        assert_eq!(OfferRef::of(unique, &snapshot, top.spot).region, None);
        // A link without a region still finds the instance (links made before).
        let old = chosen("aws", "g4dn.12xlarge", rows[0].spot);
        assert!(report.results.iter().any(|r| names(&snapshot, r, &old)));
    }

    #[test]
    fn an_offer_left_out_says_its_reason_and_one_gone_says_the_prices_date() {
        // A 16 GB T4 cannot hold the 70B at 16 bits (README, "needs … has …").
        let (report, snapshot) = ranked("model=llama-3.1-70b&wq=bf16");
        let left_out = &snapshot.offers[report.excluded[0].offer];
        let link = chosen(&left_out.provider, &left_out.instance, false);
        let said = unlisted(&link, &report, &snapshot).unwrap().render(Lang::En);
        assert!(
            said.starts_with(&format!("The selected offer, {}:{}, is not listed: ", link.provider, link.instance)),
            "{said}"
        );
        assert!(said.contains(&report.excluded[0].reason.render(Lang::En)), "{said}");

        let gone = unlisted(&chosen("aws", "p9.gone", true), &report, &snapshot).unwrap();
        assert_eq!(
            gone.render(Lang::En),
            format!(
                "The selected offer, aws:p9.gone:spot, is not listed: it is not among these offers (prices of {}).",
                snapshot.snapshot_date
            )
        );
        assert!(gone.render(Lang::Es).contains(&snapshot.snapshot_date));
        assert_ne!(gone.render(Lang::Es), gone.render(Lang::En));
    }
}
