//! A link's first result on a phone, written as HTML before the page is
//! built (issue 38). The page shows it the moment the offers are ranked,
//! inert, and builds itself hidden behind it; in the frame that draws its
//! own first result it removes the copy (src/ui/first_copy.rs,
//! src/ui/document.rs). On a phone the page folds its form to one line, so
//! what the first result shows is the header, that line, the memory line and
//! bar, and the results: the same words in the same elements and classes as
//! the page's (src/ui/app.rs, memory_bar.rs, offers_table.rs, row_cells.rs,
//! page_header.rs), without the ids, test ids, tooltips and controls' state
//! the page adds, as the copy drawn at build time (scripts/prerender.mjs).
//! tests/e2e/first-copy.test.mjs checks that the page puts the same rows in
//! the same places.

use super::memory::{memory_summary, MemoryBar};
use super::row::{Column, RowText, PAGE_SIZES};
use crate::engine::freshness::stale_notice;
use crate::engine::memory::{estimate, MemoryBreakdown};
use crate::engine::serving_plan::Targets;
use crate::engine::{rank_with, Catalog, Report, Snapshot, Terms, Workload};
use crate::msg;
use crate::text::{phrases, Lang};
use crate::url_codec::Decoded;

/// Rows on the table's first page: the pager's first page size.
pub const FIRST_PAGE_ROWS: usize = PAGE_SIZES[0];

/// Whether the page opened from `decoded` draws its first result as the
/// copy does: a full page (not embedded) whose link the page took whole (no
/// notes, nothing it could not apply), pointing at no offer and no GPU of
/// the visitor's (the page selects that row, or adds one), without latency
/// targets (their planner comes with the page's second module).
pub fn copied(decoded: &Decoded) -> bool {
    decoded.embed.is_none()
        && decoded.notes.is_empty()
        && decoded.unapplied.is_empty()
        && decoded.unapplied_model.is_none()
        && decoded.offer.is_none()
        && decoded.my_gpu.is_none()
        && Targets::of(&decoded.workload).is_none()
}

/// A workload's first result: what it needs and how the offers rank.
pub struct FirstResult<'a> {
    workload: &'a Workload,
    catalog: &'a Catalog,
    snapshot: &'a Snapshot,
    memory: MemoryBreakdown,
    report: Report,
    lang: Lang,
    /// Today, in days since 1970-01-01: how old the prices are.
    today: i64,
}

impl<'a> FirstResult<'a> {
    /// Sizes `workload` and ranks `snapshot`'s offers for it with `terms`,
    /// to be said in `lang` on the day `today`; `None` where the page would
    /// say why it cannot (a model it cannot size, a ranking that fails).
    pub fn rank(
        workload: &'a Workload,
        catalog: &'a Catalog,
        snapshot: &'a Snapshot,
        terms: &Terms,
        lang: Lang,
        today: i64,
    ) -> Option<Self> {
        let model = workload.resolve_model(catalog).ok()?;
        let memory = estimate(workload, &model, workload.planned_gpus()).ok()?;
        let report = rank_with(workload, catalog, snapshot, terms).ok()?;
        Some(FirstResult { workload, catalog, snapshot, memory, report, lang, today })
    }

    /// The ranking, for the page to take rather than rank again.
    pub fn into_report(self) -> Report {
        self.report
    }

    /// The copy's element: the page's header and main on a phone, with the
    /// first page of rows.
    pub fn phone_copy(&self) -> String {
        let mut html = Html::default();
        html.open("div", &[("class", "prerender"), ("lang", self.lang.code()), ("inert", "")]);
        self.header(&mut html);
        html.open("main", &[]);
        html.open("details", &[("class", "workload-fold")]);
        html.element("summary", &[], &super::form::folded_workload(self.workload, self.catalog, self.lang));
        html.close("details");
        html.element("p", &[("class", "memory")], &memory_summary(&self.memory, self.lang));
        self.memory_bar(&mut html);
        html.open("section", &[("class", "results")]);
        if let Some(notice) = stale_notice(&self.snapshot.snapshot_date, self.today) {
            html.element("p", &[("class", "stale"), ("role", "note")], &notice.render(self.lang));
        }
        self.table(&mut html);
        html.close("section");
        html.close("main");
        html.close("div");
        html.0
    }

