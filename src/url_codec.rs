//! The URL is the state: the workload ⇄ the page's query string.
//!
//! Pure, so the page, the CLI (`--config`) and the tests share it. Keys are
//! the CLI's (`model`, `wq`, …); defaults are omitted so links stay short.
//! A bad value falls back to that field's default with a note naming the
//! field, and the rest of the link still applies.

use crate::engine::audio_model::CLIP_SECONDS;
use crate::engine::keys;
use crate::engine::latency_presets::{self, LatencyPreset};
use crate::engine::vision::{IMAGES, IMAGE_SIDE};
use crate::engine::workload::{
    default_model, AUDIO_HOURS, BATCH, EPOCHS, FRAMES, ITEMS, PIPELINE_PARALLEL, STEPS, TENSOR_PARALLEL,
    TRAINING_TOKENS,
};
use crate::engine::workload::{
    CustomModel, ACTIVE_PARAMS, CONTEXT, CUSTOM_MODEL, EXPERTS, EXPERTS_PER_TOKEN, FFN, HEADS, HEAD_DIM, HIDDEN,
    KV_HEADS, KV_LAYERS, KV_LORA, LAYERS, NAME_CHARS, PARAMS, ROPE_DIM, SHARED_FFN, STATE_BYTES, VOCAB, WEIGHT_BYTES,
    WINDOW, WINDOW_LAYERS,
};
use crate::engine::workload::{
    BATCH_REQUESTS, BEAMS, CHECKPOINT_MINUTES, DEADLINE_DAYS, GLOBAL_BATCH, GOODPUT_PCT, ITL_TARGET,
    LATENCY_PERCENTILE, LENGTH_SPREAD_PCT, MAX_GPUS, MAX_PRICE_PER_HOUR, PEAK_FACTOR, PEAK_RPS, PREFIX_HIT_PCT,
    REQUESTS_PER_DAY, RUNS_PER_MONTH, TTFT_TARGET, UPTIME_HOURS,
};
use crate::engine::workload::{
    CONCURRENCY, GPUS, INPUT_TOKENS, LORA_RANK, MICRO_BATCH, OUTPUT_TOKENS, SEQ_LEN, ZERO_STAGE,
};
use crate::engine::{Catalog, Precision, Task, Workload};
use crate::msg;
use crate::text::{phrases, Lang, Msg};
use crate::units::BILLION;

/// The link format this build writes (URL key `v`).
pub const URL_VERSION: u32 = 1;

/// An offer by its provider id and instance name, on-demand or spot, and
/// its region where the provider lists the same instance name in several
/// (AWS prices each region apart: issue 40).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OfferRef {
    pub provider: String,
    pub instance: String,
    pub region: Option<String>,
    pub spot: bool,
}

/// Whether `part` can stand in an offer's link spelling.
fn offer_part(part: &str) -> bool {
    !part.is_empty() && part.len() <= 96 && part.chars().all(|c| c.is_ascii_alphanumeric() || "-_./+".contains(c))
}

impl OfferRef {
    /// Reads `provider:instance`, with `@region` after the instance where
    /// it names one, and `:spot` for its spot price.
    pub fn parse(text: &str) -> Result<OfferRef, Msg> {
        let bad = || msg!(phrases::LINK_BAD_OFFER, given = shorten(text));
        let mut parts = text.trim().split(':');
        let (provider, machine) = (parts.next().ok_or_else(bad)?, parts.next().ok_or_else(bad)?);
        let (instance, region) = match machine.split_once('@') {
            Some((instance, region)) => (instance, Some(region)),
            None => (machine, None),
        };
        let spot = match parts.next() {
            None => false,
            Some("spot") => true,
            Some(_) => return Err(bad()),
        };
        if parts.next().is_some() || !offer_part(provider) || !offer_part(instance) || !region.is_none_or(offer_part) {
            return Err(bad());
        }
        Ok(OfferRef {
            provider: provider.to_string(),
            instance: instance.to_string(),
            region: region.map(str::to_string),
            spot,
        })
    }

    /// `offer` of `snapshot`, on-demand or spot: with its first region where
    /// another offer of its provider has the same instance name.
    pub fn of(offer: &crate::engine::Offer, snapshot: &crate::engine::Snapshot, spot: bool) -> OfferRef {
        let namesake = |other: &&crate::engine::Offer| {
            other.provider == offer.provider && other.instance == offer.instance && other.regions != offer.regions
        };
        let region = offer
            .regions
            .first()
            .filter(|region| offer_part(region) && snapshot.offers.iter().any(|other| namesake(&other)));
        OfferRef { provider: offer.provider.clone(), instance: offer.instance.clone(), region: region.cloned(), spot }
    }

    /// Whether `offer` is the machine this names: its provider and
    /// instance, and its region where this names one.
    pub fn names(&self, offer: &crate::engine::Offer) -> bool {
        offer.instance == self.instance
            && offer.provider == self.provider
            && self.region.as_ref().is_none_or(|region| offer.regions.contains(region))
    }

    /// The URL spelling.
    pub fn key(&self) -> String {
        let region = self.region.as_ref().map_or(String::new(), |region| format!("@{region}"));
        let spot = if self.spot { ":spot" } else { "" };
        format!("{}:{}{region}{spot}", self.provider, self.instance)
    }
}

/// How an embedded page shows itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Embed {
    /// Whether the workload form starts unfolded (`form=0` folds it).
    pub form_open: bool,
}

/// Something in a link that could not be applied as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    /// The URL key it concerns.
    pub key: String,
    pub message: Msg,
}

/// A workload read from a query, and what was wrong with the query.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    pub workload: Workload,
    pub notes: Vec<Note>,
    /// The page's language when the link names one (`lang=es`); the page
    /// otherwise follows the browser.
    pub lang: Option<Lang>,
    /// Embed mode (`embed=1`): `None` for the full page.
    pub embed: Option<Embed>,
    /// The offer the link points at, if any.
    pub offer: Option<OfferRef>,
    /// The visitor's own GPU the link compares with renting (a catalog id).
    pub my_gpu: Option<String>,
    /// The link's model where it could not be applied (an unknown id, a
    /// model of another task): the text as given, for the model box to
    /// keep, and why, for beside it; the workload holds the model used
    /// instead (issue 41).
    pub unapplied_model: Option<(String, Msg)>,
    /// The link's other settings that could not be applied, as given
    /// (key, value): the form keeps each in its field, with why beside it,
    /// until it is edited (issue 39: the link keeps the user's values).
    pub unapplied: Vec<(String, String)>,
}

/// One workload field as the URL spells it: its key, how to read a value
/// into a workload, and how to write it. Encoding, decoding, validation and
/// defaults all come from this one table.
struct Field {
    key: &'static str,
    /// Numeric fields' (min, max), for the property tests' edge values
    /// (the form's text inputs take shorthand, which `min`/`max` forbid).
    #[cfg_attr(not(test), allow(dead_code))]
    bounds: Option<(f64, f64)>,
    set: fn(&mut Workload, &str, &Catalog) -> Result<(), Msg>,
    get: fn(&Workload) -> String,
}

/// An option enum field, spelled by its `Display`/`FromStr`.
macro_rules! option_field {
    ($key:expr, $field:ident) => {
        Field {
            key: $key,
            bounds: None,
            set: |w, v, _| parse_option(v).map(|value| w.$field = value),
            get: |w| w.$field.to_string(),
        }
    };
}

/// A whole-number workload field; key and range come from one constant.
macro_rules! count_field {
    ($bounds:expr, $field:ident) => {
        Field {
            key: $bounds.0,
            bounds: Some(($bounds.1 as f64, $bounds.2 as f64)),
            set: |w, v, _| parse_count(v, $bounds).map(|value| w.$field = value),
            get: |w| w.$field.to_string(),
        }
    };
}

/// A positive amount (exponent notation allowed); key and range from one constant.
macro_rules! amount_field {
    ($bounds:expr, $field:ident) => {
        Field {
            key: $bounds.0,
            bounds: Some(($bounds.1, $bounds.2)),
            set: |w, v, _| parse_amount(v, $bounds).map(|value| w.$field = value),
            get: |w| w.$field.to_string(),
        }
    };
}

/// An amount that is `None` until set (the task's or model's default).
macro_rules! optional_amount_field {
    ($bounds:expr, $field:ident) => {
        Field {
            key: $bounds.0,
            bounds: Some(($bounds.1, $bounds.2)),
            set: |w, v, _| optional(v, |v| parse_amount(v, $bounds)).map(|value| w.$field = value),
            get: |w| w.$field.map(|n| n.to_string()).unwrap_or_default(),
        }
    };
}

