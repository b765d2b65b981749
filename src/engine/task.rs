//! The kind of job (URL key `task`): it decides which family of model runs
//! and which fields the workload reads.

use super::options::choices;
use crate::text::{phrases, Phrase};

choices! {
    /// What the job is (URL key `task`).
    pub enum Task: phrases::OPTION_TASK {
        Infer = "infer", phrases::TASK_INFER;
        Finetune = "finetune", phrases::TASK_FINETUNE;
        Pretrain = "pretrain", phrases::TASK_PRETRAIN;
        Image = "image", phrases::TASK_IMAGE;
        Video = "video", phrases::TASK_VIDEO;
        /// Speech to text (the key predates the generating tasks).
        Audio = "audio", phrases::TASK_AUDIO;
        /// Text to speech.
        Speech = "speech", phrases::TASK_SPEECH;
        /// Music and sound effects from a description.
        Music = "music", phrases::TASK_MUSIC;
    }
}

impl Task {
    /// What the task does, in a line under its tab.
    pub const fn hint(self) -> &'static Phrase {
        match self {
            Task::Infer => &phrases::HINT_INFER,
            Task::Finetune => &phrases::HINT_FINETUNE,
            Task::Pretrain => &phrases::HINT_PRETRAIN,
            Task::Image => &phrases::HINT_IMAGE,
            Task::Video => &phrases::HINT_VIDEO,
            Task::Audio => &phrases::HINT_AUDIO,
            Task::Speech => &phrases::HINT_SPEECH,
            Task::Music => &phrases::HINT_MUSIC,
        }
    }

    /// The kind of model the task runs, as models.csv's `modality` says it.
    pub const fn model_kind(self) -> &'static Phrase {
        match self {
            Task::Infer | Task::Finetune | Task::Pretrain => &phrases::KIND_LLM,
            Task::Image => &phrases::KIND_IMAGE,
            Task::Video => &phrases::KIND_VIDEO,
            Task::Audio => &phrases::KIND_SPEECH,
            Task::Speech => &phrases::KIND_TTS,
            Task::Music => &phrases::KIND_MUSIC,
        }
    }
}
