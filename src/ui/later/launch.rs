//! "Copy the launch command" under a planned row's breakdown (issue 39):
//! the command of `serving_plan::launch`, to the clipboard, or to copy by
//! hand where the browser will not.

use crate::text::{phrases, Lang};
use crate::ui::clipboard::copy_text;
use leptos::prelude::*;

pub fn copy_launch(command: String, lang: Lang) -> impl IntoView {
    // `None` until pressed; then copied, or not (shown to copy by hand).
    let copied = RwSignal::new(None::<bool>);
    let to_copy = command.clone();
    view! {
        <p class="launch-copy">
            <button type="button" data-testid="copy-launch" on:click=move |_| {
                let command = to_copy.clone();
                leptos::task::spawn_local(async move {
                    let _ = copied.try_set(Some(copy_text(&command).await.is_ok()));
                });
            }>{lang.t(&phrases::COPY_LAUNCH)}</button>
            " "
            <span role="status" data-testid="launch-copy-status">
                {move || copied.get().map(|done| if done {
                    lang.t(&phrases::LAUNCH_COPIED).into_any()
                } else {
                    let command = command.clone();
                    view! {
                        <label>
                            {lang.t(&phrases::COPY_LAUNCH_BY_HAND)} " "
                            {crate::ui::clipboard::by_hand(command, "launch-by-hand")}
                        </label>
                    }.into_any()
                })}
            </span>
        </p>
    }
}