    fn header(&self, html: &mut Html) {
        let lang = self.lang;
        html.open("header", &[]);
        html.element("h1", &[], "whichgpu");
        html.element("p", &[("class", "tagline")], lang.t(&phrases::TAGLINE));
        html.open("span", &[("class", "share")]);
        html.element("button", &[("type", "button")], lang.t(&phrases::COPY_LINK));
        html.element("span", &[("role", "status")], "");
        html.close("span");
        html.element("button", &[("type", "button"), ("aria-expanded", "false")], lang.t(&phrases::EMBED));
        html.open("label", &[("class", "language")]);
        html.text(lang.t(&phrases::LANGUAGE));
        html.text(" ");
        html.open("select", &[]);
        for option in Lang::ALL {
            let selected: &[_] = if option == lang { &[("selected", "")] } else { &[] };
            html.element(
                "option",
                &[&[("value", option.code())], selected, &[("lang", option.code())]].concat(),
                option.name(),
            );
        }
        html.close("select");
        html.close("label");
        html.close("header");
    }

    fn memory_bar(&self, html: &mut Html) {
        let bar = MemoryBar::of(&self.memory, self.lang);
        html.open("figure", &[("class", "memory-bar")]);
        html.open("svg", &[("width", "100%"), ("height", "52"), ("role", "img"), ("aria-label", &bar.label)]);
        for segment in &bar.segments {
            let place = [("x", segment.x.as_str()), ("y", "4"), ("width", &segment.width), ("height", "24")];
            html.open("rect", &[&place[..], &[("class", &segment.class)]].concat());
            html.element("title", &[], &segment.title);
            html.close("rect");
        }
        for tick in &bar.ticks {
            let x = tick.x.as_str();
            html.element("line", &[("x1", x), ("x2", x), ("y1", "0"), ("y2", "34"), ("class", "tick")], "");
            let place = [("x", x), ("y", "48"), ("text-anchor", "middle"), ("class", "tick-label")];
            html.element("text", &place, &tick.label);
        }
        html.close("svg");
        html.open("figcaption", &[]);
        html.open("ul", &[("class", "legend")]);
        for (class, said) in &bar.legend {
            html.open("li", &[]);
            html.element("span", &[("class", class), ("aria-hidden", "true")], "");
            html.text(said);
            html.close("li");
        }
        html.close("ul");
        html.close("figcaption");
        html.close("figure");
    }

    /// The advice, the chart's place, the table's first page, the pager and
    /// the note on speeds (src/ui/offers_table.rs).
    fn table(&self, html: &mut Html) {
        let (lang, report) = (self.lang, &self.report);
        if !report.advice.is_empty() {
            html.open("ul", &[("class", "advice")]);
            for line in &report.advice {
                html.element("li", &[], &line.render(lang));
            }
            html.close("ul");
        }
        let rows = report.results.len();
        if rows >= 2 {
            html.element("div", &[("class", "chart-slot")], "");
        }
        let region = [("class", "table-scroll"), ("tabindex", "0"), ("role", "region")];
        html.open("div", &[&region[..], &[("aria-label", lang.t(&phrases::TABLE_REGION))]].concat());
        html.open("table", &[("class", "offers")]);
        let caption = super::selection::caption(report, self.snapshot.offers.len(), None, lang);
        html.element("caption", &[("elementtiming", "offers-caption")], &caption);
        html.open("thead", &[]);
        html.open("tr", &[]);
        for column in Column::ALL {
            let label = lang.t(column.label());
            match (column.sort_id(), column.numeric()) {
                (Some(_), _) => {
                    html.open("th", &[("scope", "col"), ("class", "num"), ("aria-sort", "none")]);
                    html.open("button", &[("type", "button"), ("class", "sort")]);
                    html.text(label);
                    html.element("span", &[("aria-hidden", "true")], "");
                    html.close("button");
                    html.close("th");
                }
                (None, true) => html.element("th", &[("scope", "col"), ("class", "num")], label),
                (None, false) => html.element("th", &[("scope", "col")], label),
            }
        }
        html.close("tr");
        html.close("thead");
        html.open("tbody", &[]);
        for ranked in report.results.iter().take(FIRST_PAGE_ROWS) {
            self.row(html, &RowText::of(ranked, self.snapshot, self.catalog, lang));
        }
        html.close("tbody");
        html.close("table");
        html.close("div");
        if rows > FIRST_PAGE_ROWS {
            self.pager(html, rows);
        }
        if let Some(speed) = report.results.first().and_then(|r| r.speed.as_ref()) {
            let note = msg!(phrases::SPEED_NOTE, bound = speed.bound.explanation()).render(lang);
            html.element("p", &[("class", "estimate-note")], &note);
        }
    }

