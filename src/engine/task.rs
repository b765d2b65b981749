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
        Audio = "audio", phrases::TASK_AUDIO;
    }
}

impl Task {
    /// The kind of model the task runs, as models.csv's `modality` says it.
    pub const fn model_kind(self) -> &'static Phrase {
        match self {
            Task::Infer | Task::Finetune | Task::Pretrain => &phrases::KIND_LLM,
            Task::Image => &phrases::KIND_IMAGE,
            Task::Video => &phrases::KIND_VIDEO,
            Task::Audio => &phrases::KIND_SPEECH,
        }
    }
}