/// A whole number that is `None` until set (the model's own default).
macro_rules! optional_count_field {
    ($bounds:expr, $field:ident) => {
        Field {
            key: $bounds.0,
            bounds: Some(($bounds.1 as f64, $bounds.2 as f64)),
            set: |w, v, _| optional(v, |v| parse_count(v, $bounds)).map(|value| w.$field = value),
            get: |w| w.$field.map(|n| n.to_string()).unwrap_or_default(),
        }
    };
}

/// An optional whole-number part of a custom model.
macro_rules! custom_count_field {
    ($bounds:expr, $part:ident) => {
        Field {
            key: $bounds.0,
            bounds: Some(($bounds.1 as f64, $bounds.2 as f64)),
            set: |w, v, _| parse_count(v, $bounds).map(|value| custom(w).$part = Some(value)),
            get: |w| custom_value(w, |c| c.$part.map(f64::from)),
        }
    };
}

fn parse_option<T: std::str::FromStr>(value: &str) -> Result<T, Msg>
where
    T::Err: Into<Msg>,
{
    value.parse::<T>().map_err(Into::into)
}

/// A number as people write one (issue 40): digits with a decimal point
/// or exponent (`7e10`), thousands grouped by commas, spaces or
/// underscores (`1,000,000`, `1 000 000`, and `1.000.000` with two groups
/// or more), a decimal comma where a comma is not grouping (`1,5`), and a
/// shorthand suffix: k thousand, M million, B (or G) billion, T trillion,
/// in either case (`2T`, `1.5B`, `10k`). `None` for anything else.
pub fn read_number(text: &str) -> Option<f64> {
    let text = text.trim();
    let (digits, scale) = match text.char_indices().last() {
        Some((at, suffix)) if at > 0 => match suffix.to_ascii_lowercase() {
            'k' => (&text[..at], 1e3),
            'm' => (&text[..at], 1e6),
            'b' | 'g' => (&text[..at], BILLION),
            't' => (&text[..at], 1e12),
            _ => (text, 1.0),
        },
        _ => (text, 1.0),
    };
    // Spaces and underscores only ever group.
    let digits: String =
        digits.trim_end().chars().filter(|c| !matches!(c, '_' | ' ' | '\u{a0}' | '\u{2009}' | '\u{202f}')).collect();
    let grouped_by = |separator: char| {
        let mut groups = digits.split(separator);
        let first = groups.next().unwrap_or("");
        let rest: Vec<&str> = groups.collect();
        let digit_run = |g: &str, len: usize| g.len() == len && g.bytes().all(|b| b.is_ascii_digit());
        !rest.is_empty()
            && (1..=3).contains(&first.len())
            && first.bytes().all(|b| b.is_ascii_digit())
            && rest.iter().enumerate().all(|(i, g)| {
                // The last group may carry the decimals after a point.
                let g = if i + 1 == rest.len() && separator == ',' { g.split('.').next().unwrap_or("") } else { g };
                digit_run(g, 3)
            })
    };
    let plain = if digits.contains(',') {
        if grouped_by(',') {
            digits.replace(',', "")
        } else if digits.matches(',').count() == 1 && !digits.contains('.') {
            digits.replace(',', ".")
        } else {
            return None;
        }
    } else if digits.matches('.').count() > 1 {
        if grouped_by('.') {
            digits.replace('.', "")
        } else {
            return None;
        }
    } else {
        digits
    };
    // Only digits, a point and an exponent: no signs, no words ("inf", "nan").
    if plain.is_empty() || !plain.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-')) {
        return None;
    }
    let number = plain.parse::<f64>().ok()? * scale;
    // 1.1k is 1,100, not 1,100.0000000000002.
    let whole = number.round();
    Some(if scale > 1.0 && (number - whole).abs() <= 1e-9 * number.abs().max(1.0) { whole } else { number })
}

/// A whole number within `(key, min, max)`.
fn parse_count(value: &str, (_, min, max): (&str, u32, u32)) -> Result<u32, Msg> {
    match read_number(value).ok_or(()) {
        Ok(n) if n.is_finite() && n.fract() == 0.0 && n >= f64::from(min) && n <= f64::from(max) => Ok(n as u32),
        Ok(n) if n.is_finite() && n.fract() == 0.0 => {
            Err(msg!(phrases::LINK_OUT_OF_RANGE, given = shorten(value), min = min, max = max))
        }
        _ => Err(msg!(phrases::LINK_NOT_WHOLE, given = shorten(value), min = min, max = max)),
    }
}

/// Switches the workload to a custom model (keeping numbers already set)
/// and returns it for editing.
fn custom(w: &mut Workload) -> &mut CustomModel {
    w.model = CUSTOM_MODEL.to_string();
    w.custom.get_or_insert_with(CustomModel::default)
}

/// A custom model's number in its URL spelling; empty for catalog models
/// and unset parts, so they are left out of links.
fn custom_value(w: &Workload, part: fn(&CustomModel) -> Option<f64>) -> String {
    match (&w.custom, w.model == CUSTOM_MODEL) {
        (Some(custom), true) => part(custom).map(|n| n.to_string()).unwrap_or_default(),
        _ => String::new(),
    }
}

/// A positive amount within `(key, min, max)`, exponent notation allowed
/// (`params=7e10`).
fn parse_amount(value: &str, (_, min, max): (&str, f64, f64)) -> Result<f64, Msg> {
    match read_number(value).ok_or(()) {
        Ok(n) if n.is_finite() && (min..=max).contains(&n) => Ok(n),
        Ok(n) if n.is_finite() => Err(msg!(
            phrases::LINK_OUT_OF_RANGE,
            given = shorten(value),
            min = format!("{min:e}"),
            max = format!("{max:e}")
        )),
        _ => Err(msg!(phrases::LINK_NOT_NUMBER, given = shorten(value))),
    }
}

/// An optional value: empty clears it (the model's or the task's own
/// default), anything else must parse.
fn optional<T>(value: &str, parse: impl FnOnce(&str) -> Result<T, Msg>) -> Result<Option<T>, Msg> {
    match value.trim() {
        "" => Ok(None),
        _ => parse(value).map(Some),
    }
}

/// A short name for a filter: letters, digits, `-`, `_`, `.`, spaces; at
/// most 64 characters. Empty clears the filter.
fn parse_name(value: &str) -> Result<String, Msg> {
    let value = value.trim();
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-_. ".contains(c);
    if value.chars().count() <= 64 && value.chars().all(allowed) {
        Ok(value.to_string())
    } else {
        Err(msg!(phrases::LINK_NOT_NAME, given = shorten(value)))
    }
}

/// Comma-separated names, each as [`parse_name`].
fn parse_list(value: &str) -> Result<String, Msg> {
    let names: Result<Vec<String>, Msg> =
        value.split(',').map(parse_name).filter(|n| n.as_ref().map_or(true, |n| !n.is_empty())).collect();
    Ok(names?.join(","))
}

/// On/off: `1`/`0` (also `true`/`false`, `on`/`off`).
fn parse_switch(value: &str) -> Result<bool, Msg> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "on" => Ok(true),
        "0" | "false" | "off" => Ok(false),
        _ => Err(msg!(phrases::LINK_NOT_SWITCH, given = shorten(value))),
    }
}

