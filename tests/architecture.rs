//! The shape of the tree (issue 22): no two source files import each other,
//! directly or around a loop. A file "imports" another when it names an item
//! that file defines: a `use`, a path such as `crate::engine::memory::fit` or
//! `super::Speed`, or a child module's name (`llm::serving_speed`). Names
//! re-exported by a `use` are followed to the file that defines them.
//!
//! A cycle means neither file can be read, tested or changed alone; the fix
//! is usually to move the shared types into a file of their own that both
//! import. `tests.rs` files are left out: nothing imports a test.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from the crate root, e.g. `["engine", "speed", "llm"]`.
type ModPath = Vec<String>;

struct Tree {
    /// Each module backed by a file, with the file.
    files: BTreeMap<ModPath, PathBuf>,
    /// Each module's code, comments and string literals removed.
    code: BTreeMap<ModPath, String>,
    /// (module, name) → the path a `use` in that module gives the name.
    aliases: BTreeMap<(ModPath, String), ModPath>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Reads `file` as module `path`, and the child modules it declares with
/// `mod name;`.
fn read(tree: &mut Tree, path: ModPath, file: PathBuf) {
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let code = without_test_modules(&strip(&text));
    let dir = if file.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") {
        file.parent().unwrap().to_path_buf()
    } else {
        file.with_extension("")
    };
    for child in declared_modules(&code) {
        let candidates = [dir.join(format!("{child}.rs")), dir.join(&child).join("mod.rs")];
        if let Some(child_file) = candidates.into_iter().find(|f| f.exists()) {
            if child_file.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let mut child_path = path.clone();
            child_path.push(child);
            read(tree, child_path, child_file);
        }
    }
    for (name, target) in use_declarations(&code) {
        tree.aliases.insert((path.clone(), name), target);
    }
    tree.files.insert(path.clone(), file);
    tree.code.insert(path, code);
}

/// The text without comments, string and char literals (doc links and
/// messages name paths that are not imports).
fn strip(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'r' if bytes.get(i + 1) == Some(&b'#') || (bytes.get(i + 1) == Some(&b'"')) => {
                // A raw string r"…" or r#"…"#, unless `r` ends an identifier.
                let ident_before = i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
                let hashes = bytes[i + 1..].iter().take_while(|&&b| b == b'#').count();
                if ident_before || bytes.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                i += 2 + hashes;
                while i < bytes.len() && !bytes[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') || bytes.get(i + 1) == Some(&b'\\') => {
                // A char literal ('a', '\n', '\u{..}'); a lifetime has no closing quote.
                i += 1;
                while i < bytes.len() && bytes[i] != b'\'' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            _ => {
                // Copy one whole UTF-8 character.
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[i..i + len]);
                i += len;
            }
        }
    }
    out
}

/// The code without its inline test modules (`#[cfg(test)] mod tests { … }`
/// and `#[cfg(all(test, …))]`): tests may use anything. Only a module named
/// `tests` is left out, as a `tests.rs` file is: an inline module of another
/// name (a `catalog_tests` beside the code) counts as the file's own imports.
fn without_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(") {
        let attribute_end = rest[at..].find(']').map_or(rest.len(), |e| at + e + 1);
        let attribute = &rest[at..attribute_end];
        let after = rest[attribute_end..].trim_start();
        let is_test_module = (attribute.starts_with("#[cfg(test") || attribute.starts_with("#[cfg(all(test"))
            && after.starts_with("mod tests")
            && after.split_once('{').is_some_and(|(head, _)| !head.contains(';'));
        if !is_test_module {
            out.push_str(&rest[..attribute_end]);
            rest = &rest[attribute_end..];
            continue;
        }
        out.push_str(&rest[..at]);
        let open = attribute_end + rest[attribute_end..].find('{').unwrap();
        let mut depth = 0;
        let mut end = rest.len();
        for (i, c) in rest[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// `mod name;` declarations (file-backed children).
fn declared_modules(code: &str) -> Vec<String> {
    let words: Vec<&str> = code.split(|c: char| c.is_whitespace()).filter(|w| !w.is_empty()).collect();
    words
        .windows(2)
        .filter(|pair| pair[0] == "mod" && pair[1].ends_with(';'))
        .map(|pair| pair[1].trim_end_matches(';').to_string())
        .collect()
}

/// Every `use` declaration, as (name it binds, full path). Globs bind `*`.
fn use_declarations(code: &str) -> Vec<(String, ModPath)> {
    uses(code, true)
}

/// The `use` declarations, with or without re-exports (`pub use`, which
/// only pass a name on and import nothing for the file's own code).
fn uses(code: &str, with_reexports: bool) -> Vec<(String, ModPath)> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        let reexport = rest[..at].trim_end().ends_with("pub") || rest[..at].trim_end().ends_with(')');
        if with_reexports || !reexport {
            expand_use_tree(&compact(&after[..end]), &[], &mut found);
        }
        rest = &after[end..];
    }
    found
}

