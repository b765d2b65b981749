//! The workload form's choices, in the page's language.

use crate::engine::audio_model::default_clip_seconds;
use crate::engine::latency_presets::{spelling, LatencyPreset, CUSTOM, LATENCY_PRESETS};
use crate::engine::options::Choice;
use crate::engine::{Catalog, Model, Objective, Task, Workload};
use crate::msg;
use crate::text::{phrases, Arg, Lang, Phrase};

/// An option enum's (URL value, label) pairs for a `<select>`, in the
/// order the form lists them: each label cut to its words before a
/// parenthesis or a colon ("AdamW (states in the weights' precision)" →
/// "AdamW"), so that the chosen one fits its box in either language (issue
/// 40); `option_detail` gives the whole label, shown under the box. A
/// label keeps its whole words where cutting would leave two options alike.
pub fn options<T: Choice>(lang: Lang) -> Vec<(String, String)> {
    let full: Vec<&str> = T::ALL.iter().map(|value| lang.t(value.label())).collect();
    let short: Vec<&str> = full.iter().map(|label| short_label(label)).collect();
    T::ALL
        .iter()
        .zip(full.iter().zip(&short))
        .map(|(value, (full, cut))| {
            let alike = short.iter().filter(|other| other == &cut).count() > 1;
            (value.key().to_string(), if alike { full } else { cut }.to_string())
        })
        .collect()
}

/// The whole label of the option `key` of `T`, where `options` shows it cut
/// short; `None` where the box shows it whole.
pub fn option_detail<T: Choice>(key: &str, lang: Lang) -> Option<String> {
    let value = T::ALL.iter().find(|value| value.key() == key)?;
    let full = lang.t(value.label());
    let shown = options::<T>(lang).into_iter().find(|(k, _)| k == key)?.1;
    (shown != full).then(|| full.to_string())
}

/// A label's words before " (" or ": ", where that leaves at least three
/// characters; the label otherwise.
fn short_label(label: &str) -> &str {
    let cut = [" (", ": "].iter().filter_map(|mark| label.find(mark)).min();
    match cut {
        Some(at) if at >= 3 => &label[..at],
        _ => label,
    }
}

/// How the job's size is asked for each task that makes media or
/// transcribes: the label of the batch, count and hours fields, `None`
/// where the task has no such field. One field per link key, relabelled by
/// the task, so each option is declared once in the form.
pub struct JobFields {
    pub batch: Option<&'static Phrase>,
    pub items: Option<&'static Phrase>,
    pub hours: Option<&'static Phrase>,
    /// Seconds per clip (speech and music).
    pub clip: bool,
}

pub const fn job_fields(task: Task) -> JobFields {
    let none = JobFields { batch: None, items: None, hours: None, clip: false };
    match task {
        Task::Infer | Task::Finetune | Task::Pretrain => none,
        Task::Image => JobFields { batch: Some(&phrases::FIELD_BATCH), items: Some(&phrases::FIELD_IMAGES), ..none },
        Task::Video => JobFields { batch: Some(&phrases::FIELD_BATCH), items: Some(&phrases::FIELD_CLIPS), ..none },
        Task::Audio => {
            JobFields { batch: Some(&phrases::FIELD_WINDOWS), hours: Some(&phrases::FIELD_AUDIO_HOURS), ..none }
        }
        Task::Speech => JobFields {
            batch: Some(&phrases::FIELD_CLIPS_AT_ONCE),
            hours: Some(&phrases::FIELD_SPEECH_HOURS),
            clip: true,
            ..none
        },
        Task::Music => JobFields {
            batch: Some(&phrases::FIELD_CLIPS_AT_ONCE),
            items: Some(&phrases::FIELD_CLIPS),
            clip: true,
            ..none
        },
    }
}

/// The global-batch field's hint while it is empty: the default the engine
/// takes, "1,024 (4M tokens)" for pretraining at 4,096 tokens, or one
/// micro-batch per GPU for a fine-tune.
pub fn global_batch_hint(workload: &Workload, lang: Lang) -> String {
    match workload.task {
        Task::Pretrain => {
            let sequences = workload.global_batch_sequences(1.0);
            let tokens = sequences * f64::from(workload.seq_len.max(1)) / 1_048_576.0;
            msg!(phrases::GLOBAL_BATCH_TOKENS, sequences = Arg::Num(sequences, 0), tokens = Arg::Num(tokens, 1))
                .render(lang)
        }
        _ => lang.t(&phrases::GLOBAL_BATCH_ONE_EACH).to_string(),
    }
}