const FIELDS: [Field; 85] = [
    Field {
        key: keys::TASK,
        bounds: None,
        // A task the current model cannot do switches to that task's model.
        set: |w, v, catalog| {
            let task: Task = parse_option(v)?;
            // A dataset size still at the old task's default takes the new one's.
            let (old, new) = (Workload::for_task(w.task), Workload::for_task(task));
            if w.training_tokens == old.training_tokens {
                w.training_tokens = new.training_tokens;
            }
            // So does a weights format still at the old task's default.
            if w.weight_precision == old.weight_precision {
                w.weight_precision = new.weight_precision;
            }
            w.task = task;
            if !w.resolve_model(catalog).is_ok_and(|model| model.suits(task)) {
                w.model = default_model(task).to_string();
                // The URL is the state: no custom numbers the link would not show.
                w.custom = None;
            }
            Ok(())
        },
        get: |w| w.task.to_string(),
    },
    Field {
        key: keys::MODEL,
        bounds: None,
        set: |w, v, catalog| {
            if v == CUSTOM_MODEL {
                custom(w);
                return Ok(());
            }
            let model = catalog.model(v).map_err(|_| {
                let nearest = catalog.nearest_model_ids(v, w.task, 3).join(", ");
                msg!(phrases::LINK_UNKNOWN_MODEL, given = shorten(v), nearest = nearest)
            })?;
            // `task=audio` meant transcription before the generating tasks
            // existed; with a speech or music generator it asks for what the
            // generator makes.
            if let (Task::Audio, Some(generator)) = (w.task, model.audio_generator()) {
                w.task = match generator.output {
                    crate::engine::audio_model::AudioOutput::Speech => Task::Speech,
                    crate::engine::audio_model::AudioOutput::Music => Task::Music,
                };
            }
            if !model.suits(w.task) {
                return Err(msg!(phrases::LINK_WRONG_KIND, model = &model.name, kind = w.task.model_kind()));
            }
            w.model = model.id.clone();
            w.custom = None;
            Ok(())
        },
        get: |w| w.model.clone(),
    },
    option_field!(keys::WEIGHTS, weight_precision),
    option_field!(keys::KV_CACHE, kv_precision),
    option_field!(keys::RUNTIME, runtime),
    count_field!(INPUT_TOKENS, input_tokens),
    count_field!(OUTPUT_TOKENS, output_tokens),
    count_field!(CONCURRENCY, concurrency),
    option_field!(keys::METHOD, method),
    count_field!(SEQ_LEN, seq_len),
    count_field!(MICRO_BATCH, micro_batch),
    optional_count_field!(GLOBAL_BATCH, global_batch),
    count_field!(LORA_RANK, lora_rank),
    option_field!(keys::OPTIMIZER, optimizer),
    Field {
        key: keys::CHECKPOINTING,
        bounds: None,
        set: |w, v, _| parse_switch(v).map(|value| w.checkpointing = value),
        get: |w| u8::from(w.checkpointing).to_string(),
    },
    count_field!(ZERO_STAGE, zero_stage),
    count_field!(GPUS, gpus),
    option_field!(keys::CROSS_ENTROPY, cross_entropy),
    option_field!(keys::RECIPE, recipe),
    count_field!(TENSOR_PARALLEL, tensor_parallel),
    count_field!(PIPELINE_PARALLEL, pipeline_parallel),
    Field {
        key: keys::RESOLUTION,
        bounds: None,
        set: |w, v, _| optional(v, parse_option).map(|value| w.resolution = value),
        get: |w| w.resolution.map(|r| r.to_string()).unwrap_or_default(),
    },
    optional_count_field!(STEPS, steps),
    optional_count_field!(FRAMES, frames),
    count_field!(BATCH, batch),
    count_field!(ITEMS, items),
    amount_field!(AUDIO_HOURS, audio_hours),
    // Vision-language and audio generation (issue 26).
    optional_count_field!(IMAGES, images),
    optional_count_field!(IMAGE_SIDE, image_side),
    optional_amount_field!(CLIP_SECONDS, clip_seconds),
    option_field!(keys::OFFLOAD, offload),
    option_field!(keys::COMPILE, compilation),
    option_field!(keys::TRANSCRIBER, transcriber),
    optional_count_field!(BEAMS, beams),
    amount_field!(TRAINING_TOKENS, training_tokens),
    count_field!(EPOCHS, epochs),
    Field {
        key: keys::OBJECTIVE,
        bounds: None,
        set: |w, v, _| optional(v, parse_option).map(|value| w.objective = value),
        get: |w| w.objective.map(|o| o.to_string()).unwrap_or_default(),
    },
    option_field!(keys::SPOT, spot),
    option_field!(keys::PRICES, prices),
    option_field!(keys::PRICE_TRUST, price_trust),
    count_field!(CHECKPOINT_MINUTES, checkpoint_minutes),
    optional_amount_field!(GOODPUT_PCT, goodput_pct),
    amount_field!(UPTIME_HOURS, uptime_hours),
    count_field!(REQUESTS_PER_DAY, requests_per_day),
    // Serving to latency targets (issue 39).
    // A latency preset: sets the three fields after it; links spell them.
    Field {
        key: keys::LATENCY_PRESET,
        bounds: None,
        set: |w, v, _| match LatencyPreset::find(v) {
            Some(preset) => {
                preset.apply(w);
                Ok(())
            }
            None if v == latency_presets::CUSTOM => Ok(()),
            None => Err(msg!(phrases::LINK_UNKNOWN_LATENCY_PRESET, given = shorten(v))),
        },
        get: |w| latency_presets::spelling(w).to_string(),
    },
    optional_amount_field!(PEAK_RPS, peak_rps),
    amount_field!(PEAK_FACTOR, peak_factor),
    count_field!(PREFIX_HIT_PCT, prefix_hit_pct),
    count_field!(LENGTH_SPREAD_PCT, length_spread_pct),
    optional_amount_field!(TTFT_TARGET, ttft_target_s),
    optional_amount_field!(ITL_TARGET, itl_target_s),
    count_field!(LATENCY_PERCENTILE, latency_percentile),
    option_field!(keys::QUANTIZE, quantize),
    count_field!(BATCH_REQUESTS, batch_requests),
    count_field!(RUNS_PER_MONTH, runs_per_month),
    optional_amount_field!(DEADLINE_DAYS, deadline_days),
    Field {
        key: keys::PROVIDERS,
        bounds: None,
        set: |w, v, _| parse_list(v).map(|value| w.providers = value),
        get: |w| w.providers.clone(),
    },
    Field {
        key: keys::REGION,
        bounds: None,
        set: |w, v, _| parse_name(v).map(|value| w.region = value),
        get: |w| w.region.clone(),
    },
    optional_amount_field!(MAX_PRICE_PER_HOUR, max_price_per_hour),
    optional_count_field!(MAX_GPUS, max_gpus),
    Field {
        key: keys::VENDOR,
        bounds: None,
        set: |w, v, _| parse_name(v).map(|value| w.vendor = value.to_ascii_lowercase()),
        get: |w| w.vendor.clone(),
    },
    Field {
        key: keys::GPU,
        bounds: None,
        set: |w, v, _| parse_list(v).map(|value| w.gpu_filter = value.to_ascii_lowercase()),
        get: |w| w.gpu_filter.clone(),
    },
    Field {
        key: PARAMS.0,
        bounds: Some((PARAMS.1, PARAMS.2)),
        set: |w, v, _| parse_amount(v, PARAMS).map(|value| custom(w).params = value),
        get: |w| custom_value(w, |c| Some(c.params)),
    },
    Field {
        key: ACTIVE_PARAMS.0,
        bounds: Some((ACTIVE_PARAMS.1, ACTIVE_PARAMS.2)),
        set: |w, v, _| parse_amount(v, ACTIVE_PARAMS).map(|value| custom(w).active_params = Some(value)),
        get: |w| custom_value(w, |c| c.active_params),
    },
    Field {
        key: LAYERS.0,
        bounds: Some((LAYERS.1 as f64, LAYERS.2 as f64)),
        set: |w, v, _| parse_count(v, LAYERS).map(|value| custom(w).layers = value),
        get: |w| custom_value(w, |c| Some(f64::from(c.layers))),
    },
    Field {
        key: HIDDEN.0,
        bounds: Some((HIDDEN.1 as f64, HIDDEN.2 as f64)),
        set: |w, v, _| parse_count(v, HIDDEN).map(|value| custom(w).hidden = value),
        get: |w| custom_value(w, |c| Some(f64::from(c.hidden))),
    },
    custom_count_field!(HEADS, heads),
    custom_count_field!(KV_HEADS, kv_heads),
    custom_count_field!(HEAD_DIM, head_dim),
    custom_count_field!(EXPERTS, experts),
    custom_count_field!(VOCAB, vocab),
    // What an imported model adds (issue 25), so a link needs no file.
    custom_count_field!(FFN, ffn),
    custom_count_field!(EXPERTS_PER_TOKEN, experts_per_token),
    custom_count_field!(SHARED_FFN, shared_ffn),
    custom_count_field!(KV_LAYERS, kv_layers),
    custom_count_field!(WINDOW, window),
    custom_count_field!(WINDOW_LAYERS, window_layers),
    custom_count_field!(KV_LORA, kv_lora),
    custom_count_field!(ROPE_DIM, rope_dim),
    Field {
        key: STATE_BYTES.0,
        bounds: Some((STATE_BYTES.1, STATE_BYTES.2)),
        set: |w, v, _| parse_amount(v, STATE_BYTES).map(|value| custom(w).state_bytes = Some(value)),
        get: |w| custom_value(w, |c| c.state_bytes),
    },
    custom_count_field!(CONTEXT, context),
    Field {
        key: keys::TIED,
        bounds: None,
        set: |w, v, _| parse_switch(v).map(|value| custom(w).tied = value),
        get: |w| custom_value(w, |c| c.tied.then_some(1.0)),
    },
    Field {
        key: keys::MODEL_NAME,
        bounds: None,
        set: |w, v, _| parse_model_name(v).map(|value| custom(w).name = value),
        get: |w| match (&w.custom, w.model == CUSTOM_MODEL) {
            (Some(custom), true) => custom.name.clone().unwrap_or_default(),
            _ => String::new(),
        },
    },
    Field {
        key: WEIGHT_BYTES.0,
        bounds: Some((WEIGHT_BYTES.1, WEIGHT_BYTES.2)),
        set: |w, v, _| parse_amount(v, WEIGHT_BYTES).map(|value| custom(w).weight_bytes = Some(value)),
        get: |w| custom_value(w, |c| c.weight_bytes),
    },
    Field {
        key: keys::WEIGHT_FORMAT,
        bounds: None,
        set: |w, v, _| optional(v, parse_option::<Precision>).map(|value| custom(w).weight_format = value),
        get: |w| match (&w.custom, w.model == CUSTOM_MODEL) {
            (Some(custom), true) => custom.weight_format.map(|p| p.to_string()).unwrap_or_default(),
            _ => String::new(),
        },
    },
];

