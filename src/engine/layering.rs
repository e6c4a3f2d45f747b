//! The layering of the engine, checked (tidy): no import circles between its files, and the
//! bottom layers name only what their rule allows.
//!
//! An edge is a path a file's code names (comments and `#[cfg(test)] mod` blocks left out):
//! `crate::engine::a::b`, `crate::a::b` (the engine is its own crate) and `super::a::b`
//! (a `{..}` group read item by item), tied to the file of the longest module prefix that
//! exists; the crate root (`mod.rs`) when none does. A child naming its parent's items
//! (`use super::{Workload, Step}` in `workload/pipe.rs`) is an edge; a parent naming its own
//! child (`mod pipe;` then `pipe::X`) is not. This is the reading of
//! `/work/shared/tools/rs_cycles.py` made stricter on the child-to-parent edges that tool
//! skips, since a circle through a parent is still a circle.
//!
//! The edge reader is the engine's own: `src/layering.rs` (the UI's and the CLI's) reads
//! `crate::<folder>::` paths and skips child-to-parent edges. The circle finder is that
//! file's `circles`, included by path (the engine crate depends on nothing but serde and
//! rand, so it cannot depend on the root crate that holds it).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

// Only `circles` is used here; the file's other readers are for the root crate's trees.
#[allow(dead_code)]
#[path = "../layering.rs"]
mod shared;
use shared::circles;

/// The layers under `sim`: per file (or folder, ending in `/`), the only engine files (or
/// folders) its code may name besides its own folder. Everything above may name them, so a
/// new import in one of these is where a new circle starts.
const RULES: &[(&str, &[&str])] = &[
    ("decimal.rs", &[]),
    ("time.rs", &["decimal.rs"]),
    ("order.rs", &[]),
    ("queue.rs", &["time.rs"]),
    ("rng.rs", &["time.rs"]),
    ("profile.rs", &["time.rs"]),
    // The config's value types name no one who reads a config.
    ("config/values.rs", &["time.rs"]),
    // The eras answer questions; they name the class they run, not the config.
    ("kernel.rs", &["time.rs", "profile.rs", "config/values.rs"]),
    ("config/mod.rs", &["time.rs", "profile.rs", "kernel.rs", "config/values.rs"]),
    // One row per key: it reads and writes a `Config`, below nothing but the config.
    ("config/keys.rs", &["time.rs", "profile.rs", "kernel.rs", "config/values.rs", "config/mod.rs"]),
    ("tables.rs", &[]),
    // A trace's vocabulary, then the records (spans only), then the recorder.
    ("trace/spans.rs", &["time.rs"]),
    ("explain/records.rs", &["time.rs", "order.rs", "idle.rs", "policy/mod.rs", "trace/spans.rs"]),
    ("trace/mod.rs", &["time.rs", "trace/spans.rs", "explain/records.rs"]),
    // The mechanisms `sim` drives know the config and the era, never the simulator or
    // each other.
    ("idle.rs", &["time.rs", "profile.rs", "config/"]),
    ("policy/", &["time.rs", "config/", "kernel.rs"]),
    ("workload/", &["time.rs", "rng.rs", "profile.rs", "config/", "kernel.rs"]),
];

/// Whether `rule`'s scope (a file, or a folder ending in `/`) holds `file`.
fn holds(rule: &str, file: &str) -> bool {
    if rule.ends_with('/') {
        file.starts_with(rule)
    } else {
        file == rule
    }
}

/// The folder of a file (`sim/wakeup.rs` -> `sim/`; a top-level file -> None).
fn folder_of(file: &str) -> Option<&str> {
    file.rfind('/').map(|i| &file[..=i])
}

fn engine_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file of the engine, by its path relative to `src/engine`.
fn files() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).expect("src/engine is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "target") {
                    continue;
                }
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&p).expect("readable"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&engine_dir(), &engine_dir(), &mut out);
    out
}

