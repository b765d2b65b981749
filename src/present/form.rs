//! The workload form's choices, in the page's language.

use crate::engine::options::Choice;
use crate::text::Lang;

/// An option enum's (URL value, label) pairs for a `<select>`, in the
/// order the form lists them.
pub fn options<T: Choice>(lang: Lang) -> Vec<(String, String)> {
    T::ALL.iter().map(|value| (value.key().to_string(), lang.t(value.label()).to_string())).collect()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::{KvPrecision, Precision, RuntimeChoice, Task};

    #[test]
    fn a_select_lists_every_value_by_its_link_spelling_and_its_label_in_the_pages_language() {
        let en = options::<KvPrecision>(Lang::En);
        assert_eq!(en.iter().map(|(key, _)| key.as_str()).collect::<Vec<_>>(), ["bf16", "fp16", "fp8", "int8"]);
        let tasks = options::<Task>(Lang::Es);
        assert_eq!(tasks.len(), Task::ALL.len());
        assert_ne!(tasks, options::<Task>(Lang::En));
        // Runtimes are names, the same in both languages; "automatic" is a word.
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[1..], options::<RuntimeChoice>(Lang::En)[1..]);
        assert_eq!(options::<RuntimeChoice>(Lang::Es)[0].1, "Automático, según la GPU");
        assert_eq!(options::<RuntimeChoice>(Lang::En)[2], ("trtllm".to_string(), "TensorRT-LLM".to_string()));
        // Every value reads back from its spelling, in any case.
        for (key, _) in options::<Precision>(Lang::En) {
            assert_eq!(key.to_uppercase().parse::<Precision>().unwrap().key(), key);
        }
        let unknown = "fp7".parse::<Precision>().unwrap_err();
        assert!(unknown.to_string().contains("\"fp7\"") && unknown.to_string().contains("q4_k_m"), "{unknown}");
    }
}