    /// A row as src/ui/offers_table.rs builds it and src/ui/row_cells.rs
    /// fills it.
    fn row(&self, html: &mut Html, text: &RowText) {
        let lang = self.lang;
        html.open("tr", if text.pareto { &[("class", "pareto")] } else { &[] });
        html.open("td", &[]);
        let expand = [("type", "button"), ("class", "expand"), ("aria-expanded", "false")];
        html.element("button", &[&expand[..], &[("aria-label", lang.t(&phrases::EXPAND_ROW))]].concat(), "▸");
        html.text(" ");
        html.element("span", &[("class", "provider")], &text.provider);
        html.close("td");
        for (column, cell) in text.cells(lang) {
            let label = ("data-label", lang.t(column.label()));
            match column.cell_class() {
                Some(class) => html.open("td", &[("class", class), label]),
                None => html.open("td", &[label]),
            }
            html.text(cell.words);
            if let Some((class, words)) = cell.note {
                html.element("span", &[("class", class)], words);
            }
            html.close("td");
        }
        html.open("td", &[("class", "badges")]);
        if text.pareto {
            html.element("span", &[("class", "badge pareto")], lang.t(&phrases::BADGE_PARETO));
        }
        for badge in &text.badges {
            html.element("span", &[("class", "badge")], &badge.label);
        }
        html.close("td");
        html.close("tr");
    }

    /// The pager on the first page (src/ui/offers_table/pager.rs).
    fn pager(&self, html: &mut Html, rows: usize) {
        let lang = self.lang;
        html.open("nav", &[("class", "pager"), ("aria-label", lang.t(&phrases::PAGER_LABEL))]);
        let previous = format!("‹ {}", lang.t(&phrases::PAGE_PREVIOUS));
        html.element("button", &[("type", "button"), ("disabled", "")], &previous);
        let range = msg!(phrases::PAGE_ROWS, first = 1, last = FIRST_PAGE_ROWS.min(rows), total = rows);
        html.element("span", &[], &range.render(lang));
        html.element("button", &[("type", "button")], &format!("{} ›", lang.t(&phrases::PAGE_NEXT)));
        html.open("label", &[]);
        html.text(lang.t(&phrases::PAGE_SIZE));
        html.text(" ");
        html.open("select", &[]);
        for size in PAGE_SIZES {
            let value = size.to_string();
            let chosen: &[_] = if size == FIRST_PAGE_ROWS { &[("selected", "")] } else { &[] };
            html.element("option", &[&[("value", value.as_str())], chosen].concat(), &value);
        }
        html.close("select");
        html.close("label");
        html.close("nav");
    }
}

/// HTML written element by element, its text and attribute values escaped.
#[derive(Default)]
struct Html(String);

impl Html {
    fn open(&mut self, tag: &str, attributes: &[(&str, &str)]) {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attributes {
            self.0.push(' ');
            self.0.push_str(name);
            if !value.is_empty() {
                self.0.push_str("=\"");
                self.escaped(value, true);
                self.0.push('"');
            }
        }
        self.0.push('>');
    }

    fn close(&mut self, tag: &str) {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
    }

    fn text(&mut self, text: &str) {
        self.escaped(text, false);
    }

    /// An element holding only `text`.
    fn element(&mut self, tag: &str, attributes: &[(&str, &str)], text: &str) {
        self.open(tag, attributes);
        self.text(text);
        self.close(tag);
    }

    fn escaped(&mut self, text: &str, attribute: bool) {
        for c in text.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' if attribute => self.0.push_str("&quot;"),
                c => self.0.push(c),
            }
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::url_codec::decode;