/// What the form shows for the picked model: whether it takes images, and
/// the model's own defaults as the hints of the fields left empty (empty
/// where it has none).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ModelHints {
    /// A vision-language model being served: the image fields show.
    pub images: bool,
    pub resolution: String,
    pub frames: String,
    /// A diffusion pipeline's steps, or an audio generator's iterative ones.
    pub steps: String,
    pub clip_seconds: String,
}

pub fn model_hints(model: &Model, task: Task) -> ModelHints {
    let pipeline = model.diffusion();
    let generator = model.audio_generator();
    let audio_steps = generator.and_then(|g| g.stages.iter().find_map(|s| s.steps));
    ModelHints {
        images: task == Task::Infer && model.vision().is_some(),
        resolution: pipeline.map(|d| format!("{}x{}", d.default_width, d.default_height)).unwrap_or_default(),
        frames: pipeline.map(|d| d.default_frames.to_string()).unwrap_or_default(),
        steps: pipeline.map(|d| d.default_steps).or(audio_steps).map(|s| s.to_string()).unwrap_or_default(),
        clip_seconds: generator.map(|g| default_clip_seconds(g.output).to_string()).unwrap_or_default(),
    }
}

/// The workload after choosing the tab of `to` (issue 40: tabs kept each
/// other's numbers, so 100,000 images became 100,000 video clips and 1,000
/// hours to transcribe became 1,000 hours of speech to generate). Each tab
/// keeps its own values: `saved` holds what the tab of `to` had when it was
/// left, and the offer filters the user set (providers, region, vendor,
/// GPUs, price caps) carry over. A tab never visited starts from the task's
/// defaults, with the job's size in the new task's own unit.
pub fn switch_task(current: &Workload, saved: Option<&Workload>, to: Task, catalog: &Catalog) -> Workload {
    let mut next = match saved {
        Some(saved) => saved.clone(),
        None => {
            let mut next = current.clone();
            let _ = crate::url_codec::apply(&mut next, crate::engine::keys::TASK, to.key(), catalog);
            let defaults = Workload::for_task(to);
            next.items = defaults.items;
            next.audio_hours = defaults.audio_hours;
            next
        }
    };
    next.providers = current.providers.clone();
    next.region = current.region.clone();
    next.vendor = current.vendor.clone();
    next.gpu_filter = current.gpu_filter.clone();
    next.max_price_per_hour = current.max_price_per_hour;
    next.max_gpus = current.max_gpus;
    next.prices = current.prices;
    next
}

/// The weight formats the form offers for `task`: every format for serving
/// (its runtimes differ), and for the other tasks the ones their software
/// loads somewhere by the support matrix (issue 40: Whisper and TTS were
/// offered AWQ, MXFP4 and GGUF formats).
pub fn precision_options(task: Task, catalog: &Catalog, lang: Lang) -> Vec<(String, String)> {
    use crate::engine::support::{loads_anywhere, Stack};
    use crate::engine::Precision;
    let stack = match task {
        Task::Infer | Task::Finetune | Task::Pretrain => None,
        Task::Image | Task::Video => Some(Stack::Diffusers),
        Task::Audio => Some(Stack::FasterWhisper),
        Task::Speech | Task::Music => Some(Stack::Pytorch),
    };
    let offered = |p: &Precision| stack.is_none_or(|stack| loads_anywhere(&catalog.support, stack, *p));
    Precision::ALL.iter().filter(|p| offered(p)).map(|p| (p.key().to_string(), lang.t(p.label()).to_string())).collect()
}

/// The "Rank by" choices for `task`: its default first (no `obj` in the
/// link), then the objectives that suit it.
pub fn objective_options(task: Task, lang: Lang) -> Vec<(String, String)> {
    let default = (String::new(), lang.t(&phrases::OBJECTIVE_TASK_DEFAULT).to_string());
    let suited = Objective::ALL.iter().filter(|o| o.suits(task));
    std::iter::once(default).chain(suited.map(|o| (o.key().to_string(), lang.t(o.label()).to_string()))).collect()
}

