//! Importing a model (issue 25): files dropped or picked, a pasted
//! config, or a Hugging Face id fetched when the user asks. The JavaScript
//! boundary of files and of the Hub: it hands bytes and HTTP statuses to
//! the import's worker (`import_worker.rs`), which reads them with
//! `crate::model_import`, and puts the model it reads into the workload
//! (so into the link). A file that cannot be read leaves the model as it
//! was and says why.

use crate::engine::custom_model::CUSTOM_MODEL;
use crate::engine::{Catalog, Workload};
use crate::model_import::{self, hub, ImportError, HEADER_BYTES};
use crate::present::import_answer::{self, ImportAnswer};
use crate::text::phrases;
use leptos::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The outcome said under the import's controls, in both languages.
#[derive(Clone)]
enum Said {
    Read(ImportAnswer),
    Refused(ImportAnswer),
}

/// The import's controls: a drop zone with a file picker, a paste box and
/// the Hub's id, drawn inside the form's fold (`workload_form::ImportFold`)
/// when it is first opened.
#[component]
pub fn ModelImport(catalog: &'static Catalog, workload: RwSignal<Workload>) -> impl IntoView {
    let lang = super::use_lang();
    let said = RwSignal::new(None::<Said>);
    let busy = RwSignal::new(false);
    // The model read becomes the workload's; its name, where the file gives
    // none, is the one the user knows it by (a file's stem, a Hub id).
    let take = move |answer: ImportAnswer| {
        if answer.link.is_some() {
            workload.update(|w| import_answer::apply(&answer, w, catalog));
            said.set(Some(Said::Read(answer)));
        } else {
            said.set(Some(Said::Refused(answer)));
        }
    };
    let refuse = move |error: ImportError| said.set(Some(Said::Refused(ImportAnswer::refused(&error))));
    // Reads in the import's worker, busy meanwhile.
    // While it reads, the last reading's words are gone.
    let read = move |files: Vec<Vec<u8>>, known_as: Option<String>| {
        busy.set(true);
        said.set(None);
        leptos::task::spawn_local(async move {
            take(super::import_worker::read(&files, known_as.as_deref()).await);
            busy.set(false);
        });
    };
    let read_files = move |files: Option<web_sys::FileList>| {
        let Some(files) = files else { return };
        let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.item(i)).collect();
        if files.is_empty() {
            return;
        }
        busy.set(true);
        leptos::task::spawn_local(async move {
            let mut heads = Vec::new();
            for file in &files {
                match file_head(file).await {
                    Ok(bytes) => heads.push(bytes),
                    Err(error) => {
                        refuse(error);
                        busy.set(false);
                        return;
                    }
                }
            }
            let stem = files.iter().map(|f| f.name()).find(|n| !n.ends_with(".json"));
            read(heads, stem.map(|n| file_stem(&n)));
        });
    };
    let paste = NodeRef::<leptos::html::Textarea>::new();
    let read_paste = move |_| {
        let Some(area) = paste.get_untracked() else { return };
        read(vec![area.value().into_bytes()], None);
    };
    // A paste bigger than any description (a weights file) is refused
    // before the browser lays out megabytes of text in the box, which
    // would freeze the page.
    let refuse_huge_paste = move |ev: web_sys::ClipboardEvent| {
        let Some(text) = ev.clipboard_data().and_then(|data| data.get_data("text").ok()) else { return };
        if let Err(error) = model_import::check_size(&[], text.len() as u64) {
            ev.prevent_default();
            refuse(error);
        }
    };
    let hub_id = NodeRef::<leptos::html::Input>::new();
    let fetch_hub = move |_| {
        let Some(input) = hub_id.get_untracked() else { return };
        let repo = match hub::repo_id(&input.value()) {
            Ok(repo) => repo,
            Err(error) => return refuse(error),
        };
        busy.set(true);
        leptos::task::spawn_local(async move {
            match from_hub(&repo).await {
                Ok(files) => read(files, Some(repo)),
                Err(error) => {
                    refuse(error);
                    busy.set(false);
                }
            }
        });
    };
    // What was read is said while it is the model; a refusal until the next try.
    let imported_is_the_model = move || workload.with(|w| w.model == CUSTOM_MODEL);
    let status = move || {
        said.get().and_then(|said| match said {
            Said::Read(answer) => imported_is_the_model().then(|| {
                view! { <p class="import-read" role="status" data-testid="import-status">{answer.said(lang).to_string()}</p> }
            }),
            Said::Refused(answer) => Some(
                view! { <p class="field-error" role="alert" data-testid="import-status">{answer.said(lang).to_string()}</p> },
            ),
        })
    };
    view! {
            <p class="hint">{lang.t(&phrases::IMPORT_HINT)}</p>
            <div
                class="drop-zone"
                data-testid="drop-zone"
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=move |ev: web_sys::DragEvent| {
                    ev.prevent_default();
                    read_files(ev.data_transfer().and_then(|d| d.files()));
                }
            >
                <label for="model-files">{lang.t(&phrases::IMPORT_PICK)}</label>
                <input
                    id="model-files"
                    type="file"
                    multiple
                    accept=".json,.safetensors,.gguf"
                    on:change=move |ev| {
                        let input = event_target::<web_sys::HtmlInputElement>(&ev);
                        read_files(input.files());
                        // The same file picked again reads again.
                        input.set_value("");
                    }
                />
            </div>
            <label for="model-paste">{lang.t(&phrases::IMPORT_PASTE)}</label>
            <textarea
                id="model-paste"
                node_ref=paste
                rows="4"
                spellcheck="false"
                placeholder="{\"architectures\": [\"LlamaForCausalLM\"], …}"
                on:paste=refuse_huge_paste
            ></textarea>
            <button type="button" data-testid="paste-read" on:click=read_paste>{lang.t(&phrases::IMPORT_READ)}</button>
            <label for="hub-id">{lang.t(&phrases::HUB_ID)}</label>
            <span class="hub-row">
                <input id="hub-id" node_ref=hub_id type="text" autocomplete="off" spellcheck="false" placeholder="Qwen/Qwen2.5-Coder-32B-Instruct" />
                <button type="button" data-testid="hub-fetch" on:click=fetch_hub disabled=move || busy.get()>{lang.t(&phrases::HUB_FETCH)}</button>
            </span>
            <p class="hint">{lang.t(&phrases::HUB_PRIVACY)}</p>
            {status}
    }
}

