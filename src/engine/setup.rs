//! The software set-up that runs a workload on one GPU, by the support
//! matrix (`engine::support`): which serving runtime (the one asked for, or
//! with `runtime=auto` the best that runs here), which fallbacks it takes,
//! or why nothing asked for can run there. The ranking, `estimate` and the
//! visitor's GPU all ask here first, so no recommended set-up is one the
//! cited documentation says cannot start (issue 23).

use super::catalog::Family;
use super::support::{hardware_of, lookup, where_it_runs, Answer, Fallback, Feature, Stack, Support, SupportRow};
use super::{
    Error, FinetuneMethod, Gpu, Model, Optimizer, Precision, Runtime, Task, TrainingRecipe, Transcriber, Workload,
};
use crate::msg;
use crate::text::{phrases, Msg};

/// How a workload runs on one GPU.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup {
    /// Serving: the runtime that serves it there.
    pub runtime: Option<Runtime>,
    /// Each fallback taken, in words ("V100 has no BF16: vLLM runs it in
    /// FP16, same memory").
    pub notes: Vec<Msg>,
    /// Whether FlashAttention-class kernels run; without them training's
    /// attention runs in PyTorch's memory-efficient kernel, slower.
    pub flash_attention: bool,
    /// Weights the runtime dequantizes when it loads them: they take this
    /// format's memory and bandwidth instead of the file's.
    pub weights_as: Option<Precision>,
    /// Training: the recipe it runs with when the one asked for cannot run
    /// here (pure BF16 on a GPU without BF16 trains in FP16 from FP32
    /// master weights instead).
    pub recipe_as: Option<TrainingRecipe>,
}

impl Default for Setup {
    /// The workload as asked, nothing falling back: for models of hardware
    /// the matrix is not asked about (calibration rigs).
    fn default() -> Setup {
        Setup { runtime: None, notes: Vec::new(), flash_attention: true, weights_as: None, recipe_as: None }
    }
}

impl Setup {
    /// `workload` as it runs here: `runtime=auto` replaced by the runtime
    /// chosen, and weights dequantized on load in the format they become,
    /// so memory and speed model what really runs.
    pub fn apply(&self, workload: &Workload) -> Workload {
        Workload {
            runtime: self.runtime.map_or(workload.runtime, Runtime::choice),
            weight_precision: self.weights_as.unwrap_or(workload.weight_precision),
            recipe: self.recipe_as.unwrap_or(workload.recipe),
            ..workload.clone()
        }
    }
}

/// The stack that is each serving runtime in the matrix.
pub const fn stack_of(runtime: Runtime) -> Stack {
    match runtime {
        Runtime::Vllm => Stack::Vllm,
        Runtime::Trtllm => Stack::Trtllm,
        Runtime::Llamacpp => Stack::Llamacpp,
        Runtime::Hf => Stack::Hf,
    }
}

/// What a set-up asks of the matrix: the stack and the feature.
type Need = (Stack, Feature);

/// What serving weights of `precision` with a KV cache of `workload`'s
/// format asks of `runtime`. BF16 arithmetic matters only for BF16 weights:
/// quantized formats run their 16-bit side in FP16 where BF16 is missing.
fn serving_needs(workload: &Workload, runtime: Runtime) -> Vec<Need> {
    let stack = stack_of(runtime);
    let mut needs = vec![
        (stack, Feature::Runs),
        (stack, Feature::Weights(workload.weight_precision)),
        (stack, Feature::Kv(workload.kv_precision)),
    ];
    if workload.weight_precision == Precision::Bf16 {
        needs.push((stack, Feature::ComputeBf16));
    }
    needs
}

