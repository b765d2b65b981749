//! The clock boundary: today's date on the visitor's clock (`Date.now()`),
//! which the prices' age is measured against. The only module that reads
//! the time of day.

/// Days since 1970-01-01, UTC.
pub fn days_today() -> i64 {
    (js_sys::Date::now() / 86_400_000.0).floor() as i64
}
