//! The workload's option enums (task, weights format, runtime, …), each
//! declared once: its values with their URL spelling and their label, from
//! which come `ALL`, `key()`, `label()`, `Display`, `FromStr` and serde.
//! One type then drives the form's `<select>`, the link, the CLI and the
//! JSON, with no table of strings kept beside it (issue 22).

use crate::msg;
use crate::text::{phrases, Msg, Phrase};
use std::fmt;

/// An option enum, as the form, the codec and the errors see every one.
pub trait Choice: Copy + PartialEq + 'static {
    /// Every value, in the order the form lists them.
    const ALL: &'static [Self];
    /// What the option is, for an error about it ("weights format").
    const WHAT: &'static Phrase;
    /// The URL, CLI and JSON spelling.
    fn key(self) -> &'static str;
    /// What the form calls it, in both languages.
    fn label(self) -> &'static Phrase;
}

/// An option value the form, URL or CLI does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownOption {
    pub what: &'static Phrase,
    pub given: String,
    pub known: Vec<&'static str>,
}

impl UnknownOption {
    pub fn message(&self) -> Msg {
        msg!(phrases::ERROR_UNKNOWN_OPTION, what = self.what, given = &self.given, known = self.known.join(", "))
    }
}

impl From<UnknownOption> for Msg {
    fn from(unknown: UnknownOption) -> Msg {
        unknown.message()
    }
}

impl fmt::Display for UnknownOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

/// Reads an option's URL spelling, in any case and with spaces around it.
pub fn parse_choice<T: Choice>(text: &str) -> Result<T, UnknownOption> {
    let wanted = text.trim().to_ascii_lowercase();
    T::ALL.iter().copied().find(|value| value.key() == wanted).ok_or_else(|| UnknownOption {
        what: T::WHAT,
        given: text.to_string(),
        known: T::ALL.iter().map(|value| value.key()).collect(),
    })
}

/// Declares an option enum: its doc and name, what it is (a phrase for
/// errors), then each value with its URL spelling and its label phrase, in
/// the order the form lists them.
///
/// ```text
/// choices! {
///     /// The optimizer (URL key `opt`).
///     pub enum Optimizer: phrases::OPTION_OPTIMIZER {
///         Adamw = "adamw", phrases::OPTIMIZER_ADAMW;
///         …
///     }
/// }
/// ```
macro_rules! choices {
    (
        $(#[$meta:meta])*
        pub enum $name:ident: $what:path {
            $( $(#[$value_meta:meta])* $value:ident = $key:literal, $label:path; )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(into = "String", try_from = "String")]
        pub enum $name {
            $( $(#[$value_meta])* $value, )+
        }

        impl $name {
            /// Every value, in the order the form lists them.
            pub const ALL: [$name; [$($key),+].len()] = [$($name::$value),+];

            /// The URL, CLI and JSON spelling.
            pub const fn key(self) -> &'static str {
                match self {
                    $( $name::$value => $key, )+
                }
            }

            /// What the form calls it, in both languages.
            pub const fn label(self) -> &'static $crate::text::Phrase {
                match self {
                    $( $name::$value => &$label, )+
                }
            }
        }

        impl $crate::engine::options::Choice for $name {
            const ALL: &'static [Self] = &$name::ALL;
            const WHAT: &'static $crate::text::Phrase = &$what;

            fn key(self) -> &'static str {
                $name::key(self)
            }

            fn label(self) -> &'static $crate::text::Phrase {
                $name::label(self)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.key())
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::engine::options::UnknownOption;

            fn from_str(text: &str) -> Result<Self, Self::Err> {
                $crate::engine::options::parse_choice(text)
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                value.key().to_string()
            }
        }

        impl TryFrom<String> for $name {
            type Error = $crate::engine::options::UnknownOption;

            fn try_from(text: String) -> Result<Self, Self::Error> {
                text.parse()
            }
        }

        $crate::json_from_text!($name);
    };
}
pub(crate) use choices;
