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
