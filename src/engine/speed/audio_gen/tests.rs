use super::*;
use crate::engine::{Catalog, Task};

fn timed(model: &str, workload: &Workload, gpu: &str) -> AudioGenSpeed {
    let catalog = Catalog::bundled().unwrap();
    let generator = catalog.model(model).unwrap().audio_generator().expect("an audio generator");
    let speed = audio_gen_speed(workload, generator, catalog.gpu(gpu).unwrap(), 1).unwrap();
    match speed.figures {
        Figures::AudioGen(figures) => figures,
        other => panic!("{other:?}"),
    }
}

/// The rule: twice the clip is about twice the decode, and the
/// real-time factor barely moves; a batch shares each step's weights.
/// MusicGen medium (audio_models.csv: a 1.5B decoder of 48 layers over 4
/// EnCodec codebooks at 50 Hz, delay pattern, guidance; 30 s at once).
#[test]
fn a_clip_twice_as_long_takes_about_twice_as_long() {
    let at = |seconds: f64, batch: u32| {
        let w = Workload { clip_seconds: Some(seconds), batch, ..Workload::for_task(Task::Music) };
        timed("musicgen-medium", &w, "a100_sxm_80gb")
    };
    let (ten, twenty) = (at(10.0, 1), at(20.0, 1));
    let ratio = twenty.seconds_per_clip / ten.seconds_per_clip;
    assert!((1.9..2.1).contains(&ratio), "{ratio}");
    // Eight clips at once take far less than eight times one.
    let eight = at(10.0, 8);
    assert!(eight.seconds_per_clip < 2.0 * ten.seconds_per_clip, "{eight:?} vs {ten:?}");
    assert!(eight.realtime_factor < ten.realtime_factor / 4.0);
    // Past the model's 30 s, a 60 s clip is two segments.
    let (sixty, thirty) = (at(60.0, 1), at(30.0, 1));
    assert!((sixty.seconds_per_clip / thirty.seconds_per_clip - 2.0).abs() < 0.01);
}

/// An iterative stage runs its steps over every frame: the steps set in
/// the link replace the model's (F5-TTS: 32 NFE by default), and the time
/// follows them.
#[test]
fn an_iterative_stage_follows_its_steps() {
    let at = |steps: Option<u32>| {
        let w = Workload { steps, clip_seconds: Some(10.0), ..Workload::for_task(Task::Speech) };
        timed("f5-tts-v1-base", &w, "a100_sxm_80gb").seconds_per_clip
    };
    let ratio = at(Some(16)) / at(None);
    assert!((0.45..0.55).contains(&ratio), "{ratio}");
}

/// Published speeds with the GPU named (data/audio_published.csv, each row
/// with its source), against the model without torch.compile or TensorRT,
/// which is what it assumes. Rows on GPUs the catalog lacks (the L20 of
/// F5-TTS's and CosyVoice's tables) or for models it does not size are
/// listed as skipped. Dia's bf16 row calibrated `EAGER_LAYER_OVERHEAD_S`;
/// fp16 and fp32 are out of sample.
#[test]
fn published_real_time_factors_are_matched() {
    let catalog = Catalog::bundled().unwrap();
    let gpu_ids = [("RTX 4090", "rtx_4090"), ("H100", "h100_sxm"), ("A100 80GB", "a100_sxm_80gb")];
    let mut report = Vec::new();
    let mut family = crate::engine::speed::calibration::Family::new("audio generation RTF");
    let mut worst: f64 = 0.0;
    for line in include_str!("../../../../data/audio_published.csv").lines().skip(1) {
        let cells: Vec<&str> = line.splitn(9, ',').collect();
        let (model, gpu, precision, batch, measured, metric, source) =
            (cells[0], cells[1], cells[2], cells[3], cells[6], cells[7], cells[8]);
        // Only the eager PyTorch rows: compiled and TensorRT runs are
        // faster than what the model assumes, and the page says so.
        let eager = source.contains("without torch.compile") || source.contains("offline PyTorch");
        let gpu_id = gpu_ids.iter().find(|(name, _)| *name == gpu).map(|(_, id)| *id);
        let sized = catalog.model(model).ok().and_then(|m| m.audio_generator());
        let (Some(gpu_id), Some(generator), true) = (gpu_id, sized, eager) else {
            report.push(format!("{model} on {gpu} ({precision}, {metric} {measured}): skipped"));
            continue;
        };
        let measured: f64 = measured.parse().unwrap();
        let rtf = if metric == "x_realtime" { 1.0 / measured } else { measured };
        let weight_precision = precision.parse().unwrap_or(crate::engine::Precision::Fp16);
        let batch = batch.parse().unwrap_or(1);
        let w = Workload { weight_precision, batch, ..Workload::for_task(Task::Speech) };
        let speed = audio_gen_speed(&w, generator, catalog.gpu(gpu_id).unwrap(), 1).unwrap();
        let got = speed.realtime_factor().unwrap();
        let error = got / rtf - 1.0;
        worst = worst.max(error.abs());
        // Each generator's own repository is its source ("nari-labs/dia README …").
        let repo = source.trim_matches('"').split_whitespace().next().unwrap_or(source);
        family.add(repo, format!("{model} on {gpu} ({precision}) RTF"), catalog.gpu(gpu_id).unwrap(), got, rtf);
    }
    println!("{}", report.join("\n"));
    assert!(family.cases.len() >= 3, "{report:?}");
    // Prints each case and checks the band the page shows.
    family.report();
    assert!(worst <= 0.30, "worst {worst:.2}");
}

