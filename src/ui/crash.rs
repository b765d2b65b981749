//! The crash boundary: the only module that turns a panic, or any other
//! trap of the WebAssembly module, into something a visitor can act on.
//!
//! A panic aborts the module (release builds use `panic = "abort"`), and
//! the reactive page stops answering. Instead of that dead page the visitor
//! gets a modal panel, "Something went wrong", with the page's own link
//! (the URL is the state, so the workload survives), a link to reload it,
//! one to reset the form, and "Copy link". The panel is plain DOM built here
//! (no Leptos, whose state the panic may have left half-updated) and its
//! links work without any more WebAssembly.

use crate::text::{phrases, Lang, Phrase};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The panel's id: it is shown once, however many errors follow.
const PANEL_ID: &str = "crash";

/// Shows the panel on a panic (after logging it to the console, as
/// `console_error_panic_hook` did) and on any trap of this module that
/// reaches the window (an out-of-memory abort, a stack overflow).
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&info.to_string()));
        show();
    }));
    let Some(window) = web_sys::window() else { return };
    let trapped = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(|event: web_sys::ErrorEvent| {
        if event.error().is_instance_of::<js_sys::WebAssembly::RuntimeError>() {
            show();
        }
    });
    let _ = window.add_event_listener_with_callback("error", trapped.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    trapped.forget();
}

/// Puts the panel over the page, in the page's language, and moves the
/// focus into it.
pub fn show() {
    // The last edit's link goes into the address bar first, which the
    // panel quotes, and stays there.
    super::url_state::stop();
    let Some(window) = web_sys::window() else { return };
    let Some(document) = window.document() else { return };
    let Some(body) = document.body() else { return };
    if document.get_element_by_id(PANEL_ID).is_some() {
        return;
    }
    // The panel tells of the page, not of its copy drawn at build time.
    super::document::remove_prerender();
    let lang = document
        .document_element()
        .and_then(|root| root.get_attribute("lang"))
        .and_then(|code| Lang::from_code(&code))
        .unwrap_or_default();
    let location = window.location();
    let link = location.href().unwrap_or_default();
    let reset = location.pathname().unwrap_or_default();
    // Plain DOM through the calls the page already makes (each distinct
    // browser call costs the bundle its glue): elements, attributes, text.
    let element = |tag: &str, attributes: &[(&str, &str)], text: Option<&'static Phrase>| {
        element(&document, lang, tag, attributes, text)
    };
    let built = (|| {
        let modal = [
            ("id", PANEL_ID),
            ("class", "crash"),
            ("role", "alertdialog"),
            ("aria-modal", "true"),
            ("aria-labelledby", "crash-title"),
        ];
        let panel = element("div", &modal, None)?;
        let card = element("div", &[("class", "crash-card")], None)?;
        let title = element("h2", &[("id", "crash-title")], Some(&phrases::CRASH_TITLE))?;
        let body_text = element("p", &[], Some(&phrases::CRASH_BODY))?;
        let label = lang.t(&phrases::COPY_BY_HAND);
        let field = element("input", &[("readonly", ""), ("value", &link), ("aria-label", label)], None)?;
        let actions = element("p", &[("class", "crash-actions")], None)?;
        let reload = element("a", &[("class", "button"), ("href", &link)], Some(&phrases::CRASH_RELOAD))?;
        let start_again = element("a", &[("class", "button"), ("href", &reset)], Some(&phrases::CRASH_RESET))?;
        let copy = element("button", &[("type", "button")], Some(&phrases::COPY_LINK))?;
        // Selects the link for copying by hand, and asks the clipboard too.
        let selected: web_sys::HtmlInputElement = field.clone().dyn_into().ok()?;
        let copy_link = Closure::<dyn FnMut()>::new(move || {
            selected.select();
            super::clipboard::copy_text_unawaited(&selected.value());
        });
        copy.add_event_listener_with_callback("click", copy_link.as_ref().unchecked_ref()).ok()?;
        copy_link.forget();
        for (parent, child) in [
            (&actions, &reload),
            (&actions, &start_again),
            (&actions, &copy),
            (&card, &title),
            (&card, &body_text),
            (&card, &field),
            (&card, &actions),
            (&panel, &card),
        ] {
            parent.append_child(child).ok()?;
        }
        body.append_child(&panel).ok()?;
        super::document::remove_boot_notice();
        reload.dyn_into::<web_sys::HtmlElement>().ok()?.focus().ok()
    })();
    if built.is_none() {
        web_sys::console::error_1(&JsValue::from_str("whichgpu: the error panel could not be shown"));
    }
}

/// An element of the panel, with its attributes and its words.
#[inline(never)]
fn element(
    document: &web_sys::Document,
    lang: Lang,
    tag: &str,
    attributes: &[(&str, &str)],
    text: Option<&'static Phrase>,
) -> Option<web_sys::Element> {
    let element = document.create_element(tag).ok()?;
    for (name, value) in attributes {
        element.set_attribute(name, value).ok()?;
    }
    if let Some(phrase) = text {
        element.set_text_content(Some(lang.t(phrase)));
    }
    Some(element)
}

/// A deliberate panic, for the end-to-end test of the panel
/// (`window.wasmBindings.crash_for_test()`); nothing on the page calls it.
#[wasm_bindgen]
pub fn crash_for_test() {
    panic!("crash_for_test: a deliberate panic");
}
