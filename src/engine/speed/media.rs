//! Speed of image and video diffusion and of speech-to-text.

use super::Speed;
use crate::engine::{Error, Gpu, Model, Workload};

/// Denoiser steps per second, seconds per image or clip, across `gpu_count` GPUs.
pub fn diffusion_speed(_workload: &Workload, model: &Model, _gpu: &Gpu, _gpu_count: u32) -> Result<Speed, Error> {
    Err(Error::InvalidField { field: "task", message: format!("speed for {} is not estimated yet", model.name) })
}

/// Real-time factor of transcription across `gpu_count` GPUs.
pub fn speech_speed(_workload: &Workload, model: &Model, _gpu: &Gpu, _gpu_count: u32) -> Result<Speed, Error> {
    Err(Error::InvalidField { field: "task", message: format!("speed for {} is not estimated yet", model.name) })
}