    fn drawn(query: &str, lang: Lang) -> String {
        let catalog = Catalog::bundled().unwrap();
        let snapshot = Snapshot::from_bytes(&std::fs::read("public/data/offers.json").unwrap()).unwrap();
        let workload = decode(query, catalog).workload;
        // 2026-12-07: the prices are older than the notice's threshold.
        FirstResult::rank(&workload, catalog, &snapshot, &Terms::of(&snapshot), lang, 20_794).unwrap().phone_copy()
    }

    #[test]
    fn the_copy_is_the_header_the_folded_form_the_memory_and_the_first_page_of_rows() {
        let html = drawn("model=llama-3.1-70b", Lang::En);
        assert!(html.starts_with(r#"<div class="prerender" lang="en" inert><header><h1>whichgpu</h1>"#), "{html}");
        assert!(html.ends_with("</section></main></div>"));
        assert!(html.contains(r#"<details class="workload-fold"><summary>LLM serving: Llama 3.1 70B · change the workload</summary></details>"#));
        assert!(html.contains(r#"<p class="memory">Memory on one GPU: "#));
        assert!(html.contains(r#"<figure class="memory-bar"><svg width="100%" height="52" role="img" aria-label="#));
        assert!(html.contains(r#"<p class="stale" role="note">These prices are "#));
        assert!(html.contains(r#"<caption elementtiming="offers-caption">"#));
        assert_eq!(html.matches("<tr").count(), 1 + FIRST_PAGE_ROWS, "the head and ten rows");
        assert!(html.contains(
            r#"<option value="en" selected lang="en">English</option><option value="es" lang="es">Español</option>"#
        ));
        // Each row's cells named for a phone's cards, figures right-aligned.
        assert!(html.contains(r#"<td class="num" data-label="$/h">$"#));
        assert!(html.contains(r#"<td class="speed" data-label="Speed (estimate)">"#));
        assert!(html.contains(r#"<nav class="pager" aria-label="Pages of ranked offers"><button type="button" disabled>‹ Previous rows</button><span>Rows 1–10 of "#));
        assert!(html.contains(r#"<p class="estimate-note">Speeds are estimates"#));
        assert!(!html.contains(" id=") && !html.contains("data-testid"));
    }

    #[test]
    fn the_copy_reads_in_the_page_s_language() {
        let html = drawn("task=pretrain&model=llama-3.1-70b&gpus=256", Lang::Es);
        assert!(html.starts_with(r#"<div class="prerender" lang="es" inert>"#));
        assert!(html.contains("<summary>Preentrenar: Llama 3.1 70B · cambiar la carga de trabajo</summary>"), "{html}");
        assert!(html.contains(r#"<option value="es" selected lang="es">Español</option>"#));
        assert!(html.contains("ofertas admiten esta carga"));
    }

    #[test]
    fn a_table_short_of_a_page_has_no_pager_and_a_single_row_no_chart() {
        // One provider and one GPU type: a handful of rows.
        let html = drawn("model=llama-3.1-8b&provider=lambda&gpu=gh200", Lang::En);
        let rows = html.matches("<tr").count() - 1;
        assert!((1..FIRST_PAGE_ROWS).contains(&rows), "{rows} rows");
        assert!(!html.contains(r#"class="pager""#));
        assert_eq!(html.contains(r#"class="chart-slot""#), rows >= 2);
    }

    #[test]
    fn words_are_escaped_in_text_and_attributes() {
        let mut html = Html::default();
        html.element("p", &[("title", r#"a "b" <c> & d"#)], "<b>&</b>");
        assert_eq!(html.0, r#"<p title="a &quot;b&quot; &lt;c&gt; &amp; d">&lt;b&gt;&amp;&lt;/b&gt;</p>"#);
    }

    #[test]
    fn links_the_page_draws_otherwise_are_not_copied() {
        let catalog = Catalog::bundled().unwrap();
        assert!(copied(&decode("model=llama-3.1-70b&conc=8", catalog)));
        assert!(copied(&decode("task=pretrain&gpus=256&lang=es", catalog)));
        for query in [
            "embed=1",
            "model=nope",
            "conc=-3",
            "offer=aws:p5.48xlarge",
            "mygpu=rtx-4090",
            "ttft=0.5",
            "model=llama-3.1-8b&slo=chat",
        ] {
            assert!(!copied(&decode(query, catalog)), "{query}");
        }
    }
}