/// A model's name as its file or repo gives it ("Qwen/Qwen2.5-Coder-32B"):
/// letters, digits and `-_./:+() `, at most `NAME_CHARS`. Empty clears it.
fn parse_model_name(value: &str) -> Result<Option<String>, Msg> {
    let value = value.trim();
    match value.chars().count() {
        0 => Ok(None),
        n if n <= NAME_CHARS && value.chars().all(crate::engine::custom_model::is_name_char) => {
            Ok(Some(value.to_string()))
        }
        _ => Err(msg!(phrases::LINK_NOT_NAME, given = shorten(value))),
    }
}
/// What a link says beyond the workload: how the page shows it.
#[derive(Default)]
struct Page {
    lang: Option<Lang>,
    embed: bool,
    form_closed: bool,
    offer: Option<OfferRef>,
    my_gpu: Option<String>,
}

/// One of the page's own keys: how to read its value, or the note that
/// says why it was not applied.
struct PageField {
    key: &'static str,
    read: fn(&mut Page, &str, &Catalog) -> Result<(), Msg>,
}

/// The note for a page key whose value could not be used.
fn ignored(key: &str, problem: Msg) -> Msg {
    msg!(phrases::LINK_IGNORED, key = key, problem = problem)
}

const PAGE_FIELDS: [PageField; 6] = [
    PageField {
        key: keys::VERSION,
        read: |_, v, _| match v.parse::<u32>() {
            Ok(version) if version <= URL_VERSION => Ok(()),
            Ok(version) => Err(msg!(phrases::LINK_NEWER, version = version)),
            Err(_) => Err(msg!(phrases::LINK_BAD_VERSION, given = shorten(v))),
        },
    },
    PageField {
        key: keys::LANG,
        read: |page, v, _| {
            let lang = Lang::from_code(v).ok_or_else(|| msg!(phrases::LINK_UNKNOWN_LANGUAGE, given = shorten(v)))?;
            page.lang = Some(lang);
            Ok(())
        },
    },
    PageField {
        key: keys::OFFER,
        read: |page, v, _| {
            page.offer = Some(OfferRef::parse(v).map_err(|problem| ignored(keys::OFFER, problem))?);
            Ok(())
        },
    },
    PageField {
        key: keys::MY_GPU,
        read: |page, v, catalog| {
            let gpu = catalog
                .gpu(v)
                .map_err(|_| ignored(keys::MY_GPU, crate::engine::Error::UnknownGpu(shorten(v)).message()))?;
            page.my_gpu = Some(gpu.id.clone());
            Ok(())
        },
    },
    PageField {
        key: keys::EMBED,
        read: |page, v, _| {
            page.embed = parse_switch(v).map_err(|problem| ignored(keys::EMBED, problem))?;
            Ok(())
        },
    },
    PageField {
        key: keys::FORM,
        read: |page, v, _| {
            page.form_closed = !parse_switch(v).map_err(|problem| ignored(keys::FORM, problem))?;
            Ok(())
        },
    },
];

/// Sets one field from its URL spelling, as the form, the URL and the CLI
/// all do; the error names the problem (the caller adds the field).
pub fn apply(workload: &mut Workload, key: &str, value: &str, catalog: &Catalog) -> Result<(), Msg> {
    match FIELDS.iter().find(|f| f.key == key) {
        Some(field) => (field.set)(workload, value, catalog),
        None => Err(msg!(phrases::LINK_UNKNOWN_SETTING, given = shorten(key))),
    }
}

/// A field's current value in its URL spelling.
pub fn value_of(workload: &Workload, key: &str) -> Option<String> {
    FIELDS.iter().find(|f| f.key == key).map(|field| (field.get)(workload))
}

/// Reads a query string (with or without the leading `?`).
pub fn decode(query: &str, catalog: &Catalog) -> Decoded {
    let pairs: Vec<(String, String)> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|pair| {
            let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(raw_key), percent_decode(raw_value))
        })
        .collect();
    // Defaults follow the task (an image link without `model` means SDXL).
    let task = pairs.iter().rev().find(|(key, _)| key == keys::TASK).and_then(|(_, value)| value.parse().ok());
    let defaults = Workload::for_task(task.unwrap_or(Task::Infer));
    let mut workload = defaults.clone();
    let mut notes = Vec::new();
    let mut page = Page::default();
    let mut unapplied_model = None;
    let mut unapplied = Vec::new();
    let mut note = |key: &str, message: Msg| notes.push(Note { key: key.to_string(), message });
    for (key, value) in pairs {
        if let Some(field) = PAGE_FIELDS.iter().find(|f| f.key == key) {
            if let Err(message) = (field.read)(&mut page, &value, catalog) {
                note(field.key, message);
            }
            continue;
        }
        match FIELDS.iter().find(|f| f.key == key) {
            Some(field) => {
                let applied = (field.set)(&mut workload, &value, catalog);
                if field.key == keys::MODEL {
                    unapplied_model = applied.as_ref().err().map(|problem| (shorten(&value), problem.clone()));
                }
                if let Err(problem) = applied {
                    if field.key != keys::MODEL {
                        unapplied.push((field.key.to_string(), shorten(&value)));
                    }
                    let default = (field.get)(&defaults);
                    let message = if default.is_empty() {
                        msg!(phrases::LINK_IGNORED, key = field.key, problem = problem)
                    } else {
                        msg!(phrases::LINK_FALLBACK, key = field.key, problem = problem, default = default)
                    };
                    note(field.key, message);
                }
            }
            None => note(&key, msg!(phrases::LINK_UNKNOWN_SETTING_IGNORED, given = shorten(&key))),
        }
    }
    let Page { lang, embed, form_closed, offer, my_gpu } = page;
    let embed = embed.then_some(Embed { form_open: !form_closed });
    Decoded { workload, notes, lang, embed, offer, my_gpu, unapplied_model, unapplied }
}

/// Writes the query for `workload`, without `?`; empty when all defaults.
pub fn encode(workload: &Workload) -> String {
    let defaults = Workload::for_task(workload.task);
    let pairs: Vec<String> = FIELDS
        .iter()
        // A preset is written as the targets it set.
        .filter(|field| field.key != keys::LATENCY_PRESET)
        .filter_map(|field| {
            let value = (field.get)(workload);
            // The task itself is written unless it is the page's first task.
            let default = if field.key == keys::TASK { Task::Infer.to_string() } else { (field.get)(&defaults) };
            (value != default).then(|| format!("{}={}", field.key, percent_encode(&value)))
        })
        .collect();
    if pairs.is_empty() {
        return String::new();
    }
    format!("{}={URL_VERSION}&{}", keys::VERSION, pairs.join("&"))
}

/// The page's whole query: the workload, then the language when one was
/// chosen (a link keeps the language it was made in).
pub fn encode_page(workload: &Workload, lang: Option<Lang>) -> String {
    encode_link(workload, None, None, lang)
}

