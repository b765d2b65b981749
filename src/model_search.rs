//! The model picker's search: what a few typed words find among the
//! models a task can use. Pure, so the page and its tests agree on it.
//!
//! A model matches when each word of the search appears in its name or its
//! id, in any case: "llama 70" finds Llama 2 70B, Llama 3.1 70B and
//! Llama 3.3 70B Instruct; "whisper" finds only Whisper large. Typing a
//! model's whole name or id (as a link has it, `llama-3.1-70b`) is exact.
//! Case is ASCII case: the catalog's names and ids are ASCII.

/// What a search found among the picker's (id, name) entries; the numbers
/// are indices into them.
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

/// Searches `entries` (id, name) for `query`.
pub fn search(entries: &[(String, String)], query: &str) -> Found {
    // ASCII case: model names and ids are ASCII, and Unicode's case tables
    // would cost the page about 10 KB of WebAssembly.
    let query = query.trim().to_ascii_lowercase();
    if query.is_empty() {
        return Found::Nothing;
    }
    if let Some(at) =
        entries.iter().position(|(id, name)| id.eq_ignore_ascii_case(&query) || name.eq_ignore_ascii_case(&query))
    {
        return Found::Exact(at);
    }
    let mut matching = entries.iter().enumerate().filter(|(_, (id, name))| {
        let (id, name) = (id.to_ascii_lowercase(), name.to_ascii_lowercase());
        query.split_whitespace().all(|word| name.contains(word) || id.contains(word))
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

    /// The LLM picker's entries from the bundled catalog (models.csv), as
    /// the page lists them, with its "Custom model…" entry last.
    fn llm_entries() -> Vec<(String, String)> {
        let catalog = Catalog::bundled().unwrap();
        let mut entries: Vec<(String, String)> =
            catalog.models.iter().filter(|m| m.suits(Task::Infer)).map(|m| (m.id.clone(), m.name.clone())).collect();
        entries.push(("custom".into(), "Custom model…".into()));
        entries
    }

    fn id(entries: &[(String, String)], found: Found) -> &str {
        match found {
            Found::Exact(at) | Found::One(at) => &entries[at].0,
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
        // Llama 2 70B, Llama 3.1 70B, Llama 3.3 70B Instruct.
        assert_eq!(search(&entries, "llama 70"), Found::Several(3));
        assert_eq!(id(&entries, search(&entries, "3.3 70")), "llama-3.3-70b");
        assert_eq!(id(&entries, search(&entries, "8x22")), "mixtral-8x22b");
        assert_eq!(search(&entries, "llama 9000"), Found::None);
        // Image models are not in the LLM picker.
        assert_eq!(search(&entries, "sdxl"), Found::None);
        assert_eq!(search(&entries, "   "), Found::Nothing);
    }

    #[test]
    fn a_long_search_is_echoed_cut_short() {
        assert_eq!(echo(" llama 70 "), "llama 70");
        let long = "ñ".repeat(5000);
        assert_eq!(echo(&long), format!("{}…", "ñ".repeat(40)));
        assert_eq!(echo(&"x".repeat(40)), "x".repeat(40));
    }
}