/// The latency presets (`engine::latency_presets`) for a `<select>`, each
/// label cut as `options` cuts them; "Your own" too when `workload`'s
/// targets are no preset's.
pub fn latency_preset_options(workload: &Workload, lang: Lang) -> Vec<(String, String)> {
    let presets = LATENCY_PRESETS.iter().map(|p| (p.id.to_string(), short_label(lang.t(p.label)).to_string()));
    let own =
        (spelling(workload) == CUSTOM).then(|| (CUSTOM.to_string(), lang.t(&phrases::SLO_PRESET_CUSTOM).to_string()));
    presets.chain(own).collect()
}

/// Under the latency presets: the chosen one's source.
pub fn latency_preset_detail(key: &str, lang: Lang) -> Option<String> {
    match LatencyPreset::find(key) {
        Some(preset) => Some(lang.t(preset.source).to_string()),
        None => Some(lang.t(&phrases::SLO_PRESET_CUSTOM_SOURCE).to_string()),
    }
}

/// A task's tab: shorter than its name in the memory line and the CLI.
pub fn tab_label(task: Task) -> &'static Phrase {
    match task {
        Task::Infer => &phrases::TAB_INFER,
        Task::Finetune => &phrases::TAB_FINETUNE,
        Task::Pretrain => &phrases::TAB_PRETRAIN,
        Task::Image => &phrases::TAB_IMAGE,
        Task::Video => &phrases::TAB_VIDEO,
        Task::Audio => &phrases::TAB_AUDIO,
        Task::Speech => &phrases::TAB_SPEECH,
        Task::Music => &phrases::TAB_MUSIC,
    }
}

