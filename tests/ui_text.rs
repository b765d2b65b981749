//! Issue 7: no hard-coded words in components. Every word the page shows
//! comes from `src/text/phrases.rs`, in English and Spanish; a text node
//! written straight into a `view!` (`<p>"Loading"</p>`) would be shown in
//! English to every reader. Symbols and spacing (`" "`, `"▸"`) are fine.
#![cfg(not(target_arch = "wasm32"))]

use std::fs;

/// The string literals that start a text node: right after a tag's `>`.
fn text_nodes(source: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in source.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find('>') {
            // `=>` and `->` are Rust, not the end of a tag.
            let arrow = rest[..at].ends_with(['=', '-']);
            rest = &rest[at + 1..];
            if arrow {
                continue;
            }
            let trimmed = rest.trim_start();
            if let Some(literal) = trimmed.strip_prefix('"') {
                if let Some(end) = literal.find('"') {
                    let text = &literal[..end];
                    if text.chars().any(char::is_alphabetic) {
                        found.push(format!("line {}: \"{text}\"", number + 1));
                    }
                }
            }
        }
    }
    found
}

/// Every `.rs` file under `dir`, its folders (a component's parts) included.
fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn components_show_no_words_of_their_own() {
    let mut offenders = Vec::new();
    let files = rust_files(std::path::Path::new("src/ui"));
    assert!(files.iter().any(|f| f.ends_with("offers_table/pager.rs")), "the parts in folders are read too");
    for path in files {
        let source = fs::read_to_string(&path).unwrap();
        // `<h1>"whichgpu"</h1>` is the product's name, the same in every language.
        for found in text_nodes(&source).into_iter().filter(|f| !f.ends_with("\"whichgpu\"")) {
            offenders.push(format!("{}: {found}", path.display()));
        }
    }
    assert!(offenders.is_empty(), "hard-coded words, use a phrase: {offenders:#?}");
}

#[test]
fn the_check_finds_a_hard_coded_word() {
    let source = r#"view! { <p class="x">"Loading offers…"</p> <b>" "</b> } match x { A => "word", _ => "" }"#;
    assert_eq!(text_nodes(source), ["line 1: \"Loading offers…\""]);
}
