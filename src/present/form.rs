//! The workload form's choices, in the page's language.

use crate::engine::options::Choice;
use crate::engine::Task;
use crate::text::{phrases, Lang, Phrase};

/// An option enum's (URL value, label) pairs for a `<select>`, in the
/// order the form lists them.
pub fn options<T: Choice>(lang: Lang) -> Vec<(String, String)> {
    T::ALL.iter().map(|value| (value.key().to_string(), lang.t(value.label()).to_string())).collect()
}

/// How the job's size is asked for each task that makes media or
/// transcribes: the label of the batch, count and hours fields, `None`
/// where the task has no such field. One field per link key, relabelled by
/// the task, so each option is declared once in the form.
pub struct JobFields {
    pub batch: Option<&'static Phrase>,
    pub items: Option<&'static Phrase>,
    pub hours: Option<&'static Phrase>,
    /// Seconds per clip (speech and music).
    pub clip: bool,
}

pub const fn job_fields(task: Task) -> JobFields {
    let none = JobFields { batch: None, items: None, hours: None, clip: false };
    match task {
        Task::Infer | Task::Finetune | Task::Pretrain => none,
        Task::Image => JobFields { batch: Some(&phrases::FIELD_BATCH), items: Some(&phrases::FIELD_IMAGES), ..none },
        Task::Video => JobFields { batch: Some(&phrases::FIELD_BATCH), items: Some(&phrases::FIELD_CLIPS), ..none },
        Task::Audio => {
            JobFields { batch: Some(&phrases::FIELD_WINDOWS), hours: Some(&phrases::FIELD_AUDIO_HOURS), ..none }
        }
        Task::Speech => JobFields {
            batch: Some(&phrases::FIELD_CLIPS_AT_ONCE),
            hours: Some(&phrases::FIELD_SPEECH_HOURS),
            clip: true,
            ..none
        },
        Task::Music => JobFields {
            batch: Some(&phrases::FIELD_CLIPS_AT_ONCE),
            items: Some(&phrases::FIELD_CLIPS),
            clip: true,
            ..none
        },
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    /// Transcription sizes hours of audio in windows; speech generation
    /// hours of speech in clips; music a count of clips; images and video a
    /// count in batches. LLM tasks have none of these fields.
    #[test]
    fn each_task_asks_for_its_jobs_size_in_its_own_words() {
        let labels = |task: Task| {
            let f = job_fields(task);
            [f.batch, f.items, f.hours].map(|label| label.map(|p| p.en))
        };
        assert_eq!(labels(Task::Infer), [None, None, None]);
        assert_eq!(labels(Task::Audio), [Some("30-second windows per batch"), None, Some("Hours of audio")]);
        assert_eq!(labels(Task::Speech), [Some("Clips generated at once"), None, Some("Hours of speech to generate")]);
        assert_eq!(labels(Task::Music), [Some("Clips generated at once"), Some("Clips to make"), None]);
        assert_eq!(labels(Task::Image)[1], Some("Images to make"));
        assert!(job_fields(Task::Speech).clip && job_fields(Task::Music).clip && !job_fields(Task::Audio).clip);
    }
    use crate::engine::{KvPrecision, Precision, RuntimeChoice};

    #[test]
    fn a_select_lists_every_value_by_its_link_spelling_and_its_label_in_the_pages_language() {
        let en = options::<KvPrecision>(Lang::En);
        assert_eq!(en.iter().map(|(key, _)| key.as_str()).collect::<Vec<_>>(), ["bf16", "fp16", "fp8", "int8"]);
        let tasks = options::<Task>(Lang::Es);
        assert_eq!(tasks.len(), Task::ALL.len());
        assert_ne!(tasks, options::<Task>(Lang::En));
        // Runtimes are names, the same in both languages; "automatic" is a word.
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[1..], options::<RuntimeChoice>(Lang::En)[1..]);
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[0].1, "Automático, según la GPU");
        assert_eq!(options::<RuntimeChoice>(Lang::En)[2], ("trtllm".to_string(), "TensorRT-LLM".to_string()));
        // Every value reads back from its spelling, in any case.
        for (key, _) in options::<Precision>(Lang::En) {
            assert_eq!(key.to_uppercase().parse::<Precision>().unwrap().key(), key);
        }
        let unknown = "fp7".parse::<Precision>().unwrap_err();
        assert!(unknown.to_string().contains("\"fp7\"") && unknown.to_string().contains("q4_k_m"), "{unknown}");
    }
}
