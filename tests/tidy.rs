//! Tidy: checks the architecture invariants that a compiler does not, so the code map stays true.
//!
//! - every `.rs` file under src/ and tests/ opens with a `//!` line saying what it is for;
//! - nothing under src/engine/ names yew, web_sys, gloo, js_sys or wasm_bindgen, or reads a
//!   clock (the engine is pure and deterministic, and `Instant::now` panics on wasm32);
//! - the URL query string is split into pairs only in src/share/url.rs, the one URL codec;
//! - no text file carries a merge-conflict marker (two once reached main inside comments and
//!   the README, where no compiler looks);
//! - the layers Cargo enforces stay as Cargo.toml files declare them: the engine crate
//!   (src/engine/Cargo.toml) depends on serde, rand and rand_chacha only; the root's web crates
//!   are optional, turned on by the `web` feature only, which is not a default; and `cargo tree`
//!   of the CLI's crate, the engine and the Python package (normal dependencies, default
//!   features, every target) names none of the web crates.

use std::path::{Path, PathBuf};

/// The crates the engine may depend on (src/engine/Cargo.toml).
const ENGINE_DEPS: &[&str] = &["serde", "rand", "rand_chacha"];
/// The web crates as Cargo names them: optional in the root crate, behind the `web` feature.
const WEB_PACKAGES: &[&str] = &["yew", "wasm-bindgen", "js-sys", "gloo", "web-sys"];

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

