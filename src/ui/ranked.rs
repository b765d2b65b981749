//! A ranking as the page holds it.

use crate::engine::Report;
use std::sync::Arc;

/// A ranking as the page holds it: compared by identity, since every
/// new ranking is a new report.
#[derive(Debug, Clone)]
pub struct Ranked(pub Arc<Report>);

impl Ranked {
    /// A ranking of nothing, for a table between rankings.
    pub fn none() -> Ranked {
        let task = crate::engine::Task::Infer;
        Ranked(Arc::new(Report {
            memory: crate::engine::memory::MemoryBreakdown::default(),
            task,
            objective: crate::engine::Objective::for_task(task),
            results: Vec::new(),
            excluded: Vec::new(),
            no_single_node: None,
            reliable_first: None,
            advice: Vec::new(),
        }))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Ranked) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