/// The first bytes of a file a reader needs: the header of a weights file
/// (`HEADER_BYTES` at most, never the whole file), or a JSON file whole.
async fn file_head(file: &web_sys::File) -> Result<Vec<u8>, ImportError> {
    let size = file.size();
    let unreadable = |_| ImportError::UnknownFormat;
    let blob = file.slice_with_f64_and_f64(0.0, size.min(HEADER_BYTES as f64)).map_err(unreadable)?;
    let buffer = JsFuture::from(blob.array_buffer()).await.map_err(unreadable)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    model_import::check_size(&bytes, size as u64)?;
    Ok(bytes)
}

/// "Meta-Llama-3-8B-Instruct.Q4_K_M" of "Meta-Llama-3-8B-Instruct.Q4_K_M.gguf".
fn file_stem(name: &str) -> String {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem).to_string()
}

/// The repo's config.json, and its safetensors index where it has one,
/// from the Hub, for the reader.
async fn from_hub(repo: &str) -> Result<Vec<Vec<u8>>, ImportError> {
    let config = hub_get(&hub::file_url(hub::HUB_ORIGIN, repo, "config.json")).await?;
    hub::config_status(repo, config.0)?;
    // The index gives the exact weight bytes; a repo without one is sized
    // from its parameters.
    let index = match hub_get(&hub::file_url(hub::HUB_ORIGIN, repo, "model.safetensors.index.json")).await {
        Ok((status, body)) if hub::index_found(status) => Some(body),
        _ => None,
    };
    Ok([Some(config.1), index].into_iter().flatten().collect())
}

/// One GET to the Hub: its status and body.
async fn hub_get(url: &str) -> Result<(u16, Vec<u8>), ImportError> {
    let unreachable = |error: gloo_net::Error| ImportError::HubUnreachable { detail: error.to_string() };
    let response = gloo_net::http::Request::get(url).send().await.map_err(unreachable)?;
    let status = response.status();
    let body = if (200..300).contains(&status) { response.binary().await.map_err(unreachable)? } else { Vec::new() };
    Ok((status, body))
}
