//! What the page does with a model read from files, a paste or the Hub
//! (issue 25), computed where the reading happens: the import's Web Worker
//! (`ui/import_worker.rs`), which keeps the readers out of the module the
//! first result waits for (issue 27). The answer crosses to the page as
//! plain text: the imported model as link keys, which the page already
//! reads, and what to say in each language.

use crate::engine::custom_model::CUSTOM_MODEL;
use crate::engine::Workload;
use crate::model_import::{self, ImportError, Imported};
use crate::present::model_facts;
use crate::text::{Lang, Msg};
use crate::url_codec;

/// What the page sets and says after a reading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportAnswer {
    /// The model read, as the link's keys (`model=custom&mname=…&params=…`,
    /// with `wq=` when the file gives its weights' format); `None` when
    /// nothing could be read.
    pub link: Option<String>,
    /// Whether the file gives the weights' format, which then becomes the
    /// workload's.
    pub sets_format: bool,
    /// What was read, or why nothing was, in English and in Spanish.
    pub en: String,
    pub es: String,
}

impl ImportAnswer {
    pub fn said(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::Es => &self.es,
        }
    }

    fn of(link: Option<String>, sets_format: bool, message: &Msg) -> ImportAnswer {
        ImportAnswer { link, sets_format, en: message.render(Lang::En), es: message.render(Lang::Es) }
    }

    /// A refusal: what is wrong, nothing set.
    pub fn refused(error: &ImportError) -> ImportAnswer {
        ImportAnswer::of(None, false, &error.message())
    }
}

/// Reads `files` (one file, or a config.json with its safetensors index)
/// and answers: the model as link keys, named `known_as` (a file's stem, a
/// Hub id) where the files give no name.
pub fn read(files: &[&[u8]], known_as: Option<&str>) -> ImportAnswer {
    answer(model_import::import(files), known_as)
}

/// The answer for a reading's result.
pub fn answer(result: Result<Imported, ImportError>, known_as: Option<&str>) -> ImportAnswer {
    let mut imported = match result {
        Ok(imported) => imported,
        Err(error) => return ImportAnswer::refused(&error),
    };
    if imported.model.name.is_none() {
        imported.model.name = known_as.and_then(model_import::link_name);
    }
    let said = model_facts::imported(&imported);
    let format = imported.model.weight_format;
    let mut workload = Workload { model: CUSTOM_MODEL.to_string(), ..Workload::default() };
    if let Some(format) = format {
        workload.weight_precision = format;
    }
    workload.custom = Some(imported.model);
    ImportAnswer::of(Some(url_codec::encode(&workload)), format.is_some(), &said)
}

/// Puts the model an answer's link carries into `workload`: the custom
/// model, and its weights' format where the file gave one. Keeps the rest
/// of the workload (task, lengths, load) as it is.
pub fn apply(answer: &ImportAnswer, workload: &mut Workload, catalog: &crate::engine::Catalog) {
    let Some(link) = &answer.link else { return };
    let read = url_codec::decode(link, catalog).workload;
    if answer.sets_format {
        workload.weight_precision = read.weight_precision;
    }
    workload.model = read.model;
    workload.custom = read.custom;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Catalog, Precision, Task};

    const QWEN3_CONFIG: &str = include_str!("../../tests/fixtures/model_configs/qwen3-8b.json");

    #[test]
    fn a_read_model_crosses_as_link_keys_and_comes_back_whole() {
        let catalog = Catalog::bundled().unwrap();
        let direct = model_import::import(&[QWEN3_CONFIG.as_bytes()]).unwrap();
        let answer = read(&[QWEN3_CONFIG.as_bytes()], Some("Qwen/Qwen3-8B"));
        assert!(answer.link.as_deref().is_some_and(|l| l.contains("model=custom")), "{answer:?}");
        assert!(answer.en.contains("config.json") && answer.es.contains("config.json"), "{answer:?}");
        // Into a fine-tuning workload: the model and its format change, the task stays.
        let mut workload = Workload::for_task(Task::Finetune);
        apply(&answer, &mut workload, catalog);
        assert_eq!(workload.task, Task::Finetune);
        assert_eq!(workload.model, CUSTOM_MODEL);
        let custom = workload.custom.as_ref().unwrap();
        assert_eq!(custom.params, direct.model.params);
        assert_eq!(custom.layers, direct.model.layers);
        assert_eq!(answer.sets_format, direct.model.weight_format.is_some());
        if let Some(format) = direct.model.weight_format {
            assert_eq!(workload.weight_precision, format);
        }
    }

    #[test]
    fn a_refusal_says_why_in_both_languages_and_sets_nothing() {
        let catalog = Catalog::bundled().unwrap();
        let answer = read(&[b"not a model"], None);
        assert_eq!(answer.link, None);
        assert!(!answer.en.is_empty() && answer.en != answer.es, "{answer:?}");
        let mut workload = Workload { weight_precision: Precision::Fp8, ..Workload::default() };
        let before = workload.clone();
        apply(&answer, &mut workload, catalog);
        assert_eq!(workload, before);
        assert_eq!(answer.said(Lang::Es), answer.es);
    }
}
