//! One serving replica's scheduler steps, for the serving planner (issue
//! 39): the same passes `serving_speed` times, exposed one step at a time
//! so that a simulation of continuous batching can advance a replica by
//! the step its running requests and prompt chunks make.

use super::{scheduler_step, Chunk, Machine, PassTimer, RuntimeSpeed};
use crate::engine::catalog::Shape;
use crate::engine::fabric::Placement;
use crate::engine::{Error, Gpu, Model, Workload};

/// A tensor-parallel group of GPUs inside one node serving one copy of the
/// model with `workload`'s runtime.
pub struct ReplicaSteps<'w> {
    timer: PassTimer<'w>,
    machine: Machine,
}

impl<'w> ReplicaSteps<'w> {
    /// A replica of `gpus` GPUs of one node with the runtime's kernels as
    /// `r` has them (`runtime_speed` for today's release; the calibration
    /// passes the release a measurement ran). An error where the GPU lacks
    /// the bandwidth figure every step needs.
    pub fn with_kernels(
        r: &RuntimeSpeed,
        workload: &'w Workload,
        model: &Model,
        shape: &Shape,
        gpu: &'w Gpu,
        gpus: u32,
    ) -> Result<ReplicaSteps<'w>, Error> {
        let timer = PassTimer::new(r, workload, model, shape, gpu, &mut Vec::new());
        let machine = timer.machine(Placement::node(gpus), gpus)?;
        Ok(ReplicaSteps { timer, machine })
    }

    /// Seconds of one step in which `decodes` running requests each make a
    /// token at `context` tokens on average and `chunk` of prompts is
    /// prefilled.
    pub fn step_s(&self, decodes: u32, context: f64, chunk: Chunk) -> f64 {
        let t = &self.timer;
        scheduler_step(&t.a, &self.machine, &t.r, t.packed, f64::from(decodes), context, chunk).total()
    }

    /// Whether prompts can be timed at all: the GPU's arithmetic rate is
    /// known (without it only decode is).
    pub fn times_prefill(&self) -> bool {
        self.timer.flops.is_ok()
    }

    /// Tensor-parallel ranks and pipeline stages the runtime splits the
    /// group into (`Runtime::split`).
    pub fn split(&self) -> (u32, u32) {
        (self.machine.tp as u32, self.machine.stages as u32)
    }

    /// The runtime's own cap on running requests (`RuntimeSpeed::max_batch`).
    pub fn runtime_max_batch(&self) -> Option<u32> {
        self.timer.r.max_batch
    }
}
