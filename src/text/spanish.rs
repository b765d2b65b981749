//! The page's Spanish, loaded on demand (issue 38): the page's module is
//! built with the `lazy-spanish` feature (index.html), so the WebAssembly
//! that paints the first result carries English only, and a visitor who
//! reads Spanish downloads `data/es.bin` beside it (in `crate::wire`'s
//! encoding, so that the page carries no JSON parser). Every other build (the
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

/// What `data/es.bin` holds: the fingerprint of the phrases, and every
/// phrase's Spanish in [`phrases::ALL`]'s order.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct File<S> {
    pub phrases: String,
    pub es: Vec<S>,
}

/// `data/es.bin`, encoded.
#[cfg(not(feature = "lazy-spanish"))]
pub fn table_bytes() -> Vec<u8> {
    let file = File { phrases: fingerprint(), es: phrases::ALL.iter().map(|p| p.es).collect() };
    // Strings and a list: encoding them cannot fail.
    crate::wire::to_bytes(&file).unwrap_or_default()
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
    use super::{fingerprint, phrases, File, Phrase};
    use std::sync::OnceLock;

    /// Each phrase's address and its Spanish, sorted by address.
    static TABLE: OnceLock<Vec<(usize, &'static str)>> = OnceLock::new();

    /// Reads `data/es.bin` and keeps its Spanish for the page's life.
    /// Fails (and keeps English) where the file is not this build's.
    pub fn install(body: &[u8]) -> Result<(), String> {
        let file: File<String> = crate::wire::from_bytes(body).map_err(|e| e.to_string())?;
        if file.phrases != fingerprint() || file.es.len() != phrases::ALL.len() {
            return Err(format!("data/es.bin is for other phrases ({})", file.phrases));
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