/// A Cargo.toml's dependency entries: `(table, name, value)` for every key of every table
/// whose name ends in `dependencies` (`[dependencies]`, `[dev-dependencies]`,
/// `[target.'cfg(..)'.dependencies]`, ...), the value being the text after `=` up to where its
/// brackets and braces close (an inline table may span lines). Enough TOML for a manifest.
fn dependency_entries(manifest: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut table = String::new();
    let mut lines = manifest.lines();
    while let Some(line) = lines.next() {
        let line = line.split(" #").next().unwrap_or("").trim();
        if line.starts_with('[') {
            table = line.trim_matches(|c| c == '[' || c == ']').to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else { continue };
        if !table.ends_with("dependencies") {
            continue;
        }
        let mut value = value.trim().to_string();
        let depth = |v: &str| v.matches(['{', '[']).count() as i64 - v.matches(['}', ']']).count() as i64;
        while depth(&value) > 0 {
            let Some(next) = lines.next() else { break };
            value.push(' ');
            value.push_str(next.trim());
        }
        out.push((table.clone(), key.trim().trim_matches('"').to_string(), value));
    }
    out
}

/// The engine manifest's violations: a dependency (normal, build or target-specific) that is
/// not in `ENGINE_DEPS`, or a dev-dependency on a web crate.
fn engine_manifest_violations(manifest: &str) -> Vec<String> {
    dependency_entries(manifest)
        .into_iter()
        .filter(|(table, name, _)| {
            if table.ends_with("dev-dependencies") {
                WEB_PACKAGES.contains(&name.as_str())
            } else {
                !ENGINE_DEPS.contains(&name.as_str())
            }
        })
        .map(|(table, name, _)| format!("[{table}] {name}"))
        .collect()
}

/// The root manifest's violations: a web crate that is not optional, a feature other than
/// `web` (and features that include it) turning one on, or `web` among the defaults.
fn root_manifest_violations(manifest: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let mut seen = 0;
    for (table, name, value) in dependency_entries(manifest) {
        if WEB_PACKAGES.contains(&name.as_str()) && !table.ends_with("dev-dependencies") {
            seen += 1;
            if !value.replace(' ', "").contains("optional=true") {
                bad.push(format!("[{table}] {name} is not optional"));
            }
        }
    }
    if seen == 0 {
        bad.push("no web crate found among the dependencies: is this the root Cargo.toml?".to_string());
    }
    let mut in_features = false;
    for line in manifest.lines().map(|l| l.split(" #").next().unwrap_or("").trim()) {
        if line.starts_with('[') {
            in_features = line == "[features]";
            continue;
        }
        let Some((feature, value)) = line.split_once('=').filter(|_| in_features) else { continue };
        let feature = feature.trim();
        let turns_on_web = value.contains("\"web\"");
        let names_a_web_crate = WEB_PACKAGES.iter().any(|w| value.contains(&format!("\"dep:{w}\"")));
        if feature == "default" && (turns_on_web || names_a_web_crate || value.contains("\"ssr\"")) {
            bad.push(format!("the default features turn the web crates on: {value}"));
        } else if feature != "web" && names_a_web_crate && !turns_on_web {
            bad.push(format!("feature `{feature}` turns a web crate on without `web`"));
        }
    }
    bad
}

#[test]
fn the_engine_crate_depends_on_serde_and_rand_only() {
    let bad = engine_manifest_violations(&read("src/engine/Cargo.toml"));
    assert!(bad.is_empty(), "src/engine/Cargo.toml may depend on {ENGINE_DEPS:?} only: {bad:?}");
}

#[test]
fn the_root_crates_web_dependencies_are_optional_behind_web() {
    let bad = root_manifest_violations(&read("Cargo.toml"));
    assert!(bad.is_empty(), "Cargo.toml: the web crates belong behind the `web` feature:\n  {}", bad.join("\n  "));
}

/// The web crates `cargo tree` names for `args` (normal dependencies, for the host and for
/// wasm32: the CLI's build and the browser's), with the tree itself for messages.
fn web_crates_in_tree(args: &[&str]) -> (Vec<String>, String) {
    let host = String::from_utf8(std::process::Command::new("rustc").arg("-vV").output().expect("rustc -vV").stdout)
        .expect("UTF-8")
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc -vV names the host");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = std::process::Command::new(cargo)
        .args(["tree", "--locked", "-e", "normal", "--prefix", "none", "--target", &host])
        .args(["--target", "wasm32-unknown-unknown"])
        .args(args)
        .current_dir(root())
        .output()
        .expect("run cargo tree");
    assert!(out.status.success(), "cargo tree {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8(out.stdout).expect("cargo tree prints UTF-8");
    let web = tree
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| WEB_PACKAGES.contains(name))
        .map(str::to_string)
        .collect();
    (web, tree)
}

#[test]
fn the_cli_and_the_engine_build_no_web_crate() {
    for package in ["schedscope", "schedscope-engine"] {
        let (web, tree) = web_crates_in_tree(&["-p", package]);
        assert!(tree.lines().any(|l| l.starts_with(package)), "cargo tree -p {package} printed no {package}:\n{tree}");
        assert!(web.is_empty(), "`cargo tree -p {package} -e normal` (host and wasm32) has web crates: {web:?}");
    }
    // The check sees them where they are: the web app's build.
    let (web, tree) = web_crates_in_tree(&["-p", "schedscope", "--features", "web"]);
    assert!(web.iter().any(|w| w == "yew") && web.iter().any(|w| w == "web-sys"), "--features web:\n{tree}");
}

#[test]
fn the_python_package_takes_the_root_crate_without_its_web_feature() {
    // Its tree needs pyo3, which only the python layer downloads: the manifest is read instead.
    let manifest = read("python/Cargo.toml");
    let deps = dependency_entries(&manifest);
    let root_dep =
        deps.iter().find(|(t, n, _)| t == "dependencies" && n == "schedscope").expect("python depends on schedscope");
    assert!(!root_dep.2.contains("\"web\"") && !root_dep.2.contains("\"ssr\""), "python/Cargo.toml: {}", root_dep.2);
    let web: Vec<_> = deps.iter().filter(|(_, n, _)| WEB_PACKAGES.contains(&n.as_str())).collect();
    assert!(web.is_empty(), "python/Cargo.toml names web crates: {web:?}");
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

    // Manifests: an engine that grows a web (or any other) dependency, a web crate that is
    // not optional or turned on by default.
    let engine = "[package]\nname = \"e\"\n[dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\nrand = \"0.8\"\n";
    assert!(engine_manifest_violations(engine).is_empty());
    assert_eq!(engine_manifest_violations(&format!("{engine}serde_json = \"1\"\n")), vec!["[dependencies] serde_json"]);
    let wasm = format!("{engine}[target.'cfg(target_arch = \"wasm32\")'.dependencies]\nweb-sys = {{ version = \"0.3\", features = [\n  \"Window\",\n] }}\n");
    assert_eq!(engine_manifest_violations(&wasm).len(), 1);
    assert_eq!(
        engine_manifest_violations(&format!("{engine}[dev-dependencies]\nproptest = \"1\"\n")),
        Vec::<String>::new()
    );
    let root = "[features]\ndefault = []\nweb = [\"dep:yew\"]\nssr = [\"web\", \"yew/ssr\"]\n[dependencies]\nyew = { version = \"0.23\", optional = true }\nweb-sys = { version = \"0.3\", optional = true, features = [\n  \"Window\",\n] }\n";
    assert!(root_manifest_violations(root).is_empty(), "{:?}", root_manifest_violations(root));
    assert_eq!(root_manifest_violations(&root.replace("default = []", "default = [\"web\"]")).len(), 1);
    assert_eq!(root_manifest_violations(&root.replace("\"0.23\", optional = true", "\"0.23\"")).len(), 1);
    assert_eq!(root_manifest_violations(&root.replace("ssr = [\"web\", ", "ssr = [\"dep:yew\", ")).len(), 1);
}

/// The `.rs` files directly under tests/ that tests/all.rs does not name as a module
/// (`autotests = false`: such a file would compile into nothing and its tests never run).
fn unlisted_test_files(all_rs: &str, files: &[String]) -> Vec<String> {
    let listed: Vec<&str> =
        all_rs.lines().filter_map(|l| l.trim().strip_prefix("mod ").and_then(|m| m.strip_suffix(';'))).collect();
    // The wasm32 targets and the binary's own root are their own targets in Cargo.toml.
    const OWN_TARGETS: &[&str] = &["all", "wasm", "wasm_bench"];
    files
        .iter()
        .filter_map(|f| f.strip_prefix("tests/")?.strip_suffix(".rs"))
        .filter(|name| !name.contains('/') && !OWN_TARGETS.contains(name) && !listed.contains(name))
        .map(|name| format!("tests/{name}.rs"))
        .collect()
}

#[test]
fn every_integration_test_file_is_a_module_of_tests_all() {
    let missing = unlisted_test_files(&read("tests/all.rs"), &rust_files("tests"));
    assert!(missing.is_empty(), "add `mod NAME;` to tests/all.rs for: {missing:?}");
    // The check itself: a file missing from the list is reported, a listed one is not.
    let files = vec!["tests/a.rs".to_string(), "tests/b.rs".to_string(), "tests/common/mod.rs".to_string()];
    assert_eq!(unlisted_test_files("mod a;\n", &files), vec!["tests/b.rs"]);
}
