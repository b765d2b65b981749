//! The link's keys: the URL spelling of every workload field and of the
//! page's own state. The codec's field tables, the form's fields and the
//! engine's field errors all name a field by these, so a key is spelled
//! once. Numeric fields carry their key beside their range
//! (`workload::INPUT_TOKENS` is `("in", 1, 10_000_000)`).

// The workload.
pub const TASK: &str = "task";
pub const MODEL: &str = "model";
pub const WEIGHTS: &str = "wq";
pub const KV_CACHE: &str = "kvq";
pub const RUNTIME: &str = "runtime";
pub const METHOD: &str = "method";
pub const OPTIMIZER: &str = "opt";
pub const CHECKPOINTING: &str = "ckpt";
pub const CROSS_ENTROPY: &str = "ce";
pub const RECIPE: &str = "recipe";
pub const RESOLUTION: &str = "res";
pub const OFFLOAD: &str = "offload";
pub const COMPILE: &str = "compile";
pub const TRANSCRIBER: &str = "asr";
pub const OBJECTIVE: &str = "obj";
/// A latency preset (`latency_presets`): sets `ttft`, `itl` and `pct`.
pub const LATENCY_PRESET: &str = "slo";
/// Which formats the serving planner may choose (issue 39).
pub const QUANTIZE: &str = "quant";
pub const SPOT: &str = "spot";
/// Which kinds of catalog price to rank: `payable` or `all` (issue 27).
pub const PRICES: &str = "prices";
/// Whether rows whose price one can rely on come first: `auto`, `first`
/// or `off` (issue 40).
pub const PRICE_TRUST: &str = "rely";
/// Provider ids, comma-separated.
pub const PROVIDERS: &str = "provider";
pub const REGION: &str = "region";
pub const VENDOR: &str = "vendor";
/// GPU models to keep: words one of which the offer's GPU id or name holds.
/// Also the field the engine names when a GPU lacks a figure.
pub const GPU: &str = "gpu";
/// A custom model's input embedding and LM head are one matrix (`tie=1`).
pub const TIED: &str = "tie";
/// A custom model's name, as its file or repo gives it.
pub const MODEL_NAME: &str = "mname";
/// The format of a custom model's released weights (`wfmt=bf16`), which
/// its exact size `wbytes` is for.
pub const WEIGHT_FORMAT: &str = "wfmt";
/// Images per request of a vision-language model.
pub const IMAGES: &str = "imgs";
/// Their side in pixels.
pub const IMAGE_SIDE: &str = "img_px";
/// Seconds per generated speech or music clip.
pub const CLIP_SECONDS: &str = "secs";

// The page's state beyond the workload.
/// The link format (`v=1`).
pub const VERSION: &str = "v";
/// The page's language (`lang=es`).
pub const LANG: &str = "lang";
/// The offer the page points at (`offer=aws:p5.48xlarge`, `:spot` for its
/// spot price): the row the chart or the table selected.
pub const OFFER: &str = "offer";
/// The visitor's own GPU to compare with renting (`mygpu=rtx_4090`).
pub const MY_GPU: &str = "mygpu";
/// Embed mode (`embed=1`), and `form=0` to start with the form folded.
pub const EMBED: &str = "embed";
pub const FORM: &str = "form";

#[cfg(test)]
mod tests {
    use crate::engine::{Catalog, Error, Task, Workload};
    use crate::url_codec;

    /// Every key the engine names in an error is one the link reads: the
    /// page shows the message beside that field.
    #[test]
    fn the_engines_field_errors_name_keys_that_links_read() {
        let catalog = Catalog::bundled().unwrap();
        let odd_split = Workload { gpus: 8, tensor_parallel: 3, ..Workload::for_task(Task::Pretrain) };
        let wrong_kind = Workload { model: "whisper-large-v3".into(), ..Workload::default() };
        let errors = [
            crate::engine::memory::estimate(&odd_split, catalog.model(&odd_split.model).unwrap(), 8).unwrap_err(),
            crate::engine::memory::estimate(&wrong_kind, catalog.model(&wrong_kind.model).unwrap(), 1).unwrap_err(),
            Error::UnknownModel("x".into()),
        ];
        for error in errors {
            let field = error.field().expect("a field error");
            assert!(url_codec::value_of(&Workload::default(), field).is_some(), "{field} is not a link key");
        }
        assert_eq!(url_codec::value_of(&Workload::default(), "colour"), None);
    }
}
