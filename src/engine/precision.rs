//! Numeric formats for weights, with their storage cost.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The precision weights are stored in. One type drives the form's
/// `<select>`, the URL key `wq`, the CLI and the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Precision {
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4,
}

impl Precision {
    /// Every precision, in the order the form lists them.
    pub const ALL: [Precision; 6] = [
        Precision::Fp32,
        Precision::Bf16,
        Precision::Fp16,
        Precision::Fp8,
        Precision::Int8,
        Precision::Int4,
    ];

    /// The URL and CLI spelling.
    pub const fn key(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Bf16 => "bf16",
            Precision::Fp16 => "fp16",
            Precision::Fp8 => "fp8",
            Precision::Int8 => "int8",
            Precision::Int4 => "int4",
        }
    }

    /// Storage per weight in bits. IEEE 754 binary32 and binary16, bfloat16
    /// and the OCP FP8 formats (E4M3/E5M2) have these widths by definition;
    /// int8/int4 are the bare integer widths (group scales are added with the
    /// GGUF/AWQ/GPTQ formats of issue 4).
    pub const fn bits_per_weight(self) -> f64 {
        match self {
            Precision::Fp32 => 32.0,
            Precision::Bf16 | Precision::Fp16 => 16.0,
            Precision::Fp8 | Precision::Int8 => 8.0,
            Precision::Int4 => 4.0,
        }
    }

    /// Human label for the form.
    pub const fn label(self) -> &'static str {
        match self {
            Precision::Fp32 => "FP32 (32-bit)",
            Precision::Bf16 => "BF16 (16-bit)",
            Precision::Fp16 => "FP16 (16-bit)",
            Precision::Fp8 => "FP8 (8-bit)",
            Precision::Int8 => "INT8 (8-bit)",
            Precision::Int4 => "INT4 (4-bit)",
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// An unknown precision spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPrecision(pub String);

impl fmt::Display for UnknownPrecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Precision::ALL.iter().map(|p| p.key()).collect();
        write!(
            f,
            "unknown precision \"{}\" (use one of {})",
            self.0,
            known.join(", ")
        )
    }
}

impl FromStr for Precision {
    type Err = UnknownPrecision;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase();
        Precision::ALL
            .into_iter()
            .find(|p| p.key() == wanted)
            .ok_or_else(|| UnknownPrecision(s.to_string()))
    }
}

impl From<Precision> for String {
    fn from(p: Precision) -> String {
        p.key().to_string()
    }
}

impl TryFrom<String> for Precision {
    type Error = UnknownPrecision;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_precision_round_trips_through_its_key() {
        for p in Precision::ALL {
            assert_eq!(p.key().parse::<Precision>(), Ok(p));
            assert_eq!(p.to_string(), p.key());
        }
    }

    #[test]
    fn spellings_are_case_insensitive_and_unknown_ones_are_named() {
        assert_eq!("BF16".parse::<Precision>(), Ok(Precision::Bf16));
        let err = "fp7".parse::<Precision>().unwrap_err();
        assert!(err.to_string().contains("\"fp7\""), "{err}");
        assert!(err.to_string().contains("int4"), "{err}");
    }
}