/// Bark's README: "roughly real-time on enterprise GPUs" (suno-ai/bark,
/// with PyTorch nightly); its three GPTs run one after another.
#[test]
fn bark_runs_about_real_time_on_a_datacenter_gpu() {
    let w = Workload { clip_seconds: Some(13.0), ..Workload::for_task(Task::Speech) };
    let rtf = timed("bark", &w, "a100_sxm_80gb").realtime_factor;
    assert!((0.5..2.0).contains(&rtf), "{rtf}");
}

/// The catalog's generators against their published facts
/// (data/audio_models.md): MusicGen's 4 EnCodec codebooks at 50 Hz decoded
/// in one step each with the delay pattern's 3 extra steps (audiocraft
/// `musicgen_lm.yaml`), so 10 s is 503 steps; Parler-TTS and Dia over DAC
/// at 44,100 / 512 = 86.13 frames/s (Parler's wrapper says 86); F5-TTS over 24,000 / 256 = 93.75 mel
/// frames/s with 32 NFE; the sizes published for MusicGen's decoders (300M,
/// 1.5B, 3.3B: audiocraft docs/MUSICGEN.md) and Dia's 1.6B (computed
/// 1.611B).
#[test]
fn generators_decode_at_their_published_rates() {
    let catalog = Catalog::bundled().unwrap();
    let stage = |model: &str, name: &str| {
        let generator = catalog.model(model).unwrap().audio_generator().unwrap();
        generator.stages.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{model} {name}")).clone()
    };
    let lm = stage("musicgen-medium", "lm");
    assert_eq!(lm.frames(10.0), 503.0);
    assert!(lm.guidance && lm.method == StageMethod::Autoregressive);
    for (model, params) in [("musicgen-small", 0.3e9), ("musicgen-medium", 1.5e9), ("musicgen-large", 3.3e9)] {
        assert_eq!(stage(model, "lm").params, params, "{model}");
    }
    // Parler's DAC wrapper states its frame rate as a whole 86.
    assert!((stage("parler-tts-mini-v1", "lm").frames_per_second.unwrap() - 86.13).abs() < 0.2);
    assert!((stage("dia-1.6b", "lm").frames_per_second.unwrap() - 86.13).abs() < 0.01);
    let dia = catalog.model("dia-1.6b").unwrap().params;
    assert!((dia / 1.6e9 - 1.0).abs() < 0.01, "{dia}");
    let flow = stage("f5-tts-v1-base", "dit");
    assert_eq!((flow.frames_per_second, flow.steps, flow.method), (Some(93.75), Some(32), StageMethod::Iterative));
}

/// Stable Audio Open's DiT always runs over its whole 47 s window
/// (data/audio_models.md, `fixed_window`): a 10 s clip costs what a 30 s
/// one does (within its VAE decoding the clip's own latents), and a 60 s
/// clip two windows; an autoregressive model's cost follows the clip.
#[test]
fn a_fixed_window_model_costs_its_window_whatever_the_clip() {
    let at = |model: &str, seconds: f64| {
        let w = Workload { clip_seconds: Some(seconds), ..Workload::for_task(Task::Music) };
        timed(model, &w, "a100_sxm_80gb").seconds_per_clip
    };
    assert!((at("stable-audio-open", 10.0) / at("stable-audio-open", 30.0) - 1.0).abs() < 0.02);
    assert!((at("stable-audio-open", 60.0) / at("stable-audio-open", 30.0) - 2.0).abs() < 0.02);
    assert!(at("musicgen-medium", 10.0) < 0.4 * at("musicgen-medium", 30.0));
}
