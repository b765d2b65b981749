//! The page's Spanish, loaded on demand (issue 38): the page's module is
//! built with the `lazy-spanish` feature (index.html), so the WebAssembly
//! that paints the first result carries English only, and a visitor who
//! reads Spanish downloads `data/es.json` beside it. Every other build (the
//! CLI, the tests, the model-import worker) carries both languages in every
//! [`Phrase`].
//!
//! The file is every phrase's Spanish in [`phrases::ALL`]'s order, with a
//! fingerprint of the phrases' keys: a file from another build of the page
//! (a stale cache) does not match and is not installed, and the page stays
//! in English rather than put one phrase's words in another's place.

use super::{phrases, Phrase};

/// The fingerprint of the phrases this build knows, as 16 hex digits
/// (`phrases::FINGERPRINT`).
pub fn fingerprint() -> String {
    format!("{:016x}", phrases::FINGERPRINT)
}

/// `data/es.json`: `{"phrases": fingerprint, "es": [every phrase's Spanish]}`.
#[cfg(not(feature = "lazy-spanish"))]
pub fn table_json() -> String {
    let es: Vec<&str> = phrases::ALL.iter().map(|p| p.es).collect();
    let mut text = serde_json::json!({ "phrases": fingerprint(), "es": es }).to_string();
    text.push('\n');
    text
}

/// A phrase's Spanish.
#[cfg(not(feature = "lazy-spanish"))]
pub fn of(phrase: &'static Phrase) -> &'static str {
    phrase.es
}

/// Whether the Spanish is in: always, where it is built in.
#[cfg(not(feature = "lazy-spanish"))]
pub fn installed() -> bool {
    true
}

/// Nothing to install where the Spanish is built in.
#[cfg(not(feature = "lazy-spanish"))]
pub fn install(_body: &[u8]) -> Result<(), String> {
    Ok(())
}

#[cfg(feature = "lazy-spanish")]
pub use loaded::{install, installed, of};

#[cfg(feature = "lazy-spanish")]
mod loaded {
    use super::{fingerprint, phrases, Phrase};
    use crate::engine::json::{self, Fields, FromJson, Json, JsonError};
    use std::sync::OnceLock;

    /// Each phrase's address and its Spanish, sorted by address.
    static TABLE: OnceLock<Vec<(usize, &'static str)>> = OnceLock::new();

    struct File {
        phrases: String,
        es: Vec<String>,
    }

    impl FromJson for File {
        fn from_json(value: Json<'_>) -> Result<File, JsonError> {
            let mut f = Fields::of(value)?;
            Ok(File { phrases: f.required("phrases")?, es: f.required("es")? })
        }
    }

    /// Reads `data/es.json` and keeps its Spanish for the page's life.
    /// Fails (and keeps English) where the file is not this build's.
    pub fn install(body: &[u8]) -> Result<(), String> {
        let file: File = json::read(body).map_err(|e| e.to_string())?;
        if file.phrases != fingerprint() || file.es.len() != phrases::ALL.len() {
            return Err(format!("data/es.json is for other phrases ({})", file.phrases));
        }
        let mut table: Vec<(usize, &'static str)> = phrases::ALL
            .iter()
            .zip(file.es)
            .map(|(phrase, es)| (address(phrase), &*Box::leak(es.into_boxed_str())))
            .collect();
        table.sort_unstable_by_key(|(at, _)| *at);
        let _ = TABLE.set(table);
        Ok(())
    }

    /// Whether the Spanish is in.
    pub fn installed() -> bool {
        TABLE.get().is_some()
    }

    /// A phrase's Spanish, or its English until the Spanish is in.
    pub fn of(phrase: &'static Phrase) -> &'static str {
        TABLE
            .get()
            .and_then(|table| table.binary_search_by_key(&address(phrase), |(at, _)| *at).ok().map(|i| table[i].1))
            .unwrap_or(phrase.en)
    }

    fn address(phrase: &Phrase) -> usize {
        std::ptr::from_ref(phrase) as usize
    }
}
