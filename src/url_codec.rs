//! The URL is the state: the workload ⇄ the page's query string.
//!
//! Pure, so the page, the CLI (`--config`) and the tests share it. Keys are
//! the CLI's (`model`, `wq`, …); defaults are omitted so links stay short.
//! A bad value falls back to that field's default with a note naming the
//! field, and the rest of the link still applies.

use crate::engine::{Catalog, Precision, Workload};

/// The link format this build writes (URL key `v`).
pub const URL_VERSION: u32 = 1;

/// Something in a link that could not be applied as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// The URL key it concerns.
    pub key: String,
    pub message: String,
}

/// A workload read from a query, and what was wrong with the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub workload: Workload,
    pub notes: Vec<Note>,
}

/// Reads a query string (with or without the leading `?`).
pub fn decode(query: &str, catalog: &Catalog) -> Decoded {
    let mut workload = Workload::default();
    let mut notes = Vec::new();
    let mut note = |key: &str, message: String| {
        notes.push(Note {
            key: key.to_string(),
            message,
        })
    };
    for pair in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(raw_key);
        let value = percent_decode(raw_value);
        match key.as_str() {
            "v" => match value.parse::<u32>() {
                Ok(v) if v <= URL_VERSION => {}
                Ok(v) => note("v", format!("this link was made by a newer version of whichgpu (v={v}); some settings may be ignored")),
                Err(_) => note("v", format!("link version \"{}\" is not a number", shorten(&value))),
            },
            "model" => match catalog.model(&value) {
                Ok(model) => workload.model = model.id.clone(),
                Err(_) => note("model", format!("unknown model \"{}\"; using {}", shorten(&value), workload.model)),
            },
            "wq" => match value.parse::<Precision>() {
                Ok(precision) => workload.weight_precision = precision,
                Err(e) => note("wq", format!("{e}; using {}", workload.weight_precision)),
            },
            _ => note(&key, format!("unknown setting \"{}\" ignored", shorten(&key))),
        }
    }
    Decoded { workload, notes }
}

/// Writes the query for `workload`, without `?`; empty when all defaults.
pub fn encode(workload: &Workload) -> String {
    let defaults = Workload::default();
    let mut pairs: Vec<(&str, String)> = Vec::new();
    if workload.model != defaults.model {
        pairs.push(("model", workload.model.clone()));
    }
    if workload.weight_precision != defaults.weight_precision {
        pairs.push(("wq", workload.weight_precision.to_string()));
    }
    if pairs.is_empty() {
        return String::new();
    }
    let mut query = format!("v={URL_VERSION}");
    for (key, value) in pairs {
        query.push('&');
        query.push_str(key);
        query.push('=');
        query.push_str(&percent_encode(&value));
    }
    query
}

/// Keeps hostile or huge values short in notes.
fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() <= MAX_CHARS {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(MAX_CHARS).collect();
        short.push('…');
        short
    }
}

/// Percent-encodes all but RFC 3986 unreserved characters.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Decodes `%XX` and `+` (form encoding); malformed escapes stay as typed,
/// invalid UTF-8 becomes U+FFFD. Never fails.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let escaped = (byte == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (byte, escaped) {
            (_, Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (other, None) => {
                out.push(other);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> &'static Catalog {
        Catalog::bundled().unwrap()
    }

    #[test]
    fn defaults_encode_to_an_empty_query() {
        assert_eq!(encode(&Workload::default()), "");
        assert_eq!(decode("", catalog()).workload, Workload::default());
    }

    #[test]
    fn every_model_and_precision_round_trips() {
        for model in &catalog().models {
            for precision in Precision::ALL {
                let workload = Workload {
                    model: model.id.clone(),
                    weight_precision: precision,
                };
                let decoded = decode(&encode(&workload), catalog());
                assert_eq!(decoded.workload, workload);
                assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
            }
        }
    }

    #[test]
    fn a_shared_link_reads_with_or_without_the_question_mark() {
        let decoded = decode("?v=1&model=llama-3.1-70b&wq=int4", catalog());
        assert_eq!(decoded.workload.model, "llama-3.1-70b");
        assert_eq!(decoded.workload.weight_precision, Precision::Int4);
        assert!(decoded.notes.is_empty());
    }

    #[test]
    fn a_bad_value_falls_back_for_that_field_only_and_is_named() {
        let decoded = decode("model=%3Cscript%3E&wq=int8&colour=red", catalog());
        assert_eq!(decoded.workload.model, Workload::default().model);
        assert_eq!(decoded.workload.weight_precision, Precision::Int8);
        let keys: Vec<&str> = decoded.notes.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["model", "colour"]);
        assert!(decoded.notes[0].message.contains("\"<script>\""));

        let decoded = decode("wq=fp7", catalog());
        assert_eq!(decoded.workload.weight_precision, Precision::Bf16);
        assert!(decoded.notes[0].message.contains("fp7"));
    }

    #[test]
    fn a_link_from_a_newer_version_says_so() {
        let decoded = decode("v=2&wq=fp8", catalog());
        assert_eq!(decoded.workload.weight_precision, Precision::Fp8);
        assert!(decoded.notes[0].message.contains("newer version"));
    }

    #[test]
    fn malformed_escapes_and_huge_values_never_panic() {
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("a+b%20c"), "a b c");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        let huge = format!("model={}", "x".repeat(100_000));
        let decoded = decode(&huge, catalog());
        assert!(decoded.notes[0].message.len() < 200);
    }

    #[test]
    fn encoding_escapes_reserved_characters() {
        assert_eq!(percent_encode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(percent_decode(&percent_encode("a b&c=d/é")), "a b&c=d/é");
    }
}
