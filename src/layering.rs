//! The import graph between a folder's Rust files, read from their text: a test helper the
//! layering tidy tests of `src/ui` (`ui/layering.rs`) and `src/cli` (`cli/layering.rs`) share.
//!
//! Edges are read as `python3 /work/shared/tools/rs_cycles.py` reads them: every
//! `crate::<folder>::a::b` path and every `super::` path outside `#[cfg(test)]` modules ties a
//! file to the file of the longest module prefix that exists. A parent naming its own child
//! (`mod draw;` then `draw::X`) is not an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A folder of the crate's modules (`ui`, `cli`), read as one graph.
pub struct Tree {
    /// The module name under `crate::` (`crate::ui::...`).
    pub name: &'static str,
    /// Every `.rs` file under `src/<name>`, by its path relative to it, with its text.
    pub files: BTreeMap<String, String>,
}

impl Tree {
    /// Reads `src/<name>` of this crate.
    pub fn read(name: &'static str) -> Tree {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(name);
        let mut files = BTreeMap::new();
        walk(&dir, &dir, &mut files);
        Tree { name, files }
    }

    /// Each file's edges to other files of the tree (by relative path).
    pub fn edges(&self) -> BTreeMap<String, BTreeSet<String>> {
        edges(&self.files, self.name)
    }
}

fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
    for e in std::fs::read_dir(dir).expect("the source folder is readable").flatten() {
        let p: PathBuf = e.path();
        if p.is_dir() {
            walk(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
            out.insert(rel, std::fs::read_to_string(&p).expect("readable"));
        }
    }
}

/// The module path of a file (`timeline/draw.rs` -> [timeline, draw]; `mod.rs` -> its folder).
pub fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` without line comments and without `#[cfg(test)] mod name { ... }` blocks.
pub fn code_of(text: &str) -> String {
    let no_comments: String = text
        .lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = String::new();
    let mut rest = no_comments.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let is_mod = after["#[cfg(test)]".len()..].trim_start().starts_with("mod ");
        let Some(open) = after.find('{').filter(|_| is_mod) else {
            out.push_str("#[cfg(test)]");
            rest = &after["#[cfg(test)]".len()..];
            continue;
        };
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
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
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The paths a file's code names: `crate::<tree>::...` and `super::...` resolved from `module`.
pub fn named_paths(code: &str, module: &[String], tree: &str) -> Vec<Vec<String>> {
    let prefix = format!("crate::{tree}::");
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect::<String>();
    let mut out = Vec::new();
    for (i, _) in code.match_indices(prefix.as_str()) {
        let path = ident(&code[i + prefix.len()..]);
        out.push(path.split("::").filter(|s| !s.is_empty()).map(String::from).collect());
    }
    for (i, _) in code.match_indices("super::") {
        let before = code[..i].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let mut rest = &code[i..];
        let mut base = module.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        base.extend(ident(rest).split("::").filter(|s| !s.is_empty()).map(String::from));
        out.push(base);
    }
    out
}

/// Each file's edges to other files (by relative path) of the tree `tree`.
pub fn edges(files: &BTreeMap<String, String>, tree: &str) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = files.keys().map(|f| (module_of(f), f.clone())).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, text) in files {
        let module = module_of(f);
        for path in named_paths(&code_of(text), &module, tree) {
            let target = (1..=path.len()).rev().find_map(|k| modules.get(&path[..k]));
            if let Some(t) = target.filter(|t| *t != f) {
                out.entry(f.clone()).or_default().insert(t.clone());
            }
        }
    }
    out
}

/// The files on an import circle, one list per circle (strongly connected groups > 1).
pub fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in edges.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let all: BTreeMap<&String, BTreeSet<String>> = nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for (n, r) in &all {
        let mut g: Vec<String> =
            r.iter().filter(|m| all.get(m).is_some_and(|back| back.contains(*n))).cloned().collect();
        if g.len() > 1 {
            g.sort();
            groups.insert(g);
        }
    }
    groups.into_iter().collect()
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    e.entry("a.rs".into()).or_default().insert("b/mod.rs".into());
    e.entry("b/mod.rs".into()).or_default().insert("a.rs".into());
    e.entry("c.rs".into()).or_default().insert("a.rs".into());
    assert_eq!(circles(&e), vec![vec!["a.rs".to_string(), "b/mod.rs".to_string()]]);
    // A `super::` path and a `crate::<tree>::` path are both read; test modules are not.
    let code =
        code_of("use super::b::X;\nfn f() { crate::ui::c::g() }\n#[cfg(test)]\nmod tests { use crate::ui::d; }\n");
    let got = named_paths(&code, &["a".to_string(), "x".to_string()], "ui");
    assert_eq!(
        got,
        vec![vec!["c".to_string(), "g".to_string()], vec!["a".to_string(), "b".to_string(), "X".to_string()]]
    );
    // Another tree's paths are not this one's.
    assert_eq!(named_paths(&code, &["a".to_string()], "cli"), vec![vec!["b".to_string(), "X".to_string()]]);
}

#[test]
fn a_files_edges_go_to_the_longest_existing_module() {
    let files: BTreeMap<String, String> = [
        ("mod.rs", "mod run;\nmod setup;\nfn main() { run::go() }"),
        ("run.rs", "use super::setup::Setup;\nuse super::CliError;\nfn f() { crate::cli::setup::x::y() }"),
        ("setup.rs", "//! nothing\nuse crate::engine::Config;"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    let e = edges(&files, "cli");
    // `super::CliError` is an item of the tree's root: like the root naming its children, not an edge.
    assert_eq!(e.get("run.rs"), Some(&BTreeSet::from(["setup.rs".to_string()])));
    assert!(!e.contains_key("mod.rs") && !e.contains_key("setup.rs"), "{e:?}");
}
