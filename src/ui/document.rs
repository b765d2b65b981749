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

/// Removes the default page's first result drawn at build time
/// (scripts/prerender.mjs), which a plain visit shows from the first paint,
/// or from when it comes in Spanish
/// (src/ui/prefetch.js sets `<html data-prerender>`; style/main.css hides
/// the page's own header and main meanwhile). Called in the task that draws
/// the page's own first result or its error, so that the next frame shows
/// the page where the copy was; after `PRERENDER_AT_MOST` from the page's
/// build whatever it shows; and by the crash panel. Nothing when there is none.
pub fn remove_prerender() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(root) = document.document_element() {
        let _ = root.remove_attribute("data-prerender");
        // The page is its own from now: a Spanish copy that comes later is
        // not shown (src/ui/prefetch.js).
        let _ = root.set_attribute("data-live", "");
    }
    remove_copies(&document);
}

/// Removes every copy of the first result from `document`.
fn remove_copies(document: &web_sys::Document) {
    let copies = document.get_elements_by_class_name("prerender");
    // Live: each removal takes the copy out of the list.
    while let Some(copy) = copies.item(0) {
        copy.remove();
    }
}

/// Shows `copy`, the element of a copy of the page's first result in
/// `lang` laid out for a phone (`present::first_result`), in place of the
/// page until `remove_prerender`, as the prefetch script shows the copy
/// drawn at build time (src/ui/prefetch.js).
pub fn show_copy(copy: &str, lang: Lang) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Some(body), Some(root)) = (document.body(), document.document_element()) else {
        return;
    };
    if root.has_attribute("data-live") {
        return;
    }
    // In place of the default page's, drawn at build time; shown from the
    // moment it is in (Chromium's Element Timing does not report the paint
    // of an element that came in hidden).
    remove_copies(&document);
    let _ = root.set_attribute("lang", lang.code());
    let _ = root.set_attribute("data-prerender", "narrow");
    let _ = body.insert_adjacent_html("afterbegin", copy);
}

/// Whether the page opened on the copy of its first result
/// (`remove_prerender`): one is in the page in the page's language (a
/// Spanish copy may still be on its way, src/ui/prefetch.js).
pub fn shows_prerender() -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(root) = document.document_element().filter(|root| root.has_attribute("data-prerender")) else {
        return false;
    };
    let lang = root.get_attribute("lang");
    let copies = document.get_elements_by_class_name("prerender");
    (0..copies.length()).filter_map(|index| copies.item(index)).any(|copy| copy.get_attribute("lang") == lang)
}

/// How long after the page is built the copy of the first result may stay:
/// offers that are slow to come do not keep the form from the visitor.
pub const PRERENDER_AT_MOST: std::time::Duration = std::time::Duration::from_secs(3);

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