/// The page's whole query with the offer it points at and the visitor's
/// GPU it compares: the workload, the offer, the GPU, then the language.
pub fn encode_link(workload: &Workload, offer: Option<&OfferRef>, my_gpu: Option<&str>, lang: Option<Lang>) -> String {
    let mut pairs = vec![encode(workload)];
    pairs.extend(offer.map(|offer| format!("{}={}", keys::OFFER, percent_encode(&offer.key()))));
    pairs.extend(my_gpu.map(|gpu| format!("{}={}", keys::MY_GPU, percent_encode(gpu))));
    pairs.extend(lang.map(|lang| format!("{}={}", keys::LANG, lang.code())));
    pairs.retain(|pair| !pair.is_empty());
    pairs.join("&")
}

/// `query` (an `encode_link`) with the link's values that could not be
/// applied after it, as they were given (`Decoded::unapplied`, and the
/// model's): the address bar and a copied link keep what the user wrote,
/// and opened again they say the same notes and the form shows the same
/// values (issue 39). The page drops each once its field is edited.
pub fn keep_unapplied(query: String, model: Option<&str>, kept: &[(String, String)]) -> String {
    let model = model.map(|given| (keys::MODEL, given));
    let kept = model.into_iter().chain(kept.iter().map(|(key, given)| (key.as_str(), given.as_str())));
    let kept = kept.map(|(key, given)| format!("{key}={}", percent_encode(given)));
    std::iter::once(query).chain(kept).filter(|pair| !pair.is_empty()).collect::<Vec<_>>().join("&")
}

/// The query of the embedded page for the same workload and language.
pub fn encode_embed(workload: &Workload, lang: Option<Lang>, embed: Embed) -> String {
    let page = encode_page(workload, lang);
    let form = if embed.form_open { String::new() } else { format!("&{}=0", keys::FORM) };
    let separator = if page.is_empty() { "" } else { "&" };
    format!("{page}{separator}{}=1{form}", keys::EMBED)
}

/// Keeps hostile or huge values short in notes.
fn shorten(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    if text.chars().count() <= MAX_CHARS {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(MAX_CHARS).collect();
        short.push('…');
        short
    }
}