/// A use tree on one line, spaces kept only inside `x as y`.
fn compact(tree: &str) -> String {
    let words = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::new();
    for (i, c) in words.char_indices() {
        let next = words[i + 1..].chars().next();
        let prev = out.chars().next_back();
        let by_punct = |c: Option<char>| c.is_some_and(|c| matches!(c, ':' | '{' | '}' | ','));
        if c == ' ' && (by_punct(next) || by_punct(prev)) {
            continue;
        }
        out.push(c);
    }
    out
}

/// Expands `a::{b, c::{d as e}}` into paths.
fn expand_use_tree(tree: &str, prefix: &[String], out: &mut Vec<(String, ModPath)>) {
    for part in split_top_level(tree) {
        if let Some(open) = part.find('{') {
            let head: ModPath = part[..open].split("::").filter(|s| !s.is_empty()).map(str::to_string).collect();
            let mut path = prefix.to_vec();
            path.extend(head);
            expand_use_tree(&part[open + 1..part.rfind('}').unwrap_or(part.len())], &path, out);
        } else {
            let (path_text, rename) = match part.split_once(" as ") {
                Some((p, r)) => (p, Some(r)),
                None => (part, None),
            };
            let mut path = prefix.to_vec();
            path.extend(path_text.split("::").filter(|s| !s.is_empty()).map(str::to_string));
            let Some(last) = path.last().cloned() else { continue };
            let name = if last == "self" {
                path.pop();
                path.last().cloned().unwrap_or_default()
            } else {
                rename.map_or(last, str::to_string)
            };
            out.push((name, path));
        }
    }
}

