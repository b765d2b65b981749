//! The offers left out, grouped by their reason in the page's language,
//! the most common first, each with a few example machines.

use crate::engine::{Catalog, Report, Snapshot};
use crate::msg;
use crate::text::{phrases, Lang};

/// Example machines named per reason.
const EXAMPLES: usize = 3;

/// One reason and the offers it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct ExcludedGroup {
    /// "12 offers:"
    pub count: String,
    pub reason: String,
    /// Up to three different machines by their GPU's name, and how many
    /// more ("aws p3.2xlarge (1× V100 SXM2 16GB), … and 9 more").
    pub examples: String,
}

/// The groups of `report.excluded`, largest first, then by reason.
pub fn excluded_groups(report: &Report, snapshot: &Snapshot, catalog: &Catalog, lang: Lang) -> Vec<ExcludedGroup> {
    // A few dozen reasons at most: a list is enough to group them.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for exclusion in &report.excluded {
        let reason = exclusion.reason.render(lang);
        match groups.iter_mut().find(|(said, _)| *said == reason) {
            Some((_, offers)) => offers.push(exclusion.offer),
            None => groups.push((reason, vec![exclusion.offer])),
        }
    }
    crate::sorting::sort_short_by(&mut groups, |a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    groups
        .into_iter()
        .map(|(reason, offers)| {
            // An instance listed in several regions is one example.
            let mut examples: Vec<String> = Vec::new();
            let mut looked = 0;
            for &i in &offers {
                if examples.len() == EXAMPLES {
                    break;
                }
                looked += 1;
                let offer = &snapshot.offers[i];
                let example = msg!(
                    phrases::EXCLUDED_EXAMPLE,
                    provider = &offer.provider,
                    instance = &offer.instance,
                    count = offer.gpu_count,
                    gpu = catalog.gpu_name(&offer.gpu)
                )
                .render(lang);
                if !examples.contains(&example) {
                    examples.push(example);
                }
            }
            let more = offers.len() - looked;
            let examples = if more > 0 {
                msg!(phrases::EXAMPLES_AND_MORE, examples = examples.join(", "), more = more).render(lang)
            } else {
                examples.join(", ")
            };
            ExcludedGroup { count: msg!(phrases::EXCLUDED_GROUP, count = offers.len()).render(lang), reason, examples }
        })
        .collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{rank, snapshot::committed};
    use crate::url_codec;

    #[test]
    fn offers_left_out_are_grouped_by_reason_largest_first_with_distinct_examples() {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = committed();
        let workload = url_codec::decode("model=llama-3.1-70b&wq=bf16", catalog).workload;
        let report = rank(&workload, catalog, &snapshot).unwrap();
        let groups = excluded_groups(&report, &snapshot, catalog, Lang::En);
        assert!(groups.len() > 1);
        let sizes: Vec<usize> =
            groups.iter().map(|g| g.count.split(' ').next().unwrap().replace(',', "").parse().unwrap()).collect();
        assert_eq!(sizes.iter().sum::<usize>(), report.excluded.len());
        assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
        for group in &groups {
            assert!(group.reason.starts_with("needs ") || !group.reason.is_empty());
            let shown: Vec<&str> = group.examples.split(" and ").next().unwrap().split("), ").collect();
            assert!(shown.len() <= EXAMPLES, "{}", group.examples);
            let mut distinct = shown.clone();
            distinct.dedup();
            assert_eq!(distinct.len(), shown.len(), "{}", group.examples);
        }
        // The memory reason names what is needed and what the card has.
        assert!(groups.iter().any(|g| g.reason.starts_with("needs ") && g.reason.contains(", has ")));
        let es = excluded_groups(&report, &snapshot, catalog, Lang::Es);
        assert_eq!(es.len(), groups.len());
        assert_ne!(es[0].reason, groups[0].reason);
    }
}
