//! The document boundary: the browser's preferred languages, and the
//! page's `<html lang>` and title. The only module that reads
//! `navigator.languages` or writes the document's language and title.

use crate::text::{phrases, Lang};

/// The browser's languages, most preferred first (`navigator.languages`,
/// else `navigator.language`); empty when unavailable.
pub fn preferred_languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let listed: Vec<String> = navigator.languages().iter().filter_map(|tag| tag.as_string()).collect();
    if listed.is_empty() {
        navigator.language().into_iter().collect()
    } else {
        listed
    }
}

/// The language the page opens in: the link's (`lang=`), else the
/// browser's first the page speaks.
pub fn page_lang() -> crate::text::Lang {
    use crate::text::Lang;
    let query = super::url_state::current_query();
    let linked = query.split('&').find_map(|pair| pair.strip_prefix("lang=")).and_then(Lang::from_code);
    linked.unwrap_or_else(|| Lang::preferred(preferred_languages().iter().map(String::as_str)))
}

/// Marks the document as written in `lang` (screen readers and the
/// browser's translation offer read `<html lang>`) and titles it.
pub fn show_language(lang: Lang) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    // Each write costs the browser work even when nothing changes (a new
    // title is sent to the browser's window), so only changes are written.
    if let Some(root) = document.document_element() {
        if root.get_attribute("lang").as_deref() != Some(lang.code()) {
            let _ = root.set_attribute("lang", lang.code());
        }
    }
    let title = lang.t(&phrases::PAGE_TITLE);
    if document.title() != title {
        document.set_title(title);
    }
}

/// Removes the note index.html shows until the page is built (`#boot`:
/// the name and "Loading…" in both languages): the page, the catalog's
/// error or the crash panel takes its place.
pub fn remove_boot_notice() {
    let document = web_sys::window().and_then(|w| w.document());
    if let Some(note) = document.and_then(|d| d.get_element_by_id("boot")) {
        note.remove();
    }
}

/// Widest viewport, in CSS pixels, laid out as a phone: style/main.css's
/// `max-width: 40rem` at the default 16 px a rem.
const PHONE_MAX_WIDTH_PX: f64 = 640.0;

/// Whether the page is laid out as a phone's (style/main.css, 40rem).
pub fn narrow_screen() -> bool {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|width| width.as_f64())
        .is_some_and(|width| width <= PHONE_MAX_WIDTH_PX)
}