/// Splits at commas outside braces.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().filter(|p| !p.is_empty()).collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The first position of `word` standing alone.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(word) {
        let at = from + found;
        let before = text[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = text[at + word.len()..].chars().next().is_none_or(|c| !is_ident(c));
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Every path of two or more segments in the code (`a::b::c`), and the
/// paths of its `use` declarations but re-exports.
fn paths_in(code: &str) -> Vec<ModPath> {
    let code_without_uses = without_uses(code);
    let mut paths: Vec<ModPath> = uses(code, false).into_iter().map(|(_, path)| path).collect();
    let code = code_without_uses.as_str();
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if is_ident(chars[i]) && (i == 0 || (!is_ident(chars[i - 1]) && chars[i - 1] != ':')) {
            let mut path = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < chars.len() && is_ident(chars[j]) {
                    j += 1;
                }
                path.push(chars[start..j].iter().collect::<String>());
                if j + 2 < chars.len() && chars[j] == ':' && chars[j + 1] == ':' && is_ident(chars[j + 2]) {
                    j += 2;
                } else {
                    break;
                }
            }
            if path.len() > 1 {
                paths.push(path);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    paths
}

/// The code with its `use` declarations blanked (their paths are read as
/// declarations, re-exports apart).
fn without_uses(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').map_or(rest.len(), |e| at + e + 1);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

impl Tree {
    fn load() -> Tree {
        let mut tree = Tree { files: BTreeMap::new(), code: BTreeMap::new(), aliases: BTreeMap::new() };
        read(&mut tree, Vec::new(), src().join("lib.rs"));
        tree
    }

    /// The module that defines what `path`, written in module `from`,
    /// names; `None` for other crates and the standard library.
    fn resolve(&self, from: &ModPath, path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 || path.is_empty() {
            return None;
        }
        let mut at: ModPath = match path[0].as_str() {
            "crate" | "whichgpu" => Vec::new(),
            "self" => from.clone(),
            "super" => from[..from.len().checked_sub(1)?].to_vec(),
            _ => from.clone(),
        };
        let mut rest =
            if matches!(path[0].as_str(), "crate" | "whichgpu" | "self" | "super") { &path[1..] } else { path };
        while let Some(first) = rest.first() {
            if first == "super" {
                at.pop();
                rest = &rest[1..];
                continue;
            }
            let mut child = at.clone();
            child.push(first.clone());
            if self.files.contains_key(&child) {
                at = child;
                rest = &rest[1..];
                continue;
            }
            if let Some(target) = self.aliases.get(&(at.clone(), first.clone())) {
                let mut full = target.clone();
                full.extend(rest[1..].iter().cloned());
                return self.resolve(&at, &full, depth + 1);
            }
            break;
        }
        // A path that started with an unknown name (another crate, a local
        // variable's method) names nothing here; one that names a whole
        // module (`use super::memory;`) imports nothing until an item of
        // it is named, and that path is read on its own.
        let relative = !matches!(path[0].as_str(), "crate" | "whichgpu" | "self" | "super");
        if (relative && at == *from && rest.len() == path.len()) || rest.is_empty() {
            return None;
        }
        Some(at)
    }

    /// File → the files it imports.
    fn imports(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        self.imports_with_examples().into_iter().map(|(m, targets)| (m, targets.into_keys().collect())).collect()
    }

    /// File → each file it imports, with the first path that does.
    fn imports_with_examples(&self) -> BTreeMap<ModPath, BTreeMap<ModPath, String>> {
        let mut edges = BTreeMap::new();
        for (module, code) in &self.code {
            let mut targets = BTreeMap::new();
            for path in paths_in(code) {
                if let Some(target) = self.resolve(module, &path, 0) {
                    if target != *module {
                        targets.entry(target).or_insert_with(|| path.join("::"));
                    }
                }
            }
            edges.insert(module.clone(), targets);
        }
        edges
    }
}

fn name(tree: &Tree, module: &ModPath) -> String {
    tree.files[module].strip_prefix(src()).unwrap().display().to_string()
}

/// Strongly connected groups of more than one file (Tarjan's algorithm).
fn cycles(edges: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<ModPath>> {
    struct State<'a> {
        edges: &'a BTreeMap<ModPath, BTreeSet<ModPath>>,
        index: BTreeMap<&'a ModPath, usize>,
        low: BTreeMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        groups: Vec<Vec<ModPath>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a ModPath) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on_stack.insert(v);
        for w in s.edges.get(v).into_iter().flatten() {
            if !s.edges.contains_key(w) {
                continue;
            }
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.on_stack.contains(w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on_stack.remove(w);
                group.push(w.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                s.groups.push(group);
            }
        }
    }
    let mut state = State {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for v in edges.keys() {
        if !state.index.contains_key(v) {
            visit(&mut state, v);
        }
    }
    state.groups
}

#[test]
fn no_two_source_files_import_each_other() {
    let tree = Tree::load();
    let examples = tree.imports_with_examples();
    let found: Vec<String> = cycles(&tree.imports())
        .iter()
        .map(|group| {
            let mut lines = Vec::new();
            for from in group {
                for (to, path) in &examples[from] {
                    if group.contains(to) {
                        lines.push(format!("    {} → {} ({path})", name(&tree, from), name(&tree, to)));
                    }
                }
            }
            lines.sort();
            lines.join("\n")
        })
        .collect();
    assert!(
        found.is_empty(),
        "import cycles between source files (each import with the path that makes it):\n{}",
        found.join("\n\n")
    );
}

/// The checker itself: it sees the kinds of import the tree uses, and a
/// loop made of them.
#[test]
fn the_checker_sees_uses_paths_children_and_reexports() {
    let tree = Tree::load();
    let edges = tree.imports();
    let imports = |from: &[&str], to: &[&str]| {
        let from: ModPath = from.iter().map(|s| s.to_string()).collect();
        let to: ModPath = to.iter().map(|s| s.to_string()).collect();
        edges[&from].contains(&to)
    };
    // `use super::{Model, …}` in engine/cost.rs: Model is re-exported by
    // engine/mod.rs from engine/catalog.rs.
    assert!(imports(&["engine", "cost"], &["engine", "catalog"]));
    // A path in the code: the CLI calls crate::engine::rank.
    assert!(imports(&["cli"], &["engine", "ranking"]));
    // A child module's name: speed/mod.rs calls llm::….
    assert!(imports(&["engine", "speed"], &["engine", "speed", "llm"]));

    let mut looped = edges.clone();
    looped
        .get_mut(&vec!["engine".to_string(), "catalog".to_string()])
        .unwrap()
        .insert(vec!["engine".to_string(), "cost".to_string()]);
    assert!(!cycles(&looped).is_empty());

    // Comments and strings are not code.
    assert_eq!(strip("a // crate::x\n\"crate::y\" r#\"crate::z\"# 'c' b"), "a \n\"\" \"\" ' ' b");
    let uses = use_declarations("use super::{a::{B, C as D}, e};");
    let names: Vec<&str> = uses.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["B", "D", "e"]);
}
