//! The memory line above the bar: what one GPU holds, part by part.

use crate::engine::memory::MemoryBreakdown;
use crate::msg;
use crate::text::{phrases, Arg, Lang};

/// "Needs 17.6 GiB on one GPU: weights 14.2 GiB, …", or per GPU when the job
/// spans several; only the parts this task has (training has no KV cache,
/// serving no optimizer).
pub fn memory_summary(memory: &MemoryBreakdown, lang: Lang) -> String {
    let parts: Vec<String> = memory
        .parts()
        .into_iter()
        .filter(|(_, bytes)| *bytes > 0.0)
        .map(|(name, bytes)| msg!(phrases::NAMED_SIZE, name = name, size = Arg::Bytes(bytes)).render(lang))
        .collect();
    let total = Arg::Bytes(memory.per_gpu_bytes);
    let summary = if memory.gpu_count > 1 {
        msg!(phrases::MEMORY_PER_GPU, count = memory.gpu_count, total = total, parts = parts.join(", "))
    } else {
        msg!(phrases::MEMORY_ONE_GPU, total = total, parts = parts.join(", "))
    };
    // Training says how it keeps its weights and optimizer state.
    match memory.recipe {
        Some(recipe) => msg!(phrases::MEMORY_WITH_RECIPE, memory = summary, recipe = recipe.label()).render(lang),
        None => summary.render(lang),
    }
}

/// Card sizes the memory bar is measured against (GiB): 24 (RTX 4090, L4,
/// A10), 48 (L40S, A6000), 80 (A100, H100), 141 (H200), 192 (B200, MI300X).
const CARD_SIZES_GB: [f64; 5] = [24.0, 48.0, 80.0, 141.0, 192.0];

/// The memory one GPU needs as a stacked bar against common card sizes, in
/// words and places (percentages of the bar's width): what the page draws
/// (src/ui/memory_bar.rs) and its first result's copy writes
/// (`first_result`).
pub struct MemoryBar {
    /// The figure's text for screen readers.
    pub label: String,
    pub segments: Vec<Segment>,
    pub ticks: Vec<Tick>,
    /// Each part's swatch class and its name and size.
    pub legend: Vec<(String, String)>,
}

/// One part of the bar: its class (the colour), left edge and width, and
/// its name and size as a tooltip.
pub struct Segment {
    pub class: String,
    pub x: String,
    pub width: String,
    pub title: String,
}

/// A card size's tick: where, and its label.
pub struct Tick {
    pub x: String,
    pub label: String,
}

/// The class that colours part `i` (in `MemoryBreakdown::parts` order) in
/// the bar and its legend swatch (style/main.css `.part-0` …): a class, not
/// an inline style, which the page's Content-Security-Policy refuses. The
/// legend names every part with its size, so colour is never the only signal.
fn part_class(i: usize) -> String {
    format!("part part-{i}")
}

