//! An offer row's cells, written in place: the table's one direct DOM
//! boundary. Each place on the page keeps its `<tr>`; one effect per row
//! writes the words of each new ranking into it, touching only the cells
//! whose words changed. A reactive text per cell made about 25 reactive
//! nodes a row, and the reactive graph was the largest share of building
//! the first result in a CPU profile (issue 7: the first result within
//! 500 ms, an update within a frame).

use crate::present::row::{Column, RowText};
use crate::text::{phrases, Lang};
use leptos::prelude::*;
use web_sys::Element;

/// A row's cells after the first, empty until `write` fills them. The
/// price, speed, job and per-unit cells hold a figure with a note under it.
/// Each names its column (`data-label`), which a phone's cards show above
/// the figure (style/main.css).
pub fn empty(lang: Lang) -> impl IntoView {
    let label = |column: Column| lang.t(column.label());
    // Each column's class, as the copy drawn before the page has them
    // (`present::first_result`).
    let class = Column::cell_class;
    view! {
        <td class=class(Column::Instance) data-label=label(Column::Instance)></td>
        <td class=class(Column::Gpus) data-label=label(Column::Gpus)></td>
        <td class=class(Column::Vram) data-label=label(Column::Vram)></td>
        <td class=class(Column::Regions) data-label=label(Column::Regions)></td>
        <td class=class(Column::Price) data-testid="offer-price" data-label=label(Column::Price)></td>
        <td class=class(Column::Speed) data-testid="offer-speed" data-label=label(Column::Speed)></td>
        <td class=class(Column::JobTime) data-testid="offer-job" data-label=label(Column::JobTime)></td>
        <td class=class(Column::JobCost) data-testid="offer-cost" data-label=label(Column::JobCost)></td>
        <td class=class(Column::PerUnit) data-testid="offer-unit-cost" data-label=label(Column::PerUnit)></td>
        <td class=class(Column::Notes)></td>
    }
}

/// Writes `now` into `row`, whose cells show `was` (none: nothing yet),
/// touching only the cells that change. A `.provider` span in the first
/// cell gets the provider; the Pareto badge and the others go last.
pub fn write(row: &Element, was: Option<&RowText>, now: &RowText, lang: Lang) {
    let elements = row.children();
    if was.is_none_or(|was| was.provider != now.provider) {
        if let Some(provider) =
            elements.item(Column::Provider.index() as u32).and_then(|first| first.children().item(1))
        {
            provider.set_text_content(Some(&now.provider));
        }
    }
    let before = was.map(|was| was.cells(lang));
    for (i, (column, cell)) in now.cells(lang).into_iter().enumerate() {
        if before.as_ref().is_some_and(|before| before[i].1 == cell) {
            continue;
        }
        let Some(element) = elements.item(column.index() as u32) else { continue };
        element.set_text_content(Some(cell.words));
        if let Some((class, words)) = cell.note {
            append_span(&element, class, words, None);
        }
        // A reused row must not keep the tooltip of the offer it showed.
        match cell.title {
            Some(title) => {
                let _ = element.set_attribute("title", title);
            }
            None => {
                let _ = element.remove_attribute("title");
            }
        }
    }
    if was.is_none_or(|was| (was.pareto, &was.badges) != (now.pareto, &now.badges)) {
        if let Some(element) = elements.item(Column::Notes.index() as u32) {
            element.set_text_content(None);
            if now.pareto {
                let title = Some(lang.t(&phrases::BADGE_PARETO_TITLE));
                append_span(&element, "badge pareto", lang.t(&phrases::BADGE_PARETO), title);
            }
            for badge in &now.badges {
                let title = Some(badge.title.as_str()).filter(|t| !t.is_empty());
                append_span(&element, "badge", &badge.label, title);
            }
        }
    }
}

/// Adds `<span class=… title=…>text</span>` at the end of `cell`.
fn append_span(cell: &Element, class: &str, text: &str, title: Option<&str>) {
    let Some(span) = cell.owner_document().and_then(|d| d.create_element("span").ok()) else { return };
    span.set_class_name(class);
    span.set_text_content(Some(text));
    if let Some(title) = title {
        let _ = span.set_attribute("title", title);
    }
    let _ = cell.append_child(&span);
}