/// Percent-encodes all but RFC 3986 unreserved characters.
pub fn percent_encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Decodes `%XX` and `+` (form encoding); malformed escapes stay as typed,
/// invalid UTF-8 becomes U+FFFD. Never fails.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        let escaped = (byte == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (byte, escaped) {
            (_, Some(decoded)) => {
                out.push(decoded);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (other, None) => {
                out.push(other);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> &'static Catalog {
        Catalog::bundled().unwrap()
    }

    #[test]
    fn a_link_names_a_preset_and_is_written_with_its_targets() {
        let catalog = crate::engine::Catalog::bundled().unwrap();
        let decoded = decode("model=llama-3.3-70b&slo=chat&rps=2", catalog);
        assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        assert_eq!(encode(&decoded.workload), "v=1&model=llama-3.3-70b&rps=2&ttft=0.45&itl=0.04&pct=99");
        // Later keys win: a preset, then one's own first-token target.
        let own = decode("slo=long&ttft=2", catalog).workload;
        assert_eq!(
            (own.ttft_target_s, own.itl_target_s, latency_presets::spelling(&own)),
            (Some(2.0), Some(0.175), latency_presets::CUSTOM)
        );
        assert_eq!(encode(&decode("slo=code&slo=none", catalog).workload), "");
        // An unknown preset is a note, and changes nothing.
        let unknown = decode("slo=fast&itl=0.05", catalog);
        assert_eq!(unknown.notes.len(), 1);
        assert!(unknown.notes[0].message.render(crate::text::Lang::En).contains("unknown latency preset \"fast\""));
        assert_eq!(unknown.workload.itl_target_s, Some(0.05));
    }

    #[test]
    fn values_a_link_cannot_apply_are_kept_as_given_for_their_fields() {
        let catalog = Catalog::bundled().unwrap();
        let decoded = decode("rps=0&ttft=-1&model=nope&lang=xx&itl=0.05&peakx=abc", catalog);
        let kept: Vec<(&str, &str)> = decoded.unapplied.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        // Not the model (its box keeps it, issue 41), nor the page's own keys.
        assert_eq!(kept, [("rps", "0"), ("ttft", "-1"), ("peakx", "abc")]);
        assert_eq!(decoded.workload.itl_target_s, Some(0.05));
        assert!(decode("rps=2", catalog).unapplied.is_empty());
    }

    #[test]
    fn a_link_written_again_keeps_the_values_it_could_not_apply_and_says_the_same() {
        let catalog = Catalog::bundled().unwrap();
        let given = "model=llama-3.1-7b&rps=0&ttft=-1&itl=0.05&region=a%20b&peakx=abc&lang=es";
        let first = decode(given, catalog);
        let written = |d: &Decoded| {
            let model = d.unapplied_model.as_ref().map(|(text, _)| text.as_str());
            keep_unapplied(encode_link(&d.workload, None, None, d.lang), model, &d.unapplied)
        };
        let link = written(&first);
        assert_eq!(link, "v=1&itl=0.05&region=a%20b&lang=es&model=llama-3.1-7b&rps=0&ttft=-1&peakx=abc");
        let again = decode(&link, catalog);
        let said = |d: &Decoded| d.notes.iter().map(|n| n.message.to_string()).collect::<Vec<_>>();
        assert_eq!(said(&again), said(&first));
        assert_eq!(
            (&again.workload, &again.unapplied, &again.unapplied_model),
            (&first.workload, &first.unapplied, &first.unapplied_model)
        );
        assert_eq!(written(&again), link, "written again, the link settles");
        // Nothing kept: the link as encode_link writes it.
        assert_eq!(keep_unapplied(String::new(), None, &[("rps".into(), "0".into())]), "rps=0");
        assert_eq!(keep_unapplied("v=1&rps=2".into(), None, &[]), "v=1&rps=2");
    }

    #[test]
    fn a_model_the_link_cannot_apply_is_kept_as_given_with_why() {
        // The page keeps the text in the model box and names the nearest ids.
        let decoded = decode("model=llama-3.1-7b&wq=int8", catalog());
        assert_eq!(decoded.workload.model, "llama-3.1-8b");
        let (text, why) = decoded.unapplied_model.unwrap();
        assert_eq!(text, "llama-3.1-7b");
        assert!(why.to_string().starts_with("unknown model \"llama-3.1-7b\" (nearest: llama-3.1-8b, "), "{why}");
        // A model of another task, likewise; a later model that applies clears it.
        let (text, why) = decode("task=image&model=llama-3.1-8b", catalog()).unapplied_model.unwrap();
        assert_eq!(
            (text.as_str(), why.to_string().as_str()),
            ("llama-3.1-8b", "Llama 3.1 8B is not a text-to-image model")
        );
        assert_eq!(decode("model=nope&model=qwen2.5-7b", catalog()).unapplied_model, None);
        assert_eq!(decode("model=qwen2.5-7b", catalog()).unapplied_model, None);
    }

    /// Issue 40: "2T" tokens became "2" and an error; fields take the
    /// shorthand and grouping people write.
    #[test]
    fn numbers_read_as_people_write_them() {
        for (text, number) in [
            ("2T", 2e12),
            ("1.5B", 1.5e9),
            ("1.5b", 1.5e9),
            ("10k", 1e4),
            ("10 K", 1e4),
            ("3M", 3e6),
            ("7e10", 7e10),
            ("1,000,000", 1e6),
            ("1,000.5", 1000.5),
            ("1 000 000", 1e6),
            ("1\u{202f}000", 1e3),
            ("100_000", 1e5),
            ("1.000.000", 1e6),
            ("1,5", 1.5),
            ("2,50", 2.5),
            ("1,5k", 1500.0),
            ("1.1k", 1100.0),
            ("  42 ", 42.0),
        ] {
            assert_eq!(read_number(text), Some(number), "{text}");
        }
        for text in ["", "k", "T", "inf", "NaN", "1.2.3", "1,000,00", "ten", "2X", "1,5,0"] {
            assert_eq!(read_number(text), None, "{text}");
        }
        // Through the codec, as the form applies a field.
        let decoded = decode("task=pretrain&tokens=2T", catalog());
        assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        assert_eq!(decoded.workload.training_tokens, 2e12);
        let mut w = Workload::default();
        assert!(apply(&mut w, "conc", "1.5k", catalog()).is_ok());
        assert_eq!(w.concurrency, 1500);
        assert!(apply(&mut w, "conc", "1.5", catalog()).is_err(), "not whole");
    }

    #[test]
    fn defaults_encode_to_an_empty_query() {
        assert_eq!(encode(&Workload::default()), "");
        assert_eq!(decode("", catalog()).workload, Workload::default());
    }

    #[test]
    fn every_task_model_and_precision_round_trips() {
        for task in Task::ALL {
            for model in catalog().models.iter().filter(|m| m.suits(task)) {
                for precision in Precision::ALL {
                    let workload =
                        Workload { model: model.id.clone(), weight_precision: precision, ..Workload::for_task(task) };
                    let decoded = decode(&encode(&workload), catalog());
                    assert_eq!(decoded.workload, workload);
                    assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
                }
            }
        }
    }

    #[test]
    fn media_fields_round_trip_and_defaults_follow_the_task() {
        use crate::engine::workload::{Offload, Resolution};
        // A pretraining link starts from a pretraining-sized dataset.
        assert_eq!(decode("task=pretrain", catalog()).workload.training_tokens, 1.6e11);
        assert_eq!(
            encode(&Workload { training_tokens: 1e12, ..Workload::for_task(Task::Pretrain) }),
            "v=1&task=pretrain&tokens=1000000000000"
        );
        // A task alone brings its own model.
        assert_eq!(decode("task=image", catalog()).workload.model, "sdxl-base-1.0");
        assert_eq!(encode(&Workload::for_task(Task::Audio)), "v=1&task=audio");
        let workload = Workload {
            model: "hunyuanvideo".into(),
            resolution: Some(Resolution { width: 960, height: 544 }),
            frames: Some(129),
            steps: Some(30),
            batch: 2,
            items: 50,
            offload: Offload::Model,
            ..Workload::for_task(Task::Video)
        };
        let query = encode(&workload);
        assert_eq!(
            query,
            "v=1&task=video&model=hunyuanvideo&res=960x544&steps=30&frames=129&batch=2&n=50&offload=model"
        );
        assert_eq!(decode(&query, catalog()).workload, workload);
        let hours = Workload { audio_hours: 2.5, ..Workload::for_task(Task::Audio) };
        assert_eq!(decode(&encode(&hours), catalog()).workload, hours);
        // A model of the wrong kind, a bad size and a bad offload are named.
        let decoded = decode("task=image&model=llama-3.1-8b&res=100x99999&offload=disk&frames=0", catalog());
        let messages: Vec<String> = decoded.notes.iter().map(|n| n.message.to_string()).collect();
        assert_eq!(
            messages,
            [
                "model: Llama 3.1 8B is not a text-to-image model; using sdxl-base-1.0",
                "res: \"100x99999\" is not WIDTHxHEIGHT with sides from 64 to 16,384 pixels; ignored",
                "offload: unknown offload mode \"disk\" (use one of none, text, model); using none",
                "frames: 0 is out of range (1 to 18,000); ignored",
            ]
        );
        assert_eq!(decoded.workload, Workload::for_task(Task::Image));
        // Emptying an optional field brings back the model's or the task's default.
        let mut w = decode("task=image&res=640x480&steps=20&obj=fast&max_ph=3", catalog()).workload;
        for key in ["res", "steps", "obj", "max_ph"] {
            apply(&mut w, key, " ", catalog()).unwrap();
        }
        assert_eq!(w, Workload::for_task(Task::Image));
        // Switching task keeps a model that can do it and swaps one that cannot.
        let mut w = Workload::default();
        apply(&mut w, "task", "finetune", catalog()).unwrap();
        assert_eq!(w.model, "llama-3.1-8b");
        apply(&mut w, "task", "video", catalog()).unwrap();
        assert_eq!(w.model, "wan2.1-t2v-1.3b");
        // An untouched dataset size follows the task; an edited one stays.
        apply(&mut w, "task", "pretrain", catalog()).unwrap();
        assert_eq!(w.training_tokens, 1.6e11);
        apply(&mut w, "tokens", "5e9", catalog()).unwrap();
        apply(&mut w, "task", "finetune", catalog()).unwrap();
        assert_eq!(w.training_tokens, 5e9);
    }

    /// Issue 26's keys: images per request and their side for a
    /// vision-language model, seconds per clip for speech and music; each
    /// round-trips, a bad value is named and falls back, and an old audio
    /// link keeps transcribing while one with a generator asks for its task.
    #[test]
    fn image_and_clip_fields_round_trip_and_bad_values_are_named() {
        let vlm =
            Workload { model: "qwen2-vl-7b".into(), images: Some(4), image_side: Some(1344), ..Workload::default() };
        let query = encode(&vlm);
        assert_eq!(query, "v=1&model=qwen2-vl-7b&imgs=4&img_px=1344");
        assert_eq!(decode(&query, catalog()).workload, vlm);
        let music = Workload { clip_seconds: Some(12.5), items: 40, ..Workload::for_task(Task::Music) };
        let query = encode(&music);
        assert_eq!(query, "v=1&task=music&n=40&secs=12.5");
        assert_eq!(decode(&query, catalog()).workload, music);
        let decoded = decode("model=qwen2-vl-7b&imgs=65&img_px=10&secs=0", catalog());
        let messages: Vec<String> = decoded.notes.iter().map(|n| n.message.to_string()).collect();
        assert_eq!(
            messages,
            [
                "imgs: 65 is out of range (0 to 64); ignored",
                "img_px: 10 is out of range (64 to 8,192); ignored",
                "secs: 0 is out of range (1e-1 to 3.6e3); ignored",
            ]
        );
        assert_eq!(decoded.workload, Workload { model: "qwen2-vl-7b".into(), ..Workload::default() });
        // Old links: transcription stays transcription; a generator asks for its task.
        assert_eq!(decode("task=audio&hours=3", catalog()).workload.task, Task::Audio);
        let speech = decode("task=audio&model=parler-tts-mini-v1", catalog());
        assert!(speech.notes.is_empty(), "{:?}", speech.notes);
        assert_eq!((speech.workload.task, speech.workload.model.as_str()), (Task::Speech, "parler-tts-mini-v1"));
    }

    #[test]
    fn a_shared_link_reads_with_or_without_the_question_mark() {
        let decoded = decode("?v=1&model=llama-3.1-70b&wq=int4", catalog());
        assert_eq!(decoded.workload.model, "llama-3.1-70b");
        assert_eq!(decoded.workload.weight_precision, Precision::Int4);
        assert!(decoded.notes.is_empty());
    }

    #[test]
    fn a_bad_value_falls_back_for_that_field_only_and_is_named() {
        let decoded = decode("model=%3Cscript%3E&wq=int8&colour=red", catalog());
        assert_eq!(decoded.workload.model, Workload::default().model);
        assert_eq!(decoded.workload.weight_precision, Precision::Int8);
        let keys: Vec<&str> = decoded.notes.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(keys, ["model", "colour"]);
        assert!(decoded.notes[0].message.to_string().contains("\"<script>\""));
        assert!(decoded.notes[0].message.to_string().starts_with("model: "), "{:?}", decoded.notes);

        let decoded = decode("wq=fp7", catalog());
        assert_eq!(decoded.workload.weight_precision, Precision::Bf16);
        assert!(decoded.notes[0].message.to_string().contains("fp7"));
    }

    #[test]
    fn every_field_round_trips_and_defaults_are_omitted() {
        use crate::engine::{KvPrecision, RuntimeChoice, Task};
        let workload = Workload {
            task: Task::Infer,
            model: "qwen2.5-72b".into(),
            weight_precision: Precision::Q4KM,
            kv_precision: KvPrecision::Fp8,
            runtime: RuntimeChoice::Llamacpp,
            input_tokens: 8000,
            output_tokens: 1000,
            concurrency: 64,
            ..Workload::default()
        };
        let query = encode(&workload);
        assert_eq!(query, "v=1&model=qwen2.5-72b&wq=q4_k_m&kvq=fp8&runtime=llamacpp&in=8000&out=1000&conc=64");
        assert_eq!(decode(&query, catalog()).workload, workload);
        let only_conc = Workload { concurrency: 8, ..Workload::default() };
        assert_eq!(encode(&only_conc), "v=1&conc=8");
    }

    #[test]
    fn a_custom_model_round_trips_and_bad_numbers_are_named() {
        let decoded = decode("model=custom&params=7e10&layers=80&hidden=8192&heads=64&kv_heads=8", catalog());
        assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        let w = &decoded.workload;
        assert_eq!(w.model, "custom");
        let custom = w.custom.as_ref().unwrap();
        assert_eq!((custom.params, custom.layers, custom.kv_heads), (7e10, 80, Some(8)));
        assert_eq!(decode(&encode(w), catalog()).workload, *w);
        // Giving any number alone also selects a custom model.
        assert_eq!(decode("params=1.3e9", catalog()).workload.model, "custom");
        // 10^30 parameters and zero layers are refused by name.
        let decoded = decode("params=1e30&layers=0", catalog());
        let messages: Vec<String> = decoded.notes.iter().map(|n| n.message.to_string()).collect();
        assert_eq!(messages[0], "params: 1e30 is out of range (1e6 to 1e13); ignored");
        assert!(messages[1].starts_with("layers: 0 is out of range"), "{messages:?}");
    }

    #[test]
    fn training_fields_round_trip() {
        use crate::engine::{FinetuneMethod, Optimizer, Task};
        let workload = Workload {
            task: Task::Finetune,
            model: "llama-2-13b".into(),
            method: FinetuneMethod::Qlora,
            seq_len: 4096,
            micro_batch: 4,
            lora_rank: 64,
            optimizer: Optimizer::Adamw8bit,
            checkpointing: false,
            zero_stage: 3,
            gpus: 8,
            training_tokens: 2.5e9,
            epochs: 3,
            ..Workload::default()
        };
        let query = encode(&workload);
        assert_eq!(query, "v=1&task=finetune&model=llama-2-13b&method=qlora&seq=4096&mbs=4&rank=64&opt=adamw8bit&ckpt=0&zero=3&gpus=8&tokens=2500000000&epochs=3");
        assert_eq!(decode(&query, catalog()).workload, workload);
        let decoded = decode("zero=4&ckpt=maybe", catalog());
        let messages: Vec<String> = decoded.notes.iter().map(|n| n.message.to_string()).collect();
        assert_eq!(messages, ["zero: 4 is out of range (0 to 3); using 0", "ckpt: \"maybe\" is not 1 or 0; using 1"]);
    }

    #[test]
    fn out_of_range_and_non_numeric_counts_are_named_and_fall_back() {
        for (query, expected) in [
            ("conc=-3", "conc: -3 is out of range (1 to 100,000); using 1"),
            ("conc=0", "conc: 0 is out of range (1 to 100,000); using 1"),
            ("conc=NaN", "conc: \"NaN\" is not a whole number (1 to 100,000); using 1"),
            ("in=1e30", "in: 1e30 is out of range (1 to 10,000,000); using 2048"),
            ("out=2.5", "out: \"2.5\" is not a whole number (1 to 10,000,000); using 512"),
            (
                "runtime=ollama",
                "runtime: unknown runtime \"ollama\" (use one of auto, vllm, trtllm, llamacpp, hf); using auto",
            ),
        ] {
            let decoded = decode(query, catalog());
            assert_eq!(decoded.workload, Workload::default(), "{query}");
            assert_eq!(decoded.notes.len(), 1, "{query}");
            assert_eq!(decoded.notes[0].message.to_string(), expected);
        }
    }

    #[test]
    fn a_link_from_a_newer_version_says_so() {
        let decoded = decode("v=2&wq=fp8", catalog());
        assert_eq!(decoded.workload.weight_precision, Precision::Fp8);
        assert!(decoded.notes[0].message.to_string().contains("newer version"));
    }

    #[test]
    fn malformed_escapes_and_huge_values_never_panic() {
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%zz%4"), "%zz%4");
        assert_eq!(percent_decode("a+b%20c"), "a b c");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        let huge = format!("model={}", "x".repeat(100_000));
        let decoded = decode(&huge, catalog());
        assert!(decoded.notes[0].message.to_string().len() < 200);
    }

    #[test]
    fn encoding_escapes_reserved_characters() {
        assert_eq!(percent_encode("a b&c=d/é"), "a%20b%26c%3Dd%2F%C3%A9");
        assert_eq!(percent_decode(&percent_encode("a b&c=d/é")), "a b&c=d/é");
    }

    #[test]
    fn the_language_rides_along_in_the_link_but_is_not_the_workload() {
        let catalog = Catalog::bundled().unwrap();
        let decoded = decode("model=llama-3.1-70b&lang=es-MX", catalog);
        assert_eq!(decoded.lang, Some(Lang::Es));
        assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        assert_eq!(encode_page(&decoded.workload, decoded.lang), "v=1&model=llama-3.1-70b&lang=es");
        assert_eq!(encode_page(&Workload::default(), Some(Lang::En)), "lang=en");
        assert_eq!(encode_page(&Workload::default(), None), "");
        // A language the page does not speak is named, and the rest applies.
        let french = decode("lang=fr&conc=4", catalog);
        assert_eq!((french.lang, french.workload.concurrency), (None, 4));
        assert_eq!(french.notes[0].message.to_string(), "lang: \"fr\" is not a language this page speaks (en, es)");
        assert_eq!(french.notes[0].message.render(Lang::Es), "lang: «fr» no es un idioma de esta página (en, es)");
    }

    use crate::hardening::Random;

    /// A value for `field`: mostly valid (inside its range, one of its
    /// options, a catalog model), sometimes hostile or out of range.
    fn value_for(field: &Field, random: &mut Random) -> String {
        let junk = ["", "-3", "1e400", "NaN", "<script>", "%E2%9C%93", "x&y", "0", "99999999999", "fp7", " 4 "];
        if random.below(5) == 0 {
            return random.pick(&junk).to_string();
        }
        let options: &[&str] = match field.key {
            "task" => &["infer", "finetune", "pretrain", "image", "video", "audio"],
            "model" => &[
                "llama-3.1-8b",
                "llama-3.1-70b",
                "mixtral-8x7b",
                "sdxl-base-1.0",
                "flux.1-dev",
                "whisper-large-v3",
                "custom",
            ],
            "wq" => &["bf16", "fp8", "int4", "awq", "q4_k_m", "nf4"],
            "kvq" => &["bf16", "fp8", "int8"],
            "runtime" => &["auto", "vllm", "trtllm", "llamacpp", "hf"],
            "method" => &["full", "lora", "qlora"],
            "opt" => &["adamw", "adamw8bit", "sgd", "adafactor"],
            "ce" => &["full", "chunked"],
            "recipe" => &["mixed", "bf16", "fp16"],
            "offload" => &["none", "text", "model"],
            "compile" => &["eager", "compiled", "yes"],
            "asr" => &["faster-whisper", "transformers", "whisperx"],
            "obj" => &["", "cost", "unit", "fast", "latency", "bandwidth"],
            "spot" => &["auto", "yes", "no"],
            "rely" => &["auto", "first", "off", "FIRST"],
            "ckpt" => &["0", "1", "true", "off"],
            "res" => &["", "512x512", "1024x1024", "1280X720", "64x16384"],
            "provider" => &["", "lambda", "aws,runpod", "vast"],
            "region" => &["", "us", "europe-west4", "FIN-03"],
            "vendor" => &["", "nvidia", "AMD"],
            "gpu" => &["", "h100", "H100_SXM,a100", "mi300x", "rtx 4090"],
            _ => &[],
        };
        if !options.is_empty() {
            return random.pick(options).to_string();
        }
        match field.bounds {
            Some((min, max)) => {
                let span = (max - min).max(0.0);
                let value = min + span * (random.below(1_000_001) as f64 / 1_000_000.0).powi(4);
                if max <= 1e7 && min.fract() == 0.0 {
                    format!("{}", value.round())
                } else {
                    format!("{value:e}")
                }
            }
            None => random.pick(&junk).to_string(),
        }
    }

    /// Property (issue 8): for any query, valid or not, the workload it
    /// decodes to encodes to a clean link that decodes to the same
    /// workload and language, and encoding that again changes nothing:
    /// decode(encode(decode(q))) == decode(q).
    #[test]
    fn any_query_settles_into_a_link_that_round_trips() {
        let catalog = catalog();
        let mut random = Random(0x5EED_CAFE_F00D_1234);
        let mut with_notes = 0;
        for _ in 0..3000 {
            let mut pairs: Vec<String> = (0..random.below(12))
                .map(|_| {
                    let field = &FIELDS[random.below(FIELDS.len())];
                    let value = value_for(field, &mut random);
                    format!("{}={}", field.key, percent_encode(&value))
                })
                .collect();
            if random.below(4) == 0 {
                pairs.push(format!("lang={}", random.pick(&["es", "en", "fr", "es-MX"])));
            }
            if random.below(5) == 0 {
                let offer = random.pick(&[
                    "aws:p5.48xlarge",
                    "lambda:gpu_1x_h100_sxm5:spot",
                    "vast:2x-RTX_5090-32-65536",
                    "a:b:c",
                    "::",
                    "x",
                ]);
                pairs.push(format!("offer={}", percent_encode(offer)));
            }
            if random.below(5) == 0 {
                let gpu = random.pick(&["rtx_4090", "apple_m2_max", "h100_sxm", "rtx_9999", "<b>", ""]);
                pairs.push(format!("mygpu={}", percent_encode(gpu)));
            }
            if random.below(10) == 0 {
                pairs.push(random.pick(&["zzz=1", "v=9", "v=x"]).to_string());
            }
            let query = pairs.join("&");
            let first = crate::hardening::check_link(&query, catalog);
            with_notes += usize::from(!first.notes.is_empty());
        }
        // The generator reaches both clean and broken links.
        assert!((300..2700).contains(&with_notes), "{with_notes} of 3000 queries had notes");
    }

    /// Property (issue 10): links with every field at its edges (the
    /// largest model, context, concurrency and GPU count the form allows, and
    /// 1e30, NaN, ∞, 0 and negatives it refuses) rank against the committed
    /// snapshot without a panic, and every figure on the page is finite.
    #[test]
    #[cfg(not(target_arch = "wasm32"))] // reads the committed snapshot from disk
    fn links_at_every_edge_rank_with_finite_figures() {
        /// A value for `field` at or past its edge: the least and the most it
        /// takes, just outside, and numbers no form would send.
        fn extreme_for(field: &Field, random: &mut Random) -> String {
            let Some((min, max)) = field.bounds else { return value_for(field, random) };
            let beyond = ["1e30", "-1", "0", "NaN", "inf", "-inf", "1e-300", "1e308", "-0", "4294967296"];
            match random.below(4) {
                0 => format!("{min}"),
                1 => format!("{max}"),
                2 => random.pick(&beyond).to_string(),
                _ => value_for(field, random),
            }
        }

        let catalog = catalog();
        // Every 16th offer: each GPU shape and provider still turns up, and
        // the unoptimised test build ranks it in a few milliseconds.
        let mut snapshot = crate::engine::snapshot::committed();
        snapshot.offers = snapshot.offers.into_iter().step_by(16).collect();
        let mut random = Random(0xED6E_5000_0000_0010);
        for _ in 0..400 {
            let mut pairs: Vec<String> =
                vec![format!("task={}", random.pick(&["infer", "finetune", "pretrain", "image", "video", "audio"]))];
            if random.below(2) == 0 {
                pairs.push("model=custom".into());
            }
            // The CSV export is checked in the link's language, or in each.
            if let Some(lang) = [Some("en"), Some("es"), None][random.below(3)] {
                pairs.push(format!("lang={lang}"));
            }
            // Numbers only: the option fields have no edges.
            let numeric: Vec<&Field> = FIELDS.iter().filter(|f| f.bounds.is_some()).collect();
            for _ in 0..1 + random.below(16) {
                let field = numeric[random.below(numeric.len())];
                pairs.push(format!("{}={}", field.key, percent_encode(&extreme_for(field, &mut random))));
            }
            crate::hardening::check_query(&pairs.join("&"), catalog, &snapshot);
        }
    }

    /// Property: a workload built from valid values only decodes without
    /// notes to exactly the workload its fields were set to.
    #[test]
    fn every_valid_workload_encodes_and_decodes_to_itself() {
        let catalog = catalog();
        let mut random = Random(0xD0C5_11E5_0000_0007);
        for case in 0..2000 {
            let mut workload = Workload::for_task(Task::ALL[random.below(Task::ALL.len())]);
            for _ in 0..random.below(10) {
                let field = &FIELDS[random.below(FIELDS.len())];
                // Valid values only: apply keeps the workload as it was on a bad one.
                let value = value_for(field, &mut random);
                let _ = apply(&mut workload, field.key, &value, catalog);
            }
            let link = encode(&workload);
            let decoded = decode(&link, catalog);
            assert!(decoded.notes.is_empty(), "case {case}: {link}: {:?}", decoded.notes);
            assert_eq!(decoded.workload, workload, "case {case}: {link}");
        }
    }

    #[test]
    fn embed_mode_rides_in_the_link_but_not_in_the_workload() {
        let catalog = catalog();
        let decoded = decode("model=llama-3.1-70b&embed=1&form=0&lang=es", catalog);
        assert_eq!(decoded.embed, Some(Embed { form_open: false }));
        assert!(decoded.notes.is_empty(), "{:?}", decoded.notes);
        // "Open in whichgpu" is the full page of the same state.
        assert_eq!(encode_page(&decoded.workload, decoded.lang), "v=1&model=llama-3.1-70b&lang=es");
        assert_eq!(
            encode_embed(&decoded.workload, decoded.lang, Embed { form_open: false }),
            "v=1&model=llama-3.1-70b&lang=es&embed=1&form=0"
        );
        assert_eq!(encode_embed(&Workload::default(), None, Embed { form_open: true }), "embed=1");
        assert_eq!(decode("embed=1", catalog).embed, Some(Embed { form_open: true }));
        assert_eq!(decode("form=0", catalog).embed, None);
        let bad = decode("embed=maybe", catalog);
        assert_eq!(
            (bad.embed, bad.notes[0].message.to_string()),
            (None, "embed: \"maybe\" is not 1 or 0; ignored".into())
        );
    }

    #[test]
    fn the_offer_a_link_points_at_round_trips() {
        let catalog = catalog();
        let decoded = decode("task=image&offer=lambda%3Agpu_1x_h100_sxm5%3Aspot&lang=es", catalog);
        let offer =
            OfferRef { provider: "lambda".into(), instance: "gpu_1x_h100_sxm5".into(), region: None, spot: true };
        assert_eq!(decoded.offer.as_ref(), Some(&offer));
        assert_eq!(
            encode_link(&decoded.workload, decoded.offer.as_ref(), decoded.my_gpu.as_deref(), decoded.lang),
            "v=1&task=image&offer=lambda%3Agpu_1x_h100_sxm5%3Aspot&lang=es"
        );
        assert_eq!(OfferRef::parse("aws:p4d.24xlarge").unwrap().key(), "aws:p4d.24xlarge");
        let regional = OfferRef::parse("aws:g4dn.12xlarge@eu-west-1:spot").unwrap();
        assert_eq!((regional.region.as_deref(), regional.spot), (Some("eu-west-1"), true));
        assert_eq!(regional.key(), "aws:g4dn.12xlarge@eu-west-1:spot");
        for bad in ["aws", "aws:", ":x", "a:b:cheap", "a:b:spot:x", "a:<script>", "a:b@", "a:b@<x>", "a:@r"] {
            assert!(OfferRef::parse(bad).is_err(), "{bad}");
        }
        let broken = decode("offer=nowhere&conc=4", catalog);
        assert_eq!((broken.offer, broken.workload.concurrency), (None, 4));
        assert!(broken.notes[0].message.to_string().starts_with("offer: \"nowhere\" is not an offer"));
    }

    #[test]
    fn the_visitors_gpu_rides_in_the_link_and_a_bad_one_is_noted() {
        let catalog = catalog();
        let decoded = decode("model=llama-3.1-70b&mygpu=rtx_4090&lang=es", catalog);
        assert_eq!(decoded.my_gpu.as_deref(), Some("rtx_4090"));
        assert!(decoded.notes.is_empty());
        assert_eq!(
            encode_link(&decoded.workload, None, decoded.my_gpu.as_deref(), decoded.lang),
            "v=1&model=llama-3.1-70b&mygpu=rtx_4090&lang=es"
        );
        assert_eq!(encode_link(&Workload::default(), None, Some("apple_m2_max"), None), "mygpu=apple_m2_max");
        // Not a catalog GPU: noted, ignored, the rest applies.
        let broken = decode("mygpu=%3Cscript%3E&conc=4", catalog);
        assert_eq!((broken.my_gpu, broken.workload.concurrency), (None, 4));
        assert_eq!(broken.notes[0].key, keys::MY_GPU);
        let note = broken.notes[0].message.to_string();
        assert!(note.starts_with("mygpu:") && note.contains("<script>"), "{note}");
    }
}