impl MemoryBar {
    pub fn of(memory: &MemoryBreakdown, lang: Lang) -> MemoryBar {
        use crate::units::BYTES_PER_GB;
        let per_gpu_gb = memory.per_gpu_bytes / BYTES_PER_GB;
        // The parts are totals over the GPUs; scale them to one GPU's share.
        let scale = if memory.total_bytes > 0.0 { memory.per_gpu_bytes / memory.total_bytes } else { 0.0 };
        let parts: Vec<(usize, &'static crate::text::Phrase, f64)> = memory
            .parts()
            .into_iter()
            .enumerate()
            .filter(|(_, (_, bytes))| *bytes > 0.0)
            .map(|(i, (name, bytes))| (i, name, bytes * scale / BYTES_PER_GB))
            .collect();
        // The axis reaches the first card size past the need (or the need).
        let axis_gb =
            CARD_SIZES_GB.iter().copied().find(|size| *size >= per_gpu_gb).unwrap_or(per_gpu_gb).max(24.0) * 1.05;
        let x = |gb: f64| format!("{:.2}%", gb / axis_gb * 100.0);
        let mut offset = 0.0;
        let segments = parts
            .iter()
            .map(|&(i, name, gb)| {
                let start = offset;
                offset += gb;
                Segment {
                    class: part_class(i),
                    x: x(start),
                    width: x(gb),
                    title: msg!(phrases::PART_SIZE, part = name, size = Arg::Bytes(gb * BYTES_PER_GB)).render(lang),
                }
            })
            .collect();
        let sizes: Vec<f64> = CARD_SIZES_GB.iter().copied().filter(|size| *size <= axis_gb).collect();
        let ticks =
            sizes.iter().zip(tick_labels(&sizes, lang)).map(|(&size, label)| Tick { x: x(size), label }).collect();
        let legend = parts
            .iter()
            .map(|&(i, name, gb)| {
                let said = msg!(phrases::NAMED_SIZE, name = name, size = Arg::Bytes(gb * BYTES_PER_GB)).render(lang);
                (format!("swatch {}", part_class(i)), said)
            })
            .collect();
        MemoryBar {
            label: msg!(phrases::MEMORY_BAR_LABEL, need = Arg::Bytes(memory.per_gpu_bytes)).render(lang),
            segments,
            ticks,
            legend,
        }
    }
}

/// The memory bar's tick labels for card sizes `sizes_gib`: the unit on
/// the last only ("24", "48", "80 GiB"), so that close ticks on a phone do
/// not run into each other (issue 40: "24 GB48 GB").
pub fn tick_labels(sizes_gib: &[f64], lang: Lang) -> Vec<String> {
    let last = sizes_gib.len().saturating_sub(1);
    let bytes = |gib: f64| gib * crate::units::BYTES_PER_GB;
    sizes_gib
        .iter()
        .enumerate()
        .map(|(i, &gib)| if i == last { lang.gb(bytes(gib)) } else { lang.number(gib, 0) })
        .collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {

    #[test]
    fn the_bar_places_each_part_in_turn_against_the_card_sizes_past_the_need() {
        let serving = MemoryBreakdown::each_gpu_holds(15.0 * BYTES_PER_GB, 0.0, 0.25 * BYTES_PER_GB, BYTES_PER_GB, 1);
        let bar = MemoryBar::of(&serving, Lang::En);
        // 16.25 GiB against a 24 GiB card: the axis reaches 24 × 1.05.
        let places: Vec<(&str, &str)> = bar.segments.iter().map(|s| (s.x.as_str(), s.width.as_str())).collect();
        assert_eq!(places, [("0.00%", "59.52%"), ("59.52%", "0.99%"), ("60.52%", "3.97%")]);
        assert_eq!(bar.segments[0].class, "part part-0");
        assert_eq!(bar.segments[0].title, "weights: 15 GiB");
        assert_eq!(bar.ticks.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(), ["24 GiB"]);
        assert_eq!(bar.legend[2], ("swatch part part-6".to_string(), "runtime 1 GiB".to_string()));
        assert!(bar.label.starts_with("16.2 GiB per GPU"), "{}", bar.label);
        // A need past the largest card: the axis is the need, every card a tick.
        let huge = MemoryBar::of(&MemoryBreakdown::each_gpu_holds(400.0 * BYTES_PER_GB, 0.0, 0.0, 0.0, 1), Lang::En);
        assert_eq!(huge.ticks.len(), 5);
        assert_eq!(huge.segments[0].width, "95.24%");
    }

    #[test]
    fn the_bar_names_the_unit_once_on_its_last_tick() {
        assert_eq!(super::tick_labels(&[24.0, 48.0, 80.0], Lang::En), ["24", "48", "80 GiB"]);
        assert_eq!(super::tick_labels(&[24.0], Lang::Es), ["24 GiB"]);
        assert!(super::tick_labels(&[], Lang::En).is_empty());
    }
    use super::*;
    use crate::units::BYTES_PER_GB;

    #[test]
    fn the_memory_line_names_the_parts_a_task_has_per_gpu_when_it_spans_several() {
        let serving = MemoryBreakdown::each_gpu_holds(
            14.0 * BYTES_PER_GB,
            2.0 * BYTES_PER_GB,
            0.5 * BYTES_PER_GB,
            BYTES_PER_GB,
            1,
        );
        let said = memory_summary(&serving, Lang::En);
        assert_eq!(
            said,
            "Memory on one GPU: 17.5 GiB (weights 14 GiB, KV cache 2 GiB, activations 0.5 GiB, runtime 1 GiB)"
        );
        let split = MemoryBreakdown::each_gpu_holds(35.0 * BYTES_PER_GB, 0.0, 0.0, BYTES_PER_GB, 4);
        let per_gpu = memory_summary(&split, Lang::En);
        assert!(per_gpu.contains('4') && per_gpu.contains("36 GiB") && !per_gpu.contains("KV"), "{per_gpu}");
        assert_ne!(memory_summary(&split, Lang::Es), per_gpu);
    }

    #[test]
    fn a_training_memory_line_says_which_recipe_it_assumes() {
        use crate::engine::TrainingRecipe;
        let training = |recipe| MemoryBreakdown { recipe, ..MemoryBreakdown::each_gpu_holds(1e9, 0.0, 0.0, 0.0, 1) };
        let mixed = memory_summary(&training(Some(TrainingRecipe::Mixed)), Lang::En);
        assert!(mixed.contains("FP32 master weights"), "{mixed}");
        let pure = memory_summary(&training(Some(TrainingRecipe::PureBf16)), Lang::Es);
        assert!(pure.contains("BF16 puro"), "{pure}");
        assert!(!memory_summary(&training(None), Lang::En).contains("master"));
    }
}
