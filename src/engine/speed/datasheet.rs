//! The datasheet figures a speed starts from: memory bandwidth, and peak
//! tensor throughput at the clock the board's power sustains.

use crate::engine::hardware::{self, ComputePrecision};
use crate::engine::{Error, Gpu};
use crate::msg;
use crate::text::{phrases, Msg};

/// The GPU's memory bandwidth in bytes/s, or an error naming what is missing.
pub fn bandwidth_of(gpu: &Gpu) -> Result<f64, Error> {
    hardware::memory_bandwidth(gpu).ok_or_else(|| Error::InvalidField {
        field: crate::engine::keys::GPU,
        message: msg!(phrases::ERROR_NO_BANDWIDTH, gpu = &gpu.name),
    })
}

/// Peak FLOP/s at `compute`, at the clock the board's power sustains,
/// noting an estimate; an error naming what is missing.
pub fn peak_of(gpu: &Gpu, compute: ComputePrecision, notes: &mut Vec<Msg>) -> Result<f64, Error> {
    let peak = hardware::peak_tflops(gpu, compute).ok_or_else(|| Error::InvalidField {
        field: crate::engine::keys::GPU,
        message: msg!(phrases::ERROR_NO_THROUGHPUT, precision = compute.label(), gpu = &gpu.name),
    })?;
    if let Some(note) = peak.estimated {
        notes.push(note);
    }
    let share = match hardware::sustained_clock(gpu) {
        Some((share, note)) => {
            notes.push(note);
            share
        }
        None => 1.0,
    };
    Ok(peak.value * 1e12 * share)
}
