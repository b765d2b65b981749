//! How a speech or music generator is built (issue 26), stage by stage,
//! as `data/audio_models.csv` describes each model with its sources: the
//! engine times and sizes every stage by its method, so MusicGen (a
//! language model over codec tokens, then the codec's decoder), F5-TTS
//! (flow matching over mel frames, then a vocoder) and CosyVoice (both)
//! are one family.

use super::json::{Fields, FromJson, Json, JsonError};
use serde::Serialize;

/// What a generator makes, which decides the task that lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AudioOutput {
    Speech,
    Music,
}

/// How a stage runs over a clip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StageMethod {
    /// One decoder step per codec frame (or token), each reading the
    /// stage's weights and KV cache: memory-bound, like an LLM's decode.
    Autoregressive,
    /// A fixed number of full passes over all the clip's frames (flow
    /// matching, diffusion, MAGNeT's masked decoding): compute-bound.
    Iterative,
    /// One pass over the clip's frames (a vocoder, a codec's decoder, a
    /// non-autoregressive TTS model).
    Single,
    /// Weights kept on the GPU whose compute is negligible beside the rest
    /// (a text encoder run once over a short prompt).
    Resident,
}

/// One stage of a generator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AudioStage {
    /// e.g. "lm", "flow", "vocoder".
    pub name: String,
    pub method: StageMethod,
    pub params: f64,
    /// Transformer depth and width, where the sources give them: the KV
    /// cache of an autoregressive stage, the attention of an iterative one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layers: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kv_heads: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_dim: Option<u32>,
    /// Autoregressive: decoder steps per second of audio. Iterative and
    /// single: frames per second of audio the pass runs over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frames_per_second: Option<f64>,
    /// Steps a clip takes beyond its frames (MusicGen's delay pattern:
    /// codebooks − 1).
    #[serde(skip_serializing_if = "is_zero")]
    pub extra_steps: u32,
    /// Passes of an iterative stage by default (NFE, diffusion steps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u32>,
    /// Classifier-free guidance: a conditional and an unconditional pass
    /// per step, as a doubled batch.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub guidance: bool,
    /// The stage always runs over the model's whole window
    /// (`AudioGenerator::max_seconds`), whatever the clip's length, and the
    /// clip is cut from it: Stable Audio Open's DiT over its 47 s of
    /// latents, MAGNeT over its segment.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fixed_window: bool,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A speech or music generator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AudioGenerator {
    pub output: AudioOutput,
    pub stages: Vec<AudioStage>,
    /// The longest clip it generates in one go; longer clips are made in
    /// segments of this length.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
    /// Stages the data names but cannot size (a codec's decoder or a
    /// vocoder whose size no source read states): left out of the memory
    /// and the time, and named in the speed's notes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsized_stages: Vec<String>,
}

/// The clip length a task starts with when the link names none: a
/// sentence or two of speech (Bark's generation.py caps one generation at
/// about 13–14 s; TTS front-ends split text into sentences), and for music
/// the length MusicGen was trained on and generates in one go (30 s,
/// audiocraft docs/MUSICGEN.md).
pub const fn default_clip_seconds(output: AudioOutput) -> f64 {
    match output {
        AudioOutput::Speech => 10.0,
        AudioOutput::Music => 30.0,
    }
}

/// The link's range for the clip length (`secs`): a tenth of a second to
/// an hour in one piece.
pub const CLIP_SECONDS: (&str, f64, f64) = (super::keys::CLIP_SECONDS, 0.1, 3_600.0);

/// A transformer stage's depth and width where the sources give only its
/// parameters: 12 × layers × width² parameters (attention 4 w², MLP 8 w²)
/// at about 64 width per layer, the aspect of GPT-2 medium (24 × 1,024)
/// and MusicGen medium (48 × 1,536 is 32 per layer; large 48 × 2,048, 43).
/// Used only for stages without a `layers`/`hidden` in the data.
const WIDTH_PER_LAYER: f64 = 64.0;

