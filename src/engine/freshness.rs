//! How old the snapshot's prices are on the reader's clock, and the notice
//! shown at the top of the results once they are old enough to mislead
//! (issue 27). The clock comes from the caller: the page's `Date.now()`,
//! the CLI's system time, or a test's fixed day.

use crate::msg;
use crate::text::{phrases, Arg, Msg};

/// Past this many days the results say how old the prices are. GPU prices
/// move monthly: the 2026-09 catalogs already differ from the providers'
/// own pages (Paperspace's H100 $5.95/h against $3.09/h, DigitalOcean's
/// $6.74/h against $3.39/h; shared/data/SOURCES.md, fourth data pass).
pub const STALE_AFTER_DAYS: i64 = 30;

/// Days per month, 365.25 / 12, for an age in months.
const DAYS_PER_MONTH: f64 = 30.4375;

/// Days since 1970-01-01 of a proleptic Gregorian date (the inverse of
/// `civil_from_days`), for years 1 to 9999.
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let m = i64::from(month);
    let day_of_year = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The calendar date of a day counted from 1970-01-01, as `YYYY-MM-DD`
/// (the inverse of `days_from_civil`).
pub fn date_of(days: i64) -> String {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let m = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * m + 2) / 5 + 1;
    let month = if m < 10 { m + 3 } else { m - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// The day a snapshot date names: `YYYY-MM-DD`, or `YYYY-MM` for the first
/// of that month (its prices are at least that old). `None` for anything
/// else, such as an undated source.
pub fn parse_date(text: &str) -> Option<i64> {
    let mut parts = text.trim().splitn(3, '-');
    let year: i64 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next()?.get(..2)?.parse().ok()?;
    let day: u32 = match parts.next() {
        Some(day) => day.get(..2)?.parse().ok()?,
        None => 1,
    };
    ((1..=9999).contains(&year) && (1..=12).contains(&month) && (1..=31).contains(&day))
        .then(|| days_from_civil(year, month, day))
}

/// How old the prices dated `snapshot_date` are on `today` (days since
/// 1970-01-01), in days; `None` when the date cannot be read.
pub fn age_days(snapshot_date: &str, today: i64) -> Option<i64> {
    parse_date(snapshot_date).map(|day| today - day)
}

/// The notice once the prices are older than `STALE_AFTER_DAYS`: how old,
/// and how to get fresh ones. Days under two months, months after.
pub fn stale_notice(snapshot_date: &str, today: i64) -> Option<Msg> {
    let days = age_days(snapshot_date, today).filter(|&d| d > STALE_AFTER_DAYS)?;
    let age = if days < 60 {
        msg!(phrases::AGE_DAYS, days = days)
    } else {
        msg!(phrases::AGE_MONTHS, months = (days as f64 / DAYS_PER_MONTH).round() as i64)
    };
    Some(msg!(phrases::PRICES_STALE, age = Arg::from(age), date = snapshot_date))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Lang;

    #[test]
    fn days_count_from_the_unix_epoch() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        // 2026-09-01 is 20,697 days after the epoch; 2024 is a leap year.
        assert_eq!(days_from_civil(2026, 9, 1), 20_697);
        assert_eq!(days_from_civil(2024, 3, 1) - days_from_civil(2024, 2, 28), 2);
    }

    #[test]
    fn a_date_and_its_day_are_each_others_inverse() {
        for day in [-1, 0, 11_016, 11_017, 19_782, 20_697, 20_787, 2_932_896] {
            assert_eq!(parse_date(&date_of(day)), Some(day), "{}", date_of(day));
        }
        assert_eq!(date_of(20_697 + 90), "2026-11-30");
        assert_eq!(date_of(days_from_civil(2024, 2, 29)), "2024-02-29");
    }

    #[test]
    fn a_month_date_counts_from_its_first_day_and_bad_dates_are_none() {
        assert_eq!(parse_date("2026-09"), Some(days_from_civil(2026, 9, 1)));
        assert_eq!(parse_date("2026-09-20"), Some(days_from_civil(2026, 9, 20)));
        assert_eq!(parse_date("2026-09-20 (egress)"), Some(days_from_civil(2026, 9, 20)));
        for bad in ["", "about 2023", "2026-13", "v6 catalog", "2026"] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
    }

    #[test]
    fn ninety_days_on_the_prices_are_three_months_old() {
        let snapshot = days_from_civil(2026, 9, 1);
        assert_eq!(stale_notice("2026-09", snapshot + 30), None);
        let days = stale_notice("2026-09", snapshot + 45).unwrap().render(Lang::En);
        assert!(days.contains("45 days old"), "{days}");
        let months = stale_notice("2026-09", snapshot + 90).unwrap();
        assert!(months.render(Lang::En).contains("3 months old"), "{}", months.render(Lang::En));
        assert!(months.render(Lang::Es).contains("3 meses"), "{}", months.render(Lang::Es));
        assert!(months.render(Lang::En).contains("snapshot --fetch"));
        // A clock behind the snapshot, or an undated snapshot: no notice.
        assert_eq!(stale_notice("2026-09", snapshot - 400), None);
        assert_eq!(stale_notice("undated", snapshot + 400), None);
    }
}
