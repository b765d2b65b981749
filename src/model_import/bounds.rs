//! The custom model's bounds (`engine::custom_model`) applied to what a
//! file header states, with the field named when it is out of range.

use super::ImportError;

/// A number past the bounds, with the field and the bounds named.
pub fn out_of_range<T: std::fmt::Display>(field: &str, value: f64, bounds: (&str, T, T)) -> ImportError {
    ImportError::BadValue {
        field: field.to_string(),
        detail: format!("{value} is outside {}..={} ({})", bounds.1, bounds.2, bounds.0),
    }
}

/// `value` as a custom-model number, if within the model's bounds
/// (`custom_model::LAYERS`, ...).
pub fn within(value: u64, bounds: (&str, u32, u32), field: &str) -> Result<u32, ImportError> {
    u32::try_from(value)
        .ok()
        .filter(|v| (bounds.1..=bounds.2).contains(v))
        .ok_or_else(|| out_of_range(field, value as f64, bounds))
}

/// `value` if finite and within the model's bounds.
pub fn within_f64(value: f64, bounds: (&str, f64, f64), field: &str) -> Result<f64, ImportError> {
    if value.is_finite() && (bounds.1..=bounds.2).contains(&value) {
        Ok(value)
    } else {
        Err(out_of_range(field, value, bounds))
    }
}