/// The line a phone shows for the folded form (issue 40), which opens it:
/// the task's tab and the model, by name where the catalog has it.
pub fn folded_workload(workload: &Workload, catalog: &Catalog, lang: Lang) -> String {
    let model = workload.resolve_model(catalog).map_or_else(|_| workload.model.clone(), |m| m.name.clone());
    msg!(phrases::WORKLOAD_FOLDED, task = lang.t(tab_label(workload.task)), model = model).render(lang)
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {

    #[test]
    fn long_option_labels_are_cut_to_their_first_words_with_the_whole_as_detail() {
        use crate::engine::workload::{Optimizer, SpotPolicy, TrainingRecipe};
        let recipes = super::options::<TrainingRecipe>(Lang::Es);
        assert!(recipes.iter().any(|(_, label)| label == "Precisión mixta"), "{recipes:?}");
        assert_eq!(
            super::option_detail::<TrainingRecipe>("mixed", Lang::En).as_deref(),
            Some("Mixed precision: FP32 master weights and Adam moments (HF Trainer, DeepSpeed, Megatron, torchtitan)")
        );
        let optimizers = super::options::<Optimizer>(Lang::En);
        assert!(optimizers.iter().any(|(key, label)| key == "adamw" && label == "AdamW"), "{optimizers:?}");
        assert!(optimizers.iter().any(|(_, label)| label == "AdamW 8-bit"), "{optimizers:?}");
        // A label without a parenthesis or colon stays whole, with no detail.
        assert_eq!(super::option_detail::<SpotPolicy>("auto", Lang::En), None);
        assert_eq!(super::option_detail::<SpotPolicy>("no", Lang::En).as_deref(), Some("Never (on-demand only)"));
        assert_eq!(super::short_label("ab (c)"), "ab (c)");
    }

    #[test]
    fn latency_presets_list_short_with_their_source_under_and_your_own_when_set() {
        let listed = |query: &str| {
            let w = crate::url_codec::decode(query, Catalog::bundled().unwrap()).workload;
            latency_preset_options(&w, Lang::En).into_iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>()
        };
        assert_eq!(listed(""), ["chat=Chat", "code=Code completion", "long=Long context, RAG", "none=None"]);
        assert_eq!(listed("ttft=1").last().map(String::as_str), Some("custom=Your own"));
        let chat = latency_preset_detail("chat", Lang::En).unwrap();
        assert!(
            chat.starts_with("MLPerf Inference's interactive Llama 2 70B limits: first token within 0.45 s"),
            "{chat}"
        );
        assert!(latency_preset_detail("code", Lang::Es).unwrap().contains("0,125 s"));
        assert_eq!(
            latency_preset_detail("custom", Lang::En).as_deref(),
            Some(Lang::En.t(&phrases::SLO_PRESET_CUSTOM_SOURCE))
        );
    }

    #[test]
    fn numbers_show_grouped_and_read_back() {
        let nnbsp = '\u{202f}';
        assert_eq!(grouped("100000000"), format!("100{nnbsp}000{nnbsp}000"));
        assert_eq!(grouped("10000"), format!("10{nnbsp}000"));
        for as_is in ["1000", "32", "1.5", "1024x1024", "", "1e12"] {
            assert_eq!(grouped(as_is), as_is);
        }
        assert_eq!(crate::url_codec::read_number(&grouped("2000000000000")), Some(2e12));
    }

    #[test]
    fn each_task_offers_the_weight_formats_its_software_loads() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let keys =
            |task| super::precision_options(task, catalog, Lang::En).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(keys(Task::Infer).len(), crate::engine::Precision::ALL.len());
        for task in [Task::Audio, Task::Speech, Task::Music, Task::Image] {
            let offered = keys(task);
            assert!(
                offered.contains(&"fp16".to_string()) && offered.contains(&"bf16".to_string()),
                "{task}: {offered:?}"
            );
            for format in ["awq", "gptq", "mxfp4", "q4_k_m", "nf4"] {
                assert!(!offered.contains(&format.to_string()), "{task} offers {format}: {offered:?}");
            }
        }
        // faster-whisper's INT8 (CTranslate2) is a Whisper format; PyTorch TTS has none.
        assert!(keys(Task::Audio).contains(&"int8".to_string()));
        assert!(!keys(Task::Speech).contains(&"int8".to_string()));
    }

    #[test]
    fn training_is_not_ranked_by_latency_per_user() {
        let keys = |task| super::objective_options(task, Lang::En).into_iter().map(|(k, _)| k).collect::<Vec<_>>();
        assert_eq!(keys(Task::Infer), ["", "cost", "unit", "fast", "latency", "bandwidth"]);
        for task in [Task::Finetune, Task::Pretrain, Task::Image, Task::Audio] {
            assert_eq!(keys(task), ["", "cost", "unit", "fast"], "{task}");
        }
    }

    #[test]
    fn a_folded_form_names_the_task_and_the_model() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let w = Workload { model: "llama-3.1-70b".into(), ..Workload::default() };
        assert_eq!(super::folded_workload(&w, catalog, Lang::En), "LLM serving: Llama 3.1 70B · change the workload");
        let image = Workload::for_task(Task::Image);
        assert!(super::folded_workload(&image, catalog, Lang::Es).starts_with("Imágenes: "));
    }

    #[test]
    fn each_tab_keeps_its_own_numbers_and_the_filters_carry_over() {
        // Issue 40: 100,000 images became 100,000 video clips; 1,000 hours to
        // transcribe became 1,000 hours of speech to generate.
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let images = Workload { items: 100_000, region: "us".into(), ..Workload::for_task(Task::Image) };
        let video = super::switch_task(&images, None, Task::Video, catalog);
        assert_eq!((video.task, video.items), (Task::Video, Workload::for_task(Task::Video).items));
        assert_eq!(video.region, "us");
        // Back to images: the tab's own 100,000, and the filter as set since.
        let video = Workload { region: "europe".into(), ..video };
        let back = super::switch_task(&video, Some(&images), Task::Image, catalog);
        assert_eq!((back.task, back.items, back.region.as_str()), (Task::Image, 100_000, "europe"));
        let transcribe = Workload { audio_hours: 1000.0, ..Workload::for_task(Task::Audio) };
        let speech = super::switch_task(&transcribe, None, Task::Speech, catalog);
        assert_eq!(speech.audio_hours, Workload::for_task(Task::Speech).audio_hours);
    }
    use super::*;

    #[test]
    fn the_global_batch_hint_is_the_default_the_engine_takes() {
        let pretrain = Workload { seq_len: 4096, ..Workload::for_task(Task::Pretrain) };
        assert_eq!(global_batch_hint(&pretrain, Lang::En), "1,024 (4.0M tokens)");
        assert_eq!(global_batch_hint(&Workload::for_task(Task::Finetune), Lang::Es), "1 microlote por GPU");
    }

    /// SDXL's pipeline hints its 1024×1024 and 50 steps (diffusion_models.csv);
    /// F5-TTS its 32 flow steps and speech's 10 s; Qwen2-VL shows the image
    /// fields when served, not when fine-tuned; Llama has none of these.
    #[test]
    fn the_picked_model_gives_its_fields_and_their_hints() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let hints = |id: &str, task: Task| model_hints(catalog.model(id).unwrap(), task);
        let sdxl = hints("sdxl-base-1.0", Task::Image);
        assert_eq!((sdxl.resolution.as_str(), sdxl.steps.as_str()), ("1024x1024", "50"));
        let f5 = hints("f5-tts-v1-base", Task::Speech);
        assert_eq!((f5.steps.as_str(), f5.clip_seconds.as_str(), f5.images), ("32", "10", false));
        assert!(hints("qwen2-vl-7b", Task::Infer).images && !hints("qwen2-vl-7b", Task::Finetune).images);
        assert_eq!(hints("llama-3.1-8b", Task::Infer), ModelHints::default());
    }

    /// Transcription sizes hours of audio in windows; speech generation
    /// hours of speech in clips; music a count of clips; images and video a
    /// count in batches. LLM tasks have none of these fields.
    #[test]
    fn each_task_asks_for_its_jobs_size_in_its_own_words() {
        let labels = |task: Task| {
            let f = job_fields(task);
            [f.batch, f.items, f.hours].map(|label| label.map(|p| p.en))
        };
        assert_eq!(labels(Task::Infer), [None, None, None]);
        assert_eq!(labels(Task::Audio), [Some("30-second windows per batch"), None, Some("Hours of audio")]);
        assert_eq!(labels(Task::Speech), [Some("Clips generated at once"), None, Some("Hours of speech to generate")]);
        assert_eq!(labels(Task::Music), [Some("Clips generated at once"), Some("Clips to make"), None]);
        assert_eq!(labels(Task::Image)[1], Some("Images to make"));
        assert!(job_fields(Task::Speech).clip && job_fields(Task::Music).clip && !job_fields(Task::Audio).clip);
    }
    use crate::engine::{KvPrecision, Precision, RuntimeChoice};

    #[test]
    fn a_select_lists_every_value_by_its_link_spelling_and_its_label_in_the_pages_language() {
        let en = options::<KvPrecision>(Lang::En);
        assert_eq!(en.iter().map(|(key, _)| key.as_str()).collect::<Vec<_>>(), ["bf16", "fp16", "fp8", "int8"]);
        let tasks = options::<Task>(Lang::Es);
        assert_eq!(tasks.len(), Task::ALL.len());
        assert_ne!(tasks, options::<Task>(Lang::En));
        // Runtimes are names, the same in both languages; "automatic" is a word.
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[1..], options::<RuntimeChoice>(Lang::En)[1..]);
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[0].1, "Automático");
        assert_eq!(option_detail::<RuntimeChoice>("auto", Lang::Es).as_deref(), Some("Automático (según la GPU)"));
        assert_eq!(options::<RuntimeChoice>(Lang::En)[2], ("trtllm".to_string(), "TensorRT-LLM".to_string()));
        // Every value reads back from its spelling, in any case.
        for (key, _) in options::<Precision>(Lang::En) {
            assert_eq!(key.to_uppercase().parse::<Precision>().unwrap().key(), key);
        }
        let unknown = "fp7".parse::<Precision>().unwrap_err();
        assert!(unknown.to_string().contains("\"fp7\"") && unknown.to_string().contains("q4_k_m"), "{unknown}");
    }
}

/// A numeric field's value as the form shows it (issue 40): whole numbers
/// of five digits or more grouped in threes by a narrow no-break space,
/// which reads the same in English and Spanish and which the field reads
/// back (`url_codec::read_number`); anything else as it is.
pub fn grouped(value: &str) -> String {
    if value.len() < 5 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len() + value.len() / 3 * 3);
    for (i, digit) in value.chars().enumerate() {
        if i > 0 && (value.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(digit);
    }
    out
}
