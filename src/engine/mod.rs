//! The sizing and ranking engine.
//!
//! Pure Rust: no leptos, web-sys, js-sys or gloo in here, so the browser app,
//! the native CLI and the tests all run the same arithmetic.

pub mod audio_model;
pub mod catalog;
pub mod cost;
pub mod custom_model;
pub mod error;
pub mod fabric;
mod fast_map;
pub mod freshness;
pub mod gpu;
pub mod hardware;
pub mod hosted_api;
pub mod json;
pub mod keys;
pub mod latency_presets;
pub mod local_gpu;
pub mod local_run;
pub mod memory;
pub mod options;
pub mod precision;
pub mod price_check;
pub mod ranking;
pub mod serving_plan;
pub mod setup;
pub mod snapshot;
pub mod speed;
pub mod support;
pub mod task;
pub mod vision;
pub mod workload;

pub use catalog::{Catalog, Gpu, Model};
pub use error::Error;
pub use precision::{KvPrecision, Precision};
pub use ranking::{rank, rank_with, Exclusion, Planner, RankedOffer, Ranking, Report, Terms};
pub use snapshot::{Offer, PriceKind, Provider, Snapshot, SnapshotError, Source};
pub use task::Task;
pub use workload::{
    CrossEntropy, FinetuneMethod, Objective, Optimizer, PriceFilter, PriceTrust, Quantize, Runtime, RuntimeChoice,
    Split, SpotPolicy, TrainingRecipe, Transcriber, Workload,
};
