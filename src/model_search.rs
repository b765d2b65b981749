//! The model picker's search: what a few typed words find among the
//! models a task can use. Pure, so the page and its tests agree on it.
//!
//! A model matches when each word of the search appears in its name, its
//! id, its family or its kind, in any case: "llama 3.1 70" finds Llama
//! 3.1 70B; "qwen coder" the Qwen2.5-Coder and Qwen3-Coder models;
//! "vision" the vision-language models; "moe" the mixtures of experts.
//! Typing a model's whole name or id (as a link has it, `llama-3.1-70b`)
//! is exact. Case is ASCII case: the catalog's names and ids are ASCII.

use crate::engine::Model;

/// One model as the picker lists and searches it.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub id: String,
    pub name: String,
    /// Lower-case words a search may also match: family, modality, and
    /// "moe" for a mixture of experts.
    pub keywords: String,
}

impl Entry {
    pub fn of(model: &Model) -> Entry {
        let moe = if model.active_params.is_some() { " moe" } else { "" };
        Entry {
            id: model.id.clone(),
            name: model.name.clone(),
            keywords: format!("{} {}{moe}", model.family, model.modality).to_ascii_lowercase(),
        }
    }

    /// An entry that is only a name ("Custom model…").
    pub fn named(id: &str, name: &str) -> Entry {
        Entry { id: id.to_string(), name: name.to_string(), keywords: String::new() }
    }
}

/// What a search found among the picker's entries; the numbers are
/// indices into them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// Nothing was typed.
    Nothing,
    /// The whole name or id of this entry.
    Exact(usize),
    /// Only this entry holds every word.
    One(usize),
    /// This many entries hold every word.
    Several(usize),
    /// No entry holds every word.
    None,
}

/// Searches `entries` for `query`.
pub fn search(entries: &[Entry], query: &str) -> Found {
    // ASCII case: model names and ids are ASCII, and Unicode's case tables
    // would cost the page about 10 KB of WebAssembly.
    let query = query.trim().to_ascii_lowercase();
    if query.is_empty() {
        return Found::Nothing;
    }
    if let Some(at) =
        entries.iter().position(|e| e.id.eq_ignore_ascii_case(&query) || e.name.eq_ignore_ascii_case(&query))
    {
        return Found::Exact(at);
    }
    let mut matching = entries.iter().enumerate().filter(|(_, e)| {
        let (id, name) = (e.id.to_ascii_lowercase(), e.name.to_ascii_lowercase());
        query.split_whitespace().all(|word| name.contains(word) || id.contains(word) || e.keywords.contains(word))
    });
    match (matching.next(), matching.count()) {
        (None, _) => Found::None,
        (Some((at, _)), 0) => Found::One(at),
        (Some(_), more) => Found::Several(more + 1),
    }
}

/// The search as a message quotes it: at most 40 characters, so a long
/// paste does not fill the form with its echo.
pub fn echo(query: &str) -> String {
    const LONGEST: usize = 40;
    let query = query.trim();
    match query.char_indices().nth(LONGEST) {
        Some((cut, _)) => format!("{}…", &query[..cut]),
        None => query.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Catalog, Task};

    /// The LLM picker's entries from the bundled catalog (models.csv and
    /// models_more.csv), as the page lists them, with its "Custom model…"
    /// entry last.
    fn llm_entries() -> Vec<Entry> {
        let catalog = Catalog::bundled().unwrap();
        let mut entries: Vec<Entry> = catalog.models.iter().filter(|m| m.suits(Task::Infer)).map(Entry::of).collect();
        entries.push(Entry::named("custom", "Custom model…"));
        entries
    }

    fn id(entries: &[Entry], found: Found) -> &str {
        match found {
            Found::Exact(at) | Found::One(at) => &entries[at].id,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_whole_name_or_id_in_any_case_is_exact() {
        let entries = llm_entries();
        assert_eq!(id(&entries, search(&entries, "Llama 3.1 70B")), "llama-3.1-70b");
        assert!(matches!(search(&entries, "  mixtral-8x7b "), Found::Exact(_)));
        assert_eq!(id(&entries, search(&entries, "mixtral-8x7b")), "mixtral-8x7b");
        assert_eq!(id(&entries, search(&entries, "custom model…")), "custom");
    }

    #[test]
    fn every_word_must_match_the_name_or_the_id() {
        let entries = llm_entries();
        // Llama 2, 3, 3.1 and 3.3 70B, and the Nemotron and R1 distills of Llama 70B.
        assert_eq!(search(&entries, "llama 70"), Found::Several(6));
        assert_eq!(id(&entries, search(&entries, "llama 3.1 70b")), "llama-3.1-70b");
        assert_eq!(id(&entries, search(&entries, "3.3 70")), "llama-3.3-70b");
        assert_eq!(id(&entries, search(&entries, "8x22")), "mixtral-8x22b");
        assert_eq!(search(&entries, "llama 9000"), Found::None);
        // Image models are not in the LLM picker.
        assert_eq!(search(&entries, "sdxl"), Found::None);
        assert_eq!(search(&entries, "   "), Found::Nothing);
    }

    /// The catalog of current models (models_more.csv) is searched by
    /// family and kind as well as by name.
    #[test]
    fn families_and_kinds_find_the_current_models() {
        let entries = llm_entries();
        let found = |query: &str| -> Vec<&str> {
            let query = query.to_ascii_lowercase();
            entries
                .iter()
                .filter(|e| {
                    query
                        .split_whitespace()
                        .all(|w| e.name.to_ascii_lowercase().contains(w) || e.id.contains(w) || e.keywords.contains(w))
                })
                .map(|e| e.id.as_str())
                .collect()
        };
        // Code models of every family.
        let coders = found("coder");
        assert!(coders.len() >= 4 && coders.contains(&"qwen3-coder-480b-a35b"), "{coders:?}");
        assert_eq!(
            search(&entries, "qwen2.5-coder 32"),
            Found::One(entries.iter().position(|e| e.id == "qwen2.5-coder-32b").unwrap())
        );
        // Vision-language models by their kind; mixtures of experts by "moe".
        let vision = found("vision-language");
        assert!(vision.len() >= 20 && vision.contains(&"qwen2.5-vl-7b"), "{vision:?}");
        let moe = found("moe");
        assert!(moe.contains(&"gpt-oss-120b") && moe.contains(&"kimi-k2") && !moe.contains(&"llama-3.1-8b"), "{moe:?}");
        assert_eq!(id(&entries, search(&entries, "qwen3 vl 30")), "qwen3-vl-30b-a3b");
        assert_eq!(search(&entries, "search"), search(&entries, "SEARCH"));
    }

    #[test]
    fn a_long_search_is_echoed_cut_short() {
        assert_eq!(echo(" llama 70 "), "llama 70");
        let long = "ñ".repeat(5000);
        assert_eq!(echo(&long), format!("{}…", "ñ".repeat(40)));
        assert_eq!(echo(&"x".repeat(40)), "x".repeat(40));
    }
}
