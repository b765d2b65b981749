//! The download boundary: hands text to the browser as a file (a Blob
//! behind a temporary object URL and a clicked `<a download>`).

use crate::msg;
use crate::text::{phrases, Msg};
use wasm_bindgen::{JsCast, JsValue};

/// Offers `text` as a download named `filename` of type `mime`; the error
/// is a message to show.
pub fn download(filename: &str, mime: &str, text: &str) -> Result<(), Msg> {
    let failed = |e: JsValue| msg!(phrases::EXPORT_FAILED, detail = e.as_string().unwrap_or_default());
    let document =
        web_sys::window().and_then(|w| w.document()).ok_or_else(|| failed(JsValue::from_str("no document")))?;
    let parts = JsValue::from(vec![JsValue::from_str(text)].into_boxed_slice());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(failed)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(failed)?;
    let anchor: web_sys::HtmlAnchorElement =
        document.create_element("a").map_err(failed)?.dyn_into().map_err(|_| failed(JsValue::NULL))?;
    anchor.set_href(&url);
    anchor.set_download(filename);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}
