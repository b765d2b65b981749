//! Numbers as each language writes them, following the Unicode CLDR
//! number data: English "12,345.6" (grouping from four digits), Spanish
//! "12.345,6" (grouping from five digits, so "1234,5"), and US dollars as
//! "$3.50" and "3,50 US$".

use super::Lang;
use crate::units::BYTES_PER_GB;

/// A no-break space: keeps "3,50 US$" on one line.
const NBSP: char = '\u{a0}';

impl Lang {
    const fn decimal_separator(self) -> char {
        match self {
            Lang::En => '.',
            Lang::Es => ',',
        }
    }

    const fn group_separator(self) -> char {
        match self {
            Lang::En => ',',
            Lang::Es => '.',
        }
    }

    /// The fewest integer digits that get grouped (CLDR minimumGroupingDigits + 3).
    const fn grouping_from_digits(self) -> usize {
        match self {
            Lang::En => 4,
            Lang::Es => 5,
        }
    }

    /// `x` with `decimals` decimals; non-finite values as "–".
    pub fn number(self, x: f64, decimals: usize) -> String {
        if !x.is_finite() {
            return "–".to_string();
        }
        let plain = format!("{:.*}", decimals, x.abs());
        let (whole, fraction) = plain.split_once('.').unwrap_or((&plain, ""));
        let mut out = String::with_capacity(plain.len() + 4);
        // "-0.0" rounds to zero: no sign.
        if x < 0.0 && plain.bytes().any(|b| b.is_ascii_digit() && b != b'0') {
            out.push('-');
        }
        let group = whole.len() >= self.grouping_from_digits();
        for (i, digit) in whole.chars().enumerate() {
            if group && i > 0 && (whole.len() - i) % 3 == 0 {
                out.push(self.group_separator());
            }
            out.push(digit);
        }
        if !fraction.is_empty() {
            out.push(self.decimal_separator());
            out.push_str(fraction);
        }
        out
    }

    /// A count.
    pub fn int(self, n: i64) -> String {
        self.number(n as f64, 0)
    }

    /// US dollars: two significant figures under a cent, three decimals
    /// under $1, cents under $1,000, whole dollars above.
    pub fn usd(self, amount: f64) -> String {
        let decimals = match amount.abs() {
            // Below a cent, two significant figures: a Whisper hour costs
            // $0.00074 to $0.0019 on the cheapest offers, which three
            // decimals showed alike as $0.001 and $0.002. The fewest
            // decimals that show two figures once rounded ($0.00999 is
            // $0.010), at most 15.
            a if a > 0.0 && a < 0.01 => (3..15).find(|&d| (a * 10f64.powi(d)).round() >= 10.0).unwrap_or(15) as usize,
            a if a < 1.0 => 3,
            a if a < 1000.0 => 2,
            _ => 0,
        };
        let figure = self.number(amount, decimals);
        match self {
            Lang::En => match figure.strip_prefix('-') {
                Some(positive) => format!("-${positive}"),
                None => format!("${figure}"),
            },
            Lang::Es => format!("{figure}{NBSP}US$"),
        }
    }

    /// A size in GiB (2^30 bytes, as nvidia-smi and the catalogs count card
    /// memory, written as such: issue 40 found "131 GB" for 141 × 10^9
    /// bytes of weights): whole GiB from 100 GiB or when it is within 0.05
    /// of a whole number.
    pub fn gb(self, bytes: f64) -> String {
        let gb = bytes / BYTES_PER_GB;
        let decimals = if gb >= 100.0 || (gb - gb.round()).abs() < 0.05 { 0 } else { 1 };
        format!("{} GiB", self.number(gb, decimals))
    }

    /// A duration: "45 min", "3.2 h", "4.1 days".
    pub fn hours(self, hours: f64) -> String {
        if hours < 1.0 {
            format!("{} min", self.number((hours * 60.0).max(1.0), 0))
        } else if hours < 48.0 {
            format!("{} h", self.number(hours, 1))
        } else {
            let days = match self {
                Lang::En => "days",
                Lang::Es => "días",
            };
            format!("{} {days}", self.number(hours / 24.0, 1))
        }
    }
}