/// What training asks: PyTorch, BF16 mixed precision unless FP32 or FP16 is
/// asked, bitsandbytes for QLoRA's NF4 base and for 8-bit AdamW, and
/// Transformer Engine for FP8 pretraining.
fn training_needs(workload: &Workload) -> Vec<Need> {
    let mut needs = vec![(Stack::Pytorch, Feature::Runs)];
    if !matches!(workload.weight_precision, Precision::Fp32 | Precision::Fp16) {
        needs.push((Stack::Pytorch, Feature::ComputeBf16));
    }
    let qlora = workload.task == Task::Finetune && workload.method == FinetuneMethod::Qlora;
    if qlora {
        needs.extend([(Stack::Bitsandbytes, Feature::Runs), (Stack::Bitsandbytes, Feature::Weights(Precision::Nf4))]);
    }
    if workload.optimizer == Optimizer::Adamw8bit {
        if !qlora {
            needs.push((Stack::Bitsandbytes, Feature::Runs));
        }
        needs.push((Stack::Bitsandbytes, Feature::Optimizer8bit));
    }
    if workload.task == Task::Pretrain && workload.weight_precision == Precision::Fp8 {
        needs.extend([(Stack::TransformerEngine, Feature::Runs), (Stack::TransformerEngine, Feature::ComputeFp8)]);
    }
    needs
}

/// A need the matrix does not meet: a row says `stack` cannot do
/// `feature` (`listed`), or no row says it can. Put in words only when it
/// is the reason given: the automatic runtime and the form's hint try many
/// set-ups whose refusals nobody reads.
#[derive(Debug, Clone, Copy)]
struct Refused {
    stack: Stack,
    feature: Feature,
    listed: bool,
}

impl Refused {
    /// Why, in words a user can act on.
    fn message(self, rows: &[SupportRow], gpu: &Gpu) -> Msg {
        let Refused { stack, feature, listed } = self;
        let (stack_name, hardware) = (stack.label(), hardware_of(gpu));
        if feature == Feature::Runs {
            let phrase = if listed { &phrases::SUPPORT_DOES_NOT_RUN } else { &phrases::SUPPORT_RUNS_UNLISTED };
            let places = where_it_runs(rows, stack);
            msg!(*phrase, stack = stack_name, gpu = &gpu.name, hardware = hardware, places = places)
        } else {
            let phrase = if listed { &phrases::SUPPORT_FEATURE_NOT_HERE } else { &phrases::SUPPORT_FEATURE_UNLISTED };
            msg!(*phrase, stack = stack_name, feature = feature_words(feature), gpu = &gpu.name, hardware = hardware)
        }
    }
}

/// A feature in words: "FP8 (8-bit) weights", "FP8 KV cache".
pub fn feature_words(feature: Feature) -> Msg {
    match feature {
        Feature::Runs => msg!(phrases::FEATURE_RUNS),
        Feature::Weights(precision) => msg!(phrases::FEATURE_WEIGHTS, format = precision.label()),
        Feature::Kv(kv) => msg!(phrases::FEATURE_KV, format = kv.label()),
        Feature::ComputeBf16 => msg!(phrases::FEATURE_BF16),
        Feature::ComputeFp8 => msg!(phrases::FEATURE_FP8_TRAINING),
        Feature::Optimizer8bit => msg!(phrases::FEATURE_OPTIMIZER_8BIT),
        Feature::FlashAttention => msg!(phrases::FEATURE_FLASH_ATTENTION),
        Feature::VideoPipelines => msg!(phrases::FEATURE_VIDEO_PIPELINES),
    }
}

/// The note for a fallback `stack` takes for `feature` on `gpu`.
fn fallback_note(fallback: Fallback, stack: Stack, feature: Feature, gpu: &Gpu, training: bool) -> Msg {
    let (gpu, stack) = (&gpu.name, stack.label());
    let bf16 = matches!(feature, Feature::ComputeBf16 | Feature::Weights(Precision::Bf16));
    match fallback {
        Fallback::Fp16 if bf16 && training => msg!(phrases::NOTE_FALLBACK_FP16_TRAINING, gpu = gpu, stack = stack),
        Fallback::Fp16 if bf16 => msg!(phrases::NOTE_FALLBACK_FP16, gpu = gpu, stack = stack),
        Fallback::Fp16 | Fallback::Fp32 => msg!(
            phrases::NOTE_FALLBACK_AS,
            gpu = gpu,
            stack = stack,
            feature = feature_words(feature),
            format = if fallback == Fallback::Fp16 { "FP16" } else { "FP32" }
        ),
        Fallback::WeightOnly => {
            msg!(phrases::NOTE_FALLBACK_WEIGHT_ONLY, gpu = gpu, stack = stack, feature = feature_words(feature))
        }
        Fallback::Bf16 if training => msg!(phrases::NOTE_FALLBACK_BF16, gpu = gpu, stack = stack),
        Fallback::Bf16 => {
            msg!(phrases::NOTE_FALLBACK_DEQUANTIZED, gpu = gpu, stack = stack, feature = feature_words(feature))
        }
        Fallback::Emulated => msg!(phrases::NOTE_FALLBACK_EMULATED, gpu = gpu, stack = stack),
        Fallback::Sdpa => msg!(phrases::NOTE_FALLBACK_SDPA, gpu = gpu),
    }
}

