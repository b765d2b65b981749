//! The page's words in English and Spanish, and numbers as each language
//! writes them.
//!
//! Pure Rust, shared by the engine, the page and the CLI. Every phrase is
//! a [`Phrase`] in [`phrases`] with both languages side by side, so a
//! missing translation does not compile. The engine's messages (errors,
//! notes, advice, reasons) are [`Msg`] values: a phrase and its arguments,
//! rendered in the reader's language when shown. `Display` and JSON give
//! English, which the CLI prints.

pub mod fingerprint;
mod numbers;
pub mod phrases;
pub mod spanish;

use serde::{Serialize, Serializer};
use std::fmt;

/// A language the page speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Es,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// The BCP 47 code, as in `lang=es` and `<html lang>`.
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The language's own name, for the switcher.
    pub const fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Español",
        }
    }

    /// Reads a code such as `es`, `es-MX` or `EN_us`.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.trim().split(['-', '_']).next().unwrap_or_default().to_ascii_lowercase();
        Lang::ALL.into_iter().find(|lang| lang.code() == primary)
    }

    /// The first of the browser's preferred languages the page speaks;
    /// English when none is.
    pub fn preferred<'a>(codes: impl IntoIterator<Item = &'a str>) -> Lang {
        codes.into_iter().find_map(Lang::from_code).unwrap_or_default()
    }

    /// The phrase in this language (on the page, English until its Spanish
    /// is loaded: `spanish::install`).
    pub fn t(self, phrase: &'static Phrase) -> &'static str {
        match self {
            Lang::En => phrase.en,
            Lang::Es => spanish::of(phrase),
        }
    }
}

/// One thing the page says, in each language. `{name}` marks where an
/// argument goes.
#[derive(Debug, PartialEq, Eq)]
pub struct Phrase {
    /// The constant's name, for tests and reviews (not in the page's module).
    #[cfg(not(feature = "lazy-spanish"))]
    pub key: &'static str,
    pub en: &'static str,
    /// Every build carries the Spanish but the page's module, which loads
    /// it when a visitor reads Spanish (`spanish`, issue 38).
    #[cfg(not(feature = "lazy-spanish"))]
    pub es: &'static str,
}

/// A value that goes into a phrase, formatted for the reader's language.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// Names, ids and text the user typed: shown as is.
    Text(String),
    /// A count.
    Int(i64),
    /// A number with this many decimals.
    Num(f64, usize),
    /// Bytes, shown in GB.
    Bytes(f64),
    /// US dollars.
    Usd(f64),
    /// A duration in hours ("45 min", "3.2 h", "4.1 days").
    Hours(f64),
    /// A phrase (a label) in the reader's language.
    Phrase(&'static Phrase),
    /// A whole message, such as the reason inside an exclusion.
    Msg(Box<Msg>),
    /// Labels listed with commas ("Decode per sequence, Output").
    List(Vec<&'static Phrase>),
}

impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}

impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

macro_rules! int_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Int(n as i64)
            }
        }
    )*};
}
int_arg!(u8, u32, u64, usize, i32, i64);

impl From<&'static Phrase> for Arg {
    fn from(phrase: &'static Phrase) -> Arg {
        Arg::Phrase(phrase)
    }
}

impl From<Msg> for Arg {
    fn from(msg: Msg) -> Arg {
        Arg::Msg(Box::new(msg))
    }
}

impl Arg {
    fn render(&self, lang: Lang) -> String {
        match self {
            Arg::Text(text) => text.clone(),
            Arg::Int(n) => lang.int(*n),
            Arg::Num(x, decimals) => lang.number(*x, *decimals),
            Arg::Bytes(bytes) => lang.gb(*bytes),
            Arg::Usd(amount) => lang.usd(*amount),
            Arg::Hours(hours) => lang.hours(*hours),
            Arg::Phrase(phrase) => lang.t(phrase).to_string(),
            Arg::Msg(msg) => msg.render(lang),
            Arg::List(labels) => labels.iter().map(|l| lang.t(l)).collect::<Vec<_>>().join(", "),
        }
    }
}

/// Something the engine says: a phrase and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Msg {
    phrase: &'static Phrase,
    args: Vec<(&'static str, Arg)>,
}

/// `msg!(phrases::NEEDS, need = Arg::Bytes(b), count = 2)`.
#[macro_export]
macro_rules! msg {
    ($phrase:expr $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::text::Msg::new(&$phrase, vec![$((stringify!($name), $crate::text::Arg::from($value))),*])
    };
}

impl Msg {
    pub fn new(phrase: &'static Phrase, args: Vec<(&'static str, Arg)>) -> Msg {
        Msg { phrase, args }
    }

    /// The phrase it says, for tests and grouping.
    pub fn phrase(&self) -> &'static Phrase {
        self.phrase
    }

    /// Every number it carries, nested messages included, for the checks
    /// that no NaN or ∞ reaches a reader (`crate::hardening`).
    pub fn figures(&self) -> Vec<f64> {
        let mut figures = Vec::new();
        for (_, arg) in &self.args {
            match arg {
                Arg::Num(x, _) | Arg::Bytes(x) | Arg::Usd(x) | Arg::Hours(x) => figures.push(*x),
                Arg::Msg(inner) => figures.extend(inner.figures()),
                Arg::Text(_) | Arg::Int(_) | Arg::Phrase(_) | Arg::List(_) => {}
            }
        }
        figures
    }

    /// The message in `lang`. A placeholder without an argument stays as
    /// `{name}`, which the phrase tests catch.
    pub fn render(&self, lang: Lang) -> String {
        fill(lang.t(self.phrase), |name| self.args.iter().find(|(n, _)| *n == name).map(|(_, arg)| arg.render(lang)))
    }
}

/// Replaces each `{name}` in `template` with `value(name)`.
fn fill(template: &str, value: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match value(name) {
                    Some(text) => out.push_str(&text),
                    None => out.push_str(&rest[open..open + close + 2]),
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The names of a template's placeholders, in order.
pub fn placeholders(template: &str) -> Vec<&str> {
    template.split('{').skip(1).filter_map(|part| part.split_once('}').map(|(name, _)| name)).collect()
}

impl fmt::Display for Phrase {
    /// English, as the CLI prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.en)
    }
}

impl fmt::Display for Msg {
    /// English, as the CLI prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

impl Serialize for Msg {
    /// English, as in the CLI's JSON.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests;
