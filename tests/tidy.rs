//! Tidy: checks the architecture invariants that a compiler does not, so the code map stays true.
//!
//! - every `.rs` file under src/ and tests/ opens with a `//!` line saying what it is for;
//! - nothing under src/engine/ names yew, web_sys, gloo, js_sys or wasm_bindgen, or reads a
//!   clock (the engine is pure and deterministic, and `Instant::now` panics on wasm32);
//! - the URL query string is split into pairs only in src/share/url.rs, the one URL codec;
//! - no text file carries a merge-conflict marker (two once reached main inside comments and
//!   the README, where no compiler looks).

use std::path::{Path, PathBuf};

/// Identifiers the engine must not use: the web crates.
const WEB_CRATES: &[&str] = &["yew", "web_sys", "gloo", "js_sys", "wasm_bindgen"];
/// Host clocks: the engine's time is simulated.
const CLOCKS: &[&str] = &["Instant::now", "SystemTime", "Date::now", "performance()"];
/// Ways of taking a query string apart; they belong in src/share/url.rs.
const QUERY_SPLITTING: &[&str] = &["split('&')", "split(\"&\")", "split_terminator('&')", "UrlSearchParams"];
/// The one module allowed to parse query strings.
const URL_CODEC: &str = "src/share/url.rs";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `dir`, as paths relative to the repo root with `/` separators.
fn rust_files(dir: &str) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(base, &path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let rel = path.strip_prefix(base).expect("under the root");
                out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
            }
        }
    }
    let mut out = Vec::new();
    let base = root();
    walk(&base, &base.join(dir), &mut out);
    out.sort();
    out
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

/// The code of a line without its `//` comment (doc comments name the crates they avoid).
fn code(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

/// `(line number, what)` for each web crate identifier or clock in `text`'s code.
fn engine_violations(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = code(line);
        for ident in code.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            if WEB_CRATES.contains(&ident) {
                out.push((i + 1, format!("names `{ident}`")));
            }
        }
        for clock in CLOCKS.iter().filter(|c| code.contains(**c)) {
            out.push((i + 1, format!("reads a host clock (`{clock}`)")));
        }
    }
    out
}

/// `(line number, pattern)` for each query-string splitting call in `text`'s code.
fn query_splitting(text: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let code = code(line);
        for pat in QUERY_SPLITTING.iter().filter(|p| code.contains(**p)) {
            out.push((i + 1, *pat));
        }
    }
    out
}

#[test]
fn every_rust_file_opens_with_a_module_doc() {
    let files: Vec<String> = rust_files("src").into_iter().chain(rust_files("tests")).collect();
    assert!(files.iter().any(|f| f == "src/engine/mod.rs"), "tidy did not find the engine: {files:?}");
    let bad: Vec<&String> = files.iter().filter(|f| !read(f).starts_with("//!")).collect();
    assert!(bad.is_empty(), "these files must start with a `//!` line saying what they are for: {bad:?}");
}

#[test]
fn the_engine_has_no_web_imports_and_no_clock() {
    let files = rust_files("src/engine");
    assert!(files.len() > 5, "tidy found too few engine files: {files:?}");
    let mut bad = Vec::new();
    for f in &files {
        for (line, what) in engine_violations(&read(f)) {
            bad.push(format!("{f}:{line} {what}"));
        }
    }
    assert!(bad.is_empty(), "src/engine/ must stay pure Rust (no web crates, no host clock):\n  {}", bad.join("\n  "));
}

#[test]
fn only_the_url_codec_splits_query_strings() {
    let mut bad = Vec::new();
    for f in rust_files("src").iter().filter(|f| *f != URL_CODEC) {
        for (line, pat) in query_splitting(&read(f)) {
            bad.push(format!("{f}:{line} `{pat}`"));
        }
    }
    assert!(
        bad.is_empty(),
        "the URL format lives in {URL_CODEC}; call it instead of parsing here:\n  {}",
        bad.join("\n  ")
    );
}

/// Text files a person reads or a tool runs, relative to the root: the top-level documents and
/// configs, and everything under the source, test, script and static folders.
fn text_files() -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if path.is_dir() {
                if name != "out" && name != "node_modules" {
                    walk(base, &path, out);
                }
            } else if [".rs", ".md", ".mjs", ".js", ".css", ".html", ".toml", ".json", ".sh", ".txt", ".yml"]
                .iter()
                .any(|x| name.ends_with(x))
                || path.parent().is_some_and(|p| p.file_name().is_some_and(|n| n == "scripts" || n == ".ci"))
            {
                out.push(path.strip_prefix(base).expect("under the root").to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let base = root();
    let mut out = Vec::new();
    for top in ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "Cargo.toml", "Trunk.toml", "index.html"] {
        if base.join(top).exists() {
            out.push(top.to_string());
        }
    }
    for dir in ["src", "tests", "e2e", "scripts", "static", ".ci", "benches", "fuzz", "docs"] {
        walk(&base, &base.join(dir), &mut out);
    }
    out.sort();
    out
}

/// `(line number)` of each merge-conflict marker line in `text`.
fn conflict_markers(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with("<<<<<<< ") || l.starts_with(">>>>>>> ") || *l == "=======")
        .map(|(i, _)| i + 1)
        .collect()
}

#[test]
fn no_file_carries_a_merge_conflict_marker() {
    let files = text_files();
    assert!(files.iter().any(|f| f == "README.md") && files.iter().any(|f| f.starts_with("e2e/")));
    let bad: Vec<String> =
        files.iter().flat_map(|f| conflict_markers(&read(f)).into_iter().map(move |n| format!("{f}:{n}"))).collect();
    assert!(bad.is_empty(), "merge-conflict markers left in: {bad:?}");
}

#[test]
fn the_checks_catch_what_they_are_for() {
    assert_eq!(conflict_markers("a\n<<<<<<< HEAD\nb\n=======\nc\n>>>>>>> topic\n"), vec![2, 4, 6]);
    assert!(conflict_markers("a\n======== not a marker\n<<<<<<<no space\n").is_empty());
    assert_eq!(engine_violations("use yew::prelude::*;").len(), 1);
    assert_eq!(engine_violations("let w = web_sys::window();").len(), 1);
    assert_eq!(engine_violations("use gloo::timers::callback::Timeout;").len(), 1);
    assert_eq!(engine_violations("let t = std::time::Instant::now();").len(), 1);
    // Comments and look-alike identifiers are fine.
    assert!(engine_violations("//! no yew, web_sys or gloo here").is_empty());
    assert!(engine_violations("let x = 1; // not yew::").is_empty());
    assert!(engine_violations("let yewish = gloomy + web_system; let i = Instant { at: 0 };").is_empty());

    assert_eq!(query_splitting("for kv in q.split('&') {").len(), 1);
    assert_eq!(query_splitting("let p = web_sys::UrlSearchParams::new_with_str(s);").len(), 1);
    assert!(query_splitting("for t in v.split(',') {").is_empty());
}
