//! A group of many small controls that is one tab stop (the WAI-ARIA
//! Authoring Practices' "roving tabindex", w3.org/WAI/ARIA/apg/practices/
//! keyboard-interface/): the arrow keys, Home and End move the focus
//! among the items, and Tab leaves the group. The group listens once for
//! all its items (event delegation) instead of each item listening. The
//! chart's 200 points were 200 tab stops, with two listeners each; the
//! task tabs use it too (`workload_form`).
//!
//! The items are the group's children that carry a given attribute, next
//! to one another. A DOM boundary: it reads an event's target and moves
//! `tabindex` and the focus between the items.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, KeyboardEvent};

/// The value of `attribute` on the item an event reached.
pub fn item_value(ev: &Event, attribute: &str) -> Option<String> {
    item_attribute(ev, attribute, attribute)
}

/// The value of `name` on the item (the element carrying `attribute`) an
/// event reached.
pub fn item_attribute(ev: &Event, attribute: &str, name: &str) -> Option<String> {
    element(ev.target()).filter(|e| e.has_attribute(attribute))?.get_attribute(name)
}

/// Makes the item that just took the focus (from the keyboard or a click)
/// the group's one tab stop. For the group's `focusin`.
pub fn follow_focus(ev: &Event, attribute: &str) {
    let (Some(group), Some(item)) = (element(ev.current_target()), element(ev.target())) else { return };
    if !item.has_attribute(attribute) {
        return;
    }
    if let Ok(Some(stop)) = group.query_selector(&format!("[{attribute}][tabindex=\"0\"]")) {
        let _ = stop.set_attribute("tabindex", "-1");
    }
    let _ = item.set_attribute("tabindex", "0");
}

/// Moves the focus for an arrow key, Home or End: to the next item in the
/// page's order (Right, Down), the previous (Left, Up), the first or the
/// last; for those keys the default (scrolling the page) is prevented. For
/// the group's `keydown`.
pub fn move_focus(ev: &KeyboardEvent, attribute: &str) {
    let item = |e: Option<Element>| e.filter(|e| e.has_attribute(attribute));
    let (forward, to_the_end) = match ev.key().as_str() {
        "ArrowRight" | "ArrowDown" => (true, false),
        "ArrowLeft" | "ArrowUp" => (false, false),
        "End" => (true, true),
        "Home" => (false, true),
        _ => return,
    };
    ev.prevent_default();
    let Some(mut at) = item(element(ev.target())) else { return };
    let step = |e: &Element| item(if forward { e.next_element_sibling() } else { e.previous_element_sibling() });
    while let Some(next) = step(&at) {
        at = next;
        if !to_the_end {
            break;
        }
    }
    // Focusing it fires `focusin`, where `follow_focus` moves the tab stop.
    if let Some(svg) = at.dyn_ref::<web_sys::SvgElement>() {
        let _ = svg.focus();
    } else if let Some(html) = at.dyn_ref::<web_sys::HtmlElement>() {
        let _ = html.focus();
    }
}

fn element(target: Option<web_sys::EventTarget>) -> Option<Element> {
    target?.dyn_into::<Element>().ok()
}
