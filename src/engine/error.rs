//! Errors are values, with messages a user can act on, in the reader's
//! language (`message()`), or in English (`Display`).

use crate::msg;
use crate::text::{phrases, Msg};
use std::fmt;

/// Everything that can go wrong between a workload and a report.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The workload names a model that is not in the catalog.
    UnknownModel(String),
    /// The workload names a GPU that is not in the catalog.
    UnknownGpu(String),
    /// A field has a value the engine cannot use.
    InvalidField { field: &'static str, message: Msg },
    /// The bundled model and GPU catalog could not be read (a build defect).
    Catalog(String),
}

impl Error {
    /// The workload field (its URL key) the problem is in, when it is in one.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            Error::UnknownModel(_) => Some(super::keys::MODEL),
            Error::InvalidField { field, .. } => Some(field),
            Error::UnknownGpu(_) | Error::Catalog(_) => None,
        }
    }

    /// The problem alone, without the field's name: what the page shows
    /// next to the field.
    pub fn problem(&self) -> Msg {
        match self {
            Error::InvalidField { message, .. } => message.clone(),
            _ => self.message(),
        }
    }

    /// What went wrong, to render in the reader's language.
    pub fn message(&self) -> Msg {
        match self {
            Error::UnknownModel(id) => msg!(phrases::ERROR_UNKNOWN_MODEL, id = id),
            Error::UnknownGpu(id) => msg!(phrases::ERROR_UNKNOWN_GPU, id = id),
            Error::InvalidField { field, message } => {
                msg!(phrases::ERROR_FIELD, field = *field, problem = message.clone())
            }
            Error::Catalog(detail) => msg!(phrases::ERROR_CATALOG, detail = detail),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.message().fmt(f)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use crate::engine::{memory::training::training_memory, Catalog, Task, Workload};
    use crate::text::Lang;

    #[test]
    fn a_field_error_names_its_field_and_says_its_problem_alone_for_beside_the_field() {
        let catalog = Catalog::bundled().unwrap();
        let workload = Workload { gpus: 8, tensor_parallel: 3, ..Workload::for_task(Task::Pretrain) };
        let model = workload.resolve_model(catalog).unwrap();
        let error = training_memory(&workload, &model, model.shape().unwrap()).unwrap_err();
        assert_eq!(error.field(), Some("tp"));
        let problem = "tensor × pipeline parallel (3 × 1) must divide the 8 GPUs";
        assert_eq!(error.problem().render(Lang::En), problem);
        assert_eq!(error.message().render(Lang::En), format!("tp: {problem}"));
        assert_eq!(super::Error::UnknownModel("x".into()).field(), Some("model"));
        assert_eq!(super::Error::UnknownGpu("x".into()).field(), None);
    }
}