impl AudioStage {
    /// (layers, width), from the data or else from the parameters.
    pub fn depth_and_width(&self) -> (f64, f64) {
        match (self.layers, self.hidden) {
            (Some(layers), Some(hidden)) => (f64::from(layers), f64::from(hidden)),
            (layers, hidden) => {
                let width = hidden.map_or((self.params * WIDTH_PER_LAYER / 12.0).cbrt(), f64::from);
                let layers = layers.map_or((self.params / (12.0 * width * width)).max(1.0), f64::from);
                (layers, width)
            }
        }
    }

    /// KV-cache bytes per decoded step of one sequence at 16 bits: K and V
    /// per layer, `kv_heads` × `head_dim` wide (the width where the sources
    /// give no KV heads: multi-head attention).
    pub fn kv_bytes_per_step_16bit(&self) -> f64 {
        let (layers, width) = self.depth_and_width();
        let width = match (self.kv_heads, self.head_dim) {
            (Some(heads), Some(dim)) => f64::from(heads) * f64::from(dim),
            _ => width,
        };
        2.0 * layers * width * 2.0
    }

    /// Decoder steps of an autoregressive stage, or frames of a pass, over
    /// `seconds` of audio.
    pub fn frames(&self, seconds: f64) -> f64 {
        self.frames_per_second.unwrap_or(0.0) * seconds + f64::from(self.extra_steps)
    }

    /// Passes per step: two under classifier-free guidance.
    pub fn guidance_factor(&self) -> f64 {
        if self.guidance {
            2.0
        } else {
            1.0
        }
    }
}

impl AudioGenerator {
    pub fn params(&self) -> f64 {
        self.stages.iter().map(|s| s.params).sum()
    }

    /// The seconds one generation covers for a clip of `clip_s`: the clip,
    /// or the model's longest segment.
    pub fn segment_seconds(&self, clip_s: f64) -> f64 {
        self.max_seconds.map_or(clip_s, |max| clip_s.min(max))
    }

    /// The seconds of audio `stage` runs over to make a segment of
    /// `segment_s`: the segment, or the whole window of a fixed-window stage.
    pub fn stage_seconds(&self, stage: &AudioStage, segment_s: f64) -> f64 {
        match (stage.fixed_window, self.max_seconds) {
            (true, Some(window)) => window,
            _ => segment_s,
        }
    }

    /// Generations a clip of `clip_s` takes: one per segment, whole ones for
    /// a model whose stage runs over a fixed window (a 60 s clip of a 47 s
    /// model is two windows), a fraction of the last otherwise.
    pub fn segments(&self, clip_s: f64) -> f64 {
        let segments = clip_s / self.segment_seconds(clip_s);
        if self.stages.iter().any(|s| s.fixed_window) {
            segments.ceil()
        } else {
            segments
        }
    }
}

crate::json_names!(AudioOutput { Speech = "speech", Music = "music" });

crate::json_names!(StageMethod {
    Autoregressive = "autoregressive",
    Iterative = "iterative",
    Single = "single",
    Resident = "resident",
});

impl FromJson for AudioStage {
    fn from_json(value: Json<'_>) -> Result<AudioStage, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(AudioStage {
            name: f.required("name")?,
            method: f.required("method")?,
            params: f.required("params")?,
            layers: f.optional("layers")?,
            hidden: f.optional("hidden")?,
            kv_heads: f.optional("kv_heads")?,
            head_dim: f.optional("head_dim")?,
            frames_per_second: f.optional("frames_per_second")?,
            extra_steps: f.defaulted("extra_steps")?,
            steps: f.optional("steps")?,
            guidance: f.defaulted("guidance")?,
            fixed_window: f.defaulted("fixed_window")?,
        })
    }
}

impl FromJson for AudioGenerator {
    fn from_json(value: Json<'_>) -> Result<AudioGenerator, JsonError> {
        let mut f = Fields::of(value)?;
        Ok(AudioGenerator {
            output: f.required("output")?,
            stages: f.required("stages")?,
            max_seconds: f.optional("max_seconds")?,
            unsized_stages: f.defaulted("unsized_stages")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audio_names_read_back() {
        use crate::engine::json::assert_names_read_back;
        assert_names_read_back(&[AudioOutput::Speech, AudioOutput::Music]);
        assert_names_read_back(&[
            StageMethod::Autoregressive,
            StageMethod::Iterative,
            StageMethod::Single,
            StageMethod::Resident,
        ]);
    }
}
