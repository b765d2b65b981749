//! The Hugging Face Hub: a repo id ("Qwen/Qwen2.5-Coder-32B-Instruct")
//! turned into the URLs of its public `config.json` and safetensors index,
//! and the Hub's answers into messages. The page fetches them only when
//! the user presses the button (src/ui/model_import.rs): the one request
//! it ever makes beyond its own site, which its Content-Security-Policy
//! allows for this origin alone (`connect-src 'self' https://huggingface.co`).

use super::ImportError;

/// The Hub's origin. The release build talks to it and nothing else; the
/// end-to-end tests answer for it from a loopback server.
pub const HUB_ORIGIN: &str = "https://huggingface.co";

/// The longest repo id the Hub accepts (96 characters for the name, plus
/// the owner).
const LONGEST_ID: usize = 140;

/// A repo id as the Hub spells it: `owner/name`, letters, digits and
/// `-_.`; a pasted model URL (`https://huggingface.co/owner/name`) is read
/// as its id.
pub fn repo_id(given: &str) -> Result<String, ImportError> {
    let trimmed = given.trim();
    let id =
        trimmed.strip_prefix(HUB_ORIGIN).map_or(trimmed, |rest| rest.trim_start_matches('/')).trim_end_matches('/');
    // A URL of a file or tree inside the repo: the first two parts.
    let mut parts = id.split('/');
    let (Some(owner), Some(name)) = (parts.next(), parts.next()) else {
        return Err(bad_id(given));
    };
    let allowed = |part: &str| {
        !part.is_empty()
            && !part.starts_with(['.', '-'])
            && !part.contains("..")
            && part.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    };
    let rest_is_a_path = parts.next().is_none_or(|next| matches!(next, "tree" | "blob" | "resolve"));
    if allowed(owner) && allowed(name) && rest_is_a_path && owner.len() + name.len() < LONGEST_ID {
        Ok(format!("{owner}/{name}"))
    } else {
        Err(bad_id(given))
    }
}

fn bad_id(given: &str) -> ImportError {
    ImportError::HubBadId { given: crate::model_search::echo(given) }
}

/// The URL of a file on the repo's main branch, under `origin` (the Hub's).
pub fn file_url(origin: &str, repo: &str, file: &str) -> String {
    format!("{origin}/{repo}/resolve/main/{file}")
}

/// What the Hub's answer of `status` to the config's request means.
pub fn config_status(repo: &str, status: u16) -> Result<(), ImportError> {
    match status {
        200..=299 => Ok(()),
        // The Hub answers 401 for a gated or private repo without a
        // signed-in token, and for one that does not exist (so as not to
        // tell the two apart); 403 when the terms were not accepted.
        401 | 403 => Err(ImportError::HubDenied { repo: repo.to_string() }),
        404 => Err(ImportError::HubNotFound { repo: repo.to_string() }),
        other => Err(ImportError::HubUnreachable { detail: format!("HTTP {other}") }),
    }
}

/// Whether the index's answer gives an index: a repo without one (a single
/// `model.safetensors`, or .bin weights) answers 404, and is sized from
/// its parameters.
pub fn index_found(status: u16) -> bool {
    (200..=299).contains(&status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_or_a_model_url_is_read_as_owner_and_name() {
        for (given, id) in [
            ("Qwen/Qwen2.5-Coder-32B-Instruct", "Qwen/Qwen2.5-Coder-32B-Instruct"),
            ("  meta-llama/Llama-3.1-8B ", "meta-llama/Llama-3.1-8B"),
            ("https://huggingface.co/openai/gpt-oss-20b", "openai/gpt-oss-20b"),
            ("https://huggingface.co/openai/gpt-oss-20b/tree/main", "openai/gpt-oss-20b"),
            ("https://huggingface.co/google/gemma-3-4b-it/blob/main/config.json", "google/gemma-3-4b-it"),
        ] {
            assert_eq!(repo_id(given), Ok(id.to_string()), "{given}");
        }
        for given in
            ["", "llama", "a/b/c", "../etc/passwd", "a/..", "owner/na me", "https://evil.example/a/b", "a/b?x=1"]
        {
            assert!(matches!(repo_id(given), Err(ImportError::HubBadId { .. })), "{given}");
        }
        assert_eq!(
            file_url(HUB_ORIGIN, "openai/gpt-oss-20b", "config.json"),
            "https://huggingface.co/openai/gpt-oss-20b/resolve/main/config.json"
        );
    }

    #[test]
    fn the_hubs_answers_are_said_as_what_to_do() {
        assert_eq!(config_status("a/b", 200), Ok(()));
        assert_eq!(config_status("a/b", 401), Err(ImportError::HubDenied { repo: "a/b".into() }));
        assert_eq!(config_status("a/b", 403), Err(ImportError::HubDenied { repo: "a/b".into() }));
        assert_eq!(config_status("a/b", 404), Err(ImportError::HubNotFound { repo: "a/b".into() }));
        assert!(matches!(config_status("a/b", 503), Err(ImportError::HubUnreachable { .. })));
        assert!(index_found(200) && !index_found(404));
    }
}