/// What checking the needs found: the fallbacks' notes, and the format
/// weights take when they are dequantized on load.
struct Checked {
    notes: Vec<Msg>,
    weights_as: Option<Precision>,
}

/// Checks `needs` in order: the fallbacks taken, or the first need that
/// cannot be met.
fn check(rows: &[SupportRow], needs: &[Need], gpu: &Gpu, training: bool) -> Result<Checked, Refused> {
    let mut checked = Checked { notes: Vec::new(), weights_as: None };
    for &(stack, feature) in needs {
        match lookup(rows, stack, gpu, feature) {
            Answer::Listed(Support::Native, _) => {}
            Answer::Listed(Support::Fallback(fallback), _) => {
                if let (Feature::Weights(_), Some(format)) = (feature, fallback.format()) {
                    checked.weights_as = Some(format);
                }
                let note = fallback_note(fallback, stack, feature, gpu, training);
                // BF16 weights and BF16 arithmetic falling back alike say it once.
                if !checked.notes.contains(&note) {
                    checked.notes.push(note);
                }
            }
            Answer::Listed(Support::No, _) => return Err(Refused { stack, feature, listed: true }),
            Answer::Unlisted => return Err(Refused { stack, feature, listed: false }),
        }
    }
    Ok(checked)
}

/// Serving: the runtime asked for, or the first of `Runtime::preferred`
/// that runs the workload here. When none does, the reason is that of the
/// first runtime that runs on the hardware at all (it names what is
/// missing: a format, a KV cache), else that none runs here.
fn serving_setup(workload: &Workload, gpu: &Gpu, rows: &[SupportRow]) -> Result<Setup, Msg> {
    let fixed = workload.runtime.fixed();
    let candidates: Vec<Runtime> = match fixed {
        Some(runtime) => vec![runtime],
        None => Runtime::preferred(workload.weight_precision).to_vec(),
    };
    let mut first_reason = None;
    for &runtime in &candidates {
        let needs = serving_needs(workload, runtime);
        match check(rows, &needs, gpu, false) {
            Ok(Checked { notes, weights_as }) => {
                return Ok(Setup { runtime: Some(runtime), notes, flash_attention: true, weights_as, recipe_as: None })
            }
            // `runs` is checked first: a refusal of anything else means the
            // runtime runs on this hardware.
            Err(refused) if fixed.is_some() || (refused.feature != Feature::Runs && first_reason.is_none()) => {
                first_reason = Some(refused);
            }
            Err(_) => {}
        }
    }
    Err(first_reason.map_or_else(
        || {
            let names: Vec<&str> = candidates.iter().map(|r| r.label().en).collect();
            msg!(phrases::SUPPORT_NO_RUNTIME, runtimes = names.join(", "), gpu = &gpu.name, hardware = hardware_of(gpu))
        },
        |refused| refused.message(rows, gpu),
    ))
}

