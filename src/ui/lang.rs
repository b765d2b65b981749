//! The language components render in: the page provides it as a context.

use crate::text::Lang;
use leptos::prelude::*;

/// The language components render in, provided by the page.
pub fn use_lang() -> Lang {
    use_context::<Lang>().unwrap_or_default()
}
