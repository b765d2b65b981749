//! The model picker's search: what a few typed words find among the
//! models a task can use. Pure, so the page and its tests agree on it.
//!
//! A model matches when each word of the search appears in its name, its
//! id, its family or its kind, in any case: "llama 3.1 70" finds Llama
//! 3.1 70B; "qwen coder" the Qwen2.5-Coder and Qwen3-Coder models;
//! "vision" the vision-language models; "moe" the mixtures of experts.
//! Typing a model's whole name or id (as a link has it, `llama-3.1-70b`)
//! is exact. Case is ASCII case: the catalog's names and ids are ASCII.
//! Spacing and punctuation are forgiven when the words find nothing:
//! "llama3.3" finds Llama 3.3 70B, "qwen2.5vl" the Qwen2.5-VL models.

use crate::engine::{Catalog, Model, Task};
use crate::msg;
use crate::text::{phrases, Msg};

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
    let found = |matches: &dyn Fn(&Entry) -> bool| {
        let mut matching = entries.iter().enumerate().filter(|(_, e)| matches(e));
        match (matching.next(), matching.count()) {
            (None, _) => Found::None,
            (Some((at, _)), 0) => Found::One(at),
            (Some(_), more) => Found::Several(more + 1),
        }
    };
    match found(&|e| holds_every_word(e, &query)) {
        Found::None => found(&|e| holds_squeezed(e, &query)),
        words => words,
    }
}

/// Whether each word of `query` (lower case) is in the entry's name, id or
/// keywords.
fn holds_every_word(e: &Entry, query: &str) -> bool {
    let (id, name) = (e.id.to_ascii_lowercase(), e.name.to_ascii_lowercase());
    query.split_whitespace().all(|word| name.contains(word) || id.contains(word) || e.keywords.contains(word))
}

/// Whether `query` without its spacing and punctuation is in the entry's
/// name or id without theirs ("llama3.3" in "Llama 3.3 70B"); at least two
/// letters or digits, so that "-" alone finds nothing.
fn holds_squeezed(e: &Entry, query: &str) -> bool {
    let squeeze = |text: &str| -> String {
        text.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
    };
    let query = squeeze(query);
    query.len() >= 2 && (squeeze(&e.name).contains(&query) || squeeze(&e.id).contains(&query))
}

/// Why a search the picker of `task` found nothing for may still name a
/// model: one the catalog sizes on another tab ("Kokoro-82M is a
/// text-to-speech model: choose the Speech tab"), or one it lists without
/// the numbers to size it. `None` when no catalog model matches either.
pub fn found_elsewhere(catalog: &Catalog, query: &str, task: Task) -> Option<Msg> {
    let query = query.trim().to_ascii_lowercase();
    if query.is_empty() {
        return None;
    }
    let matching = |model: &&Model| {
        let entry = Entry::of(model);
        entry.id.eq_ignore_ascii_case(&query)
            || entry.name.eq_ignore_ascii_case(&query)
            || holds_every_word(&entry, &query)
            || holds_squeezed(&entry, &query)
    };
    let elsewhere = |model: &Model| Task::ALL.into_iter().find(|other| model.suits(*other));
    let others = || catalog.models.iter().filter(|m| !m.suits(task)).filter(matching);
    // A model sized on another tab first: the catalog may also list it
    // under the same name without a shape.
    if let Some((model, other)) = others().find_map(|m| Some((m, elsewhere(m)?))) {
        return Some(msg!(
            phrases::MODEL_ON_ANOTHER_TAB,
            model = &model.name,
            kind = other.model_kind(),
            tab = crate::present::form::tab_label(other)
        ));
    }
    others().next().map(|model| msg!(phrases::MODEL_NOT_SIZED, model = &model.name))
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

    /// Issue 40: "llama3.3" and "qwen2.5vl" found nothing; "kokoro" on the
    /// LLM tab said only "no model matches".
    #[test]
    fn spacing_and_punctuation_are_forgiven_and_other_tabs_named() {
        let entries = llm_entries();
        assert_eq!(id(&entries, search(&entries, "llama3.3")), "llama-3.3-70b");
        assert_eq!(id(&entries, search(&entries, "Llama3.1 70")), "llama-3.1-70b");
        assert_eq!(search(&entries, "qwen2.5vl"), Found::Several(2));
        assert_eq!(id(&entries, search(&entries, "qwen2.5vl7b")), "qwen2.5-vl-7b");
        assert_eq!(id(&entries, search(&entries, "mixtral8x22")), "mixtral-8x22b");
        // Words still come first, and punctuation alone finds nothing.
        assert_eq!(search(&entries, "llama 70"), Found::Several(6));
        assert_eq!(search(&entries, "-."), Found::None);
        let catalog = Catalog::bundled().unwrap();
        assert_eq!(search(&entries, "kokoro"), Found::None);
        let parler = found_elsewhere(catalog, "parler", Task::Infer).unwrap();
        assert_eq!(parler.to_string(), "Parler-TTS Mini v1 is a text-to-speech model: choose the Speech tab");
        assert_eq!(
            parler.render(crate::text::Lang::Es),
            "Parler-TTS Mini v1 es un modelo de texto a voz: elige la pestaña Voz"
        );
        let sdxl = found_elsewhere(catalog, "sdxl", Task::Infer).unwrap().to_string();
        assert!(sdxl.ends_with("choose the Images tab"), "{sdxl}");
        // Kokoro is listed, but its design is not one the engine times.
        let kokoro = found_elsewhere(catalog, "kokoro", Task::Speech).unwrap();
        assert_eq!(kokoro.to_string(), "Kokoro-82M is listed, but this page cannot size it yet");
        assert_eq!(found_elsewhere(catalog, "llama 9000", Task::Infer), None);
        assert_eq!(found_elsewhere(catalog, "  ", Task::Infer), None);
    }

    #[test]
    fn a_long_search_is_echoed_cut_short() {
        assert_eq!(echo(" llama 70 "), "llama 70");
        let long = "ñ".repeat(5000);
        assert_eq!(echo(&long), format!("{}…", "ñ".repeat(40)));
        assert_eq!(echo(&"x".repeat(40)), "x".repeat(40));
    }
}
