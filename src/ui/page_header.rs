//! The page's header: the name, "Copy link" (or the link to copy by hand),
//! "Embed", and the language switcher.

use super::clipboard;
use crate::text::{phrases, Lang};
use leptos::prelude::*;

/// The outcome of "Copy link".
#[derive(Debug, Clone, PartialEq)]
pub enum Copied {
    Done,
    /// The browser would not copy: the link, to select and copy by hand.
    ByHand(String),
}

/// The header of the full page (an embedded page has none). `link` is the
/// link of what is on screen now.
pub fn page_header(
    lang: Lang,
    copied: RwSignal<Option<Copied>>,
    snippet_open: RwSignal<bool>,
    chosen: RwSignal<Option<Lang>>,
    link: impl Fn() -> String + Copy + Send + Sync + 'static,
) -> impl IntoView {
    view! {
            <header>
                <h1>"whichgpu"</h1>
                <p class="tagline">{lang.t(&phrases::TAGLINE)}</p>
                <span class="share">
                    <button type="button" data-testid="copy-link" on:click=move |_| {
                        let link = link();
                        wasm_bindgen_futures::spawn_local(async move {
                            copied.set(Some(match clipboard::copy_text(&link).await {
                                Ok(()) => Copied::Done,
                                Err(()) => Copied::ByHand(link),
                            }));
                        });
                    }>{lang.t(&phrases::COPY_LINK)}</button>
                    <span role="status" data-testid="copy-status">
                        {move || copied.get().map(|state| match state {
                            Copied::Done => lang.t(&phrases::LINK_COPIED).into_any(),
                            Copied::ByHand(link) => view! {
                                <label>
                                    {lang.t(&phrases::COPY_BY_HAND)} " "
                                    {clipboard::by_hand(link, "link-by-hand")}
                                </label>
                            }.into_any(),
                        })}
                    </span>
                </span>
                <button type="button" data-testid="embed-button" aria-expanded=move || if snippet_open.get() { "true" } else { "false" } on:click=move |_| snippet_open.update(|open| *open = !*open)>
                    {lang.t(&phrases::EMBED)}
                </button>
                <label class="language">
                    {lang.t(&phrases::LANGUAGE)} " "
                    <select data-testid="language-select" on:change=move |ev| chosen.set(Lang::from_code(&event_target_value(&ev)))>
                        {Lang::ALL
                            .map(|option| {
                                view! { <option value=option.code() selected=option == lang lang=option.code()>{option.name()}</option> }
                            })
                            .collect_view()}
                    </select>
                </label>
            </header>
    }
}
