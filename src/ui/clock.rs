//! The clock boundary: today's date on the visitor's clock (`Date.now()`),
//! which the prices' age is measured against. The only module that reads
//! the time of day.

use crate::units::MILLISECONDS_PER_DAY;

/// Days since 1970-01-01, UTC.
pub fn days_today() -> i64 {
    (js_sys::Date::now() / MILLISECONDS_PER_DAY).floor() as i64
}
