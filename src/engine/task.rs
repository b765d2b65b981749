//! The kind of job (URL key `task`): it decides which family of model runs
//! and which fields the workload reads.

use super::precision::{option_enum, UnknownOption};
use crate::text::{phrases, Phrase};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What the job is (URL key `task`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Task {
    Infer,
    Finetune,
    Pretrain,
    Image,
    Video,
    Audio,
}

impl Task {
    pub const ALL: [Task; 6] = [Task::Infer, Task::Finetune, Task::Pretrain, Task::Image, Task::Video, Task::Audio];

    pub const fn key(self) -> &'static str {
        match self {
            Task::Infer => "infer",
            Task::Finetune => "finetune",
            Task::Pretrain => "pretrain",
            Task::Image => "image",
            Task::Video => "video",
            Task::Audio => "audio",
        }
    }

    /// The kind of model the task runs, as models.csv's `modality` says it.
    pub const fn model_kind(self) -> &'static Phrase {
        match self {
            Task::Infer | Task::Finetune | Task::Pretrain => &phrases::KIND_LLM,
            Task::Image => &phrases::KIND_IMAGE,
            Task::Video => &phrases::KIND_VIDEO,
            Task::Audio => &phrases::KIND_SPEECH,
        }
    }

    pub const fn label(self) -> &'static Phrase {
        match self {
            Task::Infer => &phrases::TASK_INFER,
            Task::Finetune => &phrases::TASK_FINETUNE,
            Task::Pretrain => &phrases::TASK_PRETRAIN,
            Task::Image => &phrases::TASK_IMAGE,
            Task::Video => &phrases::TASK_VIDEO,
            Task::Audio => &phrases::TASK_AUDIO,
        }
    }
}

option_enum!(Task, phrases::OPTION_TASK);
