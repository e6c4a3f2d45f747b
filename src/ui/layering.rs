//! The layering of `src/ui`, checked (tidy): no import circles between its files, each
//! folder's pure part reaches only what its rule allows, and pure models name no yew,
//! web-sys, gloo, js-sys or wasm-bindgen (so they are tested natively as they are).
//!
//! Edges are read as `python3 /work/shared/tools/rs_cycles.py` reads them: every
//! `crate::ui::a::b` path and every `super::` path outside `#[cfg(test)]` modules ties a file
//! to the file of the longest module prefix that exists. A parent naming its own child
//! (`mod draw;` then `draw::X`) is not an edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Files that are pure models: no web crate in their code.
const PURE: &[&str] = &[
    "app/state.rs",
    "common/format.rs",
    "common/palette.rs",
    "common/scale.rs",
    "explore/replicas.rs",
    "inspect/find.rs",
    "sweep/model.rs",
    "timeline/draw.rs",
    "timeline/nav.rs",
    "timeline/runqueue.rs",
    "timeline/window.rs",
    "tour/mod.rs",
    "traces/job.rs",
    "worker/execute.rs",
    "worker/packing.rs",
    "worker/protocol.rs",
    "worker/scheduler.rs",
];

/// Per folder (or file), the only `ui` folders its code may name besides itself.
const RULES: &[(&str, &[&str])] = &[
    // The shared helpers depend on nothing else in the UI.
    ("common/", &[]),
    // The protocol and its pure halves: the trace jobs the worker runs, nothing of the page.
    ("worker/protocol.rs", &[]),
    ("worker/packing.rs", &[]),
    ("worker/scheduler.rs", &[]),
    ("worker/execute.rs", &["traces"]),
    // The sweep's model: numbers, replicas and the sweep's event budget; no panel, no state.
    ("sweep/model.rs", &["common", "explore", "worker"]),
    // The timeline's pure files: no app state, no other feature.
    ("timeline/draw.rs", &["common", "timeline", "worker"]),
    ("timeline/nav.rs", &["common", "timeline"]),
    ("timeline/runqueue.rs", &[]),
    ("timeline/window.rs", &[]),
];

fn ui_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui")
}

/// Every `.rs` file under `src/ui`, by its path relative to it.
fn files() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).expect("src/ui is readable").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, root, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/");
                out.insert(rel, std::fs::read_to_string(&p).expect("readable"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&ui_dir(), &ui_dir(), &mut out);
    out
}

/// The module path of a file (`timeline/draw.rs` -> [timeline, draw]; `mod.rs` -> its folder).
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

/// The paths a file's code names: `crate::ui::...` and `super::...` resolved from `module`.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect::<String>();
    let mut out = Vec::new();
    for (i, _) in code.match_indices("crate::ui::") {
        let path = ident(&code[i + "crate::ui::".len()..]);
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

/// Each file's edges to other files (by relative path).
fn edges(files: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<Vec<String>, String> = files.keys().map(|f| (module_of(f), f.clone())).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (f, text) in files {
        let module = module_of(f);
        for path in named_paths(&code_of(text), &module) {
            let target = (1..=path.len()).rev().find_map(|k| modules.get(&path[..k]));
            if let Some(t) = target.filter(|t| *t != f) {
                out.entry(f.clone()).or_default().insert(t.clone());
            }
        }
    }
    out
}

/// The files on an import circle, one list per circle (strongly connected groups > 1).
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
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
fn src_ui_has_no_import_circle() {
    let found = circles(&edges(&files()));
    assert!(found.is_empty(), "import circles in src/ui: {found:?}");
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut e: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    e.entry("a.rs".into()).or_default().insert("b/mod.rs".into());
    e.entry("b/mod.rs".into()).or_default().insert("a.rs".into());
    e.entry("c.rs".into()).or_default().insert("a.rs".into());
    assert_eq!(circles(&e), vec![vec!["a.rs".to_string(), "b/mod.rs".to_string()]]);
    // A `super::` path and a `crate::ui::` path are both read; test modules are not.
    let code =
        code_of("use super::b::X;\nfn f() { crate::ui::c::g() }\n#[cfg(test)]\nmod tests { use crate::ui::d; }\n");
    let got = named_paths(&code, &["a".to_string(), "x".to_string()]);
    assert_eq!(
        got,
        vec![vec!["c".to_string(), "g".to_string()], vec!["a".to_string(), "b".to_string(), "X".to_string()]]
    );
}

#[test]
fn each_folder_names_only_what_its_rule_allows() {
    let files = files();
    let e = edges(&files);
    let mut wrong = Vec::new();
    for (scope, allowed) in RULES {
        for (f, targets) in e.iter().filter(|(f, _)| f.starts_with(scope)) {
            let own = f.split('/').next().unwrap_or_default();
            for t in targets {
                let folder = t.split('/').next().unwrap_or_default();
                // A file may always name its own folder.
                if folder != own && !allowed.contains(&folder) {
                    wrong.push(format!("{f} names {t}"));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "layering rules broken: {wrong:?}");
}

#[test]
fn pure_models_name_no_web_crate() {
    let files = files();
    let mut wrong = Vec::new();
    for f in PURE {
        let code = code_of(files.get(*f).unwrap_or_else(|| panic!("{f} is listed as pure but missing")));
        for web in ["yew", "web_sys", "gloo", "js_sys", "wasm_bindgen"] {
            let named = code.match_indices(web).any(|(i, _)| {
                let before = code[..i].chars().last();
                let after = code[i + web.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            });
            if named {
                wrong.push(format!("{f} names {web}"));
            }
        }
    }
    assert!(wrong.is_empty(), "pure models naming a web crate: {wrong:?}");
}
