//! One GPU shape of the ranking: a count of GPUs per node on some nodes
//! of a fabric, sized and timed once for every offer that shares it, with
//! the job as set up on that GPU type.

use crate::engine::cost::{self, Rental};
use crate::engine::fabric::Placement;
use crate::engine::memory::{fit, Fit};
use crate::engine::setup::Setup;
use crate::engine::speed::{speed, Speed};
use crate::engine::{Gpu, Model, Task, Workload};
use crate::msg;
use crate::text::{phrases, Msg};
use std::sync::Arc;

/// One GPU shape's fit, and its speed when it fits.
pub struct Shape {
    pub fit: Result<Fit, Msg>,
    pub speed: Option<Arc<Speed>>,
    pub single_gpu_fits: bool,
}

/// Where a shape runs: `count` GPUs per node, on `nodes` nodes of the
/// cluster fabric `fabric` (an index of `Snapshot::fabrics`; `usize::MAX`
/// for one machine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShapeKey {
    pub count: u32,
    pub nodes: u32,
    pub fabric: usize,
}

/// The index of `key`'s shape in `shapes`, made by `make` the first time.
pub fn shape_index(shapes: &mut Vec<(ShapeKey, Shape)>, key: ShapeKey, make: impl FnOnce() -> Shape) -> usize {
    match shapes.iter().position(|(k, _)| *k == key) {
        Some(at) => at,
        None => {
            shapes.push((key, make()));
            shapes.len() - 1
        }
    }
}

/// Sizes and times `runs` on `placement`. Training that does not fit with
/// the ZeRO stage asked for is sharded further: of the higher stages that
/// fit, the fastest (ZeRO-3 / FSDP overlaps its gathers where ZeRO-1/2
/// gather after the step, so more sharding can also be quicker), and the
/// speed says so.
fn size_and_time(
    runs: &Workload,
    model: &Model,
    gpu: &Gpu,
    placement: Placement,
    setup: &Setup,
    single_gpu_fits: bool,
) -> Shape {
    let shape = |fit: Result<Fit, Msg>, speed: Option<Arc<Speed>>| Shape { fit, speed, single_gpu_fits };
    // Speed only for what fits; sizing errors are the reason.
    let asked = match fit(runs, model, gpu, placement) {
        Ok(f) if f.fits => {
            let timed = speed(runs, model, gpu, placement, &f, setup).ok().map(Arc::new);
            return shape(Ok(f), timed);
        }
        Ok(f) => f,
        Err(e) => return shape(Err(e.message()), None),
    };
    if !matches!(runs.task, Task::Finetune | Task::Pretrain) {
        return shape(Ok(asked), None);
    }
    let mut best: Option<(Fit, Speed)> = None;
    for stage in runs.zero_stage + 1..=3 {
        let sharded = Workload { zero_stage: stage, ..runs.clone() };
        let Ok(f) = fit(&sharded, model, gpu, placement) else { continue };
        if !f.fits {
            continue;
        }
        let Ok(mut timed) = speed(&sharded, model, gpu, placement, &f, setup) else { continue };
        let faster = |b: &(Fit, Speed)| timed.train_tokens_per_s() > b.1.train_tokens_per_s();
        if best.as_ref().is_none_or(faster) {
            timed.notes.push(msg!(phrases::NOTE_ZERO_RAISED, stage = stage, asked = runs.zero_stage));
            best = Some((f, timed));
        }
    }
    match best {
        Some((f, timed)) => shape(Ok(f), Some(Arc::new(timed))),
        None => shape(Ok(asked), None),
    }
}

/// The job as set up on one GPU type, which sizes and times it on a
/// placement.
pub struct OnThisGpu<'a> {
    pub runs: &'a Workload,
    pub model: &'a Model,
    pub gpu: &'a Gpu,
    pub setup: &'a Setup,
    pub single_gpu_fits: bool,
    pub startup_s: f64,
}

impl OnThisGpu<'_> {
    pub fn shape(&self, placement: Placement) -> Shape {
        size_and_time(self.runs, self.model, self.gpu, placement, self.setup, self.single_gpu_fits)
    }

    /// Hours the job takes on `shape` over `nodes`, where it fits and is timed.
    pub fn hours(&self, shape: &Shape, nodes: u32, spot: bool) -> Option<f64> {
        let f = shape.fit.as_ref().ok().filter(|f| f.fits)?;
        let rental = Rental { spot, nodes, startup_s: self.startup_s, instances: None };
        cost::job_hours(self.runs, self.model, &f.memory, shape.speed.as_deref()?, rental)
    }
}