/// Training: the needs must all be met; FlashAttention is a speed-up, not a
/// need: where the matrix says attention falls back, it is slower.
fn training_setup(workload: &Workload, gpu: &Gpu, rows: &[SupportRow]) -> Result<Setup, Msg> {
    let mut notes = check(rows, &training_needs(workload), gpu, true).map_err(|r| r.message(rows, gpu))?.notes;
    let flash = lookup(rows, Stack::Pytorch, gpu, Feature::FlashAttention);
    let flash_attention = !matches!(flash, Answer::Listed(Support::Fallback(Fallback::Sdpa), _));
    if !flash_attention {
        notes.push(fallback_note(Fallback::Sdpa, Stack::Pytorch, Feature::FlashAttention, gpu, true));
    }
    // FP16 has too little range to hold weights and Adam's moments: without
    // BF16, training keeps FP32 masters and scales the loss (Micikevicius et
    // al. 2018, Mixed Precision Training, §3), so a pure-BF16 recipe runs as
    // mixed precision here and needs its memory.
    let no_bf16 = matches!(
        lookup(rows, Stack::Pytorch, gpu, Feature::ComputeBf16),
        Answer::Listed(Support::Fallback(Fallback::Fp16), _)
    );
    let recipe_as = (no_bf16 && workload.recipe == TrainingRecipe::PureBf16).then(|| {
        // It replaces the fallback's "same memory".
        let same_memory = fallback_note(Fallback::Fp16, Stack::Pytorch, Feature::ComputeBf16, gpu, true);
        notes.retain(|note| *note != same_memory);
        notes.push(msg!(phrases::NOTE_RECIPE_MIXED_FP16, gpu = &gpu.name));
        TrainingRecipe::Mixed
    });
    Ok(Setup { runtime: None, notes, flash_attention, weights_as: None, recipe_as })
}

/// `workload` on one kind of GPU: how it runs there, or why it cannot, and
/// the workload to size and time there (as it runs, or as asked when it
/// cannot run, so its memory can still be said).
#[derive(Debug, Clone)]
pub struct OnGpu {
    pub setup: Result<Setup, Msg>,
    pub workload: Workload,
}

/// The ranking's, `estimate`'s and the visitor's GPU's one way in: the
/// set-up on `gpu` and the workload as it runs there.
pub fn on_gpu(workload: &Workload, model: &Model, gpu: &Gpu, rows: &[SupportRow]) -> Result<OnGpu, Error> {
    let setup = set_up(workload, model, gpu, rows)?;
    let workload = setup.as_ref().map_or_else(|_| workload.clone(), |s| s.apply(workload));
    Ok(OnGpu { setup, workload })
}

/// How `workload` runs on `gpu`, or why it cannot, by the support matrix
/// `rows`. Each family of work says what it needs.
pub fn set_up(workload: &Workload, model: &Model, gpu: &Gpu, rows: &[SupportRow]) -> Result<Result<Setup, Msg>, Error> {
    let family = model.family(workload.task)?;
    let pipeline = |stack: Stack, extra: &[Feature]| -> Result<Setup, Msg> {
        let mut needs = vec![(stack, Feature::Runs)];
        needs.extend(extra.iter().map(|&feature| (stack, feature)));
        let Checked { notes, weights_as } = check(rows, &needs, gpu, false).map_err(|r| r.message(rows, gpu))?;
        Ok(Setup { runtime: None, notes, flash_attention: true, weights_as, recipe_as: None })
    };
    let bf16 = workload.weight_precision == Precision::Bf16;
    Ok(match family {
        Family::Serving(_) => serving_setup(workload, gpu, rows),
        Family::Training(_) => training_setup(workload, gpu, rows),
        Family::Diffusion(diffusion) => {
            let mut extra = Vec::new();
            if bf16 {
                extra.push(Feature::Weights(Precision::Bf16));
            }
            if diffusion.is_video() {
                extra.push(Feature::VideoPipelines);
            }
            pipeline(Stack::Diffusers, &extra)
        }
        Family::Speech(_) => {
            let stack = match workload.transcriber {
                Transcriber::FasterWhisper => Stack::FasterWhisper,
                Transcriber::Transformers => Stack::Hf,
            };
            pipeline(stack, &[Feature::Weights(workload.weight_precision)])
        }
        // The generators' own code (audiocraft, parler-tts, F5-TTS,
        // CosyVoice, Dia) is PyTorch.
        Family::AudioGen(_) => pipeline(Stack::Pytorch, if bf16 { &[Feature::ComputeBf16] } else { &[] }),
    })
}

// Native only: they rank the committed snapshot, read from disk.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