/// The module path of a file (`sim/wakeup.rs` -> [sim, wakeup]; `mod.rs` -> its folder).
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel.trim_end_matches(".rs").split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// `text` without line comments and without `#[cfg(test)] mod name { ... }` blocks.
fn code_of(text: &str) -> String {
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
    const TEST: &str = "#[cfg(test)]";
    while let Some(at) = rest.find(TEST) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let is_mod = after[TEST.len()..].trim_start().starts_with("mod ");
        let Some(open) = after.find('{').filter(|_| is_mod) else {
            out.push_str(TEST);
            rest = &after[TEST.len()..];
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

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths after `base` in `rest` (`a::b::C`, or each item of a `{a::B, c}` group).
fn paths_after(base: &[String], rest: &str, out: &mut Vec<Vec<String>>) {
    let path: String = rest.chars().take_while(|&c| is_ident(c) || c == ':').collect();
    let mut p = base.to_vec();
    p.extend(path.split("::").filter(|s| !s.is_empty() && *s != "self").map(String::from));
    let after = &rest[path.len()..];
    if !after.starts_with('{') {
        out.push(p);
        return;
    }
    // A group: split at its top-level commas.
    let mut depth = 0usize;
    let mut start = 1;
    for (i, c) in after.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                paths_after(&p, after[start..i].trim_start(), out);
                start = i + 1;
                if c == '}' {
                    return;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
}

/// The module paths a file's code names: `crate::engine::...`, `crate::...` and `super::...`
/// resolved from `module`.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let starts = |i: usize| !code[..i].chars().last().is_some_and(|c| is_ident(c) || c == ':');
    for (i, _) in code.match_indices("crate::") {
        if !starts(i) {
            continue;
        }
        let mut rest = &code[i + "crate::".len()..];
        if let Some(r) = rest.strip_prefix("engine::") {
            rest = r;
        }
        paths_after(&[], rest, &mut out);
    }
    for (i, _) in code.match_indices("super::") {
        if !starts(i) {
            continue;
        }
        let mut rest = &code[i..];
        let mut base = module.to_vec();
        while let Some(r) = rest.strip_prefix("super::") {
            base.pop();
            rest = r;
        }
        paths_after(&base, rest, &mut out);
    }
    out
}

/// Each file's edges to other files (by relative path).
fn edges(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = files.keys().map(|f| (module_of(f), f.clone())).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, text) in files {
        let module = module_of(f);
        for path in named_paths(&code_of(text), &module) {
            let target = (0..=path.len()).rev().find_map(|k| modules.get(&path[..k]));
            if let Some(t) = target.filter(|t| *t != f) {
                out.entry(f.clone()).or_default().insert(t.clone());
            }
        }
    }
    out
}

/// One line per circle: its files and the edges between them.
fn describe(found: &[Vec<String>], e: &BTreeMap<String, BTreeSet<String>>) -> String {
    let mut out = String::new();
    for g in found {
        let inner: Vec<String> = g
            .iter()
            .flat_map(|f| e.get(f).into_iter().flatten().filter(|t| g.contains(t)).map(move |t| format!("{f} -> {t}")))
            .collect();
        out.push_str(&format!("\n  circle {}: {}", g.join(", "), inner.join("; ")));
    }
    out
}

#[test]
fn the_engine_has_no_import_circle() {
    let files = files();
    assert!(files.len() > 20 && files.contains_key("config/mod.rs"), "read too few files: {:?}", files.keys());
    let e = edges(&files);
    // The reader sees the engine's real edges (were it blind, no circle could be found).
    for (from, to) in [("workload/pipe.rs", "workload/mod.rs"), ("trace/mod.rs", "explain/records.rs")] {
        assert!(e.get(from).is_some_and(|t| t.contains(to)), "{from} -> {to} not read: {:?}", e.get(from));
    }
    let found = circles(&e);
    assert!(found.is_empty(), "import circles in src/engine:{}", describe(&found, &e));
}

#[test]
fn the_lower_layers_name_only_what_their_rule_allows() {
    let files = files();
    let e = edges(&files);
    let mut wrong = Vec::new();
    for (scope, allowed) in RULES {
        let mine: Vec<&String> = files.keys().filter(|f| holds(scope, f)).collect();
        assert!(!mine.is_empty(), "{scope} has a rule but no file");
        for f in mine {
            for t in e.get(f).into_iter().flatten() {
                let own = folder_of(f).is_some_and(|d| t.starts_with(d));
                if !own && !allowed.iter().any(|a| holds(a, t)) {
                    wrong.push(format!("{f} names {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layering rules broken: {wrong:?}");
}

#[test]
fn the_reader_reads_every_form_and_the_finder_finds_a_circle() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let code = code_of(
        "use super::{pipe::PipeBuf, Step};\n\
         use crate::engine::kernel::Kernel; // crate::engine::metrics in a comment\n\
         fn f() { crate::order::sort(&mut v); super::super::TaskState::Sleeping; }\n\
         #[cfg(test)]\nmod tests { use crate::engine::config::Config; }\n",
    );
    let got = named_paths(&code, &s(&["sim", "wakeup"]));
    assert_eq!(
        got,
        vec![
            s(&["kernel", "Kernel"]),
            s(&["order", "sort"]),
            s(&["sim", "pipe", "PipeBuf"]),
            s(&["sim", "Step"]),
            s(&["TaskState", "Sleeping"]),
        ]
    );
    let files: BTreeMap<String, String> = [
        ("mod.rs", "pub mod a; pub mod b; pub fn run() {}"),
        ("a.rs", "use crate::engine::b::X;"),
        ("b/mod.rs", "mod c; pub struct X; use c::Y;"),
        ("b/c.rs", "use super::super::a::Z; fn g() { crate::run() }"),
        ("d.rs", "use crate::a::Z;"),
    ]
    .into_iter()
    .map(|(f, t)| (f.to_string(), t.to_string()))
    .collect();
    let e = edges(&files);
    assert_eq!(e.get("b/mod.rs"), None, "a parent naming its child is no edge");
    assert_eq!(e["b/c.rs"], BTreeSet::from(["a.rs".to_string(), "mod.rs".to_string()]));
    assert!(circles(&e).is_empty(), "{e:?}");
    // Closing a -> b/mod -> d -> b/c -> a: a circle through a parent and its child.
    let mut files = files;
    files.insert("b/mod.rs".into(), "mod c; pub struct X; use super::d::W;".into());
    files.insert("d.rs".into(), "use crate::b::c::V;".into());
    let e = edges(&files);
    assert_eq!(circles(&e), vec![s(&["a.rs", "b/c.rs", "b/mod.rs", "d.rs"])], "{e:?}");
    assert!(describe(&circles(&e), &e).contains("b/mod.rs -> d.rs"));
}
